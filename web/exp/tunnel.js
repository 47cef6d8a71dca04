// exp/tunnel.js - The Tunnel on the dashboard: a tunnel token is a disc
// in its owner's colour beside the road's end, lettered by its colour
// (A, B, C: a player's two of one letter join their roads), what each
// player has left, and the rule.

import { s } from '../dom.js';

function token(letter) {
  return (board, it) => {
    const [x, y] = board.locate(it.at, it.segment).anchor;
    const color = board.colors ? board.colors.get(it.player) : null;
    return s('g', {
      class: 'tunnel-token', transform: `translate(${x + 9} ${y - 9})`,
      dataset: { at: it.at.join(','), segment: it.segment, player: it.player, token: letter },
    },
    s('title', { text: `${it.player ? `${it.player}'s ` : ''}tunnel token ${letter} on ${it.segment} at (${it.at.join(',')})` }),
    s('circle', { class: 'tunnel-disc', r: 7, style: color ? { fill: color } : null }),
    s('text', { class: 'tunnel-letter', y: 3.5, 'text-anchor': 'middle', text: letter }));
  };
}

export default {
  id: 'tunnel',
  name: 'The Tunnel', short: 'Tunnel',
  // the unit's words in the dashboard's other languages (i18n/README.md)
  i18n: {
    pl: {
      name: 'Tunel', short: 'Tunel',
      tokens: { tunnel: 'tunel' },
      items: { tunnels: { label: 'Pozostałe żetony tunelu' }, 'tunnel-a': { changed: (it) => `Żeton tunelu A położono na polu (${it.at.join(',')}).` }, 'tunnel-b': { changed: (it) => `Żeton tunelu B położono na polu (${it.at.join(',')}).` }, 'tunnel-c': { changed: (it) => `Żeton tunelu C położono na polu (${it.at.join(',')}).` } },
      moves: { 'tunnel-a': 'Żeton tunelu A', 'tunnel-b': 'Żeton tunelu B', 'tunnel-c': 'Żeton tunelu C' },
      elementNames: { tunnel: 'żetony tunelu' },
      rules: {
        TUNNEL: 'Raz na turę, przed akcją albo po niej, gracz kładzie żeton tunelu, który jeszcze ma, na otwartym wylocie tunelu; drugi żeton z tą samą literą łączy obie drogi.',
      },
    },
    ca: {
      name: 'El túnel', short: 'Túnel',
      tokens: { tunnel: 'túnel' },
      items: { tunnels: { label: 'Fitxes de túnel que queden' }, 'tunnel-a': { changed: (it) => `S’ha posat una fitxa de túnel A a (${it.at.join(',')}).` }, 'tunnel-b': { changed: (it) => `S’ha posat una fitxa de túnel B a (${it.at.join(',')}).` }, 'tunnel-c': { changed: (it) => `S’ha posat una fitxa de túnel C a (${it.at.join(',')}).` } },
      moves: { 'tunnel-a': 'Fitxa de túnel A', 'tunnel-b': 'Fitxa de túnel B', 'tunnel-c': 'Fitxa de túnel C' },
      elementNames: { tunnel: 'fitxes de túnel' },
      rules: {
        TUNNEL: 'Un cop per torn, abans o després de l’acció, un jugador posa una fitxa de túnel que encara té en una boca de túnel oberta; la segona d’una lletra uneix els dos camins.',
      },
    },
    de: {
      name: 'Der Tunnel', short: 'Tunnel',
      tokens: { tunnel: 'Tunnel' },
      items: { tunnels: { label: 'Übrige Tunnelplättchen' }, 'tunnel-a': { changed: (it) => `Auf (${it.at.join(',')}) kam ein Tunnelplättchen A.` }, 'tunnel-b': { changed: (it) => `Auf (${it.at.join(',')}) kam ein Tunnelplättchen B.` }, 'tunnel-c': { changed: (it) => `Auf (${it.at.join(',')}) kam ein Tunnelplättchen C.` } },
      moves: { 'tunnel-a': 'Tunnelplättchen A', 'tunnel-b': 'Tunnelplättchen B', 'tunnel-c': 'Tunnelplättchen C' },
      elementNames: { tunnel: 'Tunnelplättchen' },
      rules: {
        TUNNEL: 'Einmal pro Zug, vor oder nach der Aktion, legt ein Spieler ein Tunnelplättchen aus seinem Vorrat auf ein offenes Tunnelende; das zweite eines Buchstabens verbindet die beiden Straßen.',
      },
    },
  },
  // the recorder's setup: the box's tile sets and elements
  box: { name: 'The Tunnel', sets: { tunnel: 1 }, elements: { tunnel: 1 } },
  moves: { 'tunnel-a': 'Tunnel token A', 'tunnel-b': 'Tunnel token B', 'tunnel-c': 'Tunnel token C' },
  // a road's tunnel mouth, an arch over the road's end
  tokens: {
    tunnel: {
      name: 'tunnel',
      draw: () => [
        s('path', { class: 'tunnel-arch', d: 'M-8 5V0A8 8 0 0 1 8 0V5Z' }),
        s('path', { class: 'tunnel-mouth', d: 'M-4.5 5V1A4.5 4.5 0 0 1 4.5 1V5Z' }),
      ],
    },
  },
  items: {
    'tunnel-a': { draw: token('A'), cls: 'tunnel-token', changed: (it) => `A tunnel token A went down at (${it.at.join(',')}).` },
    'tunnel-b': { draw: token('B'), cls: 'tunnel-token', changed: (it) => `A tunnel token B went down at (${it.at.join(',')}).` },
    'tunnel-c': { draw: token('C'), cls: 'tunnel-token', changed: (it) => `A tunnel token C went down at (${it.at.join(',')}).` },
    tunnels: { label: 'Tunnel tokens left', cls: 'tunnels', testid: 'tunnels' },
  },
  rules: {
    TUNNEL: [53, 'Once a turn, before or after the action, a player puts a tunnel token they still have on an open tunnel end; the second of a letter joins the two roads.'],
  },
  elementNames: { tunnel: 'tunnel tokens' },
};
