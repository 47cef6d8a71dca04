// pages/replay.js - one game, turn by turn: the board, the turn slider with
// its violation and flight markers, the controls (first, previous, play,
// next, last, jump, permalink), and a side panel with the running scores,
// this turn's score events and receipts, the flight and its odds, the
// violations, and the score-over-turns chart.

import { h, s, clear, icon, fmtDate, fmtPct, gameTitle, announce, rawFileName, rawHref } from '../dom.js';
import { getJSON, getCached, uncache } from '../api.js';
import { paletteFor } from '../colors.js';
import { Board } from '../board.js';
import { lineChart } from '../charts.js';
import { RULES, moveLocation, flightReturnWhy, violationWhere, divergenceText } from '../rules.js';
import { t as tr, tNodes, lang, fmtNum } from '../i18n/index.js';
import { figure, figureName, figureWhere, withArticle, figureShape, eventFeature, featureName, token, tokenTitle, receiptText } from '../figures.js';
import { tileGeometry } from '../geometry.js';
import { FEATURES, CLOSED, itemSpec } from '../exp/index.js';
import { verdictBadge, liveBadge } from './games.js';
import { segWords, segSpan, tileSpan, dirWords } from '../words.js';

const SPEEDS = [[2000, '0.5×'], [1000, '1×'], [500, '2×'], [250, '4×']];

const turnLabel = (t) => (t === null || t === undefined ? tr('replay.finalScoring') : tr('replay.turnN', { turn: t }));
const at = (p) => (Array.isArray(p) ? `(${p[0]},${p[1]})` : '?');
const outcomeWord = (o) => tr(o === 'landed' ? 'audit.landed' : o === 'returned' ? 'audit.returned' : 'audit.pending');

// The kinds of the replay's items (docs/api.md), as the turns list them.
const ITEM_KINDS = ['figures', 'tokens', 'marks', 'counters'];
const allItems = (t) => ITEM_KINDS.flatMap((k) => (t.items && t.items[k]) || []);

/** The figures, tokens and other things with a key entry a game shows:
 * figures and tokens in the order met, then the closed tile's look, the
 * features with a key entry and the items with one. */
function gameKinds(replay) {
  const figs = new Set(), toks = new Set(), feats = new Set(), items = new Map();
  let closed = false;
  for (const t of replay.turns || []) for (const m of t.placed || t.meeples || []) figs.add(m.kind);
  for (const t of replay.turns || []) for (const it of allItems(t)) if (itemSpec(it).figure) figs.add(it.name);
  for (const t of replay.turns || []) {
    const def = t.tile && (replay.tiles || {})[t.tile];
    if (!def) continue;
    const geo = tileGeometry(t.tile, def);
    for (const x of geo.tokens) toks.add(x.attr);
    closed = closed || geo.closed;
    for (const f of geo.inner.keys()) if (FEATURES[f] && FEATURES[f].legend) feats.add(f);
  }
  for (const t of replay.turns || []) for (const it of allItems(t)) if (itemSpec(it).legend) items.set(`${it.unit}/${it.name}`, itemSpec(it).legend);
  const legends = [
    ...(closed && CLOSED && CLOSED.legend ? [CLOSED.legend] : []),
    ...[...feats].map((f) => FEATURES[f].legend),
    ...items.values(),
  ];
  return { figs: [...figs], toks: [...toks], legends };
}

/** A key to the board: one entry per figure kind and token in this game. */
function legend(replay) {
  const { figs, toks, legends } = gameKinds(replay);
  if (!figs.length && !toks.length && !legends.length) return null;
  const icon = (...children) => s('svg', { class: 'key-icon', viewBox: '-19 -19 38 38', width: 28, height: 28, 'aria-hidden': 'true' }, ...children);
  const items = [
    ...figs.map((k) => h('li', { dataset: { kind: k } }, icon(figureShape(k, '#8a8f98', '#1b1b1b')), figureName(k))),
    ...toks.map((a) => h('li', { dataset: { attr: a } }, icon(s('g', { transform: 'scale(0.8)' }, ...(token(a).icon || token(a).draw)())), tokenTitle(a))),
    // the same shapes as the board's (their units' modules)
    ...legends.map((l) => h('li', { dataset: { attr: l.attr, kind: l.kind } }, icon(...l.icon()), l.text)),
  ];
  return h('div', { class: 'board-key', dataset: { testid: 'board-key' } },
    h('h2', { class: 'sr-only', text: tr('replay.key') }),
    h('ul', { 'aria-label': tr('replay.keyList') }, items));
}

/** What changed on the board between two turns, in sentences. */
function movedFigures(added, gone) {
  // A figure that may move between turns (the wagon), gone from one spot
  // and added on another for the same player, moved.
  const moves = [];
  const rest = added.filter((m) => {
    if (!figure(m.kind).moves) return true;
    const k = gone.findIndex((g) => g.kind === m.kind && g.player === m.player);
    if (k < 0) return true;
    moves.push({ from: gone[k], to: m });
    gone.splice(k, 1);
    return false;
  });
  return { moves, added: rest, gone };
}

