// exp/russian_promos.js - the Russian promos on the dashboard: Baba
// Yaga's hut on its chicken legs in the middle of its tile, the
// Solovei-Razboynik's whistle on his road and the Vodyanoy's pond, where
// caught followers stand; the hut's score and the Vodyanoy's toll named
// in the scores.

import { s } from '../dom.js';

const hut = () => [
  s('path', { class: 'yaga-leg', d: 'M-4 5L-6 11M4 5L6 11M-8 11H-4M4 11H8' }),
  s('path', { class: 'yaga-hut', d: 'M-8 5V-3L0 -10L8 -3V5Z' }),
  s('rect', { class: 'yaga-door', x: -2, y: -1, width: 4, height: 6 }),
];

const pond = () => [
  // wide enough to show round the caught followers standing in it
  s('ellipse', { class: 'vodyanoy-pond', rx: 30, ry: 20 }),
  s('path', { class: 'vodyanoy-ripple', d: 'M-24 -8Q-20 -11 -16 -8T-8 -8M10 10Q14 7 18 10T26 10M-20 12Q-16 9 -12 12T-4 12' }),
];

const whistle = () => [
  s('circle', { class: 'razboynik-nest', r: 10 }),
  s('path', { class: 'razboynik-wave', d: 'M-6 -3Q0 -8 6 -3M-4 1Q0 -3 4 1M-2 5Q0 3 2 5' }),
];

function drawInner(name, title, pic) {
  return (g, geo, ctx) => {
    const m = geo.inner.get(name);
    if (!m) return;
    const [mx, my] = m.at;
    g.appendChild(s('g', { class: name, transform: `${ctx.upright(m.at)} translate(${mx} ${my})` },
      s('title', { text: title }), ...pic()));
  };
}

const drawHut = drawInner('yaga-hut', "Baba Yaga's hut", hut);
const drawPond = drawInner('vodyanoy', 'the Vodyanoy: followers around are caught', pond);
const drawNest = drawInner('razboynik', 'the Solovei-Razboynik: followers on his road are caught', whistle);

export default {
  id: 'russian_promos',
  name: 'the Russian promos', short: 'Russian',
  // the unit's words in the dashboard's other languages (i18n/README.md)
  i18n: {
    pl: {
      name: 'rosyjskie promo', short: 'Rosyjskie',
      receiptItems: { yaga: 'chatka Baby Jagi' },
      legends: { 'yaga-hut': 'chatka Baby Jagi (9 minus punkt za każdego sąsiada)', vodyanoy: 'Wodnik (łapie podróżników wokół; na koniec −2 za każdego)', razboynik: 'Słowik-Rozbójnik (łapie podróżników na swojej drodze)' },
      moves: { 'trap-return': 'Z pułapki:' },
      features: { 'yaga-hut': 'chatka Baby Jagi', vodyanoy: 'Wodnik', razboynik: 'Słowik-Rozbójnik' },
      rules: {
        VODYANOY_TILE: 'Na własnym kafelku Wodnika nie wystawia się żadnej figurki i nie ląduje żaden lotnik.',
        TRAP_RETURN: 'Zamiast akcji tury gracz zabiera tylko własnego podróżnika złapanego w pułapkę, z pułapki, która go złapała.',
      },
    },
    ca: {
      name: 'les promocions russes', short: 'Russes',
      receiptItems: { yaga: 'cabana de Baba Iagà' },
      legends: { 'yaga-hut': 'cabana de Baba Iagà (9 menys un punt per veïna)', vodyanoy: 'Vodianoi (atrapa seguidors al voltant; −2 cadascun al final)', razboynik: 'Soloviei el Bandoler (atrapa seguidors al seu camí)' },
      moves: { 'trap-return': 'Fora de la trampa:' },
      features: { 'yaga-hut': 'cabana de Baba Iagà', vodyanoy: 'Vodianoi', razboynik: 'Soloviei el Bandoler' },
      rules: {
        VODYANOY_TILE: 'A la peça mateixa del Vodianoi no es col·loca cap figura ni hi aterra cap volador.',
        TRAP_RETURN: 'En lloc de l’acció del torn un jugador només retira un seguidor seu atrapat en una trampa, de la trampa que l’atrapà.',
      },
    },
    de: {
      name: 'die russischen Promos', short: 'Russisch',
      receiptItems: { yaga: 'Hütte der Baba Jaga' },
      legends: { 'yaga-hut': 'Hütte der Baba Jaga (9, ein Punkt weniger je Nachbar)', vodyanoy: 'Wassermann (fängt Gefolgsleute ringsum; am Ende −2 je Figur)', razboynik: 'Solowej der Räuber (fängt Gefolgsleute auf seiner Straße)' },
      moves: { 'trap-return': 'Aus der Falle:' },
      features: { 'yaga-hut': 'Hütte der Baba Jaga', vodyanoy: 'Wassermann', razboynik: 'Solowej der Räuber' },
      rules: {
        VODYANOY_TILE: 'Auf dem eigenen Plättchen des Wassermanns wird keine Figur eingesetzt und landet kein Flieger.',
        TRAP_RETURN: 'Statt der Aktion des Zuges nimmt ein Spieler nur einen eigenen, in einer Falle gefangenen Gefolgsmann aus der Falle zurück, die ihn fing.',
      },
    },
  },
  // how a receipt's items of the unit's read (a score event's items)
  receiptItems: { yaga: 'Baba Yaga\'s hut' },
  // the recorder's setup: the box's tile sets and elements
  box: { name: 'The Russian promos', sets: { 'russian-promos/2013': 1, 'russian-promos/2016': 1 }, elements: {} },
  moves: { 'trap-return': 'Out of the trap:' },
  features: {
    'yaga-hut': {
      name: "Baba Yaga's hut", shape: 'inner', place: 'center', r: 12, clear: 3, ring: 3, order: 0, rank: 4.5,
      legend: { attr: 'yaga-hut', text: "Baba Yaga's hut (9 less a point a neighbour)", icon: () => [s('g', { class: 'yaga-hut' }, ...hut())] },
    },
    // the traps: caught followers stand there; the Vodyanoy's toll is
    // an event of its own, never "incomplete"
    vodyanoy: {
      name: 'Vodyanoy', shape: 'inner', place: 'center', r: 12, clear: 3, ring: 3, order: 0, open: true, rank: 7.3,
      legend: { attr: 'vodyanoy', text: 'Vodyanoy (catches followers around; -2 each at the end)', icon: () => [s('g', { class: 'vodyanoy' }, ...pond())] },
    },
    razboynik: {
      name: 'Solovei-Razboynik', shape: 'inner', place: 'center', r: 10, clear: 3, ring: 3, order: 0, open: true, rank: 7.4,
      legend: { attr: 'razboynik', text: 'Solovei-Razboynik (catches followers on his road)', icon: () => [s('g', { class: 'razboynik' }, ...whistle())] },
    },
  },
  draw: {
    inner(g, geo, ctx) {
      drawHut(g, geo, ctx);
      drawPond(g, geo, ctx);
      drawNest(g, geo, ctx);
    },
  },
  rules: {
    VODYANOY_TILE: [49, 'No figure is deployed on, and no flier lands on, the Vodyanoy\'s own tile.'],
    TRAP_RETURN: [50, 'Instead of the turn\'s action a player takes back only a follower of their own caught in a trap, from the trap that caught it.'],
  },
};
