/* test_flierlog.c - the flierlog reader and writers (src/mlog/flierlog*.c),
 * the .jcz "flierd" object, `flierd convert`, and the round trips.
 *
 * Tables say what every field reads as and which status and message each
 * malformed input gives (the message must name the JSON path, and the
 * line in the streaming form). The round trips: every sample .jcz (and
 * forged one) -> flierlog -> .jcz audits the same; every log -> flierlog
 * -> .jcz -> flierlog is the same log; simulated games and random logs go
 * through both formats unchanged. */
#include <stdarg.h> /* cmocka 1.1.5 needs these four first */
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cli/cli.h"
#include "core/audit.h"
#include "core/replay.h"
#include "mlog/mlog.h"
#include "sim/sim.h"

#include "fx_cases.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

/* ---- building inline flierlogs ------------------------------------------ */

struct fdoc {
    const char *format;  /* NULL: "flierlog/1"; "-": no "format" */
    const char *edition; /* NULL: "C2"; "-": no "edition" */
    const char *players; /* members of "players"; NULL: Ada, Ben */
    const char *header;  /* more members, each with a leading comma */
    const char *turns;   /* members of "turns"; NULL: none */
    const char *final;   /* NULL: no "final" */
};

static const char *build(const struct fdoc *d)
{
    static char text[16384];
    char fmt[96] = "", ed[64] = "", fin[2048] = "";
    if (!d->format || strcmp(d->format, "-") != 0)
        snprintf(fmt, sizeof fmt, "\"format\": \"%s\", ",
                 d->format ? d->format : "flierlog/1");
    if (!d->edition || strcmp(d->edition, "-") != 0)
        snprintf(ed, sizeof ed, "\"edition\": \"%s\", ",
                 d->edition ? d->edition : "C2");
    if (d->final)
        snprintf(fin, sizeof fin, ", \"final\": %s", d->final);
    int n = snprintf(text, sizeof text,
                     "{%s%s\"players\": [%s]%s, \"turns\": [%s]%s}", fmt, ed,
                     d->players ? d->players
                                : "{\"name\": \"Ada\"}, {\"name\": \"Ben\"}",
                     d->header ? d->header : "", d->turns ? d->turns : "",
                     fin);
    assert_true(n > 0 && (size_t)n < sizeof text);
    return text;
}

static enum status parse_text(const char *text, size_t len,
                              struct game_log *l, enum mlog_format *fmt,
                              struct err *e)
{
    game_log_init(l);
    err_clear(e);
    return mlog_parse(text, len, l, fmt, e);
}

/* Parses text, which must be a valid flierlog; the caller releases l. */
static void parse_ok_text(const char *text, struct game_log *l)
{
    struct err e;
    enum mlog_format fmt;
    enum status st = parse_text(text, strlen(text), l, &fmt, &e);
    if (st != ST_OK) {
        game_log_release(l);
        fail_msg("%s: %s\n  in %s", status_name(st), e.msg, text);
    }
    assert_int_equal(fmt, MLOG_FLIERLOG);
}

static void parse_ok(const struct fdoc *d, struct game_log *l)
{
    parse_ok_text(build(d), l);
}

static void same(const char *what, const char *field, long got, long want)
{
    if (got != want)
        fail_msg("%s: %s is %ld, expected %ld", what, field, got, want);
}

/* ---- the setup ---------------------------------------------------------- */

/* With no setup keys: the edition's rules (rows of override_cases),
 * two players, the start tile, no end and no moves. */
static void test_edition_defaults(void **state)
{
    struct game_log l;
    (void)state;
    parse_ok(&(struct fdoc){ 0 }, &l);
    assert_int_equal(l.rules.n_players, 2);
    assert_string_equal(l.names[0], "Ada");
    assert_string_equal(l.names[1], "Ben");
    assert_string_equal(l.colors[0], "");
    assert_int_equal(l.start_tile, tile_find("BA/RCr"));
    assert_int_equal(l.start_at.x, 0);
    assert_int_equal(l.start_at.y, 0);
    assert_int_equal(l.start_rot, 0);
    assert_int_equal(l.end_turn, -1);
    assert_int_equal(l.n_moves, 0);
    game_log_release(&l);
}

static const struct {
    const char *header;
    const char *edition;
    int basic1, basic2, flier1, flier2, followers, abbots;
    bool farmers, gardens;
    int tiny_city;
    int wagon_move;
} override_cases[] = {
    /* the editions' defaults */
    { NULL, "C2", 1, 0, 1, 0, 7, 0, true, false, 4, 0 },
    { NULL, "C3", 0, 1, 0, 1, 7, 1, true, true, 4, 0 },
    { ", \"sets\": {\"basic:1\": 2, \"flier:2\": 1}", "C2", 2, 0, 0, 1, 7, 0,
      true, false, 4, 0 },
    { ", \"followers\": 5, \"farmers\": false", "C2", 1, 0, 1, 0, 5, 0, false,
      false, 4, 0 },
    { ", \"abbot\": true, \"gardens\": true", "C2", 1, 0, 1, 0, 7, 1, true,
      true, 4, 0 },
    { ", \"abbot\": 0", "C3", 0, 1, 0, 1, 7, 0, true, true, 4, 0 },
    { ", \"abbot\": false, \"gardens\": false", "C3", 0, 1, 0, 1, 7, 0, true,
      false, 4, 0 },
    { ", \"rules\": {\"tiny-city-scoring\": 2}", "C2", 1, 0, 1, 0, 7, 0, true,
      false, 2, 0 },
    { ", \"rules\": {\"tiny-city-scoring\": \"2\"}", "C3", 0, 1, 0, 1, 7, 1,
      true, true, 2, 0 },
    { ", \"rules\": {\"tiny-city-scoring\": 4}", "C2", 1, 0, 1, 0, 7, 0, true,
      false, 4, 0 },
    /* a minor version's key we do not know is ignored */
    { ", \"weather\": \"rain\"", "C2", 1, 0, 1, 0, 7, 0, true, false, 4, 0 },
    /* any variant of the options table, as JCloisterZone writes it */
    { ", \"rules\": {\"wagon-move\": \"C1\"}", "C2", 1, 0, 1, 0, 7, 0, true,
      false, 4, 1 },
    { ", \"rules\": {\"wagon-move\": \"C2\", \"tiny-city-scoring\": 2}", "C2",
      1, 0, 1, 0, 7, 0, true, false, 2, 2 },
};

static void expect_lossless(const char *what, const struct game_log *l);

static void test_header_overrides(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_OF(override_cases); i++) {
        struct game_log l;
        const char *hd = override_cases[i].header;
        const char *h = hd ? hd : override_cases[i].edition;
        parse_ok(&(struct fdoc){ .header = hd,
                                 .edition = override_cases[i].edition },
                 &l);
        const struct rules *r = &l.rules;
        same(h, "basic:1", r->set_copies[tile_set_find("basic:1")],
             override_cases[i].basic1);
        same(h, "basic:2", r->set_copies[tile_set_find("basic:2")],
             override_cases[i].basic2);
        same(h, "flier:1", r->set_copies[tile_set_find("flier:1")],
             override_cases[i].flier1);
        same(h, "flier:2", r->set_copies[tile_set_find("flier:2")],
             override_cases[i].flier2);
        same(h, "followers", r->figures[FIG_SMALL], override_cases[i].followers);
        same(h, "abbots", r->figures[FIG_ABBOT], override_cases[i].abbots);
        same(h, "farmers", ((r->flags & RF_FARMERS) != 0), override_cases[i].farmers);
        same(h, "gardens", ((r->flags & RF_GARDENS) != 0), override_cases[i].gardens);
        same(h, "tiny city", r->opt[OPT_TINY_CITY], override_cases[i].tiny_city);
        same(h, "wagon move", r->opt[OPT_WAGON_MOVE],
             override_cases[i].wagon_move ? override_cases[i].wagon_move
                                          : option_default(OPT_WAGON_MOVE));
        expect_lossless(h, &l);
        game_log_release(&l);
    }
}

/* flierlog/1.1's "elements", by the units' tables, over the edition's
 * defaults: figure counts (or true / false), switches (or 1 / 0, as
 * JCloisterZone writes the garden). */
#define F7 [FIG_SMALL] = 7
static const struct {
    const char *edition, *header;
    uint8_t figures[FIG__COUNT];
    uint32_t flags;
} element_cases[] = {
    { "C2",
      ", \"elements\": {\"big-follower\": 1, \"inn\": true, \"cathedral\": "
      "true}",
      { F7, [FIG_BIG] = 1 }, RF_FARMERS | RF_INNS | RF_CATHEDRALS },
    { "C3", ", \"elements\": {\"phantom\": 1}",
      { F7, [FIG_ABBOT] = 1, [FIG_PHANTOM] = 1 }, RF_FARMERS | RF_GARDENS },
    /* a JCloisterZone setup.elements copied as it is */
    { "C2",
      ", \"elements\": {\"small-follower\": 7, \"farmers\": true, "
      "\"abbot\": 1, \"garden\": 1, \"big-follower\": 1, \"inn\": true, "
      "\"cathedral\": true, \"phantom\": 1}",
      { F7, [FIG_ABBOT] = 1, [FIG_BIG] = 1, [FIG_PHANTOM] = 1 },
      RF_FARMERS | RF_GARDENS | RF_INNS | RF_CATHEDRALS },
    /* switched off; true counts one */
    { "C3",
      ", \"elements\": {\"farmers\": false, \"garden\": 0, "
      "\"small-follower\": 3, \"phantom\": true, \"abbot\": false}",
      { [FIG_SMALL] = 3, [FIG_PHANTOM] = 1 }, 0 },
    /* another expansion's element switched off: nothing to model */
    { "C2", ", \"elements\": {\"tower\": false, \"gold\": 0, \"catapult\": null}",
      { F7 }, RF_FARMERS },
    /* flierlog/1.0's keys beside elements they do not name */
    { "C2", ", \"followers\": 5, \"gardens\": true, \"elements\": "
            "{\"big-follower\": 1}",
      { [FIG_SMALL] = 5, [FIG_BIG] = 1 }, RF_FARMERS | RF_GARDENS },
    { "C2", ", \"elements\": {}", { F7 }, RF_FARMERS },
};

static void test_header_elements(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_OF(element_cases); i++) {
        struct game_log l;
        const char *h = element_cases[i].header;
        parse_ok(&(struct fdoc){ .header = h,
                                 .edition = element_cases[i].edition },
                 &l);
        for (int f = 0; f < FIG__COUNT; f++)
            same(h, figure_class(f)->jcz, l.rules.figures[f],
                 element_cases[i].figures[f]);
        same(h, "flags", (long)l.rules.flags, (long)element_cases[i].flags);
        expect_lossless(h, &l);
        game_log_release(&l);
    }
}

static void test_header_start_players_end(void **state)
{
    struct game_log l;
    (void)state;
    parse_ok(&(struct fdoc){
                 .players = "{\"name\": \"Ada\", \"color\": \"red\"}, "
                            "{\"name\": \"Ben\"}, {\"name\": \"Cleo\", "
                            "\"color\": \"#00ff00\"}",
                 .header = ", \"start\": {\"tile\": \"BA/CRRR\", \"at\": [1, "
                           "-2], \"rot\": 270}" },
             &l);
    assert_int_equal(l.rules.n_players, 3);
    assert_string_equal(l.names[2], "Cleo");
    assert_string_equal(l.colors[0], "red");
    assert_string_equal(l.colors[1], "");
    assert_string_equal(l.colors[2], "#00ff00");
    assert_int_equal(l.start_tile, tile_find("BA/CRRR"));
    assert_int_equal(l.start_at.x, 1);
    assert_int_equal(l.start_at.y, -2);
    assert_int_equal(l.start_rot, 3);
    game_log_release(&l);
    /* "final" ends the game after the last turn; "end_turn" overrides */
    static const struct {
        const char *header, *final;
        int end;
    } ends[] = {
        { NULL, "{}", 2 },
        { NULL, NULL, -1 },
        { ", \"end_turn\": 5", "{}", 5 },
        { ", \"end_turn\": 1", NULL, 1 },
        { ", \"end_turn\": null", "{}", -1 },
    };
    for (size_t i = 0; i < N_OF(ends); i++) {
        parse_ok(&(struct fdoc){
                     .header = ends[i].header, .final = ends[i].final,
                     .turns = "{\"tile\": \"BA/RFr\", \"at\": [1, 0]}, "
                              "{\"tile\": \"BA/C\", \"discard\": true}, "
                              "{\"tile\": \"BA/RFr\", \"at\": [2, 0]}" },
                 &l);
        same(ends[i].header ? ends[i].header : "final", "end turn",
             l.end_turn, ends[i].end);
        game_log_release(&l);
    }
}

/* "flierlog/1" and any minor version are read; another major is not. */
static void test_versions(void **state)
{
    static const char *const ok[] = { "flierlog/1", "flierlog/1.0",
                                      "flierlog/1.7", "flierlog/1.x" };
    static const struct {
        const char *format, *msg;
    } refused[] = {
        { "flierlog/2",
          "unsupported: flierlog/2 (this flierd reads flierlog/1)" },
        { "flierlog/2.1",
          "unsupported: flierlog/2.1 (this flierd reads flierlog/1)" },
        { "flierlog/10",
          "unsupported: flierlog/10 (this flierd reads flierlog/1)" },
        { "flierlog/0",
          "unsupported: flierlog/0 (this flierd reads flierlog/1)" },
        { "flierlog/1x",
          "unsupported: flierlog/1x (this flierd reads flierlog/1)" },
        { "gamelog/1",
          "unsupported: format 'gamelog/1' (this flierd reads flierlog/1)" },
    };
    (void)state;
    for (size_t i = 0; i < N_OF(ok); i++) {
        struct game_log l;
        parse_ok(&(struct fdoc){ .format = ok[i] }, &l);
        game_log_release(&l);
    }
    for (size_t i = 0; i < N_OF(refused); i++) {
        struct game_log l;
        struct err e;
        enum mlog_format fmt;
        const char *t = build(&(struct fdoc){ .format = refused[i].format });
        assert_int_equal(parse_text(t, strlen(t), &l, &fmt, &e),
                         ST_UNSUPPORTED);
        assert_int_equal(fmt, MLOG_FLIERLOG);
        assert_string_equal(e.msg, refused[i].msg);
        game_log_release(&l);
        /* the same in the streaming form */
        char nd[512];
        snprintf(nd, sizeof nd, "{\"format\": \"%s\", \"edition\": \"C2\", "
                 "\"players\": [{\"name\": \"A\"}]}\n{\"tile\": \"BA/C\", "
                 "\"at\": [0, -1]}\n", refused[i].format);
        assert_int_equal(parse_text(nd, strlen(nd), &l, &fmt, &e),
                         ST_UNSUPPORTED);
        assert_string_equal(e.msg, refused[i].msg);
        game_log_release(&l);
    }
}

/* ---- turn entries ------------------------------------------------------- */

struct want {
    int kind, player;
    const char *tile;       /* place, discard */
    int x, y, rot, feature;
    unsigned mask;
    int meeple, n, owner, roll;
    double draw;
    unsigned src;
};

#define W_PLACE(p, id, x, y, r, d, s) \
    { MV_PLACE, p, id, x, y, r, 0, 0, 0, 0, -1, 0, d, s }
#define W_DISCARD(p, id, d, s) \
    { MV_DISCARD, p, id, 0, 0, 0, 0, 0, 0, 0, -1, 0, d, s }
#define W_DEPLOY(p, x, y, f, m, mk, n, o, s) \
    { MV_DEPLOY, p, NULL, x, y, 0, f, m, mk, n, o, 0, -1, s }
#define W_FLY(p, x, y, mk, n, o, roll, d, s) \
    { MV_DEPLOY, p, NULL, x, y, 0, FEAT_FLIER, 0, mk, n, o, roll, d, s }
#define W_RECALL(p, x, y, f, mk, n, o, s) \
    { MV_RECALL, p, NULL, x, y, 0, f, 0, mk, n, o, 0, -1, s }
#define W_PASS(p, s) { MV_PASS, p, NULL, 0, 0, 0, 0, 0, 0, 0, -1, 0, -1, s }
#define W_COMMIT(p, s) \
    { MV_COMMIT, p, NULL, 0, 0, 0, 0, 0, 0, 0, -1, 0, -1, s }
#define W_END { -1, 0, NULL, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 }

#define NS (EDGE_N | EDGE_S)
#define WE (EDGE_W | EDGE_E)

struct entry_case {
    const char *edition;
    const char *turns;
    struct want want[16];
};

