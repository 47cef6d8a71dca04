// words.js - things named as players name them, as the engine's reports
// do (src/core/words.c): "the road running north–south", "the city on
// every side but north", "the field to the south", "the tile with a city
// and three roads". Our notation ("road:NS", "BA/CRRR") stays in the
// data and goes into a tooltip or a small code span beside the words.

import { h } from './dom.js';
import { FEATURES, FEATURE_NAMES, SPOT_NAMES } from './exp/index.js';
import { lang, t } from './i18n/index.js';

const SIDES = { N: 'north', E: 'east', S: 'south', W: 'west' };
const ORDER = 'NESW';
const DIRS = { N: 'north', NE: 'north-east', E: 'east', SE: 'south-east', S: 'south', SW: 'south-west', W: 'west', NW: 'north-west' };

const feature = (f) => (Object.prototype.hasOwnProperty.call(FEATURES, f) ? FEATURES[f] : null);
const word = (f) => (feature(f) ? feature(f).name : String(f).replace(/-/g, ' '));
const plural = (w) => (/[^aeiou]y$/.test(w) ? `${w.slice(0, -1)}ies` : /s$/.test(w) ? w : `${w}s`);

/** "north-west" for "NW"; anything else as it is. */
export const dirWords = (d) => (DIRS[d] ? (lang === 'en' ? DIRS[d] : t(`dir.${d}`)) : String(d));

// In the other languages a segment is its feature's name and where it lies
// on the tile, by compass points ("droga (wschód, zachód)"): their grammar
// (cases, genders) would need a phrase book per feature, which English's
// sentences above do without.
function segWordsOther(f, loc, shape) {
  const name = Object.prototype.hasOwnProperty.call(FEATURE_NAMES, f) ? FEATURE_NAMES[f] : word(f);
  if (shape === 'edges') {
    const sides = loc.startsWith('_') ? [...ORDER].filter((c) => c !== loc[1]) : [...ORDER].filter((c) => loc.includes(c));
    if (sides.length === 4) return t('seg.everySide', { feature: name });
    if (sides.length === 3) return t('seg.allBut', { feature: name, side: dirWords([...ORDER].find((c) => !sides.includes(c))) });
    return sides.length ? t('seg.where', { feature: name, where: sides.map(dirWords).join(', ') }) : name;
  }
  if (shape === 'halves') {
    if (loc === 'I' || loc === '' || loc === 'II') return t('seg.inside', { feature: name });
    let x = 0, y = 0;
    for (const p of loc.split('.')) if (HALVES[p]) { x += HALVES[p][0]; y += HALVES[p][1]; }
    if (loc.split('.').length === 8 || (!x && !y)) return t('seg.around', { feature: name });
    const ns = y > 0 ? 'N' : 'S', we = x > 0 ? 'E' : 'W';
    const d = Math.abs(y) > 2 * Math.abs(x) ? ns : Math.abs(x) > 2 * Math.abs(y) ? we : ns + we;
    return t('seg.where', { feature: name, where: dirWords(d) });
  }
  return loc && loc !== 'I' ? t('seg.where', { feature: name, where: SPOT_NAMES[loc] || loc }) : name;
}

function edgesWords(loc) {
  const sides = loc.startsWith('_') ? [...ORDER].filter((c) => c !== loc[1]) : [...ORDER].filter((c) => loc.includes(c));
  if (sides.length === 4) return ' on every side';
  if (sides.length === 3) return ` on every side but ${SIDES[[...ORDER].find((c) => !sides.includes(c))]}`;
  const set = sides.join('');
  if (set === 'NS') return ' running north–south';
  if (set === 'EW') return ' running east–west';
  if (sides.length === 2) return ` on the ${SIDES[set === 'NW' ? 'N' : sides[0]]} and ${SIDES[set === 'NW' ? 'W' : sides[1]]} sides`;
  if (sides.length === 1) return ` on the ${SIDES[sides[0]]} side`;
  return '';
}

