/* test_rules.c - placement, feature merging, deployment and the flier,
 * including every worked case of rules.md section 2, built from real
 * tiles (JCloisterZone ids) on a board that starts with BA/RCr at (0,0).
 *
 * Reminder for reading layouts: x grows east, y grows SOUTH; R1 turns a
 * tile a quarter clockwise. BA/RCr: road W-E, city N. */
#include <stdarg.h> /* cmocka 1.1.5 needs these four first */
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "board_fixture.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

/* ---- placement ---------------------------------------------------------- */

static const struct {
    const char *tile; /* NULL: an index no tile has */
    int x, y, rot;
    enum rule rule;
} place_cases[] = {
    { "BA/RFr", 1, 0, 0, RULE_OK },                    /* road meets road */
    { "BA/RFr", -1, 0, 2, RULE_OK },                   /* same, turned */
    { "BA/RFr", 1, 0, 1, RULE_TILE_EDGE_MISMATCH },    /* field vs road */
    { "BA/C", 0, -1, 2, RULE_OK },                     /* city meets city */
    { "BA/C", 0, -1, 0, RULE_TILE_EDGE_MISMATCH },     /* field vs city */
    { "BA/L", 0, 1, 0, RULE_OK },                      /* field vs field */
    { "BA/LR", 0, 1, 2, RULE_TILE_EDGE_MISMATCH },     /* road vs field */
    { "BA/RFr", 0, 0, 0, RULE_TILE_OCCUPIED },         /* the start tile */
    { "BA/RFr", 3, 3, 0, RULE_TILE_NOT_ADJACENT },
    { "BA/RFr", 1, 1, 0, RULE_TILE_NOT_ADJACENT },     /* diagonal only */
    { "BA/RFr", -129, 0, 0, RULE_TILE_NOT_ADJACENT },  /* off the board */
    { "BA/CcG", 0, -1, 2, RULE_TILE_NOT_IN_PACK },     /* C3 tile in C2 */
    { "BA/CcG", 0, 0, 0, RULE_TILE_NOT_IN_PACK },      /* pack before spot */
    { "FL/F.dG", 0, 1, 0, RULE_TILE_NOT_IN_PACK },     /* flier:2 tile */
    { "FL/F.d", 0, 1, 0, RULE_OK },
    { NULL, 1, 0, 0, RULE_TILE_UNKNOWN },
};

static void test_place_legality_table(void **state)
{
    (void)state;
    struct rules r = fx_rules_c2(2);
    struct game *g = fx_new(&r);
    for (size_t i = 0; i < N_OF(place_cases); i++) {
        char why[200] = "";
        int def = place_cases[i].tile ? fx_tile(place_cases[i].tile)
                                      : tile_count();
        struct pos p = { place_cases[i].x, place_cases[i].y };
        enum rule got = game_check_place(g, def, p, place_cases[i].rot, why,
                                         sizeof why);
        if (got != place_cases[i].rule)
            fail_msg("case %zu: %s, expected %s (%s)", i, rule_id(got),
                     rule_id(place_cases[i].rule), why);
        /* every refusal explains itself */
        assert_true(got == RULE_OK || why[0] != '\0');
        /* game_fits() is the same check minus the pack */
        bool fits = game_fits(g, def, p, place_cases[i].rot);
        if (got == RULE_OK)
            assert_true(fits);
        else if (got != RULE_TILE_NOT_IN_PACK)
            assert_false(fits);
    }
    game_free(g);
}

/* The pack empties: the fifth BA/RCr (four in basic:1, the start tile is
 * one of them) is no longer in the game. */
static void test_place_pack_runs_out(void **state)
{
    (void)state;
    struct rules r = fx_rules_c2(2);
    struct game *g = fx_new(&r);
    char why[200];
    assert_int_equal(g->pack[fx_tile("BA/RCr")], 3);
    fx_play(g, "BA/RCr", 1, 0, 0);
    fx_play(g, "BA/RCr", 2, 0, 0);
    fx_play(g, "BA/RCr", 3, 0, 0);
    assert_int_equal(g->pack[fx_tile("BA/RCr")], 0);
    assert_int_equal(game_check_place(g, fx_tile("BA/RCr"),
                                      (struct pos){ 4, 0 }, 0, why, sizeof why),
                     RULE_TILE_NOT_IN_PACK);
    assert_int_equal(game_pack_left(g), 80 - 4);
    game_free(g);
}

/* Only legal placements are listed, each once, and all of them. */
static void test_list_placements(void **state)
{
    (void)state;
    struct rules r = fx_rules_c2(2);
    struct game *g = fx_new(&r);
    struct placement pl[64];
    /* next to the start tile, a four-sided city fits only north of it */
    int n = game_list_placements(g, fx_tile("BA/Cccc+"), pl, 64);
    assert_int_equal(n, 4); /* one spot, four (equal) rotations */
    for (int i = 0; i < n; i++) {
        assert_int_equal(pl[i].at.x, 0);
        assert_int_equal(pl[i].at.y, -1);
        assert_int_equal(pl[i].rot, i);
    }
    fx_play(g, "BA/RFr", 1, 0, 0);
    fx_play(g, "BA/Cc.1", 0, -1, 2);
    int def = fx_tile("BA/CRr");
    n = game_list_placements(g, def, pl, 64);
    int brute = 0;
    for (int y = -3; y <= 3; y++)
        for (int x = -3; x <= 3; x++)
            for (int rot = 0; rot < 4; rot++)
                brute += game_fits(g, def, (struct pos){ x, y }, rot);
    assert_true(n > 0 && n <= 64);
    assert_int_equal(n, brute);
    for (int i = 0; i < n; i++) {
        char why[200];
        assert_int_equal(game_check_place(g, def, pl[i].at, pl[i].rot, why,
                                          sizeof why), RULE_OK);
        for (int j = 0; j < i; j++)
            assert_false(pl[j].at.x == pl[i].at.x &&
                         pl[j].at.y == pl[i].at.y && pl[j].rot == pl[i].rot);
    }
    game_free(g);
}

