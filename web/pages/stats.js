// pages/stats.js - statistics over every game (/stats) and per player
// (/stats?player=NAME): score distribution, points by feature type, flier
// uses and landing rates by roll and by direction, die fairness, and a
// leaderboard.

import { h, clear, fmtDate, fmtNum, fmtPct } from '../dom.js';
import { getJSON } from '../api.js';
import { barChart, hbarChart, dieChart } from '../charts.js';
import { setQuery } from '../router.js';
import { FEATURES, featureName } from '../figures.js';
import { t, fmtFixed } from '../i18n/index.js';
import { ratingSection, luckSection, luckSentence, luckWords, signed, LUCK_NOTE, RATING_NOTE } from '../rating.js';

// Features their units chart always (charted), the others when someone
// scored with them; in their rank, those without one last.
function chartedFeatures(...points) {
  const known = Object.keys(FEATURES).filter((f) => FEATURES[f].rank !== undefined).sort((a, b) => FEATURES[a].rank - FEATURES[b].rank);
  const seen = new Set(known.filter((f) => FEATURES[f].charted));
  for (const pts of points) for (const [f, v] of Object.entries(pts || {})) if (v) seen.add(f);
  return [...seen].sort((a, b) => (known.indexOf(a) + 1 || 1e9) - (known.indexOf(b) + 1 || 1e9));
}
const featureBars = (list, pts) => list.map((f) => ({ label: featureName(f), value: pts[f] || 0, cls: `bar-${f}` }));
// Points by feature over everyone is the sum of the players' own figures;
// beyond this many players the global chart counts the most active ones.
const MAX_PLAYER_DETAILS = 60;

const tile = (label, value, sub, testid) => h('div', { class: 'stat', dataset: { testid } },
  h('span', { class: 'stat-value', text: value }), h('span', { class: 'stat-label', text: label }), sub ? h('span', { class: 'stat-sub', text: sub }) : null);

const DIR_LABEL = { orthogonal: t('stats.orthogonal'), diagonal: t('stats.diagonal') };

const playerHref = (name) => `/stats?player=${encodeURIComponent(name)}`;

function flierCharts(fl) {
  const byRoll = (fl.by_roll || []).map((r) => ({ label: t('die.roll', { roll: r.roll }), value: r.landing_rate === null ? 0 : r.landing_rate * 100, title: r.landing_rate === null ? '–' : fmtPct(r.landing_rate), sub: t('stats.flights', { n: r.flights }), cls: 'bar-flier' }));
  const dirs = fl.by_direction || {};
  const byDir = ['orthogonal', 'diagonal'].filter((k) => dirs[k]).map((k) => ({ label: DIR_LABEL[k], value: dirs[k].landing_rate === null ? 0 : dirs[k].landing_rate * 100, title: dirs[k].landing_rate === null ? '–' : fmtPct(dirs[k].landing_rate), sub: t('stats.flights', { n: dirs[k].flights }), cls: 'bar-flier' }));
  const pct = (v) => fmtPct(v / 100);
  return [
    barChart(byRoll, { title: t('stats.rateByRoll'), xLabel: t('die.axisRoll'), yLabel: t('stats.landingRate'), max: 100, format: pct }),
    barChart(byDir, { title: t('stats.rateByDir'), xLabel: t('stats.direction'), yLabel: t('stats.landingRate'), max: 100, format: pct }),
  ];
}

