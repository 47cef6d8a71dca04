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
/* Tiles in the 3x3 block of tile, itself included. */
int game_block_count(const struct game *g, int tile);

/* A new score event of the current turn (zeroed but for turn). */
struct score_event *game_new_event(struct game *g);
/* Size, pennants, attributes and touched completed cities of the feature
 * of root into ev, with the receipt's refs. */
void game_measure(struct game *g, int root, struct score_event *ev);
/* ev->points and items from the feature's class and the units in play. */
void game_score_points(const struct game *g, struct score_event *ev);

/* Calls `hook` of every unit in play that has it, in registry order:
 *   FOR_UNITS(g, u, hook) { ... u->hook(...) ... } */
#define FOR_UNITS(g, u, hook)                                              \
    for (int u##_i = (g)->hooked >> HOOK_##hook & 1 ? 0 : EXP__COUNT;     \
         u##_i < (g)->n_units; u##_i++)                                    \
        for (const struct expansion *u = (g)->unit[u##_i]; u && u->hook;   \
             u = NULL)

#endif
