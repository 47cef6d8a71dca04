// i18n.test.mjs - the dashboard in Polish, Catalan and German, end to end:
// the language follows the browser, the header's switch changes it and is
// remembered across reloads, each translated page shows no English string
// of the catalogue, and Polish counts take their three forms.
//
//   node tests/e2e/i18n.test.mjs BUILD/flierd SOURCE_DIR
//
// As dashboard.test.mjs: a real daemon with the samples, Debian's Chromium
// through playwright-core; anything missing is a failure, never a skip.

import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { existsSync, accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [flierdArg, srcArg] = process.argv.slice(2);
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
function die(msg) {
  process.stderr.write(`i18n.test.mjs: ${msg}\n`);
  process.exit(1);
}
if (!flierdArg || !srcArg) die('usage: node i18n.test.mjs PATH/TO/flierd SOURCE_DIR');
const FLIERD = resolve(flierdArg);
const SRC = resolve(srcArg);
if (!existsSync(FLIERD)) die(`no flierd binary at ${FLIERD}: build it first (cmake --build build)`);
try { accessSync(CHROMIUM, constants.X_OK); } catch { die(`no Chromium at ${CHROMIUM}: install it with 'apt-get install -y chromium'`); }
let chromium;
try { ({ chromium } = await import('playwright-core')); } catch (e) {
  die(`playwright-core is not installed: run 'npm ci' in ${join(SRC, 'tests/e2e')} (${e.code || e.message})`);
}
const web = (rel) => import(pathToFileURL(join(SRC, 'web', rel)).href);
const CAT = {};
for (const l of ['en', 'pl', 'ca', 'de']) CAT[l] = (await web(`i18n/${l}.js`)).default;
const { UNITS } = await web('exp/index.js');

// The English a page in `lang` must not show: each catalogue text's pieces
// between placeholders, and the units' names, long enough to be words of
// their own and not the same in `lang` (a "Darmstadt" stays a Darmstadt).
function englishOf(lang) {
  const pieces = (v) => (v && typeof v === 'object' ? Object.values(v) : [v]).flatMap((s) => String(s).split(/\{\w+\}/)).map((s) => s.trim());
  const theirs = new Set([
    ...Object.values(CAT[lang]).flatMap(pieces),
    ...UNITS.flatMap((u) => [u.i18n?.[lang]?.name, u.i18n?.[lang]?.short]).filter(Boolean),
  ]);
  const ours = [...Object.values(CAT.en).flatMap(pieces), ...UNITS.map((u) => u.name).filter(Boolean)];
  return [...new Set(ours)].filter((s) => s.length >= 8 && !theirs.has(s));
}

const TMP = mkdtempSync(join(tmpdir(), 'flierd-e2e-i18n-'));
let proc, base, browser;
const problems = [];

before(async () => {
  proc = spawn(FLIERD, ['serve', '--listen', '127.0.0.1:0', '--db', join(TMP, 'i18n.db'), '--web', join(SRC, 'web'), '--quiet', '--load', join(SRC, 'samples')],
    { stdio: ['ignore', 'pipe', 'pipe'], cwd: TMP });
  let stderr = '';
  proc.stderr.on('data', (d) => { stderr += d; });
  base = await new Promise((res, rej) => {
    const timer = setTimeout(() => rej(new Error(`flierd did not listen within 60 s:\n${stderr}`)), 60000);
    proc.on('exit', (code) => rej(new Error(`flierd exited with ${code}:\n${stderr}`)));
    createInterface({ input: proc.stdout }).on('line', (line) => {
      const m = /listening on (http:\/\/\S+)/.exec(line);
      if (m) { clearTimeout(timer); proc.removeAllListeners('exit'); res(m[1]); }
    });
  });
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
});

after(async () => {
  if (browser) await browser.close();
  if (proc && proc.exitCode === null) {
    const done = new Promise((res) => proc.on('exit', res));
    proc.kill('SIGTERM');
    await done;
  }
  rmSync(TMP, { recursive: true, force: true });
});

async function gameId(suffix) {
  const { games } = await (await fetch(`${base}/api/games?limit=1000`)).json();
  const g = games.find((x) => x.name && x.name.endsWith(suffix));
  assert.ok(g, `game ${suffix} is stored`);
  return g.id;
}

async function newContext(locale) {
  const ctx = await browser.newContext({ locale });
  ctx.on('page', (page) => {
    page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()} (${page.url()})`); });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message} (${page.url()})`));
  });
  return ctx;
}