/* ---- features ------------------------------------------------------------ */

/* A city over two, then three tiles: one feature, complete when closed. */
static void test_city_merges_and_completes(void **state)
{
    (void)state;
    struct rules r = fx_rules_c2(2);
    struct game *g = fx_new(&r);
    int start_city = fx_seg(g, 0, 0, FEAT_CITY, EDGE_N);
    assert_false(game_feature_complete(g, start_city));

    fx_play(g, "BA/Cc.1", 0, -1, 2); /* city S+E: joins, still open E */
    int mid = fx_seg(g, 0, -1, FEAT_CITY, EDGE_S | EDGE_E);
    assert_int_equal(game_feature(g, mid), game_feature(g, start_city));
    assert_false(game_feature_complete(g, start_city));

    fx_play(g, "BA/C", 1, -1, 3);    /* city W closes it */
    int cap = fx_seg(g, 1, -1, FEAT_CITY, EDGE_W);
    assert_int_equal(game_feature(g, cap), game_feature(g, start_city));
    assert_true(game_feature_complete(g, start_city));
    assert_true(game_feature_complete(g, cap));

    /* a two-tile city on the other side is a separate feature */
    struct game *g2 = fx_new(&r);
    fx_play(g2, "BA/C", 0, -1, 2);
    assert_true(game_feature_complete(g2, fx_seg(g2, 0, 0, FEAT_CITY, EDGE_N)));
    game_free(g2);
    game_free(g);
}

/* Four curves make a loop: a road with no end is complete. */
static void test_road_loop_completes(void **state)
{
    (void)state;
    struct rules r = fx_rules_c2(2);
    struct game *g = fx_new(&r);
    fx_play(g, "BA/Rr", 0, 1, 3); /* road S+E */
    fx_play(g, "BA/Rr", 1, 1, 0); /* road W+S */
    fx_play(g, "BA/Rr", 0, 2, 2); /* road N+E */
    int first = fx_seg(g, 0, 1, FEAT_ROAD, EDGE_S);
    assert_false(game_feature_complete(g, first));
    fx_place(g, "BA/Rr", 1, 2, 1); /* road N+W closes the loop */
    int last = fx_seg(g, 1, 2, FEAT_ROAD, EDGE_N | EDGE_W);
    assert_int_equal(game_feature(g, last), game_feature(g, first));
    assert_true(game_feature_complete(g, first));
    /* the start tile's road is untouched and still open */
    assert_false(game_feature_complete(g, fx_seg(g, 0, 0, FEAT_ROAD, 0)));
    /* the fields inside and outside the loop stay apart */
    int inside = fx_seg(g, 0, 1, FEAT_FIELD, HE_ER | HE_SL);
    int outside = fx_seg(g, 0, 1, FEAT_FIELD, HE_NL);
    assert_int_not_equal(game_feature(g, inside), game_feature(g, outside));
    assert_int_equal(game_feature(g, inside),
                     game_feature(g, fx_seg(g, 1, 2, FEAT_FIELD, HE_WR)));
    /* and the outer field joins the start tile's south field */
    assert_int_equal(game_feature(g, outside),
                     game_feature(g, fx_seg(g, 0, 0, FEAT_FIELD, HE_SL)));
    game_free(g);
}

/* game_find_seg() takes a location as the auditor reads it from a log:
 * the segment's whole board-frame mask. */
static void test_find_seg_by_location(void **state)
{
    (void)state;
    struct rules r = fx_rules_c2(2);
    struct game *g = fx_new(&r);
    int t = fx_place(g, "BA/CRRR", 1, 0, 1);  /* city E; roads S W N */
    assert_int_equal(game_find_seg(g, t, FEAT_ROAD, EDGE_S),
                     fx_seg(g, 1, 0, FEAT_ROAD, EDGE_S));
    assert_int_equal(game_find_seg(g, t, FEAT_ROAD, EDGE_N),
                     fx_seg(g, 1, 0, FEAT_ROAD, EDGE_N));
    assert_int_equal(game_find_seg(g, t, FEAT_CITY, EDGE_E),
                     fx_seg(g, 1, 0, FEAT_CITY, EDGE_E));
    assert_int_equal(game_find_seg(g, t, FEAT_CITY, EDGE_N), -1);
    assert_int_equal(game_find_seg(g, t, FEAT_MONASTERY, 0), -1);
    /* the field along the city: WR+EL turned once is NR+SL */
    assert_int_equal(game_find_seg(g, t, FEAT_FIELD, HE_NR | HE_SL),
                     fx_seg(g, 1, 0, FEAT_FIELD, HE_NR | HE_SL));
    assert_int_equal(game_find_seg(g, -1, FEAT_ROAD, EDGE_S), -1);
    game_free(g);
}

/* ---- deployment ----------------------------------------------------------- */

/* Red's highwayman stands on the start road via BA/RFr at (1,0); the
 * next tile's east road joins that road, so it is taken. */
