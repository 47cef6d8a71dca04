// rating.js - a player's rating history and flier luck on their page
// (docs/api.md, GET /api/players/{name}: "rating", "luck").

import { h, s, fmtNum } from './dom.js';
import { t, fmtFixed } from './i18n/index.js';

export const RATING_NOTE = t('rating.note');

/** The rating after each rated game, as a line over the games. */
export function ratingChart(r) {
  const pts = (r && r.history) || [];
  const W = 420, H = 200, L = 40, R = 10, T = 10, B = 26;
  const vals = pts.map((p) => p.rating);
  let lo = Math.min(0, ...vals), hi = Math.max(1, ...vals);
  if (hi - lo < 1) hi = lo + 1;
  const n = Math.max(2, pts.length);
  const x = (i) => L + ((W - L - R) * i) / (n - 1);
  const y = (v) => T + (H - T - B) * (1 - (v - lo) / (hi - lo));
  const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, class: 'chart-svg rating-chart', role: 'img', 'aria-label': t('rating.chartLabel'), dataset: { testid: 'rating-chart' } });
  for (const t of [lo, (lo + hi) / 2, hi]) {
    svg.appendChild(s('line', { class: 'grid', x1: L, x2: W - R, y1: y(t), y2: y(t) }));
    svg.appendChild(s('text', { class: 'axis', x: L - 5, y: y(t) + 4, 'text-anchor': 'end', text: t.toFixed(1) }));
  }
  svg.appendChild(s('text', { class: 'axis', x: (W + L) / 2, y: H - 8, 'text-anchor': 'middle', text: `${pts.length} rated game${pts.length === 1 ? '' : 's'}` }));
  const d = pts.map((p, i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)} ${y(p.rating).toFixed(1)}`).join('');
  svg.appendChild(s('path', { class: 'series rating-line', d, stroke: 'currentColor', fill: 'none' }));
  pts.forEach((p, i) => {
    const c = s('circle', { class: 'rating-dot', r: 3, cx: x(i), cy: y(p.rating), dataset: { game: String(p.game_id) } });
    c.appendChild(s('title', { text: t('rating.point', { id: p.game_id, rating: fmtFixed(p.rating) }) }));
    svg.appendChild(c);
  });
  return h('figure', { class: 'chart' }, h('figcaption', { text: t('rating.history') }), svg);
}

/** The rating card: the figure, its history and what it means. */
export function ratingSection(r) {
  if (!r) {
    return h('section', { class: 'card', dataset: { testid: 'rating' } }, h('h2', { text: t('rating.title') }),
      h('p', { class: 'muted', text: t('rating.none') }), h('p', { class: 'note', text: RATING_NOTE }));
  }
  return h('section', { class: 'card', dataset: { testid: 'rating' } }, h('h2', { text: t('rating.title') }),
    h('p', { dataset: { testid: 'rating-value' } }, h('strong', { text: fmtFixed(r.rating) }),
      ` ${t('rating.after', { n: r.games, mu: fmtFixed(r.mu), sigma: fmtFixed(r.sigma) })}`),
    ratingChart(r), h('p', { class: 'note', text: RATING_NOTE }));
}

/** "+3.00" / "−1.50": a luck figure with its sign. */
export const signed = (x) => (x > 0 ? '+' : x < 0 ? '−' : '') + fmtFixed(Math.abs(x));

/** What a luck figure says, in words: within one spread is ordinary. */
export function luckWords(luck, spread) {
  const z = spread > 0 ? luck / spread : 0;
  return t(Math.abs(z) < 1 ? 'luck.fair'
    : Math.abs(z) < 2 ? (z > 0 ? 'luck.someLuckier' : 'luck.someUnluckier')
      : (z > 0 ? 'luck.muchLuckier' : 'luck.muchUnluckier'));
}

/** "landed 3.00 more times than the odds predicted; a spread of 1.20
 * means ±1.20 is ordinary chance" */
export function luckSentence(luck, spread) {
  const more = fmtFixed(Math.abs(luck));
  return t(luck > 0 ? 'luck.more' : luck < 0 ? 'luck.fewer' : 'luck.same', { more, spread: fmtFixed(spread) });
}

export const LUCK_NOTE = t('luck.note');

/** Landings against what the dice promised, said in plain words, and the
 * points the flights won. */
export function luckSection(l) {
  if (!l || !l.flights) {
    return h('section', { class: 'card', dataset: { testid: 'luck' } }, h('h2', { text: t('luck.title') }),
      h('p', { class: 'muted', text: t('luck.noFlights') }),
      l && l.points ? h('p', { dataset: { testid: 'luck-points' }, text: t('luck.pointsShort', { points: fmtNum(l.points) }) }) : null);
  }
  return h('section', { class: 'card', dataset: { testid: 'luck' } }, h('h2', { text: t('luck.title') }),
    h('p', { dataset: { testid: 'luck-text' }, text: t('luck.text', { landed: fmtNum(l.landed), n: l.flights, expected: fmtFixed(l.expected), luck: signed(l.luck), spread: fmtFixed(l.spread), words: luckWords(l.luck, l.spread) }) }),
    h('p', { dataset: { testid: 'luck-plain' }, text: t('luck.plain', { sentence: luckSentence(l.luck, l.spread) }) }),
    h('p', { dataset: { testid: 'luck-points' } }, `${t('luck.points')} `, h('strong', { text: fmtNum(l.points || 0) }),
      ` — ${t('luck.pointsWhat')}`),
    h('p', { class: 'note', text: LUCK_NOTE }));
}