static const struct entry_case entry_cases[] = {
    /* a placement and a deployment; the meeple is the seat on turn's */
    { NULL,
      "{\"turn\": 1, \"tile\": \"BA/RFr\", \"at\": [1, 0], \"rot\": 90, "
      "\"deploy\": \"road:NS\"}",
      { W_PLACE(-1, "BA/RFr", 1, 0, 1, -1, 0),
        W_DEPLOY(-1, 1, 0, FEAT_ROAD, NS, FIG_SMALL, 0, 0, 0), W_COMMIT(-1, 0),
        W_END } },
    /* "player" by name: every move names the seat, the meeple is its */
    { NULL,
      "{\"player\": \"Ben\", \"tile\": \"BA/RFr\", \"at\": [1, 0], \"rot\": "
      "180, \"draw\": 0.25, \"deploy\": \"field:NL.NR\"}",
      { W_PLACE(1, "BA/RFr", 1, 0, 2, 0.25, 0),
        W_DEPLOY(1, 1, 0, FEAT_FIELD, HE_NL | HE_NR, FIG_SMALL, 0, 1, 0),
        W_COMMIT(1, 0), W_END } },
    /* by seat number; an exact meeple */
    { NULL,
      "{\"player\": 1, \"tile\": \"BA/C\", \"at\": [0, -1], \"rot\": 270, "
      "\"deploy\": \"city:E\", \"meeple_id\": \"1.small.3\"}",
      { W_PLACE(1, "BA/C", 0, -1, 3, -1, 0),
        W_DEPLOY(1, 0, -1, FEAT_CITY, EDGE_E, FIG_SMALL, 3, 1, 0),
        W_COMMIT(1, 0), W_END } },
    /* an id naming another seat (the auditor's TURN_ORDER), or n 0 */
    { NULL,
      "{\"tile\": \"BA/C\", \"at\": [0, -1], \"deploy\": \"city:_W\", "
      "\"meeple_id\": \"1.small.0\"}",
      { W_PLACE(-1, "BA/C", 0, -1, 0, -1, 0),
        W_DEPLOY(-1, 0, -1, FEAT_CITY, EDGE_N | EDGE_E | EDGE_S, FIG_SMALL, 0,
                 1, 0),
        W_COMMIT(-1, 0), W_END } },
    /* an abbot, by kind or by id */
    { "C3",
      "{\"tile\": \"BA/L\", \"at\": [0, 1], \"deploy\": \"monastery\", "
      "\"meeple\": \"abbot\"}",
      { W_PLACE(-1, "BA/L", 0, 1, 0, -1, 0),
        W_DEPLOY(-1, 0, 1, FEAT_MONASTERY, 0, FIG_ABBOT, 0, 0, 0),
        W_COMMIT(-1, 0), W_END } },
    { "C3",
      "{\"tile\": \"BA/CcG\", \"at\": [0, -1], \"rot\": 180, \"deploy\": "
      "\"garden\", \"meeple\": \"abbot\", \"meeple_id\": \"0.abbot.1\"}",
      { W_PLACE(-1, "BA/CcG", 0, -1, 2, -1, 0),
        W_DEPLOY(-1, 0, -1, FEAT_GARDEN, 0, FIG_ABBOT, 1, 0, 0),
        W_COMMIT(-1, 0), W_END } },
    /* a flight landing on the rolled target: FL/F.o's arrow (W) turned
     * R90 points N, roll 1 reaches the start tile */
    { NULL,
      "{\"tile\": \"FL/F.o\", \"at\": [0, 1], \"rot\": 90, \"fly\": "
      "{\"roll\": 1, \"land\": \"city:N\"}}",
      { W_PLACE(-1, "FL/F.o", 0, 1, 1, -1, 0),
        W_FLY(-1, 0, 1, FIG_SMALL, 0, 0, 1, -1, 0),
        W_DEPLOY(-1, 0, 0, FEAT_CITY, EDGE_N, FIG_SMALL, 0, 0, 0),
        W_COMMIT(-1, 0), W_END } },
    /* a landing elsewhere (a WRONG_TARGET dispute), the die's number */
    { NULL,
      "{\"tile\": \"FL/F.o\", \"at\": [0, 1], \"rot\": 90, \"fly\": "
      "{\"roll\": 2, \"random\": 0.4, \"land\": {\"at\": [5, 5], "
      "\"segment\": \"road:WE\"}}, \"meeple_id\": \"0.small.2\"}",
      { W_PLACE(-1, "FL/F.o", 0, 1, 1, -1, 0),
        W_FLY(-1, 0, 1, FIG_SMALL, 2, 0, 2, 0.4, 0),
        W_DEPLOY(-1, 5, 5, FEAT_ROAD, WE, FIG_SMALL, 2, 0, 0),
        W_COMMIT(-1, 0), W_END } },
    /* returned: null, "returned" or no "land"; a random our writer would
     * give back anyway is not kept */
    { NULL,
      "{\"tile\": \"FL/F.o\", \"at\": [0, 1], \"fly\": {\"roll\": 2, "
      "\"random\": 0.5, \"land\": null}}",
      { W_PLACE(-1, "FL/F.o", 0, 1, 0, -1, 0),
        W_FLY(-1, 0, 1, FIG_SMALL, 0, 0, 2, -1, 0), W_COMMIT(-1, 0),
        W_END } },
    { NULL,
      "{\"tile\": \"FL/F.o\", \"at\": [0, 1], \"fly\": {\"roll\": 3, "
      "\"land\": \"returned\"}, \"meeple\": \"abbot\"}",
      { W_PLACE(-1, "FL/F.o", 0, 1, 0, -1, 0),
        W_FLY(-1, 0, 1, FIG_ABBOT, 0, 0, 3, -1, 0), W_COMMIT(-1, 0),
        W_END } },
    /* any integer roll is read; the auditor judges it */
    { NULL,
      "{\"player\": \"Ben\", \"tile\": \"FL/F.o\", \"at\": [0, 1], \"fly\": "
      "{\"roll\": -4}}",
      { W_PLACE(1, "FL/F.o", 0, 1, 0, -1, 0),
        W_FLY(1, 0, 1, FIG_SMALL, 0, 1, -4, -1, 0), W_COMMIT(1, 0), W_END } },
    /* recalls: the monastery or garden of the tile there */
    { "C3",
      "{\"tile\": \"BA/L\", \"at\": [0, 1], \"deploy\": \"monastery\", "
      "\"meeple\": \"abbot\"}, {\"tile\": \"BA/CcG\", \"at\": [0, -1], "
      "\"rot\": 180}, {\"tile\": \"BA/RFr\", \"at\": [1, 0], \"recall\": [0, "
      "1]}, {\"tile\": \"BA/RFr\", \"at\": [2, 0], \"recall\": [0, -1], "
      "\"meeple_id\": \"0.abbot.1\"}",
      { W_PLACE(-1, "BA/L", 0, 1, 0, -1, 0),
        W_DEPLOY(-1, 0, 1, FEAT_MONASTERY, 0, FIG_ABBOT, 0, 0, 0),
        W_COMMIT(-1, 0), W_PLACE(-1, "BA/CcG", 0, -1, 2, -1, 1),
        W_PASS(-1, 1), W_COMMIT(-1, 1), W_PLACE(-1, "BA/RFr", 1, 0, 0, -1, 2),
        W_RECALL(-1, 0, 1, FEAT_MONASTERY, FIG_ABBOT, 1, 0, 2),
        W_COMMIT(-1, 2), W_PLACE(-1, "BA/RFr", 2, 0, 0, -1, 3),
        W_RECALL(-1, 0, -1, FEAT_GARDEN, FIG_ABBOT, 1, 0, 3),
        W_COMMIT(-1, 3), W_END } },
    { "C3",
      "{\"tile\": \"BA/RFr\", \"at\": [1, 0], \"recall\": {\"at\": [4, 4], "
      "\"segment\": \"garden\"}, \"player\": \"Ben\"}",
      { W_PLACE(1, "BA/RFr", 1, 0, 0, -1, 0),
        W_RECALL(1, 4, 4, FEAT_GARDEN, FIG_ABBOT, 1, 1, 0), W_COMMIT(1, 0),
        W_END } },
    /* passes */
    { NULL, "{\"tile\": \"BA/RFr\", \"at\": [1, 0], \"pass\": true}",
      { W_PLACE(-1, "BA/RFr", 1, 0, 0, -1, 0), W_PASS(-1, 0),
        W_COMMIT(-1, 0), W_END } },
    { NULL, "{\"tile\": \"BA/RFr\", \"at\": [1, 0], \"pass\": false}",
      { W_PLACE(-1, "BA/RFr", 1, 0, 0, -1, 0), W_COMMIT(-1, 0), W_END } },
    { NULL,
      "{\"tile\": \"FL/F.o\", \"at\": [0, 1], \"fly\": {\"roll\": 1}, "
      "\"pass\": true}",
      { W_PLACE(-1, "FL/F.o", 0, 1, 0, -1, 0),
        W_FLY(-1, 0, 1, FIG_SMALL, 0, 0, 1, -1, 0), W_PASS(-1, 0),
        W_COMMIT(-1, 0), W_END } },
    /* a discard is no turn: the same player draws again */
    { NULL,
      "{\"player\": \"Ada\", \"tile\": \"BA/CCG\", \"discard\": true, "
      "\"draw\": 0.3}, {\"turn\": 1, \"player\": \"Ada\", \"tile\": "
      "\"BA/RFr\", \"at\": [1, 0]}",
      { W_DISCARD(0, "BA/CCG", 0.3, 0), W_PLACE(0, "BA/RFr", 1, 0, 0, -1, 1),
        W_PASS(0, 1), W_COMMIT(0, 1), W_END } },
    /* an unknown tile is the auditor's TILE_UNKNOWN, not an error */
    { NULL, "{\"tile\": \"BA/XYZ\", \"at\": [1, 0]}",
      { W_PLACE(-1, "BA/XYZ", 1, 0, 0, -1, 0), W_PASS(-1, 0),
        W_COMMIT(-1, 0), W_END } },
    /* the "moves" form: anything, in any order */
    { NULL,
      "{\"moves\": [{\"move\": \"deploy\", \"at\": [0, 0], \"segment\": "
      "\"city:N\"}, {\"move\": \"place\", \"player\": \"Ben\", \"tile\": "
      "\"BA/RFr\", \"at\": [1, 0], \"rot\": 270, \"draw\": 0.5}, "
      "{\"move\": \"deploy\", \"at\": [1, 0], \"segment\": \"flier\", "
      "\"roll\": 3, \"random\": 0.9}, {\"move\": \"recall\", \"at\": [0, 0], "
      "\"segment\": \"garden\", \"meeple_id\": \"1.abbot.1\"}, {\"move\": "
      "\"pass\"}, {\"move\": \"commit\", \"player\": 0}, {\"move\": "
      "\"discard\", \"tile\": \"BA/C\"}]}",
      { W_DEPLOY(-1, 0, 0, FEAT_CITY, EDGE_N, FIG_SMALL, 0, -1, 0),
        W_PLACE(1, "BA/RFr", 1, 0, 3, 0.5, 0),
        W_FLY(-1, 1, 0, FIG_SMALL, 0, -1, 3, 0.9, 0),
        W_RECALL(-1, 0, 0, FEAT_GARDEN, FIG_ABBOT, 1, 1, 0), W_PASS(-1, 0),
        W_COMMIT(0, 0), W_DISCARD(-1, "BA/C", -1, 0), W_END } },
    /* flierlog/1.1: a figure by its meeple id kind ("follower" is
     * "small"): the large follower, the phantom, flying too */
    { NULL,
      "{\"tile\": \"BA/RFr\", \"at\": [1, 0], \"deploy\": \"road:WE\", "
      "\"meeple\": \"big\"}",
      { W_PLACE(-1, "BA/RFr", 1, 0, 0, -1, 0),
        W_DEPLOY(-1, 1, 0, FEAT_ROAD, WE, FIG_BIG, 0, 0, 0), W_COMMIT(-1, 0),
        W_END } },
    { NULL,
      "{\"tile\": \"BA/RFr\", \"at\": [1, 0], \"deploy\": \"road:WE\", "
      "\"meeple\": \"small\", \"meeple_id\": \"0.small.4\"}",
      { W_PLACE(-1, "BA/RFr", 1, 0, 0, -1, 0),
        W_DEPLOY(-1, 1, 0, FEAT_ROAD, WE, FIG_SMALL, 4, 0, 0),
        W_COMMIT(-1, 0), W_END } },
    { NULL,
      "{\"player\": 1, \"tile\": \"BA/RFr\", \"at\": [1, 0], \"deploy\": "
      "\"road:WE\", \"meeple_id\": \"1.phantom.1\"}",
      { W_PLACE(1, "BA/RFr", 1, 0, 0, -1, 0),
        W_DEPLOY(1, 1, 0, FEAT_ROAD, WE, FIG_PHANTOM, 1, 1, 0),
        W_COMMIT(1, 0), W_END } },
    { NULL,
      "{\"tile\": \"FL/F.o\", \"at\": [0, 1], \"rot\": 90, \"fly\": "
      "{\"roll\": 1, \"land\": \"city:N\"}, \"meeple\": \"phantom\"}",
      { W_PLACE(-1, "FL/F.o", 0, 1, 1, -1, 0),
        W_FLY(-1, 0, 1, FIG_PHANTOM, 0, 0, 1, -1, 0),
        W_DEPLOY(-1, 0, 0, FEAT_CITY, EDGE_N, FIG_PHANTOM, 0, 0, 0),
        W_COMMIT(-1, 0), W_END } },
    /* two actions in a turn (the phantom after a follower, or flying
     * after one): the "moves" form */
    { NULL,
      "{\"turn\": 1, \"moves\": [{\"move\": \"place\", \"tile\": "
      "\"BA/RFr\", \"at\": [1, 0]}, {\"move\": \"deploy\", \"at\": [1, 0], "
      "\"segment\": \"road:WE\"}, {\"move\": \"deploy\", \"at\": [1, 0], "
      "\"segment\": \"field:NL.NR.EL.WR\", \"meeple\": \"phantom\"}, "
      "{\"move\": \"commit\"}]}",
      { W_PLACE(-1, "BA/RFr", 1, 0, 0, -1, 0),
        /* a move that names no player leaves the owner open (-1): the
         * auditor takes the seat on turn */
        W_DEPLOY(-1, 1, 0, FEAT_ROAD, WE, FIG_SMALL, 0, -1, 0),
        W_DEPLOY(-1, 1, 0, FEAT_FIELD, HE_NL | HE_NR | HE_EL | HE_WR,
                 FIG_PHANTOM, 0, -1, 0),
        W_COMMIT(-1, 0), W_END } },
    { NULL,
      "{\"turn\": 1, \"player\": \"Ben\", \"moves\": [{\"move\": "
      "\"place\", \"tile\": \"FL/F.o\", \"at\": [0, 1], \"rot\": 90}, "
      "{\"move\": \"deploy\", \"at\": [0, 1], \"segment\": \"field:NL.NR."
      "EL.ER.SL.SR.WL.WR\", \"meeple_id\": \"1.small.1\"}, {\"move\": "
      "\"deploy\", \"at\": [0, 1], \"segment\": \"flier\", \"roll\": 1, "
      "\"meeple\": \"phantom\"}, {\"move\": \"deploy\", \"at\": [0, 0], "
      "\"segment\": \"city:N\", \"meeple\": \"phantom\"}, {\"move\": "
      "\"commit\"}]}",
      { W_PLACE(1, "FL/F.o", 0, 1, 1, -1, 0),
        W_DEPLOY(1, 0, 1, FEAT_FIELD, 0xff, FIG_SMALL, 1, 1, 0),
        W_FLY(1, 0, 1, FIG_PHANTOM, 0, 1, 1, -1, 0),
        W_DEPLOY(1, 0, 0, FEAT_CITY, EDGE_N, FIG_PHANTOM, 0, 1, 0),
        W_COMMIT(1, 0), W_END } },
    /* flierlog/1.2: the abbey declined before the draw (a PASS and a
     * COMMIT before the tile), then no action (a pass) */
    { NULL,
      "{\"turn\": 1, \"player\": \"Ben\", \"abbey\": \"declined\", "
      "\"tile\": \"BA/RFr\", \"at\": [1, 0], \"draw\": 0.5}",
      { W_PASS(1, 0), W_COMMIT(1, 0), W_PLACE(1, "BA/RFr", 1, 0, 0, 0.5, 0),
        W_PASS(1, 0), W_COMMIT(1, 0), W_END } },
    /* declined in the last round: a PASS alone, no turn */
    { NULL,
      "{\"tile\": \"BA/RFr\", \"at\": [1, 0], \"pass\": false}, "
      "{\"player\": \"Ada\", \"abbey\": \"declined\"}, "
      "{\"abbey\": \"declined\"}",
      { W_PLACE(-1, "BA/RFr", 1, 0, 0, -1, 0), W_COMMIT(-1, 0),
        W_PASS(0, 1), W_PASS(-1, 2), W_END } },
    /* the wagons after a turn, by their owners: a move and its owner's
     * COMMIT, a stay (a PASS alone), a move naming its wagon */
    { NULL,
      "{\"turn\": 1, \"player\": \"Ada\", \"tile\": \"BA/RFr\", "
      "\"at\": [1, 0], \"pass\": false, \"wagons\": ["
      "{\"player\": \"Ben\", \"at\": [0, 0], \"segment\": \"city:N\"}, "
      "{\"player\": \"Ada\", \"stays\": true}, "
      "{\"at\": [1, 0], \"segment\": \"road:WE\", "
      "\"meeple_id\": \"0.wagon.1\"}]}",
      { W_PLACE(0, "BA/RFr", 1, 0, 0, -1, 0), W_COMMIT(0, 0),
        W_DEPLOY(1, 0, 0, FEAT_CITY, EDGE_N, FIG_WAGON, 0, 1, 0),
        W_COMMIT(1, 0), W_PASS(0, 0),
        W_DEPLOY(-1, 1, 0, FEAT_ROAD, WE, FIG_WAGON, 1, 0, 0),
        W_COMMIT(-1, 0), W_END } },
    /* two wagons of one owner: one COMMIT after both; a wagon of no one
     * named (the auditor takes the one that waits) */
    { NULL,
      "{\"tile\": \"BA/RFr\", \"at\": [1, 0], \"pass\": false, "
      "\"wagons\": [{\"player\": 1, \"at\": [0, 0], \"segment\": "
      "\"city:N\"}, {\"player\": 1, \"at\": [1, 0], \"segment\": "
      "\"road:WE\"}, {\"at\": [0, 0], \"segment\": \"road:WE\"}]}",
      { W_PLACE(-1, "BA/RFr", 1, 0, 0, -1, 0), W_COMMIT(-1, 0),
        W_DEPLOY(1, 0, 0, FEAT_CITY, EDGE_N, FIG_WAGON, 0, 1, 0),
        W_DEPLOY(1, 1, 0, FEAT_ROAD, WE, FIG_WAGON, 0, 1, 0),
        W_COMMIT(1, 0),
        W_DEPLOY(-1, 0, 0, FEAT_ROAD, WE, FIG_WAGON, 0, -1, 0),
        W_COMMIT(-1, 0), W_END } },
    /* a builder's second tile says its part (for readers); a deployment
     * elsewhere than on the tile (a barn's corner) */
    { NULL,
      "{\"turn\": 1, \"part\": 2, \"tile\": \"BA/RFr\", \"at\": [1, 0], "
      "\"deploy\": {\"at\": [2, 1], \"segment\": \"field:NL.NR\"}, "
      "\"meeple\": \"barn\"}",
      { W_PLACE(-1, "BA/RFr", 1, 0, 0, -1, 0),
        W_DEPLOY(-1, 2, 1, FEAT_FIELD, HE_NL | HE_NR, FIG_BARN, 0, 0, 0),
        W_COMMIT(-1, 0), W_END } },
    /* the entry's player for all its moves; a turn left open */
    { NULL,
      "{\"turn\": 1, \"player\": \"Ben\", \"moves\": [{\"move\": \"place\", "
      "\"tile\": \"FL/F.o\", \"at\": [0, 1]}, {\"move\": \"deploy\", \"at\": "
      "[0, 1], \"segment\": \"flier\", \"roll\": 1}]}",
      { W_PLACE(1, "FL/F.o", 0, 1, 0, -1, 0),
        W_FLY(1, 0, 1, FIG_SMALL, 0, 1, 1, -1, 0), W_END } },
};

static void check_moves(const char *what, const struct game_log *l,
                        const struct want *w)
{
    size_t n = 0;
    while (w[n].kind >= 0)
        n++;
    same(what, "n_moves", (long)l->n_moves, (long)n);
    for (size_t i = 0; i < n; i++) {
        const struct move *m = &l->moves[i];
        char f[64];
#define CHECK(field, want)                                                  \
    snprintf(f, sizeof f, "move %zu " #field, i);                           \
    same(what, f, (long)m->field, (long)(want))
        CHECK(kind, w[i].kind);
        CHECK(player, w[i].player);
        CHECK(tile, w[i].tile ? tile_find(w[i].tile) : -1);
        CHECK(at.x, w[i].x);
        CHECK(at.y, w[i].y);
        CHECK(rot, w[i].rot);
        CHECK(feature, w[i].feature);
        CHECK(mask, w[i].mask);
        CHECK(meeple, w[i].meeple);
        CHECK(meeple_n, w[i].n);
        CHECK(meeple_owner, w[i].owner);
        CHECK(roll, w[i].roll);
        CHECK(src, w[i].src);
#undef CHECK
        assert_string_equal(m->tile_id, w[i].tile ? w[i].tile : "");
        if (!(m->draw == w[i].draw || (m->draw < 0 && w[i].draw < 0)))
            fail_msg("%s: move %zu draw %.17g, expected %.17g", what, i,
                     m->draw, w[i].draw);
    }
}

static void test_entry_fields(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_OF(entry_cases); i++) {
        struct game_log l;
        parse_ok(&(struct fdoc){ .edition = entry_cases[i].edition,
                                 .turns = entry_cases[i].turns },
                 &l);
        check_moves(entry_cases[i].turns, &l, entry_cases[i].want);
        game_log_release(&l);
    }
}

