// pages/upload.js - drop (or choose) a .jcz save or a flierlog and see the
// verdict at once. The page says the server's size cap and shows the token
// field when the server needs one (GET /api/upload), before any file is
// refused; a 401 still brings it up. The token is kept for this tab.

import { h, clear, icon } from '../dom.js';
import { uploadLog, getJSON, ApiError } from '../api.js';
import { RULES } from '../rules.js';
import { verdictBadge, neededFor } from './games.js';

const TOKEN_KEY = 'flierd.token';

/** "1 MiB (1,048,576 bytes)". */
function fmtBytes(n) {
  const mib = n / 1048576, kib = n / 1024;
  const short = mib >= 1 ? `${Number.isInteger(mib) ? mib : mib.toFixed(1)} MiB` : `${Number.isInteger(kib) ? kib : kib.toFixed(1)} KiB`;
  return `${short} (${n.toLocaleString('en-US')} bytes)`;
}

export function uploadPage(main) {
  document.title = 'Upload · flierd';
  let alive = true;
  const fileInput = h('input', { id: 'file', type: 'file', accept: '.jcz,.flierlog,.json,application/json', multiple: true, class: 'sr-only', tabindex: -1, dataset: { testid: 'file-input' } });
  const zone = h('label', { for: 'file', class: 'dropzone', dataset: { testid: 'dropzone' } },
    icon('upload'),
    h('span', { class: 'dz-title', text: 'Drop a .jcz save or a flierlog here' }),
    h('span', { class: 'dz-sub', text: 'or press to choose files (JCloisterZone saves and flierd logs, plain or gzip-compressed)' }));
  const limits = h('p', { class: 'muted small', dataset: { testid: 'upload-limits' }, text: 'Asking the server for its size limit…' });
  const tokenInput = h('input', { id: 'token', type: 'password', autocomplete: 'off', value: sessionStorage.getItem(TOKEN_KEY) || '', dataset: { testid: 'token' } });
  const tokenBox = h('div', { class: 'token-box', hidden: !sessionStorage.getItem(TOKEN_KEY) },
    h('label', { for: 'token', text: 'Access token' }), tokenInput,
    h('p', { class: 'muted small', id: 'token-help', text: 'This server needs a token to accept uploads (Authorization: Bearer). Ask its operator.' }));
  tokenInput.setAttribute('aria-describedby', 'token-help');
  const results = h('ol', { class: 'results', 'aria-live': 'polite', dataset: { testid: 'upload-results' } });
  let pending = []; // files waiting for a token

  main.appendChild(h('section', { class: 'page narrow upload' },
    h('h1', { tabindex: -1, text: 'Upload a game' }),
    h('p', { class: 'lede', text: 'flierd replays every move of the log through its own rules engine and reports every violation. Valid or not, the game is stored and listed.' }),
    fileInput, zone, limits, tokenBox, results));
  getJSON('/api/upload').then((info) => {
    if (!alive) return;
    limits.textContent = `Up to ${fmtBytes(info.max_bytes)} a file; a larger one is refused (the server's --max-body).` +
      (info.token_required ? ' This server needs a token for uploads.' : '');
    if (info.token_required) tokenBox.hidden = false;
  }).catch(() => { if (alive) limits.textContent = 'The server\'s size limit is unknown; a file over it is refused.'; });

  async function send(file, item) {
    const status = item.querySelector('.r-status');
    const detail = item.querySelector('.r-detail');
    status.replaceChildren(h('span', { class: 'spinner', 'aria-hidden': 'true' }), 'Auditing…');
    clear(detail);
    try {
      const bytes = await file.arrayBuffer();
      const { status: code, body } = await uploadLog(bytes, file.name, tokenInput.value.trim());
      if (!alive) return;
      if (tokenInput.value.trim()) sessionStorage.setItem(TOKEN_KEY, tokenInput.value.trim());
      const game = await getJSON(`/api/games/${body.id}`);
      if (!alive) return;
      item.dataset.valid = String(game.valid);
      status.replaceChildren(verdictBadge(game), ' ',
        code === 200 && body.duplicate ? h('span', { class: 'muted', text: `already uploaded as game #${body.id}` }) : h('span', { class: 'muted', text: `stored as game #${body.id}` }));
      if (game.status === 'unsupported') {
        // kept, not audited: no scores, no replay to go to yet
        detail.append(h('p', { dataset: { testid: 'needs' }, text: `Not audited yet: it needs ${neededFor(game)}, which this flierd does not audit. The upload is kept; "flierd reaudit" audits it once a later version does.` }),
          h('p', { class: 'r-links' }, h('a', { class: 'btn small', href: `/games/${body.id}/audit`, text: 'Why' })));
        return;
      }
      const v = (game.audit && game.audit.violations) || [];
      detail.append(...[
        h('p', null, (game.players || []).map((p, i) => [i ? ', ' : '', h('span', { class: (game.winners || []).includes(p.name) ? 'strong' : null, text: `${p.name} ${p.score}` })]),
          game.finished ? '' : h('span', { class: 'muted', text: ' (unfinished)' })),
        v.length ? h('ul', { class: 'r-violations' }, v.slice(0, 5).map((x) => h('li', null,
          h('span', { class: 'badge bad', text: x.rule }), ` turn ${x.turn === null ? 'final' : x.turn}: `, h('span', { text: x.message }),
          RULES[x.rule] ? h('span', { class: 'muted', text: ` — ${RULES[x.rule]}` }) : null))) : null,
        v.length > 5 ? h('p', { class: 'muted', text: `and ${v.length - 5} more` }) : null,
        h('p', { class: 'r-links' },
          h('a', { class: 'btn small', href: `/games/${body.id}`, text: 'Replay' }),
          h('a', { class: 'btn small', href: `/games/${body.id}/audit`, text: 'Audit report' })),
      ].filter(Boolean));
    } catch (e) {
      if (!alive) return;
      if (e instanceof ApiError && e.status === 401) {
        tokenBox.hidden = false;
        item.dataset.valid = 'auth';
        status.replaceChildren(h('span', { class: 'badge neutral', text: 'token needed' }));
        detail.append(h('p', { text: tokenInput.value ? 'The server refused this token. Check it and try again.' : 'This server asks for a token: enter it above, then try again.' }),
          h('button', { type: 'button', class: 'btn small', text: 'Try again', on: { click: () => { pending = pending.filter(([f]) => f !== file); send(file, item); } } }));
        pending.push([file, item]);
        tokenInput.focus();
        return;
      }
      item.dataset.valid = 'error';
      const what = e instanceof ApiError ? ({ 400: 'Not a readable game log', 413: 'Too large for this server', 415: 'Not supported' }[e.status] || `Refused (${e.status})`) : 'Upload failed';
      status.replaceChildren(h('span', { class: 'badge bad', text: what }));
      detail.append(h('p', { class: 'error', text: e.message }));
    }
  }

  function handle(files) {
    for (const file of files) {
      const item = h('li', { class: 'result' },
        h('p', { class: 'r-name' }, h('strong', { text: file.name }), h('span', { class: 'muted', text: ` ${file.size.toLocaleString('en-US')} bytes` })),
        h('p', { class: 'r-status' }),
        h('div', { class: 'r-detail' }));
      results.insertBefore(item, results.firstChild);
      send(file, item);
    }
  }

  fileInput.addEventListener('change', () => { handle([...fileInput.files]); fileInput.value = ''; });
  zone.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); fileInput.click(); } });
  zone.tabIndex = 0;
  zone.setAttribute('role', 'button');
  for (const ev of ['dragenter', 'dragover']) zone.addEventListener(ev, (e) => { e.preventDefault(); zone.classList.add('over'); });
  for (const ev of ['dragleave', 'drop']) zone.addEventListener(ev, () => zone.classList.remove('over'));
  zone.addEventListener('drop', (e) => { e.preventDefault(); if (e.dataTransfer && e.dataTransfer.files.length) handle([...e.dataTransfer.files]); });
  // Dropping beside the zone must not open the file in the tab.
  const stray = (e) => { if (!zone.contains(e.target)) e.preventDefault(); };
  window.addEventListener('dragover', stray);
  window.addEventListener('drop', stray);
  tokenInput.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && pending.length) { e.preventDefault(); const p = pending; pending = []; for (const [f, it] of p) send(f, it); }
  });
  return () => { alive = false; window.removeEventListener('dragover', stray); window.removeEventListener('drop', stray); };
}
