// pages/games.js - the home page: every game, with filters, sorting,
// paging and a search box. The filters live in the address, so a filtered
// list can be bookmarked or shared.

import { h, clear, fmtDate, fmtNum, gameTitle, announce } from '../dom.js';
import { listGames, getJSON } from '../api.js';
import { paletteFor } from '../colors.js';
import { RULE_IDS } from '../rules.js';
import { setQuery } from '../router.js';
import { UNITS, unitName, unitShort } from '../exp/index.js';
import { t } from '../i18n/index.js';

// The expansion units by id, in the engine's order; every audited game
// plays the base game, so the column leaves it out.
const UNIT_BY_ID = new Map(UNITS.map((u) => [u.id, u]));
const unitRank = (id) => { const i = UNITS.findIndex((u) => u.id === id); return i < 0 ? UNITS.length : i; };

function expansionList(g) {
  const ids = (g.expansions || []).filter((x) => x !== 'base').sort((a, b) => unitRank(a) - unitRank(b));
  if (!ids.length) return h('span', { class: 'muted', text: (g.expansions || []).length ? t('games.baseGame') : '—' });
  return h('ul', { class: 'exp-list' }, ids.map((id) => {
    const u = UNIT_BY_ID.get(id) || {};
    return h('li', { dataset: { expansion: id } }, h('abbr', { title: unitName(u) || id, text: unitShort(u) || id }));
  }));
}

// the sorts the address may ask for
const SORTS = { players: 1, best: 1, date: 1, violations: 1, flights: 1, turns: 1 };
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
  if (g.status === 'unsupported') return h('span', { class: 'badge neutral', title: g.reason || '', text: t('verdict.notAudited') });
  if (g.valid) return h('span', { class: 'badge ok', text: t('verdict.valid') });
  const n = g.violations || 0;
  return h('span', { class: 'badge bad', text: t('verdict.violations', { n }) });
}