/* Claims, totals, time and note: per turn, in "final", in lists. */
static void test_claims_totals_notes(void **state)
{
    struct game_log l;
    (void)state;
    parse_ok(&(struct fdoc){
                 .turns =
                     "{\"tile\": \"BA/C\", \"at\": [0, -1], \"rot\": 180, "
                     "\"deploy\": \"city:S\", \"claims\": [{\"players\": "
                     "[\"Ada\"], \"feature\": \"city\", \"points\": 4}], "
                     "\"totals\": {\"Ada\": 4, \"Ben\": 0}, \"time\": "
                     "\"2026-11-29T20:01:00Z\", \"note\": \"closed\"}, "
                     "{\"tile\": \"BA/CCG\", \"discard\": true, \"note\": "
                     "\"fits nowhere\"}, {\"tile\": \"BA/RFr\", \"at\": [1, "
                     "0], \"totals\": [4, null]}",
                 .final = "{\"claims\": [{\"players\": [\"Ada\", 1], "
                          "\"feature\": \"road\", \"points\": 3}], \"totals\": "
                          "{\"Ben\": 3}, \"time\": \"later\"}",
                 .header = ", \"claims\": [{\"turn\": 7, \"players\": [], "
                           "\"feature\": \"garden\", \"points\": -1}], "
                           "\"totals\": [{\"turn\": -1, \"scores\": [1, 2]}], "
                           "\"notes\": [{\"turn\": 0}]" },
             &l);
    assert_int_equal(l.n_claims, 3);
    /* the header's lists first, then the entries in order */
    assert_int_equal(l.claims[0].turn, 7);
    assert_int_equal(l.claims[0].players, 0);
    assert_int_equal(l.claims[0].feature, FEAT_GARDEN);
    assert_int_equal(l.claims[0].points, -1);
    assert_int_equal(l.claims[1].turn, 1);
    assert_int_equal(l.claims[1].players, 1);
    assert_int_equal(l.claims[1].feature, FEAT_CITY);
    assert_int_equal(l.claims[1].points, 4);
    assert_int_equal(l.claims[1].src, 0);
    assert_int_equal(l.claims[2].turn, -1);
    assert_int_equal(l.claims[2].players, 3);
    assert_int_equal(l.claims[2].src, 3);
    assert_int_equal(l.n_totals, 4);
    assert_int_equal(l.totals[0].turn, -1);
    assert_int_equal(l.totals[0].seats, 3);
    assert_int_equal(l.totals[0].score[1], 2);
    assert_int_equal(l.totals[1].turn, 1);
    assert_int_equal(l.totals[1].seats, 3);
    assert_int_equal(l.totals[1].score[0], 4);
    assert_int_equal(l.totals[2].turn, 2);
    assert_int_equal(l.totals[2].seats, 1);
    assert_int_equal(l.totals[2].src, 2);
    assert_int_equal(l.totals[3].turn, -1);
    assert_int_equal(l.totals[3].seats, 2);
    assert_int_equal(l.totals[3].score[1], 3);
    assert_int_equal(l.n_notes, 4);
    assert_int_equal(l.notes[0].turn, 0);
    assert_null(l.notes[0].time);
    assert_null(l.notes[0].text);
    assert_int_equal(l.notes[1].turn, 1);
    assert_string_equal(l.notes[1].time, "2026-11-29T20:01:00Z");
    assert_string_equal(l.notes[1].text, "closed");
    assert_int_equal(l.notes[2].turn, 1); /* a discard: still turn 1 */
    assert_string_equal(l.notes[2].text, "fits nowhere");
    assert_int_equal(l.notes[3].turn, -1);
    assert_string_equal(l.notes[3].time, "later");
    assert_null(l.notes[3].text);
    assert_int_equal(l.end_turn, 2);
    game_log_release(&l);
}

/* ---- errors ------------------------------------------------------------- */

struct err_case {
    const char *raw; /* the whole input; NULL: build(&d) */
    struct fdoc d;
    enum status st;
    const char *has[3];
};

#define ONE(entry) { .turns = entry }
#define PLACED "\"tile\": \"BA/RFr\", \"at\": [1, 0]"
#define NDHEAD "{\"format\": \"flierlog/1\", \"edition\": \"C2\", "    \
               "\"players\": [{\"name\": \"Ada\"}, {\"name\": \"Ben\"}]}\n"

static const struct err_case err_cases[] = {
    /* the setup */
    { "{\"format\": 1}", { 0 }, ST_PARSE, { "format", "expected a string" } },
    { NULL, { .edition = "-" }, ST_PARSE, { "edition: missing" } },
    { NULL, { .edition = "C4" }, ST_UNSUPPORTED, { "edition 'C4'", "C2" } },
    { NULL, { .header = ", \"sets\": {\"inns:1\": 1}" }, ST_UNSUPPORTED,
      { "tile set 'inns:1'", "(sets)" } },
    { NULL, { .header = ", \"sets\": {\"basic:1\": \"one\"}" }, ST_PARSE,
      { "sets.basic:1: expected an integer" } },
    { NULL, { .header = ", \"sets\": {\"basic:1\": 3, \"basic:2\": 3}" },
      ST_LIMIT, { "sets:", "tiles" } },
    { NULL, { .header = ", \"sets\": {\"catapult:1\": 1}" },
      ST_UNSUPPORTED,
      { "The Catapult", "'catapult:1') is not audited yet",
        "(sets)" } },
    { NULL, { .header = ", \"elements\": []" }, ST_PARSE,
      { "elements: expected {" } },
    { NULL, { .header = ", \"elements\": {\"catapult\": 1}" }, ST_UNSUPPORTED,
      { "The Catapult (game element 'catapult') is not audited yet",
        "(elements.catapult)" } },
    { NULL, { .header = ", \"elements\": {\"hats\": true}" }, ST_UNSUPPORTED,
      { "game element 'hats'", "(elements.hats)" } },
    { NULL, { .header = ", \"elements\": {\"big-follower\": 2}" }, ST_PARSE,
      { "elements.big-follower: expected an integer in 0..1" } },
    { NULL, { .header = ", \"elements\": {\"small-follower\": \"7\"}" },
      ST_PARSE, { "elements.small-follower: expected an integer in 0..16" } },
    { NULL, { .header = ", \"elements\": {\"inn\": \"yes\"}" }, ST_PARSE,
      { "elements.inn: expected true or false" } },
    { NULL, { .header = ", \"elements\": {\"cathedral\": 2}" }, ST_PARSE,
      { "elements.cathedral: expected true or false" } },
    { NULL, { .header = ", \"elements\": {\"phantom\": null}" }, ST_PARSE,
      { "elements.phantom: expected an integer" } },
    { NULL, { .header = ", \"followers\": 5, \"elements\": "
                        "{\"small-follower\": 5}" },
      ST_PARSE,
      { "elements.small-follower: \"followers\" says the same" } },
    { NULL, { .header = ", \"elements\": {\"garden\": 1}, \"gardens\": "
                        "true" },
      ST_PARSE, { "elements.garden: \"gardens\" says the same" } },
    { NULL, { .header = ", \"followers\": 99" }, ST_PARSE,
      { "followers: expected an integer in 0..16" } },
    { NULL, { .header = ", \"farmers\": \"yes\"" }, ST_PARSE,
      { "farmers: expected true or false" } },
    { NULL, { .header = ", \"abbot\": 2" }, ST_PARSE, { "abbot:" } },
    { NULL, { .header = ", \"rules\": {\"princess\": 1}" }, ST_UNSUPPORTED,
      { "rule 'princess'", "(rules)" } },
    { NULL, { .header = ", \"rules\": {\"tiny-city-scoring\": 3}" },
      ST_UNSUPPORTED, { "tiny-city-scoring'; expected 2 or 4" } },
    { NULL, { .header = ", \"rules\": {\"wagon-move\": 1}" },
      ST_UNSUPPORTED,
      { "wagon-move'; expected \"C1\" or \"C2\"", "(rules.wagon-move)" } },
    { NULL, { .header = ", \"start\": {\"tile\": \"AM/C\"}" },
      ST_UNSUPPORTED, { "start tile 'AM/C'", "(start.tile)" } },
    { NULL, { .header = ", \"start\": {\"tile\": \"BA/C\", \"at\": [500, 0]}" },
      ST_PARSE, { "start.at:" } },
    { NULL, { .header = ", \"start\": {\"tile\": \"BA/C\", \"rot\": 45}" },
      ST_PARSE, { "start.rot: expected 0, 90, 180 or 270" } },
    { "{\"format\": \"flierlog/1\", \"edition\": \"C2\"}", { 0 }, ST_PARSE,
      { "players: missing" } },
    { NULL, { .players = " " }, ST_UNSUPPORTED, { "0 players" } },
    { NULL,
      { .players = "{\"name\": \"1\"}, {\"name\": \"2\"}, {\"name\": \"3\"}, "
                   "{\"name\": \"4\"}, {\"name\": \"5\"}, {\"name\": \"6\"}, "
                   "{\"name\": \"7\"}" },
      ST_UNSUPPORTED, { "7 players" } },
    { NULL, { .players = "{\"name\": \"A\"}, {\"nom\": \"B\"}" }, ST_PARSE,
      { "players[1].name: missing" } },
    { NULL,
      { .players = "{\"name\": \"0123456789012345678901234567890123456789"
                   "012345678901234567890123\"}" },
      ST_PARSE, { "players[0].name: longer than 63 bytes" } },
    { NULL,
      { .players = "{\"name\": \"A\", \"color\": \"a very long colour\"}" },
      ST_PARSE, { "players[0].color: longer than 15 bytes" } },
    { NULL, { .header = ", \"end_turn\": \"x\"" }, ST_PARSE, { "end_turn:" } },
    { "{\"format\": \"flierlog/1\", \"edition\": \"C2\", \"players\": "
      "[{\"name\": \"A\"}], \"turns\": {}}",
      { 0 }, ST_PARSE, { "turns: expected an array" } },
    /* entries */
    { NULL, ONE("3"), ST_PARSE, { "turns[0]: expected an object" } },
    { NULL, ONE("{\"at\": [1, 0]}"), ST_PARSE, { "turns[0].tile: missing" } },
    { NULL, ONE("{\"tile\": \"BA/RFr\"}"), ST_PARSE,
      { "turns[0].at: missing" } },
    { NULL, ONE("{\"tile\": \"BA/RFr\", \"at\": [1]}"), ST_PARSE,
      { "turns[0].at: expected [x, y]" } },
    { NULL, ONE("{\"tile\": \"BA/RFr\", \"at\": [\"a\", 0]}"), ST_PARSE,
      { "turns[0].at[0]: expected an integer" } },
    { NULL, ONE("{\"tile\": \"BA/RFr\", \"at\": [0, 0.5]}"), ST_PARSE,
      { "turns[0].at[1]: expected an integer" } },
    { NULL, ONE("{" PLACED ", \"rot\": 45}"), ST_PARSE,
      { "turns[0].rot: expected 0, 90, 180 or 270" } },
    { NULL, ONE("{" PLACED ", \"draw\": 1.5}"), ST_PARSE,
      { "turns[0].draw: expected a number in [0, 1)" } },
    { NULL, ONE("{" PLACED "}, {" PLACED ", \"player\": \"Zed\"}"), ST_PARSE,
      { "turns[1].player: no player is named 'Zed'" } },
    { NULL, ONE("{" PLACED ", \"player\": 2}"), ST_PARSE,
      { "turns[0].player: expected an integer in 0..1" } },
    { NULL,
      { .players = "{\"name\": \"Al\"}, {\"name\": \"Al\"}",
        .turns = "{" PLACED ", \"player\": \"Al\"}" },
      ST_PARSE, { "turns[0].player", "more than one seat" } },
    { NULL, ONE("{\"turn\": 2, " PLACED "}"), ST_PARSE,
      { "turns[0].turn: 2, but the placements so far make this turn 1" } },
    { NULL, ONE("{\"turn\": 1, \"tile\": \"BA/C\", \"discard\": true}"),
      ST_PARSE, { "turns[0].turn: a discarded tile is not a turn" } },
    { NULL, ONE("{\"tile\": \"BA/C\", \"discard\": true, \"at\": [1, 0]}"),
      ST_PARSE, { "turns[0].at: a discarded tile is not placed" } },
    { NULL, ONE("{\"tile\": \"BA/C\", \"discard\": 1}"), ST_PARSE,
      { "turns[0].discard: expected true or false" } },
    { NULL, ONE("{" PLACED ", \"deploy\": \"city:Q\"}"), ST_PARSE,
      { "turns[0].deploy: 'city:Q' is no segment" } },
    { NULL, ONE("{" PLACED ", \"deploy\": \"road\"}"), ST_PARSE,
      { "turns[0].deploy: 'road' is no segment" } },
    { NULL, ONE("{" PLACED ", \"deploy\": \"circus:N\"}"), ST_UNSUPPORTED,
      { "feature 'circus'", "(turns[0].deploy)" } },
    { NULL, ONE("{" PLACED ", \"deploy\": 7}"), ST_PARSE,
      { "turns[0].deploy: expected a string" } },
    { NULL, ONE("{" PLACED ", \"deploy\": \"road:WE\", \"recall\": [0, 0]}"),
      ST_PARSE, { "turns[0]: deploy, fly, recall, tower, fairy and "
                  "princess exclude each other" } },
    { NULL, ONE("{" PLACED ", \"deploy\": \"road:WE\", \"capture\": "
                "{\"at\": [0, 0], \"segment\": \"road:WE\", "
                "\"meeple_id\": \"1.small.1\"}}"),
      ST_PARSE, { "turns[0].capture: a capture follows a tower floor" } },
    { NULL, ONE("{" PLACED ", \"tower\": [1, 0], \"meeple\": \"small\"}"),
      ST_PARSE, { "turns[0].meeple: a tower floor moves no meeple" } },
    { NULL, ONE("{" PLACED ", \"ransom\": \"0.small\"}"),
      ST_PARSE, { "turns[0].ransom: '0.small' is not <seat>.<kind>.<n>" } },
    { NULL, ONE("{" PLACED ", \"meeple\": \"abbot\"}"), ST_PARSE,
      { "turns[0].meeple: no deploy, fly, recall, fairy or princess to go with it" } },
    { NULL, ONE("{" PLACED ", \"deploy\": \"road:WE\", \"meeple\": "
                "\"giant\"}"),
      ST_UNSUPPORTED, { "meeple 'giant'", "(turns[0].meeple)" } },
    { NULL, ONE("{" PLACED ", \"deploy\": \"road:WE\", \"meeple\": "
                "\"big\", \"meeple_id\": \"0.small.1\"}"),
      ST_PARSE, { "turns[0].meeple_id", "not the large follower" } },
    { NULL, ONE("{" PLACED ", \"deploy\": \"river:WE\"}"), ST_PARSE,
      { "turns[0].deploy: 'river:WE': no figure stands on a river" } },
    { NULL, ONE("{\"moves\": [{\"move\": \"deploy\", \"at\": [0, 0], "
                "\"segment\": \"river:E\"}]}"),
      ST_PARSE, { "turns[0].moves[0].segment", "river" } },
    { NULL, ONE("{" PLACED ", \"deploy\": \"road:WE\", \"meeple_id\": "
                "\"x.small.1\"}"),
      ST_PARSE, { "turns[0].meeple_id: 'x.small.1' is not" } },
    { NULL, ONE("{" PLACED ", \"deploy\": \"road:WE\", \"meeple_id\": "
                "\"0.large.1\"}"),
      ST_UNSUPPORTED, { "unsupported: meeple kind 'large'",
                        "turns[0].meeple_id" } },
    { NULL, ONE("{" PLACED ", \"deploy\": \"road:WE\", \"meeple\": "
                "\"abbot\", \"meeple_id\": \"0.small.1\"}"),
      ST_PARSE, { "turns[0].meeple_id", "abbot" } },
    { NULL, ONE("{" PLACED ", \"fly\": 2}"), ST_PARSE,
      { "turns[0].fly: expected {\"roll\"" } },
    { NULL, ONE("{" PLACED ", \"fly\": {}}"), ST_PARSE,
      { "turns[0].fly.roll: missing" } },
    { NULL, ONE("{" PLACED ", \"fly\": {\"roll\": 1.5}}"), ST_PARSE,
      { "turns[0].fly.roll: expected an integer" } },
    { NULL, ONE("{" PLACED ", \"fly\": {\"roll\": 1, \"random\": 0.9}}"),
      ST_PARSE, { "turns[0].fly.random: 0.90000000000000002 rolls 3, not 1" } },
    { NULL, ONE("{" PLACED ", \"fly\": {\"roll\": 1, \"land\": \"city:N\"}}"),
      ST_PARSE, { "turns[0].fly.land: BA/RFr has no flying machine" } },
    { NULL, ONE("{\"tile\": \"BA/XYZ\", \"at\": [1, 0], \"fly\": {\"roll\": "
                "1, \"land\": \"city:N\"}}"),
      ST_PARSE, { "turns[0].fly.land: BA/XYZ is unknown" } },
    { NULL, ONE("{" PLACED ", \"fly\": {\"roll\": 1, \"land\": 5}}"),
      ST_PARSE, { "turns[0].fly.land: expected a segment" } },
    { NULL, ONE("{" PLACED ", \"fly\": {\"roll\": 1, \"land\": {\"segment\": "
                "\"city:N\"}}}"),
      ST_PARSE, { "turns[0].fly.land.at: missing" } },
    { NULL, ONE("{" PLACED ", \"recall\": \"there\"}"), ST_PARSE,
      { "turns[0].recall: expected [x, y]" } },
    { NULL, ONE("{" PLACED ", \"recall\": {\"at\": [0, 0], \"segment\": "
                "\"abbey\"}}"),
      ST_UNSUPPORTED, { "feature 'abbey'", "(turns[0].recall.segment)" } },
    { NULL, ONE("{" PLACED ", \"pass\": \"yes\"}"), ST_PARSE,
      { "turns[0].pass: expected true or false" } },
    { NULL, ONE("{\"moves\": {}}"), ST_PARSE,
      { "turns[0].moves: expected an array of moves" } },
    { NULL, ONE("{\"moves\": [], \"tile\": \"BA/C\"}"), ST_PARSE,
      { "turns[0]: \"moves\" and \"tile\" exclude each other" } },
    { NULL, ONE("{\"moves\": [{\"move\": \"jump\"}]}"), ST_PARSE,
      { "turns[0].moves[0].move: 'jump' is not place" } },
    { NULL, ONE("{\"moves\": [{\"move\": \"pass\"}, 1]}"), ST_PARSE,
      { "turns[0].moves[1]: expected an object" } },
    { NULL, ONE("{\"moves\": [{\"move\": \"deploy\", \"at\": [0, 0], "
                "\"segment\": \"city:N\", \"roll\": 2}]}"),
      ST_PARSE, { "turns[0].moves[0].roll: only a flight" } },
    { NULL, ONE("{\"moves\": [{\"move\": \"place\", \"tile\": \"BA/C\"}]}"),
      ST_PARSE, { "turns[0].moves[0].at: missing" } },
    { NULL, ONE("{\"moves\": [{\"move\": \"deploy\", \"at\": [0, 0], "
                "\"segment\": \"flier\", \"roll\": 2, \"random\": 0.1}]}"),
      ST_PARSE, { "turns[0].moves[0].random: expected a number that rolls "
                  "2" } },
    /* claims, totals, notes */
    { NULL, ONE("{" PLACED ", \"claims\": {}}"), ST_PARSE,
      { "turns[0].claims: expected an array" } },
    { NULL, ONE("{" PLACED ", \"claims\": [{\"players\": [\"Ada\"], "
                "\"feature\": \"flier\", \"points\": 1}]}"),
      ST_PARSE, { "turns[0].claims[0].feature: 'flier' is not road" } },
    { NULL, ONE("{" PLACED ", \"claims\": [{\"players\": [\"Ada\"], "
                "\"feature\": \"river\", \"points\": 1}]}"),
      /* the list grows with the units: its head, which stays */
      ST_PARSE, { "turns[0].claims[0].feature: 'river' is not road, city, "
                  "field, monastery, garden, trade-goods, barn, ransom, fairy, "
                  "shrine, church, special-monastery, acrobats, bigtop, "
                  "ringmaster, castle, bazaar, " } },
    { NULL, ONE("{" PLACED ", \"claims\": [{\"players\": [\"Ada\"], "
                "\"feature\": \"tower\", \"points\": 1}]}"),
      ST_PARSE, { "turns[0].claims[0].feature: 'tower' is not road" } },
    { NULL, ONE("{" PLACED ", \"claims\": [{\"players\": [\"Zed\"], "
                "\"feature\": \"city\", \"points\": 1}]}"),
      ST_PARSE, { "turns[0].claims[0].players[0]: no player is named" } },
    { NULL, ONE("{" PLACED ", \"claims\": [{\"feature\": \"city\", "
                "\"points\": 1}]}"),
      ST_PARSE, { "turns[0].claims[0].players: missing" } },
    { NULL, ONE("{" PLACED ", \"claims\": [{\"players\": [0], \"feature\": "
                "\"city\", \"points\": 1.5}]}"),
      ST_PARSE, { "turns[0].claims[0].points: expected an integer" } },
    { NULL, ONE("{" PLACED ", \"totals\": {\"Zed\": 1}}"), ST_PARSE,
      { "turns[0].totals.Zed: no player is named 'Zed'" } },
    { NULL, ONE("{" PLACED ", \"totals\": {\"Ada\": \"1\"}}"), ST_PARSE,
      { "turns[0].totals.Ada: expected an integer" } },
    { NULL, ONE("{" PLACED ", \"totals\": [1, 2, 3]}"), ST_PARSE,
      { "turns[0].totals: expected" } },
    { NULL, ONE("{" PLACED ", \"time\": 5}"), ST_PARSE,
      { "turns[0].time: expected a string" } },
    { NULL, ONE("{" PLACED ", \"note\": [\"x\"]}"), ST_PARSE,
      { "turns[0].note: expected a string" } },
    { NULL, { .final = "[]" }, ST_PARSE, { "final: expected an object" } },
    { NULL, { .final = "{\"totals\": {\"Ada\": null}}" }, ST_PARSE,
      { "final.totals.Ada: expected an integer" } },
    { NULL, { .header = ", \"claims\": [{\"players\": [0], \"feature\": "
                        "\"city\", \"points\": 1}]" },
      ST_PARSE, { "claims[0].turn: missing" } },
    { NULL, { .header = ", \"totals\": [{\"turn\": 1}]" }, ST_PARSE,
      { "totals[0].scores: missing" } },
    { NULL, { .header = ", \"notes\": [{\"turn\": -2}]" }, ST_PARSE,
      { "notes[0].turn: expected an integer in -1.." } },
    /* JSON syntax: the byte offset */
    { "{\"format\": \"flierlog/1\", \"turns\": [}", { 0 }, ST_PARSE,
      { "not valid JSON at byte offset 35", "line 1, column 36" } },
    { "[1, 2]", { 0 }, ST_PARSE, { "$: expected a JSON object" } },
    /* the streaming form: line numbers and JSON paths */
    { NDHEAD "{\"tile\": \"BA/RFr\", \"at\": [1, 0]}\n{\"tile\": \"BA/C\", "
             "\"at\": \"north\"}\n",
      { 0 }, ST_PARSE, { "line 3: turns[1].at: expected [x, y]" } },
    { NDHEAD "\n\n{\"tile\": \"BA/RFr\", \"at\": [1, 0], \"player\": "
             "\"Zed\"}\n",
      { 0 }, ST_PARSE, { "line 4: turns[0].player: no player is named" } },
    { NDHEAD "{\"tile\": \"BA/RFr\", \"at\": [1, 0]}\n{\"tile\": \"BA/C\", "
             "\"at\": [0, }\n",
      { 0 }, ST_PARSE,
      { "line 3: not valid JSON at byte offset 149", "(column 28)" } },
    { NDHEAD "{\"final\": {}}\n{\"tile\": \"BA/RFr\", \"at\": [1, 0]}\n",
      { 0 }, ST_PARSE, { "line 3: final: nothing may follow the final line" } },
    { NDHEAD "{\"tile\": \"BA/RFr\",\n \"at\": [1, 0]}\n", { 0 }, ST_PARSE,
      { "line 2: a record of a streaming flierlog must be on one line" } },
    { NDHEAD "{\"tile\": \"BA/RFr\", \"at\": [1, 0]} {\"tile\": \"BA/C\"}\n",
      { 0 }, ST_PARSE, { "line 2: more than one JSON value on the line" } },
    { NDHEAD "[1]\n", { 0 }, ST_PARSE,
      { "line 2: $: expected a turn entry" } },
    { NDHEAD "{\"final\": {\"totals\": {\"Ada\": \"x\"}}}\n", { 0 }, ST_PARSE,
      { "line 2: final.totals.Ada: expected an integer" } },
    { "{\"format\": \"flierlog/1\", \"edition\": \"C2\", \"sets\": {\"x:1\": "
      "1}, \"players\": [{\"name\": \"A\"}]}\n{\"tile\": \"BA/C\", \"at\": "
      "[0, -1]}\n",
      { 0 }, ST_UNSUPPORTED,
      { "unsupported: tile set 'x:1'", "(line 1: sets)" } },
    /* flierlog/1.2: the abbey, the wagons, the part */
    { NULL, ONE("{" PLACED ", \"abbey\": \"placed\"}"), ST_PARSE,
      { "turns[0].abbey: expected \"declined\"", "AM/A" } },
    { NULL, ONE("{\"abbey\": \"declined\", \"at\": [1, 0]}"), ST_PARSE,
      { "turns[0].at: an abbey declined with no tile after it" } },
    { NULL, ONE("{\"turn\": 1, \"abbey\": \"declined\"}"), ST_PARSE,
      { "turns[0].turn: an abbey declined is not a turn" } },
    { NULL, ONE("{\"abbey\": \"declined\", \"tile\": \"BA/C\", \"discard\": "
                "true, \"wagons\": []}"), ST_PARSE,
      { "turns[0].wagons: a discarded tile is not placed" } },
    { NULL, ONE("{" PLACED ", \"wagons\": {}}"), ST_PARSE,
      { "turns[0].wagons: expected an array of wagons" } },
    { NULL, ONE("{" PLACED ", \"wagons\": [{\"stays\": false}]}"), ST_PARSE,
      { "turns[0].wagons[0].stays: expected true" } },
    { NULL, ONE("{" PLACED ", \"wagons\": [{\"stays\": true}, {\"stays\": "
                "true, \"at\": [0, 0]}]}"), ST_PARSE,
      { "turns[0].wagons[1].at: a wagon that stays goes nowhere" } },
    { NULL, ONE("{" PLACED ", \"wagons\": [{\"at\": [0, 0]}]}"), ST_PARSE,
      { "turns[0].wagons[0].segment: missing" } },
    { NULL, ONE("{" PLACED ", \"wagons\": [{\"player\": \"Cy\", \"stays\": "
                "true}]}"), ST_PARSE,
      { "turns[0].wagons[0].player: no player is named 'Cy'" } },
    { NULL, ONE("{" PLACED ", \"part\": 3}"), ST_PARSE,
      { "turns[0].part: expected an integer in 1..2" } },
    { NULL, ONE("{" PLACED ", \"deploy\": {\"at\": [1, 1]}}"), ST_PARSE,
      { "turns[0].deploy.segment: missing" } },
    { NULL, ONE("{\"moves\": [], \"wagons\": []}"), ST_PARSE,
      { "turns[0]: \"moves\" and \"wagons\" exclude each other" } },
    /* a complete document followed by more text is no stream */
    { "{\"format\": \"flierlog/1\", \"edition\": \"C2\", \"players\": "
      "[{\"name\": \"A\"}], \"turns\": []}\n{\"tile\": \"BA/C\"}\n",
      { 0 }, ST_PARSE,
      { "not valid JSON at byte offset 83 (line 2, column 1)" } },
};

