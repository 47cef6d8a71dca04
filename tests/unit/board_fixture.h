/* board_fixture.h - quick positions for the engine's unit tests.
 *
 * Every game starts like a real one: BA/RCr at (0,0) R0 (road W-E, city
 * N, fields north and south of the road). Coordinates: x east, y SOUTH;
 * rotations are clockwise quarter turns. The helpers assert (cmocka) that
 * each step is legal, so a layout typo fails at the line that made it
 * instead of producing a quietly different board.
 *
 * Include after cmocka.h (the helpers use its assertions). */
#ifndef TESTS_BOARD_FIXTURE_H
#define TESTS_BOARD_FIXTURE_H
#include <stdbool.h>
#include <stdint.h>

#include "core/audit.h"
#include "core/game.h"
#include "core/log.h"

/* Seats, named after the colours the rule examples use. */
enum { RED = 0, BLUE = 1, YELLOW = 2, GREEN = 3 };

#define FX_FOLLOWERS 7

/* C2: basic:1 + flier:1, farmers on, 7 followers, no abbots. */
struct rules fx_rules_c2(int n_players);
/* C3: basic:2 + flier:2, farmers on, 7 followers, 1 abbot, gardens. */
struct rules fx_rules_c3(int n_players);
/* Adds one copy of a tile set (another expansion's) to r. */
void fx_add_set(struct rules *r, const char *set);

/* tile_find() that fails the test on an unknown id. */
int fx_tile(const char *id);

/* New game with the start tile placed (turn 0). Free with game_free(). */
struct game *fx_new(const struct rules *r);
/* The same with another start tile at (0,0) R0 (the River's RI/s). */
struct game *fx_new_from(const struct rules *r, const char *start);

/* Places `id` as the next turn's tile after asserting game_check_place()
 * says RULE_OK. Returns the placed tile's index. Does not end the turn. */
int fx_place(struct game *g, const char *id, int x, int y, int rot);
/* fx_place() followed by game_end_turn(): a filler tile, no meeple. */
int fx_play(struct game *g, const char *id, int x, int y, int rot);

/* Segment of kind `kind` on the tile at (x,y) whose mask holds every bit
 * of `mask` (0 for monastery, garden, flier). Fails the test if none. */
int fx_seg(const struct game *g, int x, int y, int kind, uint8_t mask);

/* Deploys player's next free meeple of `kind` (FIG_SMALL, FIG_ABBOT) on
 * seg after asserting game_check_deploy() == RULE_OK. Returns the meeple
 * index in g->meeples. */
int fx_deploy(struct game *g, int player, int kind, int seg);

/* Flight from this turn's tile: asserts game_check_flight() allows it,
 * counts the turn's action, and returns the valid landings for a figure
 * of `kind` at the target (segment indexes in out[], up to max). */
int fx_fly(struct game *g, int kind, int roll, struct pos *out_target,
           int *out, int max);
/* Lands player's free meeple of `kind` on seg at the flight's target
 * after asserting game_check_landing() == RULE_OK. Returns its index. */
int fx_land(struct game *g, int player, int kind, int seg,
            struct pos target);

/* Does list[0..n) hold seg? */
bool fx_has(const int *list, int n, int seg);

/* Number of g's meeples of player standing on the board. */
int fx_on_board(const struct game *g, int player);

/* --- game logs for the auditor ------------------------------------- */

/* One message, as a table row. `loc` is a location in loc_parse()
 * notation ("WE", "_S", "NL.NR", "I"). */
struct fx_step {
    int kind;         /* enum move_kind */
    int player;       /* seat the message names, -1 none */
    const char *tile; /* place, discard: tile id (unknown ids allowed) */
    int x, y, rot;    /* place: position; deploy, recall: feature's tile */
    int feat;         /* deploy, recall: enum feat */
    const char *loc;
    int meeple, n;    /* meeple kind and 1-based number, 0 = any */
    int owner;        /* seat in the meeple id, -1 none */
    int roll;         /* flight only */
    int neutral;      /* MV_NEUTRAL: the figure moved (FIG_DRAGON...) */
};

#define FX_PLACE(p, id, x, y, r) \
    { MV_PLACE, (p), (id), (x), (y), (r), 0, NULL, 0, 0, -1, 0, 0 }
