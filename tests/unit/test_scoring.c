/* test_scoring.c - what each feature scores, to whom, and when.
 *
 * Every position starts from BA/RCr at (0,0) (road W-E, city N); x grows
 * east, y SOUTH. Events are checked field by field: a final-scoring event
 * has turn -1. */
#include <stdarg.h> /* cmocka 1.1.5 needs these four first */
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "board_fixture.h"
#include "core/exp/c3.h"

#define BIT(p) (1u << (p))

/* Event i is `points` for `players` from a `feat` scored at `turn`. */
static void expect_event(const struct game *g, int i, int feat, int points,
                         unsigned players, int turn, bool completed)
{
    assert_true(i < g->n_events);
    const struct score_event *ev = &g->events[i];
    assert_string_equal(feat_name(ev->feature), feat_name(feat));
    assert_int_equal(ev->points, points);
    assert_int_equal(ev->players, players);
    assert_int_equal(ev->turn, turn);
    assert_int_equal(ev->completed, completed);
    assert_false(ev->recall);
}

/* ---- roads --------------------------------------------------------------- */

/* Red's highwayman on BA/RFr at (1,0); BA/CRRR crossings end the road at
 * (-1,0) and (2,0): four tiles, four points. */
static void test_road_complete(void **state)
{
    (void)state;
    struct rules r = fx_rules_c2(2);
    struct game *g = fx_new(&r);
    fx_place(g, "BA/RFr", 1, 0, 0);
    int m = fx_deploy(g, RED, FIG_SMALL, fx_seg(g, 1, 0, FEAT_ROAD, 0));
    game_end_turn(g);
    fx_play(g, "BA/CRRR", -1, 0, 0);
    assert_int_equal(g->n_events, 0); /* one end still open */
    fx_play(g, "BA/CRRR", 2, 0, 0);   /* turn 3 */
    assert_int_equal(g->n_events, 1);
    expect_event(g, 0, FEAT_ROAD, 4, BIT(RED), 3, true);
    assert_int_equal(g->events[0].tiles, 4);
    assert_int_equal(g->events[0].meeples[RED], 1);
    assert_int_equal(g->score[RED], 4);
    assert_int_equal(g->score[BLUE], 0);
    assert_int_equal(g->meeples[m].seg, -1); /* back in supply */
    game_final_scoring(g);
    assert_int_equal(g->n_events, 1);        /* nothing left to score */
    game_free(g);
}

/* A loop of four curves: no ends, complete, one point per tile. */
static void test_road_loop_scores_tiles_once(void **state)
{
    (void)state;
    struct rules r = fx_rules_c2(2);
    struct game *g = fx_new(&r);
    fx_place(g, "BA/Rr", 0, 1, 3);
    fx_deploy(g, BLUE, FIG_SMALL, fx_seg(g, 0, 1, FEAT_ROAD, 0));
    game_end_turn(g);
    fx_play(g, "BA/Rr", 1, 1, 0);
    fx_play(g, "BA/Rr", 0, 2, 2);
    fx_play(g, "BA/Rr", 1, 2, 1);
    assert_int_equal(g->n_events, 1);
    expect_event(g, 0, FEAT_ROAD, 4, BIT(BLUE), 4, true);
    assert_int_equal(g->score[BLUE], 4);
    game_free(g);
}

/* BA/CRRR at (1,0) ends the start road; from its east arm three curves
 * lead back into its south arm. Both ends on one crossing: the road
 * covers four tiles, the crossing counted once. */
