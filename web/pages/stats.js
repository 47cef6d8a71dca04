// pages/stats.js - statistics over every game (/stats) and per player
// (/stats?player=NAME): score distribution, points by feature type, flier
// uses and landing rates by roll and by direction, die fairness, and a
// leaderboard.

import { h, clear, fmtDate, fmtNum, fmtPct } from '../dom.js';
import { getJSON } from '../api.js';
import { barChart, hbarChart, dieChart } from '../charts.js';
import { setQuery } from '../router.js';
import { FEATURES, featureName } from '../figures.js';
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

const playerHref = (name) => `/stats?player=${encodeURIComponent(name)}`;

function flierCharts(fl) {
  const byRoll = (fl.by_roll || []).map((r) => ({ label: `roll ${r.roll}`, value: r.landing_rate === null ? 0 : r.landing_rate * 100, title: r.landing_rate === null ? '–' : fmtPct(r.landing_rate), sub: `${r.flights} flights`, cls: 'bar-flier' }));
  const dirs = fl.by_direction || {};
  const byDir = ['orthogonal', 'diagonal'].filter((k) => dirs[k]).map((k) => ({ label: k, value: dirs[k].landing_rate === null ? 0 : dirs[k].landing_rate * 100, title: dirs[k].landing_rate === null ? '–' : fmtPct(dirs[k].landing_rate), sub: `${dirs[k].flights} flights`, cls: 'bar-flier' }));
  const pct = (v) => `${Math.round(v)}%`;
  return [
    barChart(byRoll, { title: 'Landing rate by roll', xLabel: 'roll', yLabel: 'landing rate', max: 100, format: pct }),
    barChart(byDir, { title: 'Landing rate by direction', xLabel: 'direction', yLabel: 'landing rate', max: 100, format: pct }),
  ];
}

// The flier's luck over all games (docs/api.md, /api/stats "flier"): by
// direction, which the tile fixes before the die is rolled, landings
// against the odds; by roll, no luck (once the die shows, its square
// decides), but how often each number came and landed against the chance
// its flights had before the roll.
function luckCard(fl) {
  const dirs = fl.by_direction || {};
  const rows = [['all directions', fl, 'luck-all'], ...['orthogonal', 'diagonal'].filter((k) => dirs[k]).map((k) => [k, dirs[k], `luck-${k}`])]
    .filter(([, r]) => typeof r.expected === 'number');
  if (!rows.length || !(fl.landed + fl.returned)) {
    return h('section', { class: 'card', dataset: { testid: 'luck-stats' } }, h('h2', { text: 'Flier luck' }),
      h('p', { class: 'muted', text: 'No flight with a landing or a return yet.' }));
  }
  // the landings the luck counts: a die's rolls only, so landed = expected + luck
  const landed = (r) => Math.round(r.expected + r.luck);
  const num = (text, testid) => h('td', { class: 'num', dataset: testid ? { testid } : undefined, text });
  const dirTable = h('div', { class: 'table-wrap' }, h('table', { class: 'report', dataset: { testid: 'luck-by-direction' } },
    h('caption', { text: 'By direction: landings against the odds' }),
    h('thead', null, h('tr', null, ['Direction', '#Landed', '#Expected', '#Luck', '#Spread (±)', '#Points won', 'In words'].map((c) => h('th', { scope: 'col', class: c.startsWith('#') ? 'num' : null, text: c.replace('#', '') })))),
    h('tbody', null, rows.map(([label, r, testid]) => h('tr', { dataset: { testid } },
      h('th', { scope: 'row', text: label }),
      num(fmtNum(landed(r))), num(r.expected.toFixed(2)), num(signed(r.luck), 'luck-value'), num(r.spread.toFixed(2)),
      num(fmtNum(r.points || 0)),
      h('td', { text: luckWords(r.luck, r.spread) }))))));
  const all = rows[0][1];
  const rolls = (fl.by_roll || []).filter((r) => typeof r.expected === 'number');
  const nRolls = rolls.reduce((a, r) => a + r.flights, 0);
  const rollTable = h('div', { class: 'table-wrap' }, h('table', { class: 'report', dataset: { testid: 'luck-by-roll' } },
    h('caption', { text: 'By roll: how often each number came and landed' }),
    h('thead', null, h('tr', null, ['Roll', '#Flights', '#Share', '#Landing rate', '#Chance before the roll', '#Points won'].map((c) => h('th', { scope: 'col', class: c.startsWith('#') ? 'num' : null, text: c.replace('#', '') })))),
    h('tbody', null, rolls.map((r) => {
      const decided = r.landed + r.returned;
      return h('tr', { dataset: { testid: `luck-roll-${r.roll}` } },
        h('th', { scope: 'row', text: String(r.roll) }),
        num(fmtNum(r.flights)), num(nRolls ? fmtPct(r.flights / nRolls) : '–'),
        num(fmtPct(r.landing_rate)), num(decided ? fmtPct(r.expected / decided) : '–', 'roll-chance'),
        num(fmtNum(r.points || 0)));
    }))));
  return h('section', { class: 'card', dataset: { testid: 'luck-stats' } }, h('h2', { text: 'Flier luck over all games' }),
    h('p', { dataset: { testid: 'luck-stats-text' }, text: `Over all games the fliers ${luckSentence(all.luck, all.spread)} (${fmtNum(landed(all))} landings, ${all.expected.toFixed(2)} expected): ${luckWords(all.luck, all.spread)}. Flights won ${fmtNum(all.points || 0)} points.` }),
    dirTable,
    h('p', { class: 'note', text: 'A flight’s direction is fixed by its tile before the die is rolled, so each direction’s landings can be held against the odds: luck is landings minus the expected landings, and the spread says how far chance alone usually strays. Points won: what each flight’s figure won its owner in the scorings it counted in (a scoring two flown figures shared counts for both).' }),
    rollTable,
    h('p', { class: 'note', dataset: { testid: 'luck-roll-note' }, text: 'There is no luck to measure by roll: once the die shows a number, that square decides — a landing if it has room, a return if not. Instead: the share says how often each number came up (a fair die gives a third each), and the landing rate against the chance those flights had before the roll says whether that distance reaches land more often than the odds of the three squares.' }),
    h('p', { class: 'note', text: LUCK_NOTE }));
}

