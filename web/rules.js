// rules.js - what each rule id means (docs/architecture.md).
export const RULES = {
  TILE_UNKNOWN: 'No such tile id.',
  TILE_NOT_IN_PACK: 'The tile is not in the game\'s tile sets, or more copies were played than they hold.',
  TILE_OCCUPIED: 'The square already holds a tile.',
  TILE_NOT_ADJACENT: 'The tile has no orthogonal neighbour.',
  TILE_EDGE_MISMATCH: 'An edge of the tile does not match its neighbour.',
  TILE_DISCARD_FITS: 'A tile was discarded although it fits somewhere.',
  MEEPLE_NONE_LEFT: 'The player has no such meeple in supply.',
  MEEPLE_NOT_ON_PLACED_TILE: 'A normal deployment must be on the tile just placed.',
  MEEPLE_FEATURE_OCCUPIED: 'A normal deployment on a feature that already holds a meeple.',
  MEEPLE_WRONG_TYPE: 'That meeple may not stand on that feature (or there is no such feature).',
  MEEPLE_SECOND_DEPLOY: 'A second deployment (or recall) in one turn.',
  FLIER_NO_MACHINE: 'A flight from a tile without a flying machine.',
  FLIER_BAD_ROLL: 'The die roll is outside 1 to 3.',
  FLIER_WRONG_TARGET: 'The flier landed on another tile than the one the roll points to.',
  FLIER_NO_TILE: 'The flier landed where there is no tile.',
  FLIER_FIELD: 'A flier never lands on a field.',
  FLIER_COMPLETED: 'A flier cannot land on a completed feature (including one completed this turn).',
  FLIER_BAD_FEATURE: 'The flier landed on a flying machine or on no feature.',
  FLIER_MUST_LAND: 'The meeple went back to supply although a valid landing existed.',
  ABBOT_RECALL: 'A recall of an abbot that is not the player\'s or not there.',
  TURN_ORDER: 'The log names another player than the one on turn.',
  TURN_SEQUENCE: 'A message out of place (a deployment before any tile, moves after the last turn).',
  SCORE_MISMATCH: 'A claimed score differs from what the rules give.',
};
export const RULE_IDS = Object.keys(RULES);

/** Where a violation's message places the offending move: "on SEG at (x,y)". */
export function moveLocation(message) {
  const m = /\bon ((?:road|city|field|monastery|garden|flier)(?::[A-Z_.]+)?) at \((-?\d+),\s*(-?\d+)\)/.exec(String(message || ''));
  return m ? { segment: m[1], at: [Number(m[2]), Number(m[3])] } : null;
}
