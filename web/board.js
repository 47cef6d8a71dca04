// board.js - the board as SVG: tiles drawn from their geometry (each an SVG
// group turned by its rotation), meeples in player colours on their
// segments, and overlays for flights, violations and score events. Zoom
// with the wheel, a pinch or the buttons; pan by dragging.

import { s, clear } from './dom.js';
import { TILE, DIRS, tileGeometry, locateSegment, rotatePoint } from './geometry.js';
import { outlineFor } from './colors.js';
import { figure, figureShape, figureTitle, token, tokenTitle } from './figures.js';
import { TILE_MARKS, CLOSED, drawers, itemSpec } from './exp/index.js';
import { t as tr } from './i18n/index.js';

// A tile is drawn in stages, each unit's module adding its features
// (exp/): under (water under the roads), over (roads), areas (cities),
// ground (what covers a tile's ground), inner (things inside the tile);
// then the tokens and the tile's marks.
const STAGES = ['under', 'over', 'areas', 'ground', 'inner'];

function tileTransform(at, rotation) {
  return `translate(${at[0] * TILE} ${at[1] * TILE}) rotate(${rotation || 0} 50 50)`;
}

function upright(at, rotation) {
  return `rotate(${-(rotation || 0)} ${at[0]} ${at[1]})`;
}

/** The SVG group of one tile (tile frame, turned by rotation). */
export function drawTile(id, def, at, rotation) {
  const g = s('g', { class: 'tile', transform: tileTransform(at, rotation), dataset: { tile: id, at: at.join(',') } });
  g.appendChild(s('rect', { class: 'field-bg', x: 0, y: 0, width: TILE, height: TILE }));
  if (!def) {
    g.appendChild(s('rect', { class: 'unknown-tile', x: 4, y: 4, width: 92, height: 92 }));
    g.appendChild(s('text', { class: 'unknown-label', x: 50, y: 58, 'text-anchor': 'middle', transform: upright([50, 50], rotation), text: '?' }));
    g.appendChild(s('rect', { class: 'tile-border', x: 0, y: 0, width: TILE, height: TILE }));
    return g;
  }
  const geo = tileGeometry(id, def);
  if (geo.closed) g.classList.add('closed');
  const ctx = { def, rotation, upright: (p) => upright(p, rotation), closed: geo.closed ? CLOSED : null };
  for (const stage of STAGES) for (const draw of drawers(stage)) draw(g, geo, ctx);
  for (const t of geo.tokens) {
    const tk = token(t.attr);
    if (tk.hidden) continue;
    g.appendChild(s('g', {
      class: ['token', `token-${t.attr}`, tk.cls],
      transform: `${upright(t.at, rotation)} translate(${t.at[0]} ${t.at[1]})`,
      dataset: { attr: t.attr, feature: t.feature },
    }, s('title', { text: tokenTitle(t.attr) }), ...tk.draw()));
  }
  // The tile's marks, upright by the south-west corner.
  (def.marks || []).forEach((mark, j) => {
    const at = [14 + 20 * j, 86];
    const m = TILE_MARKS[mark] || { title: String(mark), d: 'M-5 0A5 5 0 1 1 5 0A5 5 0 1 1 -5 0Z' };
    g.appendChild(s('g', {
      class: ['tile-mark', `tile-mark-${mark}`],
      transform: `${upright([50, 50], rotation)} translate(${at[0]} ${at[1]})`,
      dataset: { mark },
    }, s('title', { text: m.title }), s('path', { d: m.d, 'fill-rule': 'evenodd' })));
  });
  g.appendChild(s('rect', { class: 'tile-border', x: 0, y: 0, width: TILE, height: TILE }));
  return g;
}

const key = (at) => `${at[0]},${at[1]}`;

// The smallest a tile starts at on screen, in CSS pixels: about where a
// follower, a tower or a quarter's name is still told apart. A board
// that would fit only smaller starts zoomed in on its latest tile.
const MIN_TILE_PX = 80;
// A pointer that moves further than this (CSS pixels) between going down
// and up drags the board: what it ends with is not a click.
const DRAG_PX = 6;

