/* cult.c - the shrines in forged games (their simulation is the
 * engine's: a tile's placements are listed with the unit's placement
 * rule, so a shrine or monastery that could go nowhere else is
 * discarded): a cloister placed beside cloisters of the other kind
 * where the rule forbids it. */
#include "sim/exp/units.h"

#include <stdio.h>

/* Does tile kind t hold a cloister (a monastery or a shrine)? */
static bool has_cloister(int t)
{
    const struct tile_def *d = tile_get(t);
    for (int i = 0; i < d->n_seg; i++)
        if (feat_is(d->seg[i].kind, FEAT_MONASTERY))
            return true;
    return false;
}

/* A tile with a cloister where its edges match but the placement rule of
 * the shrines forbids it: the turn's own tile when it has one (the pack
 * stays as drawn), else one from the pack (the draw left unknown). */
static bool f_shrine_placement(struct forge *f)
{
    struct forge_state s;
    const struct game *g = forge_state_at(&s, f->in, f->place);
    const struct move *in = &f->in->moves[f->place];
    struct pos at = { 0, 0 };
    int pick = -1, rot = 0;
    if (in->tile >= 0 && has_cloister(in->tile) &&
        forge_find_spot(g, in->tile, RULE_SHRINE_PLACEMENT, &at, &rot))
        pick = in->tile;
    for (int t = 0; t < tile_count() && t < TILE_KINDS && pick < 0; t++)
        if (g->pack[t] > 0 && t != in->tile && has_cloister(t) &&
            forge_find_spot(g, t, RULE_SHRINE_PLACEMENT, &at, &rot))
            pick = t;
    forge_state_end(&s);
    if (pick < 0)
        return false;
    struct move *m = &f->out->moves[f->place];
    if (pick != in->tile) {
        m->tile = (int16_t)pick;
        snprintf(m->tile_id, sizeof m->tile_id, "%s", tile_get(pick)->id);
        m->draw = -1;
    }
    m->at = at;
    m->rot = (uint8_t)rot;
    forge_how(f, "placed %s at (%d,%d) R%d, beside cloisters of the other "
              "kind where the shrines' rule forbids it", m->tile_id, at.x,
              at.y, 90 * rot);
    return true;
}

static const struct forger forgers[] = {
    { RULE_SHRINE_PLACEMENT, f_shrine_placement, EXP_CULT, BY_NONE },
    { RULE_OK, NULL, -1, BY_NONE },
};

const struct sim_unit sim_cult = { .forgers = forgers };