/** The words a reader sees: the page's text and its selects' choices,
 * less the names players and files brought ("labyrinth-c2-3p.jcz" is no
 * English of ours); the page is reloaded after. */
const visibleText = (page) => page.evaluate(() => {
  for (const el of document.querySelectorAll('.game-link, .chip-name, .r-name, h1')) el.textContent = '';
  return [document.title, document.body.innerText, ...[...document.querySelectorAll('option')].map((o) => o.textContent)].join('\n');
});

async function assertNoEnglish(page, lang, what) {
  const text = await visibleText(page);
  // whole words only: Catalan's "Expansions" is no English "Expansion"
  const esc = (x) => x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const left = englishOf(lang).filter((x) => new RegExp(`(^|[^\\p{L}])${esc(x)}($|[^\\p{L}])`, 'u').test(text));
  assert.deepEqual(left, [], `${what} in ${lang} shows English: ${left.join(' | ')}`);
}

// The pages translated so far, each with what says it is drawn.
const PAGES = [
  { what: 'the games list', path: '/', ready: '[data-testid=games-table] tbody tr' },
  // the size limit is asked for once the page is up
  // a game with a flight sent back, a violation and score events; and one
  // whose claimed scores part from the rules
  { what: 'the audit page', path: async () => `/games/${await gameId('/forged-flier-field.jcz')}/audit`, ready: '[data-testid=audit-violations] td.message' },
  { what: 'an audit with a first divergence', path: async () => `/games/${await gameId('/disputed.flierlog')}/audit`, ready: '[data-testid=first-divergence]' },
  // a replay at a forged flight's turn (a violation and a flight sent
  // back), and at a landed flight
  { what: 'a replay at a violation', path: async () => `/games/${await gameId('/forged-flier-field.jcz')}?turn=24`, ready: '[data-testid=violations]' },
  { what: 'a replay at a landed flight', path: async () => {
    const id = await gameId('/c2-2p.jcz');
    const game = await (await fetch(`${base}/api/games/${id}`)).json();
    return `/games/${id}?turn=${game.audit.flights.find((f) => f.outcome === 'landed').turn}`;
  }, ready: '[data-testid=flight-card]' },
  // replays of expansions whose units speak for themselves: the key, the
  // counters and what their items did, at a turn that shows them
  ...['bigbox-c2-4p.jcz', 'tower-c2-3p.jcz', 'dragon-c2-3p.jcz', 'count-c2-4p.jcz', 'bcb-c2-4p.jcz', 'little-buildings-c3-2p.jcz', 'tunnel-c2-2p.jcz'].map((name) => ({
    what: `a replay of ${name}`, path: async () => `/games/${await gameId(`/${name}`)}?turn=40`, ready: '[data-testid=board-key]',
  })),
  { what: 'the statistics', path: '/stats', ready: '[data-testid=leaderboard]', settle: (page) => page.waitForFunction(() => !document.querySelector('.chart-slot .loading')) },
  { what: 'a player\'s page', path: '/stats?player=Ben', ready: '[data-testid=luck]' },
  { what: 'the upload page', path: '/upload', ready: '[data-testid=upload-limits]:not(:empty)', settle: (page, lang) => page.waitForFunction((asking) => document.querySelector('[data-testid=upload-limits]').textContent !== asking, CAT[lang]['upload.asking']) },
];

