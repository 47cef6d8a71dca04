/* test_units.c - the expansion units, case by case: The River (the draw
 * and the river's course), Inns & Cathedrals (inns, cathedrals, the large
 * follower), the Phantom, flights by every figure, Traders & Builders
 * (builder, pig, trade goods), Abbey & Mayor (abbey, mayor, barn, wagon),
 * The Tower (floors, captures, exchanges, ransoms, followers on towers),
 * The Princess & the Dragon (dragon, fairy, princess, portal), The Count
 * of Carcassonne (the City's quarters, the count), the shrines (their
 * placement, a shrine without the element), the siege (besieged cities,
 * the escape), the castles of Bridges, Castles & Bazaars (made, scored
 * beside a completed feature and in a chain, held at the end, the
 * faults, no flier landing) and the draw check.
 * The seeds' clarifications these expansions touch are cases here: a
 * large follower that lands on an occupied city wins its majority; a
 * phantom may not use a flying machine used this turn; a mayor lands only
 * in an unfinished city; builder, pig and barn never fly.
 *
 * Most cases are rows: a game's steps, and what its audit must say (the
 * first violation, or none; score events; flights). Each row is a cmocka
 * test of its own, named after it.
 *
 * Board sketches: x grows east, y south; the start tile sits at (0,0). */
#include <stdarg.h> /* cmocka 1.1.5 needs these four first */
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "board_fixture.h"
#include "core/exp/bcb.h"
#include "core/exp/dragon.h"
#include "core/exp/mage.h"
#include "core/exp/tower.h"
#include "fx_cases.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))
#define STEPS(...) (const struct fx_step[]){ __VA_ARGS__ }, \
    N_OF(((const struct fx_step[]){ __VA_ARGS__ }))

static struct rules river_rules(const char *set)
{
    struct rules r = fx_rules_c2(2);
    fx_add_set(&r, set);
    return r;
}

static struct rules inns_rules(void)
{
    struct rules r = fx_rules_c2(2);
    fx_add_set(&r, "inns-and-cathedrals:1");
    r.figures[FIG_BIG] = 1;
    r.flags |= RF_INNS | RF_CATHEDRALS;
    return r;
}

static struct rules phantom_rules(void)
{
    struct rules r = fx_rules_c2(2);
    r.figures[FIG_PHANTOM] = 1;
    return r;
}

/* ---- audited games, as rows --------------------------------------------- */

#define ANY INT_MIN /* a score a row does not pin */

/* Rows name what they check and leave the rest zero. */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

/* A game of steps from BA/RCr (or the City of Carcassonne) audited, and
 * what the report must say. Only name, rules and steps are required;
 * every other field left zero checks nothing (but rule: RULE_OK, the
 * game is valid). */
struct audit_case {
    const char *name;
    struct rules (*rules)(void);
    const struct fx_step *steps;
    size_t n;
    enum rule rule;         /* the first violation; RULE_OK: valid */
    int turn;               /* its turn */
    const char *msg_has;    /* a part of its message */
    enum rule then;         /* a second and last violation (not RULE_OK) */
    const char *then_has;
    bool city;              /* the City of Carcassonne as the start */
    int end_turn;           /* the game ends after this turn; 0: goes on */
    bool finished;          /* report.finished */
    struct fx_event_want events[4];
    int flights;            /* n_flights, flights[0] landed with... */
    int flight_fig;         /* ... this figure */
    int score[2];           /* ANY: not pinned; all 0: neither pinned */
    /* what no field says (counts over all events) */
    void (*more)(const char *what, const struct report *r);
};

static void expect_item(const struct score_event *ev, int i, int kind,
                        int count, int points)
{
    assert_true(i < ev->n_items);
    assert_int_equal(ev->items[i].kind, kind);
    assert_int_equal(ev->items[i].count, count);
    assert_int_equal(ev->items[i].points, points);
}

static void expect_valid(const char *what, const struct report *r)
{
    for (size_t i = 0; i < r->n_violations; i++)
        print_error("%s: turn %d: %s: %s\n", what, r->violations[i].turn,
                    rule_id(r->violations[i].rule), r->violations[i].msg);
    if (!r->valid)
        fail_msg("%s: invalid, expected valid", what);
}

/* The first violation is rule at turn, with a message. */
static void expect_first(const char *what, const struct report *r,
                         enum rule rule, int turn)
{
    if (r->n_violations == 0)
        fail_msg("%s: no violation, expected %s", what, rule_id(rule));
    if (r->violations[0].rule != rule || r->violations[0].turn != turn)
        fail_msg("%s: turn %d: %s (%s), expected %s at turn %d", what,
                 r->violations[0].turn, rule_id(r->violations[0].rule),
                 r->violations[0].msg, rule_id(rule), turn);
    if (r->violations[0].msg[0] == '\0')
        fail_msg("%s: %s without a message", what, rule_id(rule));
}

/* ---- The River ---------------------------------------------------------- */

/* The spring starts the game; the river's tiles are drawn first, its lake
 * last, the rest of the pack after it; The River II begins with its fork.
 * Drawing the river group empty opens the lake, the lake the rest. */
static void test_river_draw_groups(void **state)
{
    (void)state;
    struct rules r = river_rules("river/1:1");
    struct game *g = fx_new_from(&r, "RI/s");
    int lake = fx_tile("RI.1/I.e"), bend = fx_tile("RI.1/II");
    assert_int_equal(g->pack[fx_tile("RI/s")], 0); /* never in the pack */
    assert_true(game_drawable(g, bend));
    assert_false(game_drawable(g, lake));
    assert_false(game_drawable(g, fx_tile("BA/RCr")));
    assert_int_equal(g->draw_left, 10); /* the river group alone */
    for (int t = 0; t < tile_count(); t++)
        while (g->pack[t] > 0 && tile_get(t)->group == TG_RIVER)
            game_discard(g, t);
    assert_true(game_drawable(g, lake));
    assert_int_equal(game_pack_draw(g, 0.5), lake);
    game_discard(g, lake);
    assert_true(game_drawable(g, fx_tile("BA/RCr")));
    assert_int_equal(g->pack[fx_tile("BA/RCr")], 4); /* RI/s started */
    game_free(g);

    r = river_rules("river/2:1");
    g = fx_new_from(&r, "RI/s");
    assert_int_equal(g->draw_left, 1);
    assert_int_equal(game_pack_draw(g, 0.99), fx_tile("RI.2/III"));
    game_free(g);

    /* both rivers: one spring, one lake (the volcano) */
    r = river_rules("river/1:1");
    fx_add_set(&r, "river/2:1");
    assert_int_equal(game_pack_copies(&r, lake), 0);
    assert_int_equal(game_pack_copies(&r, fx_tile("RI.2/I.v")), 1);
    assert_int_equal(game_pack_copies(&r, fx_tile("RI/s")), 0);
}

static const struct {
    const char *what, *tile;
    int x, y, rot;
    enum rule rule;
} river_place_cases[] = {
    /* the spring's river leaves east */
    { "continues the river east", "RI.1/IFI", 1, 0, 0, RULE_OK },
    { "river edge against field", "RI.1/IFI", 0, 1, 1,
      RULE_TILE_EDGE_MISMATCH },
    { "river off on its own", "RI.1/IFI", 0, 1, 0, RULE_RIVER_FLOW },
    { "a base tile while river tiles are left", "BA/L", 0, 1, 0,
      RULE_RIVER_ORDER },
    { "the lake before the river's end", "RI.1/I.e", 1, 0, 0,
      RULE_RIVER_ORDER },
};

static void test_river_placement(void **state)
{
    (void)state;
    struct rules r = river_rules("river/1:1");
    for (size_t i = 0; i < N_OF(river_place_cases); i++) {
        char why[200] = "";
        struct game *g = fx_new_from(&r, "RI/s");
        enum rule got = game_check_place(
            g, fx_tile(river_place_cases[i].tile),
            (struct pos){ river_place_cases[i].x, river_place_cases[i].y },
            river_place_cases[i].rot, why, sizeof why);
        if (got != river_place_cases[i].rule)
            fail_msg("%s: %s (%s)", river_place_cases[i].what, rule_id(got),
                     why);
        game_free(g);
    }
}

/* Two bends the same way would turn the river back on itself:
 *
 *   (0,0) spring ->  (1,0) bends south
 *                     (1,1) may bend east, not west (the spring is
 *                           beside the square the river would flow to)
 */
static void test_river_no_u_turn(void **state)
{
    (void)state;
    char why[200] = "";
    struct rules r = river_rules("river/1:1");
    struct game *g = fx_new_from(&r, "RI/s");
    int bend = fx_tile("RI.1/II"); /* river W S */
    fx_play(g, "RI.1/II", 1, 0, 0); /* from the west, on to the south */
    assert_int_equal(game_check_place(g, bend, (struct pos){ 1, 1 }, 1, why,
                                      sizeof why),
                     RULE_RIVER_FLOW); /* N W: back west under the spring */
    assert_non_null(strstr(why, "U-turn"));
    assert_int_equal(game_check_place(g, bend, (struct pos){ 1, 1 }, 2, why,
                                      sizeof why),
                     RULE_OK); /* N E: on east */
    assert_false(game_fits(g, bend, (struct pos){ 1, 1 }, 1));
    struct placement p[16];
    int n = game_list_placements(g, bend, p, 16);
    for (int i = 0; i < n; i++) /* every listed placement is legal */
        assert_int_equal(game_check_place(g, bend, p[i].at, p[i].rot, why,
                                          sizeof why),
                         RULE_OK);
    game_free(g);
}

/* Nothing stands on a river, and a flier never lands there: a river tile
 * offers only its roads, cities and monasteries. */
static void test_river_is_no_feature(void **state)
{
    (void)state;
    struct rules r = river_rules("river/1:1");
    struct game *g = fx_new_from(&r, "RI/s");
    int t = fx_place(g, "RI.1/CIRI", 1, 0, 0); /* city N, road S, river */
    const struct placed *pl = &g->tiles[t];
    for (int i = pl->seg0; i < pl->seg0 + pl->n_seg; i++)
        assert_int_not_equal(g->segs[i].kind, FEAT_RIVER);
    int segs[TILE_MAX_SEGS];
    int n = game_landings(g, (struct pos){ 1, 0 }, FIG_SMALL, segs,
                          TILE_MAX_SEGS);
    assert_int_equal(n, 2); /* the city and the road */
    game_free(g);
}

/* ---- Inns & Cathedrals -------------------------------------------------- */
static const struct audit_case inn_cases[] = {
    /* A road from a crossing at (-1,0) over the start tile and an inn at
     * (1,0) to a crossing at (2,0): 4 tiles, completed with an inn: 2
     * each. */
    { "inns: a road completed with an inn", inns_rules, STEPS(
          FX_PLACE(RED, "BA/CRRR", -1, 0, 0), FX_PASS(RED), FX_COMMIT(RED),
          FX_PLACE(BLUE, "IC/RFr.i", 1, 0, 0),
          FX_DEPLOY(BLUE, 1, 0, FEAT_ROAD, "WE"), FX_COMMIT(BLUE),
          FX_PLACE(RED, "BA/CRRR", 2, 0, 0), FX_PASS(RED), FX_COMMIT(RED)),
      .events = { FX_EV(3, FEAT_ROAD,
                        FXW_POINTS | FXW_PLAYERS | FXW_EXPR | FXW_ITEMS,
                        .points = 8, .players = 1u << BLUE, .expr = EXPR_DONE,
                        .n_items = 2,
                        .items = { { SI_TILES, 4, 4 }, { SI_INN, -1, 4 } }) } },
    /* Unfinished at the end, a road with an inn scores nothing (the inn's
     * term alone); a cathedral city likewise. */
    { "inns: an inn and a cathedral unfinished", inns_rules, STEPS(
          FX_PLACE(RED, "IC/RFr.i", 1, 0, 0),
          FX_DEPLOY(RED, 1, 0, FEAT_ROAD, "WE"), FX_COMMIT(RED),
          FX_PLACE(BLUE, "IC/Cccc.c", 0, -1, 0),
          FX_DEPLOY(BLUE, 0, -1, FEAT_CITY, "NWSE"), FX_COMMIT(BLUE)),
      .end_turn = 2,
      .events = { FX_EV(-1, FEAT_ROAD,
                        FXW_POINTS | FXW_EXPR | FXW_N_ITEMS | FXW_ITEMS,
                        .points = 0, .expr = EXPR_INCOMPLETE, .n_items = 1,
                        .items = { { SI_INN, -1, 0 } }),
                  FX_EV(-1, FEAT_CITY, FXW_POINTS | FXW_N_ITEMS | FXW_ITEMS,
                        .points = 0, .n_items = 1,
                        .items = { { SI_CATHEDRAL, -1, 0 } }) } },
    /* The cathedral city north of the start, closed by three caps: 5
     * tiles, 3 each (JCloisterZone: tiles 5 for 10, the cathedral 5
     * more). */
    { "inns: a cathedral completed", inns_rules, STEPS(
          FX_PLACE(RED, "IC/Cccc.c", 0, -1, 0),
          FX_DEPLOY(RED, 0, -1, FEAT_CITY, "NWSE"), FX_COMMIT(RED),
          FX_PLACE(BLUE, "BA/C", 0, -2, 2), FX_PASS(BLUE), FX_COMMIT(BLUE),
          FX_PLACE(RED, "BA/C", -1, -1, 1), FX_PASS(RED), FX_COMMIT(RED),
          FX_PLACE(BLUE, "BA/C", 1, -1, 3), FX_PASS(BLUE), FX_COMMIT(BLUE)),
      .events = { FX_EV(4, FEAT_CITY, FXW_POINTS | FXW_ITEMS, .points = 15,
                        .n_items = 2,
                        .items = { { SI_TILES, 5, 10 },
                                   { SI_CATHEDRAL, -1, 5 } }) } },
    /* The seeds: a large follower may fly onto an occupied city, and it
     * counts as two there.
     *
     *   (0,-2) Blue closes      .
     *   (0,-1) Blue's knight   (1,-1) Red's FL/F.o, arrow W, roll 1
     *   (0,0)  start city      (1,0) a road tile */
    { "inns: a large follower flies in and wins", inns_rules, STEPS(
          FX_PLACE(RED, "BA/RFr", 1, 0, 0), FX_PASS(RED), FX_COMMIT(RED),
          FX_PLACE(BLUE, "BA/CFc.1", 0, -1, 1),
          FX_DEPLOY(BLUE, 0, -1, FEAT_CITY, "NS"), FX_COMMIT(BLUE),
          FX_PLACE(RED, "FL/F.o", 1, -1, 0),
          FX_FLY_FIG(RED, 1, -1, 1, FIG_BIG, 1),
          FX_DEPLOY_N(RED, 0, -1, FEAT_CITY, "NS", FIG_BIG, 1),
          FX_COMMIT(RED),
          FX_PLACE(BLUE, "BA/C", 0, -2, 2), FX_PASS(BLUE), FX_COMMIT(BLUE)),
      .flights = 1, .flight_fig = FIG_BIG,
      /* strength 2 against 1 */
      .events = { FX_EV(4, FEAT_CITY, FXW_POINTS | FXW_PLAYERS | FXW_STRENGTH,
                        .points = 6, .players = 1u << RED,
                        .strength = { [RED] = 2, [BLUE] = 1 }) },
      .score = { ANY, 0 } },
};


/* A large follower against two ordinary followers of one player: a tie,
 * both score. The figures are put on the city directly (as flights and
 * joined cities can bring them together). */
static void test_big_follower_ties_two(void **state)
{
    (void)state;
    struct rules r = inns_rules();
    struct game *g = fx_new(&r);
    fx_place(g, "BA/CFc.1", 0, -1, 1); /* city N S, on the start's city */
    int city = fx_seg(g, 0, -1, FEAT_CITY, EDGE_S);
    game_deploy(g, game_meeple(g, RED, FIG_SMALL, 0), city);
    game_deploy(g, game_meeple(g, RED, FIG_SMALL, 0), city);
    game_deploy(g, game_meeple(g, BLUE, FIG_BIG, 0), city);
    game_end_turn(g);
    game_final_scoring(g);
    assert_int_equal(g->n_events, 1);
    const struct score_event *ev = &g->events[0];
    assert_int_equal(ev->meeples[RED], 2);
    assert_int_equal(ev->meeples[BLUE], 1);
    assert_int_equal(ev->strength[RED], 2);
    assert_int_equal(ev->strength[BLUE], 2);
    assert_int_equal(ev->players, (1u << RED) | (1u << BLUE));
    assert_int_equal(g->score[RED], g->score[BLUE]);
    game_free(g);
}

/* ---- Darmstadt ------------------------------------------------------------ */

/* A church's bonus counts followers on its block by figures, not strength
 * (a large follower is one), on any feature (a farmer too), the church's
 * own monk among them, before the completed features send theirs home:
 * a tie, so both get 3, and the monk's owner the monastery's 9 too. */
static void test_church_bonus_counts_figures(void **state)
{
    (void)state;
    struct rules r = inns_rules();
    fx_add_set(&r, "darmstadt");
    struct game *g = fx_new(&r);
    fx_play(g, "DA/LRR", 0, 1, 0);  /* the church, road E S */
    fx_play(g, "BA/RFr", 1, 0, 0);
    fx_play(g, "BA/RFr", 1, 1, 0);
    fx_play(g, "BA/L", -1, 1, 0);
    fx_play(g, "BA/RFr", -1, 0, 0);
    fx_play(g, "BA/RFr", 0, 2, 1);
    fx_play(g, "FL/F.o", 1, 2, 1);
    game_deploy(g, game_meeple(g, RED, FIG_BIG, 0),
                fx_seg(g, 1, 0, FEAT_ROAD, EDGE_W));
    game_deploy(g, game_meeple(g, RED, FIG_SMALL, 0),
                fx_seg(g, 0, 1, FEAT_MONASTERY, 0));
    game_deploy(g, game_meeple(g, BLUE, FIG_SMALL, 0),
                fx_seg(g, -1, 0, FEAT_FIELD, HE_SL));
    game_deploy(g, game_meeple(g, BLUE, FIG_SMALL, 0),
                fx_seg(g, -1, 1, FEAT_MONASTERY, 0));
    fx_place(g, "BA/L", -1, 2, 0); /* fills the church's block */
    game_end_turn(g);
    int church = -1, cloister = -1;
    for (int i = 0; i < g->n_events; i++) {
        if (g->events[i].feature == FEAT_CHURCH)
            church = i;
        if (g->events[i].feature == FEAT_MONASTERY)
            cloister = i;
    }
    assert_true(church >= 0 && cloister >= 0);
    const struct score_event *ev = &g->events[church];
    assert_int_equal(ev->players, (1u << RED) | (1u << BLUE));
    assert_int_equal(ev->points, 3);
    assert_int_equal(ev->meeples[RED], 2);
    assert_int_equal(ev->meeples[BLUE], 2);
    assert_int_equal(g->events[cloister].players, 1u << RED);
    assert_int_equal(g->score[RED], 12);
    assert_int_equal(g->score[BLUE], 3);
    game_free(g);
}

/* ---- Under the Big Top ------------------------------------------------------ */

static struct rules bigtop_rules(void)
{
    struct rules r = fx_rules_c2(2);
    fx_add_set(&r, "under-the-big-top:1");
    r.figures[FIG_RINGMASTER] = 1;
    r.flags |= RF_BIG_TOP | RF_ACROBATS;
    return r;
}

/* The acrobat space of BT/ffff.ac at (x, y), scored as the turn's action. */
#define SCORE_ACROBATS(p, x, y) \
    { MV_SCORE_ACROBATS, (p), NULL, (x), (y), 0, FEAT_ACROBATS, "I", 0, 0, \
      -1, 0, 0 }
/* Three acrobats on BT/ffff.ac at (0,1): RED's, BLUE's from (1,1), RED's
 * from (-1,1). */
#define PYRAMID_STEPS \
    FX_PLACE(RED, "BT/ffff.ac", 0, 1, 0), \
    FX_DEPLOY(RED, 0, 1, FEAT_ACROBATS, "I"), FX_COMMIT(RED), \
    FX_PLACE(BLUE, "BA/C", 1, 1, 2), \
    FX_DEPLOY(BLUE, 0, 1, FEAT_ACROBATS, "I"), FX_COMMIT(BLUE), \
    FX_PLACE(RED, "BA/C", -1, 1, 2), \
    FX_DEPLOY(RED, 0, 1, FEAT_ACROBATS, "I"), FX_COMMIT(RED)

