/* darmstadt.c - Darmstadt in simulated and forged games. Its play is the
 * engine's (a church is a monastery: deployments and landings on it are
 * listed like any other); what it forges is a wrong claim of the church
 * bonus, on a turn that completes a church: the bonus claimed for a
 * player without the most followers on its block, or, when every player
 * ties, for one of them alone. */
#include "sim/exp/units.h"

#include <stdio.h>

/* Does tile def hold a church? */
static bool church_tile(int def)
{
    const struct tile_def *t = tile_get(def);
    for (int i = 0; t && i < t->n_seg; i++)
        if (t->seg[i].attrs & SA_CHURCH)
            return true;
    return false;
}

/* May turn f->turn complete a church: its tile is one, or lies beside one
 * placed before it? Cheap, from the log alone, so that a full audit runs
 * only on such turns. */
static bool near_church(const struct forge *f)
{
    const struct move *now = &f->in->moves[f->place];
    for (size_t i = 0; i <= f->place; i++) {
        const struct move *m = &f->in->moves[i];
        if (m->kind == MV_PLACE && m->tile >= 0 && church_tile(m->tile) &&
            m->at.x >= now->at.x - 1 && m->at.x <= now->at.x + 1 &&
            m->at.y >= now->at.y - 1 && m->at.y <= now->at.y + 1)
            return true;
    }
    return false;
}

/* The claimed winners of church event e: a loser added, or a tie cut
 * to its first seat; 0 when neither can be done. */
static unsigned wrong_winners(const struct score_event *e, int n_players)
{
    unsigned all = n_players >= 32 ? ~0u : (1u << n_players) - 1;
    unsigned losers = all & ~(unsigned)e->players;
    if (losers)
        return e->players | (losers & -losers);
    if (__builtin_popcount(e->players) > 1)
        return e->players & -(unsigned)e->players;
    return 0;
}

/* The turn's events claimed as computed, but the church's winners. */
static bool f_church_claim(struct forge *f)
{
    if (!near_church(f))
        return false;
    struct report r;
    audit_run(f->in, NULL, &r, NULL);
    long church = -1;
    for (size_t i = 0; i < r.n_events && church < 0; i++)
        if (r.events[i].turn == f->turn &&
            r.events[i].feature == FEAT_CHURCH)
            church = (long)i;
    unsigned wrong = church < 0 ? 0
                                : wrong_winners(&r.events[church],
                                                f->in->rules.n_players);
    for (size_t i = 0; wrong && i < r.n_events; i++) {
        const struct score_event *e = &r.events[i];
        if (e->turn != f->turn)
            continue;
        struct claim_event *c = game_log_push_claim(f->out);
        *c = (struct claim_event){ e->turn, e->players, e->feature,
                                   e->points,
                                   (uint32_t)f->out->n_claims - 1 };
        if ((long)i == church)
            c->players = (uint8_t)wrong;
    }
    if (wrong)
        forge_how(f, "claimed the church bonus for %s players than have "
                  "the most followers on its block",
                  wrong & ~(unsigned)r.events[church].players ? "more"
                                                              : "fewer");
    report_release(&r);
    return wrong != 0;
}

static const struct forger forgers[] = {
    { RULE_SCORE_MISMATCH, f_church_claim, EXP_DARMSTADT, BY_NONE },
    { RULE_OK, NULL, -1, BY_NONE },
};

const struct sim_unit sim_darmstadt = { .forgers = forgers };
