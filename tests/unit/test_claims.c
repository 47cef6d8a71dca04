/* test_claims.c - claims_check() (through audit_run) on hand-built logs
 * that carry claimed score events and running totals.
 *
 * The game (two players, Ada = RED moves on odd turns, Ben = BLUE on even
 * ones; start BA/RCr at (0,0), x east, y SOUTH):
 *   1 Ada  BA/RFr  (1,0)  R0  highwayman on the road W-E
 *   2 Ben  FL/RFr.WE.o (2,0) R0, flies W with roll 1 onto (1,0) and lands
 *          on the same road, beside Ada
 *   3 Ada  BA/Cc.1 (0,-1) R2  knight on the city (start N + this, open E)
 *   4 Ben  BA/CRRR (-1,0) R0  knight on its one-tile city N
 *   5 Ada  BA/CRRR (3,0)  R0  closes the road (-1..3,0): 5 tiles, a tie,
 *          Ada 5 and Ben 5
 *   final (assumed): Ada's city 2 tiles incomplete = 2, Ben's city 1
 * Running totals: 0,0 after turns 1-4; 5,5 after turn 5; 7,6 at the end. */
#include <stdarg.h> /* cmocka 1.1.5 needs these four first */
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "board_fixture.h"

#define ADA RED
#define BEN BLUE
#define BOTH ((1u << ADA) | (1u << BEN))

static const struct fx_step game[] = {
    FX_PLACE(ADA, "BA/RFr", 1, 0, 0),
    FX_DEPLOY(ADA, 1, 0, FEAT_ROAD, "WE"),
    FX_COMMIT(ADA),
    FX_PLACE(BEN, "FL/RFr.WE.o", 2, 0, 0),
    FX_FLY(BEN, 2, 0, 1),
    FX_DEPLOY(BEN, 1, 0, FEAT_ROAD, "WE"),
    FX_COMMIT(BEN),
    FX_PLACE(ADA, "BA/Cc.1", 0, -1, 2),
    FX_DEPLOY(ADA, 0, -1, FEAT_CITY, "SE"),
    FX_COMMIT(ADA),
    FX_PLACE(BEN, "BA/CRRR", -1, 0, 0),
    FX_DEPLOY(BEN, -1, 0, FEAT_CITY, "N"),
    FX_COMMIT(BEN),
    FX_PLACE(ADA, "BA/CRRR", 3, 0, 0),
    FX_PASS(ADA),
    FX_COMMIT(ADA),
};

/* A claimed score event, as a table row. */
struct claim_row {
    int turn;
    unsigned players;
    int feature;
    int points;
};

/* A claimed running total; both seats always claimed. */
struct total_row {
    int turn;
    int ada, ben;
};

/* Every claim the rules agree with, final events in the engine's order. */
static const struct claim_row true_claims[] = {
    { 5, BOTH, FEAT_ROAD, 5 },
    { -1, 1u << ADA, FEAT_CITY, 2 },
    { -1, 1u << BEN, FEAT_CITY, 1 },
};

static const struct total_row true_totals[] = {
    { 1, 0, 0 }, { 2, 0, 0 }, { 3, 0, 0 }, { 4, 0, 0 }, { 5, 5, 5 },
    { -1, 7, 6 },
};

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

/* Log of `game` with names Ada and Ben and the given claims; claim i gets
 * src 1000 + i, total i gets src 2000 + i, so messages can be traced. */
static void build(struct game_log *l, const struct claim_row *c, size_t n_c,
                  const struct total_row *t, size_t n_t)
{
    struct rules r = fx_rules_c2(2);
    fx_log_init(l, &r);
    snprintf(l->names[ADA], sizeof l->names[ADA], "Ada");
    snprintf(l->names[BEN], sizeof l->names[BEN], "Ben");
    fx_log_add(l, game, N_OF(game));
    for (size_t i = 0; i < n_c; i++) {
        struct claim_event *e = game_log_push_claim(l);
        e->turn = c[i].turn;
        e->players = (uint8_t)c[i].players;
        e->feature = (uint8_t)c[i].feature;
        e->points = c[i].points;
        e->src = 1000 + (uint32_t)i;
    }
    for (size_t i = 0; i < n_t; i++) {
        struct claim_total *e = game_log_push_total(l);
        e->turn = t[i].turn;
        e->seats = (uint8_t)BOTH;
        e->score[ADA] = t[i].ada;
        e->score[BEN] = t[i].ben;
        e->src = 2000 + (uint32_t)i;
    }
}

