// exp/mage.js - Mage & Witch on the dashboard: the mage and the witch,
// neutral figures standing on the road or city they were moved to (beside
// its followers), the magic symbol on a tile, who moved them, the rules
// and the two terms of a score.

// The mage: a robed figure with a tall pointed hat and a staff.
const MAGE_D = 'M-1.5 -17L3.5 -7H-6.5Z M-1.5 -7A3.4 3.4 0 1 0 -1.4 -7Z' +
  'M-5 -2H2L7 12H-10Z M5.5 -13H7.3V12H5.5Z M6.4 -16.5L8.6 -13.8L6.4 -11.2L4.2 -13.8Z';
// The witch: a wide-brimmed pointed hat, a cloak, and a broom.
const WITCH_D = 'M-1 -18L3 -8H9V-6H-11V-8H-5Z M-1 -5.5A3.3 3.3 0 1 0 -0.9 -5.5Z' +
  'M-4.5 -1H2.5L8 12H-10Z M-13 9L10 -4L11 -2.5L-12 10.5Z M-13 9L-16 13L-12 10.5Z';
// The magic symbol on a tile: a six-pointed star.
const STAR_D = 'M0 -8L2 -3.5L7 -4L4 0L7 4L2 3.5L0 8L-2 3.5L-7 4L-4 0L-7 -4L-2 -3.5Z';

const at = (p) => `(${p[0]},${p[1]})`;
const on = (it) => (it.segment ? `the ${String(it.segment).split(':')[0]} at ${at(it.at)}` : at(it.at));

export default {
  id: 'mage',
  name: 'Mage & Witch', short: 'M&W',
  // the recorder's setup: the box's tile sets and elements
  box: { name: 'Mage & Witch', sets: { 'mage-and-witch:1': 1 }, elements: { mage: 1, witch: 1 } },
  // the recorder's names of the unit's moves (GET /api/live/{id}/options)
  moves: { mage: 'Mage to', witch: 'Witch to', 'mage-off': 'Take the mage off the board', 'witch-off': 'Take the witch off the board' },
  figures: {
    // neutral: nobody's, in its own colour; it stands on its road or
    // city, beside the followers there
    mage: { name: 'mage', d: MAGE_D, scale: 0.95, neutral: true, fill: '#3f5fbf' },
    witch: { name: 'witch', d: WITCH_D, scale: 0.95, neutral: true, fill: '#2f7a3a' },
  },
  tileMarks: {
    mage: { title: 'the magic symbol: the mage or the witch moves', d: STAR_D },
  },
  // the replay's items of this unit (docs/api.md): figures drawn as the
  // figure kind of their name
  items: {
    mage: { figure: true, moved: (it) => `The mage went to ${on(it)}: 1 more a tile when it scores.` },
    witch: { figure: true, moved: (it) => `The witch went to ${on(it)}: half its points taken away when it scores.` },
  },
  elementNames: { mage: 'the mage', witch: 'the witch' },
  rules: {
    MAGE_MOVE: [54, 'After a tile with the magic symbol, or one joining the mage\'s and the witch\'s features, the player moves one of them before the turn\'s action; with no unfinished road or city left, takes one off the board.'],
    MAGE_TARGET: [55, 'The mage or the witch goes onto an unfinished road or city, not the feature either of them stands on.'],
  },
  i18n: {
    pl: {
      name: 'Mag i czarownica', short: 'M&C',
      figures: { mage: 'mag', witch: 'czarownica' },
      items: { mage: { moved: (it) => `Mag przeszedł na ${at(it.at)}: o 1 więcej za płytkę przy punktowaniu.` }, witch: { moved: (it) => `Czarownica przeszła na ${at(it.at)}: przy punktowaniu zabiera połowę punktów.` } },
      moves: { mage: 'Mag na', witch: 'Czarownica na', 'mage-off': 'Zdejmij maga z planszy', 'witch-off': 'Zdejmij czarownicę z planszy' },
      elementNames: { mage: 'mag', witch: 'czarownica' },
      rules: {
        MAGE_MOVE: 'Po płytce z magicznym symbolem albo łączącej obiekty maga i czarownicy gracz przed akcją przesuwa jedno z nich; gdy nie ma już niedokończonej drogi ani miasta, zdejmuje jedno z planszy.',
        MAGE_TARGET: 'Mag lub czarownica staje na niedokończonej drodze albo w niedokończonym mieście, nie na obiekcie, na którym stoi któreś z nich.',
      },
    },
    ca: {
      name: 'El mag i la bruixa', short: 'M&B',
      figures: { mage: 'mag', witch: 'bruixa' },
      items: { mage: { moved: (it) => `El mag ha anat a ${at(it.at)}: 1 més per loseta quan puntuï.` }, witch: { moved: (it) => `La bruixa ha anat a ${at(it.at)}: en puntuar treu la meitat dels punts.` } },
      moves: { mage: 'Mag a', witch: 'Bruixa a', 'mage-off': 'Treure el mag del tauler', 'witch-off': 'Treure la bruixa del tauler' },
      elementNames: { mage: 'el mag', witch: 'la bruixa' },
      rules: {
        MAGE_MOVE: 'Després d’una loseta amb el símbol màgic, o d’una que uneix les construccions del mag i de la bruixa, el jugador en mou un abans de l’acció; si no queda cap camí ni ciutat per acabar, en treu un del tauler.',
        MAGE_TARGET: 'El mag o la bruixa va a un camí o una ciutat per acabar, no a la construcció on és cap dels dos.',
      },
    },
    de: {
      name: 'Magier & Hexe', short: 'M&H',
      figures: { mage: 'Magier', witch: 'Hexe' },
      items: { mage: { moved: (it) => `Der Magier zog nach ${at(it.at)}: 1 mehr je Plättchen bei der Wertung.` }, witch: { moved: (it) => `Die Hexe zog nach ${at(it.at)}: bei der Wertung nimmt sie die Hälfte der Punkte.` } },
      moves: { mage: 'Magier nach', witch: 'Hexe nach', 'mage-off': 'Magier vom Spielplan nehmen', 'witch-off': 'Hexe vom Spielplan nehmen' },
      elementNames: { mage: 'der Magier', witch: 'die Hexe' },
      rules: {
        MAGE_MOVE: 'Nach einem Plättchen mit dem Zaubersymbol, oder einem, das die Gebiete von Magier und Hexe verbindet, versetzt der Spieler vor der Aktion eine der beiden Figuren; ist keine unfertige Straße oder Stadt mehr da, nimmt er eine vom Spielplan.',
        MAGE_TARGET: 'Magier oder Hexe kommen auf eine unfertige Straße oder Stadt, nicht auf das Gebiet, auf dem eine von beiden steht.',
      },
    },
  },
};