// Where a field's half-edges lie: NL is the west half of the north edge,
// the halves go round clockwise (x east, y north).
const HALVES = { NL: [-1, 2], NR: [1, 2], EL: [2, 1], ER: [2, -1], SL: [1, -2], SR: [-1, -2], WL: [-2, -1], WR: [-2, 1] };
const CORNERS = { 'NR.EL': 'north-east', 'ER.SL': 'south-east', 'SR.WL': 'south-west', 'NL.WR': 'north-west' };

function halvesWords(loc) {
  if (loc === 'I' || loc === '') return ' inside the tile';
  if (loc === 'II') return ' inside the tile (the second one)';
  const parts = loc.split('.');
  if (parts.length === 8) return ' all round the tile';
  const key = [...parts].sort((a, b) => Object.keys(HALVES).indexOf(a) - Object.keys(HALVES).indexOf(b)).join('.');
  const corner = CORNERS[key] || CORNERS[[...parts].sort().join('.')];
  if (corner) return ` in the ${corner} corner`;
  let x = 0, y = 0;
  for (const p of parts) if (HALVES[p]) { x += HALVES[p][0]; y += HALVES[p][1]; }
  if (!x && !y) return ' across the tile';
  const ns = y > 0 ? 'north' : 'south', we = x > 0 ? 'east' : 'west';
  if (Math.abs(y) > 2 * Math.abs(x)) return ` to the ${ns}`;
  if (Math.abs(x) > 2 * Math.abs(y)) return ` to the ${we}`;
  return ` to the ${ns}-${we}`;
}

/** "road:NS" → "the road running north–south"; "quarter:market" → "the
 * quarter (market)"; "monastery" → "the monastery". */
export function segWords(segment) {
  if (segment === null || segment === undefined || segment === '') return t('seg.tile');
  const [f, loc = ''] = String(segment).split(':');
  const shape = feature(f) ? feature(f).shape : null;
  if (lang !== 'en') return segWordsOther(f, loc, shape);
  const head = `the ${word(f)}`;
  if (shape === 'edges') return head + edgesWords(loc);
  if (shape === 'halves') return head + halvesWords(loc);
  if (loc && loc !== 'I') return `${head} (${loc})`;
  return head;
}

const NUMBERS = ['no', 'a', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight'];

/** A tile kind by what is on it, from the replay's definition: "the tile
 * with a city and three roads"; fields left out, as they lie round the
 * rest. */
export function tileWords(def) {
  const count = new Map();
  for (const sg of (def && def.segments) || []) {
    const shape = feature(sg.feature) ? feature(sg.feature).shape : null;
    if (shape === 'halves' || !shape) continue;
    count.set(sg.feature, (count.get(sg.feature) || 0) + 1);
  }
  if (def && def.flier && !count.has('flier')) count.set('flier', 1);
  if (!count.size) return def ? t('tile.fieldsOnly') : t('tile.any');
  // cities before roads, as players say it (the engine's registry order, reversed)
  const kinds = [...count.keys()].sort((a, b) => (feature(b).rank ?? 99) - (feature(a).rank ?? 99));
  // the other languages list the features with their counts, which needs
  // no article or plural per feature
  if (lang !== 'en') {
    const name = (k) => (Object.prototype.hasOwnProperty.call(FEATURE_NAMES, k) ? FEATURE_NAMES[k] : word(k));
    return t('tile.with', { list: kinds.map((k) => (count.get(k) > 1 ? `${name(k)} ×${count.get(k)}` : name(k))).join(', ') });
  }
  const parts = kinds.map((k) => {
    const n = count.get(k), w = word(k);
    return `${n === 1 ? (/^[aeiou]/.test(w) ? 'an' : 'a') : (NUMBERS[n] || n)} ${n === 1 ? w : plural(w)}`;
  });
  return `the tile with ${parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}` : parts[0]}`;
}

/** The words, with the notation as a tooltip and a data attribute. */
export const segSpan = (segment) => h('span', { class: 'seg-words', title: String(segment), dataset: { segment: String(segment) }, text: segWords(segment) });
export const tileSpan = (id, def) => h('span', { class: 'tile-words', title: String(id), dataset: { tile: String(id) }, text: tileWords(def) });
