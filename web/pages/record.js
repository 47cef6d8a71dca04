// record.js - recording a game at the table, phone first. The page knows
// no rule: every step asks the daemon what may come next
// (GET /api/live/{id}/options, docs/api.md): the tile drawn from the
// catalogue, the square and rotation among those that fit, the figure
// and segment among those offered, the flier's roll and its landings.
// Once the tile is placed, the turn so far (its moves, as a flierlog turn
// entry's "moves") is sent with each question, so what a move allows next
// (a capture after a tower floor, the dragon's steps after the action)
// is the daemon's answer too.
// A confirmed turn goes into a queue kept in the browser and is sent in
// order; its turn number makes a second sending harmless, so a turn
// recorded while the network is away is sent once it is back.

import { h, s, clear, announce } from '../dom.js';
import { getJSON, ApiError } from '../api.js';
import { Board, drawTile } from '../board.js';
import { TILE, tileGeometry, locateSegment, rotatePoint } from '../geometry.js';
import { paletteFor } from '../colors.js';
import { figureName, featureName } from '../figures.js';
import { MOVES, BOXES, UNITS, FIGURES, ELEMENT_NAMES, ELEMENT_FIGURES, FEATURE_NAMES } from '../exp/index.js';
import { t, lang, own } from '../i18n/index.js';
import { navigate } from '../router.js';

const TOKEN_KEY = 'flierd-token';
const queueKey = (id) => `flierd-queue-${id}`;
// The last entry sent was a round's answers between turns (no turn
// number): undo then takes back the last entry, whatever it is.
const roundKey = (id) => `flierd-round-${id}`;

function token() { return localStorage.getItem(TOKEN_KEY) || ''; }

async function post(path, body) {
  const headers = { 'Content-Type': 'application/json' };
  if (token()) headers.Authorization = 'Bearer ' + token();
  const res = await fetch(path, { method: 'POST', body: body || '', headers });
  const text = await res.text();
  let json = null;
  try { json = text ? JSON.parse(text) : null; } catch { json = null; }
  if (!res.ok) throw new ApiError(res.status, json && json.error ? json.error : `HTTP ${res.status}`, json);
  return json;
}

// ---- the queue: turns confirmed, not yet acknowledged ----

function loadQueue(id) {
  try { return JSON.parse(localStorage.getItem(queueKey(id)) || '[]'); } catch { return []; }
}
function saveQueue(id, q) { localStorage.setItem(queueKey(id), JSON.stringify(q)); }

/** Sends the queue in order. A network failure keeps what is left; a
 * refusal (409, 422) drops that turn and says why. */
async function flush(id) {
  const q = loadQueue(id);
  while (q.length) {
    try {
      await post(`/api/live/${id}/moves`, JSON.stringify(q[0]));
    } catch (e) {
      if (!(e instanceof ApiError) || e.status === 429 || e.status >= 500) {
        saveQueue(id, q);
        return { waiting: q.length, error: null };
      }
      // refused: another phone recorded that turn (409) or it breaks a
      // rule (422); the page then reloads the game as the daemon has it
      q.shift();
      saveQueue(id, q);
      return { waiting: q.length, error: e.message, conflict: e.status === 409 };
    }
    q.shift();
    saveQueue(id, q);
  }
  return { waiting: 0, error: null };
}

// ---- what a tile shows, for the catalogue's search ----

function tileWords(id, def) {
  const words = new Set([id.toLowerCase()]);
  for (const sg of (def && def.segments) || []) {
    words.add(String(sg.feature).toLowerCase());
    words.add(featureName(sg.feature).toLowerCase());
    if (sg.pennants) words.add('pennant');
    for (const [k, v] of Object.entries(sg)) if (v === true) words.add(k.toLowerCase());
  }
  if (def && def.flier) { words.add('flier'); words.add('flying machine'); words.add(featureName('flier').toLowerCase()); }
  for (const m of (def && def.marks) || []) words.add(String(m).toLowerCase());
  return [...words].join(' ');
}

function tileIcon(id, def, rotation = 0) {
  return s('svg', { class: 'tile-icon', viewBox: '0 0 100 100', 'aria-hidden': 'true' }, drawTile(id, def, [0, 0], rotation));
}

// ---- the setup ----

// The names the setup shows, in the reader's language: a box by its
// unit's name, its start by the unit's words for it, an element by the
// audit's names for it (a figure's, or a game element's).
const unitOf = (b) => UNITS.find((u) => u.id === b.id) || {};
const boxName = (b) => (lang === 'en' ? b.name : own(unitOf(b).i18n, 'name', b.name));
const startName = (b) => own(unitOf(b).i18n, 'start', b.start.name);
const boxElements = Object.assign({}, ...UNITS.map((u) => own(u.i18n, 'boxElements', {})));
const elementWords = (el) => (lang === 'en' ? el.replace(/-/g, ' ')
  : boxElements[el] ? boxElements[el]
  : Object.prototype.hasOwnProperty.call(ELEMENT_FIGURES, el) ? figureName(ELEMENT_FIGURES[el])
  : Object.prototype.hasOwnProperty.call(FIGURES, el) ? figureName(el)
    : ELEMENT_NAMES[el] || FEATURE_NAMES[el] || el.replace(/-/g, ' '));