static void run(const struct claim_row *c, size_t n_c,
                const struct total_row *t, size_t n_t, struct report *rep)
{
    struct game_log l;
    struct audit_opts o = { .assume_finished = true };
    build(&l, c, n_c, t, n_t);
    audit_run(&l, &o, rep, NULL);
    game_log_release(&l);
}

static void print_violations(const struct report *rep)
{
    for (size_t i = 0; i < rep->n_violations; i++)
        print_error("  %s turn %d seat %d src %u: %s\n",
                    rule_id(rep->violations[i].rule), rep->violations[i].turn,
                    rep->violations[i].player, rep->violations[i].src,
                    rep->violations[i].msg);
}

/* Number of SCORE_MISMATCH violations at (turn, seat). */
static int mismatches(const struct report *rep, int turn, int seat)
{
    int n = 0;
    for (size_t i = 0; i < rep->n_violations; i++) {
        const struct violation *v = &rep->violations[i];
        n += v->rule == RULE_SCORE_MISMATCH && v->turn == turn &&
             v->player == seat;
    }
    return n;
}

/* The violation with this src, or fails. */
static const struct violation *by_src(const struct report *rep, uint32_t src)
{
    for (size_t i = 0; i < rep->n_violations; i++)
        if (rep->violations[i].src == src)
            return &rep->violations[i];
    print_violations(rep);
    fail_msg("no violation with src %u", src);
    return NULL;
}

#define assert_has(hay, needle)                                           \
    do {                                                                  \
        if (!strstr((hay), (needle)))                                     \
            fail_msg("'%s' does not contain '%s'", (hay), (needle));       \
    } while (0)

/* ---- the game itself -------------------------------------------------- */

/* The premise of every case below: what the rules compute. */
static void test_computed_game(void **state)
{
    (void)state;
    struct report rep;
    run(NULL, 0, NULL, 0, &rep);
    if (rep.n_violations)
        print_violations(&rep);
    assert_true(rep.valid);
    assert_false(rep.has_claims);
    assert_false(rep.divergence.found);
    assert_int_equal(rep.n_events, 3);
    assert_int_equal(rep.events[0].turn, 5);
    assert_int_equal(rep.events[0].feature, FEAT_ROAD);
    assert_int_equal(rep.events[0].points, 5);
    assert_int_equal(rep.events[0].players, BOTH);
    assert_int_equal(rep.events[1].turn, -1);
    assert_int_equal(rep.events[1].players, 1u << ADA);
    assert_int_equal(rep.events[1].points, 2);
    assert_int_equal(rep.events[2].turn, -1);
    assert_int_equal(rep.events[2].players, 1u << BEN);
    assert_int_equal(rep.events[2].points, 1);
    assert_int_equal(rep.n_running, 6);
    for (size_t t = 0; t < 5; t++) {
        assert_int_equal(rep.running[t][ADA], 0);
        assert_int_equal(rep.running[t][BEN], 0);
    }
    assert_int_equal(rep.running[5][ADA], 5);
    assert_int_equal(rep.running[5][BEN], 5);
    assert_int_equal(rep.score[ADA], 7);
    assert_int_equal(rep.score[BEN], 6);
    report_release(&rep);
}

/* ---- claims that agree ------------------------------------------------- */

static void test_exact_claims_are_valid(void **state)
{
    (void)state;
    struct report rep;
    run(true_claims, N_OF(true_claims), true_totals, N_OF(true_totals),
        &rep);
    if (rep.n_violations)
        print_violations(&rep);
    assert_int_equal(rep.n_violations, 0);
    assert_true(rep.valid);
    assert_true(rep.has_claims);
    assert_false(rep.divergence.found);
    report_release(&rep);
}

/* Only totals, no events: still a log with claims. */
static void test_totals_alone_count_as_claims(void **state)
{
    (void)state;
    struct report rep;
    run(NULL, 0, true_totals, N_OF(true_totals), &rep);
    assert_true(rep.valid);
    assert_true(rep.has_claims);
    assert_false(rep.divergence.found);
    report_release(&rep);
}

/* Events within a turn are a multiset: the final ones in reverse order,
 * and the tie written before the finals, are all fine. */
static void test_order_within_turn_is_free(void **state)
{
    (void)state;
    static const struct claim_row reversed[] = {
        { -1, 1u << BEN, FEAT_CITY, 1 },
        { -1, 1u << ADA, FEAT_CITY, 2 },
        { 5, BOTH, FEAT_ROAD, 5 },
    };
    struct report rep;
    run(reversed, N_OF(reversed), true_totals, N_OF(true_totals), &rep);
    if (rep.n_violations)
        print_violations(&rep);
    assert_int_equal(rep.n_violations, 0);
    assert_true(rep.valid);
    assert_true(rep.has_claims);
    report_release(&rep);
}

