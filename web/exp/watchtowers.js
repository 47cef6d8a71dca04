// exp/watchtowers.js - The Watchtowers on the dashboard: each tile's
// watchtower is its mark, a small tower with what it counts on its tile
// and the 8 around it, and the tower's points are named in the scores.

// a tower: a crenellated top on a tapering shaft, a door and a window
// cut out; what it counts is its title
const TOWER = 'M-6 -9H-3.5V-7H-1.2V-9H1.2V-7H3.5V-9H6V-4.5H4.5L5.5 9H-5.5L-4.5 -4.5H-6Z'
  + 'M-1.6 9V4.5A1.6 1.6 0 0 1 1.6 4.5V9Z M-1 -2.5H1V0H-1Z';

const COUNTS = {
  'watchtower-2-coat-of-arms': 'each pennant (coat of arms) of the cities',
  'watchtower-3-monastery': 'each monastery',
  'watchtower-1-city': 'each tile with a city',
  'watchtower-1-road': 'each tile with a road',
  'watchtower-2-meeple': 'each figure standing',
};

const mark = (m) => {
  const worth = m.split('-')[1];
  return {
    title: `watchtower: ${worth} for ${COUNTS[m]} on its tile and the 8 around it, to every figure on a road or city of this tile when it is completed`,
    d: TOWER,
  };
};

export default {
  id: 'watchtowers',
  name: 'The Watchtowers', short: 'Watchtowers',
  // the unit's words in the dashboard's other languages (i18n/README.md)
  i18n: {
    pl: {
      name: 'Wieże strażnicze', short: 'Strażnice',
      features: { watchtower: 'wieża strażnicza' },
    },
    ca: {
      name: 'Les torres de guaita', short: 'Torres',
      features: { watchtower: 'torre de guaita' },
    },
    de: {
      name: 'Die Wachtürme', short: 'Wachtürme',
      features: { watchtower: 'Wachturm' },
    },
  },
  // the recorder's setup: the box's tile sets and elements
  box: { name: 'The Watchtowers', sets: { watchtowers: 1 }, elements: {} },
  features: {
    // a tower's points: no board feature, no "incomplete"
    watchtower: { name: 'watchtower', open: true, rank: 12.5 },
  },
  tileMarks: Object.fromEntries(Object.keys(COUNTS).map((m) => [m, mark(m)])),
};
