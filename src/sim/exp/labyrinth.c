/* labyrinth.c - The Labyrinth in simulated games:
 *   - as the turn's first action, with chance labyrinth_arm, a follower
 *     on an arm of the turn's tile leading into the labyrinth whose road
 *     holds figures already, but none on that arm's side: the one
 *     deployment the labyrinth allows that other roads do not, which a
 *     random pick among all would seldom make.
 * No forgery of its own: an arm whose side is occupied is refused as any
 * occupied feature is, which the generic forgery makes. */
#include "core/exp/labyrinth.h"
#include "sim/exp/units.h"

enum { R_ARM };
enum { T_ARMS };

static const struct sim_rate rates[] = { { "labyrinth_arm", 0.8 },
                                         { NULL, 0 } };
static const char *const counts[] = { "labyrinth_arms", NULL };

/* A deployment that only the labyrinth allows: on an arm of a road that
 * holds figures. */
static bool arm_of_occupied(const struct game *g, int seg)
{
    return game_labyrinth_arm(g, seg) && game_feature_meeples(g, seg, NULL);
}

static bool first_act(struct sim *s, int seat)
{
    struct game *g = s->g;
    int mi = game_meeple(g, seat, FIG_SMALL, 0), n = 0;
    if (mi < 0 || g->now.tile < 0)
        return false;
    const struct placed *pl = &g->tiles[g->now.tile];
    for (int i = pl->seg0; i < pl->seg0 + pl->n_seg; i++)
        if (arm_of_occupied(g, i) &&
            game_check_deploy(g, seat, mi, i, NULL, 0) == RULE_OK)
            s->targets[n++] = i;
    if (n == 0 || !sim_chance(s, sim_rate(s, EXP_LABYRINTH, R_ARM)))
        return false;
    int seg = s->targets[sim_below(s, n)];
    sim_emit_on(s, MV_DEPLOY, mi, seg);
    s->res->deploys++;
    s->res->deploys_by[FIG_SMALL]++;
    game_deploy(g, mi, seg);
    sim_tally(s, EXP_LABYRINTH, T_ARMS);
    return true;
}

/* A generic deployment that happened to be such a one. */
static void deployed(struct sim *s, int fig, int seg)
{
    (void)fig;
    if (game_labyrinth_arm(s->g, seg) &&
        game_feature_meeples(s->g, seg, NULL) > 1)
        sim_tally(s, EXP_LABYRINTH, T_ARMS);
}

const struct sim_unit sim_labyrinth = {
    .rates = rates,
    .counts = counts,
    .first_act = first_act,
    .deployed = deployed,
};
