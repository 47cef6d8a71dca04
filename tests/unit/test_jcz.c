/* test_jcz.c - the .jcz reader (src/mlog/jcz*.c) and the JSON report.
 *
 * Every case is a small inline save built from the pieces of struct doc;
 * a NULL piece takes a legal default. The tables say what each field must
 * read as, and which status and message each malformed input must give. */
#include <stdarg.h> /* cmocka 1.1.5 needs these four first */
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "core/audit.h"
#include "mlog/mlog.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

/* ---- building inline saves ------------------------------------------- */

struct doc {
    const char *sets;     /* members of setup.sets */
    const char *elements; /* members of setup.elements */
    const char *rules;    /* members of setup.rules */
    const char *start;    /* setup.start */
    const char *players;  /* members of players */
    const char *replay;   /* members of replay */
    const char *tail;     /* more top-level members, with a leading comma */
};

#define OR(s, dflt) ((s) ? (s) : (dflt))

static const char *build(const struct doc *d)
{
    static char text[4096];
    int n = snprintf(
        text, sizeof text,
        "{\"appVersion\":\"5.12.1\",\"setup\":{\"sets\":{%s},"
        "\"elements\":{%s},\"rules\":{%s},\"timer\":null,\"start\":%s},"
        "\"players\":[%s],\"replay\":[%s]%s}",
        OR(d->sets, "\"basic:1\":1,\"flier:1\":1"),
        OR(d->elements, "\"small-follower\":7,\"farmers\":true"),
        OR(d->rules, ""),
        OR(d->start, "[{\"tile\":\"BA/RCr\",\"x\":0,\"y\":0,\"rotation\":0}]"),
        OR(d->players, "{\"name\":\"Alice\",\"slot\":0},"
                       "{\"name\":\"Bob\",\"slot\":1}"),
        OR(d->replay, ""), OR(d->tail, ""));
    assert_true(n > 0 && (size_t)n < sizeof text);
    return text;
}

/* Replay messages as JCloisterZone writes them. */
#define MSG(type, payload) "{\"type\":\"" type "\",\"payload\":{" payload "}}"
#define XY(x, y) "[" #x "," #y "]"
#define PLACE_AT(id, rot, pos)                                               \
    MSG("PLACE_TILE", "\"tileId\":\"" id "\",\"rotation\":\"" rot            \
                      "\",\"position\":" pos)
#define PLACE(id, rot, x, y) PLACE_AT(id, rot, XY(x, y))
#define POINTER_AT(pos, feat, loc)                                           \
    "{\"position\":" pos ",\"feature\":\"" feat "\",\"location\":\"" loc    \
    "\"}"
#define POINTER(x, y, feat, loc) POINTER_AT(XY(x, y), feat, loc)
#define DEPLOY(x, y, feat, loc, id)                                          \
    MSG("DEPLOY_MEEPLE", "\"pointer\":" POINTER(x, y, feat, loc)            \
                         ",\"meepleId\":\"" id "\"")
#define FLY(x, y, id, rnd)                                                   \
    MSG("DEPLOY_MEEPLE", "\"pointer\":" POINTER(x, y, "FlyingMachine", "I") \
                         ",\"meepleId\":\"" id "\",\"random\":" rnd)
#define RETURN(x, y, feat, id, src)                                          \
    MSG("RETURN_MEEPLE", "\"pointer\":{\"featurePointer\":"                  \
                         POINTER(x, y, feat, "I") ",\"meepleId\":\"" id      \
                         "\"},\"source\":\"" src "\"")
#define PASS_MSG MSG("PASS", "")
#define COMMIT_MSG MSG("COMMIT", "\"random\":0.25")
/* One complete turn, so that a later message stands at replay[3]. */
#define TURN1 PLACE("BA/RFr", "R0", 1, 0) "," PASS_MSG "," COMMIT_MSG

static enum status parse_doc(const char *json, size_t len,
                             struct game_log *log, enum mlog_format *fmt,
                             struct err *e)
{
    game_log_init(log);
    err_clear(e);
    return mlog_parse(json, len, log, fmt, e);
}

/* Parses d, which must be valid; the caller releases log. */
static void parse_ok(const struct doc *d, struct game_log *log)
{
    struct err e;
    enum mlog_format fmt;
    const char *json = build(d);
    enum status st = parse_doc(json, strlen(json), log, &fmt, &e);
    if (st != ST_OK) {
        game_log_release(log);
        fail_msg("%s: %s\n  in %s", status_name(st), e.msg, json);
    }
    assert_int_equal(fmt, MLOG_JCZ);
}

/* Fails naming the case (what) and the field when got != want. */
static void same(const char *what, const char *field, long got, long want)
{
    if (got != want)
        fail_msg("%s: %s is %ld, expected %ld", what, field, got, want);
}

/* ---- setup: sets, elements, rules ------------------------------------ */

static const struct {
    struct doc d;
    int basic1, basic2, flier1, flier2;
    int followers, abbots;
    bool farmers, gardens;
    int tiny_city;
} setup_cases[] = {
    { { 0 }, 1, 0, 1, 0, 7, 0, true, false, 4 },
    { { .sets = "\"basic:2\":2,\"flier:2\":3" }, 0, 2, 0, 3, 7, 0, true, false,
      4 },
    { { .sets = "\"basic:1\":1", .elements = "" }, 1, 0, 0, 0, 7, 0, false,
      false, 4 },
    { { .elements = "\"small-follower\":5,\"farmers\":false" }, 1, 0, 1, 0, 5,
      0, false, false, 4 },
    { { .sets = "\"basic:2\":1,\"flier:2\":1",
        .elements = "\"small-follower\":7,\"farmers\":true,\"abbot\":1,"
                    "\"garden\":1" },
      0, 1, 0, 1, 7, 1, true, true, 4 },
    { { .elements = "\"abbot\":true,\"garden\":true" }, 1, 0, 1, 0, 7, 1,
      false, true, 4 },
    { { .rules = "\"tiny-city-scoring\":\"2\"" }, 1, 0, 1, 0, 7, 0, true,
      false, 2 },
    { { .rules = "\"tiny-city-scoring\":\"4\"" }, 1, 0, 1, 0, 7, 0, true,
      false, 4 },
};