describe('the dashboard in Polish, Catalan and German', () => {
  test('the language follows the browser; the switch changes it and is remembered', async () => {
    const ctx = await newContext('pl-PL');
    const page = await ctx.newPage();
    await page.goto(base + '/');
    await page.locator('[data-testid=games-table] tbody tr').first().waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'pl');
    assert.equal(await page.locator('h1').textContent(), CAT.pl['games.title']);
    assert.equal(await page.locator('[data-nav=stats]').textContent(), CAT.pl['nav.stats']);

    await Promise.all([page.waitForEvent('load'), page.locator('[data-testid=lang-switch]').selectOption('ca')]);
    await page.locator('[data-testid=games-table] tbody tr').first().waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'ca');
    assert.equal(await page.locator('[data-nav=stats]').textContent(), CAT.ca['nav.stats']);
    await page.reload();
    await page.locator('[data-testid=games-table] tbody tr').first().waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'ca', 'the choice outlives a reload');
    assert.equal(await page.locator('[data-testid=lang-switch]').inputValue(), 'ca');
    await page.goto(base + '/stats');
    assert.equal(await page.locator('[data-nav=stats]').textContent(), CAT.ca['nav.stats'], 'and other pages');
    await ctx.close();
  });

  for (const lang of ['pl', 'ca', 'de']) {
    test(`no English left on the translated pages in ${lang}`, async () => {
      // a browser set to English, the language chosen in the header
      const ctx = await newContext('en-US');
      const page = await ctx.newPage();
      await page.goto(base + '/');
      await page.locator('[data-testid=games-table] tbody tr').first().waitFor();
      await Promise.all([page.waitForEvent('load'), page.locator('[data-testid=lang-switch]').selectOption(lang)]);
      for (const p of PAGES) {
        await page.goto(base + (typeof p.path === 'function' ? await p.path() : p.path));
        await page.locator(p.ready).first().waitFor();
        if (p.settle) await p.settle(page, lang);
        // what folds away is read too
        await page.evaluate(() => { for (const d of document.querySelectorAll('details')) d.open = true; });
        await assertNoEnglish(page, lang, p.what);
      }
      // the recorder: its setup, then a game started and its first turn
      // up to a tile placed and a figure to choose
      await page.goto(base + '/record');
      await page.locator('[data-testid=start-game]').waitFor();
      await page.locator('[data-testid=box]').first().check();
      await assertNoEnglish(page, lang, 'the recorder\'s setup');
      await page.goto(base + '/record');
      await page.locator('#player-1').fill(`Ola-${lang}`);
      await page.locator('#player-2').fill(`Pau-${lang}`);
      await page.locator('[data-testid=start-game]').click();
      await page.locator('[data-testid=tile-choice]:not([disabled])').first().waitFor();
      await assertNoEnglish(page, lang, 'the recorder\'s tile catalogue');
      await page.locator('[data-testid=tile-choice]:not([disabled])').first().click();
      await page.locator('[data-testid=legal-square]').first().click();
      await page.locator('[data-testid=confirm]').waitFor();
      await assertNoEnglish(page, lang, 'the recorder\'s turn');

      // an upload's verdict and its violation, composed in the language
      await page.goto(base + '/upload');
      await page.locator('[data-testid=file-input]').setInputFiles(join(SRC, 'samples/forged/forged-flier-field.jcz'));
      const result = page.locator('[data-testid=upload-results] .result .r-violations li');
      await result.first().waitFor();
      const said = await result.first().textContent();
      assert.ok(said.includes('FLIER_FIELD'), said);
      const flier = UNITS.find((u) => u.id === 'flier');
      assert.ok(said.includes(flier.i18n[lang].rules.FLIER_FIELD), `the rule in ${lang}: ${said}`);
      assert.ok(!said.includes('a flier never lands on a field'), 'not the engine\'s English message');
      await assertNoEnglish(page, lang, 'an upload\'s result');
      await ctx.close();
    });
  }

  test('Polish counts: one, few and many (1, 2, 5, 22)', async () => {
    const ctx = await newContext('pl-PL');
    const page = await ctx.newPage();
    await page.goto(base + '/');
    await page.locator('[data-testid=games-table] tbody tr').first().waitFor();
    const said = await page.evaluate(async () => {
      const { t } = await import('/i18n/index.js');
      return [1, 2, 5, 22].map((n) => t('verdict.violations', { n }));
    });
    assert.deepEqual(said, ['1 naruszenie', '2 naruszenia', '5 naruszeń', '22 naruszenia']);
    // and the list's own badges, by the counts the API gives
    const { games } = await (await fetch(`${base}/api/games?limit=1000&verdict=invalid`)).json();
    const form = (n) => ({ one: 'naruszenie', few: 'naruszenia', many: 'naruszeń' })[new Intl.PluralRules('pl').select(n)];
    const g = games.find((x) => x.status !== 'unsupported' && x.violations > 0);
    assert.ok(g, 'a sample game with violations');
    await page.goto(`${base}/?verdict=invalid&size=1000`);
    await page.locator(`tr[data-id="${g.id}"]`).waitFor();
    const badge = await page.locator(`tr[data-id="${g.id}"] .badge.bad`).textContent();
    assert.equal(badge, `${g.violations} ${form(g.violations)}`);
    await ctx.close();
  });

  test('no console errors', () => {
    assert.deepEqual(problems, []);
  });
});
