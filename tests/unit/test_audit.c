/* test_audit.c - audit_run() on hand-built move lists.
 *
 * Every log starts from BA/RCr at (0,0) R0 (road W-E, city N); x grows
 * east, y SOUTH. Two players unless said otherwise: p0 (RED) moves on odd
 * turns, p1 (BLUE) on even ones. Each violation case is one table row;
 * the test appends a turn with an unknown tile to every row, so each row
 * also proves the audit goes on after the first problem. */
#include <stdarg.h> /* cmocka 1.1.5 needs these four first */
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "board_fixture.h"

#define STEPS(...)                                                        \
    (const struct fx_step[]){ __VA_ARGS__ },                             \
        sizeof((const struct fx_step[]){ __VA_ARGS__ }) /                 \
            sizeof(struct fx_step)

/* The north field of a BA/RFr (or BA/RCr) lying R0. */
#define NORTH_FIELD "NL.NR.EL.WR"

/* ---- a clean game ------------------------------------------------------- */

/* Five turns: Red's road, Blue's two-tile city (4), crossings ending the
 * road (Red 4), then Red's FL/RFr.WE.o at (3,0) flies W with roll 1 onto
 * the crossing at (2,0) and lands in its open city. */
static const struct fx_step clean_game[] = {
    FX_PLACE(RED, "BA/RFr", 1, 0, 0),
    FX_DEPLOY(RED, 1, 0, FEAT_ROAD, "WE"),
    FX_COMMIT(RED),
    FX_PLACE(BLUE, "BA/C", 0, -1, 2),
    FX_DEPLOY(BLUE, 0, -1, FEAT_CITY, "S"),
    FX_COMMIT(BLUE),
    FX_PLACE(RED, "BA/CRRR", -1, 0, 0),
    FX_PASS(RED),
    FX_COMMIT(RED),
    FX_PLACE(BLUE, "BA/CRRR", 2, 0, 0),
    FX_PASS(BLUE),
    FX_COMMIT(BLUE),
    FX_PLACE(RED, "FL/RFr.WE.o", 3, 0, 0),
    FX_FLY(RED, 3, 0, 1),
    FX_DEPLOY(RED, 2, 0, FEAT_CITY, "N"),
    FX_COMMIT(RED),
};

static void audit_steps(const struct rules *r, const struct fx_step *s,
                        size_t n, const struct audit_opts *o,
                        struct report *rep)
{
    struct game_log l;
    fx_log_init(&l, r);
    fx_log_add(&l, s, n);
    audit_run(&l, o, rep, NULL);
    game_log_release(&l);
}

static void test_clean_game_is_valid(void **state)
{
    (void)state;
    struct rules r = fx_rules_c2(2);
    struct report rep;
    audit_steps(&r, clean_game, sizeof clean_game / sizeof clean_game[0],
                NULL, &rep);
    if (rep.n_violations)
        fail_msg("unexpected %s at turn %d: %s",
                 rule_id(rep.violations[0].rule), rep.violations[0].turn,
                 rep.violations[0].msg);
    assert_true(rep.valid);
    assert_false(rep.halted);
    assert_int_equal(rep.turns, 5);
    assert_int_equal(rep.n_players, 2);
    assert_int_equal(rep.score[RED], 4);
    assert_int_equal(rep.score[BLUE], 4);
    assert_int_equal(rep.n_events, 2);
    assert_int_equal(rep.events[0].turn, 2); /* Blue's city */
    assert_int_equal(rep.events[0].feature, FEAT_CITY);
    assert_int_equal(rep.events[1].turn, 4); /* Red's road */
    assert_int_equal(rep.events[1].points, 4);

    assert_int_equal(rep.n_flights, 1);
    const struct flight *f = &rep.flights[0];
    assert_int_equal(f->turn, 5);
    assert_int_equal(f->player, RED);
    assert_int_equal(f->from.x, 3);
    assert_int_equal(f->dir, DIR_W);
    assert_int_equal(f->roll, 1);
    assert_int_equal(f->target.x, 2);
    assert_int_equal(f->target.y, 0);
    assert_true(f->landed);
    assert_int_equal(f->feature, FEAT_CITY);
    assert_int_equal(f->mask, EDGE_N);
    assert_int_equal(f->n_options, 3); /* city N, roads E and S */
    report_release(&rep);
}

/* With tiles left and no end turn the game is unfinished: no final
 * scoring. assume_finished runs it: Red's knight in the open one-tile
 * city at (2,0) scores 1. */
static void test_unfinished_vs_assume_finished(void **state)
{
    (void)state;
    struct rules r = fx_rules_c2(2);
    size_t n = sizeof clean_game / sizeof clean_game[0];
    struct report rep;
    audit_steps(&r, clean_game, n, NULL, &rep);
    assert_false(rep.finished);
    assert_int_equal(rep.tiles_left, 80 - 6);
    for (size_t i = 0; i < rep.n_events; i++)
        assert_int_not_equal(rep.events[i].turn, -1);
    report_release(&rep);

    struct audit_opts o = { .assume_finished = true };
    audit_steps(&r, clean_game, n, &o, &rep);
    assert_true(rep.finished);
    assert_true(rep.valid);
    assert_int_equal(rep.n_events, 3);
    assert_int_equal(rep.events[2].turn, -1);
    assert_int_equal(rep.events[2].feature, FEAT_CITY);
    assert_int_equal(rep.events[2].points, 1);
    assert_int_equal(rep.events[2].players, 1u << RED);
    assert_int_equal(rep.score[RED], 5);
    assert_int_equal(rep.score[BLUE], 4);
    report_release(&rep);
}