static void test_road_both_ends_on_one_crossing(void **state)
{
    (void)state;
    struct rules r = fx_rules_c2(2);
    struct game *g = fx_new(&r);
    fx_place(g, "BA/CRRR", 1, 0, 0);
    fx_deploy(g, RED, FIG_SMALL, fx_seg(g, 1, 0, FEAT_ROAD, EDGE_E));
    game_end_turn(g);
    fx_play(g, "BA/Rr", 2, 0, 0);            /* W+S */
    fx_play(g, "BA/Rr", 2, 1, 1);            /* N+W */
    fx_play(g, "BA/Rr", 1, 1, 2);            /* N+E: back to the crossing */
    assert_int_equal(g->n_events, 1);
    expect_event(g, 0, FEAT_ROAD, 4, BIT(RED), 4, true);
    assert_int_equal(g->events[0].tiles, 4);
    assert_int_equal(g->score[RED], 4);
    game_free(g);
}

static void test_road_incomplete_at_final(void **state)
{
    (void)state;
    struct rules r = fx_rules_c2(2);
    struct game *g = fx_new(&r);
    fx_place(g, "BA/RFr", 1, 0, 0);
    fx_deploy(g, RED, FIG_SMALL, fx_seg(g, 1, 0, FEAT_ROAD, 0));
    game_end_turn(g);
    fx_play(g, "BA/RFr", 2, 0, 0);
    game_final_scoring(g);
    assert_int_equal(g->n_events, 1);
    expect_event(g, 0, FEAT_ROAD, 3, BIT(RED), -1, false);
    assert_int_equal(g->score[RED], 3);
    game_free(g);
}

/* ---- cities -------------------------------------------------------------- */

/* BA/Cc+ (pennant) turned to S+E on the start city, BA/C closing it from
 * (1,-1): 3 tiles, 1 pennant -> 2*3 + 2 = 8. */
static void test_city_complete_with_pennant(void **state)
{
    (void)state;
    struct rules r = fx_rules_c2(2);
    struct game *g = fx_new(&r);
    fx_place(g, "BA/Cc+", 0, -1, 2);
    int m = fx_deploy(g, RED, FIG_SMALL, fx_seg(g, 0, -1, FEAT_CITY, EDGE_S));
    game_end_turn(g);
    fx_play(g, "BA/C", 1, -1, 3);
    assert_int_equal(g->n_events, 1);
    expect_event(g, 0, FEAT_CITY, 8, BIT(RED), 2, true);
    assert_int_equal(g->events[0].tiles, 3);
    assert_int_equal(g->events[0].pennants, 1);
    assert_int_equal(g->score[RED], 8);
    assert_int_equal(g->meeples[m].seg, -1);
    game_free(g);
}

/* The same city left open: 1 per tile + 1 per pennant = 3. */
static void test_city_incomplete_at_final(void **state)
{
    (void)state;
    struct rules r = fx_rules_c2(2);
    struct game *g = fx_new(&r);
    fx_place(g, "BA/Cc+", 0, -1, 2);
    fx_deploy(g, BLUE, FIG_SMALL, fx_seg(g, 0, -1, FEAT_CITY, EDGE_S));
    game_end_turn(g);
    game_final_scoring(g);
    assert_int_equal(g->n_events, 1);
    expect_event(g, 0, FEAT_CITY, 3, BIT(BLUE), -1, false);
    assert_int_equal(g->events[0].pennants, 1);
    assert_int_equal(g->score[BLUE], 3);
    assert_int_equal(g->score[RED], 0);
    game_free(g);
}

/* Variant tiny city (JCZ tiny-city-scoring "2"): a completed two-tile
 * city scores 2; three tiles still score 2 per tile. */
static const struct {
    int tiny_city;
    bool three_tiles;
    int points;
} tiny_cases[] = {
    { 2, false, 2 },
    { 2, true, 6 },
    { 4, false, 4 }, /* the default rule */
    { 4, true, 6 },
};

