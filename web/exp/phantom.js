// exp/phantom.js - the Phantom on the dashboard: its see-through figure.

// A ghost with a wavy hem and two eyes (holes).
const PHANTOM_D = 'M0 -13.5C6.6 -13.5 10 -8.6 10 -2.5V12.5L6.7 9.6L3.3 12.5L0 9.6L-3.3 12.5L-6.7 9.6L-10 12.5V-2.5C-10 -8.6-6.6 -13.5 0 -13.5Z' +
  'M-4.6 -5.5a1.9 2.4 0 1 0 3.8 0a1.9 2.4 0 1 0 -3.8 0Z M0.8 -5.5a1.9 2.4 0 1 0 3.8 0a1.9 2.4 0 1 0 -3.8 0Z';

export default {
  id: 'phantom',
  name: 'The Phantom', short: 'Phantom',
  // the unit's words in the dashboard's other languages (i18n/README.md)
  i18n: {
    pl: {
      name: 'Widmo', short: 'Widmo',
      figures: { phantom: 'widmo' },
    },
    ca: {
      name: 'El fantasma', short: 'Fantasma',
      figures: { phantom: 'fantasma' },
    },
    de: {
      name: 'Das Phantom', short: 'Phantom',
      figures: { phantom: 'Phantom' },
    },
  },
  // the recorder's setup: the box's tile sets and elements
  box: { name: 'The Phantom', sets: {}, elements: { phantom: 1 } },
  figures: {
    // see-through, on a pale underlay that keeps its colour readable
    phantom: { name: 'phantom', d: PHANTOM_D, scale: 0.95, cls: 'see-through', underlay: true },
  },
  elementFigures: { phantom: 'phantom' },
};