/* Same log twice: same state hash, same events. */
static void test_audit_is_deterministic(void **state)
{
    (void)state;
    struct rules r = fx_rules_c2(2);
    struct audit_opts o = { .assume_finished = true };
    size_t n = sizeof clean_game / sizeof clean_game[0];
    struct report a, b;
    audit_steps(&r, clean_game, n, &o, &a);
    audit_steps(&r, clean_game, n, &o, &b);
    assert_true(a.state_hash != 0);
    assert_true(a.state_hash == b.state_hash);
    assert_int_equal(a.n_events, b.n_events);
    for (size_t i = 0; i < a.n_events; i++) {
        assert_int_equal(a.events[i].turn, b.events[i].turn);
        assert_int_equal(a.events[i].feature, b.events[i].feature);
        assert_int_equal(a.events[i].points, b.events[i].points);
        assert_int_equal(a.events[i].players, b.events[i].players);
    }
    assert_memory_equal(a.score, b.score, sizeof a.score);
    /* and a different game hashes differently */
    struct report c;
    audit_steps(&r, clean_game, n - 4, &o, &c);
    assert_true(c.state_hash != a.state_hash);
    report_release(&a);
    report_release(&b);
    report_release(&c);
}

/* ---- one row per rule the auditor can raise from moves ------------------- */

struct violation_case {
    const char *name;
    bool c3;                     /* basic:2 + flier:2, abbots, gardens */
    const struct fx_step *steps;
    size_t n;
    enum rule rule;              /* the first violation ... */
    int turn, player;            /* ... its turn and seat ... */
    uint32_t src;                /* ... and the message it stands at */
};