static void test_deploy_occupied_after_merge(void **state)
{
    (void)state;
    char why[200];
    struct rules r = fx_rules_c2(2);
    struct game *g = fx_new(&r);
    fx_place(g, "BA/RFr", 1, 0, 0);
    fx_deploy(g, RED, FIG_SMALL, fx_seg(g, 1, 0, FEAT_ROAD, 0));
    game_end_turn(g);

    fx_place(g, "BA/CRRR", -1, 0, 0); /* city N, roads E S W apart */
    int east = fx_seg(g, -1, 0, FEAT_ROAD, EDGE_E);
    int south = fx_seg(g, -1, 0, FEAT_ROAD, EDGE_S);
    int blue = game_meeple(g, BLUE, FIG_SMALL, 0);
    assert_int_equal(game_check_deploy(g, BLUE, blue, east, why, sizeof why),
                     RULE_MEEPLE_FEATURE_OCCUPIED);
    int per[GAME_MAX_PLAYERS];
    assert_int_equal(game_feature_meeples(g, east, per), 1);
    assert_int_equal(per[RED], 1);
    /* the crossing's other roads are features of their own */
    assert_int_equal(game_check_deploy(g, BLUE, blue, south, why, sizeof why),
                     RULE_OK);
    fx_deploy(g, BLUE, FIG_SMALL, south);
    assert_int_equal(fx_on_board(g, BLUE), 1);
    game_free(g);
}

/* One placed tile per row; Red deploys on (sx,sy)'s feature. */
static const struct {
    bool farmers;
    const char *tile;
    int x, y, rot;
    int kind;       /* meeple kind, -1: no such meeple */
    int sx, sy;     /* tile of the target segment */
    int feat;
    uint8_t mask;
    enum rule rule;
} deploy_cases[] = {
    { true, "BA/RrG", 0, 1, 0, FIG_SMALL, 0, 1, FEAT_ROAD, 0, RULE_OK },
    { true, "BA/RrG", 0, 1, 0, FIG_SMALL, 0, 1, FEAT_FIELD, HE_NL, RULE_OK },
    { false, "BA/RrG", 0, 1, 0, FIG_SMALL, 0, 1, FEAT_FIELD, HE_NL,
      RULE_MEEPLE_WRONG_TYPE },                         /* farmers off */
    { true, "BA/RrG", 0, 1, 0, FIG_SMALL, 0, 1, FEAT_GARDEN, 0,
      RULE_MEEPLE_WRONG_TYPE },                         /* garden: abbot */
    { true, "BA/RrG", 0, 1, 0, FIG_ABBOT, 0, 1, FEAT_GARDEN, 0, RULE_OK },
    { true, "BA/RrG", 0, 1, 0, FIG_ABBOT, 0, 1, FEAT_ROAD, 0,
      RULE_MEEPLE_WRONG_TYPE },                         /* abbot on road */
    { true, "BA/RrG", 0, 1, 0, FIG_ABBOT, 0, 1, FEAT_FIELD, HE_NL,
      RULE_MEEPLE_WRONG_TYPE },
    { true, "BA/LR", 0, 1, 0, FIG_ABBOT, 0, 1, FEAT_MONASTERY, 0, RULE_OK },
    { true, "BA/LR", 0, 1, 0, FIG_SMALL, 0, 1, FEAT_MONASTERY, 0, RULE_OK },
    { true, "FL/F.o", 0, 1, 0, FIG_SMALL, 0, 1, FEAT_FLIER, 0,
      RULE_MEEPLE_WRONG_TYPE },       /* the machine is no place to stand */
    { true, "BA/RrG", 0, 1, 0, FIG_SMALL, 0, 0, FEAT_CITY, EDGE_N,
      RULE_MEEPLE_NOT_ON_PLACED_TILE },                 /* the start tile */
    { true, "BA/RrG", 0, 1, 0, -1, 0, 1, FEAT_ROAD, 0,
      RULE_MEEPLE_NONE_LEFT },
};

static void test_deploy_rules_table(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_OF(deploy_cases); i++) {
        char why[200] = "";
        struct rules r = fx_rules_c3(2);
        r.flags = (deploy_cases[i].farmers) ? (r.flags | RF_FARMERS) : (r.flags & ~(uint32_t)RF_FARMERS);
        struct game *g = fx_new(&r);
        fx_place(g, deploy_cases[i].tile, deploy_cases[i].x,
                 deploy_cases[i].y, deploy_cases[i].rot);
        int seg = fx_seg(g, deploy_cases[i].sx, deploy_cases[i].sy,
                         deploy_cases[i].feat, deploy_cases[i].mask);
        int m = deploy_cases[i].kind < 0
                    ? -1
                    : game_meeple(g, RED, deploy_cases[i].kind, 0);
        enum rule got = game_check_deploy(g, RED, m, seg, why, sizeof why);
        if (got != deploy_cases[i].rule)
            fail_msg("case %zu: %s, expected %s (%s)", i, rule_id(got),
                     rule_id(deploy_cases[i].rule), why);
        assert_true(got == RULE_OK || why[0] != '\0');
        game_free(g);
    }
}

