/* tower.h - The Tower: floors, prisoners, ransoms (exp/tower.c).
 * What the auditor, the simulator and the tests ask of the unit and do
 * through it; the generic engine (game.h) never calls these. Pure. */
#ifndef CORE_EXP_TOWER_H
#define CORE_EXP_TOWER_H
#include <stdbool.h>
#include <stddef.h>

#include "core/game.h"

/* Floors of the tower on tile (0: a foundation, or no tower); tower
 * pieces seat still holds; the seat holding meeple m prisoner, or -1. */
int game_tower_height(const struct game *g, int tile);
int game_tower_pieces(const struct game *g, int seat);
int game_meeple_jailer(const struct game *g, int m);
/* May player put a floor on the tower at `at` as the turn's action:
 * RULE_OK, or the rule against it (an action taken already; no tower
 * there, a follower on top, no piece left: RULE_TOWER_PLACEMENT). */
enum rule game_check_tower(const struct game *g, int player, struct pos at,
                           char *why, size_t why_len);
/* Puts player's piece on the tower at `at` (counts the turn's action). */
void game_raise_tower(struct game *g, int player, struct pos at);
/* The followers (meeple indexes) this turn's floor may take prisoner: in
 * its row or column, at most its height away. Returns the count (stores
 * up to max); 0 when no floor was placed or the capture is done. */
int game_capture_options(const struct game *g, int *out, int max);
/* May this turn's floor take meeple m, standing on seg, prisoner? RULE_OK
 * or RULE_TOWER_CAPTURE with why. */
enum rule game_check_capture(const struct game *g, int m, int seg,
                             char *why, size_t why_len);
/* The player passes instead of taking a prisoner after this turn's
 * floor (a pass that ends no action phase). */
void game_capture_declined(struct game *g);
/* capturer takes meeple m: their own goes back to supply; another's is
 * held, or exchanged at once for one of capturer's that m's owner holds. */
void game_capture(struct game *g, int capturer, int m);
/* After a capture whose victim holds the capturer's followers of several
 * kinds, the capturer picks the one exchanged (JCloisterZone's
 * EXCHANGE_FOLLOWER): the choices (the earliest held of each kind), the
 * check (RULE_TOWER_CAPTURE when m is none of them or nothing waits) and
 * the exchange (both go home). */
int game_exchange_options(const struct game *g, int *out, int max);
enum rule game_check_exchange(const struct game *g, int m, char *why,
                              size_t why_len);
void game_exchange(struct game *g, int m);
/* May player buy prisoner m back now (their own, once a turn)? */
enum rule game_check_ransom(const struct game *g, int player, int m,
                            char *why, size_t why_len);
/* m's owner pays its jailer 3 points (two "ransom" score events) and m
 * goes back to supply. */
void game_pay_ransom(struct game *g, int m);

#endif
