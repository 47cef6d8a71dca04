// exp/winter.js - the Winter edition on the dashboard: its tiles are
// drawn as any other (their features are the base game's); the unit
// gives its names.

export default {
  id: 'winter',
  name: 'Winter', short: 'Winter',
  // the unit's words in the dashboard's other languages (i18n/README.md)
  i18n: {
    pl: { name: 'Zima', short: 'Zima' },
    ca: { name: 'Hivern', short: 'Hivern' },
    de: { name: 'Winter', short: 'Winter' },
  },
  // the recorder's setup: the box's tile sets and elements
  box: { name: 'Winter', sets: { winter: 1 }, elements: {} },
};