function occupantsText(occ) {
  const e = Object.entries(occ || {});
  return e.length ? e.map(([n, c]) => `${n}${c > 1 ? ' ×' + c : ''}`).join(', ') : '';
}

/** Meeples in b that are not in a (a multiset difference); the neutral
 * figures are told apart. */
function meepleDiff(a, b) {
  const k = (m) => `${m.player}|${m.kind}|${m.at}|${m.segment}`;
  const count = new Map();
  for (const m of a || []) count.set(k(m), (count.get(k(m)) || 0) + 1);
  const out = [];
  for (const m of b || []) {
    if (figure(m.kind).neutral) continue;
    const n = count.get(k(m)) || 0;
    if (n > 0) count.set(k(m), n - 1);
    else out.push(m);
  }
  return out;
}

/**
 * The API sends each turn's meeples as changes (`placed` meeples with ids,
 * `removed` ids) and the units' items (`figures`, `tokens`, `marks`,
 * `counters`) on the turns that change them; the board and the move text
 * want every turn's whole set: t.meeples (the items that are figures
 * among them) and t.items. Idempotent: cached replays are shared between
 * visits.
 */
function withBoards(replay) {
  const turns = replay.turns || [];
  if (turns.length && Array.isArray(turns[0].meeples)) return replay;
  const on = new Map();
  let items = Object.fromEntries(ITEM_KINDS.map((k) => [k, []]));
  for (const t of turns) {
    for (const id of t.removed || []) on.delete(id);
    for (const m of t.placed || []) on.set(m.id, m);
    items = { ...items };
    for (const k of ITEM_KINDS) if (Array.isArray(t[k])) items[k] = t[k];
    t.items = items;
    // figures of the units (neutral ones) stand with the meeples
    const neutral = items.figures.filter((it) => itemSpec(it).figure)
      .map((it) => ({ kind: it.name, player: null, at: it.at, segment: it.segment ?? null }));
    t.meeples = [...on.values(), ...neutral];
  }
  return replay;
}

/** What changed in the units' items from turn prev to t, in sentences:
 * a figure that came or moved, a mark whose value changed, a counter of
 * the players that changed (their values, in seat order). */
function itemChanges(prev, t, players, ctx) {
  const parts = [];
  const same = (a, b) => a.unit === b.unit && a.name === b.name;
  const at = (a, b) => Array.isArray(a.at) && Array.isArray(b.at) && a.at[0] === b.at[0] && a.at[1] === b.at[1];
  for (const it of t.items.marks) {
    const spec = itemSpec(it), was = prev.items.marks.find((x) => same(x, it) && at(x, it));
    if (spec.changed && (!was || was.value !== it.value)) parts.push(h('p', { class: spec.cls, text: spec.changed(it) }));
  }
  const groups = new Map();
  for (const it of t.items.counters) {
    const k = `${it.unit}/${it.name}`;
    if (!groups.has(k)) groups.set(k, { spec: itemSpec(it), now: [], was: [] });
    groups.get(k).now.push(it);
  }
  for (const it of prev.items.counters) { const g = groups.get(`${it.unit}/${it.name}`); if (g) g.was.push(it); }
  for (const { spec, now, was } of groups.values()) {
    const value = (list, p) => (list.find((x) => x.player === p.name) || {}).value || 0;
    if (!spec.label || players.every((p) => value(now, p) === value(was, p))) continue;
    parts.push(h('p', { class: spec.cls, dataset: { testid: spec.testid }, text: `${spec.label}: ${players.map((p) => `${p.name} ${value(now, p)}`).join(', ')}.` }));
  }
  for (const it of t.items.figures) {
    const spec = itemSpec(it), was = prev.items.figures.find((x) => same(x, it));
    // a figure may move on its square too (the count, between quarters)
    if (spec.moved && (!was || !at(was, it) || (was.segment ?? null) !== (it.segment ?? null))) parts.push(h('p', { class: 'deploy', dataset: { kind: it.name, testid: 'item-moved' }, text: spec.moved(it, ctx) }));
  }
  return parts;
}

/** The figures the units hold off the board (their counters with held())
 * that turn t took since prev, and those it gave back. */
function heldChanges(prev, t, players) {
  const list = (turn) => turn.items.counters.filter((it) => itemSpec(it).held)
    .map((it) => ({ spec: itemSpec(it), ...itemSpec(it).held(it, players) }));
  const key = (p) => `${p.owner}|${p.by}`;
  const minus = (a, b) => {
    const left = b.map(key);
    return a.filter((p) => { const k = left.indexOf(key(p)); if (k < 0) return true; left.splice(k, 1); return false; });
  };
  const was = list(prev), now = list(t);
  return { taken: minus(now, was), freed: minus(was, now) };
}

