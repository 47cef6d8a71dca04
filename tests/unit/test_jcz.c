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
#include "core/replay.h"
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
    same(what, "followers", r->figures[FIG_SMALL], setup_cases[i].followers);
    same(what, "abbots", r->figures[FIG_ABBOT], setup_cases[i].abbots);
    same(what, "farmers", ((r->flags & RF_FARMERS) != 0), setup_cases[i].farmers);
    same(what, "gardens", ((r->flags & RF_GARDENS) != 0), setup_cases[i].gardens);
    same(what, "tiny_city", r->opt[OPT_TINY_CITY], setup_cases[i].tiny_city);
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

/* Every element the units know, read by their tables; and written back
 * as JCloisterZone writes them: figures as counts, switches as booleans
 * but the garden, which it counts (1). */
#define F7 [FIG_SMALL] = 7
static const struct {
    const char *sets, *elements;
    uint8_t figures[FIG__COUNT];
    uint32_t flags;
} element_cases[] = {
    { NULL, "\"small-follower\":7,\"farmers\":true", { F7 }, RF_FARMERS },
    { "\"basic:1\":1,\"flier:1\":1,\"inns-and-cathedrals:1\":1",
      "\"small-follower\":7,\"farmers\":true,\"big-follower\":1,"
      "\"cathedral\":true,\"inn\":true",
      { F7, [FIG_BIG] = 1 }, RF_FARMERS | RF_INNS | RF_CATHEDRALS },
    { "\"basic:2\":1,\"flier:2\":1,\"inns-and-cathedrals:2\":1",
      "\"small-follower\":7,\"farmers\":true,\"big-follower\":1,"
      "\"cathedral\":true,\"inn\":true,\"abbot\":1,\"garden\":1",
      { F7, [FIG_ABBOT] = 1, [FIG_BIG] = 1 },
      RF_FARMERS | RF_GARDENS | RF_INNS | RF_CATHEDRALS },
    { "\"basic:1\":1,\"flier:1\":1",
      "\"small-follower\":7,\"farmers\":true,\"phantom\":1",
      { F7, [FIG_PHANTOM] = 1 }, RF_FARMERS },
    { "\"basic:2\":1,\"flier:2\":1,\"river/2:2\":1",
      "\"small-follower\":7,\"farmers\":true,\"abbot\":1,\"garden\":1",
      { F7, [FIG_ABBOT] = 1 }, RF_FARMERS | RF_GARDENS },
    /* an inn without the set (the river's RI.2/RIrI has one), figures
     * given as true, switches as numbers, some off */
    { "\"basic:1\":1,\"river/2:1\":1",
      "\"small-follower\":3,\"inn\":1,\"cathedral\":0,"
      "\"big-follower\":true,\"phantom\":false",
      { [FIG_SMALL] = 3, [FIG_BIG] = 1 }, RF_INNS },
};

static void check_elements(const char *what, const struct rules *r,
                           size_t i)
{
    for (int f = 0; f < FIG__COUNT; f++)
        same(what, figure_class(f)->jcz, r->figures[f],
             element_cases[i].figures[f]);
    same(what, "flags", (long)r->flags, (long)element_cases[i].flags);
}

/* setup.elements of the save the writer makes of log: each element in
 * play as JCloisterZone writes it. */
static void check_written_elements(const char *what,
                                   const struct game_log *log)
{
    struct buf out = BUF_INIT;
    mlog_write_jcz(log, &out);
    cJSON *root = cJSON_Parse(out.p);
    const cJSON *els = cJSON_GetObjectItem(cJSON_GetObjectItem(root, "setup"),
                                           "elements");
    const struct rules *r = &log->rules;
    assert_true(cJSON_IsObject(els));
    for (int u = 0; u < EXP__COUNT; u++)
        for (const struct element *el = expansion_get(u)->elements;
             el && el->key; el++) {
            const cJSON *v = cJSON_GetObjectItem(els, el->key);
            int want = element_get(r, el);
            if (!want) {
                if (v && !cJSON_IsFalse(v) &&
                    !(cJSON_IsNumber(v) && v->valuedouble == 0))
                    fail_msg("%s: %s written, but off", what, el->key);
                continue;
            }
            if (!v)
                fail_msg("%s: %s not written", what, el->key);
            if (el->number) {
                assert_true(cJSON_IsNumber(v));
                same(what, el->key, v->valueint, want);
            } else if (!cJSON_IsTrue(v)) {
                fail_msg("%s: %s is not written true", what, el->key);
            }
        }
    cJSON_Delete(root);
    buf_release(&out);
}

