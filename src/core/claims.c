/* claims.c - what players said they scored against what the rules give.
 *
 * Events are compared per turn as multisets of (players, feature, points):
 * order within a turn carries no meaning. Only turns for which the log
 * claims at least one event are compared event by event; claimed running
 * totals are compared wherever they are given. */
#include <stdio.h>
#include <string.h>

#include "core/audit_int.h"
#include "core/receipt.h"

static void names(const struct game_log *log, unsigned seats, char *out,
                  size_t len)
{
    seats_join(log, seats, " and ", out, len);
}

static int first_seat(unsigned seats)
{
    return seats ? __builtin_ctz(seats) : -1;
}

static bool same(const struct claim_event *c, const struct score_event *e)
{
    return c->players == e->players && c->feature == e->feature &&
           c->points == e->points;
}

/* "city 6 to Ben, road 3 to Ada" for the computed events of turn t. */
static void computed_list(const struct game_log *log, const struct report *r,
                          int t, char *out, size_t len)
{
    size_t n = 0;
    char who[160];
    out[0] = '\0';
    for (size_t i = 0; i < r->n_events && n < len; i++) {
        const struct score_event *e = &r->events[i];
        if (e->turn != t)
            continue;
        names(log, e->players, who, sizeof who);
        n += (size_t)snprintf(out + n, len - n, "%s%s %d to %s",
                              n ? ", " : "", feat_name(e->feature), e->points,
                              who);
    }
    if (!n)
        snprintf(out, len, "nothing");
}

/* Index of an unused computed event of turn t that c matches (exactly,
 * or only by feature and players when loose), or -1. */
static long find_event(const struct report *r, const bool *used, size_t n_ev,
                       int t, const struct claim_event *c, bool loose)
{
    for (size_t k = 0; k < n_ev; k++) {
        const struct score_event *e = &r->events[k];
        if (used[k] || e->turn != t)
            continue;
        if (loose ? c->players == e->players && c->feature == e->feature
                  : same(c, e))
            return (long)k;
    }
    return -1;
}

/* Matches the claims of turn t against its computed events: exact
 * matches first, then a claim and an event of the same feature and
 * players are one wrong claim; what is left on either side is reported as
 * such. Returns the feature of the first mismatch. */
static int check_turn(const struct game_log *log, struct report *r, int t)
{
    bool used[512] = { false }, done[512] = { false };
    int feature = FEAT_NONE;
    char who[160], list[300], receipt[400];
    size_t n_ev = r->n_events < 512 ? r->n_events : 512;
    size_t n_cl = log->n_claims < 512 ? log->n_claims : 512;
    uint32_t src = 0;
    for (int pass = 0; pass < 3; pass++) {
        for (size_t i = 0; i < n_cl; i++) {
            const struct claim_event *c = &log->claims[i];
            if (c->turn != t || done[i])
                continue;
            src = src ? src : c->src;
            long k = pass < 2 ? find_event(r, used, n_ev, t, c, pass == 1)
                              : -1;
            if (pass < 2 && k < 0)
                continue;
            done[i] = true;
            if (k >= 0)
                used[k] = true;
            if (pass == 0)
                continue;
            if (feature == FEAT_NONE)
                feature = c->feature;
            names(log, c->players, who, sizeof who);
            if (k >= 0) {
                receipt_format(log, r, (size_t)k, receipt, sizeof receipt);
                report_violation(r, t, first_seat(c->players),
                                 RULE_SCORE_MISMATCH, c->src,
                                 "claimed: %s %d to %s; the rules give %d "
                                 "(%s)", feat_name(c->feature), c->points,
                                 who, r->events[k].points, receipt);
            } else {
                computed_list(log, r, t, list, sizeof list);
                report_violation(r, t, first_seat(c->players),
                                 RULE_SCORE_MISMATCH, c->src,
                                 "claimed: %s %d to %s; the rules give %s",
                                 feat_name(c->feature), c->points, who, list);
            }
        }
    }
    for (size_t k = 0; k < n_ev; k++) {
        const struct score_event *e = &r->events[k];
        if (used[k] || e->turn != t)
            continue;
        if (feature == FEAT_NONE)
            feature = e->feature;
        receipt_format(log, r, k, receipt, sizeof receipt);
        report_violation(r, t, first_seat(e->players), RULE_SCORE_MISMATCH,
                         src, "nobody claimed what the rules give: %s",
                         receipt);
    }
    return feature;
}

static const int *computed_totals(const struct report *r, int t)
{
    if (t < 0)
        return r->score;
    if ((size_t)t < r->n_running)
        return r->running[t];
    return NULL;
}

