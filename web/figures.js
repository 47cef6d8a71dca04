// figures.js - one table entry per kind: the figures (by JCloisterZone's
// meeple kind, as the replay names them), the tokens a tile's segment
// carries (the replay's segment attributes: an inn, a cathedral, trade
// goods, a pig herd) and the features scores name. Each entry gives the
// kind's name in text and how the board draws it; a kind the tables do
// not know is drawn with a generic shape and named as it is written,
// never an error.

import { s } from './dom.js';

// Silhouettes centred on (0, 0), about 26 units tall before scaling.
// A meeple standing.
const MEEPLE_D = 'M2.8 -4.6C6 -4.6 11.5 -3.8 11.5 -1C11.5 1.2 9 1.8 6.5 2L10.2 10.8C10.6 12.2 9.8 12.8 8.6 12.8H3.6L0 6.4L-3.6 12.8H-8.6C-9.8 12.8-10.6 12.2-10.2 10.8L-6.5 2C-9 1.8-11.5 1.2-11.5 -1C-11.5 -3.8-6 -4.6-2.8 -4.6A4.8 4.8 0 1 1 2.8 -4.6Z';
// An abbot: a robed figure with a hood.
const ABBOT_D = 'M0 -13C4.6 -13 6 -9 5 -5.2L9.2 10.6C9.6 12 8.8 12.8 7.4 12.8H-7.4C-8.8 12.8-9.6 12-9.2 10.6L-5 -5.2C-6 -9-4.6 -13 0 -13Z';
// The phantom: a ghost with a wavy hem and two eyes (holes).
const PHANTOM_D = 'M0 -13.5C6.6 -13.5 10 -8.6 10 -2.5V12.5L6.7 9.6L3.3 12.5L0 9.6L-3.3 12.5L-6.7 9.6L-10 12.5V-2.5C-10 -8.6-6.6 -13.5 0 -13.5Z' +
  'M-4.6 -5.5a1.9 2.4 0 1 0 3.8 0a1.9 2.4 0 1 0 -3.8 0Z M0.8 -5.5a1.9 2.4 0 1 0 3.8 0a1.9 2.4 0 1 0 -3.8 0Z';
// The builder: a figure with a hammer raised.
const BUILDER_D = 'M-2 -14A4.4 4.4 0 1 1 -2.01 -14Z M-9.5 12.8L-7 -3.3Q-2.2 -5.6 2.6 -3.3L5.1 12.8Z' +
  'M1.4 -2.2L8.9 -12.6L10.9 -11.2L3.4 -0.8Z M5.6 -16.6L13.4 -11L11.3 -8L3.4 -13.6Z';
// A pig, facing east: body, snout, legs, an ear, an eye (a hole).
const PIG_D = 'M-12 0C-12 -6 -6 -8.5 1 -8.5C6.5 -8.5 10 -6.5 11.2 -3.2L14 -3.6V2.4L11.2 2C10.3 4.4 8.6 5.8 7 6.4V11H3.6V7H-4.6V11H-8V6C-10.6 4.6 -12 2.6 -12 0Z' +
  'M2.6 -8.2L5.4 -12.8L7.4 -7.6Z M6.1 -4.4a1.2 1.2 0 1 0 2.4 0a1.2 1.2 0 1 0 -2.4 0Z';
// The mayor: top hat, head, a wide robe.
const MAYOR_D = 'M-4.6 -21H4.6V-14.6H7.8V-12.4H-7.8V-14.6H-4.6Z M0 -12.3A4.6 4.6 0 1 1 -0.01 -12.3Z M-5.4 -3.4H5.4L11 12.8H-11Z';
// The wagon: a covered cart on two wheels, with its shaft.
const WAGON_D = 'M-12.5 -6C-12.5 -15.5 9.5 -15.5 9.5 -6Z M-13.5 -6.5H10.5V3.5H-13.5Z M10.5 -3.5H17V-1.2H10.5Z' +
  'M-12.5 4a5 5 0 1 0 10 0a5 5 0 1 0 -10 0Z M0.5 4a5 5 0 1 0 10 0a5 5 0 1 0 -10 0Z';
