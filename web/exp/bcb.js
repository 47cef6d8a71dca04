// exp/bcb.js - Bridges, Castles & Bazaars on the dashboard: a bridge is a
// plank with railings across its tile, a castle a small keep with
// battlements on its city (in its owner's colour, grey once it has
// scored), a bazaar tile carries a stall's awning, and the auction's
// points and the castles' scores are named in the scores.

import { s } from '../dom.js';

const TILE = 100;

// The plank across the tile at `at` along the bridge's axis.
function bridge(board, it) {
  const [x, y] = [it.at[0] * TILE, it.at[1] * TILE];
  const ns = String(it.segment).endsWith(':NS') || String(it.segment).endsWith(':SN');
  const w = 16;
  const r = ns ? { x: x + 50 - w / 2, y: y + 2, width: w, height: TILE - 4 }
    : { x: x + 2, y: y + 50 - w / 2, width: TILE - 4, height: w };
  const rail = ns
    ? `M${x + 50 - w / 2} ${y + 2}V${y + TILE - 2}M${x + 50 + w / 2} ${y + 2}V${y + TILE - 2}`
    : `M${x + 2} ${y + 50 - w / 2}H${x + TILE - 2}M${x + 2} ${y + 50 + w / 2}H${x + TILE - 2}`;
  return s('g', { class: 'bridge', dataset: { at: it.at.join(','), segment: it.segment } },
    s('title', { text: `bridge ${ns ? 'north-south' : 'west-east'} at (${it.at.join(',')})` }),
    s('rect', { class: 'bridge-deck', ...r }),
    s('path', { class: 'bridge-rail', d: rail }));
}

