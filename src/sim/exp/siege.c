/* siege.c - the siege in simulated and forged games:
 *   - after a turn's scoring (and the wagons' and the City's moves), the
 *     seat the engine asks (game_escape_seat()) takes one of its
 *     followers out of a besieged city (MV_ESCAPE) or declines
 *     (MV_PASS); no COMMIT follows.
 * Besieged cities score by the engine's rules: nothing to play.
 * Forgery: an escape after a turn that offered none. */
#include "core/exp/siege.h"
#include "sim/exp/units.h"

enum { R_ESCAPE };
enum { T_ESCAPES };

/* escape: take a follower out when offered (0: always decline). */
static const struct sim_rate rates[] = { { "escape", 0.5 }, { NULL, 0 } };
static const char *const counts[] = { "escapes", NULL };

static void escape_offer(struct sim *s)
{
    struct game *g = s->g;
    int seat = game_escape_seat(g), n = 0;
    if (seat < 0)
        return;
    for (int m = 0; m < g->n_meeples; m++)
        if (g->meeples[m].owner == seat && game_escapable(g, m))
            s->targets[n++] = m;
    if (n == 0 || !sim_chance(s, sim_rate(s, EXP_SIEGE, R_ESCAPE))) {
        sim_emit(s, MV_PASS);
        game_escape(g, -1);
        return;
    }
    int m = s->targets[sim_below(s, n)];
    sim_emit_on(s, MV_ESCAPE, m, g->meeples[m].seg);
    game_escape(g, m);
    sim_tally(s, EXP_SIEGE, T_ESCAPES);
}

/* ---- forgeries ---------------------------------------------------------- */

/* A follower of the player on turn (on the board) escapes after the
 * turn, where the log has nothing: no escape was offered. */
static bool f_escape(struct forge *f)
{
    struct forge_state s;
    size_t at = f->commit + 1;
    if (at >= f->in->n_moves || f->in->moves[at].kind != MV_PLACE)
        return false;
    const struct game *g = forge_state_at(&s, f->in, at);
    int mi = -1;
    for (int i = 0; i < g->n_meeples && mi < 0 && game_escape_seat(g) < 0;
         i++)
        if (g->meeples[i].owner == f->seat && g->meeples[i].seg >= 0 &&
            figure_class(g->meeples[i].kind)->follower)
            mi = i;
    if (mi >= 0) {
        const struct seg *sg = &g->segs[g->meeples[mi].seg];
        struct move *m = forge_insert(f->out, at);
        char name[40];
        m->kind = MV_ESCAPE;
        m->player = -1;
        m->tile = -1;
        m->draw = -1;
        m->at = game_tile_pos(g, sg->tile);
        m->feature = sg->kind;
        m->mask = sg->mask;
        forge_set_meeple(m, g, mi);
        seg_format(m->feature, m->mask, name, sizeof name);
        forge_how(f, "after the turn, a follower escaped from %s at "
                  "(%d,%d) with no escape offered", name, m->at.x, m->at.y);
    }
    forge_state_end(&s);
    return mi >= 0;
}

static const struct forger forgers[] = {
    { RULE_SIEGE_ESCAPE, f_escape, EXP_SIEGE, BY_NONE },
    { RULE_OK, NULL, -1, BY_NONE },
};

const struct sim_unit sim_siege = {
    .rates = rates,
    .counts = counts,
    .after = escape_offer,
    .forgers = forgers,
};