const moveName = (move) => own(UNITS.find((u) => u.moves && u.moves[move])?.i18n, 'moves', {})[move] || MOVES[move] || move;
const COLOR_KEYS = { red: 'color.red', blue: 'color.blue', green: 'color.green', yellow: 'color.yellow', black: 'color.black', gray: 'color.gray' };

const COLORS = ['red', 'blue', 'green', 'yellow', 'black', 'gray'];
const EDITION_SETS = { C2: { 'basic:1': 1, 'flier:1': 1 }, C3: { 'basic:2': 1, 'flier:2': 1 } };

// The expansions in the box, each with its elements (all on by default),
// and the start they bring: a fieldset per box.
function boxPicker() {
  const boxes = BOXES.map((b) => {
    const on = h('input', { type: 'checkbox', id: `box-${b.id}`, dataset: { testid: 'box', box: b.id } });
    const elements = Object.keys(b.elements).map((el) => ({ el, input: h('input', { type: 'checkbox', id: `el-${b.id}-${el}`, checked: true }) }));
    const els = h('div', { class: 'record-elements', hidden: true }, elements.map(({ el, input }) =>
      h('div', { class: 'check' }, input, h('label', { for: input.id, text: elementWords(el) }))));
    on.addEventListener('change', () => { els.hidden = !on.checked; fillStarts(); });
    return { b, on, elements, node: h('div', { class: 'record-box' }, h('div', { class: 'check' }, on, h('label', { for: on.id, text: boxName(b) })), els) };
  });
  const start = h('select', { id: 'start' });
  const fillStarts = () => {
    const was = start.value;
    clear(start);
    start.appendChild(h('option', { value: '', text: t('record.startTile') }));
    for (const x of boxes) if (x.on.checked && x.b.start) start.appendChild(h('option', { value: x.b.id, text: startName(x.b) }));
    // a box that brings its own start (the River, the City) starts there
    // unless another was chosen
    start.value = was && [...start.options].some((o) => o.value === was) ? was : (start.options[1] ? start.options[1].value : '');
  };
  fillStarts();
  const node = h('fieldset', { class: 'record-boxes' }, h('legend', { text: t('record.boxes') }), boxes.map((x) => x.node),
    h('div', { class: 'field' }, h('label', { for: 'start', text: t('record.start') }), start));
  // the setup line's sets, elements and start over the edition's
  const setup = (edition) => {
    const on = boxes.filter((x) => x.on.checked);
    if (!on.length) return {};
    const sets = { ...EDITION_SETS[edition] }, elements = {};
    for (const x of on) {
      Object.assign(sets, x.b.sets);
      for (const { el, input } of x.elements) elements[el] = input.checked ? x.b.elements[el] : (typeof x.b.elements[el] === 'number' ? 0 : false);
    }
    const out = { sets, elements };
    const st = on.find((x) => x.b.id === start.value);
    if (st) out.start = st.b.start.tiles.length === 1 ? st.b.start.tiles[0] : st.b.start.tiles;
    return out;
  };
  return { node, setup };
}

