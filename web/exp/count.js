// exp/count.js - The Count of Carcassonne on the dashboard: the City of
// Carcassonne (its twelve tiles drawn as one walled city, the meadow round
// it left green), its four quarters named on their tile, the count in its
// quarter, the rules.

import { s } from '../dom.js';
import { lang } from '../i18n/index.js';

const CITY_TILE = /^CO\//;
const HALVES = ['NL', 'NR', 'EL', 'ER', 'SL', 'SR', 'WL', 'WR'];
const EDGES = ['N', 'E', 'S', 'W'];
// How far the walls stand in from an edge the City faces the land on; a
// city outside the walls (CO/9, CO/12) reaches further in.
const MEADOW = 20, BY_CITY = 27;

/** The City's ground on one of its tiles: the tile less a strip along
 * each edge that meets the land outside (a meadow on both halves, or a
 * road or a city); its other edges join the City's other tiles. */
function cityGround(def) {
  const halves = new Set(), edges = new Map();
  for (const sg of (def && def.segments) || []) {
    const [feature, rest = ''] = String(sg.segment).split(':');
    if (feature === 'field') for (const hh of rest.split('.')) halves.add(hh);
    else if (feature === 'road' || feature === 'city') for (const c of rest) if (EDGES.includes(c)) edges.set(c, feature === 'city' ? BY_CITY : MEADOW);
  }
  EDGES.forEach((e, i) => {
    if (!edges.has(e) && halves.has(HALVES[2 * i]) && halves.has(HALVES[2 * i + 1])) edges.set(e, MEADOW);
  });
  const [x0, y0] = [edges.get('W') || 0, edges.get('N') || 0];
  const [x1, y1] = [100 - (edges.get('E') || 0), 100 - (edges.get('S') || 0)];
  // the walls: the sides that face the land
  const wall = [
    edges.has('N') ? `M${x0} ${y0}H${x1}` : '', edges.has('E') ? `M${x1} ${y0}V${y1}` : '',
    edges.has('S') ? `M${x0} ${y1}H${x1}` : '', edges.has('W') ? `M${x0} ${y0}V${y1}` : '',
  ].join('');
  return { poly: [[x0, y0], [x1, y0], [x1, y1], [x0, y1]], d: `M${x0} ${y0}H${x1}V${y1}H${x0}Z`, wall, unit: 'count' };
}

// A few houses on a tile of the City without quarters: the town itself.
const HOUSES = [[36, 38], [66, 46], [42, 68]];
const house = ([x, y]) => [
  s('rect', { class: 'coc-house', x: x - 8, y: y - 2, width: 16, height: 10 }),
  s('path', { class: 'coc-roof', d: `M${x - 10} ${y - 1}L${x} ${y - 9}L${x + 10} ${y - 1}Z` }),
];

// Each quarter's sign, about 16 units, centred on (0, 0): a keep, a
// market stall, an anvil, a church with its spire.
const SIGNS = {
  castle: 'M-7 8V-4H-7V-8H-4V-5H-1.5V-8H1.5V-5H4V-8H7V8H2V3A2 2 0 0 0 -2 3V8Z',
  market: 'M-8 -2L-6 -8H6L8 -2Z M-7 -1H-5V8H-7Z M5 -1H7V8H5Z M-5 3H5V5H-5Z',
  blacksmith: 'M-8 -5H6C6 -2 4 -1 1 -1V2H4V5H-4V2H-1V-1C-4 -1 -6 -2 -8 -5Z M-3 6H3V8H-3Z',
  cathedral: 'M-1 -10H1V-8H3V-6H1V-4L4 -1V8H1V3A1 1 0 0 0 -1 3V8H-4V-1L-1 -4V-6H-3V-8H-1Z',
};

// The count: a standing figure with a crown, about 26 units tall.
const COUNT_D = 'M-4.5 -15.5L-2.2 -13L0 -16L2.2 -13L4.5 -15.5V-11.2H-4.5Z' +
  'M-3.6 -7.2A3.6 3.6 0 1 0 3.6 -7.2A3.6 3.6 0 1 0 -3.6 -7.2Z' +
  'M-3 -3H3L9 3L7.5 5L4 2.5L8.5 12.5H-8.5L-4 2.5L-7.5 5L-9 3Z';