static void test_setup_elements(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_OF(element_cases); i++) {
        struct game_log log, back;
        struct buf out = BUF_INIT;
        struct err e;
        enum mlog_format fmt;
        const char *what = element_cases[i].elements;
        parse_ok(&(struct doc){ .sets = element_cases[i].sets,
                                .elements = element_cases[i].elements },
                 &log);
        check_elements(what, &log.rules, i);
        check_written_elements(what, &log);
        mlog_write_jcz(&log, &out);
        assert_int_equal(parse_doc(out.p, out.len, &back, &fmt, &e), ST_OK);
        check_elements(what, &back.rules, i);
        assert_memory_equal(log.rules.set_copies, back.rules.set_copies,
                            sizeof log.rules.set_copies);
        game_log_release(&back);
        game_log_release(&log);
        buf_release(&out);
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
    /* The River's spring */
    { "[{\"tile\":\"RI/s\",\"x\":0,\"y\":0,\"rotation\":0}]", "RI/s", 0, 0,
      0 },
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
        .feature = FEAT_CITY, .mask = EDGE_N | EDGE_E, .meeple = FIG_SMALL,
        .meeple_n = 3, .meeple_owner = 1 } },
    { DEPLOY(2, 2, "City", "_W", "0.small.1"), NULL,
      { .kind = MV_DEPLOY, .player = -1, .at = { 2, 2 },
        .feature = FEAT_CITY, .mask = EDGE_N | EDGE_E | EDGE_S,
        .meeple = FIG_SMALL, .meeple_n = 1, .meeple_owner = 0 } },
    { DEPLOY(1, 0, "Road", "WE", "0.small.8"), NULL,
      { .kind = MV_DEPLOY, .player = -1, .at = { 1, 0 },
        .feature = FEAT_ROAD, .mask = EDGE_W | EDGE_E, .meeple = FIG_SMALL,
        .meeple_n = 8, .meeple_owner = 0 } },
    { DEPLOY(0, -1, "Field", "NL.NR.EL.ER.WL.WR", "0.small.2"), NULL,
      { .kind = MV_DEPLOY, .player = -1, .at = { 0, -1 },
        .feature = FEAT_FIELD,
        .mask = HE_NL | HE_NR | HE_EL | HE_ER | HE_WL | HE_WR,
        .meeple = FIG_SMALL, .meeple_n = 2, .meeple_owner = 0 } },
    { DEPLOY(0, 1, "Monastery", "I", "1.small.7"), NULL,
      { .kind = MV_DEPLOY, .player = -1, .at = { 0, 1 },
        .feature = FEAT_MONASTERY, .meeple = FIG_SMALL, .meeple_n = 7,
        .meeple_owner = 1 } },
    { DEPLOY(1, 0, "Garden", "I", "0.abbot.1"), NULL,
      { .kind = MV_DEPLOY, .player = -1, .at = { 1, 0 },
        .feature = FEAT_GARDEN, .meeple = FIG_ABBOT, .meeple_n = 1,
        .meeple_owner = 0 } },
    /* a random on an ordinary deploy is no roll */
    { MSG("DEPLOY_MEEPLE", "\"pointer\":" POINTER(1, 0, "Road", "WE")
                           ",\"meepleId\":\"0.small.1\",\"random\":0.9"),
      NULL,
      { .kind = MV_DEPLOY, .player = -1, .at = { 1, 0 },
        .feature = FEAT_ROAD, .mask = EDGE_W | EDGE_E, .meeple = FIG_SMALL,
        .meeple_n = 1, .meeple_owner = 0 } },
    /* a FlyingMachine deploy without random (a landing on it) has roll 0 */
    { DEPLOY(3, 0, "FlyingMachine", "I", "0.small.1"), NULL,
      { .kind = MV_DEPLOY, .player = -1, .at = { 3, 0 },
        .feature = FEAT_FLIER, .meeple = FIG_SMALL, .meeple_n = 1,
        .meeple_owner = 0 } },
    { RETURN(2, 1, "Monastery", "1.abbot.1", "ABBOT_RETURN"), NULL,
      { .kind = MV_RECALL, .player = -1, .at = { 2, 1 },
        .feature = FEAT_MONASTERY, .meeple = FIG_ABBOT, .meeple_n = 1,
        .meeple_owner = 1 } },
    { RETURN(-1, 0, "Garden", "0.abbot.1", "ABBOT_RETURN"), NULL,
      { .kind = MV_RECALL, .player = -1, .at = { -1, 0 },
        .feature = FEAT_GARDEN, .meeple = FIG_ABBOT, .meeple_n = 1,
        .meeple_owner = 0 } },
    /* Inns & Cathedrals' large follower, the Phantom; flights of both */
    { DEPLOY(1, 0, "Field", "NL.NR", "1.big.1"), NULL,
      { .kind = MV_DEPLOY, .player = -1, .at = { 1, 0 },
        .feature = FEAT_FIELD, .mask = HE_NL | HE_NR, .meeple = FIG_BIG,
        .meeple_n = 1, .meeple_owner = 1 } },
    { DEPLOY(0, 1, "City", "N", "0.phantom.1"), NULL,
      { .kind = MV_DEPLOY, .player = -1, .at = { 0, 1 },
        .feature = FEAT_CITY, .mask = EDGE_N, .meeple = FIG_PHANTOM,
        .meeple_n = 1, .meeple_owner = 0 } },
    { FLY(2, 2, "0.big.1", "0.5"), NULL,
      { .kind = MV_DEPLOY, .player = -1, .at = { 2, 2 },
        .feature = FEAT_FLIER, .meeple = FIG_BIG, .meeple_n = 1,
        .meeple_owner = 0, .roll = 2 } },
    { FLY(2, 2, "1.phantom.1", "0.1"), NULL,
      { .kind = MV_DEPLOY, .player = -1, .at = { 2, 2 },
        .feature = FEAT_FLIER, .meeple = FIG_PHANTOM, .meeple_n = 1,
        .meeple_owner = 1, .roll = 1 } },
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
    { NULL, { .sets = "\"basic:1\":1,\"catapult:1\":1" },
      ST_UNSUPPORTED, MLOG_JCZ,
      { "unsupported: The Catapult", "catapult:1", "setup.sets" } },
    { NULL, { .sets = "\"basic:1\":1,\"no-such-set:1\":1" },
      ST_UNSUPPORTED, MLOG_JCZ,
      { "unsupported:", "no-such-set:1", "setup.sets" } },
    { NULL, { .elements = "\"small-follower\":7,\"catapult\":true" },
      ST_UNSUPPORTED, MLOG_JCZ,
      { "unsupported: The Catapult", "catapult", "setup.elements" } },
    { NULL, { .elements = "\"small-follower\":7,\"king-and-robber\":true" },
      ST_UNSUPPORTED, MLOG_JCZ,
      { "unsupported:", "king-and-robber", "setup.elements" } },
    { NULL, { .elements = "\"catapult\":1" }, ST_UNSUPPORTED, MLOG_JCZ,
      { "unsupported:", "catapult", "setup.elements" } },
    { NULL, { .rules = "\"princess-action\":\"MUST_REMOVE\"" },
      ST_UNSUPPORTED, MLOG_JCZ,
      { "unsupported:", "princess-action", "setup.rules" } },
    { NULL, { .rules = "\"tiny-city-scoring\":\"3\"" }, ST_UNSUPPORTED,
      MLOG_JCZ, { "unsupported:", "tiny-city-scoring", "setup.rules" } },
    { NULL, { .start = "[{\"tile\":\"AM/C\",\"x\":0,\"y\":0}]" },
      ST_UNSUPPORTED, MLOG_JCZ, { "unsupported:", "AM/C" } },
    { NULL, { .replay = PASS_MSG "," MSG("FLOCK_EXPAND_OR_SCORE",
                                          "\"value\":1") },
      ST_UNSUPPORTED, MLOG_JCZ,
      { "unsupported:", "FLOCK_EXPAND_OR_SCORE value",
        "replay[1].payload.value" } },
    { NULL, { .replay = PASS_MSG "," MSG("FLOCK_EXPAND_OR_SCORE",
                                          "\"value\":\"EXPAND\","
                                          "\"random\":2") },
      ST_PARSE, MLOG_JCZ,
      { "replay[1].payload.random", "expected a number in [0, 1)" } },
    { NULL, { .replay = PASS_MSG "," MSG("PLACE_TOKEN", "\"token\":\"X\"") },
      ST_UNSUPPORTED, MLOG_JCZ,
      { "unsupported:", "PLACE_TOKEN token 'X'", "replay[1].payload.token" } },
    { NULL, { .replay = TURN1 "," RETURN(2, 1, "Monastery", "0.abbot.1",
                                         "ROBBERS_SON") },
      ST_UNSUPPORTED, MLOG_JCZ,
      { "unsupported:", "ROBBERS_SON", "replay[3].payload.source" } },
    { NULL, { .replay = DEPLOY(0, 1, "Road", "N", "0.large.1") },
      ST_UNSUPPORTED, MLOG_JCZ,
      { "unsupported:", "large", "replay[0].payload.meepleId" } },
    { NULL, { .replay = DEPLOY(0, 1, "Circus", "I", "0.small.1") },
      ST_UNSUPPORTED, MLOG_JCZ,
      { "unsupported:", "Circus", "replay[0].payload.pointer.feature" } },
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

/* o[key] printed compactly is want. */
static void expect_json(const cJSON *o, const char *key, const char *want)
{
    char *got = cJSON_PrintUnformatted(get(o, key));
    assert_non_null(got);
    if (strcmp(got, want) != 0)
        fail_msg("%s is %s, expected %s", key, got, want);
    cJSON_free(got);
}

