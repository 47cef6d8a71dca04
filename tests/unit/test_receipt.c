/* test_receipt.c - receipt_format() sentences and the refs behind them.
 *
 * Two halves:
 *  - a table of score events written by hand, one exact sentence each:
 *    the wording contract, independent of the engine;
 *  - small games through audit_run(), whose events must produce the same
 *    kind of sentence with the engine's own numbers, and whose refs must
 *    name each tile of the feature once; Abbey & Mayor's and Traders &
 *    Builders' too (mayor, barn, wagon, pig, builder, trade goods).
 * Players are Ada (seat 0, odd turns) and Ben (seat 1, even turns). Every
 * game starts from BA/RCr at (0,0) R0 (road W-E, city N); x grows east,
 * y SOUTH; rotations are clockwise quarter turns. */
#include <stdarg.h> /* cmocka 1.1.5 needs these four first */
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "board_fixture.h"
#include "core/receipt.h"
#include "fx_cases.h"

#define ADA 0
#define BEN 1
#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

static void name_players(struct game_log *l)
{
    static const char *const names[] = { "Ada", "Ben", "Cleo", "Dov" };
    for (int p = 0; p < l->rules.n_players && p < 4; p++)
        snprintf(l->names[p], sizeof l->names[p], "%s", names[p]);
}

/* ---- the wording, on events written by hand ---------------------------- */

struct sentence_case {
    const char *name;
    struct score_event ev;
    struct feature_ref refs[3];
    const char *want;
};

/* Figures per seat on an event: FIGS(ADA, FIG_MAYOR, 1) ... */
#define FIG(p, k, n) [p][k] = (n)

#define EV(feat, done, pts, players_, tiles_, pennants_, m0, m1)          \
    { .turn = 7, .feature = (feat), .players = (players_),               \
      .completed = (done), .points = (pts), .tiles = (tiles_),            \
      .pennants = (pennants_), .meeples = { (m0), (m1) } }

