/* river.c - The River and The River II as a unit, as JCloisterZone plays
 * them. The spring is the start tile; the river's tiles are drawn before
 * the rest of the pack (The River II's fork first, the lake or volcano
 * last: the tile groups of river.tiles, see tiles.h). A river edge meets
 * a river edge only (the edge kinds do that), a river tile continues the
 * river (one of its river edges meets one on the board), and the river
 * keeps room to flow on: for each of its river edges left open, the
 * square beyond it must have no tile beside it, and the square beyond that
 * none on it or beside it. That forbids a U-turn (two bends the same way
 * in a row) and any bend into other tiles. Nothing stands on a river.
 * Tiles: river.tiles. */
#include <stdio.h>

#include "core/game_int.h"

const struct feature_class feature_class_RIVER = {
    .name = "river", .done = DONE_NEVER,
};

/* The board sides of def turned rot that are river edges. */
static unsigned river_sides(int def, int rot)
{
    unsigned sides = 0;
    for (int side = 0; side < 4; side++)
        if (tile_edge(tile_get(def), rot, side) == FEAT_RIVER)
            sides |= 1u << side;
    return sides;
}

/* A square the river's run-out needs empty, or RULE_OK. */
static int blocked(const struct game *g, struct pos q, struct pos from,
                   char *why, size_t why_len)
{
    int t = game_tile_at(g, q);
    if (t < 0)
        return RULE_OK;
    snprintf(why, why_len, "the river leaving (%d,%d) would have no room to "
             "flow on: the tile at (%d,%d) is in its way (no U-turns)",
             from.x, from.y, q.x, q.y);
    return RULE_RIVER_FLOW;
}

static int check_place(const struct game *g, int def, struct pos p, int rot,
                       char *why, size_t why_len)
{
    const struct tile_def *t = tile_get(def);
    if (tile_group_rank(t->group) < 0)
        return RULE_OK; /* a tile the players hold: no draw, no river */
    if (!(g->groups >> t->group & 1)) {
        snprintf(why, why_len, "that tile cannot be drawn yet: %s",
                 g->groups >> TG_NONE & 1
                     ? "the river is finished"
                     : "the river's tiles come first, its lake last");
        return RULE_RIVER_ORDER;
    }
    unsigned sides = river_sides(def, rot), touching = 0;
    for (int d = 0; d < 4; d++)
        if ((sides >> d & 1) && game_tile_at(g, pos_step(p, d)) >= 0)
            touching |= 1u << d;
    if (sides && !touching) {
        snprintf(why, why_len, "the tile at (%d,%d) does not continue the "
                 "river: none of its river edges meets the river", p.x, p.y);
        return RULE_RIVER_FLOW;
    }
    for (int d = 0; d < 4; d++) {
        if (!(sides >> d & 1) || (touching >> d & 1))
            continue;
        struct pos a = pos_step(p, d), b = pos_step(a, d);
        struct pos around[5] = { pos_step(a, d + 1), pos_step(a, d + 3), b,
                                 pos_step(b, d + 1), pos_step(b, d + 3) };
        for (int i = 0; i < 5; i++) {
            int rule = blocked(g, around[i], p, why, why_len);
            if (rule != RULE_OK)
                return rule;
        }
    }
    return RULE_OK;
}

const struct expansion expansion_river = {
    .id = "river",
    .name = "The River",
    .check_place = check_place,
};
