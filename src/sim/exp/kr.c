/* kr.c - King & Robber in simulated and forged games. Its play is the
 * engine's (the cards change hands by themselves, no move takes them);
 * what it forges is a wrong claim on a turn that gives the player on turn
 * a card: points for the card claimed at once, as if it paid when taken
 * (under every variant but "continuously" it pays at the end, and then
 * for the completed features, not the one that won it). */
#include "sim/exp/units.h"

#include "core/exp/kr.h"

/* Which card turn f->turn gives its player (KR_KING, KR_ROBBER), or -1. */
static int card_taken(const struct forge *f)
{
    struct forge_state s;
    int before[2], taken = -1;
    const struct game *g = forge_state_at(&s, f->in, f->place);
    for (int c = 0; c < 2; c++)
        before[c] = kr_holder(g, c);
    forge_state_end(&s);
    g = forge_state_at(&s, f->in, f->commit + 1);
    for (int c = 0; c < 2 && taken < 0; c++)
        if (kr_holder(g, c) == f->seat && before[c] != f->seat)
            taken = c;
    forge_state_end(&s);
    return taken;
}

/* The turn's events claimed as computed, and one more: the card's. */
static bool f_card_claim(struct forge *f)
{
    if (f->in->rules.opt[OPT_KR_SCORING] == 3 /* continuously */)
        return false;
    int c = card_taken(f);
    if (c < 0)
        return false;
    struct report r;
    audit_run(f->in, NULL, &r, NULL);
    for (size_t i = 0; i < r.n_events; i++) {
        const struct score_event *e = &r.events[i];
        if (e->turn != f->turn)
            continue;
        struct claim_event *k = game_log_push_claim(f->out);
        *k = (struct claim_event){ e->turn, e->players, e->feature,
                                   e->points,
                                   (uint32_t)f->out->n_claims - 1 };
    }
    struct claim_event *k = game_log_push_claim(f->out);
    *k = (struct claim_event){ f->turn, (uint8_t)(1u << f->seat),
                               c == KR_KING ? FEAT_KING : FEAT_ROBBER, 1,
                               (uint32_t)f->out->n_claims - 1 };
    forge_how(f, "claimed a point for the %s at once, on the turn that "
              "gave it", c == KR_KING ? "king" : "robber baron");
    report_release(&r);
    return true;
}

static const struct forger forgers[] = {
    { RULE_SCORE_MISMATCH, f_card_claim, EXP_KR, BY_NONE },
    { RULE_OK, NULL, -1, BY_NONE },
};

const struct sim_unit sim_kr = { .forgers = forgers };