static const struct audit_case bigtop_cases[] = {
    { "bigtop: acrobats stack from the tiles around", bigtop_rules,
      STEPS(PYRAMID_STEPS), RULE_OK, .end_turn = 3, .finished = true,
      .score = { 10, 5 } },
    { "bigtop: a complete pyramid scored by another player", bigtop_rules,
      STEPS(PYRAMID_STEPS, FX_PLACE(BLUE, "BA/RFr", 1, 0, 0),
            SCORE_ACROBATS(BLUE, 0, 1), FX_COMMIT(BLUE)),
      RULE_OK, .end_turn = 4, .finished = true, .score = { 10, 5 } },
    { "bigtop: a fourth acrobat on a complete pyramid", bigtop_rules,
      STEPS(PYRAMID_STEPS, FX_PLACE(BLUE, "BA/RFr", 1, 0, 0),
            FX_DEPLOY(BLUE, 0, 1, FEAT_ACROBATS, "I"), FX_COMMIT(BLUE)),
      RULE_MEEPLE_FEATURE_OCCUPIED, 4, "complete" },
    { "bigtop: a pyramid of one scored", bigtop_rules,
      STEPS(FX_PLACE(RED, "BT/ffff.ac", 0, 1, 0),
            FX_DEPLOY(RED, 0, 1, FEAT_ACROBATS, "I"), FX_COMMIT(RED),
            FX_PLACE(BLUE, "BA/RFr", 1, 0, 0),
            SCORE_ACROBATS(BLUE, 0, 1), FX_COMMIT(BLUE)),
      RULE_ACROBATS, 2, "1 figure" },
    { "bigtop: acrobats two squares off the turn's tile", bigtop_rules,
      STEPS(FX_PLACE(RED, "BT/ffff.ac", 0, 1, 0), FX_PASS(RED),
            FX_COMMIT(RED), FX_PLACE(BLUE, "BA/RFr", 1, 0, 0),
            FX_PASS(BLUE), FX_COMMIT(BLUE),
            FX_PLACE(RED, "BA/RFr", 2, 0, 0),
            FX_DEPLOY(RED, 0, 1, FEAT_ACROBATS, "I"), FX_COMMIT(RED)),
      RULE_MEEPLE_NOT_ON_PLACED_TILE, 3, "neither" },
    { "bigtop: the ringmaster onto acrobats", bigtop_rules,
      STEPS(FX_PLACE(RED, "BT/ffff.ac", 0, 1, 0),
            FX_DEPLOY_N(RED, 0, 1, FEAT_ACROBATS, "I", FIG_RINGMASTER, 1),
            FX_COMMIT(RED)),
      RULE_MEEPLE_WRONG_TYPE, 1, "small follower" },
};

/* ---- the Phantom -------------------------------------------------------- */

/* A phantom's turn: every fault is the first turn's. */
static const struct audit_case phantom_cases[] = {
    { "phantom: a follower, then the phantom", phantom_rules, STEPS(
          FX_PLACE(RED, "BA/RFr", 1, 0, 0),
          FX_DEPLOY(RED, 1, 0, FEAT_ROAD, "WE"),
          FX_DEPLOY_N(RED, 1, 0, FEAT_FIELD, "ER.SL.SR.WL", FIG_PHANTOM, 1),
          FX_COMMIT(RED)), RULE_OK },
    { "phantom: the phantom alone", phantom_rules, STEPS(
          FX_PLACE(RED, "BA/RFr", 1, 0, 0),
          FX_DEPLOY_N(RED, 1, 0, FEAT_ROAD, "WE", FIG_PHANTOM, 1),
          FX_COMMIT(RED)), RULE_OK },
    { "phantom: the phantom, then a follower", phantom_rules, STEPS(
          FX_PLACE(RED, "BA/RFr", 1, 0, 0),
          FX_DEPLOY_N(RED, 1, 0, FEAT_ROAD, "WE", FIG_PHANTOM, 1),
          FX_DEPLOY(RED, 1, 0, FEAT_FIELD, "ER.SL.SR.WL"),
          FX_COMMIT(RED)), RULE_MEEPLE_SECOND_DEPLOY, 1 },
    { "phantom: the phantom on the first figure's feature",
      phantom_rules, STEPS(
          FX_PLACE(RED, "BA/RFr", 1, 0, 0),
          FX_DEPLOY(RED, 1, 0, FEAT_ROAD, "WE"),
          FX_DEPLOY_N(RED, 1, 0, FEAT_ROAD, "WE", FIG_PHANTOM, 1),
          FX_COMMIT(RED)), RULE_MEEPLE_FEATURE_OCCUPIED, 1 },
    { "phantom: the phantom after a pass", phantom_rules, STEPS(
          FX_PLACE(RED, "BA/RFr", 1, 0, 0), FX_PASS(RED),
          FX_DEPLOY_N(RED, 1, 0, FEAT_ROAD, "WE", FIG_PHANTOM, 1),
          FX_COMMIT(RED)), RULE_TURN_SEQUENCE, 1 },
    /* the seeds (5/2013): the flying machine serves one figure a turn */
    { "phantom: the phantom on a flying machine used this turn",
      phantom_rules, STEPS(
          FX_PLACE(RED, "FL/F.o", 0, 1, 0), FX_FLY(RED, 0, 1, 1),
          FX_FLY_FIG(RED, 0, 1, 2, FIG_PHANTOM, 1),
          FX_COMMIT(RED)), RULE_FLIER_USED, 1 },
    { "phantom: a flight that found no tile, then the phantom on the tile",
      phantom_rules, STEPS(
          FX_PLACE(RED, "FL/F.o", 0, 1, 0), FX_FLY(RED, 0, 1, 1),
          FX_DEPLOY_N(RED, 0, 1, FEAT_FIELD, "NL.NR.EL.ER.SL.SR.WL.WR",
                      FIG_PHANTOM, 1),
          FX_COMMIT(RED)), RULE_OK },
    { "phantom: the phantom flies, finds no tile, then stands on the tile",
      phantom_rules, STEPS(
          FX_PLACE(RED, "FL/F.o", 0, 1, 0),
          FX_FLY_FIG(RED, 0, 1, 1, FIG_PHANTOM, 1),
          FX_DEPLOY_N(RED, 0, 1, FEAT_FIELD, "NL.NR.EL.ER.SL.SR.WL.WR",
                      FIG_PHANTOM, 1),
          FX_COMMIT(RED)), RULE_OK },
    { "phantom: a third figure", phantom_rules, STEPS(
          FX_PLACE(RED, "BA/RRRR", 1, 0, 0),
          FX_DEPLOY(RED, 1, 0, FEAT_ROAD, "W"),
          FX_DEPLOY_N(RED, 1, 0, FEAT_ROAD, "E", FIG_PHANTOM, 1),
          FX_DEPLOY(RED, 1, 0, FEAT_ROAD, "N"),
          FX_COMMIT(RED)), RULE_MEEPLE_SECOND_DEPLOY, 1 },
    /* A phantom refused a used flying machine, whose "landing" the log
     * then gives: the second fault names the refused flight, not the
     * follower that flew and landed before it. */
    { "phantom: refused a flight, then lands", phantom_rules, STEPS(
          FX_PLACE(RED, "FL/F.o", 0, 1, 1), FX_FLY(RED, 0, 1, 1),
          FX_DEPLOY(RED, 0, 0, FEAT_ROAD, "WE"),
          FX_FLY_FIG(RED, 0, 1, 1, FIG_PHANTOM, 1),
          FX_DEPLOY_N(RED, 0, 0, FEAT_CITY, "N", FIG_PHANTOM, 1),
          FX_COMMIT(RED)), RULE_FLIER_USED, 1,
      .then = RULE_MEEPLE_SECOND_DEPLOY, .then_has = "refused flight",
      .flights = 1 },
};

/* Both figures of a turn stand, and both score with their strength. */
static void test_phantom_scores_beside(void **state)
{
    (void)state;
    struct rules r = phantom_rules();
    struct game *g = fx_new(&r);
    fx_place(g, "BA/RFr", 1, 0, 0);
    fx_deploy(g, RED, FIG_SMALL, fx_seg(g, 1, 0, FEAT_ROAD, EDGE_W));
    char why[200] = "";
    int ph = game_meeple(g, RED, FIG_PHANTOM, 0);
    int field = fx_seg(g, 1, 0, FEAT_FIELD, HE_SL);
    assert_int_equal(game_check_deploy(g, RED, ph, field, why, sizeof why),
                     RULE_OK);
    game_deploy(g, ph, field);
    assert_int_equal(fx_on_board(g, RED), 2);
    int third = game_meeple(g, RED, FIG_SMALL, 0);
    assert_int_equal(game_check_deploy(g, RED, third,
                                       fx_seg(g, 1, 0, FEAT_FIELD, HE_NL),
                                       why, sizeof why),
                     RULE_MEEPLE_SECOND_DEPLOY);
    game_free(g);
}

/* ---- flights by every figure ------------------------------------------ */

/* FL/F.o at (-1,1) turned so its arrow points N, roll 1: the target
 * (-1,0) is BA/LR turned so that its road joins the start's: a monastery,
 * an unfinished road and a field. Each figure's landings; the mayor has
 * none, as it lands only in an unfinished city. */
static void test_landings_by_figure(void **state)
{
    (void)state;
    struct rules r = fx_rules_c3(2);
    fx_add_set(&r, "inns-and-cathedrals:2");
    r.figures[FIG_BIG] = 1;
    r.figures[FIG_PHANTOM] = 1;
    r.figures[FIG_MAYOR] = 1;
    r.figures[FIG_WAGON] = 1;
    struct game *g = fx_new(&r);
    fx_play(g, "BA/LR", -1, 0, 3); /* its road east, onto the start's */
    fx_place(g, "FL/F.o", -1, 1, 1);
    static const struct {
        int fig, n;
    } cases[] = {
        { FIG_SMALL, 2 },   /* monastery and road */
        { FIG_BIG, 2 },
        { FIG_PHANTOM, 2 },
        { FIG_ABBOT, 1 },   /* the monastery only */
        { FIG_WAGON, 2 },   /* monastery and road */
        { FIG_MAYOR, 0 },   /* no city: back to supply (2/2013) */
    };
    struct flight_options o;
    for (size_t i = 0; i < N_OF(cases); i++) {
        game_flight_options(g, g->now.tile, cases[i].fig, &o);
        assert_int_equal(o.target[0].x, -1);
        assert_int_equal(o.target[0].y, 0);
        if (o.n[0] != cases[i].n)
            fail_msg("%s: %d landings, expected %d",
                     figure_class(cases[i].fig)->name, o.n[0], cases[i].n);
        for (int k = 0; k < o.n[0]; k++)
            assert_true(game_kind_allowed(g, cases[i].fig,
                                          g->segs[o.seg[0][k]].kind));
    }
    game_free(g);
}

/* An abbot, a large follower or a phantom landing where it may not stand:
 * MEEPLE_WRONG_TYPE when the figure can never stand there, FLIER_FIELD
 * for a field. */
static void test_landing_faults_by_figure(void **state)
{
    (void)state;
    char why[200];
    struct rules r = fx_rules_c3(2);
    r.figures[FIG_BIG] = 1;
    struct game *g = fx_new(&r);
    fx_play(g, "BA/LR", -1, 0, 3);
    fx_place(g, "FL/F.o", -1, 1, 1);
    struct pos t = { -1, 0 };
    int road = fx_seg(g, -1, 0, FEAT_ROAD, 0);
    int field = fx_seg(g, -1, 0, FEAT_FIELD, 0);
    assert_int_equal(game_check_landing(g, FIG_ABBOT, t, road, t, why,
                                        sizeof why),
                     RULE_MEEPLE_WRONG_TYPE);
    assert_int_equal(game_check_landing(g, FIG_BIG, t, field, t, why,
                                        sizeof why),
                     RULE_FLIER_FIELD);
    assert_int_equal(game_check_landing(g, FIG_BIG, t, road, t, why,
                                        sizeof why),
                     RULE_OK);
    game_free(g);
}

/* ---- Traders & Builders ------------------------------------------------ */

static struct rules traders_rules(void)
{
    struct rules r = fx_rules_c2(2);
    fx_add_set(&r, "traders-and-builders:1");
    r.figures[FIG_BUILDER] = 1;
    r.figures[FIG_PIG] = 1;
    r.flags |= RF_TRADERS;
    return r;
}

/* Red's highwayman on the road east of the start, Red's builder beside it
 * (turn 3), then Red extends that road (turn 5): Red plays turn 6 too. */
#define BUILDER_STEPS                                                      \
    FX_PLACE(RED, "BA/RFr", 1, 0, 0), FX_DEPLOY(RED, 1, 0, FEAT_ROAD, "WE"), \
    FX_COMMIT(RED),                                                        \
    FX_PLACE(BLUE, "BA/L", 0, 1, 0), FX_PASS(BLUE), FX_COMMIT(BLUE),      \
    FX_PLACE(RED, "BA/RFr", 2, 0, 0),                                      \
    FX_DEPLOY_N(RED, 2, 0, FEAT_ROAD, "WE", FIG_BUILDER, 1),              \
    FX_COMMIT(RED),                                                        \
    FX_PLACE(BLUE, "BA/L", -1, 1, 0), FX_PASS(BLUE), FX_COMMIT(BLUE),     \
    FX_PLACE(RED, "BA/RFr", 3, 0, 0), FX_PASS(RED), FX_COMMIT(RED)

static const struct audit_case traders_cases[] = {
    { "traders: a builder's second tile", traders_rules, STEPS(BUILDER_STEPS,
          /* turn 6: Red again, with a follower of Red's */
          FX_PLACE(RED, "BA/L", 1, 1, 0),
          FX_DEPLOY_N(RED, 1, 1, FEAT_MONASTERY, "I", FIG_SMALL, 2),
          FX_COMMIT(RED),
          /* turn 7: Blue */
          FX_PLACE(BLUE, "BA/L", 2, 1, 0),
          FX_DEPLOY_N(BLUE, 2, 1, FEAT_MONASTERY, "I", FIG_SMALL, 1),
          FX_COMMIT(BLUE)), RULE_OK },
    /* without the builder's extension Red may not play twice */
    { "traders: a second tile without the builder", traders_rules, STEPS(
          FX_PLACE(RED, "BA/RFr", 1, 0, 0), FX_PASS(RED), FX_COMMIT(RED),
          FX_PLACE(RED, "BA/L", 0, 1, 0), FX_PASS(RED), FX_COMMIT(RED)),
      RULE_BUILDER_BONUS, 2 },
    { "traders: a builder where its owner has no follower",
      traders_rules, STEPS(
          FX_PLACE(RED, "BA/RFr", 1, 0, 0),
          FX_DEPLOY_N(RED, 1, 0, FEAT_ROAD, "WE", FIG_BUILDER, 1),
          FX_COMMIT(RED)), RULE_BUILDER_PLACEMENT, 1 },
    { "traders: a pig where its owner has no farmer", traders_rules, STEPS(
          FX_PLACE(RED, "BA/RFr", 1, 0, 0),
          FX_DEPLOY_N(RED, 1, 0, FEAT_FIELD, "WR.NL.NR.EL", FIG_PIG, 1),
          FX_COMMIT(RED)), RULE_PIG_PLACEMENT, 1 },
    { "traders: a builder in a field", traders_rules, STEPS(
          FX_PLACE(RED, "BA/RFr", 1, 0, 0),
          FX_DEPLOY_N(RED, 1, 0, FEAT_FIELD, "WR.NL.NR.EL", FIG_BUILDER, 1),
          FX_COMMIT(RED)), RULE_MEEPLE_WRONG_TYPE, 1 },
    { "traders: a builder on a flying machine", traders_rules, STEPS(
          FX_PLACE(RED, "FL/F.o", 0, 1, 0),
          FX_FLY_FIG(RED, 0, 1, 1, FIG_BUILDER, 1),
          FX_COMMIT(RED)), RULE_MEEPLE_WRONG_TYPE, 1 },
    /* Red's farmer and pig in the field north of the road, beside the
     * start's city that Blue completes: 3 for the city and 1 for the pig.
     * Blue takes the wine of the city it completes, and 10 for it at the
     * end. */
    { "traders: a pig and trade goods", traders_rules, STEPS(
          FX_PLACE(RED, "BA/RFr", 1, 0, 0),
          FX_DEPLOY(RED, 1, 0, FEAT_FIELD, "WR.NL.NR.EL"), FX_COMMIT(RED),
          FX_PLACE(BLUE, "TB/CFc.w", 0, -1, 1), FX_PASS(BLUE),
          FX_COMMIT(BLUE),
          FX_PLACE(RED, "BA/RFr", 2, 0, 0),
          FX_DEPLOY_N(RED, 2, 0, FEAT_FIELD, "WR.NL.NR.EL", FIG_PIG, 1),
          FX_COMMIT(RED),
          FX_PLACE(BLUE, "BA/C", 0, -2, 2), FX_PASS(BLUE), FX_COMMIT(BLUE)),
      .end_turn = 4,
      .events = { FX_EV(-1, FEAT_FIELD, FXW_PLAYERS | FXW_POINTS | FXW_ITEMS,
                        .players = 1u << RED, .points = 4, .n_items = 2,
                        .items = { { SI_CITIES, 1, 3 }, { SI_PIGS, -1, 1 } }),
                  FX_EV(-1, FEAT_TRADE_GOODS,
                        FXW_PLAYERS | FXW_POINTS | FXW_ITEMS,
                        .players = 1u << BLUE, .points = 10, .n_items = 1,
                        .items = { { SI_WINE, -1, 10 } }) } },
};

/* ---- Abbey & Mayor ----------------------------------------------------- */

static struct rules abbey_rules(int abbeys)
{
    struct rules r = fx_rules_c2(2);
    r.counts[COUNT_ABBEYS] = (uint8_t)abbeys;
    r.figures[FIG_MAYOR] = 1;
    r.figures[FIG_WAGON] = 1;
    r.figures[FIG_BARN] = 1;
    return r;
}

/* Six turns leave a hole at (0,1), under the start: fields all round,
 * except BA/LR's road at (0,2) that ends at the hole, with Blue's
 * highwayman on it. */
#define HOLE_STEPS                                                         \
    FX_PLACE(RED, "BA/RFr", 1, 0, 0), FX_PASS(RED), FX_COMMIT(RED),       \
    FX_PLACE(BLUE, "BA/RFr", -1, 0, 0), FX_PASS(BLUE), FX_COMMIT(BLUE),   \
    FX_PLACE(RED, "BA/L", 1, 1, 0), FX_PASS(RED), FX_COMMIT(RED),         \
    FX_PLACE(BLUE, "BA/L", -1, 1, 0), FX_PASS(BLUE), FX_COMMIT(BLUE),     \
    FX_PLACE(RED, "BA/L", 1, 2, 0), FX_PASS(RED), FX_COMMIT(RED),         \
    FX_PLACE(BLUE, "BA/LR", 0, 2, 2), FX_DEPLOY(BLUE, 0, 2, FEAT_ROAD, "N"), \
    FX_COMMIT(BLUE)

/* The mayor's city: see the mayor's rows. */
#define MAYOR_STEPS(bend)                                                  \
    FX_PLACE(RED, "BA/RFr", 1, 0, 0), FX_PASS(RED), FX_COMMIT(RED),       \
    FX_PLACE(BLUE, "BA/RFr", 2, 0, 0), FX_PASS(BLUE), FX_COMMIT(BLUE),    \
    FX_PLACE(RED, (bend), 0, -1, 2),                                       \
    FX_DEPLOY_N(RED, 0, -1, FEAT_CITY, "ES", FIG_MAYOR, 1),               \
    FX_COMMIT(RED),                                                        \
    FX_PLACE(BLUE, "BA/C", 2, -1, 3),                                      \
    FX_DEPLOY(BLUE, 2, -1, FEAT_CITY, "W"), FX_COMMIT(BLUE),              \
    FX_PLACE(RED, "BA/CFc.1", 1, -1, 0), FX_PASS(RED), FX_COMMIT(RED)
#define MAYOR_CHECKS FXW_STRENGTH | FXW_PLAYERS | FXW_POINTS | FXW_EXPR

static struct rules abbey1(void)
{
    return abbey_rules(1);
}

static struct rules abbey0(void)
{
    return abbey_rules(0);
}

static struct rules wagon_c1(void)
{
    struct rules r = abbey_rules(0);
    r.opt[OPT_WAGON_MOVE] = 1;
    return r;
}

static struct rules wagon_c2(void)
{
    struct rules r = abbey_rules(0);
    r.opt[OPT_WAGON_MOVE] = 2;
    return r;
}