export function liveBadge() {
  return h('span', { class: 'badge live' }, h('span', { class: 'dot', 'aria-hidden': 'true' }), t('games.live'));
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
      winners.has(p.name) ? h('span', { class: 'sr-only', text: ` (${t('games.winner')})` }) : null,
      claimedOff ? h('span', { class: 'claimed', title: t('games.claimedTitle'), text: t('games.claimed', { score: p.claimed }) }) : null);
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
  document.title = `${t('games.title')} · flierd`;
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

  const [qEl, qField] = input('q', t('games.search'), { type: 'search', placeholder: t('games.searchHint'), autocomplete: 'off' });
  const [playerEl, playerField] = input('player', t('games.player'), { type: 'text', list: 'players-list', placeholder: t('games.exactName'), autocomplete: 'off' });
  const playersList = h('datalist', { id: 'players-list' });
  const [verdictEl, verdictField] = select('verdict', t('games.verdict'), [['', t('games.any')], ['valid', t('games.valid')], ['invalid', t('games.withViolations')]]);
  const [editionEl, editionField] = select('edition', t('games.edition'), [['', t('games.any')], ['C2', t('games.c2')], ['C3', t('games.c3')]]);
  const [expansionEl, expansionField] = select('expansion', t('games.expansion'), [['', t('games.any')], ...UNITS.filter((u) => u.id !== 'base').map((u) => [u.id, unitName(u) || u.id])]);
  const [finishedEl, finishedField] = select('finished', t('games.status'), [['', t('games.any')], ['true', t('games.finished')], ['false', t('games.unfinished')]]);
  const [ruleEl, ruleField] = select('rule', t('games.rule'), [['', t('games.any')], ...RULE_IDS.map((r) => [r, r])]);
  const [fromEl, fromField] = input('from', t('games.from'), { type: 'date' });
  const [toEl, toField] = input('to', t('games.to'), { type: 'date' });
  const sizeId = 'f-size';
  const sizeEl = h('select', { id: sizeId }, SIZES.map((n) => h('option', { value: n, text: t('games.perPage', { n }), selected: state.size === n })));
  const resetBtn = h('button', { type: 'reset', class: 'btn ghost', text: t('games.clear') });

  const form = h('form', { class: 'filters', role: 'search', 'aria-label': t('games.filter') },
    h('div', { class: 'filter-main' }, qField, playerField, playersList),
    h('details', { class: 'filter-more', open: !!(state.from || state.to || state.rule || state.finished) || null },
      h('summary', { text: t('games.more') }),
      h('div', { class: 'filter-grid' }, finishedField, ruleField, fromField, toField)),
    h('div', { class: 'filter-main' }, verdictField, editionField, expansionField, resetBtn));
  // The two selects first on narrow screens is fine; order is visual only.

  const status = h('p', { class: 'list-status', role: 'status' });
  const thead = h('thead');
  const tbody = h('tbody');
  const table = h('table', { class: 'games', dataset: { testid: 'games-table' } }, h('caption', { class: 'sr-only', text: t('games.title') }), thead, tbody);
  const pager = h('nav', { class: 'pager', 'aria-label': t('games.pages') });
  const emptyBox = h('div', { class: 'empty', hidden: true });

  main.appendChild(h('section', { class: 'page' },
    h('div', { class: 'page-head' },
      h('h1', { tabindex: -1, text: t('games.title') }),
      h('a', { class: 'btn primary', href: '/upload', text: t('games.upload') })),
    form, status, h('div', { class: 'table-wrap' }, table), emptyBox,
    h('div', { class: 'list-foot' }, h('label', { for: sizeId, class: 'sr-only', text: t('games.perPageLabel') }), sizeEl, pager)));

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
      th(t('games.col.game')), th(t('games.col.players'), 'players'), th(t('games.col.best'), 'best', 'num'), th(t('games.col.winner')), th(t('games.col.date'), 'date'),
      th(t('games.col.edition')), th(t('games.col.expansions')), th(t('games.col.verdict'), 'violations'), th(t('games.col.flights'), 'flights', 'num'), th(t('games.col.turns'), 'turns', 'num')));
  }

  function row(g) {
    const td = (label, ...c) => h('td', { dataset: { label } }, ...c);
    // a game not audited yet has no scores, flights or turns to show, and
    // no replay: its title leads to the page that says why
    const kept = g.status === 'unsupported';
    const best = Math.max(0, ...(g.players || []).map((p) => p.score || 0));
    const count = (n) => (kept || n === null || n === undefined ? '—' : String(n));
    return h('tr', { class: [g.live ? 'is-live' : null, kept ? 'not-audited' : null], dataset: { id: g.id } },
      td(t('games.col.game'), h('a', { class: 'game-link', href: kept ? `/games/${g.id}/audit` : `/games/${g.id}`, title: g.name || null, text: gameTitle(g) }),
        // a game without a name is titled by its id already
        h('span', { class: 'muted small', text: g.name ? ` #${g.id} · ${g.format}` : ` · ${g.format}` }), g.live ? [' ', liveBadge()] : null),
      td(t('games.col.players'), playerChips(g)),
      h('td', { class: 'num', dataset: { label: t('games.col.best') }, text: kept ? '—' : String(best) }),
      td(t('games.col.winner'), g.winners && g.winners.length ? g.winners.join(', ') : h('span', { class: 'muted', text: kept || g.finished ? '—' : t('games.inProgress') })),
      td(t('games.col.date'), h('time', { datetime: new Date(g.uploaded_at * 1000).toISOString(), text: fmtDate(g.uploaded_at) })),
      td(t('games.col.edition'), g.edition || ''),
      td(t('games.col.expansions'), expansionList(g)),
      td(t('games.col.verdict'), verdictBadge(g), kept ? h('span', { class: 'muted small needs', dataset: { testid: 'needs' }, title: g.reason || '', text: ` ${t('games.needs', { what: neededFor(g) })}` }) : null),
      h('td', { class: 'num', dataset: { label: t('games.col.flights') }, text: count(g.flights) }),
      h('td', { class: 'num', dataset: { label: t('games.col.turns') }, text: count(g.turns) }));
  }

  function pagerButtons(total) {
    clear(pager);
    const pages = Math.max(1, Math.ceil(total / state.size));
    const go = (p) => () => { state.page = p; load(); };
    const btn = (label, p, disabled, aria) => h('button', { type: 'button', class: 'btn small', disabled, 'aria-label': aria, text: label, on: { click: go(p) } });
    pager.append(
      btn(`« ${t('pager.first')}`, 1, state.page <= 1, t('pager.firstPage')),
      btn(`‹ ${t('pager.prev')}`, state.page - 1, state.page <= 1, t('pager.prevPage')),
      h('span', { class: 'page-no', text: t('pager.pageOf', { page: fmtNum(state.page), pages: fmtNum(pages) }) }),
      btn(`${t('pager.next')} ›`, state.page + 1, state.page >= pages, t('pager.nextPage')),
      btn(`${t('pager.last')} »`, pages, state.page >= pages, t('pager.lastPage')));
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
      status.textContent = data.total ? t('games.showing', { from: fmtNum(from), to: fmtNum(to), n: data.total }) : '';
      table.hidden = data.total === 0;
      emptyBox.hidden = data.total !== 0;
      clear(emptyBox);
      if (!data.total) {
        const filtered = FILTERS.some((k) => p[k]);
        emptyBox.append(h('p', { text: filtered ? t('games.noMatch') : t('games.none') }),
          filtered ? h('button', { type: 'button', class: 'btn', text: t('games.clear'), on: { click: () => form.reset() } }) : h('a', { class: 'btn primary', href: '/upload', text: t('games.uploadFirst') }));
      }
      pagerButtons(data.total);
      if (!silent) announce(status.textContent || t('games.none'));
      // Live games: refresh while one is on this page.
      clearTimeout(poll);
      if (data.games.some((g) => g.live)) poll = setTimeout(() => load(true), 5000);
    } catch (e) {
      if (e.name === 'AbortError' || !alive) return;
      status.textContent = '';
      clear(tbody);
      clear(emptyBox).append(h('p', { class: 'error', role: 'alert', text: t('games.loadError', { error: e.message }) }));
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
