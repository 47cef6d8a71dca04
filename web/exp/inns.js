// exp/inns.js - Inns & Cathedrals on the dashboard: the inn on its road
// and the cathedral in its city, as tokens, and their names.

import { s } from '../dom.js';

export default {
  id: 'inns',
  name: 'Inns & Cathedrals', short: 'I&C',
  // the unit's words in the dashboard's other languages (i18n/README.md)
  i18n: {
    pl: {
      name: 'Karczmy i katedry', short: 'KiK',
      receiptItems: { inn: 'karczma', cathedral: 'katedra' },
      tokens: { inn: 'karczma', cathedral: 'katedra' },
      elementNames: { inn: 'karczmy', cathedral: 'katedry' },
    },
    ca: {
      name: 'Posades i catedrals', short: 'P&C',
      receiptItems: { inn: 'posada', cathedral: 'catedral' },
      tokens: { inn: 'posada', cathedral: 'catedral' },
      elementNames: { inn: 'posades', cathedral: 'catedrals' },
    },
    de: {
      name: 'Wirtshäuser und Kathedralen', short: 'W&K',
      receiptItems: { inn: 'Wirtshaus', cathedral: 'Kathedrale' },
      tokens: { inn: 'Wirtshaus', cathedral: 'Kathedrale' },
      elementNames: { inn: 'Wirtshäuser', cathedral: 'Kathedralen' },
    },
  },
  // how a receipt's items of the unit's read (a score event's items)
  receiptItems: { inn: 'inn', cathedral: 'cathedral' },
  // the recorder's setup: the box's tile sets and elements
  box: { name: 'Inns & Cathedrals', sets: { 'inns-and-cathedrals:1': 1 }, elements: { 'big-follower': 1, inn: true, cathedral: true } },
  // tokens by segment attribute: name, and draw(): SVG children,
  // upright, centred on (0, 0), about 18 units
  tokens: {
    inn: {
      name: 'inn',
      draw: () => [
        s('ellipse', { class: 'inn-lake', cx: 0, cy: 5, rx: 12, ry: 5 }),
        s('rect', { class: 'inn-body', x: -6.5, y: -5, width: 13, height: 9 }),
        s('path', { class: 'inn-roof', d: 'M-8.5 -4.5L0 -11L8.5 -4.5Z' }),
        s('path', { class: 'inn-sign', d: 'M6.5 -2H10V2.5H6.5Z' }),
        s('path', { class: 'inn-door', d: 'M-1.8 4V0Q0 -1.8 1.8 0V4Z' }),
      ],
    },
    cathedral: {
      name: 'cathedral',
      draw: () => [
        s('rect', { class: 'cathedral-body', x: -10, y: -4, width: 20, height: 12 }),
        s('path', { class: 'cathedral-roof', d: 'M-11 -3.5L-5 -9H5L11 -3.5Z' }),
        s('rect', { class: 'cathedral-body', x: -3.5, y: -15, width: 7, height: 12 }),
        s('path', { class: 'cathedral-roof', d: 'M-4.5 -14.5L0 -22L4.5 -14.5Z' }),
        s('path', { class: 'cathedral-door', d: 'M-2.4 8V2.5Q0 0 2.4 2.5V8Z' }),
        s('circle', { class: 'cathedral-window', cx: 0, cy: -9, r: 1.8 }),
      ],
    },
  },
  elementNames: { inn: 'inns', cathedral: 'cathedrals' },
};