function setupForm(root) {
  const names = [];
  const list = h('div', { class: 'record-players' });
  const addPlayer = (name = '') => {
    if (names.length >= 6) return;
    const n = names.length + 1;
    const input = h('input', { type: 'text', id: `player-${n}`, value: name, maxlength: 63, autocomplete: 'off', required: n <= 1 });
    const color = h('select', { id: `color-${n}` }, COLORS.map((c) => h('option', { value: c, text: t(COLOR_KEYS[c]) })));
    color.value = COLORS[n - 1];
    names.push({ input, color });
    list.appendChild(h('div', { class: 'field record-player' }, h('label', { for: `player-${n}`, text: t('record.playerN', { n: String(n) }) }), input,
      h('label', { for: `color-${n}`, text: t('record.colour') }), color));
  };
  const box = boxPicker();
  ['', ''].forEach((n) => addPlayer(n));
  const edition = h('select', { id: 'edition' }, h('option', { value: 'C2', text: t('record.c2') }), h('option', { value: 'C3', text: t('record.c3') }));
  const tok = h('input', { type: 'password', id: 'token', value: token(), autocomplete: 'off' });
  const resume = h('input', { type: 'number', id: 'resume', min: 1, inputmode: 'numeric' });
  const status = h('p', { class: 'list-status', role: 'status' });
  const form = h('form', { class: 'card record-setup', on: {
    submit: async (e) => {
      e.preventDefault();
      localStorage.setItem(TOKEN_KEY, tok.value.trim());
      if (resume.value) { navigate(`/record?game=${Number(resume.value)}`); return; }
      const players = names.filter((p) => p.input.value.trim()).map((p) => ({ name: p.input.value.trim(), color: p.color.value }));
      if (!players.length) { status.textContent = t('record.nameOne'); return; }
      try {
        const extra = box.setup(edition.value);
        const r = await post('/api/live', JSON.stringify({ format: extra.sets ? 'flierlog/1.3' : 'flierlog/1', edition: edition.value, ...extra, players }));
        navigate(`/record?game=${r.id}`);
      } catch (err) { status.textContent = t('record.startError', { error: err.message }); }
    },
  } },
  h('h2', { text: t('record.newGame') }),
  list,
  h('button', { type: 'button', class: 'btn small', on: { click: () => addPlayer() } }, t('record.addPlayer')),
  h('div', { class: 'field' }, h('label', { for: 'edition', text: t('games.edition') }), edition),
  box.node,
  h('div', { class: 'field' }, h('label', { for: 'token', text: t('record.token') }), tok),
  h('div', { class: 'field' }, h('label', { for: 'resume', text: t('record.resume') }), resume),
  h('button', { type: 'submit', class: 'btn primary', dataset: { testid: 'start-game' } }, t('record.startRecording')),
  status);
  root.appendChild(form);
}

// ---- one game ----

function segText(sg) {
  const [feature, loc] = String(sg).split(':');
  return loc ? `${featureName(feature)} (${loc})` : featureName(feature);
}

/** A move of a turn entry for people: its unit's name for it, where, and
 * whose figure. */
function moveLabel(m) {
  if (m.move === 'pass') return t('record.noFigure');
  if (m.move === 'deploy' && m.segment === 'flier') return t('record.flies', { figure: figureName(m.meeple || 'small'), roll: m.roll });
  if (m.move === 'deploy') return t('record.on', { figure: figureName(m.meeple || 'small'), seg: segText(m.segment), at: m.at });
  const parts = [moveName(m.move)];
  const id = m.meeple_id ? String(m.meeple_id).split('.') : null;
  if (id) parts.push(t('record.ofSeat', { figure: figureName(id[1]), seat: Number(id[0]) + 1 }));
  if (m.segment) parts.push(t('record.onSeg', { seg: segText(m.segment) }));
  if (m.at) parts.push(t('record.at', { at: m.at }));
  if (m.player) parts.push(t('record.step', { player: m.player }));
  return parts.join(' ');
}

class Recorder {
  constructor(root, id) {
    this.root = root;
    this.id = id;
    this.query = {};       // tile, at, rot: the tile until it is placed
    this.steps = [];       // the turn's moves after the tile, as sent
    this.choice = null;    // the spot last chosen, for its ring
    this.search = '';
    this.status = h('p', { class: 'list-status', role: 'status', dataset: { testid: 'record-status' } });
    this.head = h('div', { class: 'record-head' });
    this.boardWrap = h('div', { class: 'board-wrap record-board' });
    // A second tap on a square turns the tile: no zoom on a double tap.
    this.boardWrap.addEventListener('dblclick', (e) => e.stopPropagation(), true);
    this.boardWrap.addEventListener('click', (e) => this.tap(e));
    this.panel = h('div', { class: 'record-panel' });
    root.append(this.head, this.status, this.boardWrap, this.panel);
    window.addEventListener('online', this.onOnline = () => this.sync());
  }

  close() { window.removeEventListener('online', this.onOnline); }

  async sync() {
    const r = await flush(this.id);
    if (r.conflict) { this.query = {}; this.steps = []; }
    await this.load();
    if (r.error) this.say(r.conflict ? t('record.conflict', { error: r.error }) : t('record.refused', { error: r.error }));
    if (r.waiting) this.say(t('record.offline', { n: r.waiting }));
  }

  say(text) { this.status.textContent = text; announce(text); }

  placeMove() {
    const { tile, at, rot } = this.query;
    return { move: 'place', tile, at, rot: rot || 0 };
  }

  optionsUrl() {
    const q = new URLSearchParams();
    const { tile, at } = this.query;
    if (at) q.set('turn', JSON.stringify({ moves: [this.placeMove(), ...this.steps] }));
    else if (this.steps.length) q.set('turn', JSON.stringify({ moves: this.steps })); // a round's answers
    else if (tile) q.set('tile', tile);
    const qs = q.toString();
    return `/api/live/${this.id}/options${qs ? '?' + qs : ''}`;
  }