static const struct sentence_case sentences[] = {
    { "completed city with pennants, majority",
      EV(FEAT_CITY, true, 14, 1u << ADA, 5, 2, 2, 1), { { 0 } },
      "city, 5 tiles + 2 pennants, completed: 5×2 + 2×2 = 14; "
      "Ada 2 knights, Ben 1 → Ada 14" },
    { "tie",
      EV(FEAT_CITY, true, 8, 3u, 4, 0, 1, 1), { { 0 } },
      "city, 4 tiles, completed: 4×2 = 8; Ada 1 knight, Ben 1 → Ada, Ben "
      "8 each" },
    { "incomplete city at the end",
      EV(FEAT_CITY, false, 4, 1u << BEN, 3, 1, 0, 1), { { 0 } },
      "city, 3 tiles + 1 pennant, incomplete: 3×1 + 1×1 = 4; Ben 1 knight "
      "→ Ben 4" },
    { "road",
      EV(FEAT_ROAD, true, 4, 1u << ADA, 4, 0, 1, 0), { { 0 } },
      "road, 4 tiles, completed: 4×1 = 4; Ada 1 highwayman → Ada 4" },
    { "one-tile road, two highwaymen",
      EV(FEAT_ROAD, false, 1, 1u << BEN, 1, 0, 0, 2), { { 0 } },
      "road, 1 tile, incomplete: 1×1 = 1; Ben 2 highwaymen → Ben 1" },
    { "monastery complete",
      EV(FEAT_MONASTERY, true, 9, 1u << ADA, 9, 0, 1, 0), { { 0 } },
      "monastery, completed (all 8 neighbours): 9; Ada 1 monk → Ada 9" },
    { "monastery incomplete",
      EV(FEAT_MONASTERY, false, 5, 1u << ADA, 5, 0, 1, 0), { { 0 } },
      "monastery, incomplete: 1 + 4 neighbours = 5; Ada 1 monk → Ada 5" },
    /* a term another unit adds is summed in, not left out of the text */
    { "monastery complete with vineyards around",
      { .turn = 5, .feature = FEAT_MONASTERY, .players = 1u << ADA,
        .completed = true, .points = 15, .tiles = 9, .meeples = { 1 },
        .n_items = 2,
        .items = { { SI_TILES, 9, 9 }, { SI_VINEYARDS, 2, 6 } } },
      { { 0 } },
      "monastery, completed (all 8 neighbours): 9 + 2×3 (vineyards) = 15; "
      "Ada 1 monk → Ada 15" },
    { "monastery with one neighbour",
      EV(FEAT_MONASTERY, false, 2, 1u << BEN, 2, 0, 0, 1), { { 0 } },
      "monastery, incomplete: 1 + 1 neighbour = 2; Ben 1 monk → Ben 2" },
    { "tiny city",
      { .turn = 3, .feature = FEAT_CITY, .players = 1u << ADA,
        .completed = true, .tiny = true, .points = 2, .tiles = 2,
        .meeples = { 1 } },
      { { 0 } },
      "city, 2 tiles, completed (tiny-city rule): 2×1 = 2; Ada 1 knight "
      "→ Ada 2" },
    { "garden by abbot recall",
      { .turn = 6, .feature = FEAT_GARDEN, .players = 1u << BEN,
        .recall = true, .points = 4, .tiles = 4, .meeples = { 0, 1 } },
      { { 0 } },
      "abbot recalled from the garden, incomplete: 1 + 3 neighbours = 4; "
      "Ben 1 abbot → Ben 4" },
    /* The Monasteries: the abbot's place, its rows of tiles */
    { "abbot's place of a special monastery",
      { .turn = -1, .feature = FEAT_ABBOT_SEAT, .players = 1u << BEN,
        .points = 11, .tiles = 1, .meeples = { 0, 1 }, .n_items = 5,
        .items = { { SI_TILES, 1, 1 }, { SI_TILES_N, 0, 0 },
                   { SI_TILES_E, 1, 1 }, { SI_TILES_S, 3, 3 },
                   { SI_TILES_W, 6, 6 } } },
      { { 0 } },
      "special monastery's abbot place, the rows of tiles from it: 1 + N 0 "
      "+ E 1 + S 3 + W 6 = 11; Ben 1 abbot → Ben 11" },
    { "field touching two cities",
      { .turn = -1, .feature = FEAT_FIELD, .players = 3u, .points = 6,
        .cities = 2, .meeples = { 1, 1 }, .ref0 = 0, .n_refs = 2 },
      { { 0, -1, FEAT_CITY, EDGE_S, 2 }, { 3, 1, FEAT_CITY, EDGE_W, 5 } },
      "field touching 2 completed cities [(0,-1) 2 tiles, (3,1) 5 tiles]: "
      "2×3 = 6; Ada 1 farmer, Ben 1 → Ada, Ben 6 each" },
    { "field touching none",
      { .turn = -1, .feature = FEAT_FIELD, .players = 1u << ADA,
        .meeples = { 1 } },
      { { 0 } },
      "field touching 0 completed cities: 0×3 = 0; Ada 1 farmer → Ada 0" },
    /* Inns & Cathedrals: the inn's and the cathedral's terms, and a large
     * follower's strength */
    { "road with an inn",
      { .turn = 7, .feature = FEAT_ROAD, .players = 1u << ADA,
        .completed = true, .points = 10, .tiles = 5,
        .attrs = { [SA_BIT_INN] = 1 }, .meeples = { 1 } },
      { { 0 } },
      "road, 5 tiles, completed, with an inn: 5×1 + 5 (inn) = 10; Ada 1 "
      "highwayman → Ada 10" },
    { "unfinished road with an inn",
      { .turn = -1, .feature = FEAT_ROAD, .players = 1u << BEN, .tiles = 2,
        .attrs = { [SA_BIT_INN] = 1 }, .meeples = { 0, 1 } },
      { { 0 } },
      "road, 2 tiles, incomplete, with an inn: 0 (inn) = 0; Ben 1 "
      "highwayman → Ben 0" },
    { "cathedral city, a large follower against a knight",
      { .turn = 7, .feature = FEAT_CITY, .players = 1u << BEN,
        .completed = true, .points = 21, .tiles = 6, .pennants = 1,
        .attrs = { [SA_BIT_CATHEDRAL] = 1 }, .meeples = { 1, 1 },
        .strength = { 1, 2 } },
      { { 0 } },
      "city, 6 tiles + 1 pennant, completed, with a cathedral: 6×2 + 1×2 + "
      "7 (cathedral) = 21; Ada 1 knight (strength 1), Ben 1 (strength 2) → "
      "Ben 21" },
    /* the siege: a besieged city's loss reads as a subtraction; a field
     * counts a completed besieged city twice */
    { "besieged city",
      { .turn = 7, .feature = FEAT_CITY, .players = 1u << ADA,
        .completed = true, .points = 6, .tiles = 5, .pennants = 1,
        .attrs = { [SA_BIT_BESIEGED] = 1 }, .meeples = { 1 } },
      { { 0 } },
      "city, 5 tiles + 1 pennant, completed, besieged: 5×2 + 1×2 - 6 "
      "(besieged) = 6; Ada 1 knight → Ada 6" },
    { "unfinished besieged city",
      { .turn = -1, .feature = FEAT_CITY, .players = 1u << BEN,
        .tiles = 4, .pennants = 2, .attrs = { [SA_BIT_BESIEGED] = 1 },
        .meeples = { 0, 1 }, .expr = EXPR_INCOMPLETE, .n_items = 3,
        .items = { { SI_TILES, 4, 4 }, { SI_PENNANTS, 2, 2 },
                   { SI_BESIEGED, -1, -6 } } },
      { { 0 } },
      "city, 4 tiles + 2 pennants, incomplete, besieged: 4×1 + 2×1 - 6 "
      "(besieged) = 0; Ben 1 knight → Ben 0" },
    { "field touching a besieged city",
      { .turn = -1, .feature = FEAT_FIELD, .players = 1u << ADA,
        .points = 6, .cities = 1, .city_attrs = { [SA_BIT_BESIEGED] = 1 },
        .meeples = { 1 }, .ref0 = 0, .n_refs = 1 },
      { { 0, -1, FEAT_CITY, EDGE_S, 4 } },
      "field touching 1 completed city [(0,-1) 4 tiles]: 1×3 + 3 "
      "(besieged) = 6; Ada 1 farmer → Ada 6" },
    /* figures named by kind: the ordinary follower by its role, any other
     * by its name, with the strength when a figure weighs otherwise */
    { "a large follower, named",
      { .turn = 7, .feature = FEAT_CITY, .players = 1u << BEN,
        .completed = true, .points = 8, .tiles = 4, .meeples = { 1, 1 },
        .strength = { 1, 2 },
        .figures = { FIG(ADA, FIG_SMALL, 1), FIG(BEN, FIG_BIG, 1) } },
      { { 0 } },
      "city, 4 tiles, completed: 4×2 = 8; Ada 1 knight (strength 1), Ben 1 "
      "large follower (strength 2) → Ben 8" },
    /* Abbey & Mayor: the mayor weighs its city's pennants */
    { "a mayor against a knight",
      { .turn = 7, .feature = FEAT_CITY, .players = 1u << ADA,
        .completed = true, .points = 10, .tiles = 3, .pennants = 2,
        .meeples = { 1, 1 }, .strength = { 2, 1 },
        .figures = { FIG(ADA, FIG_MAYOR, 1), FIG(BEN, FIG_SMALL, 1) } },
      { { 0 } },
      "city, 3 tiles + 2 pennants, completed: 3×2 + 2×2 = 10; Ada 1 mayor "
      "(strength 2), Ben 1 knight (strength 1) → Ada 10" },
    { "a mayor of one pennant still says its strength",
      { .turn = 7, .feature = FEAT_CITY, .players = 1u << ADA,
        .completed = true, .points = 6, .tiles = 2, .pennants = 1,
        .meeples = { 1 }, .strength = { 1 },
        .figures = { FIG(ADA, FIG_MAYOR, 1) } },
      { { 0 } },
      "city, 2 tiles + 1 pennant, completed: 2×2 + 1×2 = 6; Ada 1 mayor "
      "(strength 1) → Ada 6" },
    { "a mayor in a city with no pennant: city.empty",
      { .turn = 7, .feature = FEAT_CITY, .players = 1u << ADA,
        .completed = true, .expr = EXPR_EMPTY, .tiles = 2,
        .meeples = { 1 }, .figures = { FIG(ADA, FIG_MAYOR, 1) } },
      { { 0 } },
      "city, 2 tiles, completed, no one there has strength: 0; Ada 1 mayor "
      "(strength 0) → Ada 0" },
    { "a wagon on a road",
      { .turn = 7, .feature = FEAT_ROAD, .players = 1u << BEN,
        .completed = true, .points = 3, .tiles = 3, .meeples = { 0, 1 },
        .strength = { 0, 1 }, .figures = { FIG(BEN, FIG_WAGON, 1) } },
      { { 0 } },
      "road, 3 tiles, completed: 3×1 = 3; Ben 1 wagon → Ben 3" },
    { "the barn at the end: 4 a city",
      { .turn = -1, .feature = FEAT_BARN, .players = 1u << ADA,
        .points = 8, .cities = 2, .meeples = { 1 }, .n_items = 1,
        .items = { { SI_CITIES, 2, 8 } },
        .figures = { FIG(ADA, FIG_BARN, 1) }, .ref0 = 0, .n_refs = 2 },
      { { 0, -1, FEAT_CITY, EDGE_S, 2 }, { 3, 1, FEAT_CITY, EDGE_W, 5 } },
      "barn in a field touching 2 completed cities [(0,-1) 2 tiles, (3,1) 5 "
      "tiles]: 2×4 = 8; Ada 1 barn → Ada 8" },
    { "a barn placed: 3 a city, the pig's 1 a city",
      { .turn = 7, .feature = FEAT_FIELD, .players = 1u << ADA,
        .expr = EXPR_BARN_PLACED, .points = 4, .cities = 1,
        .meeples = { 1 }, .strength = { 1 }, .n_items = 2,
        .items = { { SI_CITIES, 1, 3 }, { SI_PIGS, -1, 1 } },
        .figures = { FIG(ADA, FIG_SMALL, 1), FIG(ADA, FIG_PIG, 1),
                     FIG(BEN, FIG_BARN, 1) },
        .ref0 = 0, .n_refs = 1 },
      { { 0, -1, FEAT_CITY, EDGE_S, 2 } },
      "field touching 1 completed city [(0,-1) 2 tiles], a barn placed on "
      "it: 1×3 + 1 (pigs) = 4; Ada 1 farmer and 1 pig, Ben 1 barn → Ada 4" },
    { "a field joined to a barn: 1 a city",
      { .turn = 9, .feature = FEAT_FIELD, .players = 1u << BEN,
        .expr = EXPR_BARN_CONNECTED, .points = 2, .cities = 2,
        .meeples = { 0, 2 }, .strength = { 0, 2 }, .n_items = 1,
        .items = { { SI_CITIES, 2, 2 } },
        .figures = { FIG(ADA, FIG_BARN, 1), FIG(BEN, FIG_SMALL, 2) },
        .ref0 = 0, .n_refs = 2 },
      { { 0, -1, FEAT_CITY, EDGE_S, 2 }, { 3, 1, FEAT_CITY, EDGE_W, 5 } },
      "field touching 2 completed cities [(0,-1) 2 tiles, (3,1) 5 tiles], "
      "joined to a barn: 2×1 = 2; Ada 1 barn, Ben 2 farmers → Ben 2" },
    /* Traders & Builders: the builder and the pig by name; trade goods */
    { "a builder beside its owner's highwayman",
      { .turn = 7, .feature = FEAT_ROAD, .players = 1u << BEN,
        .completed = true, .points = 3, .tiles = 3, .meeples = { 0, 1 },
        .strength = { 0, 1 },
        .figures = { FIG(BEN, FIG_SMALL, 1), FIG(BEN, FIG_BUILDER, 1) } },
      { { 0 } },
      "road, 3 tiles, completed: 3×1 = 3; Ben 1 highwayman and 1 builder → "
      "Ben 3" },
    { "a pig in its owner's field",
      { .turn = -1, .feature = FEAT_FIELD, .players = 1u << ADA,
        .points = 8, .cities = 2, .meeples = { 1, 1 }, .strength = { 1, 0 },
        .n_items = 2, .items = { { SI_CITIES, 2, 6 }, { SI_PIGS, -1, 2 } },
        .figures = { FIG(ADA, FIG_SMALL, 1), FIG(ADA, FIG_PIG, 1),
                     FIG(BEN, FIG_SMALL, 1) },
        .ref0 = 0, .n_refs = 2 },
      { { 0, -1, FEAT_CITY, EDGE_S, 2 }, { 3, 1, FEAT_CITY, EDGE_W, 5 } },
      "field touching 2 completed cities [(0,-1) 2 tiles, (3,1) 5 tiles]: "
      "2×3 + 2 (pigs) = 8; Ada 1 farmer and 1 pig, Ben 1 farmer → Ada 8" },
    { "trade goods: the most wine",
      { .turn = -1, .feature = FEAT_TRADE_GOODS, .players = 1u << ADA,
        .points = 10, .strength = { 3, 2 }, .n_items = 1,
        .items = { { SI_WINE, -1, 10 } } },
      { { 0 } },
      "trade goods, wine: Ada 3, Ben 2; 10 for the most (3) → Ada 10" },
    { "trade goods: a tie for cloth",
      { .turn = -1, .feature = FEAT_TRADE_GOODS, .players = 3u,
        .points = 10, .strength = { 2, 2 }, .n_items = 1,
        .items = { { SI_CLOTH, -1, 10 } } },
      { { 0 } },
      "trade goods, cloth: Ada 2, Ben 2; 10 for the most (2) → Ada, Ben 10 "
      "each" },
    /* Darmstadt: darmstadtium's 3 as a term; the church bonus with the
     * followers on the church's block */
    { "a completed city of darmstadtium",
      { .turn = 4, .feature = FEAT_CITY, .players = 1u << ADA,
        .completed = true, .points = 13, .tiles = 5,
        .attrs = { [SA_BIT_DARMSTADTIUM] = 1 }, .meeples = { 1 },
        .strength = { 1 }, .figures = { FIG(ADA, FIG_SMALL, 1) } },
      { { 0 } },
      "city, 5 tiles, completed: 5×2 + 3 (darmstadtium) = 13; Ada 1 knight "
      "→ Ada 13" },
    { "a church bonus tied",
      { .turn = 12, .feature = FEAT_CHURCH, .players = 3u,
        .completed = true, .points = 3, .tiles = 9, .meeples = { 2, 2 },
        .strength = { 2, 2 }, .n_items = 1,
        .items = { { SI_CHURCH, -1, 3 } },
        .figures = { FIG(ADA, FIG_SMALL, 2), FIG(BEN, FIG_SMALL, 2) },
        .ref0 = 0, .n_refs = 1 },
      { { 0, 1, FEAT_MONASTERY, 0, 1 } },
      "church at (0,1), completed: 3 for the most followers on it and its 8 "
      "neighbours; Ada 2 followers, Ben 2 → Ada, Ben 3 each" },
    /* Bridges, Castles & Bazaars: what a castle scored from; who paid
     * whom at the bazaar */
    { "a castle beside a completed road",
      { .turn = 26, .feature = FEAT_CASTLE, .players = 1u << ADA,
        .completed = true, .points = 3, .tiles = 2, .meeples = { 1 },
        .strength = { 1 }, .n_items = 1,
        .items = { { SI_CASTLE_ROAD, -1, 3 } },
        .figures = { FIG(ADA, FIG_SMALL, 1) }, .ref0 = 0, .n_refs = 2 },
      { { 0, -1, FEAT_CASTLE, EDGE_S, 1 }, { 0, 0, FEAT_CASTLE, EDGE_N, 1 } },
      "castle (0,-1)-(0,0): a road completed beside it scored 3; Ada 1 "
      "castellan → Ada 3" },
    { "a tile bought at the bazaar",
      { .turn = 29, .feature = FEAT_BAZAAR, .players = 1u << BEN,
        .completed = true, .expr = EXPR_BUY, .points = -1, .n_items = 1,
        .items = { { SI_BAZAAR, -1, -1 } }, .xfer = { 1, 0, 0, 0 } },
      { { 0 } },
      "bazaar: a tile bought at the auction, 1 paid to Ada → Ben -1" },
    /* a ransom names the figure freed as players do, not by its id */
    { "ransom paid",
      { .turn = 7, .feature = FEAT_RANSOM, .players = 1u << ADA,
        .expr = EXPR_DONE, .points = -3, .n_items = 1,
        .items = { { SI_RANSOM, -1, -3 } },
        .xfer = { BEN + 1, ADA, FIG_SMALL, 2 } },
      { { 0 } },
      "ransom: Ada paid 3 to Ben for Ada's follower → Ada -3" },
    /* the fairy's point at the start of its owner's turn is filed with
     * the turn before (7): the sentence says the turn it began */
    { "fairy at the start of a turn",
      { .turn = 7, .feature = FEAT_FAIRY, .players = 1u << BEN,
        .expr = EXPR_TURN, .points = 1, .n_items = 1,
        .items = { { SI_FAIRY, -1, 1 } } },
      { { 0 } },
      "fairy beside Ben's follower: 1 at the start of Ben's turn 8 → Ben 1" },
};

