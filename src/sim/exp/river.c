/* river.c - The River in forged games (its simulation is the engine's:
 * a river tile's placements are listed like any other): a tile of a
 * group drawn before its turn, and a river that cannot flow on. */
#include "sim/exp/units.h"

#include <stdio.h>

/* A tile of a group not open yet (a base tile while the river flows, the
 * lake before the river's other tiles) placed where its edges match. The
 * save cannot say what was drawn, so the draw is left unknown. */
static bool f_river_order(struct forge *f)
{
    struct forge_state s;
    const struct game *g = forge_state_at(&s, f->in, f->place);
    struct pos at = { 0, 0 };
    int pick = -1, rot = 0;
    /* tiles without a flying machine first: keep flights apart */
    for (int pass = 0; pass < 2 && pick < 0; pass++)
        for (int t = 0; t < tile_count() && t < TILE_KINDS && pick < 0; t++)
            if (g->pack[t] > 0 && !game_drawable(g, t) &&
                (pass || tile_get(t)->flier_dir == NO_FLIER) &&
                forge_find_spot(g, t, RULE_RIVER_ORDER, &at, &rot))
                pick = t;
    forge_state_end(&s);
    if (pick < 0)
        return false;
    struct move *m = &f->out->moves[f->place];
    m->tile = (int16_t)pick;
    snprintf(m->tile_id, sizeof m->tile_id, "%s", tile_get(pick)->id);
    m->at = at;
    m->rot = (uint8_t)rot;
    m->draw = -1;
    forge_how(f, "placed %s at (%d,%d) instead of %s, "
              "whose tile group is drawn first", m->tile_id, at.x, at.y,
              f->in->moves[f->place].tile_id);
    return true;
}

/* The turn's own river tile where its edges match but the river cannot
 * flow on (it does not continue the river, or turns back on itself). */
static bool f_river_flow(struct forge *f)
{
    struct forge_state s;
    const struct game *g = forge_state_at(&s, f->in, f->place);
    const struct move *m = &f->in->moves[f->place];
    struct pos at = { 0, 0 };
    int rot = 0;
    bool ok = m->tile >= 0 &&
              forge_find_spot(g, m->tile, RULE_RIVER_FLOW, &at, &rot);
    forge_state_end(&s);
    if (!ok)
        return false;
    f->out->moves[f->place].at = at;
    f->out->moves[f->place].rot = (uint8_t)rot;
    forge_how(f, "placed %s at (%d,%d) R%d, where the "
              "river cannot flow on", m->tile_id, at.x, at.y, 90 * rot);
    return true;
}

static const struct forger forgers[] = {
    { RULE_RIVER_ORDER, f_river_order, EXP_RIVER, BY_NONE },
    { RULE_RIVER_FLOW, f_river_flow, EXP_RIVER, BY_NONE },
    { RULE_OK, NULL, -1, BY_NONE },
};

const struct sim_unit sim_river = { .forgers = forgers };