export class Board {
  /**
   * container: element to fill; replay: GET /api/games/{id}/replay;
   * colors: player colours by name; opts.readable: start zoomed in when
   * the whole board would leave its tiles too small (startView), else it
   * starts whole (a recorder needs every square a tile may go to).
   */
  constructor(container, replay, colors, opts = {}) {
    this.replay = replay;
    this.colors = colors;
    this.step = -1;
    this.placed = []; // {step, id, at, rotation, el, ghost}
    this.first = new Map(); // "x,y" -> the first tile placed there

    this.svg = s('svg', {
      class: 'board', role: 'img', 'aria-label': tr('board.label'), tabindex: 0,
      preserveAspectRatio: 'xMidYMid meet', viewBox: '0 0 100 100',
    });
    this.title = s('title', { text: tr('board.label') });
    this.svg.appendChild(this.title);
    this.gTiles = s('g', { class: 'layer-tiles' });
    this.gMarks = s('g', { class: 'layer-marks' });
    this.gMeeples = s('g', { class: 'layer-meeples' });
    this.gOver = s('g', { class: 'layer-over' });
    this.svg.append(this.gTiles, this.gMarks, this.gMeeples, this.gOver);
    container.appendChild(this.svg);

    // Every tile once; setStep only shows or hides them.
    const tiles = replay.tiles || {};
    (replay.turns || []).forEach((t, i) => {
      if (!t || !t.tile || !Array.isArray(t.at)) return;
      const k = key(t.at);
      const ghost = this.first.has(k);
      const el = drawTile(t.tile, tiles[t.tile], t.at, t.rotation);
      if (ghost) el.classList.add('ghost');
      const rec = { step: i, id: t.tile, at: t.at, rotation: t.rotation || 0, el, ghost };
      if (!ghost) this.first.set(k, rec);
      this.placed.push(rec);
      this.gTiles.appendChild(el);
    });
    // A start of several tiles (the City of Carcassonne): the first is
    // turn 0's, the others stand with it from the start.
    for (const st of (replay.start || []).slice(1)) {
      if (!st || !st.tile || !Array.isArray(st.at) || this.first.has(key(st.at))) continue;
      const el = drawTile(st.tile, tiles[st.tile], st.at, st.rotation);
      const rec = { step: 0, id: st.tile, at: st.at, rotation: st.rotation || 0, el, ghost: false };
      this.first.set(key(st.at), rec);
      this.placed.push(rec);
      this.gTiles.appendChild(el);
    }
    this.bounds = this.computeBounds();
    this.autoFit = true; // follow the growing board until the user zooms or pans
    this.fitWhole = !opts.readable; // else startView() until the user asks for it whole
    this.view = { ...this.bounds };
    this.applyView();
    // the starting zoom depends on the board's size on screen, known once
    // it is laid out (and changed by turning a phone)
    if (typeof ResizeObserver === 'function') new ResizeObserver(() => this.follow()).observe(this.svg);
    this.installPanZoom();
  }

  /** The area to show: every tile placed up to step (all steps when
   * omitted) and the flight targets of those turns, at least 5 x 4 tiles. */
  computeBounds(step = Infinity) {
    let minX = 0, minY = 0, maxX = 0, maxY = 0;
    const add = (at) => {
      if (!Array.isArray(at)) return;
      minX = Math.min(minX, at[0]); maxX = Math.max(maxX, at[0]);
      minY = Math.min(minY, at[1]); maxY = Math.max(maxY, at[1]);
    };
    for (const p of this.placed) if (p.step <= step) add(p.at);
    const turnOf = (i) => (this.replay.turns[i] ? this.replay.turns[i].turn : null);
    const last = Number.isFinite(step) ? turnOf(step) : null;
    for (const f of this.replay.flights || []) {
      if (Number.isFinite(step) && last !== null && f.turn > last) continue;
      add(f.target);
      for (const r of (f.odds && f.odds.rolls) || []) add(r.target);
    }
    const pad = 0.5;
    let w = maxX - minX + 1 + 2 * pad, hgt = maxY - minY + 1 + 2 * pad;
    let x = minX - pad, y = minY - pad;
    if (w < 5) { x -= (5 - w) / 2; w = 5; }
    if (hgt < 4) { y -= (4 - hgt) / 2; hgt = 4; }
    return { x: x * TILE, y: y * TILE, w: w * TILE, h: hgt * TILE };
  }

  /** The tile standing at `at` after step i (ghosts never count). */
  tileAt(at, i = this.step) {
    if (!Array.isArray(at)) return null;
    const rec = this.first.get(key(at));
    return rec && rec.step <= i ? rec : null;
  }

