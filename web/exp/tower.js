// exp/tower.js - The Tower on the dashboard: the tower's foundation on its
// tile, each tower's floors beside it, the prisoners each player holds,
// the rules.

import { s } from '../dom.js';

const at = (p) => `(${p[0]},${p[1]})`;
// a keep with battlements
const tower = () => s('path', { class: 'tower-body', d: 'M-7 9V-5H-7V-9H-4V-6H-1.5V-9H1.5V-6H4V-9H7V9Z' });

export default {
  id: 'tower',
  name: 'The Tower', short: 'Tower',
  // the recorder's setup: the box's tile sets and elements
  box: { name: 'The Tower', sets: { 'tower:1': 1 }, elements: { tower: 1 } },
  // the recorder's names of the unit's moves (GET /api/live/{id}/options)
  moves: { tower: 'Tower floor', capture: 'Capture', ransom: 'Pay the ransom for', exchange: 'Take back in exchange' },
  features: {
    // its foundation where the field leaves room
    tower: {
      name: 'tower', shape: 'inner', place: 'pole', r: 9, clear: 6, ring: 4, order: 3,
      legend: { attr: 'tower', text: 'tower (its floors beside it)', icon: () => [s('g', { class: 'tower' }, tower())] },
    },
  },
  draw: {
    inner(g, geo, ctx) {
      const t = geo.inner.get('tower');
      if (!t) return;
      const [tx, ty] = t.at;
      g.appendChild(s('g', { class: 'tower', transform: `${ctx.upright(t.at)} translate(${tx} ${ty})` },
        s('title', { text: 'tower' }), tower()));
    },
  },
  // the replay's items of this unit (docs/api.md)
  items: {
    height: {
      // the floors, beside the tower
      draw(board, it) {
        const loc = board.locate(it.at, 'tower');
        return s('g', { class: 'tower-height', dataset: { at: it.at.join(','), height: it.value } },
          s('circle', { cx: loc.anchor[0] + 11, cy: loc.anchor[1] - 11, r: 7 }),
          s('text', { x: loc.anchor[0] + 11, y: loc.anchor[1] - 8, 'text-anchor': 'middle', text: String(it.value) }));
      },
      cls: 'tower-floor',
      changed: (it) => `The tower at ${at(it.at)} is now ${it.value} floor${it.value === 1 ? '' : 's'} high.`,
    },
    prisoners: { label: 'Prisoners held', cls: 'prisoners', testid: 'prisoners' },
  },
  rules: {
    TOWER_PLACEMENT: [33, 'A tower floor where there is no tower, on a tower a follower tops, or with no piece left; or a follower on a tower with no floor.'],
    TOWER_CAPTURE: [34, 'A capture with no floor placed this turn, a second one, or of a figure out of the tower\'s sight (its row or column, up to its height).'],
    TOWER_RANSOM: [35, 'A ransom for a figure that is not the payer\'s own or is held by no one, a second one in a turn, or with fewer than 3 points.'],
    FLIER_ON_TOWER: [36, 'A flier landed on a tower, which is no feature to claim and score.'],
  },
};
