/* dragon.h - The Princess & the Dragon: the dragon, the fairy, the princess
 * (exp/dragon.c).
 * What the auditor, the simulator and the tests ask of the unit and do
 * through it; the generic engine (game.h) never calls these. Pure. */
#ifndef CORE_EXP_DRAGON_H
#define CORE_EXP_DRAGON_H
#include <stdbool.h>
#include <stddef.h>

#include "core/game.h"

/* Where the dragon stands (false: not on the board yet). */
bool game_dragon_at(const struct game *g, struct pos *at);
/* Steps the dragon still takes this turn (0: it does not move now), the
 * seat that moves it next, and the squares it may step to (up to 4). */
int game_dragon_steps(const struct game *g);
int game_dragon_mover(const struct game *g);
int game_dragon_options(const struct game *g, struct pos out[4]);
/* May the dragon step to p now: RULE_OK or RULE_DRAGON_MOVE with why. */
enum rule game_check_dragon_step(const struct game *g, struct pos p,
                                 char *why, size_t why_len);
/* Moves the dragon one step to p and sends the figures there (but a
 * barn) back to supply; ends its move when it has no step left. */
void game_dragon_step(struct game *g, struct pos p);
/* Ends the dragon's move (the turn's COMMIT). */
void game_dragon_stop(struct game *g);
/* The fairy beside meeple m (on the board, the seat's follower), as the
 * turn's action: RULE_OK or RULE_FAIRY_PLACEMENT with why. */
enum rule game_check_fairy(const struct game *g, int player, int m,
                           char *why, size_t why_len);
void game_fairy(struct game *g, int m);
/* Where the fairy stands (false: not on the board yet), and the meeple
 * it stands beside (-1: none, the fairy alone since that one left). */
bool game_fairy_at(const struct game *g, struct pos *at);
int game_fairy_meeple(const struct game *g);
/* The princess sends knight m home from the city of the turn's tile that
 * holds her, as the turn's action: RULE_OK or RULE_PRINCESS with why. */
enum rule game_check_princess(const struct game *g, int m, char *why,
                              size_t why_len);
void game_princess(struct game *g, int m);

#endif
