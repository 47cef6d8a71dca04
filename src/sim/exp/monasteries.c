/* monasteries.c - The Monasteries in simulated and forged games. The
 * generic player already deploys on, lands on and recalls from a special
 * monastery's abbot place (a segment a follower may take); this unit
 * counts those deployments and forges a figure that is no follower (a
 * builder, a pig) onto the abbot's place. */
#include "sim/exp/units.h"

enum { T_ABBOT_PLACE_DEPLOYS };

static const char *const counts[] = { "abbot_place_deploys", NULL };

static void deployed(struct sim *s, int fig, int seg)
{
    (void)fig;
    if (s->g->segs[seg].kind == FEAT_ABBOT_SEAT)
        sim_tally(s, EXP_MONASTERIES, T_ABBOT_PLACE_DEPLOYS);
}

/* A special monastery placed: a builder or pig of the seat in supply
 * onto its abbot's place, which takes followers only. */
static bool f_not_follower(struct forge *f)
{
    static const int figs[] = { FIG_BUILDER, FIG_PIG };
    struct forge_state s;
    const struct game *g = forge_state_at(&s, f->in, f->place + 1);
    int seg = game_find_seg(g, g->now.tile, FEAT_ABBOT_SEAT,
                            1u << SPOT_ABBOT);
    bool ok = false;
    char why[8];
    for (size_t i = 0; seg >= 0 && !ok && i < sizeof figs / sizeof *figs;
         i++) {
        int mi = game_meeple(g, f->seat, figs[i], 0);
        if (mi < 0 || game_check_deploy(g, f->seat, mi, seg, why,
                                        sizeof why) != RULE_MEEPLE_WRONG_TYPE)
            continue;
        struct move *m = forge_replace_action(f);
        m->kind = MV_DEPLOY;
        m->at = game_tile_pos(g, g->now.tile);
        m->feature = FEAT_ABBOT_SEAT;
        m->mask = 1u << SPOT_ABBOT;
        forge_set_meeple(m, g, mi);
        forge_how(f, "deployed a %s on a special monastery's abbot place",
                  figure_class(figs[i])->name);
        ok = true;
    }
    forge_state_end(&s);
    return ok;
}

static const struct forger forgers[] = {
    { RULE_MEEPLE_WRONG_TYPE, f_not_follower, EXP_TRADERS, BY_NONE },
    { RULE_OK, NULL, -1, BY_NONE },
};

const struct sim_unit sim_monasteries = {
    .counts = counts,
    .deployed = deployed,
    .forgers = forgers,
};
