// pages/audit.js - the audit report of one game: the verdict and what it is
// pinned to, claimed against computed scores with the first divergence,
// every violation (each a link to its turn in the replay), the flights with
// their odds, discards and score events, and downloads.

import { h, icon, fmtDate, fmtPct, gameTitle, rawFileName, rawHref } from '../dom.js';
import { getCached } from '../api.js';
import { paletteFor } from '../colors.js';
import { RULES, flightReturnWhy } from '../rules.js';
import { segSpan, dirWords } from '../words.js';
import { eventFeature, elementsText, settingsText } from '../figures.js';
import { verdictBadge, liveBadge, neededFor } from './games.js';
import { manageCard } from '../manage.js';
import { navigate } from '../router.js';

const at = (p) => (Array.isArray(p) ? `(${p[0]},${p[1]})` : '—');
const turnText = (t) => (t === null || t === undefined ? 'final' : String(t));
const turnHref = (id, t) => `/games/${id}?turn=${t === null || t === undefined ? 'final' : t}`;

function table(caption, head, rows, attrs = {}) {
  // each cell names its column, for the cards a narrow screen shows
  // instead of a table wider than the phone
  for (const tr of rows) [...tr.children].forEach((td, i) => { if (head[i]) td.dataset.label = head[i].replace(/^#/, ''); });
  return h('div', { class: 'table-wrap' }, h('table', { class: 'report', ...attrs },
    h('caption', { class: 'sr-only', text: caption }),
    h('thead', null, h('tr', null, head.map((c) => h('th', { scope: 'col', class: c.startsWith('#') ? 'num' : null, text: c.replace(/^#/, '') })))),
    h('tbody', null, rows)));
}

export function auditPage(main, [idText]) {
  const id = Number(idText);
  let alive = true;
  const root = h('section', { class: 'page audit' }, h('p', { class: 'loading', text: 'Loading the report…' }));
  main.appendChild(root);
  document.title = `Audit of game ${id} · flierd`;

  getCached(`/api/games/${id}`).then((game) => {
    if (!alive) return;
    root.replaceChildren();
    const a = game.audit || {};
    if (game.status === 'unsupported') {
      root.append(h('h1', { tabindex: -1, text: `Game #${id}: stored, not audited yet` }),
        h('p', { class: 'meta' }, verdictBadge(game)),
        h('p', { dataset: { testid: 'unsupported-reason' }, text: game.reason || '' }),
        h('p', { dataset: { testid: 'needs' }, text: `It needs ${neededFor(game)}; there is no replay until flierd audits it.` }),
        h('p', { text: 'flierd keeps the upload; "flierd reaudit" audits it once a later version supports its expansions.' }),
        h('a', { class: 'btn', href: rawHref(game), download: rawFileName(game), dataset: { testid: 'download-raw' } }, icon('download'), 'Raw log'));
      return;
    }
    const colors = paletteFor(game.players || []);
    document.title = `Audit: ${gameTitle(game)} · flierd`;
    const winners = new Set(game.winners || []);

    root.append(h('header', { class: 'game-head' },
      h('div', null,
        h('p', { class: 'crumbs' }, h('a', { href: '/', text: 'Games' }), ' / ', h('a', { href: `/games/${id}`, text: `#${id}` }), ' / audit'),
        h('h1', { tabindex: -1, text: `Audit report: ${gameTitle(game)}` }),
        h('p', { class: 'meta' }, verdictBadge(game), game.live ? [' ', liveBadge()] : null,
          h('span', { text: ` ${a.finished ? 'finished' : 'unfinished'} after ${a.turns} turns${a.tiles_left ? `, ${a.tiles_left} tiles left` : ''}` }))),
      h('div', { class: 'head-actions' },
        h('a', { class: 'btn', href: `/games/${id}` }, icon('board'), 'Replay'),
        h('a', { class: 'btn', href: `/api/games/${id}`, download: `game-${id}-audit.json`, dataset: { testid: 'download-report' } }, icon('download'), 'JSON report'),
        h('a', { class: 'btn', href: rawHref(game), download: rawFileName(game), dataset: { testid: 'download-raw' } }, icon('download'), 'Raw log'))));

    // Scores: claimed against computed.
    const fd = a.first_divergence;
    const anyClaim = (game.players || []).some((p) => p.claimed !== null && p.claimed !== undefined);
    root.appendChild(h('section', { class: 'card' },
      h('h2', { text: 'Scores' }),
      table('Final scores', ['Player', '#Computed', ...(anyClaim ? ['#Claimed', '#Difference'] : []), 'Rank'],
        (game.players || []).map((p, i) => {
          const diff = anyClaim && p.claimed !== null && p.claimed !== undefined ? p.claimed - p.score : null;
          return h('tr', { class: winners.has(p.name) ? 'winner' : null },
            h('th', { scope: 'row' }, h('span', { class: 'swatch', style: { background: colors[i] }, 'aria-hidden': 'true' }), p.name,
              winners.has(p.name) ? h('span', { class: 'badge ok small', text: 'winner' }) : null),
            h('td', { class: 'num', text: String(p.score) }),
            anyClaim ? h('td', { class: 'num', text: p.claimed === null || p.claimed === undefined ? '—' : String(p.claimed) }) : null,
            anyClaim ? h('td', { class: ['num', diff ? 'bad-text' : null], text: diff === null ? '—' : diff ? (diff > 0 ? `+${diff}` : String(diff)) : '0' }) : null,
            h('td', { text: String(p.rank) }));
        }), { class: 'report narrow-table', dataset: { testid: 'audit-scores' } }),
      fd ? h('div', { class: 'divergence-box', dataset: { testid: 'first-divergence' } },
        h('h3', { text: 'First divergence' }),
        h('p', { text: fd.message }),
        h('p', null, h('a', { href: turnHref(id, fd.turn), text: `See turn ${turnText(fd.turn)} in the replay` })))
        : anyClaim ? h('p', { class: 'ok-text', text: 'Every claimed total matches the rules.' }) : h('p', { class: 'muted', text: 'The log carries no claimed scores; the scores above are computed by the auditor.' })));

    // Violations.
    const v = a.violations || [];
    root.appendChild(h('section', { class: 'card' },
      h('h2', { text: v.length ? `Violations (${v.length})` : 'Violations' }),
      v.length ? table('Violations', ['Turn', 'Player', 'Rule', 'What happened'], v.map((x) => h('tr', { dataset: { rule: x.rule } },
        h('td', null, h('a', { href: turnHref(id, x.turn), text: turnText(x.turn) })),
        h('td', { text: x.player || '—' }),
        h('td', null, h('span', { class: 'badge bad', text: x.rule }), RULES[x.rule] ? h('p', { class: 'muted small', text: RULES[x.rule] }) : null),
        h('td', { class: 'message', text: x.message }))), { class: 'report cards', dataset: { testid: 'audit-violations' } })
        : h('p', { class: 'ok-text', text: 'None: every tile, meeple, flight and score follows the rules.' })));

    // Flights.
    const f = a.flights || [];
    root.appendChild(h('section', { class: 'card' },
      h('h2', { text: `Flights (${f.length})` }),
      f.length ? table('Flights', ['Turn', 'Player', 'From', 'Direction', '#Roll', 'Target', 'Outcome', 'Valid landings', '#Chance'], f.map((x) => h('tr', null,
        h('td', null, h('a', { href: turnHref(id, x.turn), text: turnText(x.turn) })),
        h('td', { text: x.player || '—' }),
        h('td', { text: at(x.from) }),
        h('td', { title: x.direction, text: dirWords(x.direction) }),
        h('td', { class: 'num', text: String(x.roll) }),
        h('td', { text: at(x.target) }),
        h('td', { dataset: { testid: 'flight-outcome' } }, h('span', { class: ['badge', x.outcome === 'landed' ? 'ok' : 'neutral'], text: x.outcome }),
          x.segment ? [' on ', segSpan(x.segment)] : null,
          x.outcome === 'returned' ? h('p', { class: 'muted small why', text: `Back to supply: ${flightReturnWhy(x, v)}.` }) : null),
        h('td', null, (x.landings || []).length ? (x.landings || []).flatMap((l, k) => [k ? ', ' : '', segSpan(l.segment)]) : '—'),
        h('td', { class: 'num', text: x.odds ? fmtPct(x.odds.chance) : '—' }))), { class: 'report cards' }) : h('p', { class: 'muted', text: 'No flights in this game.' })));

    // Score events.
    const sc = a.scores || [];
    root.appendChild(h('section', { class: 'card' },
      h('details', null,
        h('summary', null, h('h2', { class: 'inline', text: `Score events (${sc.length})` })),
        table('Score events', ['Turn', 'Players', 'Feature', '#Points', 'Receipt'], sc.map((x) => h('tr', null,
          h('td', null, h('a', { href: turnHref(id, x.turn), text: turnText(x.turn) })),
          h('td', { text: (x.players || []).join(', ') }),
          h('td', { text: eventFeature(x) }),
          h('td', { class: 'num', text: String(x.points) }),
          h('td', { class: 'receipt', text: x.receipt || '' })))))));

    // Discards and the pinned verdict.
    const rules = a.rules || {};
    const sets = Object.entries(rules.sets || game.sets || {}).map(([k, n]) => `${k}${n > 1 ? ' ×' + n : ''}`).join(', ');
    root.appendChild(h('section', { class: 'card' },
      h('h2', { text: 'What the verdict is pinned to' }),
      h('dl', { class: 'facts' },
        h('dt', { text: 'Engine' }), h('dd', { text: a.engine || game.engine || '—' }),
        h('dt', { text: 'Input SHA-256' }), h('dd', null, h('code', { class: 'hash', text: a.input_sha256 || game.sha256 || '—' })),
        h('dt', { text: 'File' }), h('dd', { text: `${game.name || '—'} (${game.format}, ${game.size} bytes, uploaded ${fmtDate(game.uploaded_at)} via ${game.source})` }),
        h('dt', { text: 'Tile sets' }), h('dd', { text: sets || '—' }),
        h('dt', { text: 'Rules' }), h('dd', { text: settingsText(rules) }),
        rules.elements ? [h('dt', { text: 'Game elements' }), h('dd', { dataset: { testid: 'elements' }, text: elementsText(rules.elements) })] : null,
        h('dt', { text: 'Discards' }), h('dd', { text: (a.discards || []).length ? a.discards.map((d) => `${d.tile} (turn ${turnText(d.turn)}${d.logged ? ', logged' : ''})`).join(', ') : 'none' }),
        // what the report's squares mean, said once
        h('dt', { text: 'Squares' }), h('dd', { dataset: { testid: 'squares' }, text: '(x,y): the start tile is (0,0), x grows east, y grows south.' }))));
    if (!game.live) {
      root.appendChild(manageCard(game, {
        onRenamed: (name) => { const t = gameTitle({ ...game, name }); root.querySelector('h1').textContent = `Audit report: ${t}`; document.title = `Audit: ${t} · flierd`; },
        onDeleted: () => navigate(`/?deleted=${id}`),
      }));
    }
  }).catch((e) => {
    if (!alive) return;
    root.replaceChildren(h('h1', { tabindex: -1, text: e.status === 404 ? 'No such game' : 'Could not load the report' }),
      h('p', { class: 'error', role: 'alert', text: e.message }), h('p', null, h('a', { href: '/', text: 'Back to all games' })));
  });
  return () => { alive = false; };
}
