// exp/kr.js - King & Robber on the dashboard: the two cards are no
// pieces on the board, so the replay counts them per player (the size
// of the city or road that won the card, 0 for those without it) and
// says when one changes hands; the cards' points are named in the
// scores.

export default {
  id: 'kr',
  name: 'King & Robber', short: 'K&R',
  // the unit's words in the dashboard's other languages (i18n/README.md)
  i18n: {
    pl: {
      name: 'Król i rozbójnik', short: 'KiR',
      items: { king: { label: 'Król (kafelki największego ukończonego miasta)' }, robber: { label: 'Rozbójnik-baron (kafelki najdłuższej ukończonej drogi)' } },
      elementNames: { king: 'król', robber: 'rozbójnik-baron' },
      features: { king: 'król', robber: 'rozbójnik-baron' },
    },
    ca: {
      name: 'El rei i el lladre', short: 'R&L',
      items: { king: { label: 'El rei (peces de la ciutat completada més gran)' }, robber: { label: 'El lladre (peces del camí completat més llarg)' } },
      elementNames: { king: 'el rei', robber: 'el lladre' },
      features: { king: 'rei', robber: 'lladre' },
    },
    de: {
      name: 'König und Raubritter', short: 'K&R',
      items: { king: { label: 'Der König (Plättchen der größten abgeschlossenen Stadt)' }, robber: { label: 'Der Raubritter (Plättchen der längsten abgeschlossenen Straße)' } },
      elementNames: { king: 'der König', robber: 'der Raubritter' },
      features: { king: 'König', robber: 'Raubritter' },
    },
  },
  // the recorder's setup: the box's tile sets and elements
  box: { name: 'King & Robber', sets: { 'king-and-robber:1': 1 }, elements: { king: true, robber: true } },
  features: {
    // the cards' points: no board feature, never "incomplete"
    king: { name: 'king', open: true, rank: 10 },
    robber: { name: 'robber baron', open: true, rank: 11 },
  },
  items: {
    king: { label: 'The king (tiles of the largest completed city)', cls: 'kr-king', testid: 'kr-king' },
    robber: { label: 'The robber baron (tiles of the longest completed road)', cls: 'kr-robber', testid: 'kr-robber' },
  },
  elementNames: { king: 'the king', robber: 'the robber baron' },
};
