// exp/tower.js - The Tower on the dashboard: the tower's foundation on its
// tile, each tower's floors beside it, the prisoners each player holds
// (how many, and each one: taken, freed, drawn behind bars in its
// holder's colour), the rules.

import { s } from '../dom.js';
import { MEEPLE_D } from './base.js';

const at = (p) => `(${p[0]},${p[1]})`;
// a keep with battlements
const tower = () => s('path', { class: 'tower-body', d: 'M-7 9V-5H-7V-9H-4V-6H-1.5V-9H1.5V-6H4V-9H7V9Z' });
// a follower behind bars, in a ring of its holder's colour
const BARS = 'M-6 -11V11M-2 -11V11M2 -11V11M6 -11V11';
const prisoner = (fill, ring) => [
  s('circle', { class: 'prisoner-ring', r: 13, stroke: ring }),
  s('path', { class: 'prisoner-body', d: MEEPLE_D, fill, transform: 'scale(0.6)' }),
  s('path', { class: 'prisoner-bars', d: BARS }),
];

export default {
  id: 'tower',
  name: 'The Tower', short: 'Tower',
  // the unit's words in the dashboard's other languages (i18n/README.md)
  i18n: {
    pl: {
      name: 'Wieża', short: 'Wieża',
      receiptItems: { ransom: 'okup' },
      legends: { tower: 'wieża (jej piętra obok)' },
      items: { prisoners: { label: 'Więźniowie' }, prisoner: { legend: 'więzień: podróżnik pojmany przez innego gracza wieżą (nad planszą, w obwódce koloru trzymającego)', taken: (p) => `${p.by} bierze do niewoli podróżnika gracza ${p.owner} (wieżą).`, freed: (p) => `Podróżnik gracza ${p.owner} nie jest już więźniem gracza ${p.by}: wraca do zapasu gracza ${p.owner}.` }, height: { changed: (it) => `Wieża na polu ${at(it.at)} ma teraz wysokość: ${it.value}.` } },
      moves: { tower: 'Piętro wieży', capture: 'Pojmij', ransom: 'Zapłać okup za', exchange: 'Odbierz w wymianie' },
      boxElements: { tower: 'wieże' },
      features: { tower: 'wieża' },
      rules: {
        TOWER_PLACEMENT: 'Piętro wieży tam, gdzie nie ma wieży, na wieży zwieńczonej podróżnikiem albo bez elementu w zapasie; albo podróżnik na wieży bez piętra.',
        TOWER_CAPTURE: 'Pojmanie bez piętra położonego w tej turze, drugie pojmanie albo figurki poza zasięgiem wieży (jej rząd lub kolumna, do jej wysokości).',
        TOWER_RANSOM: 'Okup za figurkę, która nie należy do płacącego albo której nikt nie więzi, drugi w tej turze albo gdy ma się mniej niż 3 punkty.',
        FLIER_ON_TOWER: 'Lotnik wylądował na wieży, która nie jest obszarem do zajęcia i punktowania.',
      },
    },
    ca: {
      name: 'La torre', short: 'Torre',
      receiptItems: { ransom: 'rescat' },
      legends: { tower: 'torre (els seus pisos al costat)' },
      items: { prisoners: { label: 'Presoners' }, prisoner: { legend: 'presoner: un seguidor que un altre jugador ha capturat amb una torre (sobre el tauler, envoltat del color de qui el té)', taken: (p) => `${p.by} fa presoner el seguidor de ${p.owner} (amb una torre).`, freed: (p) => `El seguidor de ${p.owner} ja no és presoner de ${p.by}: torna a la reserva de ${p.owner}.` }, height: { changed: (it) => `La torre de ${at(it.at)} ara té ${it.value} ${it.value === 1 ? 'pis' : 'pisos'}.` } },
      moves: { tower: 'Pis de torre', capture: 'Captura', ransom: 'Paga el rescat per', exchange: 'Recupera a canvi' },
      boxElements: { tower: 'torres' },
      features: { tower: 'torre' },
      rules: {
        TOWER_PLACEMENT: 'Un pis de torre on no hi ha torre, en una torre coronada per un seguidor, o sense cap peça a la reserva; o un seguidor en una torre sense pis.',
        TOWER_CAPTURE: 'Una captura sense cap pis posat aquest torn, una segona, o d’una figura fora de la vista de la torre (la seva fila o columna, fins a la seva alçada).',
        TOWER_RANSOM: 'Un rescat per una figura que no és de qui paga o que ningú no té presonera, un segon en un torn, o amb menys de 3 punts.',
        FLIER_ON_TOWER: 'Un volador va aterrar en una torre, que no és cap element per ocupar i puntuar.',
      },
    },
    de: {
      name: 'Der Turm', short: 'Turm',
      receiptItems: { ransom: 'Lösegeld' },
      legends: { tower: 'Turm (seine Teile daneben)' },
      items: { prisoners: { label: 'Gefangene' }, prisoner: { legend: 'Gefangener: ein Gefolgsmann, den ein anderer Spieler mit einem Turm nahm (über dem Spielplan, in der Farbe des Halters umrandet)', taken: (p) => `${p.by} nimmt den Gefolgsmann von ${p.owner} gefangen (mit einem Turm).`, freed: (p) => `Der Gefolgsmann von ${p.owner} ist nicht mehr Gefangener von ${p.by}: zurück in den Vorrat von ${p.owner}.` }, height: { changed: (it) => `Der Turm auf ${at(it.at)} ist jetzt ${it.value} ${it.value === 1 ? 'Teil' : 'Teile'} hoch.` } },
      moves: { tower: 'Turmteil', capture: 'Gefangen nehmen', ransom: 'Lösegeld zahlen für', exchange: 'Im Austausch zurücknehmen' },
      boxElements: { tower: 'Türme' },
      features: { tower: 'Turm' },
      rules: {
        TOWER_PLACEMENT: 'Ein Turmteil, wo kein Turm ist, auf einem Turm, den ein Gefolgsmann krönt, oder ohne Turmteil im Vorrat; oder ein Gefolgsmann auf einem Turm ohne Turmteil.',
        TOWER_CAPTURE: 'Eine Gefangennahme ohne in diesem Zug gelegtes Turmteil, eine zweite, oder einer Figur außerhalb der Sicht des Turms (seine Reihe oder Spalte, bis zu seiner Höhe).',
        TOWER_RANSOM: 'Ein Lösegeld für eine Figur, die nicht dem Zahlenden gehört oder die niemand gefangen hält, ein zweites im selben Zug, oder mit weniger als 3 Punkten.',
        FLIER_ON_TOWER: 'Ein Flieger landete auf einem Turm, der kein Gebiet zum Besetzen und Werten ist.',
      },
    },
  },
  // how a receipt's items of the unit's read (a score event's items)
  receiptItems: { ransom: 'ransom' },
  // the recorder's setup: the box's tile sets and elements
  box: { name: 'The Tower', sets: { 'tower:1': 1 }, elements: { tower: 1 } },
  // the recorder's names of the unit's moves (GET /api/live/{id}/options)
  moves: { tower: 'Tower floor', capture: 'Capture', ransom: 'Pay the ransom for', exchange: 'Take back in exchange' },
  features: {
    // its foundation where the field leaves room
    tower: {
      name: 'tower', shape: 'inner', place: 'pole', r: 9, clear: 6, ring: 4, order: 3,
      legend: { attr: 'tower', text: 'tower (its floors beside it)', icon: () => [s('g', { class: 'tower' }, tower())] },
    },
  },
  draw: {
    inner(g, geo, ctx) {
      const t = geo.inner.get('tower');
      if (!t) return;
      const [tx, ty] = t.at;
      g.appendChild(s('g', { class: 'tower', transform: `${ctx.upright(t.at)} translate(${tx} ${ty})` },
        s('title', { text: 'tower' }), tower()));
    },
  },
  // the replay's items of this unit (docs/api.md)
  items: {
    height: {
      // the floors, beside the tower
      draw(board, it) {
        const loc = board.locate(it.at, 'tower');
        return s('g', { class: 'tower-height', dataset: { at: it.at.join(','), height: it.value } },
          s('circle', { cx: loc.anchor[0] + 11, cy: loc.anchor[1] - 11, r: 7 }),
          s('text', { x: loc.anchor[0] + 11, y: loc.anchor[1] - 8, 'text-anchor': 'middle', text: String(it.value) }));
      },
      cls: 'tower-floor',
      changed: (it) => `The tower at ${at(it.at)} is now ${it.value} floor${it.value === 1 ? '' : 's'} high.`,
    },
    prisoners: { label: 'Prisoners held', cls: 'prisoners', testid: 'prisoners' },
    // each prisoner: whose follower (player), held by the seat in value
    prisoner: {
      held: (it, players) => ({ owner: it.player, by: (players[it.value] || {}).name || '?' }),
      taken: (p) => `${p.by} takes ${p.owner}'s follower prisoner (with a tower).`,
      freed: (p) => `${p.owner}'s follower is no longer ${p.by}'s prisoner: back to ${p.owner}'s supply.`,
      drawHeld(board, it, [x, y]) {
        const by = board.seat(it.value);
        const fill = board.colors.get(it.player) || '#777';
        return s('g', { class: 'prisoner', transform: `translate(${x} ${y})`, dataset: { player: it.player, holder: by.name } },
          s('title', { text: `${it.player}'s follower, held prisoner by ${by.name}` }), ...prisoner(fill, by.color));
      },
      legend: { kind: 'prisoner', text: 'prisoner: a follower another player took with a tower (above the board, ringed in its holder\'s colour)', icon: () => prisoner('#8a8f98', '#1b1b1b') },
    },
  },
  rules: {
    TOWER_PLACEMENT: [33, 'A tower floor where there is no tower, on a tower a follower tops, or with no piece left; or a follower on a tower with no floor.'],
    TOWER_CAPTURE: [34, 'A capture with no floor placed this turn, a second one, or of a figure out of the tower\'s sight (its row or column, up to its height).'],
    TOWER_RANSOM: [35, 'A ransom for a figure that is not the payer\'s own or is held by no one, a second one in a turn, or with fewer than 3 points.'],
    FLIER_ON_TOWER: [36, 'A flier landed on a tower, which is no feature to claim and score.'],
  },
};
