// exp/dragon.js - The Princess & the Dragon on the dashboard: the dragon
// and the fairy (neutral figures on their squares), the princess's crown,
// the marks of the volcano, the dragon's symbol and the magic portal, the
// rules.

import { s } from '../dom.js';

// The dragon, facing east: body, neck and head, a wing raised, a tail, an
// eye (a hole).
const DRAGON_D = 'M-13 8C-13 2 -8 -1 -2 -1L4 -9L9 -12L13 -10L10 -7L7 -7L5 0C8 2 9 5 8 9L5 9L4 6L-4 6L-5 9L-8 9C-10 9 -11.5 10.5 -14 12C-13.5 10.5 -13 9.2 -13 8Z' +
  'M-3 -2L-9 -12L-1 -7L2 -13L3 -4Z M9.2 -10.2a0.9 0.9 0 1 0 1.8 0a0.9 0.9 0 1 0 -1.8 0Z';
// The fairy: a small figure with two wings.
const FAIRY_D = 'M0 -11A3.2 3.2 0 1 1 -0.01 -11Z M-3 -6.5H3L5 8H-5Z' +
  'M-2.5 -5C-9 -13 -13 -6 -10 -1C-8 2 -4 -1 -2.5 -3Z M2.5 -5C9 -13 13 -6 10 -1C8 2 4 -1 2.5 -3Z';

const at = (p) => `(${p[0]},${p[1]})`;

