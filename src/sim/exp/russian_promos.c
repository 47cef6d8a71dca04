/* russian_promos.c - the Russian promos in simulated and forged games:
 *   - instead of the turn's action, a seat with a follower caught in a
 *     trap takes one back (MV_TRAP_RETURN), with chance trap_return.
 * The hut, the traps' catches and the Vodyanoy's toll are the engine's
 * (its lists of deployments and landings leave the Vodyanoy's tile out).
 * Forgeries: a follower taken "out of a trap" that no trap holds, and a
 * deployment on the Vodyanoy's own tile. */
#include "core/exp/russian_promos.h"
#include "sim/exp/units.h"

enum { R_TRAP_RETURN };
enum { T_TRAP_RETURNS, T_YAGA_DEPLOYS };

static const struct sim_rate rates[] = { { "trap_return", 0.5 },
                                         { NULL, 0 } };
static const char *const counts[] = { "trap_returns", "yaga_deploys",
                                      NULL };

static void deployed(struct sim *s, int fig, int seg)
{
    (void)fig;
    if (s->g->segs[seg].kind == FEAT_YAGA_HUT)
        sim_tally(s, EXP_RUSSIAN_PROMOS, T_YAGA_DEPLOYS);
}

/* Instead of a deployment: one of the seat's caught followers back. */
static bool try_trap_return(struct sim *s, int seat)
{
    struct game *g = s->g;
    int n = 0;
    for (int m = 0; m < g->n_meeples; m++)
        if (game_check_trap_return(g, seat, m, -1, NULL, 0) == RULE_OK)
            s->targets[n++] = m;
    if (n == 0 ||
        !sim_chance(s, sim_rate(s, EXP_RUSSIAN_PROMOS, R_TRAP_RETURN)))
        return false;
    int m = s->targets[sim_below(s, n)];
    sim_emit_on(s, MV_TRAP_RETURN, m, g->meeples[m].seg);
    game_trap_return(g, m);
    sim_tally(s, EXP_RUSSIAN_PROMOS, T_TRAP_RETURNS);
    return true;
}

/* ---- forgeries ---------------------------------------------------------- */

/* The turn's action: a follower of the seat standing free on the board
 * taken back as if from a trap. */
static bool f_trap_return(struct forge *f)
{
    struct forge_state s;
    const struct game *g = forge_state_at(&s, f->in, f->place + 1);
    int mi = -1;
    for (int i = 0; i < g->n_meeples && mi < 0; i++) {
        const struct meeple *m = &g->meeples[i];
        if (m->owner == f->seat && m->seg >= 0 &&
            figure_class(m->kind)->follower &&
            feature_class(g->segs[m->seg].kind)->claimable)
            mi = i;
    }
    if (mi >= 0) {
        const struct seg *sg = &g->segs[g->meeples[mi].seg];
        struct move *m = forge_replace_action(f);
        char name[40];
        m->kind = MV_TRAP_RETURN;
        m->at = game_tile_pos(g, sg->tile);
        m->feature = sg->kind;
        m->mask = sg->mask;
        forge_set_meeple(m, g, mi);
        seg_format(m->feature, m->mask, name, sizeof name);
        forge_how(f, "took a follower back from %s at (%d,%d) as if from "
                  "a trap, where none caught it", name, m->at.x, m->at.y);
    }
    forge_state_end(&s);
    return mi >= 0;
}

/* A follower deployed on the Vodyanoy's own tile, when the turn placed
 * it. */
static bool f_vodyanoy_tile(struct forge *f)
{
    return forge_deploy_refused(f, RULE_VODYANOY_TILE, FIG_SMALL, true);
}

static const struct forger forgers[] = {
    { RULE_TRAP_RETURN, f_trap_return, EXP_RUSSIAN_PROMOS, BY_NONE },
    { RULE_VODYANOY_TILE, f_vodyanoy_tile, EXP_RUSSIAN_PROMOS, BY_NONE },
    { RULE_OK, NULL, -1, BY_NONE },
};

const struct sim_unit sim_russian_promos = {
    .rates = rates,
    .counts = counts,
    .first_act = try_trap_return,
    .deployed = deployed,
    .forgers = forgers,
};
