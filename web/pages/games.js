// pages/games.js - the home page: every game, with filters, sorting,
// paging and a search box. The filters live in the address, so a filtered
// list can be bookmarked or shared.

import { h, clear, fmtDate, fmtNum, gameTitle, announce } from '../dom.js';
import { listGames, getJSON } from '../api.js';
import { paletteFor } from '../colors.js';
import { RULE_IDS } from '../rules.js';
import { setQuery } from '../router.js';
import { UNITS } from '../exp/index.js';

// The expansion units by id, in the engine's order; every audited game
// plays the base game, so the column leaves it out.
const UNIT_BY_ID = new Map(UNITS.map((u) => [u.id, u]));
const unitRank = (id) => { const i = UNITS.findIndex((u) => u.id === id); return i < 0 ? UNITS.length : i; };

function expansionList(g) {
  const ids = (g.expansions || []).filter((x) => x !== 'base').sort((a, b) => unitRank(a) - unitRank(b));
  if (!ids.length) return h('span', { class: 'muted', text: (g.expansions || []).length ? 'base game' : '—' });
  return h('ul', { class: 'exp-list' }, ids.map((id) => {
    const u = UNIT_BY_ID.get(id) || {};
    return h('li', { dataset: { expansion: id } }, h('abbr', { title: u.name || id, text: u.short || id }));
  }));
}

const SORTS = {
  players: 'Players', best: 'Best score', date: 'Date', violations: 'Verdict', flights: 'Flights', turns: 'Turns',
};
const SIZES = [25, 50, 100, 250, 1000];
// the filters, as the address and the API name them
const FILTERS = ['q', 'player', 'verdict', 'edition', 'expansion', 'from', 'to', 'rule', 'finished'];

/** What a game not audited yet needs, from its reason ("unsupported:
 * Gold Mines (tile set 'goldmines' in setup.sets) is not audited yet"):
 * "Gold Mines"; the reason itself when it says no more. */
export function neededFor(g) {
  const r = String(g.reason || '').replace(/^unsupported:\s*/, '');
  const m = /^(.+?) \(.*?\) is not audited yet\b/.exec(r) || /^(.+?) is not audited yet\b/.exec(r);
  return m ? m[1] : r;
}

export function verdictBadge(g) {
  // kept, but of an expansion this flierd does not audit yet: no verdict
  if (g.status === 'unsupported') return h('span', { class: 'badge neutral', title: g.reason || '', text: 'not audited yet' });
  if (g.valid) return h('span', { class: 'badge ok', text: 'valid' });
  const n = g.violations || 0;
  return h('span', { class: 'badge bad', text: `${n} violation${n === 1 ? '' : 's'}` });
}

export function liveBadge() {
  return h('span', { class: 'badge live' }, h('span', { class: 'dot', 'aria-hidden': 'true' }), 'live');
}

function playerChips(g) {
  const colors = paletteFor(g.players || []);
  const winners = new Set(g.winners || []);
  return h('ul', { class: 'chips' }, (g.players || []).map((p, i) => {
    const claimedOff = p.claimed !== null && p.claimed !== undefined && p.claimed !== p.score;
    return h('li', { class: ['chip', winners.has(p.name) ? 'winner' : null] },
      h('span', { class: 'swatch', style: { background: colors[i] }, 'aria-hidden': 'true' }),
      h('span', { class: 'chip-name', text: p.name }),
      h('span', { class: 'chip-score', text: String(p.score) }),
      winners.has(p.name) ? h('span', { class: 'sr-only', text: ' (winner)' }) : null,
      claimedOff ? h('span', { class: 'claimed', title: 'The score this player claimed', text: `claimed ${p.claimed}` }) : null);
  }));
}