export function replayPage(main, [idText], query) {
  const id = Number(idText);
  let alive = true;
  let teardown = [];
  const root = h('section', { class: 'page replay' }, h('p', { class: 'loading', text: tr('replay.loading') }));
  main.appendChild(root);
  document.title = `${tr('replay.titleOf', { id })} · flierd`;

  async function load(first) {
    const live = !first && root.dataset.live === 'true';
    if (live) { uncache(`/api/games/${id}`); uncache(`/api/games/${id}/replay`); }
    const get = live ? getJSON : getCached;
    const game = await get(`/api/games/${id}`);
    // kept but not auditable yet: there is no replay to ask for
    if (game.status === 'unsupported') throw Object.assign(new Error(game.reason || ''), { status: 409 });
    const replay = await get(`/api/games/${id}/replay`);
    return { game, replay: withBoards(replay) };
  }

  load(true).then(({ game, replay }) => {
    if (!alive) return;
    if (game.live) { uncache(`/api/games/${id}`); uncache(`/api/games/${id}/replay`); }
    let view = build(game, replay, query.get('turn'));
    teardown.push(() => view.destroy());
    if (game.live) {
      root.dataset.live = 'true';
      // Spectators: the daemon answers a wait when the game changes (long
      // polling, docs/api.md); each answer is followed by a fresh read,
      // the first one too, so a move made before the first wait counts.
      const refresh = async () => {
        const next = await load(false);
        if (!alive) return;
        if (next.replay.turns.length !== replay.turns.length || next.game.live !== game.live) {
          const atEnd = view.step() === replay.turns.length - 1;
          const keep = view.turnParam();
          view.destroy();
          game = next.game; replay = next.replay;
          view = build(game, replay, atEnd ? null : keep);
        }
      };
      const ctl = new AbortController(); // a page left: its wait ends
      teardown.push(() => ctl.abort());
      const follow = async () => {
        let version = null;
        while (alive && game.live) {
          try {
            const w = await getJSON(`/api/games/${id}/wait${version ? `?version=${version}` : ''}`, { signal: ctl.signal });
            if (!alive) return;
            version = w.version;
            await refresh();
          } catch {
            // the connection is gone: ask again a little later
            await new Promise((done) => { const t = setTimeout(done, 4000); teardown.push(() => clearTimeout(t)); });
          }
        }
      };
      follow();
    }
  }).catch((e) => {
    if (!alive) return;
    clear(root).append(
      h('h1', { tabindex: -1, text: e.status === 404 ? tr('audit.noGame') : e.status === 409 ? tr('replay.notAudited') : tr('replay.loadError') }),
      h('p', { class: 'error', role: 'alert', text: e.message }),
      h('p', null, h('a', { href: '/', text: tr('audit.back2') })));
  });

  function build(game, replay, turnParam) {
    clear(root);
    const turns = replay.turns || [];
    const tileDefs = replay.tiles || {};
    const players = (replay.players && replay.players.length ? replay.players : game.players) || [];
    const colorsArr = paletteFor(players.map((p, i) => ({ ...p, color: p.color ?? (game.players[i] && game.players[i].color) })));
    const colors = new Map(players.map((p, i) => [p.name, colorsArr[i]]));
    const audit = game.audit || {};
    const last = turns.length - 1;
    const stepOfTurn = new Map(turns.map((t, i) => [t.turn, i]));
    const stepOf = (turn) => {
      if (stepOfTurn.has(turn)) return stepOfTurn.get(turn);
      if (turn === null || turn === undefined) return last;
      let best = 0;
      turns.forEach((t, i) => { if (t.turn !== null && t.turn <= turn) best = i; });
      return best;
    };
    // A score at the start of its owner's turn (expression "….turn") is
    // filed with the turn before, but happens in the next one, and that
    // turn's running scores hold it: shown there.
    const startOfNext = (x) => typeof x.expr === 'string' && x.expr.endsWith('.turn') && x.turn !== null && stepOfTurn.has(x.turn + 1);
    const byStep = (list) => {
      const m = new Map();
      for (const x of list || []) {
        const i = stepOf(startOfNext(x) ? x.turn + 1 : x.turn);
        if (!m.has(i)) m.set(i, []);
        m.get(i).push(x);
      }
      return m;
    };
    const violations = byStep(replay.violations);
    const flights = byStep(replay.flights);
    const events = byStep(replay.events);
    const labelOf = (i) => (turns[i] && turns[i].turn !== null ? String(turns[i].turn) : tr('replay.final'));

    // ---- header ----
    document.title = `${gameTitle(game)} · flierd`;
    const winners = new Set(game.winners || []);
    root.appendChild(h('header', { class: 'game-head' },
      h('div', null,
        h('p', { class: 'crumbs' }, h('a', { href: '/', text: tr('nav.games') }), ' / ', `#${game.id}`),
        h('h1', { tabindex: -1, text: gameTitle(game) }),
        h('p', { class: 'meta' },
          verdictBadge(game), game.live ? [' ', liveBadge()] : null,
          h('span', { text: ` ${game.edition} · ${game.format} · ${tr('replay.nPlayers', { n: players.length })} · ${tr('replay.nTurns', { n: game.turns })} · ${tr('stats.flights', { n: game.flights })} · ${tr('replay.uploaded', { date: fmtDate(game.uploaded_at) })}` }),
          game.finished ? null : h('span', { class: 'badge neutral', text: tr('upload.unfinished') }))),
      h('div', { class: 'head-actions' },
        h('a', { class: 'btn', href: `/games/${game.id}/audit` }, icon('report'), tr('upload.report')),
        h('a', { class: 'btn', href: rawHref(game), download: rawFileName(game) }, icon('download'), tr('audit.raw')))));

    // ---- board and controls ----
    const boardWrap = h('div', { class: 'board-wrap' });
    const banner = h('div', { class: 'board-banner', hidden: true, role: 'status' });
    const board = new Board(boardWrap, replay, colors, { readable: true });
    boardWrap.append(banner, h('div', { class: 'zoom', role: 'group', 'aria-label': tr('replay.zoom') },
      h('button', { type: 'button', class: 'btn icon-btn', 'aria-label': tr('replay.zoomIn'), title: `${tr('replay.zoomIn')} (+)`, on: { click: () => board.zoom(0.75) } }, icon('plus')),
      h('button', { type: 'button', class: 'btn icon-btn', 'aria-label': tr('replay.zoomOut'), title: `${tr('replay.zoomOut')} (-)`, on: { click: () => board.zoom(1.33) } }, icon('minus')),
      h('button', { type: 'button', class: 'btn icon-btn', 'aria-label': tr('replay.fit'), title: `${tr('replay.fitShort')} (0)`, on: { click: () => board.fit() } }, icon('fit'))));

    const slider = h('input', {
      type: 'range', id: 'turn-slider', min: 0, max: last, step: 1, value: 0, class: 'turn-slider',
      'aria-label': tr('audit.turn'), dataset: { testid: 'turn-slider' },
    });
    const markers = h('div', { class: 'track-markers' });
    const place = (el, i) => { el.style.left = `calc(10px + (100% - 20px) * ${last ? i / last : 0})`; };
    for (const [i, list] of flights) {
      const f = list[0];
      const b = h('button', {
        type: 'button', class: ['track-marker', 'flight-marker', f.outcome], dataset: { step: i, testid: 'flight-marker' },
        'aria-label': tr('replay.flightMarker', { when: turnLabel(turns[i].turn), player: f.player, roll: f.roll, outcome: outcomeWord(f.outcome) }),
        title: tr('replay.flightMarkerTitle', { turn: labelOf(i), outcome: outcomeWord(f.outcome) }), on: { click: () => go(i) },
      });
      place(b, i);
      markers.appendChild(b);
    }
    for (const [i, list] of violations) {
      const rules = [...new Set(list.map((v) => v.rule))].join(', ');
      const b = h('button', {
        type: 'button', class: 'track-marker violation-marker', dataset: { step: i, testid: 'violation-marker' },
        'aria-label': tr('replay.violationMarker', { when: turnLabel(turns[i].turn), rules }), title: tr('replay.violationMarkerTitle', { turn: labelOf(i), rules }),
        on: { click: () => { go(i); showViolation = true; render(); } },
      });
      place(b, i);
      markers.appendChild(b);
    }

    const btn = (name, label, key, fn) => h('button', { type: 'button', class: 'btn icon-btn', 'aria-label': label, title: `${label} (${key})`, on: { click: fn } }, icon(name, true));
    const playBtn = h('button', { type: 'button', class: 'btn icon-btn play', 'aria-label': tr('replay.play'), 'aria-pressed': 'false', title: tr('replay.playKey'), on: { click: () => toggle() } }, icon('play', true));
    const speed = h('select', { id: 'speed', class: 'speed', 'aria-label': tr('replay.speed') }, SPEEDS.map(([ms, t]) => h('option', { value: ms, text: t, selected: ms === 1000 })));
    const jumpInput = h('input', { id: 'jump', type: 'number', min: 0, max: turns.reduce((m, t) => Math.max(m, t.turn || 0), 0), inputmode: 'numeric', class: 'jump-input' });
    const jumpForm = h('form', { class: 'jump', on: { submit: (e) => { e.preventDefault(); const v = parseInt(jumpInput.value, 10); if (!Number.isNaN(v)) go(stepOf(v)); } } },
      h('label', { for: 'jump', text: tr('audit.turn') }), jumpInput, h('button', { type: 'submit', class: 'btn small', text: tr('replay.go') }));
    const counter = h('span', { class: 'counter', 'aria-hidden': 'true' });
    const permalink = h('a', { class: 'btn small permalink', href: location.pathname, dataset: { testid: 'permalink' } }, icon('link'), tr('replay.link'));
    permalink.addEventListener('click', async (e) => {
      e.preventDefault();
      const url = new URL(permalink.getAttribute('href'), location.href).href;
      history.replaceState(null, '', permalink.getAttribute('href'));
      try { await navigator.clipboard.writeText(url); announce(tr('replay.copied')); permalink.dataset.copied = 'true'; setTimeout(() => delete permalink.dataset.copied, 1500); } catch { announce(tr('replay.addressBar')); }
    });
    const caption = h('p', { class: 'turn-caption', 'aria-live': 'polite', dataset: { testid: 'turn-caption' } });

    const controls = h('div', { class: 'timeline' },
      h('div', { class: 'track' }, markers, slider),
      h('div', { class: 'controls' },
        h('div', { class: 'transport', role: 'group', 'aria-label': tr('replay.controls') },
          btn('first', tr('replay.first'), 'Home', () => go(0)),
          btn('prev', tr('replay.prev'), '←', () => go(cur - 1)),
          playBtn,
          btn('next', tr('replay.next'), '→', () => go(cur + 1)),
          btn('last', tr('replay.last'), 'End', () => go(last)),
          speed),
        counter, jumpForm, permalink));

    // ---- side panel ----
    const scoreBody = h('tbody');
    const scoreTable = h('table', { class: 'scores', dataset: { testid: 'scores' } },
      h('caption', { class: 'sr-only', text: tr('replay.scoresCaption') }),
      h('thead', null, h('tr', null, h('th', { scope: 'col', text: tr('games.player') }), h('th', { scope: 'col', class: 'num', text: tr('replay.score') }), h('th', { scope: 'col', class: 'num', text: tr('replay.thisTurn') }))),
      scoreBody);
    const chart = lineChart(players.map((p, k) => ({ name: p.name, color: colorsArr[k], values: turns.map((t) => (t.scores ? t.scores[k] || 0 : 0)) })), {
      title: tr('replay.scoreOverTurns'),
      labels: turns.map((t, i) => labelOf(i)),
      markers: [...violations.keys()].map((i) => ({ index: i, cls: 'bad', label: tr('replay.violationAt', { turn: labelOf(i) }) })),
      onPick: (i) => go(i),
    });
    const moveBox = h('div', { class: 'move', dataset: { testid: 'move' } });
    const flightBox = h('div', { class: 'flight-box' });
    const violBox = h('div', { class: 'viol-box' });
    const eventsBox = h('div', { class: 'events-box' });
    const side = h('aside', { class: 'side', 'aria-label': tr('replay.thisTurn') },
      h('section', { class: 'card' }, h('h2', { text: tr('audit.scores') }), scoreTable, chart.el),
      h('section', { class: 'card turn-card' }, h('h2', { class: 'turn-title' }), moveBox, violBox, flightBox, eventsBox));

    root.appendChild(h('div', { class: 'replay-grid' },
      h('div', { class: 'board-col' }, boardWrap, controls, caption, legend(replay)),
      side));

    // ---- state ----
    let cur = 0, timer = null, showViolation = false, pickedEvent = null;

    function renderScores(i) {
      clear(scoreBody);
      const t = turns[i], prev = turns[i - 1];
      const isFinal = t.turn === null;
      players.forEach((p, k) => {
        const sc = t.scores ? t.scores[k] : 0;
        const d = prev && prev.scores ? sc - prev.scores[k] : 0;
        const claimed = isFinal && game.players[k] && game.players[k].claimed;
        scoreBody.appendChild(h('tr', { class: [t.player === p.name ? 'on-turn' : null, isFinal && winners.has(p.name) ? 'winner' : null], dataset: { player: p.name } },
          h('th', { scope: 'row' }, h('span', { class: 'swatch', style: { background: colorsArr[k] }, 'aria-hidden': 'true' }), p.name,
            isFinal && winners.has(p.name) ? h('span', { class: 'badge ok small', text: tr('games.winner') }) : null),
          h('td', { class: 'num score', text: String(sc) },
            claimed !== null && claimed !== undefined && claimed !== false && claimed !== sc ? h('span', { class: 'claimed', text: ` (${tr('games.claimed', { score: claimed })})` }) : null),
          h('td', { class: ['num', d > 0 ? 'up' : null], text: d > 0 ? `+${d}` : d ? String(d) : '' })));
      });
    }

    function describeMove(i) {
      clear(moveBox);
      const t = turns[i];
      if (i === 0) {
        moveBox.appendChild(h('p', null, ...tNodes('replay.startTile', { tile: tileSpan(t.tile || '?', tileDefs[t.tile]), at: at(t.at) })));
        return;
      }
      if (t.turn === null) {
        const scored = [...new Set((events.get(i) || []).map((ev) => featureName(ev.feature)))];
        moveBox.appendChild(h('p', { text: scored.length ? tr('replay.finalScored', { list: scored.join(', ') }) : tr('replay.finalNothing') }));
        return;
      }
      const parts = [];
      const prev = turns[i - 1];
      // what came between the last turn and this one is said as after it
      const ctx = { after: prev.turn ? (prev.player ? tr('replay.playersTurn', { player: prev.player, turn: prev.turn }) : tr('replay.turnN', { turn: prev.turn })) : tr('replay.theStartTile') };
      // Two turns in a row: the builder's second tile.
      const again = i > 1 && t.player && prev.player === t.player &&
        (prev.meeples || []).find((m) => m.player === t.player && figure(m.kind).again);
      if (t.tile) {
        const who = h('strong', { text: t.player || tr('replay.someone') });
        const tile = tileSpan(t.tile, tileDefs[t.tile]);
        parts.push(h('p', null, ...(again ? tNodes('replay.placedAgain', { player: who, why: figure(again.kind).again, tile, at: at(t.at), rot: t.rotation || 0 })
          : tNodes('replay.placed', { player: who, tile, at: at(t.at), rot: t.rotation || 0 }))));
      } else parts.push(h('p', null, ...tNodes('replay.noTilePlaced', { player: h('strong', { text: t.player || tr('replay.someone') }) })));
      const diff = movedFigures(meepleDiff(prev.meeples, t.meeples), meepleDiff(t.meeples, prev.meeples));
      const swatch = (m) => h('span', { class: 'swatch', style: { background: colors.get(m.player) || '#777' }, 'aria-hidden': 'true' });
      for (const m of diff.added) {
        const where = figureWhere(m)[1];
        // a feature figures come onto only between turns: said as after
        // the last turn, though the board shows it with this one
        const feat = FEATURES[String(m.segment).split(':')[0]];
        const when = feat && feat.between ? tr('replay.between', { after: ctx.after, between: feat.between }) : '';
        parts.push(h('p', { class: 'deploy', dataset: { kind: m.kind } }, swatch(m), when,
          ...tNodes(m.flew ? 'replay.flew' : 'replay.deployed', { player: m.player, figure: withArticle(figureName(m.kind)), seg: segSpan(m.segment), where })));
      }
      for (const { from, to } of diff.moves) {
        const where = figureWhere(to)[1];
        parts.push(h('p', { class: 'deploy', dataset: { kind: to.kind } }, swatch(to),
          ...tNodes('replay.moved', { player: to.player, figure: figureName(to.kind), from: figureWhere(from).join(' '), seg: segSpan(to.segment), where })));
      }
      // Figures a unit now holds off the board (prisoners) left it, but
      // not for the supply: said as the unit says it.
      const held = heldChanges(prev, t, players);
      for (const p of held.taken) {
        const k = diff.gone.findIndex((m) => m.player === p.owner);
        const m = k >= 0 ? diff.gone.splice(k, 1)[0] : null;
        parts.push(h('p', { class: 'held', dataset: { testid: 'held-taken' }, text: p.spec.taken(p) + (m ? ` ${tr('replay.stoodOn', { where: figureWhere(m).join(' ') })}` : '') }));
      }
      for (const p of held.freed) parts.push(h('p', { class: 'held', dataset: { testid: 'held-freed' }, text: p.spec.freed(p) }));
      if (diff.gone.length) {
        parts.push(h('p', { class: 'muted', text: tr('audit.back', { why: diff.gone.map((m) => tr('replay.gone', { player: m.player, figure: figureName(m.kind), where: figureWhere(m).join(' ') })).join('; ') }) }));
      }
      // The units' items: a figure come or moved, a mark or a count changed.
      parts.push(...itemChanges(prev, t, players, ctx));
      moveBox.append(...parts);
    }

    function renderFlight(i) {
      clear(flightBox);
      const list = flights.get(i) || [];
      for (const f of list) {
        board.showFlight(f);
        const rolls = (f.odds && f.odds.rolls) || [];
        const rows = rolls.map((r) => {
          const rolled = r.roll === f.roll;
          const empty = !board.tileAt(r.target);
          return h('tr', { class: rolled ? 'rolled' : null, dataset: { roll: r.roll } },
            h('th', { scope: 'row' }, h('span', { class: ['roll-chip', rolled ? 'rolled' : null], text: String(r.roll) }), rolled ? h('span', { class: 'sr-only', text: ` (${tr('replay.rolled')})` }) : null),
            h('td', { text: at(r.target) }),
            h('td', { class: 'landings' }, empty ? h('span', { class: 'muted', text: tr('replay.noTile') }) : r.landings.length
              ? h('ul', { class: 'seg-list' }, r.landings.map((l) => h('li', { dataset: { segment: l.segment } }, segSpan(l.segment),
                occupantsText(l.occupants) ? h('span', { class: 'muted', text: ` (${occupantsText(l.occupants)})` }) : null)))
              : h('span', { class: 'muted', text: tr('replay.noLanding') })));
        });
        let outcome;
        if (f.outcome === 'landed') {
          outcome = h('p', { class: 'outcome landed', dataset: { testid: 'flight-outcome' } }, ...tNodes('replay.landedOn', { seg: segSpan(f.segment || f.feature || '?'), at: at(f.target) }));
        } else if (f.outcome === 'pending') {
          outcome = h('p', { class: 'outcome', dataset: { testid: 'flight-outcome' }, text: tr('replay.pending') });
        } else {
          const why = flightReturnWhy(f, violations.get(i), !board.tileAt(f.target));
          outcome = h('p', { class: 'outcome returned', dataset: { testid: 'flight-outcome' }, text: tr('replay.returnedWhy', { why }) });
        }
        const chance = f.odds ? tr('replay.chance', { rolls: f.odds.rolls_with_landing, pct: fmtPct(f.odds.chance) }) : '';
        flightBox.appendChild(h('div', { class: 'flight', dataset: { testid: 'flight-card', outcome: f.outcome } },
          h('h3', { text: tr('replay.flight') }),
          h('p', null, ...tNodes('replay.flightLine', { player: h('strong', { text: f.player }), from: at(f.from), dir: h('strong', { title: f.direction, text: dirWords(f.direction) }), roll: h('strong', { class: 'roll', text: String(f.roll) }), target: at(f.target) })),
          rolls.length ? h('table', { class: 'odds', dataset: { testid: 'flight-options' } },
            h('caption', { class: 'sr-only', text: tr('replay.oddsCaption') }),
            h('thead', null, h('tr', null, h('th', { scope: 'col', text: tr('audit.roll') }), h('th', { scope: 'col', text: tr('audit.target') }), h('th', { scope: 'col', text: tr('audit.landings') }))),
            h('tbody', null, rows)) : null,
          outcome,
          chance ? h('p', { class: 'muted small', text: chance }) : null));
      }
    }

    function renderViolations(i) {
      clear(violBox);
      const list = violations.get(i) || [];
      banner.hidden = !list.length;
      clear(banner);
      if (!list.length) return;
      const t = turns[i];
      if (t.tile && Array.isArray(t.at)) board.markTile(t.at, 'mark-violation', tr('replay.moveOf', { when: turnLabel(t.turn) }));
      for (const v of list) {
        const loc = moveLocation(v);
        if (loc) board.markSegment(loc.at, loc.segment, 'violation', tr('replay.highlight', { rule: v.rule, seg: segWords(loc.segment), at: at(loc.at) })).dataset.testid = 'violation-highlight';
      }
      const rules = [...new Set(list.map((v) => v.rule))];
      banner.append(h('strong', { text: rules.join(', ') }), ' ', h('span', { text: RULES[rules[0]] || '' }));
      const fd = audit.first_divergence;
      violBox.appendChild(h('div', { class: 'violations', role: showViolation ? 'alert' : null, dataset: { testid: 'violations' } },
        h('h3', { text: list.length > 1 ? tr('verdict.violations', { n: list.length }) : tr('replay.violation') }),
        h('ul', null, list.map((v) => h('li', { class: 'violation', dataset: { rule: v.rule } },
          h('p', null, h('span', { class: 'badge bad', text: v.rule }), v.player ? h('span', { class: 'muted', text: ` ${v.player}` }) : null,
            // A turn whose tile was not placed has no step of its own: say which turn it was.
            v.turn !== t.turn ? h('span', { class: 'muted', text: ` · ${turnLabel(v.turn)}` }) : null),
          RULES[v.rule] ? h('p', { class: 'rule-text', text: RULES[v.rule] }) : null,
          h('p', { class: 'message', text: lang === 'en' ? v.message : violationWhere(v) })))),
        fd && stepOf(fd.turn) === i ? h('p', { class: 'divergence', text: `${tr('audit.divergence')}: ${divergenceText(fd)}` }) : null));
      showViolation = false;
    }

    function renderEvents(i) {
      clear(eventsBox);
      const list = events.get(i) || [];
      if (!list.length) { eventsBox.appendChild(h('p', { class: 'muted small', text: tr('replay.noPoints') })); return; }
      eventsBox.appendChild(h('h3', { text: turns[i].turn === null ? tr('replay.pointsEvents', { n: list.length }) : tr('replay.pointsThisTurn') }));
      const ul = h('ul', { class: 'events', dataset: { testid: 'events' } });
      list.forEach((ev, k) => {
        const b = h('button', { type: 'button', class: 'event', 'aria-pressed': pickedEvent === k ? 'true' : 'false', on: { click: () => { pickedEvent = pickedEvent === k ? null : k; render(); } } },
          h('span', { class: 'event-points', text: ev.points < 0 ? String(ev.points) : `+${ev.points}` }),
          h('span', { class: 'event-who' }, ev.players.map((n) => h('span', { class: 'who' }, h('span', { class: 'swatch', style: { background: colors.get(n) || '#777' }, 'aria-hidden': 'true' }), n))),
          h('span', { class: 'event-feature', text: eventFeature(ev) }),
          h('span', { class: 'receipt', text: receiptText(ev) }));
        ul.appendChild(h('li', null, b));
        if (pickedEvent === k) {
          const tiles = ev.tiles || (ev.cities || []).flatMap((c) => c.tiles || []);
          for (const p of tiles) board.markTile(p, 'mark-event', featureName(ev.feature));
        }
      });
      eventsBox.appendChild(ul);
    }

    function render() {
      const i = cur;
      const t = turns[i];
      board.setStep(i);
      if (t.tile && Array.isArray(t.at) && i > 0) { board.markTile(t.at, 'mark-last', tr('replay.placedThisTurn')); board.centerOn(t.at); }
      slider.value = String(i);
      slider.setAttribute('aria-valuetext', t.turn === null ? tr('replay.finalScoringCap') : tr('replay.turnOf', { turn: t.turn, of: game.turns }));
      counter.textContent = t.turn === null ? `${tr('replay.final')} / ${game.turns}` : `${t.turn} / ${game.turns}`;
      jumpInput.value = t.turn === null ? '' : String(t.turn);
      side.querySelector('.turn-title').textContent = t.turn === null ? tr('replay.finalScoringCap') : i === 0 ? tr('replay.start') : tr('replay.turnCap', { turn: t.turn });
      renderScores(i);
      describeMove(i);
      renderViolations(i);
      renderFlight(i);
      renderEvents(i);
      chart.setCursor(i);
      const href = `${location.pathname}?turn=${t.turn === null ? 'final' : t.turn}`;
      permalink.setAttribute('href', href);
      if (location.pathname + location.search !== href) history.replaceState(null, '', href);
      const nViol = (violations.get(i) || []).length;
      caption.textContent = `${t.turn === null ? tr('replay.finalScoringCap') : i === 0 ? tr('replay.startTileCap') : `${tr('replay.turnCap', { turn: t.turn })}${t.player ? `, ${t.player}` : ''}`}` +
        `${flights.has(i) ? `, ${tr('replay.aFlight')}` : ''}${nViol ? `, ${tr('verdict.violations', { n: nViol })}` : ''}. ${tr('replay.scoresCap')} ` +
        players.map((p, k) => `${p.name} ${t.scores ? t.scores[k] : 0}`).join(', ') + '.';
      for (const m of markers.children) m.classList.toggle('current', Number(m.dataset.step) === i);
    }

    function go(i) {
      const n = Math.max(0, Math.min(last, i));
      if (n !== cur) pickedEvent = null;
      cur = n;
      render();
      if (cur === last) stop();
    }
    function stop() {
      clearInterval(timer);
      timer = null;
      playBtn.setAttribute('aria-pressed', 'false');
      playBtn.setAttribute('aria-label', tr('replay.play'));
      playBtn.replaceChildren(icon('play', true));
    }
    function toggle() {
      if (timer) { stop(); return; }
      if (cur >= last) go(0);
      timer = setInterval(() => go(cur + 1), Number(speed.value));
      playBtn.setAttribute('aria-pressed', 'true');
      playBtn.setAttribute('aria-label', tr('replay.pause'));
      playBtn.replaceChildren(icon('pause', true));
    }
    speed.addEventListener('change', () => { if (timer) { stop(); toggle(); } });
    slider.addEventListener('input', () => { go(Number(slider.value)); });

    const onKey = (e) => {
      const tgt = e.target;
      const tag = tgt && tgt.tagName;
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      if (tgt === slider) return; // the slider moves by itself
      if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA' || (tgt && tgt.isContentEditable)) return;
      if (e.key === 'ArrowLeft') go(cur - 1);
      else if (e.key === 'ArrowRight') go(cur + 1);
      else if (e.key === 'Home') go(0);
      else if (e.key === 'End') go(last);
      else if (e.key === ' ' && tag !== 'BUTTON' && tag !== 'A') toggle();
      else return;
      e.preventDefault();
    };
    document.addEventListener('keydown', onKey);

    // The starting turn: ?turn=N, ?turn=final, else the end of the game.
    let start = last;
    if (turnParam === 'final') start = last;
    else if (turnParam !== null && turnParam !== undefined && /^\d+$/.test(turnParam)) start = stepOf(Number(turnParam));
    cur = start;
    render();

    return {
      destroy() { stop(); document.removeEventListener('keydown', onKey); },
      step: () => cur,
      turnParam: () => (turns[cur].turn === null ? 'final' : String(turns[cur].turn)),
    };
  }

  return () => { alive = false; for (const f of teardown) f(); teardown = []; };
}