function leaderboard(players, onSort, sort) {
  const cols = [['name', 'Player'], ['games', 'Games'], ['wins', 'Wins'], ['average', 'Average'], ['best', 'Best'], ['flights', 'Flights'], ['landing_rate', 'Landing rate'], ['rating', 'Rating']];
  const sorted = players.slice().sort((a, b) => {
    const k = sort.key;
    const va = a[k] ?? -1, vb = b[k] ?? -1;
    const c = typeof va === 'string' ? va.localeCompare(vb) : va - vb;
    return (sort.asc ? c : -c) || a.name.localeCompare(b.name);
  });
  return h('div', { class: 'table-wrap' }, h('table', { class: 'report leaderboard', dataset: { testid: 'leaderboard' } },
    h('caption', { class: 'sr-only', text: 'Leaderboard' }),
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
      h('td', { class: 'num', dataset: { testid: 'rating-cell' }, text: p.rating === null || p.rating === undefined ? '–' : p.rating.toFixed(2) }))))));
}

function globalStats(root, alive) {
  document.title = 'Statistics · flierd';
  root.appendChild(h('div', { class: 'page-head' }, h('h1', { tabindex: -1, text: 'Statistics' }), root.searchForm));
  const body = h('div', null, h('p', { class: 'loading', text: 'Loading…' }));
  root.appendChild(body);
  Promise.all([getJSON('/api/stats'), getJSON('/api/players')]).then(async ([st, pl]) => {
    if (!alive()) return;
    clear(body);
    const g = st.games || {}, fl = st.flier || {}, vi = st.violations || {};
    body.appendChild(h('div', { class: 'stat-grid' },
      tile('games', fmtNum(g.total), [`${fmtNum(g.finished)} finished · ${fmtNum(g.live)} live`, ...Object.entries(g.by_edition || {}).map(([k, n]) => `${k}: ${fmtNum(n)}`)].join(' · '), 'stat-games'),
      tile('valid', fmtNum(g.valid), g.total ? fmtPct(g.valid / g.total) : ''),
      tile('with violations', fmtNum(g.invalid), `${fmtNum(vi.total)} violations`),
      g.unsupported ? tile('not audited yet', fmtNum(g.unsupported), 'expansions this flierd does not audit') : null,
      tile('flights', fmtNum(fl.flights), `${fmtNum(fl.landed)} landed · ${fmtNum(fl.returned)} returned`),
      tile('landing rate', fmtPct(fl.landing_rate), `${fmtNum(fl.forced_returns)} returned with no landing possible`),
      // what the tile counts, not the games by edition it used to show
      tile('players', fmtNum((pl.players || []).length), 'different names over all games', 'stat-players')));

    const hist = (st.scores && st.scores.histogram) || [];
    const pointsFig = h('div', { class: 'chart-slot' }, h('p', { class: 'loading', text: 'Adding up points by feature…' }));
    const charts = h('div', { class: 'chart-grid' },
      barChart(hist.map((b) => ({ label: `${b.from}–${b.to}`, value: b.count, cls: 'bar-score' })), { title: 'Final scores', xLabel: 'score', yLabel: 'players', note: `${fmtNum(st.scores ? st.scores.count : 0)} final scores of finished games.` }),
      pointsFig,
      ...flierCharts(fl),
      dieChart(st.die, 'Die fairness (all flights)'),
      hbarChart(Object.entries(vi.by_rule || {}).sort((a, b) => b[1] - a[1]).map(([r, n]) => ({ label: r, value: n, cls: 'bar-bad' })), { title: 'Violations by rule', empty: 'no violations', labelWidth: 200, width: 400 }));
    body.appendChild(h('section', { class: 'card' }, h('h2', { text: 'Charts' }), charts));
    body.appendChild(luckCard(fl));

    const sort = { key: 'wins', asc: false };
    const lbSlot = h('div');
    const drawLb = () => { lbSlot.replaceChildren(leaderboard(pl.players || [], (k) => { if (sort.key === k) sort.asc = !sort.asc; else { sort.key = k; sort.asc = k === 'name'; } drawLb(); }, sort)); };
    drawLb();
    body.appendChild(h('section', { class: 'card' }, h('h2', { text: 'Leaderboard' }), lbSlot,
      h('p', { class: 'note', dataset: { testid: 'rating-note' }, text: RATING_NOTE })));

    const dbp = (st.die_by_player || []).filter((d) => d.n > 0);
    if (dbp.length) {
      body.appendChild(h('section', { class: 'card' }, h('h2', { text: 'Die fairness by player' }),
        h('div', { class: 'table-wrap' }, h('table', { class: 'report' },
          h('thead', null, h('tr', null, ['Player', '#Rolls', '#1', '#2', '#3', '#χ²', '#p'].map((c) => h('th', { scope: 'col', class: c.startsWith('#') ? 'num' : null, text: c.replace('#', '') })))),
          h('tbody', null, dbp.map((d) => h('tr', { class: d.p_value !== null && d.p_value < 0.05 ? 'flag' : null },
            h('th', { scope: 'row' }, h('a', { href: playerHref(d.name), text: d.name })),
            h('td', { class: 'num', text: String(d.n) }),
            ...d.rolls.map((r) => h('td', { class: 'num', text: String(r) })),
            h('td', { class: 'num', text: d.chi_square === null ? '–' : Number(d.chi_square).toFixed(2) }),
            h('td', { class: 'num', text: d.p_value === null ? '–' : Number(d.p_value).toFixed(3) }))))))));
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
      title: 'Points by feature type', labelWidth: 100, width: 380,
      note: truncated ? `The ${list.length} most active players of ${pl.players.length}.` : 'All players, all games.',
    }));
  }).catch((e) => {
    if (!alive()) return;
    body.replaceChildren(h('p', { class: 'error', role: 'alert', text: `Could not load the statistics: ${e.message}` }));
  });
}

