// exp/siege.js - the siege (Cult, Siege & Creativity's Cathars and
// Besiegers) on the dashboard: a besieged city carries the besiegers'
// camp, a tent beside two crossed spears, as a token; the escape's rule
// and the elements' names. An escaped follower is simply gone from the
// board in the replay's next turn.

import { s } from '../dom.js';

// Drawn with presentation attributes: the camp's colours are its own.
const camp = () => [
  s('path', { d: 'M-12 9L9 -9M-9 -9L12 9', stroke: '#3a2a1a', 'stroke-width': 1.6, 'stroke-linecap': 'round' }),
  s('path', { d: 'M9 -9L11 -12.5L12.5 -8ZM-9 -9L-11 -12.5L-12.5 -8Z', fill: '#6e6e6e', stroke: '#3a2a1a', 'stroke-width': 0.8 }),
  s('path', { d: 'M-9 8L0 -7L9 8Z', fill: '#c8453a', stroke: '#5a1c16', 'stroke-width': 1.3, 'stroke-linejoin': 'round' }),
  s('path', { d: 'M-2.5 8L0 2L2.5 8Z', fill: '#5a1c16' }),
  s('path', { d: 'M0 -7V-12L4.5 -10.5L0 -9', fill: '#f2c029', stroke: '#5a1c16', 'stroke-width': 0.8 }),
];

export default {
  id: 'siege',
  name: 'Cult, Siege & Creativity: the siege', short: 'Siege',
  // the unit's words in the dashboard's other languages (i18n/README.md)
  i18n: {
    pl: {
      name: 'Kult, oblężenie i kreatywność: oblężenie', short: 'Oblężenie',
      receiptItems: { besieged: 'oblężenie' },
      tokens: { besieged: 'oblężone miasto (punkt mniej za kafelek i herb; podwójnie dla chłopów)' },
      moves: { escape: 'Ucieczka z oblężonego miasta:' },
      elementNames: { siege: 'oblężone miasta', escape: 'ucieczki z oblężonych miast' },
      rules: {
        SIEGE_ESCAPE: 'Po turze jej gracz może wyprowadzić jednego podróżnika z oblężonego miasta, na którym lub obok którego jest klasztor; każda inna ucieczka jest nie na miejscu.',
      },
    },
    ca: {
      name: 'Culte, setge i creativitat: el setge', short: 'Setge',
      receiptItems: { besieged: 'setge' },
      tokens: { besieged: 'ciutat assetjada (un punt menys per peça i escut; el doble per als pagesos)' },
      moves: { escape: 'Fugida de la ciutat assetjada:' },
      elementNames: { siege: 'ciutats assetjades', escape: 'fugides de ciutats assetjades' },
      rules: {
        SIEGE_ESCAPE: 'Després d’un torn el seu jugador pot treure un seguidor d’una ciutat assetjada amb un monestir a sobre o al costat; qualsevol altra fugida és fora de lloc.',
      },
    },
    de: {
      name: 'Kult, Belagerung und Kreativität: die Belagerung', short: 'Belagerung',
      receiptItems: { besieged: 'Belagerung' },
      tokens: { besieged: 'belagerte Stadt (ein Punkt weniger je Plättchen und Wappen; doppelt für Bauern)' },
      moves: { escape: 'Flucht aus der belagerten Stadt:' },
      elementNames: { siege: 'belagerte Städte', escape: 'Fluchten aus belagerten Städten' },
      rules: {
        SIEGE_ESCAPE: 'Nach einem Zug darf sein Spieler einen Gefolgsmann aus einer belagerten Stadt mit einem Kloster darauf oder daneben herausholen; jede andere Flucht ist fehl am Platz.',
      },
    },
  },
  // how a receipt's items of the unit's read (a score event's items)
  receiptItems: { besieged: 'besieged' },
  // the recorder's setup: the box's tile sets and elements
  box: { name: 'Cult, Siege & Creativity: the siege', sets: { 'siege/cathars': 1 }, elements: { siege: true, escape: true } },
  moves: { escape: 'Escape from the besieged city:' },
  // tokens by segment attribute: a besieged city's camp
  tokens: {
    besieged: { name: 'besieged city (a point less a tile and pennant; twice for farmers)', draw: camp },
  },
  rules: {
    SIEGE_ESCAPE: [46, 'After a turn its player may take one follower out of a besieged city with a monastery on or next to it; any other escape is out of place.'],
  },
  elementNames: { siege: 'besieged cities', escape: 'escapes from besieged cities' },
};