// The barn: a gambrel roof, a door and a loft window (holes).
const BARN_D = 'M-12 12.8V-1L-9.5 -8.5L0 -13.5L9.5 -8.5L12 -1V12.8Z M-4.5 12.2V3.5H4.5V12.2Z M-2.3 -6.5H2.3V-2.3H-2.3Z';
// The dragon (The Princess & the Dragon), facing east: body, neck and
// head, a wing raised, a tail, an eye (a hole).
const DRAGON_D = 'M-13 8C-13 2 -8 -1 -2 -1L4 -9L9 -12L13 -10L10 -7L7 -7L5 0C8 2 9 5 8 9L5 9L4 6L-4 6L-5 9L-8 9C-10 9 -11.5 10.5 -14 12C-13.5 10.5 -13 9.2 -13 8Z' +
  'M-3 -2L-9 -12L-1 -7L2 -13L3 -4Z M9.2 -10.2a0.9 0.9 0 1 0 1.8 0a0.9 0.9 0 1 0 -1.8 0Z';
// The fairy: a small figure with two wings.
const FAIRY_D = 'M0 -11A3.2 3.2 0 1 1 -0.01 -11Z M-3 -6.5H3L5 8H-5Z' +
  'M-2.5 -5C-9 -13 -13 -6 -10 -1C-8 2 -4 -1 -2.5 -3Z M2.5 -5C9 -13 13 -6 10 -1C8 2 4 -1 2.5 -3Z';
// Anything else: a diamond.
const GENERIC_D = 'M0 -11L10 0L0 11L-10 0Z';

/**
 * Figures by kind: name (in text), d (its silhouette), scale, lies (lies
 * down in a field, as a farmer), cls (an extra class), corner (stands on
 * the corner north-west of its tile, the barn), moves (may move between
 * turns, the wagon), neutral (no player's: drawn on its square in its own
 * colour, fill; the dragon, the fairy).
 */
export const FIGURES = {
  small: { name: 'follower', d: MEEPLE_D, scale: 0.8, lies: true },
  big: { name: 'large follower', d: MEEPLE_D, scale: 1.15, lies: true },
  abbot: { name: 'abbot', d: ABBOT_D, scale: 1 },
  phantom: { name: 'phantom', d: PHANTOM_D, scale: 0.95, cls: 'see-through', underlay: true },
  builder: { name: 'builder', d: BUILDER_D, scale: 0.9 },
  pig: { name: 'pig', d: PIG_D, scale: 0.85 },
  mayor: { name: 'mayor', d: MAYOR_D, scale: 0.82 },
  wagon: { name: 'wagon', d: WAGON_D, scale: 0.82, moves: true },
  barn: { name: 'barn', d: BARN_D, scale: 0.9, corner: true },
  dragon: { name: 'dragon', d: DRAGON_D, scale: 1.3, neutral: true, fill: '#b8322a' },
  fairy: { name: 'fairy', d: FAIRY_D, scale: 0.9, neutral: true, fill: '#f2d54b' },
};

/** The table entry of a figure kind; an unknown kind gets a generic one. */
export function figure(kind) {
  return Object.prototype.hasOwnProperty.call(FIGURES, kind) ? FIGURES[kind]
    : { name: String(kind || 'figure'), d: GENERIC_D, scale: 1, generic: true };
}

export const figureName = (kind) => figure(kind).name;

/** "a follower", "an abbot". */
export const withArticle = (name) => `${/^[aeiou]/i.test(name) ? 'an' : 'a'} ${name}`;

/** Where figure m stands, as [segment, the rest]: ["city:N", "at (2,1)"];
 * a barn stands on the corner north-west of its tile, in the field named. */
export function figureWhere(m) {
  const at = Array.isArray(m.at) ? `(${m.at[0]},${m.at[1]})` : '(?)';
  if (figure(m.kind).neutral) return ['', `on the square ${at}`];
  return [String(m.segment), figure(m.kind).corner ? `at the corner north-west of ${at}` : `at ${at}`];
}

