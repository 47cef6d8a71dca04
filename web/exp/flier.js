// exp/flier.js - The Flier on the dashboard: the flying machine on its
// tile (an arrow the way it points) and the rules of a flight.

import { s } from '../dom.js';

const DIR_ANGLE = { N: 0, NE: 45, E: 90, SE: 135, S: 180, SW: 225, W: 270, NW: 315 };

export default {
  id: 'flier',
  name: 'The Flier', short: 'Flier',
  features: {
    // a tile whose definition names a direction (def.flier) has one even
    // without its segment
    flier: { name: 'flying machine', shape: 'inner', place: 'pole', r: 14, clear: 6, ring: 4, order: 1, tokens: true, implied: 'flier' },
  },
  draw: {
    inner(g, geo, ctx) {
      const f = geo.inner.get('flier');
      if (!f) return;
      const [fx, fy] = f.at;
      const angle = DIR_ANGLE[(ctx.def && ctx.def.flier) || 'N'] ?? 0;
      g.appendChild(s('g', { class: 'flier', transform: `translate(${fx} ${fy}) rotate(${angle})` },
        s('path', { class: 'flier-arrow', d: 'M0 -7V-26' }),
        s('path', { class: 'flier-head', d: 'M0 -34L-6 -24H6Z' }),
        s('ellipse', { class: 'flier-wing', cx: 0, cy: 3, rx: 16, ry: 4.5 }),
        s('ellipse', { class: 'flier-wing', cx: 0, cy: 10, rx: 9, ry: 3 }),
        s('ellipse', { class: 'flier-body', cx: 0, cy: 2, rx: 4.5, ry: 10 })));
    },
  },
  rules: {
    FLIER_NO_MACHINE: [18, 'A flight from a tile without a flying machine.'],
    FLIER_USED: [19, 'The flying machine of this turn was already used (a phantom after another figure flew).'],
    FLIER_BAD_ROLL: [20, 'The die roll is outside 1 to 3.'],
    FLIER_WRONG_TARGET: [21, 'The flier landed on another tile than the one the roll points to.'],
    FLIER_NO_TILE: [22, 'The flier landed where there is no tile.'],
    FLIER_FIELD: [23, 'A flier never lands on a field.'],
    FLIER_COMPLETED: [24, 'A flier cannot land on a completed feature (including one completed this turn).'],
    FLIER_BAD_FEATURE: [25, 'The flier landed on a flying machine or on no feature.'],
    FLIER_MUST_LAND: [26, 'The meeple went back to supply although a valid landing existed.'],
  },
};