/* Red's farmer north of the road east of the start; Blue's south of it,
 * where BA/C (turns 2, 3) makes a city and closes it. Blue's barn at the
 * corner south-east of the start (on (1,1), turn 4) scores Blue's farmer
 * 3 for that city; Red's BA/LR ends the road at (2,0) (turn 5), joining
 * the fields: Red's farmer 1 a city. At the end the barn scores 4. */
#define BARN_STEPS                                                         \
    FX_PLACE(RED, "BA/RFr", 1, 0, 0),                                      \
    FX_DEPLOY(RED, 1, 0, FEAT_FIELD, "WR.NL.NR.EL"), FX_COMMIT(RED),      \
    FX_PLACE(BLUE, "BA/C", 0, 1, 2),                                       \
    FX_DEPLOY(BLUE, 0, 1, FEAT_FIELD, "NL.NR.EL.ER.WL.WR"), FX_COMMIT(BLUE), \
    FX_PLACE(RED, "BA/C", 0, 2, 0), FX_PASS(RED), FX_COMMIT(RED),         \
    FX_PLACE(BLUE, "BA/L", 1, 1, 0),                                       \
    FX_DEPLOY_N(BLUE, 1, 1, FEAT_FIELD, "NL.NR.EL.ER.SL.SR.WL.WR",         \
                FIG_BARN, 1),                                              \
    FX_COMMIT(BLUE)

/* Both farmers of the barn's game went home: no field scores at the
 * end. */
static void no_final_field(const char *what, const struct report *r)
{
    for (size_t i = 0; i < r->n_events; i++)
        if (r->events[i].turn == -1 && r->events[i].feature == FEAT_FIELD)
            fail_msg("%s: a field scores at the end", what);
}

/* The engine offers a barn at each corner of the turn's tile where four
 * fields meet, also where its pointer is a tile around it: BA/L at (0,1)
 * has one such corner, its north-east, logged on (1,1). */
static void test_barn_offered_beside(void **state)
{
    (void)state;
    struct rules r = abbey_rules(0);
    struct game *g = fx_new(&r);
    fx_play(g, "BA/RFr", 1, 0, 0);
    fx_play(g, "BA/L", 1, 1, 0);
    fx_place(g, "BA/L", 0, 1, 0);
    struct deploy_option o[64];
    int n = game_list_deploys(g, g->seat, o, 64), barns = 0;
    assert_true(n <= 64);
    for (int i = 0; i < n; i++) {
        if (o[i].figure != FIG_BARN)
            continue;
        barns++;
        assert_int_equal(o[i].seg, fx_seg(g, 1, 1, FEAT_FIELD, HE_NL));
    }
    assert_int_equal(barns, 1);
    game_free(g);
}

/* Red's wagon on the road east of the start; Blue's crossroads BA/RRR
 * ends it at (2,0), Red's BA/LR at (-1,0) closes it (turn 3): 4 for Red,
 * whose wagon then moves, after the turn's COMMIT, with a COMMIT of its
 * own. Rule C2 (the default): to an unoccupied unfinished feature on its
 * tile (1,0) or the eight around; rule C1: to one next to the road it
 * left, by the tiles' wagon groups (BA/RRR's other roads, BA/LR's
 * monastery), and the start's city is none. */
#define WAGON_STEPS                                                        \
    FX_PLACE(RED, "BA/RFr", 1, 0, 0),                                      \
    FX_DEPLOY_N(RED, 1, 0, FEAT_ROAD, "WE", FIG_WAGON, 1), FX_COMMIT(RED), \
    FX_PLACE(BLUE, "BA/RRR", 2, 0, 0), FX_PASS(BLUE), FX_COMMIT(BLUE),    \
    FX_PLACE(RED, "BA/LR", -1, 0, 3), FX_PASS(RED), FX_COMMIT(RED)

#define WAGON_TO(x, y, f, loc)                                             \
    FX_DEPLOY_N(RED, x, y, f, loc, FIG_WAGON, 1), FX_COMMIT(RED)
#define THEN_BLUE FX_PLACE(BLUE, "BA/L", 0, 1, 0), FX_PASS(BLUE),          \
    FX_COMMIT(BLUE)

/* Whatever the wagon does next, the road scored 4 for Red in turn 3. */
#define WAGON_ROAD                                                         \
    .events = { FX_EV(3, FEAT_ROAD, FXW_PLAYERS | FXW_POINTS,              \
                      .players = 1u << RED, .points = 4) }

static const struct audit_case abbey_cases[] = {
    /* Red plays its abbey into the hole (turn 7, no draw) with a monk on
     * it: its side ends Blue's road, one tile long (the abbey is no part
     * of it). Blue's tile at (-1,2) then surrounds the abbey: 9 for Red. */
    { "abbey: fills a hole", abbey1, STEPS(HOLE_STEPS,
          FX_PLACE(RED, "AM/A", 0, 1, 1),
          FX_DEPLOY(RED, 0, 1, FEAT_MONASTERY, "I"), FX_COMMIT(RED),
          FX_PLACE(BLUE, "BA/L", -1, 2, 0), FX_PASS(BLUE), FX_COMMIT(BLUE)),
      .events = { FX_EV(7, FEAT_ROAD, FXW_PLAYERS | FXW_POINTS | FXW_ITEMS,
                        .players = 1u << BLUE, .points = 1, .n_items = 1,
                        .items = { { SI_TILES, 1, 1 } }),
                  FX_EV(8, FEAT_MONASTERY, FXW_PLAYERS | FXW_POINTS,
                        .players = 1u << RED, .points = 9) } },
    /* declined (a pass and a COMMIT before drawing), then Blue's */
    { "abbey: declined, then Blue's", abbey1, STEPS(HOLE_STEPS,
          FX_PASS(RED), FX_COMMIT(RED),
          FX_PLACE(RED, "BA/L", -1, 2, 0), FX_PASS(RED), FX_COMMIT(RED),
          FX_PLACE(BLUE, "AM/A", 0, 1, 0), FX_PASS(BLUE), FX_COMMIT(BLUE)),
      .events = { FX_EV(8, FEAT_ROAD, FXW_PLAYERS,
                        .players = 1u << BLUE) } },
    /* (0,1) has one neighbour, the start */
    { "abbey: no hole", abbey1, STEPS(
          FX_PLACE(RED, "AM/A", 0, 1, 0), FX_PASS(RED), FX_COMMIT(RED)),
      RULE_ABBEY_PLACEMENT, 1, .msg_has = "no hole" },
    { "abbey: a game with the mayor but no abbeys", abbey0, STEPS(
          HOLE_STEPS,
          FX_PLACE(RED, "AM/A", 0, 1, 0), FX_PASS(RED), FX_COMMIT(RED)),
      RULE_ABBEY_PLACEMENT, 7, .msg_has = "holds no abbey" },
    /* Red's mayor in the start's city, which BA/Cc turns east (turn 3);
     * Blue's knight in BA/C at (2,-1) (turn 4); Red's BA/CFc joins and
     * closes the two (turn 5), four tiles. Without a pennant the mayor has
     * no strength and Blue alone scores 8; with one, the two tie at 10. */
    { "mayor: no pennant, no strength", abbey0, STEPS(MAYOR_STEPS("BA/Cc.1")),
      .events = { FX_EV(5, FEAT_CITY, MAYOR_CHECKS, .strength = { 0, 1 },
                        .players = 1u << BLUE, .points = 8,
                        .expr = EXPR_DONE) } },
    { "mayor: one pennant, a tie", abbey0, STEPS(MAYOR_STEPS("BA/Cc+")),
      .events = { FX_EV(5, FEAT_CITY, MAYOR_CHECKS, .strength = { 1, 1 },
                        .players = 1u << RED | 1u << BLUE, .points = 10,
                        .expr = EXPR_DONE) } },
    /* A mayor alone in a city with no pennant scores nothing:
     * "city.empty". */
    { "mayor: alone with no pennant", abbey0, STEPS(
          FX_PLACE(RED, "BA/C", 0, -1, 2),
          FX_DEPLOY_N(RED, 0, -1, FEAT_CITY, "S", FIG_MAYOR, 1),
          FX_COMMIT(RED)),
      .events = { FX_EV(1, FEAT_CITY, FXW_EXPR | FXW_PLAYERS | FXW_POINTS,
                        .expr = EXPR_EMPTY, .players = 1u << RED,
                        .points = 0) },
      .score = { 0, ANY } },
    /* BARN_STEPS, and Red's BA/LR at (2,0) in turn 5 */
    { "barn: scores fields", abbey0, STEPS(BARN_STEPS,
          FX_PLACE(RED, "BA/LR", 2, 0, 1), FX_PASS(RED), FX_COMMIT(RED)),
      .end_turn = 5,
      .events = { FX_EV(4, FEAT_FIELD,
                        FXW_EXPR | FXW_PLAYERS | FXW_POINTS | FXW_ITEMS,
                        .expr = EXPR_BARN_PLACED, .players = 1u << BLUE,
                        .points = 3, .n_items = 1,
                        .items = { { SI_CITIES, 1, 3 } }),
                  FX_EV(5, FEAT_FIELD, FXW_EXPR | FXW_PLAYERS | FXW_POINTS,
                        .expr = EXPR_BARN_CONNECTED, .players = 1u << RED,
                        .points = 1),
                  FX_EV(-1, FEAT_BARN, FXW_PLAYERS | FXW_POINTS,
                        .players = 1u << BLUE, .points = 4) },
      .more = no_final_field },
    { "barn: a barn where four tiles do not meet", abbey0, STEPS(
          FX_PLACE(RED, "BA/RFr", 1, 0, 0),
          FX_DEPLOY_N(RED, 1, 0, FEAT_FIELD, "WR.NL.NR.EL", FIG_BARN, 1),
          FX_COMMIT(RED)), RULE_BARN_PLACEMENT, 1 },
    { "barn: a barn at a corner of another tile", abbey0, STEPS(BARN_STEPS,
          FX_PLACE(RED, "BA/L", 2, 1, 0),
          FX_DEPLOY_N(RED, 0, 1, FEAT_FIELD, "NL.NR.EL.ER.WL.WR", FIG_BARN,
                      1),
          FX_COMMIT(RED)), RULE_BARN_PLACEMENT, 5 },
    { "barn: a farmer in a field with a barn", abbey0, STEPS(BARN_STEPS,
          FX_PLACE(RED, "BA/RFr", -1, 0, 0),
          FX_DEPLOY(RED, -1, 0, FEAT_FIELD, "ER.SL.SR.WL"), FX_COMMIT(RED)),
      RULE_MEEPLE_FEATURE_OCCUPIED, 5 },
    { "barn: a barn on a flying machine", abbey0, STEPS(
          FX_PLACE(RED, "FL/F.o", 0, 1, 0),
          FX_FLY_FIG(RED, 0, 1, 1, FIG_BARN, 1), FX_COMMIT(RED)),
      RULE_MEEPLE_WRONG_TYPE, 1 },
    { "wagon: C2: to the start's city", wagon_c2, STEPS(WAGON_STEPS,
          WAGON_TO(0, 0, FEAT_CITY, "N"), THEN_BLUE), RULE_OK, 3,
      WAGON_ROAD },
    { "wagon: C2: to the crossroads' south road", wagon_c2, STEPS(WAGON_STEPS,
          WAGON_TO(2, 0, FEAT_ROAD, "S"), THEN_BLUE), RULE_OK, 3,
      WAGON_ROAD },
    { "wagon: C2: stays (a pass, no COMMIT)", wagon_c2, STEPS(WAGON_STEPS,
          FX_PASS(RED), THEN_BLUE), RULE_OK, 3,
      WAGON_ROAD },
    { "wagon: C2: the monastery at (-1,0) is two tiles away",
      wagon_c2, STEPS(WAGON_STEPS,
          WAGON_TO(-1, 0, FEAT_MONASTERY, "I"), THEN_BLUE),
      RULE_WAGON_MOVE, 3,
      WAGON_ROAD },
    { "wagon: C2: onto the road it left, completed",
      wagon_c2, STEPS(WAGON_STEPS,
          WAGON_TO(1, 0, FEAT_ROAD, "WE"), THEN_BLUE), RULE_WAGON_MOVE, 3,
      WAGON_ROAD },
    { "wagon: C1: the crossroads' south road", wagon_c1, STEPS(WAGON_STEPS,
          WAGON_TO(2, 0, FEAT_ROAD, "S"), THEN_BLUE), RULE_OK, 3,
      WAGON_ROAD },
    { "wagon: C1: BA/LR's monastery, the road's end",
      wagon_c1, STEPS(WAGON_STEPS,
          WAGON_TO(-1, 0, FEAT_MONASTERY, "I"), THEN_BLUE), RULE_OK, 3,
      WAGON_ROAD },
    { "wagon: C1: the start's city is no neighbour",
      wagon_c1, STEPS(WAGON_STEPS,
          WAGON_TO(0, 0, FEAT_CITY, "N"), THEN_BLUE), RULE_WAGON_MOVE, 3,
      WAGON_ROAD },
};


/* What the auditor takes each move for, move by move (the flierlog
 * writer says it so): a builder's second tile is part 2 of its turn; the
 * abbey declined before the draw is a PASS and a COMMIT between turns; a
 * wagon's move and its owner's COMMIT, or a stay. A wagon move whose log
 * names no wagon takes the one that waits, whoever's it is. */
static void expect_roles(const struct rules *r, const struct fx_step *steps,
                         size_t n, const int *roles, const int *parts)
{
    struct game_log l;
    struct report rep;
    fx_log_init(&l, r);
    fx_log_add(&l, steps, n);
    struct audit *a = audit_begin(&l, &rep);
    for (size_t i = 0; i < l.n_moves; i++) {
        assert_int_equal(audit_step(a, &l.moves[i]), 0);
        if ((int)audit_step_role(a) != roles[i] ||
            audit_turn_part(a) != parts[i])
            fail_msg("move %zu: role %d part %d, expected %d and %d", i,
                     (int)audit_step_role(a), audit_turn_part(a), roles[i],
                     parts[i]);
    }
    audit_finish(a, NULL, NULL);
    expect_valid("the roles' game", &rep);
    report_release(&rep);
    game_log_release(&l);
}

#define T STEP_TURN
#define AD STEP_ABBEY_DECLINED
#define WM STEP_WAGON_MOVE
#define WS STEP_WAGON_STAYS
#define WAGON_OPEN(x, y, f, loc) \
    { MV_DEPLOY, -1, NULL, (x), (y), 0, (f), (loc), FIG_WAGON, 0, -1, 0, 0 }

static void test_step_roles(void **state)
{
    (void)state;
    struct rules tr = traders_rules();
    expect_roles(&tr, STEPS(BUILDER_STEPS,
                            FX_PLACE(RED, "BA/L", 1, 1, 0), FX_PASS(RED),
                            FX_COMMIT(RED)),
                 (const int[]){ T, T, T, T, T, T, T, T, T, T, T, T, T, T, T,
                                T, T, T },
                 /* from the COMMIT that earns it, the part to come */
                 (const int[]){ 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2,
                                2, 2, 1 });
    struct rules ar = abbey_rules(1);
    expect_roles(&ar, STEPS(HOLE_STEPS, FX_PASS(RED), FX_COMMIT(RED),
                            FX_PLACE(RED, "BA/L", -1, 2, 0), FX_PASS(RED),
                            FX_COMMIT(RED)),
                 (const int[]){ T, T, T, T, T, T, T, T, T, T, T, T, T, T, T,
                                T, T, T, AD, AD, T, T, T },
                 (const int[]){ 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                                1, 1, 1, 1, 1, 1, 1, 1 });
    struct rules wr = abbey_rules(0);
    expect_roles(&wr, STEPS(WAGON_STEPS,
                            WAGON_OPEN(0, 0, FEAT_CITY, "N"), FX_COMMIT(-1),
                            THEN_BLUE),
                 (const int[]){ T, T, T, T, T, T, T, T, T, WM, WM, T, T, T },
                 (const int[]){ 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 });
    expect_roles(&wr, STEPS(WAGON_STEPS, FX_PASS(BLUE), THEN_BLUE),
                 (const int[]){ T, T, T, T, T, T, T, T, T, WS, T, T, T },
                 (const int[]){ 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 });
}

#undef T
#undef AD
#undef WM
#undef WS

/* ---- The Tower ----------------------------------------------------------- */

static struct rules tower_rules(int players)
{
    struct rules r = fx_rules_c2(players);
    fx_add_set(&r, "tower:1");
    r.flags |= RF_TOWER;
    return r;
}

/* Red's tower at (1,0) (TO/RRRR.1, road on each side, east of the start's
 * road), with a floor or not; Blue's follower on the road at (-1,0), two
 * tiles west of it. */
#define TOWER_OPENING(floor1)                                              \
    FX_PLACE(RED, "TO/RRRR.1", 1, 0, 0), floor1, FX_COMMIT(RED),           \
    FX_PLACE(BLUE, "BA/RFr", -1, 0, 0),                                    \
    FX_DEPLOY(BLUE, -1, 0, FEAT_ROAD, "WE"), FX_COMMIT(BLUE)

static struct rules tower2(void)
{
    return tower_rules(2);
}

static const struct audit_case tower_cases[] = {
    { "tower: two floors see two tiles: a capture", tower2, STEPS(
          TOWER_OPENING(FX_TOWER(RED, 1, 0)),
          FX_PLACE(RED, "BA/RFr", 2, 0, 0), FX_TOWER(RED, 1, 0),
          FX_CAPTURE(RED, -1, 0, FEAT_ROAD, "WE", BLUE, 1),
          FX_COMMIT(RED)), RULE_OK, 0 },
    { "tower: one floor sees one tile: out of sight", tower2, STEPS(
          TOWER_OPENING(FX_PASS(RED)),
          FX_PLACE(RED, "BA/RFr", 2, 0, 0), FX_TOWER(RED, 1, 0),
          FX_CAPTURE(RED, -1, 0, FEAT_ROAD, "WE", BLUE, 1),
          FX_COMMIT(RED)), RULE_TOWER_CAPTURE, 3 },
    { "tower: a capture without a floor this turn", tower2, STEPS(
          TOWER_OPENING(FX_TOWER(RED, 1, 0)),
          FX_PLACE(RED, "BA/RFr", 2, 0, 0),
          FX_CAPTURE(RED, -1, 0, FEAT_ROAD, "WE", BLUE, 1),
          FX_COMMIT(RED)), RULE_TOWER_CAPTURE, 3 },
    { "tower: a floor where there is no tower", tower2, STEPS(
          FX_PLACE(RED, "TO/RRRR.1", 1, 0, 0), FX_TOWER(RED, 0, 0),
          FX_COMMIT(RED)), RULE_TOWER_PLACEMENT, 1 },
    { "tower: a follower on a tower with no floor", tower2, STEPS(
          FX_PLACE(RED, "TO/RRRR.1", 1, 0, 0), FX_PASS(RED), FX_COMMIT(RED),
          FX_PLACE(BLUE, "BA/RFr", -1, 0, 0),
          FX_DEPLOY(BLUE, 1, 0, FEAT_TOWER, "I"),
          FX_COMMIT(BLUE)), RULE_TOWER_PLACEMENT, 2 },
    { "tower: a follower on top of a tower anywhere, then no more floors",
      tower2, STEPS(
          TOWER_OPENING(FX_TOWER(RED, 1, 0)),
          FX_PLACE(RED, "BA/RFr", 2, 0, 0),
          FX_DEPLOY(RED, 1, 0, FEAT_TOWER, "I"), FX_COMMIT(RED),
          FX_PLACE(BLUE, "BA/RFr", -2, 0, 0), FX_TOWER(BLUE, 1, 0),
          FX_COMMIT(BLUE)), RULE_TOWER_PLACEMENT, 4 },
    { "tower: a floor after a deployment", tower2, STEPS(
          FX_PLACE(RED, "TO/RRRR.1", 1, 0, 0),
          FX_DEPLOY(RED, 1, 0, FEAT_ROAD, "E"), FX_TOWER(RED, 1, 0),
          FX_COMMIT(RED)), RULE_MEEPLE_SECOND_DEPLOY, 1 },
    { "tower: a ransom for a follower nobody holds", tower2, STEPS(
          FX_PLACE(RED, "TO/RRRR.1", 1, 0, 0), FX_RANSOM(RED, 1),
          FX_COMMIT(RED)), RULE_TOWER_RANSOM, 1 },
};

