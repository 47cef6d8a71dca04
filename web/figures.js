// figures.js - one table entry per kind: the figures (by JCloisterZone's
// meeple kind, as the replay names them), the tokens a tile's segment
// carries (the replay's segment attributes) and the features scores name,
// gathered from the units' modules (exp/). Each entry gives the kind's
// name in text and how the board draws it; a kind the tables do not know
// is drawn with a generic shape and named as it is written, never an
// error.

import { s } from './dom.js';
import { segWords } from './words.js';
import { FIGURES, TOKENS, FEATURES, ELEMENT_FIGURES, ELEMENT_NAMES, SETTINGS, EXPR_NAMES, FEATURE_NAMES, FIGURE_NAMES, RECEIPT_ITEMS } from './exp/index.js';
import { lang, t, has, fmtNum } from './i18n/index.js';

// Anything else: a diamond.
const GENERIC_D = 'M0 -11L10 0L0 11L-10 0Z';

/**
 * Figures by kind, from the units' modules (exp/): name (in text), d (its
 * silhouette, centred on (0, 0), about 26 units tall before scaling),
 * scale, lies (lies down in a field, as a farmer), cls (an extra class),
 * underlay (see-through: drawn on a pale underlay), corner (stands on the
 * corner north-west of its tile), moves (may move between turns), neutral
 * (no player's: drawn on its square in its own colour, fill, at spot),
 * again (what its owner's second tile in a row is called).
 */
export { FIGURES };

/** The table entry of a figure kind; an unknown kind gets a generic one. */
export function figure(kind) {
  return Object.prototype.hasOwnProperty.call(FIGURES, kind) ? FIGURES[kind]
    : { name: String(kind || 'figure'), d: GENERIC_D, scale: 1, generic: true };
}

export const figureName = (kind) => (Object.prototype.hasOwnProperty.call(FIGURE_NAMES, kind) ? FIGURE_NAMES[kind] : figure(kind).name);

/** "a follower", "an abbot". */
export const withArticle = (name) => (lang === 'en' ? `${/^[aeiou]/i.test(name) ? 'an' : 'a'} ${name}` : name);

/** Where figure m stands, as [segment in words, the rest]: ["the city on
 * the north side", "at (2,1)"]; a barn stands on the corner north-west of
 * its tile, in the field named. */
export function figureWhere(m) {
  const at = Array.isArray(m.at) ? `(${m.at[0]},${m.at[1]})` : '(?)';
  if (figure(m.kind).neutral && !m.segment) return ['', t('figure.square', { at })];
  return [segWords(m.segment), figure(m.kind).corner ? t('figure.corner', { at }) : t('figure.at', { at })];
}

/** "on the city on the north side at (2,1)". */
export const figurePlace = (m) => t('figure.place', { where: figureWhere(m).join(' ') });

/** "Ada's mayor on the city on the north side at (2,1)". */
export const figureTitle = (m) => (figure(m.kind).neutral
  ? t('figure.neutralTitle', { figure: figureName(m.kind), where: m.segment ? figurePlace(m) : figureWhere(m)[1] })
  : t('figure.title', { player: m.player ?? t('figure.nobody'), figure: figureName(m.kind), place: figurePlace(m) }));

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

/**
 * Tokens by segment attribute, from the units' modules: name (in text and
 * the token's <title>), group (the kind of thing it is, named first: trade
 * goods), cls (a class for the board's style), and draw(): its SVG children, upright, centred on (0, 0), about 18 units.
 */
export { TOKENS };

/** The table entry of a token; an unknown attribute gets a labelled dot. */
export function token(attr) {
  if (Object.prototype.hasOwnProperty.call(TOKENS, attr)) return TOKENS[attr];
  return { name: String(attr), draw: () => [s('circle', { class: 'token-generic', r: 5 })] };
}

/** A token's title: "inn", "trade goods: wine". */
export const tokenTitle = (attr) => (token(attr).group ? `${token(attr).group}: ${token(attr).name}` : token(attr).name);

// ---- features, as scores name them ----

/**
 * Features by name, from the units' modules: how text names them, and
 * open: it has no completion (a field), so it is never "incomplete";
 * charted: the statistics always chart it.
 */
export { FEATURES };