static void test_error_paths(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_OF(err_cases); i++) {
        const struct err_case *c = &err_cases[i];
        struct game_log l;
        struct err e;
        enum mlog_format fmt;
        const char *text = c->raw ? c->raw : build(&c->d);
        enum status st = parse_text(text, strlen(text), &l, &fmt, &e);
        game_log_release(&l);
        if (st != c->st)
            fail_msg("%s\n  got %s '%s', expected %s", text, status_name(st),
                     e.msg, status_name(c->st));
        assert_int_equal(e.code, st);
        if (st == ST_UNSUPPORTED)
            assert_memory_equal(e.msg, "unsupported: ", 13);
        for (size_t k = 0; k < N_OF(c->has) && c->has[k]; k++)
            if (!strstr(e.msg, c->has[k]))
                fail_msg("%s\n  message '%s' lacks '%s'", text, e.msg,
                         c->has[k]);
    }
}

/* ---- comparing logs ----------------------------------------------------- */

static bool opt_str_equal(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static void expect_same_extras(const char *what, const struct game_log *a,
                               const struct game_log *b);

/* Equal game logs; src (message or entry index) only when check_src. */
static void expect_same_log(const char *what, const struct game_log *a,
                            const struct game_log *b, bool check_src)
{
    const struct rules *ra = &a->rules, *rb = &b->rules;
    assert_memory_equal(ra->set_copies, rb->set_copies,
                        sizeof ra->set_copies);
    same(what, "players", ra->n_players, rb->n_players);
    for (int f = 0; f < FIG__COUNT; f++)
        same(what, figure_class(f)->jcz, ra->figures[f], rb->figures[f]);
    for (int c = 0; c < COUNT__COUNT; c++)
        same(what, "counts", ra->counts[c], rb->counts[c]);
    same(what, "flags", (long)ra->flags, (long)rb->flags);
    for (int o = 0; o < OPT__COUNT; o++)
        same(what, option_key(o), ra->opt[o], rb->opt[o]);
    for (int p = 0; p < ra->n_players; p++) {
        assert_string_equal(a->names[p], b->names[p]);
        assert_string_equal(a->colors[p], b->colors[p]);
    }
    same(what, "start tile", a->start_tile, b->start_tile);
    same(what, "start x", a->start_at.x, b->start_at.x);
    same(what, "start y", a->start_at.y, b->start_at.y);
    same(what, "start rot", a->start_rot, b->start_rot);
    same(what, "start tiles", game_log_n_starts(a), game_log_n_starts(b));
    for (int i = 1; i < game_log_n_starts(a); i++) {
        struct start_place sa = game_log_start(a, i);
        struct start_place sb = game_log_start(b, i);
        same(what, "start tile i", sa.tile, sb.tile);
        same(what, "start x i", sa.at.x, sb.at.x);
        same(what, "start y i", sa.at.y, sb.at.y);
        same(what, "start rot i", sa.rot, sb.rot);
    }
    same(what, "end turn", a->end_turn, b->end_turn);
    same(what, "n_moves", (long)a->n_moves, (long)b->n_moves);
    for (size_t i = 0; i < a->n_moves; i++) {
        const struct move *x = &a->moves[i], *y = &b->moves[i];
        char f[40];
#define FIELD(fl)                                                           \
    snprintf(f, sizeof f, "move %zu " #fl, i);                              \
    same(what, f, (long)x->fl, (long)y->fl)
        FIELD(kind);
        FIELD(neutral);
        FIELD(player);
        FIELD(tile);
        FIELD(at.x);
        FIELD(at.y);
        FIELD(rot);
        FIELD(feature);
        FIELD(mask);
        FIELD(meeple);
        FIELD(meeple_n);
        FIELD(meeple_owner);
        FIELD(roll);
        if (check_src) {
            FIELD(src);
        }
#undef FIELD
        if (strcmp(x->tile_id, y->tile_id) != 0)
            fail_msg("%s: move %zu tile '%s' != '%s'", what, i, x->tile_id,
                     y->tile_id);
        if (!(x->draw == y->draw || (x->draw < 0 && y->draw < 0)))
            fail_msg("%s: move %zu draw %.17g != %.17g", what, i, x->draw,
                     y->draw);
    }
    expect_same_extras(what, a, b);
}

/* Claims, totals and notes (src aside). */
static void expect_same_extras(const char *what, const struct game_log *a,
                               const struct game_log *b)
{
    same(what, "claims", (long)a->n_claims, (long)b->n_claims);
    for (size_t i = 0; i < a->n_claims; i++) {
        const struct claim_event *x = &a->claims[i], *y = &b->claims[i];
        same(what, "claim turn", x->turn, y->turn);
        same(what, "claim players", x->players, y->players);
        same(what, "claim feature", x->feature, y->feature);
        same(what, "claim points", x->points, y->points);
    }
    same(what, "totals", (long)a->n_totals, (long)b->n_totals);
    for (size_t i = 0; i < a->n_totals; i++) {
        const struct claim_total *x = &a->totals[i], *y = &b->totals[i];
        same(what, "total turn", x->turn, y->turn);
        same(what, "total seats", x->seats, y->seats);
        for (int p = 0; p < GAME_MAX_PLAYERS; p++)
            if (x->seats & (1u << p))
                same(what, "total score", x->score[p], y->score[p]);
    }
    same(what, "notes", (long)a->n_notes, (long)b->n_notes);
    for (size_t i = 0; i < a->n_notes; i++) {
        same(what, "note turn", a->notes[i].turn, b->notes[i].turn);
        assert_true(opt_str_equal(a->notes[i].time, b->notes[i].time));
        assert_true(opt_str_equal(a->notes[i].text, b->notes[i].text));
    }
}

/* The same audit: verdict, scores, score events, violations (rule, turn,
 * message) and flights; not the messages' indexes. */
static void expect_same_audit(const char *what, const struct game_log *la,
                              const struct game_log *lb)
{
    struct report a, b;
    audit_run(la, NULL, &a, NULL);
    audit_run(lb, NULL, &b, NULL);
    same(what, "valid", a.valid, b.valid);
    same(what, "finished", a.finished, b.finished);
    same(what, "turns", a.turns, b.turns);
    same(what, "tiles left", a.tiles_left, b.tiles_left);
    for (int p = 0; p < a.n_players; p++)
        same(what, "score", a.score[p], b.score[p]);
    same(what, "state hash", (long)(a.state_hash & 0x7fffffff),
         (long)(b.state_hash & 0x7fffffff));
    same(what, "violations", (long)a.n_violations, (long)b.n_violations);
    for (size_t i = 0; i < a.n_violations; i++) {
        same(what, "violation turn", a.violations[i].turn,
             b.violations[i].turn);
        same(what, "violation rule", a.violations[i].rule,
             b.violations[i].rule);
        assert_string_equal(a.violations[i].msg, b.violations[i].msg);
    }
    same(what, "events", (long)a.n_events, (long)b.n_events);
    for (size_t i = 0; i < a.n_events; i++) {
        same(what, "event turn", a.events[i].turn, b.events[i].turn);
        same(what, "event feature", a.events[i].feature,
             b.events[i].feature);
        same(what, "event players", a.events[i].players,
             b.events[i].players);
        same(what, "event points", a.events[i].points, b.events[i].points);
        same(what, "event expr", a.events[i].expr, b.events[i].expr);
        same(what, "event items", a.events[i].n_items, b.events[i].n_items);
        for (int k = 0; k < a.events[i].n_items; k++)
            same(what, "event item points", a.events[i].items[k].points,
                 b.events[i].items[k].points);
        for (int p = 0; p < a.n_players; p++)
            same(what, "event strength", a.events[i].strength[p],
                 b.events[i].strength[p]);
    }
    same(what, "flights", (long)a.n_flights, (long)b.n_flights);
    for (size_t i = 0; i < a.n_flights; i++) {
        same(what, "flight roll", a.flights[i].roll, b.flights[i].roll);
        same(what, "flight landed", a.flights[i].landed,
             b.flights[i].landed);
        same(what, "flight figure", a.flights[i].figure,
             b.flights[i].figure);
    }
    same(what, "discards", (long)a.n_discards, (long)b.n_discards);
    report_release(&a);
    report_release(&b);
}

enum fmt_to { TO_FLIERLOG, TO_NDJSON, TO_JCZ };

/* l written in one form and read back. */
static void through(const char *what, const struct game_log *l,
                    enum fmt_to to, struct game_log *back, struct buf *text)
{
    struct err e;
    enum mlog_format fmt;
    if (to == TO_JCZ)
        mlog_write_jcz(l, text);
    else if (to == TO_NDJSON)
        mlog_write_flierlog_ndjson(l, text);
    else
        mlog_write_flierlog(l, text);
    enum status st = parse_text(text->p, text->len, back, &fmt, &e);
    if (st != ST_OK)
        fail_msg("%s: written %s does not read back: %s\n%s", what,
                 to == TO_JCZ ? "jcz" : "flierlog", e.msg, text->p);
    assert_int_equal(fmt, to == TO_JCZ ? MLOG_JCZ : MLOG_FLIERLOG);
}

/* flierlog -> .jcz -> flierlog (and the streaming form) are lossless. */
static void expect_lossless(const char *what, const struct game_log *l)
{
    struct game_log a, b, c, d;
    struct buf t1 = BUF_INIT, t2 = BUF_INIT, t3 = BUF_INIT, t4 = BUF_INIT;
    through(what, l, TO_FLIERLOG, &a, &t1);
    expect_same_log(what, l, &a, false);
    through(what, &a, TO_JCZ, &b, &t2);
    expect_same_log(what, &a, &b, false);
    through(what, &b, TO_FLIERLOG, &c, &t3);
    expect_same_log(what, &a, &c, true); /* flierlog to flierlog: src too */
    assert_string_equal(t1.p, t3.p);
    through(what, l, TO_NDJSON, &d, &t4);
    expect_same_log(what, &a, &d, true);
    game_log_release(&a);
    game_log_release(&b);
    game_log_release(&c);
    game_log_release(&d);
    buf_release(&t1);
    buf_release(&t2);
    buf_release(&t3);
    buf_release(&t4);
}

/* ---- the streaming form ------------------------------------------------- */

static void test_ndjson_reads_as_document(void **state)
{
    static const char doc[] =
        "{\"format\": \"flierlog/1\", \"edition\": \"C2\", \"players\": "
        "[{\"name\": \"Ada\"}, {\"name\": \"Ben\"}], \"turns\": [\n"
        "{\"turn\": 1, \"player\": \"Ada\", \"tile\": \"BA/RFr\", \"at\": [1, "
        "0], \"deploy\": \"road:WE\"},\n"
        "{\"player\": \"Ben\", \"tile\": \"BA/CCG\", \"discard\": true},\n"
        "{\"turn\": 2, \"player\": \"Ben\", \"tile\": \"BA/C\", \"at\": [0, "
        "-1], \"rot\": 180, \"claims\": [{\"players\": [\"Ben\"], "
        "\"feature\": \"city\", \"points\": 4}], \"totals\": {\"Ada\": 0, "
        "\"Ben\": 4}}],\n"
        "\"final\": {\"totals\": {\"Ada\": 2, \"Ben\": 4}}}\n";
    static const char nd[] =
        "{\"format\": \"flierlog/1\", \"edition\": \"C2\", \"players\": "
        "[{\"name\": \"Ada\"}, {\"name\": \"Ben\"}]}\r\n"
        "{\"turn\": 1, \"player\": \"Ada\", \"tile\": \"BA/RFr\", \"at\": [1, "
        "0], \"deploy\": \"road:WE\"}\r\n"
        "\n"
        "{\"player\": \"Ben\", \"tile\": \"BA/CCG\", \"discard\": true}\n"
        "{\"turn\": 2, \"player\": \"Ben\", \"tile\": \"BA/C\", \"at\": [0, "
        "-1], \"rot\": 180, \"claims\": [{\"players\": [\"Ben\"], "
        "\"feature\": \"city\", \"points\": 4}], \"totals\": {\"Ada\": 0, "
        "\"Ben\": 4}}\n"
        "{\"final\": {\"totals\": {\"Ada\": 2, \"Ben\": 4}}}";
    struct game_log a, b;
    (void)state;
    parse_ok_text(doc, &a);
    parse_ok_text(nd, &b);
    expect_same_log("ndjson", &a, &b, true);
    assert_int_equal(b.n_moves, 7);
    assert_int_equal(b.end_turn, 2);
    assert_int_equal(b.claims[0].src, 2);
    assert_int_equal(b.totals[1].turn, -1);
    game_log_release(&a);
    game_log_release(&b);
}

/* A live game: the header alone, then line by line. */
static void test_ndjson_growing(void **state)
{
    static const char *const lines[] = {
        "{\"format\": \"flierlog/1\", \"edition\": \"C3\", \"players\": "
        "[{\"name\": \"Ada\"}, {\"name\": \"Ben\"}]}\n",
        "{\"turn\": 1, \"tile\": \"BA/L\", \"at\": [0, 1], \"deploy\": "
        "\"monastery\", \"meeple\": \"abbot\"}\n",
        "{\"turn\": 2, \"tile\": \"BA/RFr\", \"at\": [1, 0]}\n",
        "{\"turn\": 3, \"tile\": \"BA/RFr\", \"at\": [-1, 0], \"recall\": [0, "
        "1]}\n",
        "{\"final\": {}}\n",
    };
    char text[2048] = "";
    size_t len = 0;
    static const size_t moves[] = { 0, 3, 6, 9, 9 };
    (void)state;
    for (size_t i = 0; i < N_OF(lines); i++) {
        struct game_log l;
        size_t n = strlen(lines[i]);
        assert_true(len + n < sizeof text);
        memcpy(text + len, lines[i], n + 1);
        len += n;
        parse_ok_text(text, &l);
        assert_int_equal(l.n_moves, moves[i]);
        assert_int_equal(l.end_turn, i == 4 ? 3 : -1);
        game_log_release(&l);
    }
}

/* ---- the writers -------------------------------------------------------- */

static void sample_log(const char *name, struct game_log *l)
{
    char path[512];
    struct buf b = BUF_INIT;
    struct err e;
    enum mlog_format fmt;
    snprintf(path, sizeof path, "%s/%s", FLIERD_SAMPLES_DIR, name);
    if (cli_read_input(path, &b, &e) != ST_OK)
        fail_msg("%s: %s", path, e.msg);
    if (parse_text(b.p, b.len, l, &fmt, &e) != ST_OK)
        fail_msg("%s: %s", path, e.msg);
    buf_release(&b);
}

static void test_writer_layout(void **state)
{
    struct game_log l;
    struct buf out = BUF_INIT, nd = BUF_INIT;
    (void)state;
    sample_log("c3-4p-abbots.jcz", &l);
    mlog_write_flierlog(&l, &out);
    /* the setup one key per line, a turn per line, nothing spelt out */
    static const char head[] = "{\n  \"format\": \"flierlog/1\",\n"
                               "  \"edition\": \"C3\",\n  \"players\": [";
    assert_memory_equal(out.p, head, strlen(head));
    assert_non_null(strstr(out.p, "\n  \"turns\": [\n    {\"turn\": 1, "));
    assert_non_null(strstr(out.p, "\n    {\"turn\": 79, "));
    assert_null(strstr(out.p, "\"moves\""));
    assert_non_null(strstr(out.p, "\"recall\": ["));
    assert_non_null(strstr(out.p, "\"fly\": {\"roll\": 1, \"land\": "
                                  "\"road:WE\"}"));
    assert_int_equal(out.p[out.len - 1], '\n');
    cJSON *j = cJSON_Parse(out.p);
    assert_true(cJSON_IsObject(j));
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(j, "turns")), 79);
    cJSON_Delete(j);
    /* streaming: every line one JSON object, the header first */
    mlog_write_flierlog_ndjson(&l, &nd);
    int lines = 0;
    for (char *p = nd.p, *q; *p; p = q + 1, lines++) {
        q = strchr(p, '\n');
        assert_non_null(q);
        cJSON *o = cJSON_ParseWithLength(p, (size_t)(q - p));
        assert_true(cJSON_IsObject(o));
        if (lines == 0)
            assert_non_null(cJSON_GetObjectItem(o, "format"));
        cJSON_Delete(o);
    }
    assert_int_equal(lines, 1 + 79); /* no end turn, no "final" */
    buf_release(&out);
    buf_release(&nd);
    game_log_release(&l);
}

