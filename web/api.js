// api.js - the daemon's JSON API (docs/api.md), with a small cache for the
// documents that do not change (a finished game's audit and replay).

export class ApiError extends Error {
  constructor(status, message, body) {
    super(message);
    this.status = status;
    this.body = body;
  }
}

async function parse(res) {
  let body = null;
  const text = await res.text();
  try { body = text ? JSON.parse(text) : null; } catch { body = null; }
  if (!res.ok) {
    const msg = body && typeof body.error === 'string' ? body.error : `HTTP ${res.status}`;
    throw new ApiError(res.status, msg, body);
  }
  return body;
}

export async function getJSON(path, { signal } = {}) {
  const res = await fetch(path, { signal, headers: { Accept: 'application/json' } });
  return parse(res);
}

const cache = new Map();
/** GET with a cache: for documents of finished games, which never change. */
export async function getCached(path) {
  if (cache.has(path)) return cache.get(path);
  const p = getJSON(path);
  cache.set(path, p);
  p.catch(() => cache.delete(path));
  return p;
}
export function uncache(path) { cache.delete(path); }

export function listGames(params, opts) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== '' && v !== null && v !== undefined) q.set(k, v);
  return getJSON('/api/games?' + q.toString(), opts);
}

/** POST a log; token is optional (Authorization: Bearer). Many files
 * dropped at once pass the daemon's per-address write limit: a 429 is
 * sent again after the Retry-After it gives. */
export async function uploadLog(bytes, name, token) {
  const headers = { 'Content-Type': 'application/octet-stream' };
  if (token) headers.Authorization = 'Bearer ' + token;
  const q = name ? '?name=' + encodeURIComponent(name) : '';
  for (let tries = 1; ; tries++) {
    const res = await fetch('/api/games' + q, { method: 'POST', body: bytes, headers });
    if (res.status === 429 && tries < 30) {
      const wait = Math.min(Math.max(Number(res.headers.get('Retry-After')) || 1, 1), 60);
      await new Promise((done) => setTimeout(done, wait * 1000));
      continue;
    }
    const body = await parse(res);
    return { status: res.status, body };
  }
}
