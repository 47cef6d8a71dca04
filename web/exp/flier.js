// exp/flier.js - The Flier on the dashboard: the flying machine on its
// tile (an arrow the way it points) and the rules of a flight.

import { s } from '../dom.js';

const DIR_ANGLE = { N: 0, NE: 45, E: 90, SE: 135, S: 180, SW: 225, W: 270, NW: 315 };

export default {
  id: 'flier',
  name: 'The Flier', short: 'Flier',
  // the unit's words in the dashboard's other languages (i18n/README.md)
  i18n: {
    pl: {
      name: 'Maszyny latające', short: 'Maszyny',
      features: { flier: 'maszyna latająca' },
      rules: {
        FLIER_NO_MACHINE: 'Lot z kafelka bez maszyny latającej.',
        FLIER_USED: 'Maszyna latająca tej tury została już użyta (widmo po locie innej figurki).',
        FLIER_BAD_ROLL: 'Wynik rzutu kostką jest spoza zakresu 1–3.',
        FLIER_WRONG_TARGET: 'Lotnik wylądował na innym kafelku niż ten, na który wskazuje rzut.',
        FLIER_NO_TILE: 'Lotnik wylądował tam, gdzie nie ma kafelka.',
        FLIER_FIELD: 'Lotnik nigdy nie ląduje na łące.',
        FLIER_COMPLETED: 'Lotnik nie może wylądować na ukończonym obszarze (także ukończonym w tej turze).',
        FLIER_BAD_FEATURE: 'Lotnik wylądował na maszynie latającej albo poza jakimkolwiek obszarem.',
        FLIER_MUST_LAND: 'Figurka wróciła do zapasu, choć było prawidłowe miejsce lądowania.',
      },
    },
    ca: {
      name: 'Les màquines voladores', short: 'Màquines',
      features: { flier: 'màquina voladora' },
      rules: {
        FLIER_NO_MACHINE: 'Un vol des d’una peça sense màquina voladora.',
        FLIER_USED: 'La màquina voladora d’aquest torn ja s’havia fet servir (un fantasma després que volés una altra figura).',
        FLIER_BAD_ROLL: 'La tirada del dau és fora de l’interval d’1 a 3.',
        FLIER_WRONG_TARGET: 'El volador va aterrar en una peça diferent de la que indica la tirada.',
        FLIER_NO_TILE: 'El volador va aterrar on no hi ha cap peça.',
        FLIER_FIELD: 'Un volador mai no aterra en un camp.',
        FLIER_COMPLETED: 'Un volador no pot aterrar en un element completat (també si s’ha completat aquest torn).',
        FLIER_BAD_FEATURE: 'El volador va aterrar en una màquina voladora o en cap element.',
        FLIER_MUST_LAND: 'La figura va tornar a la reserva tot i que hi havia un aterratge vàlid.',
      },
    },
    de: {
      name: 'Die Fliegenden Holzmaschinen', short: 'Flugmaschinen',
      features: { flier: 'Flugmaschine' },
      rules: {
        FLIER_NO_MACHINE: 'Ein Flug von einem Plättchen ohne Flugmaschine.',
        FLIER_USED: 'Die Flugmaschine dieses Zuges war schon benutzt (ein Phantom, nachdem eine andere Figur flog).',
        FLIER_BAD_ROLL: 'Der Wurf liegt nicht zwischen 1 und 3.',
        FLIER_WRONG_TARGET: 'Der Flieger landete auf einem anderen Plättchen als dem, auf das der Wurf zeigt.',
        FLIER_NO_TILE: 'Der Flieger landete, wo kein Plättchen liegt.',
        FLIER_FIELD: 'Ein Flieger landet nie auf einer Wiese.',
        FLIER_COMPLETED: 'Ein Flieger kann nicht auf einem abgeschlossenen Gebiet landen (auch nicht auf einem in diesem Zug abgeschlossenen).',
        FLIER_BAD_FEATURE: 'Der Flieger landete auf einer Flugmaschine oder auf keinem Gebiet.',
        FLIER_MUST_LAND: 'Die Figur ging in den Vorrat zurück, obwohl eine gültige Landung möglich war.',
      },
    },
  },
  features: {
    // a tile whose definition names a direction (def.flier) has one even
    // without its segment
    flier: { name: 'flying machine', shape: 'inner', place: 'pole', r: 14, clear: 6, ring: 4, order: 1, tokens: true, implied: 'flier' },
  },
  draw: {
    inner(g, geo, ctx) {
      const f = geo.inner.get('flier');
      if (!f) return;
      const [fx, fy] = f.at;
      const angle = DIR_ANGLE[(ctx.def && ctx.def.flier) || 'N'] ?? 0;
      g.appendChild(s('g', { class: 'flier', transform: `translate(${fx} ${fy}) rotate(${angle})` },
        s('path', { class: 'flier-arrow', d: 'M0 -7V-26' }),
        s('path', { class: 'flier-head', d: 'M0 -34L-6 -24H6Z' }),
        s('ellipse', { class: 'flier-wing', cx: 0, cy: 3, rx: 16, ry: 4.5 }),
        s('ellipse', { class: 'flier-wing', cx: 0, cy: 10, rx: 9, ry: 3 }),
        s('ellipse', { class: 'flier-body', cx: 0, cy: 2, rx: 4.5, ry: 10 })));
    },
  },
  rules: {
    FLIER_NO_MACHINE: [18, 'A flight from a tile without a flying machine.'],
    FLIER_USED: [19, 'The flying machine of this turn was already used (a phantom after another figure flew).'],
    FLIER_BAD_ROLL: [20, 'The die roll is outside 1 to 3.'],
    FLIER_WRONG_TARGET: [21, 'The flier landed on another tile than the one the roll points to.'],
    FLIER_NO_TILE: [22, 'The flier landed where there is no tile.'],
    FLIER_FIELD: [23, 'A flier never lands on a field.'],
    FLIER_COMPLETED: [24, 'A flier cannot land on a completed feature (including one completed this turn).'],
    FLIER_BAD_FEATURE: [25, 'The flier landed on a flying machine or on no feature.'],
    FLIER_MUST_LAND: [26, 'The meeple went back to supply although a valid landing existed.'],
  },
};