/* Pieces by player count; a capture holds another's follower (neither in
 * supply nor on the board), one's own goes home; the victim's capture of
 * one of the capturer's exchanges both; a follower on top seals a tower;
 * a ransom moves 3 points as two "ransom" events and frees the follower,
 * with 3 points or more. */
static void test_tower_prisoners(void **state)
{
    (void)state;
    static const int pieces[] = { 0, 10, 10, 9, 7, 6, 5 };
    for (int n = 2; n <= 6; n++) {
        struct rules r = tower_rules(n);
        struct game *g = fx_new(&r);
        assert_int_equal(game_tower_pieces(g, n - 1), pieces[n]);
        game_free(g);
    }
    struct rules r = tower_rules(2);
    struct game *g = fx_new(&r);
    char why[200];
    int opts[8], n;
    /* Red: the tower at (1,0), one floor */
    int tower = fx_place(g, "TO/RRRR.1", 1, 0, 0);
    assert_int_equal(game_check_tower(g, RED, (struct pos){ 1, 0 }, why,
                                      sizeof why), RULE_OK);
    game_raise_tower(g, RED, (struct pos){ 1, 0 });
    assert_int_equal(game_tower_height(g, tower), 1);
    assert_int_equal(game_tower_pieces(g, RED), 9);
    game_end_turn(g);
    /* Blue: a follower at (2,0); Red: one at (-1,0) */
    fx_place(g, "BA/RFr", 2, 0, 0);
    int blue = fx_deploy(g, BLUE, FIG_SMALL, fx_seg(g, 2, 0, FEAT_ROAD, 0));
    game_end_turn(g);
    fx_place(g, "BA/RFr", -1, 0, 0);
    int red = fx_deploy(g, RED, FIG_SMALL, fx_seg(g, -1, 0, FEAT_ROAD, 0));
    game_end_turn(g);
    /* Blue's floor (height 2) sees both; Blue takes Red's */
    fx_place(g, "BA/RFr", 3, 0, 0);
    game_raise_tower(g, BLUE, (struct pos){ 1, 0 });
    n = game_capture_options(g, opts, 8);
    assert_int_equal(n, 2);
    assert_true(fx_has(opts, n, red) && fx_has(opts, n, blue));
    assert_int_equal(game_check_capture(g, red, g->meeples[red].seg, why,
                                        sizeof why), RULE_OK);
    game_capture(g, BLUE, red);
    assert_int_equal(game_meeple_jailer(g, red), BLUE);
    assert_false(meeple_in_supply(&g->meeples[red]));
    assert_true(g->meeples[red].seg < 0);
    assert_int_equal(game_capture_options(g, opts, 8), 0); /* one a floor */
    game_end_turn(g);
    /* Red's floor takes Blue's: exchanged, both go home */
    fx_place(g, "BA/RFr", 4, 0, 0);
    game_raise_tower(g, RED, (struct pos){ 1, 0 });
    game_capture(g, RED, blue);
    assert_true(meeple_in_supply(&g->meeples[red]));
    assert_true(meeple_in_supply(&g->meeples[blue]));
    assert_int_equal(game_meeple_jailer(g, red), -1);
    assert_int_equal(game_meeple_jailer(g, blue), -1);
    game_end_turn(g);
    /* Blue on top of the tower seals it; a ransom for a free follower is
     * refused */
    fx_place(g, "BA/RFr", 5, 0, 0);
    int top = fx_deploy(g, BLUE, FIG_SMALL, fx_seg(g, 1, 0, FEAT_TOWER, 0));
    game_end_turn(g);
    fx_place(g, "BA/RFr", 6, 0, 0);
    assert_int_equal(game_check_tower(g, RED, (struct pos){ 1, 0 }, why,
                                      sizeof why), RULE_TOWER_PLACEMENT);
    assert_int_equal(game_check_ransom(g, RED, red, why, sizeof why),
                     RULE_TOWER_RANSOM);
    game_end_turn(g);
    /* a second tower in its column takes the one on top: Blue's own */
    fx_place(g, "TO/RRR", 1, 1, 0);
    game_raise_tower(g, BLUE, (struct pos){ 1, 1 });
    n = game_capture_options(g, opts, 8);
    assert_true(fx_has(opts, n, top));
    game_capture(g, BLUE, top);
    assert_true(meeple_in_supply(&g->meeples[top]));
    game_end_turn(g);
    /* Red takes Blue's follower at (8,0); Blue with 2 points may not buy
     * it back, with 3 may */
    fx_place(g, "TO/RrRr.2", 7, 0, 0);
    game_end_turn(g);
    fx_place(g, "BA/RFr", 8, 0, 0);
    int b2 = fx_deploy(g, BLUE, FIG_SMALL, fx_seg(g, 8, 0, FEAT_ROAD, 0));
    game_end_turn(g);
    fx_place(g, "BA/RFr", 9, 0, 0);
    game_raise_tower(g, RED, (struct pos){ 7, 0 });
    game_capture(g, RED, b2);
    assert_int_equal(game_meeple_jailer(g, b2), RED);
    game_end_turn(g);
    g->score[BLUE] = 2;
    g->score[RED] = 0;
    /* before the tile, as JCloisterZone allows: the events keep the
     * turn count so far */
    assert_int_equal(game_check_ransom(g, BLUE, b2, why, sizeof why),
                     RULE_TOWER_RANSOM);
    g->score[BLUE] = 3;
    assert_int_equal(game_check_ransom(g, BLUE, b2, why, sizeof why),
                     RULE_OK);
    int before = g->n_events;
    game_pay_ransom(g, b2);
    fx_place(g, "BA/Rr", 10, 0, 0);
    assert_int_equal(g->events[before].turn, g->turn - 1);
    assert_int_equal(g->n_events, before + 2);
    assert_int_equal(g->score[BLUE], 0);
    assert_int_equal(g->score[RED], 3);
    assert_true(meeple_in_supply(&g->meeples[b2]));
    for (int i = before; i < before + 2; i++) {
        assert_int_equal(g->events[i].feature, FEAT_RANSOM);
        expect_item(&g->events[i], 0, SI_RANSOM, -1, g->events[i].points);
    }
    game_free(g);
}

/* An exchange among several kinds: Blue holds Red's follower and Red's
 * large follower; Red takes one of Blue's: Red chooses which comes back
 * (the large one here), and only the earliest of a kind may be chosen. */
static void test_tower_exchange_choice(void **state)
{
    (void)state;
    struct rules r = tower_rules(2);
    r.figures[FIG_BIG] = 1;
    fx_add_set(&r, "inns-and-cathedrals:1");
    struct game *g = fx_new(&r);
    char why[200];
    fx_place(g, "TO/RRRR.1", 1, 0, 0); /* Red's tower, roads each side */
    int small = fx_deploy(g, RED, FIG_SMALL, fx_seg(g, 1, 0, FEAT_ROAD,
                                                    EDGE_N));
    game_end_turn(g);
    fx_place(g, "BA/RFr", 2, 0, 0);
    int big = fx_deploy(g, RED, FIG_BIG, fx_seg(g, 2, 0, FEAT_ROAD, 0));
    game_end_turn(g);
    /* Blue: floors, and takes Red's follower, then the large one */
    fx_place(g, "BA/RFr", 3, 0, 0);
    game_raise_tower(g, BLUE, (struct pos){ 1, 0 });
    game_capture(g, BLUE, small);
    game_end_turn(g);
    fx_place(g, "BA/RFr", 4, 0, 0);
    game_end_turn(g);
    fx_place(g, "BA/RFr", -1, 0, 0);
    int blue = fx_deploy(g, BLUE, FIG_SMALL, fx_seg(g, -1, 0, FEAT_ROAD, 0));
    game_end_turn(g);
    fx_place(g, "BA/RFr", 5, 0, 0);
    game_raise_tower(g, BLUE, (struct pos){ 1, 0 });
    game_capture(g, BLUE, big);
    assert_int_equal(game_meeple_jailer(g, big), BLUE);
    game_end_turn(g);
    /* Red's floor takes Blue's follower: two kinds held, Red chooses */
    fx_place(g, "BA/RFr", 6, 0, 0);
    game_raise_tower(g, RED, (struct pos){ 1, 0 });
    game_capture(g, RED, blue);
    assert_int_equal(game_meeple_jailer(g, blue), RED); /* until chosen */
    int opts[FIG__COUNT];
    assert_int_equal(game_exchange_options(g, opts, FIG__COUNT), 2);
    assert_int_equal(game_check_exchange(g, blue, why, sizeof why),
                     RULE_TOWER_CAPTURE);
    assert_int_equal(game_check_exchange(g, big, why, sizeof why), RULE_OK);
    game_exchange(g, big);
    assert_true(meeple_in_supply(&g->meeples[big]));
    assert_true(meeple_in_supply(&g->meeples[blue]));
    assert_int_equal(game_meeple_jailer(g, small), BLUE);
    assert_int_equal(game_exchange_options(g, opts, FIG__COUNT), 0);
    game_free(g);
}

/* A flier never lands on a tower (the seeds: a tower is no feature to
 * claim and score); JCloisterZone offers no such landing either. */
/* ---- The Monasteries -------------------------------------------------- */

/* The special monasteries replace BA/L and BA/LR unless keep-monasteries
 * says otherwise; a monk and an abbot on one special monastery are
 * scored apart (the seeds' clarification), the abbot by the rows of
 * tiles from it; a second deployment on it finds it occupied. */
static void test_special_monastery(void **state)
{
    (void)state;
    struct rules r = fx_rules_c2(2);
    fx_add_set(&r, "monasteries");
    r.figures[FIG_PHANTOM] = 1;
    assert_int_equal(game_pack_copies(&r, fx_tile("BA/L")), 0);
    assert_int_equal(game_pack_copies(&r, fx_tile("MO/M1")), 1);
    r.opt[OPT_KEEP_MONASTERIES] = 0; /* "merge" */
    assert_int_equal(game_pack_copies(&r, fx_tile("BA/L")), 4);
    r.opt[OPT_KEEP_MONASTERIES] = 1;
    struct game *g = fx_new(&r);
    fx_place(g, "MO/M1", 0, 1, 0);
    fx_deploy(g, RED, FIG_SMALL, fx_seg(g, 0, 1, FEAT_MONASTERY, 0));
    int seat = fx_seg(g, 0, 1, FEAT_ABBOT_SEAT, 1u << SPOT_ABBOT);
    char why[200] = "";
    assert_int_equal(game_check_deploy(g, RED,
                                       game_meeple(g, RED, FIG_PHANTOM, 0),
                                       seat, why, sizeof why),
                     RULE_MEEPLE_FEATURE_OCCUPIED);
    game_end_turn(g);
    fx_place(g, "FL/F.o", 1, 1, 0); /* its arrow west: (0,1) at roll 1 */
    struct pos target;
    int land[TILE_MAX_SEGS];
    int n = fx_fly(g, FIG_SMALL, 1, &target, land, TILE_MAX_SEGS);
    assert_int_equal(n, 2); /* the monastery and the abbot's place */
    assert_true(fx_has(land, n, seat));
    fx_land(g, BLUE, FIG_SMALL, seat, target);
    game_end_turn(g);
    fx_play(g, "BA/RFr", 2, 1, 1);
    int e0 = g->n_events;
    game_final_scoring(g);
    assert_int_equal(g->n_events - e0, 2);
    for (int e = e0; e < g->n_events; e++) {
        const struct score_event *ev = &g->events[e];
        if (ev->feature == FEAT_MONASTERY) {
            assert_int_equal(ev->players, 1u << RED);
            assert_int_equal(ev->points, 3);
        } else {
            assert_int_equal(ev->feature, FEAT_ABBOT_SEAT);
            assert_int_equal(ev->players, 1u << BLUE);
            assert_int_equal(ev->points, 4); /* 1 + N 1 + E 2 */
            assert_int_equal(ev->n_items, 5);
            assert_int_equal(ev->items[2].kind, SI_TILES_E);
            assert_int_equal(ev->items[2].count, 2);
        }
    }
    game_free(g);
}

static void test_flier_never_on_tower(void **state)
{
    (void)state;
    struct rules r = tower_rules(2);
    struct game *g = fx_new(&r);
    fx_play(g, "TO/RRRR.1", 1, 0, 0);
    int seg = fx_seg(g, 1, 0, FEAT_TOWER, 0), land[TILE_MAX_SEGS];
    int n = game_landings(g, (struct pos){ 1, 0 }, FIG_SMALL, land,
                          TILE_MAX_SEGS);
    assert_false(fx_has(land, n, seg));
    assert_true(n > 0); /* its roads */
    char why[200];
    assert_int_equal(game_check_landing(g, FIG_SMALL, (struct pos){ 1, 0 },
                                        seg, (struct pos){ 1, 0 }, why,
                                        sizeof why),
                     RULE_FLIER_ON_TOWER);
    game_free(g);
}

/* ---- the draw ---------------------------------------------------------- */

/* A .jcz save's random numbers draw each tile; a placed tile that the
 * numbers do not draw (and that is no discard) is TILE_NOT_DRAWN. */
static void test_tile_not_drawn(void **state)
{
    (void)state;
    struct rules r = fx_rules_c2(2);
    struct game *g = fx_new(&r);
    double draws_rfr = game_pack_random(g, fx_tile("BA/RFr"));
    game_free(g);
    assert_true(draws_rfr >= 0);
    static const struct fx_step drawn[] = {
        FX_PLACE(RED, "BA/RFr", 1, 0, 0), FX_PASS(RED), FX_COMMIT(RED),
    };
    static const struct fx_step other[] = { /* fits too, but not drawn */
        FX_PLACE(RED, "BA/L", 0, 1, 0), FX_PASS(RED), FX_COMMIT(RED),
    };
    for (int swapped = 0; swapped <= 1; swapped++) {
        struct game_log l;
        struct report rep;
        fx_log_init(&l, &r);
        fx_log_add(&l, swapped ? other : drawn, 3);
        l.moves[0].draw = draws_rfr;
        fx_audit(&l, &rep);
        if (swapped) {
            expect_first("a tile not drawn", &rep, RULE_TILE_NOT_DRAWN, 1);
            assert_non_null(strstr(rep.violations[0].msg, "BA/RFr"));
        } else {
            expect_valid("the tile drawn", &rep);
            assert_true(rep.draw_checked);
        }
        report_release(&rep);
        game_log_release(&l);
    }
}

/* ---- The Princess & the Dragon ---------------------------------------- */

static struct rules dragon_rules(void)
{
    struct rules r = fx_rules_c2(2);
    fx_add_set(&r, "princess-and-dragon:1");
    r.flags |= RF_DRAGON | RF_FAIRY | RF_PRINCESS | RF_PORTAL;
    return r;
}

/* Red's volcano east of the start brings the dragon to (1,0); Blue's
 * dragon tile west of it makes it move after Blue's action: Blue steps
 * it to the start (0,0), Red to (-1,0), where it has nowhere left to go
 * ((0,0) visited, nothing else beside it). */
#define VOLCANO_STEPS                                                      \
    FX_PLACE(RED, "DG/R.v", 1, 0, 1), FX_PASS(RED), FX_COMMIT(RED)
#define DRAGON_TILE_STEPS                                                  \
    FX_PLACE(BLUE, "DG/RFr.d", -1, 0, 0)

/* The dragon's tiles wait for a volcano; the dragon then eats what
 * stands where it steps, the fairy's square excepted. */
static void test_dragon_draw_and_eats(void **state)
{
    (void)state;
    struct rules r = dragon_rules();
    struct game *g = fx_new(&r);
    int dtile = fx_tile("DG/RFr.d");
    assert_false(game_drawable(g, dtile));
    assert_true(game_drawable(g, fx_tile("DG/R.v")));
    fx_place(g, "BA/RFr", -1, 0, 0);
    int m = fx_deploy(g, RED, FIG_SMALL,
                      fx_seg(g, -1, 0, FEAT_FIELD, HE_SL));
    game_end_turn(g);
    fx_place(g, "DG/R.v", 1, 0, 1);
    struct pos at;
    assert_true(game_dragon_at(g, &at));
    assert_int_equal(at.x, 1);
    assert_true(game_drawable(g, dtile));
    /* nothing stands on the dragon's square */
    int road = fx_seg(g, 1, 0, FEAT_ROAD, 0);
    int b = game_meeple(g, BLUE, FIG_SMALL, 0);
    assert_int_equal(game_check_deploy(g, BLUE, b, road, NULL, 0),
                     RULE_DRAGON_TILE);
    game_end_turn(g);
    fx_place(g, "DG/RFr.d", -2, 0, 0);
    assert_int_equal(game_dragon_steps(g), 6);
    assert_int_equal(game_dragon_mover(g), RED);
    game_dragon_step(g, (struct pos){ 0, 0 });
    assert_int_equal(game_dragon_mover(g), BLUE);
    assert_int_equal(game_check_dragon_step(g, (struct pos){ 1, 0 }, NULL, 0),
                     RULE_DRAGON_MOVE); /* visited in this move */
    game_dragon_step(g, (struct pos){ -1, 0 });
    assert_int_equal(g->meeples[m].seg, -1); /* eaten */
    game_dragon_step(g, (struct pos){ -2, 0 });
    assert_int_equal(game_dragon_steps(g), 0); /* a dead end */
    game_end_turn(g);
    game_free(g);
}

static struct rules dragon_phantom(void)
{
    struct rules r = dragon_rules();
    r.figures[FIG_PHANTOM] = 1;
    return r;
}

/* The fairy stays when its follower leaves: one fairy event at the start
 * of Red's turn 4 (counted with turn 4), one when the road scores in turn
 * 5, and none at the start of Red's next turn. */
static void fairy_twice(const char *what, const struct report *r)
{
    int turns = 0, done = 0;
    for (size_t i = 0; i < r->n_events; i++) {
        const struct score_event *ev = &r->events[i];
        if (ev->feature != FEAT_FAIRY)
            continue;
        turns += ev->expr == EXPR_TURN;
        done += ev->expr == EXPR_COMPLETED;
        if (ev->turn != (ev->expr == EXPR_TURN ? 4 : 5))
            fail_msg("%s: a fairy event in turn %d", what, ev->turn);
    }
    if (turns != 1 || done != 1)
        fail_msg("%s: %d fairy events of a turn, %d of a feature; expected "
                 "one each", what, turns, done);
}