export function gamesPage(main, _params, query) {
  const state = {
    q: query.get('q') || '', player: query.get('player') || '', verdict: query.get('verdict') || '',
    edition: query.get('edition') || '', from: query.get('from') || '', to: query.get('to') || '',
    rule: query.get('rule') || '', finished: query.get('finished') || '',
    expansion: UNIT_BY_ID.has(query.get('expansion')) ? query.get('expansion') : '',
    sort: SORTS[query.get('sort')] ? query.get('sort') : 'date',
    order: query.get('order') === 'asc' ? 'asc' : 'desc',
    size: SIZES.includes(Number(query.get('size'))) ? Number(query.get('size')) : 50,
    page: Math.max(1, parseInt(query.get('page') || '1', 10) || 1),
  };
  document.title = 'Games · flierd';
  let ctrl = null, timer = null, poll = null, alive = true;

  const input = (name, label, attrs) => {
    const id = `f-${name}`;
    const el = h('input', { id, name, value: state[name], ...attrs });
    return [el, h('div', { class: `field field-${name}` }, h('label', { for: id, text: label }), el)];
  };
  const select = (name, label, options) => {
    const id = `f-${name}`;
    const el = h('select', { id, name }, options.map(([v, t]) => h('option', { value: v, text: t, selected: state[name] === v })));
    return [el, h('div', { class: 'field' }, h('label', { for: id, text: label }), el)];
  };

  const [qEl, qField] = input('q', 'Search', { type: 'search', placeholder: 'Player or file name', autocomplete: 'off' });
  const [playerEl, playerField] = input('player', 'Player', { type: 'text', list: 'players-list', placeholder: 'Exact name', autocomplete: 'off' });
  const playersList = h('datalist', { id: 'players-list' });
  const [verdictEl, verdictField] = select('verdict', 'Verdict', [['', 'Any'], ['valid', 'Valid'], ['invalid', 'With violations']]);
  const [editionEl, editionField] = select('edition', 'Edition', [['', 'Any'], ['C2', 'C2 (2nd)'], ['C3', 'C3 (3rd)']]);
  const [expansionEl, expansionField] = select('expansion', 'Expansion', [['', 'Any'], ...UNITS.filter((u) => u.id !== 'base').map((u) => [u.id, u.name || u.id])]);
  const [finishedEl, finishedField] = select('finished', 'Status', [['', 'Any'], ['true', 'Finished'], ['false', 'Unfinished or live']]);
  const [ruleEl, ruleField] = select('rule', 'Rule broken', [['', 'Any'], ...RULE_IDS.map((r) => [r, r])]);
  const [fromEl, fromField] = input('from', 'From', { type: 'date' });
  const [toEl, toField] = input('to', 'To', { type: 'date' });
  const sizeId = 'f-size';
  const sizeEl = h('select', { id: sizeId }, SIZES.map((n) => h('option', { value: n, text: `${n} per page`, selected: state.size === n })));
  const resetBtn = h('button', { type: 'reset', class: 'btn ghost', text: 'Clear filters' });

  const form = h('form', { class: 'filters', role: 'search', 'aria-label': 'Filter games' },
    h('div', { class: 'filter-main' }, qField, playerField, playersList),
    h('details', { class: 'filter-more', open: !!(state.from || state.to || state.rule || state.finished) || null },
      h('summary', { text: 'More filters' }),
      h('div', { class: 'filter-grid' }, finishedField, ruleField, fromField, toField)),
    h('div', { class: 'filter-main' }, verdictField, editionField, expansionField, resetBtn));
  // The two selects first on narrow screens is fine; order is visual only.

  const status = h('p', { class: 'list-status', role: 'status' });
  const thead = h('thead');
  const tbody = h('tbody');
  const table = h('table', { class: 'games', dataset: { testid: 'games-table' } }, h('caption', { class: 'sr-only', text: 'Games' }), thead, tbody);
  const pager = h('nav', { class: 'pager', 'aria-label': 'Pages' });
  const emptyBox = h('div', { class: 'empty', hidden: true });

  main.appendChild(h('section', { class: 'page' },
    h('div', { class: 'page-head' },
      h('h1', { tabindex: -1, text: 'Games' }),
      h('a', { class: 'btn primary', href: '/upload', text: 'Upload a game' })),
    form, status, h('div', { class: 'table-wrap' }, table), emptyBox,
    h('div', { class: 'list-foot' }, h('label', { for: sizeId, class: 'sr-only', text: 'Games per page' }), sizeEl, pager)));

  function header() {
    clear(thead);
    const th = (label, sortKey, cls) => {
      if (!sortKey) return h('th', { scope: 'col', class: cls, text: label });
      const active = state.sort === sortKey;
      const btn = h('button', {
        type: 'button', class: 'sort', dataset: { sort: sortKey },
        on: { click: () => { if (state.sort === sortKey) state.order = state.order === 'asc' ? 'desc' : 'asc'; else { state.sort = sortKey; state.order = sortKey === 'date' || sortKey === 'best' ? 'desc' : 'asc'; } state.page = 1; load(); } },
      }, label, h('span', { class: 'sort-ind', 'aria-hidden': 'true', text: active ? (state.order === 'asc' ? '▲' : '▼') : '↕' }));
      return h('th', { scope: 'col', class: cls, 'aria-sort': active ? (state.order === 'asc' ? 'ascending' : 'descending') : 'none' }, btn);
    };
    thead.appendChild(h('tr', null,
      th('Game'), th('Players', 'players'), th('Best', 'best', 'num'), th('Winner'), th('Date', 'date'),
      th('Edition'), th('Expansions'), th('Verdict', 'violations'), th('Flights', 'flights', 'num'), th('Turns', 'turns', 'num')));
  }

  function row(g) {
    const td = (label, ...c) => h('td', { dataset: { label } }, ...c);
    // a game not audited yet has no scores, flights or turns to show, and
    // no replay: its title leads to the page that says why
    const kept = g.status === 'unsupported';
    const best = Math.max(0, ...(g.players || []).map((p) => p.score || 0));
    const count = (n) => (kept || n === null || n === undefined ? '—' : String(n));
    return h('tr', { class: [g.live ? 'is-live' : null, kept ? 'not-audited' : null], dataset: { id: g.id } },
      td('Game', h('a', { class: 'game-link', href: kept ? `/games/${g.id}/audit` : `/games/${g.id}`, title: g.name || null, text: gameTitle(g) }),
        // a game without a name is titled by its id already
        h('span', { class: 'muted small', text: g.name ? ` #${g.id} · ${g.format}` : ` · ${g.format}` }), g.live ? [' ', liveBadge()] : null),
      td('Players', playerChips(g)),
      h('td', { class: 'num', dataset: { label: 'Best' }, text: kept ? '—' : String(best) }),
      td('Winner', g.winners && g.winners.length ? g.winners.join(', ') : h('span', { class: 'muted', text: kept || g.finished ? '—' : 'in progress' })),
      td('Date', h('time', { datetime: new Date(g.uploaded_at * 1000).toISOString(), text: fmtDate(g.uploaded_at) })),
      td('Edition', g.edition || ''),
      td('Expansions', expansionList(g)),
      td('Verdict', verdictBadge(g), kept ? h('span', { class: 'muted small needs', dataset: { testid: 'needs' }, title: g.reason || '', text: ` needs ${neededFor(g)}` }) : null),
      h('td', { class: 'num', dataset: { label: 'Flights' }, text: count(g.flights) }),
      h('td', { class: 'num', dataset: { label: 'Turns' }, text: count(g.turns) }));
  }

  function pagerButtons(total) {
    clear(pager);
    const pages = Math.max(1, Math.ceil(total / state.size));
    const go = (p) => () => { state.page = p; load(); };
    const btn = (label, p, disabled, aria) => h('button', { type: 'button', class: 'btn small', disabled, 'aria-label': aria, text: label, on: { click: go(p) } });
    pager.append(
      btn('« First', 1, state.page <= 1, 'First page'),
      btn('‹ Prev', state.page - 1, state.page <= 1, 'Previous page'),
      h('span', { class: 'page-no', text: `Page ${state.page} of ${pages}` }),
      btn('Next ›', state.page + 1, state.page >= pages, 'Next page'),
      btn('Last »', pages, state.page >= pages, 'Last page'));
  }

  function params() {
    return {
      q: state.q, player: state.player, verdict: state.verdict, edition: state.edition, from: state.from, to: state.to,
      rule: state.rule, finished: state.finished, expansion: state.expansion, sort: state.sort, order: state.order,
    };
  }

  async function load(silent = false) {
    if (ctrl) ctrl.abort();
    ctrl = new AbortController();
    const p = params();
    setQuery({ ...p, sort: p.sort === 'date' ? '' : p.sort, order: p.order === 'desc' ? '' : p.order, size: state.size === 50 ? '' : state.size, page: state.page > 1 ? state.page : '' });
    header();
    if (!silent) { table.classList.add('busy'); table.setAttribute('aria-busy', 'true'); }
    try {
      const data = await listGames({ ...p, limit: state.size, offset: (state.page - 1) * state.size }, { signal: ctrl.signal });
      if (!alive) return;
      if (data.total > 0 && data.games.length === 0 && state.page > 1) { state.page = Math.ceil(data.total / state.size); load(); return; }
      const t0 = performance.now();
      const frag = document.createDocumentFragment();
      for (const g of data.games) frag.appendChild(row(g));
      clear(tbody).appendChild(frag);
      table.dataset.renderMs = (performance.now() - t0).toFixed(1);
      const from = data.total ? data.offset + 1 : 0, to = data.offset + data.games.length;
      status.textContent = data.total ? `Showing ${fmtNum(from)}–${fmtNum(to)} of ${fmtNum(data.total)} games` : '';
      table.hidden = data.total === 0;
      emptyBox.hidden = data.total !== 0;
      clear(emptyBox);
      if (!data.total) {
        const filtered = FILTERS.some((k) => p[k]);
        emptyBox.append(h('p', { text: filtered ? 'No game matches these filters.' : 'No games yet.' }),
          filtered ? h('button', { type: 'button', class: 'btn', text: 'Clear filters', on: { click: () => form.reset() } }) : h('a', { class: 'btn primary', href: '/upload', text: 'Upload the first game' }));
      }
      pagerButtons(data.total);
      if (!silent) announce(status.textContent || 'No games');
      // Live games: refresh while one is on this page.
      clearTimeout(poll);
      if (data.games.some((g) => g.live)) poll = setTimeout(() => load(true), 5000);
    } catch (e) {
      if (e.name === 'AbortError' || !alive) return;
      status.textContent = '';
      clear(tbody);
      clear(emptyBox).append(h('p', { class: 'error', role: 'alert', text: `Could not load the games: ${e.message}` }));
      emptyBox.hidden = false;
    } finally {
      table.classList.remove('busy');
      table.removeAttribute('aria-busy');
    }
  }

  const changed = (name, el) => () => {
    state[name] = el.value.trim();
    state.page = 1;
    clearTimeout(timer);
    timer = setTimeout(load, el.type === 'search' || el.type === 'text' ? 250 : 0);
  };
  for (const [name, el] of [['q', qEl], ['player', playerEl], ['verdict', verdictEl], ['edition', editionEl], ['expansion', expansionEl], ['finished', finishedEl], ['rule', ruleEl], ['from', fromEl], ['to', toEl]]) {
    el.addEventListener(el.tagName === 'SELECT' || el.type === 'date' ? 'change' : 'input', changed(name, el));
  }
  sizeEl.addEventListener('change', () => { state.size = Number(sizeEl.value); state.page = 1; load(); });
  form.addEventListener('submit', (e) => { e.preventDefault(); clearTimeout(timer); load(); });
  form.addEventListener('reset', () => {
    setTimeout(() => {
      for (const k of FILTERS) state[k] = '';
      for (const el of [qEl, playerEl, fromEl, toEl]) el.value = '';
      for (const el of [verdictEl, editionEl, expansionEl, finishedEl, ruleEl]) el.value = '';
      state.page = 1;
      load();
    });
  });

  getJSON('/api/players').then((d) => {
    if (!alive) return;
    for (const p of d.players || []) playersList.appendChild(h('option', { value: p.name }));
  }).catch(() => {});

  load();
  return () => { alive = false; clearTimeout(timer); clearTimeout(poll); if (ctrl) ctrl.abort(); };
}
