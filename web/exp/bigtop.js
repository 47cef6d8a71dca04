// exp/bigtop.js - Under the Big Top on the dashboard: the acrobat space
// in the middle of its tile (three acrobats stacked, drawn as a little
// pyramid of heads), the circus tiles' mark (a striped tent), the big
// top (a neutral figure, a red and white tent with a flag, on the tile
// it stands on), the ringmaster (a follower in a top hat), their score
// events and rules, the elements' names.

import { s } from '../dom.js';
import { MEEPLE_D } from './base.js';

const at = (p) => `(${p[0]},${p[1]})`;

// A tent with a pennant, centred on (0, 0), about 26 units wide.
const TENT_D = 'M-13 10L-10 -2L0 -9L10 -2L13 10Z M0 -9V-16L6 -13.5L0 -11';
// A follower wearing a top hat (the hat above the head).
const RINGMASTER_D = `${MEEPLE_D} M-5.5 -13.5H5.5V-15H3.5V-22H-3.5V-15H-5.5Z`;

// The acrobat space: three small figures in a pyramid, on a ring.
const acrobats = () => [
  s('circle', { class: 'acrobats-ring', r: 13 }),
  s('circle', { class: 'acrobat', cx: 0, cy: -6, r: 3 }),
  s('circle', { class: 'acrobat', cx: -5, cy: 3, r: 3 }),
  s('circle', { class: 'acrobat', cx: 5, cy: 3, r: 3 }),
  s('path', { class: 'acrobats-base', d: 'M-10 8H10' }),
];

export default {
  id: 'bigtop',
  name: 'Under the Big Top', short: 'Big Top',
  // the unit's words in the dashboard's other languages (i18n/README.md)
  i18n: {
    pl: {
      name: 'Cyrk', short: 'Cyrk',
      receiptItems: { circus: 'kafelki cyrku' },
      legends: { acrobats: 'pole akrobatów (do 3 podróżników: piramida)' },
      moves: { 'score-acrobats': 'Punktuj akrobatów' },
      figures: { ringmaster: 'dyrektor cyrku', bigtop: 'namiot cyrkowy' },
      elementNames: { 'big-top': 'namiot cyrkowy', acrobats: 'akrobaci' },
      features: { acrobats: 'akrobaci', bigtop: 'namiot cyrkowy', ringmaster: 'premia dyrektora cyrku' },
      rules: {
        ACROBATS: 'Punkty za piramidę, choć żadna nie jest pełna (mniej niż 3 figurki na polu akrobatów), albo gdzie nie ma pola akrobatów.',
      },
      items: { bigtop: { moved: (it) => `Namiot cyrkowy stanął na polu ${at(it.at)}.` } },
    },
    ca: {
      name: 'El circ', short: 'Circ',
      receiptItems: { circus: 'peces de circ' },
      legends: { acrobats: 'espai d’acròbates (fins a 3 seguidors: una piràmide)' },
      moves: { 'score-acrobats': 'Puntua els acròbates' },
      figures: { ringmaster: 'director de pista', bigtop: 'gran carpa' },
      elementNames: { 'big-top': 'la gran carpa', acrobats: 'acròbates' },
      features: { acrobats: 'acròbates', bigtop: 'la gran carpa', ringmaster: 'bonificació del director de pista' },
      rules: {
        ACROBATS: 'Es va puntuar una piràmide on no n’hi ha cap de completa (menys de 3 figures a l’espai d’acròbates), o on no hi ha espai d’acròbates.',
      },
      items: { bigtop: { moved: (it) => `La gran carpa s’ha alçat a ${at(it.at)}.` } },
    },
    de: {
      name: 'Der Zirkus', short: 'Zirkus',
      receiptItems: { circus: 'Zirkusplättchen' },
      legends: { acrobats: 'Akrobatenplatz (bis zu 3 Gefolgsleute: eine Pyramide)' },
      moves: { 'score-acrobats': 'Akrobaten werten' },
      figures: { ringmaster: 'Zirkusdirektor', bigtop: 'Zirkuszelt' },
      elementNames: { 'big-top': 'das Zirkuszelt', acrobats: 'Akrobaten' },
      features: { acrobats: 'Akrobaten', bigtop: 'Zirkuszelt', ringmaster: 'Zirkusdirektor-Bonus' },
      rules: {
        ACROBATS: 'Eine Pyramide gewertet, wo keine vollständig ist (weniger als 3 Figuren auf dem Akrobatenplatz), oder wo kein Akrobatenplatz ist.',
      },
      items: { bigtop: { moved: (it) => `Das Zirkuszelt wurde auf ${at(it.at)} aufgebaut.` } },
    },
  },
  // how a receipt's items of the unit's read (a score event's items)
  receiptItems: { circus: 'circus tiles' },
  // the recorder's setup: the box's tile sets and elements
  box: { name: 'Under the Big Top', sets: { 'under-the-big-top:1': 1 }, elements: { ringmaster: 1, 'big-top': 1, acrobats: true } },
  // the recorder's names of the unit's moves (GET /api/live/{id}/options)
  moves: { 'score-acrobats': 'Score the acrobats' },
  figures: {
    ringmaster: { name: 'ringmaster', d: RINGMASTER_D, scale: 0.8, lies: true },
    // neutral: nobody's, on its tile's square
    bigtop: { name: 'big top', d: TENT_D, scale: 1.2, neutral: true, fill: '#c8342c', spot: [0.72, 0.28] },
  },
  features: {
    // in the middle of its tile, where the roads end
    acrobats: {
      name: 'acrobats', shape: 'inner', place: 'center', r: 14, clear: 3, ring: 3, order: 0, tokens: true, rank: 5,
      legend: { attr: 'acrobats', text: 'acrobat space (up to 3 followers: a pyramid)', icon: () => [s('g', { class: 'acrobats' }, ...acrobats())] },
    },
    // score events only: no board feature, no "incomplete"
    bigtop: { name: 'big top', open: true, rank: 7.1 },
    ringmaster: { name: 'ringmaster bonus', open: true, rank: 7.2 },
  },
  draw: {
    inner(g, geo, ctx) {
      const m = geo.inner.get('acrobats');
      if (!m) return;
      const [mx, my] = m.at;
      g.appendChild(s('g', { class: 'acrobats', transform: `${ctx.upright(m.at)} translate(${mx} ${my})` },
        s('title', { text: 'acrobat space' }), ...acrobats()));
    },
  },
  tileMarks: {
    circus: { title: 'circus: the big top comes here', d: 'M-8 6L-6 -1L0 -6L6 -1L8 6Z M0 -6V-10L4 -8.5L0 -7.5' },
  },
  // the replay's items of this unit (docs/api.md)
  items: {
    bigtop: { figure: true, moved: (it) => `The big top went up at ${at(it.at)}.` },
  },
  rules: {
    // last in the engine's order
    ACROBATS: [46, 'A pyramid scored where none is complete (fewer than 3 figures on the acrobat space), or where no acrobat space is.'],
  },
  elementFigures: { ringmaster: 'ringmaster' },
  elementNames: { 'big-top': 'the big top', acrobats: 'acrobats' },
};
