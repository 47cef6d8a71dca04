// exp/spiel_doch.js - the Spiel doch! promo on the dashboard: two start
// tiles of the known features; the unit gives its names.

export default {
  id: 'spiel-doch',
  name: 'Spiel doch!', short: 'SD!',
  // the unit's words in the dashboard's other languages (i18n/README.md)
  i18n: {
    pl: {
      name: 'Spiel doch!', short: 'SD!',
      start: 'dwa kafelki Spiel doch!',
    },
    ca: {
      name: 'Spiel doch!', short: 'SD!',
      start: 'les dues peces de Spiel doch!',
    },
    de: {
      name: 'Spiel doch!', short: 'SD!',
      start: 'die beiden Spiel-doch!-Plättchen',
    },
  },
  // the recorder's setup: the box's tile sets and elements
  box: { name: 'Spiel doch!', sets: { 'spiel-doch:1': 1 }, elements: {}, start: { name: 'the two Spiel doch! tiles', tiles: [{ tile: 'SD/CC', at: [0, 0], rot: 0 }, { tile: 'SD/RRR', at: [1, 0], rot: 270 }] } },
};