/** "on city:N at (2,1)". */
export const figurePlace = (m) => `on ${figureWhere(m).join(' ')}`;

/** "Ada's mayor on city:N at (2,1)". */
export const figureTitle = (m) => (figure(m.kind).neutral
  ? `The ${figureName(m.kind)} ${figureWhere(m)[1]}`
  : `${m.player ?? 'Nobody'}'s ${figureName(m.kind)} ${figurePlace(m)}`);

/** The SVG of figure kind's silhouette, filled fill, centred on (0, 0):
 * a path, or a group when a see-through figure (the phantom) needs a pale
 * underlay to keep its colour readable on any ground. */
export function figureShape(kind, fill, stroke) {
  const f = figure(kind);
  const transform = f.scale !== 1 ? `scale(${f.scale})` : null;
  const body = s('path', { class: ['meeple-body', f.cls], d: f.d, fill, stroke, 'fill-rule': 'evenodd', transform });
  if (!f.underlay) return body;
  return s('g', null, s('path', { class: 'meeple-underlay', d: f.d, 'fill-rule': 'evenodd', transform }), body);
}

// ---- tokens on tiles ----

const grapes = [[-4, -3], [0, -3], [4, -3], [-2, 1], [2, 1], [0, 5]];

/**
 * Tokens by segment attribute: name (in text and the token's <title>) and
 * draw(): its SVG children, upright, centred on (0, 0), about 18 units.
 */
export const TOKENS = {
  inn: {
    name: 'inn',
    draw: () => [
      s('ellipse', { class: 'inn-lake', cx: 0, cy: 5, rx: 12, ry: 5 }),
      s('rect', { class: 'inn-body', x: -6.5, y: -5, width: 13, height: 9 }),
      s('path', { class: 'inn-roof', d: 'M-8.5 -4.5L0 -11L8.5 -4.5Z' }),
      s('path', { class: 'inn-sign', d: 'M6.5 -2H10V2.5H6.5Z' }),
      s('path', { class: 'inn-door', d: 'M-1.8 4V0Q0 -1.8 1.8 0V4Z' }),
    ],
  },
  cathedral: {
    name: 'cathedral',
    draw: () => [
      s('rect', { class: 'cathedral-body', x: -10, y: -4, width: 20, height: 12 }),
      s('path', { class: 'cathedral-roof', d: 'M-11 -3.5L-5 -9H5L11 -3.5Z' }),
      s('rect', { class: 'cathedral-body', x: -3.5, y: -15, width: 7, height: 12 }),
      s('path', { class: 'cathedral-roof', d: 'M-4.5 -14.5L0 -22L4.5 -14.5Z' }),
      s('path', { class: 'cathedral-door', d: 'M-2.4 8V2.5Q0 0 2.4 2.5V8Z' }),
      s('circle', { class: 'cathedral-window', cx: 0, cy: -9, r: 1.8 }),
    ],
  },
  wine: {
    name: 'wine',
    goods: true,
    draw: () => [
      s('circle', { class: 'goods-badge', r: 10 }),
      s('path', { class: 'wine-leaf', d: 'M0 -6L3.5 -9.5L6 -6.5Z' }),
      ...grapes.map(([cx, cy]) => s('circle', { class: 'wine-grape', cx, cy, r: 2.3 })),
    ],
  },
  cloth: {
    name: 'cloth',
    goods: true,
    draw: () => [
      s('circle', { class: 'goods-badge', r: 10 }),
      s('rect', { class: 'cloth-bolt', x: -6.5, y: -5.5, width: 13, height: 11, rx: 2 }),
      s('path', { class: 'cloth-stripe', d: 'M-6.5 -1.8H6.5M-6.5 1.8H6.5' }),
    ],
  },
  grain: {
    name: 'grain',
    goods: true,
    draw: () => [
      s('circle', { class: 'goods-badge', r: 10 }),
      s('path', { class: 'grain-stalk', d: 'M0 7.5V-6M-4 7.5L0 1L4 7.5' }),
      ...[-6, -2.5, 1].map((cy) => s('ellipse', { class: 'grain-ear', cx: 0, cy, rx: 2.2, ry: 2.6 })),
      ...[-4.5, -1].map((cy) => s('ellipse', { class: 'grain-ear', cx: -2.8, cy, rx: 1.8, ry: 2.3 })),
      ...[-4.5, -1].map((cy) => s('ellipse', { class: 'grain-ear', cx: 2.8, cy, rx: 1.8, ry: 2.3 })),
    ],
  },
  'pig-herd': {
    name: 'pig herd',
    draw: () => [
      s('path', { class: 'pig-herd-fence', d: 'M-13 7H13M-13 3H13M-11 9V0M0 9V0M11 9V0' }),
      s('path', { class: 'pig-herd-pig', d: PIG_D, 'fill-rule': 'evenodd', transform: 'translate(0 -2) scale(0.62)' }),
    ],
  },
  princess: {
    name: 'princess',
    draw: () => [
      s('path', { class: 'princess-crown', d: 'M-9 6H9L10 -5L5 0L0 -8L-5 0L-10 -5Z' }),
    ],
  },
};