/* ---- claimed events that disagree -------------------------------------- */

/* Road of turn 5 claimed at 6 points: one violation at turn 5 for its
 * first seat (Ada) with both numbers and the computed road's receipt; the
 * computed road it pairs with is not reported again. */
static void test_wrong_points(void **state)
{
    (void)state;
    static const struct claim_row c[] = {
        { 5, BOTH, FEAT_ROAD, 6 },
        { -1, 1u << ADA, FEAT_CITY, 2 },
        { -1, 1u << BEN, FEAT_CITY, 1 },
    };
    struct report rep;
    run(c, N_OF(c), NULL, 0, &rep);
    assert_false(rep.valid);
    assert_true(rep.has_claims);
    if (rep.n_violations != 1)
        print_violations(&rep);
    assert_int_equal(rep.n_violations, 1);
    const struct violation *v = by_src(&rep, 1000);
    assert_int_equal(v->rule, RULE_SCORE_MISMATCH);
    assert_int_equal(v->turn, 5);
    assert_int_equal(v->player, ADA);
    assert_has(v->msg, "road 6 to Ada and Ben");
    assert_has(v->msg, "the rules give 5");
    assert_has(v->msg, "→ Ada, Ben 5 each");
    /* no totals claimed: no divergence */
    assert_false(rep.divergence.found);
    report_release(&rep);
}

/* A tie claimed for one seat only is a mismatch; claiming it for both
 * seats (test_exact_claims_are_valid) is not. */
static void test_tie_needs_both_seats(void **state)
{
    (void)state;
    static const struct claim_row c[] = {
        { 5, 1u << BEN, FEAT_ROAD, 5 },
    };
    struct report rep;
    run(c, N_OF(c), NULL, 0, &rep);
    assert_false(rep.valid);
    assert_int_equal(rep.n_violations, 2);
    const struct violation *v = by_src(&rep, 1000);
    assert_int_equal(v->turn, 5);
    assert_int_equal(v->player, BEN);
    assert_has(v->msg, "road 5 to Ben;");
    assert_has(v->msg, "road 5 to Ada and Ben");
    assert_int_equal(mismatches(&rep, 5, ADA), 1); /* the unclaimed tie */
    report_release(&rep);
}

/* Final scoring with Ben's city left out of the claims: the computed
 * event nobody claimed is reported at turn -1 for Ben. Turns without any
 * claimed event (5 here) are not compared event by event. */
static void test_missing_event(void **state)
{
    (void)state;
    static const struct claim_row c[] = {
        { -1, 1u << ADA, FEAT_CITY, 2 },
    };
    struct report rep;
    run(c, N_OF(c), NULL, 0, &rep);
    if (rep.n_violations != 1)
        print_violations(&rep);
    assert_int_equal(rep.n_violations, 1);
    const struct violation *v = &rep.violations[0];
    assert_int_equal(v->rule, RULE_SCORE_MISMATCH);
    assert_int_equal(v->turn, -1);
    assert_int_equal(v->player, BEN);
    assert_has(v->msg, "nobody claimed");
    assert_has(v->msg, "city, 1 tile, incomplete");
    assert_has(v->msg, "→ Ben 1");
    assert_int_equal(mismatches(&rep, 5, ADA), 0);
    report_release(&rep);
}

/* An event claimed at a turn that scored nothing. */
static void test_claim_on_quiet_turn(void **state)
{
    (void)state;
    static const struct claim_row c[] = {
        { 3, 1u << ADA, FEAT_CITY, 4 },
    };
    struct report rep;
    run(c, N_OF(c), NULL, 0, &rep);
    assert_int_equal(rep.n_violations, 1);
    assert_int_equal(rep.violations[0].turn, 3);
    assert_int_equal(rep.violations[0].player, ADA);
    assert_has(rep.violations[0].msg, "city 4 to Ada");
    assert_has(rep.violations[0].msg, "nothing");
    report_release(&rep);
}

/* ---- claimed totals that disagree -------------------------------------- */

/* The tie of turn 5 claimed as 6 points each, totals following it from
 * turn 5 on: one wrong claim, one SCORE_MISMATCH; the totals of turn 5
 * and of the end are off only because of it, which the divergence (at
 * turn 5, both seats, caused by the road) says once. */