function playerStats(root, name, alive) {
  document.title = `${name} · Statistics · flierd`;
  root.appendChild(h('p', { class: 'crumbs' }, h('a', { href: '/stats', text: 'Statistics' }), ' / player'));
  root.appendChild(h('div', { class: 'page-head' }, h('h1', { tabindex: -1, text: name }),
    h('div', { class: 'head-actions' }, h('a', { class: 'btn', href: `/?player=${encodeURIComponent(name)}`, text: 'All their games' }), root.searchForm)));
  const body = h('div', null, h('p', { class: 'loading', text: 'Loading…' }));
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
      tile('games', fmtNum(p.games), `${fmtNum(p.finished_games)} finished`),
      tile('wins', fmtNum(p.wins), p.finished_games ? fmtPct(p.wins / p.finished_games) : ''),
      tile('average score', fmtNum(p.average, 1), `best ${fmtNum(p.best)}`),
      tile('flights', fmtNum(p.flights), `${fmtNum(p.landed)} landed · ${fmtNum(p.returned)} returned`),
      tile('landing rate', fmtPct(p.landing_rate), `${fmtNum(p.forced_returns)} returned with no landing possible`),
      tile('points after a flight', fmtNum(p.flier_points), 'scored by meeples that flew')));
    if (p.partial) {
      body.appendChild(h('p', { class: 'notice', text: 'The daemon cannot give the details of a name with a slash (points by feature, die rolls, recent games); these are the totals from the list of players.' }));
      return;
    }
    const pts = p.points || {};
    body.appendChild(h('section', { class: 'card' }, h('h2', { text: 'Charts' }), h('div', { class: 'chart-grid' },
      hbarChart(featureBars(chartedFeatures(pts), pts), { title: 'Points by feature type', labelWidth: 100, width: 380 }),
      dieChart(p.die, `Die fairness (${name}'s rolls)`),
      barChart([
        { label: 'landed', value: p.landed || 0, cls: 'bar-ok' },
        // a flier must land where it can: a return with a landing possible
        // is a rule broken (a landing refused, or none made), not a choice
        { label: 'returned', value: Math.max(0, (p.returned || 0) - (p.forced_returns || 0)), cls: 'bar-bad', sub: 'a landing possible: a rule broken' },
        { label: 'no landing', value: p.forced_returns || 0, cls: 'bar-neutral', sub: 'returned: none possible' },
      ], { title: 'Flier uses', yLabel: 'flights' }))));
    body.appendChild(ratingSection(p.rating));
    body.appendChild(luckSection(p.luck));
    const recent = p.recent || [];
    body.appendChild(h('section', { class: 'card' }, h('h2', { text: 'Recent games' }),
      recent.length ? h('div', { class: 'table-wrap' }, h('table', { class: 'report' },
        h('thead', null, h('tr', null, ['Game', 'Date', 'Edition', '#Seat', '#Score', '#Rank', 'Verdict', '#Flights'].map((c) => h('th', { scope: 'col', class: c.startsWith('#') ? 'num' : null, text: c.replace('#', '') })))),
        h('tbody', null, recent.map((g) => h('tr', { class: g.winner ? 'winner' : null },
          h('th', { scope: 'row' }, h('a', { href: `/games/${g.id}`, text: g.name ? g.name.split('/').pop() : `Game #${g.id}` })),
          h('td', { text: fmtDate(g.uploaded_at, false) }),
          h('td', { text: g.edition }),
          h('td', { class: 'num', text: String(g.seat + 1) }),
          h('td', { class: 'num', text: String(g.score) }, g.claimed !== null && g.claimed !== g.score ? h('span', { class: 'claimed', text: ` (claimed ${g.claimed})` }) : null),
          h('td', { class: 'num', text: String(g.rank) }),
          h('td', null, h('span', { class: ['badge', g.valid ? 'ok' : 'bad'], text: g.valid ? 'valid' : 'violations' })),
          h('td', { class: 'num', text: `${g.flights}` }))))))
        : h('p', { class: 'muted', text: 'No games.' })));
  }).catch((e) => {
    if (!alive()) return;
    body.replaceChildren(h('p', { class: 'error', role: 'alert', text: e.status === 404 ? `No player named “${name}”.` : `Could not load the player: ${e.message}` }));
  });
}

export function statsPage(main, _params, query) {
  let alive = true;
  const root = h('section', { class: 'page stats' });
  main.appendChild(root);
  const name = query.get('player');
  // A form to look up a player by name.
  const input = h('input', { id: 'player-q', type: 'search', list: 'stats-players', placeholder: 'Player name', value: name || '', autocomplete: 'off' });
  const dl = h('datalist', { id: 'stats-players' });
  const form = h('form', { class: 'player-search', role: 'search', on: { submit: (e) => { e.preventDefault(); const v = input.value.trim(); setQuery({ player: v }, false); window.dispatchEvent(new Event('flierd:navigate')); } } },
    h('label', { for: 'player-q', text: 'Player' }), input, dl, h('button', { type: 'submit', class: 'btn small', text: 'Show' }));
  getJSON('/api/players').then((d) => { for (const p of d.players || []) dl.appendChild(h('option', { value: p.name })); }).catch(() => {});
  root.searchForm = form;
  if (name) playerStats(root, name, () => alive);
  else globalStats(root, () => alive);
  return () => { alive = false; };
}