/* The terms of a hand-written event, as the engine's scoring sets them
 * (the feature's class, then the units'): its points must agree. */
static void score_terms(const char *what, struct score_event *ev)
{
    struct rules r = fx_rules_c2(2);
    r.flags |= RF_INNS | RF_CATHEDRALS | RF_SIEGE;
    if (ev->tiny)
        r.opt[OPT_TINY_CITY] = 2;
    int want = ev->points;
    const struct feature_class *c = feature_class(ev->feature);
    if (c->score)
        c->score(&r, ev);
    for (int u = 0; u < EXP__COUNT; u++)
        if (expansion_get(u)->score)
            expansion_get(u)->score(&r, ev);
    if (ev->points != want)
        fail_msg("%s: the engine's terms make %d points, the row says %d",
                 what, ev->points, want);
}

/* One row of sentences[]: its event, as the engine's scoring sets its
 * terms, reads as the row's sentence. */
static void test_sentence(void **state)
{
    const struct sentence_case *c = *state;
    struct rules r = fx_rules_c2(2);
    struct game_log l;
    fx_log_init(&l, &r);
    name_players(&l);
    struct score_event ev = c->ev;
    struct feature_ref refs[3];
    /* terms written here as the unit that scored set them (a barn's,
     * trade goods', a mayor's .empty) stay; others the engine's */
    if (ev.n_items == 0 && ev.expr == EXPR_DONE)
        score_terms(c->name, &ev);
    memcpy(refs, c->refs, sizeof refs);
    struct report rep;
    memset(&rep, 0, sizeof rep);
    rep.events = &ev;
    rep.n_events = 1;
    rep.refs = refs;
    rep.n_refs = ev.n_refs;
    char out[600];
    receipt_format(&l, &rep, 0, out, sizeof out);
    game_log_release(&l);
    if (strcmp(out, c->want) != 0)
        fail_msg("%s:\n  got  '%s'\n  want '%s'", c->name, out, c->want);
}