/* One deployment per turn; a meeple on the board is not in supply. */
static void test_deploy_second_and_none_left(void **state)
{
    (void)state;
    char why[200];
    struct rules r = fx_rules_c3(2);
    struct game *g = fx_new(&r);
    fx_place(g, "BA/RrG", 0, 1, 0);
    int m = fx_deploy(g, RED, FIG_SMALL, fx_seg(g, 0, 1, FEAT_ROAD, 0));
    int garden = fx_seg(g, 0, 1, FEAT_GARDEN, 0);
    int abbot = game_meeple(g, RED, FIG_ABBOT, 0);
    assert_int_equal(game_check_deploy(g, RED, abbot, garden, why, sizeof why),
                     RULE_MEEPLE_SECOND_DEPLOY);
    game_end_turn(g);

    fx_place(g, "BA/RFr", 1, 0, 0);
    int field = fx_seg(g, 1, 0, FEAT_FIELD, HE_NL);
    assert_int_equal(game_check_deploy(g, RED, m, field, why, sizeof why),
                     RULE_MEEPLE_NONE_LEFT); /* m stands at (0,1) */
    /* the abbot is still free: a separate supply from the followers */
    assert_int_equal(game_check_deploy(g, RED, abbot, field, why, sizeof why),
                     RULE_MEEPLE_WRONG_TYPE);
    /* "any in supply" finds nothing once every follower is out (set by
     * hand: seven legal deployments would need seven more tiles) */
    for (int i = 0; i < FX_FOLLOWERS - 1; i++)
        g->meeples[game_meeple(g, RED, FIG_SMALL, 0)].seg = (int16_t)garden;
    assert_int_equal(game_meeple(g, RED, FIG_SMALL, 0), -1);
    assert_int_equal(game_meeple(g, RED, FIG_SMALL, FX_FOLLOWERS + 1), -1);
    assert_int_equal(game_meeple(g, BLUE, FIG_SMALL, 0) >= 0, 1);
    game_free(g);
}

/* ---- the flier: worked cases of rules.md section 2 ------------------------ */

/* Landings a flight from this turn's tile would have with `roll`, without
 * flying: the "had you rolled..." half of the examples. */
static int landings_if(const struct game *g, int roll, int *out, int max)
{
    struct pos from = game_tile_pos(g, g->now.tile);
    struct pos to = game_flight_target(from, game_flier_dir(g, g->now.tile),
                                       roll);
    return game_landings(g, to, FIG_SMALL, out, max);
}

static enum rule landing_rule(const struct game *g, int seg, struct pos target)
{
    char why[200];
    return game_check_landing(g, FIG_SMALL, game_tile_pos(g, g->segs[seg].tile),
                              seg, target, why, sizeof why);
}

/* Example 1 board (3 players). No base tile holds a monastery, a city and
 * a road at once, so the example's target is split over the two tiles on
 * the arrow's line: (0,1) BA/LR (Blue's monastery, completed road) at
 * roll 2 and (1,2) BA/CccR (Yellow's city, completed road) at roll 1.
 * The flier FL/F.d (arrow NW) lies at (2,3); roll 3 hits the empty
 * (-1,0). */
static struct game *example1_board(void)
{
    struct rules r = fx_rules_c2(3);
    struct game *g = fx_new(&r);
    fx_place(g, "BA/LR", 0, 1, 0);          /* monastery, road S */
    fx_deploy(g, BLUE, FIG_SMALL, fx_seg(g, 0, 1, FEAT_MONASTERY, 0));
    game_end_turn(g);
    fx_play(g, "BA/RRR", 0, 2, 2);          /* crossing W N E: ends it */
    fx_place(g, "BA/CccR", 1, 2, 1);        /* road W into city N E S */
    fx_deploy(g, YELLOW, FIG_SMALL, fx_seg(g, 1, 2, FEAT_CITY, EDGE_N));
    game_end_turn(g);
    fx_play(g, "BA/C", 2, 2, 3);            /* city W: joins, open N S */
    fx_place(g, "FL/F.d", 2, 3, 0);         /* Red's turn: arrow NW */
    assert_int_equal(game_flier_dir(g, g->now.tile), DIR_NW);
    return g;
}

static void test_example1_roll3_no_tile(void **state)
{
    (void)state;
    struct game *g = example1_board();
    int opts[TILE_MAX_SEGS];
    struct pos target;
    int n = fx_fly(g, FIG_SMALL, 3, &target, opts, TILE_MAX_SEGS);
    assert_int_equal(target.x, -1);
    assert_int_equal(target.y, 0);
    assert_int_equal(game_tile_at(g, target), -1);
    assert_int_equal(n, 0);                 /* the meeple returns */
    assert_int_equal(fx_on_board(g, RED), 0);
    /* and no other meeple may be deployed this turn */
    char why[200];
    int field = fx_seg(g, 2, 3, FEAT_FIELD, HE_NL);
    assert_int_equal(game_check_deploy(g, RED, game_meeple(g, RED, FIG_SMALL, 0),
                                       field, why, sizeof why),
                     RULE_MEEPLE_SECOND_DEPLOY);
    game_free(g);
}

