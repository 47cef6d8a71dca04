// dom.js - small DOM helpers. Every piece of text goes in through
// textContent or createTextNode, never through innerHTML, so player names,
// file names and messages from logs are always inert text.

import { t } from './i18n/index.js';

const SVG_NS = 'http://www.w3.org/2000/svg';

function applyAttrs(el, attrs, isSvg) {
  if (!attrs) return;
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'class') {
      el.setAttribute('class', Array.isArray(v) ? v.filter(Boolean).join(' ') : v);
    } else if (k === 'text') {
      el.textContent = String(v);
    } else if (k === 'on') {
      for (const [ev, fn] of Object.entries(v)) el.addEventListener(ev, fn);
    } else if (k === 'dataset') {
      for (const [dk, dv] of Object.entries(v)) if (dv !== null && dv !== undefined) el.dataset[dk] = String(dv);
    } else if (k === 'style') {
      // CSSOM, not the style attribute: allowed under default-src 'self'.
      for (const [sk, sv] of Object.entries(v)) {
        if (sk.startsWith('--')) el.style.setProperty(sk, sv);
        else el.style[sk] = sv;
      }
    } else if (!isSvg && (k === 'value' || k === 'checked' || k === 'selected' || k === 'disabled' || k === 'hidden')) {
      el[k] = v;
    } else {
      el.setAttribute(k, v === true ? '' : String(v));
    }
  }
}

function appendChildren(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) appendChildren(el, c);
    else if (c instanceof Node) el.appendChild(c);
    else el.appendChild(document.createTextNode(String(c)));
  }
}

/** h('a', {href: '/'}, 'text', child...) -> HTMLElement */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  applyAttrs(el, attrs, false);
  appendChildren(el, children);
  return el;
}

/** s('circle', {cx: 1}) -> SVGElement */
export function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  applyAttrs(el, attrs, true);
  appendChildren(el, children);
  return el;
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

const ICONS = {
  first: 'M6 5v14M19 5l-10 7 10 7z',
  prev: 'M16 5l-9 7 9 7z',
  next: 'M8 5l9 7-9 7z',
  last: 'M18 5v14M5 5l10 7-10 7z',
  play: 'M7 4l13 8-13 8z',
  pause: 'M6 4h4v16H6zM14 4h4v16h-4z',
  plus: 'M12 5v14M5 12h14',
  minus: 'M5 12h14',
  fit: 'M4 9V4h5M15 4h5v5M20 15v5h-5M9 20H4v-5',
  link: 'M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1',
  download: 'M12 4v11M7 10l5 5 5-5M5 20h14',
  upload: 'M12 20V9M7 14l5-5 5 5M5 4h14',
  report: 'M7 3h7l5 5v13H7zM14 3v5h5M10 13h6M10 17h6',
  board: 'M4 4h16v16H4zM4 12h16M12 4v16',
};

/** A 24x24 stroke icon, hidden from assistive technology. */
export function icon(name, filled = false) {
  return s('svg', { class: 'icon', viewBox: '0 0 24 24', 'aria-hidden': 'true', focusable: 'false' },
    s('path', { d: ICONS[name] || '', class: filled ? 'icon-fill' : 'icon-stroke' }));
}

// Numbers, dates and percentages as the reader's language writes them.
export { fmtDate, fmtPct, fmtNum } from './i18n/index.js';

export function announce(text) {
  const el = document.getElementById('announcer');
  if (el) { el.textContent = ''; setTimeout(() => { el.textContent = text; }, 30); }
}

/** The display name of a game: its file name without folders, or "Game #id". */
/** The name a game's raw log downloads under: its upload's own file name
 * (tower-c2-3p.jcz) when it had one, else game-ID with its format's
 * extension; a name without the extension gets it. */
export function rawFileName(g) {
  const ext = g.format === 'jcz' ? 'jcz' : 'flierlog';
  const base = String(g.name || '').split(/[\\/]/).pop().replace(/[^\w.+-]/g, '_').replace(/^\.+/, '');
  if (!base) return `game-${g.id}.${ext}`;
  return (/\.(jcz|flierlog|json|gz)$/.test(base) ? base : `${base}.${ext}`).slice(-120);
}

/** The raw log's address, asking the server to name the download as the
 * page does (its Content-Disposition wins over a link's download name). */
export const rawHref = (g) => `/api/games/${g.id}/raw?filename=${encodeURIComponent(rawFileName(g))}`;

export function gameTitle(g) {
  if (g && g.name) {
    const parts = String(g.name).split('/');
    return parts[parts.length - 1] || String(g.name);
  }
  return t('game.untitled', { id: g ? g.id : '?' });
}
