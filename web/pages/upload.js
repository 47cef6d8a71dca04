// pages/upload.js - drop (or choose) a .jcz save or a flierlog and see the
// verdict at once. The page says the server's size cap and shows the token
// field when the server needs one (GET /api/upload), before any file is
// refused; a 401 still brings it up. The token is kept for this tab.

import { h, clear, icon } from '../dom.js';
import { uploadLog, getJSON, ApiError } from '../api.js';
import { RULES, violationText } from '../rules.js';
import { t, fmtNum } from '../i18n/index.js';
import { verdictBadge, neededFor } from './games.js';

const TOKEN_KEY = 'flierd.token';

/** "1 MiB (1,048,576 bytes)". */
function fmtBytes(n) {
  const mib = n / 1048576, kib = n / 1024;
  const short = mib >= 1 ? `${fmtNum(mib, 1)} MiB` : `${fmtNum(kib, 1)} KiB`;
  return `${short} (${t('upload.bytes', { n })})`;
}

export function uploadPage(main) {
  document.title = `${t('nav.upload')} · flierd`;
  let alive = true;
  const fileInput = h('input', { id: 'file', type: 'file', accept: '.jcz,.flierlog,.json,application/json', multiple: true, class: 'sr-only', tabindex: -1, dataset: { testid: 'file-input' } });
  const zone = h('label', { for: 'file', class: 'dropzone', dataset: { testid: 'dropzone' } },
    icon('upload'),
    h('span', { class: 'dz-title', text: t('upload.drop') }),
    h('span', { class: 'dz-sub', text: t('upload.choose') }));
  const limits = h('p', { class: 'muted small', dataset: { testid: 'upload-limits' }, text: t('upload.asking') });
  const tokenInput = h('input', { id: 'token', type: 'password', autocomplete: 'off', value: sessionStorage.getItem(TOKEN_KEY) || '', dataset: { testid: 'token' } });
  const tokenBox = h('div', { class: 'token-box', hidden: !sessionStorage.getItem(TOKEN_KEY) },
    h('label', { for: 'token', text: t('upload.token') }), tokenInput,
    h('p', { class: 'muted small', id: 'token-help', text: t('upload.tokenHelp') }));
  tokenInput.setAttribute('aria-describedby', 'token-help');
  const results = h('ol', { class: 'results', 'aria-live': 'polite', dataset: { testid: 'upload-results' } });
  let pending = []; // files waiting for a token

  main.appendChild(h('section', { class: 'page narrow upload' },
    h('h1', { tabindex: -1, text: t('games.upload') }),
    h('p', { class: 'lede', text: t('upload.lede') }),
    fileInput, zone, limits, tokenBox, results));
  getJSON('/api/upload').then((info) => {
    if (!alive) return;
    limits.textContent = t('upload.limit', { size: fmtBytes(info.max_bytes) }) +
      (info.token_required ? ` ${t('upload.needsToken')}` : '');
    if (info.token_required) tokenBox.hidden = false;
  }).catch(() => { if (alive) limits.textContent = t('upload.limitUnknown'); });

  async function send(file, item) {
    const status = item.querySelector('.r-status');
    const detail = item.querySelector('.r-detail');
    status.replaceChildren(h('span', { class: 'spinner', 'aria-hidden': 'true' }), t('upload.auditing'));
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
        code === 200 && body.duplicate ? h('span', { class: 'muted', text: t('upload.duplicate', { id: body.id }) }) : h('span', { class: 'muted', text: t('upload.stored', { id: body.id }) }));
      if (game.status === 'unsupported') {
        // kept, not audited: no scores, no replay to go to yet
        detail.append(h('p', { dataset: { testid: 'needs' }, text: t('upload.notAudited', { what: neededFor(game) }) }),
          h('p', { class: 'r-links' }, h('a', { class: 'btn small', href: `/games/${body.id}/audit`, text: t('upload.why') })));
        return;
      }
      const v = (game.audit && game.audit.violations) || [];
      detail.append(...[
        h('p', null, (game.players || []).map((p, i) => [i ? ', ' : '', h('span', { class: (game.winners || []).includes(p.name) ? 'strong' : null, text: `${p.name} ${p.score}` })]),
          game.finished ? '' : h('span', { class: 'muted', text: ` (${t('upload.unfinished')})` })),
        v.length ? h('ul', { class: 'r-violations' }, v.slice(0, 5).map((x) => h('li', null,
          h('span', { class: 'badge bad', text: x.rule }), ` ${t('upload.turn', { turn: x.turn === null ? t('turn.final') : x.turn })}: `, h('span', { text: violationText(x) }),
          RULES[x.rule] && x.message && violationText(x) === x.message ? h('span', { class: 'muted', text: ` — ${RULES[x.rule]}` }) : null))) : null,
        v.length > 5 ? h('p', { class: 'muted', text: t('upload.more', { n: v.length - 5 }) }) : null,
        h('p', { class: 'r-links' },
          h('a', { class: 'btn small', href: `/games/${body.id}`, text: t('upload.replay') }),
          h('a', { class: 'btn small', href: `/games/${body.id}/audit`, text: t('upload.report') })),
      ].filter(Boolean));
    } catch (e) {
      if (!alive) return;
      if (e instanceof ApiError && e.status === 401) {
        tokenBox.hidden = false;
        item.dataset.valid = 'auth';
        status.replaceChildren(h('span', { class: 'badge neutral', text: t('upload.tokenNeeded') }));
        detail.append(h('p', { text: tokenInput.value ? t('upload.tokenRefused') : t('upload.tokenAsk') }),
          h('button', { type: 'button', class: 'btn small', text: t('upload.retry'), on: { click: () => { pending = pending.filter(([f]) => f !== file); send(file, item); } } }));
        pending.push([file, item]);
        tokenInput.focus();
        return;
      }
      item.dataset.valid = 'error';
      const what = e instanceof ApiError ? ({ 400: t('upload.e400'), 413: t('upload.e413'), 415: t('upload.e415') }[e.status] || t('upload.refused', { status: e.status })) : t('upload.failed');
      status.replaceChildren(h('span', { class: 'badge bad', text: what }));
      detail.append(h('p', { class: 'error', text: e.message }));
    }
  }

  function handle(files) {
    for (const file of files) {
      const item = h('li', { class: 'result' },
        h('p', { class: 'r-name' }, h('strong', { text: file.name }), h('span', { class: 'muted', text: ` ${t('upload.bytes', { n: file.size })}` })),
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
