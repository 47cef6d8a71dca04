// exp/labyrinth.js - The Labyrinth on the dashboard: its tile's road,
// where the four arms meet, carries a small maze at the tile's centre, so
// that one sees why followers stand on several arms of one road.

import { s } from '../dom.js';

// a maze of three nested square walls, each open on another side, and a
// path in from the south: drawn in the tile's frame round the centre
const WALLS = 'M-9 -9H9V9H2M-2 9H-9V-9'
  + 'M-5.5 -5.5H1.5M5.5 -5.5V5.5H-5.5V-1.5'
  + 'M-2 -2H2V2';

export default {
  id: 'labyrinth',
  name: 'The Labyrinth', short: 'Labyrinth',
  // the unit's words in the dashboard's other languages (i18n/README.md)
  i18n: {
    pl: {
      name: 'Labirynt', short: 'Labirynt',
      receiptItems: { labyrinth: 'labirynt' },
      tokens: { labyrinth: 'labirynt' },
    },
    ca: {
      name: 'El laberint', short: 'Laberint',
      receiptItems: { labyrinth: 'laberint' },
      tokens: { labyrinth: 'laberint' },
    },
    de: {
      name: 'Das Labyrinth', short: 'Labyrinth',
      receiptItems: { labyrinth: 'Labyrinth' },
      tokens: { labyrinth: 'Labyrinth' },
    },
  },
  // how a receipt's items of the unit's read (a score event's items)
  receiptItems: { labyrinth: 'labyrinth' },
  // the recorder's setup: the box's tile sets and elements
  box: { name: 'The Labyrinth', sets: { labyrinth: 1 }, elements: {} },
  // the road through the labyrinth: its attribute has no token of its
  // own, the tile's drawing shows the maze
  tokens: {
    labyrinth: { name: 'labyrinth', hidden: true, draw: () => [] },
  },
  draw: {
    // over the roads, where the four arms meet: the tile's centre
    inner(g, geo) {
      if (!geo.tokens.some((t) => t.attr === 'labyrinth')) return;
      g.appendChild(s('g', { class: 'labyrinth', transform: 'translate(50 50)' },
        s('title', { text: 'the labyrinth: its four arms are one road, yet a follower may go on an arm whose side of it is free' }),
        s('rect', { class: 'labyrinth-ground', x: -11, y: -11, width: 22, height: 22, rx: 2 }),
        s('path', { class: 'labyrinth-walls', d: WALLS })));
    },
  },
};