static void test_tiny_city_variant(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof tiny_cases / sizeof tiny_cases[0]; i++) {
        struct rules r = fx_rules_c2(2);
        r.opt[OPT_TINY_CITY] = tiny_cases[i].tiny_city;
        struct game *g = fx_new(&r);
        if (tiny_cases[i].three_tiles) {
            fx_place(g, "BA/Cc.1", 0, -1, 2);
            fx_deploy(g, RED, FIG_SMALL, fx_seg(g, 0, -1, FEAT_CITY, EDGE_S));
            game_end_turn(g);
            fx_play(g, "BA/C", 1, -1, 3);
        } else {
            fx_place(g, "BA/C", 0, -1, 2);
            fx_deploy(g, RED, FIG_SMALL, fx_seg(g, 0, -1, FEAT_CITY, EDGE_S));
            game_end_turn(g);
        }
        assert_int_equal(g->n_events, 1);
        assert_int_equal(g->events[0].tiles, tiny_cases[i].three_tiles ? 3 : 2);
        expect_event(g, 0, FEAT_CITY, tiny_cases[i].points, BIT(RED),
                     tiny_cases[i].three_tiles ? 2 : 1, true);
        assert_int_equal(g->score[RED], tiny_cases[i].points);
        game_free(g);
    }
}

/* ---- monasteries and gardens ------------------------------------------------ */

/* Fills the 3x3 block around (0,1) in an order that keeps every tile
 * legal: BA/RFr beside the start road and along row 2, BA/L at the sides.
 * The last tile (at (-1,2)) completes the block. */
static void fill_block_around_0_1(struct game *g)
{
    fx_play(g, "BA/RFr", 1, 0, 0);
    fx_play(g, "BA/RFr", -1, 0, 0);
    fx_play(g, "BA/L", 1, 1, 0);
    fx_play(g, "BA/L", -1, 1, 0);
    fx_play(g, "BA/RFr", 0, 2, 0);
    fx_play(g, "BA/RFr", 1, 2, 0);
    fx_play(g, "BA/RFr", -1, 2, 0);
}

static void test_monastery_complete(void **state)
{
    (void)state;
    struct rules r = fx_rules_c2(2);
    struct game *g = fx_new(&r);
    fx_place(g, "BA/L", 0, 1, 0);
    int m = fx_deploy(g, BLUE, FIG_SMALL, fx_seg(g, 0, 1, FEAT_MONASTERY, 0));
    game_end_turn(g);
    fill_block_around_0_1(g);
    assert_int_equal(g->n_events, 1);
    expect_event(g, 0, FEAT_MONASTERY, 9, BIT(BLUE), 8, true);
    assert_int_equal(g->events[0].tiles, 9);
    assert_int_equal(g->score[BLUE], 9);
    assert_int_equal(g->meeples[m].seg, -1);
    game_free(g);
}

/* Monk at (0,1) with the start tile, (1,0) and (1,1) around: 1 + 3. */
static void test_monastery_incomplete_at_final(void **state)
{
    (void)state;
    struct rules r = fx_rules_c2(2);
    struct game *g = fx_new(&r);
    fx_place(g, "BA/L", 0, 1, 0);
    fx_deploy(g, RED, FIG_SMALL, fx_seg(g, 0, 1, FEAT_MONASTERY, 0));
    game_end_turn(g);
    fx_play(g, "BA/RFr", 1, 0, 0);
    fx_play(g, "BA/L", 1, 1, 0);
    game_final_scoring(g);
    assert_int_equal(g->n_events, 1);
    expect_event(g, 0, FEAT_MONASTERY, 4, BIT(RED), -1, false);
    assert_int_equal(g->events[0].tiles, 4);
    assert_int_equal(g->score[RED], 4);
    game_free(g);
}

/* C3: an abbot in the garden of FL/F.dG (garden, flier, all field) at
 * (0,1); the same block filling completes it for 9. */