/* Reports each seat whose claimed total differs; returns the seats. */
static unsigned check_total(const struct game_log *log, struct report *r,
                            const struct claim_total *c)
{
    const int *have = computed_totals(r, c->turn);
    unsigned bad = 0;
    if (!have)
        return 0;
    for (int p = 0; p < log->rules.n_players; p++) {
        if (!(c->seats & (1u << p)) || c->score[p] == have[p])
            continue;
        int d = c->score[p] - have[p];
        bad |= 1u << p;
        report_violation(r, c->turn, p, RULE_SCORE_MISMATCH, c->src,
                         "%s claims %d point%s %s; the rules give %d (%d %s)",
                         log->names[p], c->score[p], c->score[p] == 1 ? "" : "s",
                         c->turn < 0 ? "at the end" : "after this turn",
                         have[p], d < 0 ? -d : d, d < 0 ? "fewer" : "more");
    }
    return bad;
}

/* Turns sort with final scoring (-1) last. */
static long turn_key(int t)
{
    return t < 0 ? 1L << 30 : t;
}

struct bad_turn {
    int turn;
    int feature;
};

static void set_divergence(const struct game_log *log, struct report *r,
                           const struct claim_total *c, unsigned seats,
                           const struct bad_turn *cause)
{
    struct divergence *d = &r->divergence;
    const int *have = computed_totals(r, c->turn);
    d->found = true;
    d->turn = c->turn;
    d->seats = (uint8_t)seats;
    d->feature = (uint8_t)(cause ? cause->feature : FEAT_NONE);
    for (int p = 0; p < log->rules.n_players; p++) {
        d->claimed[p] = c->score[p];
        d->computed[p] = have[p];
    }
    char when[32];
    if (c->turn < 0)
        snprintf(when, sizeof when, "at final scoring");
    else
        snprintf(when, sizeof when, "after turn %d", c->turn);
    int n = snprintf(d->msg, sizeof d->msg,
                     "the claimed totals part from the rules %s:", when);
    for (int p = 0; p < log->rules.n_players && n > 0 &&
                    (size_t)n < sizeof d->msg; p++)
        if (seats & (1u << p))
            n += snprintf(d->msg + n, sizeof d->msg - (size_t)n,
                          " %s claims %d, the rules give %d (%+d);",
                          log->names[p], c->score[p], have[p],
                          c->score[p] - have[p]);
    if (n > 0 && (size_t)n < sizeof d->msg)
        d->msg[--n] = '\0'; /* the last ';' */
    if (cause && n > 0 && (size_t)n < sizeof d->msg) {
        if (cause->turn < 0)
            snprintf(d->msg + n, sizeof d->msg - (size_t)n,
                     "; cause: the %s claimed at final scoring",
                     feat_name(cause->feature));
        else
            snprintf(d->msg + n, sizeof d->msg - (size_t)n,
                     "; cause: the %s claimed at turn %d",
                     feat_name(cause->feature), cause->turn);
    }
}

void claims_check(const struct game_log *log, struct report *r)
{
    struct bad_turn bad[64];
    int n_bad = 0;
    if (log->n_claims == 0 && log->n_totals == 0)
        return;
    r->has_claims = true;
    /* event by event, turn by turn, in turn order */
    long done = -1;
    for (;;) {
        long next = -1;
        for (size_t i = 0; i < log->n_claims; i++) {
            long k = turn_key(log->claims[i].turn);
            if (k > done && (next < 0 || k < next))
                next = k;
        }
        if (next < 0)
            break;
        int t = next == 1L << 30 ? -1 : (int)next;
        int f = check_turn(log, r, t);
        if (f != FEAT_NONE && n_bad < 64)
            bad[n_bad++] = (struct bad_turn){ t, f };
        done = next;
    }
    /* running totals, in log order; the first that differs is where the
     * dispute starts, caused by the first bad claim since the last good
     * total */
    long last_good = -1;
    for (size_t i = 0; i < log->n_totals; i++) {
        const struct claim_total *c = &log->totals[i];
        unsigned seats = check_total(log, r, c);
        if (!seats) {
            if (!r->divergence.found)
                last_good = turn_key(c->turn);
            continue;
        }
        if (r->divergence.found)
            continue;
        const struct bad_turn *cause = NULL;
        for (int k = 0; k < n_bad && !cause; k++)
            if (turn_key(bad[k].turn) > last_good &&
                turn_key(bad[k].turn) <= turn_key(c->turn))
                cause = &bad[k];
        set_divergence(log, r, c, seats, cause);
    }
}
