// exp/festival.js - The Festival on the dashboard: a festival tile
// carries a little garland of flags, and the rule.

export default {
  id: 'festival',
  name: 'The Festival', short: 'Festival',
  // the recorder's setup: the box's tile sets and elements
  box: { name: 'The Festival', sets: { festival: 1 }, elements: { festival: true } },
  moves: { 'festival-return': 'The festival sends home' },
  tileMarks: {
    festival: { title: 'festival: its player may take a figure back instead of the action', d: 'M-9 -4Q0 3 9 -4M-6 -2L-5 3L-3 -0.5ZM-1 0L0 5L1.5 0.5ZM4 -1L5 4L6.5 -1.5Z' },
  },
  rules: {
    FESTIVAL_RETURN: [52, 'Only after placing a festival tile, instead of the turn\'s action, a player takes back a figure of their own (under festival-return: follower, only a follower).'],
  },
  elementNames: { festival: 'festival' },
};