static int copies(const struct game_log *log, const char *set)
{
    int idx = tile_set_find(set);
    assert_true(idx >= 0);
    return log->rules.set_copies[idx];
}

static void check_setup(const char *what, const struct game_log *log,
                        size_t i)
{
    const struct rules *r = &log->rules;
    same(what, "basic:1", copies(log, "basic:1"), setup_cases[i].basic1);
    same(what, "basic:2", copies(log, "basic:2"), setup_cases[i].basic2);
    same(what, "flier:1", copies(log, "flier:1"), setup_cases[i].flier1);
    same(what, "flier:2", copies(log, "flier:2"), setup_cases[i].flier2);
    same(what, "followers", r->followers, setup_cases[i].followers);
    same(what, "abbots", r->abbots, setup_cases[i].abbots);
    same(what, "farmers", r->farmers, setup_cases[i].farmers);
    same(what, "gardens", r->gardens, setup_cases[i].gardens);
    same(what, "tiny_city", r->tiny_city, setup_cases[i].tiny_city);
}

static void test_setup_fields(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_OF(setup_cases); i++) {
        char what[32];
        struct game_log log;
        snprintf(what, sizeof what, "setup case %zu", i);
        parse_ok(&setup_cases[i].d, &log);
        check_setup(what, &log, i);
        game_log_release(&log);
    }
}

/* ---- setup.start, players, gameAnnotations --------------------------- */

static const struct {
    const char *start;
    const char *tile;
    int x, y, rot;
} start_cases[] = {
    { "[{\"tile\":\"BA/RCr\",\"x\":0,\"y\":0,\"rotation\":0}]", "BA/RCr", 0,
      0, 0 },
    { "[{\"tile\":\"BA/RCr\",\"x\":3,\"y\":-2,\"rotation\":90}]", "BA/RCr", 3,
      -2, 1 },
    { "[{\"tile\":\"BA/L\",\"x\":-1,\"y\":4,\"rotation\":270}]", "BA/L", -1,
      4, 3 },
    { "[{\"tile\":\"BA/RCr\",\"x\":0,\"y\":0,\"rotation\":\"R180\"}]",
      "BA/RCr", 0, 0, 2 },
    { "[{\"tile\":\"BA/RCr\",\"x\":1,\"y\":1}]", "BA/RCr", 1, 1, 0 },
};

static void test_start_tile(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_OF(start_cases); i++) {
        struct game_log log;
        parse_ok(&(struct doc){ .start = start_cases[i].start }, &log);
        assert_true(tile_find(start_cases[i].tile) >= 0);
        assert_int_equal(log.start_tile, tile_find(start_cases[i].tile));
        assert_int_equal(log.start_at.x, start_cases[i].x);
        assert_int_equal(log.start_at.y, start_cases[i].y);
        assert_int_equal(log.start_rot, start_cases[i].rot);
        game_log_release(&log);
    }
}

static void test_players_and_names(void **state)
{
    struct game_log log;
    (void)state;
    parse_ok(&(struct doc){ .players = "{\"name\":\"Ann\",\"slot\":0},"
                                       "{\"name\":\"B\\u00e9a\",\"slot\":1,"
                                       "\"clientId\":\"x\"},"
                                       "{\"name\":\"Cy\",\"slot\":5}" },
             &log);
    assert_int_equal(log.rules.n_players, 3);
    assert_string_equal(log.names[0], "Ann");
    assert_string_equal(log.names[1], "B\xc3\xa9" "a");
    assert_string_equal(log.names[2], "Cy");
    assert_int_equal(log.end_turn, -1);
    game_log_release(&log);

    parse_ok(&(struct doc){ .players = "{\"name\":\"Solo\",\"slot\":0}",
                            .tail = ",\"gameAnnotations\":{\"drawOrder\":"
                                    "[\"BA/C\"],\"endTurn\":3}" },
             &log);
    assert_int_equal(log.rules.n_players, 1);
    assert_string_equal(log.names[0], "Solo");
    assert_int_equal(log.end_turn, 3);
    game_log_release(&log);
}

/* ---- replay messages --------------------------------------------------- */

struct move_case {
    const char *msg;  /* one replay message */
    const char *tile; /* expected known tile id; NULL: move.tile == -1 */
    struct move want; /* every field but tile and src */
};

#define NOBODY .player = -1, .meeple_owner = -1