  /** A segment of the tile at `at`: {anchor (board units), shape, transform}. */
  locate(at, segment) {
    if (!Array.isArray(at)) at = [0, 0];
    const rec = this.tileAt(at);
    if (!rec) {
      const c = [at[0] * TILE + 50, at[1] * TILE + 50];
      return { anchor: c, transform: tileTransform(at, 0), shape: { kind: 'circle', at: [50, 50], r: 16 }, exact: false, feature: String(segment).split(':')[0] };
    }
    const def = (this.replay.tiles || {})[rec.id];
    const geo = def ? tileGeometry(rec.id, def) : null;
    const loc = locateSegment(geo, segment, rec.rotation);
    const q = Math.round(rec.rotation / 90);
    const [ax, ay] = rotatePoint(loc.anchor, q);
    return { ...loc, anchor: [at[0] * TILE + ax, at[1] * TILE + ay], transform: tileTransform(at, rec.rotation) };
  }

  /**
   * The view the board starts with and follows until the user zooms or
   * pans: the whole board of step i when its tiles stay at least
   * MIN_TILE_PX wide on screen, else a window that keeps them so, about
   * that step's tile and within the board.
   */
  startView(i) {
    const b = this.computeBounds(i);
    const px = this.svg.clientWidth, py = this.svg.clientHeight;
    // not laid out yet (or hidden): nothing to measure, show it all
    if (!px || !py) return b;
    const scale = Math.min(px / b.w, py / b.h); // preserveAspectRatio meet
    if (scale * TILE >= MIN_TILE_PX) return b;
    const w = Math.min(b.w, (px / MIN_TILE_PX) * TILE), h = Math.min(b.h, (py / MIN_TILE_PX) * TILE);
    const t = this.replay.turns[i];
    const c = t && Array.isArray(t.at) ? [t.at[0] * TILE + 50, t.at[1] * TILE + 50] : [b.x + b.w / 2, b.y + b.h / 2];
    // stay put while the step's tile is in view, so stepping does not jerk
    const v = this.view;
    if (v && Math.abs(v.w - w) < 1 && Math.abs(v.h - h) < 1 && c[0] > v.x + 50 && c[0] < v.x + v.w - 50 && c[1] > v.y + 50 && c[1] < v.y + v.h - 50) return v;
    const clampTo = (v, lo, len, span) => Math.max(lo, Math.min(lo + len - span, v - span / 2));
    return { x: clampTo(c[0], b.x, b.w, w), y: clampTo(c[1], b.y, b.h, h), w, h };
  }

  /** While no zoom or pan of the user's: the view of the current step. */
  follow() {
    if (!this.autoFit || this.step < 0) return;
    this.view = this.fitWhole ? this.computeBounds(this.step) : this.startView(this.step);
    this.applyView();
  }

  setStep(i) {
    this.step = i;
    this.follow();
    for (const p of this.placed) {
      const visible = p.ghost ? p.step === i : p.step <= i;
      p.el.classList.toggle('hidden', !visible);
      p.el.classList.toggle('last', p.step === i);
    }
    this.drawMeeples(i);
    this.clearOverlay();
    const t = this.replay.turns[i];
    const n = this.placed.filter((p) => p.step <= i && !p.ghost).length;
    const what = t && t.turn !== null && t.turn !== undefined ? tr('replay.turnN', { turn: t.turn }) : tr('replay.finalScoring');
    this.title.textContent = tr('board.after', { what, tiles: n, figures: t && t.meeples ? t.meeples.length : 0 });
    this.svg.setAttribute('aria-label', this.title.textContent);
  }

  drawMeeples(i) {
    clear(this.gMeeples);
    const t = this.replay.turns[i];
    if (!t || !Array.isArray(t.meeples)) return;
    // Figures on one spot stand side by side.
    const groups = new Map();
    for (const m of t.meeples) {
      const k = figure(m.kind).corner ? `corner|${key(m.at)}`
        : figure(m.kind).neutral && !m.segment ? `${m.kind}|${key(m.at)}` : `${key(m.at)}|${m.segment}`;
      if (!groups.has(k)) groups.set(k, []);
      groups.get(k).push(m);
    }
    for (const list of groups.values()) {
      list.forEach((m, j) => {
        const loc = this.place(m);
        const off = (j - (list.length - 1) / 2) * 15;
        this.gMeeples.appendChild(this.meeple(m, [loc.anchor[0] + off, loc.anchor[1]], loc.feature));
      });
    }
    // The units' items their modules draw (figures drawn as figures
    // stand with the meeples).
    for (const k of ['marks', 'tokens', 'figures']) {
      for (const it of (t.items && t.items[k]) || []) {
        const spec = itemSpec(it);
        if (spec.draw) this.gMeeples.appendChild(spec.draw(this, it));
      }
    }
    // Figures a unit holds off the board (its counters with drawHeld):
    // in a row above the board's north-west corner, where they are seen
    // without standing on any square.
    const held = ((t.items && t.items.counters) || []).filter((it) => itemSpec(it).drawHeld);
    if (held.length) {
      const tiles = this.placed.filter((p) => p.step <= i && !p.ghost);
      const x0 = Math.min(...tiles.map((p) => p.at[0])), y0 = Math.min(...tiles.map((p) => p.at[1]));
      const row = s('g', { class: 'held-row', dataset: { testid: 'held-row' } });
      held.forEach((it, j) => row.appendChild(itemSpec(it).drawHeld(this, it, [x0 * TILE + 14 + j * 26, y0 * TILE - 20])));
      this.gMeeples.appendChild(row);
    }
  }