static const struct audit_case dragon_cases[] = {
    /* The fairy: 1 at the start of its owner's turn (counted with the
     * turn before), 3 when its follower's feature scores; the dragon
     * never enters its square. */
    { "fairy: scores", dragon_rules, STEPS(
          FX_PLACE(RED, "BA/RFr", 1, 0, 0),
          FX_DEPLOY(RED, 1, 0, FEAT_ROAD, "WE"), FX_COMMIT(RED),
          FX_PLACE(BLUE, "BA/RFr", -1, 0, 0), FX_PASS(BLUE),
          FX_COMMIT(BLUE),
          FX_PLACE(RED, "BA/RFr", 2, 0, 0),
          FX_FAIRY(RED, 1, 0, FEAT_ROAD, "WE", RED, 1), FX_COMMIT(RED),
          FX_PLACE(BLUE, "BA/RFr", -2, 0, 0), FX_PASS(BLUE),
          FX_COMMIT(BLUE),
          FX_PLACE(RED, "BA/L", 0, 1, 0), FX_PASS(RED), FX_COMMIT(RED)),
      .end_turn = 5,
      .events = { FX_EV(4, FEAT_FAIRY,
                        FXW_PLAYERS | FXW_POINTS | FXW_EXPR | FXW_ITEMS,
                        .players = 1u << RED, .points = 1,
                        .expr = EXPR_TURN, .n_items = 1,
                        .items = { { SI_FAIRY, -1, 1 } }),
                  /* at the end the road (5 tiles, unfinished) scores, and
                   * the fairy */
                  FX_EV(-1, FEAT_FAIRY, FXW_POINTS | FXW_EXPR, .points = 3,
                        .expr = EXPR_COMPLETED) } },
    /* The fairy stays when its follower leaves, alone: Red's highwayman
     * scores its road (turn 5, and the fairy 3), goes home, and the start
     * of Red's next turn gives nothing. */
    { "fairy: alone", dragon_rules, STEPS(
          FX_PLACE(RED, "BA/RFr", 1, 0, 0),
          FX_DEPLOY(RED, 1, 0, FEAT_ROAD, "WE"), FX_COMMIT(RED),
          FX_PLACE(BLUE, "BA/RRR", -1, 0, 0), FX_PASS(BLUE),
          FX_COMMIT(BLUE),
          FX_PLACE(RED, "BA/C", 0, -1, 2),
          FX_FAIRY(RED, 1, 0, FEAT_ROAD, "WE", RED, 1), FX_COMMIT(RED),
          FX_PLACE(BLUE, "BA/C", 0, 1, 2), FX_PASS(BLUE), FX_COMMIT(BLUE),
          FX_PLACE(RED, "BA/RRR", 2, 0, 0), FX_PASS(RED), FX_COMMIT(RED),
          FX_PLACE(BLUE, "BA/L", -1, -1, 0), FX_PASS(BLUE),
          FX_COMMIT(BLUE),
          FX_PLACE(RED, "BA/L", 1, 1, 0), FX_PASS(RED), FX_COMMIT(RED)),
      .end_turn = 7,
      .events = { FX_EV(5, FEAT_ROAD, FXW_POINTS, .points = 4) },
      .more = fairy_twice },
    { "dragon: the dragon's steps as the rules go",
      dragon_rules, STEPS(VOLCANO_STEPS,
          DRAGON_TILE_STEPS, FX_PASS(BLUE), FX_DRAGON(BLUE, 0, 0),
          FX_DRAGON(RED, -1, 0), FX_COMMIT(BLUE)), RULE_OK, 0 },
    { "dragon: a follower on the dragon's square", dragon_rules, STEPS(
          FX_PLACE(RED, "DG/R.v", 1, 0, 1),
          FX_DEPLOY(RED, 1, 0, FEAT_ROAD, "W"), FX_COMMIT(RED)),
      RULE_DRAGON_TILE, 1 },
    { "dragon: the dragon steps back onto a square of this move",
      dragon_rules, STEPS(
          VOLCANO_STEPS, DRAGON_TILE_STEPS, FX_PASS(BLUE),
          FX_DRAGON(BLUE, 0, 0), FX_DRAGON(RED, 1, 0), FX_COMMIT(BLUE)),
      RULE_DRAGON_MOVE, 2 },
    { "dragon: the dragon stops with a step left to take", dragon_rules, STEPS(
          VOLCANO_STEPS, DRAGON_TILE_STEPS, FX_PASS(BLUE),
          FX_DRAGON(BLUE, 0, 0), FX_COMMIT(BLUE)), RULE_DRAGON_MOVE, 2 },
    { "dragon: the fairy beside another player's follower", dragon_rules, STEPS(
          FX_PLACE(RED, "BA/RFr", 1, 0, 0),
          FX_DEPLOY(RED, 1, 0, FEAT_ROAD, "WE"), FX_COMMIT(RED),
          FX_PLACE(BLUE, "BA/RFr", -1, 0, 0),
          FX_FAIRY(BLUE, 1, 0, FEAT_ROAD, "WE", RED, 1), FX_COMMIT(BLUE)),
      RULE_FAIRY_PLACEMENT, 2 },
    { "dragon: the princess sends a knight of her city home",
      dragon_rules, STEPS(
          FX_PLACE(RED, "BA/Cc.1", 0, -1, 2),
          FX_DEPLOY(RED, 0, -1, FEAT_CITY, "SE"), FX_COMMIT(RED),
          FX_PLACE(BLUE, "DG/Cc.p", 1, -1, 0),
          FX_PRINCESS(BLUE, 0, -1, FEAT_CITY, "SE", RED, 1),
          FX_COMMIT(BLUE)), RULE_OK, 0 },
    { "dragon: the princess and a farmer", dragon_rules, STEPS(
          FX_PLACE(RED, "BA/Cc.1", 0, -1, 2),
          FX_DEPLOY(RED, 0, -1, FEAT_FIELD, "NL.NR.WL.WR"), FX_COMMIT(RED),
          FX_PLACE(BLUE, "DG/Cc.p", 1, -1, 0),
          FX_PRINCESS(BLUE, 0, -1, FEAT_FIELD, "NL.NR.WL.WR", RED, 1),
          FX_COMMIT(BLUE)), RULE_PRINCESS, 2 },
    { "dragon: through the portal to a field far away", dragon_rules, STEPS(
          FX_PLACE(RED, "DG/RrRr.g", 1, 0, 0),
          FX_DEPLOY(RED, 0, 0, FEAT_FIELD, "ER.SL.SR.WL"), FX_COMMIT(RED)),
      RULE_OK, 0 },
    { "dragon: through the portal to a completed city", dragon_rules, STEPS(
          FX_PLACE(RED, "BA/C", 0, -1, 2), FX_PASS(RED), FX_COMMIT(RED),
          FX_PLACE(BLUE, "DG/RrRr.g", 1, 0, 0),
          FX_DEPLOY(BLUE, 0, -1, FEAT_CITY, "S"), FX_COMMIT(BLUE)),
      RULE_PORTAL, 2 },
    /* The magic portal serves one figure a turn: the phantom that follows
     * a follower through it may stand on the tile, not go through
     * again. */
    { "portal: the phantom on the portal's tile", dragon_phantom, STEPS(
          FX_PLACE(RED, "DG/RrRr.g", 1, 0, 0),
          FX_DEPLOY(RED, 0, 0, FEAT_FIELD, "ER.SL.SR.WL"),
          FX_DEPLOY_N(RED, 1, 0, FEAT_ROAD, "NW", FIG_PHANTOM, 1),
          FX_COMMIT(RED)), RULE_OK },
    { "portal: the phantom through it again", dragon_phantom, STEPS(
          FX_PLACE(RED, "DG/RrRr.g", 1, 0, 0),
          FX_DEPLOY(RED, 0, 0, FEAT_FIELD, "ER.SL.SR.WL"),
          FX_DEPLOY_N(RED, 0, 0, FEAT_CITY, "N", FIG_PHANTOM, 1),
          FX_COMMIT(RED)), RULE_PORTAL, 1 },
};


/* ---- The Count of Carcassonne ------------------------------------------ */

static struct rules count_rules(void)
{
    struct rules r = fx_rules_c2(2);
    fx_add_set(&r, "count");
    r.flags |= RF_COUNT;
    return r;
}


/* Blue's road south of the City (CO/11, (0,2)); Red's crossroads at
 * (0,3) completes it in turn 3: 3 for Blue, none for Red, who may send a
 * follower into the City (then move the count, or PASS). */
#define CITY_OFFER                                                         \
    FX_PLACE(RED, "BA/L", 2, 0, 0), FX_PASS(RED), FX_COMMIT(RED),          \
    FX_PLACE(BLUE, "BA/RFr", 0, 2, 1),                                     \
    FX_DEPLOY(BLUE, 0, 2, FEAT_ROAD, "NS"), FX_COMMIT(BLUE),               \
    FX_PLACE(RED, "BA/CRRR", 0, 3, 2), FX_PASS(RED), FX_COMMIT(RED)
#define INTO(p, q, n) FX_DEPLOY_N(p, 0, 0, FEAT_QUARTER, q, FIG_SMALL, n)
/* Blue's road north of CO/4 at (1,-2), Red's crossroads at (1,-3) ends
 * it in turn 5: before it scores, Red's follower may leave the
 * blacksmith's quarter for it (a COMMIT follows). */
#define CITY_ROAD_NORTH                                                    \
    FX_PLACE(BLUE, "BA/RFr", 1, -2, 1),                                    \
    FX_DEPLOY(BLUE, 1, -2, FEAT_ROAD, "NS"), FX_COMMIT(BLUE),              \
    FX_PLACE(RED, "BA/CRRR", 1, -3, 0), FX_PASS(RED), FX_COMMIT(RED)
#define OUT_TO_ROAD                                                        \
    FX_DEPLOY_N(RED, 1, -1, FEAT_ROAD, "N", FIG_SMALL, 1), FX_COMMIT(RED)

static const struct audit_case city_cases[] = {
    /* The whole cycle: into the blacksmith, the count to the market, out
     * onto the road before it scores (a tie, 3 each), and the field round
     * the City scores it as a completed city at the end. */
    { "city: a follower's cycle", count_rules, STEPS(CITY_OFFER,
          INTO(RED, "blacksmith", 1), FX_COUNT_TO(RED, "market"),
          CITY_ROAD_NORTH, OUT_TO_ROAD), .city = true,
      .events = { FX_EV(3, FEAT_ROAD, FXW_PLAYERS | FXW_POINTS,
                        .players = 1u << BLUE, .points = 3),
                  FX_EV(5, FEAT_ROAD, FXW_PLAYERS | FXW_POINTS,
                        .players = 1u << RED | 1u << BLUE, .points = 3) } },
    /* The same when the log names no meeple (a hand-written flierlog):
     * the move's player's follower in supply goes in, the one in the City
     * comes out. */
    { "city: moves without ids", count_rules, STEPS(CITY_OFFER,
          FX_DEPLOY(RED, 0, 0, FEAT_QUARTER, "blacksmith"),
          FX_COUNT_TO(RED, "market"), CITY_ROAD_NORTH,
          FX_DEPLOY(RED, 1, -1, FEAT_ROAD, "N"), FX_COMMIT(RED)),
      .city = true,
      .events = { FX_EV(5, FEAT_ROAD, FXW_PLAYERS,
                        .players = 1u << RED | 1u << BLUE) } },
    /* A log that ends while the scoring waits for the City's followers
     * (the game's last turn): the turn still scores, nobody having
     * moved. */
    { "city: held at the end", count_rules, STEPS(CITY_OFFER,
          INTO(RED, "blacksmith", 1), FX_COUNT_TO(RED, "market"),
          CITY_ROAD_NORTH), .city = true, .end_turn = 5, .finished = true,
      .events = { FX_EV(5, FEAT_ROAD, FXW_PLAYERS | FXW_POINTS,
                        .players = 1u << BLUE, .points = 3) } },
    { "city: QUARTER_DEPLOY: Blue scored, only Red may go into the City",
      count_rules, STEPS(CITY_OFFER, INTO(BLUE, "castle", 2), FX_PASS(BLUE)),
      RULE_QUARTER_DEPLOY, 3, .city = true },
    { "city: COUNT_MOVE: the count already stands in the castle",
      count_rules, STEPS(CITY_OFFER, INTO(RED, "blacksmith", 1),
            FX_COUNT_TO(RED, "castle")),
      RULE_COUNT_MOVE, 3, .city = true },
    { "city: QUARTER_LEAVE: the count in the blacksmith keeps Red in the City",
      count_rules, STEPS(CITY_OFFER, INTO(RED, "blacksmith", 1),
            FX_COUNT_TO(RED, "blacksmith"), CITY_ROAD_NORTH, OUT_TO_ROAD),
      RULE_QUARTER_LEAVE, 5, .city = true },
    { "city: QUARTER_LEAVE: out of the blacksmith between turns, not before a "
      "scoring",
      count_rules, STEPS(CITY_OFFER, INTO(RED, "blacksmith", 1),
            FX_COUNT_TO(RED, "market"),
            FX_DEPLOY_N(RED, 2, 0, FEAT_MONASTERY, "I", FIG_SMALL, 1)),
      RULE_QUARTER_LEAVE, 3, .city = true },
    { "city: FLIER_INTO_CITY: FL/F.o at (2,0) rolls 2 onto CO/7's quarters",
      count_rules, STEPS(FX_PLACE(RED, "FL/F.o", 2, 0, 0), FX_FLY(RED, 2, 0, 2),
            FX_DEPLOY(RED, 0, 0, FEAT_QUARTER, "castle"), FX_COMMIT(RED)),
      RULE_FLIER_INTO_CITY, 1, .city = true },
    /* A flier lands on the City's outer road (CO/4's, north at (1,-1)):
     * it lies outside the City itself, as JCloisterZone plays it. */
    { "city: a flier lands outside the City", count_rules, STEPS(
          FX_PLACE(RED, "FL/F.o", 2, -1, 0), FX_FLY(RED, 2, -1, 1),
          FX_DEPLOY(RED, 1, -1, FEAT_ROAD, "N"), FX_COMMIT(RED)),
      .city = true, .flights = 1 },
};

/* ---- the siege ----------------------------------------------------------- */

static struct rules siege_rules(void)
{
    struct rules r = fx_rules_c2(2);
    fx_add_set(&r, "siege/cathars");
    r.flags |= RF_SIEGE | RF_ESCAPE;
    return r;
}

/* The follower n of owner on feature f at (x,y) escapes, by player p. */
#define FX_ESCAPE(p, x, y, f, loc, owner, n) \
    { MV_ESCAPE, (p), NULL, (x), (y), 0, (f), (loc), FIG_SMALL, (n), \
      (owner), 0, 0 }

/* Red's monastery east of the start (BA/LR, its road west, at (1,0));
 * Blue's knight in the besieged city SI.CA/Cc at (0,-1) makes with the
 * start's: open to the east, the monastery beside its start tile. After
 * Blue's turn Blue may take the knight out. */
#define SIEGE_NEAR_CLOISTER                                                \
    FX_PLACE(RED, "BA/LR", 1, 0, 1), FX_PASS(RED), FX_COMMIT(RED),         \
    FX_PLACE(BLUE, "SI.CA/Cc", 0, -1, 2),                                  \
    FX_DEPLOY(BLUE, 0, -1, FEAT_CITY, "SE"), FX_COMMIT(BLUE)
#define BLUE_ESCAPES FX_ESCAPE(BLUE, 0, -1, FEAT_CITY, "SE", BLUE, 1)

/* Nobody is left in the city at the end: it scores nothing. */
static void no_city_scored(const char *what, const struct report *r)
{
    for (size_t i = 0; i < r->n_events; i++)
        if (r->events[i].feature == FEAT_CITY)
            fail_msg("%s: a city scored in turn %d", what, r->events[i].turn);
}

static const struct audit_case siege_cases[] = {
    /* SI.CA/C turned onto the start's city closes a two-tile besieged
     * city: 2×2 less 2, 2 points. */
    { "siege: a besieged city completed", siege_rules, STEPS(
          FX_PLACE(RED, "SI.CA/C", 0, -1, 2),
          FX_DEPLOY(RED, 0, -1, FEAT_CITY, "S"), FX_COMMIT(RED)),
      .events = { FX_EV(1, FEAT_CITY, FXW_POINTS | FXW_ITEMS, .points = 2,
                        .n_items = 2,
                        .items = { { SI_TILES, 2, 4 },
                                   { SI_BESIEGED, -1, -2 } }) } },
    /* The same city for a farmer at the end: it counts twice, 6. */
    { "siege: a farmer's besieged city counts twice", siege_rules, STEPS(
          FX_PLACE(RED, "SI.CA/C", 0, -1, 2),
          FX_DEPLOY(RED, 0, -1, FEAT_FIELD, "NL.NR.EL.ER.WL.WR"),
          FX_COMMIT(RED)), .end_turn = 1, .finished = true,
      .events = { FX_EV(-1, FEAT_FIELD, FXW_POINTS | FXW_ITEMS, .points = 6,
                        .n_items = 2,
                        .items = { { SI_CITIES, 1, 3 },
                                   { SI_BESIEGED, 1, 3 } }) } },
    /* Blue declines the escape; at the end the unfinished besieged city
     * scores 2 less 2: an event of 0. */
    { "siege: the escape declined", siege_rules,
      STEPS(SIEGE_NEAR_CLOISTER, FX_PASS(BLUE)), .end_turn = 2,
      .finished = true,
      .events = { FX_EV(-1, FEAT_CITY, FXW_POINTS | FXW_ITEMS, .points = 0,
                        .n_items = 2,
                        .items = { { SI_TILES, 2, 2 },
                                   { SI_BESIEGED, -1, -2 } }) } },
    { "siege: the knight escapes", siege_rules,
      STEPS(SIEGE_NEAR_CLOISTER, BLUE_ESCAPES), .end_turn = 2,
      .finished = true, .more = no_city_scored },
    { "siege: SIEGE_ESCAPE: a second escape after the turn", siege_rules,
      STEPS(SIEGE_NEAR_CLOISTER, BLUE_ESCAPES, BLUE_ESCAPES),
      RULE_SIEGE_ESCAPE, 2, .msg_has = "no escape now" },
    { "siege: SIEGE_ESCAPE: Red takes Blue's knight out", siege_rules,
      STEPS(SIEGE_NEAR_CLOISTER,
            FX_ESCAPE(RED, 0, -1, FEAT_CITY, "SE", BLUE, 1)),
      RULE_SIEGE_ESCAPE, 2 },
    { "siege: SIEGE_ESCAPE: during the turn", siege_rules, STEPS(
          FX_PLACE(RED, "BA/LR", 1, 0, 1), FX_PASS(RED), FX_COMMIT(RED),
          FX_PLACE(BLUE, "SI.CA/Cc", 0, -1, 2),
          FX_DEPLOY(BLUE, 0, -1, FEAT_CITY, "SE"), BLUE_ESCAPES,
          FX_COMMIT(BLUE)),
      RULE_SIEGE_ESCAPE, 2, .msg_has = "between turns" },
    /* A straight road instead of the monastery: no cloister near. */
    { "siege: SIEGE_ESCAPE: no cloister near the city", siege_rules, STEPS(
          FX_PLACE(RED, "BA/RFr", 1, 0, 0), FX_PASS(RED), FX_COMMIT(RED),
          FX_PLACE(BLUE, "SI.CA/Cc", 0, -1, 2),
          FX_DEPLOY(BLUE, 0, -1, FEAT_CITY, "SE"), FX_COMMIT(BLUE),
          BLUE_ESCAPES),
      RULE_SIEGE_ESCAPE, 2 },
};

/* ---- The Russian promos ------------------------------------------------ */

static struct rules russian_rules(void)
{
    struct rules r = fx_rules_c2(2);
    fx_add_set(&r, "russian-promos/2013");
    fx_add_set(&r, "russian-promos/2016");
    return r;
}

/* The follower n of owner taken out of the trap (f, loc) at (x,y) by p. */
#define FX_TRAP_RETURN(p, x, y, f, owner, n) \
    { MV_TRAP_RETURN, (p), NULL, (x), (y), 0, (f), "I", FIG_SMALL, (n), \
      (owner), 0, 0 }
/* Red's Vodyanoy south of the start; Blue's highwayman on the road at
 * (1,0), beside it across a corner: caught at once. */
#define VODYANOY_CATCHES                                                   \
    FX_PLACE(RED, "RU/V", 0, 1, 0), FX_PASS(RED), FX_COMMIT(RED),          \
    FX_PLACE(BLUE, "BA/RFr", 1, 0, 0),                                     \
    FX_DEPLOY(BLUE, 1, 0, FEAT_ROAD, "WE"), FX_COMMIT(BLUE)

static const struct audit_case russian_cases[] = {
    /* Alone beside the start, the hut scores 9 less 1 at the end. */
    { "russian: Baba Yaga's hut wants to be alone", russian_rules, STEPS(
          FX_PLACE(RED, "RU/L", 0, 1, 0),
          FX_DEPLOY(RED, 0, 1, FEAT_YAGA_HUT, "I"), FX_COMMIT(RED)),
      .end_turn = 1, .finished = true,
      .events = { FX_EV(-1, FEAT_YAGA_HUT, FXW_POINTS | FXW_ITEMS,
                        .points = 8, .n_items = 2,
                        .items = { { SI_YAGA, -1, 9 },
                                   { SI_TILES, 1, -1 } }) } },
    /* JCloisterZone's engine test: the caught highwayman costs 2 and its
     * road scores nothing. */
    { "russian: the Vodyanoy catches and costs 2", russian_rules,
      STEPS(VODYANOY_CATCHES), .end_turn = 2, .finished = true,
      .events = { FX_EV(-1, FEAT_VODYANOY, FXW_POINTS | FXW_ITEMS,
                        .points = -2, .n_items = 1,
                        .items = { { SI_MEEPLES, 1, -2 } }) } },
    { "russian: VODYANOY_TILE: a farmer on the Vodyanoy's tile",
      russian_rules, STEPS(
          FX_PLACE(RED, "RU/V", 0, 1, 0),
          FX_DEPLOY(RED, 0, 1, FEAT_FIELD, "NL.NR.EL.ER.SL.SR.WL.WR"),
          FX_COMMIT(RED)),
      RULE_VODYANOY_TILE, 1 },
    { "russian: TRAP_RETURN: Red takes Blue's caught follower",
      russian_rules, STEPS(VODYANOY_CATCHES,
          FX_PLACE(RED, "BA/C", 0, -1, 2),
          FX_TRAP_RETURN(RED, 0, 1, FEAT_VODYANOY, BLUE, 1), FX_COMMIT(RED)),
      RULE_TRAP_RETURN, 3 },
    /* Blue takes its own back instead of an action: no toll at the end. */
    { "russian: a caught follower taken back", russian_rules, STEPS(
          VODYANOY_CATCHES, FX_PLACE(RED, "BA/C", 0, -1, 2), FX_PASS(RED),
          FX_COMMIT(RED), FX_PLACE(BLUE, "BA/RFr", 2, 0, 0),
          FX_TRAP_RETURN(BLUE, 0, 1, FEAT_VODYANOY, BLUE, 1),
          FX_COMMIT(BLUE)),
      .end_turn = 4, .finished = true },
};