// The keep on the castle's segment of the tile at `at`: its owner's
// colour while its knight holds it, grey once it has scored.
function castle(board, it) {
  const [x, y] = board.locate(it.at, it.segment).anchor;
  const held = it.name === 'castle';
  const color = held && board.colors ? board.colors.get(it.player) : null;
  return s('g', {
    class: ['castle', held ? 'held' : 'scored'],
    transform: `translate(${x} ${y + 12})`,
    dataset: { at: it.at.join(','), segment: it.segment, player: it.player },
  },
  s('title', { text: `${it.player ? `${it.player}'s ` : ''}castle at (${it.at.join(',')})${held ? '' : ', scored'}` }),
  s('path', {
    class: 'castle-keep',
    style: color ? { fill: color } : null,
    d: 'M-8 6V-4H-5V-7H-2V-4H2V-7H5V-4H8V6Z',
  }),
  s('path', { class: 'castle-gate', d: 'M-2 6V2A2 2 0 0 1 2 2V6Z' }));
}

export default {
  id: 'bcb',
  name: 'Bridges, Castles & Bazaars', short: 'BCB',
  // the unit's words in the dashboard's other languages (i18n/README.md)
  i18n: {
    pl: {
      name: 'Mosty, zamki i bazary', short: 'MZB',
      receiptItems: { castle: 'zamek', bazaar: 'bazar' },
      items: { bridges: { label: 'Pozostałe mosty' }, castles: { label: 'Pozostałe zamki' }, bridge: { changed: (it) => `Zbudowano most na polu (${it.at.join(',')}).` }, castle: { changed: (it) => `Powstał zamek na polu (${it.at.join(',')}).` }, 'castle-scored': { changed: (it) => `Zamek na polu (${it.at.join(',')}) zapunktował.` } },
      moves: { bridge: 'Most', castle: 'Zamek', bid: 'Licytuj kafelek z aukcji', buy: 'Kup kafelek za ofertę', sell: 'Sprzedaj kafelek licytującemu' },
      elementNames: { bridge: 'mosty', castle: 'zamki', bazaar: 'bazar' },
      features: { castle: 'zamek', bazaar: 'bazar' }, exprNames: { buy: 'kupiony', sell: 'sprzedany' },
      rules: {
        CASTLE_PLACEMENT: 'Zamek tylko z ukończonego miasta z dwóch części na kafelku tury, z podstawą zamku na obu, zajętego przez dokładnie jednego podróżnika, przez gracza, który ma jeszcze zamek, przed końcem tury.',
        BRIDGE_PLACEMENT: 'Most tylko na kafelku tury, przed jej akcją, między dwiema przeciwległymi krawędziami łąki bez kafelka za nimi, jeden na turę, przez gracza, który ma jeszcze most.',
        BAZAAR: 'Na licytacji bazaru każdy mówi po kolei: wybierający wybiera kafelek i licytuje, pozostali przebijają albo pasują, wybierający kupuje albo sprzedaje; potem każdy kładzie otrzymany kafelek.',
      },
    },
    ca: {
      name: 'Ponts, castells i basars', short: 'PCB',
      receiptItems: { castle: 'castell', bazaar: 'basar' },
      items: { bridges: { label: 'Ponts que queden' }, castles: { label: 'Castells que queden' }, bridge: { changed: (it) => `S’ha construït un pont a (${it.at.join(',')}).` }, castle: { changed: (it) => `S’ha fet un castell a (${it.at.join(',')}).` }, 'castle-scored': { changed: (it) => `El castell de (${it.at.join(',')}) ha puntuat.` } },
      moves: { bridge: 'Pont', castle: 'Castell', bid: 'Fes una oferta per la peça de la subhasta', buy: 'Compra la peça al preu ofert', sell: 'Ven la peça al licitador' },
      elementNames: { bridge: 'ponts', castle: 'castells', bazaar: 'basar' },
      features: { castle: 'castell', bazaar: 'basar' }, exprNames: { buy: 'comprada', sell: 'venuda' },
      rules: {
        CASTLE_PLACEMENT: 'Un castell només d’una ciutat completada de dos segments a la peça del torn, amb base de castell a tots dos, ocupada per exactament un seguidor, d’un jugador a qui queda un castell, abans del final del torn.',
        BRIDGE_PLACEMENT: 'Un pont només a la peça del torn, abans de la seva acció, entre dues vores de camp oposades sense peça més enllà, un per torn, d’un jugador a qui queda un pont.',
        BAZAAR: 'A la subhasta del basar cadascú parla per torn: qui tria escull una peça i fa una oferta, els altres l’apugen o passen, qui tria compra o ven; després cadascú col·loca la peça que ha obtingut.',
      },
    },
    de: {
      name: 'Brücken, Burgen und Basare', short: 'BBB',
      receiptItems: { castle: 'Burg', bazaar: 'Basar' },
      items: { bridges: { label: 'Übrige Brücken' }, castles: { label: 'Übrige Burgen' }, bridge: { changed: (it) => `Auf (${it.at.join(',')}) wurde eine Brücke gebaut.` }, castle: { changed: (it) => `Auf (${it.at.join(',')}) entstand eine Burg.` }, 'castle-scored': { changed: (it) => `Die Burg auf (${it.at.join(',')}) wurde gewertet.` } },
      moves: { bridge: 'Brücke', castle: 'Burg', bid: 'Für das Plättchen der Versteigerung bieten', buy: 'Das Plättchen zum Gebot kaufen', sell: 'Das Plättchen dem Bieter verkaufen' },
      elementNames: { bridge: 'Brücken', castle: 'Burgen', bazaar: 'Basar' },
      features: { castle: 'Burg', bazaar: 'Basar' }, exprNames: { buy: 'gekauft', sell: 'verkauft' },
      rules: {
        CASTLE_PLACEMENT: 'Eine Burg nur aus einer abgeschlossenen Stadt aus zwei Teilen auf dem Plättchen des Zuges, mit Burgsockel auf beiden, besetzt von genau einem Gefolgsmann, von einem Spieler mit einer Burg im Vorrat, vor dem Ende des Zuges.',
        BRIDGE_PLACEMENT: 'Eine Brücke nur auf dem Plättchen des Zuges, vor dessen Aktion, über zwei gegenüberliegende Wiesenkanten ohne Plättchen dahinter, eine pro Zug, von einem Spieler mit einer Brücke im Vorrat.',
        BAZAAR: 'Bei der Versteigerung des Basars ist jeder der Reihe nach dran: der Auswählende wählt ein Plättchen und bietet, die anderen bieten mehr oder passen, der Auswählende kauft oder verkauft; danach legt jeder sein Plättchen.',
      },
    },
  },
  // how a receipt's items of the unit's read (a score event's items)
  receiptItems: { castle: 'castle', bazaar: 'bazaar' },
  // the recorder's setup: the box's tile sets and elements
  box: { name: 'Bridges, Castles & Bazaars', sets: { 'bridges-castles-and-bazaars:1': 1 }, elements: { bridge: 1, castle: 1, bazaar: true } },
  // the recorder's names of the unit's moves (GET /api/live/{id}/options)
  moves: { bridge: 'Bridge', castle: 'Castle', bid: 'Bid for the auction\'s tile', buy: 'Buy the tile at the bid', sell: 'Sell the tile to the bidder' },
  features: {
    // a castle: city segments turned into one; it scores from the
    // features completed beside it
    castle: { name: 'castle', open: true, rank: 8 },
    // the auction's points: no board feature
    bazaar: { name: 'bazaar', open: true, rank: 9 },
  },
  tileMarks: {
    bazaar: { title: 'bazaar: an auction follows', d: 'M-9 -3L-6 -8H6L9 -3Z M-9 -3Q-6.75 0 -4.5 -3Q-2.25 0 0 -3Q2.25 0 4.5 -3Q6.75 0 9 -3 M-7 -1V7 M7 -1V7' },
  },
  items: {
    bridge: { draw: bridge, cls: 'bridge', changed: (it) => `A bridge was built at (${it.at.join(',')}).` },
    castle: { draw: castle, cls: 'castle', changed: (it) => `A castle was made at (${it.at.join(',')}).` },
    'castle-scored': { draw: castle, cls: 'castle', changed: (it) => `The castle at (${it.at.join(',')}) scored.` },
    bridges: { label: 'Bridges left', cls: 'bridges', testid: 'bridges' },
    castles: { label: 'Castles left', cls: 'castles', testid: 'castles' },
  },
  rules: {
    CASTLE_PLACEMENT: [46, 'A castle only of a completed city of two segments on the turn\'s tile, a castle base on both, held by exactly one follower, by a player with a castle left, before the turn\'s COMMIT.'],
    BRIDGE_PLACEMENT: [47, 'A bridge only on the turn\'s tile, before its action, across two opposite field edges with no tile beyond, one a turn, by a player with a bridge left.'],
    BAZAAR: [48, 'At the bazaar\'s auction each has a say in turn: the selector chooses a tile and bids, the others bid higher or pass, the selector buys or sells; each then places the tile they got.'],
  },
  elementNames: { bridge: 'bridges', castle: 'castles', bazaar: 'bazaar' },
  exprNames: { buy: 'bought', sell: 'sold' },
};