  /** A seat's name and colour from the replay's players (held figures
   * name their holder by seat). */
  seat(k) {
    const p = (this.replay.players || [])[k];
    return p ? { name: p.name, color: this.colors.get(p.name) || '#777' } : { name: '?', color: '#777' };
  }

  /** Where figure m stands: its segment's anchor, or for a figure on a
   * corner the corner north-west of its tile (where the four fields meet). */
  place(m) {
    if (figure(m.kind).corner && Array.isArray(m.at)) return { anchor: [m.at[0] * TILE, m.at[1] * TILE], feature: 'field' };
    // a neutral figure on its square, at its spot (one on a feature
    // stands there, as a follower)
    if (figure(m.kind).neutral && Array.isArray(m.at) && !m.segment) {
      const [dx, dy] = figure(m.kind).spot || [0.5, 0.5];
      return { anchor: [(m.at[0] + dx) * TILE, (m.at[1] + dy) * TILE], feature: null };
    }
    return this.locate(m.at, m.segment);
  }

  meeple(m, [x, y], feature) {
    const f = figure(m.kind);
    const fill = f.fill || this.colors.get(m.player) || '#777';
    const lying = feature === 'field' && f.lies;
    const g = s('g', {
      class: ['meeple', m.flew ? 'flew' : null, `kind-${m.kind}`, f.generic ? 'kind-unknown' : null],
      transform: `translate(${x} ${y})${lying ? ' rotate(-90)' : ''}`,
      dataset: { player: m.player, kind: m.kind, at: Array.isArray(m.at) ? key(m.at) : null, segment: m.segment },
    });
    g.appendChild(s('title', { text: `${figureTitle(m)}${m.flew ? tr('board.byFlight') : ''}` }));
    if (m.flew) g.appendChild(s('circle', { class: 'flew-ring', r: 16 }));
    g.appendChild(figureShape(m.kind, fill, outlineFor(fill)));
    return g;
  }

  clearOverlay() {
    clear(this.gMarks);
    clear(this.gOver);
  }

  /** Outlines the tile at `at` (cls: 'mark-last', 'mark-violation', ...). */
  markTile(at, cls, label) {
    if (!Array.isArray(at)) return null;
    const r = s('rect', { class: ['tile-mark', cls], x: at[0] * TILE + 2, y: at[1] * TILE + 2, width: TILE - 4, height: TILE - 4, rx: 4, dataset: { at: key(at) } });
    if (label) r.appendChild(s('title', { text: label }));
    this.gOver.appendChild(r);
    return r;
  }

  /** Highlights a segment: its shape on the tile, and a ring at its anchor. */
  markSegment(at, segment, cls, label) {
    const loc = this.locate(at, segment);
    // The shape goes under the meeples (a meeple on it stays visible), the
    // ring around its anchor above them.
    const shape = s('g', { class: ['seg-mark', cls], transform: loc.transform });
    const sh = loc.shape;
    if (sh.kind === 'circle') shape.appendChild(s('circle', { class: 'seg-shape', cx: sh.at[0], cy: sh.at[1], r: sh.r }));
    else if (sh.kind === 'stroke') shape.appendChild(s('path', { class: 'seg-shape seg-stroke', d: sh.d }));
    else shape.appendChild(s('path', { class: 'seg-shape', d: sh.d }));
    this.gMarks.appendChild(shape);
    const g = s('g', { class: ['seg-mark', cls], dataset: { at: key(at), segment } });
    if (label) g.appendChild(s('title', { text: label }));
    g.appendChild(s('circle', { class: 'seg-ring', cx: loc.anchor[0], cy: loc.anchor[1], r: 17 }));
    this.gOver.appendChild(g);
    return g;
  }

