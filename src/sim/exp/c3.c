/* c3.c - the C3 base game's abbot and gardens in simulated and forged
 * games: the edition's abbots and gardens, the abbot's recall
 * (MV_RECALL) as a turn's action when no deployment is made, and a
 * forged recall of an abbot that stands nowhere. */
#include "core/exp/c3.h"
#include "sim/exp/units.h"

#include <stdio.h>

enum { T_ABBOT_DEPLOYS, T_GARDEN_DEPLOYS };

static const char *const counts[] = { "abbot_deploys", "garden_deploys",
                                      NULL };

/* C3 gives each seat an abbot, and gardens. */
static void edition(struct rules *r, int edition)
{
    r->figures[FIG_ABBOT] = edition == 3;
    if (edition == 3)
        r->flags |= RF_GARDENS;
}

static void deployed(struct sim *s, int fig, int seg)
{
    if (fig == FIG_ABBOT)
        sim_tally(s, EXP_C3, T_ABBOT_DEPLOYS);
    if (s->g->segs[seg].kind == FEAT_GARDEN)
        sim_tally(s, EXP_C3, T_GARDEN_DEPLOYS);
}

/* Instead of a deployment: the seat's abbot taken back, when it is out
 * and the engine allows it, with chance recall_rate. */
static bool try_recall(struct sim *s, int seat)
{
    struct game *g = s->g;
    int mi;
    for (mi = 0; mi < g->n_meeples; mi++)
        if (g->meeples[mi].owner == seat && g->meeples[mi].kind == FIG_ABBOT &&
            g->meeples[mi].seg >= 0)
            break;
    if (mi == g->n_meeples ||
        game_check_action(g, FIG_ABBOT, NULL, 0) != RULE_OK ||
        !sim_chance(s, s->p->recall_rate))
        return false;
    sim_emit_on(s, MV_RECALL, mi, g->meeples[mi].seg);
    game_recall(g, mi);
    s->res->recalls++;
    return true;
}

static bool f_abbot_recall(struct forge *f)
{
    struct forge_state s;
    const struct game *g = forge_state_at(&s, f->in, f->place + 1);
    struct move *m = forge_replace_action(f);
    m->kind = MV_RECALL;
    m->at = game_tile_pos(g, g->now.tile);
    m->feature = FEAT_MONASTERY;
    m->meeple = FIG_ABBOT;
    m->meeple_n = 1;
    m->meeple_owner = (int8_t)f->seat;
    forge_state_end(&s);
    forge_how(f, "recalled an abbot from this turn's "
              "tile, where none stands");
    return true;
}

/* Forged in C2 games too: the recall names an abbot the game lacks. */
static const struct forger forgers[] = {
    { RULE_ABBOT_RECALL, f_abbot_recall, -1, BY_NONE },
    { RULE_OK, NULL, -1, BY_NONE },
};

const struct sim_unit sim_c3 = {
    .counts = counts,
    .edition = edition,
    .act = try_recall,
    .deployed = deployed,
    .forgers = forgers,
    .wrong_type_figure = FIG_ABBOT,
};