const countShape = () => s('path', { class: 'meeple-body count-body', d: COUNT_D, transform: 'scale(0.85)' });
// the count stands beside the followers in its quarter
const COUNT_OFFSET = [-12, 1];

const quarterName = (segment) => String(segment).split(':')[1] || 'City';
// the quarters as the other languages name them: on the board and in
// words (SPOTS), and after "to the quarter" in the count's moves (QUARTERS)
const SPOTS = {
  pl: { castle: 'zamkowa', market: 'targowa', blacksmith: 'kowalska', cathedral: 'katedralna' },
  ca: { castle: 'castell', market: 'mercat', blacksmith: 'ferrer', cathedral: 'catedral' },
  de: { castle: 'Burg', market: 'Markt', blacksmith: 'Schmiede', cathedral: 'Kathedrale' },
};
const QUARTERS = {
  pl: { castle: 'zamkowej', market: 'targowej', blacksmith: 'kowalskiej', cathedral: 'katedralnej' },
  ca: { castle: 'del castell', market: 'del mercat', blacksmith: 'del ferrer', cathedral: 'de la catedral' },
  de: { castle: 'Burg', market: 'Markt', blacksmith: 'Schmiede', cathedral: 'Kathedrale' },
};

// A small walled city, for the key.
const cityIcon = () => [s('path', { class: 'coc-ground', d: 'M-14 -9H14V13H-14Z' }),
  s('path', { class: 'coc-wall', d: 'M-14 -9H14V13H-14Z' }),
  s('path', { class: 'coc-roof', d: 'M-9 4L-4 -2L1 4Z M2 6L7 0L12 6Z' })];