static void test_example1_roll2_monastery_and_city(void **state)
{
    (void)state;
    struct game *g = example1_board();
    int opts[TILE_MAX_SEGS];
    int monastery = fx_seg(g, 0, 1, FEAT_MONASTERY, 0);
    int lr_road = fx_seg(g, 0, 1, FEAT_ROAD, EDGE_S);
    int city = fx_seg(g, 1, 2, FEAT_CITY, EDGE_N);
    int cccr_road = fx_seg(g, 1, 2, FEAT_ROAD, EDGE_W);
    struct pos t2 = { 0, 1 }, t1 = { 1, 2 };

    /* roll 2: Blue's monastery yes, the completed road no */
    assert_int_equal(landings_if(g, 2, opts, TILE_MAX_SEGS), 1);
    assert_int_equal(opts[0], monastery);
    assert_true(game_feature_complete(g, lr_road));
    assert_int_equal(landing_rule(g, monastery, t2), RULE_OK);
    assert_int_equal(landing_rule(g, lr_road, t2), RULE_FLIER_COMPLETED);
    /* roll 1: Yellow's incomplete city yes, its completed road no */
    assert_int_equal(landings_if(g, 1, opts, TILE_MAX_SEGS), 1);
    assert_int_equal(opts[0], city);
    assert_int_equal(landing_rule(g, city, t1), RULE_OK);
    assert_int_equal(landing_rule(g, cccr_road, t1), RULE_FLIER_COMPLETED);
    assert_int_equal(landing_rule(g, fx_seg(g, 1, 2, FEAT_FIELD, HE_WL), t1),
                     RULE_FLIER_FIELD);

    /* Red rolls 2 and must land: on the monastery, next to Blue */
    struct pos target;
    assert_int_equal(fx_fly(g, FIG_SMALL, 2, &target, opts, TILE_MAX_SEGS), 1);
    fx_land(g, RED, FIG_SMALL, monastery, target);
    int per[GAME_MAX_PLAYERS];
    assert_int_equal(game_feature_meeples(g, monastery, per), 2);
    assert_int_equal(per[RED], 1);
    assert_int_equal(per[BLUE], 1);
    game_free(g);
}

/* game_flight_options() gives the same per-roll picture in one call. */
static void test_example1_options_per_roll(void **state)
{
    (void)state;
    struct game *g = example1_board();
    struct flight_options fo;
    game_flight_options(g, g->now.tile, FIG_SMALL, &fo);
    static const struct pos want[3] = { { 1, 2 }, { 0, 1 }, { -1, 0 } };
    static const int n[3] = { 1, 1, 0 };
    for (int i = 0; i < 3; i++) {
        assert_int_equal(fo.target[i].x, want[i].x);
        assert_int_equal(fo.target[i].y, want[i].y);
        assert_int_equal(fo.n[i], n[i]);
    }
    assert_int_equal(fo.seg[0][0], fx_seg(g, 1, 2, FEAT_CITY, EDGE_N));
    assert_int_equal(fo.seg[1][0], fx_seg(g, 0, 1, FEAT_MONASTERY, 0));
    /* a tile without a machine has no flight at all */
    game_flight_options(g, 0, FIG_SMALL, &fo);
    assert_int_equal(fo.n[0] + fo.n[1] + fo.n[2], 0);
    game_free(g);
}

/* Example 2: FL/RFr.WE.o (arrow W) at (2,0), roll 2 -> the start tile:
 * a field, a road completed by two crossings, Blue's open city. */
static void test_example2_only_the_city(void **state)
{
    (void)state;
    struct rules r = fx_rules_c2(2);
    struct game *g = fx_new(&r);
    fx_play(g, "BA/CRRR", 1, 0, 0);          /* road W ends the start road */
    fx_play(g, "BA/CRRR", -1, 0, 0);         /* road E ends it too */
    fx_place(g, "BA/Cc.1", 0, -1, 2);        /* city S+E on the start city */
    fx_deploy(g, BLUE, FIG_SMALL, fx_seg(g, 0, -1, FEAT_CITY, EDGE_S));
    game_end_turn(g);
    int city = fx_seg(g, 0, 0, FEAT_CITY, EDGE_N);
    fx_place(g, "FL/RFr.WE.o", 2, 0, 0);

    int opts[TILE_MAX_SEGS];
    struct pos target;
    int n = fx_fly(g, FIG_SMALL, 2, &target, opts, TILE_MAX_SEGS);
    assert_int_equal(target.x, 0);
    assert_int_equal(target.y, 0);
    assert_int_equal(n, 1);
    assert_int_equal(opts[0], city);
    int road = fx_seg(g, 0, 0, FEAT_ROAD, 0);
    assert_true(game_feature_complete(g, road));
    assert_int_equal(landing_rule(g, road, target), RULE_FLIER_COMPLETED);
    assert_int_equal(landing_rule(g, fx_seg(g, 0, 0, FEAT_FIELD, HE_SL),
                                  target), RULE_FLIER_FIELD);
    fx_land(g, RED, FIG_SMALL, city, target);
    int per[GAME_MAX_PLAYERS];
    assert_int_equal(game_feature_meeples(g, city, per), 2);
    assert_int_equal(per[RED], 1);
    assert_int_equal(per[BLUE], 1);
    game_free(g);
}

/* Example 3a/3b board: the start road runs from BA/CRRR's crossing at
 * (-1,0) east; FL/Rr.SW.o (road W+S, arrow W) at (1,0) bends it south
 * into BA/LR's monastery at (1,1), completing it. Roll 1 targets the
 * start tile: its road was completed by the tile just placed, its city is
 * open and free. In 3a Blue's highwayman holds the road. */