// The flier's luck over all games (docs/api.md, /api/stats "flier"): by
// direction, which the tile fixes before the die is rolled, landings
// against the odds; by roll, no luck (once the die shows, its square
// decides), but how often each number came and landed against the chance
// its flights had before the roll.
function luckCard(fl) {
  const dirs = fl.by_direction || {};
  const rows = [[t('stats.allDirections'), fl, 'luck-all'], ...['orthogonal', 'diagonal'].filter((k) => dirs[k]).map((k) => [DIR_LABEL[k], dirs[k], `luck-${k}`])]
    .filter(([, r]) => typeof r.expected === 'number');
  if (!rows.length || !(fl.landed + fl.returned)) {
    return h('section', { class: 'card', dataset: { testid: 'luck-stats' } }, h('h2', { text: t('luck.title') }),
      h('p', { class: 'muted', text: t('luck.noFlights') }));
  }
  // the landings the luck counts: a die's rolls only, so landed = expected + luck
  const landed = (r) => Math.round(r.expected + r.luck);
  const num = (text, testid) => h('td', { class: 'num', dataset: testid ? { testid } : undefined, text });
  const dirTable = h('div', { class: 'table-wrap' }, h('table', { class: 'report', dataset: { testid: 'luck-by-direction' } },
    h('caption', { text: t('stats.byDirCaption') }),
    h('thead', null, h('tr', null, [t('stats.direction'), `#${t('stats.landed')}`, `#${t('stats.expected')}`, `#${t('stats.luck')}`, `#${t('stats.spread')}`, `#${t('stats.pointsWon')}`, t('stats.inWords')].map((c) => h('th', { scope: 'col', class: c.startsWith('#') ? 'num' : null, text: c.replace('#', '') })))),
    h('tbody', null, rows.map(([label, r, testid]) => h('tr', { dataset: { testid } },
      h('th', { scope: 'row', text: label }),
      num(fmtNum(landed(r))), num(fmtFixed(r.expected)), num(signed(r.luck), 'luck-value'), num(fmtFixed(r.spread)),
      num(fmtNum(r.points || 0)),
      h('td', { text: luckWords(r.luck, r.spread) }))))));
  const all = rows[0][1];
  const rolls = (fl.by_roll || []).filter((r) => typeof r.expected === 'number');
  const nRolls = rolls.reduce((a, r) => a + r.flights, 0);
  const rollTable = h('div', { class: 'table-wrap' }, h('table', { class: 'report', dataset: { testid: 'luck-by-roll' } },
    h('caption', { text: t('stats.byRollCaption') }),
    h('thead', null, h('tr', null, [t('audit.roll'), `#${t('games.col.flights')}`, `#${t('stats.share')}`, `#${t('stats.landingRateCol')}`, `#${t('stats.chanceBefore')}`, `#${t('stats.pointsWon')}`].map((c) => h('th', { scope: 'col', class: c.startsWith('#') ? 'num' : null, text: c.replace('#', '') })))),
    h('tbody', null, rolls.map((r) => {
      const decided = r.landed + r.returned;
      return h('tr', { dataset: { testid: `luck-roll-${r.roll}` } },
        h('th', { scope: 'row', text: String(r.roll) }),
        num(fmtNum(r.flights)), num(nRolls ? fmtPct(r.flights / nRolls) : '–'),
        num(fmtPct(r.landing_rate)), num(decided ? fmtPct(r.expected / decided) : '–', 'roll-chance'),
        num(fmtNum(r.points || 0)));
    }))));
  return h('section', { class: 'card', dataset: { testid: 'luck-stats' } }, h('h2', { text: t('stats.luckAll') }),
    h('p', { dataset: { testid: 'luck-stats-text' }, text: t('stats.luckText', { sentence: luckSentence(all.luck, all.spread), landed: fmtNum(landed(all)), expected: fmtFixed(all.expected), words: luckWords(all.luck, all.spread), points: fmtNum(all.points || 0) }) }),
    dirTable,
    h('p', { class: 'note', text: t('stats.dirNote') }),
    rollTable,
    h('p', { class: 'note', dataset: { testid: 'luck-roll-note' }, text: t('stats.rollNote') }),
    h('p', { class: 'note', text: LUCK_NOTE }));
}

function leaderboard(players, onSort, sort) {
  const cols = [['name', t('games.player')], ['games', t('games.title')], ['wins', t('stats.wins')], ['average', t('stats.average')], ['best', t('games.col.best')], ['flights', t('games.col.flights')], ['landing_rate', t('stats.landingRateCol')], ['rating', t('rating.title')]];
  const sorted = players.slice().sort((a, b) => {
    const k = sort.key;
    const va = a[k] ?? -1, vb = b[k] ?? -1;
    const c = typeof va === 'string' ? va.localeCompare(vb) : va - vb;
    return (sort.asc ? c : -c) || a.name.localeCompare(b.name);
  });
  return h('div', { class: 'table-wrap' }, h('table', { class: 'report leaderboard', dataset: { testid: 'leaderboard' } },
    h('caption', { class: 'sr-only', text: t('stats.leaderboard') }),
    h('thead', null, h('tr', null, h('th', { scope: 'col', class: 'num', text: '#' }), cols.map(([k, label]) => h('th', {
      scope: 'col', class: k === 'name' ? null : 'num', 'aria-sort': sort.key === k ? (sort.asc ? 'ascending' : 'descending') : 'none',
    }, h('button', { type: 'button', class: 'sort', on: { click: () => onSort(k) } }, label,
      h('span', { class: 'sort-ind', 'aria-hidden': 'true', text: sort.key === k ? (sort.asc ? '▲' : '▼') : '↕' })))))),
    h('tbody', null, sorted.map((p, i) => h('tr', null,
      h('td', { class: 'num muted', text: String(i + 1) }),
      h('th', { scope: 'row' }, h('a', { href: playerHref(p.name), text: p.name })),
      h('td', { class: 'num', text: fmtNum(p.games) }),
      h('td', { class: 'num', text: fmtNum(p.wins) }),
      h('td', { class: 'num', text: fmtNum(p.average, 1) }),
      h('td', { class: 'num', text: fmtNum(p.best) }),
      h('td', { class: 'num', text: fmtNum(p.flights) }),
      h('td', { class: 'num', text: fmtPct(p.landing_rate) }),
      h('td', { class: 'num', dataset: { testid: 'rating-cell' }, text: p.rating === null || p.rating === undefined ? '–' : fmtFixed(p.rating) }))))));
}

