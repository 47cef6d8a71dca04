// rules.js - what each rule id means (docs/architecture.md), in the
// engine's order of precedence.
export const RULES = {
  TILE_UNKNOWN: 'No such tile id.',
  TILE_NOT_IN_PACK: 'The tile is not in the game\'s tile sets, or more copies were played than they hold.',
  TILE_NOT_DRAWN: 'The save\'s random number draws another tile here, one that fits: the tile was swapped.',
  TILE_OCCUPIED: 'The square already holds a tile.',
  TILE_NOT_ADJACENT: 'The tile has no orthogonal neighbour.',
  TILE_EDGE_MISMATCH: 'An edge of the tile does not match its neighbour.',
  ABBEY_PLACEMENT: 'An abbey outside a hole (a square with four neighbours), or by a player who holds none.',
  RIVER_ORDER: 'A tile of the river out of order: a tile of the pack while river tiles are left, or the lake before the river\'s other tiles.',
  RIVER_FLOW: 'A river tile that does not continue the river, or leaves it no room to flow on (a U-turn).',
  TILE_DISCARD_FITS: 'A tile was discarded although it fits somewhere.',
  MEEPLE_NONE_LEFT: 'The player has no such meeple in supply.',
  MEEPLE_NOT_ON_PLACED_TILE: 'A normal deployment must be on the tile just placed.',
  MEEPLE_FEATURE_OCCUPIED: 'A normal deployment on a feature that already holds a meeple.',
  MEEPLE_WRONG_TYPE: 'That meeple may not stand on that feature (or there is no such feature).',
  BUILDER_PLACEMENT: 'A builder goes on an unfinished road or city where its owner has a follower.',
  PIG_PLACEMENT: 'A pig goes on a field where its owner has a farmer.',
  BARN_PLACEMENT: 'A barn goes on a corner of the tile just placed where four fields meet, and not in a field with a barn.',
  MEEPLE_SECOND_DEPLOY: 'An action after the turn\'s one (with the phantom, after its second): a second deployment, flight or recall.',
  FLIER_NO_MACHINE: 'A flight from a tile without a flying machine.',
  FLIER_USED: 'The flying machine of this turn was already used (a phantom after another figure flew).',
  FLIER_BAD_ROLL: 'The die roll is outside 1 to 3.',
  FLIER_WRONG_TARGET: 'The flier landed on another tile than the one the roll points to.',
  FLIER_NO_TILE: 'The flier landed where there is no tile.',
  FLIER_FIELD: 'A flier never lands on a field.',
  FLIER_COMPLETED: 'A flier cannot land on a completed feature (including one completed this turn).',
  FLIER_BAD_FEATURE: 'The flier landed on a flying machine or on no feature.',
  FLIER_MUST_LAND: 'The meeple went back to supply although a valid landing existed.',
  ABBOT_RECALL: 'A recall of an abbot that is not the player\'s or not there.',
  WAGON_MOVE: 'A wagon moved when it was not waiting to, or to a feature it may not reach.',
  BUILDER_BONUS: 'The same player placed again without a builder\'s right to a second tile.',
  TURN_ORDER: 'The log names another player than the one on turn.',
  TURN_SEQUENCE: 'A message out of place (a deployment before any tile, moves after the last turn).',
  SCORE_MISMATCH: 'A claimed score differs from what the rules give.',
  TOWER_PLACEMENT: 'A tower floor where there is no tower, on a tower a follower tops, or with no piece left; or a follower on a tower with no floor.',
  TOWER_CAPTURE: 'A capture with no floor placed this turn, a second one, or of a figure out of the tower\'s sight (its row or column, up to its height).',
  TOWER_RANSOM: 'A ransom for a figure that is not the payer\'s own or is held by no one, a second one in a turn, or with fewer than 3 points.',
  FLIER_ON_TOWER: 'A flier landed on a tower, which is no feature to claim and score.',
  DRAGON_TILE: 'No figure is deployed on, or lands on, the square where the dragon stands.',
  DRAGON_MOVE: 'A dragon step to a square it may not go to (not beside it, no tile, the fairy\'s, visited in this move), when it does not move, or its move left unfinished.',
  FAIRY_PLACEMENT: 'The fairy goes beside a follower of the player on turn, instead of the turn\'s deployment.',
  PRINCESS: 'The princess sends home a knight of the city she joins, instead of the turn\'s deployment.',
  PORTAL: 'Through the magic portal only a follower goes, one a turn, and only to an unfinished feature.',
  QUARTER_DEPLOY: 'A follower goes into the City of Carcassonne only after the scoring, when others scored and the player on turn did not.',
  QUARTER_LEAVE: 'A follower leaves the City only onto a feature its quarter serves that the turn completed, before it scores, or at the end from the market onto a field; never from the count\'s quarter.',
  COUNT_MOVE: 'The count moves to another quarter only right after a follower went into the City, by that player.',
  FLIER_INTO_CITY: 'A flier never lands in the City of Carcassonne itself.',
};
export const RULE_IDS = Object.keys(RULES);

/** Where a violation's message places the offending move: "on SEG at (x,y)". */
export function moveLocation(message) {
  const m = /\bon ((?:road|city|field|monastery|garden|flier|river|tower|quarter)(?::[A-Za-z_.]+)?) at \((-?\d+),\s*(-?\d+)\)/.exec(String(message || ''));
  return m ? { segment: m[1], at: [Number(m[2]), Number(m[3])] } : null;
}