static const struct move_case move_cases[] = {
    { PLACE("BA/RFr", "R0", 1, 0), "BA/RFr",
      { .kind = MV_PLACE, NOBODY, .tile_id = "BA/RFr", .at = { 1, 0 } } },
    { PLACE("FL/RFr.WE.o", "R90", -2, 3), "FL/RFr.WE.o",
      { .kind = MV_PLACE, NOBODY, .tile_id = "FL/RFr.WE.o", .at = { -2, 3 },
        .rot = 1 } },
    { PLACE("BA/CFc.1", "R180", 0, -1), "BA/CFc.1",
      { .kind = MV_PLACE, NOBODY, .tile_id = "BA/CFc.1", .at = { 0, -1 },
        .rot = 2 } },
    { PLACE("BA/L", "R270", 0, 1), "BA/L",
      { .kind = MV_PLACE, NOBODY, .tile_id = "BA/L", .at = { 0, 1 },
        .rot = 3 } },
    /* an unknown tile is the auditor's TILE_UNKNOWN, not a parse error */
    { PLACE("BA/XYZ", "R0", 1, 0), NULL,
      { .kind = MV_PLACE, NOBODY, .tile_id = "BA/XYZ", .at = { 1, 0 } } },
    { "{\"type\":\"PLACE_TILE\",\"payload\":{\"tileId\":\"BA/C\",\"rotation\":"
      "\"R0\",\"position\":[0,-1]},\"player\":1,\"clock\":2029}", "BA/C",
      { .kind = MV_PLACE, .player = 1, .meeple_owner = -1, .tile_id = "BA/C",
        .at = { 0, -1 } } },
    /* a seat outside the players array names nobody */
    { "{\"type\":\"PASS\",\"payload\":{},\"player\":2}", NULL,
      { .kind = MV_PASS, NOBODY } },
    { "{\"type\":\"PASS\",\"payload\":{},\"player\":0}", NULL,
      { .kind = MV_PASS, .player = 0, .meeple_owner = -1 } },
    { COMMIT_MSG, NULL, { .kind = MV_COMMIT, NOBODY } },
    { DEPLOY(0, -1, "City", "NE", "1.small.3"), NULL,
      { .kind = MV_DEPLOY, .player = -1, .at = { 0, -1 },
        .feature = FEAT_CITY, .mask = EDGE_N | EDGE_E, .meeple = MK_SMALL,
        .meeple_n = 3, .meeple_owner = 1 } },
    { DEPLOY(2, 2, "City", "_W", "0.small.1"), NULL,
      { .kind = MV_DEPLOY, .player = -1, .at = { 2, 2 },
        .feature = FEAT_CITY, .mask = EDGE_N | EDGE_E | EDGE_S,
        .meeple = MK_SMALL, .meeple_n = 1, .meeple_owner = 0 } },
    { DEPLOY(1, 0, "Road", "WE", "0.small.8"), NULL,
      { .kind = MV_DEPLOY, .player = -1, .at = { 1, 0 },
        .feature = FEAT_ROAD, .mask = EDGE_W | EDGE_E, .meeple = MK_SMALL,
        .meeple_n = 8, .meeple_owner = 0 } },
    { DEPLOY(0, -1, "Field", "NL.NR.EL.ER.WL.WR", "0.small.2"), NULL,
      { .kind = MV_DEPLOY, .player = -1, .at = { 0, -1 },
        .feature = FEAT_FIELD,
        .mask = HE_NL | HE_NR | HE_EL | HE_ER | HE_WL | HE_WR,
        .meeple = MK_SMALL, .meeple_n = 2, .meeple_owner = 0 } },
    { DEPLOY(0, 1, "Monastery", "I", "1.small.7"), NULL,
      { .kind = MV_DEPLOY, .player = -1, .at = { 0, 1 },
        .feature = FEAT_MONASTERY, .meeple = MK_SMALL, .meeple_n = 7,
        .meeple_owner = 1 } },
    { DEPLOY(1, 0, "Garden", "I", "0.abbot.1"), NULL,
      { .kind = MV_DEPLOY, .player = -1, .at = { 1, 0 },
        .feature = FEAT_GARDEN, .meeple = MK_ABBOT, .meeple_n = 1,
        .meeple_owner = 0 } },
    /* a random on an ordinary deploy is no roll */
    { MSG("DEPLOY_MEEPLE", "\"pointer\":" POINTER(1, 0, "Road", "WE")
                           ",\"meepleId\":\"0.small.1\",\"random\":0.9"),
      NULL,
      { .kind = MV_DEPLOY, .player = -1, .at = { 1, 0 },
        .feature = FEAT_ROAD, .mask = EDGE_W | EDGE_E, .meeple = MK_SMALL,
        .meeple_n = 1, .meeple_owner = 0 } },
    /* a FlyingMachine deploy without random (a landing on it) has roll 0 */
    { DEPLOY(3, 0, "FlyingMachine", "I", "0.small.1"), NULL,
      { .kind = MV_DEPLOY, .player = -1, .at = { 3, 0 },
        .feature = FEAT_FLIER, .meeple = MK_SMALL, .meeple_n = 1,
        .meeple_owner = 0 } },
    { RETURN(2, 1, "Monastery", "1.abbot.1", "ABBOT_RETURN"), NULL,
      { .kind = MV_RECALL, .player = -1, .at = { 2, 1 },
        .feature = FEAT_MONASTERY, .meeple = MK_ABBOT, .meeple_n = 1,
        .meeple_owner = 1 } },
    { RETURN(-1, 0, "Garden", "0.abbot.1", "ABBOT_RETURN"), NULL,
      { .kind = MV_RECALL, .player = -1, .at = { -1, 0 },
        .feature = FEAT_GARDEN, .meeple = MK_ABBOT, .meeple_n = 1,
        .meeple_owner = 0 } },
};

