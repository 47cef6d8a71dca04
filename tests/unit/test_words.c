/* test_words.c - things named as players name them (core/words.h), and
 * the violation messages that use those words: one exact sentence per
 * row, the wording contract of the reports people read. */
#include <stdarg.h> /* cmocka 1.1.5 needs these four first */
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "board_fixture.h"
#include "core/words.h"
#include "fx_cases.h"

struct seg_case {
    const char *name;
    int kind;
    const char *loc; /* our notation, as loc_parse() reads it */
    const char *want;
};

static const struct seg_case segs[] = {
    { "road across", FEAT_ROAD, "NS", "the road running north–south" },
    { "road across the other way", FEAT_ROAD, "WE",
      "the road running east–west" },
    { "road ending", FEAT_ROAD, "E", "the road on the east side" },
    { "road bend", FEAT_ROAD, "SE", "the road on the east and south sides" },
    { "bend round the north-west", FEAT_ROAD, "WN",
      "the road on the north and west sides" },
    { "city but one side", FEAT_CITY, "_N",
      "the city on every side but north" },
    { "city all round", FEAT_CITY, "NESW", "the city on every side" },
    { "field north of a road", FEAT_FIELD, "NL.NR.EL.WR",
      "the field to the north" },
    { "field in a corner", FEAT_FIELD, "ER.SL",
      "the field in the south-east corner" },
    { "field round a bend", FEAT_FIELD, "NL.NR.EL.ER.SL.WR",
      "the field to the north-east" },
    { "field everywhere", FEAT_FIELD, "NL.NR.EL.ER.SL.SR.WL.WR",
      "the field all round the tile" },
    { "monastery", FEAT_MONASTERY, "I", "the monastery" },
    { "flying machine", FEAT_FLIER, "I", "the flying machine" },
};

static void test_seg(void **state)
{
    const struct seg_case *c = *state;
    uint8_t mask;
    char got[80];
    assert_true(loc_parse(c->kind, c->loc, &mask));
    seg_words(c->kind, mask, got, sizeof got);
    assert_string_equal(got, c->want);
}

struct tile_case {
    const char *name;
    const char *tile;
    const char *want;
};

static const struct tile_case tiles[] = {
    { "city and three roads", "BA/CRRR", "the tile with a city and three roads" },
    { "a crossing", "BA/RRRR", "the tile with four roads" },
    { "a monastery with a road", "BA/LR", "the tile with a monastery and a road" },
};

static void test_tile(void **state)
{
    const struct tile_case *c = *state;
    char got[80];
    tile_words(fx_tile(c->tile), got, sizeof got);
    assert_string_equal(got, c->want);
}

static void test_short_buffer(void **state)
{
    (void)state;
    char got[12];
    uint8_t mask;
    assert_true(loc_parse(FEAT_CITY, "_N", &mask));
    seg_words(FEAT_CITY, mask, got, sizeof got);
    assert_string_equal(got, "the city on");
    tile_words(-1, got, sizeof got);
    assert_string_equal(got, "an unknown ");
    assert_string_equal(dir_words(DIR_NW), "north-west");
}

/* A follower onto a road Ada's follower holds: Ben's, on the road
 * running east–west, and whose meeple is there. */
static void test_occupied_message(void **state)
{
    (void)state;
    static const struct fx_step steps[] = {
        FX_PLACE(RED, "BA/RFr", 1, 0, 0),
        FX_DEPLOY(RED, 1, 0, FEAT_ROAD, "WE"), FX_COMMIT(RED),
        FX_PLACE(BLUE, "BA/RFr", 2, 0, 0),
        FX_DEPLOY_N(BLUE, 2, 0, FEAT_ROAD, "WE", FIG_SMALL, 3),
        FX_COMMIT(BLUE),
    };
    struct rules r = fx_rules_c2(2);
    struct game_log l;
    struct report rep;
    fx_log_init(&l, &r);
    snprintf(l.names[0], sizeof l.names[0], "Ada");
    snprintf(l.names[1], sizeof l.names[1], "Ben");
    fx_log_add(&l, steps, N_OF(steps));
    fx_audit(&l, &rep);
    assert_int_equal(rep.n_violations, 1);
    assert_string_equal(rep.violations[0].msg,
                        "Ben's follower on the road running east–west at "
                        "(2,0): the road already holds a meeple (Ada's)");
    report_release(&rep);
    game_log_release(&l);
}

/* A move between turns is filed with the turn before it and marked so,
 * for the text report's "after turn 1 (Ada's)"; one in a turn is not. */
static void test_between_turns(void **state)
{
    (void)state;
    static const struct fx_step steps[] = {
        FX_PLACE(RED, "BA/RFr", 1, 0, 0), FX_COMMIT(RED),
        FX_PASS(BLUE), /* before Ben's tile */
        FX_PLACE(BLUE, "BA/RFr", 2, 0, 0),
        FX_DEPLOY(BLUE, 0, 0, FEAT_CITY, "N"), FX_COMMIT(BLUE),
    };
    struct rules r = fx_rules_c2(2);
    struct game_log l;
    struct report rep;
    fx_log_init(&l, &r);
    fx_log_add(&l, steps, N_OF(steps));
    fx_audit(&l, &rep);
    assert_true(rep.n_violations >= 2);
    assert_int_equal(rep.violations[0].turn, 1);
    assert_true(rep.violations[0].between);
    assert_int_equal(rep.violations[rep.n_violations - 1].turn, 2);
    assert_false(rep.violations[rep.n_violations - 1].between);
    report_release(&rep);
    game_log_release(&l);
}

int main(void)
{
    static struct fx_tests ts;
    FX_ROWS(&ts, segs, test_seg);
    FX_ROWS(&ts, tiles, test_tile);
    FX_TEST(&ts, test_short_buffer);
    FX_TEST(&ts, test_occupied_message);
    FX_TEST(&ts, test_between_turns);
    return fx_tests_run("test_words", &ts);
}
