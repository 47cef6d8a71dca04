// exp/wind_roses.js - the Wind Roses on the dashboard: each rose tile
// shows its rose (the large one, or a small one pointing to a quarter of
// the board), and the large rose that counts is marked where it lies.

import { s } from '../dom.js';

// a compass rose: a four-pointed star; a small rose's one long point
// shows its quarter, in the tile's unturned frame
const STAR = 'M0 -9L2 -2L9 0L2 2L0 9L-2 2L-9 0L-2 -2Z';
const point = (dx, dy) => `M0 0L${dx * 8} ${dy * 8}L${dx * 2 + dy * 2} ${dy * 2 - dx * 2}Z M-3 0A3 3 0 1 0 3 0A3 3 0 1 0 -3 0`;

export default {
  id: 'wind_roses',
  name: 'The Wind Roses', short: 'Roses',
  // the unit's words in the dashboard's other languages (i18n/README.md)
  i18n: {
    pl: {
      name: 'Róże wiatrów', short: 'Róże',
      receiptItems: { 'wind-rose': 'róża wiatrów' },
      start: 'duża róża wiatrów (WR/CFR)',
      features: { 'wind-rose': 'róża wiatrów' },
      items: { rose: { moved: (it) => `Duża róża wiatrów na polu (${it.at[0]}, ${it.at[1]}) teraz się liczy.` } },
    },
    ca: {
      name: 'Les roses dels vents', short: 'Roses',
      receiptItems: { 'wind-rose': 'rosa dels vents' },
      start: 'la rosa dels vents gran (WR/CFR)',
      features: { 'wind-rose': 'rosa dels vents' },
      items: { rose: { moved: (it) => `La rosa dels vents gran de (${it.at[0]}, ${it.at[1]}) ara compta.` } },
    },
    de: {
      name: 'Die Windrosen', short: 'Windrosen',
      receiptItems: { 'wind-rose': 'Windrose' },
      start: 'die große Windrose (WR/CFR)',
      features: { 'wind-rose': 'Windrose' },
      items: { rose: { moved: (it) => `Die große Windrose auf (${it.at[0]}, ${it.at[1]}) zählt jetzt.` } },
    },
  },
  // how a receipt's items of the unit's read (a score event's items)
  receiptItems: { 'wind-rose': 'wind rose' },
  // the recorder's setup: the box's tile sets and elements
  box: { name: 'The Wind Roses', sets: { 'wind-roses': 1 }, elements: {}, start: { name: 'the large wind rose (WR/CFR)', tiles: [{ tile: 'WR/CFR', at: [0, 0], rot: 0 }] } },
  features: {
    'wind-rose': { name: 'wind rose', open: true, rank: 12 },
  },
  tileMarks: {
    'wind-rose-nwse': { title: 'the large wind rose: small roses score 3 in the quarter they point to from it', d: STAR },
    'wind-rose-nw': { title: 'a small wind rose pointing north-west', d: point(-1, -1) },
    'wind-rose-ne': { title: 'a small wind rose pointing north-east', d: point(1, -1) },
    'wind-rose-se': { title: 'a small wind rose pointing south-east', d: point(1, 1) },
    'wind-rose-sw': { title: 'a small wind rose pointing south-west', d: point(-1, 1) },
  },
  // the replay's items of this unit (docs/api.md)
  items: {
    rose: {
      // the large rose that counts: a ring round its square's centre
      draw(board, it) {
        const loc = board.locate(it.at, 'tile');
        return s('g', { class: 'wind-rose-counts', dataset: { at: it.at.join(','), testid: 'wind-rose' } },
          s('title', { text: 'the large wind rose that counts' }),
          s('circle', { cx: loc.anchor[0], cy: loc.anchor[1], r: 14, fill: 'none', stroke: '#b8860b', 'stroke-width': 2 }));
      },
      moved: (it) => `The large wind rose at (${it.at[0]}, ${it.at[1]}) now counts.`,
    },
  },
};
