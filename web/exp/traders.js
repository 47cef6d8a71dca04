// exp/traders.js - Traders & Builders on the dashboard: the builder and
// the pig, trade goods and the pig herd as tokens, their rules and names.

import { s } from '../dom.js';

// The builder: a figure with a hammer raised.
const BUILDER_D = 'M-2 -14A4.4 4.4 0 1 1 -2.01 -14Z M-9.5 12.8L-7 -3.3Q-2.2 -5.6 2.6 -3.3L5.1 12.8Z' +
  'M1.4 -2.2L8.9 -12.6L10.9 -11.2L3.4 -0.8Z M5.6 -16.6L13.4 -11L11.3 -8L3.4 -13.6Z';
// A pig, facing east: body, snout, legs, an ear, an eye (a hole).
const PIG_D = 'M-12 0C-12 -6 -6 -8.5 1 -8.5C6.5 -8.5 10 -6.5 11.2 -3.2L14 -3.6V2.4L11.2 2C10.3 4.4 8.6 5.8 7 6.4V11H3.6V7H-4.6V11H-8V6C-10.6 4.6 -12 2.6 -12 0Z' +
  'M2.6 -8.2L5.4 -12.8L7.4 -7.6Z M6.1 -4.4a1.2 1.2 0 1 0 2.4 0a1.2 1.2 0 1 0 -2.4 0Z';

const grapes = [[-4, -3], [0, -3], [4, -3], [-2, 1], [2, 1], [0, 5]];

export default {
  id: 'traders',
  name: 'Traders & Builders', short: 'T&B',
  // the unit's words in the dashboard's other languages (i18n/README.md)
  i18n: {
    pl: {
      name: 'Kupcy i budowniczowie', short: 'KiB',
      receiptItems: { pigs: 'świnie', 'trade-goods': 'towary' },
      tokens: { wine: 'wino', cloth: 'sukno', grain: 'zboże', 'pig-herd': 'stado świń' },
      tokenGroups: { 'trade goods': 'towary' },
      figures: { builder: 'budowniczy', pig: 'świnia' },
      elementNames: { traders: 'towary', 'pig-herd': 'stada świń' },
      features: { 'trade-goods': 'towary' },
      rules: {
        BUILDER_PLACEMENT: 'Budowniczy staje na nieukończonej drodze albo w mieście, gdzie jego właściciel ma podróżnika.',
        PIG_PLACEMENT: 'Świnia staje na łące, na której jej właściciel ma chłopa.',
        BUILDER_BONUS: 'Ten sam gracz położył kafelek ponownie bez prawa budowniczego do drugiego kafelka.',
      },
      again: { builder: 'drugi kafelek budowniczego' },
    },
    ca: {
      name: 'Comerciants i constructors', short: 'C&C',
      receiptItems: { pigs: 'porcs', 'trade-goods': 'mercaderies' },
      tokens: { wine: 'vi', cloth: 'teixit', grain: 'blat', 'pig-herd': 'ramat de porcs' },
      tokenGroups: { 'trade goods': 'mercaderies' },
      figures: { builder: 'constructor', pig: 'porc' },
      elementNames: { traders: 'mercaderies', 'pig-herd': 'ramats de porcs' },
      features: { 'trade-goods': 'mercaderies' },
      rules: {
        BUILDER_PLACEMENT: 'Un constructor va en un camí o una ciutat inacabats on el seu propietari té un seguidor.',
        PIG_PLACEMENT: 'Un porc va en un camp on el seu propietari té un pagès.',
        BUILDER_BONUS: 'El mateix jugador va tornar a col·locar sense el dret d’un constructor a una segona peça.',
      },
      again: { builder: 'la segona peça del constructor' },
    },
    de: {
      name: 'Händler und Baumeister', short: 'H&B',
      receiptItems: { pigs: 'Schweine', 'trade-goods': 'Handelswaren' },
      tokens: { wine: 'Wein', cloth: 'Stoff', grain: 'Getreide', 'pig-herd': 'Schweineherde' },
      tokenGroups: { 'trade goods': 'Handelswaren' },
      figures: { builder: 'Baumeister', pig: 'Schwein' },
      elementNames: { traders: 'Handelswaren', 'pig-herd': 'Schweineherden' },
      features: { 'trade-goods': 'Handelswaren' },
      rules: {
        BUILDER_PLACEMENT: 'Ein Baumeister kommt auf eine unfertige Straße oder Stadt, in der sein Besitzer einen Gefolgsmann hat.',
        PIG_PLACEMENT: 'Ein Schwein kommt auf eine Wiese, auf der sein Besitzer einen Bauern hat.',
        BUILDER_BONUS: 'Derselbe Spieler legte erneut, ohne das Recht eines Baumeisters auf ein zweites Plättchen.',
      },
      again: { builder: 'das zweite Plättchen des Baumeisters' },
    },
  },
  // how a receipt's items of the unit's read (a score event's items)
  receiptItems: { pigs: 'pigs', 'trade-goods': 'trade goods' },
  // the recorder's setup: the box's tile sets and elements
  box: { name: 'Traders & Builders', sets: { 'traders-and-builders:1': 1 }, elements: { builder: 1, pig: 1, traders: true } },
  figures: {
    // again: what the move text says when its owner plays a second tile
    builder: { name: 'builder', d: BUILDER_D, scale: 0.9, again: 'the builder\'s second tile' },
    pig: { name: 'pig', d: PIG_D, scale: 0.85 },
  },
  features: {
    'trade-goods': { name: 'trade goods', open: true, rank: 6 },
  },
  // group: named "trade goods: wine"; cls: a class for the board's style
  tokens: {
    wine: {
      name: 'wine',
      group: 'trade goods', cls: 'goods',
      draw: () => [
        s('circle', { class: 'goods-badge', r: 10 }),
        s('path', { class: 'wine-leaf', d: 'M0 -6L3.5 -9.5L6 -6.5Z' }),
        ...grapes.map(([cx, cy]) => s('circle', { class: 'wine-grape', cx, cy, r: 2.3 })),
      ],
    },
    cloth: {
      name: 'cloth',
      group: 'trade goods', cls: 'goods',
      draw: () => [
        s('circle', { class: 'goods-badge', r: 10 }),
        s('rect', { class: 'cloth-bolt', x: -6.5, y: -5.5, width: 13, height: 11, rx: 2 }),
        s('path', { class: 'cloth-stripe', d: 'M-6.5 -1.8H6.5M-6.5 1.8H6.5' }),
      ],
    },
    grain: {
      name: 'grain',
      group: 'trade goods', cls: 'goods',
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
  },
  rules: {
    BUILDER_PLACEMENT: [14, 'A builder goes on an unfinished road or city where its owner has a follower.'],
    PIG_PLACEMENT: [15, 'A pig goes on a field where its owner has a farmer.'],
    BUILDER_BONUS: [29, 'The same player placed again without a builder\'s right to a second tile.'],
  },
  elementFigures: { builder: 'builder', pig: 'pig' },
  elementNames: { traders: 'trade goods', 'pig-herd': 'pig herds' },
};