static void test_totals_diverge_from_turn(void **state)
{
    (void)state;
    static const struct claim_row c[] = {
        { 5, BOTH, FEAT_ROAD, 6 },
        { -1, 1u << ADA, FEAT_CITY, 2 },
        { -1, 1u << BEN, FEAT_CITY, 1 },
    };
    static const struct total_row t[] = {
        { 1, 0, 0 }, { 2, 0, 0 }, { 3, 0, 0 }, { 4, 0, 0 }, { 5, 6, 6 },
        { -1, 8, 7 },
    };
    struct report rep;
    run(c, N_OF(c), t, N_OF(t), &rep);
    assert_false(rep.valid);
    /* the event alone: the totals follow from it */
    if (rep.n_violations != 1)
        print_violations(&rep);
    assert_int_equal(rep.n_violations, 1);
    assert_int_equal(mismatches(&rep, 5, ADA), 1);
    assert_string_equal(by_src(&rep, 1000)->msg,
                        "claimed: road 6 to Ada and Ben; the rules give 5 "
                        "(road, 5 tiles, completed: 5×1 = 5; Ada 1 "
                        "highwayman, Ben 1 → Ada, Ben 5 each)");

    const struct divergence *d = &rep.divergence;
    assert_true(d->found);
    assert_int_equal(d->turn, 5);
    assert_int_equal(d->seats, BOTH);
    assert_int_equal(d->claimed[ADA], 6);
    assert_int_equal(d->claimed[BEN], 6);
    assert_int_equal(d->computed[ADA], 5);
    assert_int_equal(d->computed[BEN], 5);
    assert_int_equal(d->feature, FEAT_ROAD);
    assert_string_equal(d->msg,
                        "the claimed totals part from the rules after turn "
                        "5: Ada claims 6, the rules give 5 (+1); Ben claims "
                        "6, the rules give 5 (+1); cause: the road claimed "
                        "at turn 5; the totals claimed at the end are off "
                        "as a consequence");
    report_release(&rep);
}

/* Only Ben's total is off (and no event claims): the divergence names
 * Ben alone, has no feature, and Ada's correct total is not reported;
 * his final total, off by as much, is the same mistake carried on. */
static void test_one_seat_diverges(void **state)
{
    (void)state;
    static const struct total_row t[] = {
        { 4, 0, 0 }, { 5, 5, 4 }, { -1, 7, 5 },
    };
    struct report rep;
    run(NULL, 0, t, N_OF(t), &rep);
    assert_int_equal(rep.n_violations, 1);
    assert_int_equal(mismatches(&rep, 5, BEN), 1);
    assert_int_equal(mismatches(&rep, 5, ADA), 0);
    const struct violation *v = by_src(&rep, 2001);
    assert_int_equal(v->player, BEN);
    assert_has(v->msg, "Ben claims 4");
    assert_has(v->msg, "the rules give 5");
    const struct divergence *d = &rep.divergence;
    assert_true(d->found);
    assert_int_equal(d->turn, 5);
    assert_int_equal(d->seats, 1u << BEN);
    assert_int_equal(d->claimed[BEN], 4);
    assert_int_equal(d->computed[BEN], 5);
    assert_int_equal(d->feature, FEAT_NONE);
    assert_has(d->msg, "after turn 5");
    assert_has(d->msg, "Ben");
    assert_null(strstr(d->msg, "cause"));
    report_release(&rep);
}

/* Final totals only: the end (turn -1) is where they part; the cause is
 * the bad claim of turn 5, the first one after the last good total. */
static void test_final_totals(void **state)
{
    (void)state;
    static const struct claim_row c[] = {
        { 5, BOTH, FEAT_ROAD, 5 },
        { -1, 1u << ADA, FEAT_CITY, 3 },
        { -1, 1u << BEN, FEAT_CITY, 1 },
    };
    static const struct total_row t[] = {
        { 3, 0, 0 }, { -1, 8, 6 },
    };
    struct report rep;
    run(c, N_OF(c), t, N_OF(t), &rep);
    /* the wrong city claim (paired with the computed city); Ada's total,
     * one high, is that claim's doing */
    if (rep.n_violations != 1)
        print_violations(&rep);
    assert_int_equal(rep.n_violations, 1);
    assert_int_equal(mismatches(&rep, -1, ADA), 1);
    assert_int_equal(by_src(&rep, 1001)->turn, -1);
    const struct divergence *d = &rep.divergence;
    assert_true(d->found);
    assert_int_equal(d->turn, -1);
    assert_int_equal(d->seats, 1u << ADA);
    assert_int_equal(d->claimed[ADA], 8);
    assert_int_equal(d->computed[ADA], 7);
    assert_int_equal(d->feature, FEAT_CITY);
    assert_has(d->msg, "at final scoring");
    report_release(&rep);
}