/* ---- Little Buildings, The Festival, The Tunnel, The Labyrinth --------- */

static struct rules lb_rules(void)
{
    struct rules r = fx_rules_c2(2);
    r.counts[COUNT_LITTLE_BUILDINGS] = 1;
    return r;
}

static struct rules festival_rules(void)
{
    struct rules r = fx_rules_c2(2);
    fx_add_set(&r, "festival");
    r.flags |= RF_FESTIVAL;
    return r;
}

static struct rules labyrinth_rules(void)
{
    struct rules r = fx_rules_c2(2);
    fx_add_set(&r, "labyrinth");
    return r;
}

static struct rules labyrinth_basic_rules(void)
{
    struct rules r = labyrinth_rules();
    r.opt[OPT_LABYRINTH_VARIANT] = 0;
    return r;
}

/* The labyrinth east of the start, whose road runs west-east into it;
 * Blue's follower on its north arm (a junction at (1,-1)), Red's on its
 * east arm (a junction at (2,0)): one road, two sides. */
#define LABYRINTH_TWO_ARMS                                                 \
    FX_PLACE(RED, "LA/Rrrr", 1, 0, 0), FX_PASS(RED), FX_COMMIT(RED),       \
    FX_PLACE(BLUE, "BA/RRR", 1, -1, 0),                                    \
    FX_DEPLOY(BLUE, 1, -1, FEAT_ROAD, "S"), FX_COMMIT(BLUE),               \
    FX_PLACE(RED, "BA/RRR", 2, 0, 0), FX_DEPLOY(RED, 2, 0, FEAT_ROAD, "W"), \
    FX_COMMIT(RED)

static struct rules gold_rules(void)
{
    struct rules r = fx_rules_c2(2);
    fx_add_set(&r, "goldmines");
    r.flags |= RF_GOLD;
    return r;
}

/* GO/LCc north-east of the start, beside Red's BA/RFr east of it: two
 * tiles around the mine, so Blue says where its second bar goes. */
#define GOLD_BESIDE_TWO                                                    \
    FX_PLACE(RED, "BA/RFr", 1, 0, 0), FX_PASS(RED), FX_COMMIT(RED),        \
    FX_PLACE(BLUE, "GO/LCc", 1, -1, 0)

static struct rules tunnel_rules(void)
{
    struct rules r = fx_rules_c2(2);
    fx_add_set(&r, "tunnel");
    r.counts[COUNT_TUNNEL] = 1;
    return r;
}

static struct rules hs_rules(void)
{
    struct rules r = fx_rules_c2(2);
    fx_add_set(&r, "hills-and-sheep:1");
    r.flags |= RF_HILL | RF_VINEYARD;
    r.figures[FIG_SHEPHERD] = 1;
    return r;
}

static struct rules hs_count_rules(void)
{
    struct rules r = hs_rules();
    r.opt[OPT_HILL_TIEBREAKER] = 1;
    return r;
}

/* A road from the junction at (-1,0) through the start, Red's highwayman
 * on the hill at (1,0), down to (1,1) and back west through Blue's at
 * (0,1) to the junction at (-1,1); Red's last tile closes it. */
#define HS_HILL_ROAD                                                       \
    FX_PLACE(RED, "HS/RrC.h", 1, 0, 0),                                    \
    FX_DEPLOY(RED, 1, 0, FEAT_ROAD, "SW"), FX_COMMIT(RED),                 \
    FX_PLACE(BLUE, "BA/RFr", 0, 1, 0),                                     \
    FX_DEPLOY(BLUE, 0, 1, FEAT_ROAD, "WE"), FX_COMMIT(BLUE),               \
    FX_PLACE(RED, "BA/RRR", -1, 0, 0), FX_PASS(RED), FX_COMMIT(RED),       \
    FX_PLACE(BLUE, "BA/RRR", -1, 1, 2), FX_PASS(BLUE), FX_COMMIT(BLUE),    \
    FX_PLACE(RED, "BA/Rr", 1, 1, 1), FX_PASS(RED), FX_COMMIT(RED)

/* A move of kind k by p on the square (x,y), or on (f, loc) there. */
#define FX_AT(k, p, x, y) \
    { (k), (p), NULL, (x), (y), 0, 0, NULL, 0, 0, -1, 0, 0 }
#define FX_ON(k, p, x, y, f, loc) \
    { (k), (p), NULL, (x), (y), 0, (f), (loc), 0, 0, -1, 0, 0 }
#define FX_FESTIVAL_RETURN(p, x, y, f, loc, n) \
    { MV_FESTIVAL_RETURN, (p), NULL, (x), (y), 0, (f), (loc), FIG_SMALL, \
      (n), (p), 0, 0 }

static struct rules watchtowers_rules(void)
{
    struct rules r = fx_rules_c2(2);
    fx_add_set(&r, "watchtowers");
    return r;
}

static struct rules ferries_rules(void)
{
    struct rules r = fx_rules_c2(2);
    fx_add_set(&r, "ferries");
    r.flags |= RF_FERRIES;
    return r;
}
static struct rules ferries_tunnel_rules(void)
{
    struct rules r = ferries_rules();
    fx_add_set(&r, "tunnel");
    r.counts[COUNT_TUNNEL] = 1;
    return r;
}
/* FR/RRR east of the start, its ferry joining the start's road (Red's
 * follower on the lake's west end) to the east end. */
#define FERRY_EAST                                                          \
    FX_PLACE(RED, "FR/RRR", 1, 0, 0), FX_DEPLOY(RED, 1, 0, FEAT_ROAD, "W"),  \
    FX_ON(MV_FERRY, RED, 1, 0, FEAT_ROAD, "WE"), FX_COMMIT(RED)
static const struct audit_case little_cases[] = {
    /* One follower each on the completed road: the tie goes to Red, whose
     * highwayman stands on a hill. */
    { "hills & sheep: a hill breaks a tie", hs_rules, STEPS(HS_HILL_ROAD),
      .end_turn = 5,
      .events = { FX_EV(5, FEAT_ROAD, FXW_POINTS | FXW_PLAYERS, .points = 6,
                        .players = 1u << RED) } },
    { "hills & sheep: number-of-followers breaks it alike", hs_count_rules,
      STEPS(HS_HILL_ROAD), .end_turn = 5,
      .events = { FX_EV(5, FEAT_ROAD, FXW_POINTS | FXW_PLAYERS, .points = 6,
                        .players = 1u << RED) } },
    { "hills & sheep: FLOCK: a flock brought home with no shepherd",
      hs_rules, STEPS(FX_PLACE(RED, "BA/RFr", 1, 0, 0), FX_PASS(RED),
                      FX_AT(MV_FLOCK_SCORE, RED, 0, 0), FX_COMMIT(RED)),
      RULE_FLOCK, 1 },
    /* Red's shepherd on the field south of the road at (1,0); Blue's tile
     * extends it, but only Red chooses for Red's flock, and in Red's turn:
     * Blue's choice breaks FLOCK. */
    { "hills & sheep: FLOCK: a choice in another player's turn", hs_rules,
      STEPS(FX_PLACE(RED, "BA/RFr", 1, 0, 0),
            FX_DEPLOY_N(RED, 1, 0, FEAT_FIELD, "ER.SL.SR.WL", FIG_SHEPHERD,
                        1),
            FX_COMMIT(RED), FX_PLACE(BLUE, "BA/RFr", 2, 0, 0), FX_PASS(BLUE),
            FX_AT(MV_FLOCK_EXPAND, BLUE, 0, 0), FX_COMMIT(BLUE)),
      RULE_FLOCK, 2 },
    /* Red's shed at (1,0) on Blue's road of 3 tiles: 3 + 1 at the end. */
    { "little buildings: a shed on a road", lb_rules, STEPS(
          FX_PLACE(RED, "BA/RFr", 1, 0, 0), FX_AT(MV_LB_SHED, RED, 1, 0),
          FX_COMMIT(RED), FX_PLACE(BLUE, "BA/RFr", 2, 0, 0),
          FX_DEPLOY(BLUE, 2, 0, FEAT_ROAD, "WE"), FX_COMMIT(BLUE)),
      .end_turn = 2, .finished = true,
      .events = { FX_EV(-1, FEAT_ROAD, FXW_POINTS | FXW_ITEMS, .points = 4,
                        .n_items = 2,
                        .items = { { SI_TILES, 3, 3 },
                                   { SI_LITTLE_BUILDINGS, 1, 1 } }) } },
    { "little buildings: LITTLE_BUILDING: off the turn's tile", lb_rules,
      STEPS(FX_PLACE(RED, "BA/RFr", 1, 0, 0), FX_AT(MV_LB_TOWER, RED, 0, 0),
            FX_COMMIT(RED)),
      RULE_LITTLE_BUILDING, 1 },
    /* Red's highwayman goes home after Red's festival tile. */
    { "festival: a follower taken back", festival_rules, STEPS(
          FX_PLACE(RED, "BA/RFr", 1, 0, 0),
          FX_DEPLOY(RED, 1, 0, FEAT_ROAD, "WE"), FX_COMMIT(RED),
          FX_PLACE(BLUE, "BA/RFr", 2, 0, 0), FX_PASS(BLUE), FX_COMMIT(BLUE),
          FX_PLACE(RED, "FE/CFR", 0, -1, 2),
          FX_FESTIVAL_RETURN(RED, 1, 0, FEAT_ROAD, "WE", 1), FX_COMMIT(RED)),
      .end_turn = 3, .finished = true },
    { "festival: FESTIVAL_RETURN: after a tile with no festival",
      festival_rules, STEPS(
          FX_PLACE(RED, "BA/RFr", 1, 0, 0),
          FX_DEPLOY(RED, 1, 0, FEAT_ROAD, "WE"), FX_COMMIT(RED),
          FX_PLACE(BLUE, "BA/RFr", 2, 0, 0), FX_PASS(BLUE), FX_COMMIT(BLUE),
          FX_PLACE(RED, "BA/C", 0, -1, 2),
          FX_FESTIVAL_RETURN(RED, 1, 0, FEAT_ROAD, "WE", 1), FX_COMMIT(RED)),
      RULE_FESTIVAL_RETURN, 3 },
    /* TU/RCR turned onto the start's city: its two tunnel roads run east
     * and west; Red's two A tokens join them (before and after Blue's
     * turn), and the offer after an action may be passed. */
    { "tunnel: two tokens of a colour join two roads", tunnel_rules, STEPS(
          FX_PLACE(RED, "TU/RCR", 0, -1, 2),
          FX_ON(MV_TUNNEL_A, RED, 0, -1, FEAT_ROAD, "E"), FX_PASS(RED),
          FX_COMMIT(RED), FX_PLACE(BLUE, "BA/RFr", 1, 0, 0), FX_PASS(BLUE),
          FX_PASS(BLUE), FX_COMMIT(BLUE), FX_PLACE(RED, "BA/RFr", 2, 0, 0),
          FX_PASS(RED), FX_ON(MV_TUNNEL_A, RED, 0, -1, FEAT_ROAD, "W"),
          FX_COMMIT(RED)),
      .end_turn = 3, .finished = true },
    { "tunnel: TUNNEL: a token where no tunnel opens", tunnel_rules, STEPS(
          FX_PLACE(RED, "BA/RFr", 1, 0, 0),
          FX_ON(MV_TUNNEL_A, RED, 1, 0, FEAT_ROAD, "WE"), FX_PASS(RED),
          FX_COMMIT(RED)),
      RULE_TUNNEL, 1 },
    { "tunnel: TUNNEL: a second token in a turn", tunnel_rules, STEPS(
          FX_PLACE(RED, "TU/RCR", 0, -1, 2),
          FX_ON(MV_TUNNEL_A, RED, 0, -1, FEAT_ROAD, "E"),
          FX_ON(MV_TUNNEL_B, RED, 0, -1, FEAT_ROAD, "W"), FX_PASS(RED),
          FX_COMMIT(RED)),
      RULE_TUNNEL, 1, .msg_has = "already" },
    /* Blue's road reaches the ferry, which Blue turns south: Red's road
     * is the start's and the lake's, 2 tiles, no longer Blue's tile. */
    { "ferries: a ferry moved splits its road", ferries_rules, STEPS(
          FERRY_EAST, FX_PLACE(BLUE, "BA/RFr", 2, 0, 0), FX_PASS(BLUE),
          FX_ON(MV_FERRY, BLUE, 1, 0, FEAT_ROAD, "WS"), FX_COMMIT(BLUE)),
      .end_turn = 2, .finished = true,
      .events = { FX_EV(-1, FEAT_ROAD, FXW_POINTS | FXW_PLAYERS,
                        .points = 2, .players = 1u << RED) } },
    /* Left where it is, the ferry carries the road on: 3 tiles. */
    { "ferries: a ferry joins two roads", ferries_rules, STEPS(
          FERRY_EAST, FX_PLACE(BLUE, "BA/RFr", 2, 0, 0), FX_PASS(BLUE),
          FX_PASS(BLUE), FX_COMMIT(BLUE)),
      .end_turn = 2, .finished = true,
      .events = { FX_EV(-1, FEAT_ROAD, FXW_POINTS | FXW_PLAYERS,
                        .points = 3, .players = 1u << RED) } },
    /* Blue's road from a crossing to the lake's east end goes on over
     * the ferry; Blue turns the ferry south, and the road the ferry left
     * is completed: 2 tiles for Blue in that turn. */
    { "ferries: a road a ferry leaves completes and scores", ferries_rules,
      STEPS(FX_PLACE(RED, "FR/RRR", 1, 0, 0),
            FX_DEPLOY(RED, 1, 0, FEAT_ROAD, "S"),
            FX_ON(MV_FERRY, RED, 1, 0, FEAT_ROAD, "WE"), FX_COMMIT(RED),
            FX_PLACE(BLUE, "BA/RRR", 2, 0, 0),
            FX_DEPLOY(BLUE, 2, 0, FEAT_ROAD, "W"),
            FX_ON(MV_FERRY, BLUE, 1, 0, FEAT_ROAD, "WS"), FX_COMMIT(BLUE)),
      .end_turn = 2, .finished = true,
      .events = { FX_EV(2, FEAT_ROAD, FXW_POINTS | FXW_PLAYERS,
                        .points = 2, .players = 1u << BLUE) } },
    /* Blue's road from the lake's east end into TU/RR at (2,0), whose
     * two tunnel roads Blue's A tokens join; Red's road west reaches the
     * ferry and turns it south. The road the ferry left keeps the
     * tunnel's join and its open north end: unfinished, 2 tiles at the
     * end. */
    { "ferries: a road a ferry leaves keeps its tunnel", ferries_tunnel_rules,
      STEPS(FX_PLACE(RED, "FR/RRR", 1, 0, 0),
            FX_ON(MV_FERRY, RED, 1, 0, FEAT_ROAD, "WE"), FX_COMMIT(RED),
            FX_PLACE(BLUE, "TU/RR", 2, 0, 2),
            FX_DEPLOY(BLUE, 2, 0, FEAT_ROAD, "W"),
            FX_ON(MV_TUNNEL_A, BLUE, 2, 0, FEAT_ROAD, "W"), FX_COMMIT(BLUE),
            FX_PLACE(RED, "BA/C", 0, -1, 2), FX_PASS(RED), FX_COMMIT(RED),
            FX_PLACE(BLUE, "BA/L", 0, 1, 0), FX_PASS(BLUE),
            FX_ON(MV_TUNNEL_A, BLUE, 2, 0, FEAT_ROAD, "N"), FX_COMMIT(BLUE),
            FX_PLACE(RED, "BA/RFr", -1, 0, 0), FX_PASS(RED),
            FX_ON(MV_FERRY, RED, 1, 0, FEAT_ROAD, "WS"), FX_COMMIT(RED)),
      .end_turn = 5, .finished = true,
      .events = { FX_EV(-1, FEAT_ROAD, FXW_POINTS | FXW_PLAYERS,
                        .points = 2, .players = 1u << BLUE) } },
    { "ferries: FERRY: a lake tile left without its ferry", ferries_rules,
      STEPS(FX_PLACE(RED, "FR/RRR", 1, 0, 0), FX_PASS(RED),
            FX_COMMIT(RED)),
      RULE_FERRY, 1, .msg_has = "without its ferry" },
    { "ferries: FERRY: a ferry no road of the turn's tile reaches",
      ferries_rules, STEPS(
          FERRY_EAST, FX_PLACE(BLUE, "BA/C", 0, -1, 2), FX_PASS(BLUE),
          FX_ON(MV_FERRY, BLUE, 1, 0, FEAT_ROAD, "WS"), FX_COMMIT(BLUE)),
      RULE_FERRY, 2, .msg_has = "leads to that ferry" },
    /* The south arm closed by Blue, the west one by Red through the
     * start: Red's two followers beat Blue's one, 6 tiles + 2 each. */
    { "labyrinth: 2 a follower on a completed road", labyrinth_rules, STEPS(
          LABYRINTH_TWO_ARMS, FX_PLACE(BLUE, "BA/RRR", 1, 1, 1),
          FX_PASS(BLUE), FX_COMMIT(BLUE), FX_PLACE(RED, "BA/RRR", -1, 0, 0),
          FX_DEPLOY(RED, -1, 0, FEAT_ROAD, "E"), FX_COMMIT(RED)),
      .end_turn = 5,
      .events = { FX_EV(5, FEAT_ROAD,
                        FXW_POINTS | FXW_PLAYERS | FXW_ITEMS,
                        .points = 10, .players = 1u << RED, .n_items = 2,
                        .items = { { SI_TILES, 6, 6 },
                                   { SI_LABYRINTH, 2, 4 } }) } },
    { "labyrinth: the basic variant gives no bonus", labyrinth_basic_rules,
      STEPS(LABYRINTH_TWO_ARMS, FX_PLACE(BLUE, "BA/RRR", 1, 1, 1),
            FX_PASS(BLUE), FX_COMMIT(BLUE),
            FX_PLACE(RED, "BA/RRR", -1, 0, 0),
            FX_DEPLOY(RED, -1, 0, FEAT_ROAD, "E"), FX_COMMIT(RED)),
      .end_turn = 5,
      .events = { FX_EV(5, FEAT_ROAD, FXW_POINTS | FXW_ITEMS, .points = 6,
                        .n_items = 1, .items = { { SI_TILES, 6, 6 } }) } },
    /* On an arm's own side the road is occupied as any: Red's second
     * follower on the west arm, where Red's first stands already. */
    { "labyrinth: MEEPLE_FEATURE_OCCUPIED: an arm's own side",
      labyrinth_rules, STEPS(
          FX_PLACE(RED, "LA/Rrrr", 1, 0, 0), FX_PASS(RED), FX_COMMIT(RED),
          FX_PLACE(BLUE, "BA/RRR", 1, -1, 0),
          FX_DEPLOY(BLUE, 1, -1, FEAT_ROAD, "S"), FX_COMMIT(BLUE),
          FX_PLACE(RED, "BA/RFr", -1, 0, 0),
          FX_DEPLOY(RED, -1, 0, FEAT_ROAD, "WE"), FX_COMMIT(RED),
          FX_PLACE(BLUE, "BA/RRR", 2, 0, 0), FX_PASS(BLUE), FX_COMMIT(BLUE),
          FX_PLACE(RED, "BA/RFr", -2, 0, 0),
          FX_DEPLOY(RED, -2, 0, FEAT_ROAD, "WE"), FX_COMMIT(RED)),
      RULE_MEEPLE_FEATURE_OCCUPIED, 5 },
    /* Red's highwayman on the west road of a road tower east of the
     * start; Blue's junction west of the start closes it: 3 for the road,
     * and 2 for the tower's two tiles with a road around it (the
     * junction is two squares away). */
    { "watchtowers: a road tower counts the tiles with a road around it",
      watchtowers_rules, STEPS(
          FX_PLACE(RED, "WT/CRFR_1R", 1, 0, 0),
          FX_DEPLOY(RED, 1, 0, FEAT_ROAD, "W"), FX_COMMIT(RED),
          FX_PLACE(BLUE, "BA/RRR", -1, 0, 0), FX_PASS(BLUE),
          FX_COMMIT(BLUE)),
      .end_turn = 2,
      .events = { FX_EV(2, FEAT_WATCHTOWER,
                        FXW_POINTS | FXW_PLAYERS | FXW_ITEMS,
                        .points = 2, .players = 1u << RED, .n_items = 1,
                        .items = { { SI_ROADS, 2, 2 } }),
                  FX_EV(2, FEAT_ROAD, FXW_POINTS | FXW_PLAYERS,
                        .points = 3, .players = 1u << RED) } },
    /* The same follower on a figure tower (WT/CFRF_2M, its road to the
     * west): the only figure around, it counts itself, 2. */
    { "watchtowers: a figure tower counts the scoring figure itself",
      watchtowers_rules, STEPS(
          FX_PLACE(RED, "WT/CFRF_2M", 1, 0, 1),
          FX_DEPLOY(RED, 1, 0, FEAT_ROAD, "W"), FX_COMMIT(RED),
          FX_PLACE(BLUE, "BA/RRR", -1, 0, 0), FX_PASS(BLUE),
          FX_COMMIT(BLUE)),
      .end_turn = 2,
      .events = { FX_EV(2, FEAT_WATCHTOWER,
                        FXW_POINTS | FXW_PLAYERS | FXW_ITEMS,
                        .points = 2, .players = 1u << RED, .n_items = 1,
                        .items = { { SI_MEEPLES, 1, 2 } }) } },
    /* GO/CRcr turned onto the start's city, Red's knight on it; its one
     * neighbour, the start, gets the second bar by itself; Blue closes
     * the city: Red takes both bars, 2 at the end (1 a bar). */
    { "gold: the city's winner takes the bars on its tiles", gold_rules,
      STEPS(FX_PLACE(RED, "GO/CRcr", 0, -1, 1),
            FX_DEPLOY(RED, 0, -1, FEAT_CITY, "NS"), FX_COMMIT(RED),
            FX_PLACE(BLUE, "BA/C", 0, -2, 2), FX_PASS(BLUE),
            FX_COMMIT(BLUE)),
      .end_turn = 2, .finished = true, .score = { 8, 0 },
      .events = { FX_EV(-1, FEAT_GOLD,
                        FXW_POINTS | FXW_PLAYERS | FXW_ITEMS,
                        .points = 2, .players = 1u << RED, .n_items = 1,
                        .items = { { SI_GOLD, 2, 2 } }) } },
    { "gold: a log may say where the lone second bar went", gold_rules,
      STEPS(FX_PLACE(RED, "GO/CRcr", 0, -1, 1), FX_AT(MV_GOLD, RED, 0, 0),
            FX_DEPLOY(RED, 0, -1, FEAT_CITY, "NS"), FX_COMMIT(RED),
            FX_PLACE(BLUE, "BA/C", 0, -2, 2), FX_PASS(BLUE),
            FX_COMMIT(BLUE)),
      .end_turn = 2, .finished = true, .score = { 8, 0 } },
    { "gold: the second bar on a tile beside the mine", gold_rules,
      STEPS(GOLD_BESIDE_TWO, FX_AT(MV_GOLD, BLUE, 0, 0), FX_PASS(BLUE),
            FX_COMMIT(BLUE)),
      .end_turn = 2, .finished = true },
    { "gold: GOLD: the second bar where no tile is", gold_rules,
      STEPS(GOLD_BESIDE_TWO, FX_AT(MV_GOLD, BLUE, 2, 0), FX_PASS(BLUE),
            FX_COMMIT(BLUE)),
      RULE_GOLD, 2, .msg_has = "beside the gold mine at (1,-1)",
      .then = RULE_GOLD, .then_has = "no second gold bar" },
    { "gold: GOLD: no second bar though two tiles lie around", gold_rules,
      STEPS(GOLD_BESIDE_TWO, FX_PASS(BLUE), FX_COMMIT(BLUE)),
      RULE_GOLD, 2, .msg_has = "no second gold bar" },
    { "gold: GOLD: a bar after a tile with no gold mine", gold_rules,
      STEPS(FX_PLACE(RED, "BA/RFr", 1, 0, 0), FX_AT(MV_GOLD, RED, 0, 0),
            FX_PASS(RED), FX_COMMIT(RED)),
      RULE_GOLD, 1, .msg_has = "no gold mine waits" },
    /* Red's highwayman on the road south of (1,0), Blue's east of (0,1),
     * both ending at junctions; Red's GO/RrRr at (1,1) joins them, its
     * second bar on (0,1): a tie, and the two bars go one each, Red's
     * first (the player on turn): 3 + 1 each. */
    { "gold: tied winners take the bars in turn", gold_rules,
      STEPS(FX_PLACE(RED, "BA/RRR", 1, 0, 0),
            FX_DEPLOY(RED, 1, 0, FEAT_ROAD, "S"), FX_COMMIT(RED),
            FX_PLACE(BLUE, "BA/RRR", 0, 1, 0),
            FX_DEPLOY(BLUE, 0, 1, FEAT_ROAD, "E"), FX_COMMIT(BLUE),
            FX_PLACE(RED, "GO/RrRr", 1, 1, 0), FX_AT(MV_GOLD, RED, 0, 1),
            FX_PASS(RED), FX_COMMIT(RED)),
      .end_turn = 3, .finished = true, .score = { 4, 4 },
      .events = { FX_EV(3, FEAT_ROAD, FXW_POINTS | FXW_PLAYERS,
                        .points = 3, .players = 1u << RED | 1u << BLUE) } },
    /* The same road, three bars on it (Red's GO/CcRr at (2,0) put its
     * second on (1,0) by itself): Blue, on turn, takes first, then Red,
     * then Blue again: 3 + 1 for Red, 3 + 2 for Blue. */
    { "gold: the player on turn takes the first bar", gold_rules,
      STEPS(FX_PLACE(RED, "BA/RRR", 1, 0, 0),
            FX_DEPLOY(RED, 1, 0, FEAT_ROAD, "S"), FX_COMMIT(RED),
            FX_PLACE(BLUE, "BA/RRR", 0, 1, 0),
            FX_DEPLOY(BLUE, 0, 1, FEAT_ROAD, "E"), FX_COMMIT(BLUE),
            FX_PLACE(RED, "GO/CcRr", 2, 0, 1), FX_PASS(RED), FX_COMMIT(RED),
            FX_PLACE(BLUE, "GO/RrRr", 1, 1, 0), FX_AT(MV_GOLD, BLUE, 0, 1),
            FX_PASS(BLUE), FX_COMMIT(BLUE)),
      .end_turn = 4, .finished = true, .score = { 4, 5 } },
};