#define FX_DISCARD(p, id) \
    { MV_DISCARD, (p), (id), 0, 0, 0, 0, NULL, 0, 0, -1, 0, 0 }
#define FX_DEPLOY(p, x, y, f, loc) \
    { MV_DEPLOY, (p), NULL, (x), (y), 0, (f), (loc), FIG_SMALL, 0, -1, 0, 0 }
#define FX_DEPLOY_N(p, x, y, f, loc, mk, n) \
    { MV_DEPLOY, (p), NULL, (x), (y), 0, (f), (loc), (mk), (n), (p), 0, 0 }
#define FX_FLY(p, x, y, roll) \
    { MV_DEPLOY, (p), NULL, (x), (y), 0, FEAT_FLIER, "I", FIG_SMALL, 0, -1, \
      (roll), 0 }
/* A flight by player p's figure mk number n (0: any in supply). */
#define FX_FLY_FIG(p, x, y, roll, mk, n) \
    { MV_DEPLOY, (p), NULL, (x), (y), 0, FEAT_FLIER, "I", (mk), (n), (p), \
      (roll), 0 }
#define FX_RECALL(p, x, y, f, mk) \
    { MV_RECALL, (p), NULL, (x), (y), 0, (f), "I", (mk), 1, (p), 0, 0 }
/* The Tower: a floor on the tower at (x,y); player p takes prisoner
 * owner's figure mk number n on feature f at (x,y); p buys back its own
 * mk number n. */
#define FX_TOWER(p, x, y) \
    { MV_TOWER, (p), NULL, (x), (y), 0, FEAT_TOWER, "I", 0, 0, -1, 0, 0 }
#define FX_CAPTURE(p, x, y, f, loc, owner, n) \
    { MV_CAPTURE, (p), NULL, (x), (y), 0, (f), (loc), FIG_SMALL, (n), \
      (owner), 0, 0 }
#define FX_RANSOM(p, n) \
    { MV_RANSOM, (p), NULL, 0, 0, 0, 0, NULL, FIG_SMALL, (n), (p), 0, 0 }
/* The count moved to quarter loc ("market") by player p. */
#define FX_COUNT_TO(p, loc) \
    { MV_NEUTRAL, (p), NULL, 0, 0, 0, FEAT_QUARTER, (loc), FIG_COUNT, 1, -1, \
      0, FIG_COUNT }
/* The dragon's step to (x, y); the fairy beside owner's follower n on a
 * feature; the princess sending owner's follower n home. */
#define FX_DRAGON(p, x, y) \
    { MV_NEUTRAL, (p), NULL, (x), (y), 0, 0, NULL, 0, 0, -1, 0, FIG_DRAGON }
#define FX_FAIRY(p, x, y, f, loc, owner, n) \
    { MV_NEUTRAL, (p), NULL, (x), (y), 0, (f), (loc), FIG_SMALL, (n), \
      (owner), 0, FIG_FAIRY }
#define FX_PRINCESS(p, x, y, f, loc, owner, n) \
    { MV_PRINCESS, (p), NULL, (x), (y), 0, (f), (loc), FIG_SMALL, (n), \
      (owner), 0, 0 }
#define FX_PASS(p) \
    { MV_PASS, (p), NULL, 0, 0, 0, 0, NULL, 0, 0, -1, 0, 0 }
#define FX_COMMIT(p) \
    { MV_COMMIT, (p), NULL, 0, 0, 0, 0, NULL, 0, 0, -1, 0, 0 }

/* Initialises l for rules r with BA/RCr at (0,0) R0 and players named
 * "p0", "p1", ... Release with game_log_release(). */
void fx_log_init(struct game_log *l, const struct rules *r);
/* The same, started as a unit lays the start out when r calls for it
 * (game_start_layout(): the City of Carcassonne, CO/7 at (0,0)). */
void fx_log_init_layout(struct game_log *l, const struct rules *r);
/* The audit of l's moves (audit_run without options); release with
 * report_release(). */
void fx_audit(const struct game_log *l, struct report *out);
/* Appends steps; each move's src is its index in the log. */
void fx_log_add(struct game_log *l, const struct fx_step *steps, size_t n);

/* Index of the first violation of `rule` in r, or -1. */
int fx_find_violation(const struct report *r, enum rule rule);

#endif