static const struct violation_case violation_cases[] = {
    { "unknown tile", false,
      STEPS(FX_PLACE(RED, "BA/XYZ", 1, 0, 0), FX_COMMIT(RED)),
      RULE_TILE_UNKNOWN, 1, RED, 0 },
    { "C3 garden tile in a C2 game", false,
      STEPS(FX_PLACE(RED, "BA/CcG", 0, -1, 2), FX_PASS(RED), FX_COMMIT(RED)),
      RULE_TILE_NOT_IN_PACK, 1, RED, 0 },
    { "on the start tile", false,
      STEPS(FX_PLACE(RED, "BA/RFr", 0, 0, 0), FX_COMMIT(RED)),
      RULE_TILE_OCCUPIED, 1, RED, 0 },
    { "far from the board", false,
      STEPS(FX_PLACE(RED, "BA/RFr", 5, 5, 0), FX_PASS(RED), FX_COMMIT(RED)),
      RULE_TILE_NOT_ADJACENT, 1, RED, 0 },
    { "field against road", false,
      STEPS(FX_PLACE(RED, "BA/RFr", 1, 0, 1), FX_PASS(RED), FX_COMMIT(RED)),
      RULE_TILE_EDGE_MISMATCH, 1, RED, 0 },
    { "follower 8 of 7", false,
      STEPS(FX_PLACE(RED, "BA/RFr", 1, 0, 0),
            FX_DEPLOY_N(RED, 1, 0, FEAT_ROAD, "WE", FIG_SMALL, 8),
            FX_COMMIT(RED)),
      RULE_MEEPLE_NONE_LEFT, 1, RED, 1 },
    { "follower already on the board", false,
      STEPS(FX_PLACE(RED, "BA/RFr", 1, 0, 0),
            FX_DEPLOY_N(RED, 1, 0, FEAT_ROAD, "WE", FIG_SMALL, 1),
            FX_COMMIT(RED),
            FX_PLACE(BLUE, "BA/L", 0, 1, 0), FX_PASS(BLUE), FX_COMMIT(BLUE),
            FX_PLACE(RED, "BA/RFr", -1, 0, 0),
            FX_DEPLOY_N(RED, -1, 0, FEAT_FIELD, NORTH_FIELD, FIG_SMALL, 1),
            FX_COMMIT(RED)),
      RULE_MEEPLE_NONE_LEFT, 3, RED, 7 },
    { "knight on the start tile", false,
      STEPS(FX_PLACE(RED, "BA/RFr", 1, 0, 0),
            FX_DEPLOY(RED, 0, 0, FEAT_CITY, "N"), FX_COMMIT(RED)),
      RULE_MEEPLE_NOT_ON_PLACED_TILE, 1, RED, 1 },
    { "road already held", false,
      STEPS(FX_PLACE(RED, "BA/RFr", 1, 0, 0),
            FX_DEPLOY(RED, 1, 0, FEAT_ROAD, "WE"), FX_COMMIT(RED),
            FX_PLACE(BLUE, "BA/RFr", 2, 0, 0),
            FX_DEPLOY(BLUE, 2, 0, FEAT_ROAD, "WE"), FX_COMMIT(BLUE)),
      RULE_MEEPLE_FEATURE_OCCUPIED, 2, BLUE, 4 },
    { "abbot on a road", true,
      STEPS(FX_PLACE(RED, "BA/RFr", 1, 0, 0),
            FX_DEPLOY_N(RED, 1, 0, FEAT_ROAD, "WE", FIG_ABBOT, 1),
            FX_COMMIT(RED)),
      RULE_MEEPLE_WRONG_TYPE, 1, RED, 1 },
    { "two meeples in one turn", false,
      STEPS(FX_PLACE(RED, "BA/RFr", 1, 0, 0),
            FX_DEPLOY(RED, 1, 0, FEAT_ROAD, "WE"),
            FX_DEPLOY(RED, 1, 0, FEAT_FIELD, NORTH_FIELD), FX_COMMIT(RED)),
      RULE_MEEPLE_SECOND_DEPLOY, 1, RED, 2 },
    { "flight from a tile without a machine", false,
      STEPS(FX_PLACE(RED, "BA/RFr", 1, 0, 0), FX_FLY(RED, 1, 0, 1),
            FX_COMMIT(RED)),
      RULE_FLIER_NO_MACHINE, 1, RED, 1 },
    { "roll 5", false,
      STEPS(FX_PLACE(RED, "FL/RFr.WE.o", 1, 0, 0), FX_FLY(RED, 1, 0, 5),
            FX_COMMIT(RED)),
      RULE_FLIER_BAD_ROLL, 1, RED, 1 },
    { "landing beside the target", false,
      STEPS(FX_PLACE(RED, "FL/RFr.WE.o", 1, 0, 0), FX_FLY(RED, 1, 0, 1),
            FX_DEPLOY(RED, 1, 0, FEAT_ROAD, "WE"), FX_COMMIT(RED)),
      RULE_FLIER_WRONG_TARGET, 1, RED, 2 },
    { "landing where no tile lies", false,
      STEPS(FX_PLACE(RED, "FL/RFr.WE.o", 1, 0, 0), FX_FLY(RED, 1, 0, 2),
            FX_DEPLOY(RED, -1, 0, FEAT_ROAD, "WE"), FX_COMMIT(RED)),
      RULE_FLIER_NO_TILE, 1, RED, 2 },
    { "landing in a field", false,
      STEPS(FX_PLACE(RED, "FL/RFr.WE.o", 1, 0, 0), FX_FLY(RED, 1, 0, 1),
            FX_DEPLOY(RED, 0, 0, FEAT_FIELD, "ER.SL.SR.WL"), FX_COMMIT(RED)),
      RULE_FLIER_FIELD, 1, RED, 2 },
    { "landing in a completed city", false,
      STEPS(FX_PLACE(RED, "BA/C", 0, -1, 2), FX_PASS(RED), FX_COMMIT(RED),
            FX_PLACE(BLUE, "FL/RFr.WE.o", 1, 0, 0), FX_FLY(BLUE, 1, 0, 1),
            FX_DEPLOY(BLUE, 0, 0, FEAT_CITY, "N"), FX_COMMIT(BLUE)),
      RULE_FLIER_COMPLETED, 2, BLUE, 5 },
    { "landing on the target's flying machine", false,
      STEPS(FX_PLACE(RED, "FL/RFr.WE.o", 1, 0, 0), FX_PASS(RED),
            FX_COMMIT(RED),
            FX_PLACE(BLUE, "FL/Rr.SW.o", 2, 0, 0), FX_FLY(BLUE, 2, 0, 1),
            FX_DEPLOY(BLUE, 1, 0, FEAT_FLIER, "I"), FX_COMMIT(BLUE)),
      RULE_FLIER_BAD_FEATURE, 2, BLUE, 5 },
    { "no landing although one was possible", false,
      STEPS(FX_PLACE(RED, "FL/RFr.WE.o", 1, 0, 0), FX_FLY(RED, 1, 0, 1),
            FX_COMMIT(RED)),
      RULE_FLIER_MUST_LAND, 1, RED, 2 },
    { "Blue moves on Red's turn", false,
      STEPS(FX_PLACE(BLUE, "BA/RFr", 1, 0, 0), FX_PASS(BLUE),
            FX_COMMIT(BLUE)),
      RULE_TURN_ORDER, 1, RED, 0 },
    { "recall of an abbot in supply", true,
      STEPS(FX_PLACE(RED, "BA/L", 0, 1, 0),
            FX_RECALL(RED, 0, 1, FEAT_MONASTERY, FIG_ABBOT), FX_COMMIT(RED)),
      RULE_ABBOT_RECALL, 1, RED, 1 },
    { "recall of a follower", true,
      STEPS(FX_PLACE(RED, "BA/L", 0, 1, 0),
            FX_DEPLOY(RED, 0, 1, FEAT_MONASTERY, "I"), FX_COMMIT(RED),
            FX_PLACE(BLUE, "BA/RFr", 1, 0, 0), FX_PASS(BLUE),
            FX_COMMIT(BLUE),
            FX_PLACE(RED, "BA/L", 1, 1, 0),
            FX_RECALL(RED, 0, 1, FEAT_MONASTERY, FIG_SMALL), FX_COMMIT(RED)),
      RULE_ABBOT_RECALL, 3, RED, 7 },
    { "a meeple after passing", false,
      STEPS(FX_PLACE(RED, "BA/RFr", 1, 0, 0), FX_PASS(RED),
            FX_DEPLOY(RED, 1, 0, FEAT_ROAD, "WE"), FX_COMMIT(RED)),
      RULE_TURN_SEQUENCE, 1, RED, 2 },
};

