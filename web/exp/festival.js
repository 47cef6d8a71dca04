// exp/festival.js - The Festival on the dashboard: a festival tile
// carries a little garland of flags, and the rule.

export default {
  id: 'festival',
  name: 'The Festival', short: 'Festival',
  // the unit's words in the dashboard's other languages (i18n/README.md)
  i18n: {
    pl: {
      name: 'Festyn', short: 'Festyn',
      moves: { 'festival-return': 'Festyn odsyła do domu' },
      elementNames: { festival: 'festyn' },
      rules: {
        FESTIVAL_RETURN: 'Tylko po położeniu kafelka festynu, zamiast akcji tury, gracz zabiera własną figurkę (przy festival-return: follower tylko podróżnika).',
      },
    },
    ca: {
      name: 'La festa', short: 'Festa',
      moves: { 'festival-return': 'La festa fa tornar a casa' },
      elementNames: { festival: 'festa' },
      rules: {
        FESTIVAL_RETURN: 'Només després de col·locar una peça de festa, en lloc de l’acció del torn, un jugador retira una figura seva (amb festival-return: follower, només un seguidor).',
      },
    },
    de: {
      name: 'Das Fest', short: 'Fest',
      moves: { 'festival-return': 'Das Fest schickt nach Hause' },
      elementNames: { festival: 'Fest' },
      rules: {
        FESTIVAL_RETURN: 'Nur nach dem Legen eines Fest-Plättchens, statt der Aktion des Zuges, nimmt ein Spieler eine eigene Figur zurück (mit festival-return: follower nur einen Gefolgsmann).',
      },
    },
  },
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