static void test_garden_complete_c3(void **state)
{
    (void)state;
    struct rules r = fx_rules_c3(2);
    struct game *g = fx_new(&r);
    fx_place(g, "FL/F.dG", 0, 1, 0);
    int abbot = fx_deploy(g, RED, FIG_ABBOT, fx_seg(g, 0, 1, FEAT_GARDEN, 0));
    game_end_turn(g);
    fill_block_around_0_1(g);
    assert_int_equal(g->n_events, 1);
    expect_event(g, 0, FEAT_GARDEN, 9, BIT(RED), 8, true);
    assert_int_equal(g->score[RED], 9);
    assert_int_equal(g->meeples[abbot].seg, -1);
    assert_int_equal(g->meeples[abbot].kind, FIG_ABBOT);
    game_free(g);
}

/* C3: abbot in BA/RrG's garden at (0,1), start tile and (1,0) around. */
static void test_garden_incomplete_at_final_c3(void **state)
{
    (void)state;
    struct rules r = fx_rules_c3(2);
    struct game *g = fx_new(&r);
    fx_place(g, "BA/RrG", 0, 1, 0);
    fx_deploy(g, BLUE, FIG_ABBOT, fx_seg(g, 0, 1, FEAT_GARDEN, 0));
    game_end_turn(g);
    fx_play(g, "BA/RFr", 1, 0, 0);
    game_final_scoring(g);
    assert_int_equal(g->n_events, 1);
    expect_event(g, 0, FEAT_GARDEN, 3, BIT(BLUE), -1, false);
    assert_int_equal(g->score[BLUE], 3);
    game_free(g);
}

/* C3 recall: instead of deploying, Red takes the abbot back from BA/L at
 * (0,1) and scores 1 + neighbours at once, counting the tile placed in
 * the same turn. */
static void test_abbot_recall(void **state)
{
    (void)state;
    struct rules r = fx_rules_c3(2);
    struct game *g = fx_new(&r);
    fx_place(g, "BA/L", 0, 1, 0);
    int abbot = fx_deploy(g, RED, FIG_ABBOT, fx_seg(g, 0, 1, FEAT_MONASTERY, 0));
    game_end_turn(g);
    fx_play(g, "BA/RFr", 1, 0, 0);
    fx_place(g, "BA/L", 1, 1, 0);            /* turn 3, Red again */
    game_recall(g, abbot);
    assert_int_equal(g->meeples[abbot].seg, -1);
    assert_int_equal(g->now.actions, 1);     /* the turn's action is used */
    assert_int_equal(g->n_events, 1);
    const struct score_event *ev = &g->events[0];
    assert_true(ev->recall);
    assert_false(ev->completed);
    assert_int_equal(ev->feature, FEAT_MONASTERY);
    assert_int_equal(ev->points, 4);
    assert_int_equal(ev->players, BIT(RED));
    assert_int_equal(ev->turn, 3);
    assert_int_equal(g->score[RED], 4);
    game_end_turn(g);
    game_final_scoring(g);                   /* nothing left on it */
    assert_int_equal(g->n_events, 1);
    assert_int_equal(g->score[RED], 4);
    assert_int_equal(game_meeple(g, RED, FIG_ABBOT, 0), abbot);
    game_free(g);
}

/* ---- fields (final scoring) --------------------------------------------- */

/* Red's farmer south of the road touches no city: a 0-point event. */
static void test_field_without_city_scores_zero(void **state)
{
    (void)state;
    struct rules r = fx_rules_c2(2);
    struct game *g = fx_new(&r);
    fx_place(g, "BA/RFr", 1, 0, 0);
    int m = fx_deploy(g, RED, FIG_SMALL, fx_seg(g, 1, 0, FEAT_FIELD, HE_SL));
    game_end_turn(g);
    game_final_scoring(g);
    assert_int_equal(g->n_events, 1);
    expect_event(g, 0, FEAT_FIELD, 0, BIT(RED), -1, false);
    assert_int_equal(g->events[0].cities, 0);
    assert_int_equal(g->score[RED], 0);
    assert_true(g->meeples[m].seg >= 0); /* farmers never come back */
    game_free(g);
}

