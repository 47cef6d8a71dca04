// router.js - page changes without a reload (app.js listens).
export function navigate(url, replace = false) {
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  window.dispatchEvent(new Event('flierd:navigate'));
}

/** Changes the address (query, permalink) without re-rendering the page. */
export function setQuery(params, replace = true) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== '' && v !== null && v !== undefined && v !== false) q.set(k, v);
  const qs = q.toString();
  const url = location.pathname + (qs ? '?' + qs : '') + location.hash;
  if (url === location.pathname + location.search + location.hash) return;
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
}