static struct move *add(struct game_log *l, int kind, int player)
{
    struct move *m = game_log_push(l);
    m->kind = (uint8_t)kind;
    m->player = (int8_t)player;
    return m;
}

static void add_place(struct game_log *l, const char *id, int x, int y,
                      int player)
{
    struct move *m = add(l, MV_PLACE, player);
    snprintf(m->tile_id, sizeof m->tile_id, "%s", id);
    m->tile = (int16_t)tile_find(id);
    m->at = (struct pos){ x, y };
}

static void add_meeple(struct game_log *l, int kind, int x, int y, int feat,
                       uint8_t mask, int owner, int n, int roll)
{
    struct move *m = add(l, kind, -1);
    m->at = (struct pos){ x, y };
    m->feature = (uint8_t)feat;
    m->mask = mask;
    m->meeple_owner = (int8_t)owner;
    m->meeple_n = (uint8_t)n;
    m->roll = roll;
}

static void two_player_log(struct game_log *l)
{
    game_log_init(l);
    l->rules.set_copies[tile_set_find("basic:1")] = 1;
    l->rules.set_copies[tile_set_find("flier:1")] = 1;
    l->rules.n_players = 2;
    l->rules.figures[FIG_SMALL] = 7;
    l->rules.flags = (true) ? (l->rules.flags | RF_FARMERS) : (l->rules.flags & ~(uint32_t)RF_FARMERS);
    snprintf(l->names[0], LOG_NAME_MAX, "Ada");
    snprintf(l->names[1], LOG_NAME_MAX, "Ben");
    l->start_tile = tile_find("BA/RCr");
}

/* The figure of the last move. */
static void last_figure(struct game_log *l, int fig)
{
    l->moves[l->n_moves - 1].meeple = (uint8_t)fig;
}

/* ---- logs written, as rows ---------------------------------------------- */

/* A deployment before any tile; a turn without COMMIT; two deploys; a
 * landing by another meeple; a player changing mid-turn; a PASS after a
 * discard; a meeple the log names no owner for. */
static void irregular_log(struct game_log *l)
{
    two_player_log(l);
    add_meeple(l, MV_DEPLOY, 0, 0, FEAT_CITY, EDGE_N, 0, 1, 0);
    add_place(l, "BA/RFr", 1, 0, 0);
    add_place(l, "FL/F.o", 0, 1, 1);
    add_meeple(l, MV_DEPLOY, 0, 1, FEAT_FLIER, 0, 1, 1, 1);
    add_meeple(l, MV_DEPLOY, 0, 0, FEAT_CITY, EDGE_N, 1, 2, 0);
    add(l, MV_COMMIT, 0);
    add_place(l, "BA/C", 0, -1, -1);
    add_meeple(l, MV_DEPLOY, 0, -1, FEAT_CITY, EDGE_S, 0, 1, 0);
    add_meeple(l, MV_DEPLOY, 0, -1, FEAT_FIELD, HE_NL, 0, 2, 0);
    add(l, MV_COMMIT, -1);
    struct move *d = add(l, MV_DISCARD, 1);
    snprintf(d->tile_id, sizeof d->tile_id, "BA/CCG");
    d->tile = (int16_t)tile_find("BA/CCG");
    add(l, MV_PASS, 1);
    add_place(l, "BA/Rr", 2, 0, 1);
    add(l, MV_PASS, 1);
}

/* Inns & Cathedrals and the phantom, turn by turn (see the row). */
static void inns_phantom_log(struct game_log *l)
{
    two_player_log(l);
    l->rules.set_copies[tile_set_find("inns-and-cathedrals:1")] = 1;
    l->rules.figures[FIG_SMALL] = 5;
    l->rules.figures[FIG_BIG] = 1;
    l->rules.figures[FIG_PHANTOM] = 1;
    l->rules.flags |= RF_INNS | RF_CATHEDRALS;
    /* 1: a large follower */
    add_place(l, "BA/RFr", 1, 0, -1);
    add_meeple(l, MV_DEPLOY, 1, 0, FEAT_ROAD, WE, 0, 1, 0);
    last_figure(l, FIG_BIG);
    add(l, MV_COMMIT, -1);
    /* 2: a follower, then the phantom, all by Ben (said once) */
    size_t ben = l->n_moves;
    add_place(l, "BA/RFr", 2, 0, 1);
    add_meeple(l, MV_DEPLOY, 2, 0, FEAT_ROAD, WE, 1, 1, 0);
    add_meeple(l, MV_DEPLOY, 2, 0, FEAT_FIELD, HE_ER | HE_SL, 1, 1, 0);
    last_figure(l, FIG_PHANTOM);
    add(l, MV_COMMIT, 1);
    for (size_t k = ben; k < l->n_moves; k++)
        l->moves[k].player = 1;
    /* 3: a flight that found no landing, then the phantom on the tile
     * (read as "fly" with "land", it would be the follower landing) */
    add_place(l, "FL/F.o", 0, 1, -1);
    add_meeple(l, MV_DEPLOY, 0, 1, FEAT_FLIER, 0, 0, 2, 3);
    add_meeple(l, MV_DEPLOY, 0, 1, FEAT_FIELD, 0xff, 0, 1, 0);
    last_figure(l, FIG_PHANTOM);
    add(l, MV_COMMIT, -1);
    /* 4: the phantom flies first and lands: the short form */
    add_place(l, "FL/F.o", 0, -1, -1);
    add_meeple(l, MV_DEPLOY, 0, -1, FEAT_FLIER, 0, 1, 1, 1);
    last_figure(l, FIG_PHANTOM);
    add_meeple(l, MV_DEPLOY, -1, -1, FEAT_CITY, EDGE_N, 1, 1, 0);
    last_figure(l, FIG_PHANTOM);
    add(l, MV_COMMIT, -1);
    /* 5: a follower, and the phantom's phase passed */
    add_place(l, "BA/C", 1, -1, -1);
    add_meeple(l, MV_DEPLOY, 1, -1, FEAT_CITY, EDGE_N, 0, 3, 0);
    add(l, MV_PASS, -1);
    add(l, MV_COMMIT, -1);
}

/* The River: its spring is the start tile. */
static void river_log(struct game_log *l)
{
    two_player_log(l);
    l->rules.set_copies[tile_set_find("river/1:1")] = 1;
    l->start_tile = tile_find("RI/s");
    add_place(l, "RI.1/CICI", 1, 0, -1);
    add(l, MV_PASS, -1);
    add(l, MV_COMMIT, -1);
}

/* A barn on the tile south-east of its corner, off the tile placed. */
static void barn_log(struct game_log *l)
{
    two_player_log(l);
    l->rules.figures[FIG_BARN] = 1;
    add_place(l, "BA/RFr", 1, 0, -1);
    add_meeple(l, MV_DEPLOY, 1, 1, FEAT_FIELD, HE_NL | HE_WR, 0, 1, 0);
    last_figure(l, FIG_BARN);
    add(l, MV_COMMIT, -1);
}

/* Claims in an order the entries cannot keep, duplicate names, an end
 * before the last turn. */
static void fallbacks_log(struct game_log *l)
{
    two_player_log(l);
    snprintf(l->names[1], LOG_NAME_MAX, "Ada");
    snprintf(l->colors[1], sizeof l->colors[1], "green");
    add_place(l, "BA/RFr", 1, 0, 0);
    add(l, MV_PASS, 0);
    add(l, MV_COMMIT, 0);
    add_place(l, "BA/RFr", 2, 0, 1);
    add(l, MV_COMMIT, 1);
    l->end_turn = 1;
    *game_log_push_claim(l) = (struct claim_event){ 2, 1, FEAT_ROAD, 3, 0 };
    *game_log_push_claim(l) = (struct claim_event){ 1, 3, FEAT_CITY, 2, 0 };
    struct claim_total *t = game_log_push_total(l);
    t->turn = 0;
    t->seats = 2;
    t->score[1] = 5;
    game_log_add_note(l, 2, NULL, "x \"quoted\"\n\t\x01 é");
    game_log_add_note(l, 2, "t", NULL);
    game_log_add_note(l, 9, NULL, NULL);
}

/* samples/disputed.flierlog: claims, totals, notes and colours. */
static void disputed_log(struct game_log *l)
{
    sample_log("disputed.flierlog", l);
    assert_true(l->n_claims > 10);
}

static void plain_log(struct game_log *l)
{
    sample_log("c2-2p.jcz", l);
}

/* A flierlog without meeple ids. */
static void open_meeples_log(struct game_log *l)
{
    parse_ok(&(struct fdoc){
                 .turns =
                     "{\"player\": \"Ada\", \"tile\": \"BA/RFr\", \"at\": [1, "
                     "0], \"deploy\": \"road:WE\"}, {\"player\": \"Ben\", "
                     "\"tile\": \"BA/C\", \"at\": [0, -1], \"rot\": 180, "
                     "\"deploy\": \"city:S\"}, {\"player\": \"Ada\", "
                     "\"tile\": \"FL/F.o\", \"at\": [0, 1], \"rot\": 90, "
                     "\"fly\": {\"roll\": 1, \"land\": \"road:WE\"}}" },
             l);
}

/* The .jcz's "flierd" object carries the disputed game's extras. */
static void disputed_object(const char *what, const struct game_log *l,
                            const char *text)
{
    cJSON *j = cJSON_Parse(text);
    const cJSON *f = cJSON_GetObjectItem(j, "flierd");
    if (!f)
        fail_msg("%s: no \"flierd\" object", what);
    assert_int_equal(cJSON_GetObjectItem(f, "version")->valueint, 1);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(f, "claims")),
                     (int)l->n_claims);
    assert_string_equal(
        cJSON_GetArrayItem(cJSON_GetObjectItem(f, "colors"), 1)->valuestring,
        "blue");
    cJSON_Delete(j);
}

/* A log written by one writer: what the text has and lacks, and that it
 * comes back. */
struct writer_case {
    const char *name;
    void (*log)(struct game_log *l);
    enum fmt_to to;            /* TO_FLIERLOG or TO_JCZ */
    const char *has[10];
    const char *lacks[2];
    bool lossless;             /* expect_lossless() */
    bool back;                 /* through .jcz: the same log and audit */
    void (*check)(const char *what, const struct game_log *l,
                  const char *text);
};

static const struct writer_case writer_cases[] = {
    /* Logs the short form cannot say come back through "moves" lists. */
    { "irregular moves", irregular_log, TO_FLIERLOG, { "\"moves\"" },
      .lossless = true },
    /* Other expansions: their sets, flierlog/1.1's "elements" (every
     * element that differs from the edition, once one has no flierlog/1.0
     * key), the figures by name; a turn of two actions is spelt out, and
     * a short form is kept only where it reads back to the very moves. */
    { "expansions", inns_phantom_log, TO_FLIERLOG,
      { "\"format\": \"flierlog/1.1\"",
        "\"sets\": {\"basic:1\": 1, \"flier:1\": 1, "
        "\"inns-and-cathedrals:1\": 1}",
        "\"elements\": {\"small-follower\": 5, \"big-follower\": 1, "
        "\"inn\": true, \"cathedral\": true, \"phantom\": 1}",
        "\"deploy\": \"road:WE\", \"meeple\": \"big\", \"meeple_id\": "
        "\"0.big.1\"}",
        "{\"turn\": 2, \"player\": \"Ben\", \"moves\": [{\"move\": "
        "\"place\", \"tile\": \"BA/RFr\"",
        "\"meeple\": \"phantom\", \"meeple_id\": \"1.phantom.1\"}, "
        "{\"move\": \"commit\"}]}",
        "{\"turn\": 3, \"moves\": [",
        "\"fly\": {\"roll\": 1, \"land\": \"city:N\"}, \"meeple\": "
        "\"phantom\", \"meeple_id\": \"1.phantom.1\"}",
        "\"deploy\": \"city:N\", \"meeple_id\": \"0.small.3\", \"pass\": "
        "true}" },
      { "\"followers\"" }, .lossless = true },
    /* no element beyond flierlog/1.0's, so flierlog/1 it stays */
    { "the River", river_log, TO_FLIERLOG,
      { "\"format\": \"flierlog/1\",", "\"river/1:1\": 1}",
        "\"start\": {\"tile\": \"RI/s\", \"at\": [0, 0], \"rot\": 0}" },
      { "\"elements\"" }, .lossless = true },
    /* "deploy" at another tile, which only flierlog/1.2 reads */
    { "a barn off the tile placed", barn_log, TO_FLIERLOG,
      { "\"format\": \"flierlog/1.2\"",
        "\"deploy\": {\"at\": [1, 1], \"segment\": \"field:NL.WR\"}, "
        "\"meeple\": \"barn\"" },
      .lossless = true },
    /* the top-level lists, seats by number */
    { "fallbacks", fallbacks_log, TO_FLIERLOG,
      { "\"end_turn\": 1", "\"claims\": [{\"turn\": 2", "\"player\": 1",
        "\\\"quoted\\\"\\n\\t\\u0001 é" },
      .lossless = true },
    /* ---- the .jcz "flierd" object */
    { "disputed, to .jcz", disputed_log, TO_JCZ, .back = true,
      .check = disputed_object },
    /* a plain log gets no object at all */
    { "a plain log, to .jcz", plain_log, TO_JCZ, .lacks = { "flierd" } },
    /* a flierlog without meeple ids: the save names the meeples the
     * auditor picks (JCloisterZone needs real ids) and keeps that they
     * were open */
    { "open meeples, to .jcz", open_meeples_log, TO_JCZ,
      { "\"meepleId\":\"0.small.1\"", "\"meepleId\":\"1.small.1\"",
        "\"meepleId\":\"0.small.2\"",
        "\"meeples\":[{\"message\":1,\"owner\":0,\"n\":0}" },
      .back = true },
};

