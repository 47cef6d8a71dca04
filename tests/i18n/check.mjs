// check.mjs - the dashboard's catalogues are complete and used:
//
//   node tests/i18n/check.mjs SOURCE_DIR
//
// Fails (exit 1, each problem on a line) when
//   - a catalogue (web/i18n/pl.js, ca.js, de.js) lacks a key English has,
//     has a key English does not, lacks a plural form its language needs
//     (Intl.PluralRules), or drops or invents a {placeholder};
//   - the code asks for a key English lacks (t('key'));
//   - an English key is used nowhere in web/ (a literal 'key', "key" or
//     `key` in a module, or data-i18n / data-i18n-attr in index.html),
//     unless it starts with one of DYNAMIC's prefixes, the keys the code
//     builds (keep that list short);
//   - a unit (web/exp/*.js) lacks its name, short name, a rule text, a
//     feature's, figure's, element's, expression's or recorder move's
//     name, its start's name, a setting's words, a token's or token
//     group's name, an item's label or sentences, a key entry's text, the
//     words for between turns or a second tile in a
//     language (its i18n), or has words for something it does not have.
// So a new string cannot ship untranslated, nor a dead one linger.

import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const SRC = resolve(process.argv[2] || '.');
const WEB = join(SRC, 'web');
// Keys the code builds from data, by prefix: dir. + a compass point
// (words.js), item. + a receipt item's kind the units do not name
// (figures.js).
const DYNAMIC = ['dir.', 'item.'];

const problems = [];
const load = async (rel) => (await import(pathToFileURL(join(WEB, rel)).href)).default;
const en = await load('i18n/en.js');
const LANGS = ['pl', 'ca', 'de'];
const CATALOGUE = /^(en|pl|ca|de)\.js$/;
const holes = (s) => [...String(s).matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort().join(',');
const forms = (e) => (e && typeof e === 'object' ? Object.values(e) : [e]);

for (const l of LANGS) {
  const cat = await load(`i18n/${l}.js`);
  const need = new Intl.PluralRules(l).resolvedOptions().pluralCategories;
  for (const [k, v] of Object.entries(en)) {
    if (!(k in cat)) { problems.push(`${l}: missing key ${k}`); continue; }
    const w = cat[k];
    if (typeof v === 'object' && v !== null) {
      if (typeof w !== 'object' || w === null) { problems.push(`${l}: ${k} is a plural in English, give its forms (${need.join(', ')})`); continue; }
      for (const f of need) if (!(f in w)) problems.push(`${l}: ${k} lacks the plural form "${f}"`);
    } else if (typeof w !== 'string') {
      problems.push(`${l}: ${k} is plain text in English, not a plural`);
    }
    const want = holes(forms(v)[0]);
    for (const text of forms(w)) {
      // a singular form may say the count in words ("one game")
      if (holes(text) !== want && holes(text) !== want.split(',').filter((x) => x !== 'n').join(',')) {
        problems.push(`${l}: ${k} has placeholders {${holes(text)}}, English has {${want}}`);
      }
    }
  }
  for (const k of Object.keys(cat)) if (!(k in en)) problems.push(`${l}: key ${k} is not in English`);
}

// Every English key is used somewhere in web/ (the catalogues aside).
function files(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = join(dir, d.name);
    if (d.isDirectory()) return files(p);
    if (dir.endsWith('i18n') && CATALOGUE.test(d.name)) return [];
    return /\.(js|html)$/.test(d.name) ? [p] : [];
  });
}
const code = files(WEB).map((p) => readFileSync(p, 'utf8')).join('\n');
const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
for (const k of Object.keys(en)) {
  if (DYNAMIC.some((p) => k.startsWith(p))) continue;
  const re = new RegExp(`['"\`]${esc(k)}['"\`]|data-i18n="${esc(k)}"|:${esc(k)}[" ]`);
  if (!re.test(code)) problems.push(`en: key ${k} is used nowhere in web/`);
}