/* Red's farmer on BA/RFr (1,0)'s north field, which joins the start
 * tile's north field beside city A (the start city). BA/C turned S at
 * (0,-1) closes A (Blue's knight scores and goes home); BA/C facing N at
 * (1,-1) joins the fields round A's north side too, so the field touches
 * A from two tiles, plus city B, open to the north unless close_b puts a
 * BA/C facing S at (1,-2). A counts once: 3 points, or 6 with B. */
static struct game *field_board(bool close_b)
{
    struct rules r = fx_rules_c2(2);
    struct game *g = fx_new(&r);
    fx_place(g, "BA/RFr", 1, 0, 0);
    fx_deploy(g, RED, FIG_SMALL, fx_seg(g, 1, 0, FEAT_FIELD, HE_NL));
    game_end_turn(g);
    fx_place(g, "BA/C", 0, -1, 2);           /* closes city A (2 tiles) */
    int knight = fx_deploy(g, BLUE, FIG_SMALL,
                           fx_seg(g, 0, -1, FEAT_CITY, EDGE_S));
    game_end_turn(g);
    assert_int_equal(g->meeples[knight].seg, -1); /* knight back ... */
    assert_int_equal(fx_on_board(g, RED), 1);     /* ... farmer stays */
    assert_int_equal(g->score[BLUE], 4);
    fx_play(g, "BA/C", 1, -1, 0);            /* city B, open north */
    if (close_b)
        fx_play(g, "BA/C", 1, -2, 2);
    /* one field now reaches A through (0,0) and through (0,-1) */
    int f = fx_seg(g, 1, 0, FEAT_FIELD, HE_NL);
    assert_int_equal(game_feature(g, f),
                     game_feature(g, fx_seg(g, 0, 0, FEAT_FIELD, HE_EL)));
    assert_int_equal(game_feature(g, f),
                     game_feature(g, fx_seg(g, 0, -1, FEAT_FIELD, HE_EL)));
    return g;
}

static void test_field_city_counted_once(void **state)
{
    (void)state;
    struct game *g = field_board(false);
    int before = g->n_events;
    game_final_scoring(g);
    assert_int_equal(g->n_events, before + 1);
    expect_event(g, before, FEAT_FIELD, 3, BIT(RED), -1, false);
    assert_int_equal(g->events[before].cities, 1);
    assert_int_equal(g->score[RED], 3);
    game_free(g);
}

static void test_field_two_completed_cities(void **state)
{
    (void)state;
    struct game *g = field_board(true);
    int before = g->n_events;
    game_final_scoring(g);
    assert_int_equal(g->n_events, before + 1);
    expect_event(g, before, FEAT_FIELD, 6, BIT(RED), -1, false);
    assert_int_equal(g->events[before].cities, 2);
    assert_int_equal(g->score[RED], 6);
    game_free(g);
}

/* One completed city scores for two separate fields: Blue's farmer north
 * of the road (via BA/RFr at (1,0)), Red's in BA/C's field at (0,-1). */
static void test_city_counts_for_several_fields(void **state)
{
    (void)state;
    struct rules r = fx_rules_c2(2);
    struct game *g = fx_new(&r);
    fx_place(g, "BA/RFr", 1, 0, 0);
    fx_deploy(g, BLUE, FIG_SMALL, fx_seg(g, 1, 0, FEAT_FIELD, HE_NL));
    game_end_turn(g);
    fx_place(g, "BA/C", 0, -1, 2);
    fx_deploy(g, RED, FIG_SMALL, fx_seg(g, 0, -1, FEAT_FIELD, HE_NL));
    game_end_turn(g);
    assert_int_equal(g->n_events, 0); /* the city had no knight */
    game_final_scoring(g);
    assert_int_equal(g->n_events, 2);
    assert_int_equal(g->score[RED], 3);
    assert_int_equal(g->score[BLUE], 3);
    for (int i = 0; i < 2; i++) {
        assert_int_equal(g->events[i].feature, FEAT_FIELD);
        assert_int_equal(g->events[i].points, 3);
        assert_int_equal(g->events[i].turn, -1);
    }
    assert_int_equal(g->events[0].players | g->events[1].players,
                     BIT(RED) | BIT(BLUE));
    game_free(g);
}

