// exp/gold.js - Gold Mines on the dashboard: a gold mine tile carries a
// little pick over a nugget; the gold bars lying on a square are drawn
// in its top-right corner as stacked ingots with their number; what
// each player holds is counted, and the bars' points at the end are
// named in the scores.

import { s } from '../dom.js';

const TILE = 100;

function bars(board, it) {
  const [x, y] = [it.at[0] * TILE + TILE - 16, it.at[1] * TILE + 14];
  const n = it.value || 1;
  return s('g', { class: 'gold-bars', transform: `translate(${x} ${y})`, dataset: { at: it.at.join(','), bars: n } },
    s('title', { text: `${n} gold bar${n === 1 ? '' : 's'} at (${it.at.join(',')})` }),
    s('path', { class: 'gold-bar', d: 'M-8 6L-6 1H6L8 6Z' }),
    n > 1 ? s('path', { class: 'gold-bar', d: 'M-6 1L-4 -4H4L6 1Z' }) : null,
    s('text', { class: 'gold-count', x: 11, y: 4, text: String(n) }));
}

export default {
  id: 'gold',
  name: 'Gold Mines', short: 'Gold',
  // the recorder's setup: the box's tile sets and elements
  box: { name: 'Gold Mines', sets: { goldmines: 1 }, elements: { gold: true } },
  // the recorder's names of the unit's moves (GET /api/live/{id}/options)
  moves: { gold: 'Second gold bar on' },
  tileMarks: {
    goldmine: { title: 'gold mine: a gold bar on it, and one on a tile beside it', d: 'M-6 4L6 4L3 0L-3 0ZM-7 -6L5 -2M4 -5L6 -1' },
  },
  features: {
    // the bars' points at the end: no board feature, never "incomplete"
    gold: { name: 'gold', open: true, rank: 13 },
  },
  items: {
    'gold-bars': { draw: bars, cls: 'gold-bars', changed: (it) => `Gold bars at (${it.at.join(',')}): ${it.value}.` },
    gold: { label: 'Gold bars held', cls: 'gold-held', testid: 'gold' },
  },
  rules: {
    GOLD: [54, 'A gold mine gets a gold bar, and its player puts a second on a tile beside it (diagonally too), right after the tile, when there are two or more.'],
  },
  elementNames: { gold: 'gold bars' },
  i18n: {
    pl: {
      name: 'Kopalnie złota', short: 'Złoto',
      features: { gold: 'złoto' },
      items: { 'gold-bars': { changed: (it) => `Sztabki złota na polu (${it.at.join(',')}): ${it.value}.` }, gold: { label: 'Zebrane sztabki złota' } },
      moves: { gold: 'Druga sztabka złota na' },
      elementNames: { gold: 'sztabki złota' },
      rules: {
        GOLD: 'Kopalnia złota dostaje sztabkę złota, a jej gracz kładzie drugą na sąsiedniej płytce (także po skosie), zaraz po płytce, gdy są co najmniej dwie takie płytki.',
      },
    },
    ca: {
      name: 'Les mines d’or', short: 'Or',
      features: { gold: 'or' },
      items: { 'gold-bars': { changed: (it) => `Lingots d’or a (${it.at.join(',')}): ${it.value}.` }, gold: { label: 'Lingots d’or guanyats' } },
      moves: { gold: 'Segon lingot d’or a' },
      elementNames: { gold: 'lingots d’or' },
      rules: {
        GOLD: 'Una mina d’or rep un lingot d’or, i el seu jugador en posa un segon en una loseta del costat (també en diagonal), just després de la loseta, quan n’hi ha dues o més.',
      },
    },
    de: {
      name: 'Die Goldminen', short: 'Gold',
      features: { gold: 'Gold' },
      items: { 'gold-bars': { changed: (it) => `Goldbarren auf (${it.at.join(',')}): ${it.value}.` }, gold: { label: 'Gewonnene Goldbarren' } },
      moves: { gold: 'Zweiter Goldbarren auf' },
      elementNames: { gold: 'Goldbarren' },
      rules: {
        GOLD: 'Eine Goldmine bekommt einen Goldbarren, und ihr Spieler legt einen zweiten auf ein Plättchen daneben (auch diagonal), gleich nach dem Plättchen, wenn es zwei oder mehr gibt.',
      },
    },
  },
};
