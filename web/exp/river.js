// exp/river.js - The River on the dashboard: water under the roads (a
// road crosses it on a bridge), its spring and lake, and its rules.

import { s } from '../dom.js';

export default {
  id: 'river',
  name: 'The River', short: 'River',
  // the unit's words in the dashboard's other languages (i18n/README.md)
  i18n: {
    pl: {
      name: 'Rzeka', short: 'Rzeka',
      start: 'źródło Rzeki',
      features: { river: 'rzeka' },
      rules: {
        RIVER_ORDER: 'Kafelek rzeki nie w kolejności: kafelek ze stosu, gdy zostały kafelki rzeki, albo jezioro przed pozostałymi kafelkami rzeki.',
        RIVER_FLOW: 'Kafelek rzeki, który nie przedłuża rzeki albo nie zostawia jej miejsca, by płynęła dalej (zawracanie).',
      },
    },
    ca: {
      name: 'El riu', short: 'Riu',
      start: 'la font del riu',
      features: { river: 'riu' },
      rules: {
        RIVER_ORDER: 'Una peça del riu fora d’ordre: una peça de la pila mentre queden peces de riu, o el llac abans de les altres peces del riu.',
        RIVER_FLOW: 'Una peça de riu que no continua el riu, o no li deixa lloc per continuar (un gir en U).',
      },
    },
    de: {
      name: 'Der Fluss', short: 'Fluss',
      start: 'die Quelle des Flusses',
      features: { river: 'Fluss' },
      rules: {
        RIVER_ORDER: 'Ein Flussplättchen außer der Reihe: ein Plättchen vom Stapel, solange Flussplättchen übrig sind, oder der See vor den anderen Flussplättchen.',
        RIVER_FLOW: 'Ein Flussplättchen, das den Fluss nicht fortsetzt oder ihm keinen Platz zum Weiterfließen lässt (eine Kehre).',
      },
    },
  },
  // the recorder's setup: what the box adds (its tile sets, its elements
  // with their values, switched on by default) and the start it brings
  box: { name: 'The River', sets: { 'river/1:1': 1 }, elements: {}, start: { name: 'the River\u2019s spring', tiles: [{ tile: 'RI/s', at: [0, 0], rot: 0 }] } },
  features: {
    // a line by its edges, drawn under the roads; where it ends on a tile
    // it ends in a lake
    river: { name: 'river', shape: 'edges', line: 'under' },
  },
  draw: {
    under(g, geo) {
      for (const r of geo.under) g.appendChild(s('path', { class: 'river-bank', d: r.d, dataset: { segment: r.key } }));
      if (geo.pond) g.appendChild(s('circle', { class: 'river-bank', cx: geo.pond.at[0], cy: geo.pond.at[1], r: geo.pond.r + 2 }));
      for (const r of geo.under) g.appendChild(s('path', { class: 'river', d: r.d }));
      if (geo.pond) g.appendChild(s('circle', { class: ['river', geo.pond.lake ? 'lake' : null], cx: geo.pond.at[0], cy: geo.pond.at[1], r: geo.pond.r }));
    },
  },
  rules: {
    RIVER_ORDER: [7, 'A tile of the river out of order: a tile of the pack while river tiles are left, or the lake before the river\'s other tiles.'],
    RIVER_FLOW: [8, 'A river tile that does not continue the river, or leaves it no room to flow on (a U-turn).'],
  },
};