  /** A small ring on a segment (a landing option). */
  markOption(at, segment, cls, label) {
    const loc = this.locate(at, segment);
    const c = s('circle', { class: ['option-ring', cls], cx: loc.anchor[0], cy: loc.anchor[1], r: 11, dataset: { at: key(at), segment } });
    if (label) c.appendChild(s('title', { text: label }));
    this.gMarks.appendChild(c);
    return c;
  }

  /**
   * A flight: the arrow from the flying machine over its three targets,
   * each target numbered by its roll with its valid landings, the rolled
   * one stressed, and the landing (or the return) shown.
   */
  showFlight(f) {
    if (!f || !Array.isArray(f.from)) return;
    const d = DIRS[f.direction] || [0, 0];
    const from = [f.from[0] * TILE + 50, f.from[1] * TILE + 50];
    const rolls = (f.odds && f.odds.rolls) || [1, 2, 3].map((r) => ({ roll: r, target: [f.from[0] + d[0] * r, f.from[1] + d[1] * r], landings: [] }));
    const far = rolls.reduce((m, r) => Math.max(m, r.roll), 0) || 3;
    const end = [from[0] + d[0] * far * TILE, from[1] + d[1] * far * TILE];
    this.gMarks.appendChild(s('path', { class: 'flight-path', d: `M${from[0]} ${from[1]}L${end[0]} ${end[1]}` }));
    for (const r of rolls) {
      if (!Array.isArray(r.target)) continue;
      const rolled = r.roll === f.roll;
      const empty = !this.tileAt(r.target);
      const sq = s('rect', {
        class: ['flight-target', rolled ? 'rolled' : null, empty ? 'empty' : null],
        x: r.target[0] * TILE + 3, y: r.target[1] * TILE + 3, width: TILE - 6, height: TILE - 6, rx: 6,
        dataset: { roll: r.roll, at: key(r.target) },
      });
      sq.appendChild(s('title', { text: `${tr('board.roll', { roll: r.roll, at: `(${r.target[0]},${r.target[1]})` })}, ${empty ? tr('replay.noTile') : (r.landings.length ? tr('board.landings', { n: r.landings.length }) : tr('replay.noLanding'))}` }));
      this.gMarks.appendChild(sq);
      const bx = r.target[0] * TILE + 14, by = r.target[1] * TILE + 14;
      this.gOver.appendChild(s('g', { class: ['roll-badge', rolled ? 'rolled' : null], dataset: { roll: r.roll } },
        s('circle', { cx: bx, cy: by, r: 11 }),
        s('text', { x: bx, y: by + 5, 'text-anchor': 'middle', text: String(r.roll) })));
      if (!empty) {
        for (const l of r.landings || []) {
          this.markOption(r.target, l.segment, rolled ? 'rolled' : 'other', `Roll ${r.roll}: may land on ${l.segment}`);
        }
      }
    }
    // The arrow head sits on the flying machine's tile edge.
    const ang = Math.atan2(d[1], d[0]) * 180 / Math.PI + 90;
    const tip = [from[0] + d[0] * 46, from[1] + d[1] * 46];
    this.gOver.appendChild(s('path', { class: 'flight-head', d: 'M0 -9L-7 5H7Z', transform: `translate(${tip[0]} ${tip[1]}) rotate(${ang})` }));
    if (f.outcome === 'landed' && f.segment) {
      const m = this.markSegment(f.target, f.segment, 'landed', tr('board.landed', { player: f.player, segment: f.segment, at: `(${f.target[0]},${f.target[1]})` }));
      m.dataset.testid = 'landing';
    } else if (f.outcome === 'returned' && Array.isArray(f.target)) {
      this.markTile(f.target, 'mark-returned', tr('board.returned', { player: f.player }));
    }
  }

  // ---- zoom and pan ----

  /** Fits the whole board of the current step, however small its tiles
   * get, and follows it from now on. */
  fit() {
    this.autoFit = true;
    this.fitWhole = true;
    this.view = this.step >= 0 ? this.computeBounds(this.step) : { ...this.bounds };
    this.applyView();
  }

  applyView() {
    const v = this.view;
    this.svg.setAttribute('viewBox', `${v.x.toFixed(1)} ${v.y.toFixed(1)} ${v.w.toFixed(1)} ${v.h.toFixed(1)}`);
  }