export default {
  id: 'dragon',
  name: 'The Princess & the Dragon', short: 'P&D',
  // the unit's words in the dashboard's other languages (i18n/README.md)
  i18n: {
    pl: {
      name: 'Księżniczka i smok', short: 'KiS',
      receiptItems: { fairy: 'wróżka' },
      tokens: { princess: 'księżniczka' },
      moves: { dragon: 'Smok na', fairy: 'Wróżka obok', princess: 'Księżniczka odsyła do domu' },
      boxElements: { princess: 'księżniczka', portal: 'magiczny portal' },
      figures: { dragon: 'smok', fairy: 'wróżka' },
      rules: {
        DRAGON_TILE: 'Na polu, na którym stoi smok, nie wystawia się ani nie ląduje żadna figurka.',
        DRAGON_MOVE: 'Krok smoka na pole, na które nie może wejść (nie obok, bez kafelka, pole wróżki, odwiedzone w tym ruchu), gdy się nie rusza, albo ruch niedokończony.',
        FAIRY_PLACEMENT: 'Wróżkę stawia się obok podróżnika gracza w turze, zamiast wystawienia w tej turze.',
        PRINCESS: 'Księżniczka odsyła do domu rycerza z miasta, do którego dołącza, zamiast wystawienia w tej turze.',
        PORTAL: 'Przez magiczny portal przechodzi tylko podróżnik, jeden na turę, i tylko na nieukończony obszar.',
      },
      items: { dragon: { moved: (it) => `Smok przyszedł na pole ${at(it.at)}.` }, fairy: { moved: (it) => `Wróżka przeszła na pole ${at(it.at)}.` } },
    },
    ca: {
      name: 'La princesa i el drac', short: 'P&D',
      receiptItems: { fairy: 'fada' },
      tokens: { princess: 'princesa' },
      moves: { dragon: 'Drac cap a', fairy: 'Fada al costat de', princess: 'La princesa fa tornar a casa' },
      boxElements: { princess: 'princesa', portal: 'portal màgic' },
      figures: { dragon: 'drac', fairy: 'fada' },
      rules: {
        DRAGON_TILE: 'No es col·loca ni aterra cap figura a la casella on és el drac.',
        DRAGON_MOVE: 'Un pas del drac a una casella on no pot anar (no contigua, sense peça, la de la fada, visitada en aquest moviment), quan no es mou, o un moviment inacabat.',
        FAIRY_PLACEMENT: 'La fada va al costat d’un seguidor del jugador del torn, en lloc de la col·locació del torn.',
        PRINCESS: 'La princesa fa tornar a casa un cavaller de la ciutat a què s’uneix, en lloc de la col·locació del torn.',
        PORTAL: 'Pel portal màgic només hi passa un seguidor, un per torn, i només cap a un element inacabat.',
      },
      items: { dragon: { moved: (it) => `El drac ha arribat a ${at(it.at)}.` }, fairy: { moved: (it) => `La fada ha anat a ${at(it.at)}.` } },
    },
    de: {
      name: 'Burgfräulein und Drache', short: 'B&D',
      receiptItems: { fairy: 'Fee' },
      tokens: { princess: 'Burgfräulein' },
      moves: { dragon: 'Drache nach', fairy: 'Fee neben', princess: 'Burgfräulein schickt nach Hause' },
      boxElements: { princess: 'Burgfräulein', portal: 'magisches Tor' },
      figures: { dragon: 'Drache', fairy: 'Fee' },
      rules: {
        DRAGON_TILE: 'Auf dem Feld des Drachen wird keine Figur eingesetzt und landet keine.',
        DRAGON_MOVE: 'Ein Schritt des Drachen auf ein Feld, auf das er nicht darf (nicht daneben, ohne Plättchen, das der Fee, in diesem Zug schon besucht), wenn er nicht zieht, oder sein Zug blieb unvollendet.',
        FAIRY_PLACEMENT: 'Die Fee kommt neben einen Gefolgsmann des Spielers am Zug, statt des Einsetzens in diesem Zug.',
        PRINCESS: 'Das Burgfräulein schickt einen Ritter der Stadt, an die es angelegt wird, nach Hause, statt des Einsetzens in diesem Zug.',
        PORTAL: 'Durch das magische Tor geht nur ein Gefolgsmann, einer pro Zug, und nur auf ein unfertiges Gebiet.',
      },
      items: { dragon: { moved: (it) => `Der Drache kam auf ${at(it.at)}.` }, fairy: { moved: (it) => `Die Fee ging auf ${at(it.at)}.` } },
    },
  },
  // how a receipt's items of the unit's read (a score event's items)
  receiptItems: { fairy: 'fairy' },
  // the recorder's setup: the box's tile sets and elements
  box: { name: 'The Princess & the Dragon', sets: { 'princess-and-dragon:1': 1 }, elements: { dragon: 1, fairy: 1, princess: 1, portal: 1 } },
  // the recorder's names of the unit's moves (GET /api/live/{id}/options)
  moves: { dragon: 'Dragon to', fairy: 'Fairy beside', princess: 'Princess sends home' },
  figures: {
    // neutral: nobody's, in its own colour (fill), on its square at spot
    // (a fraction of the tile from its north-west corner)
    dragon: { name: 'dragon', d: DRAGON_D, scale: 1.3, neutral: true, fill: '#b8322a', spot: [0.5, 0.5] },
    fairy: { name: 'fairy', d: FAIRY_D, scale: 0.9, neutral: true, fill: '#f2d54b', spot: [0.8, 0.2] },
  },
  tokens: {
    princess: {
      name: 'princess',
      draw: () => [
        s('path', { class: 'princess-crown', d: 'M-9 6H9L10 -5L5 0L0 -8L-5 0L-10 -5Z' }),
      ],
    },
  },
  // marks of a whole tile: a title, and a small silhouette
  tileMarks: {
    volcano: { title: 'volcano: the dragon comes here', d: 'M-9 7L-3 -5H3L9 7Z M-3 -5L-1 -9L1 -7L3 -5Z' },
    dragon: { title: "the dragon's symbol: the dragon moves", d: 'M-8 5C-8 1 -5 -1 -1 -1L2 -6L6 -7L4 -4L3 0C5 1 5 3 5 5Z M-2 -2L-6 -8L0 -5Z' },
    portal: { title: 'magic portal', d: 'M-7 8V-2A7 7 0 0 1 7 -2V8H3V-2A3 3 0 0 0 -3 -2V8Z' },
  },
  // the replay's items of this unit (docs/api.md): figures drawn as the
  // figure kind of their name
  items: {
    dragon: { figure: true, moved: (it) => `The dragon came to ${at(it.at)}.` },
    fairy: { figure: true, moved: (it) => `The fairy went to ${at(it.at)}.` },
  },
  rules: {
    DRAGON_TILE: [37, 'No figure is deployed on, or lands on, the square where the dragon stands.'],
    DRAGON_MOVE: [38, 'A dragon step to a square it may not go to (not beside it, no tile, the fairy\'s, visited in this move), when it does not move, or its move left unfinished.'],
    FAIRY_PLACEMENT: [39, 'The fairy goes beside a follower of the player on turn, instead of the turn\'s deployment.'],
    PRINCESS: [40, 'The princess sends home a knight of the city she joins, instead of the turn\'s deployment.'],
    PORTAL: [41, 'Through the magic portal only a follower goes, one a turn, and only to an unfinished feature.'],
  },
};