/* A short buffer is cut, never overrun, and stays a C string. */
static void test_short_buffer(void **state)
{
    (void)state;
    struct rules r = fx_rules_c2(2);
    struct game_log l;
    fx_log_init(&l, &r);
    name_players(&l);
    struct score_event ev = sentences[0].ev;
    struct report rep;
    memset(&rep, 0, sizeof rep);
    rep.events = &ev;
    rep.n_events = 1;
    char out[24];
    memset(out, 'x', sizeof out);
    receipt_format(&l, &rep, 0, out, 16);
    assert_int_equal(strlen(out), 15);
    assert_string_equal(out, "city, 5 tiles +");
    assert_int_equal(out[16], 'x');
    game_log_release(&l);
}

static void test_seats_format(void **state)
{
    (void)state;
    struct rules r = fx_rules_c2(3);
    struct game_log l;
    fx_log_init(&l, &r);
    name_players(&l);
    char out[64];
    seats_format(&l, 0x5, out, sizeof out);
    assert_string_equal(out, "Ada, Cleo");
    seats_format(&l, 0x2, out, sizeof out);
    assert_string_equal(out, "Ben");
    seats_format(&l, 0, out, sizeof out);
    assert_string_equal(out, "");
    game_log_release(&l);
}

/* ---- the engine's events ----------------------------------------------- */

#define ANY INT_MIN /* a score a row does not pin */
#define STEPS(...) (const struct fx_step[]){ __VA_ARGS__ }, \
    N_OF(((const struct fx_step[]){ __VA_ARGS__ }))

static struct rules c2(void)
{
    return fx_rules_c2(2);
}

static struct rules c3(void)
{
    return fx_rules_c3(2);
}

static struct rules c2_tiny(void)
{
    struct rules r = fx_rules_c2(2);
    r.opt[OPT_TINY_CITY] = 2;
    return r;
}

/* Abbey & Mayor and Traders & Builders together. */
static struct rules am_tb(void)
{
    struct rules r = fx_rules_c2(2);
    fx_add_set(&r, "traders-and-builders:1");
    r.counts[COUNT_ABBEYS] = 1;
    r.figures[FIG_MAYOR] = 1;
    r.figures[FIG_WAGON] = 1;
    r.figures[FIG_BARN] = 1;
    r.figures[FIG_BUILDER] = 1;
    r.figures[FIG_PIG] = 1;
    r.flags |= RF_TRADERS;
    return r;
}

/* A ref a row expects: (x,y) once among its event's refs, of that kind
 * and size (a segment of the feature itself is of size 1). */
struct want_ref {
    int x, y, kind, size;
};

