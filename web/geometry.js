// geometry.js - tile geometry from the replay's "tiles" object.
//
// A tile is 100 x 100 units in its own frame (y grows south). Its segments
// are given by edges (N E S W) for roads and cities and by half-edges (NL NR
// EL ER SL SR WL WR, clockwise from the west half of north) for fields.
// From that we build the shapes to draw (city polygons, road polylines) and,
// with a coarse raster of the tile, the field regions, plus an anchor point
// for every segment (where a meeple stands or a highlight is centred).
// Everything here is pure computation; board.js draws it. How a feature's
// segments lie (by edges, by half-edges, inside the tile, at named spots)
// and where its things stand comes from its unit's module (exp/).

import { FEATURES, GROUNDS } from './exp/index.js';

export const TILE = 100;
export const EDGES = ['N', 'E', 'S', 'W'];
export const HALVES = ['NL', 'NR', 'EL', 'ER', 'SL', 'SR', 'WL', 'WR'];
const CORNERS = [[0, 0], [100, 0], [100, 100], [0, 100]]; // edge i runs corner i -> i+1
const EDGE_MID = [[50, 0], [100, 50], [50, 100], [0, 50]];
const INWARD = [[0, 1], [-1, 0], [0, -1], [1, 0]];
const HALF_SEED = [[25, 3], [75, 3], [97, 25], [97, 75], [75, 97], [25, 97], [3, 75], [3, 25]];
export const DIRS = {
  N: [0, -1], NE: [1, -1], E: [1, 0], SE: [1, 1], S: [0, 1], SW: [-1, 1], W: [-1, 0], NW: [-1, -1],
};

// A feature's class: its shape ('edges', 'halves', 'inner', 'spots').
const featureClass = (f) => (Object.prototype.hasOwnProperty.call(FEATURES, f) ? FEATURES[f] : {});

/** "city:_S" -> {feature: 'city', edges: [0, 1, 3]}; fields get halves. */
export function parseSegment(str) {
  const text = String(str || '');
  const i = text.indexOf(':');
  const feature = i < 0 ? text : text.slice(0, i);
  const rest = i < 0 ? '' : text.slice(i + 1);
  const shape = featureClass(feature).shape;
  // spots told apart by name: "spot:name"
  if (shape === 'spots') return { feature, inner: rest };
  if (shape === 'halves') {
    // "field:I" and "field:II": fields inside a tile's cities, touching no edge.
    if (rest === 'I' || rest === 'II') return { feature, halves: [], inner: rest };
    const halves = [...new Set(rest.split('.').map((x) => HALVES.indexOf(x)).filter((x) => x >= 0))];
    return { feature, halves: halves.sort((a, b) => a - b) };
  }
  if (shape === 'edges') {
    let edges;
    if (rest.startsWith('_')) {
      const out = EDGES.indexOf(rest[1]);
      edges = [0, 1, 2, 3].filter((e) => e !== out);
    } else {
      edges = [...rest].map((c) => EDGES.indexOf(c)).filter((x) => x >= 0);
    }
    return { feature, edges: [...new Set(edges)].sort((a, b) => a - b) };
  }
  return { feature };
}

export function segmentKey(p) {
  if (p.inner) return `${p.feature}:${p.inner}`;
  if (p.edges) return `${p.feature}:${p.edges.join('')}`;
  if (p.halves) return `${p.feature}:${p.halves.join('.')}`;
  return p.feature;
}

/** Turns a parsed segment by q clockwise quarter turns. */
export function rotateSegment(p, q) {
  const k = ((q % 4) + 4) % 4;
  const out = { feature: p.feature };
  if (p.inner) out.inner = p.inner;
  if (p.edges) out.edges = p.edges.map((e) => (e + k) % 4).sort((a, b) => a - b);
  if (p.halves) out.halves = p.halves.map((e) => (e + 2 * k) % 8).sort((a, b) => a - b);
  return out;
}