/* With farmers off, a meeple that somehow lies in a field scores nothing
 * and no event is written. */
static void test_fields_off_no_field_scoring(void **state)
{
    (void)state;
    struct rules r = fx_rules_c2(2);
    r.flags = (false) ? (r.flags | RF_FARMERS) : (r.flags & ~(uint32_t)RF_FARMERS);
    struct game *g = fx_new(&r);
    fx_place(g, "BA/C", 0, -1, 2);
    int m = game_meeple(g, RED, FIG_SMALL, 0);
    game_deploy(g, m, fx_seg(g, 0, -1, FEAT_FIELD, HE_NL)); /* as logged */
    game_end_turn(g);
    game_final_scoring(g);
    assert_int_equal(g->n_events, 0);
    assert_int_equal(g->score[RED], 0);
    game_free(g);
}

/* ---- majority and ties ------------------------------------------------------ */

/* Red on BA/CRRR (-1,0)'s east road (the start road), Blue on a curve
 * that the road later reaches: BA/Rr at (2,1) and (2,0), then BA/RFr at
 * (1,0) joins them and BA/CRRR at (3,1) ends the road. 1 v 1: both get
 * the full 6. */
static void test_road_tie_both_score(void **state)
{
    (void)state;
    struct rules r = fx_rules_c2(2);
    struct game *g = fx_new(&r);
    fx_place(g, "BA/CRRR", -1, 0, 0);
    int red = fx_deploy(g, RED, FIG_SMALL, fx_seg(g, -1, 0, FEAT_ROAD, EDGE_E));
    game_end_turn(g);
    fx_play(g, "BA/L", 0, 1, 0);
    fx_play(g, "BA/L", 1, 1, 0);
    fx_place(g, "BA/Rr", 2, 1, 2);           /* road N+E */
    int blue = fx_deploy(g, BLUE, FIG_SMALL, fx_seg(g, 2, 1, FEAT_ROAD, 0));
    game_end_turn(g);
    fx_play(g, "BA/Rr", 2, 0, 0);            /* road W+S */
    fx_place(g, "BA/RFr", 1, 0, 0);          /* joins both: shared road */
    int per[GAME_MAX_PLAYERS];
    assert_int_equal(game_feature_meeples(g, fx_seg(g, 1, 0, FEAT_ROAD, 0),
                                          per), 2);
    game_end_turn(g);
    fx_play(g, "BA/CRRR", 3, 1, 0);          /* turn 7 ends the road */
    assert_int_equal(g->n_events, 1);
    expect_event(g, 0, FEAT_ROAD, 6, BIT(RED) | BIT(BLUE), 7, true);
    assert_int_equal(g->events[0].meeples[RED], 1);
    assert_int_equal(g->events[0].meeples[BLUE], 1);
    assert_int_equal(g->score[RED], 6);
    assert_int_equal(g->score[BLUE], 6);
    assert_int_equal(g->meeples[red].seg, -1);
    assert_int_equal(g->meeples[blue].seg, -1);
    game_free(g);
}

/* Blue's monk in BA/L at (0,1); Red's FL/F.o (arrow W) at (2,1) rolls 2
 * and lands beside it. Returns the game with the flight's turn ended. */
static struct game *shared_monastery(void)
{
    struct rules r = fx_rules_c2(2);
    struct game *g = fx_new(&r);
    fx_place(g, "BA/L", 0, 1, 0);
    fx_deploy(g, BLUE, FIG_SMALL, fx_seg(g, 0, 1, FEAT_MONASTERY, 0));
    game_end_turn(g);
    fx_play(g, "BA/L", 1, 1, 0);
    fx_place(g, "FL/F.o", 2, 1, 0);
    int opts[TILE_MAX_SEGS];
    struct pos t;
    assert_int_equal(fx_fly(g, FIG_SMALL, 2, &t, opts, TILE_MAX_SEGS), 1);
    fx_land(g, RED, FIG_SMALL, opts[0], t);
    game_end_turn(g);
    return g;
}