// Every key the code asks for exists in English.
for (const m of code.matchAll(/\bt\(\s*'([\w.-]+)'/g)) if (!(m[1] in en)) problems.push(`en: key ${m[1]} is asked for (t('${m[1]}')) but missing`);

// The units carry their own words.
const { UNITS } = await import(pathToFileURL(join(WEB, 'exp/index.js')).href);
for (const u of UNITS) {
  const own = u.i18n || {};
  for (const l of LANGS) {
    const w = own[l] || {};
    for (const f of ['name', 'short']) if (u[f] && !w[f]) problems.push(`unit ${u.id}: no ${f} in ${l}`);
    for (const r of Object.keys(u.rules || {})) if (!(w.rules && w.rules[r])) problems.push(`unit ${u.id}: no text of rule ${r} in ${l}`);
    for (const f of Object.keys(u.features || {}).filter((k) => u.features[k].name)) if (!(w.features && w.features[f])) problems.push(`unit ${u.id}: no name of feature ${f} in ${l}`);
    for (const k of Object.keys(u.figures || {}).filter((x) => u.figures[x].name)) if (!(w.figures && w.figures[k])) problems.push(`unit ${u.id}: no name of figure ${k} in ${l}`);
    for (const k of Object.keys(u.elementNames || {})) if (!(w.elementNames && w.elementNames[k])) problems.push(`unit ${u.id}: no name of element ${k} in ${l}`);
    for (const [, k] of u.settings || []) if (!(w.settings && typeof w.settings[k] === 'function')) problems.push(`unit ${u.id}: no words for setting ${k} in ${l}`);
    for (const k of Object.keys(u.moves || {})) if (!(w.moves && w.moves[k])) problems.push(`unit ${u.id}: no name of move ${k} in ${l}`);
    for (const [k, v] of Object.entries(u.tokens || {})) {
      if (v.name && !(w.tokens && w.tokens[k])) problems.push(`unit ${u.id}: no name of token ${k} in ${l}`);
      if (v.group && !(w.tokenGroups && w.tokenGroups[v.group])) problems.push(`unit ${u.id}: no name of token group ${v.group} in ${l}`);
    }
    for (const [k, v] of Object.entries(u.features || {})) if (v.legend && !(w.legends && w.legends[k])) problems.push(`unit ${u.id}: no key text of feature ${k} in ${l}`);
    for (const [k, v] of Object.entries(u.items || {})) {
      if (v.label && !(w.items && w.items[k] && w.items[k].label)) problems.push(`unit ${u.id}: no label of item ${k} in ${l}`);
      if (v.legend && !(w.items && w.items[k] && w.items[k].legend)) problems.push(`unit ${u.id}: no key text of item ${k} in ${l}`);
      for (const f of ['moved', 'changed', 'taken', 'freed']) if (typeof v[f] === 'function' && !(w.items && w.items[k] && typeof w.items[k][f] === 'function')) problems.push(`unit ${u.id}: no sentence ${f}() of item ${k} in ${l}`);
    }
    for (const [k, v] of Object.entries(u.features || {})) if (v.between && !(w.between && w.between[k])) problems.push(`unit ${u.id}: no words for between turns of feature ${k} in ${l}`);
    for (const [k, v] of Object.entries(u.figures || {})) if (v.again && !(w.again && w.again[k])) problems.push(`unit ${u.id}: no words for figure ${k} playing again in ${l}`);
    for (const [k, v] of Object.entries(u.features || {})) for (const spot of Object.keys(v.spots || {})) if (v.shape === 'spots' && !(w.spots && w.spots[spot])) problems.push(`unit ${u.id}: no name of spot ${spot} (${k}) in ${l}`);
    for (const k of Object.keys(u.receiptItems || {})) if (!(w.receiptItems && w.receiptItems[k])) problems.push(`unit ${u.id}: no words for receipt item ${k} in ${l}`);
    if (u.closed && !w.closed) problems.push(`unit ${u.id}: no name of its closed tile in ${l}`);
    if (u.box && u.box.start && !w.start) problems.push(`unit ${u.id}: no name of its start in ${l}`);
    for (const x of Object.keys(u.exprNames || {})) if (!(w.exprNames && w.exprNames[x])) problems.push(`unit ${u.id}: no name of expression ${x} in ${l}`);
    for (const r of Object.keys(w.rules || {})) if (!(u.rules && u.rules[r])) problems.push(`unit ${u.id}: ${l} has a text of rule ${r}, which the unit does not have`);
  }
}

if (problems.length) {
  process.stderr.write(`${problems.join('\n')}\n${problems.length} problem(s) in the dashboard's catalogues\n`);
  process.exit(1);
}
process.stdout.write(`catalogues complete: ${Object.keys(en).length} keys in ${LANGS.length + 1} languages, ${UNITS.length} units\n`);