/* A meeple before the first tile: turn 0 belongs to no seat, so the
 * violation's seat is unknown (-1, as struct violation documents). */
static const struct violation_case before_first_turn_case = {
    "a meeple before any tile", false,
    STEPS(FX_DEPLOY(RED, 0, 0, FEAT_CITY, "N"),
          FX_PLACE(RED, "BA/RFr", 1, 0, 0), FX_PASS(RED), FX_COMMIT(RED)),
    RULE_TURN_SEQUENCE, 0, -1, 0
};

/* A discard belongs to the player who drew the tile, i.e. to the turn
 * about to start: here Blue's draw before turn 2. */
static const struct violation_case discard_case = {
    "discard of a tile that fits", false,
    STEPS(FX_PLACE(RED, "BA/RFr", 1, 0, 0), FX_PASS(RED), FX_COMMIT(RED),
          FX_DISCARD(BLUE, "BA/RFr"),
          FX_PLACE(BLUE, "BA/RFr", 2, 0, 0), FX_PASS(BLUE), FX_COMMIT(BLUE)),
    RULE_TILE_DISCARD_FITS, 2, BLUE, 3
};

static int count_places(const struct fx_step *s, size_t n)
{
    int places = 0;
    for (size_t i = 0; i < n; i++)
        places += s[i].kind == MV_PLACE;
    return places;
}

/* Audits one row plus the trailer; prints what differs and returns false
 * instead of stopping, so one bad row does not hide the others. */
static bool check_violation_case(const struct violation_case *c)
{
    struct rules r = c->c3 ? fx_rules_c3(2) : fx_rules_c2(2);
    struct game_log l;
    fx_log_init(&l, &r);
    fx_log_add(&l, c->steps, c->n);
    /* the trailer: a later turn with a tile no set holds */
    int later = count_places(c->steps, c->n) + 1;
    int seat = (later - 1) % 2;
    const struct fx_step trailer[] = {
        FX_PLACE(seat, "XX/none", 9, 9, 0), FX_COMMIT(seat),
    };
    fx_log_add(&l, trailer, 2);
    struct report rep;
    audit_run(&l, NULL, &rep, NULL);
    game_log_release(&l);

    bool ok = !rep.valid && rep.n_violations == 2;
    const struct violation *v = rep.n_violations ? &rep.violations[0] : NULL;
    if (v && (v->rule != c->rule || v->turn != c->turn ||
              v->player != c->player || v->src != c->src || !v->msg[0]))
        ok = false;
    /* the last one is the trailer's: the audit went on */
    const struct violation *last =
        rep.n_violations ? &rep.violations[rep.n_violations - 1] : NULL;
    if (!last || last->rule != RULE_TILE_UNKNOWN || last->turn != later ||
        last->player != seat || rep.turns != later)
        ok = false;
    if (!ok) {
        print_error("%s: expected %s turn %d seat %d src %u, then the "
                    "trailer at turn %d; got %zu violation(s):\n",
                    c->name, rule_id(c->rule), c->turn, c->player, c->src,
                    later, rep.n_violations);
        for (size_t i = 0; i < rep.n_violations; i++)
            print_error("  %s turn %d seat %d src %u: %s\n",
                        rule_id(rep.violations[i].rule),
                        rep.violations[i].turn, rep.violations[i].player,
                        rep.violations[i].src, rep.violations[i].msg);
    }
    report_release(&rep);
    return ok;
}

static void test_violation_table(void **state)
{
    (void)state;
    int bad = 0;
    for (size_t i = 0; i < sizeof violation_cases / sizeof violation_cases[0];
         i++)
        bad += !check_violation_case(&violation_cases[i]);
    assert_int_equal(bad, 0);
}

static void test_move_before_first_turn(void **state)
{
    (void)state;
    assert_true(check_violation_case(&before_first_turn_case));
}

/* The report files the discard under the turn whose draw it was (2);
 * the violation must name the same turn and Blue, who drew the tile. */
static void test_discard_that_fits(void **state)
{
    (void)state;
    struct rules r = fx_rules_c2(2);
    struct report rep;
    audit_steps(&r, discard_case.steps, discard_case.n, NULL, &rep);
    /* copied out first, so a failing check leaks nothing under ASan */
    size_t n_discards = rep.n_discards, n_violations = rep.n_violations;
    struct discard d = n_discards ? rep.discards[0] : (struct discard){ 0 };
    struct violation v = n_violations ? rep.violations[0]
                                      : (struct violation){ 0 };
    report_release(&rep);
    assert_int_equal(n_discards, 1);
    assert_true(d.logged);
    assert_int_equal(d.turn, 2);
    assert_int_equal(n_violations, 1);
    assert_int_equal(v.rule, RULE_TILE_DISCARD_FITS);
    assert_int_equal(v.turn, d.turn);
    assert_int_equal(v.player, BLUE);
    assert_true(check_violation_case(&discard_case));
}

/* A discard of a tile that fits nowhere is legal and costs a copy: BA/Cccc+
 * needs a city edge, and the start city is closed by BA/C. */
