// exp/hs.js - Hills & Sheep on the dashboard: the shepherd (a follower's
// shape with a crook), the sheep of its flock beside it, the hills and
// vineyards of its tiles, the tiles under hills, the rule.

import { s } from '../dom.js';
import { MEEPLE_D } from './base.js';

const at = (p) => `(${p[0]},${p[1]})`;
// a crook held up beside the figure
const SHEPHERD_D = `${MEEPLE_D} M12 12V-12A4 4 0 0 0 4 -12`;

export default {
  id: 'hs',
  name: 'Hills & Sheep', short: 'H&S',
  // the recorder's setup: the box's tile sets and elements
  box: { name: 'Hills & Sheep', sets: { 'hills-and-sheep:1': 1 }, elements: { shepherd: 1, hill: true, vineyard: true } },
  // the recorder's names of the unit's moves (GET /api/live/{id}/options)
  moves: { 'flock-expand': 'Expand the flock', 'flock-score': 'Bring the flock home' },
  figures: {
    shepherd: { name: 'shepherd', d: SHEPHERD_D, scale: 0.8 },
  },
  features: {
    // a flock brought home: a score event of its own
    flock: { name: 'flock', open: true, rank: 7.3 },
  },
  tileMarks: {
    hill: { title: 'hill: a tile lies under it; followers here break ties', d: 'M-10 4Q-5 -6 0 -2Q5 -8 10 4Z' },
    vineyard: { title: 'vineyard: a completed monastery beside it scores 3 more', d: 'M-3 -6A2 2 0 1 0 -3 -5.9M1 -6A2 2 0 1 0 1 -5.9M-1 -2.5A2 2 0 1 0 -1 -2.4M3 -2.5A2 2 0 1 0 3 -2.4M1 1A2 2 0 1 0 1 1.1M-1 -8L1 -11' },
    'multi-edge': { title: 'two cities on its north edge: a city there joins both', d: 'M-8 -8H8M0 -8V-3' },
  },
  // the replay's items of this unit (docs/api.md)
  items: {
    // the sheep of a shepherd's flock, beside it
    flock: {
      draw(board, it) {
        const loc = board.locate(it.at, it.segment);
        return s('g', { class: 'hs-flock', dataset: { at: it.at.join(','), sheep: it.value } },
          s('title', { text: `${it.player || 'a'}'s flock: ${it.value} sheep` }),
          s('ellipse', { cx: loc.anchor[0] + 12, cy: loc.anchor[1] + 10, rx: 8, ry: 6 }),
          s('text', { x: loc.anchor[0] + 12, y: loc.anchor[1] + 13, 'text-anchor': 'middle', text: String(it.value) }));
      },
      cls: 'hs-flock',
      changed: (it) => `The flock at ${at(it.at)} has ${it.value} sheep.`,
    },
    'under-hills': { label: 'Tiles under hills', cls: 'hs-under-hills', testid: 'hs-under-hills' },
  },
  rules: {
    FLOCK: [54, 'When the turn\'s tile extends the field of the player\'s shepherd, the player expands the flock or brings it home, once for that field, after the action; at no other time.'],
  },
  elementFigures: { shepherd: 'shepherd' },
  elementNames: { hill: 'hills', vineyard: 'vineyards' },
  i18n: {
    pl: {
      name: 'Wzgórza i owce', short: 'Owce',
      figures: { shepherd: 'pasterz' },
      features: { flock: 'stado' },
      items: { flock: { changed: (it) => `Stado na polu ${at(it.at)} ma ${it.value} owiec.` }, 'under-hills': { label: 'Płytki pod wzgórzami' } },
      moves: { 'flock-expand': 'Powiększ stado', 'flock-score': 'Sprowadź stado do domu' },
      elementNames: { hill: 'wzgórza', vineyard: 'winnice' },
      rules: {
        FLOCK: 'Gdy płytka tury przedłuża łąkę pasterza gracza, gracz po akcji powiększa stado albo sprowadza je do domu, raz dla tej łąki; nigdy w innym czasie.',
      },
    },
    ca: {
      name: 'Turons i ovelles', short: 'Ovelles',
      figures: { shepherd: 'pastor' },
      features: { flock: 'ramat' },
      items: { flock: { changed: (it) => `El ramat de ${at(it.at)} té ${it.value} ovelles.` }, 'under-hills': { label: 'Losetes sota els turons' } },
      moves: { 'flock-expand': 'Fer créixer el ramat', 'flock-score': 'Tornar el ramat a casa' },
      elementNames: { hill: 'turons', vineyard: 'vinyes' },
      rules: {
        FLOCK: 'Quan la loseta del torn allarga el prat del pastor del jugador, el jugador fa créixer el ramat o el torna a casa, un cop per a aquest prat, després de l’acció; mai en cap altre moment.',
      },
    },
    de: {
      name: 'Hügel & Schafe', short: 'H&S',
      figures: { shepherd: 'Schäfer' },
      features: { flock: 'Herde' },
      items: { flock: { changed: (it) => `Die Herde auf ${at(it.at)} hat ${it.value} Schafe.` }, 'under-hills': { label: 'Plättchen unter Hügeln' } },
      moves: { 'flock-expand': 'Herde vergrößern', 'flock-score': 'Herde heimbringen' },
      elementNames: { hill: 'Hügel', vineyard: 'Weinberge' },
      rules: {
        FLOCK: 'Verlängert das Plättchen des Zuges die Wiese des eigenen Schäfers, vergrößert der Spieler nach der Aktion die Herde oder bringt sie heim, einmal für diese Wiese; zu keiner anderen Zeit.',
      },
    },
  },
};
