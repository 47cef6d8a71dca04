// colors.js - player colours. A log's colour is free text, so it is only
// used when it names one of the colours below; anything else (and no
// colour) falls back to the seat's colour. The values are chosen to stand
// out on the board's green and to keep a 3:1 contrast for the markers.

const NAMED = {
  red: '#d7312b', blue: '#2563d6', green: '#1f9a4a', yellow: '#f2c029',
  black: '#2b2b2b', gray: '#8a8f98', grey: '#8a8f98', pink: '#e36bb2',
  purple: '#8747c7', orange: '#ee7d1a', white: '#f4f4f4', brown: '#8a5a2b',
  cyan: '#1aa6b7',
};
const SEATS = ['#d7312b', '#2563d6', '#f2c029', '#1f9a4a', '#8747c7', '#2b2b2b'];

export function playerColor(color, seat) {
  const key = typeof color === 'string' ? color.trim().toLowerCase() : '';
  if (Object.prototype.hasOwnProperty.call(NAMED, key)) return NAMED[key];
  return SEATS[((seat % SEATS.length) + SEATS.length) % SEATS.length];
}

/** A stroke colour that stands out against fill c. */
export function outlineFor(c) {
  const n = parseInt(c.slice(1), 16);
  const r = (n >> 16) & 255, g = (n >> 8) & 255, b = n & 255;
  const lum = (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
  return lum < 0.3 ? '#f6f1e1' : '#1b1b1b';
}

/** Colours for a list of players [{name, color}] in seat order. */
export function paletteFor(players) {
  const used = new Set();
  return players.map((p, i) => {
    let c = playerColor(p.color, i);
    // Two players with the same named colour still get different ones.
    if (used.has(c)) c = SEATS.find((x) => !used.has(x)) || c;
    used.add(c);
    return c;
  });
}