/** A point of the tile frame turned by q clockwise quarter turns. */
export function rotatePoint([x, y], q) {
  let px = x, py = y;
  for (let i = 0; i < ((q % 4) + 4) % 4; i++) [px, py] = [TILE - py, px];
  return [px, py];
}

const r1 = (v) => Math.round(v * 10) / 10;
const pt = ([x, y]) => `${r1(x)} ${r1(y)}`;

function quadPoints(a, c, b, n) {
  const out = [];
  for (let i = 0; i <= n; i++) {
    const t = i / n, u = 1 - t;
    out.push([u * u * a[0] + 2 * u * t * c[0] + t * t * b[0], u * u * a[1] + 2 * u * t * c[1] + t * t * b[1]]);
  }
  return out;
}

/* A city of the given edges: the tile's border along its edges, and a wall
 * curving inwards where an edge is not the city's. */
function cityShape(edges) {
  const inc = [0, 1, 2, 3].map((e) => edges.includes(e));
  if (inc.every(Boolean) || !inc.some(Boolean)) {
    return { d: 'M0 0H100V100H0Z', wall: '', poly: CORNERS.slice() };
  }
  const start = [0, 1, 2, 3].find((e) => inc[e] && !inc[(e + 3) % 4]);
  let d = `M${pt(CORNERS[start])}`, wall = '';
  const poly = [CORNERS[start]];
  let i = start, n = 0;
  while (n < 4) {
    if (inc[i]) {
      const to = CORNERS[(i + 1) % 4];
      d += `L${pt(to)}`;
      poly.push(to);
      i = (i + 1) % 4;
      n++;
      continue;
    }
    let len = 0;
    while (!inc[(i + len) % 4]) len++;
    const from = CORNERS[i], to = CORNERS[(i + len) % 4];
    let ctrl;
    if (len === 1) {
      const depth = inc[(i + 2) % 4] ? 60 : 50;
      ctrl = [EDGE_MID[i][0] + INWARD[i][0] * depth, EDGE_MID[i][1] + INWARD[i][1] * depth];
    } else if (len === 2) {
      const corner = CORNERS[(i + 1) % 4];
      ctrl = [50 + (corner[0] - 50) * 0.12, 50 + (corner[1] - 50) * 0.12];
    } else {
      const e = (i + 3) % 4; // the one edge of the city
      ctrl = [EDGE_MID[e][0] + INWARD[e][0] * 50, EDGE_MID[e][1] + INWARD[e][1] * 50];
    }
    d += `Q${pt(ctrl)} ${pt(to)}`;
    wall += `M${pt(from)}Q${pt(ctrl)} ${pt(to)}`;
    poly.push(...quadPoints(from, ctrl, to, 16).slice(1));
    i = (i + len) % 4;
    n += len;
  }
  return { d: d + 'Z', wall, poly };
}

/* A road of the given edges: straight across, curved round a corner, or
 * a stub from an edge to the centre (a crossing, a monastery, a city gate). */
function roadShape(edges) {
  const c = [50, 50];
  if (edges.length === 2) {
    const [a, b] = edges;
    if ((a + 2) % 4 === b) {
      return { d: `M${pt(EDGE_MID[a])}L${pt(EDGE_MID[b])}`, pts: quadPoints(EDGE_MID[a], c, EDGE_MID[b], 12) };
    }
    // adjacent edges: the corner they share is corner b when b = a + 1.
    const corner = (a + 1) % 4 === b ? CORNERS[b] : CORNERS[a];
    const ctrl = [50 + (corner[0] - 50) * 0.36, 50 + (corner[1] - 50) * 0.36];
    return { d: `M${pt(EDGE_MID[a])}Q${pt(ctrl)} ${pt(EDGE_MID[b])}`, pts: quadPoints(EDGE_MID[a], ctrl, EDGE_MID[b], 16) };
  }
  let d = '';
  const pts = [];
  for (const e of edges) {
    d += `M${pt(EDGE_MID[e])}L${pt(c)}`;
    pts.push(...quadPoints(EDGE_MID[e], c, c, 8));
  }
  return { d, pts, stub: edges.length === 1 };
}

