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
#include "core/text.h"

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

/* Turns sort with final scoring (-1) last. */
static long turn_key(int t)
{
    return t < 0 ? 1L << 30 : t;
}

static bool turn_has_claims(const struct game_log *log, int t)
{
    for (size_t i = 0; i < log->n_claims; i++)
        if (log->claims[i].turn == t)
            return true;
    return false;
}

/* How far the claimed events of the turns up to t (those the log claims
 * events for) put each seat's claimed total from the computed one: a
 * total off by this much is off because of claims already reported. */
static void claimed_drift(const struct game_log *log, const struct report *r,
                          int t, int drift[GAME_MAX_PLAYERS])
{
    memset(drift, 0, GAME_MAX_PLAYERS * sizeof *drift);
    for (size_t i = 0; i < log->n_claims; i++) {
        const struct claim_event *c = &log->claims[i];
        if (turn_key(c->turn) > turn_key(t))
            continue;
        for (int p = 0; p < GAME_MAX_PLAYERS; p++)
            if (c->players & (1u << p))
                drift[p] += c->points;
    }
    for (size_t k = 0; k < r->n_events; k++) {
        const struct score_event *e = &r->events[k];
        if (turn_key(e->turn) > turn_key(t) ||
            !turn_has_claims(log, e->turn))
            continue;
        for (int p = 0; p < GAME_MAX_PLAYERS; p++)
            if (e->players & (1u << p))
                drift[p] -= e->points;
    }
}

/* The seats whose claimed total differs. Each difference that an
 * earlier wrong claim does not explain is a violation of its own; one
 * it explains (a claimed city 2 points too many leaves every later total
 * 2 points high) is its consequence, counted once, with that claim.
 * carried[]: what earlier totals' own violations left over. */
static unsigned check_total(const struct game_log *log, struct report *r,
                            const struct claim_total *c, int *carried)
{
    const int *have = computed_totals(r, c->turn);
    int drift[GAME_MAX_PLAYERS];
    unsigned bad = 0;
    if (!have)
        return 0;
    claimed_drift(log, r, c->turn, drift);
    for (int p = 0; p < log->rules.n_players; p++) {
        if (!(c->seats & (1u << p)))
            continue;
        int d = c->score[p] - have[p], expected = drift[p] + carried[p];
        /* a total right again resets what the next one is held to */
        carried[p] = d - drift[p];
        if (d == 0)
            continue;
        bad |= 1u << p;
        if (d == expected)
            continue;
        report_violation(r, c->turn, p, RULE_SCORE_MISMATCH, c->src,
                         "%s claims %d point%s %s; the rules give %d (%d %s)",
                         log->names[p], c->score[p], c->score[p] == 1 ? "" : "s",
                         c->turn < 0 ? "at the end" : "after this turn",
                         have[p], d < 0 ? -d : d, d < 0 ? "fewer" : "more");
    }
    return bad;
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

/* The later totals that are off only because of claims already
 * reported, said once instead of once each: "; the totals claimed after
 * turns 12, 29 and 48 and at the end are off as a consequence". turns:
 * -1 for the end. */
static void say_later(struct divergence *d, const int *turns, size_t n)
{
    struct text m = { d->msg, sizeof d->msg, strlen(d->msg) };
    size_t n_turns = n - (turns[n - 1] < 0);
    text_put(&m, "; the totals claimed ");
    for (size_t i = 0; i < n_turns; i++) {
        text_put(&m, i == 0 ? (n_turns > 1 ? "after turns " : "after turn ")
                     : i + 1 == n_turns ? " and " : ", ");
        text_int(&m, turns[i]);
    }
    text_put(&m, n_turns && n_turns < n ? " and at the end"
                 : n_turns ? "" : "at the end");
    text_put(&m, " are off as a consequence");
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
    int carried[GAME_MAX_PLAYERS] = { 0 }, after[256];
    size_t n_after = 0;
    for (size_t i = 0; i < log->n_totals; i++) {
        const struct claim_total *c = &log->totals[i];
        size_t before = r->n_violations;
        unsigned seats = check_total(log, r, c, carried);
        if (!seats) {
            if (!r->divergence.found)
                last_good = turn_key(c->turn);
            continue;
        }
        if (r->divergence.found) {
            if (r->n_violations == before &&
                n_after < sizeof after / sizeof after[0])
                after[n_after++] = c->turn;
            continue;
        }
        const struct bad_turn *cause = NULL;
        for (int k = 0; k < n_bad && !cause; k++)
            if (turn_key(bad[k].turn) > last_good &&
                turn_key(bad[k].turn) <= turn_key(c->turn))
                cause = &bad[k];
        set_divergence(log, r, c, seats, cause);
    }
    if (n_after)
        say_later(&r->divergence, after, n_after);
}
