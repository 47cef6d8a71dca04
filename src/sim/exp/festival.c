/* festival.c - The Festival in simulated and forged games:
 *   - after a festival tile, instead of the turn's action, with chance
 *     festival_return, one of the seat's figures on the board goes home.
 * Forgery: a figure taken back after a tile with no festival. */
#include "core/exp/festival.h"
#include "sim/exp/units.h"

enum { R_FESTIVAL_RETURN };
enum { T_FESTIVAL_RETURNS };

static const struct sim_rate rates[] = { { "festival_return", 0.5 },
                                         { NULL, 0 } };
static const char *const counts[] = { "festival_returns", NULL };

static bool try_festival_return(struct sim *s, int seat)
{
    struct game *g = s->g;
    int n = 0;
    for (int m = 0; m < g->n_meeples; m++)
        if (game_check_festival_return(g, seat, m, -1, NULL, 0) == RULE_OK)
            s->targets[n++] = m;
    if (n == 0 ||
        !sim_chance(s, sim_rate(s, EXP_FESTIVAL, R_FESTIVAL_RETURN)))
        return false;
    int m = s->targets[sim_below(s, n)];
    sim_emit_on(s, MV_FESTIVAL_RETURN, m, g->meeples[m].seg);
    game_festival_return(g, m);
    sim_tally(s, EXP_FESTIVAL, T_FESTIVAL_RETURNS);
    return true;
}

/* The turn's action, on a tile with no festival: a figure of the seat
 * taken back. */
static bool f_no_festival(struct forge *f)
{
    struct forge_state s;
    const struct game *g = forge_state_at(&s, f->in, f->place + 1);
    int mi = -1;
    bool festival = g->now.tile >= 0 &&
                    (tile_get(g->tiles[g->now.tile].def)->marks &
                     TILE_MARK(FESTIVAL));
    for (int i = 0; i < g->n_meeples && mi < 0 && !festival; i++)
        if (g->meeples[i].owner == f->seat && g->meeples[i].seg >= 0)
            mi = i;
    if (mi >= 0) {
        const struct seg *sg = &g->segs[g->meeples[mi].seg];
        struct move *m = forge_replace_action(f);
        char name[40];
        m->kind = MV_FESTIVAL_RETURN;
        m->at = game_tile_pos(g, sg->tile);
        m->feature = sg->kind;
        m->mask = sg->mask;
        forge_set_meeple(m, g, mi);
        seg_format(m->feature, m->mask, name, sizeof name);
        forge_how(f, "took a figure back from %s at (%d,%d) after a tile "
                  "with no festival", name, m->at.x, m->at.y);
    }
    forge_state_end(&s);
    return mi >= 0;
}

static const struct forger forgers[] = {
    { RULE_FESTIVAL_RETURN, f_no_festival, EXP_FESTIVAL, BY_NONE },
    { RULE_OK, NULL, -1, BY_NONE },
};

const struct sim_unit sim_festival = {
    .rates = rates,
    .counts = counts,
    .first_act = try_festival_return,
    .forgers = forgers,
};