/* ---- The Crop Circles -------------------------------------------------- */

static struct rules corn_rules(void)
{
    struct rules r = fx_rules_c2(2);
    fx_add_set(&r, "corn-circles/1");
    return r;
}

#define FX_CIRCLE(kind) \
    { (kind), -1, NULL, 0, 0, 0, 0, NULL, 0, 0, -1, 0, 0 }
#define FX_CIRCLE_RETURN(x, y, f, loc, owner, n) \
    { MV_CIRCLE_RETURN, -1, NULL, (x), (y), 0, (f), (loc), FIG_SMALL, (n), \
      (owner), 0, 0 }
/* Red's highwayman on the road at (1,0), Blue's knight in the city at
 * (0,1); Red's CC.1/RRR at (2,0), a road circle, ends the road's east end
 * (its west end stays open): after its COMMIT, Red chooses. */
#define CORN_ROAD_CIRCLE                                                   \
    FX_PLACE(RED, "BA/RFr", 1, 0, 0), FX_DEPLOY(RED, 1, 0, FEAT_ROAD, "WE"), \
    FX_COMMIT(RED),                                                        \
    FX_PLACE(BLUE, "BA/C", 0, 1, 2), FX_DEPLOY(BLUE, 0, 1, FEAT_CITY, "S"),  \
    FX_COMMIT(BLUE),                                                       \
    FX_PLACE(RED, "CC.1/RRR", 2, 0, 0), FX_PASS(RED), FX_COMMIT(RED)

static const struct audit_case corn_cases[] = {
    /* Take back: Blue has no follower on a road and is not asked; Red
     * takes the highwayman back: at the end only Blue's city scores. */
    { "corn: a road circle, take back", corn_rules, STEPS(CORN_ROAD_CIRCLE,
          FX_CIRCLE(MV_CIRCLE_REMOVE),
          FX_CIRCLE_RETURN(1, 0, FEAT_ROAD, "WE", RED, 1), FX_COMMIT(RED)),
      .end_turn = 3, .finished = true, .score = { 0, 1 } },
    /* Add: Red puts a second highwayman on the very spot of the first;
     * the road (4 tiles with the start, (-1,0)'s end open) gives 3. */
    { "corn: a road circle, add", corn_rules, STEPS(CORN_ROAD_CIRCLE,
          FX_CIRCLE(MV_CIRCLE_DEPLOY),
          FX_DEPLOY_N(RED, 1, 0, FEAT_ROAD, "WE", FIG_SMALL, 2),
          FX_COMMIT(RED)),
      .end_turn = 3, .finished = true, .score = { 3, 1 } },
    { "corn: CORN_CIRCLE: a pass where each takes a follower back",
      corn_rules, STEPS(CORN_ROAD_CIRCLE, FX_CIRCLE(MV_CIRCLE_REMOVE),
            FX_PASS(RED)),
      RULE_CORN_CIRCLE, 3, "must take one back" },
    { "corn: CORN_CIRCLE: a follower added to a city on a road circle",
      corn_rules, STEPS(CORN_ROAD_CIRCLE, FX_CIRCLE(MV_CIRCLE_DEPLOY),
            FX_DEPLOY_N(RED, 0, 1, FEAT_CITY, "S", FIG_SMALL, 2),
            FX_COMMIT(RED)),
      RULE_CORN_CIRCLE, 3, "own followers on a road" },
    { "corn: CORN_CIRCLE: Blue, not asked, takes its knight back",
      corn_rules, STEPS(CORN_ROAD_CIRCLE, FX_CIRCLE(MV_CIRCLE_REMOVE),
            FX_CIRCLE_RETURN(0, 1, FEAT_CITY, "S", BLUE, 1), FX_COMMIT(BLUE)),
      RULE_CORN_CIRCLE, 3, "not that player's turn" },
    { "corn: CORN_CIRCLE: a choice with no crop circle", corn_rules,
      STEPS(FX_PLACE(RED, "BA/RFr", 1, 0, 0),
            FX_DEPLOY(RED, 1, 0, FEAT_ROAD, "WE"), FX_COMMIT(RED),
            FX_CIRCLE(MV_CIRCLE_DEPLOY)),
      RULE_CORN_CIRCLE, 1, "no crop circle asks" },
    { "corn: CORN_CIRCLE: the next tile before the round is over",
      corn_rules, STEPS(CORN_ROAD_CIRCLE, FX_CIRCLE(MV_CIRCLE_REMOVE),
            FX_PLACE(BLUE, "BA/RFr", -1, 0, 0), FX_PASS(BLUE),
            FX_COMMIT(BLUE)),
      RULE_CORN_CIRCLE, 3, "round is over" },
};

/* ---- Mage & Witch -------------------------------------------------------- */

static struct rules mage_rules(void)
{
    struct rules r = fx_rules_c2(2);
    fx_add_set(&r, "mage-and-witch:1");
    r.flags |= RF_MAGE | RF_WITCH;
    return r;
}

/* The mage (fig FIG_MAGE) or the witch moved onto (f, loc) at (x, y),
 * or taken off the board (MV_MAGE_OFF, no place). */
#define FX_MAGIC(p, fig, x, y, f, loc) \
    { MV_NEUTRAL, (p), NULL, (x), (y), 0, (f), (loc), 0, 0, -1, 0, (fig) }

/* Red's follower on a road east of the start; Blue's magic tile west of
 * it, Blue moves fig onto that road; the road is completed by a
 * crossroads at (3,0): five tiles. */
#define MAGE_ROAD(fig)                                                     \
    FX_PLACE(RED, "BA/RFr", 1, 0, 0), FX_DEPLOY(RED, 1, 0, FEAT_ROAD, "WE"), \
    FX_COMMIT(RED), FX_PLACE(BLUE, "MW/CRRR.3", -1, 0, 0),                 \
    FX_MAGIC(BLUE, (fig), 0, 0, FEAT_ROAD, "WE"), FX_PASS(BLUE),           \
    FX_COMMIT(BLUE), FX_PLACE(RED, "BA/RCr", 2, 0, 0), FX_PASS(RED),       \
    FX_COMMIT(RED), FX_PLACE(BLUE, "BA/RRRR", 3, 0, 0), FX_PASS(BLUE),     \
    FX_COMMIT(BLUE)

static const struct audit_case mage_cases[] = {
    { "mage: 1 a tile more on the road it stands on", mage_rules,
      STEPS(MAGE_ROAD(FIG_MAGE)), .end_turn = 4,
      .events = { FX_EV(4, FEAT_ROAD, FXW_POINTS | FXW_PLAYERS | FXW_ITEMS,
                        .points = 10, .players = 1u << RED, .n_items = 2,
                        .items = { { SI_TILES, 5, 5 },
                                   { SI_MAGE, -1, 5 } }) } },
    /* 5 halved: 2 taken away, 3 left */
    { "witch: half the points, the half rounded down", mage_rules,
      STEPS(MAGE_ROAD(FIG_WITCH)), .end_turn = 4,
      .events = { FX_EV(4, FEAT_ROAD, FXW_POINTS | FXW_PLAYERS | FXW_ITEMS,
                        .points = 3, .players = 1u << RED, .n_items = 2,
                        .items = { { SI_TILES, 5, 5 },
                                   { SI_WITCH, -1, -2 } }) } },
    { "mage: MAGE_MOVE: the magic symbol and no move", mage_rules,
      STEPS(FX_PLACE(RED, "MW/CRRR.3", -1, 0, 0), FX_PASS(RED),
            FX_COMMIT(RED)),
      RULE_MAGE_MOVE, 1, .msg_has = "had to move" },
    { "mage: MAGE_MOVE: a move without the magic symbol", mage_rules,
      STEPS(FX_PLACE(RED, "BA/RFr", 1, 0, 0),
            FX_MAGIC(RED, FIG_MAGE, 1, 0, FEAT_ROAD, "WE"), FX_PASS(RED),
            FX_COMMIT(RED)),
      RULE_MAGE_MOVE, 1, .msg_has = "magic symbol" },
    { "mage: TURN_SEQUENCE: moved after passing", mage_rules,
      STEPS(FX_PLACE(RED, "MW/CRRR.3", -1, 0, 0), FX_PASS(RED),
            FX_MAGIC(RED, FIG_MAGE, 0, 0, FEAT_ROAD, "WE"), FX_COMMIT(RED)),
      RULE_TURN_SEQUENCE, 1, .msg_has = "after passing" },
    /* the witch onto the road the mage holds */
    { "witch: MAGE_TARGET: the mage's road", mage_rules,
      STEPS(FX_PLACE(RED, "MW/CRRR.3", -1, 0, 0),
            FX_MAGIC(RED, FIG_MAGE, 0, 0, FEAT_ROAD, "WE"), FX_PASS(RED),
            FX_COMMIT(RED), FX_PLACE(BLUE, "MW/CcRr.1", 0, -1, 2),
            FX_MAGIC(BLUE, FIG_WITCH, -1, 0, FEAT_ROAD, "E"), FX_PASS(BLUE),
            FX_COMMIT(BLUE)),
      RULE_MAGE_TARGET, 2, .msg_has = "the mage stands on that road" },
    /* taken off the board while a road or city is left to move it to */
    { "mage: MAGE_MOVE: taken off the board with a target left", mage_rules,
      STEPS(FX_PLACE(RED, "MW/CRRR.3", -1, 0, 0),
            { MV_MAGE_OFF, RED, NULL, 0, 0, 0, 0, NULL, 0, 0, -1, 0,
              FIG_MAGE },
            FX_PASS(RED), FX_COMMIT(RED)),
      RULE_MAGE_MOVE, 1, .msg_has = "taken off the board",
      .then = RULE_MAGE_MOVE, .then_has = "had to move" },
    { "mage: MAGE_TARGET: a field", mage_rules,
      STEPS(FX_PLACE(RED, "MW/CRRR.3", -1, 0, 0),
            FX_MAGIC(RED, FIG_MAGE, 0, 0, FEAT_FIELD, "ER.SL.SR.WL"),
            FX_PASS(RED), FX_COMMIT(RED)),
      RULE_MAGE_TARGET, 1, .msg_has = "not a field" },
};

/* The start's city closed to the north by MW/CFC at (0,-1), whose other
 * city closes BA/C's at (0,-2); the start's road ends in two monasteries.
 * With the mage (and the witch, if both) on those cities before, no
 * unfinished road or city is left when the magic tile comes. */
static struct game *mage_none_left(bool both)
{
    struct rules r = mage_rules();
    struct game *g = fx_new(&r);
    fx_place(g, "BA/LR", -1, 0, 3);
    game_end_turn(g);
    fx_place(g, "BA/LR", 1, 0, 1);
    game_end_turn(g);
    fx_place(g, "BA/L", 1, -1, 0);
    game_end_turn(g);
    fx_place(g, "BA/L", 1, -2, 0);
    game_end_turn(g);
    fx_place(g, "BA/C", 0, -2, 2);
    mage_move(g, FIG_MAGE, fx_seg(g, 0, 0, FEAT_CITY, EDGE_N));
    if (both)
        mage_move(g, FIG_WITCH, fx_seg(g, 0, -2, FEAT_CITY, EDGE_S));
    game_end_turn(g);
    fx_place(g, "MW/CFC", 0, -1, 0);
    return g;
}

static void test_mage_none_left(void **state)
{
    (void)state;
    /* both on the board: one of them must leave it */
    struct game *g = mage_none_left(true);
    assert_int_equal(mage_targets(g, NULL, 0), 0);
    assert_int_equal(mage_due(g), MAGE_DUE_OFF);
    mage_move(g, FIG_WITCH, -1);
    assert_int_equal(mage_due(g), MAGE_DUE_NONE);
    assert_true(mage_seg(g, FIG_MAGE) >= 0);
    assert_int_equal(mage_seg(g, FIG_WITCH), -1);
    game_free(g);
    /* the mage alone: it leaves by itself, nothing is owed */
    g = mage_none_left(false);
    assert_int_equal(mage_due(g), MAGE_DUE_NONE);
    assert_int_equal(mage_seg(g, FIG_MAGE), -1);
    game_free(g);
}

/* The mage on the start's road, the witch on a road to its south-east:
 * BA/Rr at (1,0) joins them, and with no magic symbol one must move,
 * though not onto that road. */
static void test_mage_witch_joined(void **state)
{
    (void)state;
    struct rules r = mage_rules();
    struct game *g = fx_new(&r);
    fx_place(g, "BA/L", 0, 1, 0);
    game_end_turn(g);
    fx_place(g, "BA/RFr", 1, 1, 1);
    mage_move(g, FIG_MAGE, fx_seg(g, 0, 0, FEAT_ROAD, EDGE_W | EDGE_E));
    mage_move(g, FIG_WITCH, fx_seg(g, 1, 1, FEAT_ROAD, EDGE_N));
    game_end_turn(g);
    assert_int_equal(mage_due(g), MAGE_DUE_NONE);
    fx_place(g, "BA/Rr", 1, 0, 0);
    assert_int_equal(mage_root(g, FIG_MAGE), mage_root(g, FIG_WITCH));
    assert_int_equal(mage_due(g), MAGE_DUE_MOVE);
    int road = fx_seg(g, 1, 0, FEAT_ROAD, EDGE_W);
    assert_int_equal(mage_check_target(g, FIG_WITCH, road, NULL, 0),
                     RULE_MAGE_TARGET);
    int city = fx_seg(g, 0, 0, FEAT_CITY, EDGE_N);
    assert_int_equal(mage_check_target(g, FIG_WITCH, city, NULL, 0),
                     RULE_OK);
    assert_int_equal(mage_targets(g, NULL, 0), 1);
    game_free(g);
}

/* ---- the runner --------------------------------------------------------- */