function inPolygon([x, y], poly) {
  let inside = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, yi] = poly[i], [xj, yj] = poly[j];
    if ((yi > y) !== (yj > y) && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

function distToPolyline(p, pts) {
  let best = Infinity;
  for (let i = 1; i < pts.length; i++) {
    const [ax, ay] = pts[i - 1], [bx, by] = pts[i];
    const dx = bx - ax, dy = by - ay;
    const len2 = dx * dx + dy * dy;
    let t = len2 ? ((p[0] - ax) * dx + (p[1] - ay) * dy) / len2 : 0;
    t = Math.max(0, Math.min(1, t));
    const qx = ax + t * dx - p[0], qy = ay + t * dy - p[1];
    best = Math.min(best, Math.sqrt(qx * qx + qy * qy));
  }
  return best;
}

// The raster: G x G cells of C units.
const G = 50, C = TILE / G;
const cellCenter = (i) => [(i % G) * C + C / 2, Math.floor(i / G) * C + C / 2];
const cellAt = ([x, y]) => Math.min(G - 1, Math.max(0, Math.floor(y / C))) * G + Math.min(G - 1, Math.max(0, Math.floor(x / C)));

/* For each cell of mask (true = inside the region), its distance in cells
 * to the nearest cell outside (the tile's border counts as outside). */
function distances(mask) {
  const dist = new Int16Array(G * G).fill(-1);
  const queue = [];
  for (let i = 0; i < G * G; i++) {
    const x = i % G, y = Math.floor(i / G);
    if (!mask[i]) { dist[i] = 0; queue.push(i); } else if (x === 0 || y === 0 || x === G - 1 || y === G - 1) { dist[i] = 1; queue.push(i); }
  }
  for (let q = 0; q < queue.length; q++) {
    const i = queue[q], x = i % G, y = Math.floor(i / G);
    for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
      const nx = x + dx, ny = y + dy;
      if (nx < 0 || ny < 0 || nx >= G || ny >= G) continue;
      const j = ny * G + nx;
      if (dist[j] < 0) { dist[j] = dist[i] + 1; queue.push(j); }
    }
  }
  return dist;
}

/* The point of a region farthest from its border (ties: nearest to pref). */
function pole(mask, pref = [50, 50]) {
  const dist = distances(mask);
  let best = -1, bestD = -1, bestP = Infinity;
  for (let i = 0; i < G * G; i++) {
    if (!mask[i]) continue;
    const [x, y] = cellCenter(i);
    const p = (x - pref[0]) ** 2 + (y - pref[1]) ** 2;
    if (dist[i] > bestD || (dist[i] === bestD && p < bestP)) { best = i; bestD = dist[i]; bestP = p; }
  }
  return best < 0 ? null : { at: cellCenter(best), radius: bestD * C };
}

function discMask(center, r) {
  const m = new Uint8Array(G * G);
  for (let i = 0; i < G * G; i++) {
    const [x, y] = cellCenter(i);
    if ((x - center[0]) ** 2 + (y - center[1]) ** 2 <= r * r) m[i] = 1;
  }
  return m;
}

/* The outline of a set of cells as one path of horizontal runs. */
function cellsPath(mask) {
  let d = '';
  for (let y = 0; y < G; y++) {
    let x = 0;
    while (x < G) {
      if (!mask[y * G + x]) { x++; continue; }
      const x0 = x;
      while (x < G && mask[y * G + x]) x++;
      d += `M${x0 * C} ${y * C}h${(x - x0) * C}v${C}h${-(x - x0) * C}z`;
    }
  }
  return d;
}