/* One row of writer_cases[]. */
static void test_writer(void **state)
{
    const struct writer_case *c = *state;
    struct game_log l;
    struct buf out = BUF_INIT;
    c->log(&l);
    if (c->to == TO_JCZ)
        mlog_write_jcz(&l, &out);
    else
        mlog_write_flierlog(&l, &out);
    for (size_t i = 0; i < N_OF(c->has) && c->has[i]; i++)
        if (!strstr(out.p, c->has[i]))
            fail_msg("%s: the text lacks '%s':\n%s", c->name, c->has[i],
                     out.p);
    for (size_t i = 0; i < N_OF(c->lacks) && c->lacks[i]; i++)
        if (strstr(out.p, c->lacks[i]))
            fail_msg("%s: the text has '%s':\n%s", c->name, c->lacks[i],
                     out.p);
    if (c->check)
        c->check(c->name, &l, out.p);
    buf_release(&out);
    if (c->lossless)
        expect_lossless(c->name, &l);
    if (c->back) {
        struct game_log back;
        through(c->name, &l, TO_JCZ, &back, &out);
        expect_same_log(c->name, &l, &back, false);
        expect_same_audit(c->name, &l, &back);
        game_log_release(&back);
        buf_release(&out);
    }
    game_log_release(&l);
}

/* .jcz -> flierlog -> .jcz keeps every number: draws and the die's. */
static void test_jcz_numbers_survive(void **state)
{
    static const char save[] =
        "{\"initialRandom\":0.123456789012345678,\"setup\":{\"sets\":"
        "{\"basic:1\":1,\"flier:1\":1}},\"players\":[{\"name\":\"A\"},"
        "{\"name\":\"B\"}],\"replay\":[{\"type\":\"PLACE_TILE\","
        "\"payload\":{\"tileId\":\"FL/F.o\",\"rotation\":\"R90\","
        "\"position\":[0,1]}},{\"type\":\"DEPLOY_MEEPLE\",\"payload\":"
        "{\"pointer\":{\"position\":[0,1],\"feature\":\"FlyingMachine\","
        "\"location\":\"I\"},\"meepleId\":\"0.small.1\",\"random\":"
        "0.7071067811865476}},{\"type\":\"COMMIT\",\"payload\":{\"random\":"
        "0.30000000000000004}},{\"type\":\"PLACE_TILE\",\"payload\":"
        "{\"tileId\":\"BA/RFr\",\"rotation\":\"R0\",\"position\":"
        "[1,0]}},{\"type\":\"PASS\",\"payload\":{}},{\"type\":\"COMMIT\","
        "\"payload\":{}}]}";
    struct game_log jcz, fl, back;
    struct buf t1 = BUF_INIT, t2 = BUF_INIT;
    struct err e;
    enum mlog_format fmt;
    (void)state;
    assert_int_equal(parse_text(save, strlen(save), &jcz, &fmt, &e), ST_OK);
    through("numbers", &jcz, TO_FLIERLOG, &fl, &t1);
    assert_non_null(strstr(t1.p, "\"draw\": 0.12345678901234568"));
    assert_non_null(strstr(t1.p, "\"fly\": {\"roll\": 3, \"random\": "
                                 "0.7071067811865476, \"land\": "
                                 "\"returned\"}"));
    assert_non_null(strstr(t1.p, "\"draw\": 0.30000000000000004"));
    through("numbers", &fl, TO_JCZ, &back, &t2);
    expect_same_log("numbers", &jcz, &back, true);
    assert_non_null(strstr(t2.p, "\"random\":0.7071067811865476"));
    assert_non_null(strstr(t2.p, "\"random\":0.30000000000000004"));
    assert_non_null(strstr(t2.p, "\"initialRandom\":0.12345678901234568"));
    game_log_release(&jcz);
    game_log_release(&fl);
    game_log_release(&back);
    buf_release(&t1);
    buf_release(&t2);
}

#define JCZ_HEAD "{\"setup\": {\"sets\": {\"basic:1\": 1}}, \"players\": " \
                 "[{\"name\": \"A\"}, {\"name\": \"B\"}], \"replay\": [{"  \
                 "\"type\": \"PASS\", \"payload\": {}}], \"flierd\": "

static const struct {
    const char *text;
    enum status st;
    const char *has;
} flierd_errs[] = {
    { JCZ_HEAD "[]}", ST_PARSE, "flierd: expected an object" },
    { JCZ_HEAD "{\"version\": 2}}", ST_UNSUPPORTED,
      "unsupported: flierd.version 2 (this flierd reads 1)" },
    { JCZ_HEAD "{\"colors\": [\"red\", \"blue\", \"x\"]}}", ST_PARSE,
      "flierd.colors" },
    { JCZ_HEAD "{\"draws\": [{\"message\": 1, \"draw\": 0.5}]}}", ST_PARSE,
      "flierd.draws[0].message: expected an integer in 0..0" },
    { JCZ_HEAD "{\"draws\": [{\"message\": 0, \"draw\": 2}]}}", ST_PARSE,
      "flierd.draws[0].draw" },
    { JCZ_HEAD "{\"meeples\": [{\"message\": 0, \"owner\": \"x\", \"n\": "
               "0}]}}",
      ST_PARSE, "flierd.meeples[0].owner" },
    { JCZ_HEAD "{\"discards\": [{\"before\": 2, \"tile\": \"BA/C\"}]}}",
      ST_PARSE, "flierd.discards[0].before" },
    { JCZ_HEAD "{\"discards\": [{\"before\": 1, \"tile\": \"BA/C\"}, "
               "{\"before\": 0, \"tile\": \"BA/C\"}]}}",
      ST_PARSE, "flierd.discards[1].before" },
    { JCZ_HEAD "{\"discards\": [{\"before\": 0}]}}", ST_PARSE,
      "flierd.discards[0].tile" },
    { JCZ_HEAD "{\"discards\": [{\"before\": 0, \"tile\": \"BA/C\", "
               "\"player\": 2}]}}",
      ST_PARSE, "flierd.discards[0].player" },
    { JCZ_HEAD "{\"claims\": [{\"turn\": 1, \"players\": [5], \"feature\": "
               "\"city\", \"points\": 2}]}}",
      ST_PARSE, "flierd.claims[0].players[0]" },
    { JCZ_HEAD "{\"totals\": [{\"turn\": 1, \"scores\": {\"Q\": 1}}]}}",
      ST_PARSE, "flierd.totals[0].scores.Q" },
    { JCZ_HEAD "{\"notes\": [{\"turn\": 1, \"text\": 5}]}}", ST_PARSE,
      "flierd.notes[0].text" },
};

static void test_jcz_flierd_errors(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_OF(flierd_errs); i++) {
        struct game_log l;
        struct err e;
        enum mlog_format fmt;
        const char *t = flierd_errs[i].text;
        enum status st = parse_text(t, strlen(t), &l, &fmt, &e);
        game_log_release(&l);
        if (st != flierd_errs[i].st || !strstr(e.msg, flierd_errs[i].has))
            fail_msg("%s\n  got %s '%s'", t, status_name(st), e.msg);
        assert_int_equal(fmt, MLOG_JCZ);
    }
}

/* ---- round trips -------------------------------------------------------- */

static int list_dir(const char *sub, const char *ext, char names[][128],
                    int max)
{
    char dir[512];
    struct dirent *de;
    int n = 0;
    snprintf(dir, sizeof dir, "%s/%s", FLIERD_SAMPLES_DIR, sub);
    DIR *d = opendir(dir);
    if (!d)
        fail_msg("cannot open %s", dir);
    while ((de = readdir(d)) != NULL && n < max) {
        size_t len = strlen(de->d_name), el = strlen(ext);
        if (len > el && strcmp(de->d_name + len - el, ext) == 0 &&
            strlen(sub) + len < 128 &&
            snprintf(names[n], 128, "%s%s", sub, de->d_name) < 128)
            n++;
    }
    closedir(d);
    return n;
}

/* Every sample .jcz (forged ones too) -> flierlog -> .jcz: the same log
 * and the same audit (Abbey & Mayor's moves between turns included);
 * the flierlog samples -> .jcz -> flierlog. */
static void test_samples_round_trip(void **state)
{
    static char names[64][128];
    (void)state;
    int n = list_dir("", ".jcz", names, 64);
    n += list_dir("forged/", ".jcz", names + n, 64 - n);
    assert_true(n >= 9);
    for (int i = 0; i < n; i++) {
        struct game_log jcz, fl, back;
        struct buf t1 = BUF_INIT, t2 = BUF_INIT;
        sample_log(names[i], &jcz);
        through(names[i], &jcz, TO_FLIERLOG, &fl, &t1);
        through(names[i], &fl, TO_JCZ, &back, &t2);
        expect_same_log(names[i], &jcz, &back, true);
        expect_same_audit(names[i], &jcz, &fl);
        expect_same_audit(names[i], &jcz, &back);
        game_log_release(&jcz);
        game_log_release(&fl);
        game_log_release(&back);
        buf_release(&t1);
        buf_release(&t2);
    }
    n = list_dir("", ".flierlog", names, 64);
    n += list_dir("rules/", ".flierlog", names + n, 64 - n);
    assert_true(n >= 8);
    for (int i = 0; i < n; i++) {
        struct game_log l;
        sample_log(names[i], &l);
        expect_lossless(names[i], &l);
        game_log_release(&l);
    }
}

/* The JSON reports of two valid logs of one game are the same bytes
 * (a violation would name its move, which differs between formats). */
static void expect_same_report(const char *what, const struct game_log *a,
                               const struct game_log *b)
{
    struct buf ja = BUF_INIT, jb = BUF_INIT;
    struct report ra, rb;
    audit_run(a, NULL, &ra, NULL);
    audit_run(b, NULL, &rb, NULL);
    mlog_report_json(what, MLOG_JCZ, a, &ra, &ja);
    mlog_report_json(what, MLOG_JCZ, b, &rb, &jb);
    if (strcmp(ja.p, jb.p) != 0)
        fail_msg("%s: the reports differ:\n%s\n%s", what, ja.p, jb.p);
    report_release(&ra);
    report_release(&rb);
    buf_release(&ja);
    buf_release(&jb);
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

/* Every game JCloisterZone recorded with The River, Inns & Cathedrals,
 * the Phantom, Traders & Builders, Abbey & Mayor, the Big Box and The
 * Tower, The Princess & the Dragon, The Count and Darmstadt (read
 * in place from the shared folder, never copied here): .jcz -> .jcz and
 * .jcz -> flierlog -> .jcz give the same log, the flierlog survives its
 * own round trips, and all of them audit alike, to the bytes of the JSON
 * report (figures, expressions, items, strengths and receipts of the
 * score events too). */
static void test_expansion_corpora(void **state)
{
    static const char *const dirs[] = { "river", "ic", "phantom",
                                        "tb",    "am", "bigbox", "tower",
                                        "pd", "count", "darmstadt",
                                        "monasteries", "siege", "bigtop" };
    static char names[128][128];
    int games = 0;
    (void)state;
    for (size_t k = 0; k < N_OF(dirs); k++) {
        char dir[512];
        struct dirent *de;
        int n = 0;
        snprintf(dir, sizeof dir, "%s/peer/jcz/expansions/%s",
                 FLIERD_SHARED_DIR, dirs[k]);
        DIR *d = opendir(dir);
        if (!d)
            fail_msg("cannot open %s (the shared test data)", dir);
        while ((de = readdir(d)) != NULL && n < 128) {
            size_t len = strlen(de->d_name);
            if (len > 4 && len < 128 &&
                strcmp(de->d_name + len - 4, ".jcz") == 0)
                snprintf(names[n++], 128, "%.127s", de->d_name);
        }
        closedir(d);
        qsort(names, (size_t)n, sizeof names[0], cmp_name);
        assert_true(n >= 30);
        for (int i = 0; i < n; i++) {
            char path[700];
            struct buf raw = BUF_INIT, t1 = BUF_INIT, t2 = BUF_INIT,
                       t3 = BUF_INIT;
            struct err e;
            enum mlog_format fmt;
            struct game_log jcz, again, fl, back;
            struct report r;
            snprintf(path, sizeof path, "%s/%.127s", dir, names[i]);
            if (cli_read_input(path, &raw, &e) != ST_OK ||
                parse_text(raw.p, raw.len, &jcz, &fmt, &e) != ST_OK)
                fail_msg("%s: %s", path, e.msg);
            audit_run(&jcz, NULL, &r, NULL);
            if (!r.valid || !r.finished)
                fail_msg("%s: not a valid finished game", names[i]);
            /* a log that says where the game ends: the last round of
             * abbeys may still be declined after it */
            jcz.end_turn = r.turns;
            report_release(&r);
            audit_run(&jcz, NULL, &r, NULL);
            if (!r.valid || !r.finished)
                fail_msg("%s: not valid with its end turn", names[i]);
            report_release(&r);
            jcz.end_turn = -1;
            through(names[i], &jcz, TO_JCZ, &again, &t1);
            expect_same_log(names[i], &jcz, &again, true);
            through(names[i], &jcz, TO_FLIERLOG, &fl, &t2);
            expect_same_log(names[i], &jcz, &fl, false);
            /* every turn in its readable form: abbeys declined, wagons,
             * builders' second tiles (but the Phantom's two figures, and
             * the turns with the City of Carcassonne's moves or an
             * escape from a besieged city, which flierlog/1.3 spells
             * out, and acrobats beside the turn's tile or a pyramid
             * scored, spelt out as moves too) */
            if (strcmp(dirs[k], "bigbox") != 0 &&
                strcmp(dirs[k], "phantom") != 0 &&
                strcmp(dirs[k], "bigtop") != 0 &&
                strcmp(dirs[k], "count") != 0 &&
                strcmp(dirs[k], "siege") != 0 && strstr(t2.p, "\"moves\""))
                fail_msg("%s: a turn spelt out:\n%s", names[i],
                         strstr(t2.p, "\"moves\""));
            games++;
            through(names[i], &fl, TO_JCZ, &back, &t3);
            expect_same_log(names[i], &jcz, &back, true);
            assert_string_equal(t1.p, t3.p);
            expect_lossless(names[i], &fl);
            expect_same_audit(names[i], &jcz, &again);
            expect_same_audit(names[i], &jcz, &fl);
            expect_same_audit(names[i], &jcz, &back);
            expect_same_report(names[i], &jcz, &fl);
            expect_same_report(names[i], &jcz, &back);
            game_log_release(&jcz);
            game_log_release(&again);
            game_log_release(&fl);
            game_log_release(&back);
            buf_release(&raw);
            buf_release(&t1);
            buf_release(&t2);
            buf_release(&t3);
        }
    }
    print_message("%d games round-tripped\n", games);
    assert_true(games >= 210);
}

static const char *const seat_names[GAME_MAX_PLAYERS] = {
    "Ada", "Ben", "Cleo", "Dov", "Eli", "Fay"
};

static void test_sim_round_trip(void **state)
{
    struct sim_policy p = sim_policy_default();
    int discards = 0;
    (void)state;
    for (int c3 = 0; c3 <= 1; c3++) {
        for (uint64_t seed = 1; seed <= 30; seed++) {
            struct rules r;
            struct game_log l, back;
            struct buf t = BUF_INIT;
            char what[48];
            rules_init(&r);
            r.set_copies[tile_set_find(c3 ? "basic:2" : "basic:1")] = 1;
            r.set_copies[tile_set_find(c3 ? "flier:2" : "flier:1")] = 1;
            r.n_players = 2 + (int)(seed % 5);
            r.figures[FIG_SMALL] = 7;
            r.figures[FIG_ABBOT] = c3;
            r.flags = (true) ? (r.flags | RF_FARMERS) : (r.flags & ~(uint32_t)RF_FARMERS);
            r.flags = (c3) ? (r.flags | RF_GARDENS) : (r.flags & ~(uint32_t)RF_GARDENS);
            r.opt[OPT_TINY_CITY] = seed % 7 == 0 ? 2 : 4;
            snprintf(what, sizeof what, "sim c%d seed %llu", c3 ? 3 : 2,
                     (unsigned long long)seed);
            sim_play(&r, seat_names, seed, &p, &l);
            for (size_t i = 0; i < l.n_moves; i++)
                discards += l.moves[i].kind == MV_DISCARD;
            /* flierlog -> .jcz -> flierlog */
            expect_lossless(what, &l);
            /* .jcz -> flierlog -> .jcz */
            struct game_log fl, again;
            struct buf t2 = BUF_INIT, t3 = BUF_INIT;
            through(what, &l, TO_JCZ, &back, &t);
            expect_same_log(what, &l, &back, true);
            through(what, &back, TO_FLIERLOG, &fl, &t2);
            through(what, &fl, TO_JCZ, &again, &t3);
            expect_same_log(what, &back, &again, true);
            assert_string_equal(t.p, t3.p);
            expect_same_audit(what, &l, &again);
            game_log_release(&fl);
            game_log_release(&again);
            game_log_release(&back);
            game_log_release(&l);
            buf_release(&t);
            buf_release(&t2);
            buf_release(&t3);
        }
    }
    assert_true(discards > 0); /* the games put tiles aside too */
}

/* ---- random logs: anything a reader can make survives both formats ------ */

static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static int rnd(uint64_t *s, int n)
{
    return (int)(rng_next(s) % (uint64_t)n);
}

static double unit(uint64_t *s)
{
    return (double)(rng_next(s) >> 11) / 9007199254740992.0;
}

/* A die's number as the readers keep it: one that gives the roll and is
 * not the writers' own (mlog_flight_draw()), else -1. */
static double flight_random(uint64_t *s, int roll)
{
    if (roll < 1 || roll > 3)
        return -1.0;
    double r = (roll - 1) / 3.0 + unit(s) / 3.0 * 0.99;
    if ((int)(r * 3.0) + 1 != roll || r == (roll - 1) / 3.0 + 1.0 / 6.0)
        return -1.0;
    return r;
}

static void random_segment(uint64_t *s, struct move *m)
{
    static const uint8_t kinds[] = { FEAT_ROAD, FEAT_CITY, FEAT_FIELD,
                                     FEAT_MONASTERY, FEAT_GARDEN,
                                     FEAT_FLIER };
    m->feature = kinds[rnd(s, 6)];
    if (m->feature == FEAT_ROAD || m->feature == FEAT_CITY)
        m->mask = (uint8_t)(1 + rnd(s, 15));
    else if (m->feature == FEAT_FIELD)
        m->mask = (uint8_t)(1 + rnd(s, 255));
    else
        m->mask = 0;
}

static void random_move(uint64_t *s, struct game_log *l)
{
    static const char *const tiles[] = { "BA/RFr", "FL/F.o", "BA/L",
                                         "FL/Rr.d", "BA/CcG", "BA/XYZ" };
    static const int ns[] = { 0, 1, 2, 3, 255 };
    int k = rnd(s, 10);
    int kind = k < 3 ? MV_PLACE : k < 5 ? MV_DEPLOY : k == 5 ? MV_PASS
             : k == 6 ? MV_RECALL : k == 7 ? MV_DISCARD : MV_COMMIT;
    struct move *m = add(l, kind, rnd(s, 4) == 0 ? -1
                                                 : rnd(s, l->rules.n_players));
    if (kind == MV_PLACE || kind == MV_DISCARD) {
        const char *id = tiles[rnd(s, 6)];
        snprintf(m->tile_id, sizeof m->tile_id, "%s", id);
        m->tile = (int16_t)tile_find(id);
        m->draw = rnd(s, 2) ? unit(s) : -1.0;
        if (kind == MV_PLACE) {
            m->at = (struct pos){ rnd(s, 7) - 3, rnd(s, 7) - 3 };
            if (rnd(s, 20) == 0)
                m->at.x = 5000;
            m->rot = (uint8_t)rnd(s, 4);
        }
    } else if (kind == MV_DEPLOY || kind == MV_RECALL) {
        m->at = (struct pos){ rnd(s, 7) - 3, rnd(s, 7) - 3 };
        random_segment(s, m);
        m->meeple = (uint8_t)rnd(s, FIG__COUNT);
        m->meeple_n = (uint8_t)ns[rnd(s, 5)];
        m->meeple_owner = (int8_t)(rnd(s, 6) == 0 ? 127
                                                  : rnd(s, l->rules.n_players));
        if (kind == MV_DEPLOY && m->feature == FEAT_FLIER) {
            m->roll = rnd(s, 7) - 2;
            m->draw = rnd(s, 2) ? flight_random(s, m->roll) : -1.0;
        }
    }
}

/* Each element of the units' tables, at random: a figure count within
 * its range, a switch on or off; now and then the C3 sets. */
static void random_elements(uint64_t *s, struct rules *r)
{
    if (rnd(s, 4) == 0)
        return; /* the edition's own */
    if (rnd(s, 3) == 0) {
        memset(r->set_copies, 0, sizeof r->set_copies);
        r->set_copies[tile_set_find("basic:2")] = 1;
        r->set_copies[tile_set_find(rnd(s, 2) ? "inns-and-cathedrals:2"
                                              : "river/2:2")] = 1;
    }
    for (int u = 0; u < EXP__COUNT; u++)
        for (const struct element *el = expansion_get(u)->elements;
             el && el->key; el++) {
            int v = rnd(s, 2) ? 0 : rnd(s, el->max + 1);
            element_set(r, el, v);
        }
    for (int o = 0; o < OPT__COUNT; o++) /* a variant now and then */
        for (int v = 0; v < 16 && rnd(s, 3) == 0; v++)
            if (option_value_name(o, v) && rnd(s, 2))
                r->opt[o] = v;
}

static void random_extras(uint64_t *s, struct game_log *l, int turns)
{
    static const char *const texts[] = { NULL, "", "Ben \"B\"", "a\nb",
                                         "é ü" };
    for (int i = rnd(s, 4); i > 0; i--) {
        struct claim_event *c = game_log_push_claim(l);
        c->turn = rnd(s, turns + 3) - 1;
        c->players = (uint8_t)rnd(s, 1 << l->rules.n_players);
        c->feature = (uint8_t)(FEAT_ROAD + rnd(s, 5));
        c->points = rnd(s, 30) - 5;
    }
    for (int i = rnd(s, 3); i > 0; i--) {
        struct claim_total *t = game_log_push_total(l);
        t->turn = rnd(s, turns + 3) - 1;
        t->seats = (uint8_t)rnd(s, 1 << l->rules.n_players);
        for (int p = 0; p < l->rules.n_players; p++)
            if (t->seats & (1u << p))
                t->score[p] = rnd(s, 100);
    }
    for (int i = rnd(s, 3); i > 0; i--)
        game_log_add_note(l, rnd(s, turns + 3) - 1, texts[rnd(s, 5)],
                          texts[rnd(s, 5)]);
}

static void test_random_logs(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 300; seed++) {
        uint64_t s = seed;
        struct game_log l;
        char what[32];
        two_player_log(&l);
        l.rules.n_players = 2 + rnd(&s, 3);
        snprintf(l.names[2], LOG_NAME_MAX, "%s", rnd(&s, 2) ? "Ada" : "Cy");
        snprintf(l.colors[0], sizeof l.colors[0], "%s",
                 rnd(&s, 2) ? "red" : "");
        l.end_turn = rnd(&s, 3) ? -1 : rnd(&s, 6);
        random_elements(&s, &l.rules);
        for (int i = rnd(&s, 30); i > 0; i--)
            random_move(&s, &l);
        int turns = 0;
        for (size_t i = 0; i < l.n_moves; i++)
            turns += l.moves[i].kind == MV_PLACE;
        if (rnd(&s, 2))
            l.end_turn = turns;
        random_extras(&s, &l, turns);
        snprintf(what, sizeof what, "random log %llu",
                 (unsigned long long)seed);
        expect_lossless(what, &l);
        game_log_release(&l);
    }
}

