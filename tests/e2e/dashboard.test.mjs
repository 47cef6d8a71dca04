// dashboard.test.mjs - the web dashboard end to end: a real flierd daemon
// (started with the sample games) and Debian's Chromium, headless, driven by
// playwright-core. Screenshots of every page go to $FLIERD_E2E_ARTIFACTS
// (default: e2e-artifacts/ beside the flierd binary, e.g. build/).
//
//   node tests/e2e/dashboard.test.mjs BUILD/flierd SOURCE_DIR
//
// Missing node modules, Chromium or the binary are a failure, never a skip.

import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { existsSync, accessSync, constants, mkdirSync, mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname, resolve } from 'node:path';

const [flierdArg, srcArg] = process.argv.slice(2);
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

function die(msg) {
  process.stderr.write(`dashboard.test.mjs: ${msg}\n`);
  process.exit(1);
}
if (!flierdArg || !srcArg) die('usage: node dashboard.test.mjs PATH/TO/flierd SOURCE_DIR');
const FLIERD = resolve(flierdArg);
const SRC = resolve(srcArg);
// The dashboard's own wording of segments ("the road running north–south"),
// to check the pages against: the module runs in node as in the browser.
const { segWords } = await import(join(SRC, 'web/words.js'));
if (!existsSync(FLIERD)) die(`no flierd binary at ${FLIERD}: build it first (cmake --build build)`);
if (Number(process.versions.node.split('.')[0]) < 18) die(`Node.js ${process.versions.node} is too old: 18 or later is needed`);
try { accessSync(CHROMIUM, constants.X_OK); } catch {
  die(`no Chromium at ${CHROMIUM}: install it with 'apt-get install -y chromium' (or set CHROMIUM=/path/to/chromium)`);
}
let chromium;
try {
  ({ chromium } = await import('playwright-core'));
} catch (e) {
  die(`playwright-core is not installed: run 'npm ci' in ${join(SRC, 'tests/e2e')} (${e.code || e.message})`);
}

const ARTIFACTS = resolve(process.env.FLIERD_E2E_ARTIFACTS || join(dirname(FLIERD), 'e2e-artifacts'));
mkdirSync(ARTIFACTS, { recursive: true });
const TMP = mkdtempSync(join(tmpdir(), 'flierd-e2e-'));

/** Starts `flierd serve` on a free port; resolves with {url, proc, stop()}.
 * web: serve the source tree's web/ (--web), else the dashboard built into
 * the binary, from a folder where no web/ lies beside it. */
function startDaemon(name, extra = [], { web = true } = {}) {
  const args = ['serve', '--listen', '127.0.0.1:0', '--db', join(TMP, `${name}.db`), ...(web ? ['--web', join(SRC, 'web')] : []), '--quiet', ...extra];
  const proc = spawn(FLIERD, args, { stdio: ['ignore', 'pipe', 'pipe'], cwd: TMP });
  let stderr = '';
  proc.stderr.on('data', (d) => { stderr += d; });
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => { proc.kill('SIGKILL'); reject(new Error(`flierd (${name}) did not say where it listens within 60 s; stderr:\n${stderr}`)); }, 60000);
    proc.on('exit', (code) => { clearTimeout(timer); reject(new Error(`flierd (${name}) exited with ${code} before listening; stderr:\n${stderr}`)); });
    createInterface({ input: proc.stdout }).on('line', (line) => {
      const m = /listening on (http:\/\/\S+)/.exec(line);
      if (!m) return;
      clearTimeout(timer);
      proc.removeAllListeners('exit');
      resolvePromise({
        url: m[1],
        proc,
        stderr: () => stderr,
        stop: () => new Promise((res) => {
          if (proc.exitCode !== null) { res(proc.exitCode); return; }
          const t = setTimeout(() => proc.kill('SIGKILL'), 15000);
          proc.on('exit', (code, sig) => { clearTimeout(t); res(code === null ? sig : code); });
          proc.kill('SIGTERM');
        }),
      });
    });
  });
}

let daemon, ctx, base;
const problems = []; // console errors, page errors, CSP reports