const cache = new Map();

/* A point for a token (an inn's, a cathedral's, trade goods) in a region:
 * at least minClear units from its border, as far as may be (up to 26)
 * from the points in avoid; null when the region has no such cell. */
function spotIn(mask, avoid, minClear) {
  const dist = distances(mask);
  let best = null, bestScore = -Infinity;
  for (let i = 0; i < G * G; i++) {
    if (!mask[i] || dist[i] * C < minClear) continue;
    const p = cellCenter(i);
    const far = avoid.reduce((m, a) => Math.min(m, Math.hypot(p[0] - a[0], p[1] - a[1])), 26);
    const score = far + dist[i] * C * 0.05 - Math.hypot(p[0] - 50, p[1] - 50) * 0.01;
    if (score > bestScore) { bestScore = score; best = p; }
  }
  return best;
}

// Keys of a segment that are no attribute (every other true key is one:
// "inn", "cathedral", "wine", "cloth", "grain", "pig-herd", ...).
const NOT_ATTRS = new Set(['feature', 'segment', 'pennants', 'cities']);
const segAttrs = (sg) => Object.keys(sg).filter((k) => !NOT_ATTRS.has(k) && sg[k] === true);

/**
 * The drawable geometry of tile `id` from its definition {segments, ...}.
 * Returns {cities (areas by edges), roads (lines by edges), under (lines
 * by edges drawn under the roads), fields, spots: [{key, feature, name,
 * at}], inner: Map(feature -> {key, feature, at, r, attrs, cls}),
 * junction, pond, closed, tokens: [{attr, feature, key, at}],
 * built: [{poly, ...}] (ground a unit builds on, see exp/index.js),
 * segments: Map(key -> {feature, anchor, shape})}. A closed tile has no
 * segment on its edges: it ends whatever it meets.
 */