static void expect_items(const cJSON *o, const char *want)
{
    expect_json(o, "items", want);
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
    f[0] = (struct flight){ .turn = 5, .player = 1, .figure = FIG_BIG,
                            .from = { 2, -1 },
                            .dir = DIR_NW, .roll = 2, .target = { 0, -3 },
                            .landed = true, .feature = FEAT_CITY,
                            .mask = EDGE_N, .n_options = 2,
                            .options = { { 3, FEAT_CITY, EDGE_N },
                                         { 4, FEAT_ROAD, EDGE_W | EDGE_E } } };
    f[1] = (struct flight){ .turn = 9, .player = 0, .from = { 0, 0 },
                            .dir = DIR_S, .roll = 1, .target = { 0, 1 } };
    ev[0] = (struct score_event){ .turn = 7, .feature = FEAT_ROAD,
                                  .players = 3, .points = 6,
                                  .meeples = { 1, 2 },
                                  .strength = { 2, 2 }, .n_items = 2,
                                  .items = { { SI_TILES, 3, 3 },
                                             { SI_INN, -1, 3 } } };
    ev[1] = (struct score_event){ .turn = -1, .feature = FEAT_CITY,
                                  .players = 2, .points = 0,
                                  .expr = EXPR_INCOMPLETE,
                                  .meeples = { 0, 1 }, .strength = { 0, 1 },
                                  .n_items = 1,
                                  .items = { { SI_CATHEDRAL, -1, 0 } } };
    log->rules.set_copies[tile_set_find("basic:2")] = 1;
    log->rules.set_copies[tile_set_find("inns-and-cathedrals:2")] = 1;
    log->rules.figures[FIG_SMALL] = 7;
    log->rules.figures[FIG_BIG] = 1;
    log->rules.figures[FIG_PHANTOM] = 1;
    log->rules.flags = RF_FARMERS | RF_INNS;
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
    expect_str(f, "figure", "big");
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
    expect_str(f, "figure", "small");
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
    expect_num(s, "points", 6);
    expect_str(s, "expr", "road");
    expect_items(s, "[[\"tiles\",3,3],[\"inn\",null,3]]");
    /* a large follower against two followers: strength 2 each */
    expect_json(s, "meeples", "{\"Ann \\\"A\\\"\":1,\"Bob\":2}");
    expect_json(s, "strength", "{\"Ann \\\"A\\\"\":2,\"Bob\":2}");
    s = cJSON_GetArrayItem(ss, 1);
    assert_true(cJSON_IsNull(get(s, "turn")));
    names = get(s, "players");
    assert_int_equal(cJSON_GetArraySize(names), 1);
    assert_string_equal(cJSON_GetArrayItem(names, 0)->valuestring, "Bob");
    expect_str(s, "feature", "city");
    expect_num(s, "points", 0);
    expect_str(s, "expr", "city.incomplete");
    expect_items(s, "[[\"cathedral\",null,0]]");
    expect_json(s, "strength", "{\"Bob\":1}");
}

