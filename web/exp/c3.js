// exp/c3.js - the C3 abbot and garden on the dashboard: the garden on its
// tile, the abbot's figure, its rule and its names.

import { s } from '../dom.js';

// An abbot: a robed figure with a hood.
const ABBOT_D = 'M0 -13C4.6 -13 6 -9 5 -5.2L9.2 10.6C9.6 12 8.8 12.8 7.4 12.8H-7.4C-8.8 12.8-9.6 12-9.2 10.6L-5 -5.2C-6 -9-4.6 -13 0 -13Z';

export default {
  id: 'c3',
  name: 'the 3rd edition (abbots, gardens)', short: 'C3',
  // the unit's words in the dashboard's other languages (i18n/README.md)
  i18n: {
    pl: {
      name: '3. edycja (opaci, ogrody)', short: 'C3',
      moves: { recall: 'Zabierz opata z' },
      figures: { abbot: 'opat' },
      elementNames: { garden: 'ogrody' },
      settings: { abbots: (v) => `opaci: ${v ? 'tak' : 'nie'}`, gardens: (v) => `ogrody: ${v ? 'tak' : 'nie'}` },
      features: { garden: 'ogród' },
      rules: {
        ABBOT_RECALL: 'Zabranie opata, który nie należy do gracza albo tam nie stoi.',
      },
    },
    ca: {
      name: 'la 3a edició (abats, jardins)', short: 'C3',
      moves: { recall: 'Retira l’abat de' },
      figures: { abbot: 'abat' },
      elementNames: { garden: 'jardins' },
      settings: { abbots: (v) => `abats: ${v ? 'sí' : 'no'}`, gardens: (v) => `jardins: ${v ? 'sí' : 'no'}` },
      features: { garden: 'jardí' },
      rules: {
        ABBOT_RECALL: 'Una retirada d’un abat que no és del jugador o que no hi és.',
      },
    },
    de: {
      name: 'die 3. Edition (Äbte, Gärten)', short: 'C3',
      moves: { recall: 'Den Abt zurücknehmen von' },
      figures: { abbot: 'Abt' },
      elementNames: { garden: 'Gärten' },
      settings: { abbots: (v) => `Äbte: ${v ? 'an' : 'aus'}`, gardens: (v) => `Gärten: ${v ? 'an' : 'aus'}` },
      features: { garden: 'Garten' },
      rules: {
        ABBOT_RECALL: 'Ein Zurücknehmen eines Abts, der nicht dem Spieler gehört oder nicht dort steht.',
      },
    },
  },
  // the recorder's names of the unit's moves (GET /api/live/{id}/options)
  moves: { recall: 'Recall the abbot from' },
  figures: {
    abbot: { name: 'abbot', d: ABBOT_D, scale: 1 },
  },
  features: {
    // where the field leaves room, as large as it fits (7 to 12)
    garden: { name: 'garden', shape: 'inner', place: 'pole', r: 11, fit: [7, 12], clear: 6, ring: 4, order: 2, tokens: true, charted: true, rank: 4 },
  },
  draw: {
    inner(g, geo) {
      const gd = geo.inner.get('garden');
      if (!gd) return;
      const [gx, gy] = gd.at, r = gd.r;
      g.appendChild(s('g', { class: 'garden' },
        s('circle', { class: 'garden-bed', cx: gx, cy: gy, r }),
        s('circle', { class: 'flower-a', cx: gx - r * 0.4, cy: gy - r * 0.3, r: r * 0.2 }),
        s('circle', { class: 'flower-b', cx: gx + r * 0.35, cy: gy - r * 0.15, r: r * 0.2 }),
        s('circle', { class: 'flower-a', cx: gx, cy: gy + r * 0.4, r: r * 0.2 })));
    },
  },
  rules: {
    ABBOT_RECALL: [27, 'A recall of an abbot that is not the player\'s or not there.'],
  },
  elementFigures: { abbot: 'abbot' },
  elementNames: { garden: 'gardens' },
  settings: [
    [2, 'abbots', (v) => `abbots ${v ? 'on' : 'off'}`],
    [3, 'gardens', (v) => `gardens ${v ? 'on' : 'off'}`],
  ],
};