export function tileGeometry(id, def) {
  if (cache.has(id)) return cache.get(id);
  const segs = (def && Array.isArray(def.segments)) ? def.segments : [];
  const geo = {
    id, cities: [], roads: [], under: [], fields: [], spots: [], inner: new Map(),
    junction: false, pond: null, closed: false, tokens: [], segments: new Map(),
    built: GROUNDS.flatMap((f) => f(id, def) || []),
  };

  for (const sg of segs) {
    const p = parseSegment(sg.segment);
    const cls = featureClass(p.feature);
    const attrs = segAttrs(sg);
    const key = segmentKey(p), feature = p.feature;
    if (cls.shape === 'edges' && p.edges.length) {
      if (cls.area) geo.cities.push({ key, feature, edges: p.edges, pennants: sg.pennants || 0, attrs, ...cityShape(p.edges) });
      else if (cls.line === 'under') geo.under.push({ key, feature, edges: p.edges, ...roadShape(p.edges) });
      else geo.roads.push({ key, feature, edges: p.edges, attrs, ...roadShape(p.edges) });
    } else if (cls.shape === 'halves') {
      geo.fields.push({ key, feature, halves: p.halves, cities: sg.cities || '', attrs });
    } else if (cls.shape === 'inner') {
      geo.inner.set(feature, { key: feature, feature, at: [50, 50], r: cls.r, attrs, cls });
    } else if (cls.shape === 'spots') {
      geo.spots.push({ key, feature, name: p.inner, at: (cls.spots || {})[p.inner] || [50, 50], cls });
    }
  }
  // a thing the definition names without its segment (a flying machine's direction)
  for (const [f, cls] of Object.entries(FEATURES)) {
    if (cls.implied && !geo.inner.has(f) && def && def[cls.implied]) geo.inner.set(f, { key: f, feature: f, at: [50, 50], r: cls.r, attrs: [], cls });
  }
  const things = [...geo.inner.values()].sort((a, b) => (a.cls.order ?? 9) - (b.cls.order ?? 9));
  const center = things.find((x) => x.cls.place === 'center'); // roads end at it
  const stubs = geo.roads.filter((r) => r.stub).length;
  geo.junction = stubs >= 3 || (stubs >= 1 && !center && !geo.cities.length) || stubs === 2;
  // A line under the roads that ends on the tile ends in a lake (a spring, a lake).
  if (geo.under.length === 1 && geo.under[0].stub) geo.pond = { at: [50, 50], r: 13, lake: true };
  // Where it forks, its arms meet in the middle.
  else if (geo.under.some((r) => r.edges.length > 2)) geo.pond = { at: [50, 50], r: 6, lake: false };
  geo.closed = segs.length > 0 && !geo.cities.length && !geo.roads.length && !geo.under.length && !geo.fields.length &&
    !geo.spots.length;

  // Raster: which cells are city, road, water or free (field).
  const owner = new Int16Array(G * G).fill(-1); // -1 free, k >= 0 city k, -2 road, -3 under the roads
  for (let i = 0; i < G * G; i++) {
    const p = cellCenter(i);
    const k = geo.cities.findIndex((c) => inPolygon(p, c.poly));
    if (k >= 0) { owner[i] = k; continue; }
    // built over: no field reaches there, so a farmer stands where the
    // drawing leaves meadow
    if (geo.built.some((b) => inPolygon(p, b.poly))) { owner[i] = -4; continue; }
    if (geo.roads.some((r) => distToPolyline(p, r.pts) < 6.5)) owner[i] = -2;
    else if (geo.junction && Math.hypot(p[0] - 50, p[1] - 50) < 9) owner[i] = -2;
    else if (geo.under.some((r) => distToPolyline(p, r.pts) < 7.5)) owner[i] = -3;
    else if (geo.pond && Math.hypot(p[0] - geo.pond.at[0], p[1] - geo.pond.at[1]) < geo.pond.r + 1.5) owner[i] = -3;
  }
  const free = new Uint8Array(G * G);
  for (let i = 0; i < G * G; i++) free[i] = owner[i] === -1 ? 1 : 0;

  // Fields: one flood fill from all their half-edges at once, so that two
  // fields the drawing does not wall off from each other (a city's curve
  // that stops short of water) share the region by nearness.
  const claim = new Int16Array(G * G).fill(-1);
  const queue = [];
  geo.fields.forEach((f, k) => {
    for (const hIdx of f.halves) {
      let seed = cellAt(HALF_SEED[hIdx]);
      const e = Math.floor(hIdx / 2);
      for (let step = 0; step < 12 && !free[seed]; step++) {
        const [x, y] = cellCenter(seed);
        seed = cellAt([x + INWARD[e][0] * C, y + INWARD[e][1] * C]);
      }
      if (free[seed] && claim[seed] < 0) { claim[seed] = k; queue.push(seed); }
    }
  });
  for (let q = 0; q < queue.length; q++) {
    const i = queue[q], x = i % G, y = Math.floor(i / G);
    for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
      const nx = x + dx, ny = y + dy;
      if (nx < 0 || ny < 0 || nx >= G || ny >= G) continue;
      const j = ny * G + nx;
      if (free[j] && claim[j] < 0) { claim[j] = claim[i]; queue.push(j); }
    }
  }
  // Fields touching no edge ("field:I", "field:II") take what is left, largest part first.
  const inner = geo.fields.map((f, k) => (f.halves.length ? -1 : k)).filter((k) => k >= 0);
  if (inner.length) {
    const parts = [];
    const seen = new Uint8Array(G * G);
    for (let i0 = 0; i0 < G * G; i0++) {
      if (!free[i0] || claim[i0] >= 0 || seen[i0]) continue;
      const part = [i0];
      seen[i0] = 1;
      for (let q = 0; q < part.length; q++) {
        const i = part[q], x = i % G, y = Math.floor(i / G);
        for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
          const nx = x + dx, ny = y + dy, j = ny * G + nx;
          if (nx < 0 || ny < 0 || nx >= G || ny >= G || !free[j] || claim[j] >= 0 || seen[j]) continue;
          seen[j] = 1;
          part.push(j);
        }
      }
      parts.push(part);
    }
    parts.sort((a, b) => b.length - a.length);
    inner.forEach((k, n) => { for (const i of parts[n] || []) claim[i] = k; });
  }
  const fieldMask = (k) => { const m = new Uint8Array(G * G); for (let i = 0; i < G * G; i++) m[i] = claim[i] === k ? 1 : 0; return m; };
  // Cells taken by the things drawn in the middle of a field.
  const taken = new Uint8Array(G * G);
  const take = (center, r) => { const m = discMask(center, r); for (let i = 0; i < G * G; i++) if (m[i]) taken[i] = 1; };
  const freeNotTaken = () => { const m = new Uint8Array(G * G); for (let i = 0; i < G * G; i++) m[i] = free[i] && !taken[i] ? 1 : 0; return m; };
  // The things inside the tile, in their order: one in the middle, beside
  // the water if any runs there; the others where the field leaves room.
  const clamp = (v, lo, hi) => Math.max(lo, Math.min(hi, v));
  for (const x of things) {
    if (x.cls.place === 'center') {
      const p = geo.under.length ? pole(freeNotTaken()) : null;
      if (p) x.at = [clamp(p.at[0], 16, 84), clamp(p.at[1], 24, 86)]; // its cross stays on the tile
    } else {
      const p = pole(freeNotTaken());
      if (p) x.at = p.at;
      if (p && x.cls.fit) x.r = clamp(p.radius - 3, x.cls.fit[0], x.cls.fit[1]);
    }
    take(x.at, x.r + (x.cls.clear ?? 6));
  }

  // Anchors and highlight shapes of every segment.
  geo.cities.forEach((c, k) => {
    const m = new Uint8Array(G * G);
    for (let i = 0; i < G * G; i++) m[i] = owner[i] === k ? 1 : 0;
    const pl = pole(m);
    c.anchor = pl ? pl.at : [50, 50];
    // The pennant: inside the city, some way from where a meeple stands.
    if (c.pennants) {
      const dist = distances(m);
      let best = null, bestScore = Infinity;
      for (let i = 0; i < G * G; i++) {
        if (!m[i] || dist[i] * C < 6) continue;
        const [x, y] = cellCenter(i);
        const score = Math.abs(Math.hypot(x - c.anchor[0], y - c.anchor[1]) - 20) + y * 0.01;
        if (score < bestScore) { bestScore = score; best = [x, y]; }
      }
      c.pennantAt = best || [c.anchor[0] + 14, c.anchor[1]];
    }
    // Its tokens (a cathedral, trade goods): away from the meeple and the pennant.
    const avoid = [c.anchor, ...(c.pennantAt ? [c.pennantAt] : [])];
    for (const attr of c.attrs) {
      const at = spotIn(m, avoid, 7) || [c.anchor[0] + 14, c.anchor[1] - 10];
      avoid.push(at);
      geo.tokens.push({ attr, feature: 'city', key: c.key, at });
    }
    geo.segments.set(c.key, { feature: 'city', anchor: c.anchor, shape: { kind: 'path', d: c.d } });
  });
  geo.roads.forEach((r) => {
    const visible = r.pts.filter((p) => !geo.cities.some((c) => inPolygon(p, c.poly)) &&
      !(center && Math.hypot(p[0] - 50, p[1] - 50) < 20) &&
      !(geo.junction && Math.hypot(p[0] - 50, p[1] - 50) < 10) &&
      !geo.under.some((w) => distToPolyline(p, w.pts) < 9)); // not on the bridge
    const list = visible.length ? visible : r.pts;
    r.anchor = list[Math.floor(list.length / 2)];
    // An inn stands on the road, some way from where the meeple stands and
    // off the tile's border.
    const avoid = [r.anchor];
    for (const attr of r.attrs) {
      let at = r.anchor, best = -Infinity;
      for (const p of list) {
        const near = Math.min(...avoid.map((a) => Math.hypot(p[0] - a[0], p[1] - a[1])));
        const edge = Math.min(p[0], p[1], TILE - p[0], TILE - p[1]);
        const score = -Math.abs(near - 24) - (edge < 13 ? 40 : 0);
        if (score > best) { best = score; at = p; }
      }
      avoid.push(at);
      geo.tokens.push({ attr, feature: 'road', key: r.key, at });
    }
    geo.segments.set(r.key, { feature: 'road', anchor: r.anchor, shape: { kind: 'stroke', d: r.d } });
  });
  geo.under.forEach((r) => {
    geo.segments.set(r.key, { feature: r.feature, anchor: geo.pond ? geo.pond.at : r.pts[Math.floor(r.pts.length / 2)], shape: { kind: 'stroke', d: r.d } });
  });
  geo.fields.forEach((f, k) => {
    const m = fieldMask(k);
    const spot = new Uint8Array(G * G);
    let any = false;
    for (let i = 0; i < G * G; i++) { spot[i] = m[i] && !taken[i] ? 1 : 0; any = any || spot[i]; }
    const pl = pole(any ? spot : m);
    f.anchor = pl ? pl.at : [50, 50];
    f.d = cellsPath(m);
    // Its tokens (a pig herd): somewhere else in the field.
    const avoid = [f.anchor];
    for (const attr of f.attrs) {
      const at = spotIn(any ? spot : m, avoid, 5) || [f.anchor[0] + 14, f.anchor[1]];
      avoid.push(at);
      geo.tokens.push({ attr, feature: 'field', key: f.key, at });
    }
    geo.segments.set(f.key, { feature: 'field', anchor: f.anchor, shape: { kind: 'path', d: f.d } });
  });
  for (const q of geo.spots) geo.segments.set(q.key, { feature: q.feature, anchor: q.at, shape: { kind: 'circle', at: q.at, r: q.cls.ring ?? 14 } });
  for (const x of things) {
    geo.segments.set(x.key, { feature: x.feature, anchor: x.at, shape: { kind: 'circle', at: x.at, r: x.r + (x.cls.ring ?? 4) } });
    if (x.cls.tokens) x.attrs.forEach((attr, j) => geo.tokens.push({ attr, feature: x.key, key: x.key, at: [x.at[0] + 16, x.at[1] - 14 + 12 * j] }));
  }

  cache.set(id, geo);
  return geo;
}

/**
 * Where segment `segStr` (board frame) of a tile placed with `rotation`
 * lies, in the tile's own frame: {key, anchor, shape} or a fallback built
 * from the edges when the tile has no such segment (a forged move).
 */
export function locateSegment(geo, segStr, rotation) {
  const q = Math.round((rotation || 0) / 90);
  const local = rotateSegment(parseSegment(segStr), -q);
  const key = segmentKey(local);
  const found = geo && geo.segments.get(key);
  if (found) return { key, ...found, exact: true };
  // Not a segment of this tile: a point between the named edges and the centre.
  let pts = [];
  if (local.edges) pts = local.edges.map((e) => EDGE_MID[e]);
  if (local.halves) pts = local.halves.map((hh) => HALF_SEED[hh]);
  let anchor = [50, 50];
  if (pts.length) {
    const ax = pts.reduce((a, p) => a + p[0], 0) / pts.length, ay = pts.reduce((a, p) => a + p[1], 0) / pts.length;
    anchor = [50 + (ax - 50) * 0.6, 50 + (ay - 50) * 0.6];
  }
  return { key, feature: local.feature, anchor, shape: { kind: 'circle', at: anchor, r: 16 }, exact: false };
}
