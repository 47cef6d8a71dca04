// manage.js - an organiser's controls on a game's audit page: rename it
// or delete it, with the upload token (docs/api.md: DELETE
// /api/games/{id}, POST /api/games/{id}/name). The token is kept in this
// browser only, under the key the /record page uses.

import { h } from './dom.js';
import { uncache } from './api.js';
import { t } from './i18n/index.js';

const TOKEN_KEY = 'flierd-token';

async function send(method, path, token, body) {
  const headers = {};
  if (token) headers.Authorization = 'Bearer ' + token;
  if (body !== undefined) headers['Content-Type'] = 'text/plain; charset=utf-8';
  const res = await fetch(path, { method, headers, body });
  let out = null;
  try { out = await res.json(); } catch { out = null; }
  if (!res.ok) throw new Error((out && out.error) || `HTTP ${res.status}`);
  return out;
}

/** The card: onRenamed(name) after a rename, onDeleted() after a delete. */
export function manageCard(game, { onRenamed, onDeleted }) {
  const id = game.id;
  const status = h('p', { class: 'muted', role: 'status', dataset: { testid: 'manage-status' } });
  const tok = h('input', { type: 'password', id: 'manage-token', autocomplete: 'off', value: localStorage.getItem(TOKEN_KEY) || '' });
  const name = h('input', { type: 'text', id: 'manage-name', maxlength: 255, value: game.name || '' });
  const token = () => { const v = tok.value.trim(); if (v) localStorage.setItem(TOKEN_KEY, v); return v; };
  const fail = (e) => { status.className = 'error'; status.textContent = e.message; };

  const rename = h('button', { type: 'button', class: 'btn', dataset: { testid: 'rename' }, text: t('manage.rename'), on: { click: () => {
    const v = name.value.trim();
    if (!v) { fail(new Error(t('manage.empty'))); return; }
    send('POST', `/api/games/${id}/name`, token(), v).then((r) => {
      uncache(`/api/games/${id}`);
      status.className = 'muted';
      status.textContent = t('manage.renamed', { name: r.name });
      onRenamed(r.name);
    }).catch(fail);
  } } });

  // Two steps rather than a dialog: the first click asks, the second deletes.
  let armed = false;
  const del = h('button', { type: 'button', class: 'btn danger', dataset: { testid: 'delete' }, text: t('manage.delete'), on: { click: () => {
    if (!armed) {
      armed = true;
      del.textContent = t('manage.really', { id });
      status.className = 'muted';
      status.textContent = t('manage.warning');
      return;
    }
    send('DELETE', `/api/games/${id}`, token()).then(() => {
      uncache(`/api/games/${id}`);
      onDeleted();
    }).catch((e) => { armed = false; del.textContent = t('manage.delete'); fail(e); });
  } } });

  return h('section', { class: 'card manage', dataset: { testid: 'manage' } }, h('h2', { text: t('manage.title') }),
    h('div', { class: 'field' }, h('label', { for: 'manage-token', text: t('manage.token') }), tok),
    h('div', { class: 'field' }, h('label', { for: 'manage-name', text: t('manage.name') }), name, rename),
    h('div', { class: 'field' }, del), status);
}