/* The elements in play and the expansions they and the sets bring. */
static void check_rules(const cJSON *o)
{
    const cJSON *ru = get(o, "rules");
    expect_num(ru, "followers", 7);
    assert_true(cJSON_IsTrue(get(ru, "farmers")));
    expect_num(ru, "abbots", 0);
    assert_true(cJSON_IsFalse(get(ru, "gardens")));
    expect_num(ru, "tiny-city-scoring", 4);
    expect_json(ru, "sets", "{\"basic:2\":1,\"inns-and-cathedrals:2\":1}");
    expect_json(ru, "elements", "{\"small-follower\":7,\"farmers\":true,"
                                "\"big-follower\":1,\"inn\":true,"
                                "\"phantom\":1}");
    expect_json(ru, "expansions", "[\"base\",\"inns\",\"phantom\"]");
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
    check_rules(o);
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

/* A log of an expansion not audited yet: what it is, not an error. */
static void test_unsupported_json(void **state)
{
    static const char save[] =
        "{\"setup\":{\"sets\":{\"basic:1\":1,\"catapult:1\":1}},\"players\":"
        "[{\"name\":\"A\"}],\"replay\":[]}";
    struct game_log log;
    struct err e;
    enum mlog_format fmt;
    struct buf out = BUF_INIT;
    cJSON *o;
    (void)state;
    assert_int_equal(parse_doc(save, strlen(save), &log, &fmt, &e),
                     ST_UNSUPPORTED);
    game_log_release(&log);
    mlog_unsupported_json("t/x.jcz", fmt, e.msg, &out);
    o = parse_line(&out);
    assert_int_equal(cJSON_GetArraySize(o), 3);
    expect_str(o, "file", "t/x.jcz");
    expect_str(o, "format", "jcz");
    expect_str(o, "unsupported", "unsupported: The Catapult (tile set "
                                 "'catapult:1' in setup.sets) is not audited "
                                 "yet");
    cJSON_Delete(o);
    buf_release(&out);
}

/* The replay, the live turn and the report of a real game with the new
 * figures and tiles: meeples by their JCloisterZone kind, each tile's
 * segments with the river's and their attributes, flights with their
 * figure, events with expression, items and strength. */
static const cJSON *tile_segment(const cJSON *rj, const char *tile,
                                 const char *seg)
{
    const cJSON *t = get(get(rj, "tiles"), tile), *it;
    cJSON_ArrayForEach(it, get(t, "segments")) {
        if (strcmp(get(it, "segment")->valuestring, seg) == 0)
            return it;
    }
    fail_msg("tile %s has no segment %s", tile, seg);
    return NULL;
}

static cJSON *audit_json(const struct game_log *log, int kind,
                         struct report *r)
{
    struct buf out = BUF_INIT;
    struct replay rp;
    if (kind == 0) {
        replay_build(log, NULL, &rp, NULL);
        mlog_replay_json(log, r, &rp, &out);
        replay_release(&rp);
    } else if (kind == 1) {
        mlog_live_turn_json(log, r, 2, &out);
    } else {
        mlog_report_json("g.jcz", MLOG_JCZ, log, r, &out);
    }
    cJSON *o = parse_line(&out);
    buf_release(&out);
    return o;
}

/* The abbey unit's counters in a replay: each seat holds one abbey at the
 * start (samples/bigbox-c2-4p.jcz), and a turn that changes the list
 * lists every seat again, one abbey fewer for its player. */
static void test_replay_unit_counters(void **state)
{
    (void)state;
    FILE *f = fopen(FLIERD_SOURCE_DIR "/samples/bigbox-c2-4p.jcz", "rb");
    assert_non_null(f);
    struct buf in = BUF_INIT;
    char chunk[8192];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        buf_append(&in, chunk, n);
    fclose(f);
    struct game_log log;
    struct report r;
    struct err e;
    enum mlog_format fmt;
    game_log_init(&log);
    assert_int_equal(parse_doc(in.p, in.len, &log, &fmt, &e), ST_OK);
    audit_run(&log, NULL, &r, NULL);
    cJSON *rj = audit_json(&log, 0, &r), *t;
    int left = -1, changes = 0;
    cJSON_ArrayForEach(t, get(rj, "turns")) {
        const cJSON *c = cJSON_GetObjectItemCaseSensitive(t, "counters"), *it;
        if (!c)
            continue;
        int sum = 0;
        assert_int_equal(cJSON_GetArraySize(c), 4);
        cJSON_ArrayForEach(it, c) {
            expect_str(it, "unit", "abbey");
            expect_str(it, "name", "abbeys");
            sum += get(it, "value")->valueint;
        }
        assert_int_equal(sum, left < 0 ? 4 : left - 1);
        left = sum;
        changes++;
    }
    assert_true(changes > 1);
    cJSON_Delete(rj);
    report_release(&r);
    game_log_release(&log);
    buf_release(&in);
}

static void test_replay_and_live_json(void **state)
{
    struct game_log log;
    struct report r;
    (void)state;
    parse_ok(&(struct doc){
                 .sets = "\"basic:1\":1,\"flier:1\":1,\"river/2:1\":1,"
                         "\"inns-and-cathedrals:1\":1",
                 .elements = "\"small-follower\":7,\"farmers\":true,"
                             "\"big-follower\":1,\"inn\":true,"
                             "\"phantom\":1",
                 .start = "[{\"tile\":\"RI/s\",\"x\":0,\"y\":0}]",
                 .replay = PLACE("RI.2/III", "R270", 1, 0) ","
                           DEPLOY(1, 0, "Field", "NL.WR", "0.big.1") ","
                           DEPLOY(1, 0, "Field", "NR.EL.ER.SL",
                                  "0.phantom.1") "," MSG("COMMIT", "") ","
                           PLACE("RI.2/RIrI", "R0", 1, -1) ","
                           DEPLOY(1, -1, "Road", "WE", "1.small.1") ","
                           MSG("COMMIT", "") },
             &log);
    audit_run(&log, NULL, &r, NULL);
    if (!r.valid)
        fail_msg("%s", r.violations[0].msg);
    cJSON *rj = audit_json(&log, 0, &r);
    const cJSON *t1 = cJSON_GetArrayItem(get(rj, "turns"), 1);
    const cJSON *placed = get(t1, "placed");
    assert_int_equal(cJSON_GetArraySize(placed), 2);
    expect_str(cJSON_GetArrayItem(placed, 0), "kind", "big");
    expect_str(cJSON_GetArrayItem(placed, 1), "kind", "phantom");
    const cJSON *t2 = cJSON_GetArrayItem(get(rj, "turns"), 2);
    expect_str(cJSON_GetArrayItem(get(t2, "placed"), 0), "kind", "small");
    expect_str(tile_segment(rj, "RI/s", "river:E"), "feature", "river");
    expect_str(tile_segment(rj, "RI.2/III", "river:_S"), "feature", "river");
    assert_true(cJSON_IsTrue(get(tile_segment(rj, "RI.2/RIrI", "road:WE"),
                                 "inn")));
    assert_null(cJSON_GetObjectItem(tile_segment(rj, "RI.2/RIrI",
                                                 "river:NS"), "inn"));
    cJSON_Delete(rj);
    cJSON *lj = audit_json(&log, 1, &r);
    expect_num(lj, "turn", 2);
    assert_true(cJSON_IsTrue(get(lj, "valid")));
    cJSON_Delete(lj);
    report_release(&r);
    r = (struct report){ 0 };
    /* the final scoring: the inn road unfinished scores nothing */
    struct audit_opts done = { .assume_finished = true };
    audit_run(&log, &done, &r, NULL);
    cJSON *aj = audit_json(&log, 2, &r);
    const cJSON *ev, *road = NULL;
    cJSON_ArrayForEach(ev, get(aj, "scores")) {
        if (strcmp(get(ev, "feature")->valuestring, "road") == 0)
            road = ev;
    }
    assert_non_null(road);
    expect_str(road, "expr", "road.incomplete");
    expect_items(road, "[[\"inn\",null,0]]");
    expect_json(road, "strength", "{\"Bob\":1}");
    expect_json(get(aj, "rules"), "expansions",
                "[\"base\",\"flier\",\"river\",\"inns\",\"phantom\"]");
    cJSON_Delete(aj);
    report_release(&r);
    game_log_release(&log);
}

/* The City of Carcassonne: twelve start tiles read, listed in the
 * replay with their geometry (the quarters on CO/7), the count's quarter
 * on each turn; a follower sent into the City and the count's move read
 * and written back as JCloisterZone writes them. */
#define CO(n, x, y) "{\"tile\":\"CO/" #n "\",\"x\":" #x ",\"y\":" #y \
    ",\"rotation\":0}"
static void test_city_of_carcassonne(void **state)
{
    struct game_log log;
    struct report r;
    (void)state;
    parse_ok(&(struct doc){
                 .sets = "\"basic:1\":1,\"count\":1,\"flier:1\":1",
                 .elements = "\"small-follower\":7,\"farmers\":true,"
                             "\"count\":1",
                 .start = "[" CO(1, -2, -1) "," CO(2, -1, -1) ","
                          CO(3, 0, -1) "," CO(4, 1, -1) "," CO(5, -2, 0) ","
                          CO(6, -1, 0) "," CO(7, 0, 0) "," CO(8, 1, 0) ","
                          CO(9, -2, 1) "," CO(10, -1, 1) "," CO(11, 0, 1)
                          "," CO(12, 1, 1) "]",
                 .replay = PLACE("BA/L", "R0", 2, 0) "," MSG("PASS", "") ","
                           MSG("COMMIT", "") ","
                           PLACE("BA/RFr", "R90", 0, 2) ","
                           DEPLOY(0, 2, "Road", "NS", "1.small.1") ","
                           MSG("COMMIT", "") ","
                           PLACE("BA/CRRR", "R180", 0, 3) ","
                           MSG("PASS", "") "," MSG("COMMIT", "") ","
                           DEPLOY(0, 0, "Quarter", "QUARTER_BLACKSMITH",
                                  "0.small.1") ","
                           "{\"type\":\"MOVE_NEUTRAL_FIGURE\",\"payload\":"
                           "{\"to\":{\"position\":[0,0],\"location\":"
                           "\"QUARTER_MARKET\",\"feature\":\"Quarter\"},"
                           "\"figureId\":\"count.1\"}}" },
             &log);
    assert_int_equal(game_log_n_starts(&log), 12);
    const struct move *last = &log.moves[log.n_moves - 1];
    assert_int_equal(last->kind, MV_NEUTRAL);
    assert_int_equal(last->neutral, FIG_COUNT);
    assert_int_equal(last->feature, FEAT_QUARTER);
    audit_run(&log, NULL, &r, NULL);
    if (!r.valid)
        fail_msg("%s", r.violations[0].msg);
    cJSON *rj = audit_json(&log, 0, &r);
    assert_int_equal(cJSON_GetArraySize(get(rj, "start")), 12);
    expect_str(cJSON_GetArrayItem(get(rj, "start"), 6), "tile", "CO/7");
    assert_non_null(tile_segment(rj, "CO/7", "quarter:cathedral"));
    assert_non_null(tile_segment(rj, "CO/12", "city:E"));
    /* the count: a figure of its unit, listed on the turns it moved */
    const cJSON *figs = NULL;
    for (int i = 0; i <= 3; i++) {
        const cJSON *t = cJSON_GetArrayItem(get(rj, "turns"), i);
        if (cJSON_GetObjectItemCaseSensitive(t, "figures"))
            figs = get(t, "figures");
    }
    assert_non_null(figs);
    expect_str(cJSON_GetArrayItem(figs, 0), "unit", "count");
    expect_str(cJSON_GetArrayItem(figs, 0), "name", "count");
    expect_str(cJSON_GetArrayItem(figs, 0), "segment", "quarter:castle");
    cJSON_Delete(rj);
    struct buf out = BUF_INIT;
    mlog_write_jcz(&log, &out);
    assert_non_null(strstr(out.p, "\"location\":\"QUARTER_MARKET\""));
    assert_non_null(strstr(out.p, "\"figureId\":\"count.1\""));
    assert_non_null(strstr(out.p, "{\"tile\":\"CO/12\",\"x\":1,\"y\":1,"));
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

/* ---- hostile input ------------------------------------------------------
 * What a forger or a broken client may send: numbers no field can hold,
 * JSON nested or repeated beyond reason, duplicate keys, bytes that are
 * not UTF-8. Each is refused with the field, the message or the byte
 * offset named; nothing is cast or cut silently. */

/* Every numeric field of a save, with "%s" where the number goes (in
 * whichever piece of the doc holds it) and the path its message names. */
struct num_field {
    struct doc d;
    const char *path;
    const char *ok; /* a number the field reads */
};

#define FLIERD_OBJ(members) ",\"flierd\":{\"version\":1," members "}"
#define CLAIM(turn, seat, points)                                          \
    "\"claims\":[{\"turn\":" turn ",\"players\":[" seat "],"               \
    "\"feature\":\"city\",\"points\":" points "}]"
#define DISCARD(before, player) \
    "\"discards\":[{\"before\":" before ",\"tile\":\"BA/C\",\"player\":" \
    player "}]"

static const struct num_field int_fields[] = {
    { { .replay = PLACE_AT("BA/C", "R0", "[%s,0]") },
      "replay[0].payload.position[0]", "1" },
    { { .replay = MSG("DEPLOY_MEEPLE", "\"pointer\":"
                      POINTER_AT("[0,%s]", "Road", "N")
                      ",\"meepleId\":\"0.small.1\"") },
      "replay[0].payload.pointer.position[1]", "1" },
    { { .replay = TURN1 ",{\"type\":\"PASS\",\"payload\":{},\"player\":%s}" },
      "replay[3].player", "1" },
    { { .start = "[{\"tile\":\"BA/RCr\",\"x\":%s,\"y\":0}]" },
      "setup.start[0].x", "1" },
    { { .start = "[{\"tile\":\"BA/RCr\",\"x\":0,\"y\":0,\"rotation\":%s}]" },
      "setup.start[0].rotation", "90" },
    { { .sets = "\"basic:1\":%s" }, "setup.sets.basic:1", "1" },
    { { .elements = "\"small-follower\":%s" },
      "setup.elements.small-follower", "1" },
    { { .elements = "\"abbot\":%s" }, "setup.elements.abbot", "1" },
    { { .tail = ",\"gameAnnotations\":{\"endTurn\":%s}" },
      "gameAnnotations.endTurn", "1" },
    { { .tail = ",\"flierd\":{\"version\":%s}" }, "flierd.version", "1" },
    { { .replay = PASS_MSG, .tail = FLIERD_OBJ(
            "\"meeples\":[{\"message\":%s,\"owner\":0,\"n\":1}]") },
      "flierd.meeples[0].message", "0" },
    { { .replay = PASS_MSG, .tail = FLIERD_OBJ(
            "\"meeples\":[{\"message\":0,\"owner\":0,\"n\":%s}]") },
      "flierd.meeples[0].n", "1" },
    { { .tail = FLIERD_OBJ(DISCARD("%s", "0")) }, "flierd.discards[0].before",
      "0" },
    { { .tail = FLIERD_OBJ(DISCARD("0", "%s")) }, "flierd.discards[0].player",
      "1" },
    { { .tail = FLIERD_OBJ(CLAIM("%s", "0", "4")) }, "flierd.claims[0].turn",
      "1" },
    { { .tail = FLIERD_OBJ(CLAIM("1", "%s", "4")) },
      "flierd.claims[0].players[0]", "1" },
    { { .tail = FLIERD_OBJ(CLAIM("1", "0", "%s")) },
      "flierd.claims[0].points", "1" },
    { { .tail = FLIERD_OBJ("\"totals\":[{\"turn\":1,\"scores\":[%s,0]}]") },
      "flierd.totals[0].scores[0]", "1" },
};

/* JCloisterZone's random numbers: a draw's in [0, 1); a die's may be
 * anything that gives a roll (the auditor judges 1.5, a roll of 5). */
static const struct num_field random_fields[] = {
    { { .replay = FLY(3, 0, "0.small.1", "%s") }, "replay[0].payload.random",
      "1.5" },
    { { .replay = TURN1 "," MSG("COMMIT", "\"random\":%s") },
      "replay[3].payload.random", "0.5" },
    { { .tail = ",\"initialRandom\":%s" }, "initialRandom", "0.5" },
    { { .replay = PASS_MSG,
        .tail = FLIERD_OBJ("\"draws\":[{\"message\":0,\"draw\":%s}]") },
      "flierd.draws[0].draw", "0.5" },
    { { .tail = FLIERD_OBJ("\"discards\":[{\"before\":0,\"tile\":\"BA/C\","
                           "\"draw\":%s}]") },
      "flierd.discards[0].draw", "0.5" },
};

/* 1e999 and -1e400 overflow to infinities; 2^53 + 1 rounds to 2^53. */
static const char *const huge_numbers[] = {
    "1e999", "-1e400", "1e20", "-1e20", "9007199254740993",
    "-9007199254740993", "1.7976931348623157e308",
};
static const char *const fractions[] = { "0.5", "2.000001", "-1e-300" };

/* d with "%s" in each piece replaced by num; text holds the pieces. */
static struct doc with_number(const struct doc *d, const char *num,
                              char text[7][1024])
{
    const char *in[7] = { d->sets, d->elements, d->rules, d->start,
                          d->players, d->replay, d->tail };
    const char *out[7];
    for (int i = 0; i < 7; i++) {
        out[i] = in[i];
        if (in[i] && strstr(in[i], "%s")) {
            snprintf(text[i], sizeof text[i], in[i], num);
            out[i] = text[i];
        }
    }
    return (struct doc){ out[0], out[1], out[2], out[3], out[4], out[5],
                         out[6] };
}

static void expect_refused(const struct doc *d, enum status want,
                           const char *has1, const char *has2)
{
    struct game_log log;
    struct err e;
    enum mlog_format fmt;
    const char *json = build(d);
    enum status st = parse_doc(json, strlen(json), &log, &fmt, &e);
    game_log_release(&log);
    if (st != want)
        fail_msg("%s\n  got %s '%s', expected %s", json, status_name(st),
                 e.msg, status_name(want));
    if ((has1 && !strstr(e.msg, has1)) || (has2 && !strstr(e.msg, has2)))
        fail_msg("%s\n  message '%s' lacks '%s' or '%s'", json, e.msg, has1,
                 has2 ? has2 : "");
}

static void test_hostile_numbers(void **state)
{
    char text[7][1024];
    (void)state;
    for (size_t f = 0; f < N_OF(int_fields); f++) {
        struct doc d;
        struct game_log log;
        /* the field reads a plain 0 or 1 */
        d = with_number(&int_fields[f].d, int_fields[f].ok, text);
        parse_ok(&d, &log);
        game_log_release(&log);
        for (size_t n = 0; n < N_OF(huge_numbers); n++) {
            d = with_number(&int_fields[f].d, huge_numbers[n], text);
            expect_refused(&d, ST_PARSE, int_fields[f].path, NULL);
        }
        for (size_t n = 0; n < N_OF(fractions); n++) {
            d = with_number(&int_fields[f].d, fractions[n], text);
            expect_refused(&d, ST_PARSE, int_fields[f].path, NULL);
        }
    }
    for (size_t f = 0; f < N_OF(random_fields); f++) {
        struct doc d = with_number(&random_fields[f].d, random_fields[f].ok,
                                   text);
        struct game_log log;
        parse_ok(&d, &log);
        game_log_release(&log);
        for (size_t n = 0; n < N_OF(huge_numbers); n++) {
            d = with_number(&random_fields[f].d, huge_numbers[n], text);
            expect_refused(&d, ST_PARSE, random_fields[f].path, NULL);
        }
    }
}

/* NaN and Infinity are JavaScript's and Python's, not JSON's. */
static void test_hostile_nan(void **state)
{
    static const char *const words[] = { "NaN", "Infinity", "-Infinity" };
    char text[7][1024], at[64];
    (void)state;
    for (size_t w = 0; w < N_OF(words); w++) {
        struct doc d = with_number(&random_fields[0].d, words[w], text);
        const char *json = build(&d);
        snprintf(at, sizeof at, "byte offset %zu",
                 (size_t)(strstr(json, words[w]) - json));
        expect_refused(&d, ST_PARSE, at, "NaN and Infinity are not JSON");
        d = with_number(&int_fields[0].d, words[w], text);
        expect_refused(&d, ST_PARSE, "not valid JSON", "not JSON numbers");
    }
}

/* A save whose replay holds n copies of msg, in a heap buffer. Returns
 * the offset of the first copy (copy k is at that + k * (strlen(msg) + 1);
 * searching a 30 MB text for it is slow under ASan). */
static size_t replay_of(struct buf *b, const char *msg, size_t n)
{
    size_t len = strlen(msg);
    buf_puts(b, "{\"setup\":{\"sets\":{\"basic:1\":1}},\"players\":"
                "[{\"name\":\"A\"}],\"replay\":[");
    size_t first = b->len;
    for (size_t i = 0; i < n; i++) {
        if (i)
            buf_append(b, ",", 1);
        buf_append(b, msg, len);
    }
    buf_puts(b, "]}");
    return first;
}

static enum status parse_buf(const struct buf *b, struct game_log *log,
                             struct err *e)
{
    enum mlog_format fmt;
    enum status st = parse_doc(b->p, b->len, log, &fmt, e);
    game_log_release(log);
    return st;
}

/* Offset of the first needle in b. */
static size_t offset_of(const struct buf *b, const char *needle)
{
    const char *p = strstr(b->p, needle);
    assert_non_null(p);
    return (size_t)(p - b->p);
}

static void expect_at(const struct err *e, size_t off)
{
    char at[64];
    snprintf(at, sizeof at, "at byte offset %zu ", off);
    if (!strstr(e->msg, at))
        fail_msg("'%s' lacks '%s'", e->msg, at);
}

/* A real game has a few hundred messages: MLOG_MAX_ITEMS is read, one
 * more is refused before any tree is built, a million just as fast. */
static void test_hostile_many_moves(void **state)
{
    static const size_t counts[] = { MLOG_MAX_ITEMS + 1, 1000000 };
    struct buf b = BUF_INIT;
    struct game_log log;
    struct err e;
    (void)state;
    (void)replay_of(&b, PASS_MSG, MLOG_MAX_ITEMS);
    assert_int_equal(parse_buf(&b, &log, &e), ST_OK);
    buf_release(&b);
    for (size_t i = 0; i < N_OF(counts); i++) {
        size_t first = replay_of(&b, PASS_MSG, counts[i]);
        assert_true(b.len <= MLOG_MAX_BYTES);
        assert_int_equal(parse_buf(&b, &log, &e), ST_LIMIT);
        assert_non_null(strstr(e.msg, "more than 10000 items in \"replay\""));
        assert_non_null(strstr(e.msg, "a few hundred messages"));
        expect_at(&e, first + MLOG_MAX_ITEMS * (strlen(PASS_MSG) + 1));
        buf_release(&b);
    }
    /* messages that stay under the item cap still make too many moves
     * once the flierd object adds its discards */
    (void)replay_of(&b, PASS_MSG, MLOG_MAX_ITEMS);
    b.len -= 2; /* reopen the save: "]}" */
    buf_puts(&b, "],\"flierd\":{\"version\":1,\"discards\":[{\"before\":0,"
                 "\"tile\":\"BA/C\"}]}}");
    assert_int_equal(parse_buf(&b, &log, &e), ST_LIMIT);
    assert_non_null(strstr(e.msg, "10001 moves is more than the 10000"));
    buf_release(&b);
}

/* Members of one object and values in all are capped as well. */
static void test_hostile_huge(void **state)
{
    struct buf b = BUF_INIT;
    struct game_log log;
    struct err e;
    (void)state;
    buf_puts(&b, "{\"setup\":{\"sets\":{\"basic:1\":1}},\"junk\":{");
    for (int i = 0; i <= MLOG_MAX_ITEMS; i++)
        buf_printf(&b, "%s\"k%d\":0", i ? "," : "", i);
    buf_puts(&b, "}}");
    assert_int_equal(parse_buf(&b, &log, &e), ST_LIMIT);
    assert_non_null(strstr(e.msg, "more than 10000 members in \"junk\""));
    expect_at(&e, offset_of(&b, "\"k10000\""));
    buf_release(&b);
    /* 60 arrays of 9000 numbers: each under the item cap */
    buf_puts(&b, "{\"junk\":[");
    for (int a = 0; a < 60; a++) {
        buf_puts(&b, a ? ",[0" : "[0");
        for (int i = 1; i < 9000; i++)
            buf_puts(&b, ",0");
        buf_puts(&b, "]");
    }
    buf_puts(&b, "]}");
    assert_int_equal(parse_buf(&b, &log, &e), ST_LIMIT);
    assert_non_null(strstr(e.msg, "more than 500000 JSON values"));
    buf_release(&b);
}

/* cJSON recurses once per level: MLOG_MAX_DEPTH levels are read (and
 * ignored: "junk" is no key of a save), one more is a parse error at the
 * bracket that opens it, and a million are no stack overflow. */
static void test_hostile_nesting(void **state)
{
    static const size_t depths[] = { MLOG_MAX_DEPTH + 1, 1000000 };
    struct buf b = BUF_INIT;
    struct game_log log;
    struct err e;
    (void)state;
    for (size_t i = 0; i <= N_OF(depths); i++) {
        /* the save itself is level 1, "junk" level 2 */
        size_t n = i == 0 ? MLOG_MAX_DEPTH - 1 : depths[i - 1] - 1;
        const char *text = build(&(struct doc){ .tail = ",\"junk\":%s" });
        const char *cut = strstr(text, "%s");
        buf_append(&b, text, (size_t)(cut - text));
        for (size_t k = 0; k < n; k++)
            buf_append(&b, "[", 1);
        for (size_t k = 0; k < n; k++)
            buf_append(&b, "]", 1);
        buf_puts(&b, cut + 2);
        enum status st = parse_buf(&b, &log, &e);
        if (i == 0) {
            if (st != ST_OK)
                fail_msg("%d levels: %s", MLOG_MAX_DEPTH, e.msg);
        } else {
            assert_int_equal(st, ST_PARSE);
            assert_non_null(strstr(e.msg, "nested deeper than 64 levels"));
            expect_at(&e, (size_t)(cut - text) + MLOG_MAX_DEPTH - 1);
        }
        buf_release(&b);
    }
}

/* JSON readers disagree on which of two equal keys counts (cJSON's
 * lookups take the first, JCloisterZone's reader the last), so a save
 * could say one thing there and another here: any repeat is refused,
 * at the second key, also when escapes spell the same key. */
static const struct {
    struct doc d;
    const char *key;    /* as the message shows it */
    const char *second; /* the second key as written (its last occurrence) */
} dup_cases[] = {
    { { .tail = ",\"replay\":[]" }, "replay", "\"replay\"" },
    { { .replay = "{\"type\":\"PASS\",\"type\":\"COMMIT\",\"payload\":{}}" },
      "type", "\"type\"" },
    { { .replay = MSG("PLACE_TILE", "\"tileId\":\"BA/C\",\"rotation\":\"R0\","
                      "\"position\":[0,-1],\"position\":[0,1]") },
      "position", "\"position\"" },
    { { .players = "{\"name\":\"Ann\",\"name\":\"Bob\"}" }, "name",
      "\"name\":\"Bob\"" },
    { { .sets = "\"basic:1\":1,\"basic:1\":0" }, "basic:1", "\"basic:1\":0" },
    { { .replay = "{\"type\":\"PASS\",\"t\\u0079pe\":\"COMMIT\","
                  "\"payload\":{}}" },
      "type", "\"t\\u0079pe\"" },
    { { .players = "{\"name\":\"Ann\",\"n\\u0061me\":\"Bob\"}" }, "name",
      "\"n\\u0061me\"" },
    { { .players = "{\"name\":\"Ann\",\"\\u00e9\":1,\"\xc3\xa9\":2}" },
      "\xc3\xa9", "\"\xc3\xa9\"" },
    { { .tail = FLIERD_OBJ("\"colors\":[\"red\"],\"colors\":[\"blue\"]") },
      "colors", "\"colors\":[\"blue\"]" },
    /* an object past 16 keys is checked by hash: early and late twins */
    { { .players = "{\"name\":\"Ann\",\"k0\":0,\"k1\":1,\"k2\":2,\"k3\":3,\"k4\":4,\"k5\":5,\"k6\":6,\"k7\":7,\"k8\":8,\"k9\":9,\"k10\":10,\"k11\":11,\"k12\":12,\"k13\":13,\"k14\":14,\"k15\":15,\"k16\":16,\"k17\":17,\"k18\":18,\"k19\":19,\"k3\":9}" }, "k3", "\"k3\":9" },
    { { .players = "{\"name\":\"Ann\",\"k0\":0,\"k1\":1,\"k2\":2,\"k3\":3,\"k4\":4,\"k5\":5,\"k6\":6,\"k7\":7,\"k8\":8,\"k9\":9,\"k10\":10,\"k11\":11,\"k12\":12,\"k13\":13,\"k14\":14,\"k15\":15,\"k16\":16,\"k17\":17,\"k18\":18,\"k19\":19,\"k19\":9}" }, "k19",
      "\"k19\":9" },
    { { .players = "{\"name\":\"Ann\",\"k0\":0,\"k1\":1,\"k2\":2,\"k3\":3,\"k4\":4,\"k5\":5,\"k6\":6,\"k7\":7,\"k8\":8,\"k9\":9,\"k10\":10,\"k11\":11,\"k12\":12,\"k13\":13,\"k14\":14,\"k15\":15,\"k16\":16,\"k17\":17,\"k18\":18,\"k19\":19,\"name\":\"Bob\"}" }, "name",
      "\"name\":\"Bob\"" },
};

static void test_hostile_duplicate_keys(void **state)
{
    char want[96];
    (void)state;
    for (size_t i = 0; i < N_OF(dup_cases); i++) {
        const char *json = build(&dup_cases[i].d);
        const char *last = NULL;
        for (const char *p = strstr(json, dup_cases[i].second); p;
             p = strstr(p + 1, dup_cases[i].second))
            last = p;
        assert_non_null(last);
        snprintf(want, sizeof want, "duplicate key \"%s\" at byte offset %zu ",
                 dup_cases[i].key, (size_t)(last - json));
        expect_refused(&dup_cases[i].d, ST_PARSE, want, "disagree");
    }
    /* the same key in sibling objects, and keys that differ in case */
    struct game_log log;
    parse_ok(&(struct doc){ .players = "{\"name\":\"Ann\",\"Name\":\"x\"},"
                                       "{\"name\":\"Bob\"}" },
             &log);
    assert_string_equal(log.names[0], "Ann");
    game_log_release(&log);
    /* a nested object's keys are its own, before and after it closes,
     * also in an object checked by hash */
    parse_ok(&(struct doc){ .players = "{\"x\":{\"name\":1,\"x\":2},"
                                       "\"name\":\"Ann\",\"y\":{\"x\":3}}" },
             &log);
    assert_string_equal(log.names[0], "Ann");
    game_log_release(&log);
    parse_ok(&(struct doc){ .players = "{\"k0\":0,\"k1\":1,\"k2\":2,\"k3\":3,\"k4\":4,\"k5\":5,\"k6\":6,\"k7\":7,\"k8\":8,\"k9\":9,\"k10\":10,\"k11\":11,\"k12\":12,\"k13\":13,\"k14\":14,\"k15\":15,\"k16\":16,\"k17\":17,\"k18\":18,\"k19\":19,\"x\":{\"k1\":1,\"x\":2},"
                                       "\"name\":\"Ann\",\"y\":{\"k2\":3}}" },
             &log);
    assert_string_equal(log.names[0], "Ann");
    game_log_release(&log);
}

/* RFC 8259 wants UTF-8; cJSON copies any byte. A player's name is where
 * bad bytes would travel furthest (reports, the database, the
 * dashboard), so the table puts them there: "A" + bytes + "Z". */
static const struct {
    const char *bytes;
    int bad;         /* index of the byte named, -1: valid */
    const char *why; /* part of the message */
} utf8_cases[] = {
    { "\xc3\xa9", -1, NULL },             /* é */
    { "\xe2\x82\xac", -1, NULL },         /* € */
    { "\xf0\x9f\x98\x80", -1, NULL },     /* U+1F600 */
    { "\xef\xbf\xbf", -1, NULL },         /* U+FFFF */
    { "\xf4\x8f\xbf\xbf", -1, NULL },     /* U+10FFFF, the last */
    { "\xed\x9f\xbf", -1, NULL },         /* U+D7FF, before surrogates */
    { "\xc0\xaf", 0, "overlong" },        /* '/' in two bytes */
    { "\xc1\xbf", 0, "overlong" },
    { "\xe0\x80\xaf", 0, "overlong" },    /* '/' in three bytes */
    { "\xf0\x80\x80\xaf", 0, "overlong" },
    { "\xed\xa0\x80", 0, "surrogate" },   /* U+D800 */
    { "\xed\xbf\xbf", 0, "surrogate" },   /* U+DFFF */
    { "\xf4\x90\x80\x80", 0, "beyond U+10FFFF" },
    { "\xf5\x80\x80\x80", 0, "never appears" },
    { "\xff", 0, "never appears" },
    { "\x80", 0, "continuation byte" },
    { "\xc3", 0, "cut short" },           /* then "Z" */
    { "\xe2\x82", 0, "cut short" },
    { "a\xf0\x9f\x98", 1, "cut short" },
    { "\x01", 0, "control character 0x01" },
    { "\x1f", 0, "control character 0x1F" },
    { "\t", 0, "control character 0x09" },
};

static void test_hostile_utf8(void **state)
{
    char name[64], players[96];
    (void)state;
    for (size_t i = 0; i < N_OF(utf8_cases); i++) {
        struct doc d = { .players = players };
        snprintf(name, sizeof name, "A%sZ", utf8_cases[i].bytes);
        snprintf(players, sizeof players, "{\"name\":\"%s\"}", name);
        if (utf8_cases[i].bad < 0) {
            struct game_log log;
            parse_ok(&d, &log);
            assert_string_equal(log.names[0], name);
            game_log_release(&log);
            continue;
        }
        const char *json = build(&d);
        size_t off = (size_t)(strstr(json, name) - json) + 1 +
                     (size_t)utf8_cases[i].bad;
        char at[48];
        snprintf(at, sizeof at, "at byte offset %zu ", off);
        expect_refused(&d, ST_PARSE, at, utf8_cases[i].why);
    }
}

/* Bad bytes anywhere, not only in names; and the escapes that spell
 * what UTF-8 cannot hold. */
static const struct {
    struct doc d;
    const char *mark; /* where the offset points (first occurrence) */
    const char *why;
} escape_cases[] = {
    { { .replay = PLACE("BA/\xc0\xaf", "R0", 1, 0) }, "\xc0", "overlong" },
    { { .tail = ",\"k\xff\":1" }, "\xff", "invalid UTF-8" },
    { { .tail = " \xc3(" }, "\xc3", "invalid UTF-8 (byte 0xC3)" },
    { { .players = "{\"name\":\"A\\u0000B\"}" }, "\\u0000", "NUL" },
    { { .players = "{\"name\":\"A\\ud800\"}" }, "\\ud800", "lone UTF-16" },
    { { .players = "{\"name\":\"A\\udc00\\ud800\"}" }, "\\udc00",
      "lone UTF-16" },
    { { .players = "{\"name\":\"A\\uD800\\u0041\"}" }, "\\uD800",
      "lone UTF-16" },
};

static void test_hostile_escapes(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_OF(escape_cases); i++) {
        const char *json = build(&escape_cases[i].d);
        char at[48];
        snprintf(at, sizeof at, "at byte offset %zu ",
                 (size_t)(strstr(json, escape_cases[i].mark) - json));
        expect_refused(&escape_cases[i].d, ST_PARSE, at, escape_cases[i].why);
    }
    /* a surrogate pair is one character: the same as its UTF-8 */
    struct game_log log;
    parse_ok(&(struct doc){ .players = "{\"name\":\"\\ud83d\\ude00\\u00e9\"}" },
             &log);
    assert_string_equal(log.names[0], "\xf0\x9f\x98\x80\xc3\xa9");
    game_log_release(&log);
}

/* Markup in a name is text like any other: read and kept as written
 * (the dashboard shows it as text; tests/e2e checks that). */
static void test_hostile_markup_name(void **state)
{
    struct game_log log;
    struct report r;
    struct audit_opts o = { false };
    struct buf out = BUF_INIT;
    (void)state;
    parse_ok(&(struct doc){ .players = "{\"name\":\"<script>alert(\\\"x\\\")"
                                       "</script>\"},{\"name\":\"B\"}",
                            .replay = TURN1 },
             &log);
    assert_string_equal(log.names[0], "<script>alert(\"x\")</script>");
    audit_run(&log, &o, &r, NULL);
    mlog_report_json("t.jcz", MLOG_JCZ, &log, &r, &out);
    cJSON *j = parse_line(&out);
    const cJSON *p0 = cJSON_GetArrayItem(
        cJSON_GetObjectItemCaseSensitive(j, "players"), 0);
    assert_string_equal(
        cJSON_GetObjectItemCaseSensitive(p0, "name")->valuestring,
        "<script>alert(\"x\")</script>");
    cJSON_Delete(j);
    buf_release(&out);
    report_release(&r);
    game_log_release(&log);
}

/* Well-formed UTF-8, decoded the long way (independent of src/mlog). */
static bool utf8_ok(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        int n = *p < 0x80 ? 0 : (*p & 0xE0) == 0xC0 ? 1
                : (*p & 0xF0) == 0xE0 ? 2 : (*p & 0xF8) == 0xF0 ? 3 : -1;
        if (n < 0)
            return false;
        unsigned long cp = n == 0 ? *p : *p & (0x3F >> n);
        for (int k = 1; k <= n; k++) {
            if ((p[k] & 0xC0) != 0x80)
                return false;
            cp = cp << 6 | (p[k] & 0x3F);
        }
        static const unsigned long min[] = { 0, 0x80, 0x800, 0x10000 };
        if (cp < min[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return false;
        p += n + 1;
    }
    return true;
}

#define E20 "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9" \
            "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9" \
            "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"

/* Text that does not fit is refused (a name: cut, two players could
 * become one) or cut at a character boundary (a tile id, kept for
 * messages); a message quoting the input never ends mid-character. */
static void test_hostile_cut_text(void **state)
{
    struct game_log log;
    struct report r;
    struct audit_opts o = { false };
    (void)state;
    expect_refused(&(struct doc){ .players = "{\"name\":\"" E20 E20 E20
                                             E20 "\"}" },
                   ST_PARSE, "players[0].name: longer than 63 bytes", NULL);
    parse_ok(&(struct doc){ .players = "{\"name\":\"x" E20 "\"}" },
             &log);
    game_log_release(&log);
    parse_ok(&(struct doc){ .replay = PLACE("B" E20, "R0", 1, 0) "," PASS_MSG
                                      "," COMMIT_MSG },
             &log);
    assert_int_equal(log.moves[0].tile, -1);
    assert_true(utf8_ok(log.moves[0].tile_id));
    assert_int_equal(strlen(log.moves[0].tile_id), 23); /* "B" + 11 é */
    audit_run(&log, &o, &r, NULL);
    assert_int_equal(r.violations[0].rule, RULE_TILE_UNKNOWN);
    assert_true(utf8_ok(r.violations[0].msg));
    report_release(&r);
    game_log_release(&log);
    /* "%.40s" of "a" + é...: 40 bytes end inside the 20th é */
    struct err e;
    enum mlog_format fmt;
    const char *json = build(&(struct doc){ .sets = "\"a" E20 E20 "\":1" });
    assert_int_equal(parse_doc(json, strlen(json), &log, &fmt, &e),
                     ST_UNSUPPORTED);
    game_log_release(&log);
    assert_non_null(strstr(e.msg, "unsupported: tile set 'a\xc3\xa9"));
    if (!utf8_ok(e.msg))
        fail_msg("not UTF-8: %s", e.msg);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_setup_fields),
        cmocka_unit_test(test_setup_elements),
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
        cmocka_unit_test(test_unsupported_json),
        cmocka_unit_test(test_replay_and_live_json),
        cmocka_unit_test(test_replay_unit_counters),
        cmocka_unit_test(test_city_of_carcassonne),
        cmocka_unit_test(test_hostile_numbers),
        cmocka_unit_test(test_hostile_nan),
        cmocka_unit_test(test_hostile_many_moves),
        cmocka_unit_test(test_hostile_huge),
        cmocka_unit_test(test_hostile_nesting),
        cmocka_unit_test(test_hostile_duplicate_keys),
        cmocka_unit_test(test_hostile_utf8),
        cmocka_unit_test(test_hostile_escapes),
        cmocka_unit_test(test_hostile_markup_name),
        cmocka_unit_test(test_hostile_cut_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