function globalStats(root, alive) {
  document.title = `${t('nav.stats')} · flierd`;
  root.appendChild(h('div', { class: 'page-head' }, h('h1', { tabindex: -1, text: t('nav.stats') }), root.searchForm));
  const body = h('div', null, h('p', { class: 'loading', text: t('common.loading') }));
  root.appendChild(body);
  Promise.all([getJSON('/api/stats'), getJSON('/api/players')]).then(async ([st, pl]) => {
    if (!alive()) return;
    clear(body);
    const g = st.games || {}, fl = st.flier || {}, vi = st.violations || {};
    body.appendChild(h('div', { class: 'stat-grid' },
      tile(t('stats.tileGames'), fmtNum(g.total), [`${t('stats.finishedN', { n: g.finished })} · ${t('stats.liveN', { n: g.live })}`, ...Object.entries(g.by_edition || {}).map(([k, n]) => `${k}: ${fmtNum(n)}`)].join(' · '), 'stat-games'),
      tile(t('verdict.valid'), fmtNum(g.valid), g.total ? fmtPct(g.valid / g.total) : ''),
      tile(t('stats.withViolations'), fmtNum(g.invalid), t('verdict.violations', { n: vi.total || 0 })),
      g.unsupported ? tile(t('verdict.notAudited'), fmtNum(g.unsupported), t('stats.unsupportedSub')) : null,
      tile(t('stats.tileFlights'), fmtNum(fl.flights), `${t('stats.landedN', { n: fl.landed || 0 })} · ${t('stats.returnedN', { n: fl.returned || 0 })}`),
      tile(t('stats.landingRate'), fmtPct(fl.landing_rate), t('stats.forced', { n: fl.forced_returns || 0 })),
      // what the tile counts, not the games by edition it used to show
      tile(t('stats.tilePlayers'), fmtNum((pl.players || []).length), t('stats.playersSub'), 'stat-players')));

    const hist = (st.scores && st.scores.histogram) || [];
    const pointsFig = h('div', { class: 'chart-slot' }, h('p', { class: 'loading', text: t('stats.adding') }));
    const charts = h('div', { class: 'chart-grid' },
      barChart(hist.map((b) => ({ label: `${b.from}–${b.to}`, value: b.count, cls: 'bar-score' })), { title: t('audit.finalScores'), xLabel: t('stats.score'), yLabel: t('stats.players'), note: t('stats.finalNote', { n: st.scores ? st.scores.count : 0 }) }),
      pointsFig,
      ...flierCharts(fl),
      dieChart(st.die, t('stats.dieAll')),
      hbarChart(Object.entries(vi.by_rule || {}).sort((a, b) => b[1] - a[1]).map(([r, n]) => ({ label: r, value: n, cls: 'bar-bad' })), { title: t('stats.byRule'), empty: t('stats.noViolations'), labelWidth: 200, width: 400 }));
    body.appendChild(h('section', { class: 'card' }, h('h2', { text: t('stats.charts') }), charts));
    body.appendChild(luckCard(fl));

    const sort = { key: 'wins', asc: false };
    const lbSlot = h('div');
    const drawLb = () => { lbSlot.replaceChildren(leaderboard(pl.players || [], (k) => { if (sort.key === k) sort.asc = !sort.asc; else { sort.key = k; sort.asc = k === 'name'; } drawLb(); }, sort)); };
    drawLb();
    body.appendChild(h('section', { class: 'card' }, h('h2', { text: t('stats.leaderboard') }), lbSlot,
      h('p', { class: 'note', dataset: { testid: 'rating-note' }, text: RATING_NOTE })));

    const dbp = (st.die_by_player || []).filter((d) => d.n > 0);
    if (dbp.length) {
      body.appendChild(h('section', { class: 'card' }, h('h2', { text: t('stats.dieByPlayer') }),
        h('div', { class: 'table-wrap' }, h('table', { class: 'report' },
          h('thead', null, h('tr', null, [t('games.player'), `#${t('stats.rolls')}`, '#1', '#2', '#3', '#χ²', '#p'].map((c) => h('th', { scope: 'col', class: c.startsWith('#') ? 'num' : null, text: c.replace('#', '') })))),
          h('tbody', null, dbp.map((d) => h('tr', { class: d.p_value !== null && d.p_value < 0.05 ? 'flag' : null },
            h('th', { scope: 'row' }, h('a', { href: playerHref(d.name), text: d.name })),
            h('td', { class: 'num', text: String(d.n) }),
            ...d.rolls.map((r) => h('td', { class: 'num', text: String(r) })),
            h('td', { class: 'num', text: d.chi_square === null ? '–' : fmtFixed(d.chi_square, 2) }),
            h('td', { class: 'num', text: d.p_value === null ? '–' : fmtFixed(d.p_value, 3) }))))))));
    }

    // Points by feature over everyone: the sum of the players' own figures.
    // (A name with a slash cannot be looked up: /api/players/{name} takes one path segment.)
    const list = (pl.players || []).filter((p) => !p.name.includes('/')).sort((a, b) => b.games - a.games).slice(0, MAX_PLAYER_DETAILS);
    const details = await Promise.all(list.map((p) => getJSON(`/api/players/${encodeURIComponent(p.name)}`).catch(() => null)));
    if (!alive()) return;
    const features = chartedFeatures(...details.map((d) => d && d.points));
    const sum = Object.fromEntries(features.map((f) => [f, 0]));
    for (const d of details) if (d && d.points) for (const f of features) sum[f] += d.points[f] || 0;
    const truncated = (pl.players || []).length > list.length;
    // The note says when some players are left out (too many, or a name /api/players/{name} cannot reach).
    pointsFig.replaceChildren(hbarChart(featureBars(features, sum), {
      title: t('stats.byFeature'), labelWidth: 100, width: 380,
      note: truncated ? t('stats.mostActive', { n: list.length, all: fmtNum(pl.players.length) }) : t('stats.allPlayers'),
    }));
  }).catch((e) => {
    if (!alive()) return;
    body.replaceChildren(h('p', { class: 'error', role: 'alert', text: t('stats.loadError', { error: e.message }) }));
  });
}

