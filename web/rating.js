// rating.js - a player's rating history and flier luck on their page
// (docs/api.md, GET /api/players/{name}: "rating", "luck").

import { h, s, fmtNum } from './dom.js';

export const RATING_NOTE = 'Rating: a Weng–Lin (OpenSkill) skill estimate over valid, finished games in the order they were uploaded, shown as μ − 3σ (new players start at 0). Games with violations and unfinished games are left out.';

/** The rating after each rated game, as a line over the games. */
export function ratingChart(r) {
  const pts = (r && r.history) || [];
  const W = 420, H = 200, L = 40, R = 10, T = 10, B = 26;
  const vals = pts.map((p) => p.rating);
  let lo = Math.min(0, ...vals), hi = Math.max(1, ...vals);
  if (hi - lo < 1) hi = lo + 1;
  const n = Math.max(2, pts.length);
  const x = (i) => L + ((W - L - R) * i) / (n - 1);
  const y = (v) => T + (H - T - B) * (1 - (v - lo) / (hi - lo));
  const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, class: 'chart-svg rating-chart', role: 'img', 'aria-label': 'Rating after each rated game', dataset: { testid: 'rating-chart' } });
  for (const t of [lo, (lo + hi) / 2, hi]) {
    svg.appendChild(s('line', { class: 'grid', x1: L, x2: W - R, y1: y(t), y2: y(t) }));
    svg.appendChild(s('text', { class: 'axis', x: L - 5, y: y(t) + 4, 'text-anchor': 'end', text: t.toFixed(1) }));
  }
  svg.appendChild(s('text', { class: 'axis', x: (W + L) / 2, y: H - 8, 'text-anchor': 'middle', text: `${pts.length} rated game${pts.length === 1 ? '' : 's'}` }));
  const d = pts.map((p, i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)} ${y(p.rating).toFixed(1)}`).join('');
  svg.appendChild(s('path', { class: 'series rating-line', d, stroke: 'currentColor', fill: 'none' }));
  pts.forEach((p, i) => {
    const c = s('circle', { class: 'rating-dot', r: 3, cx: x(i), cy: y(p.rating), dataset: { game: String(p.game_id) } });
    c.appendChild(s('title', { text: `game #${p.game_id}: ${p.rating.toFixed(2)}` }));
    svg.appendChild(c);
  });
  return h('figure', { class: 'chart' }, h('figcaption', { text: 'Rating history' }), svg);
}

/** The rating card: the figure, its history and what it means. */
export function ratingSection(r) {
  if (!r) {
    return h('section', { class: 'card', dataset: { testid: 'rating' } }, h('h2', { text: 'Rating' }),
      h('p', { class: 'muted', text: 'No rated game yet.' }), h('p', { class: 'note', text: RATING_NOTE }));
  }
  return h('section', { class: 'card', dataset: { testid: 'rating' } }, h('h2', { text: 'Rating' }),
    h('p', { dataset: { testid: 'rating-value' } }, h('strong', { text: r.rating.toFixed(2) }),
      ` after ${fmtNum(r.games)} rated game${r.games === 1 ? '' : 's'} (μ ${r.mu.toFixed(2)}, σ ${r.sigma.toFixed(2)})`),
    ratingChart(r), h('p', { class: 'note', text: RATING_NOTE }));
}

/** "+3.00" / "−1.50": a luck figure with its sign. */
export const signed = (x) => (x > 0 ? '+' : x < 0 ? '−' : '') + Math.abs(x).toFixed(2);

/** What a luck figure says, in words: within one spread is ordinary. */
export function luckWords(luck, spread) {
  const z = spread > 0 ? luck / spread : 0;
  return Math.abs(z) < 1 ? 'about what a fair die gives'
    : Math.abs(z) < 2 ? (z > 0 ? 'somewhat luckier than average' : 'somewhat unluckier than average')
      : (z > 0 ? 'much luckier than a fair die usually gives' : 'much unluckier than a fair die usually gives');
}

/** "landed 3.00 more times than the odds predicted; a spread of 1.20
 * means ±1.20 is ordinary chance" */
export function luckSentence(luck, spread) {
  const more = Math.abs(luck).toFixed(2);
  const how = luck > 0 ? `${more} more times than` : luck < 0 ? `${more} fewer times than` : 'exactly as often as';
  return `landed ${how} the odds predicted; a spread of ${spread.toFixed(2)} means ±${spread.toFixed(2)} is ordinary chance`;
}

export const LUCK_NOTE = 'Each roll of the die picks one of three squares; a flight’s chance to land is how many of the three had a place to land, divided by 3. Expected landings are the sum of those chances, luck is landings minus expected, and the spread is one standard deviation of a fair die: within it is ordinary, beyond twice it is rare. Flights whose log ends before the landing, and rolls no die shows, are left out.';

/** Landings against what the dice promised, said in plain words, and the
 * points the flights won. */
export function luckSection(l) {
  if (!l || !l.flights) {
    return h('section', { class: 'card', dataset: { testid: 'luck' } }, h('h2', { text: 'Flier luck' }),
      h('p', { class: 'muted', text: 'No flight with a landing or a return yet.' }),
      l && l.points ? h('p', { dataset: { testid: 'luck-points' }, text: `Points won by flights: ${fmtNum(l.points)}.` }) : null);
  }
  return h('section', { class: 'card', dataset: { testid: 'luck' } }, h('h2', { text: 'Flier luck' }),
    h('p', { dataset: { testid: 'luck-text' }, text: `Landed ${fmtNum(l.landed)} of ${fmtNum(l.flights)} flights; the dice promised ${l.expected.toFixed(2)} on average. Luck ${signed(l.luck)} landings (± ${l.spread.toFixed(2)}): ${luckWords(l.luck, l.spread)}.` }),
    h('p', { dataset: { testid: 'luck-plain' }, text: `In plain words: ${luckSentence(l.luck, l.spread)}.` }),
    h('p', { dataset: { testid: 'luck-points' } }, 'Points won by flights: ', h('strong', { text: fmtNum(l.points || 0) }),
      ' — the points of every scoring in which a follower of theirs that had flown there counted toward their majority (each scoring once).'),
    h('p', { class: 'note', text: LUCK_NOTE }));
}
