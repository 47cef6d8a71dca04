// exp/gq11.js - the GQ11 promo on the dashboard: its tiles' features are
// the known ones (the pig herd is Traders & Builders' token); the unit
// gives its names.

export default {
  id: 'gq11',
  name: 'GQ11', short: 'GQ11',
  // the unit's words in the dashboard's other languages (i18n/README.md)
  i18n: {
    pl: { name: 'GQ11', short: 'GQ11' },
    ca: { name: 'GQ11', short: 'GQ11' },
    de: { name: 'GQ11', short: 'GQ11' },
  },
  // the recorder's setup: the box's tile sets and elements
  box: { name: 'GQ11', sets: { gq11: 1 }, elements: {} },
};
