// exp/cult.js - the shrines (Cult, Siege & Creativity) on the dashboard:
// the shrine in the middle of its tile, where a monastery would stand,
// drawn as a domed shrine with a flame so that a shrine and a monastery
// side by side are told apart at a glance; the placement rule; the
// element's name.

import { s } from '../dom.js';

// A domed shrine with a flame on top, centred on (0, 0), about the size
// of a monastery.
const shrine = () => [
  s('rect', { class: 'shrine-body', x: -10, y: -3, width: 20, height: 14, fill: '#d9d2c5', stroke: '#4a3f57', 'stroke-width': 1.5 }),
  s('path', { class: 'shrine-dome', d: 'M-12 -2Q-12 -16 0 -17Q12 -16 12 -2Z', fill: '#6d4b8f', stroke: '#3b2950', 'stroke-width': 1.2 }),
  s('path', { class: 'shrine-door', d: 'M-3.5 11V4Q0 -0.5 3.5 4V11Z', fill: '#3b2950' }),
  s('path', { class: 'shrine-flame', d: 'M0 -27Q4 -22 2 -18.5Q0 -17 -2 -18.5Q-4 -22 0 -27Z', fill: '#f0a030', stroke: '#b0601a', 'stroke-width': 0.8 }),
];

export default {
  id: 'cult',
  name: 'Cult, Siege & Creativity: the shrines', short: 'Shrines',
  // the unit's words in the dashboard's other languages (i18n/README.md)
  i18n: {
    pl: {
      name: 'Kult, oblężenie i kreatywność: kapliczki', short: 'Kapliczki',
      receiptItems: { 'shrine-challenge': 'wyzwanie kapliczki' },
      legends: { shrine: 'kapliczka (wyzywa klasztor obok)' },
      elementNames: { shrine: 'kapliczki' },
      features: { shrine: 'kapliczka' }, exprNames: { challenged: 'zakwestionowana' },
      rules: {
        SHRINE_PLACEMENT: 'Klasztor albo kapliczka obok dwóch budowli drugiego rodzaju albo obok takiej, która ma już obok siebie budowlę własnego rodzaju.',
      },
    },
    ca: {
      name: 'Culte, setge i creativitat: els santuaris', short: 'Santuaris',
      receiptItems: { 'shrine-challenge': 'desafiament del santuari' },
      legends: { shrine: 'santuari (desafia el monestir del costat)' },
      elementNames: { shrine: 'santuaris' },
      features: { shrine: 'santuari' }, exprNames: { challenged: 'desafiat' },
      rules: {
        SHRINE_PLACEMENT: 'Un monestir o un santuari al costat de dos claustres de l’altre tipus, o al costat d’un que ja en té un del seu tipus al costat.',
      },
    },
    de: {
      name: 'Kult, Belagerung und Kreativität: die Kultstätten', short: 'Kultstätten',
      receiptItems: { 'shrine-challenge': 'Herausforderung der Kultstätte' },
      legends: { shrine: 'Kultstätte (fordert das Kloster daneben heraus)' },
      elementNames: { shrine: 'Kultstätten' },
      features: { shrine: 'Kultstätte' }, exprNames: { challenged: 'herausgefordert' },
      rules: {
        SHRINE_PLACEMENT: 'Ein Kloster oder eine Kultstätte neben zwei Bauwerken der anderen Art, oder neben einem, das schon eines der eigenen Art neben sich hat.',
      },
    },
  },
  // how a receipt's items of the unit's read (a score event's items)
  receiptItems: { 'shrine-challenge': 'shrine challenge' },
  // the recorder's setup: the box's tile sets and elements
  box: { name: 'Cult, Siege & Creativity: the shrines', sets: { 'cult/6': 1 }, elements: { shrine: true } },
  features: {
    // where a monastery stands: in the middle, roads end at it
    shrine: {
      name: 'shrine', shape: 'inner', place: 'center', r: 19, clear: 3, ring: 3, order: 0, tokens: true, charted: true, rank: 3.5,
      legend: { attr: 'shrine', text: 'shrine (challenges the monastery beside it)', icon: () => [s('g', { class: 'shrine', transform: 'scale(0.7) translate(0 6)' }, ...shrine())] },
    },
  },
  draw: {
    inner(g, geo, ctx) {
      const m = geo.inner.get('shrine');
      if (!m) return;
      const [mx, my] = m.at;
      g.appendChild(s('g', { class: 'shrine', transform: `${ctx.upright(m.at)} translate(${mx} ${my})` },
        s('title', { text: 'shrine' }), ...shrine()));
    },
  },
  rules: {
    // after the river's rules, before a discard's
    SHRINE_PLACEMENT: [8.5, 'A monastery or shrine next to two cloisters of the other kind, or next to one that already has a cloister of its own kind beside it.'],
  },
  elementNames: { shrine: 'shrines' },
  exprNames: { challenged: 'challenged' },
};