/* A small game through audit_run(), valid, and what its events say. */
struct game_case {
    const char *name;
    struct rules (*rules)(void);
    const struct fx_step *steps;
    size_t n;
    bool finish;            /* audit_opts.assume_finished */
    size_t n_events;        /* 0: any number */
    /* each event, and the receipt of each (by the same index) */
    struct fx_event_want events[3];
    const char *receipts[3];
    /* the refs of events[0] when n_refs is set: exactly these */
    struct want_ref refs[4];
    size_t n_refs;
    int score[2];           /* ANY: not pinned; all 0: neither pinned */
};

/* Ada's knight and Ben's, and a flight: see majority_city below. */
#define CITY4 FX_EV(4, FEAT_CITY, FXW_TILES | FXW_PENNANTS | FXW_MEEPLES |   \
                    FXW_PLAYERS, .tiles = 4, .pennants = 2,                  \
                    .meeples = { 2, 1 }, .players = 1u << ADA)
/* The refs of a feature on these tiles, each a segment of it. */
#define TILE(kind, x, y) { (x), (y), (kind), 1 }

/* A square city of four tiles with two pennants, closed by Ben on turn
 * 4. Ada's knight stands on BA/RrC at (1,0); Ben's on the pennant tile at
 * (0,-1); Ada's flier (FL/F.o at (2,0), W, roll 1) lands a second knight
 * beside her first. Ada 2 knights, Ben 1: Ada scores 12 alone. */
#define MAJORITY_CITY                                                      \
    FX_PLACE(ADA, "BA/RrC", 1, 0, 0),                                      \
    FX_DEPLOY(ADA, 1, 0, FEAT_CITY, "N"), FX_COMMIT(ADA),                  \
    FX_PLACE(BEN, "BA/Cc+", 0, -1, 2),                                     \
    FX_DEPLOY(BEN, 0, -1, FEAT_CITY, "SE"), FX_COMMIT(BEN),                \
    FX_PLACE(ADA, "FL/F.o", 2, 0, 0), FX_FLY(ADA, 2, 0, 1),                \
    FX_DEPLOY(ADA, 1, 0, FEAT_CITY, "N"), FX_COMMIT(ADA),                  \
    FX_PLACE(BEN, "BA/Cc+", 1, -1, 3), FX_PASS(BEN), FX_COMMIT(BEN)

/* Ada's monk on BA/L at (0,1); eight turns fill its 3x3 block. */
static const struct fx_step monastery[] = {
    FX_PLACE(ADA, "BA/L", 0, 1, 0),
    FX_DEPLOY(ADA, 0, 1, FEAT_MONASTERY, "I"), FX_COMMIT(ADA),
    FX_PLACE(BEN, "BA/RFr", 1, 0, 0), FX_PASS(BEN), FX_COMMIT(BEN),
    FX_PLACE(ADA, "BA/RFr", -1, 0, 0), FX_PASS(ADA), FX_COMMIT(ADA),
    FX_PLACE(BEN, "BA/L", 1, 1, 0), FX_PASS(BEN), FX_COMMIT(BEN),
    FX_PLACE(ADA, "BA/L", -1, 1, 0), FX_PASS(ADA), FX_COMMIT(ADA),
    FX_PLACE(BEN, "BA/L", 0, 2, 0), FX_PASS(BEN), FX_COMMIT(BEN),
    FX_PLACE(ADA, "FL/F.o", 1, 2, 0), FX_PASS(ADA), FX_COMMIT(ADA),
    FX_PLACE(BEN, "FL/F.d", -1, 2, 0), FX_PASS(BEN), FX_COMMIT(BEN),
};

/* BA/C closing the start city with Ada's knight: 4 points, or 2 under
 * tiny-city-scoring=2, and the receipt says which. */
#define TINY_CITY                                                          \
    FX_PLACE(ADA, "BA/C", 0, -1, 2),                                       \
    FX_DEPLOY(ADA, 0, -1, FEAT_CITY, "S"), FX_COMMIT(ADA)

