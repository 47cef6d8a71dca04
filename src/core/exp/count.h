/* count.h - The Count of Carcassonne: the City's followers, the count
 * (exp/count.c).
 * What the auditor, the simulator and the tests ask of the unit and do
 * through it; the generic engine (game.h) never calls these. Pure. */
#ifndef CORE_EXP_COUNT_H
#define CORE_EXP_COUNT_H
#include <stdbool.h>
#include <stddef.h>

#include "core/game.h"

/* Before a turn's completed features score (g->held), the players, in
 * seat order from the one after the player on turn round to that
 * player, may move followers out of a quarter of the City onto a
 * feature of the quarter's kind the turn completed: the seat to decide
 * now, or -1. */
int game_city_held_seat(const struct game *g);
/* After the scoring: the seat (the one whose turn it was) offered to
 * send a follower into a quarter, because others scored and it did not;
 * -1 when none. Then the seat that moves the count, -1 when none. */
int game_city_offer(const struct game *g);
int game_city_count_mover(const struct game *g);
/* At the end, before the final scoring: may anyone take a follower out
 * of the City (the market's, onto a field)? */
bool game_city_final_open(const struct game *g);
/* Meeple m (of `player`) sent into the quarter seg: RULE_OK or
 * RULE_QUARTER_DEPLOY with why. */
enum rule game_check_quarter_deploy(const struct game *g, int player, int m,
                                    int seg, char *why, size_t why_len);
/* Meeple m out of its quarter onto seg (held: before the turn's scoring;
 * else at the end): RULE_OK or RULE_QUARTER_LEAVE with why. */
enum rule game_check_quarter_leave(const struct game *g, int player, int m,
                                   int seg, char *why, size_t why_len);
/* The count to the quarter seg by `player`: RULE_OK or RULE_COUNT_MOVE. */
enum rule game_check_count_move(const struct game *g, int player, int seg,
                                char *why, size_t why_len);
/* Applies them: the offer taken (m >= 0 onto seg) or declined (m < 0);
 * a follower out of the City (m < 0: the seat deciding passes; while
 * held, the scoring follows when nobody is left to decide); the count
 * moved (seg < 0: it stays). */
void game_quarter_deploy(struct game *g, int m, int seg);
void game_quarter_leave(struct game *g, int m, int seg);
void game_count_move(struct game *g, int seg);
/* Ends a held scoring with nobody moving any more (the log goes on). */
void game_city_release(struct game *g);
/* The quarter the count stands in (its segment), -1 without the City. */
int game_count_seg(const struct game *g);

#endif
