// exp/darmstadt.js - Darmstadt on the dashboard: a church is a monastery
// with a bell beside it, the city of darmstadtium carries the element's
// square (Ds, 110), and the church's bonus is named in the scores.

import { s } from '../dom.js';

export default {
  id: 'darmstadt',
  name: 'Darmstadt', short: 'Darmstadt',
  // the unit's words in the dashboard's other languages (i18n/README.md)
  i18n: {
    pl: {
      name: 'Darmstadt', short: 'Darmstadt',
      receiptItems: { church: 'kościół', darmstadtium: 'darmsztadt' },
      tokens: { church: 'kościół', darmstadtium: 'darmsztadt' },
      features: { church: 'premia za kościół' },
    },
    ca: {
      name: 'Darmstadt', short: 'Darmstadt',
      receiptItems: { church: 'església', darmstadtium: 'darmstadti' },
      tokens: { church: 'església', darmstadtium: 'darmstadti' },
      features: { church: 'bonificació de l\'església' },
    },
    de: {
      name: 'Darmstadt', short: 'Darmstadt',
      receiptItems: { church: 'Kirche', darmstadtium: 'Darmstadtium' },
      tokens: { church: 'Kirche', darmstadtium: 'Darmstadtium' },
      features: { church: 'Kirchenbonus' },
    },
  },
  // how a receipt's items of the unit's read (a score event's items)
  receiptItems: { church: 'church', darmstadtium: 'darmstadtium' },
  // the recorder's setup: the box's tile sets and elements
  box: { name: 'Darmstadt', sets: { darmstadt: 1 }, elements: {} },
  features: {
    // the bonus of a completed church's block: no board feature, no
    // "incomplete"
    church: { name: 'church bonus', open: true, rank: 7 },
  },
  tokens: {
    church: {
      name: 'church',
      draw: () => [
        s('circle', { class: 'church-badge', r: 9.5 }),
        s('path', { class: 'church-bell', d: 'M-5.5 4.5C-5.5 -1 -4 -6 0 -6S5.5 -1 5.5 4.5Z' }),
        s('path', { class: 'church-rim', d: 'M-7 4.5H7' }),
        s('circle', { class: 'church-clapper', cx: 0, cy: 6.5, r: 1.6 }),
      ],
    },
    darmstadtium: {
      name: 'darmstadtium',
      draw: () => [
        s('rect', { class: 'darmstadtium-square', x: -10, y: -10, width: 20, height: 20, rx: 1.5 }),
        // drawn, not written: the key's entries are read as their text
        s('path', { class: 'darmstadtium-number', d: 'M-7.5 -8.2V-3.8M-5 -8.2V-3.8M-1.2 -8.2A1.3 2.2 0 1 0 -1.2 -3.8A1.3 2.2 0 1 0 -1.2 -8.2Z' }),
        s('path', { class: 'darmstadtium-symbol', d: 'M-6.5 -1.5V7.5H-4Q1 7.5 1 3Q1 -1.5 -4 -1.5Z M7 2Q6.2 0.8 4.6 0.8Q3 0.8 3 2.3Q3 3.6 5 4Q7.2 4.4 7.2 6Q7.2 7.6 5 7.6Q3.4 7.6 2.7 6.4' }),
      ],
    },
  },
};
