/* phantom.c - The Phantom in forged games (its second action is the
 * simulator's generic extra action): a second figure flying from the
 * turn's flying machine. */
#include "sim/exp/units.h"

/* After the turn's flight (and its landing), a second figure the turn
 * allows (the phantom) flies from the same flying machine: the seeds'
 * clarification of 5/2013 forbids it. */
static bool f_flier_used(struct forge *f)
{
    struct forge_state s;
    const struct game *g = forge_state_at(&s, f->in, f->place + 1);
    size_t after = forge_legal_flight(f, g);
    forge_state_end(&s);
    if (!after)
        return false;
    const struct move first = f->out->moves[f->place + 1];
    g = forge_state_at(&s, f->out, after);
    int fig = -1, mi = -1;
    char why[8];
    for (int k = 0; k < FIG__COUNT && fig < 0; k++) {
        mi = game_meeple(g, f->seat, k, 0);
        if (k != first.meeple && mi >= 0 &&
            game_check_flight(g, k, why, sizeof why) == RULE_FLIER_USED)
            fig = k;
    }
    if (fig >= 0) {
        forge_remove(f->out, after, f->commit);
        struct move *m = forge_insert(f->out, after);
        m->kind = MV_DEPLOY;
        m->at = game_tile_pos(g, g->now.tile);
        m->feature = FEAT_FLIER;
        m->roll = 1 + f->turn % 3;
        forge_set_meeple(m, g, mi);
        f->flew = fig;
        forge_how(f, "after %s %s flew, %s %s flew from "
                  "the same flying machine",
                  forge_a_or_an(figure_class(first.meeple)->name),
                  figure_class(first.meeple)->name,
                  forge_a_or_an(figure_class(fig)->name),
                  figure_class(fig)->name);
    }
    forge_state_end(&s);
    return fig >= 0;
}

static const struct forger forgers[] = {
    { RULE_FLIER_USED, f_flier_used, EXP_PHANTOM, BY_NONE },
    { RULE_OK, NULL, -1, BY_NONE },
};

const struct sim_unit sim_phantom = { .forgers = forgers };
