// exp/index.js - the registry of the dashboard's units, one line each, in
// the engine's order (src/core/expansion.h). A unit's module says how the
// board draws its features, figures, tokens and the replay's items of its
// unit, its rule texts and its names; the rest of the dashboard asks the
// tables below and names no unit.
//
// A module is an object, every key optional:
//   id            the unit's id, as the replay's items name it
//   name, short   what the unit is called in text, and in a list's
//                 narrow column ("Inns & Cathedrals", "I&C")
//   figures       {kind: {name, d, scale, lies, cls, underlay, corner,
//                 moves, neutral, fill, spot, again}} by meeple kind
//   features      {name: {name, open, charted, shape, line, area, place, r,
//                 clear, ring, order, fit, tokens, implied, spots,
//                 legend, rank}} by the segments' and score events' feature
//   tokens        {attr: {name, group, cls, draw(), icon(), hidden}} by
//                 segment attribute (hidden: the unit's tile drawing shows
//                 it, so no token stands on the tile; icon: its key's
//                 picture, else draw())
//   tileMarks     {mark: {title, d}} by the marks of a tile's definition
//   closed        the look of a closed tile {cls, title, scale, legend}
//   draw          {stage: (g, geo, ctx)} a tile's drawing, by stage
//   items         {name: {figure, draw(board, it), moved(it), changed(it),
//                 label, cls, testid, legend}} the replay's items
//   rules         {RULE_ID: [rank, text]}
//   box           {name, sets, elements, start} what the recorder's setup
//                 adds when the expansion is in the box (a setup line's
//                 "sets" and "elements"), and the start tiles it brings
//   moves         {name: text} how the recorder offers a move of the unit's
//                 (its flierlog name: "tower": "Tower floor")
//   elementFigures, elementNames, settings: the audit's elements and rules
//   built(id, def) the ground the unit builds on a tile, where no field
//                 reaches: [{poly: [[x, y], ...] in the tile's frame, ...}]
//                 (the City of Carcassonne inside its walls); geometry.js
//                 keeps them as geo.built for the unit's drawing
//   receiptItems  {kind: text} how a score event's item of the unit's reads
//                 in a receipt ("inn", "castle")
//   exprNames     {suffix: text} how an event's feature reads for a score
//                 expression of the unit's ("challenged": "shrine
//                 (challenged)", not "(incomplete)")
//   i18n          {pl: {name, short, figures: {kind: name}, features:
//                 {name: text}, legends: {feature: text}, tokens: {attr:
//                 name}, tokenGroups: {group: text}, items: {name: {label,
//                 legend}}, closed, exprNames, elementNames, settings:
//                 {key: (value) => text}, rules: {RULE_ID: text}, moves,
//                 start, boxElements, receiptItems, spots: {spot: text}, between:
//                 {feature: text}, again:
//                 {kind: text}; items may carry moved, changed, taken and
//                 freed in the language too}, ca, de} the
//                 unit's words in the dashboard's other languages; what a
//                 language lacks is shown in English, and the catalogue
//                 check (tests/i18n/check.mjs) names it

import { lang, own } from '../i18n/index.js';
import base from './base.js';
import c3 from './c3.js';
import flier from './flier.js';
import river from './river.js';
import inns from './inns.js';
import phantom from './phantom.js';
import traders from './traders.js';
import abbey from './abbey.js';
import tower from './tower.js';
import dragon from './dragon.js';
import count from './count.js';
import cult from './cult.js';
import darmstadt from './darmstadt.js';
import monasteries from './monasteries.js';
import siege from './siege.js';
import corn from './corn.js';
import bigtop from './bigtop.js';
import bcb from './bcb.js';
import winter from './winter.js';
import gq11 from './gq11.js';
import spielDoch from './spiel_doch.js';
import kr from './kr.js';
import windRoses from './wind_roses.js';
import russianPromos from './russian_promos.js';
import littleBuildings from './little_buildings.js';
import festival from './festival.js';
import tunnel from './tunnel.js';
import labyrinth from './labyrinth.js';
import watchtowers from './watchtowers.js';
import gold from './gold.js';
import ferries from './ferries.js';
import hs from './hs.js';
import mage from './mage.js';

export const UNITS = [base, c3, flier, river, inns, phantom, traders, abbey, tower, dragon, count, cult,
  darmstadt, monasteries, siege, corn, bigtop, bcb, winter, gq11, spielDoch,
  kr, windRoses, russianPromos, littleBuildings, festival, tunnel, labyrinth, watchtowers, gold,
  ferries, hs, mage];

