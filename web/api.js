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

/** POST a log; token is optional (Authorization: Bearer). */
export async function uploadLog(bytes, name, token) {
  const headers = { 'Content-Type': 'application/octet-stream' };
  if (token) headers.Authorization = 'Bearer ' + token;
  const q = name ? '?name=' + encodeURIComponent(name) : '';
  const res = await fetch('/api/games' + q, { method: 'POST', body: bytes, headers });
  const body = await parse(res);
  return { status: res.status, body };
}