static void test_discard_that_does_not_fit(void **state)
{
    (void)state;
    struct rules r = fx_rules_c2(2);
    const struct fx_step s[] = {
        FX_PLACE(RED, "BA/C", 0, -1, 2), FX_PASS(RED), FX_COMMIT(RED),
        FX_DISCARD(BLUE, "BA/Cccc+"),
        FX_PLACE(BLUE, "BA/RFr", 1, 0, 0), FX_PASS(BLUE), FX_COMMIT(BLUE),
    };
    struct report rep;
    struct game *g = NULL;
    struct game_log l;
    fx_log_init(&l, &r);
    fx_log_add(&l, s, sizeof s / sizeof s[0]);
    audit_run(&l, NULL, &rep, &g);
    game_log_release(&l);
    assert_true(rep.valid);
    assert_int_equal(rep.turns, 2);
    assert_int_equal(rep.tiles_left, 80 - 4); /* start, 2 placed, 1 gone */
    assert_int_equal(rep.n_discards, 1);
    assert_int_equal(rep.discards[0].turn, 2);
    assert_int_equal(rep.discards[0].tile, fx_tile("BA/Cccc+"));
    assert_true(rep.discards[0].logged);
    assert_int_equal(g->pack[fx_tile("BA/Cccc+")], 0);
    game_free(g);
    report_release(&rep);
}

/* C3 recall as a log: Red's abbot in BA/L at (0,1); on turn 3 Red places
 * BA/L at (1,1) and takes the abbot back for 1 + 3 neighbours. */
static void test_abbot_recall_is_valid(void **state)
{
    (void)state;
    struct rules r = fx_rules_c3(2);
    const struct fx_step s[] = {
        FX_PLACE(RED, "BA/L", 0, 1, 0),
        FX_DEPLOY_N(RED, 0, 1, FEAT_MONASTERY, "I", FIG_ABBOT, 1),
        FX_COMMIT(RED),
        FX_PLACE(BLUE, "BA/RFr", 1, 0, 0), FX_PASS(BLUE), FX_COMMIT(BLUE),
        FX_PLACE(RED, "BA/L", 1, 1, 0),
        FX_RECALL(RED, 0, 1, FEAT_MONASTERY, FIG_ABBOT), FX_COMMIT(RED),
    };
    struct report rep;
    audit_steps(&r, s, sizeof s / sizeof s[0], NULL, &rep);
    assert_true(rep.valid);
    assert_int_equal(rep.n_events, 1);
    assert_true(rep.events[0].recall);
    assert_int_equal(rep.events[0].turn, 3);
    assert_int_equal(rep.events[0].points, 4);
    assert_int_equal(rep.events[0].players, 1u << RED);
    assert_int_equal(rep.score[RED], 4);
    report_release(&rep);
}

/* ---- flights and halts --------------------------------------------------- */

/* FL/RFr.WE.o at (1,0), arrow W. Roll 2 reaches the empty (-1,0): the
 * meeple goes home and that is legal. Roll 1 reaches the start tile with
 * two options (its open city and the open road): a COMMIT is refused. */
static void test_flight_records(void **state)
{
    (void)state;
    struct rules r = fx_rules_c2(2);
    struct report rep;
    const struct fx_step back[] = {
        FX_PLACE(RED, "FL/RFr.WE.o", 1, 0, 0), FX_FLY(RED, 1, 0, 2),
        FX_COMMIT(RED),
    };
    audit_steps(&r, back, 3, NULL, &rep);
    assert_true(rep.valid);
    assert_int_equal(rep.n_flights, 1);
    assert_int_equal(rep.flights[0].target.x, -1);
    assert_int_equal(rep.flights[0].n_options, 0);
    assert_false(rep.flights[0].landed);
    assert_int_equal(rep.flights[0].feature, FEAT_NONE);
    report_release(&rep);

    const struct fx_step stay[] = {
        FX_PLACE(RED, "FL/RFr.WE.o", 1, 0, 0), FX_FLY(RED, 1, 0, 1),
        FX_COMMIT(RED),
    };
    audit_steps(&r, stay, 3, NULL, &rep);
    assert_int_equal(rep.n_violations, 1);
    assert_int_equal(rep.violations[0].rule, RULE_FLIER_MUST_LAND);
    assert_int_equal(rep.flights[0].n_options, 2);
    assert_false(rep.flights[0].landed);
    report_release(&rep);

    const struct fx_step five[] = {
        FX_PLACE(RED, "FL/RFr.WE.o", 1, 0, 0), FX_FLY(RED, 1, 0, 5),
        FX_COMMIT(RED),
    };
    audit_steps(&r, five, 3, NULL, &rep);
    assert_int_equal(rep.n_flights, 1);
    assert_true(rep.flights[0].bad_roll);
    assert_int_equal(rep.flights[0].roll, 5);
    report_release(&rep);
}

/* A landing next to an opponent is legal: Blue's knight holds the city
 * on BA/Cc.1 at (0,-1); Red flies onto the start tile's part of it. */