/* 1 v 1 in a monastery the flier shared: when it completes, both players
 * score 9 and both monks go home. */
static void test_shared_monastery_tie_complete(void **state)
{
    (void)state;
    struct game *g = shared_monastery();
    fx_play(g, "BA/RFr", 1, 0, 0);
    fx_play(g, "BA/RFr", -1, 0, 0);
    fx_play(g, "BA/L", -1, 1, 0);
    fx_play(g, "BA/RFr", 0, 2, 0);
    fx_play(g, "BA/RFr", 1, 2, 0);
    assert_int_equal(g->n_events, 0);
    fx_play(g, "BA/RFr", -1, 2, 0);          /* turn 9 fills the block */
    assert_int_equal(g->n_events, 1);
    expect_event(g, 0, FEAT_MONASTERY, 9, BIT(RED) | BIT(BLUE), 9, true);
    assert_int_equal(g->score[RED], 9);
    assert_int_equal(g->score[BLUE], 9);
    assert_int_equal(fx_on_board(g, RED), 0);
    assert_int_equal(fx_on_board(g, BLUE), 0);
    game_free(g);
}

/* A second flight (FL/F.d, arrow NW, at (1,2), roll 1) puts another Red
 * monk in: 2 v 1, so at the end only Red scores, 1 + 3 neighbours. */
static void test_shared_monastery_majority_final(void **state)
{
    (void)state;
    struct game *g = shared_monastery();
    fx_place(g, "FL/F.d", 1, 2, 0);
    int opts[TILE_MAX_SEGS];
    struct pos t;
    assert_int_equal(fx_fly(g, FIG_SMALL, 1, &t, opts, TILE_MAX_SEGS), 1);
    assert_int_equal(opts[0], fx_seg(g, 0, 1, FEAT_MONASTERY, 0));
    fx_land(g, RED, FIG_SMALL, opts[0], t);
    game_end_turn(g);
    game_final_scoring(g);
    assert_int_equal(g->n_events, 1);
    expect_event(g, 0, FEAT_MONASTERY, 4, BIT(RED), -1, false);
    assert_int_equal(g->events[0].meeples[RED], 2);
    assert_int_equal(g->events[0].meeples[BLUE], 1);
    assert_int_equal(g->score[RED], 4);
    assert_int_equal(g->score[BLUE], 0);
    game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_road_complete),
        cmocka_unit_test(test_road_loop_scores_tiles_once),
        cmocka_unit_test(test_road_both_ends_on_one_crossing),
        cmocka_unit_test(test_road_incomplete_at_final),
        cmocka_unit_test(test_city_complete_with_pennant),
        cmocka_unit_test(test_city_incomplete_at_final),
        cmocka_unit_test(test_tiny_city_variant),
        cmocka_unit_test(test_monastery_complete),
        cmocka_unit_test(test_monastery_incomplete_at_final),
        cmocka_unit_test(test_garden_complete_c3),
        cmocka_unit_test(test_garden_incomplete_at_final_c3),
        cmocka_unit_test(test_abbot_recall),
        cmocka_unit_test(test_field_without_city_scores_zero),
        cmocka_unit_test(test_field_city_counted_once),
        cmocka_unit_test(test_field_two_completed_cities),
        cmocka_unit_test(test_city_counts_for_several_fields),
        cmocka_unit_test(test_fields_off_no_field_scoring),
        cmocka_unit_test(test_road_tie_both_score),
        cmocka_unit_test(test_shared_monastery_tie_complete),
        cmocka_unit_test(test_shared_monastery_majority_final),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
