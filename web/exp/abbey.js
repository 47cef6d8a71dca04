// exp/abbey.js - Abbey & Mayor on the dashboard: the abbey (a closed tile,
// walled), the mayor, the wagon and the barn, the abbeys each player holds
// yet, the rules and the names.

import { s } from '../dom.js';

// The mayor: top hat, head, a wide robe.
const MAYOR_D = 'M-4.6 -21H4.6V-14.6H7.8V-12.4H-7.8V-14.6H-4.6Z M0 -12.3A4.6 4.6 0 1 1 -0.01 -12.3Z M-5.4 -3.4H5.4L11 12.8H-11Z';
// The wagon: a covered cart on two wheels, with its shaft.
const WAGON_D = 'M-12.5 -6C-12.5 -15.5 9.5 -15.5 9.5 -6Z M-13.5 -6.5H10.5V3.5H-13.5Z M10.5 -3.5H17V-1.2H10.5Z' +
  'M-12.5 4a5 5 0 1 0 10 0a5 5 0 1 0 -10 0Z M0.5 4a5 5 0 1 0 10 0a5 5 0 1 0 -10 0Z';
// The barn: a gambrel roof, a door and a loft window (holes).
const BARN_D = 'M-12 12.8V-1L-9.5 -8.5L0 -13.5L9.5 -8.5L12 -1V12.8Z M-4.5 12.2V3.5H4.5V12.2Z M-2.3 -6.5H2.3V-2.3H-2.3Z';

export default {
  id: 'abbey',
  name: 'Abbey & Mayor', short: 'A&M',
  // the unit's words in the dashboard's other languages (i18n/README.md)
  i18n: {
    pl: {
      name: 'Opactwo i burmistrz', short: 'OiB',
      items: { abbeys: { label: 'Pozostałe opactwa' } },
      closed: 'opactwo',
      figures: { mayor: 'burmistrz', wagon: 'wóz', barn: 'stodoła' },
      elementNames: { abbey: 'opactwo' },
      features: { barn: 'stodoła' },
      rules: {
        ABBEY_PLACEMENT: 'Opactwo poza dziurą (polem z czterema sąsiadami) albo zagrane przez gracza, który go nie ma.',
        BARN_PLACEMENT: 'Stodołę stawia się na rogu właśnie położonego kafelka, gdzie stykają się cztery łąki, i nie na łące ze stodołą.',
        WAGON_MOVE: 'Wóz ruszył, choć nie czekał na ruch, albo na obszar, do którego nie może dojechać.',
      },
    },
    ca: {
      name: 'L\'abadia i l\'alcalde', short: 'A&A',
      items: { abbeys: { label: 'Abadies que queden' } },
      closed: 'abadia',
      figures: { mayor: 'alcalde', wagon: 'carro', barn: 'graner' },
      elementNames: { abbey: 'abadia' },
      features: { barn: 'graner' },
      rules: {
        ABBEY_PLACEMENT: 'Una abadia fora d\'un forat (una casella amb quatre veïnes), o d\'un jugador que no en té cap.',
        BARN_PLACEMENT: 'Un graner va en una cantonada de la peça que s\'acaba de col·locar on es troben quatre camps, i no en un camp amb graner.',
        WAGON_MOVE: 'Un carro es va moure quan no esperava fer-ho, o cap a un element on no pot arribar.',
      },
    },
    de: {
      name: 'Abtei und Bürgermeister', short: 'A&B',
      items: { abbeys: { label: 'Übrige Abteien' } },
      closed: 'Abtei',
      figures: { mayor: 'Bürgermeister', wagon: 'Wagen', barn: 'Scheune' },
      elementNames: { abbey: 'Abtei' },
      features: { barn: 'Scheune' },
      rules: {
        ABBEY_PLACEMENT: 'Eine Abtei außerhalb eines Lochs (ein Feld mit vier Nachbarn) oder von einem Spieler, der keine hat.',
        BARN_PLACEMENT: 'Eine Scheune kommt auf eine Ecke des gerade gelegten Plättchens, an der vier Wiesen zusammenstoßen, und nicht auf eine Wiese mit Scheune.',
        WAGON_MOVE: 'Ein Wagen zog, obwohl er nicht darauf wartete, oder auf ein Gebiet, das er nicht erreichen darf.',
      },
    },
  },
  // the recorder's setup: the box's tile sets and elements
  box: { name: 'Abbey & Mayor', sets: { 'abbey-and-mayor:1': 1 }, elements: { abbey: 1, mayor: 1, wagon: 1, barn: 1 } },
  figures: {
    mayor: { name: 'mayor', d: MAYOR_D, scale: 0.82 },
    // moves: may move between turns
    wagon: { name: 'wagon', d: WAGON_D, scale: 0.82, moves: true },
    // corner: stands on the corner north-west of its tile
    barn: { name: 'barn', d: BARN_D, scale: 0.9, corner: true },
  },
  features: {
    barn: { name: 'barn', open: true, rank: 5 },
  },
  // A closed tile (no segment on its edges: it ends whatever it meets) is
  // the abbey: a walled close, its monastery larger.
  closed: {
    cls: 'abbey', title: 'abbey', scale: 1.3,
    legend: { attr: 'abbey', text: 'abbey', icon: () => [s('rect', { class: 'abbey-wall', x: -11, y: -11, width: 22, height: 22 })] },
  },
  draw: {
    ground(g, geo) {
      if (!geo.closed) return;
      g.appendChild(s('rect', { class: 'abbey-ground', x: 7, y: 7, width: 86, height: 86 }));
      g.appendChild(s('rect', { class: 'abbey-wall', x: 5, y: 5, width: 90, height: 90 }));
    },
  },
  // the replay's items of this unit (docs/api.md)
  items: {
    abbeys: { label: 'Abbeys left', cls: 'abbeys' },
  },
  rules: {
    ABBEY_PLACEMENT: [6, 'An abbey outside a hole (a square with four neighbours), or by a player who holds none.'],
    BARN_PLACEMENT: [16, 'A barn goes on a corner of the tile just placed where four fields meet, and not in a field with a barn.'],
    WAGON_MOVE: [28, 'A wagon moved when it was not waiting to, or to a feature it may not reach.'],
  },
  elementFigures: { mayor: 'mayor', wagon: 'wagon', barn: 'barn' },
  elementNames: { abbey: 'abbey' },
};
