// exp/count.js - The Count of Carcassonne on the dashboard: the City's four
// quarters on their tile, the count in its quarter, the rules.

import { s } from '../dom.js';

const count = () => s('circle', { class: 'count-body', r: 6 });

export default {
  id: 'count',
  features: {
    // inside the tile, told apart by name ("quarter:castle"), each where
    // spots says
    quarter: {
      name: 'quarter', shape: 'spots', ring: 14,
      // followers come in only in the round after a turn's scoring:
      // shown with the next turn, said as after the last
      between: 'in the City\'s round',
      spots: { castle: [28, 28], market: [72, 28], blacksmith: [28, 72], cathedral: [72, 72] },
    },
  },
  draw: {
    // four walled squares
    ground(g, geo) {
      for (const q of geo.spots) {
        if (q.feature !== 'quarter') continue;
        g.appendChild(s('g', { class: 'quarter', dataset: { quarter: q.name } },
          s('title', { text: `the ${q.name} quarter` }),
          s('rect', { class: 'quarter-ground', x: q.at[0] - 19, y: q.at[1] - 19, width: 38, height: 38, rx: 3 })));
      }
    },
  },
  // the replay's items of this unit (docs/api.md)
  items: {
    count: {
      // a neutral figure, in its quarter of the City
      draw(board, it) {
        const [x, y] = board.locate(it.at, it.segment).anchor;
        return s('g', { class: 'count', transform: `translate(${x} ${y - 10})`, dataset: { segment: it.segment } },
          s('title', { text: `the count in the ${String(it.segment).split(':')[1] || 'City'}` }), count());
      },
      legend: { kind: 'count', text: 'the count', icon: () => [s('g', { class: 'count' }, count())] },
      // the count moves only between turns, after a follower went in
      moved: (it, ctx) => `After ${ctx.after}, in the City's round, the count moved to the ${String(it.segment).split(':')[1] || 'City'} quarter.`,
    },
  },
  rules: {
    QUARTER_DEPLOY: [42, 'A follower goes into the City of Carcassonne only after the scoring, when others scored and the player on turn did not.'],
    QUARTER_LEAVE: [43, 'A follower leaves the City only onto a feature its quarter serves that the turn completed, before it scores, or at the end from the market onto a field; never from the count\'s quarter.'],
    COUNT_MOVE: [44, 'The count moves to another quarter only right after a follower went into the City, by that player.'],
    FLIER_INTO_CITY: [45, 'A flier never lands in the City of Carcassonne itself.'],
  },
};
