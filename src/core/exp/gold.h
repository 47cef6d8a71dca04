/* gold.h - what the simulator and the tests ask the Gold Mines unit
 * (gold.c). Pure. */
#ifndef CORE_EXP_GOLD_H
#define CORE_EXP_GOLD_H
#include <stdbool.h>
#include <stddef.h>

#include "core/game.h"

/* The gold bars lying on the square at, and those seat holds. */
int gold_bars_at(const struct game *g, struct pos at);
int gold_held(const struct game *g, int seat);
/* Does a gold mine placed this turn wait for its second bar (where, in
 * *mine, may be NULL)? */
bool gold_pending(const struct game *g, struct pos *mine);
/* The squares that bar may go on (tiles around the mine) into out; how
 * many (0 when none waits). */
int gold_second_squares(const struct game *g, struct pos out[8]);
/* May the second bar go on the square at now? RULE_OK, or RULE_GOLD /
 * RULE_TURN_SEQUENCE with why. */
enum rule game_check_gold(const struct game *g, struct pos at, char *why,
                          size_t why_len);
/* Puts it there. */
void game_gold(struct game *g, struct pos at);
/* What bars held at the end score. */
int gold_points(int bars);

#endif