function playerStats(root, name, alive) {
  document.title = `${name} · ${t('nav.stats')} · flierd`;
  root.appendChild(h('p', { class: 'crumbs' }, h('a', { href: '/stats', text: t('nav.stats') }), ` / ${t('stats.playerCrumb')}`));
  root.appendChild(h('div', { class: 'page-head' }, h('h1', { tabindex: -1, text: name }),
    h('div', { class: 'head-actions' }, h('a', { class: 'btn', href: `/?player=${encodeURIComponent(name)}`, text: t('stats.allTheirGames') }), root.searchForm)));
  const body = h('div', null, h('p', { class: 'loading', text: t('common.loading') }));
  root.appendChild(body);
  // /api/players/{name} takes one path segment, so a name with a slash
  // cannot be asked for: show its line of /api/players instead.
  const detail = name.includes('/')
    ? getJSON('/api/players').then((d) => {
      const p = (d.players || []).find((x) => x.name === name);
      if (!p) throw Object.assign(new Error('no such player'), { status: 404 });
      return { ...p, partial: true };
    })
    : getJSON(`/api/players/${encodeURIComponent(name)}`);
  detail.then((p) => {
    if (!alive()) return;
    clear(body);
    body.appendChild(h('div', { class: 'stat-grid' },
      tile(t('stats.tileGames'), fmtNum(p.games), t('stats.finishedN', { n: p.finished_games || 0 })),
      tile(t('stats.tileWins'), fmtNum(p.wins), p.finished_games ? fmtPct(p.wins / p.finished_games) : ''),
      tile(t('stats.averageScore'), fmtNum(p.average, 1), t('stats.bestN', { best: fmtNum(p.best) })),
      tile(t('stats.tileFlights'), fmtNum(p.flights), `${t('stats.landedN', { n: p.landed || 0 })} · ${t('stats.returnedN', { n: p.returned || 0 })}`),
      tile(t('stats.landingRate'), fmtPct(p.landing_rate), t('stats.forced', { n: p.forced_returns || 0 })),
      tile(t('stats.pointsAfter'), fmtNum(p.flier_points), t('stats.pointsAfterSub'))));
    if (p.partial) {
      body.appendChild(h('p', { class: 'notice', text: t('stats.slash') }));
      return;
    }
    const pts = p.points || {};
    body.appendChild(h('section', { class: 'card' }, h('h2', { text: t('stats.charts') }), h('div', { class: 'chart-grid' },
      hbarChart(featureBars(chartedFeatures(pts), pts), { title: t('stats.byFeature'), labelWidth: 100, width: 380 }),
      dieChart(p.die, t('stats.diePlayer', { name })),
      barChart([
        { label: t('audit.landed'), value: p.landed || 0, cls: 'bar-ok' },
        // a flier must land where it can: a return with a landing possible
        // is a rule broken (a landing refused, or none made), not a choice
        { label: t('audit.returned'), value: Math.max(0, (p.returned || 0) - (p.forced_returns || 0)), cls: 'bar-bad', sub: t('stats.ruleBroken') },
        { label: t('stats.noLanding'), value: p.forced_returns || 0, cls: 'bar-neutral', sub: t('stats.nonePossible') },
      ], { title: t('stats.flierUses'), yLabel: t('stats.flightsAxis') }))));
    body.appendChild(ratingSection(p.rating));
    body.appendChild(luckSection(p.luck));
    const recent = p.recent || [];
    body.appendChild(h('section', { class: 'card' }, h('h2', { text: t('stats.recent') }),
      recent.length ? h('div', { class: 'table-wrap' }, h('table', { class: 'report' },
        h('thead', null, h('tr', null, [t('games.col.game'), t('games.col.date'), t('games.col.edition'), `#${t('stats.seat')}`, `#${t('stats.score')}`, `#${t('audit.rank')}`, t('games.col.verdict'), `#${t('games.col.flights')}`].map((c) => h('th', { scope: 'col', class: c.startsWith('#') ? 'num' : null, text: c.replace('#', '') })))),
        h('tbody', null, recent.map((g) => h('tr', { class: g.winner ? 'winner' : null },
          h('th', { scope: 'row' }, h('a', { href: `/games/${g.id}`, text: g.name ? g.name.split('/').pop() : t('game.untitled', { id: g.id }) })),
          h('td', { text: fmtDate(g.uploaded_at, false) }),
          h('td', { text: g.edition }),
          h('td', { class: 'num', text: String(g.seat + 1) }),
          h('td', { class: 'num', text: String(g.score) }, g.claimed !== null && g.claimed !== g.score ? h('span', { class: 'claimed', text: ` (${t('games.claimed', { score: g.claimed })})` }) : null),
          h('td', { class: 'num', text: String(g.rank) }),
          h('td', null, h('span', { class: ['badge', g.valid ? 'ok' : 'bad'], text: g.valid ? t('verdict.valid') : t('stats.violationsBadge') })),
          h('td', { class: 'num', text: `${g.flights}` }))))))
        : h('p', { class: 'muted', text: t('stats.noGames') })));
  }).catch((e) => {
    if (!alive()) return;
    body.replaceChildren(h('p', { class: 'error', role: 'alert', text: e.status === 404 ? t('stats.noPlayer', { name }) : t('stats.playerError', { error: e.message }) }));
  });
}

export function statsPage(main, _params, query) {
  let alive = true;
  const root = h('section', { class: 'page stats' });
  main.appendChild(root);
  const name = query.get('player');
  // A form to look up a player by name.
  const input = h('input', { id: 'player-q', type: 'search', list: 'stats-players', placeholder: t('stats.playerName'), value: name || '', autocomplete: 'off' });
  const dl = h('datalist', { id: 'stats-players' });
  const form = h('form', { class: 'player-search', role: 'search', on: { submit: (e) => { e.preventDefault(); const v = input.value.trim(); setQuery({ player: v }, false); window.dispatchEvent(new Event('flierd:navigate')); } } },
    h('label', { for: 'player-q', text: t('games.player') }), input, dl, h('button', { type: 'submit', class: 'btn small', text: t('stats.show') }));
  getJSON('/api/players').then((d) => { for (const p of d.players || []) dl.appendChild(h('option', { value: p.name })); }).catch(() => {});
  root.searchForm = form;
  if (name) playerStats(root, name, () => alive);
  else globalStats(root, () => alive);
  return () => { alive = false; };
}
