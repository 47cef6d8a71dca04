// exp/ferries.js - The Ferries on the dashboard: a lake tile's roads end
// at a blue lake at its centre; a ferry is a boat on the lake between the
// two road ends it joins (it moves when a player moves it), and the rule.

import { s } from '../dom.js';

// a square's side on the board (geometry.js's TILE), and the middle of
// each of its sides, in the board's frame
const TILE = 100;
const ENDS = { N: [50, 0], E: [100, 50], S: [50, 100], W: [0, 50] };

function ferry(board, it) {
  const loc = String(it.segment || '').split(':')[1] || '';
  const ends = [...loc].filter((c) => ENDS[c]).map((c) => ENDS[c]);
  const ox = it.at[0] * TILE, oy = it.at[1] * TILE;
  // the crossing: from one road end through the lake to the other
  const path = ends.length === 2
    ? `M${ends[0][0]} ${ends[0][1]}Q50 50 ${ends[1][0]} ${ends[1][1]}` : '';
  const mid = ends.length === 2
    ? [(ends[0][0] + ends[1][0] + 100) / 4, (ends[0][1] + ends[1][1] + 100) / 4] : [50, 50];
  return s('g', {
    class: 'ferry', transform: `translate(${ox} ${oy})`,
    dataset: { at: it.at.join(','), segment: it.segment },
  },
  s('title', { text: `ferry joining the roads ${loc.split('').join(' and ')} at (${it.at.join(',')})` }),
  s('path', { class: 'ferry-crossing', d: path }),
  s('path', { class: 'ferry-boat', d: 'M-11 -3H11L7 5H-7Z M-2 -3V-10L6 -4Z', transform: `translate(${mid[0]} ${mid[1]})` }));
}

export default {
  id: 'ferries',
  name: 'The Ferries', short: 'Ferries',
  // the recorder's setup: the box's tile sets and elements
  box: { name: 'The Ferries', sets: { ferries: 1 }, elements: { ferry: 1 } },
  tileMarks: {
    ferry: { title: 'lake: its roads end here; a ferry joins two of them', d: 'M-7 0Q-3.5 -3 0 0T7 0M-7 3Q-3.5 0 0 3T7 3' },
  },
  draw: {
    // under the roads: the lake at the tile's centre
    under(g, geo, ctx) {
      if (!(ctx.def.marks || []).includes('ferry')) return;
      g.appendChild(s('circle', { class: 'ferry-lake', cx: 50, cy: 50, r: 20 }));
    },
    // over the roads' ends, the lake's shore again
    inner(g, geo, ctx) {
      if (!(ctx.def.marks || []).includes('ferry')) return;
      g.appendChild(s('circle', { class: 'ferry-water', cx: 50, cy: 50, r: 16 },
        s('title', { text: 'a lake: the roads end at it, and a ferry joins two of them' })));
    },
  },
  items: {
    ferry: { draw: ferry, cls: 'ferry', changed: (it) => `A ferry now crosses the lake at (${it.at.join(',')}).` },
  },
  moves: { ferry: 'Ferry' },
  rules: {
    FERRY: [54, 'A lake tile\'s player puts a ferry on its lake joining two road ends; afterwards a player may move, once a turn each, the ferries their tile\'s roads reach first.'],
  },
  elementNames: { ferry: 'ferries' },
  i18n: {
    pl: {
      name: 'Promy', short: 'Promy',
      items: { ferry: { changed: (it) => `Prom przepływa teraz jezioro na polu (${it.at.join(',')}).` } },
      moves: { ferry: 'Prom' },
      elementNames: { ferry: 'promy' },
      rules: {
        FERRY: 'Gracz, który dołożył płytkę z jeziorem, kładzie na nim prom łączący dwa końce dróg; potem gracz może przesunąć, raz na turę każdy, promy, do których najpierw prowadzą drogi jego płytki.',
      },
    },
    ca: {
      name: 'Els transbordadors', short: 'Transbordadors',
      items: { ferry: { changed: (it) => `Ara un transbordador travessa el llac a (${it.at.join(',')}).` } },
      moves: { ferry: 'Transbordador' },
      elementNames: { ferry: 'transbordadors' },
      rules: {
        FERRY: 'Qui col·loca una loseta de llac hi posa un transbordador que uneix dos extrems de camí; després un jugador pot moure, un cop per torn cadascun, els transbordadors on arriben primer els camins de la seva loseta.',
      },
    },
    de: {
      name: 'Die Fähren', short: 'Fähren',
      items: { ferry: { changed: (it) => `Eine Fähre quert jetzt den See auf (${it.at.join(',')}).` } },
      moves: { ferry: 'Fähre' },
      elementNames: { ferry: 'Fähren' },
      rules: {
        FERRY: 'Wer ein Seeplättchen legt, setzt eine Fähre auf den See, die zwei Straßenenden verbindet; danach darf ein Spieler die Fähren, die die Straßen seines Plättchens zuerst erreichen, je einmal pro Zug versetzen.',
      },
    },
  },
};
