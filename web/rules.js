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