export default {
  id: 'count',
  name: 'The Count of Carcassonne', short: 'Count',
  // the unit's words in the dashboard's other languages (i18n/README.md)
  i18n: {
    pl: {
      name: 'Hrabia Carcassonne', short: 'Hrabia',
      receiptItems: { coc: 'Miasto Carcassonne' },
      spots: SPOTS.pl,
      tokens: { coc: 'Miasto Carcassonne' },
      items: { count: { legend: 'hrabia', moved: (it, ctx) => `Po: ${ctx.after}, w rundzie Miasta, hrabia przeszedł do dzielnicy ${QUARTERS.pl[quarterName(it.segment)] || quarterName(it.segment)}.` } },
      moves: { count: 'Hrabia do' },
      start: 'Miasto Carcassonne',
      boxElements: { count: 'hrabia' },
      features: { quarter: 'dzielnica' },
      rules: {
        QUARTER_DEPLOY: 'Podróżnik wchodzi do Miasta Carcassonne dopiero po punktacji, gdy inni dostali punkty, a gracz w turze nie.',
        QUARTER_LEAVE: 'Podróżnik opuszcza Miasto tylko na obszar obsługiwany przez jego dzielnicę, ukończony w tej turze, przed jego punktacją, albo na koniec z targu na łąkę; nigdy z dzielnicy hrabiego.',
        COUNT_MOVE: 'Hrabia przechodzi do innej dzielnicy tylko zaraz po wejściu podróżnika do Miasta, przez tego samego gracza.',
        FLIER_INTO_CITY: 'Lotnik nigdy nie ląduje w samym Mieście Carcassonne.',
      },
      between: { quarter: 'w rundzie Miasta' },
    },
    ca: {
      name: 'El comte de Carcassonne', short: 'Comte',
      receiptItems: { coc: 'la Ciutat de Carcassonne' },
      spots: SPOTS.ca,
      tokens: { coc: 'la Ciutat de Carcassonne' },
      items: { count: { legend: 'el comte', moved: (it, ctx) => `Després de ${ctx.after}, a la ronda de la Ciutat, el comte ha anat al barri ${QUARTERS.ca[quarterName(it.segment)] || quarterName(it.segment)}.` } },
      moves: { count: 'El comte cap a' },
      start: 'la Ciutat de Carcassonne',
      boxElements: { count: 'comte' },
      features: { quarter: 'barri' },
      rules: {
        QUARTER_DEPLOY: 'Un seguidor entra a la Ciutat de Carcassonne només després de la puntuació, quan altres han puntuat i el jugador del torn no.',
        QUARTER_LEAVE: 'Un seguidor surt de la Ciutat només cap a un element que serveix el seu barri i que el torn ha completat, abans que puntuï, o al final del mercat a un camp; mai del barri del comte.',
        COUNT_MOVE: 'El comte canvia de barri només just després que un seguidor entri a la Ciutat, pel mateix jugador.',
        FLIER_INTO_CITY: 'Un volador mai no aterra a la mateixa Ciutat de Carcassonne.',
      },
      between: { quarter: 'a la ronda de la Ciutat' },
    },
    de: {
      name: 'Der Graf von Carcassonne', short: 'Graf',
      receiptItems: { coc: 'die Stadt Carcassonne' },
      spots: SPOTS.de,
      tokens: { coc: 'die Stadt Carcassonne' },
      items: { count: { legend: 'der Graf', moved: (it, ctx) => `Nach ${ctx.after}, in der Runde der Stadt, ging der Graf ins Viertel ${QUARTERS.de[quarterName(it.segment)] || quarterName(it.segment)}.` } },
      moves: { count: 'Der Graf nach' },
      start: 'die Stadt Carcassonne',
      boxElements: { count: 'Graf' },
      features: { quarter: 'Stadtviertel' },
      rules: {
        QUARTER_DEPLOY: 'Ein Gefolgsmann kommt erst nach der Wertung in die Stadt Carcassonne, wenn andere Punkte bekamen und der Spieler am Zug nicht.',
        QUARTER_LEAVE: 'Ein Gefolgsmann verlässt die Stadt nur auf ein Gebiet, das sein Viertel bedient und das der Zug abgeschlossen hat, vor dessen Wertung, oder am Ende vom Markt auf eine Wiese; nie aus dem Viertel des Grafen.',
        COUNT_MOVE: 'Der Graf zieht nur direkt nachdem ein Gefolgsmann in die Stadt kam in ein anderes Viertel, durch denselben Spieler.',
        FLIER_INTO_CITY: 'Ein Flieger landet nie in der Stadt Carcassonne selbst.',
      },
      between: { quarter: 'in der Runde der Stadt' },
    },
  },
  // how a receipt's items of the unit's read (a score event's items)
  receiptItems: { coc: 'the City of Carcassonne' },
  // the recorder's setup: the box's tile sets and elements, and the start
  // it brings: the City of Carcassonne, four tiles by three, CO/7 at (0,0)
  box: { name: 'The Count of Carcassonne', sets: { count: 1 }, elements: { count: 1 }, start: { name: 'the City of Carcassonne', tiles: [
      { tile: 'CO/1', at: [-2, -1], rot: 0 },
      { tile: 'CO/2', at: [-1, -1], rot: 0 },
      { tile: 'CO/3', at: [0, -1], rot: 0 },
      { tile: 'CO/4', at: [1, -1], rot: 0 },
      { tile: 'CO/5', at: [-2, 0], rot: 0 },
      { tile: 'CO/6', at: [-1, 0], rot: 0 },
      { tile: 'CO/7', at: [0, 0], rot: 0 },
      { tile: 'CO/8', at: [1, 0], rot: 0 },
      { tile: 'CO/9', at: [-2, 1], rot: 0 },
      { tile: 'CO/10', at: [-1, 1], rot: 0 },
      { tile: 'CO/11', at: [0, 1], rot: 0 },
      { tile: 'CO/12', at: [1, 1], rot: 0 }] } },
  features: {
    // inside the tile, told apart by name ("quarter:castle"), each where
    // spots says: a follower in the middle of its quarter, under its name
    quarter: {
      name: 'quarter', shape: 'spots', ring: 14,
      // followers come in only in the round after a turn's scoring:
      // shown with the next turn, said as after the last
      between: 'in the City\'s round',
      spots: { castle: [30, 32], market: [70, 32], blacksmith: [30, 76], cathedral: [70, 76] },
    },
  },
  tokens: {
    // every meadow round the City: the City's drawing shows which
    coc: { name: 'the City of Carcassonne', hidden: true, icon: cityIcon },
  },
  // The City's ground on its tiles, so their fields are the meadow round it.
  built: (id, def) => (CITY_TILE.test(id) ? [cityGround(def)] : []),
  draw: {
    ground(g, geo, ctx) {
      const city = geo.built.find((b) => b.unit === 'count');
      if (!city) return;
      const quarters = geo.spots.filter((q) => q.feature === 'quarter');
      g.appendChild(s('g', { class: 'coc', dataset: { testid: 'city-of-carcassonne' } },
        s('title', { text: 'the City of Carcassonne' }),
        s('path', { class: 'coc-ground', d: city.d }),
        // houses on the tiles without quarters
        ...(quarters.length ? [] : HOUSES.filter(([x, y]) => city.poly[0][0] < x - 12 && x + 12 < city.poly[1][0] && city.poly[0][1] < y - 12 && y + 10 < city.poly[2][1]).flatMap(house)),
        city.wall ? s('path', { class: 'coc-wall', d: city.wall }) : null));
      // The quarters: four walled blocks, each with its sign and its name.
      for (const q of quarters) {
        const bx = q.at[0] < 50 ? 3 : 52, by = q.at[1] < 50 ? 3 : 52;
        const sign = SIGNS[q.name];
        g.appendChild(s('g', { class: 'quarter', dataset: { quarter: q.name } },
          s('title', { text: `the ${q.name} quarter` }),
          s('rect', { class: 'quarter-ground', x: bx, y: by, width: 45, height: 45, rx: 3 }),
          sign ? s('path', { class: 'quarter-sign', d: sign, transform: `${ctx.upright([bx + 36, by + 34])} translate(${bx + 36} ${by + 34}) scale(0.7)` }) : null,
          s('text', { class: 'quarter-name', x: bx + 22.5, y: by + 11, 'text-anchor': 'middle', transform: ctx.upright([bx + 22.5, by + 8]), text: (SPOTS[lang] || {})[q.name] || q.name })));
      }
    },
  },
  // the replay's items of this unit (docs/api.md)
  items: {
    count: {
      // a neutral figure, in its quarter of the City
      draw(board, it) {
        const [x, y] = board.locate(it.at, it.segment).anchor;
        return s('g', {
          class: ['count', 'meeple', 'kind-count'],
          transform: `translate(${x + COUNT_OFFSET[0]} ${y + COUNT_OFFSET[1]})`,
          dataset: { kind: 'count', segment: it.segment },
        }, s('title', { text: `The count in the ${quarterName(it.segment)} quarter` }), countShape());
      },
      legend: { kind: 'count', text: 'the count', icon: () => [s('g', { class: 'count' }, countShape())] },
      // the count moves only between turns, after a follower went in
      moved: (it, ctx) => `After ${ctx.after}, in the City's round, the count went to the ${quarterName(it.segment)} quarter.`,
    },
  },
  moves: { count: 'The count to' },
  rules: {
    QUARTER_DEPLOY: [42, 'A follower goes into the City of Carcassonne only after the scoring, when others scored and the player on turn did not.'],
    QUARTER_LEAVE: [43, 'A follower leaves the City only onto a feature its quarter serves that the turn completed, before it scores, or at the end from the market onto a field; never from the count\'s quarter.'],
    COUNT_MOVE: [44, 'The count moves to another quarter only right after a follower went into the City, by that player.'],
    FLIER_INTO_CITY: [45, 'A flier never lands in the City of Carcassonne itself.'],
  },
};