export const featureName = (f) => (Object.prototype.hasOwnProperty.call(FEATURE_NAMES, f) ? FEATURE_NAMES[f]
  : Object.prototype.hasOwnProperty.call(FEATURES, f) ? FEATURES[f].name : String(f));

/** A score event's feature: "city", "road (incomplete)", "trade goods",
 * or with a unit's name for its expression, "shrine (challenged)". */
export function eventFeature(ev) {
  const f = FEATURES[ev.feature];
  const dot = (ev.expr || '').indexOf('.');
  const sfx = dot >= 0 ? ev.expr.slice(dot + 1) : '';
  if (sfx && Object.prototype.hasOwnProperty.call(EXPR_NAMES, sfx)) return `${featureName(ev.feature)} (${EXPR_NAMES[sfx]})`;
  return ev.completed || (f && f.open) ? featureName(ev.feature) : t('feature.incomplete', { feature: featureName(ev.feature) });
}

// ---- game elements (the audit's rules.elements, JCloisterZone's keys) ----

// Elements that count figures, by the figure kind they count
// (ELEMENT_FIGURES), and the names of switches and other counts
// (ELEMENT_NAMES): from the units' modules.

/** "7 followers, 1 large follower, ...; inns, cathedrals, ..." per player. */
export function elementsText(elements) {
  const figs = [], on = [];
  for (const [k, v] of Object.entries(elements || {})) {
    if (v === false || v === 0 || v === null) continue;
    if (Object.prototype.hasOwnProperty.call(ELEMENT_FIGURES, k)) {
      const n = Number(v) || 0;
      // other languages name the figure and its count, as their plurals
      // would need a form per figure
      figs.push(lang === 'en' ? `${n} ${figureName(ELEMENT_FIGURES[k])}${n === 1 ? '' : 's'}` : `${figureName(ELEMENT_FIGURES[k])}: ${fmtNum(n)}`);
    } else if (typeof v === 'number') {
      const name = ELEMENT_NAMES[k] || k;
      figs.push(lang === 'en' ? `${v} ${name}${v === 1 ? '' : 's'}` : `${name}: ${fmtNum(v)}`);
    } else {
      on.push(ELEMENT_NAMES[k] || k);
    }
  }
  return [figs.length ? t('elements.each', { list: figs.join(', ') }) : '', on.join(', ')].filter(Boolean).join('; ') || '—';
}

/** The audit's rules in text: "7 followers, farmers on, ...". */
export const settingsText = (rules) => SETTINGS.map(([k, f]) => f((rules || {})[k])).join(', ');

// A receipt's item ("tiles", "tiles.N", "castle.road", "trade-goods.WINE")
// in words: the kind's name (the unit's receiptItems for its own), and what
// follows its dot by compass point, token (a trade good),
// feature or as it is.
function itemWords(kind) {
  const dot = kind.indexOf('.');
  const head = dot < 0 ? kind : kind.slice(0, dot), rest = dot < 0 ? '' : kind.slice(dot + 1);
  const name = has(`item.${head}`) ? t(`item.${head}`) : RECEIPT_ITEMS[head] || head.replace(/-/g, ' ');
  if (!rest) return name;
  const good = TOKENS[rest.toLowerCase()];
  const what = /^[NESW]$/.test(rest) ? t(`dir.${rest}`) : good ? good.name : Object.prototype.hasOwnProperty.call(FEATURES, rest.split('.')[0]) ? featureName(rest.split('.')[0]) : rest.toLowerCase();
  return `${name} (${what})`;
}

/** A score event's receipt in the reader's language: English readers get
 * the engine's own (its receipt), which says how each count was reached;
 * the others one composed from the event's feature, items, points and
 * players ("miasto: kafelki 2: 4 = 4 → Ada"). */
export function receiptText(ev) {
  if (lang === 'en' && ev.receipt) return ev.receipt;
  const items = (ev.items || []).map(([kind, n, pts]) => `${itemWords(kind)}${n === null || n === undefined ? '' : ` ${fmtNum(n)}`}: ${fmtNum(pts)}`);
  const sum = `${items.join(' + ')}${items.length ? ' = ' : ''}${t('receipt.points', { n: ev.points })}`;
  return `${eventFeature(ev)}: ${sum}${(ev.players || []).length ? ` → ${ev.players.join(', ')}` : ''}`;
}