static void check_move(const struct move *got, const struct move_case *c)
{
    const struct move *w = &c->want;
    const char *m = c->msg;
    int tile = c->tile ? tile_find(c->tile) : -1;
    if (c->tile)
        assert_true(tile >= 0);
    same(m, "kind", got->kind, w->kind);
    same(m, "player", got->player, w->player);
    same(m, "tile", got->tile, tile);
    if (w->kind == MV_PLACE)
        assert_string_equal(got->tile_id, w->tile_id);
    same(m, "at.x", got->at.x, w->at.x);
    same(m, "at.y", got->at.y, w->at.y);
    same(m, "rot", got->rot, w->rot);
    same(m, "feature", got->feature, w->feature);
    same(m, "mask", got->mask, w->mask);
    same(m, "meeple", got->meeple, w->meeple);
    same(m, "meeple_n", got->meeple_n, w->meeple_n);
    same(m, "meeple_owner", got->meeple_owner, w->meeple_owner);
    same(m, "roll", got->roll, w->roll);
}

static void test_move_fields(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_OF(move_cases); i++) {
        struct game_log log;
        parse_ok(&(struct doc){ .replay = move_cases[i].msg }, &log);
        same(move_cases[i].msg, "n_moves", (long)log.n_moves, 1);
        same(move_cases[i].msg, "src", log.moves[0].src, 0);
        check_move(&log.moves[0], &move_cases[i]);
        game_log_release(&log);
    }
}

/* roll = floor(random * 3) + 1, computed in doubles as written. */
static const struct {
    const char *random;
    int roll;
} roll_cases[] = {
    { "0.0", 1 },
    { "0.3333333333333332", 1 }, /* x3 = 0.9999999999999996 */
    { "0.3333333333333333", 2 }, /* x3 is exactly 1.0 */
    { "0.5", 2 },
    { "0.6666666666666666", 3 }, /* x3 rounds to exactly 2.0 */
    { "0.9999999999999999", 3 }, /* x3 = 2.9999999999999996 */
    { "1.5", 5 },                /* the forged FLIER_BAD_ROLL value */
};

static void test_flight_roll(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_OF(roll_cases); i++) {
        char msg[512];
        struct game_log log;
        snprintf(msg, sizeof msg, FLY(3, 0, "1.small.2", "%s"),
                 roll_cases[i].random);
        parse_ok(&(struct doc){ .replay = msg }, &log);
        assert_int_equal(log.n_moves, 1);
        assert_int_equal(log.moves[0].kind, MV_DEPLOY);
        assert_int_equal(log.moves[0].feature, FEAT_FLIER);
        assert_int_equal(log.moves[0].mask, 0);
        assert_int_equal(log.moves[0].at.x, 3);
        assert_int_equal(log.moves[0].meeple_owner, 1);
        assert_int_equal(log.moves[0].meeple_n, 2);
        if (log.moves[0].roll != roll_cases[i].roll)
            fail_msg("random %s: roll %d, expected %d", roll_cases[i].random,
                     log.moves[0].roll, roll_cases[i].roll);
        game_log_release(&log);
    }
}

/* Messages keep their replay index and order. */
static void test_replay_sequence(void **state)
{
    static const uint8_t kinds[] = { MV_PLACE, MV_PASS,   MV_COMMIT,
                                     MV_PLACE, MV_DEPLOY, MV_COMMIT };
    struct game_log log;
    (void)state;
    parse_ok(&(struct doc){ .replay = TURN1 "," PLACE("BA/C", "R0", 0, -1)
                                      "," DEPLOY(0, -1, "City", "S",
                                                 "1.small.1")
                                      "," COMMIT_MSG },
             &log);
    assert_int_equal(log.n_moves, N_OF(kinds));
    for (size_t i = 0; i < N_OF(kinds); i++) {
        assert_int_equal(log.moves[i].kind, kinds[i]);
        assert_int_equal(log.moves[i].src, i);
    }
    game_log_release(&log);
}

/* The reader keeps an unknown tile; the auditor reports it. */
static void test_unknown_tile_is_audited(void **state)
{
    struct game_log log;
    struct report r;
    struct audit_opts o = { false };
    (void)state;
    parse_ok(&(struct doc){ .replay = PLACE("BA/XYZ", "R0", 1, 0)
                                      "," PASS_MSG "," COMMIT_MSG },
             &log);
    assert_int_equal(log.moves[0].tile, -1);
    audit_run(&log, &o, &r, NULL);
    assert_false(r.valid);
    assert_true(r.n_violations >= 1);
    assert_int_equal(r.violations[0].rule, RULE_TILE_UNKNOWN);
    assert_string_equal(rule_id(r.violations[0].rule), "TILE_UNKNOWN");
    assert_int_equal(r.violations[0].turn, 1);
    assert_int_equal(r.violations[0].src, 0);
    assert_non_null(strstr(r.violations[0].msg, "BA/XYZ"));
    report_release(&r);
    game_log_release(&log);
}

/* ---- error paths ------------------------------------------------------ */

struct err_case {
    const char *raw;  /* the whole input; NULL: build(&d) */
    struct doc d;
    enum status st;
    enum mlog_format fmt;   /* *out_format afterwards */
    const char *has[3];     /* substrings of the message */
};

#define JCZ_MIN_SETUP "\"setup\":{\"sets\":{\"basic:1\":1}}"
#define JCZ_MIN_PLAYERS "\"players\":[{\"name\":\"A\"}]"

