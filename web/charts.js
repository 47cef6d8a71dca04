// charts.js - small hand-drawn SVG charts (no library). Each chart is a
// <figure> with a caption, an SVG scaled to its width, and the same
// numbers as a table for screen readers.

import { h, s } from './dom.js';
import { t, fmtFixed } from './i18n/index.js';

/* A round step for about n intervals up to v, and the axis top. */
function niceScale(v, n = 4) {
  if (!(v > 0)) return { max: n, step: 1 };
  const raw = v / n;
  const p = 10 ** Math.floor(Math.log10(raw));
  let step = p;
  for (const m of [1, 2, 2.5, 5, 10]) { if (m * p >= raw) { step = m * p; break; } }
  if (step < 1 && Number.isInteger(v)) step = 1;
  return { max: Math.ceil(v / step - 1e-9) * step, step };
}

function niceMax(v) { return niceScale(v).max; }

function ticks(max) {
  const { step } = niceScale(max);
  const out = [];
  for (let t = 0; t <= max + 1e-9; t += step) out.push(t);
  return out;
}

const fmt = (v) => (Math.abs(v) >= 100 || Number.isInteger(v) ? String(Math.round(v)) : v.toFixed(1));

function dataTable(caption, head, rows) {
  return h('table', { class: 'sr-only' },
    h('caption', { text: caption }),
    h('thead', null, h('tr', null, head.map((c) => h('th', { scope: 'col', text: c })))),
    h('tbody', null, rows.map((r) => h('tr', null, r.map((c) => h('td', { text: c }))))));
}

function figure(title, svgEl, table, note) {
  return h('figure', { class: 'chart' },
    h('figcaption', { text: title }),
    svgEl,
    note ? h('p', { class: 'chart-note', text: note }) : null,
    table);
}

/**
 * Vertical bars. bars: [{label, value, cls?, title?}]; opts: {title,
 * yLabel, format(v), ref: {value, label} (a dashed line), max}.
 */
export function barChart(bars, opts = {}) {
  const W = 380, H = 210, L = 36, R = 8, T = 16, B = 40;
  const fmtV = opts.format || fmt;
  const max = opts.max || niceMax(Math.max(...bars.map((b) => b.value || 0), opts.ref ? opts.ref.value : 0));
  const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, class: 'chart-svg', role: 'img', 'aria-label': opts.title || 'chart' });
  const y = (v) => T + (H - T - B) * (1 - v / max);
  for (const t of ticks(max)) {
    svg.appendChild(s('line', { class: 'grid', x1: L, x2: W - R, y1: y(t), y2: y(t) }));
    svg.appendChild(s('text', { class: 'axis', x: L - 6, y: y(t) + 4, 'text-anchor': 'end', text: fmtV(t) }));
  }
  const n = Math.max(1, bars.length);
  const slot = (W - L - R) / n, bw = Math.min(56, slot * 0.7);
  bars.forEach((b, i) => {
    const x = L + slot * i + (slot - bw) / 2;
    const v = b.value || 0;
    const rect = s('rect', { class: ['bar', b.cls], x, y: y(v), width: bw, height: Math.max(0, y(0) - y(v)), rx: 2 });
    rect.appendChild(s('title', { text: `${b.label}: ${b.title || fmtV(v)}` }));
    svg.appendChild(rect);
    svg.appendChild(s('text', { class: 'bar-value', x: x + bw / 2, y: y(v) - 4, 'text-anchor': 'middle', text: b.title || fmtV(v) }));
    svg.appendChild(s('text', { class: 'axis', x: x + bw / 2, y: H - B + 16, 'text-anchor': 'middle', text: b.label }));
    if (b.sub) svg.appendChild(s('text', { class: 'axis sub', x: x + bw / 2, y: H - B + 30, 'text-anchor': 'middle', text: b.sub }));
  });
  svg.appendChild(s('line', { class: 'baseline', x1: L, x2: W - R, y1: y(0), y2: y(0) }));
  if (opts.ref) {
    const ref = s('line', { class: 'ref-line', x1: L, x2: W - R, y1: y(opts.ref.value), y2: y(opts.ref.value) });
    ref.appendChild(s('title', { text: opts.ref.label }));
    svg.appendChild(ref);
  }
  const table = dataTable(opts.title || '', [opts.xLabel || t('chart.item'), opts.yLabel || t('chart.value')], bars.map((b) => [b.label, b.title || fmtV(b.value || 0)]));
  return figure(opts.title, svg, table, opts.note);
}

/** Horizontal bars for long labels (rule ids, features). */
export function hbarChart(bars, opts = {}) {
  const rowH = 30, L = opts.labelWidth || 190, R = 44, T = 6;
  const W = opts.width || 420, H = T * 2 + rowH * Math.max(1, bars.length);
  const max = niceMax(Math.max(...bars.map((b) => b.value || 0), 0));
  const fmtV = opts.format || fmt;
  const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, class: 'chart-svg', role: 'img', 'aria-label': opts.title || 'chart' });
  bars.forEach((b, i) => {
    const y = T + i * rowH;
    const w = ((W - L - R) * (b.value || 0)) / max;
    svg.appendChild(s('text', { class: 'axis label', x: L - 8, y: y + rowH / 2 + 4, 'text-anchor': 'end', text: b.label }));
    const rect = s('rect', { class: ['bar', b.cls], x: L, y: y + 4, width: Math.max(0, w), height: rowH - 8, rx: 2 });
    rect.appendChild(s('title', { text: `${b.label}: ${fmtV(b.value || 0)}` }));
    svg.appendChild(rect);
    svg.appendChild(s('text', { class: 'bar-value', x: L + w + 6, y: y + rowH / 2 + 4, text: fmtV(b.value || 0) }));
  });
  if (!bars.length) svg.appendChild(s('text', { class: 'axis', x: W / 2, y: H / 2 + 4, 'text-anchor': 'middle', text: opts.empty || t('chart.empty') }));
  const table = dataTable(opts.title || '', [opts.xLabel || t('chart.item'), opts.yLabel || t('chart.value')], bars.map((b) => [b.label, fmtV(b.value || 0)]));
  return figure(opts.title, svg, table, opts.note);
}

