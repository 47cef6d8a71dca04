// rules.js - what each rule id means (docs/architecture.md), in the
// engine's order of precedence: the units' texts (exp/).
import { RULES } from './exp/index.js';

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
  if (broken) return `the logged landing breaks ${broken.rule}, so the auditor did not apply it`;
  if (targetEmpty) return 'the target square is empty';
  if (!f.options) return 'the target offers no valid landing (fields, completed features and flying machines are not landings)';
  return `the log sends the figure back although ${f.options} valid landing${f.options > 1 ? 's' : ''} existed`;
}