static void test_flight_lands_beside_opponent(void **state)
{
    (void)state;
    struct rules r = fx_rules_c2(2);
    struct report rep;
    struct game *g = NULL;
    const struct fx_step s[] = {
        FX_PLACE(RED, "BA/RFr", -1, 0, 0), FX_PASS(RED), FX_COMMIT(RED),
        FX_PLACE(BLUE, "BA/Cc.1", 0, -1, 2),
        FX_DEPLOY(BLUE, 0, -1, FEAT_CITY, "SE"), FX_COMMIT(BLUE),
        FX_PLACE(RED, "FL/RFr.WE.o", 1, 0, 0), FX_FLY(RED, 1, 0, 1),
        FX_DEPLOY(RED, 0, 0, FEAT_CITY, "N"), FX_COMMIT(RED),
    };
    struct game_log l;
    fx_log_init(&l, &r);
    fx_log_add(&l, s, sizeof s / sizeof s[0]);
    audit_run(&l, NULL, &rep, &g);
    game_log_release(&l);
    assert_true(rep.valid);
    assert_true(rep.flights[0].landed);
    int per[GAME_MAX_PLAYERS];
    int city = game_find_seg(g, game_tile_at(g, (struct pos){ 0, 0 }),
                             FEAT_CITY, EDGE_N);
    assert_int_equal(game_feature_meeples(g, city, per), 2);
    assert_int_equal(per[RED], 1);
    assert_int_equal(per[BLUE], 1);
    game_free(g);
    report_release(&rep);
}

/* A flight's points: Red flies onto the start tile's city, where Blue's
 * knight stands (as above); at final scoring the open city (start tile
 * and BA/Cc.1: 2 tiles, no pennant) is a tie and pays both 2, which is
 * the flight's. Blue keeps the city alone when Red's flight returns:
 * that flight won nothing. */
static void test_flight_points(void **state)
{
    (void)state;
    struct rules r = fx_rules_c2(2);
    struct audit_opts o = { .assume_finished = true };
    struct report rep;
    const struct fx_step s[] = {
        FX_PLACE(RED, "BA/RFr", -1, 0, 0), FX_PASS(RED), FX_COMMIT(RED),
        FX_PLACE(BLUE, "BA/Cc.1", 0, -1, 2),
        FX_DEPLOY(BLUE, 0, -1, FEAT_CITY, "SE"), FX_COMMIT(BLUE),
        FX_PLACE(RED, "FL/RFr.WE.o", 1, 0, 0), FX_FLY(RED, 1, 0, 1),
        FX_DEPLOY(RED, 0, 0, FEAT_CITY, "N"), FX_COMMIT(RED),
    };
    audit_steps(&r, s, sizeof s / sizeof s[0], &o, &rep);
    assert_true(rep.finished);
    assert_int_equal(rep.n_flights, 1);
    assert_true(rep.flights[0].landed);
    int city = 0, credited = 0;
    for (size_t i = 0; i < rep.n_events; i++) {
        const struct score_event *ev = &rep.events[i];
        if (ev->feature != FEAT_CITY)
            continue;
        city++;
        assert_int_equal(ev->points, 2);
        assert_int_equal(ev->players, (1u << RED) | (1u << BLUE));
        assert_int_equal(ev->fliers, 1u << RED);
        assert_int_equal(ev->n_flights, 1);
        assert_int_equal(ev->flights[0], 1);
        credited += ev->points;
    }
    assert_int_equal(city, 1);
    assert_int_equal(rep.flights[0].points, credited);
    report_release(&rep);

    const struct fx_step back[] = {
        FX_PLACE(RED, "BA/RFr", -1, 0, 0), FX_PASS(RED), FX_COMMIT(RED),
        FX_PLACE(BLUE, "BA/Cc.1", 0, -1, 2),
        FX_DEPLOY(BLUE, 0, -1, FEAT_CITY, "SE"), FX_COMMIT(BLUE),
        FX_PLACE(RED, "FL/RFr.WE.o", 1, 0, 0), FX_FLY(RED, 1, 0, 2),
        FX_COMMIT(RED),
    };
    audit_steps(&r, back, sizeof back / sizeof back[0], &o, &rep);
    assert_int_equal(rep.n_flights, 1);
    assert_false(rep.flights[0].landed);
    assert_int_equal(rep.flights[0].points, 0);
    for (size_t i = 0; i < rep.n_events; i++)
        assert_int_equal(rep.events[i].n_flights, 0);
    report_release(&rep);
}

/* A position beyond the board cannot be replayed: the audit halts there
 * and the game is never finished, not even when asked to assume it. */
static void test_halt_beyond_board(void **state)
{
    (void)state;
    struct rules r = fx_rules_c2(2);
    struct audit_opts o = { .assume_finished = true };
    const struct fx_step s[] = {
        FX_PLACE(RED, "BA/RFr", 1, 0, 0), FX_PASS(RED), FX_COMMIT(RED),
        FX_PLACE(BLUE, "BA/RFr", 300, 0, 0), FX_PASS(BLUE), FX_COMMIT(BLUE),
        FX_PLACE(RED, "BA/XYZ", 2, 0, 0), FX_COMMIT(RED),
    };
    struct report rep;
    audit_steps(&r, s, sizeof s / sizeof s[0], &o, &rep);
    assert_true(rep.halted);
    assert_int_equal(rep.halt_turn, 2);
    assert_true(rep.halt_msg[0] != '\0');
    assert_false(rep.finished);
    assert_false(rep.valid);
    assert_int_equal(rep.n_violations, 1); /* nothing after the halt */
    assert_int_equal(rep.violations[0].rule, RULE_TILE_NOT_ADJACENT);
    report_release(&rep);
}