static struct game *example3_board(bool blue_on_road)
{
    struct rules r = fx_rules_c2(2);
    struct game *g = fx_new(&r);
    fx_place(g, "BA/CRRR", -1, 0, 0);
    if (blue_on_road)
        fx_deploy(g, BLUE, FIG_SMALL, fx_seg(g, -1, 0, FEAT_ROAD, EDGE_E));
    game_end_turn(g);
    fx_play(g, "BA/L", 0, 1, 0);
    fx_play(g, "BA/LR", 1, 1, 2);            /* road N ends at the monastery */
    int road = fx_seg(g, 0, 0, FEAT_ROAD, 0);
    assert_false(game_feature_complete(g, road));
    fx_place(g, "FL/Rr.SW.o", 1, 0, 0);      /* Red's turn */
    assert_true(game_feature_complete(g, road)); /* by this very tile */
    return g;
}

/* What both 3a and 3b check once the flier is up: only the city. */
static void example3_fly_to_city(struct game *g)
{
    int opts[TILE_MAX_SEGS];
    struct pos target;
    int city = fx_seg(g, 0, 0, FEAT_CITY, EDGE_N);
    int road = fx_seg(g, 0, 0, FEAT_ROAD, 0);
    assert_int_equal(fx_fly(g, FIG_SMALL, 1, &target, opts, TILE_MAX_SEGS), 1);
    assert_int_equal(target.x, 0);
    assert_int_equal(target.y, 0);
    assert_int_equal(opts[0], city);
    assert_int_equal(landing_rule(g, road, target), RULE_FLIER_COMPLETED);
    fx_land(g, RED, FIG_SMALL, city, target);
    game_end_turn(g);
    assert_int_equal(g->meeples[game_meeple(g, RED, FIG_SMALL, 1)].seg, city);
}

static void test_example3a_road_completed_this_turn(void **state)
{
    (void)state;
    char why[200];
    struct game *g = example3_board(true);
    int placed_road = fx_seg(g, 1, 0, FEAT_ROAD, EDGE_W);
    /* no normal placement: Blue holds the road */
    assert_int_equal(game_check_deploy(g, RED,
                                       game_meeple(g, RED, FIG_SMALL, 0),
                                       placed_road, why, sizeof why),
                     RULE_MEEPLE_FEATURE_OCCUPIED);
    /* what Red may do: the flight, or a farmer; not the held road */
    struct deploy_option d[16];
    int n = game_list_deploys(g, RED, d, 16);
    assert_int_equal(n, 3); /* flier, two fields */
    for (int i = 0; i < n; i++)
        assert_int_not_equal(d[i].seg, placed_road);
    assert_true(d[0].seg == fx_seg(g, 1, 0, FEAT_FLIER, 0) ||
                d[1].seg == fx_seg(g, 1, 0, FEAT_FLIER, 0) ||
                d[2].seg == fx_seg(g, 1, 0, FEAT_FLIER, 0));
    example3_fly_to_city(g);
    assert_int_equal(game_list_deploys(g, RED, d, 16), 0); /* turn used */
    /* the completed road scored for Blue: (-1,0) (0,0) (1,0) (1,1) */
    assert_int_equal(g->score[BLUE], 4);
    assert_int_equal(fx_on_board(g, BLUE), 0);
    game_free(g);
}

static void test_example3b_fly_instead_of_deploy(void **state)
{
    (void)state;
    char why[200];
    struct game *g = example3_board(false);
    int placed_road = fx_seg(g, 1, 0, FEAT_ROAD, EDGE_W);
    /* a normal placement on the road was possible ... */
    assert_int_equal(game_check_deploy(g, RED,
                                       game_meeple(g, RED, FIG_SMALL, 0),
                                       placed_road, why, sizeof why),
                     RULE_OK);
    /* ... but Red flies, and the road is no landing all the same */
    example3_fly_to_city(g);
    assert_int_equal(g->n_events, 0); /* nobody stood on the road */
    game_free(g);
}

/* Example 3c: BA/RRR at (0,1) with Blue on its east road; BA/CRRR at
 * (-1,1) closes the west road; FL/RFr.WE.o (arrow W) at (1,1) extends
 * Blue's road. Roll 1: the occupied east road and the free south road. */
static void test_example3c_two_open_roads(void **state)
{
    (void)state;
    char why[200];
    struct rules r = fx_rules_c2(2);
    struct game *g = fx_new(&r);
    fx_place(g, "BA/RRR", 0, 1, 0);          /* roads E S W */
    fx_deploy(g, BLUE, FIG_SMALL, fx_seg(g, 0, 1, FEAT_ROAD, EDGE_E));
    game_end_turn(g);
    fx_play(g, "BA/CRRR", -1, 1, 0);         /* crossing ends road W */
    fx_place(g, "FL/RFr.WE.o", 1, 1, 0);
    int east = fx_seg(g, 0, 1, FEAT_ROAD, EDGE_E);
    int south = fx_seg(g, 0, 1, FEAT_ROAD, EDGE_S);
    int west = fx_seg(g, 0, 1, FEAT_ROAD, EDGE_W);
    assert_int_equal(game_check_deploy(g, RED,
                                       game_meeple(g, RED, FIG_SMALL, 0),
                                       fx_seg(g, 1, 1, FEAT_ROAD, 0), why,
                                       sizeof why),
                     RULE_MEEPLE_FEATURE_OCCUPIED);
    int opts[TILE_MAX_SEGS];
    struct pos target;
    assert_int_equal(fx_fly(g, FIG_SMALL, 1, &target, opts, TILE_MAX_SEGS), 2);
    assert_true(fx_has(opts, 2, east));
    assert_true(fx_has(opts, 2, south));
    assert_int_equal(landing_rule(g, east, target), RULE_OK);
    assert_int_equal(landing_rule(g, south, target), RULE_OK);
    assert_true(game_feature_complete(g, west));
    assert_int_equal(landing_rule(g, west, target), RULE_FLIER_COMPLETED);
    fx_land(g, RED, FIG_SMALL, east, target); /* next to Blue */
    int per[GAME_MAX_PLAYERS];
    assert_int_equal(game_feature_meeples(g, east, per), 2);
    assert_int_equal(per[BLUE], 1);
    assert_int_equal(per[RED], 1);
    game_free(g);
}

