// app.js - the dashboard's router. Pages are plain functions that fill
// <main> and return a cleanup function; links inside the site are followed
// with the History API, and the daemon serves index.html for every page
// path (/games/12, /stats, /upload).

import { h, clear } from './dom.js';
import { gamesPage } from './pages/games.js';
import { replayPage } from './pages/replay.js';
import { auditPage } from './pages/audit.js';
import { statsPage } from './pages/stats.js';
import { uploadPage } from './pages/upload.js';
import { recordPage } from './pages/record.js';
import { navigate } from './router.js';
import { t, localizeDocument } from './i18n/index.js';

const routes = [
  { re: /^\/$/, page: gamesPage, nav: 'games' },
  { re: /^\/games\/?$/, page: gamesPage, nav: 'games' },
  { re: /^\/games\/(\d+)\/?$/, page: replayPage, nav: 'games' },
  { re: /^\/games\/(\d+)\/audit\/?$/, page: auditPage, nav: 'games' },
  { re: /^\/stats\/?$/, page: statsPage, nav: 'stats' },
  { re: /^\/upload\/?$/, page: uploadPage, nav: 'upload' },
  { re: /^\/record\/?$/, page: recordPage, nav: 'record' },
];

let cleanup = null;
let lastPath = null;

function notFound(main) {
  document.title = `${t('notfound.title')} · flierd`;
  main.appendChild(h('section', { class: 'page narrow' },
    h('h1', { tabindex: -1, text: t('notfound.title') }),
    h('p', null, t('notfound.text'), ' ', h('code', { text: location.pathname }), ' ',
      h('a', { href: '/', text: t('notfound.all') }))));
}

function render() {
  const main = document.getElementById('main');
  const path = location.pathname;
  const samePage = path === lastPath;
  lastPath = path;
  if (cleanup) { try { cleanup(); } catch (e) { console.error(e); } cleanup = null; }
  clear(main);
  const query = new URLSearchParams(location.search);
  let nav = null;
  let done = false;
  for (const r of routes) {
    const m = r.re.exec(path);
    if (!m) continue;
    nav = r.nav;
    cleanup = r.page(main, m.slice(1), query) || null;
    done = true;
    break;
  }
  if (!done) notFound(main);
  for (const a of document.querySelectorAll('[data-nav]')) {
    if (a.dataset.nav === nav) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  if (!samePage) {
    const h1 = main.querySelector('h1');
    (h1 || main).focus({ preventScroll: true });
    window.scrollTo(0, 0);
  }
}


document.addEventListener('click', (e) => {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  const a = e.target.closest('a');
  if (!a || a.target || a.hasAttribute('download') || a.dataset.external !== undefined) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin) return;
  if (url.pathname.startsWith('/api/') || url.pathname === '/metrics' || url.pathname === '/healthz') return;
  e.preventDefault();
  if (url.pathname === location.pathname && url.search === location.search && url.hash) {
    location.hash = url.hash;
    return;
  }
  navigate(url.pathname + url.search + url.hash);
});

localizeDocument();
window.addEventListener('popstate', render);
window.addEventListener('flierd:navigate', render);
render();
