// i18n/index.js - the dashboard's words in the reader's language. One
// catalogue per language (en.js, pl.js, ca.js, de.js), keyed by stable keys;
// the units (exp/) carry their own words (exp/index.js). The API, the
// command line and the logs stay English: only what a person reads here is
// translated.
//
// The language is chosen once, when the page loads: the reader's choice
// (localStorage), else the first of the browser's languages we speak, else
// English. Switching reloads the page, so that words computed when a module
// loads (column heads, unit names) follow the language too.

import en from './en.js';
import pl from './pl.js';
import ca from './ca.js';
import de from './de.js';

export const CATALOGUES = { en, pl, ca, de };
/** The languages, each named in itself (a reader who cannot read the
 * current one still finds theirs). */
export const LANGS = [['en', 'English'], ['pl', 'Polski'], ['ca', 'Català'], ['de', 'Deutsch']];
const STORE = 'flierd.lang';

function stored() {
  try { return globalThis.localStorage ? localStorage.getItem(STORE) : null; } catch { return null; }
}

/** The language to use: a stored choice, else the browser's. */
export function detect(choice = stored(), wanted = (globalThis.navigator && navigator.languages) || []) {
  if (choice && CATALOGUES[choice]) return choice;
  for (const w of wanted) {
    const l = String(w).toLowerCase().split('-')[0];
    if (CATALOGUES[l]) return l;
  }
  return 'en';
}

export let lang = detect();

/** Remembers the reader's choice and reloads the page in it. */
export function setLang(l) {
  if (!CATALOGUES[l]) return;
  try { localStorage.setItem(STORE, l); } catch { /* private mode: this page only */ }
  location.reload();
}

/** For the tests and node: use a language without the browser. */
export function useLang(l) { if (CATALOGUES[l]) lang = l; }

const rules = new Map();
const pluralRule = (l) => {
  if (!rules.has(l)) rules.set(l, new Intl.PluralRules(l));
  return rules.get(l);
};

function pick(entry, l, params) {
  if (entry === null || typeof entry !== 'object') return entry;
  // plural forms: {one, few, many, other}, chosen by the count `n`
  const n = Number(params && params.n);
  const form = pluralRule(l).select(Number.isFinite(n) ? n : 0);
  return entry[form] ?? entry.other;
}

/** The text of `key` in the current language ({name} filled from params;
 * the count {n} is formatted as a number); English when the catalogue lacks it. */
export function t(key, params) {
  let l = lang;
  let entry = CATALOGUES[l][key];
  if (entry === undefined) { l = 'en'; entry = en[key]; }
  if (entry === undefined) return key;
  const text = pick(entry, l, params);
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (m, k) => {
    if (!(k in params)) return m;
    const v = params[k];
    // the count is a number to read; ids, turns and squares are not
    return k === 'n' && typeof v === 'number' ? fmtNum(v, 2) : String(v);
  });
}

/** t() for a sentence with elements in it: the params that are nodes
 * (a span of words with its tooltip) go in where the language puts them;
 * returns the pieces for h()'s children. */
export function tNodes(key, params) {
  const nodes = {}, plain = {};
  for (const [k, v] of Object.entries(params || {})) {
    if (v !== null && typeof v === 'object') nodes[k] = v; else plain[k] = v;
  }
  const text = t(key, { ...plain, ...Object.fromEntries(Object.keys(nodes).map((k) => [k, `{${k}}`])) });
  return text.split(/(\{\w+\})/).filter((x) => x !== '').map((x) => {
    const m = /^\{(\w+)\}$/.exec(x);
    return m && nodes[m[1]] ? nodes[m[1]] : x;
  });
}

/** Whether the catalogues know `key` (keys built from data, e.g. a
 * receipt's items, may be unknown: the caller then shows the data). */
export const has = (key) => en[key] !== undefined;

/** A unit's or other module's own words: `table` is {pl: {...}, ...};
 * the English comes from `fallback`. */
export function own(table, key, fallback) {
  const mine = table && table[lang];
  return mine && mine[key] !== undefined ? mine[key] : fallback;
}

const nf = new Map();
export function fmtNum(x, digits = 0) {
  if (x === null || x === undefined || Number.isNaN(x)) return '–';
  const k = `${lang}/${digits}`;
  if (!nf.has(k)) nf.set(k, new Intl.NumberFormat(lang, { maximumFractionDigits: digits, minimumFractionDigits: 0 }));
  return nf.get(k).format(Number(x));
}

/** A number with exactly `digits` decimals ("3.00", "3,00"). */
export function fmtFixed(x, digits = 2) {
  if (x === null || x === undefined || Number.isNaN(x)) return '–';
  return new Intl.NumberFormat(lang, { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false }).format(Number(x));
}

/** A share of 1 as a percentage, as the language writes it ("12 %" in
 * German and Catalan, "12%" in English and Polish). */
export function fmtPct(x, digits = 0) {
  if (x === null || x === undefined || Number.isNaN(x)) return '–';
  return new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: digits, minimumFractionDigits: digits }).format(x);
}

/** A Unix time as a date (and time): the language's order and separators. */
export function fmtDate(unix, withTime = true) {
  if (unix === null || unix === undefined) return '';
  const opts = withTime ? { dateStyle: 'medium', timeStyle: 'short' } : { dateStyle: 'medium' };
  return new Intl.DateTimeFormat(lang, opts).format(new Date(unix * 1000));
}

/** Fills the static page's elements marked data-i18n (their text) and
 * data-i18n-attr ("attr:key"), and adds the language switch. */
export function localizeDocument(doc = document) {
  doc.documentElement.lang = lang;
  for (const el of doc.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const el of doc.querySelectorAll('[data-i18n-attr]')) {
    for (const pair of el.dataset.i18nAttr.split(' ')) {
      const [attr, key] = pair.split(':');
      el.setAttribute(attr, t(key));
    }
  }
  const slot = doc.getElementById('lang-slot');
  if (slot && !slot.firstChild) {
    const sel = doc.createElement('select');
    sel.id = 'lang-switch';
    sel.dataset.testid = 'lang-switch';
    for (const [code, name] of LANGS) {
      const o = doc.createElement('option');
      o.value = code; o.lang = code; o.textContent = name; o.selected = code === lang;
      sel.appendChild(o);
    }
    sel.addEventListener('change', () => setLang(sel.value));
    const label = doc.createElement('label');
    label.htmlFor = 'lang-switch';
    label.className = 'sr-only';
    label.textContent = t('nav.language');
    slot.append(label, sel);
  }
}