/* ---- the flier: targets and landing rules ------------------------------ */

static const struct {
    const char *tile;
    int rot;
    struct pos from;
    int roll;
    struct pos target;
} target_cases[] = {
    { "FL/F.o", 0, { 3, 0 }, 2, { 1, 0 } },      /* rules.md: W, roll 2 */
    { "FL/F.d", 0, { 0, 0 }, 3, { -3, -3 } },    /* rules.md: NW, roll 3 */
    { "FL/F.o", 1, { 0, 0 }, 1, { 0, -1 } },     /* W turned once: N */
    { "FL/F.d", 1, { 0, 0 }, 2, { 2, -2 } },     /* NE */
    { "FL/F.o", 2, { 1, 1 }, 3, { 4, 1 } },      /* E */
    { "FL/F.d", 2, { -1, 2 }, 1, { 0, 3 } },     /* SE */
    { "FL/F.o", 3, { 5, -5 }, 2, { 5, -3 } },    /* S: y grows south */
    { "FL/F.d", 3, { 0, 0 }, 3, { -3, 3 } },     /* SW */
    { "FL/Rr.NW.o", 0, { -2, 4 }, 1, { -3, 4 } },/* W */
    { "FL/RFr.d", 0, { 2, 2 }, 1, { 1, 1 } },    /* NW */
};

/* Target = position + roll x direction, the direction turned with the
 * tile; all eight directions appear. */
static void test_flight_targets(void **state)
{
    (void)state;
    struct rules r = fx_rules_c2(2);
    for (size_t i = 0; i < N_OF(target_cases); i++) {
        struct game *g = game_new(&r);
        assert_true(game_place(g, fx_tile(target_cases[i].tile),
                               target_cases[i].from, target_cases[i].rot, 1));
        int dir = game_flier_dir(g, 0);
        struct pos t = game_flight_target(target_cases[i].from, dir,
                                          target_cases[i].roll);
        if (t.x != target_cases[i].target.x || t.y != target_cases[i].target.y)
            fail_msg("case %zu: %s R%d dir %s roll %d -> (%d,%d), expected "
                     "(%d,%d)", i, target_cases[i].tile, 90 * target_cases[i].rot,
                     dir_name(dir), target_cases[i].roll, t.x, t.y,
                     target_cases[i].target.x, target_cases[i].target.y);
        game_free(g);
    }
}

/* C3: BA/RrG (garden, road W+S) at (0,1) and BA/LR turned (monastery,
 * road N) below it at (0,2); FL/F.o (arrow W) at (1,1) targets the
 * garden tile, FL/F.dG (arrow NW) at (1,3) the monastery tile. */
static void test_landing_abbot_only_monastery_or_garden(void **state)
{
    (void)state;
    struct rules r = fx_rules_c3(2);
    struct game *g = fx_new(&r);
    fx_play(g, "BA/RrG", 0, 1, 0);
    fx_play(g, "BA/LR", 0, 2, 2);
    fx_place(g, "FL/F.o", 1, 1, 0);
    int garden = fx_seg(g, 0, 1, FEAT_GARDEN, 0);
    int road = fx_seg(g, 0, 1, FEAT_ROAD, 0);
    struct pos t = { 0, 1 };
    int opts[TILE_MAX_SEGS];
    char why[200];
    assert_int_equal(game_landings(g, t, FIG_ABBOT, opts, TILE_MAX_SEGS), 1);
    assert_int_equal(opts[0], garden);
    assert_int_equal(game_landings(g, t, FIG_SMALL, opts, TILE_MAX_SEGS), 1);
    assert_int_equal(opts[0], road);
    assert_int_equal(game_check_landing(g, FIG_ABBOT, t, garden, t, why,
                                        sizeof why), RULE_OK);
    assert_int_equal(game_check_landing(g, FIG_ABBOT, t, road, t, why,
                                        sizeof why), RULE_MEEPLE_WRONG_TYPE);
    assert_int_equal(game_check_landing(g, FIG_SMALL, t, garden, t, why,
                                        sizeof why), RULE_MEEPLE_WRONG_TYPE);
    game_end_turn(g);

    fx_play(g, "BA/L", 1, 2, 0);
    fx_place(g, "FL/F.dG", 1, 3, 0);         /* arrow NW: roll 1 -> (0,2) */
    t = game_flight_target((struct pos){ 1, 3 }, game_flier_dir(g, g->now.tile),
                           1);
    assert_int_equal(t.x, 0);
    assert_int_equal(t.y, 2);
    int monastery = fx_seg(g, 0, 2, FEAT_MONASTERY, 0);
    assert_int_equal(game_landings(g, t, FIG_ABBOT, opts, TILE_MAX_SEGS), 1);
    assert_int_equal(opts[0], monastery);
    assert_int_equal(game_landings(g, t, FIG_SMALL, opts, TILE_MAX_SEGS), 2);
    assert_true(fx_has(opts, 2, monastery));
    assert_true(fx_has(opts, 2, fx_seg(g, 0, 2, FEAT_ROAD, EDGE_N)));
    game_free(g);
}

