/* watchtowers.c - The Watchtowers in simulated and forged games. Their
 * play is the engine's (the towers score by themselves, no move of their
 * own); what it forges is a wrong claim on a turn that scores a tower:
 * the tower's points claimed as if it counted one thing more around it
 * (one worth more), the turn's other events as computed. */
#include "sim/exp/units.h"

/* Does the log place a tile with a watchtower up to move `upto`? Cheap,
 * so that a full audit runs only in games that have one. */
static bool tower_placed(const struct forge *f)
{
    unsigned towers = TILE_MARK(WT_PENNANTS) | TILE_MARK(WT_MONASTERIES) |
                      TILE_MARK(WT_CITIES) | TILE_MARK(WT_ROADS) |
                      TILE_MARK(WT_MEEPLES);
    for (size_t i = 0; i <= f->place; i++) {
        const struct move *m = &f->in->moves[i];
        if (m->kind == MV_PLACE && m->tile >= 0 &&
            (tile_get(m->tile)->marks & towers))
            return true;
    }
    return false;
}

/* The turn's events claimed as computed, but a tower's points. */
static bool f_tower_claim(struct forge *f)
{
    if (!tower_placed(f))
        return false;
    struct report r;
    audit_run(f->in, NULL, &r, NULL);
    long tower = -1;
    for (size_t i = 0; i < r.n_events && tower < 0; i++)
        if (r.events[i].turn == f->turn &&
            r.events[i].feature == FEAT_WATCHTOWER)
            tower = (long)i;
    int worth = 0;
    if (tower >= 0 && r.events[tower].n_items &&
        r.events[tower].items[0].count > 0)
        worth = r.events[tower].items[0].points /
                r.events[tower].items[0].count;
    for (size_t i = 0; worth && i < r.n_events; i++) {
        const struct score_event *e = &r.events[i];
        if (e->turn != f->turn)
            continue;
        struct claim_event *c = game_log_push_claim(f->out);
        *c = (struct claim_event){ e->turn, e->players, e->feature,
                                   e->points,
                                   (uint32_t)f->out->n_claims - 1 };
        if ((long)i == tower)
            c->points += worth;
    }
    if (worth)
        forge_how(f, "claimed %d for a watchtower that scores %d: one "
                  "thing more counted around it",
                  r.events[tower].points + worth, r.events[tower].points);
    report_release(&r);
    return worth != 0;
}

static const struct forger forgers[] = {
    { RULE_SCORE_MISMATCH, f_tower_claim, EXP_WATCHTOWERS, BY_NONE },
    { RULE_OK, NULL, -1, BY_NONE },
};

const struct sim_unit sim_watchtowers = { .forgers = forgers };
