// exp/spiel_doch.js - the Spiel doch! promo on the dashboard: two start
// tiles of the known features; the unit gives its names.

export default {
  id: 'spiel-doch',
  name: 'Spiel doch!', short: 'SD!',
};