/* Never a field, never a flying machine, never beside the target, never
 * where no tile lies. BA/RFr at (2,0) joins two fliers' roads; the second
 * flier, FL/Rr.SW.o (arrow W) at (3,0), rolls 2 onto FL/RFr.WE.o. */
static void test_landing_never_field_or_machine(void **state)
{
    (void)state;
    char why[200];
    struct rules r = fx_rules_c2(2);
    struct game *g = fx_new(&r);
    fx_play(g, "FL/RFr.WE.o", 1, 0, 0);
    fx_play(g, "BA/RFr", 2, 0, 0);
    fx_place(g, "FL/Rr.SW.o", 3, 0, 0);
    int opts[TILE_MAX_SEGS];
    struct pos t;
    assert_int_equal(fx_fly(g, FIG_SMALL, 2, &t, opts, TILE_MAX_SEGS), 1);
    assert_int_equal(t.x, 1);
    assert_int_equal(t.y, 0);
    int road = fx_seg(g, 1, 0, FEAT_ROAD, 0);
    assert_int_equal(opts[0], road); /* the open road, nothing else */
    int machine = fx_seg(g, 1, 0, FEAT_FLIER, 0);
    int field = fx_seg(g, 1, 0, FEAT_FIELD, HE_NL);
    assert_int_equal(game_check_landing(g, FIG_SMALL, t, machine, t, why,
                                        sizeof why), RULE_FLIER_BAD_FEATURE);
    assert_int_equal(game_check_landing(g, FIG_SMALL, t, field, t, why,
                                        sizeof why), RULE_FLIER_FIELD);
    /* a free field stays off limits with farmers on: fliers never farm */
    assert_true(((g->rules.flags & RF_FARMERS) != 0));
    assert_int_equal(game_feature_meeples(g, field, NULL), 0);
    /* a feature the tile does not have */
    assert_int_equal(game_check_landing(g, FIG_SMALL, t, -1, t, why,
                                        sizeof why), RULE_FLIER_BAD_FEATURE);
    /* the right feature kind on the wrong tile */
    struct pos beside = { 2, 0 };
    assert_int_equal(game_check_landing(g, FIG_SMALL, beside,
                                        fx_seg(g, 2, 0, FEAT_ROAD, 0), t, why,
                                        sizeof why), RULE_FLIER_WRONG_TARGET);
    /* a target with no tile at all */
    struct pos empty = { 1, -1 };
    assert_int_equal(game_check_landing(g, FIG_SMALL, empty, -1, empty, why,
                                        sizeof why), RULE_FLIER_NO_TILE);
    assert_int_equal(game_landings(g, empty, FIG_SMALL, opts, TILE_MAX_SEGS), 0);
    game_free(g);
}

/* The road on the target was a landing a moment before the flier tile
 * went down; the tile completes it, so during this turn's flight it is
 * not (the flier resolves after placement, before scoring). */
static void test_landing_completed_this_turn(void **state)
{
    (void)state;
    char why[200];
    struct rules r = fx_rules_c2(2);
    struct game *g = fx_new(&r);
    fx_play(g, "BA/CRRR", -1, 0, 0);
    fx_play(g, "BA/L", 0, 1, 0);
    fx_play(g, "BA/LR", 1, 1, 2);
    int road = fx_seg(g, 0, 0, FEAT_ROAD, 0);
    int city = fx_seg(g, 0, 0, FEAT_CITY, EDGE_N);
    struct pos t = { 0, 0 };
    int opts[TILE_MAX_SEGS];
    assert_int_equal(game_landings(g, t, FIG_SMALL, opts, TILE_MAX_SEGS), 2);
    assert_true(fx_has(opts, 2, road));
    assert_true(fx_has(opts, 2, city));

    fx_place(g, "FL/Rr.SW.o", 1, 0, 0);
    assert_int_equal(game_landings(g, t, FIG_SMALL, opts, TILE_MAX_SEGS), 1);
    assert_int_equal(opts[0], city);
    assert_int_equal(game_check_landing(g, FIG_SMALL, t, road, t, why,
                                        sizeof why), RULE_FLIER_COMPLETED);
    assert_true(why[0] != '\0');
    game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_place_legality_table),
        cmocka_unit_test(test_place_pack_runs_out),
        cmocka_unit_test(test_list_placements),
        cmocka_unit_test(test_city_merges_and_completes),
        cmocka_unit_test(test_road_loop_completes),
        cmocka_unit_test(test_find_seg_by_location),
        cmocka_unit_test(test_deploy_occupied_after_merge),
        cmocka_unit_test(test_deploy_rules_table),
        cmocka_unit_test(test_deploy_second_and_none_left),
        cmocka_unit_test(test_example1_roll3_no_tile),
        cmocka_unit_test(test_example1_roll2_monastery_and_city),
        cmocka_unit_test(test_example1_options_per_roll),
        cmocka_unit_test(test_example2_only_the_city),
        cmocka_unit_test(test_example3a_road_completed_this_turn),
        cmocka_unit_test(test_example3b_fly_instead_of_deploy),
        cmocka_unit_test(test_example3c_two_open_roads),
        cmocka_unit_test(test_flight_targets),
        cmocka_unit_test(test_landing_abbot_only_monastery_or_garden),
        cmocka_unit_test(test_landing_never_field_or_machine),
        cmocka_unit_test(test_landing_completed_this_turn),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