const merged = (key) => Object.assign({}, ...UNITS.map((u) => u[key] || {}));
// the same from the units' words in the reader's language
const mine = (key) => Object.assign({}, ...UNITS.map((u) => (u.i18n && u.i18n[lang] && u.i18n[lang][key]) || {}));

// a table whose entries get the unit's words in the reader's language:
// words {key: text} set field of the entry (a copy; the modules stay as
// they are)
const localized = (table, words, set) => Object.fromEntries(Object.entries(table)
  .map(([k, v]) => [k, Object.prototype.hasOwnProperty.call(words, k) ? set(v, words[k]) : v]));
const withLegend = (v, text) => ({ ...v, legend: { ...v.legend, text } });
export const FIGURES = localized(merged('figures'), mine('again'), (v, again) => ({ ...v, again }));
export const FEATURES = localized(localized(merged('features'), mine('legends'), withLegend), mine('between'), (v, between) => ({ ...v, between }));
const tokenGroups = mine('tokenGroups');
export const TOKENS = Object.fromEntries(Object.entries(localized(merged('tokens'), mine('tokens'), (v, name) => ({ ...v, name })))
  .map(([k, v]) => [k, v.group && tokenGroups[v.group] ? { ...v, group: tokenGroups[v.group] } : v]));
export const TILE_MARKS = merged('tileMarks');
export const ELEMENT_FIGURES = merged('elementFigures');
export const ELEMENT_NAMES = { ...merged('elementNames'), ...mine('elementNames') };
export const EXPR_NAMES = { ...merged('exprNames'), ...mine('exprNames') };
/** The features' and figures' names in the reader's language, where it
 * differs from English. */
export const FEATURE_NAMES = mine('features');
export const FIGURE_NAMES = mine('figures');
/** The spots of a feature ('quarter:market') in the reader's language. */
export const SPOT_NAMES = mine('spots');
export const MOVES = merged('moves');
/** How a receipt's items of the units read, by kind ("inn", "castle"). */
export const RECEIPT_ITEMS = { ...merged('receiptItems'), ...mine('receiptItems') };
/** The expansions a recorded game may have in its box, by unit id. */
export const BOXES = UNITS.filter((u) => u.box).map((u) => ({ id: u.id, ...u.box }));
/** The look of a closed tile, or null. */
const closedUnit = UNITS.find((u) => u.closed);
const closedWords = closedUnit && closedUnit.i18n && closedUnit.i18n[lang] && closedUnit.i18n[lang].closed;
export const CLOSED = !closedUnit ? null : closedWords
  ? { ...closedUnit.closed, title: closedWords, legend: closedUnit.closed.legend && { ...closedUnit.closed.legend, text: closedWords } }
  : closedUnit.closed;

/** Rule texts, in the engine's order of precedence. */
const localRules = mine('rules');
export const RULES = Object.fromEntries(Object.entries(merged('rules'))
  .sort((a, b) => a[1][0] - b[1][0]).map(([id, [, text]]) => [id, localRules[id] ?? text]));

/** The audit's rules in text, in order: [key, (value) => text]. */
const localSettings = mine('settings');
export const SETTINGS = UNITS.flatMap((u) => u.settings || []).sort((a, b) => a[0] - b[0]).map(([, k, f]) => [k, localSettings[k] || f]);

/** The units' built hooks (see above). */
export const GROUNDS = UNITS.map((u) => u.built).filter(Boolean);

/** The drawers of a tile's stage (see board.js), in registry order. */
export const drawers = (stage) => UNITS.map((u) => u.draw && u.draw[stage]).filter(Boolean);

/** The spec of a replay item {unit, name} from its unit's module, or {}. */
export function itemSpec(it) {
  const u = UNITS.find((x) => x.id === it.unit);
  const spec = (u && u.items && Object.prototype.hasOwnProperty.call(u.items, it.name) && u.items[it.name]) || {};
  // its label and key entry in the reader's language
  const words = u && u.i18n && u.i18n[lang] && u.i18n[lang].items && u.i18n[lang].items[it.name];
  if (!words) return spec;
  const said = Object.fromEntries(['label', 'moved', 'changed', 'taken', 'freed'].filter((k) => words[k]).map((k) => [k, words[k]]));
  return { ...spec, ...said, ...(words.legend && spec.legend ? { legend: { ...spec.legend, text: words.legend } } : {}) };
}

/** A unit's name and short name in the reader's language (its i18n), else
 * in English. */
export const unitName = (u) => own(u.i18n, 'name', u.name);
export const unitShort = (u) => own(u.i18n, 'short', u.short);
