/* labyrinth.c - The Labyrinth as a unit, as JCloisterZone plays it.
 *
 * Its one tile (LA/Rrrr) carries one road through the labyrinth to its
 * four sides (the segment attribute "labyrinth"): the road is complete
 * when every arm leading in is closed, and an unfinished one scores its
 * tiles at the end as any road. The roads leading in are not visibly
 * connected, so a follower may be deployed on an arm although another
 * arm holds figures: only those on the part of the road that the arm
 * reaches without passing through the labyrinth keep it off. In the
 * advanced variant (labyrinth-variant, JCloisterZone's default) each
 * winner of a completed road through the labyrinth scores 2 more for
 * each follower of theirs on it. Tiles: labyrinth.tiles. */
#include <stdlib.h>

#include "core/exp/labyrinth.h"
#include "core/game_int.h"

enum { FOLLOWER_POINTS = 2 };

/* Whether the labyrinth's segment stands in the way of the walk. */
static bool is_labyrinth(const struct game *g, int seg)
{
    return g->segs[seg].attrs & SA_LABYRINTH;
}

/* Figures on the part of seg's feature reached from seg across the
 * sides its segments share, not through a labyrinth (whose own figures
 * count: they stand where every arm meets); -1 when the walk cannot
 * keep its marks. Edges only: what another unit joins otherwise (a
 * tunnel) is not followed. */
static int figures_this_side(const struct game *g, int seg)
{
    int n_segs = g->n_segs, top = 0, n = 0;
    uint8_t *seen = calloc((size_t)n_segs, 1);
    int *stack = malloc(sizeof *stack * (size_t)n_segs);
    if (!seen || !stack) {
        free(seen);
        free(stack);
        return -1;
    }
    seen[seg] = 1;
    stack[top++] = seg;
    while (top > 0) {
        int s = stack[--top];
        const struct seg *sp = &g->segs[s];
        struct pos at = game_tile_pos(g, sp->tile);
        for (unsigned m = sp->mask & 15u; m; m &= m - 1) {
            int side = __builtin_ctz(m);
            int t = game_tile_at(g, pos_step(at, side));
            int o = t < 0 ? -1 : game_side_seg(g, t, (side + 2) & 3);
            if (o < 0 || seen[o])
                continue;
            seen[o] = 1;
            if (!is_labyrinth(g, o))
                stack[top++] = o;
        }
    }
    for (int i = 0; i < g->n_meeples; i++) {
        int s = g->meeples[i].seg;
        n += s >= 0 && seen[s];
    }
    free(seen);
    free(stack);
    return n;
}

bool game_labyrinth_arm(const struct game *g, int seg)
{
    if (seg < 0 || seg >= g->n_segs || g->segs[seg].kind != FEAT_ROAD ||
        is_labyrinth(g, seg))
        return false;
    uint8_t attrs[SA__COUNT];
    game_feature_attrs(g, seg, attrs);
    return attrs[SA_BIT_LABYRINTH] > 0;
}

/* A deployment on an arm of an occupied road through the labyrinth:
 * allowed when no figure stands on that arm's side of it. */
static bool excuse_occupied(const struct game *g, int seg)
{
    return game_labyrinth_arm(g, seg) && figures_this_side(g, seg) == 0;
}

/* The advanced variant: 2 for each of winner p's followers on a
 * completed road through the labyrinth. */
static int bonus(const struct game *g, const struct score_event *ev,
                 int root, int p, struct score_item *item)
{
    if (!ev->completed || ev->feature != FEAT_ROAD ||
        !ev->attrs[SA_BIT_LABYRINTH] || !g->rules.opt[OPT_LABYRINTH_VARIANT])
        return 0;
    int n = 0;
    for (int i = 0; i < g->n_meeples; i++) {
        const struct meeple *m = &g->meeples[i];
        n += m->owner == p && m->seg >= 0 && game_root(g, m->seg) == root &&
             figure_class(m->kind)->follower;
    }
    if (!n)
        return 0;
    *item = (struct score_item){ SI_LABYRINTH, (int16_t)n,
                                 (int16_t)(n * FOLLOWER_POINTS) };
    return n * FOLLOWER_POINTS;
}

const struct expansion expansion_labyrinth = {
    .id = "labyrinth",
    .name = "The Labyrinth",
    .excuse_occupied = excuse_occupied,
    .bonus = bonus,
};