  async load() {
    try {
      const [game, replay, opts] = await Promise.all([
        getJSON(`/api/games/${this.id}`), getJSON(`/api/games/${this.id}/replay`), getJSON(this.optionsUrl())]);
      this.game = game;
      this.replay = replay;
      this.opts = opts;
      // a round's answers are complete: sent as an entry of their own
      // (with the COMMIT the round asks for, when it asks for one)
      if (!this.query.at && this.steps.length && opts.stage !== 'round') {
        const moves = opts.stage === 'answered' ? [...this.steps, { move: 'commit' }] : this.steps;
        this.steps = [];
        return this.sendRound({ moves });
      }
    } catch (e) {
      if (e instanceof ApiError && e.status === 422 && this.steps.length) {
        this.say(e.message);
        this.steps.pop();
        return this.load();
      }
      if (e instanceof ApiError && e.status === 422 && this.query.tile) {
        this.say(e.message);
        this.query = { tile: this.query.tile };
        return this.load();
      }
      if (e instanceof ApiError && e.status === 409) { this.finished(); return; }
      this.say(t('record.readError', { error: e.message }));
      return;
    }
    this.render();
  }

  render() {
    const o = this.opts, replay = this.replay;
    const players = replay.players || [];
    const palette = paletteFor(players);
    this.colors = new Map(players.map((p, i) => [p.name, palette[i]]));
    clear(this.head);
    this.head.append(
      h('h1', { tabindex: -1, text: t('record.recording', { id: this.id }) }),
      h('p', { class: 'meta', dataset: { testid: 'turn-line' } }, o.stage === 'over' ? o.over
        : o.stage === 'round' ? t('record.roundLine', { turn: o.turn, player: o.player, round: o.round })
          : `${t('replay.turnCap', { turn: o.turn })} · ${o.player}${o.part === 2 ? ` (${t('record.secondTile')})` : ''} · ${t('record.tilesLeft', { n: o.tiles_left })}`),
      h('ul', { class: 'chips' }, players.map((p, i) => h('li', { class: 'chip' },
        h('span', { class: 'swatch', style: { background: palette[i] }, 'aria-hidden': 'true' }), p.name,
        h('span', { class: 'chip-score', text: String(this.game.players && this.game.players[i] ? this.game.players[i].score : 0) })))));
    clear(this.boardWrap);
    this.board = new Board(this.boardWrap, replay, this.colors);
    this.board.setStep((replay.turns || []).length - 1);
    this.drawOverlay();
    this.drawPanel();
  }