static const struct err_case err_cases[] = {
    /* not JSON, not an object, not a save */
    { "{\"setup\": }", { 0 }, ST_PARSE, MLOG_UNKNOWN,
      { "not valid JSON", "byte offset 10", "line 1, column 11" } },
    { "{\"replay\":[\n\n  x]}", { 0 }, ST_PARSE, MLOG_UNKNOWN,
      { "byte offset 15", "line 3, column 3" } },
    { "[1, 2]", { 0 }, ST_PARSE, MLOG_UNKNOWN, { "$", "object" } },
    { "\"replay\"", { 0 }, ST_PARSE, MLOG_UNKNOWN, { "$", "object" } },
    { "{\"setup\":{}}", { 0 }, ST_PARSE, MLOG_UNKNOWN, { "$", "replay" } },
    /* missing parts */
    { "{" JCZ_MIN_PLAYERS ",\"replay\":[]}", { 0 }, ST_PARSE, MLOG_JCZ,
      { "setup", "missing" } },
    { "{\"setup\":{}," JCZ_MIN_PLAYERS ",\"replay\":[]}", { 0 }, ST_PARSE,
      MLOG_JCZ, { "setup.sets", "missing" } },
    { "{" JCZ_MIN_SETUP ",\"replay\":[]}", { 0 }, ST_PARSE, MLOG_JCZ,
      { "players", "missing" } },
    { "{" JCZ_MIN_SETUP "," JCZ_MIN_PLAYERS ",\"replay\":{}}", { 0 },
      ST_PARSE, MLOG_JCZ, { "replay", "array" } },
    /* malformed messages, named by their JSON path */
    { NULL, { .replay = TURN1 "," PLACE_AT("BA/C", "R0", "[1]") }, ST_PARSE,
      MLOG_JCZ, { "replay[3].payload.position" } },
    { NULL, { .replay = PLACE("BA/C", "R0", "a", 0) }, ST_PARSE, MLOG_JCZ,
      { "replay[0].payload.position[0]" } },
    { NULL, { .replay = PLACE("BA/C", "R0", 0, 0.5) }, ST_PARSE, MLOG_JCZ,
      { "replay[0].payload.position[1]" } },
    { NULL, { .replay = MSG("PLACE_TILE", "\"tileId\":\"BA/C\","
                                         "\"rotation\":\"R0\"") },
      ST_PARSE, MLOG_JCZ, { "replay[0].payload.position" } },
    { NULL, { .replay = TURN1 "," PLACE("BA/C", "R45", 0, -1) }, ST_PARSE,
      MLOG_JCZ, { "replay[3].payload.rotation", "R45" } },
    { NULL, { .replay = MSG("PLACE_TILE", "\"tileId\":\"BA/C\","
                                         "\"position\":[0,-1]") },
      ST_PARSE, MLOG_JCZ, { "replay[0].payload.rotation" } },
    { NULL, { .replay = MSG("PLACE_TILE", "\"rotation\":\"R0\","
                                         "\"position\":[0,-1]") },
      ST_PARSE, MLOG_JCZ, { "replay[0].payload.tileId" } },
    { NULL, { .replay = DEPLOY(0, 1, "Road", "N", "x.small.1") }, ST_PARSE,
      MLOG_JCZ, { "replay[0].payload.meepleId", "x.small.1" } },
    { NULL, { .replay = TURN1 "," DEPLOY(0, 1, "Road", "N", "0.small") },
      ST_PARSE, MLOG_JCZ, { "replay[3].payload.meepleId", "0.small" } },
    { NULL, { .replay = DEPLOY(0, 1, "Road", "N", "0.small.1x") }, ST_PARSE,
      MLOG_JCZ, { "replay[0].payload.meepleId" } },
    { NULL, { .replay = MSG("DEPLOY_MEEPLE",
                            "\"pointer\":" POINTER(0, 1, "Road", "N")) },
      ST_PARSE, MLOG_JCZ, { "replay[0].payload.meepleId" } },
    { NULL, { .replay = DEPLOY(0, 1, "Road", "Q", "0.small.1") }, ST_PARSE,
      MLOG_JCZ, { "replay[0].payload.pointer.location", "Q" } },
    { NULL, { .replay = DEPLOY(0, 1, "Field", "N", "0.small.1") }, ST_PARSE,
      MLOG_JCZ, { "replay[0].payload.pointer.location" } },
    { NULL, { .replay = MSG("DEPLOY_MEEPLE", "\"pointer\":"
                            POINTER_AT("{}", "Road", "N")
                            ",\"meepleId\":\"0.small.1\"") }, ST_PARSE,
      MLOG_JCZ, { "replay[0].payload.pointer.position" } },
    { NULL, { .replay = FLY(3, 0, "0.small.1", "\"0.5\"") }, ST_PARSE,
      MLOG_JCZ, { "replay[0].payload.random" } },
    { NULL, { .replay = "{\"payload\":{}}" }, ST_PARSE, MLOG_JCZ,
      { "replay[0].type" } },
    { NULL, { .replay = PASS_MSG ",{\"type\":\"PASS\"}" }, ST_PARSE,
      MLOG_JCZ, { "replay[1].payload" } },
    { NULL, { .tail = ",\"gameAnnotations\":{\"endTurn\":\"x\"}" }, ST_PARSE,
      MLOG_JCZ, { "gameAnnotations.endTurn" } },
    { NULL, { .start = "[{\"x\":0,\"y\":0}]" }, ST_PARSE, MLOG_JCZ,
      { "setup.start[0].tile" } },
    { NULL, { .start = "[{\"tile\":\"BA/RCr\",\"x\":0,\"y\":0,"
                       "\"rotation\":45}]" },
      ST_PARSE, MLOG_JCZ, { "setup.start[0].rotation" } },
    { NULL, { .sets = "\"basic:1\":\"one\"" }, ST_PARSE, MLOG_JCZ,
      { "setup.sets.basic:1" } },
    /* well-formed, but outside what flierd models */
    { NULL, { .sets = "\"basic:1\":1,\"inns-and-cathedrals:1\":1" },
      ST_UNSUPPORTED, MLOG_JCZ,
      { "unsupported:", "inns-and-cathedrals:1", "setup.sets" } },
    { NULL, { .elements = "\"small-follower\":7,\"king-and-robber\":true" },
      ST_UNSUPPORTED, MLOG_JCZ,
      { "unsupported:", "king-and-robber", "setup.elements" } },
    { NULL, { .elements = "\"tower\":1" }, ST_UNSUPPORTED, MLOG_JCZ,
      { "unsupported:", "tower", "setup.elements" } },
    { NULL, { .rules = "\"princess-action\":\"MUST_REMOVE\"" },
      ST_UNSUPPORTED, MLOG_JCZ,
      { "unsupported:", "princess-action", "setup.rules" } },
    { NULL, { .rules = "\"tiny-city-scoring\":\"3\"" }, ST_UNSUPPORTED,
      MLOG_JCZ, { "unsupported:", "tiny-city-scoring", "setup.rules" } },
    { NULL, { .start = "[{\"tile\":\"AM/C\",\"x\":0,\"y\":0}]" },
      ST_UNSUPPORTED, MLOG_JCZ, { "unsupported:", "AM/C" } },
    { NULL, { .replay = PASS_MSG "," MSG("PLACE_TOKEN", "\"token\":\"X\"") },
      ST_UNSUPPORTED, MLOG_JCZ,
      { "unsupported:", "PLACE_TOKEN", "replay[1].type" } },
    { NULL, { .replay = TURN1 "," RETURN(2, 1, "Monastery", "0.abbot.1",
                                         "FESTIVAL") },
      ST_UNSUPPORTED, MLOG_JCZ,
      { "unsupported:", "FESTIVAL", "replay[3].payload.source" } },
    { NULL, { .replay = DEPLOY(0, 1, "Road", "N", "0.large.1") },
      ST_UNSUPPORTED, MLOG_JCZ,
      { "unsupported:", "large", "replay[0].payload.meepleId" } },
    { NULL, { .replay = DEPLOY(0, 1, "Tower", "I", "0.small.1") },
      ST_UNSUPPORTED, MLOG_JCZ,
      { "unsupported:", "Tower", "replay[0].payload.pointer.feature" } },
    { NULL, { .players = "{\"name\":\"1\"},{\"name\":\"2\"},{\"name\":\"3\"},"
                         "{\"name\":\"4\"},{\"name\":\"5\"},{\"name\":\"6\"},"
                         "{\"name\":\"7\"}" },
      ST_UNSUPPORTED, MLOG_JCZ, { "unsupported:", "7 players" } },
    { NULL, { .players = " " }, ST_UNSUPPORTED, MLOG_JCZ,
      { "unsupported:", "0 players" } },
};

