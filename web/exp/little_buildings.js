// exp/little_buildings.js - Little Buildings on the dashboard: a shed, a
// house or a tower in the top-left corner of the square it stands on,
// what each player has left, and the rule.

import { s } from '../dom.js';

const TILE = 100;

const shapes = {
  shed: 'M-6 5V-1L0 -5L6 -1V5Z',
  house: 'M-7 6V-2L0 -8L7 -2V6Z M-2 6V1H2V6',
  tower: 'M-5 7V-6H-3V-8H-1V-6H1V-8H3V-6H5V7Z',
};

function building(kind) {
  return (board, it) => {
    const [x, y] = [it.at[0] * TILE + 14, it.at[1] * TILE + 14];
    return s('g', { class: `little-building lb-${kind}`, transform: `translate(${x} ${y})`, dataset: { at: it.at.join(','), building: kind } },
      s('title', { text: `${kind} at (${it.at.join(',')})` }),
      s('path', { d: shapes[kind] }));
  };
}

export default {
  id: 'little_buildings',
  name: 'Little Buildings', short: 'Buildings',
  // the unit's words in the dashboard's other languages (i18n/README.md)
  i18n: {
    pl: {
      name: 'Małe budynki', short: 'Budynki',
      receiptItems: { 'little-buildings': 'małe budynki' },
      items: { sheds: { label: 'Pozostałe szopy' }, houses: { label: 'Pozostałe domy' }, towers: { label: 'Pozostałe wieże' }, shed: { changed: (it) => `Zbudowano szopę na polu (${it.at.join(',')}).` }, house: { changed: (it) => `Zbudowano dom na polu (${it.at.join(',')}).` }, tower: { changed: (it) => `Zbudowano wieżę na polu (${it.at.join(',')}).` } },
      moves: { 'lb-shed': 'Szopa', 'lb-house': 'Dom', 'lb-tower': 'Wieża' },
      elementNames: { 'little-buildings': 'małe budynki' },
      rules: {
        LITTLE_BUILDING: 'Zamiast akcji tury gracz kładzie na kafelku tury szopę, dom albo wieżę, które jeszcze ma, jedno na pole.',
      },
    },
    ca: {
      name: 'Els petits edificis', short: 'Edificis',
      receiptItems: { 'little-buildings': 'petits edificis' },
      items: { sheds: { label: 'Coberts que queden' }, houses: { label: 'Cases que queden' }, towers: { label: 'Torres que queden' }, shed: { changed: (it) => `S’ha construït un cobert a (${it.at.join(',')}).` }, house: { changed: (it) => `S’ha construït una casa a (${it.at.join(',')}).` }, tower: { changed: (it) => `S’ha construït una torre a (${it.at.join(',')}).` } },
      moves: { 'lb-shed': 'Un cobert', 'lb-house': 'Una casa', 'lb-tower': 'Una torre' },
      elementNames: { 'little-buildings': 'petits edificis' },
      rules: {
        LITTLE_BUILDING: 'En lloc de l’acció del torn un jugador posa a la peça del torn un cobert, una casa o una torre que encara té, un per casella.',
      },
    },
    de: {
      name: 'Die kleinen Gebäude', short: 'Gebäude',
      receiptItems: { 'little-buildings': 'kleine Gebäude' },
      items: { sheds: { label: 'Übrige Schuppen' }, houses: { label: 'Übrige Häuser' }, towers: { label: 'Übrige Türme' }, shed: { changed: (it) => `Auf (${it.at.join(',')}) wurde ein Schuppen gebaut.` }, house: { changed: (it) => `Auf (${it.at.join(',')}) wurde ein Haus gebaut.` }, tower: { changed: (it) => `Auf (${it.at.join(',')}) wurde ein Turm gebaut.` } },
      moves: { 'lb-shed': 'Ein Schuppen', 'lb-house': 'Ein Haus', 'lb-tower': 'Ein Turm' },
      elementNames: { 'little-buildings': 'kleine Gebäude' },
      rules: {
        LITTLE_BUILDING: 'Statt der Aktion des Zuges setzt ein Spieler einen Schuppen, ein Haus oder einen Turm aus seinem Vorrat auf das Plättchen des Zuges, eines pro Feld.',
      },
    },
  },
  // how a receipt's items of the unit's read (a score event's items)
  receiptItems: { 'little-buildings': 'little buildings' },
  // the recorder's setup: the box's tile sets and elements
  box: { name: 'Little Buildings', sets: {}, elements: { 'little-buildings': 1 } },
  moves: { 'lb-shed': 'A shed', 'lb-house': 'A house', 'lb-tower': 'A tower' },
  items: {
    shed: { draw: building('shed'), cls: 'lb-shed', changed: (it) => `A shed was built at (${it.at.join(',')}).` },
    house: { draw: building('house'), cls: 'lb-house', changed: (it) => `A house was built at (${it.at.join(',')}).` },
    tower: { draw: building('tower'), cls: 'lb-tower', changed: (it) => `A tower was built at (${it.at.join(',')}).` },
    sheds: { label: 'Sheds left', cls: 'lb-sheds', testid: 'lb-sheds' },
    houses: { label: 'Houses left', cls: 'lb-houses', testid: 'lb-houses' },
    towers: { label: 'Towers left', cls: 'lb-towers', testid: 'lb-towers' },
  },
  rules: {
    LITTLE_BUILDING: [51, 'Instead of the turn\'s action a player puts a shed, a house or a tower they still have on the turn\'s tile, one a square.'],
  },
  elementNames: { 'little-buildings': 'little buildings' },
};