/* Everything c says of its audit r. */
static void expect_audit(const struct audit_case *c, const struct report *r)
{
    if (c->rule == RULE_OK)
        expect_valid(c->name, r);
    else
        expect_first(c->name, r, c->rule, c->turn);
    if (c->msg_has && !strstr(r->violations[0].msg, c->msg_has))
        fail_msg("%s: '%s' does not say '%s'", c->name, r->violations[0].msg,
                 c->msg_has);
    if (c->then != RULE_OK &&
        (r->n_violations != 2 || r->violations[1].rule != c->then ||
         !strstr(r->violations[1].msg, c->then_has)))
        fail_msg("%s: %zu violations, the second %s (%s); expected %s "
                 "saying '%s'", c->name, r->n_violations,
                 r->n_violations > 1 ? rule_id(r->violations[1].rule) : "-",
                 r->n_violations > 1 ? r->violations[1].msg : "",
                 rule_id(c->then), c->then_has);
    if (c->finished && !r->finished)
        fail_msg("%s: the game is not finished", c->name);
    if (c->flights &&
        (r->n_flights != (size_t)c->flights || !r->flights[0].landed ||
         r->flights[0].figure != c->flight_fig))
        fail_msg("%s: %zu flights, the first landed %d by %s; expected %d "
                 "landed by %s", c->name, r->n_flights,
                 r->n_flights ? r->flights[0].landed : 0,
                 r->n_flights ? figure_class(r->flights[0].figure)->name
                              : "-",
                 c->flights, figure_class(c->flight_fig)->name);
    fx_expect_events(c->name, r, c->events, N_OF(c->events));
    for (int p = 0; p < 2; p++)
        if ((c->score[0] || c->score[1]) && c->score[p] != ANY &&
            r->score[p] != c->score[p])
            fail_msg("%s: seat %d scored %d, expected %d", c->name, p,
                     r->score[p], c->score[p]);
    if (c->more)
        c->more(c->name, r);
}

/* One row: its game audited, and what the row expects of the report. */
static void test_audit(void **state)
{
    const struct audit_case *c = *state;
    struct rules r = c->rules();
    struct game_log l;
    struct report rep;
    if (c->city)
        fx_log_init_layout(&l, &r);
    else
        fx_log_init(&l, &r);
    fx_log_add(&l, c->steps, c->n);
    if (c->end_turn)
        l.end_turn = c->end_turn;
    fx_audit(&l, &rep);
    game_log_release(&l);
    expect_audit(c, &rep);
    report_release(&rep);
}

/* ---- Bridges, Castles & Bazaars: castles ------------------------------- */

static struct rules castle_rules(void)
{
    struct rules r = fx_rules_c2(2);
    fx_add_set(&r, "inns-and-cathedrals:1"); /* IC/C!: no castle base */
    fx_add_set(&r, "flier:1");
    r.counts[COUNT_CASTLES] = 1;
    r.counts[COUNT_BRIDGES] = 1;
    return r;
}

#define CASTLE(p, x, y, loc) \
    { MV_CASTLE, (p), NULL, (x), (y), 0, FEAT_CITY, (loc), 0, 0, -1, 0, 0 }
/* Red closes the start's city with BA/C at (0,-1), a knight in it, and
 * makes it a castle: (0,-1) and (0,0), its vicinity x -1..1. */
#define RED_CASTLE                                                         \
    FX_PLACE(RED, "BA/C", 0, -1, 2), FX_DEPLOY(RED, 0, -1, FEAT_CITY, "S"), \
        CASTLE(RED, 0, -1, "S"), FX_COMMIT(RED)
/* Blue then Red close the road through the start, 3 tiles, unoccupied. */
#define ROAD_CLOSED                                                        \
    FX_PLACE(BLUE, "BA/RRR", -1, 0, 0), FX_PASS(BLUE), FX_COMMIT(BLUE),    \
        FX_PLACE(RED, "BA/RRR", 1, 0, 0), FX_PASS(RED), FX_COMMIT(RED)

/* Two castles, each the other's neighbour: Red's and the one Blue makes
 * of (0,-2)-(1,-2) in Red's turn. */
static void castle_chain(const char *what, const struct report *r)
{
    int castles = 0;
    for (size_t i = 0; i < r->n_events; i++) {
        const struct score_event *ev = &r->events[i];
        if (ev->feature != FEAT_CASTLE || ev->turn != 5)
            continue;
        castles++;
        if (ev->players == 1u << RED)
            expect_item(ev, 0, SI_CASTLE_ROAD, -1, 3);
        else
            expect_item(ev, 0, SI_CASTLE_CASTLE, -1, 3);
    }
    if (castles != 2)
        fail_msg("%s: %d castle events in turn 5, expected 2", what, castles);
}

static struct rules castle_gold_rules(void)
{
    struct rules r = castle_rules();
    fx_add_set(&r, "goldmines");
    r.flags |= RF_GOLD;
    return r;
}

static const struct audit_case castle_cases[] = {
    /* JCloisterZone's castle-unoccupied-trigger: the road nobody holds
     * scores the castle beside it, 3 */
    { "castle: an unoccupied road scores it", castle_rules,
      STEPS(RED_CASTLE, ROAD_CLOSED),
      .events = { FX_EV(3, FEAT_CASTLE, FXW_PLAYERS | FXW_POINTS | FXW_ITEMS,
                        .players = 1u << RED, .points = 3, .n_items = 1,
                        .items = { { SI_CASTLE_ROAD, -1, 3 } }) },
      .score = { 3, 0 } },
    /* Blue's gold mine at (1,-1), its second bar on the start: both in
     * Red's castle's vicinity; the road closed by Blue scores the castle,
     * and Red takes the two bars: 3, and 2 at the end. */
    { "castle: its owner takes the gold bars in its vicinity",
      castle_gold_rules, STEPS(RED_CASTLE,
          FX_PLACE(BLUE, "GO/LCc", 1, -1, 1), FX_AT(MV_GOLD, BLUE, 0, 0),
          FX_PASS(BLUE), FX_COMMIT(BLUE),
          FX_PLACE(RED, "BA/RRR", 1, 0, 0), FX_PASS(RED), FX_COMMIT(RED),
          FX_PLACE(BLUE, "BA/RRR", -1, 0, 0), FX_PASS(BLUE),
          FX_COMMIT(BLUE)),
      .end_turn = 4, .finished = true,
      .events = { FX_EV(-1, FEAT_GOLD, FXW_PLAYERS | FXW_POINTS | FXW_ITEMS,
                        .players = 1u << RED, .points = 2, .n_items = 1,
                        .items = { { SI_GOLD, 2, 2 } }) },
      .score = { 5, 0 } },
    /* the castle is no city: the completed city scores nothing, and at
     * the end the castle still held gets its 0 */
    { "castle: held at the end", castle_rules, STEPS(RED_CASTLE),
      .end_turn = 1, .finished = true,
      .events = { FX_EV(-1, FEAT_CASTLE, FXW_POINTS | FXW_ITEMS,
                        .points = 0, .n_items = 1,
                        .items = { { SI_CASTLE_UNSCORED, -1, 0 } }) },
      .score = { 0, 0 } },
    { "castle: a castle beside a scored castle scores the same",
      castle_rules, STEPS(RED_CASTLE,
          FX_PLACE(BLUE, "BA/C", 0, -2, 1),
          FX_DEPLOY(BLUE, 0, -2, FEAT_CITY, "E"), FX_COMMIT(BLUE),
          FX_PLACE(RED, "BA/C", 1, -2, 3), FX_PASS(RED),
          CASTLE(BLUE, 1, -2, "W"), FX_COMMIT(RED), ROAD_CLOSED),
      .score = { 3, 3 }, .more = castle_chain },
    /* a save names the player on turn for a castle another seat's knight
     * makes (JCloisterZone asks each seat): it is the knight's owner's */
    { "castle: the knight's owner's, whoever the save names",
      castle_rules, STEPS(FX_PLACE(RED, "BA/C", 0, -1, 2),
          FX_DEPLOY(RED, 0, -1, FEAT_CITY, "S"), CASTLE(BLUE, 0, -1, "S"),
          FX_COMMIT(RED), ROAD_CLOSED),
      .score = { 3, 0 } },
    { "castle: CASTLE_PLACEMENT: nobody in the city",
      castle_rules, STEPS(FX_PLACE(RED, "BA/C", 0, -1, 2), FX_PASS(RED),
          CASTLE(RED, 0, -1, "S"), FX_COMMIT(RED)),
      RULE_CASTLE_PLACEMENT, 1, "one follower" },
    { "castle: CASTLE_PLACEMENT: a city not completed",
      castle_rules, STEPS(FX_PLACE(RED, "BA/CFC.2", 0, -1, 0),
          FX_DEPLOY(RED, 0, -1, FEAT_CITY, "N"), CASTLE(RED, 0, -1, "N"),
          FX_COMMIT(RED)),
      RULE_CASTLE_PLACEMENT, 1, "not of two segments" },
    { "castle: CASTLE_PLACEMENT: IC/C!'s city is no castle base",
      castle_rules, STEPS(FX_PLACE(RED, "IC/C!", 0, -1, 2),
          FX_DEPLOY(RED, 0, -1, FEAT_CITY, "S"), CASTLE(RED, 0, -1, "S"),
          FX_COMMIT(RED)),
      RULE_CASTLE_PLACEMENT, 1, "no castle base" },
    { "castle: CASTLE_PLACEMENT: no castle between turns",
      castle_rules, STEPS(FX_PLACE(RED, "BA/C", 0, -1, 2),
          FX_DEPLOY(RED, 0, -1, FEAT_CITY, "S"), FX_COMMIT(RED),
          CASTLE(RED, 0, -1, "S")),
      RULE_TURN_SEQUENCE, 1 },
    /* a flier rolled onto the castle's tile finds no landing: the castle
     * is no feature one lands on */
    { "castle: a flier never lands on a castle", castle_rules,
      STEPS(RED_CASTLE, FX_PLACE(BLUE, "FL/F.o", 1, -1, 0),
          FX_FLY(BLUE, 1, -1, 1),
          FX_DEPLOY(BLUE, 0, -1, FEAT_CASTLE, "S"), FX_COMMIT(BLUE)),
      RULE_FLIER_BAD_FEATURE, 2 },
};

/* ---- Bridges, Castles & Bazaars: bridges ------------------------------- */

#define BRIDGE(p, x, y, loc) \
    { MV_BRIDGE, (p), NULL, (x), (y), 0, FEAT_ROAD, (loc), 0, 0, -1, 0, 0 }

static const struct audit_case bridge_cases[] = {
    /* BA/RFr at (1,0) goes on the start's road; a bridge across its
     * fields, nothing beyond them, holds Red's follower */
    { "bridge: built across a tile's fields, a follower on it", castle_rules,
      STEPS(FX_PLACE(RED, "BA/RFr", 1, 0, 0), BRIDGE(RED, 1, 0, "NS"),
          FX_DEPLOY(RED, 1, 0, FEAT_ROAD, "NS"), FX_COMMIT(RED)) },
    /* BA/RFr turned north-south at (1,0): its west field meets the
     * start's road, so the placement brings a bridge west-east across
     * it, which the start's road joins */
    { "bridge: a field edge against a road takes a bridge on the tile",
      castle_rules, STEPS(FX_PLACE(RED, "BA/RFr", 1, 0, 1),
          FX_DEPLOY(RED, 1, 0, FEAT_ROAD, "WE"), FX_COMMIT(RED)) },
    /* then a road running north into (1,0)'s south field: the bridge
     * goes on (1,0), north-south, and it may not take a second one */
    { "bridge: a road edge against a field takes a bridge beside",
      castle_rules, STEPS(FX_PLACE(RED, "BA/RFr", 1, 0, 0), FX_PASS(RED),
          FX_COMMIT(RED), FX_PLACE(BLUE, "BA/RFr", 1, 1, 1), FX_PASS(BLUE),
          FX_COMMIT(BLUE), FX_PLACE(RED, "BA/RFr", 2, 0, 0),
          FX_DEPLOY(RED, 2, 0, FEAT_ROAD, "WE"), FX_COMMIT(RED)) },
    { "bridge: TILE_EDGE_MISMATCH: a road against a city no bridge mends",
      castle_rules, STEPS(FX_PLACE(RED, "BA/RFr", 0, 1, 1), FX_PASS(RED),
          FX_COMMIT(RED)),
      RULE_TILE_EDGE_MISMATCH, 1 },
    { "bridge: BRIDGE_PLACEMENT: a tile beyond its end",
      castle_rules, STEPS(FX_PLACE(RED, "BA/RFr", 0, 1, 0),
          BRIDGE(RED, 0, 1, "NS"), FX_PASS(RED), FX_COMMIT(RED)),
      RULE_BRIDGE_PLACEMENT, 1, "no tile beyond" },
    { "bridge: BRIDGE_PLACEMENT: after the turn's action",
      castle_rules, STEPS(FX_PLACE(RED, "BA/RFr", 1, 0, 0), FX_PASS(RED),
          BRIDGE(RED, 1, 0, "NS"), FX_COMMIT(RED)),
      RULE_BRIDGE_PLACEMENT, 1, "before its action" },
    { "bridge: BRIDGE_PLACEMENT: one a turn",
      castle_rules, STEPS(FX_PLACE(RED, "BA/RFr", 1, 0, 1),
          BRIDGE(RED, 1, 0, "WE"), FX_PASS(RED), FX_COMMIT(RED)),
      RULE_BRIDGE_PLACEMENT, 1, "one bridge" },
};

/* The bridges a placement brings: on the tile (its west field meets the
 * start's road), then beside it (a road north into (1,0)'s south field);
 * each joins the roads it meets and takes one of the player's three. */
static void test_bridge_mends_edges(void **state)
{
    (void)state;
    enum { NS = 1 << 0 | 1 << 2, WE = 1 << 1 | 1 << 3 };
    struct rules r = castle_rules();
    struct game *g = fx_new(&r);
    assert_int_equal(bcb_bridges_left(g, 0), 3);
    fx_play(g, "BA/RFr", 1, 0, 1); /* road N-S, bridge W-E: Red's */
    assert_int_equal(bcb_bridges_left(g, 0), 2);
    assert_int_equal(game_feature(g, fx_seg(g, 1, 0, FEAT_ROAD, WE)),
                     game_feature(g, fx_seg(g, 0, 0, FEAT_ROAD, WE)));
    fx_play(g, "BA/RFr", 2, 0, 0); /* Blue: road W-E, fields N and S */
    fx_play(g, "BA/RFr", 2, 1, 1); /* Red: road north into (2,0)'s field */
    assert_int_equal(bcb_bridges_left(g, 0), 1);
    assert_int_equal(bcb_bridges_left(g, 1), 3);
    assert_int_equal(game_feature(g, fx_seg(g, 2, 0, FEAT_ROAD, NS)),
                     game_feature(g, fx_seg(g, 2, 1, FEAT_ROAD, NS)));
    /* the bridge made (2,0)'s north edge a road: a road meets it as it
     * is, without a bridge of Blue's */
    fx_play(g, "BA/RFr", 2, -1, 1);
    assert_int_equal(bcb_bridges_left(g, 1), 3);
    assert_int_equal(game_feature(g, fx_seg(g, 2, 0, FEAT_ROAD, NS)),
                     game_feature(g, fx_seg(g, 2, -1, FEAT_ROAD, NS)));
    game_free(g);
}

/* The shrines' placement rule, with a shrine at (0,1) and a monastery
 * beside it at (1,1), each next to one cloister of the other kind:
 *
 *   (-1,1) ?   (0,1) shrine   (1,1) monastery   (2,1) ?
 *                             (1,2) ?
 */
static const struct {
    const char *what, *tile;
    int x, y, rot;
    enum rule rule;
} shrine_place_cases[] = {
    { "a shrine beside a monastery that has a shrine", "CU/S", 2, 1, 0,
      RULE_SHRINE_PLACEMENT },
    { "a shrine beside the same monastery, diagonally", "CU/S", 1, 2, 0,
      RULE_SHRINE_PLACEMENT },
    { "a monastery beside a shrine that has a monastery", "BA/L", -1, 1, 0,
      RULE_SHRINE_PLACEMENT },
    { "a monastery beside the monastery, one shrine", "BA/L", 1, 2, 0,
      RULE_SHRINE_PLACEMENT },
    { "a tile without a cloister anywhere", "BA/RFr", 2, 1, 1, RULE_OK },
    { "a shrine beside the shrine only", "CU/S", -1, 1, 0, RULE_OK },
};

static struct game *shrine_board(bool shrines)
{
    struct rules r = fx_rules_c2(2);
    fx_add_set(&r, "cult/6");
    r.set_copies[tile_set_find("cult/6")] = 2; /* a second CU/S to try */
    if (shrines)
        r.flags |= RF_SHRINE;
    struct game *g = fx_new(&r);
    fx_play(g, "CU/S", 0, 1, 0);
    fx_play(g, "BA/L", 1, 1, 0);
    return g;
}

static void test_shrine_placement(void **state)
{
    (void)state;
    struct game *g = shrine_board(true);
    for (size_t i = 0; i < N_OF(shrine_place_cases); i++) {
        char why[200] = "";
        int def = fx_tile(shrine_place_cases[i].tile);
        struct pos at = { shrine_place_cases[i].x, shrine_place_cases[i].y };
        enum rule got = game_check_place(g, def, at,
                                         shrine_place_cases[i].rot, why,
                                         sizeof why);
        if (got != shrine_place_cases[i].rule)
            fail_msg("%s: %s (%s)", shrine_place_cases[i].what, rule_id(got),
                     why);
        /* a placement the rule forbids does not fit (the draw's discards) */
        assert_int_equal(game_fits(g, def, at, shrine_place_cases[i].rot),
                         got == RULE_OK);
    }
    assert_true(fx_seg(g, 0, 1, FEAT_SHRINE, 0) >= 0);
    /* a .jcz's Monastery there is the shrine */
    assert_int_equal(game_find_seg(g, game_tile_at(g, (struct pos){ 0, 1 }),
                                   FEAT_MONASTERY, 0),
                     fx_seg(g, 0, 1, FEAT_SHRINE, 0));
    game_free(g);
}

/* Without the element "shrine" a cult tile's cloister is a monastery,
 * and nothing restricts where cloisters go. */
static void test_shrine_off_is_monastery(void **state)
{
    (void)state;
    struct game *g = shrine_board(false);
    assert_true(fx_seg(g, 0, 1, FEAT_MONASTERY, 0) >= 0);
    assert_int_equal(game_check_place(g, fx_tile("CU/S"), (struct pos){ 2, 1 },
                                      0, NULL, 0),
                     RULE_OK);
    game_free(g);
}

int main(void)
{
    static struct fx_tests ts;
    FX_TEST(&ts, test_river_draw_groups);
    FX_TEST(&ts, test_river_placement);
    FX_TEST(&ts, test_river_no_u_turn);
    FX_TEST(&ts, test_river_is_no_feature);
    FX_ROWS(&ts, inn_cases, test_audit);
    FX_TEST(&ts, test_big_follower_ties_two);
    FX_TEST(&ts, test_church_bonus_counts_figures);
    FX_ROWS(&ts, bigtop_cases, test_audit);
    FX_ROWS(&ts, phantom_cases, test_audit);
    FX_TEST(&ts, test_phantom_scores_beside);
    FX_TEST(&ts, test_landings_by_figure);
    FX_TEST(&ts, test_landing_faults_by_figure);
    FX_ROWS(&ts, traders_cases, test_audit);
    FX_ROWS(&ts, abbey_cases, test_audit);
    FX_TEST(&ts, test_barn_offered_beside);
    FX_TEST(&ts, test_step_roles);
    FX_ROWS(&ts, tower_cases, test_audit);
    FX_TEST(&ts, test_tower_prisoners);
    FX_TEST(&ts, test_tower_exchange_choice);
    FX_TEST(&ts, test_flier_never_on_tower);
    FX_TEST(&ts, test_special_monastery);
    FX_TEST(&ts, test_tile_not_drawn);
    FX_TEST(&ts, test_dragon_draw_and_eats);
    FX_ROWS(&ts, dragon_cases, test_audit);
    FX_ROWS(&ts, city_cases, test_audit);
    FX_ROWS(&ts, corn_cases, test_audit);
    FX_TEST(&ts, test_shrine_placement);
    FX_TEST(&ts, test_shrine_off_is_monastery);
    FX_ROWS(&ts, siege_cases, test_audit);
    FX_ROWS(&ts, russian_cases, test_audit);
    FX_ROWS(&ts, little_cases, test_audit);
    FX_ROWS(&ts, castle_cases, test_audit);
    FX_ROWS(&ts, bridge_cases, test_audit);
    FX_TEST(&ts, test_bridge_mends_edges);
    FX_ROWS(&ts, mage_cases, test_audit);
    FX_TEST(&ts, test_mage_none_left);
    FX_TEST(&ts, test_mage_witch_joined);
    return fx_tests_run("test_units", &ts);
}