static void check_err_case(const struct err_case *c)
{
    struct game_log log;
    struct err e;
    enum mlog_format fmt;
    const char *json = c->raw ? c->raw : build(&c->d);
    enum status st = parse_doc(json, strlen(json), &log, &fmt, &e);
    game_log_release(&log);
    if (st != c->st)
        fail_msg("%s: got %s '%s', expected %s", json, status_name(st), e.msg,
                 status_name(c->st));
    assert_int_equal(e.code, st);
    assert_int_equal(fmt, c->fmt);
    if (st == ST_UNSUPPORTED)
        assert_memory_equal(e.msg, "unsupported:", 12);
    for (size_t k = 0; k < N_OF(c->has) && c->has[k]; k++)
        if (!strstr(e.msg, c->has[k]))
            fail_msg("%s\n  message '%s' lacks '%s'", json, e.msg, c->has[k]);
}

static void test_error_paths(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_OF(err_cases); i++)
        check_err_case(&err_cases[i]);
}

static void test_empty_input(void **state)
{
    struct game_log log;
    struct err e;
    enum mlog_format fmt;
    (void)state;
    assert_int_equal(parse_doc("", 0, &log, &fmt, &e), ST_PARSE);
    assert_string_equal(e.msg, "empty input");
    assert_int_equal(fmt, MLOG_UNKNOWN);
    assert_int_equal(log.n_moves, 0);
    game_log_release(&log);
    /* the length counts, not the NUL: a valid save cut to 0 bytes */
    assert_int_equal(parse_doc(build(&(struct doc){ 0 }), 0, &log, &fmt, &e),
                     ST_PARSE);
    assert_string_equal(e.msg, "empty input");
    game_log_release(&log);
}

/* A save is one JSON value: whitespace may follow it, nothing else (two
 * saves pasted into one file are not the first of them). */
static void test_trailing_data(void **state)
{
    char text[4200];
    struct game_log log;
    struct err e;
    enum mlog_format fmt;
    const char *save = build(&(struct doc){ .replay = TURN1 });
    enum status st;
    (void)state;
    snprintf(text, sizeof text, "%s \n\t\r\n", save);
    assert_int_equal(parse_doc(text, strlen(text), &log, &fmt, &e), ST_OK);
    assert_int_equal(log.n_moves, 3);
    game_log_release(&log);
    snprintf(text, sizeof text, "%s\n{\"replay\":[]}", save);
    st = parse_doc(text, strlen(text), &log, &fmt, &e);
    game_log_release(&log);
    if (st != ST_PARSE)
        fail_msg("a save followed by more JSON was read (%s '%s'); it is no "
                 "valid JSON text", status_name(st), e.msg);
    /* the offset of the second value */
    snprintf(text, sizeof text, "byte offset %zu", strlen(save) + 1);
    assert_non_null(strstr(e.msg, text));
    assert_non_null(strstr(e.msg, "not valid JSON"));
}