static const struct game_case games[] = {
    { "city: Ada's majority of knights", c2, STEPS(MAJORITY_CITY), false,
      1, { CITY4 },
      { "city, 4 tiles + 2 pennants, completed: 4×2 + 2×2 = 12; Ada 2 "
        "knights, Ben 1 → Ada 12" },
      { TILE(FEAT_CITY, 0, 0), TILE(FEAT_CITY, 1, 0),
        TILE(FEAT_CITY, 0, -1), TILE(FEAT_CITY, 1, -1) }, 4, { 12, 0 } },
    /* The same city without the flight: one knight each, both score 12. */
    { "city: a tie", c2, STEPS(
          FX_PLACE(ADA, "BA/RrC", 1, 0, 0),
          FX_DEPLOY(ADA, 1, 0, FEAT_CITY, "N"), FX_COMMIT(ADA),
          FX_PLACE(BEN, "BA/Cc+", 0, -1, 2),
          FX_DEPLOY(BEN, 0, -1, FEAT_CITY, "SE"), FX_COMMIT(BEN),
          FX_PLACE(ADA, "BA/Cc+", 1, -1, 3), FX_PASS(ADA), FX_COMMIT(ADA)),
      false, 1, { FX_EV(3, FEAT_CITY, FXW_PLAYERS, .players = 3u) },
      { "city, 4 tiles + 2 pennants, completed: 4×2 + 2×2 = 12; Ada 1 "
        "knight, Ben 1 → Ada, Ben 12 each" },
      { { 0 } }, 0, { 12, 12 } },
    /* An open two-tile city with a pennant at the end: 1 per tile and
     * pennant. */
    { "city: incomplete at the end", c2, STEPS(
          FX_PLACE(ADA, "BA/Cc+", 0, -1, 2),
          FX_DEPLOY(ADA, 0, -1, FEAT_CITY, "SE"), FX_COMMIT(ADA)),
      true, 1, { FX_EV(-1, FEAT_CITY, FXW_COMPLETED, .completed = false) },
      { "city, 2 tiles + 1 pennant, incomplete: 2×1 + 1×1 = 3; Ada 1 "
        "knight → Ada 3" },
      { TILE(FEAT_CITY, 0, 0), TILE(FEAT_CITY, 0, -1) }, 2, { 0 } },
    /* A road loop through a crossing: BA/RRRR at (1,0), its E and S arms
     * joined by three curves. The crossing holds two segments of the road
     * but counts, and is listed, once: 4 tiles. */
    { "road: a loop through a crossing", c2, STEPS(
          FX_PLACE(ADA, "BA/RRRR", 1, 0, 0),
          FX_DEPLOY(ADA, 1, 0, FEAT_ROAD, "E"), FX_COMMIT(ADA),
          FX_PLACE(BEN, "BA/Rr", 2, 0, 0), FX_PASS(BEN), FX_COMMIT(BEN),
          FX_PLACE(ADA, "BA/Rr", 2, 1, 1), FX_PASS(ADA), FX_COMMIT(ADA),
          FX_PLACE(BEN, "BA/Rr", 1, 1, 2), FX_PASS(BEN), FX_COMMIT(BEN)),
      false, 1, { FX_EV(4, FEAT_ROAD, FXW_TILES, .tiles = 4) },
      { "road, 4 tiles, completed: 4×1 = 4; Ada 1 highwayman → Ada 4" },
      { TILE(FEAT_ROAD, 1, 0), TILE(FEAT_ROAD, 2, 0), TILE(FEAT_ROAD, 2, 1),
        TILE(FEAT_ROAD, 1, 1) }, 4, { 0 } },
    { "monastery: complete", c2, monastery, N_OF(monastery), false, 1,
      { FX_EV(8, FEAT_MONASTERY, FXW_COMPLETED, .completed = true) },
      { "monastery, completed (all 8 neighbours): 9; Ada 1 monk → Ada 9" },
      { TILE(FEAT_MONASTERY, 0, 1) }, 1, { 0 } },
    /* After turn 5 the block holds the monastery and 5 neighbours. */
    { "monastery: incomplete", c2, monastery, 5 * 3, true, 1,
      { FX_EV(-1, FEAT_MONASTERY, 0) },
      { "monastery, incomplete: 1 + 5 neighbours = 6; Ada 1 monk → Ada 6" },
      { { 0 } }, 0, { 0 } },
    /* C3: Ada's abbot on the garden of BA/RFrG at (1,0); on turn 3 she
     * places BA/L below it and takes the abbot back: 1 + 3 neighbours. */
    { "garden: the abbot recalled", c3, STEPS(
          FX_PLACE(ADA, "BA/RFrG", 1, 0, 0),
          FX_DEPLOY_N(ADA, 1, 0, FEAT_GARDEN, "I", FIG_ABBOT, 1),
          FX_COMMIT(ADA),
          FX_PLACE(BEN, "BA/RFr", 2, 0, 0), FX_PASS(BEN), FX_COMMIT(BEN),
          FX_PLACE(ADA, "BA/L", 1, 1, 0),
          FX_RECALL(ADA, 1, 0, FEAT_GARDEN, FIG_ABBOT), FX_COMMIT(ADA)),
      false, 1, { FX_EV(3, FEAT_GARDEN, FXW_RECALL, .recall = true) },
      { "abbot recalled from the garden, incomplete: 1 + 3 neighbours = 4; "
        "Ada 1 abbot → Ada 4" },
      { TILE(FEAT_GARDEN, 1, 0) }, 1, { 0 } },
    /* C3: the same with Ada's abbot on the monastery of BA/L at (0,1). The
     * meeple counted is the abbot that was recalled, not a monk: a receipt
     * reading "abbot recalled from the monastery ...; Ada 1 monk"
     * contradicts itself (as `flierd audit --explain
     * samples/c3-4p-abbots.jcz` prints at turns 48 and 71). */
    { "monastery: the recall counts the abbot", c3, STEPS(
          FX_PLACE(ADA, "BA/L", 0, 1, 0),
          FX_DEPLOY_N(ADA, 0, 1, FEAT_MONASTERY, "I", FIG_ABBOT, 1),
          FX_COMMIT(ADA),
          FX_PLACE(BEN, "BA/RFr", 1, 0, 0), FX_PASS(BEN), FX_COMMIT(BEN),
          FX_PLACE(ADA, "BA/L", 1, 1, 0),
          FX_RECALL(ADA, 0, 1, FEAT_MONASTERY, FIG_ABBOT), FX_COMMIT(ADA)),
      false, 1, { FX_EV(3, FEAT_MONASTERY, FXW_RECALL | FXW_POINTS,
                        .recall = true, .points = 4) },
      { "abbot recalled from the monastery, incomplete: 1 + 3 neighbours = "
        "4; Ada 1 abbot → Ada 4" },
      { { 0 } }, 0, { 0 } },
    /* Ada's farmer in the strip north of the road on BA/RCr at (-1,0),
     * which runs on into the start tile's: it touches the start city and
     * the city of (-1,0), both closed by BA/C caps. Each city is listed
     * once, by its lowest tile and its size. */
    { "field: two cities", c2, STEPS(
          FX_PLACE(ADA, "BA/RCr", -1, 0, 0),
          FX_DEPLOY(ADA, -1, 0, FEAT_FIELD, "EL.WR"), FX_COMMIT(ADA),
          FX_PLACE(BEN, "BA/C", 0, -1, 2), FX_PASS(BEN), FX_COMMIT(BEN),
          FX_PLACE(ADA, "BA/C", -1, -1, 2), FX_PASS(ADA), FX_COMMIT(ADA)),
      true, 1, { FX_EV(-1, FEAT_FIELD, FXW_CITIES | FXW_POINTS | FXW_N_REFS,
                       .cities = 2, .points = 6, .n_refs = 2) },
      { "field touching 2 completed cities [(0,0) 2 tiles, (-1,0) 2 "
        "tiles]: 2×3 = 6; Ada 1 farmer → Ada 6" },
      { { 0, 0, FEAT_CITY, 2 }, { -1, 0, FEAT_CITY, 2 } }, 2, { 0 } },
    /* The strip north of the road on the start tile and on BA/RCr at
     * (1,0) is one field; above it two BA/Cc.1 close the two city caps
     * into one square city of 4 tiles. The field touches that city on two
     * tiles but counts, and lists, it once. */
    { "field: the same city twice", c2, STEPS(
          FX_PLACE(ADA, "BA/RCr", 1, 0, 0),
          FX_DEPLOY(ADA, 1, 0, FEAT_FIELD, "EL.WR"), FX_COMMIT(ADA),
          FX_PLACE(BEN, "BA/Cc.1", 0, -1, 2), FX_PASS(BEN), FX_COMMIT(BEN),
          FX_PLACE(ADA, "BA/Cc.1", 1, -1, 3), FX_PASS(ADA), FX_COMMIT(ADA)),
      true, 1, { FX_EV(-1, FEAT_FIELD, FXW_CITIES | FXW_POINTS | FXW_N_REFS,
                       .cities = 1, .points = 3, .n_refs = 1) },
      { "field touching 1 completed city [(0,0) 4 tiles]: 1×3 = 3; Ada 1 "
        "farmer → Ada 3" },
      { { 0, 0, FEAT_CITY, 4 } }, 1, { 0 } },
    { "city: two tiles, scored as usual", c2, STEPS(TINY_CITY), false, 0,
      { FX_EV(1, FEAT_CITY, FXW_TINY, .tiny = false) },
      { "city, 2 tiles, completed: 2×2 = 4; Ada 1 knight → Ada 4" },
      { { 0 } }, 0, { 0 } },
    { "city: two tiles, the tiny-city rule", c2_tiny, STEPS(TINY_CITY),
      false, 1, { FX_EV(1, FEAT_CITY, FXW_TINY | FXW_POINTS, .tiny = true,
                        .points = 2) },
      { "city, 2 tiles, completed (tiny-city rule): 2×1 = 2; Ada 1 knight "
        "→ Ada 2" },
      { { 0 } }, 0, { 2, ANY } },
    /* Ada's mayor in the start's city, which BA/Cc+ turns east (turn 3,
     * one pennant); Ben's knight in BA/C at (2,-1) (turn 4); Ada's BA/CFc
     * joins and closes the two (turn 5): strength 1 each, a tie. */
    { "mayor: a tie with a knight", am_tb, STEPS(
          FX_PLACE(ADA, "BA/RFr", 1, 0, 0), FX_PASS(ADA), FX_COMMIT(ADA),
          FX_PLACE(BEN, "BA/RFr", 2, 0, 0), FX_PASS(BEN), FX_COMMIT(BEN),
          FX_PLACE(ADA, "BA/Cc+", 0, -1, 2),
          FX_DEPLOY_N(ADA, 0, -1, FEAT_CITY, "ES", FIG_MAYOR, 1),
          FX_COMMIT(ADA),
          FX_PLACE(BEN, "BA/C", 2, -1, 3),
          FX_DEPLOY(BEN, 2, -1, FEAT_CITY, "W"), FX_COMMIT(BEN),
          FX_PLACE(ADA, "BA/CFc.1", 1, -1, 0), FX_PASS(ADA),
          FX_COMMIT(ADA)),
      false, 0, { FX_EV(5, FEAT_CITY, FXW_BY_EXPR, .expr = EXPR_DONE) },
      { "city, 4 tiles + 1 pennant, completed: 4×2 + 1×2 = 10; Ada 1 mayor "
        "(strength 1), Ben 1 knight (strength 1) → Ada, Ben 10 each" },
      { { 0 } }, 0, { 0 } },
    { "mayor: alone in a city with no pennant", am_tb, STEPS(
          FX_PLACE(ADA, "BA/C", 0, -1, 2),
          FX_DEPLOY_N(ADA, 0, -1, FEAT_CITY, "S", FIG_MAYOR, 1),
          FX_COMMIT(ADA)),
      false, 0, { FX_EV(1, FEAT_CITY, FXW_BY_EXPR, .expr = EXPR_EMPTY) },
      { "city, 2 tiles, completed, no one there has strength: 0; Ada 1 "
        "mayor (strength 0) → Ada 0" },
      { { 0 } }, 0, { 0 } },
    /* Ada's farmer north of the road east of the start; Ben's south of
     * it, where BA/C (turns 2, 3) makes a city and closes it. Ben's barn
     * at the corner south-east of the start (on (1,1), turn 4) scores
     * Ben's farmer 3 for that city; Ada's BA/LR ends the road at (2,0)
     * (turn 5), joining the fields: Ada's farmer 1 a city. At the end the
     * barn scores 4. */
    { "barn: placed, joined, and at the end", am_tb, STEPS(
          FX_PLACE(ADA, "BA/RFr", 1, 0, 0),
          FX_DEPLOY(ADA, 1, 0, FEAT_FIELD, "WR.NL.NR.EL"), FX_COMMIT(ADA),
          FX_PLACE(BEN, "BA/C", 0, 1, 2),
          FX_DEPLOY(BEN, 0, 1, FEAT_FIELD, "NL.NR.EL.ER.WL.WR"),
          FX_COMMIT(BEN),
          FX_PLACE(ADA, "BA/C", 0, 2, 0), FX_PASS(ADA), FX_COMMIT(ADA),
          FX_PLACE(BEN, "BA/L", 1, 1, 0),
          FX_DEPLOY_N(BEN, 1, 1, FEAT_FIELD, "NL.NR.EL.ER.SL.SR.WL.WR",
                      FIG_BARN, 1),
          FX_COMMIT(BEN),
          FX_PLACE(ADA, "BA/LR", 2, 0, 1), FX_PASS(ADA), FX_COMMIT(ADA)),
      true, 0,
      { FX_EV(4, FEAT_FIELD, FXW_BY_EXPR, .expr = EXPR_BARN_PLACED),
        FX_EV(5, FEAT_FIELD, FXW_BY_EXPR, .expr = EXPR_BARN_CONNECTED),
        FX_EV(-1, FEAT_BARN, FXW_BY_EXPR, .expr = EXPR_DONE) },
      { "field touching 1 completed city [(0,1) 2 tiles], a barn placed on "
        "it: 1×3 = 3; Ben 1 farmer and 1 barn → Ben 3",
        "field touching 1 completed city [(0,1) 2 tiles], joined to a barn: "
        "1×1 = 1; Ada 1 farmer, Ben 1 barn → Ada 1",
        "barn in a field touching 1 completed city [(0,1) 2 tiles]: 1×4 = 4; "
        "Ben 1 barn → Ben 4" },
      { { 0 } }, 0, { 0 } },
    /* Ada's wagon on the road east of the start; Ben's crossroads BA/RRR
     * ends it at (2,0), Ada's BA/LR at (-1,0) closes it (turn 3); the
     * wagon then stays in supply. */
    { "wagon: on a road", am_tb, STEPS(
          FX_PLACE(ADA, "BA/RFr", 1, 0, 0),
          FX_DEPLOY_N(ADA, 1, 0, FEAT_ROAD, "WE", FIG_WAGON, 1),
          FX_COMMIT(ADA),
          FX_PLACE(BEN, "BA/RRR", 2, 0, 0), FX_PASS(BEN), FX_COMMIT(BEN),
          FX_PLACE(ADA, "BA/LR", -1, 0, 3), FX_PASS(ADA), FX_COMMIT(ADA),
          FX_PASS(ADA)),
      false, 0, { FX_EV(3, FEAT_ROAD, FXW_BY_EXPR, .expr = EXPR_DONE) },
      { "road, 4 tiles, completed: 4×1 = 4; Ada 1 wagon → Ada 4" },
      { { 0 } }, 0, { 0 } },
    /* Ada's farmer and pig in the field north of the road, beside the
     * start's city that Ben completes (turn 4) with the wine of TB/CFc.w;
     * Ada's highwayman (turn 5) and builder (turn 7) on the road east of
     * the start. At the end the field scores 3 and 1 for the pig, the
     * road its five tiles, and Ben, who completed the city, the wine. */
    { "traders: pig, builder and wine", am_tb, STEPS(
          FX_PLACE(ADA, "BA/RFr", 1, 0, 0),
          FX_DEPLOY(ADA, 1, 0, FEAT_FIELD, "WR.NL.NR.EL"), FX_COMMIT(ADA),
          FX_PLACE(BEN, "TB/CFc.w", 0, -1, 1), FX_PASS(BEN),
          FX_COMMIT(BEN),
          FX_PLACE(ADA, "BA/RFr", 2, 0, 0),
          FX_DEPLOY_N(ADA, 2, 0, FEAT_FIELD, "WR.NL.NR.EL", FIG_PIG, 1),
          FX_COMMIT(ADA),
          FX_PLACE(BEN, "BA/C", 0, -2, 2), FX_PASS(BEN), FX_COMMIT(BEN),
          FX_PLACE(ADA, "BA/RFr", 3, 0, 0),
          FX_DEPLOY(ADA, 3, 0, FEAT_ROAD, "WE"), FX_COMMIT(ADA),
          FX_PLACE(BEN, "BA/L", 0, 1, 0), FX_PASS(BEN), FX_COMMIT(BEN),
          FX_PLACE(ADA, "BA/RFr", 4, 0, 0),
          FX_DEPLOY_N(ADA, 4, 0, FEAT_ROAD, "WE", FIG_BUILDER, 1),
          FX_COMMIT(ADA)),
      true, 0,
      { FX_EV(-1, FEAT_FIELD, FXW_BY_EXPR, .expr = EXPR_DONE),
        FX_EV(-1, FEAT_ROAD, FXW_BY_EXPR, .expr = EXPR_INCOMPLETE),
        FX_EV(-1, FEAT_TRADE_GOODS, FXW_BY_EXPR, .expr = EXPR_DONE) },
      { "field touching 1 completed city [(0,0) 3 tiles]: 1×3 + 1 (pigs) = "
        "4; Ada 1 farmer and 1 pig → Ada 4",
        "road, 5 tiles, incomplete: 5×1 = 5; Ada 1 highwayman and 1 builder "
        "→ Ada 5",
        "trade goods, wine: Ada 0, Ben 1; 10 for the most (1) → Ben 10" },
      { { 0 } }, 0, { 0 } },
};