/** The table entry of a token; an unknown attribute gets a labelled dot. */
export function token(attr) {
  if (Object.prototype.hasOwnProperty.call(TOKENS, attr)) return TOKENS[attr];
  return { name: String(attr), draw: () => [s('circle', { class: 'token-generic', r: 5 })] };
}

/** A token's title: "inn", "trade goods: wine". */
export const tokenTitle = (attr) => (token(attr).goods ? `trade goods: ${token(attr).name}` : token(attr).name);

// ---- features, as scores name them ----

/**
 * Features by name: how text names them, and open: it has no completion
 * (a field, a barn's points, trade goods), so it is never "incomplete".
 */
export const FEATURES = {
  road: { name: 'road' },
  city: { name: 'city' },
  field: { name: 'field', open: true },
  monastery: { name: 'monastery' },
  garden: { name: 'garden' },
  barn: { name: 'barn', open: true },
  'trade-goods': { name: 'trade goods', open: true },
};

export const featureName = (f) => (Object.prototype.hasOwnProperty.call(FEATURES, f) ? FEATURES[f].name : String(f));

/** A score event's feature: "city", "road (incomplete)", "trade goods". */
export function eventFeature(ev) {
  const f = FEATURES[ev.feature];
  return `${featureName(ev.feature)}${ev.completed || (f && f.open) ? '' : ' (incomplete)'}`;
}

// ---- game elements (the audit's rules.elements, JCloisterZone's keys) ----

// Elements that count figures, by the figure kind they count.
const ELEMENT_FIGURES = {
  'small-follower': 'small', abbot: 'abbot', 'big-follower': 'big', phantom: 'phantom',
  builder: 'builder', pig: 'pig', mayor: 'mayor', wagon: 'wagon', barn: 'barn',
};
// Switches and other counts, as text names them.
const ELEMENT_NAMES = {
  farmers: 'farmers', garden: 'gardens', inn: 'inns', cathedral: 'cathedrals', traders: 'trade goods',
  'pig-herd': 'pig herds', abbey: 'abbey',
};

/** "7 followers, 1 large follower, ...; inns, cathedrals, ..." per player. */
export function elementsText(elements) {
  const figs = [], on = [];
  for (const [k, v] of Object.entries(elements || {})) {
    if (v === false || v === 0 || v === null) continue;
    if (Object.prototype.hasOwnProperty.call(ELEMENT_FIGURES, k)) {
      const n = Number(v) || 0;
      figs.push(`${n} ${figureName(ELEMENT_FIGURES[k])}${n === 1 ? '' : 's'}`);
    } else if (typeof v === 'number') {
      const name = ELEMENT_NAMES[k] || k;
      figs.push(`${v} ${name}${v === 1 ? '' : 's'}`);
    } else {
      on.push(ELEMENT_NAMES[k] || k);
    }
  }
  return [figs.length ? `each player: ${figs.join(', ')}` : '', on.join(', ')].filter(Boolean).join('; ') || '—';
}