/* Sizes above MLOG_MAX_BYTES are refused before parsing. */
static void test_size_limit(void **state)
{
    struct game_log log;
    struct err e;
    enum mlog_format fmt;
    size_t len = (size_t)MLOG_MAX_BYTES + 1;
    char *big = malloc(len);
    (void)state;
    assert_non_null(big);
    memset(big, ' ', len);
    big[0] = '{';
    assert_int_equal(parse_doc(big, len, &log, &fmt, &e), ST_LIMIT);
    assert_int_equal(e.code, ST_LIMIT);
    assert_non_null(strstr(e.msg, "33554433"));
    assert_int_equal(fmt, MLOG_UNKNOWN);
    game_log_release(&log);
    /* exactly at the cap it is read (and fails as JSON, not as a size) */
    assert_int_equal(parse_doc(big, len - 1, &log, &fmt, &e), ST_PARSE);
    game_log_release(&log);
    free(big);
}

/* ---- the JSON report -------------------------------------------------- */

static cJSON *parse_line(const struct buf *b)
{
    cJSON *o;
    assert_non_null(b->p);
    assert_true(b->len > 1);
    assert_int_equal(b->p[b->len - 1], '\n');
    assert_null(memchr(b->p, '\n', b->len - 1)); /* one line */
    o = cJSON_ParseWithLength(b->p, b->len);
    assert_non_null(o);
    return o;
}

static const cJSON *get(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!v)
        fail_msg("report lacks key '%s'", key);
    return v;
}

static void expect_str(const cJSON *o, const char *key, const char *want)
{
    const cJSON *v = get(o, key);
    assert_true(cJSON_IsString(v));
    assert_string_equal(v->valuestring, want);
}

static void expect_num(const cJSON *o, const char *key, double want)
{
    const cJSON *v = get(o, key);
    assert_true(cJSON_IsNumber(v));
    assert_true(v->valuedouble == want);
}

static void expect_pos(const cJSON *o, const char *key, int x, int y)
{
    const cJSON *v = get(o, key);
    assert_int_equal(cJSON_GetArraySize(v), 2);
    assert_int_equal(cJSON_GetArrayItem(v, 0)->valueint, x);
    assert_int_equal(cJSON_GetArrayItem(v, 1)->valueint, y);
}

/* A report built by hand, so every key has a known value. */
static void fill_report(struct game_log *log, struct report *r)
{
    static struct violation v[2];
    static struct flight f[2];
    static struct score_event ev[2];
    game_log_init(log);
    log->rules.n_players = 2;
    snprintf(log->names[0], sizeof log->names[0], "Ann \"A\"");
    snprintf(log->names[1], sizeof log->names[1], "Bob");
    memset(r, 0, sizeof *r);
    *r = (struct report){ .valid = false, .finished = true, .turns = 79,
                          .n_players = 2, .score = { 12, 30 } };
    v[0] = (struct violation){ .turn = 5, .player = 1,
                               .rule = RULE_FLIER_MUST_LAND, .src = 14,
                               .msg = "must land" };
    v[1] = (struct violation){ .turn = -1, .player = -1,
                               .rule = RULE_TURN_SEQUENCE, .src = 300,
                               .msg = "late" };
    f[0] = (struct flight){ .turn = 5, .player = 1, .from = { 2, -1 },
                            .dir = DIR_NW, .roll = 2, .target = { 0, -3 },
                            .landed = true, .feature = FEAT_CITY,
                            .mask = EDGE_N, .n_options = 2,
                            .options = { { 3, FEAT_CITY, EDGE_N },
                                         { 4, FEAT_ROAD, EDGE_W | EDGE_E } } };
    f[1] = (struct flight){ .turn = 9, .player = 0, .from = { 0, 0 },
                            .dir = DIR_S, .roll = 1, .target = { 0, 1 } };
    ev[0] = (struct score_event){ .turn = 7, .feature = FEAT_ROAD,
                                  .players = 3, .points = 3 };
    ev[1] = (struct score_event){ .turn = -1, .feature = FEAT_FIELD,
                                  .players = 2, .points = 0 };
    r->violations = v;
    r->n_violations = 2;
    r->flights = f;
    r->n_flights = 2;
    r->events = ev;
    r->n_events = 2;
}

static void check_header(const cJSON *o)
{
    const cJSON *pl = get(o, "players");
    expect_str(o, "file", "games/a b.jcz");
    expect_str(o, "format", "jcz");
    assert_true(cJSON_IsFalse(get(o, "valid")));
    assert_true(cJSON_IsTrue(get(o, "finished")));
    assert_int_equal(cJSON_GetArraySize(pl), 2);
    expect_str(cJSON_GetArrayItem(pl, 0), "name", "Ann \"A\"");
    expect_num(cJSON_GetArrayItem(pl, 0), "score", 12);
    expect_str(cJSON_GetArrayItem(pl, 1), "name", "Bob");
    expect_num(cJSON_GetArrayItem(pl, 1), "score", 30);
}

static void check_violations(const cJSON *o)
{
    const cJSON *vs = get(o, "violations"), *v;
    assert_int_equal(cJSON_GetArraySize(vs), 2);
    v = cJSON_GetArrayItem(vs, 0);
    expect_num(v, "turn", 5);
    expect_str(v, "player", "Bob");
    expect_str(v, "rule", "FLIER_MUST_LAND");
    expect_str(v, "message", "must land");
    v = cJSON_GetArrayItem(vs, 1);
    assert_true(cJSON_IsNull(get(v, "turn")));
    assert_true(cJSON_IsNull(get(v, "player")));
    expect_str(v, "rule", "TURN_SEQUENCE");
}