  /** Zoom by factor f (> 1 zooms out) about the board point p. */
  zoom(f, p) {
    this.autoFit = false;
    const v = this.view;
    const maxW = Math.max(this.bounds.w, this.bounds.h) * 3;
    const w = Math.min(maxW, Math.max(TILE * 1.5, v.w * f));
    const k = w / v.w;
    const c = p || [v.x + v.w / 2, v.y + v.h / 2];
    this.view = { x: c[0] - (c[0] - v.x) * k, y: c[1] - (c[1] - v.y) * k, w, h: v.h * k };
    this.applyView();
  }

  centerOn(at) {
    if (this.autoFit) return;
    const v = this.view;
    const c = [at[0] * TILE + 50, at[1] * TILE + 50];
    // Only move when the tile is out of view.
    if (c[0] > v.x + 50 && c[0] < v.x + v.w - 50 && c[1] > v.y + 50 && c[1] < v.y + v.h - 50) return;
    this.view = { ...v, x: c[0] - v.w / 2, y: c[1] - v.h / 2 };
    this.applyView();
  }

  toBoard(clientX, clientY) {
    const m = this.svg.getScreenCTM();
    if (!m) return null;
    const p = new DOMPoint(clientX, clientY).matrixTransform(m.inverse());
    return [p.x, p.y];
  }

  installPanZoom() {
    const svg = this.svg;
    svg.addEventListener('wheel', (e) => {
      e.preventDefault();
      const f = Math.exp(Math.max(-60, Math.min(60, e.deltaY)) * 0.004);
      this.zoom(f, this.toBoard(e.clientX, e.clientY));
    }, { passive: false });
    const pointers = new Map();
    let pinch = null;
    // Where the first pointer went down, and whether it has moved since
    // far enough to be a drag: the click a mouse gives after a drag (on
    // the element both ends share, here the board) is no tap.
    let downAt = null, dragged = false;
    svg.addEventListener('pointerdown', (e) => {
      if (e.button !== 0 && e.pointerType === 'mouse') return;
      svg.setPointerCapture(e.pointerId);
      if (!pointers.size) { downAt = [e.clientX, e.clientY]; dragged = false; }
      pointers.set(e.pointerId, [e.clientX, e.clientY]);
      if (pointers.size === 2) {
        const [a, b] = [...pointers.values()];
        pinch = { dist: Math.hypot(a[0] - b[0], a[1] - b[1]) };
      }
      svg.classList.add('dragging');
    });
    svg.addEventListener('pointermove', (e) => {
      if (!pointers.has(e.pointerId)) return;
      const prev = pointers.get(e.pointerId);
      pointers.set(e.pointerId, [e.clientX, e.clientY]);
      if (downAt && Math.hypot(e.clientX - downAt[0], e.clientY - downAt[1]) > DRAG_PX) dragged = true;
      const m = svg.getScreenCTM();
      if (!m) return;
      if (pointers.size === 2 && pinch) {
        const [a, b] = [...pointers.values()];
        const dist = Math.hypot(a[0] - b[0], a[1] - b[1]);
        if (dist > 0 && pinch.dist > 0) this.zoom(pinch.dist / dist, this.toBoard((a[0] + b[0]) / 2, (a[1] + b[1]) / 2));
        pinch.dist = dist;
        return;
      }
      if (e.clientX !== prev[0] || e.clientY !== prev[1]) this.autoFit = false;
      this.view.x -= (e.clientX - prev[0]) / m.a;
      this.view.y -= (e.clientY - prev[1]) / m.d;
      this.applyView();
    });
    const up = (e) => {
      pointers.delete(e.pointerId);
      if (pointers.size < 2) pinch = null;
      if (!pointers.size) svg.classList.remove('dragging');
    };
    svg.addEventListener('pointerup', up);
    svg.addEventListener('pointercancel', up);
    svg.addEventListener('click', (e) => {
      if (!dragged) return;
      dragged = false;
      e.stopPropagation();
      e.preventDefault();
    }, true);
    svg.addEventListener('dblclick', (e) => this.zoom(0.6, this.toBoard(e.clientX, e.clientY)));
    svg.addEventListener('keydown', (e) => {
      const pan = this.view.w * 0.1;
      if (e.key === '+' || e.key === '=') this.zoom(0.8);
      else if (e.key === '-' || e.key === '_') this.zoom(1.25);
      else if (e.key === '0') this.fit();
      else if (e.key === 'ArrowUp') { this.autoFit = false; this.view.y -= pan; this.applyView(); } else if (e.key === 'ArrowDown') { this.autoFit = false; this.view.y += pan; this.applyView(); } else return;
      e.preventDefault();
      e.stopPropagation();
    });
  }
}