/* ---- rounds between turns ------------------------------------------------ */

static void print_violations(const struct report *r)
{
    for (size_t i = 0; i < r->n_violations; i++)
        print_error("turn %d: %s: %s\n", r->violations[i].turn,
                    rule_id(r->violations[i].rule), r->violations[i].msg);
}

#define INTO(p, q, n) FX_DEPLOY_N(p, 0, 0, FEAT_QUARTER, q, FIG_SMALL, n)

/* The Count: both players have a follower in the blacksmith's quarter
 * when Blue's crossroads at (1,-3) ends the road north of the City in
 * turn 6. Before it scores, the City asks Red first (the seat after
 * Blue's), who moves out onto the road (a COMMIT follows), then Blue,
 * the player on turn, asked last, who declines with a PASS. Red's
 * follower joins Blue's on the road: 3 each. */
static void test_city_asks_round_to_the_turn_player(void **state)
{
    (void)state;
    struct rules r = fx_rules_c2(2);
    fx_add_set(&r, "count");
    r.flags |= RF_COUNT;
    const struct fx_step s[] = {
        FX_PLACE(RED, "BA/L", 2, 0, 0), FX_PASS(RED), FX_COMMIT(RED),
        /* Blue's road south of the City, ended by Red: Red goes in */
        FX_PLACE(BLUE, "BA/RFr", 0, 2, 1),
        FX_DEPLOY(BLUE, 0, 2, FEAT_ROAD, "NS"), FX_COMMIT(BLUE),
        FX_PLACE(RED, "BA/CRRR", 0, 3, 2),
        FX_DEPLOY(RED, 0, 3, FEAT_ROAD, "E"), FX_COMMIT(RED),
        INTO(RED, "blacksmith", 2), FX_COUNT_TO(RED, "market"),
        /* Red's road ended by Blue: Blue goes in, the count stays */
        FX_PLACE(BLUE, "BA/RRR", 1, 3, 0), FX_PASS(BLUE), FX_COMMIT(BLUE),
        FX_PASS(RED), /* the road could take Red's out of the City */
        INTO(BLUE, "blacksmith", 1), FX_PASS(BLUE),
        /* the road north of the City, ended by Blue with a follower */
        FX_PLACE(RED, "BA/RFr", 1, -2, 1), FX_PASS(RED), FX_COMMIT(RED),
        FX_PLACE(BLUE, "BA/CRRR", 1, -3, 0),
        FX_DEPLOY(BLUE, 1, -3, FEAT_ROAD, "S"), FX_COMMIT(BLUE),
        FX_DEPLOY_N(RED, 1, -1, FEAT_ROAD, "N", FIG_SMALL, 2),
        FX_COMMIT(RED),
        FX_PASS(BLUE),
        FX_PLACE(RED, "BA/L", 3, 0, 0), FX_PASS(RED), FX_COMMIT(RED),
    };
    struct game_log l;
    struct report rep;
    fx_log_init_layout(&l, &r);
    fx_log_add(&l, s, sizeof s / sizeof s[0]);
    fx_audit(&l, &rep);
    game_log_release(&l);
    print_violations(&rep);
    assert_true(rep.valid);
    assert_int_equal(rep.turns, 7);
    int north = -1;
    for (size_t i = 0; i < rep.n_events; i++)
        if (rep.events[i].turn == 6 && rep.events[i].feature == FEAT_ROAD)
            north = (int)i;
    assert_true(north >= 0);
    assert_int_equal(rep.events[north].players, 1u << RED | 1u << BLUE);
    assert_int_equal(rep.events[north].points, 3);
    report_release(&rep);
}

/* n players with an abbey each, The Abbey & Mayor's tiles only. */
static struct rules abbey_rules(int n)
{
    struct rules r;
    rules_init(&r);
    r.n_players = n;
    r.figures[FIG_SMALL] = FX_FOLLOWERS;
    r.counts[COUNT_ABBEYS] = 1;
    fx_add_set(&r, "abbey-and-mayor:1");
    return r;
}

/* l with steps s audited: valid and finished after `turns` turns (l is
 * released; rep is the caller's to release). */
static void audit_finished(struct game_log *l, const struct fx_step *s,
                           size_t n, int turns, struct report *rep)
{
    fx_log_add(l, s, n);
    fx_audit(l, rep);
    game_log_release(l);
    print_violations(rep);
    assert_true(rep->valid);
    assert_int_equal(rep->turns, turns);
    assert_true(rep->finished);
}

/* Abbey & Mayor, the last round of abbeys: six players, each holding an
 * abbey. The pack is The Abbey & Mayor's twelve tiles, ten of them laid
 * as start tiles round two holes, (10,11) and (12,11); seats 0 and 1
 * draw the last two. The round asks the seats after the last to draw,
 * round to it: 2, 3, 4 and 5 decline (a bare PASS each), 0 plays its
 * abbey into a hole (a PASS and a COMMIT follow), 1 declines. */