/* The first json block of docs/log-format.md after the line `after`
 * (NULL: the first of all), parsed into l; b keeps the text, which ends
 * where the block's ``` stood. Returns the block. */
static const char *doc_example(const char *after, struct buf *b,
                               struct game_log *l)
{
    char path[512];
    struct err e;
    snprintf(path, sizeof path, "%s/../docs/log-format.md",
             FLIERD_SAMPLES_DIR);
    if (cli_read_input(path, b, &e) != ST_OK)
        fail_msg("%s: %s", path, e.msg);
    char *start = after ? strstr(b->p, after) : b->p;
    assert_non_null(start);
    start = strstr(start, "```json\n");
    assert_non_null(start);
    start += 8;
    char *end = strstr(start, "```");
    assert_non_null(end);
    *end = '\0';
    parse_ok_text(start, l);
    return start;
}

/* ---- the examples of docs/log-format.md, as rows ----------------------- */

/* Rows name what they check and leave the rest zero. */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

/* An example of the format's documentation: it reads, it is the valid
 * and finished game its text tells, and what the row says of it. */
struct doc_case {
    const char *name;
    const char *after;        /* the heading before its block; NULL: first */
    int turns;                /* report.turns; 0: not pinned */
    int score[2];             /* report.score of each seat */
    int flights;              /* n_flights, each landed; 0: not pinned */
    int flight_fig;           /* the first flight's figure (if flights) */
    size_t n_events;          /* 0: not pinned */
    /* events, and where each stands in the report (by index) */
    struct fx_event_want events[3];
    size_t event_at[3];
    bool writes_back;         /* the flierlog writer gives the block back */
    bool lossless;            /* expect_lossless() */
    const char *replay_has[6]; /* in the replay's JSON */
    const char *jcz_has[4];   /* in the .jcz the writer makes */
    bool jcz_back;            /* that .jcz reads back to the same audit */
    /* what the fields do not say: of the log as read, of its audit */
    void (*check_log)(const char *what, const struct game_log *l);
    void (*check)(const char *what, const struct game_log *l,
                  const struct report *r);
};

/* The complete example: its claims and notes. */
static void first_example_log(const char *what, const struct game_log *l)
{
    same(what, "claims", (long)l->n_claims, 3);
    same(what, "notes", (long)l->n_notes, 2);
}

/* Other expansions: the large follower and the phantom, the inn and the
 * cathedral, and the large follower's deployment. */
static void expansions_log(const char *what, const struct game_log *l)
{
    same(what, "big followers", l->rules.figures[FIG_BIG], 1);
    same(what, "phantoms", l->rules.figures[FIG_PHANTOM], 1);
    same(what, "flags", (long)l->rules.flags,
         (long)(RF_FARMERS | RF_INNS | RF_CATHEDRALS));
    same(what, "move 1's meeple", l->moves[1].meeple, FIG_BIG);
}

static void between_turns_log(const char *what, const struct game_log *l)
{
    same(what, "abbeys", l->rules.counts[COUNT_ABBEYS], 1);
    same(what, "builders", l->rules.figures[FIG_BUILDER], 1);
}

static void tower_log(const char *what, const struct game_log *l)
{
    same(what, "the tower", (l->rules.flags & RF_TOWER) != 0, 1);
}

/* The id of the meeple of message i of a save, "" when none. */
static const char *replay_meeple(const cJSON *save, int i)
{
    const cJSON *msg = cJSON_GetArrayItem(
        cJSON_GetObjectItemCaseSensitive(save, "replay"), i);
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(msg, "payload"), "meepleId");
    return cJSON_IsString(id) ? id->valuestring : "";
}

/* flierlog/1.2: Ben's wagon stays on Ada's turn 7 (a PASS alone), the
 * abbey declined in the last round (a PASS alone), the two wagons'
 * moves after the abbey, each with its owner's COMMIT; in the .jcz,
 * Ben's wagon's move is 1.wagon.1. */
static void between_turns_moves(const char *what, const struct game_log *l,
                                const struct report *r)
{
    size_t k = 0, passes = 0;
    (void)r;
    while (k < l->n_moves && l->moves[k].src != 6)
        k++;
    same(what, "kind after turn 6", l->moves[k + 3].kind, MV_PASS);
    same(what, "its player", l->moves[k + 3].player, 1);
    same(what, "the last kind", l->moves[l->n_moves - 1].kind, MV_COMMIT);
    same(what, "its player", l->moves[l->n_moves - 1].player, 1);
    same(what, "the last meeple", l->moves[l->n_moves - 2].meeple,
         FIG_WAGON);
    same(what, "its owner", l->moves[l->n_moves - 2].meeple_owner, 1);
    for (k = 0; k < l->n_moves; k++)
        passes += l->moves[k].kind == MV_PASS && l->moves[k].src == 12;
    same(what, "passes of entry 12", (long)passes, 1);
    struct buf j = BUF_INIT;
    mlog_write_jcz(l, &j);
    cJSON *save = cJSON_Parse(j.p);
    buf_release(&j);
    int n = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(save,
                                                                 "replay"));
    assert_string_equal(replay_meeple(save, n - 2), "1.wagon.1");
    assert_string_equal(replay_meeple(save, n - 4), "0.wagon.1");
    cJSON_Delete(save);
}

/* The Tower: a ransom as two "ransom" events in turn 6, 3 points from
 * Ben to Ada; in the replay, the tower's two floors and Ben's follower
 * held on turn 5, and nobody held after the ransom. */
static void tower_ransom(const char *what, const struct game_log *l,
                         const struct report *r)
{
    int ransoms = 0;
    for (size_t k = 0; k < r->n_events; k++)
        if (r->events[k].feature == FEAT_RANSOM) {
            ransoms++;
            same(what, "ransom turn", r->events[k].turn, 6);
            same(what, "ransom points", r->events[k].points,
                 r->events[k].players == 1 ? 3 : -3);
        }
    same(what, "ransom events", ransoms, 2);
    struct replay rp;
    struct buf rj = BUF_INIT;
    replay_build(l, NULL, &rp, NULL);
    mlog_replay_json(l, r, &rp, &rj);
    cJSON *doc = cJSON_Parse(rj.p), *t;
    int towers = 0, held = 0;
    cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(doc, "turns")) {
        /* the tower's marks (its height) and counters (prisoners each
         * seat holds, Ada's first) */
        const cJSON *tw = cJSON_GetObjectItemCaseSensitive(t, "marks");
        const cJSON *pr = cJSON_GetObjectItemCaseSensitive(t, "counters");
        if (tw)
            towers = cJSON_GetObjectItemCaseSensitive(
                         cJSON_GetArrayItem(tw, 0), "value")->valueint;
        if (pr)
            held = cJSON_GetObjectItemCaseSensitive(
                       cJSON_GetArrayItem(pr, 0), "value")->valueint;
        if (cJSON_GetObjectItemCaseSensitive(t, "turn")->valueint == 5) {
            same(what, "floors by turn 5", towers, 2);
            same(what, "held on turn 5", held, 1); /* Ben's farmer */
        }
    }
    same(what, "held at the end", held, 0); /* ransomed on turn 6 */
    cJSON_Delete(doc);
    buf_release(&rj);
    replay_release(&rp);
}

static const struct doc_case doc_cases[] = {
    /* The complete example (the first json block). */
    { "the complete example", NULL, .turns = 6, .score = { 8, 4 },
      .flights = 1, .check_log = first_example_log },
    /* flierlog/1.1: the large follower's strength, the inn, the phantom
     * after a flight and its landing. The road: 4 tiles with an inn,
     * strength 2 against 1; the phantom farms, for nothing. */
    { "the example of other expansions",
      "\n## Other expansions (flierlog/1.1)\n", .turns = 5,
      .score = { 12, 0 }, .flights = 1, .flight_fig = FIG_SMALL,
      .n_events = 3,
      .events = { FX_EV(4, FEAT_ROAD,
                        FXW_POINTS | FXW_PLAYERS | FXW_STRENGTH |
                            FXW_N_ITEMS | FXW_ITEMS,
                        .points = 8, .players = 1, .strength = { 2, 1 },
                        .n_items = 2,
                        .items = { { SI_TILES, 4, 4 }, { SI_INN, -1, 4 } }),
                  FX_EV(-1, FEAT_FIELD, FXW_PLAYERS | FXW_POINTS,
                        .players = 2, .points = 0) },
      .event_at = { 0, 2 }, .lossless = true, .check_log = expansions_log },
    /* flierlog/1.3: the princess, the dragon's three steps, the fairy's
     * two kinds of points; the writer gives it back to the byte, and as
     * a .jcz it has the dragon's, the fairy's and the princess's
     * messages. The replay says where the dragon and the fairy came to
     * stand. */
    { "the example of The Princess & the Dragon",
      "\n## The Princess & the Dragon (flierlog/1.3)\n",
      .score = { 5, 9 },
      .events = { FX_EV(7, FEAT_FAIRY, FXW_EXPR, .expr = EXPR_TURN) },
      .event_at = { 0 },
      .replay_has = { "\"figures\":[{\"unit\":\"dragon\",\"name\":"
                      "\"dragon\",\"at\":[1,0]}]",
                      "\"figures\":[{\"unit\":\"dragon\",\"name\":"
                      "\"dragon\",\"at\":[1,-1]}]",
                      "{\"unit\":\"dragon\",\"name\":\"fairy\","
                      "\"at\":[-1,0]}",
                      "\"marks\":[\"volcano\"]", "\"princess\":true" },
      .writes_back = true,
      .jcz_has = { "\"MOVE_NEUTRAL_FIGURE\"",
                   "\"figureId\":\"dragon.1\",\"to\":[0,-1]",
                   "\"source\":\"PRINCESS\"" } },
    /* flierlog/1.2: a wagon that stays on another's turn, a builder's
     * second tile with the abbey declined before it, the last round of
     * abbeys, two wagons moving on. The writer gives it back to the byte
     * (every entry in its short form); as a .jcz it has JCloisterZone's
     * messages, names every meeple and reads back to the same audit. */
    { "the example of flierlog/1.2",
      "\n## Between turns and second tiles (flierlog/1.2)\n", .turns = 13,
      .score = { 15, 14 },
      .events = { FX_EV(3, FEAT_CITY, FXW_EXPR | FXW_POINTS,
                        .expr = EXPR_EMPTY, .points = 0),
                  /* Ben's wagon's city */
                  FX_EV(7, FEAT_CITY, FXW_PLAYERS, .players = 2) },
      .event_at = { 0, 1 }, .writes_back = true, .lossless = true,
      .jcz_back = true, .check_log = between_turns_log,
      .check = between_turns_moves },
    /* flierlog/1.3: two floors, a capture, a ransom (two "ransom"
     * events, 3 points from Ben to Ada), the ransomed follower on top of
     * the tower; Ada 7, Ben 1. Its .jcz has JCloisterZone's messages and
     * reads back to the same audit. */
    { "the example of flierlog/1.3", "\n## The Tower (flierlog/1.3)\n",
      .score = { 7, 1 }, .lossless = true,
      .jcz_has = { "\"PLACE_TOKEN\"", "\"CAPTURE_FOLLOWER\"",
                   "\"PAY_RANSOM\"" },
      .jcz_back = true, .check_log = tower_log, .check = tower_ransom },
    /* flierlog/1.1, the shrines: the monastery completed at turn 8
     * challenges the shrine beside it (its monk home, a 0-point event)
     * and scores 9. The writer gives it back to the byte; its .jcz calls
     * the shrine a Monastery and reads back to the same audit. */
    { "the example of the shrines", "\n## The shrines (flierlog/1.1)\n",
      .turns = 8, .score = { 9, 0 }, .n_events = 2,
      .events = { FX_EV(8, FEAT_SHRINE,
                        FXW_EXPR | FXW_POINTS | FXW_PLAYERS | FXW_N_ITEMS |
                            FXW_ITEMS,
                        .expr = EXPR_CHALLENGED, .points = 0, .players = 2,
                        .n_items = 1,
                        .items = { { SI_SHRINE_CHALLENGE, -1, 0 } }),
                  FX_EV(8, FEAT_MONASTERY, FXW_POINTS | FXW_PLAYERS,
                        .points = 9, .players = 1) },
      .event_at = { 0, 1 }, .writes_back = true, .lossless = true,
      .jcz_has = { "\"feature\":\"Monastery\"" }, .jcz_back = true },
};

/* Everything c says of the audit r of its example l. */
static void expect_doc_report(const struct doc_case *c,
                              const struct game_log *l,
                              const struct report *r)
{
    if (!r->valid)
        fail_msg("%s is invalid: %s", c->name, r->violations[0].msg);
    if (!r->finished)
        fail_msg("%s is not finished", c->name);
    if (c->turns)
        same(c->name, "turns", r->turns, c->turns);
    for (int p = 0; p < 2; p++)
        same(c->name, "score", r->score[p], c->score[p]);
    if (c->flights) {
        same(c->name, "flights", (long)r->n_flights, c->flights);
        same(c->name, "landed", r->flights[0].landed, 1);
        same(c->name, "figure", r->flights[0].figure, c->flight_fig);
    }
    if (c->n_events)
        same(c->name, "events", (long)r->n_events, (long)c->n_events);
    for (size_t i = 0; i < N_OF(c->events) && c->events[i].ev.feature; i++) {
        const struct score_event *ev =
            fx_find_event(c->name, r, &c->events[i]);
        fx_event_is(c->name, ev, &c->events[i]);
        same(c->name, "event index", (long)(ev - r->events),
             (long)c->event_at[i]);
    }
    if (c->check)
        c->check(c->name, l, r);
}