/* The refs of ev are exactly c's, each once. */
static void expect_refs(const struct game_case *c, const struct report *rep,
                        const struct score_event *ev)
{
    if (ev->n_refs != c->n_refs || ev->ref0 + ev->n_refs > rep->n_refs)
        fail_msg("%s: %u refs from %u of %zu, expected %zu", c->name,
                 ev->n_refs, ev->ref0, rep->n_refs, c->n_refs);
    for (size_t w = 0; w < c->n_refs; w++) {
        const struct want_ref *want = &c->refs[w];
        int seen = 0;
        for (unsigned k = 0; k < ev->n_refs; k++) {
            const struct feature_ref *f = &rep->refs[ev->ref0 + k];
            if (f->x != want->x || f->y != want->y)
                continue;
            seen++;
            if (f->kind != want->kind || f->size != want->size)
                fail_msg("%s: the ref at (%d,%d) is a %s of size %d, "
                         "expected a %s of size %d", c->name, want->x,
                         want->y, feat_name(f->kind), f->size,
                         feat_name(want->kind), want->size);
        }
        if (seen != 1)
            fail_msg("%s: (%d,%d) appears %d times in the refs", c->name,
                     want->x, want->y, seen);
    }
}

/* Everything c pins of rep but the receipts. */
static void expect_game(const struct game_case *c, const struct report *rep)
{
    for (size_t i = 0; i < rep->n_violations; i++)
        print_error("%s: unexpected %s at turn %d: %s\n", c->name,
                    rule_id(rep->violations[i].rule),
                    rep->violations[i].turn, rep->violations[i].msg);
    if (!rep->valid)
        fail_msg("%s: the game is invalid", c->name);
    if (c->n_events && rep->n_events != c->n_events)
        fail_msg("%s: %zu events, expected %zu", c->name, rep->n_events,
                 c->n_events);
    fx_expect_events(c->name, rep, c->events, N_OF(c->events));
    if (c->n_refs)
        expect_refs(c, rep, fx_find_event(c->name, rep, &c->events[0]));
    for (int p = 0; p < 2; p++)
        if (c->score[p] != ANY && (c->score[0] || c->score[1]) &&
            rep->score[p] != c->score[p])
            fail_msg("%s: seat %d scored %d, expected %d", c->name, p,
                     rep->score[p], c->score[p]);
}