static void check_flights(const cJSON *o)
{
    const cJSON *fs = get(o, "flights"), *f, *ls;
    assert_int_equal(cJSON_GetArraySize(fs), 2);
    f = cJSON_GetArrayItem(fs, 0);
    expect_num(f, "turn", 5);
    expect_str(f, "player", "Bob");
    expect_pos(f, "from", 2, -1);
    expect_str(f, "direction", "NW");
    expect_num(f, "roll", 2);
    expect_pos(f, "target", 0, -3);
    expect_str(f, "outcome", "landed");
    expect_str(f, "feature", "city");
    expect_num(f, "options", 2);
    ls = get(f, "landings");
    assert_int_equal(cJSON_GetArraySize(ls), 2);
    expect_str(cJSON_GetArrayItem(ls, 0), "feature", "city");
    expect_str(cJSON_GetArrayItem(ls, 0), "segment", "city:N");
    expect_str(cJSON_GetArrayItem(ls, 1), "feature", "road");
    expect_str(cJSON_GetArrayItem(ls, 1), "segment", "road:WE");
    f = cJSON_GetArrayItem(fs, 1);
    expect_str(f, "player", "Ann \"A\"");
    expect_str(f, "direction", "S");
    expect_str(f, "outcome", "returned");
    assert_true(cJSON_IsNull(get(f, "feature")));
    expect_num(f, "options", 0);
    assert_int_equal(cJSON_GetArraySize(get(f, "landings")), 0);
}

static void check_scores(const cJSON *o)
{
    const cJSON *ss = get(o, "scores"), *s, *names;
    assert_int_equal(cJSON_GetArraySize(ss), 2);
    s = cJSON_GetArrayItem(ss, 0);
    expect_num(s, "turn", 7);
    names = get(s, "players");
    assert_int_equal(cJSON_GetArraySize(names), 2);
    assert_string_equal(cJSON_GetArrayItem(names, 0)->valuestring,
                        "Ann \"A\"");
    assert_string_equal(cJSON_GetArrayItem(names, 1)->valuestring, "Bob");
    expect_str(s, "feature", "road");
    expect_num(s, "points", 3);
    s = cJSON_GetArrayItem(ss, 1);
    assert_true(cJSON_IsNull(get(s, "turn")));
    names = get(s, "players");
    assert_int_equal(cJSON_GetArraySize(names), 1);
    assert_string_equal(cJSON_GetArrayItem(names, 0)->valuestring, "Bob");
    expect_str(s, "feature", "field");
    expect_num(s, "points", 0);
}

static void test_report_json(void **state)
{
    struct game_log log;
    struct report r;
    struct buf out = BUF_INIT;
    cJSON *o;
    (void)state;
    fill_report(&log, &r);
    mlog_report_json("games/a b.jcz", MLOG_JCZ, &log, &r, &out);
    o = parse_line(&out);
    check_header(o);
    check_violations(o);
    check_flights(o);
    check_scores(o);
    cJSON_Delete(o);
    buf_release(&out);
    game_log_release(&log);
}

/* The report of a real audit parses too, with the audit's numbers. */
static void test_report_json_of_audit(void **state)
{
    struct game_log log;
    struct report r;
    struct audit_opts opt = { false };
    struct buf out = BUF_INIT;
    cJSON *o;
    (void)state;
    parse_ok(&(struct doc){ .replay = TURN1 }, &log);
    audit_run(&log, &opt, &r, NULL);
    mlog_report_json("t.jcz", MLOG_JCZ, &log, &r, &out);
    o = parse_line(&out);
    expect_str(o, "file", "t.jcz");
    assert_true(cJSON_IsTrue(get(o, "valid")));
    assert_true(cJSON_IsFalse(get(o, "finished")));
    assert_int_equal(cJSON_GetArraySize(get(o, "players")), 2);
    expect_str(cJSON_GetArrayItem(get(o, "players"), 0), "name", "Alice");
    expect_num(cJSON_GetArrayItem(get(o, "players"), 0), "score", 0);
    assert_int_equal(cJSON_GetArraySize(get(o, "violations")), 0);
    assert_int_equal(cJSON_GetArraySize(get(o, "flights")), 0);
    assert_int_equal(cJSON_GetArraySize(get(o, "scores")), 0);
    cJSON_Delete(o);
    buf_release(&out);
    report_release(&r);
    game_log_release(&log);
}

static void test_error_json(void **state)
{
    struct buf out = BUF_INIT;
    cJSON *o;
    (void)state;
    mlog_error_json("dir/x\"y.jcz", "parse error: not valid JSON at byte "
                    "offset 3\n(line 1)", &out);
    o = parse_line(&out);
    expect_str(o, "file", "dir/x\"y.jcz");
    expect_str(o, "error", "parse error: not valid JSON at byte offset 3\n"
                           "(line 1)");
    assert_int_equal(cJSON_GetArraySize(o), 2);
    cJSON_Delete(o);
    buf_release(&out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_setup_fields),
        cmocka_unit_test(test_start_tile),
        cmocka_unit_test(test_players_and_names),
        cmocka_unit_test(test_move_fields),
        cmocka_unit_test(test_flight_roll),
        cmocka_unit_test(test_replay_sequence),
        cmocka_unit_test(test_unknown_tile_is_audited),
        cmocka_unit_test(test_error_paths),
        cmocka_unit_test(test_empty_input),
        cmocka_unit_test(test_trailing_data),
        cmocka_unit_test(test_size_limit),
        cmocka_unit_test(test_report_json),
        cmocka_unit_test(test_report_json_of_audit),
        cmocka_unit_test(test_error_json),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
