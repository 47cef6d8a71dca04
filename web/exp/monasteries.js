// exp/monasteries.js - The Monasteries on the dashboard: a special
// monastery's second place, the abbot's, as a mitre in the tile's
// north-east corner beside the monastery (which base.js draws); a
// follower there stands on the mitre.

import { s } from '../dom.js';

// A bishop's mitre, centred on (0, 0), about 20 units tall.
const MITRE_D = 'M-7 9V-1Q-7 -6 0 -11Q7 -6 7 -1V9Z';

export default {
  id: 'monasteries',
  name: 'The Monasteries', short: 'Monasteries',
  // the unit's words in the dashboard's other languages (i18n/README.md)
  i18n: {
    pl: {
      name: 'Klasztory', short: 'Klasztory',
      spots: { abbot: 'miejsce opata' },
      features: { 'special-monastery': 'miejsce opata' },
    },
    ca: {
      name: 'Els monestirs', short: 'Monestirs',
      spots: { abbot: 'lloc de l’abat' },
      features: { 'special-monastery': 'lloc de l\'abat' },
    },
    de: {
      name: 'Die Klöster', short: 'Klöster',
      spots: { abbot: 'Abtplatz' },
      features: { 'special-monastery': 'Abtplatz' },
    },
  },
  // the recorder's setup: the box's tile sets and elements
  box: { name: 'The Monasteries', sets: { monasteries: 1 }, elements: {} },
  features: {
    // inside the tile, told apart by name ("special-monastery:abbot")
    'special-monastery': {
      name: 'abbot place', shape: 'spots', ring: 11, charted: true, rank: 7,
      spots: { abbot: [78, 22] },
    },
  },
  draw: {
    inner(g, geo, ctx) {
      for (const q of geo.spots) {
        if (q.feature !== 'special-monastery') continue;
        const [x, y] = q.at;
        g.appendChild(s('g', { class: 'abbot-place', dataset: { spot: q.name }, transform: `${ctx.upright(q.at)} translate(${x} ${y})` },
          s('title', { text: 'the abbot\'s place of a special monastery (scored at the end: 1 + the rows of tiles north, east, south and west)' }),
          s('path', { class: 'monastery-body', d: MITRE_D }),
          s('path', { class: 'monastery-roof', d: 'M-1.2 -7H1.2V9H-1.2Z' }),
          s('path', { class: 'monastery-roof', d: 'M-5 1H5V3.4H-5Z' })));
      }
    },
  },
};
