// exp/base.js - the base game on the dashboard: roads, cities, fields and
// monasteries (how they lie on a tile and how the board draws them), the
// follower and the large follower, the rules every game has, and the
// names of its game elements and settings.

import { s } from '../dom.js';

// A meeple standing, centred on (0, 0), about 26 units tall.
export const MEEPLE_D = 'M2.8 -4.6C6 -4.6 11.5 -3.8 11.5 -1C11.5 1.2 9 1.8 6.5 2L10.2 10.8C10.6 12.2 9.8 12.8 8.6 12.8H3.6L0 6.4L-3.6 12.8H-8.6C-9.8 12.8-10.6 12.2-10.2 10.8L-6.5 2C-9 1.8-11.5 1.2-11.5 -1C-11.5 -3.8-6 -4.6-2.8 -4.6A4.8 4.8 0 1 1 2.8 -4.6Z';

export default {
  id: 'base',
  name: 'the base game', short: 'Base',
  // the unit's words in the dashboard's other languages (i18n/README.md)
  i18n: {
    pl: {
      name: 'gra podstawowa', short: 'Podst.',
      figures: { small: 'podróżnik', big: 'duży podróżnik' },
      elementNames: { farmers: 'chłopi' },
      settings: { followers: (v) => `podróżnicy: ${v}`, farmers: (v) => `chłopi: ${v ? 'włączeni' : 'wyłączeni'}`, 'tiny-city-scoring': (v) => `ukończone miasto z 2 kafelków: ${v} pkt` },
      features: { road: 'droga', city: 'miasto', field: 'łąka', monastery: 'klasztor' },
      rules: {
        TILE_UNKNOWN: 'Nie ma kafelka o takim identyfikatorze.',
        TILE_NOT_IN_PACK: 'Kafelka nie ma w zestawach tej partii albo zagrano więcej jego kopii, niż zawierają.',
        TILE_NOT_DRAWN: 'Losowanie zapisane w pliku daje tu inny pasujący kafelek: kafelek podmieniono.',
        TILE_OCCUPIED: 'Na tym polu leży już kafelek.',
        TILE_NOT_ADJACENT: 'Kafelek nie ma sąsiada z żadnego boku.',
        TILE_EDGE_MISMATCH: 'Krawędź kafelka nie pasuje do sąsiada.',
        TILE_DISCARD_FITS: 'Odrzucono kafelek, choć gdzieś pasuje.',
        MEEPLE_NONE_LEFT: 'Gracz nie ma już takiej figurki w zapasie.',
        MEEPLE_NOT_ON_PLACED_TILE: 'Zwykłe wystawienie musi być na właśnie położonym kafelku.',
        MEEPLE_FEATURE_OCCUPIED: 'Zwykłe wystawienie na obszarze, na którym stoi już figurka.',
        MEEPLE_WRONG_TYPE: 'Ta figurka nie może stać na tym obszarze (albo takiego obszaru nie ma).',
        MEEPLE_SECOND_DEPLOY: 'Akcja po jedynej akcji tury (z widmem: po drugiej): drugie wystawienie, lot albo zabranie figurki.',
        TURN_ORDER: 'Zapis wskazuje innego gracza niż ten, którego jest tura.',
        TURN_SEQUENCE: 'Wpis nie na swoim miejscu (wystawienie przed kafelkiem, ruchy po ostatniej turze).',
        SCORE_MISMATCH: 'Podany wynik różni się od tego, co dają zasady.',
      },
    },
    ca: {
      name: 'el joc bàsic', short: 'Bàsic',
      figures: { small: 'seguidor', big: 'seguidor gran' },
      elementNames: { farmers: 'pagesos' },
      settings: { followers: (v) => `seguidors: ${v}`, farmers: (v) => `pagesos: ${v ? 'sí' : 'no'}`, 'tiny-city-scoring': (v) => `una ciutat completada de 2 peces puntua ${v}` },
      features: { road: 'camí', city: 'ciutat', field: 'camp', monastery: 'monestir' },
      rules: {
        TILE_UNKNOWN: 'No hi ha cap peça amb aquest identificador.',
        TILE_NOT_IN_PACK: 'La peça no és als jocs de peces de la partida, o se n’han jugat més còpies de les que contenen.',
        TILE_NOT_DRAWN: 'El nombre aleatori desat fa treure aquí una altra peça, una que encaixa: la peça es va canviar.',
        TILE_OCCUPIED: 'La casella ja té una peça.',
        TILE_NOT_ADJACENT: 'La peça no té cap veïna pels costats.',
        TILE_EDGE_MISMATCH: 'Una vora de la peça no coincideix amb la veïna.',
        TILE_DISCARD_FITS: 'Es va descartar una peça tot i que encaixa en algun lloc.',
        MEEPLE_NONE_LEFT: 'El jugador no té cap figura d’aquestes a la reserva.',
        MEEPLE_NOT_ON_PLACED_TILE: 'Una col·locació normal ha de ser a la peça que s’acaba de posar.',
        MEEPLE_FEATURE_OCCUPIED: 'Una col·locació normal en un element que ja té una figura.',
        MEEPLE_WRONG_TYPE: 'Aquesta figura no pot estar en aquest element (o no existeix tal element).',
        MEEPLE_SECOND_DEPLOY: 'Una acció després de l’única del torn (amb el fantasma, després de la segona): una segona col·locació, un vol o una retirada.',
        TURN_ORDER: 'El registre anomena un jugador diferent del que té el torn.',
        TURN_SEQUENCE: 'Un missatge fora de lloc (una col·locació abans de cap peça, moviments després de l’últim torn).',
        SCORE_MISMATCH: 'Una puntuació declarada no coincideix amb la que donen les regles.',
      },
    },
    de: {
      name: 'das Grundspiel', short: 'Grundspiel',
      figures: { small: 'Gefolgsmann', big: 'großer Gefolgsmann' },
      elementNames: { farmers: 'Bauern' },
      settings: { followers: (v) => `Gefolgsleute: ${v}`, farmers: (v) => `Bauern: ${v ? 'an' : 'aus'}`, 'tiny-city-scoring': (v) => `eine abgeschlossene Stadt aus 2 Plättchen zählt ${v}` },
      features: { road: 'Straße', city: 'Stadt', field: 'Wiese', monastery: 'Kloster' },
      rules: {
        TILE_UNKNOWN: 'Kein Plättchen mit dieser Kennung.',
        TILE_NOT_IN_PACK: 'Das Plättchen gehört nicht zu den Plättchensätzen der Partie, oder es wurden mehr Exemplare gespielt, als sie enthalten.',
        TILE_NOT_DRAWN: 'Die gespeicherte Zufallszahl zieht hier ein anderes, passendes Plättchen: das Plättchen wurde vertauscht.',
        TILE_OCCUPIED: 'Auf dem Feld liegt schon ein Plättchen.',
        TILE_NOT_ADJACENT: 'Das Plättchen hat keinen waagrechten oder senkrechten Nachbarn.',
        TILE_EDGE_MISMATCH: 'Eine Kante des Plättchens passt nicht zum Nachbarn.',
        TILE_DISCARD_FITS: 'Ein Plättchen wurde abgeworfen, obwohl es irgendwo passt.',
        MEEPLE_NONE_LEFT: 'Der Spieler hat keine solche Figur mehr im Vorrat.',
        MEEPLE_NOT_ON_PLACED_TILE: 'Ein normales Einsetzen muss auf dem gerade gelegten Plättchen erfolgen.',
        MEEPLE_FEATURE_OCCUPIED: 'Ein normales Einsetzen auf einem Gebiet, auf dem schon eine Figur steht.',
        MEEPLE_WRONG_TYPE: 'Diese Figur darf nicht auf diesem Gebiet stehen (oder es gibt kein solches Gebiet).',
        MEEPLE_SECOND_DEPLOY: 'Eine Aktion nach der einen des Zuges (mit dem Phantom: nach der zweiten): ein zweites Einsetzen, ein Flug oder ein Zurücknehmen.',
        TURN_ORDER: 'Das Protokoll nennt einen anderen Spieler als den, der am Zug ist.',
        TURN_SEQUENCE: 'Eine Meldung an falscher Stelle (ein Einsetzen vor dem Plättchen, Züge nach dem letzten Zug).',
        SCORE_MISMATCH: 'Eine angegebene Punktzahl weicht von der nach den Regeln ab.',
      },
    },
  },
  figures: {
    small: { name: 'follower', d: MEEPLE_D, scale: 0.8, lies: true },
    big: { name: 'large follower', d: MEEPLE_D, scale: 1.15, lies: true },
  },
  features: {
    road: { name: 'road', shape: 'edges', line: 'over', charted: true, rank: 0 },
    city: { name: 'city', shape: 'edges', area: true, charted: true, rank: 1 },
    field: { name: 'field', shape: 'halves', open: true, charted: true, rank: 2 },
    // in the middle of its tile; roads end at it
    monastery: { name: 'monastery', shape: 'inner', place: 'center', r: 19, clear: 3, ring: 3, order: 0, tokens: true, charted: true, rank: 3 },
  },
  draw: {
    over(g, geo, ctx) {
      for (const r of geo.roads) g.appendChild(s('path', { class: 'road-edge', d: r.d }));
      for (const r of geo.roads) g.appendChild(s('path', { class: 'road', d: r.d }));
      if (geo.junction) {
        g.appendChild(s('g', { class: 'junction', transform: ctx.upright([50, 50]) },
          s('rect', { x: 42, y: 44, width: 16, height: 12, rx: 1 }),
          s('path', { class: 'junction-roof', d: 'M40 45L50 37L60 45Z' })));
      }
    },
    areas(g, geo, ctx) {
      for (const c of geo.cities) {
        g.appendChild(s('path', { class: 'city', d: c.d }));
        if (c.wall) g.appendChild(s('path', { class: 'city-wall', d: c.wall }));
      }
      for (const c of geo.cities) {
        if (!c.pennants) continue;
        const [px, py] = c.pennantAt;
        g.appendChild(s('path', {
          class: 'pennant', transform: `${ctx.upright(c.pennantAt)} translate(${px} ${py})`,
          d: 'M-5.5 -6.5H5.5V1Q5.5 5.5 0 8Q-5.5 5.5 -5.5 1Z',
        }));
      }
    },
    inner(g, geo, ctx) {
      const m = geo.inner.get('monastery');
      if (!m) return;
      // on a closed tile, the look its unit gives it (ctx.closed)
      const c = ctx.closed;
      const [mx, my] = m.at;
      g.appendChild(s('g', { class: ['monastery', c ? c.cls : null], transform: `${ctx.upright(m.at)} translate(${mx} ${my})${c && c.scale ? ` scale(${c.scale})` : ''}` },
        c ? s('title', { text: c.title }) : null,
        s('rect', { class: 'monastery-body', x: -11, y: -5, width: 22, height: 16 }),
        s('path', { class: 'monastery-roof', d: 'M-14 -4L0 -16L14 -4Z' }),
        s('path', { class: 'monastery-door', d: 'M-3 11V4Q0 1 3 4V11Z' }),
        s('rect', { class: 'monastery-roof', x: -1.2, y: -22, width: 2.4, height: 8 }),
        s('rect', { class: 'monastery-roof', x: -4, y: -19.5, width: 8, height: 2.2 })));
    },
  },
  // the audit's rule ids: [rank in the engine's order of precedence, text]
  rules: {
    TILE_UNKNOWN: [0, 'No such tile id.'],
    TILE_NOT_IN_PACK: [1, 'The tile is not in the game\'s tile sets, or more copies were played than they hold.'],
    TILE_NOT_DRAWN: [2, 'The save\'s random number draws another tile here, one that fits: the tile was swapped.'],
    TILE_OCCUPIED: [3, 'The square already holds a tile.'],
    TILE_NOT_ADJACENT: [4, 'The tile has no orthogonal neighbour.'],
    TILE_EDGE_MISMATCH: [5, 'An edge of the tile does not match its neighbour.'],
    TILE_DISCARD_FITS: [9, 'A tile was discarded although it fits somewhere.'],
    MEEPLE_NONE_LEFT: [10, 'The player has no such meeple in supply.'],
    MEEPLE_NOT_ON_PLACED_TILE: [11, 'A normal deployment must be on the tile just placed.'],
    MEEPLE_FEATURE_OCCUPIED: [12, 'A normal deployment on a feature that already holds a meeple.'],
    MEEPLE_WRONG_TYPE: [13, 'That meeple may not stand on that feature (or there is no such feature).'],
    MEEPLE_SECOND_DEPLOY: [17, 'An action after the turn\'s one (with the phantom, after its second): a second deployment, flight or recall.'],
    TURN_ORDER: [30, 'The log names another player than the one on turn.'],
    TURN_SEQUENCE: [31, 'A message out of place (a deployment before any tile, moves after the last turn).'],
    SCORE_MISMATCH: [32, 'A claimed score differs from what the rules give.'],
  },
  // game elements (JCloisterZone's keys): those that count figures, by
  // the figure kind they count, and the others' names in text
  elementFigures: { 'small-follower': 'small', 'big-follower': 'big' },
  elementNames: { farmers: 'farmers' },
  // the audit's rules, in text: [rank, key, how to say its value]
  settings: [
    [0, 'followers', (v) => `${v} followers`],
    [1, 'farmers', (v) => `farmers ${v ? 'on' : 'off'}`],
    [9, 'tiny-city-scoring', (v) => `a completed 2-tile city scores ${v}`],
  ],
};