/* A wrong event claim whose effect shows only in a later total: the
 * divergence is at that total's turn, its feature the bad claim's. */
static void test_cause_before_divergence(void **state)
{
    (void)state;
    static const struct claim_row c[] = {
        { 5, BOTH, FEAT_ROAD, 4 },
    };
    static const struct total_row t[] = {
        { 3, 0, 0 }, { -1, 6, 5 },
    };
    struct report rep;
    run(c, N_OF(c), t, N_OF(t), &rep);
    const struct divergence *d = &rep.divergence;
    assert_true(d->found);
    assert_int_equal(d->turn, -1);
    assert_int_equal(d->seats, BOTH);
    assert_int_equal(d->feature, FEAT_ROAD);
    assert_has(d->msg, "at final scoring");
    assert_has(d->msg, "turn 5");
    report_release(&rep);
}

/* Ada's totals are one point high from turn 2 to the end: one
 * SCORE_MISMATCH for her, at turn 2 where the point appeared, none for
 * Ben; the divergence at turn 2 (no event claim, so no feature) says
 * the later totals are off as its consequence. */
static void test_totals_off_from_turn_on(void **state)
{
    (void)state;
    static const struct total_row t[] = {
        { 1, 0, 0 }, { 2, 1, 0 }, { 3, 1, 0 }, { 4, 1, 0 }, { 5, 6, 5 },
        { -1, 8, 6 },
    };
    struct report rep;
    run(NULL, 0, t, N_OF(t), &rep);
    assert_int_equal(rep.n_violations, 1);
    assert_int_equal(mismatches(&rep, 2, ADA), 1);
    const struct violation *v = by_src(&rep, 2000 + 1); /* turn 2 */
    assert_int_equal(v->turn, 2);
    assert_has(v->msg, "Ada claims 1 ");
    assert_has(v->msg, "after this turn");
    assert_has(v->msg, "the rules give 0 (1 more)");
    const struct divergence *d = &rep.divergence;
    assert_true(d->found);
    assert_int_equal(d->turn, 2);
    assert_int_equal(d->seats, 1u << ADA);
    assert_int_equal(d->claimed[ADA], 1);
    assert_int_equal(d->computed[ADA], 0);
    assert_int_equal(d->feature, FEAT_NONE);
    assert_string_equal(d->msg,
                        "the claimed totals part from the rules after turn "
                        "2: Ada claims 1, the rules give 0 (+1); the totals "
                        "claimed after turns 3, 4 and 5 and at the end are "
                        "off as a consequence");
    report_release(&rep);
}

/* A total that matches after one that differed does not move the
 * divergence: it stays at the first. */
static void test_first_divergence_wins(void **state)
{
    (void)state;
    static const struct total_row t[] = {
        { 2, 1, 0 }, { 5, 5, 5 }, { -1, 9, 6 },
    };
    struct report rep;
    run(NULL, 0, t, N_OF(t), &rep);
    assert_int_equal(rep.n_violations, 2);
    assert_int_equal(mismatches(&rep, 2, ADA), 1);
    assert_int_equal(mismatches(&rep, -1, ADA), 1);
    assert_true(rep.divergence.found);
    assert_int_equal(rep.divergence.turn, 2);
    assert_int_equal(rep.divergence.claimed[ADA], 1);
    assert_int_equal(rep.divergence.computed[ADA], 0);
    assert_has(rep.divergence.msg, "after turn 2");
    report_release(&rep);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_computed_game),
        cmocka_unit_test(test_exact_claims_are_valid),
        cmocka_unit_test(test_totals_alone_count_as_claims),
        cmocka_unit_test(test_order_within_turn_is_free),
        cmocka_unit_test(test_wrong_points),
        cmocka_unit_test(test_tie_needs_both_seats),
        cmocka_unit_test(test_missing_event),
        cmocka_unit_test(test_claim_on_quiet_turn),
        cmocka_unit_test(test_totals_diverge_from_turn),
        cmocka_unit_test(test_one_seat_diverges),
        cmocka_unit_test(test_final_totals),
        cmocka_unit_test(test_cause_before_divergence),
        cmocka_unit_test(test_totals_off_from_turn_on),
        cmocka_unit_test(test_first_divergence_wins),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