async function api(path, init, at = base) {
  const res = await fetch(at + path, init);
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

async function newPage(width = 1400, height = 900) {
  const page = await ctx.newPage();
  await page.setViewportSize({ width, height });
  page.on('console', (m) => {
    // The refusals the tests ask for on purpose (a bad upload, a missing
    // token) are logged by Chromium as failed loads; anything else counts.
    // The record page's test takes the network away on purpose too.
    if (m.type() === 'error' && !/^Failed to load resource: (the server responded with a status of (400|401)\b|net::ERR_INTERNET_DISCONNECTED$)/.test(m.text())) {
      problems.push(`console: ${m.text()} (${page.url()})`);
    }
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message} (${page.url()})`));
  return page;
}

async function shot(page, name, fullPage = true) {
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage });
}

async function gameId(suffix) {
  const { body } = await api('/api/games?limit=1000');
  const g = body.games.find((x) => x.name && x.name.endsWith(suffix));
  assert.ok(g, `game ${suffix} is stored`);
  return g.id;
}

const caption = (page) => page.locator('[data-testid=turn-caption]').textContent();

before(async () => {
  daemon = await startDaemon('main', ['--load', join(SRC, 'samples')]);
  base = daemon.url;
  ctx = await chromium.launchPersistentContext(join(TMP, 'chromium-profile'), {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
});

after(async () => {
  if (ctx) await ctx.close();
  if (daemon) {
    const code = await daemon.stop();
    assert.equal(code, 0, `flierd exits 0 on SIGTERM; stderr:\n${daemon.stderr()}`);
  }
  rmSync(TMP, { recursive: true, force: true });
  process.stdout.write(`# screenshots in ${ARTIFACTS}\n`);
});

describe('the dashboard', () => {
  test('the daemon serves the pages, with the security headers', async () => {
    for (const path of ['/', '/games/1', '/games/1/audit', '/stats', '/upload']) {
      const res = await fetch(base + path);
      assert.equal(res.status, 200, path);
      assert.match(res.headers.get('content-type'), /text\/html/, path);
      assert.match(res.headers.get('content-security-policy'), /default-src 'self'/, path);
      const html = await res.text();
      assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/i, 'no inline script');
      assert.doesNotMatch(html, /\sstyle=/i, 'no inline style attribute');
      assert.doesNotMatch(html, /https?:\/\/(?!127\.0\.0\.1)/i, 'nothing from another host');
    }
    assert.equal((await fetch(base + '/no-such-file.js')).status, 404);
    assert.equal((await fetch(base + '/api/nothing')).status, 404);
  });

  test('the games list: every game, filters, search, sorting', async () => {
    const all = (await api('/api/games?limit=1000')).body;
    const invalid = (await api('/api/games?verdict=invalid&limit=1000')).body;
    const page = await newPage();
    // every sample on one page: more than the 50 a page shows by default
    assert.ok(all.total <= 100, `${all.total} samples: raise the page size`);
    await page.goto(base + '/?size=100');
    const rows = page.locator('[data-testid=games-table] tbody tr');
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid=games-table] tbody tr').length === n, all.total);
    assert.match(await page.locator('.list-status').textContent(), new RegExp(`of ${all.total} games`));
    await shot(page, '01-games');

    // Verdict filter: only the invalid games, each with a violations badge.
    await page.getByLabel('Verdict').selectOption('invalid');
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid=games-table] tbody tr').length === n && !document.querySelector('table.busy'), invalid.total);
    assert.equal(await rows.locator('.badge.bad').count(), invalid.total);
    assert.match(page.url(), /verdict=invalid/);

    // The search box narrows it further.
    await page.getByLabel('Search').fill('forged');
    await page.waitForFunction(() => [...document.querySelectorAll('[data-testid=games-table] tbody tr .game-link')].every((a) => a.textContent.includes('forged')) && document.querySelectorAll('[data-testid=games-table] tbody tr').length === 3);
    assert.match(page.url(), /q=forged/);
    await shot(page, '02-games-filtered');

    // Sorting by turns, ascending: the numbers go up.
    await page.getByLabel('Verdict').selectOption('');
    await page.getByLabel('Search').fill('');
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid=games-table] tbody tr').length === n, all.total);
    await page.locator('button.sort[data-sort=turns]').click();
    await page.waitForFunction(() => /sort=turns/.test(location.search) && !document.querySelector('table.busy'));
    const turns = (await rows.locator('td[data-label=Turns]').allTextContents()).map(Number);
    assert.deepEqual(turns, turns.slice().sort((a, b) => a - b), 'sorted by turns');
    assert.equal(await page.locator('th[aria-sort=ascending]').count(), 1);

    // Edition filter against the API's own count.
    const c3 = (await api('/api/games?edition=C3')).body.total;
    await page.getByLabel('Edition').selectOption('C3');
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid=games-table] tbody tr').length === n && !document.querySelector('table.busy'), c3);
    assert.deepEqual([...new Set(await rows.locator('td[data-label=Edition]').allTextContents())], ['C3']);
    await page.close();
  });

  test('the games list: an expansion column of short names, and an expansion filter', async () => {
    const all = (await api('/api/games?limit=1000')).body;
    const count = (await api('/api/games?expansion=count&limit=1000')).body;
    assert.ok(count.total > 0 && count.total < all.total, 'some samples, not all, play the Count');
    const page = await newPage();
    await page.goto(base + '/?size=100');
    const rows = page.locator('[data-testid=games-table] tbody tr');
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid=games-table] tbody tr').length === n, all.total);
    assert.equal(await page.locator('[data-testid=games-table] thead th', { hasText: 'Expansions' }).count(), 1, 'a column');
    // each row names its expansions by their short names, the full name in the title
    const id = await gameId('/count-c2-4p.jcz');
    const cell = page.locator(`[data-testid=games-table] tbody tr[data-id="${id}"] td[data-label=Expansions]`);
    assert.deepEqual(await cell.locator('li').allTextContents(), ['Flier', 'Count']);
    assert.equal(await cell.locator('li[data-expansion=count] abbr').getAttribute('title'), 'The Count of Carcassonne');
    // The filter narrows the list to the games that use it, as the API does.
    await page.getByLabel('Expansion', { exact: true }).selectOption('count');
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid=games-table] tbody tr').length === n && !document.querySelector('table.busy'), count.total);
    assert.match(page.url(), /expansion=count/);
    assert.deepEqual((await rows.evaluateAll((es) => es.map((e) => Number(e.dataset.id)))).sort((a, b) => a - b), count.games.map((g) => g.id).sort((a, b) => a - b));
    for (const names of await rows.locator('td[data-label=Expansions]').evaluateAll((es) => es.map((e) => e.textContent))) assert.match(names, /Count/);
    await shot(page, '02b-games-expansion');
    // and it is kept in the address: a reload shows the same list
    await page.reload();
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid=games-table] tbody tr').length === n && !document.querySelector('table.busy'), count.total);
    assert.equal(await page.getByLabel('Expansion', { exact: true }).inputValue(), 'count');
    await page.close();
  });

  test('a replay: step to a flight; landing, options and scores match the audit', async () => {
    const id = await gameId('/c2-2p.jcz');
    const game = (await api(`/api/games/${id}`)).body;
    const flight = game.audit.flights.find((f) => f.outcome === 'landed');
    assert.ok(flight, 'the sample has a landed flight');
    const page = await newPage();
    await page.goto(`${base}/games/${id}?turn=0`);
    await page.locator('svg.board .tile').first().waitFor();
    assert.match(await caption(page), /Start tile/);

    // One marker per flight on the turn slider.
    assert.equal(await page.locator('[data-testid=flight-marker]').count(), game.audit.flights.length);

    // Keyboard: End, Home, then jump to the turn before the flight and step.
    await page.locator('body').press('End');
    assert.match(await caption(page), /Final scoring/);
    await page.locator('body').press('Home');
    assert.match(await caption(page), /Start tile/);
    await page.locator('#jump').fill(String(flight.turn - 1));
    await page.locator('#jump').press('Enter');
    assert.match(await caption(page), new RegExp(`^Turn ${flight.turn - 1}\\b`));
    await page.locator('svg.board').focus();
    await page.keyboard.press('ArrowRight');
    assert.match(await caption(page), new RegExp(`^Turn ${flight.turn}\\b.*a flight`));
    assert.match(page.url(), new RegExp(`\\?turn=${flight.turn}$`));
    assert.equal(await page.locator('[data-testid=permalink]').getAttribute('href'), `/games/${id}?turn=${flight.turn}`);

    // The landing is highlighted on the target, on the logged segment.
    const landing = page.locator('[data-testid=landing]');
    await landing.waitFor();
    assert.equal(await landing.getAttribute('data-at'), flight.target.join(','));
    assert.equal(await landing.getAttribute('data-segment'), flight.segment);
    // The three targets, the rolled one stressed, with their valid landings.
    assert.equal(await page.locator('svg.board .flight-target').count(), 3);
    assert.equal(await page.locator(`svg.board .flight-target.rolled`).getAttribute('data-roll'), String(flight.roll));
    const options = page.locator('[data-testid=flight-options] tbody tr');
    assert.equal(await options.count(), 3);
    for (const r of flight.odds.rolls) {
      const shown = await page.locator(`[data-testid=flight-options] tbody tr[data-roll="${r.roll}"] li`).evaluateAll((els) => els.map((e) => e.dataset.segment));
      assert.deepEqual(shown, r.landings.map((l) => l.segment), `roll ${r.roll} options`);
    }
    const rolledOptions = await page.locator(`svg.board .option-ring.rolled`).evaluateAll((els) => els.map((e) => e.dataset.segment).sort());
    assert.deepEqual(rolledOptions, flight.landings.map((l) => l.segment).sort());
    assert.equal(await page.locator('[data-testid=flight-outcome]').textContent(), `Landed on ${segWords(flight.segment)} at (${flight.target[0]},${flight.target[1]}).`);
    // the notation stays as the words' tooltip
    assert.equal(await page.locator('[data-testid=flight-outcome] .seg-words').getAttribute('title'), flight.segment);

    // Running scores against the audit's running totals.
    const expected = game.audit.running[flight.turn];
    for (const [k, p] of game.audit.players.entries()) {
      const cell = page.locator(`[data-testid=scores] tr[data-player="${p.name}"] td.score`);
      assert.equal(Number((await cell.textContent()).trim().split(/\s/)[0]), expected[k], `${p.name} after turn ${flight.turn}`);
    }
    assert.equal(await page.locator('.line-chart path.series').count(), game.audit.players.length, 'one line per player');
    await shot(page, '03-replay-flight');

    // The slider moves with the keyboard too; the permalink reopens the turn.
    await page.locator('[data-testid=turn-slider]').focus();
    await page.keyboard.press('ArrowRight');
    assert.match(await caption(page), new RegExp(`^Turn ${flight.turn + 1}\\b`));
    await page.goto(`${base}/games/${id}?turn=${flight.turn}`);
    assert.match(await caption(page), new RegExp(`^Turn ${flight.turn}\\b`));

    // The last step: final scores are the audit's.
    await page.locator('body').press('End');
    for (const p of game.audit.players) {
      const cell = page.locator(`[data-testid=scores] tr[data-player="${p.name}"] td.score`);
      assert.equal(Number((await cell.textContent()).trim().split(/\s/)[0]), p.score);
    }
    // Autoplay advances and stops again.
    await page.locator('body').press('Home');
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await page.waitForFunction(() => /^Turn [1-9]/.test(document.querySelector('[data-testid=turn-caption]').textContent));
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    await page.close();
  });

  test('a Big Box replay draws the river, inns, the cathedral, goods and every figure', async () => {
    // samples/bigbox-tour.flierlog: The River II, Inns & Cathedrals, Traders &
    // Builders, Abbey & Mayor, the Phantom and The Flier in one small game.
    const id = await gameId('/bigbox-tour.flierlog');
    const game = (await api(`/api/games/${id}`)).body;
    assert.equal(game.valid, true, 'the sample audits valid');
    const replay = (await api(`/api/games/${id}/replay`)).body;
    // The board after each step, from the API's changes.
    const boards = [];
    const on = new Map();
    for (const t of replay.turns) {
      for (const r of t.removed) on.delete(r);
      for (const m of t.placed) on.set(m.id, m);
      boards.push([...on.values()]);
    }
    const NAMES = { small: 'follower', big: 'large follower', abbot: 'abbot', phantom: 'phantom', builder: 'builder', pig: 'pig', mayor: 'mayor', wagon: 'wagon', barn: 'barn' };
    const title = (m) => `${m.player}'s ${NAMES[m.kind]} on ${segWords(m.segment)} ` +
      (m.kind === 'barn' ? `at the corner north-west of (${m.at[0]},${m.at[1]})` : `at (${m.at[0]},${m.at[1]})`) + (m.flew ? ', arrived by flight' : '');

    const page = await newPage();
    await page.goto(`${base}/games/${id}?turn=0`);
    await page.locator('svg.board .tile').first().waitFor();
    assert.match(await caption(page), /Start tile/);
    // The spring: the river starts in a lake.
    assert.equal(await page.locator('svg.board .tile[data-tile="RI/s"] path.river').count(), 1);
    assert.equal(await page.locator('svg.board .tile[data-tile="RI/s"] circle.lake').count(), 1);

    // Step through every turn: the figures drawn are the board's, each
    // titled with owner, figure and place.
    const seen = new Map(); // kind -> a title seen
    const last = replay.turns.length - 1;
    for (let i = 0; i <= last; i++) {
      if (i) await page.keyboard.press('ArrowRight');
      const t = replay.turns[i];
      assert.match(await caption(page), t.turn === null ? /^Final scoring/ : i ? new RegExp(`^Turn ${t.turn}\\b`) : /^Start tile/);
      const want = boards[i].map(title).sort();
      const got = (await page.locator('svg.board .meeple > title').allTextContents()).sort();
      assert.deepEqual(got, want, `the figures after step ${i}`);
      for (const m of boards[i]) if (!seen.has(m.kind)) seen.set(m.kind, title(m));
    }
    assert.deepEqual([...seen.keys()].sort(), Object.keys(NAMES).sort(), 'every kind of figure appears');

    // The last turn: every kind on the board at once.
    await page.locator('#jump').fill('21');
    await page.locator('#jump').press('Enter');
    const kinds = await page.locator('svg.board .meeple').evaluateAll((els) => els.map((e) => e.dataset.kind));
    for (const k of Object.keys(NAMES)) assert.ok(kinds.includes(k), `a ${k} on the board after turn 21`);
    // Their own silhouettes: no two kinds share a shape and a size.
    const shapes = await page.locator('svg.board .meeple').evaluateAll((els) => Object.fromEntries(els.map((e) => {
      const b = e.querySelector('path.meeple-body:not(.meeple-underlay)');
      return [e.dataset.kind, `${b.getAttribute('d')} ${b.getAttribute('transform')}`];
    })));
    assert.equal(new Set(Object.values(shapes)).size, Object.keys(NAMES).length, 'one silhouette per kind');
    assert.equal(await page.locator('svg.board .meeple.kind-unknown').count(), 0, 'no figure drawn with the generic shape');
    const area = async (sel) => { const b = await page.locator(sel).first().locator('path.meeple-body').boundingBox(); return b.width * b.height; };
    assert.ok(await area('svg.board .meeple.kind-big') > 1.5 * await area('svg.board .meeple.kind-small'), 'the large follower is larger');
    const opacity = await page.locator('svg.board .meeple.kind-phantom path.meeple-body.see-through').first().evaluate((e) => Number(getComputedStyle(e).fillOpacity));
    assert.ok(opacity < 0.8, `the phantom is see-through (fill-opacity ${opacity})`);
    // The barn stands on the corner where (-1,0), (0,0), (-1,1) and (0,1) meet.
    const barn = page.locator('svg.board .meeple.kind-barn');
    assert.equal(await barn.getAttribute('transform'), 'translate(0 100)');
    assert.equal(await barn.locator('title').textContent(), "Ada's barn on the field all round the tile at the corner north-west of (0,1)");
    assert.equal(await page.locator('svg.board .meeple.kind-mayor title').textContent(), "Ben's mayor on the city running east–west at (1,-2)");

    // Rivers (blue), inns, the cathedral, trade goods, the pig herd, the abbey.
    const rivers = page.locator('svg.board .tile:not(.hidden) path.river');
    assert.equal(await rivers.count(), 12, 'the spring and the eleven tiles of The River II');
    assert.match(await rivers.first().evaluate((e) => getComputedStyle(e).stroke), /^rgb\(\d+, \d+, (2[0-9]{2}|1[5-9][0-9])\)$/, 'blue water');
    const tokens = async (attr) => page.locator(`svg.board .tile:not(.hidden) .token-${attr} > title`).allTextContents();
    assert.deepEqual(await tokens('inn'), ['inn', 'inn', 'inn'], 'the river inn and two of Inns & Cathedrals');
    assert.deepEqual(await tokens('cathedral'), ['cathedral']);
    assert.deepEqual(await tokens('wine'), ['trade goods: wine']);
    assert.deepEqual(await tokens('grain'), ['trade goods: grain']);
    assert.deepEqual(await tokens('pig-herd'), ['pig herd']);
    assert.equal(await page.locator('svg.board .token-generic').count(), 0, 'no token drawn with the generic dot');
    assert.equal(await page.locator('svg.board .tile.closed[data-tile="AM/A"] .monastery.abbey > title').textContent(), 'abbey');
    // The key below the board names them.
    const key = await page.locator('[data-testid=board-key] li').allTextContents();
    for (const n of [...Object.values(NAMES), 'inn', 'cathedral', 'trade goods: wine', 'pig herd', 'abbey']) assert.ok(key.includes(n), `the key names ${n}`);
    await shot(page, '14-replay-bigbox');
    await page.locator('svg.board').focus();
    for (let k = 0; k < 3; k++) await page.keyboard.press('+');
    await shot(page, '15-replay-bigbox-zoom', false);

    // The move text names the figures: a builder's second tile with a flight.
    await page.goto(`${base}/games/${id}?turn=15`);
    const move = page.locator('[data-testid=move]');
    await move.waitFor();
    assert.match(await move.textContent(), /Ben plays again \(the builder's second tile\): placed the tile with a flying machine at/);
    assert.equal(await move.locator('.tile-words').getAttribute('title'), 'FL/F.o', 'the tile id is the words\' tooltip');
    assert.match(await move.textContent(), /Ben flew a follower onto the city on every side at \(0,-2\)\./);
    await page.goto(`${base}/games/${id}?turn=18`);
    assert.match(await move.textContent(), /Ada deployed a barn on the field all round the tile at the corner north-west of \(0,1\)\./);
    // Final scoring: trade goods and the barn score; neither is "incomplete".
    await page.locator('body').press('End');
    assert.match(await move.textContent(), /^Final scoring: .*trade goods.*barn|^Final scoring: .*barn.*trade goods/);
    const features = await page.locator('[data-testid=events] .event-feature').allTextContents();
    assert.ok(features.includes('trade goods') && features.includes('barn'), features.join(', '));
    assert.ok(features.includes('road (incomplete)'), 'incomplete features still say so');
    await page.close();
  });

  test('a Princess & Dragon replay draws the dragon, the fairy and the princess', async () => {
    // samples/dragon-tour.flierlog: the volcano brings the dragon (turn 3),
    // its three steps (turn 5), the fairy beside Ben's highwayman (turn 6).
    const id = await gameId('/dragon-tour.flierlog');
    assert.equal((await api(`/api/games/${id}`)).body.valid, true, 'the sample audits valid');
    const page = await newPage();
    await page.goto(`${base}/games/${id}?turn=2`);
    await page.locator('svg.board .tile').first().waitFor();
    assert.equal(await page.locator('svg.board .meeple.kind-dragon').count(), 0, 'no dragon before the volcano');
    assert.ok(await page.locator('svg.board .tile[data-tile="DG/Cc.p"] .princess-crown').count() > 0, 'the princess drawn on her city');
    assert.equal(await page.locator('svg.board .tile[data-tile="DG/R.v"] .tile-mark-volcano').count(), 1, 'the volcano marked');
    assert.equal(await page.locator('svg.board .tile[data-tile="DG/RFr.d"] .tile-mark-dragon').count(), 1, "the dragon's symbol marked");
    await page.keyboard.press('ArrowRight');
    assert.match(await caption(page), /^Turn 3\b/);
    const dragon = page.locator('svg.board .meeple.kind-dragon');
    assert.equal(await dragon.locator('title').textContent(), 'The dragon on the square (1,0)');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    assert.match(await caption(page), /^Turn 5\b/);
    assert.equal(await dragon.locator('title').textContent(), 'The dragon on the square (1,-1)');
    await page.getByText('The dragon came to (1,-1).').waitFor();
    await page.keyboard.press('ArrowRight');
    assert.equal(await page.locator('svg.board .meeple.kind-fairy title').textContent(), 'The fairy on the square (-1,0)');
    for (const k of ['dragon', 'fairy']) {
      assert.equal(await page.locator(`[data-testid=board-key] li[data-kind=${k}]`).count(), 1, `the key shows the ${k}`);
      assert.equal(await page.locator(`svg.board .meeple.kind-${k}.kind-unknown`).count(), 0, `the ${k} has its own shape`);
    }
    await shot(page, '03b-dragon');
    await page.close();
  });

  test('a Tower replay draws the towers with their height and the prisoners', async () => {
    // samples/tower-c2-3p.jcz: 25 floors, 11 captures, 2 ransoms. What the
    // page must show is read from the replay the API gives.
    const id = await gameId('/tower-c2-3p.jcz');
    assert.equal((await api(`/api/games/${id}`)).body.valid, true, 'the sample audits valid');
    const replay = (await api(`/api/games/${id}/replay`)).body;
    // the tower unit's items: its marks (heights) and counters (prisoners)
    const prisoners = (t) => (t.counters || []).filter((c) => c.unit === 'tower' && c.name === 'prisoners');
    const k = replay.turns.findIndex((t) => prisoners(t).some((c) => c.value > 0));
    assert.ok(k > 0, 'a turn takes a prisoner');
    let towers = [];
    for (const t of replay.turns.slice(0, k + 1)) if (Array.isArray(t.marks)) towers = t.marks.filter((m) => m.unit === 'tower' && m.name === 'height').map((m) => ({ at: m.at, height: m.value }));
    assert.ok(towers.length > 0, 'towers stand by then');
    const page = await newPage();
    await page.goto(`${base}/games/${id}?turn=${replay.turns[k].turn}`);
    await page.locator('svg.board .tile').first().waitFor();
    // the board of that turn, drawn whole before it is read
    await page.locator('[data-testid=prisoners]').waitFor();
    await page.waitForFunction((n) => document.querySelectorAll('svg.board .tower-height').length === n, towers.length);
    assert.ok(await page.locator('svg.board .tower').count() >= towers.length, 'every tower tile draws its tower');
    assert.equal(await page.locator('[data-testid=board-key] li[data-attr=tower]').count(), 1, 'the key shows the tower');
    const heights = await page.locator('svg.board .tower-height').evaluateAll((es) => es.map((e) => `${e.dataset.at}=${e.dataset.height}`).sort());
    assert.deepEqual(heights, towers.map((t) => `${t.at[0]},${t.at[1]}=${t.height}`).sort(), 'each tower with a floor shows its height');
    const held = Object.fromEntries(prisoners(replay.turns[k]).map((c) => [c.player, c.value]));
    const text = await page.locator('[data-testid=prisoners]').textContent();
    replay.players.forEach((p) => assert.ok(text.includes(`${p.name} ${held[p.name]}`), `${p.name} holds ${held[p.name]}: ${text}`));
    // A ransom is two score events, the payer's -3 and the jailer's +3.
    const ransom = replay.events.filter((e) => e.feature === 'ransom');
    assert.equal(ransom.length, 4, 'two ransoms, two events each');
    await page.goto(`${base}/games/${id}?turn=${ransom[0].turn}`);
    await page.locator('[data-testid=events] .event-feature').first().waitFor();
    const features = await page.locator('[data-testid=events] .event-feature').allTextContents();
    assert.equal(features.filter((f) => /ransom/.test(f)).length, 2, features.join(', '));
    await shot(page, '03c-tower');
    await page.close();
  });

  test('a Tower capture is a prisoner: in the turn panel, on the board and in the key', async () => {
    const id = await gameId('/tower-c2-3p.jcz');
    const replay = (await api(`/api/games/${id}/replay`)).body;
    // each prisoner is an item of its own: whose follower, held by which seat
    const names = replay.players.map((p) => p.name);
    let held = [];
    const taken = []; // [turn index, {owner, by}] for each capture
    replay.turns.forEach((t, i) => {
      if (!Array.isArray(t.counters)) return;
      const now = t.counters.filter((c) => c.unit === 'tower' && c.name === 'prisoner').map((c) => `${c.player}|${names[c.value]}`);
      const left = [...held];
      for (const k of now) { const j = left.indexOf(k); if (j >= 0) left.splice(j, 1); else taken.push([i, k]); }
      held = now;
    });
    assert.ok(taken.length >= 2, `captures: ${taken.length}`);
    const page = await newPage();
    for (const [i, k] of taken.slice(0, 2)) {
      const [owner, by] = k.split('|');
      const t = replay.turns[i];
      await page.goto(`${base}/games/${id}?turn=${t.turn}`);
      await page.locator('[data-testid=held-taken]').first().waitFor();
      const said = await page.locator('[data-testid=held-taken]').allTextContents();
      assert.ok(said.some((x) => x.startsWith(`${by} takes ${owner}'s follower prisoner (with a tower).`)), said.join(' | '));
      // not sent to the supply: the captured follower is the only one gone
      const back = await page.locator('p.muted', { hasText: 'Back to supply' }).allTextContents();
      assert.ok(!back.some((x) => x.includes(`${owner}'s follower`)) || (t.removed || []).length > 1, back.join(' | '));
      // on the board: every prisoner held then, ringed in its holder's colour
      const items = t.counters.filter((c) => c.unit === 'tower' && c.name === 'prisoner');
      await page.waitForFunction((n) => document.querySelectorAll('svg.board .prisoner').length === n, items.length);
      const drawn = await page.locator('svg.board .prisoner').evaluateAll((es) => es.map((e) => `${e.dataset.player}|${e.dataset.holder}`).sort());
      assert.deepEqual(drawn, items.map((c) => `${c.player}|${names[c.value]}`).sort());
      assert.match(await page.locator('svg.board .prisoner title').first().textContent(), /^\S+'s follower, held prisoner by \S+$/);
    }
    assert.equal(await page.locator('[data-testid=board-key] li[data-kind=prisoner]').count(), 1, 'the key shows the prisoner');
    await shot(page, '03d-tower-prisoner');
    await page.close();
  });

  test('a Count of Carcassonne replay draws the City, its quarters and the count', async () => {
    // samples/rules/flier-lands-outside-city.flierlog: the twelve City tiles start it.
    const id = await gameId('/flier-lands-outside-city.flierlog');
    const replay = (await api(`/api/games/${id}/replay`)).body;
    assert.equal(replay.start.length, 12, 'the replay lists the City\'s twelve start tiles');
    const page = await newPage();
    await page.goto(`${base}/games/${id}?turn=0`);
    await page.locator('svg.board .tile[data-tile="CO/7"]').waitFor();
    assert.match(await caption(page), /Start tile/);
    for (const st of replay.start) {
      assert.equal(await page.locator(`svg.board .tile[data-tile="${st.tile}"][data-at="${st.at.join(',')}"]`).count(), 1, `${st.tile} is drawn`);
    }
    assert.equal(await page.locator('svg.board .tile[data-tile="CO/7"] .quarter').count(), 4);
    assert.equal(await page.locator('svg.board .tile[data-tile="CO/7"].closed').count(), 0, 'the quarters are no abbey');
    assert.equal(await page.locator('svg.board .count').getAttribute('data-segment'), 'quarter:castle');
    await page.close();
  });

  test('the City of Carcassonne is drawn walled, its quarters named, the count a figure', async () => {
    // samples/count-c2-4p.jcz: in turn 26 Ada sends a follower to the
    // blacksmith and moves the count to the cathedral.
    const id = await gameId('/count-c2-4p.jcz');
    const replay = (await api(`/api/games/${id}/replay`)).body;
    const k = replay.turns.findIndex((t) => (t.placed || []).some((m) => String(m.segment).startsWith('quarter:')));
    assert.ok(k > 0, 'a follower goes into the City');
    const turn = replay.turns[k].turn;
    const into = replay.turns[k].placed.find((m) => String(m.segment).startsWith('quarter:'));
    let count = null;
    for (const t of replay.turns.slice(0, k + 1)) if (Array.isArray(t.figures)) count = t.figures.find((f) => f.unit === 'count') || count;
    assert.ok(count, 'the count stands in the City');
    const page = await newPage(390, 844);
    await page.goto(`${base}/games/${id}?turn=${turn}`);
    await page.locator('svg.board .count').waitFor();
    // all twelve tiles drawn as the City, with walls; no meadow dots keyed "coc"
    assert.equal(await page.locator('svg.board .tile[data-tile^="CO/"] .coc').count(), 12, 'each City tile draws the City');
    assert.ok(await page.locator('svg.board .coc-wall').count() >= 10, 'the walls face the land');
    assert.equal(await page.locator('svg.board .token-coc, svg.board .token-generic').count(), 0, 'no dots on the City');
    const key = await page.locator('[data-testid=board-key] li').allTextContents();
    assert.ok(!key.includes('coc'), `the key says no "coc": ${key.join(', ')}`);
    assert.ok(key.includes('the City of Carcassonne') && key.includes('the count'), key.join(', '));
    // the four quarters, named on the board
    const names = await page.locator('svg.board .tile[data-tile="CO/7"] .quarter .quarter-name').allTextContents();
    assert.deepEqual(names.sort(), ['blacksmith', 'castle', 'cathedral', 'market']);
    // the count: a figure (a silhouette, not a dot) in its quarter
    const fig = page.locator('svg.board .count.meeple.kind-count');
    assert.equal(await fig.getAttribute('data-segment'), count.segment);
    assert.equal(await fig.locator('path.meeple-body').count(), 1, 'drawn as a figure');
    assert.equal(await fig.locator('circle').count(), 0, 'not a dot');
    assert.equal(await fig.locator('title').textContent(), `The count in the ${count.segment.split(':')[1]} quarter`);
    assert.equal(await page.locator(`svg.board .meeple[data-segment="${into.segment}"][data-player="${into.player}"]`).count(), 1, 'the follower in its quarter');
    // A large board starts zoomed in, so figures and names stay readable
    // on a phone: the follower drawn at least as large as at 80 pixels a tile.
    const body = await page.locator('svg.board .meeple.kind-small').first().locator('path.meeple-body').boundingBox();
    assert.ok(body.height >= 80 * 0.8 * 26 / 100 * 0.9, `a follower is ${body.height} px tall`);
    const viewBox = async () => (await page.locator('svg.board').getAttribute('viewBox')).split(' ').map(Number);
    const start = await viewBox();
    await page.getByRole('button', { name: 'Fit the board' }).click();
    const whole = await viewBox();
    assert.ok(whole[2] > start[2], 'fitting shows more of the board than the start');
    await shot(page, '03d-count-city');
    await page.close();
  });

  test('the fairy\'s point at the start of a turn shows with that turn', async () => {
    // samples/dragon-tour.flierlog: filed with turn 7 (Ada's), it is the
    // start of Ben's turn 8, whose running scores hold it.
    const id = await gameId('/dragon-tour.flierlog');
    const game = (await api(`/api/games/${id}`)).body;
    const ev = game.audit.scores.find((x) => x.expr === 'fairy.turn');
    assert.equal(ev.turn, 7, 'the JSON keeps the turn it is filed with');
    assert.equal(ev.receipt, "fairy beside Ben's follower: 1 at the start of Ben's turn 8 → Ben 1");
    const page = await newPage();
    await page.goto(`${base}/games/${id}?turn=8`);
    await page.locator('[data-testid=events] .receipt').first().waitFor();
    assert.ok((await page.locator('[data-testid=events] .receipt').allTextContents()).includes(ev.receipt));
    await page.goto(`${base}/games/${id}?turn=7`);
    await page.locator('[data-testid=move]').waitFor();
    const at7 = await page.locator('[data-testid=events] .receipt').allTextContents();
    assert.ok(!at7.includes(ev.receipt), at7.join(' | '));
    await page.close();
  });

  test('the City\'s round after a turn is said as after that turn, not as the next one', async () => {
    // samples/count-c2-4p.jcz: followers go into the City and the count
    // moves between turns; the replay shows them with the next turn.
    const id = await gameId('/count-c2-4p.jcz');
    const replay = (await api(`/api/games/${id}/replay`)).body;
    const countAt = (t) => ((t.figures || []).find((f) => f.unit === 'count' && f.name === 'count') || {}).segment;
    let was = null, k = -1;
    replay.turns.forEach((t, i) => {
      const now = countAt(t);
      if (now !== undefined) { if (was !== null && now !== was && k < 0) k = i; was = now; }
    });
    assert.ok(k > 0, 'the count moves in this game');
    const t = replay.turns[k], prev = replay.turns[k - 1];
    const page = await newPage();
    await page.goto(`${base}/games/${id}?turn=${t.turn}`);
    const moved = page.locator('[data-testid=item-moved]');
    await moved.first().waitFor();
    assert.equal(await moved.first().textContent(), `After ${prev.player}'s turn ${prev.turn}, in the City's round, the count went to the ${countAt(t).split(':')[1]} quarter.`);
    // the follower sent into the City, said the same way
    assert.match(await page.locator('[data-testid=move]').textContent(), new RegExp(`After ${prev.player}'s turn ${prev.turn}, in the City's round, \\S+ deployed a follower on the quarter`));
    await page.close();
  });

  test('a shrines replay draws the shrine apart from the monastery, and its challenge', async () => {
    // samples/rules/shrine-challenged.flierlog: Ada's monastery, completed
    // in turn 8, challenges Ben's shrine beside it.
    const id = await gameId('/shrine-challenged.flierlog');
    const replay = (await api(`/api/games/${id}/replay`)).body;
    const challenged = replay.events.filter((e) => e.expr === 'shrine.challenged');
    assert.equal(challenged.length, 1, 'one challenge');
    const page = await newPage();
    await page.goto(`${base}/games/${id}?turn=${challenged[0].turn}`);
    await page.locator('svg.board .tile[data-tile="CU/S"] g.shrine').waitFor();
    assert.equal(await page.locator('svg.board g.shrine').count(), 1, 'one shrine');
    assert.equal(await page.locator('svg.board .tile[data-tile="CU/S"] g.monastery').count(), 0, 'drawn as a shrine, not a monastery');
    assert.equal(await page.locator('svg.board g.monastery').count(), 2, 'the two monasteries');
    assert.equal(await page.locator('[data-testid=board-key] li[data-attr=shrine]').count(), 1, 'the key shows the shrine');
    await page.locator('[data-testid=events] .event-feature').first().waitFor();
    const features = await page.locator('[data-testid=events] .event-feature').allTextContents();
    assert.ok(features.includes('shrine (challenged)'), features.join(', '));
    await shot(page, '03e-shrine');
    await page.close();
  });

  test('a Darmstadt replay draws the churches, darmstadtium and the church bonus', async () => {
    // samples/darmstadt-tour.flierlog: the city of darmstadtium completed on
    // turn 4 (13), the church's block on turn 12 (its bonus to both players).
    const id = await gameId('/darmstadt-tour.flierlog');
    assert.equal((await api(`/api/games/${id}`)).body.valid, true, 'the sample audits valid');
    const page = await newPage();
    await page.goto(`${base}/games/${id}?turn=12`);
    await page.locator('svg.board .tile').first().waitFor();
    const tokens = async (attr) => page.locator(`svg.board .tile:not(.hidden) .token-${attr} > title`).allTextContents();
    assert.deepEqual(await tokens('darmstadtium'), ['darmstadtium']);
    assert.deepEqual(await tokens('church'), ['church']);
    assert.equal(await page.locator('svg.board .tile[data-tile="DA/LRR"] .monastery').count(), 1, 'a church is a monastery');
    assert.equal(await page.locator('svg.board .token-generic').count(), 0, 'no token drawn with the generic dot');
    const key = await page.locator('[data-testid=board-key] li').allTextContents();
    for (const n of ['church', 'darmstadtium']) assert.ok(key.includes(n), `the key names ${n}`);
    await page.locator('[data-testid=events] .event-feature').first().waitFor();
    const features = await page.locator('[data-testid=events] .event-feature').allTextContents();
    assert.ok(features.includes('church bonus'), features.join(', '));
    await shot(page, '03d-darmstadt');
    await page.close();
  });

  test('a Monasteries replay draws the abbot\'s place and the follower standing on it', async () => {
    // samples/rules/monk-and-abbot-scored-apart.flierlog: Ada's monk, then Ben's follower lands on the abbot's place.
    const id = await gameId('/monk-and-abbot-scored-apart.flierlog');
    const page = await newPage();
    await page.goto(`${base}/games/${id}?turn=2`);
    await page.locator('svg.board .tile[data-tile="MO/M1"]').waitFor();
    assert.equal(await page.locator('svg.board .tile[data-tile="MO/M1"] .abbot-place').count(), 1, 'the abbot\'s place is drawn');
    assert.equal(await page.locator('svg.board .tile[data-tile="MO/M1"] .monastery').count(), 1, 'beside the monastery');
    assert.equal(await page.locator('svg.board .meeple[data-segment="special-monastery:abbot"]').count(), 1, 'Ben\'s follower on it');
    assert.equal(await page.locator('svg.board .meeple[data-segment="monastery"]').count(), 1, 'Ada\'s monk');
    await shot(page, '03e-monasteries');
    await page.close();
  });

  test('a crop circles replay draws each circle in the middle of its tile, its kind marked', async () => {
    // samples/corn-c2-3p.jcz: a road circle (CC.1/Rr) on turn 22, a city
    // circle (CC.1/CC.2) on turn 30, each followed by its round.
    const id = await gameId('/corn-c2-3p.jcz');
    assert.equal((await api(`/api/games/${id}`)).body.valid, true, 'the sample audits valid');
    const page = await newPage();
    await page.goto(`${base}/games/${id}?turn=30`);
    await page.locator('svg.board .tile').first().waitFor();
    assert.equal(await page.locator('svg.board .tile[data-tile="CC.1/Rr"] .corn-circle-road').count(), 1, 'the road circle drawn');
    assert.equal(await page.locator('svg.board .tile[data-tile="CC.1/CC.2"] .corn-circle-city').count(), 1, 'the city circle drawn');
    assert.equal(await page.locator('svg.board .tile[data-tile="CC.1/CC.2"] .tile-mark-corn-circle-city').count(), 1, 'its kind marked');
    const title = await page.locator('svg.board .tile[data-tile="CC.1/CC.2"] .tile-mark-corn-circle-city > title').textContent();
    assert.match(title, /^crop circle \(city\)/);
    await shot(page, '03f-corn');
    await page.close();
  });

  test('an Under the Big Top replay draws the acrobats, the circus tents, the big top and the ringmaster', async () => {
    // samples/bigtop-c3-4p.jcz: the big top scores from turn 14 on (turn
    // 29: Ada and Ben, 10 each); acrobats stand on (-1,-3) until turn 33
    // scores their pyramid.
    const id = await gameId('/bigtop-c3-4p.jcz');
    assert.equal((await api(`/api/games/${id}`)).body.valid, true, 'the sample audits valid');
    const page = await newPage();
    await page.goto(`${base}/games/${id}?turn=29`);
    await page.locator('svg.board .tile').first().waitFor();
    assert.ok(await page.locator('svg.board .tile g.acrobats').count() > 0, 'acrobat spaces drawn');
    assert.ok(await page.locator('svg.board .tile .tile-mark-circus').count() > 0, 'circus tiles marked');
    assert.equal(await page.locator('svg.board .meeple.kind-bigtop').count(), 1, 'the big top stands');
    assert.equal(await page.locator('svg.board .meeple.kind-bigtop.kind-unknown').count(), 0, 'the big top has its own shape');
    assert.equal(await page.locator('svg.board .meeple.kind-ringmaster.kind-unknown').count(), 0, 'the ringmaster has its own shape');
    assert.equal(await page.locator('[data-testid=board-key] li[data-attr=acrobats]').count(), 1, 'the key shows the acrobat space');
    await page.locator('[data-testid=events] .event-feature').first().waitFor();
    const features = await page.locator('[data-testid=events] .event-feature').allTextContents();
    assert.ok(features.includes('big top'), features.join(', '));
    await shot(page, '03f-bigtop');
    await page.close();
  });

  test('a siege replay draws the besiegers\' camp on besieged cities, and an escape', async () => {
    // samples/siege-c2-3p.jcz: SI.BE/Ccc besieged from turn 11; after turn
    // 47 Ben takes his knight out of it (gone in turn 48's replay).
    const id = await gameId('/siege-c2-3p.jcz');
    assert.equal((await api(`/api/games/${id}`)).body.valid, true, 'the sample audits valid');
    const replay = (await api(`/api/games/${id}/replay`)).body;
    const t48 = replay.turns.find((t) => t.turn === 48);
    assert.ok(t48 && t48.removed.length > 0, 'the escaped knight leaves the board');
    const page = await newPage();
    await page.goto(`${base}/games/${id}?turn=47`);
    await page.locator('svg.board .tile').first().waitFor();
    assert.ok(await page.locator('svg.board .tile[data-tile="SI.BE/Ccc"] .token-besieged').count() > 0, 'the camp on the besieged city');
    assert.equal(await page.locator('svg.board .token-generic').count(), 0, 'no token drawn with the generic dot');
    const key = await page.locator('[data-testid=board-key] li').allTextContents();
    assert.ok(key.some((k) => k.startsWith('besieged city')), key.join(', '));
    await shot(page, '03h-siege');
    await page.close();
  });

  test('a Bridges, Castles & Bazaars replay draws bridges, castles held and scored, and the bazaar', async () => {
    // samples/bcb-c2-4p.jcz: a castle from turn 8 (scored on turn 26), a
    // bridge from turn 36.
    const id = await gameId('/bcb-c2-4p.jcz');
    assert.equal((await api(`/api/games/${id}`)).body.valid, true, 'the sample audits valid');
    const page = await newPage();
    await page.goto(`${base}/games/${id}?turn=36`);
    await page.locator('svg.board .tile').first().waitFor();
    assert.ok(await page.locator('svg.board g.bridge').count() > 0, 'a bridge drawn');
    assert.ok(await page.locator('svg.board g.castle').count() > 0, 'a castle drawn');
    assert.ok(await page.locator('svg.board g.castle.scored').count() > 0, 'a scored castle drawn grey');
    const title = await page.locator('svg.board g.bridge > title').first().textContent();
    assert.match(title, /^bridge (north-south|west-east) at/);
    await shot(page, '03i-bcb');
    await page.close();
  });

  test('a violation marker jumps to its turn and highlights the move', async () => {
    const id = await gameId('/forged-flier-field.jcz');
    const game = (await api(`/api/games/${id}`)).body;
    const v = game.audit.violations[0];
    assert.equal(v.rule, 'FLIER_FIELD');
    const page = await newPage();
    await page.goto(`${base}/games/${id}?turn=0`);
    const marker = page.locator('[data-testid=violation-marker]');
    await marker.first().waitFor(); /* drawn once the game and its replay are in */
    assert.equal(await marker.count(), 1);
    await marker.click();
    assert.match(page.url(), new RegExp(`\\?turn=${v.turn}$`));
    const box = page.locator('[data-testid=violations]');
    await box.waitFor();
    assert.match(await box.textContent(), /FLIER_FIELD/);
    assert.match(await box.textContent(), /A flier never lands on a field/);
    assert.ok((await box.textContent()).includes(v.message), 'the audit message');
    // The board: the turn's tile and the field the log lands on.
    assert.equal(await page.locator('svg.board .tile-mark.mark-violation').count(), 1);
    const hl = page.locator('[data-testid=violation-highlight]');
    assert.equal(await hl.getAttribute('data-segment'), 'field:NL.NR.EL.WR');
    assert.equal(await hl.getAttribute('data-at'), '3,1');
    assert.match(await page.locator('.board-banner').textContent(), /FLIER_FIELD/);
    await shot(page, '04-replay-violation');

    // A game with claims: one marker per turn with a violation, the final one too.
    const disputed = await gameId('/disputed.flierlog');
    const dgame = (await api(`/api/games/${disputed}`)).body;
    await page.goto(`${base}/games/${disputed}?turn=0`);
    const steps = new Set(dgame.audit.violations.map((x) => x.turn));
    await page.locator('[data-testid=violation-marker]').first().waitFor();
    assert.equal(await page.locator('[data-testid=violation-marker]').count(), steps.size);
    await page.locator('[data-testid=violation-marker]').first().click();
    assert.match(await page.locator('[data-testid=violations]').textContent(), /SCORE_MISMATCH/);
    assert.match(await page.locator('[data-testid=violations]').textContent(), /First divergence/);
    await page.close();
  });

  test('the audit report: violations, claimed against computed, downloads', async () => {
    const id = await gameId('/disputed.flierlog');
    const game = (await api(`/api/games/${id}`)).body;
    const page = await newPage();
    await page.goto(`${base}/games/${id}/audit`);
    await page.locator('[data-testid=audit-violations]').waitFor();
    assert.equal(await page.locator('[data-testid=audit-violations] tbody tr').count(), game.audit.violations.length);
    assert.equal((await page.locator('[data-testid=first-divergence] p').first().textContent()).trim(), game.audit.first_divergence.message);
    for (const p of game.players) {
      const row = page.locator('[data-testid=audit-scores] tbody tr', { hasText: p.name });
      const cells = await row.locator('td').allTextContents();
      assert.equal(Number(cells[0]), p.score);
      assert.equal(Number(cells[1]), p.claimed);
    }
    // The downloads are the stored report and the raw bytes.
    const reportHref = await page.locator('[data-testid=download-report]').getAttribute('href');
    const rawHref = await page.locator('[data-testid=download-raw]').getAttribute('href');
    const report = await (await fetch(base + reportHref)).json();
    assert.deepEqual(report.audit, game.audit);
    const raw = Buffer.from(await (await fetch(base + rawHref)).arrayBuffer());
    assert.ok(raw.equals(readFileSync(join(SRC, 'samples/disputed.flierlog'))), 'raw log is the sample, byte for byte');
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-testid=download-raw]').click()]);
    // under the name it was uploaded with, not game-ID
    assert.equal(download.suggestedFilename(), 'disputed.flierlog');
    await shot(page, '05-audit');

    // One wrong claim is one violation, in the report and in the list's
    // badge; the totals it put off are named once, as its consequence.
    assert.equal(game.audit.violations.length, 1);
    assert.match(game.audit.first_divergence.message, /the totals claimed after turns 12, 29 and 48 and at the end are off as a consequence/);
    await page.goto(`${base}/?q=disputed`);
    await page.locator('[data-testid=games-table] tbody tr .badge.bad').first().waitFor();
    assert.equal(await page.locator('[data-testid=games-table] tbody tr .badge.bad').first().textContent(), '1 violation');
  });

  test('the audit report says why a forged flight returned, and names things in words', async () => {
    const id = await gameId('/forged-wrong-target.jcz');
    const game = (await api(`/api/games/${id}`)).body;
    const page = await newPage();
    await page.goto(`${base}/games/${id}/audit`);
    await page.locator('[data-testid=audit-violations]').waitFor();
    // the flight of turn 24 returned because its landing was not applied
    const f = game.audit.flights.find((x) => x.turn === 24);
    assert.equal(f.outcome, 'returned');
    const k = game.audit.flights.indexOf(f);
    const cell = page.locator('table.report').nth(2).locator('tbody tr').nth(k).locator('[data-testid=flight-outcome]');
    assert.equal(await cell.locator('.why').textContent(), 'Back to supply: the logged landing breaks FLIER_WRONG_TARGET, so the auditor did not apply it.');
    // one that found no landing says so
    const g = game.audit.flights.find((x) => x.outcome === 'returned' && !x.options);
    const cellG = page.locator('table.report').nth(2).locator('tbody tr').nth(game.audit.flights.indexOf(g)).locator('[data-testid=flight-outcome]');
    assert.match(await cellG.locator('.why').textContent(), /^Back to supply: the target offers no valid landing/);
    // the valid landings in words, their notation as the tooltip
    const landing = page.locator('table.report').nth(2).locator('tbody tr').nth(k).locator('.seg-words').first();
    assert.equal(await landing.getAttribute('title'), f.landings[0].segment);
    assert.equal(await landing.textContent(), segWords(f.landings[0].segment));
    // the violation's message names the features as players do
    const msg = await page.locator('[data-testid=audit-violations] td.message').first().textContent();
    assert.match(msg, /^the flier rolled 2 towards the north-west from \(4,2\); the target \(2,0\) has the road on the east side/);
    assert.equal(await page.locator('[data-testid=squares]').textContent(), '(x,y): the start tile is (0,0), x grows east, y grows south.');
    await shot(page, '05b-audit-forged-flight');
    await page.close();
  });

  test('statistics: totals, charts, leaderboard and a player', async () => {
    const stats = (await api('/api/stats')).body;
    const players = (await api('/api/players')).body.players;
    const page = await newPage();
    await page.goto(base + '/stats');
    await page.locator('[data-testid=leaderboard]').waitFor();
    assert.match(await page.locator('[data-testid=stat-games]').textContent(), new RegExp(`^${stats.games.total}`));
    // each tile's subtitle says what its number counts
    assert.equal(await page.locator('[data-testid=stat-players]').textContent(), `${players.length}playersdifferent names over all games`);
    assert.match(await page.locator('[data-testid=stat-games]').textContent(), /C2: \d+/);
    assert.equal(await page.locator('[data-testid=leaderboard] tbody tr').count(), players.length);
    await page.locator('figcaption', { hasText: 'Points by feature type' }).waitFor();
    assert.ok(await page.locator('figure.chart').count() >= 6, 'the charts');
    await shot(page, '06-stats');
    await page.locator('[data-testid=leaderboard] a', { hasText: 'Ben' }).first().click();
    await page.waitForURL(/\/stats\?player=Ben$/);
    await page.getByRole('heading', { name: 'Ben', exact: true }).waitFor();
    await page.locator('figcaption', { hasText: 'Die fairness (Ben\'s rolls)' }).waitFor();
    // a flier must land where it can: no return is "by choice"
    assert.doesNotMatch(await page.locator('main').textContent(), /by choice|forced returns/);
    await shot(page, '07-player');
    await page.close();
  });

  test('upload: a file is audited at once; bad files are refused', async () => {
    const page = await newPage();
    await page.goto(base + '/upload');
    // the cap is said before a file is refused; no token is asked for
    await page.waitForFunction(() => /^Up to/.test(document.querySelector('[data-testid=upload-limits]').textContent));
    assert.equal(await page.locator('[data-testid=upload-limits]').textContent(), 'Up to 1 MiB (1,048,576 bytes) a file; a larger one is refused (the server\'s --max-body).');
    assert.equal(await page.locator('[data-testid=token]').isVisible(), false);
    const results = page.locator('[data-testid=upload-results] li');
    // A valid game (new bytes: the sample with a trailing newline).
    await page.locator('[data-testid=file-input]').setInputFiles({ name: 'mine.jcz', mimeType: 'application/json', buffer: Buffer.concat([readFileSync(join(SRC, 'samples/tiny-city.jcz')), Buffer.from('\n')]) });
    await page.waitForFunction(() => document.querySelector('[data-testid=upload-results] li')?.dataset.valid);
    assert.equal(await results.first().getAttribute('data-valid'), 'true');
    assert.match(await results.first().textContent(), /valid.*stored as game #\d+.*Ada 2, Ben 3/s);
    assert.doesNotMatch(await results.first().textContent(), /\b(null|undefined|NaN)\b/);
    // A forged one, dropped on the zone: its violation is listed.
    const forged = Buffer.concat([readFileSync(join(SRC, 'samples/forged/forged-wrong-target.jcz')), Buffer.from('\n')]).toString('base64');
    await page.evaluate((b64) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([bytes], 'forged.jcz', { type: 'application/json' }));
      document.querySelector('[data-testid=dropzone]').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, forged);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=upload-results] li[data-valid]').length === 2);
    assert.equal(await results.first().getAttribute('data-valid'), 'false');
    assert.match(await results.first().textContent(), /1 violation.*FLIER_WRONG_TARGET/s);
    // Garbage: the server's reason is shown.
    await page.locator('[data-testid=file-input]').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello, not a game') });
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=upload-results] li[data-valid]').length === 3);
    assert.equal(await results.first().getAttribute('data-valid'), 'error');
    assert.match(await results.first().textContent(), /Not a readable game log.*byte offset/s);
    // The same bytes again: a duplicate.
    await page.locator('[data-testid=file-input]').setInputFiles({ name: 'again.jcz', mimeType: 'application/json', buffer: readFileSync(join(SRC, 'samples/tiny-city.jcz')) });
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=upload-results] li[data-valid]').length === 4);
    assert.match(await results.first().textContent(), /already uploaded as game #\d+/);
    await shot(page, '08-upload');
    // The replay link of the uploaded game works.
    await results.filter({ hasText: 'mine.jcz' }).getByRole('link', { name: 'Replay' }).click();
    await page.locator('svg.board .tile').first().waitFor();
    await page.close();
  });

  test('player-provided text is shown as text, never as markup', async () => {
    const log = readFileSync(join(SRC, 'tests/e2e/fixtures/markup-names.flierlog'));
    const up = await api('/api/games?name=' + encodeURIComponent('<i>file</i>.flierlog'), { method: 'POST', body: log });
    assert.equal(up.status, 201);
    const page = await newPage();
    for (const path of [`/?q=${encodeURIComponent('<b>')}`, `/games/${up.body.id}`, `/games/${up.body.id}/audit`, `/stats?player=${encodeURIComponent('<b>Eve</b>')}`]) {
      await page.goto(base + path);
      await page.waitForFunction(() => document.querySelector('main').innerText.includes('<b>Eve</b>'));
      assert.equal(await page.locator('main b, main img, main i').count(), 0, `no markup from data on ${path}`);
    }
    await page.close();
  });

  test('a game of an expansion not audited yet is kept and shown as such', async () => {
    const log = '{"format": "flierlog/1.2", "edition": "C2", "elements": {"catapult": true}, "players": [{"name": "Tia"}, {"name": "Tom"}], "turns": []}';
    const up = await api('/api/games?name=mage.flierlog', { method: 'POST', body: log });
    assert.equal(up.status, 202, JSON.stringify(up.body));
    assert.equal(up.body.status, 'unsupported');
    const page = await newPage();
    await page.goto(`${base}/games/${up.body.id}/audit`);
    await page.locator('[data-testid=unsupported-reason]').waitFor();
    assert.match(await page.locator('[data-testid=unsupported-reason]').textContent(), /The Catapult/);
    assert.equal(await page.locator('main .badge.neutral').textContent(), 'not audited yet');
    assert.match(await page.locator('[data-testid=needs]').textContent(), /^It needs The Catapult; there is no replay/);
    // its raw log downloads under its own name, extension included
    assert.equal(await page.locator('[data-testid=download-raw]').getAttribute('download'), 'mage.flierlog');
    await page.goto(`${base}/games/${up.body.id}`);
    await page.waitForFunction(() => /not audited yet/.test(document.querySelector('main h1')?.textContent || ''));
    // in the list: no null, no 0 best, no "in progress"; what it needs;
    // its title leads to the page that says why, not to a replay
    await page.goto(`${base}/?q=mage`);
    const row = page.locator(`tr[data-id="${up.body.id}"]`);
    await row.waitFor();
    const text = await row.textContent();
    assert.doesNotMatch(text, /\bnull\b|in progress/);
    assert.equal(await row.locator('td[data-label=Best]').textContent(), '—');
    assert.equal(await row.locator('td[data-label=Turns]').textContent(), '—');
    assert.equal(await row.locator('[data-testid=needs]').textContent(), ' needs The Catapult');
    assert.equal(await row.locator('.game-link').getAttribute('href'), `/games/${up.body.id}/audit`);
    // the upload page's card: what it needs, and no Replay button
    await page.goto(base + '/upload');
    await page.locator('[data-testid=file-input]').setInputFiles({ name: 'mage2.flierlog', mimeType: 'application/json', buffer: Buffer.from(log.replace('Tia', 'Tia2')) });
    await page.locator('[data-testid=upload-results] li [data-testid=needs]').waitFor();
    assert.match(await page.locator('[data-testid=upload-results] li [data-testid=needs]').textContent(), /^Not audited yet: it needs The Catapult/);
    assert.equal(await page.locator('[data-testid=upload-results] li').getByRole('link', { name: 'Replay' }).count(), 0);
    await page.goto(`${base}/stats`);
    await page.waitForFunction(() => document.querySelector('main').innerText.includes('not audited yet'));
    await page.close();
  });

  test('a live game is marked in the list and replays while it goes on', async () => {
    const setup = '{"format": "flierlog/1", "edition": "C2", "players": [{"name": "Liv", "color": "green"}, {"name": "Max", "color": "yellow"}]}';
    const live = await api('/api/live', { method: 'POST', body: setup });
    assert.equal(live.status, 201);
    const move = await api(`/api/live/${live.body.id}/moves`, { method: 'POST', body: '{"turn": 1, "player": "Liv", "tile": "BA/RFr", "at": [1, 0], "rot": 0, "deploy": "road:WE"}' });
    assert.equal(move.status, 200, JSON.stringify(move.body));
    const page = await newPage();
    await page.goto(base + '/?q=Liv');
    const row = page.locator(`tr[data-id="${live.body.id}"]`);
    await row.waitFor();
    assert.match(await row.locator('.badge.live').textContent(), /live/);
    await row.getByRole('link').click();
    await page.locator('svg.board .meeple').first().waitFor();
    assert.equal(await page.locator('.game-head .badge.live').count(), 1);
    // The next turn shows up by itself.
    await api(`/api/live/${live.body.id}/moves`, { method: 'POST', body: '{"turn": 2, "player": "Max", "tile": "BA/RFr", "at": [2, 0], "rot": 0}' });
    await page.waitForFunction(() => /^Turn 2\b/.test(document.querySelector('[data-testid=turn-caption]')?.textContent || ''), null, { timeout: 15000 });
    await page.close();
  });

  test('phone width: no sideways scrolling, the board and controls fit', async () => {
    const id = await gameId('/c3-4p-abbots.jcz');
    const page = await newPage(390, 844);
    for (const [path, name] of [['/', '09-phone-games'], [`/games/${id}?turn=40`, '10-phone-replay'], ['/stats', '11-phone-stats'], ['/upload', '12-phone-upload']]) {
      await page.goto(base + path);
      await page.waitForLoadState('networkidle');
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.ok(overflow <= 1, `${path} scrolls sideways by ${overflow}px`);
      await shot(page, name, false);
    }
    // the audit report: its violations and flights are cards, as wide as
    // their box, so nothing needs a sideways swipe
    const forged = await gameId('/forged-wrong-target.jcz');
    await page.goto(`${base}/games/${forged}/audit`);
    await page.locator('[data-testid=audit-violations]').waitFor();
    for (const sel of ['[data-testid=audit-violations]', 'table.report.cards >> nth=1']) {
      const [w, box] = await page.locator(sel).evaluate((t) => [t.getBoundingClientRect().width, t.parentElement.clientWidth]);
      assert.ok(w <= box + 1, `${sel}: ${w}px in a ${box}px box`);
    }
    assert.equal(await page.locator('[data-testid=audit-violations] td.message').evaluate((td) => getComputedStyle(td, '::before').content), '"What happened"');
    await shot(page, '12b-phone-audit', false);
    // the list: each cell's text stays in its cell (no "16:4C3"), a badge
    // in its pill, and a game without a name is not "Game #45 #45"
    const up = await api('/api/games', { method: 'POST', body: readFileSync(join(SRC, 'samples/c2-2p.jcz')).toString().replace('"Ada"', '"Ana"') });
    await page.goto(`${base}/?q=Ana`);
    const row = page.locator(`tr[data-id="${up.body.id}"]`);
    await row.waitFor();
    assert.equal(await row.locator('td[data-label=Game]').textContent(), `Game #${up.body.id} · jcz`);
    await page.goto(base + '/?size=1000');
    await page.locator('[data-testid=games-table] tbody tr').first().waitFor();
    const spill = await page.evaluate(() => [...document.querySelectorAll('[data-testid=games-table] td, [data-testid=games-table] td .badge')]
      .filter((el) => el.scrollWidth > el.clientWidth + 1).map((el) => `${el.dataset.label || el.className}: ${el.textContent}`));
    assert.deepEqual(spill, []);
    await page.close();
  });

  test('recording at the table on a phone: tiles, squares, rotation, a deployment, a flight, undo, offline, the end', async () => {
    const page = await newPage(390, 844);
    const turnLine = () => page.locator('[data-testid=turn-line]').textContent();
    const waitTurn = (n) => page.waitForFunction((k) => new RegExp(`^Turn ${k} `).test(document.querySelector('[data-testid=turn-line]')?.textContent || ''), n);
    const pickTile = async (search) => {
      await page.getByLabel('Search by what it shows').fill(search);
      const choice = page.locator('[data-testid=tile-choice]:not([disabled])').first();
      const tile = await choice.getAttribute('data-tile');
      await choice.click();
      await page.locator('[data-testid=legal-square]').first().waitFor();
      return tile;
    };
    const square = (at) => page.locator(`[data-testid=legal-square][data-at="${at}"]`);

    await page.goto(base + '/');
    await page.getByRole('link', { name: 'Record' }).click();
    await page.getByLabel('Player 1').fill('Rita');
    await page.getByLabel('Player 2').fill('Sam');
    await page.getByTestId('start-game').click();
    await waitTurn(1);
    assert.match(await turnLine(), /^Turn 1 · Rita · 79 tiles left/);
    const id = Number(new URL(page.url()).searchParams.get('game'));
    assert.ok(id > 0, page.url());
    await shot(page, '13-phone-record-catalogue', false);

    // Turn 1: a straight road east of the start tile, a thief on it.
    assert.equal(await pickTile('BA/RFr'), 'BA/RFr');
    const options = (await api(`/api/live/${id}/options?tile=BA/RFr`)).body;
    assert.equal(await page.locator('[data-testid=legal-square]').count(), options.places.length);
    await square('1,0').click();
    await page.getByTestId('confirm').waitFor();
    await page.locator('[data-testid=deploy-choice][data-segment="road:WE"]').click();
    await shot(page, '14-phone-record-deploy', false);
    await page.getByTestId('confirm').click();
    await waitTurn(2);
    assert.match(await turnLine(), /^Turn 2 · Sam/);

    // Turn 2: a tile with a flying machine; the figure flies with a roll of 1.
    await pickTile('flier');
    await page.locator('[data-testid=legal-square]').first().click();
    await page.locator('[data-testid=roll][data-roll="1"]').first().click();
    await page.locator('h3', { hasText: 'rolled 1' }).waitFor();
    if (await page.locator('[data-testid=land-choice]').count()) await page.locator('[data-testid=land-choice]').first().click();
    await shot(page, '15-phone-record-flight', false);
    await page.getByTestId('confirm').click();
    await waitTurn(3);

    // Turn 3: a tap on the chosen square again turns the tile; no figure.
    await pickTile('city');
    let turned = false;
    for (const sq of await page.locator('[data-testid=legal-square]').all()) {
      const title = await sq.locator('title').textContent();
      if (!/ [2-4] rotations/.test(title)) continue;
      const at = await sq.getAttribute('data-at');
      await sq.click();
      const heading = page.locator('.record-panel h2').first();
      await heading.waitFor();
      const before = await heading.textContent();
      const [x, y] = at.split(',').map(Number);
      const box = await page.locator('svg.board').boundingBox();
      const ctm = await page.evaluate(([bx, by]) => {
        const m = document.querySelector('svg.board').getScreenCTM();
        return [m.a * bx * 100 + m.e + m.a * 8, m.d * by * 100 + m.f + m.d * 8];
      }, [x, y]);
      assert.ok(box);
      await page.mouse.click(ctm[0], ctm[1]);
      await page.waitForFunction((b) => document.querySelector('.record-panel h2')?.textContent !== b, before);
      turned = true;
      break;
    }
    assert.ok(turned, 'some square takes the tile in more than one rotation');
    await page.getByTestId('pass').click();
    await page.getByTestId('confirm').click();
    await waitTurn(4);

    // Undo takes turn 3 back; it is recorded again.
    await page.getByTestId('undo').click();
    await waitTurn(3);
    await pickTile('');
    await page.locator('[data-testid=legal-square]').first().click();
    await page.getByTestId('pass').click();
    await page.getByTestId('confirm').click();
    await waitTurn(4);

    // Offline: the turn waits in the queue and goes out once back online.
    await pickTile('road');
    await page.locator('[data-testid=legal-square]').first().click();
    await page.getByTestId('pass').click();
    await ctx.setOffline(true);
    await page.getByTestId('confirm').click();
    await page.waitForFunction(() => /Offline: 1 turn waiting/.test(document.querySelector('[data-testid=record-status]')?.textContent || ''));
    assert.equal((await api(`/api/games/${id}`)).body.turns, 3);
    await ctx.setOffline(false);
    await waitTurn(5);
    assert.equal((await api(`/api/games/${id}`)).body.turns, 4);

    // The end: final scoring, the replay and the download.
    page.once('dialog', (d) => d.accept());
    await page.getByTestId('finish').click();
    await page.getByTestId('finished').waitFor();
    assert.equal(await page.getByTestId('download').getAttribute('href'), `/api/games/${id}/raw`);
    const game = (await api(`/api/games/${id}`)).body;
    assert.equal(game.finished, true);
    assert.equal(game.valid, true, JSON.stringify(game.audit && game.audit.violations));
    assert.equal(game.turns, 4);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 1, `/record scrolls sideways by ${overflow}px`);
    await page.close();
  });

  test('recording The Tower on a phone: a tower floor, a flight with no landing, a spectator following, the audit of the upload', async () => {
    const page = await newPage(390, 844);
    const waitTurn = (n) => page.waitForFunction((k) => new RegExp(`^Turn ${k} `).test(document.querySelector('[data-testid=turn-line]')?.textContent || ''), n);
    await page.goto(base + '/record');
    await page.getByLabel('Player 1').fill('Tara');
    await page.getByLabel('Player 2').fill('Ugo');
    await page.locator('[data-testid=box][data-box=tower]').check();
    await page.getByTestId('start-game').click();
    await waitTurn(1);
    const id = Number(new URL(page.url()).searchParams.get('game'));
    const setup = (await api(`/api/games/${id}`)).body;
    assert.ok(setup.live);

    // A spectator follows the game from its replay page.
    const spectator = await newPage(390, 844);
    await spectator.goto(`${base}/games/${id}`);
    await spectator.locator('svg.board').waitFor();
    const spectatorAt = (n) => spectator.waitForFunction((k) => new RegExp(`^Turn ${k}\\b`).test(document.querySelector('[data-testid=turn-caption]')?.textContent || ''), n);

    // Turn 1: a tower tile, then a floor on its tower as the turn's action.
    await page.getByLabel('Search by what it shows').fill('to/');
    await page.locator('[data-testid=tile-choice]:not([disabled])').first().click();
    await page.locator('[data-testid=legal-square]').first().click();
    const floor = page.locator('[data-testid=unit-move][data-move=tower]').first();
    await floor.click();
    await page.getByTestId('turn-steps').waitFor();
    // the floor chosen is drawn where it goes before the turn is sent
    await page.locator('[data-testid=pending-step][data-move=tower]').waitFor();
    await shot(page, '16-phone-record-tower', false);
    await page.getByTestId('confirm').click();
    await waitTurn(2);
    await spectatorAt(1);

    // Turn 2: a flying machine's tile and a roll whose target holds no tile
    // (found through the options): the figure goes back to its supply.
    const opts = (await api(`/api/live/${id}/options`)).body;
    let pick = null;
    for (const t of opts.tiles.filter((x) => x.drawable && x.fits && opts.geometry[x.tile] && opts.geometry[x.tile].flier)) {
      const places = (await api(`/api/live/${id}/options?tile=${encodeURIComponent(t.tile)}`)).body.places;
      for (const p of places) {
        const rot = p.rotations[0];
        const a = (await api(`/api/live/${id}/options?tile=${encodeURIComponent(t.tile)}&at=${p.at.join(',')}&rot=${rot}`)).body;
        const f = a.flights.find((x) => x.meeple === 'small');
        const roll = f && f.rolls.find((r) => r.landings.length === 0);
        if (roll) { pick = { tile: t.tile, at: p.at.join(','), roll: roll.roll }; break; }
      }
      if (pick) break;
    }
    assert.ok(pick, 'some flier tile has a roll with no landing');
    await page.getByLabel('Search by what it shows').fill(pick.tile.toLowerCase());
    await page.locator(`[data-testid=tile-choice][data-tile="${pick.tile}"]`).click();
    await page.locator(`[data-testid=legal-square][data-at="${pick.at}"]`).click();
    await page.locator(`[data-testid=roll][data-roll="${pick.roll}"][data-meeple=small]`).click();
    await page.getByTestId('no-landing').waitFor();
    await page.getByTestId('confirm').click();
    await waitTurn(3);
    await spectatorAt(2);
    const flight = (await api(`/api/games/${id}`)).body;
    assert.equal(flight.valid, true, JSON.stringify(flight.audit && flight.audit.violations));

    // The end; the recorded game's audit is the audit of the same game
    // uploaded as a flierlog document, and its .jcz download audits alike.
    page.once('dialog', (d) => d.accept());
    await page.getByTestId('finish').click();
    await page.getByTestId('finished').waitFor();
    assert.equal(await page.getByTestId('download-jcz').getAttribute('href'), `/api/games/${id}/raw?as=jcz`);
    const recorded = (await api(`/api/games/${id}`)).body;
    assert.equal(recorded.finished, true);
    const lines = (await (await fetch(`${base}/api/games/${id}/raw`)).text()).split('\n').filter(Boolean).map((l) => JSON.parse(l));
    const doc = { ...lines[0], turns: lines.slice(1).filter((l) => !('final' in l)), final: {} };
    const up = await api('/api/games', { method: 'POST', body: JSON.stringify(doc) });
    assert.equal(up.status, 201, JSON.stringify(up.body));
    const uploaded = (await api(`/api/games/${up.body.id}`)).body;
    // the same but for where it came from (its name and bytes)
    const game = (audit) => { const a = { ...audit }; delete a.file; delete a.input_sha256; return a; };
    assert.deepEqual(game(uploaded.audit), game(recorded.audit));
    const jcz = await (await fetch(`${base}/api/games/${id}/raw?as=jcz`)).text();
    const upJcz = await api('/api/games', { method: 'POST', body: jcz });
    assert.equal(upJcz.status, 201, JSON.stringify(upJcz.body));
    assert.equal(upJcz.body.valid, true);
    await spectator.close();
    await page.close();
  });

  test('recording from another start: the City of Carcassonne, the River\'s spring', async () => {
    const page = await newPage(390, 844);
    const startWith = async (box) => {
      await page.goto(base + '/record');
      await page.getByLabel('Player 1').fill('Vera');
      await page.getByLabel('Player 2').fill('Wim');
      await page.locator(`[data-testid=box][data-box=${box}]`).check();
      assert.equal(await page.getByLabel('The start').inputValue(), box, 'the box brings its start');
      await page.getByTestId('start-game').click();
      await page.waitForFunction(() => /^Turn 1 /.test(document.querySelector('[data-testid=turn-line]')?.textContent || ''));
      return Number(new URL(page.url()).searchParams.get('game'));
    };
    // The City: its twelve tiles drawn as the start, four by three.
    const city = await startWith('count');
    const tiles = await page.locator('svg.board g.tile').evaluateAll((gs) => gs.map((g) => g.dataset.tile));
    assert.equal(tiles.filter((t) => t.startsWith('CO/')).length, 12, tiles.join(' '));
    const cityReplay = (await api(`/api/games/${city}/replay`)).body;
    assert.equal(cityReplay.start.length, 12, 'the start is the City');
    // The River: only its tiles may be drawn first, from the spring on.
    const river = await startWith('river');
    await page.locator('svg.board g.tile[data-tile="RI/s"]').waitFor();
    const open = await page.locator('[data-testid=tile-choice]:not([disabled])').evaluateAll((bs) => bs.map((b) => b.dataset.tile));
    assert.ok(open.length > 0 && open.every((t) => /^RI[./]/.test(t)), open.join(' '));
    await page.locator('[data-testid=tile-choice]:not([disabled])').first().click();
    await page.locator('[data-testid=legal-square]').first().click();
    await page.getByTestId('pass').click();
    await page.getByTestId('confirm').click();
    await page.waitForFunction(() => /^Turn 2 /.test(document.querySelector('[data-testid=turn-line]')?.textContent || ''));
    const g = (await api(`/api/games/${river}`)).body;
    assert.equal(g.valid, true, JSON.stringify(g.audit && g.audit.violations));
    await page.close();
  });

  test('recording a round between turns: the wagon of another player moves after a scoring', async () => {
    // A game with Abbey & Mayor recorded up to the turn whose scoring
    // sends a wagon back: its owner, not the player on turn, is asked.
    const conv = spawn(FLIERD, ['convert', '--to', 'flierlog', '--ndjson', join(SRC, 'samples/bigbox-c2-4p.jcz')]);
    let text = '';
    conv.stdout.on('data', (d) => { text += d; });
    await new Promise((ok) => conv.on('close', ok));
    const lines = text.split('\n').filter(Boolean);
    const made = await api('/api/live', { method: 'POST', body: lines[0] });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const id = made.body.id;
    let wagon = null;
    for (const l of lines.slice(1)) {
      const e = JSON.parse(l);
      if (e.wagons) { wagon = e.wagons[0]; delete e.wagons; }
      const r = await api(`/api/live/${id}/moves`, { method: 'POST', body: JSON.stringify(e) });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      if (wagon) break;
    }
    assert.ok(wagon && wagon.at, 'the sample sends a wagon back');
    const opts = (await api(`/api/live/${id}/options`)).body;
    assert.equal(opts.stage, 'round');
    assert.equal(opts.round, 'the wagons\' moves');
    assert.ok(opts.moves.length > 1 && opts.pass);

    const page = await newPage(390, 844);
    await page.goto(`${base}/record?game=${id}`);
    await page.getByTestId('round').waitFor();
    assert.match(await page.getByTestId('turn-line').textContent(), new RegExp(`${opts.player} answers: the wagons' moves`));
    assert.equal(await page.locator('circle.record-spot').count(), opts.moves.length, 'each answer drawn on the board');
    const choice = page.locator(`[data-testid=round-choice][data-at="${wagon.at.join(',')}"]`).first();
    await choice.click();
    await page.waitForFunction(() => /^Turn \d+ /.test(document.querySelector('[data-testid=turn-line]')?.textContent || ''));
    const game = (await api(`/api/games/${id}`)).body;
    assert.equal(game.valid, true, JSON.stringify(game.audit && game.audit.violations));
    const raw = (await (await fetch(`${base}/api/games/${id}/raw`)).text()).split('\n').filter(Boolean);
    const last = JSON.parse(raw[raw.length - 1]);
    assert.deepEqual(last.moves.map((m) => m.move), ['deploy', 'commit']);
    assert.deepEqual(last.moves[0].at, wagon.at);
    assert.equal((await api(`/api/live/${id}/options`)).body.stage, 'tile');
    await page.close();
  });

  test('the record page passes axe-core\'s WCAG 2 A and AA checks', async () => {
    const axe = readFileSync(join(SRC, 'tests/e2e/node_modules/axe-core/axe.min.js'), 'utf8');
    const page = await newPage(390, 844);
    const check = async (what) => {
      await page.evaluate(axe);
      const r = await page.evaluate(() => window.axe.run(document, { runOnly: ['wcag2a', 'wcag2aa'] }));
      assert.deepEqual(r.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), [], what);
    };
    await page.goto(base + '/record');
    await page.getByTestId('start-game').waitFor();
    await check('the setup');
    const live = await api('/api/live', { method: 'POST', body: '{"format": "flierlog/1", "edition": "C3", "players": [{"name": "Una"}, {"name": "Vic"}]}' });
    await page.goto(`${base}/record?game=${live.body.id}`);
    await page.locator('[data-testid=tile-choice]').first().waitFor();
    await check('the catalogue');
    await page.locator('[data-testid=tile-choice]:not([disabled])').first().click();
    await page.locator('[data-testid=legal-square]').first().click();
    await page.getByTestId('confirm').waitFor();
    await check('the actions');
    await page.close();
  });

  test('no console errors and no Content-Security-Policy violations', () => {
    assert.deepEqual(problems, []);
  });
});

