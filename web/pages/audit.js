// pages/audit.js - the audit report of one game: the verdict and what it is
// pinned to, claimed against computed scores with the first divergence,
// every violation (each a link to its turn in the replay), the flights with
// their odds, discards and score events, and downloads.

import { h, icon, fmtDate, fmtPct, fmtNum, gameTitle, rawFileName, rawHref } from '../dom.js';
import { t } from '../i18n/index.js';
import { getCached } from '../api.js';
import { paletteFor } from '../colors.js';
import { RULES, flightReturnWhy, violationText, divergenceText } from '../rules.js';
import { segSpan, dirWords } from '../words.js';
import { eventFeature, elementsText, settingsText, receiptText } from '../figures.js';
import { verdictBadge, liveBadge, neededFor } from './games.js';
import { manageCard } from '../manage.js';
import { navigate } from '../router.js';

const at = (p) => (Array.isArray(p) ? `(${p[0]},${p[1]})` : '—');
const turnText = (n) => (n === null || n === undefined ? t('turn.final') : String(n));
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
  const root = h('section', { class: 'page audit' }, h('p', { class: 'loading', text: t('audit.loading') }));
  main.appendChild(root);
  document.title = `${t('audit.titleOf', { id })} · flierd`;

  getCached(`/api/games/${id}`).then((game) => {
    if (!alive) return;
    root.replaceChildren();
    const a = game.audit || {};
    if (game.status === 'unsupported') {
      root.append(h('h1', { tabindex: -1, text: t('audit.unsupportedTitle', { id }) }),
        h('p', { class: 'meta' }, verdictBadge(game)),
        h('p', { dataset: { testid: 'unsupported-reason' }, text: game.reason || '' }),
        h('p', { dataset: { testid: 'needs' }, text: t('audit.needs', { what: neededFor(game) }) }),
        h('p', { text: t('audit.kept') }),
        h('a', { class: 'btn', href: rawHref(game), download: rawFileName(game), dataset: { testid: 'download-raw' } }, icon('download'), t('audit.raw')));
      return;
    }
    const colors = paletteFor(game.players || []);
    document.title = `${t('audit.title', { game: gameTitle(game) })} · flierd`;
    const winners = new Set(game.winners || []);

    root.append(h('header', { class: 'game-head' },
      h('div', null,
        h('p', { class: 'crumbs' }, h('a', { href: '/', text: t('nav.games') }), ' / ', h('a', { href: `/games/${id}`, text: `#${id}` }), ` / ${t('audit.crumb')}`),
        h('h1', { tabindex: -1, text: t('audit.heading', { game: gameTitle(game) }) }),
        h('p', { class: 'meta' }, verdictBadge(game), game.live ? [' ', liveBadge()] : null,
          h('span', { text: ` ${t(a.finished ? 'audit.finishedAfter' : 'audit.unfinishedAfter', { n: a.turns || 0 })}${a.tiles_left ? `, ${t('audit.tilesLeft', { n: a.tiles_left })}` : ''}` }))),
      h('div', { class: 'head-actions' },
        h('a', { class: 'btn', href: `/games/${id}` }, icon('board'), t('upload.replay')),
        h('a', { class: 'btn', href: `/api/games/${id}`, download: `game-${id}-audit.json`, dataset: { testid: 'download-report' } }, icon('download'), t('audit.json')),
        h('a', { class: 'btn', href: rawHref(game), download: rawFileName(game), dataset: { testid: 'download-raw' } }, icon('download'), t('audit.raw')))));

    // Scores: claimed against computed.
    const fd = a.first_divergence;
    const anyClaim = (game.players || []).some((p) => p.claimed !== null && p.claimed !== undefined);
    root.appendChild(h('section', { class: 'card' },
      h('h2', { text: t('audit.scores') }),
      table(t('audit.finalScores'), [t('games.player'), `#${t('audit.computed')}`, ...(anyClaim ? [`#${t('audit.claimed')}`, `#${t('audit.difference')}`] : []), t('audit.rank')],
        (game.players || []).map((p, i) => {
          const diff = anyClaim && p.claimed !== null && p.claimed !== undefined ? p.claimed - p.score : null;
          return h('tr', { class: winners.has(p.name) ? 'winner' : null },
            h('th', { scope: 'row' }, h('span', { class: 'swatch', style: { background: colors[i] }, 'aria-hidden': 'true' }), p.name,
              winners.has(p.name) ? h('span', { class: 'badge ok small', text: t('games.winner') }) : null),
            h('td', { class: 'num', text: String(p.score) }),
            anyClaim ? h('td', { class: 'num', text: p.claimed === null || p.claimed === undefined ? '—' : String(p.claimed) }) : null,
            anyClaim ? h('td', { class: ['num', diff ? 'bad-text' : null], text: diff === null ? '—' : diff ? (diff > 0 ? `+${diff}` : String(diff)) : '0' }) : null,
            h('td', { text: String(p.rank) }));
        }), { class: 'report narrow-table', dataset: { testid: 'audit-scores' } }),
      fd ? h('div', { class: 'divergence-box', dataset: { testid: 'first-divergence' } },
        h('h3', { text: t('audit.divergence') }),
        h('p', { text: divergenceText(fd) }),
        h('p', null, h('a', { href: turnHref(id, fd.turn), text: t('audit.seeTurn', { turn: turnText(fd.turn) }) })))
        : anyClaim ? h('p', { class: 'ok-text', text: t('audit.claimsMatch') }) : h('p', { class: 'muted', text: t('audit.noClaims') })));

    // Violations.
    const v = a.violations || [];
    root.appendChild(h('section', { class: 'card' },
      h('h2', { text: v.length ? `${t('audit.violations')} (${fmtNum(v.length)})` : t('audit.violations') }),
      v.length ? table(t('audit.violations'), [t('audit.turn'), t('games.player'), t('audit.rule'), t('audit.what')], v.map((x) => h('tr', { dataset: { rule: x.rule } },
        h('td', null, h('a', { href: turnHref(id, x.turn), text: turnText(x.turn) })),
        h('td', { text: x.player || '—' }),
        h('td', null, h('span', { class: 'badge bad', text: x.rule }), RULES[x.rule] ? h('p', { class: 'muted small', text: RULES[x.rule] }) : null),
        h('td', { class: 'message', text: violationText(x) }))), { class: 'report cards', dataset: { testid: 'audit-violations' } })
        : h('p', { class: 'ok-text', text: t('audit.noViolations') })));

    // Flights.
    const f = a.flights || [];
    root.appendChild(h('section', { class: 'card' },
      h('h2', { text: `${t('games.col.flights')} (${fmtNum(f.length)})` }),
      f.length ? table(t('games.col.flights'), [t('audit.turn'), t('games.player'), t('audit.from'), t('audit.direction'), `#${t('audit.roll')}`, t('audit.target'), t('audit.outcome'), t('audit.landings'), `#${t('audit.chance')}`], f.map((x) => h('tr', null,
        h('td', null, h('a', { href: turnHref(id, x.turn), text: turnText(x.turn) })),
        h('td', { text: x.player || '—' }),
        h('td', { text: at(x.from) }),
        h('td', { title: x.direction, text: dirWords(x.direction) }),
        h('td', { class: 'num', text: String(x.roll) }),
        h('td', { text: at(x.target) }),
        h('td', { dataset: { testid: 'flight-outcome' } }, h('span', { class: ['badge', x.outcome === 'landed' ? 'ok' : 'neutral'], text: t(x.outcome === 'landed' ? 'audit.landed' : x.outcome === 'returned' ? 'audit.returned' : 'audit.pending') }),
          x.segment ? [` ${t('audit.on')} `, segSpan(x.segment)] : null,
          x.outcome === 'returned' ? h('p', { class: 'muted small why', text: t('audit.back', { why: flightReturnWhy(x, v) }) }) : null),
        h('td', null, (x.landings || []).length ? (x.landings || []).flatMap((l, k) => [k ? ', ' : '', segSpan(l.segment)]) : '—'),
        h('td', { class: 'num', text: x.odds ? fmtPct(x.odds.chance) : '—' }))), { class: 'report cards' }) : h('p', { class: 'muted', text: t('audit.noFlights') })));

    // Score events.
    const sc = a.scores || [];
    root.appendChild(h('section', { class: 'card' },
      h('details', null,
        h('summary', null, h('h2', { class: 'inline', text: `${t('audit.events')} (${fmtNum(sc.length)})` })),
        table(t('audit.events'), [t('audit.turn'), t('games.col.players'), t('audit.feature'), `#${t('audit.points')}`, t('audit.receipt')], sc.map((x) => h('tr', null,
          h('td', null, h('a', { href: turnHref(id, x.turn), text: turnText(x.turn) })),
          h('td', { text: (x.players || []).join(', ') }),
          h('td', { text: eventFeature(x) }),
          h('td', { class: 'num', text: String(x.points) }),
          h('td', { class: 'receipt', text: receiptText(x) })))))));

    // Discards and the pinned verdict.
    const rules = a.rules || {};
    const sets = Object.entries(rules.sets || game.sets || {}).map(([k, n]) => `${k}${n > 1 ? ' ×' + n : ''}`).join(', ');
    root.appendChild(h('section', { class: 'card' },
      h('h2', { text: t('audit.pinned') }),
      h('dl', { class: 'facts' },
        h('dt', { text: t('audit.engine') }), h('dd', { text: a.engine || game.engine || '—' }),
        h('dt', { text: t('audit.sha') }), h('dd', null, h('code', { class: 'hash', text: a.input_sha256 || game.sha256 || '—' })),
        h('dt', { text: t('audit.file') }), h('dd', { text: t('audit.fileFacts', { name: game.name || '—', format: game.format, bytes: t('upload.bytes', { n: game.size }), date: fmtDate(game.uploaded_at), source: game.source }) }),
        h('dt', { text: t('audit.sets') }), h('dd', { text: sets || '—' }),
        h('dt', { text: t('audit.rules') }), h('dd', { text: settingsText(rules) }),
        rules.elements ? [h('dt', { text: t('audit.elements') }), h('dd', { dataset: { testid: 'elements' }, text: elementsText(rules.elements) })] : null,
        h('dt', { text: t('audit.discards') }), h('dd', { text: (a.discards || []).length ? a.discards.map((d) => `${d.tile} (${t('upload.turn', { turn: turnText(d.turn) })}${d.logged ? `, ${t('audit.logged')}` : ''})`).join(', ') : t('audit.none') }),
        // what the report's squares mean, said once
        h('dt', { text: t('audit.squares') }), h('dd', { dataset: { testid: 'squares' }, text: t('audit.squaresText') }))));
    if (!game.live) {
      root.appendChild(manageCard(game, {
        onRenamed: (name) => { const title = gameTitle({ ...game, name }); root.querySelector('h1').textContent = t('audit.heading', { game: title }); document.title = `${t('audit.title', { game: title })} · flierd`; },
        onDeleted: () => navigate(`/?deleted=${id}`),
      }));
    }
  }).catch((e) => {
    if (!alive) return;
    root.replaceChildren(h('h1', { tabindex: -1, text: e.status === 404 ? t('audit.noGame') : t('audit.loadError') }),
      h('p', { class: 'error', role: 'alert', text: e.message }), h('p', null, h('a', { href: '/', text: t('audit.back2') })));
  });
  return () => { alive = false; };
}
