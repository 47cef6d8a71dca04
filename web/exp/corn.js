// exp/corn.js - The Crop Circles on the dashboard: the crop circle
// trampled into the middle of its tile (a ring of flattened grain round a
// disc), where the tile's roads end, and the tile's mark naming the
// circle's kind; the rule.

import { s } from '../dom.js';

// the three kinds of circle, by the tile marks (src/core/tiles.h)
const KINDS = { 'corn-circle-city': 'city', 'corn-circle-road': 'road', 'corn-circle-field': 'field' };

// a small ring and disc, the mark's silhouette
const GLYPH = 'M-7 0A7 7 0 1 1 7 0A7 7 0 1 1 -7 0Z M-4.5 0A4.5 4.5 0 1 0 4.5 0A4.5 4.5 0 1 0 -4.5 0Z M-2.2 0A2.2 2.2 0 1 1 2.2 0A2.2 2.2 0 1 1 -2.2 0Z';

const mark = (kind) => ({
  title: `crop circle (${kind}): after the turn, every player adds a follower to a ${kind} of theirs, or takes one back`,
  d: GLYPH,
});

export default {
  id: 'corn',
  name: 'The Crop Circles', short: 'Crop circles',
  // the unit's words in the dashboard's other languages (i18n/README.md)
  i18n: {
    pl: {
      name: 'Kręgi zbożowe', short: 'Kręgi',
      moves: { 'circle-deploy': 'Krąg zbożowy: każdy dokłada podróżnika', 'circle-remove': 'Krąg zbożowy: każdy zabiera jednego', 'circle-return': 'Zabierz z' },
      rules: {
        CORN_CIRCLE: 'Po kręgu zbożowym gracz w turze wybiera: dołożyć albo zabrać; potem każdy gracz, od następnego do gracza w turze, dokłada podróżnika tam, gdzie stoi jego podróżnik rodzaju kręgu (albo pasuje), lub jednego z nich zabiera; nic innego i nikt poza kolejką.',
      },
    },
    ca: {
      name: 'Els cercles als camps', short: 'Cercles',
      moves: { 'circle-deploy': 'Cercle als camps: cadascú afegeix un seguidor', 'circle-remove': 'Cercle als camps: cadascú en retira un', 'circle-return': 'Retira de' },
      rules: {
        CORN_CIRCLE: 'Després d’un cercle als camps, el jugador del torn tria afegir o retirar; després cada jugador, del següent fins al del torn, afegeix un seguidor on n’hi ha un de seu del tipus del cercle (o passa), o en retira un; res més, i ningú fora de torn.',
      },
    },
    de: {
      name: 'Die Kornkreise', short: 'Kornkreise',
      moves: { 'circle-deploy': 'Kornkreis: jeder setzt einen Gefolgsmann dazu', 'circle-remove': 'Kornkreis: jeder nimmt einen zurück', 'circle-return': 'Zurücknehmen von' },
      rules: {
        CORN_CIRCLE: 'Nach einem Kornkreis wählt der Spieler am Zug Einsetzen oder Zurücknehmen, dann setzt jeder Spieler, vom nächsten bis zum Spieler am Zug, einen Gefolgsmann dazu, wo einer der eigenen von der Art des Kreises steht (oder passt), oder nimmt einen davon zurück; nichts anderes und niemand außer der Reihe.',
      },
    },
  },
  // the recorder's setup: the box's tile sets and elements
  box: { name: 'The Crop Circles', sets: { 'corn-circles/1': 1 }, elements: {} },
  moves: { 'circle-deploy': 'The crop circle: each adds a follower', 'circle-remove': 'The crop circle: each takes one back', 'circle-return': 'Take back from' },
  tileMarks: Object.fromEntries(Object.entries(KINDS).map(([m, kind]) => [m, mark(kind)])),
  draw: {
    // the circle over the tile's ground, in its middle
    inner(g, geo, ctx) {
      const m = (ctx.def.marks || []).find((x) => KINDS[x]);
      if (!m) return;
      g.appendChild(s('g', { class: ['corn-circle', `corn-circle-${KINDS[m]}`], dataset: { circle: KINDS[m] } },
        s('title', { text: `crop circle (${KINDS[m]})` }),
        s('circle', { class: 'corn-ring', cx: 50, cy: 50, r: 15 }),
        s('circle', { class: 'corn-band', cx: 50, cy: 50, r: 10.5 }),
        s('circle', { class: 'corn-core', cx: 50, cy: 50, r: 5 })));
    },
  },
  rules: {
    CORN_CIRCLE: [46, 'After a crop circle, the player on turn chooses add or take back, then each player from the next round to the player on turn adds a follower where one of their own of the circle\'s kind stands (or passes), or takes one of them back; nothing else, and nobody out of turn.'],
  },
};