// These daemons serve the dashboard built into the binary (no --web).
describe('the dashboard built in, with a token and with many games', () => {
  test('ratings in the leaderboard and on a player page; a game renamed and deleted with the token', async () => {
    const tokenFile = join(TMP, 'org-token');
    writeFileSync(tokenFile, 'org-token\n');
    const d = await startDaemon('organiser', ['--token-file', tokenFile, '--load', join(SRC, 'samples')], { web: false });
    const get = async (path, init) => { const r = await fetch(d.url + path, init); const t = await r.text(); return { status: r.status, body: t ? JSON.parse(t) : null }; };
    try {
      const page = await newPage();
      // the leaderboard: a Rating column, a figure for the rated, and what is left out
      await page.goto(d.url + '/stats');
      await page.locator('[data-testid=leaderboard]').waitFor();
      const players = (await get('/api/players')).body.players;
      const rated = players.filter((p) => p.rating !== null && !p.name.includes('/'));
      assert.ok(rated.length >= 2, 'some players are rated');
      assert.equal(await page.locator('[data-testid=leaderboard] thead th', { hasText: 'Rating' }).count(), 1);
      const cells = await page.locator('[data-testid=rating-cell]').allTextContents();
      assert.equal(cells.filter((c) => /^-?\d+\.\d\d$/.test(c)).length, rated.length);
      assert.match(await page.locator('[data-testid=rating-note]').textContent(), /Games with violations and unfinished games are left out/);
      // the luck over all games: by direction against the odds, by roll no luck but the chance before it
      const { flier } = (await get('/api/stats')).body;
      const sign = (x) => (x > 0 ? '+' : x < 0 ? '−' : '') + Math.abs(x).toFixed(2);
      assert.match(await page.locator('[data-testid=luck-stats-text]').textContent(), new RegExp(`^Over all games the fliers landed .*the odds predicted; a spread of ${flier.spread.toFixed(2).replace('.', '\\.')} means ±`));
      assert.match(await page.locator('[data-testid=luck-stats-text]').textContent(), new RegExp(`Flights won ${flier.points} points\\.$`));
      for (const k of ['orthogonal', 'diagonal']) {
        assert.equal(await page.locator(`[data-testid=luck-${k}] [data-testid=luck-value]`).textContent(), sign(flier.by_direction[k].luck));
      }
      assert.equal(await page.locator('[data-testid=luck-all] [data-testid=luck-value]').textContent(), sign(flier.luck));
      assert.equal(await page.locator('[data-testid=luck-by-roll] tbody tr').count(), 3);
      const r1 = flier.by_roll[0];
      assert.equal(await page.locator('[data-testid=luck-roll-1] [data-testid=roll-chance]').textContent(), `${(100 * r1.expected / (r1.landed + r1.returned)).toFixed(0)}%`);
      assert.match(await page.locator('[data-testid=luck-roll-note]').textContent(), /no luck to measure by roll/);
      await shot(page, '39-luck-stats');
      // a player page: the figure, one dot per rated game, the luck in words
      const who = rated.sort((a, b) => b.games - a.games)[0];
      const detail = (await get(`/api/players/${encodeURIComponent(who.name)}`)).body;
      assert.equal(detail.rating.rating, who.rating);
      await page.goto(d.url + `/stats?player=${encodeURIComponent(who.name)}`);
      await page.locator('[data-testid=rating-chart]').waitFor();
      assert.match(await page.locator('[data-testid=rating-value]').textContent(), new RegExp(`^${who.rating.toFixed(2).replace('.', '\\.')} after ${detail.rating.games} rated game`));
      assert.equal(await page.locator('[data-testid=rating-chart] circle.rating-dot').count(), detail.rating.history.length);
      assert.equal(await page.locator('[data-testid=rating-chart] path.rating-line').count(), 1);
      assert.match(await page.locator('[data-testid=rating]').textContent(), /left out/);
      assert.match(await page.locator('[data-testid=luck-text]').textContent(), new RegExp(`^Landed ${detail.luck.landed} of ${detail.luck.flights} flights; the dice promised ${detail.luck.expected.toFixed(2)}`));
      assert.match(await page.locator('[data-testid=luck-plain]').textContent(), new RegExp(`the odds predicted; a spread of ${detail.luck.spread.toFixed(2).replace('.', '\\.')} means ±${detail.luck.spread.toFixed(2).replace('.', '\\.')} is ordinary chance\\.$`));
      assert.equal(await page.locator('[data-testid=luck-points] strong').textContent(), String(detail.luck.points));
      assert.equal(detail.luck.points, detail.flier_points, 'the points won by flights are the flier points');
      await shot(page, '40-player-rating');

      // rename and delete: refused without the token, done with it
      const { body: list } = await get('/api/games?limit=1000');
      const victim = list.games.find((g) => g.status === 'audited' && !g.live);
      assert.equal((await get(`/api/games/${victim.id}`, { method: 'DELETE' })).status, 401);
      await page.goto(d.url + `/games/${victim.id}/audit`);
      await page.locator('[data-testid=manage]').waitFor();
      await page.locator('#manage-token').fill('org-token');
      await page.locator('#manage-name').fill('renamed by the organiser.jcz');
      await page.locator('[data-testid=rename]').click();
      await page.locator('[data-testid=manage-status]', { hasText: 'Renamed to “renamed by the organiser.jcz”.' }).waitFor();
      assert.match(await page.locator('h1').textContent(), /renamed by the organiser/);
      assert.equal((await get(`/api/games/${victim.id}`)).body.name, 'renamed by the organiser.jcz');
      const found = (await get('/api/games?q=' + encodeURIComponent('by the organiser'))).body;
      assert.deepEqual(found.games.map((g) => g.id), [victim.id], 'the search finds the new name');
      await page.locator('[data-testid=delete]').click();
      assert.match(await page.locator('[data-testid=delete]').textContent(), new RegExp(`Really delete game #${victim.id}\\?`));
      await page.locator('[data-testid=delete]').click();
      await page.waitForFunction(() => location.pathname === '/');
      assert.equal((await get(`/api/games/${victim.id}`)).status, 404);
      assert.equal((await get('/api/games?limit=1000')).body.total, list.total - 1);
      await page.close();
    } finally {
      assert.equal(await d.stop(), 0);
    }
  });

  test('upload asks for the token when the server needs one', async () => {
    const tokenFile = join(TMP, 'token');
    writeFileSync(tokenFile, 's3cret-token\n');
    const d = await startDaemon('token', ['--token-file', tokenFile], { web: false });
    // the page is the source tree's, and its modules revalidate by ETag
    assert.equal(await (await fetch(d.url + '/upload')).text(), readFileSync(join(SRC, 'web/index.html'), 'utf8'));
    const app = await fetch(d.url + '/app.js');
    assert.match(app.headers.get('content-type'), /^text\/javascript/);
    const etag = app.headers.get('etag');
    assert.match(etag, /^"[0-9a-f]{64}"$/);
    assert.equal((await fetch(d.url + '/app.js', { headers: { 'If-None-Match': etag } })).status, 304);
    try {
      const page = await newPage();
      await page.goto(d.url + '/upload');
      // the field is there before any file is refused: the page asks the
      // server (GET /api/upload) whether it needs a token
      await page.locator('[data-testid=token]').waitFor({ state: 'visible' });
      await page.waitForFunction(() => /needs a token/.test(document.querySelector('[data-testid=upload-limits]').textContent));
      assert.deepEqual((await api('/api/upload', {}, d.url)).body, { max_bytes: 1048576, token_required: true, formats: ['jcz', 'flierlog'], gzip: true, multipart: true });
      await page.locator('[data-testid=file-input]').setInputFiles({ name: 'c2-2p.jcz', mimeType: 'application/json', buffer: readFileSync(join(SRC, 'samples/c2-2p.jcz')) });
      await page.waitForFunction(() => document.querySelector('[data-testid=upload-results] li')?.dataset.valid === 'auth');
      assert.equal(await page.locator('[data-testid=upload-results] li').first().getAttribute('data-valid'), 'auth');
      await page.getByLabel('Access token').fill('s3cret-token');
      await page.getByRole('button', { name: 'Try again' }).click();
      await page.waitForFunction(() => document.querySelector('[data-testid=upload-results] li')?.dataset.valid === 'true');
      await shot(page, '13-upload-token');
      await page.close();
    } finally {
      assert.equal(await d.stop(), 0);
    }
  });

  // Timings are compared with one another within this run, never with a
  // fixed number of milliseconds: the machines are shared, and a test that
  // runs beside others may be slowed as a whole, not in one part only.
  // fastest(best, timings): each timing the least of the two (best may be
  // undefined, the first run).
  const fastest = (best, t) => Object.fromEntries(Object.entries(t).map(([k, v]) => [k, Math.min(best ? best[k] : Infinity, v)]));
  test('1,000 games list and a full replay cost what their size says, no more', async () => {
    // 1,000 distinct files (one sample, different trailing whitespace).
    const dir = join(TMP, 'many');
    mkdirSync(dir);
    const bytes = readFileSync(join(SRC, 'samples/tiny-city.jcz'));
    for (let i = 0; i < 1000; i++) writeFileSync(join(dir, `g${String(i).padStart(4, '0')}.jcz`), Buffer.concat([bytes, Buffer.from(' '.repeat(i + 1))]));
    const d = await startDaemon('many', ['--load', dir], { web: false });
    // The best of three of each list size, the sizes in turn: the quickest
    // run is the one the machine's other work disturbed least.
    const listed = {};
    try {
      const page = await newPage();
      for (const size of [100, 1000, 100, 1000, 100, 1000]) {
        const t0 = performance.now();
        await page.goto(`${d.url}/?size=${size}`);
        await page.waitForFunction((n) => document.querySelectorAll('[data-testid=games-table] tbody tr').length === n, size, { timeout: 20000 });
        const showMs = performance.now() - t0;
        const renderMs = Number(await page.locator('[data-testid=games-table]').getAttribute('data-render-ms'));
        listed[size] = fastest(listed[size], { showMs, renderMs });
      }
      await page.close();
    } finally {
      assert.equal(await d.stop(), 0);
    }
    const [small, large] = [listed[100], listed[1000]];
    process.stdout.write(`# game list: 100 rows shown in ${small.showMs.toFixed(0)} ms (rendering ${small.renderMs} ms), ` +
      `1,000 rows in ${large.showMs.toFixed(0)} ms (rendering ${large.renderMs} ms)\n`);
    // Ten times the rows may cost ten times the rendering, with room for
    // noise; a cost that grows faster than the rows (a quadratic loop, a
    // layout per row) is what this catches. The timer's grain is 0.1 ms.
    assert.ok(large.renderMs <= 25 * Math.max(small.renderMs, 0.5), `rendering 1,000 rows took ${large.renderMs} ms, 100 rows ${small.renderMs} ms`);
    // Showing the page is mostly fixed cost (the page, its modules, one request).
    assert.ok(large.showMs <= 10 * small.showMs, `showing 1,000 rows took ${large.showMs.toFixed(0)} ms, 100 rows ${small.showMs.toFixed(0)} ms`);

    // The longest sample game against the shortest, each opened three
    // times (the best counts); then the longest stepped through every turn.
    const open = async (suffix) => {
      const id = await gameId(suffix);
      let best, page;
      for (let k = 0; k < 3; k++) {
        if (page) await page.close();
        page = await newPage();
        const t0 = performance.now();
        await page.goto(`${base}/games/${id}?turn=0`);
        await page.locator('svg.board .tile').first().waitFor();
        best = fastest(best, { ms: performance.now() - t0 });
      }
      return { page, ms: best.ms, steps: Number(await page.locator('[data-testid=turn-slider]').getAttribute('max')) };
    };
    const shortest = await open('/tiny-city.jcz');
    await shortest.page.close();
    const longest = await open('/c2-5p.jcz');
    const page = longest.page;
    const stepMs = await page.evaluate(() => {
      const t = performance.now();
      const steps = Number(document.querySelector('[data-testid=turn-slider]').max);
      for (let i = 0; i < steps; i++) document.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
      return (performance.now() - t) / steps;
    });
    process.stdout.write(`# replay: ${shortest.steps} steps opened in ${shortest.ms.toFixed(0)} ms, ${longest.steps} steps in ${longest.ms.toFixed(0)} ms, ` +
      `${stepMs.toFixed(1)} ms a step\n`);
    assert.match(await caption(page), /Final scoring/);
    assert.ok(longest.steps >= 10 * shortest.steps, `the longest sample has ${longest.steps} steps, the shortest ${shortest.steps}`);
    // Opening a replay is mostly the page and one request: a game twenty
    // times longer may not take anything like twenty times as long to open
    // (1.5 to 2.3 times here, with another test running beside).
    assert.ok(longest.ms <= 5 * shortest.ms, `opening ${longest.steps} steps took ${longest.ms.toFixed(0)} ms, ${shortest.steps} steps ${shortest.ms.toFixed(0)} ms`);
    // A step redraws what changed, not the whole replay.
    assert.ok(stepMs <= longest.ms / 10, `a step took ${stepMs.toFixed(1)} ms, opening the replay ${longest.ms.toFixed(0)} ms`);
    await page.close();
  });

  test('no console errors and no Content-Security-Policy violations here either', () => {
    assert.deepEqual(problems, []);
  });
});