/**
 * One line per series over steps 0..n-1. series: [{name, color, values}];
 * opts: {title, labels (per step), markers: [{index, cls, label}],
 * onPick(index)}. Returns {el, setCursor(index)}.
 */
export function lineChart(series, opts = {}) {
  const W = 420, H = 200, L = 34, R = 10, T = 10, B = 26;
  const n = Math.max(2, ...series.map((sr) => sr.values.length));
  const max = niceMax(Math.max(1, ...series.flatMap((sr) => sr.values)));
  const x = (i) => L + ((W - L - R) * i) / (n - 1);
  const y = (v) => T + (H - T - B) * (1 - v / max);
  const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, class: 'chart-svg line-chart', role: 'img', 'aria-label': opts.title || 'chart' });
  for (const t of ticks(max)) {
    svg.appendChild(s('line', { class: 'grid', x1: L, x2: W - R, y1: y(t), y2: y(t) }));
    svg.appendChild(s('text', { class: 'axis', x: L - 5, y: y(t) + 4, 'text-anchor': 'end', text: fmt(t) }));
  }
  const labels = opts.labels || [];
  const every = Math.max(1, Math.ceil(n / 8));
  for (let i = 0; i < n; i += every) {
    svg.appendChild(s('text', { class: 'axis', x: x(i), y: H - 8, 'text-anchor': 'middle', text: labels[i] !== undefined ? labels[i] : String(i) }));
  }
  for (const m of opts.markers || []) {
    const mk = s('path', { class: ['chart-marker', m.cls], d: `M${x(m.index)} ${y(0)}l-4 7h8z` });
    if (m.label) mk.appendChild(s('title', { text: m.label }));
    svg.appendChild(mk);
  }
  svg.appendChild(s('line', { class: 'baseline', x1: L, x2: W - R, y1: y(0), y2: y(0) }));
  for (const sr of series) {
    const d = sr.values.map((v, i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)} ${y(v).toFixed(1)}`).join('');
    const path = s('path', { class: 'series', d, stroke: sr.color, dataset: { player: sr.name } });
    path.appendChild(s('title', { text: sr.name }));
    svg.appendChild(path);
  }
  const cursor = s('line', { class: 'cursor', x1: x(0), x2: x(0), y1: T, y2: y(0) });
  const dots = series.map((sr) => s('circle', { class: 'cursor-dot', r: 3.5, fill: sr.color, cx: x(0), cy: y(0) }));
  svg.append(cursor, ...dots);
  if (opts.onPick) {
    svg.classList.add('pickable');
    const pick = (e) => {
      const m = svg.getScreenCTM();
      if (!m) return;
      const px = new DOMPoint(e.clientX, e.clientY).matrixTransform(m.inverse()).x;
      const i = Math.round(((px - L) / (W - L - R)) * (n - 1));
      opts.onPick(Math.max(0, Math.min(n - 1, i)));
    };
    svg.addEventListener('click', pick);
  }
  const legend = h('ul', { class: 'legend' }, series.map((sr) => h('li', null,
    h('span', { class: 'swatch', style: { background: sr.color } }), sr.name)));
  const fig = h('figure', { class: 'chart' }, opts.title ? h('figcaption', { text: opts.title }) : null, svg, legend);
  return {
    el: fig,
    setCursor(i) {
      const cx = x(Math.max(0, Math.min(n - 1, i)));
      cursor.setAttribute('x1', cx);
      cursor.setAttribute('x2', cx);
      series.forEach((sr, k) => {
        const v = sr.values[Math.min(i, sr.values.length - 1)] || 0;
        dots[k].setAttribute('cx', cx);
        dots[k].setAttribute('cy', y(v));
      });
    },
  };
}

/** The die: counts of 1, 2, 3 against the fair expectation. */
export function dieChart(die, title) {
  const rolls = (die && die.rolls) || [0, 0, 0];
  const n = rolls.reduce((a, b) => a + b, 0);
  const p = die ? die.p_value : null;
  let note;
  if (!n) note = t('die.none');
  else if (p === null || p === undefined) note = `${t('die.rolls', { n })}.`;
  else note = `${t('die.rolls', { n })}, χ² = ${fmtFixed(die.chi_square, 2)}, p = ${fmtFixed(p, 3)}: ${t(p < 0.01 ? 'die.unlikely' : p < 0.05 ? 'die.unusual' : 'die.fair')}.`;
  if (n) note += ` ${t('die.line', { per: fmtFixed(n / 3, 1) })}`;
  return barChart(rolls.map((c, i) => ({ label: t('die.roll', { roll: i + 1 }), value: c, cls: 'bar-die' })), {
    title, xLabel: t('die.axisRoll'), yLabel: t('die.count'), ref: n ? { value: n / 3, label: t('die.fairRef', { per: fmtFixed(n / 3, 1) }) } : null, note,
  });
}