static void test_last_round_of_abbeys(void **state)
{
    (void)state;
    struct rules r = abbey_rules(6);
    static const struct {
        const char *id;
        struct pos at;
    } ring[] = {
        { "AM/C++", { 9, 11 } },   { "AM/CCcc+", { 11, 11 } },
        { "AM/CCc+", { 13, 11 } }, { "AM/CCRR", { 10, 12 } },
        { "AM/LRRRR", { 12, 12 } }, { "AM/RC", { 12, 10 } },
        { "AM/CRr", { 10, 10 } },  { "AM/RrC", { 20, 20 } },
        { "AM/C!+", { 22, 20 } },  { "AM/CRcr+", { 24, 20 } },
    };
    struct game_log l;
    fx_log_init(&l, &r);
    for (size_t i = 0; i < sizeof ring / sizeof ring[0]; i++)
        l.more_starts[l.n_more_starts++] = (struct start_place){
            (int16_t)fx_tile(ring[i].id), 0, ring[i].at };
    const struct fx_step s[] = {
        FX_PLACE(0, "AM/R", -1, 0, 3), FX_PASS(0), FX_COMMIT(0),
        FX_PLACE(1, "AM/Rrr", 1, 0, 0), FX_PASS(1), FX_COMMIT(1),
        FX_PASS(2), FX_PASS(3), FX_PASS(4), FX_PASS(5),
        FX_PLACE(0, "AM/A", 10, 11, 0), FX_PASS(0), FX_COMMIT(0),
        FX_PASS(1),
    };
    struct report rep;
    audit_finished(&l, s, sizeof s / sizeof s[0], 3, &rep);
    report_release(&rep);
}

/* The same when the pack is not empty but its last tile fits nowhere:
 * JCloisterZone puts it aside and the game is over, so the last round
 * begins. Three players, one abbey each; the pack is The Abbey & Mayor's
 * tiles, eight of them laid as start tiles; AM/C++ is left and fits
 * nowhere. Blue plays its abbey into a hole in turn 2; Red places the
 * last tile that fits in turn 4. The round asks Yellow (Blue holds no
 * abbey any more), who plays its abbey into another hole (a PASS and a
 * COMMIT follow), then Red, who declines with a bare PASS. */
static void test_last_round_when_no_tile_fits(void **state)
{
    (void)state;
    struct rules r = abbey_rules(3);
    /* a ring of start tiles round three holes, (11,11), (13,11) and
     * (15,11), no city of theirs facing an empty square that could take
     * AM/C++ (every such square sees a road or a field too) */
    static const struct {
        const char *id;
        int x, y, rot;
    } starts[] = {
        { "AM/CCRR", 10, 11, 1 }, { "AM/CCcc+", 12, 11, 0 },
        { "AM/CCc+", 14, 11, 3 }, { "AM/CRcr+", 16, 11, 1 },
        { "BA/L", 11, 10, 0 },    { "AM/C!+", 13, 10, 0 },
        { "AM/RrC", 15, 10, 2 },  { "BA/L", 11, 12, 0 },
        { "AM/CRr", 13, 12, 0 },  { "AM/RC", 15, 12, 0 },
    };
    struct game_log l;
    fx_log_init(&l, &r);
    l.start_tile = fx_tile("BA/L");
    for (size_t i = 0; i < sizeof starts / sizeof starts[0]; i++)
        l.more_starts[l.n_more_starts++] = (struct start_place){
            (int16_t)fx_tile(starts[i].id), (uint8_t)starts[i].rot,
            { starts[i].x, starts[i].y } };
    const struct fx_step s[] = {
        FX_PLACE(RED, "AM/R", 1, 0, 0), FX_PASS(RED), FX_COMMIT(RED),
        FX_PLACE(BLUE, "AM/A", 11, 11, 0), FX_PASS(BLUE), FX_COMMIT(BLUE),
        FX_PLACE(YELLOW, "AM/Rrr", 1, 1, 0), FX_PASS(YELLOW),
        FX_COMMIT(YELLOW),
        FX_PLACE(RED, "AM/LRRRR", 2, 1, 0), FX_PASS(RED), FX_COMMIT(RED),
        FX_PLACE(YELLOW, "AM/A", 13, 11, 0), FX_PASS(YELLOW),
        FX_COMMIT(YELLOW),
        FX_PASS(RED),
    };
    struct report rep;
    audit_finished(&l, s, sizeof s / sizeof s[0], 5, &rep);
    assert_int_equal(rep.n_discards, 1);
    assert_int_equal(rep.discards[0].tile, fx_tile("AM/C++"));
    report_release(&rep);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_clean_game_is_valid),
        cmocka_unit_test(test_unfinished_vs_assume_finished),
        cmocka_unit_test(test_audit_is_deterministic),
        cmocka_unit_test(test_violation_table),
        cmocka_unit_test(test_move_before_first_turn),
        cmocka_unit_test(test_discard_that_fits),
        cmocka_unit_test(test_discard_that_does_not_fit),
        cmocka_unit_test(test_abbot_recall_is_valid),
        cmocka_unit_test(test_flight_records),
        cmocka_unit_test(test_flight_lands_beside_opponent),
        cmocka_unit_test(test_flight_points),
        cmocka_unit_test(test_halt_beyond_board),
        cmocka_unit_test(test_city_asks_round_to_the_turn_player),
        cmocka_unit_test(test_last_round_of_abbeys),
        cmocka_unit_test(test_last_round_when_no_tile_fits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
