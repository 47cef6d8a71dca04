/* hs.h - Hills & Sheep's own calls, for the simulator and tests. */
#ifndef CORE_EXP_HS_H
#define CORE_EXP_HS_H
#include <stdbool.h>
#include <stddef.h>

#include "core/game.h"

/* The number the turn's tile was drawn with (-1: unknown): a shepherd
 * deployed in the turn draws its token with the generator's next. */
void game_hs_turn_random(struct game *g, double r);
/* After the turn's action: the tokens of shepherds deployed in it, the
 * choices due, the flocks of closed fields scored (once a turn). */
void game_hs_enter(struct game *g);
/* The shepherd whose flock awaits its owner's choice, or -1. */
int game_hs_pending(const struct game *g);
/* May player choose for the flock now? RULE_OK or RULE_FLOCK with why. */
enum rule game_check_flock(const struct game *g, int player, char *why,
                           size_t why_len);
/* The choice: expand (a token drawn with r) or bring the flock home. */
void game_hs_flock(struct game *g, bool expand, double r);
/* The sheep of shepherd meeple m's flock. */
int game_hs_flock_size(const struct game *g, int m);

#endif
