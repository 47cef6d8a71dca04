/* game_int.h - shared among the engine's own files only: game.c and the
 * expansion units in src/core/exp/, which keep the rules they bring
 * (flights, recalls, the river's course) next to their data. */
#ifndef CORE_GAME_INT_H
#define CORE_GAME_INT_H
#include "core/game.h"

/* Root segment of seg's feature. */
static inline int game_root(const struct game *g, int seg)
{
    return g->segs[seg].parent;
}

/* The road/city/river segment on board side 0..3 of tile, or -1. */
int game_side_seg(const struct game *g, int tile, int side);
/* The field segment on board half-edge 0..7 (NL NR EL ER SL SR WL WR) of
 * tile, or -1. */
int game_half_seg(const struct game *g, int tile, int half);
/* Joins the features of tile ti across its board side to the tile
 * there, if any (a closed tile, the abbey, ends them): after a unit gave
 * ti's side a new segment (a bridge). */
void game_join_side(struct game *g, int ti, int side);
/* Joins the features of segments a and b, which meet on no side (a
 * tunnel's two ends): one feature from now on, with the open ends both
 * had (the unit closes what the join closes). */
void game_join_segs(struct game *g, int a, int b);
/* Re-forms the feature of seg from its segments joined across tile
 * sides only, after a link that joined them elsewhere went (a ferry
 * moved): it may fall apart into several features, each with its open
 * edges and figures. The other units join again their own links (the
 * reformed hook); the caller, with game_join_segs(), the links of its
 * own that stay. */
void game_split_feature(struct game *g, int seg);
/* The feature of seg was completed this turn away from the turn's tile
 * (a tunnel joined it): it scores with the turn's completed features. */
void game_note_done(struct game *g, int seg);
/* Tiles in the 3x3 block of tile, itself included. */
int game_block_count(const struct game *g, int tile);

/* A new score event of the current turn (zeroed but for turn). */
struct score_event *game_new_event(struct game *g);
/* Size, pennants, attributes and touched completed cities of the feature
 * of root into ev, with the receipt's refs. */
void game_measure(struct game *g, int root, struct score_event *ev);
/* Adds the tile of seg to ev's refs, for its receipt (a unit's event on
 * a tile, not a feature's). */
void game_event_ref(struct game *g, struct score_event *ev, int seg);
/* ev->points and items from the feature's class and the units in play. */
void game_score_points(const struct game *g, struct score_event *ev);

/* How a unit scores a feature its own way (a barn's field): the
 * expression, and the points (NULL: the feature class's). */
struct score_how {
    int expr;
    void (*score)(const struct rules *r, struct score_event *ev);
};

/* Scores the feature of seg for the majority of strength (ties all score;
 * a unit's bonus for a seat, like a pig's, makes that seat's own event);
 * followers of no strength give each of their seats a 0-point ".empty"
 * event. False, recording nothing, when no follower stands on it. roots:
 * the root of each meeple's feature (-1 in supply), or NULL. */
bool game_score_feature(struct game *g, int seg, bool completed, int turn,
                        const struct score_how *how, const int *roots);
/* Sends the figures on the feature of seg back to supply (all, or those
 * whose class does not stay: not a barn). */
void game_return_figures(struct game *g, int seg, bool all);

/* RULE_OK when seg lies on the turn's tile, else
 * RULE_MEEPLE_NOT_ON_PLACED_TILE with why. */
enum rule game_check_on_tile(const struct game *g, int seg, char *why,
                             size_t why_len);
/* How many segments of seg's feature carry each attribute. */
void game_feature_attrs(const struct game *g, int seg,
                        uint8_t attrs[SA__COUNT]);

/* The rest of game_end_turn() once a unit held the scoring (g->held):
 * scores the completed features, returns their figures, moves the turn
 * on. */
void game_finish_turn(struct game *g);

/* Puts meeple m on seg (-1: back in supply), counting no action: a
 * wagon's move after its feature scored. */
void game_put(struct game *g, int m, int seg);
/* What the units say of figure fig standing on seg now (the dragon's
 * tile): RULE_OK or their rule with why. */
enum rule game_check_stand(const struct game *g, int fig, int seg, char *why,
                           size_t why_len);
/* A unit's state in g: its own struct, which must fit. */
#define UNIT_STATE(g, id, type)                                            \
    ((type *)(void *)(g)->unit_state[id])
#define UNIT_STATE_FITS(type)                                              \
    _Static_assert(sizeof(type) <= UNIT_STATE_WORDS * 8,                   \
                   #type " fits struct game.unit_state")

/* Calls `hook` of every unit in play that has it, in registry order:
 *   FOR_UNITS(g, u, hook) { ... u->hook(...) ... } */
/* One word folded into a state fingerprint (game_hash(), units' hash). */
uint64_t game_hash_mix(uint64_t h, int64_t v);

#define FOR_UNITS(g, u, hook)                                              \
    if (!((g)->hooked >> HOOK_##hook & 1)) {                               \
    } else                                                                 \
        for (int u##_i = 0; u##_i < (g)->n_units; u##_i++)                 \
            for (const struct expansion *u = (g)->unit[u##_i];             \
                 u && u->hook; u = NULL)

#endif