/* One row of games[]: the game is valid, its events and refs are the
 * row's, and each event's receipt is the row's sentence. The receipts
 * are compared after the log and report are released, so that a wrong
 * sentence leaks nothing under ASan. */
static void test_game(void **state)
{
    const struct game_case *c = *state;
    struct rules r = c->rules();
    struct audit_opts o = { .assume_finished = c->finish };
    struct game_log l;
    struct report rep;
    char got[N_OF(c->receipts)][600];
    fx_log_init(&l, &r);
    name_players(&l);
    fx_log_add(&l, c->steps, c->n);
    audit_run(&l, &o, &rep, NULL);
    expect_game(c, &rep);
    for (size_t i = 0; i < N_OF(c->receipts) && c->receipts[i]; i++) {
        const struct score_event *ev =
            fx_find_event(c->name, &rep, &c->events[i]);
        receipt_format(&l, &rep, (size_t)(ev - rep.events), got[i],
                       sizeof got[i]);
    }
    report_release(&rep);
    game_log_release(&l);
    for (size_t i = 0; i < N_OF(c->receipts) && c->receipts[i]; i++)
        if (strcmp(got[i], c->receipts[i]) != 0)
            fail_msg("%s, event %zu:\n  got  '%s'\n  want '%s'", c->name, i,
                     got[i], c->receipts[i]);
}

int main(void)
{
    static struct fx_tests ts;
    FX_ROWS(&ts, sentences, test_sentence);
    FX_TEST(&ts, test_short_buffer);
    FX_TEST(&ts, test_seats_format);
    FX_ROWS(&ts, games, test_game);
    return fx_tests_run("test_receipt", &ts);
}