/* The replay's JSON and the writers' texts of the example l. */
static void expect_doc_texts(const struct doc_case *c,
                             const struct game_log *l,
                             const struct report *r, const char *block)
{
    struct buf w = BUF_INIT;
    if (c->replay_has[0]) {
        struct replay rp;
        replay_build(l, NULL, &rp, NULL);
        mlog_replay_json(l, r, &rp, &w);
        replay_release(&rp);
        for (size_t i = 0; i < N_OF(c->replay_has) && c->replay_has[i]; i++)
            if (!strstr(w.p, c->replay_has[i]))
                fail_msg("%s: the replay lacks '%s':\n%s", c->name,
                         c->replay_has[i], w.p);
        buf_release(&w);
    }
    if (c->writes_back) {
        mlog_write_flierlog(l, &w);
        if (strcmp(w.p, block) != 0)
            fail_msg("%s: written back as\n%s", c->name, w.p);
        buf_release(&w);
    }
    mlog_write_jcz(l, &w);
    for (size_t i = 0; i < N_OF(c->jcz_has) && c->jcz_has[i]; i++)
        if (!strstr(w.p, c->jcz_has[i]))
            fail_msg("%s: the .jcz lacks '%s':\n%s", c->name, c->jcz_has[i],
                     w.p);
    if (c->jcz_back) {
        struct game_log back;
        struct err e;
        enum mlog_format fmt;
        assert_int_equal(parse_text(w.p, w.len, &back, &fmt, &e), ST_OK);
        expect_same_audit(c->name, l, &back);
        expect_same_report(c->name, l, &back);
        game_log_release(&back);
    }
    buf_release(&w);
}

/* One example of docs/log-format.md: read, audited, written. */
static void test_doc_example(void **state)
{
    const struct doc_case *c = *state;
    struct buf b = BUF_INIT;
    struct game_log l;
    struct report r;
    const char *block = doc_example(c->after, &b, &l);
    if (c->check_log)
        c->check_log(c->name, &l);
    audit_run(&l, NULL, &r, NULL);
    expect_doc_report(c, &l, &r);
    expect_doc_texts(c, &l, &r, block);
    report_release(&r);
    if (c->lossless)
        expect_lossless(c->name, &l);
    game_log_release(&l);
    buf_release(&b);
}

/* ---- flierd convert ----------------------------------------------------- */

static int run_convert(const char *const *args, int n, struct buf *out,
                       struct buf *errs)
{
    char *argv[8];
    FILE *o = tmpfile(), *e = tmpfile();
    char chunk[4096];
    size_t k;
    assert_true(n <= 8);
    for (int i = 0; i < n; i++)
        argv[i] = (char *)args[i];
    int rc = cli_convert(n, argv, o, e);
    rewind(o);
    rewind(e);
    while ((k = fread(chunk, 1, sizeof chunk, o)) > 0)
        buf_append(out, chunk, k);
    while ((k = fread(chunk, 1, sizeof chunk, e)) > 0)
        buf_append(errs, chunk, k);
    buf_append(out, "", 0);
    buf_append(errs, "", 0);
    fclose(o);
    fclose(e);
    return rc;
}

static void test_convert_cli(void **state)
{
    char in[512], tmp[] = "/tmp/flierd-convert-XXXXXX";
    struct buf out = BUF_INIT, errs = BUF_INIT;
    struct game_log a, b;
    (void)state;
    snprintf(in, sizeof in, "%s/c2-2p.jcz", FLIERD_SAMPLES_DIR);
    int fd = mkstemp(tmp);
    assert_true(fd >= 0);
    close(fd);
    /* .jcz -> flierlog file -> .jcz on stdout */
    const char *to_fl[] = { "--to", "flierlog", in, "-o", tmp };
    assert_int_equal(run_convert(to_fl, 5, &out, &errs), 0);
    assert_int_equal(out.len, 0);
    const char *to_jcz[] = { "--to=jcz", tmp };
    assert_int_equal(run_convert(to_jcz, 2, &out, &errs), 0);
    sample_log("c2-2p.jcz", &a);
    struct err e;
    enum mlog_format fmt;
    assert_int_equal(parse_text(out.p, out.len, &b, &fmt, &e), ST_OK);
    assert_int_equal(fmt, MLOG_JCZ);
    expect_same_log("convert", &a, &b, false);
    game_log_release(&a);
    game_log_release(&b);
    buf_release(&out);
    /* the streaming form on stdout */
    const char *nd[] = { "--ndjson", "--to", "flierlog", tmp };
    assert_int_equal(run_convert(nd, 4, &out, &errs), 0);
    assert_memory_equal(out.p, "{\"format\": \"flierlog/1\"", 23);
    buf_release(&out);
    /* unreadable input: 2, the file and the path named */
    FILE *f = fopen(tmp, "wb");
    fputs("{\"format\": \"flierlog/1\", \"edition\": \"C2\", \"players\": "
          "[{\"name\": \"A\"}], \"turns\": [{\"tile\": \"BA/C\"}]}",
          f);
    fclose(f);
    const char *bad[] = { "--to", "jcz", tmp };
    assert_int_equal(run_convert(bad, 3, &out, &errs), 2);
    assert_non_null(strstr(errs.p, tmp));
    assert_non_null(strstr(errs.p, "turns[0].at: missing"));
    buf_release(&errs);
    const char *missing[] = { "--to", "jcz", "/nonexistent/x.jcz" };
    assert_int_equal(run_convert(missing, 3, &out, &errs), 2);
    assert_non_null(strstr(errs.p, "/nonexistent/x.jcz: cannot open"));
    buf_release(&errs);
    /* usage */
    const struct {
        const char *args[4];
        int n, rc;
    } usage[] = {
        { { "--help" }, 1, 0 },
        { { in }, 1, 2 },
        { { "--to", "pdf", in }, 3, 2 },
        { { "--to", "jcz", "--ndjson", in }, 4, 2 },
        { { "--to", "jcz", in, in }, 4, 2 },
        { { "--to", "jcz", "--bogus", in }, 4, 2 },
        { { "--to", "jcz" }, 2, 2 },
    };
    for (size_t i = 0; i < N_OF(usage); i++) {
        assert_int_equal(run_convert(usage[i].args, usage[i].n, &out, &errs),
                         usage[i].rc);
        buf_release(&out);
        buf_release(&errs);
    }
    remove(tmp);
}

/* ---- hostile input ------------------------------------------------------
 * The .jcz side is in test_jcz.c; here the flierlog's own fields and its
 * streaming form, where every line is a record of its own. */

/* Every numeric field of a flierlog with "%s" for the number, the path
 * its message names and a number it reads. */
static const struct {
    struct fdoc d;
    const char *path;
    const char *ok;
} fl_num_fields[] = {
    { ONE("{\"tile\": \"BA/RFr\", \"at\": [%s, 0]}"), "turns[0].at[0]", "1" },
    { ONE("{" PLACED ", \"rot\": %s}"), "turns[0].rot", "90" },
    { ONE("{" PLACED ", \"player\": %s}"), "turns[0].player", "1" },
    { ONE("{" PLACED ", \"turn\": %s}"), "turns[0].turn", "1" },
    { ONE("{" PLACED ", \"fly\": {\"roll\": %s}}"), "turns[0].fly.roll", "2" },
    { ONE("{" PLACED ", \"recall\": [0, %s]}"), "turns[0].recall[1]", "1" },
    { ONE("{" PLACED ", \"claims\": [{\"players\": [0], \"feature\": "
          "\"road\", \"points\": %s}]}"),
      "turns[0].claims[0].points", "1" },
    { ONE("{" PLACED ", \"claims\": [{\"players\": [%s], \"feature\": "
          "\"road\", \"points\": 1}]}"),
      "turns[0].claims[0].players[0]", "1" },
    { ONE("{" PLACED ", \"totals\": {\"Ada\": %s}}"), "turns[0].totals.Ada",
      "1" },
    { ONE("{" PLACED ", \"totals\": [1, %s]}"), "turns[0].totals[1]", "1" },
    { ONE("{\"moves\": [{\"move\": \"place\", \"tile\": \"BA/RFr\", "
          "\"at\": [1, %s]}]}"),
      "turns[0].moves[0].at[1]", "0" },
    { ONE("{\"moves\": [{\"move\": \"deploy\", \"at\": [0, 0], \"segment\": "
          "\"flier\", \"roll\": %s}]}"),
      "turns[0].moves[0].roll", "1" },
    { { .header = ", \"followers\": %s" }, "followers", "1" },
    { { .header = ", \"abbot\": %s" }, "abbot", "1" },
    { { .header = ", \"end_turn\": %s" }, "end_turn", "0" },
    { { .header = ", \"sets\": {\"basic:1\": %s}" }, "sets.basic:1", "1" },
    { { .header = ", \"start\": {\"tile\": \"BA/RCr\", \"at\": [%s, 0]}" },
      "start.at[0]", "1" },
    { { .header = ", \"totals\": [{\"turn\": %s, \"scores\": [1, 2]}]" },
      "totals[0].turn", "1" },
};

/* Random numbers: a draw's in [0, 1), a die's any that gives its roll. */
static const struct {
    struct fdoc d;
    const char *path;
    const char *ok;
} fl_random_fields[] = {
    { ONE("{" PLACED ", \"draw\": %s}"), "turns[0].draw", "0.5" },
    { ONE("{\"tile\": \"BA/C\", \"discard\": true, \"draw\": %s}"),
      "turns[0].draw", "0.5" },
    { ONE("{" PLACED ", \"fly\": {\"roll\": 2, \"random\": %s}}"),
      "turns[0].fly.random", "0.5" },
    { ONE("{\"moves\": [{\"move\": \"deploy\", \"at\": [0, 0], \"segment\": "
          "\"flier\", \"roll\": 2, \"random\": %s}]}"),
      "turns[0].moves[0].random", "0.5" },
};

static const char *const fl_huge[] = {
    "1e999", "-1e400", "1e20", "-1e20", "9007199254740993",
    "-9007199254740993", "1.7976931348623157e308",
};
static const char *const fl_fractions[] = { "0.5", "2.000001", "-1e-300" };

/* text: d with "%s" in its header or turns replaced by num. */
static const char *fl_with_number(const struct fdoc *d, const char *num)
{
    static char header[1024], turns[1024];
    struct fdoc x = *d;
    if (d->header && strstr(d->header, "%s")) {
        snprintf(header, sizeof header, d->header, num);
        x.header = header;
    }
    if (d->turns && strstr(d->turns, "%s")) {
        snprintf(turns, sizeof turns, d->turns, num);
        x.turns = turns;
    }
    return build(&x);
}

static void fl_refused(const char *text, size_t len, enum status want,
                       const char *has1, const char *has2)
{
    struct game_log l;
    struct err e;
    enum mlog_format fmt;
    enum status st = parse_text(text, len, &l, &fmt, &e);
    game_log_release(&l);
    if (st != want)
        fail_msg("%.300s\n  got %s '%s', expected %s", text, status_name(st),
                 e.msg, status_name(want));
    if ((has1 && !strstr(e.msg, has1)) || (has2 && !strstr(e.msg, has2)))
        fail_msg("%.300s\n  message '%s' lacks '%s' or '%s'", text, e.msg,
                 has1, has2 ? has2 : "");
}

static void test_hostile_numbers(void **state)
{
    struct game_log l;
    (void)state;
    for (size_t f = 0; f < N_OF(fl_num_fields); f++) {
        parse_ok_text(fl_with_number(&fl_num_fields[f].d,
                                     fl_num_fields[f].ok), &l);
        game_log_release(&l);
        for (size_t n = 0; n < N_OF(fl_huge) + N_OF(fl_fractions); n++) {
            const char *num = n < N_OF(fl_huge)
                                  ? fl_huge[n]
                                  : fl_fractions[n - N_OF(fl_huge)];
            const char *text = fl_with_number(&fl_num_fields[f].d, num);
            fl_refused(text, strlen(text), ST_PARSE, fl_num_fields[f].path,
                       NULL);
        }
    }
    for (size_t f = 0; f < N_OF(fl_random_fields); f++) {
        parse_ok_text(fl_with_number(&fl_random_fields[f].d,
                                     fl_random_fields[f].ok), &l);
        game_log_release(&l);
        for (size_t n = 0; n < N_OF(fl_huge); n++) {
            const char *text = fl_with_number(&fl_random_fields[f].d,
                                              fl_huge[n]);
            fl_refused(text, strlen(text), ST_PARSE, fl_random_fields[f].path,
                       NULL);
        }
    }
}

/* A streaming log of n entries after the header, in a heap buffer. */
static void stream_of(struct buf *b, const char *entry, size_t n)
{
    size_t len = strlen(entry);
    buf_puts(b, NDHEAD);
    for (size_t i = 0; i < n; i++) {
        buf_append(b, entry, len);
        buf_append(b, "\n", 1);
    }
}

/* A million lines are refused at the first line too many, before any
 * entry is read; entries under that cap that make too many moves are
 * refused once read, before the audit. */
static void test_hostile_many_moves(void **state)
{
    struct buf b = BUF_INIT;
    char at[64];
    (void)state;
    stream_of(&b, "{" PLACED "}", 1000000);
    assert_true(b.len <= MLOG_MAX_BYTES);
    /* the header is line 1: line 10001, the 10000th entry, is the
     * 10001st value */
    size_t off = strlen(NDHEAD) + (strlen("{" PLACED "}") + 1) * 9999;
    snprintf(at, sizeof at, "at byte offset %zu (line 10001, column 1)", off);
    fl_refused(b.p, b.len, ST_LIMIT, "more than 10000 lines", at);
    buf_release(&b);
    /* 4000 entries, 3 moves each (place, pass, commit) */
    stream_of(&b, "{" PLACED "}", 4000);
    fl_refused(b.p, b.len, ST_LIMIT, "12000 moves is more than the 10000",
               "a real game has a few hundred");
    buf_release(&b);
    /* the same as one document: "turns" holds 4000 items */
    buf_puts(&b, "{\"format\": \"flierlog/1\", \"edition\": \"C2\", "
                 "\"players\": [{\"name\": \"Ada\"}], \"turns\": [");
    for (int i = 0; i < 4000; i++)
        buf_puts(&b, i ? ", {" PLACED "}" : "{" PLACED "}");
    buf_puts(&b, "]}");
    fl_refused(b.p, b.len, ST_LIMIT, "12000 moves", NULL);
    buf_release(&b);
}

/* In the streaming form each line is checked where it stands: the
 * message names the line, and the offset counts from the file's start. */
static const struct {
    const char *line3;  /* the third line (after the header and one entry) */
    const char *mark;   /* what the offset points at, in line3 */
    enum status st;
    const char *has;
} stream_cases[] = {
    { "{\"tile\": \"BA/C\", \"at\": [0, 1], \"at\": [0, 2]}", "\"at\": [0, 2]",
      ST_PARSE, "duplicate key \"at\"" },
    { "{\"tile\": \"BA/C\", \"at\": [0, 1], \"note\": \"\xe0\x80\xaf\"}",
      "\xe0", ST_PARSE, "overlong" },
    { "{\"tile\": \"BA/C\", \"at\": [0, 1], \"note\": \"a\\u0000\"}",
      "\\u0000", ST_PARSE, "NUL" },
    { "{\"tile\": \"BA/C\", \"at\": [0, 1], \"note\": \"a\rb\"}", "\r",
      ST_PARSE, "control character 0x0D" },
    { "{\"tile\": \"BA/C\", \"at\": [0, Infinity]}", "Infinity", ST_PARSE,
      "NaN and Infinity are not JSON numbers" },
    { "{\"tile\": \"BA/C\", \"at\": [0, 1e999]}", NULL, ST_PARSE,
      "line 3: turns[1].at[1]: expected an integer in -1000000..1000000" },
};

static void test_hostile_stream_lines(void **state)
{
    const char *entry = "{" PLACED "}\n";
    char text[512], at[64];
    (void)state;
    for (size_t i = 0; i < N_OF(stream_cases); i++) {
        int n = snprintf(text, sizeof text, "%s%s%s\n", NDHEAD, entry,
                         stream_cases[i].line3);
        assert_true(n > 0 && (size_t)n < sizeof text);
        const char *mark = stream_cases[i].mark;
        if (mark) {
            size_t off = strlen(NDHEAD) + strlen(entry) +
                         (size_t)(strstr(stream_cases[i].line3, mark) -
                                  stream_cases[i].line3);
            snprintf(at, sizeof at, "byte offset %zu", off);
        }
        fl_refused(text, (size_t)n, stream_cases[i].st, stream_cases[i].has,
                   mark ? at : NULL);
        if (mark && !strstr(stream_cases[i].has, "NaN"))
            fl_refused(text, (size_t)n, stream_cases[i].st, "(line 3,", NULL);
    }
}

/* Markup and any UTF-8 in a name are text: kept as written through the
 * reader and both writers (which escape what JSON needs escaped). */
static void test_hostile_markup_names(void **state)
{
    static const char *const name =
        "<script>alert(\"x\")</script>\xf0\x9f\x98\x80";
    struct game_log l, back;
    struct buf out = BUF_INIT;
    struct err e;
    enum mlog_format fmt;
    (void)state;
    parse_ok(&(struct fdoc){ .players = "{\"name\": \"<script>alert(\\\"x\\\")"
                                        "</script>\\ud83d\\ude00\"}, "
                                        "{\"name\": \"<img src=x>\"}",
                             .turns = "{" PLACED "}" },
             &l);
    assert_string_equal(l.names[0], name);
    assert_string_equal(l.names[1], "<img src=x>");
    for (int w = 0; w < 2; w++) {
        if (w == 0)
            mlog_write_flierlog(&l, &out);
        else
            mlog_write_jcz(&l, &out);
        assert_int_equal(parse_text(out.p, out.len, &back, &fmt, &e), ST_OK);
        assert_string_equal(back.names[0], name);
        assert_string_equal(back.names[1], "<img src=x>");
        game_log_release(&back);
        buf_release(&out);
    }
    game_log_release(&l);
}

int main(void)
{
    static struct fx_tests ts;
    FX_TEST(&ts, test_edition_defaults);
    FX_TEST(&ts, test_header_overrides);
    FX_TEST(&ts, test_header_elements);
    FX_TEST(&ts, test_header_start_players_end);
    FX_TEST(&ts, test_versions);
    FX_TEST(&ts, test_entry_fields);
    FX_TEST(&ts, test_claims_totals_notes);
    FX_TEST(&ts, test_error_paths);
    FX_TEST(&ts, test_ndjson_reads_as_document);
    FX_TEST(&ts, test_ndjson_growing);
    FX_TEST(&ts, test_writer_layout);
    FX_ROWS(&ts, writer_cases, test_writer);
    FX_TEST(&ts, test_jcz_numbers_survive);
    FX_TEST(&ts, test_jcz_flierd_errors);
    FX_TEST(&ts, test_samples_round_trip);
    FX_TEST(&ts, test_sim_round_trip);
    FX_TEST(&ts, test_expansion_corpora);
    FX_TEST(&ts, test_random_logs);
    FX_ROWS(&ts, doc_cases, test_doc_example);
    FX_TEST(&ts, test_convert_cli);
    FX_TEST(&ts, test_hostile_numbers);
    FX_TEST(&ts, test_hostile_many_moves);
    FX_TEST(&ts, test_hostile_stream_lines);
    FX_TEST(&ts, test_hostile_markup_names);
    return fx_tests_run("test_flierlog", &ts);
}