  // The squares that fit, the chosen tile, its deployments or landings.
  drawOverlay() {
    const o = this.opts, b = this.board;
    const geometry = o.geometry || {};
    const extra = [];
    if (o.stage === 'place') {
      for (const p of o.places) {
        extra.push(p.at);
        b.gOver.appendChild(s('rect', { class: 'legal-square', x: p.at[0] * TILE + 4, y: p.at[1] * TILE + 4, width: TILE - 8, height: TILE - 8, rx: 8, dataset: { at: p.at.join(','), testid: 'legal-square' } },
          s('title', { text: `(${p.at[0]},${p.at[1]}): ${p.rotations.length} rotation${p.rotations.length > 1 ? 's' : ''}` })));
      }
    }
    const { tile, at, rot } = this.query;
    if (tile && at) {
      extra.push(at);
      const g = drawTile(tile, geometry[tile], at, rot || 0);
      g.classList.add('candidate');
      b.gOver.appendChild(g);
    }
    // the turn's moves so far (a tower floor, a figure, a wagon's move):
    // not on the recorded board yet, marked where they go
    const colour = this.colors.get(o.player) || '#444';
    this.steps.forEach((m, i) => {
      if (!Array.isArray(m.at) || m.segment === 'flier') return;
      const [x, y] = m.segment ? this.anchor(m.at, m.segment) : [m.at[0] * TILE + TILE / 2, m.at[1] * TILE + TILE / 2];
      b.gOver.appendChild(s('g', { class: 'pending-step', dataset: { testid: 'pending-step', move: m.move } },
        s('circle', { cx: x, cy: y, r: 10, fill: colour, stroke: '#fff', 'stroke-width': 2.5 }),
        s('text', { x, y: y + 4, 'text-anchor': 'middle', 'font-size': 11, fill: '#fff', text: String(i + 1) }),
        s('title', { text: `Step ${i + 1}: ${moveLabel(m)}` })));
    });
    if ((tile && at) || o.stage === 'round') {
      const spots = this.spots();
      for (const sp of spots) {
        const chosen = this.choice && this.choice.key === sp.key;
        b.gOver.appendChild(s('circle', { class: ['option-ring', 'record-spot', chosen ? 'chosen' : null], cx: sp.xy[0], cy: sp.xy[1], r: 12, dataset: { key: sp.key } },
          s('title', { text: sp.label })));
      }
    }
    for (const f of (o.stage === 'land' && o.landing) ? [o.landing.target] : []) extra.push(f);
    if (extra.length) {
      const v = b.computeBounds();
      const xs = extra.map((p) => p[0] * TILE), ys = extra.map((p) => p[1] * TILE);
      const x0 = Math.min(v.x, ...xs.map((x) => x - 50)), y0 = Math.min(v.y, ...ys.map((y) => y - 50));
      const x1 = Math.max(v.x + v.w, ...xs.map((x) => x + 150)), y1 = Math.max(v.y + v.h, ...ys.map((y) => y + 150));
      b.view = { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
      b.applyView();
    }
  }

  // Where the choices of this stage stand on the board: deployments on the
  // chosen tile (or beside it), landings on the target.
  spots() {
    const o = this.opts;
    const list = o.stage === 'land' ? o.landing.landings.map((l) => ({ ...l, kind: 'land', meeple: o.landing.meeple }))
      : o.stage === 'action' || o.stage === 'after' ? o.deploys.map((d) => ({ ...d, kind: 'deploy' })) : [];
    const moves = o.stage === 'action' || o.stage === 'after' || o.stage === 'round' ? (o.moves || []).filter((m) => m.at) : [];
    return [...list.map((sp, i) => ({ ...sp, key: `${sp.kind}:${i}`, xy: this.anchor(sp.at, sp.segment),
      label: sp.kind === 'land' ? t('record.landOn', { seg: segText(sp.segment), at: sp.at }) : t('record.on', { figure: figureName(sp.meeple), seg: segText(sp.segment), at: sp.at }) })),
    ...moves.map((m, i) => ({ kind: 'move', move: m, at: m.at, segment: m.segment, key: `move:${i}`,
      xy: m.segment ? this.anchor(m.at, m.segment) : [m.at[0] * TILE + TILE / 2, m.at[1] * TILE + TILE / 2], label: moveLabel(m) }))];
  }

  anchor(at, segment) {
    const { tile, rot } = this.query;
    const same = this.query.at && at[0] === this.query.at[0] && at[1] === this.query.at[1];
    if (!same) return this.board.locate(at, segment).anchor;
    const def = (this.opts.geometry || {})[tile];
    const loc = locateSegment(def ? tileGeometry(tile, def) : null, segment, rot || 0);
    const [ax, ay] = rotatePoint(loc.anchor, Math.round((rot || 0) / 90));
    return [at[0] * TILE + ax, at[1] * TILE + ay];
  }

  // A tap on the board: a square to place on (again: the next rotation),
  // or the nearest deployment or landing.
  tap(e) {
    if (!this.board || !this.opts) return;
    const p = this.board.toBoard(e.clientX, e.clientY);
    if (!p) return;
    const o = this.opts;
    if (o.stage === 'place' || (o.stage === 'action' && !this.steps.length)) {
      const sq = [Math.floor(p[0] / TILE), Math.floor(p[1] / TILE)];
      const places = o.stage === 'place' ? o.places : null;
      const here = places && places.find((x) => x.at[0] === sq[0] && x.at[1] === sq[1]);
      if (here) { this.placeAt(here); return; }
      if (o.stage === 'action' && this.query.at && sq[0] === this.query.at[0] && sq[1] === this.query.at[1] && !this.nearest(p)) {
        this.rotate();
        return;
      }
    }
    const sp = this.nearest(p);
    if (sp) this.choose(sp);
  }

  nearest(p) {
    let best = null, dist = 22;
    for (const sp of this.spots()) {
      const d = Math.hypot(sp.xy[0] - p[0], sp.xy[1] - p[1]);
      if (d < dist) { dist = d; best = sp; }
    }
    return best;
  }

  placeAt(place) {
    this.query = { tile: this.query.tile, at: place.at, rot: place.rotations[0] };
    this.rotations = place.rotations;
    this.steps = [];
    this.choice = null;
    this.load();
  }

  rotate() {
    const rs = this.rotations || [];
    if (rs.length < 2) return;
    const i = rs.indexOf(this.query.rot);
    this.query = { tile: this.query.tile, at: this.query.at, rot: rs[(i + 1) % rs.length] };
    this.steps = [];
    this.choice = null;
    this.load();
  }

  // A move of the turn chosen: it joins the turn so far, and the daemon
  // says what may follow it.
  step(move, label) {
    this.steps.push(move);
    this.choice = null;
    this.say(t('record.goOn', { label }));
    return this.load();
  }

  choose(sp) {
    if (sp.kind === 'move') return this.step(sp.move, sp.label);
    const m = { move: 'deploy', at: sp.at, segment: sp.segment };
    if (sp.meeple && sp.meeple !== 'small') m.meeple = sp.meeple;
    return this.step(m, sp.label);
  }

  drawPanel() {
    const o = this.opts;
    clear(this.panel);
    if (o.stage === 'over') {
      this.panel.append(h('p', { text: o.over }), this.endButtons());
      return;
    }
    if (o.stage === 'round') this.panel.appendChild(this.roundPanel());
    if (o.stage === 'tile' && o.round && o.pass) { // the last round of abbeys
      this.panel.appendChild(h('section', { class: 'card', dataset: { testid: 'last-round' } },
        h('h2', { text: `${o.player}: ${o.round}` }),
        h('p', { class: 'muted', text: t('record.heldTile') }),
        h('button', { type: 'button', class: 'btn', dataset: { testid: 'round-pass' },
          on: { click: () => this.sendRound({ player: o.player, moves: [{ move: 'pass' }] }) } }, t('record.declines', { player: o.player }))));
    }
    if (o.stage === 'tile' || o.stage === 'place') this.panel.appendChild(this.catalogue());
    if (o.stage === 'place') this.panel.appendChild(h('p', { class: 'muted', text: t('record.tap', { tile: this.query.tile }) }));
    if (o.stage === 'action' || o.stage === 'land' || o.stage === 'after') this.panel.appendChild(this.actions());
    this.panel.appendChild(this.endButtons());
  }

  // A round between turns (a wagon's move, the City, a crop circle): the
  // player asked picks one of the answers the daemon lists, or passes.
  roundPanel() {
    const o = this.opts;
    const sec = h('section', { class: 'card', dataset: { testid: 'round' } },
      h('h2', { text: `${o.player}: ${o.round}` }));
    if (this.steps.length) {
      sec.appendChild(h('ol', { class: 'small muted' }, this.steps.map((m) => h('li', { text: moveLabel(m) }))));
      sec.appendChild(h('button', { type: 'button', class: 'btn', on: { click: () => { this.steps.pop(); this.load(); } } }, t('record.takeBackAnswer')));
    }
    const moves = o.moves || [];
    // a bid names its least amount: the player may offer more
    const item = (m, i) => {
      if (typeof m.amount !== 'number') {
        return h('li', null, h('button', {
          type: 'button', class: 'btn small', dataset: { testid: 'round-choice', move: m.move, at: m.at ? m.at.join(',') : null },
          on: { click: () => this.step(m, moveLabel(m)) },
        }, moveLabel(m)));
      }
      const input = h('input', { type: 'number', id: `round-amount-${i}`, inputmode: 'numeric', min: m.amount, value: m.amount, dataset: { testid: 'round-amount' } });
      return h('li', null, h('label', { for: input.id, text: t('record.offered', { move: moveLabel(m) }) }), input,
        h('button', { type: 'button', class: 'btn small', dataset: { testid: 'round-choice', move: m.move },
          on: { click: () => { const amount = Math.max(m.amount, Math.floor(Number(input.value) || 0)); this.step({ ...m, amount }, `${moveLabel(m)}: ${amount}`); } } }, t('record.bid')));
    };
    sec.appendChild(h('ul', { class: 'choice-list' }, moves.map(item)));
    if (o.pass) {
      sec.appendChild(h('button', { type: 'button', class: 'btn', dataset: { testid: 'round-pass' },
        on: { click: () => this.step({ move: 'pass' }, `${o.player} passes`) } }, `${o.player} passes`));
    }
    return sec;
  }

  async sendRound(entry) {
    const q = loadQueue(this.id);
    q.push(entry);
    saveQueue(this.id, q);
    sessionStorage.setItem(roundKey(this.id), '1');
    await this.sync();
    if (!loadQueue(this.id).length) this.say(t('record.answerRecorded'));
  }

  catalogue() {
    const o = this.opts;
    const geometry = o.geometry || {};
    const input = h('input', { type: 'search', id: 'tile-search', value: this.search, placeholder: 'city, road, pennant, flier…', autocomplete: 'off' });
    const list = h('ul', { class: 'tile-list', dataset: { testid: 'tile-list' } });
    const fill = () => {
      clear(list);
      const words = this.search.toLowerCase().split(/\s+/).filter(Boolean);
      for (const tl of o.tiles) {
        const text = tileWords(tl.tile, geometry[tl.tile]);
        if (!words.every((w) => text.includes(w))) continue;
        const pressed = this.query.tile === tl.tile;
        list.appendChild(h('li', null, h('button', {
          type: 'button', class: 'btn tile-choice', 'aria-pressed': pressed ? 'true' : 'false', disabled: !tl.drawable || !tl.fits,
          title: tl.held ? t('record.heldOwn', { player: o.player }) : !tl.drawable ? t('record.notDrawable') : !tl.fits ? t('record.fitsNowhere') : null,
          dataset: { tile: tl.tile, testid: 'tile-choice' },
          on: { click: () => { this.query = { tile: tl.tile }; this.steps = []; this.choice = null; this.load(); } },
        }, geometry[tl.tile] ? tileIcon(tl.tile, geometry[tl.tile]) : null, h('span', { text: tl.tile }), h('span', { class: 'muted', text: tl.held ? t('record.heldN', { left: tl.left }) : `×${tl.left}` }))));
      }
      if (!list.firstChild) list.appendChild(h('li', { class: 'muted', text: t('record.noTileShows') }));
    };
    input.addEventListener('input', () => { this.search = input.value; fill(); });
    fill();
    return h('section', { class: 'card' },
      h('h2', { text: this.query.tile ? t('record.tile', { tile: this.query.tile }) : t('record.which') }),
      h('div', { class: 'field' }, h('label', { for: 'tile-search', text: t('record.search') }), input),
      list);
  }

  actions() {
    const o = this.opts;
    const sec = h('section', { class: 'card' }, h('h2', { text: t('record.placedAt', { tile: this.query.tile, at: this.query.at, rot: this.query.rot || 0 }) }));
    const row = h('div', { class: 'head-actions' });
    if ((this.rotations || []).length > 1 && !this.steps.length) row.appendChild(h('button', { type: 'button', class: 'btn', on: { click: () => this.rotate() } }, t('record.turnTile')));
    row.appendChild(h('button', { type: 'button', class: 'btn', on: { click: () => { this.query = { tile: this.query.tile }; this.steps = []; this.choice = null; this.load(); } } }, t('record.anotherSquare')));
    if (this.steps.length) row.appendChild(h('button', { type: 'button', class: 'btn', dataset: { testid: 'step-back' }, on: { click: () => { this.steps.pop(); this.load(); } } }, t('record.takeBackMove')));
    sec.appendChild(row);
    if (this.steps.length) {
      sec.appendChild(h('ol', { class: 'small muted', dataset: { testid: 'turn-steps' } }, this.steps.map((m) => h('li', { text: moveLabel(m) }))));
    }
    const spots = this.spots().filter((sp) => sp.kind !== 'move');
    const choiceList = (testid, list) => h('ul', { class: 'choice-list' }, list.map((sp) => h('li', null, h('button', {
      type: 'button', class: 'btn small', dataset: { testid, segment: sp.segment, meeple: sp.meeple }, on: { click: () => this.choose(sp) },
    }, sp.label))));
    if (o.stage === 'land') {
      const l = o.landing;
      sec.appendChild(h('h3', { text: t('record.rolledTarget', { figure: figureName(l.meeple), roll: l.roll, target: l.target }) }));
      sec.appendChild(choiceList('land-choice', spots));
    } else {
      if (spots.length) {
        sec.appendChild(h('h3', { text: o.stage === 'after' ? t('record.anotherFigure') : t('record.deploy') }));
        sec.appendChild(choiceList('deploy-choice', spots));
      }
      for (const f of o.flights) {
        sec.appendChild(h('h3', { text: t('record.fly', { figure: figureName(f.meeple) }) }));
        const dice = h('div', { class: 'head-actions' });
        for (const r of [1, 2, 3]) {
          dice.appendChild(h('button', { type: 'button', class: 'btn small', dataset: { testid: 'roll', roll: r, meeple: f.meeple },
            on: { click: () => this.fly(f.meeple, r) } }, t('record.rolledN', { roll: r })));
        }
        dice.appendChild(h('button', { type: 'button', class: 'btn small', dataset: { testid: 'roll-die' },
          on: { click: () => { const a = new Uint8Array(1); crypto.getRandomValues(a); this.fly(f.meeple, 1 + (a[0] % 3)); } } }, t('record.rollDie')));
        sec.appendChild(dice);
      }
      const moves = o.moves || [];
      if (moves.length) {
        sec.appendChild(h('h3', { text: o.stage === 'after' ? t('record.follows') : t('record.unitMove') }));
        sec.appendChild(h('ul', { class: 'choice-list' }, moves.map((m) => h('li', null, h('button', {
          type: 'button', class: 'btn small', dataset: { testid: 'unit-move', move: m.move, at: m.at ? m.at.join(',') : null },
          on: { click: () => this.step(m, moveLabel(m)) },
        }, moveLabel(m))))));
      }
      if (o.stage === 'action') {
        sec.appendChild(h('button', { type: 'button', class: 'btn', dataset: { testid: 'pass' },
          on: { click: () => this.step({ move: 'pass' }, t('record.noFigureTurn')) } }, t('record.noFigure')));
      }
      const last = this.steps[this.steps.length - 1];
      if (o.stage === 'after' && last && last.segment === 'flier') {
        sec.appendChild(h('h3', { text: t('record.rolledNoLanding', { figure: figureName(last.meeple || 'small'), roll: last.roll }) }));
        sec.appendChild(h('p', { dataset: { testid: 'no-landing' }, text: t('record.noLandingThere') }));
      }
    }
    if (o.stage === 'after') sec.appendChild(this.claimsForm());
    sec.appendChild(h('button', { type: 'button', class: 'btn primary', disabled: o.stage !== 'after', dataset: { testid: 'confirm' }, on: { click: () => this.confirm() } }, t('record.confirm')));
    return sec;
  }

  // The totals the players claim after this turn (optional): checked
  // against the rules' as an upload's claims are, and kept with the turn.
  claimsForm() {
    const players = this.replay.players || [];
    this.claims = this.claims || {};
    const box = h('details', { class: 'record-claims', dataset: { testid: 'claims' } },
      h('summary', { text: t('record.claims') }));
    players.forEach((p, i) => {
      const input = h('input', { type: 'number', id: `claim-${i}`, inputmode: 'numeric', min: 0, value: this.claims[p.name] ?? '', dataset: { testid: 'claim', player: p.name } });
      input.addEventListener('input', () => { if (input.value === '') delete this.claims[p.name]; else this.claims[p.name] = Number(input.value); });
      box.appendChild(h('div', { class: 'field' }, h('label', { for: input.id, text: p.name }), input));
    });
    return box;
  }

  fly(meeple, roll) {
    const m = { move: 'deploy', at: this.query.at, segment: 'flier', roll };
    if (meeple !== 'small') m.meeple = meeple;
    return this.step(m, `The ${figureName(meeple)} flies: rolled ${roll}`);
  }

  entry() {
    const o = this.opts;
    const e = { turn: o.turn, player: o.player, moves: [this.placeMove(), ...this.steps, { move: 'commit' }] };
    if (this.claims && Object.keys(this.claims).length) e.totals = { ...this.claims };
    return e;
  }

  async confirm() {
    if (!this.opts || this.opts.stage !== 'after') return;
    const q = loadQueue(this.id);
    q.push(this.entry());
    saveQueue(this.id, q);
    sessionStorage.removeItem(roundKey(this.id));
    this.query = {};
    this.steps = [];
    this.claims = {};
    this.choice = null;
    this.rotations = null;
    await this.sync();
    const g = this.game;
    if (!loadQueue(this.id).length) this.say(g && g.valid === false && g.violations ? t('record.recordedBad') : t('record.recorded'));
  }

  async undo() {
    const q = loadQueue(this.id);
    if (q.length) { // not sent yet: taken out of the queue
      q.pop();
      saveQueue(this.id, q);
    } else {
      const round = sessionStorage.getItem(roundKey(this.id));
      try { await post(`/api/live/${this.id}/undo${round ? '' : `?turn=${this.opts.turn - 1}`}`); } catch (e) { this.say(t('record.nothingUndone', { error: e.message })); return; }
      sessionStorage.removeItem(roundKey(this.id));
    }
    this.query = {};
    this.steps = [];
    this.choice = null;
    this.say(t('record.undone'));
    await this.load();
  }

  endButtons() {
    return h('div', { class: 'head-actions record-end' },
      h('button', { type: 'button', class: 'btn', disabled: this.opts.turn <= 1 && !loadQueue(this.id).length, dataset: { testid: 'undo' }, on: { click: () => this.undo() } }, t('record.undo')),
      h('button', { type: 'button', class: 'btn', dataset: { testid: 'finish' }, on: { click: () => this.finish() } }, t('record.end')));
  }

  async finish() {
    if (loadQueue(this.id).length) { this.say(t('record.notSent')); return; }
    if (!window.confirm(t('record.endConfirm'))) return;
    try { await post(`/api/live/${this.id}/finish`); } catch (e) { this.say(t('record.endError', { error: e.message })); return; }
    this.finished();
  }

  finished() {
    clear(this.panel);
    clear(this.boardWrap);
    this.panel.append(h('section', { class: 'card', dataset: { testid: 'finished' } },
      h('h2', { text: t('record.over') }),
      h('p', null, h('a', { href: `/games/${this.id}`, text: t('record.seeReplay') }), ' · ',
        h('a', { href: `/games/${this.id}/audit`, text: t('record.theAudit') })),
      h('p', { class: 'head-actions' },
        h('a', { class: 'btn', href: `/api/games/${this.id}/raw`, download: `game-${this.id}.flierlog`, dataset: { testid: 'download' } }, t('record.download')),
        h('a', { class: 'btn', href: `/api/games/${this.id}/raw?as=jcz`, download: `game-${this.id}.jcz`, dataset: { testid: 'download-jcz' } }, t('record.downloadJcz')))));
    this.say(t('record.overSay'));
  }
}

export function recordPage(main, params, query) {
  document.title = `${t('nav.record')} · flierd`;
  const root = h('section', { class: 'page narrow record' });
  main.appendChild(root);
  const id = Number(query.get('game'));
  if (!id) {
    root.appendChild(h('h1', { tabindex: -1, text: t('record.title') }));
    root.appendChild(h('p', { class: 'muted', text: t('record.lede') }));
    setupForm(root);
    return null;
  }
  const rec = new Recorder(root, id);
  rec.sync();
  return () => rec.close();
}
