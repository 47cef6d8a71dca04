// rules.js - what each rule id means (docs/architecture.md), in the
// engine's order of precedence: the units' texts (exp/).
import { RULES } from './exp/index.js';
import { lang, t } from './i18n/index.js';
import { segWords } from './words.js';
import { FEATURES, FEATURE_NAMES } from './exp/index.js';

const featureName = (f) => FEATURE_NAMES[f] || (FEATURES[f] && FEATURES[f].name) || String(f);

export { RULES };
export const RULE_IDS = Object.keys(RULES);

/** Where a violation places the offending move, from the audit's `at`
 * and `segment`: {at, segment}, or null when it names no segment. */
export function moveLocation(v) {
  return v && Array.isArray(v.at) && typeof v.segment === 'string' ? { segment: v.segment, at: v.at } : null;
}

/** Why a flight's figure went back to the supply, in words, from the
 * audit's violations (those of the flight's turn and player): a logged
 * landing that broke a rule was not applied; else the target square was
 * empty (targetEmpty, when the caller knows it), offered no landing, or
 * the log sent the figure back anyway. */
export function flightReturnWhy(f, violations, targetEmpty = false) {
  const broken = (violations || []).find((v) => v.turn === f.turn && v.player === f.player &&
    /^(FLIER_|MEEPLE_WRONG_TYPE)/.test(v.rule) && v.rule !== 'FLIER_MUST_LAND');
  if (broken) return t('why.broken', { rule: broken.rule });
  if (targetEmpty) return t('why.empty');
  if (!f.options) return t('why.noLanding');
  return t('why.sentBack', { n: f.options });
}

const square = (at) => `(${at[0]},${at[1]})`;

/** What a violation says, in the reader's language: the rule's text and
 * where it was broken, from the audit's rule, segment and at. English
 * readers get the engine's own sentence (its message), which says more;
 * the other languages are composed from the data, never from that text. */
export function violationText(v) {
  if (lang === 'en' && v.message) return v.message;
  return [RULES[v.rule] || v.rule, violationWhere(v)].filter(Boolean).join(' ');
}

/** Where a violation was, in words, from its segment and square; '' when
 * it names neither. */
export function violationWhere(v) {
  if (typeof v.segment === 'string' && Array.isArray(v.at)) return t('violation.on', { what: segWords(v.segment), at: square(v.at) });
  if (Array.isArray(v.at)) return t('violation.at', { at: square(v.at) });
  return '';
}

/** Where the claimed totals first part from the rules: the engine's
 * sentence for English readers, else composed from the turn, the players'
 * claimed and computed totals and the feature. */
export function divergenceText(fd) {
  if (lang === 'en' && fd.message) return fd.message;
  const who = (fd.players || []).map((p) => t('audit.claimsVs', { player: p, claimed: (fd.claimed || {})[p] ?? '—', computed: (fd.computed || {})[p] ?? '—' })).join('; ');
  const turn = fd.turn === null || fd.turn === undefined ? t('turn.final') : String(fd.turn);
  return t('audit.divergenceText', { turn, who, feature: fd.feature ? featureName(fd.feature) : '—' });
}
