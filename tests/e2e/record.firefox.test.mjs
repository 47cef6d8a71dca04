// record.firefox.test.mjs - the "Record a game" page in Debian's Firefox ESR,
// headless, at a phone's size, driven by puppeteer-core over WebDriver BiDi:
// a small game recorded through the page against a real flierd daemon with a
// fresh database (the Chromium side is in dashboard.test.mjs).
//
//   node tests/e2e/record.firefox.test.mjs BUILD/flierd SOURCE_DIR
//
// Missing node modules or the binary are a failure. A missing Firefox is a
// skip (exit 77) on a developer's machine, a failure in CI (CI=true).

import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { existsSync, accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const [flierdArg, srcArg] = process.argv.slice(2);
const FIREFOX = process.env.FIREFOX || '/usr/bin/firefox-esr';
const SKIP = 77; // ctest's SKIP_RETURN_CODE for this test

function die(msg, code = 1) {
  process.stderr.write(`record.firefox.test.mjs: ${msg}\n`);
  process.exit(code);
}
if (!flierdArg || !srcArg) die('usage: node record.firefox.test.mjs PATH/TO/flierd SOURCE_DIR');
const FLIERD = resolve(flierdArg);
const SRC = resolve(srcArg);
if (!existsSync(FLIERD)) die(`no flierd binary at ${FLIERD}: build it first (cmake --build build)`);
if (Number(process.versions.node.split('.')[0]) < 18) die(`Node.js ${process.versions.node} is too old: 18 or later is needed`);
try { accessSync(FIREFOX, constants.X_OK); } catch {
  const how = `install it with 'apt-get install -y firefox-esr' (or set FIREFOX=/path/to/firefox)`;
  if (process.env.CI === 'true') die(`no Firefox at ${FIREFOX} in CI (CI=true): ${how}`);
  die(`SKIPPED: no Firefox at ${FIREFOX}, the recorder is not tested in Firefox: ${how}`, SKIP);
}
let puppeteer;
try {
  ({ default: puppeteer } = await import('puppeteer-core'));
} catch (e) {
  die(`puppeteer-core is not installed: run 'npm ci' in ${join(SRC, 'tests/e2e')} (${e.code || e.message})`);
}

const TMP = mkdtempSync(join(tmpdir(), 'flierd-e2e-firefox-'));

/** Starts `flierd serve` on a free port with a fresh database and the
 * source tree's web/; resolves with {url, stop()}. */
function startDaemon() {
  const args = ['serve', '--listen', '127.0.0.1:0', '--db', join(TMP, 'record.db'), '--web', join(SRC, 'web'), '--quiet'];
  const proc = spawn(FLIERD, args, { stdio: ['ignore', 'pipe', 'pipe'], cwd: TMP });
  let stderr = '';
  proc.stderr.on('data', (d) => { stderr += d; });
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => { proc.kill('SIGKILL'); reject(new Error(`flierd did not say where it listens within 60 s; stderr:\n${stderr}`)); }, 60000);
    proc.on('exit', (code) => { clearTimeout(timer); reject(new Error(`flierd exited with ${code} before listening; stderr:\n${stderr}`)); });
    createInterface({ input: proc.stdout }).on('line', (line) => {
      const m = /listening on (http:\/\/\S+)/.exec(line);
      if (!m) return;
      clearTimeout(timer);
      proc.removeAllListeners('exit');
      resolvePromise({
        url: m[1],
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

let daemon, browser, base;
const problems = []; // console errors, page errors, CSP violations

async function api(path, init) {
  const res = await fetch(base + path, init);
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

before(async () => {
  daemon = await startDaemon();
  base = daemon.url;
  browser = await puppeteer.launch({
    browser: 'firefox',
    protocol: 'webDriverBiDi',
    executablePath: FIREFOX,
    headless: true,
    userDataDir: join(TMP, 'firefox-profile'),
  });
  process.stdout.write(`# ${await browser.version()} over WebDriver BiDi\n`);
});

after(async () => {
  if (browser) await browser.close();
  if (daemon) {
    const code = await daemon.stop();
    assert.equal(code, 0, `flierd exits 0 on SIGTERM; stderr:\n${daemon.stderr()}`);
  }
  rmSync(TMP, { recursive: true, force: true });
});

async function newPage(width, height) {
  const page = await browser.newPage();
  await page.setViewport({ width, height, hasTouch: true });
  // Content-Security-Policy violations said as console errors, as Chromium
  // does of itself.
  await page.evaluateOnNewDocument(() => document.addEventListener('securitypolicyviolation',
    (e) => console.error(`Content-Security-Policy: ${e.violatedDirective} refused ${e.blockedURI}`)));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()} (${page.url()})`); });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message} (${page.url()})`));
  return page;
}

describe('the recorder in Firefox', () => {
  test('recording at the table on a phone: tiles, squares, a touch to turn, a deployment, a flight, undo, pan and pinch, the end', async () => {
    const page = await newPage(390, 844);
    const text = (sel) => page.$eval(sel, (el) => el.textContent);
    const turnLine = () => text('[data-testid=turn-line]');
    const waitTurn = (n) => page.waitForFunction((k) => new RegExp(`^Turn ${k} `).test(document.querySelector('[data-testid=turn-line]')?.textContent || ''), {}, n);
    // The page re-renders after each choice: wait for what only the new
    // state shows before the next click.
    const confirmReady = () => page.waitForSelector('[data-testid=confirm]:not([disabled])');
    const confirm = async (n) => {
      await confirmReady();
      await page.click('[data-testid=confirm]');
      await waitTurn(n);
    };
    const pickTile = async (search) => {
      await page.waitForSelector('#tile-search');
      await page.$eval('#tile-search', (el) => el.select());
      await page.keyboard.press('Backspace');
      if (search) await page.type('#tile-search', search);
      await page.waitForFunction((w) => document.querySelector('#tile-search').value === w
        && document.querySelector('[data-testid=tile-choice]:not([disabled])'), {}, search);
      const tile = await page.$eval('[data-testid=tile-choice]:not([disabled])', (el) => el.dataset.tile);
      await page.click(`[data-testid=tile-choice][data-tile="${tile}"]`);
      await page.waitForSelector(`[data-testid=tile-choice][data-tile="${tile}"][aria-pressed=true]`);
      await page.waitForSelector('[data-testid=legal-square]');
      return tile;
    };
    // A legal square is an SVG rect: clicked where Firefox lays it out, it
    // is found again from the board's coordinates (getScreenCTM).
    const placeOn = async (at) => {
      await page.click(at ? `[data-testid=legal-square][data-at="${at}"]` : '[data-testid=legal-square]');
      await page.waitForSelector('[data-testid=confirm]');
    };
    // A point of the board (in board units) on the screen.
    const onScreen = (bx, by) => page.evaluate(([x, y]) => {
      const m = document.querySelector('svg.board').getScreenCTM();
      return [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f];
    }, [bx, by]);
    const viewBox = () => page.$eval('svg.board', (el) => el.getAttribute('viewBox'));

    // The setup: two players.
    await page.goto(base + '/');
    await page.waitForSelector('a[href="/record"]');
    await page.click('a[href="/record"]');
    await page.waitForSelector('#player-1');
    await page.type('#player-1', 'Rita');
    await page.type('#player-2', 'Sam');
    await page.click('[data-testid=start-game]');
    await waitTurn(1);
    assert.match(await turnLine(), /^Turn 1 · Rita · 79 tiles left/);
    const id = Number(new URL(page.url()).searchParams.get('game'));
    assert.ok(id > 0, page.url());

    // Turn 1: a straight road east of the start tile, a thief on it.
    assert.equal(await pickTile('BA/RFr'), 'BA/RFr');
    const options = (await api(`/api/live/${id}/options?tile=BA/RFr`)).body;
    assert.equal((await page.$$('[data-testid=legal-square]')).length, options.places.length);
    // Large targets for a finger, as Firefox lays them out: the tiles, the
    // squares, then the figures' places.
    const smallest = (sel) => page.$$eval(sel, (els) => Math.min(...els.map((el) => { const r = el.getBoundingClientRect(); return Math.min(r.width, r.height); })));
    for (const sel of ['[data-testid=tile-choice]', '[data-testid=legal-square]']) {
      const px = await smallest(sel);
      assert.ok(px >= 44, `${sel}: ${px.toFixed(1)} px at the smallest`);
    }
    await placeOn('1,0');
    const px = await smallest('[data-testid=deploy-choice]');
    assert.ok(px >= 44, `[data-testid=deploy-choice]: ${px.toFixed(1)} px at the smallest`);
    await page.click('[data-testid=deploy-choice][data-segment="road:WE"]');
    await confirm(2);
    assert.match(await turnLine(), /^Turn 2 · Sam/);

    // Turn 2: a tile with a flying machine; the figure flies with a roll of 1.
    await pickTile('flier');
    await placeOn();
    await page.click('[data-testid=roll][data-roll="1"]');
    await page.waitForFunction(() => [...document.querySelectorAll('.record-panel h3')].some((el) => /rolled 1/.test(el.textContent)));
    if (await page.$('[data-testid=land-choice]')) await page.click('[data-testid=land-choice]');
    await confirm(3);

    // Turn 3: a tap (a touch) on the chosen square again turns the tile.
    await pickTile('city');
    let turned = false;
    for (const at of await page.$$eval('[data-testid=legal-square]', (els) => els
      .filter((el) => / [2-4] rotations/.test(el.querySelector('title').textContent)).map((el) => el.dataset.at))) {
      await placeOn(at);
      const before = await text('.record-panel h2');
      const [x, y] = at.split(',').map(Number);
      const [cx, cy] = await onScreen(x * 100 + 8, y * 100 + 8);
      await page.touchscreen.tap(cx, cy);
      await page.waitForFunction((b) => {
        const h2 = document.querySelector('.record-panel h2');
        return h2 && h2.textContent !== b && document.querySelector('[data-testid=pass]');
      }, {}, before);
      turned = true;
      break;
    }
    assert.ok(turned, 'some square takes the tile in more than one rotation');
    await page.click('[data-testid=pass]');
    await confirm(4);

    // Undo takes turn 3 back; it is recorded again.
    await page.click('[data-testid=undo]');
    await waitTurn(3);
    await pickTile('');
    await placeOn();
    await page.click('[data-testid=pass]');
    await confirm(4);
    assert.equal((await api(`/api/games/${id}`)).body.turns, 3);

    // Between turns: a finger drags the board, two fingers pinch it, a
    // mouse drags it.
    await page.waitForSelector('svg.board');
    const [bx, by] = await page.$eval('svg.board', (el) => { const r = el.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; });
    const view = async () => (await viewBox()).split(' ').map(Number); // x y w h
    const v0 = await view();
    await page.touchscreen.touchStart(bx, by);
    for (let k = 1; k <= 4; k++) await page.touchscreen.touchMove(bx - 15 * k, by - 10 * k);
    await page.touchscreen.touchEnd();
    const v1 = await view();
    assert.ok(v1[0] > v0[0] && v1[1] > v0[1], `a drag up and left moves the view down and right: ${v0} -> ${v1}`);
    const f1 = await page.touchscreen.touchStart(bx - 20, by);
    const f2 = await page.touchscreen.touchStart(bx + 20, by);
    for (let k = 1; k <= 4; k++) {
      await f1.move(bx - 20 - 15 * k, by);
      await f2.move(bx + 20 + 15 * k, by);
    }
    await f1.end();
    await f2.end();
    const v2 = await view();
    assert.ok(v2[2] < v1[2] * 0.8, `two fingers apart zoom in: ${v1} -> ${v2}`);
    await page.mouse.move(bx, by);
    await page.mouse.down();
    await page.mouse.move(bx + 40, by + 30, { steps: 4 });
    await page.mouse.up();
    const v3 = await view();
    assert.ok(v3[0] < v2[0] && v3[1] < v2[1], `a mouse drag down and right moves the view up and left: ${v2} -> ${v3}`);

    // Turn 4, the last. A mouse drag that starts on a highlighted square
    // pans the board and places nothing (the click after it is no tap).
    await pickTile('road');
    const [sx, sy] = await page.$eval('[data-testid=legal-square]', (el) => { const r = el.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; });
    const unpanned = await viewBox();
    await page.mouse.move(sx, sy);
    await page.mouse.down();
    await page.mouse.move(sx + 50, sy + 30, { steps: 5 });
    await page.mouse.up();
    const panned4 = await viewBox();
    assert.notEqual(panned4, unpanned, 'the drag pans');
    await new Promise((ok) => setTimeout(ok, 500)); // a placement would ask the daemon and redraw
    assert.equal(await viewBox(), panned4, 'nothing redrew the board');
    assert.equal(await page.$('[data-testid=confirm]'), null, 'a drag places no tile');
    await placeOn();
    await page.click('[data-testid=pass]');
    await confirm(5);
    assert.equal((await api(`/api/games/${id}`)).body.turns, 4);

    // The end: final scoring, the downloads, a valid game.
    page.once('dialog', (d) => d.accept());
    await page.click('[data-testid=finish]');
    await page.waitForSelector('[data-testid=finished]');
    assert.equal(await page.$eval('[data-testid=download]', (el) => el.getAttribute('href')), `/api/games/${id}/raw`);
    const game = (await api(`/api/games/${id}`)).body;
    assert.equal(game.finished, true);
    assert.equal(game.valid, true, JSON.stringify(game.audit && game.audit.violations));
    assert.equal(game.turns, 4);
    // its audit: no violation, the flight with its roll
    assert.deepEqual(game.audit.violations, []);
    assert.equal(game.audit.valid, true);
    assert.equal(game.audit.turns, 4);
    assert.deepEqual(game.audit.flights.map((f) => [f.turn, f.player, f.roll]), [[2, 'Sam', 1]], 'the flight, with the roll entered');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 1, `/record scrolls sideways by ${overflow}px`);
    await page.close();
  });

  test('no console errors', () => {
    assert.deepEqual(problems, []);
  });
});
