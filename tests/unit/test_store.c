/* test_store.c - the store, through store.h: on a SQLite file in a temp
 * directory, or, with FLIERD_TEST_DB set (tests/pg/test_db.h), on a new
 * database of that PostgreSQL server for each test. The same tests run
 * on both backends, but for the injected SQLite failures.
 *
 * Games come from a real audit: samples/c2-2p.jcz (Ada 21, Ben 25, four
 * flights: turn 5 Ada E roll 3 returned with no option, turn 18 Ben NW
 * roll 2 returned with no option, turn 24 Ben NW roll 1 landed, turn 26
 * Ben W roll 3 landed). Variants copy its log and report (shallow) and
 * change names, verdict, edition or flights; the store never checks that
 * sha256 matches the bytes, so a variant only needs a new digest.
 *
 * Failure injection (SQLite only): the test links with
 * -Wl,--wrap=sqlite3_step, so every sqlite3_step() of the store passes
 * through __wrap_sqlite3_step, which fails the Nth one when fail_at is
 * set.
 *
 * What the stored games read as is written as rows: a document's
 * members as (path, value) rows for expect_json(), and the list's filters
 * as (filter, total, ids) rows for expect_lists(); a failing row prints
 * its name and path.
 *
 * FLIERD_BENCH_GAMES=N (and FLIERD_BENCH_DIR, default /tmp) adds a timing
 * run over N stored games; it prints p50/p99 of the API's reads. */
#include <stdarg.h> /* cmocka 1.1.5 needs these four first */
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "mlog/mlog.h"
#include "store/store.h"
#include "test_db.h"
#include "util/sha256.h"

/* ---- sqlite3_step failure injection ------------------------------------ */

struct sqlite3_stmt;
int __real_sqlite3_step(struct sqlite3_stmt *st);
int __wrap_sqlite3_step(struct sqlite3_stmt *st);

static int fail_at; /* fail the fail_at-th step from now; 0 never */
static int fail_rc; /* with this result code */

int __wrap_sqlite3_step(struct sqlite3_stmt *st)
{
    if (fail_at > 0 && --fail_at == 0)
        return fail_rc;
    return __real_sqlite3_step(st);
}

#define RC_BUSY 5   /* SQLITE_BUSY */
#define RC_IOERR 10 /* SQLITE_IOERR */

/* ---- the sample game and fixtures -------------------------------------- */

static struct {
    struct buf raw;
    struct game_log log;
    struct report rep;
    char sha[SHA256_HEX_LEN];
} S;

struct fixture {
    char dir[64];
    char path[256]; /* a file, or a PostgreSQL URI */
    struct store *s;
};

static int load_sample(void **state)
{
    (void)state;
    char path[512], chunk[4096];
    snprintf(path, sizeof path, "%s/c2-2p.jcz", FLIERD_SAMPLES_DIR);
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        buf_append(&S.raw, chunk, n);
    fclose(f);
    struct err e;
    enum mlog_format fmt;
    game_log_init(&S.log);
    if (mlog_parse(S.raw.p, S.raw.len, &S.log, &fmt, &e) != ST_OK)
        return -1;
    audit_run(&S.log, NULL, &S.rep, NULL);
    sha256_hex(S.raw.p, S.raw.len, S.sha);
    if (!S.rep.valid || !S.rep.finished || S.rep.n_flights != 4 ||
        S.rep.score[0] != 21 || S.rep.score[1] != 25) {
        print_error("samples/c2-2p.jcz no longer audits as valid, finished, "
                    "Ada 21, Ben 25, 4 flights (see test_samples): these "
                    "tests count on it\n");
        return -1;
    }
    return 0;
}

static int free_sample(void **state)
{
    (void)state;
    report_release(&S.rep);
    game_log_release(&S.log);
    buf_release(&S.raw);
    return 0;
}

static void remove_db(struct fixture *fx)
{
    static const char *const ext[] = {"", "-wal", "-shm", "-journal"};
    char p[300];
    for (size_t i = 0; i < sizeof ext / sizeof *ext; i++) {
        snprintf(p, sizeof p, "%s%s", fx->path, ext[i]);
        unlink(p);
    }
}

static int setup(void **state)
{
    struct fixture *fx = calloc(1, sizeof *fx);
    struct err e;
    snprintf(fx->dir, sizeof fx->dir, "/tmp/test_store.XXXXXX");
    if (!mkdtemp(fx->dir))
        return -1;
    if (!test_db_fresh(fx->path, sizeof fx->path)) {
        if (test_db_pg())
            return -1;
        snprintf(fx->path, sizeof fx->path, "%s/flierd.db", fx->dir);
    }
    if (store_open(fx->path, false, &fx->s, &e) != ST_OK) {
        print_error("store_open: %s\n", e.msg);
        return -1;
    }
    *state = fx;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *fx = *state;
    fail_at = 0;
    store_close(fx->s);
    remove_db(fx);
    test_db_drop(fx->path);
    rmdir(fx->dir);
    free(fx);
    return 0;
}

/* A record of the sample (or a variant's log and report). */
static struct game_record record(const struct game_log *l,
                                 const struct report *r, const char *sha,
                                 int64_t at)
{
    return (struct game_record){
        .raw = S.raw.p,
        .raw_len = S.raw.len,
        .sha256 = sha,
        .format = "jcz",
        .source = "http",
        .name = "c2-2p.jcz",
        .uploaded_at = at,
        .engine = "flierd 0.2.0",
        .live = false,
        .log = l,
        .report = r,
        .report_json = "{\"file\":\"c2-2p.jcz\",\"valid\":true}",
    };
}

static void fake_sha(char out[SHA256_HEX_LEN], unsigned n)
{
    snprintf(out, SHA256_HEX_LEN, "%064x", n);
}

/* A shallow copy of the sample with other names and digest; n other
 * than 0 makes it another game (the start tile elsewhere), so that its
 * content is its own (variants are games, not uploads of one game). */
struct variant {
    struct game_log log;
    struct report rep;
    char sha[SHA256_HEX_LEN];
    struct violation viol[4];
};

static void variant(struct variant *v, unsigned n, const char *a, const char *b)
{
    memset(v, 0, sizeof *v);
    v->log = S.log;
    v->rep = S.rep;
    snprintf(v->log.names[0], LOG_NAME_MAX, "%s", a);
    snprintf(v->log.names[1], LOG_NAME_MAX, "%s", b);
    v->log.start_at.x += (int)n;
    fake_sha(v->sha, n);
}

static void add_violation(struct variant *v, enum rule r)
{
    struct violation *x = &v->viol[v->rep.n_violations];
    if (v->rep.violations != v->viol) {
        v->rep.violations = v->viol;
        v->rep.n_violations = 0;
        x = v->viol;
    }
    *x = (struct violation){.turn = 3, .player = 0, .rule = r, .src = 7};
    snprintf(x->msg, sizeof x->msg, "forged \"%s\"", rule_id(r));
    v->rep.n_violations++;
    v->rep.valid = false;
}

static int64_t insert_ok(struct store *s, const struct game_record *g)
{
    int64_t id = 0;
    bool dup = true;
    struct err e;
    enum status st = store_insert_game(s, g, &id, &dup, &e);
    if (st != ST_OK)
        fail_msg("insert: %s", e.msg);
    assert_false(dup);
    assert_true(id > 0);
    return id;
}

static cJSON *list(struct store *s, const struct game_filter *f)
{
    struct buf b_ = BUF_INIT;
    struct err e_;
    if (store_list_games(s, f, &b_, &e_) != ST_OK)
        fail_msg("list: %s", e_.msg);
    cJSON *j = cJSON_Parse(b_.p);
    if (!j)
        fail_msg("list: not JSON: %s", b_.p);
    buf_release(&b_);
    return j;
}

static cJSON *read_json(struct store *s, int what, int64_t id, const char *name)
{
    struct buf b = BUF_INIT;
    struct err e;
    enum status st = what == 0   ? store_game_json(s, id, &b, &e)
                     : what == 1 ? store_players_json(s, &b, &e)
                     : what == 2 ? store_player_json(s, name, &b, &e)
                                 : store_stats_json(s, &b, &e);
    if (st != ST_OK)
        fail_msg("read %d: %s", what, e.msg);
    cJSON *j = cJSON_Parse(b.p);
    if (!j)
        fail_msg("read %d: not JSON: %s", what, b.p);
    buf_release(&b);
    return j;
}

#define GAME(s, id) read_json((s), 0, (id), NULL)
#define PLAYERS(s) read_json((s), 1, 0, NULL)
#define PLAYER(s, n) read_json((s), 2, 0, (n))
#define STATS(s) read_json((s), 3, 0, NULL)

/* The member at a dotted path ("players.0.score": array items by
 * index), or NULL. */
static const cJSON *at(const cJSON *o, const char *path)
{
    char key[64];
    const char *p = path;
    while (o && *p) {
        size_t n = strcspn(p, ".");
        snprintf(key, sizeof key, "%.*s", (int)n, p);
        o = cJSON_IsArray(o) ? cJSON_GetArrayItem(o, (int)strtol(key, NULL, 10))
                             : cJSON_GetObjectItemCaseSensitive(o, key);
        p += n + (p[n] == '.');
    }
    return o;
}

static double num(const cJSON *o, const char *path)
{
    const cJSON *x = at(o, path);
    if (!x)
        fail_msg("no %s", path);
    if (!cJSON_IsNumber(x))
        fail_msg("%s is not a number", path);
    return x->valuedouble;
}

static const cJSON *item(const cJSON *o, const char *key)
{
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!x)
        fail_msg("no key %s", key);
    return x;
}

static int64_t total_of(struct store *s, const struct game_filter *f)
{
    cJSON *j = list(s, f);
    int64_t t = (int64_t)num(j, "total");
    cJSON_Delete(j);
    return t;
}

static struct game_filter any(void)
{
    return (struct game_filter){.verdict = -1, .finished = -1};
}

static char *dump(struct store *s, int what)
{
    struct buf b = BUF_INIT;
    struct err e;
    enum status st =
        what == 1 ? store_players_json(s, &b, &e) : store_stats_json(s, &b, &e);
    assert_int_equal(st, ST_OK);
    return b.p;
}

/* ---- what a document says, as rows ---------------------------------- */

/* Rows name what they check and leave the rest zero; a list row's filter
 * starts from any() and overrides what it filters by. */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Woverride-init"

/* One member of a JSON document: its path and what it must be. */
enum json_kind { J_NUM, J_NEAR, J_STR, J_TRUE, J_FALSE, J_NULL, J_SIZE };
struct json_want {
    const char *path;
    enum json_kind kind;
    double num;      /* J_NUM, J_NEAR; J_SIZE: members or items */
    double tol;      /* J_NEAR */
    const char *str; /* J_STR */
};

#define JN(p, v) { (p), J_NUM, (v), 0, NULL }
#define JX(p, v, t) { (p), J_NEAR, (v), (t), NULL }
#define JS(p, v) { (p), J_STR, 0, 0, (v) }
#define JT(p) { (p), J_TRUE, 0, 0, NULL }
#define JF(p) { (p), J_FALSE, 0, 0, NULL }
#define J0(p) { (p), J_NULL, 0, 0, NULL }
#define JC(p, n) { (p), J_SIZE, (n), 0, NULL }
#define JSON_WANT(...) (const struct json_want[]){ __VA_ARGS__ }, \
    N_OF(((const struct json_want[]){ __VA_ARGS__ }))
#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

/* Does x hold what w says? */
static bool json_is(const cJSON *x, const struct json_want *w)
{
    switch (w->kind) {
    case J_NUM:
        return cJSON_IsNumber(x) && x->valuedouble == w->num;
    case J_NEAR:
        return cJSON_IsNumber(x) && fabs(x->valuedouble - w->num) < w->tol;
    case J_STR:
        return cJSON_IsString(x) && strcmp(x->valuestring, w->str) == 0;
    case J_TRUE:
        return cJSON_IsTrue(x);
    case J_FALSE:
        return cJSON_IsFalse(x);
    case J_NULL:
        return cJSON_IsNull(x);
    case J_SIZE:
        return cJSON_GetArraySize(x) == (int)w->num;
    }
    return false;
}

/* Each row of wants[0..n) holds in j; a failure names what and the
 * path, and prints what is there. */
static void expect_json(const char *what, const cJSON *j,
                        const struct json_want *wants, size_t n)
{
    static const char *const kinds[] = { "", "about", "", "true", "false",
                                         "null", "of size" };
    for (size_t i = 0; i < n; i++) {
        const struct json_want *w = &wants[i];
        const cJSON *x = at(j, w->path);
        if (!x)
            fail_msg("%s: no %s", what, w->path);
        if (json_is(x, w))
            continue;
        char *got = cJSON_PrintUnformatted(x);
        if (w->kind == J_STR)
            fail_msg("%s: %s is %.200s, expected \"%s\"", what, w->path, got,
                     w->str);
        if (w->kind == J_NUM || w->kind == J_NEAR || w->kind == J_SIZE)
            fail_msg("%s: %s is %.200s, expected %s %g", what, w->path, got,
                     kinds[w->kind], w->num);
        fail_msg("%s: %s is %.200s, expected %s", what, w->path, got,
                 kinds[w->kind]);
    }
}

/* A filter and the page of game ids it lists. */
struct list_case {
    const char *name;
    struct game_filter f;
    bool no_filter;     /* store_list_games() with NULL */
    int64_t total;
    int n;
    int ids[5];
};

#define ANY_F(...) { .verdict = -1, .finished = -1, __VA_ARGS__ }

/* Each row of rows[0..n): the list's total and its page of ids. */
static void expect_lists(struct store *s, const struct list_case *rows,
                         size_t n)
{
    for (size_t r = 0; r < n; r++) {
        const struct list_case *c = &rows[r];
        cJSON *j = list(s, c->no_filter ? NULL : &c->f);
        const cJSON *games = item(j, "games");
        int got = cJSON_GetArraySize(games);
        bool ok = num(j, "total") == c->total && got == c->n;
        for (int i = 0; ok && i < c->n; i++)
            ok = num(cJSON_GetArrayItem(games, i), "id") == c->ids[i];
        if (!ok) {
            char *text = cJSON_PrintUnformatted(j);
            fail_msg("%s: expected %lld games, %d of them listed:\n%.600s",
                     c->name, (long long)c->total, c->n, text);
        }
        cJSON_Delete(j);
    }
}

/* ---- opening and migrating ------------------------------------------- */

static uint32_t file_user_version(const char *path)
{
    unsigned char h[64] = {0};
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    assert_int_equal(fread(h, 1, sizeof h, f), sizeof h);
    fclose(f);
    return (uint32_t)h[60] << 24 | (uint32_t)h[61] << 16 |
           (uint32_t)h[62] << 8 | h[63];
}

static void test_open_migrates_and_reopens(void **state)
{
    struct fixture *fx = *state;
    struct err e;
    struct game_record g = record(&S.log, &S.rep, S.sha, 1000);
    int64_t id = insert_ok(fx->s, &g);
    store_close(fx->s);
    fx->s = NULL;
    if (!test_db_pg()) /* PostgreSQL's is a table: the open must work */
        assert_int_equal(file_user_version(fx->path), 11);
    assert_int_equal(store_open(fx->path, false, &fx->s, &e), ST_OK);
    struct game_filter f = any();
    assert_int_equal(total_of(fx->s, &f), 1);
    cJSON *j = GAME(fx->s, id);
    assert_string_equal(item(j, "sha256")->valuestring, S.sha);
    cJSON_Delete(j);
}

static void test_read_only_refuses_writes(void **state)
{
    struct fixture *fx = *state;
    struct err e;
    struct store *ro = NULL;
    struct game_record g = record(&S.log, &S.rep, S.sha, 1000);
    int64_t id = insert_ok(fx->s, &g), got = 7;
    bool dup = true;
    assert_int_equal(store_open(fx->path, true, &ro, &e), ST_OK);
    struct game_filter f = any();
    assert_int_equal(total_of(ro, &f), 1);
    struct variant v;
    variant(&v, 1, "Ann", "Bob");
    g = record(&v.log, &v.rep, v.sha, 2000);
    assert_int_equal(store_insert_game(ro, &g, &got, &dup, &e), ST_DB);
    assert_non_null(strstr(e.msg, "read-only"));
    assert_int_equal(got, 0);
    assert_false(dup);
    assert_int_equal(store_replace_game(ro, id, &g, &e), ST_DB);
    assert_non_null(strstr(e.msg, "read-only"));
    assert_int_equal(total_of(fx->s, &f), 1);
    store_close(ro);

    char missing[256];
    test_db_missing(fx->dir, missing, sizeof missing);
    assert_int_equal(store_open(missing, true, &ro, &e), ST_DB);
    assert_null(ro);
}

/* ---- insert ----------------------------------------------------------- */

static void test_duplicate_is_recognised(void **state)
{
    struct fixture *fx = *state;
    struct err e;
    struct game_record g = record(&S.log, &S.rep, S.sha, 1000);
    int64_t id = insert_ok(fx->s, &g), again = 0;
    bool dup = false;
    char *before = dump(fx->s, 3);
    g.uploaded_at = 2000;
    g.source = "spool";
    assert_int_equal(store_insert_game(fx->s, &g, &again, &dup, &e), ST_OK);
    assert_int_equal(again, id);
    assert_true(dup);
    char *after = dump(fx->s, 3);
    assert_string_equal(before, after);
    free(before);
    free(after);
    struct game_filter f = any();
    assert_int_equal(total_of(fx->s, &f), 1);
    cJSON *j = GAME(fx->s, id);
    assert_int_equal(num(j, "uploaded_at"), 1000);
    assert_string_equal(item(j, "source")->valuestring, "http");
    cJSON_Delete(j);
}

static void expect_whole(struct store *s);

/* One game uploaded as .jcz and as its flierlog (other bytes, the same
 * content): both stored and listed, linked, and the statistics of play
 * count it once; a re-audit (a replace with the same content) keeps the
 * link, and the counted game going hands its place to the duplicate. */
static void test_same_content_counts_once(void **state)
{
    struct fixture *fx = *state;
    struct err e;
    struct game_record g = record(&S.log, &S.rep, S.sha, 1000);
    int64_t first = insert_ok(fx->s, &g);
    char other[SHA256_HEX_LEN];
    fake_sha(other, 77);
    struct game_record h = record(&S.log, &S.rep, other, 2000);
    h.format = "flierlog";
    h.name = "c2-2p.flierlog";
    int64_t second = insert_ok(fx->s, &h);
    struct game_filter f = any();
    assert_int_equal(total_of(fx->s, &f), 2);
    cJSON *j = GAME(fx->s, second);
    assert_int_equal(num(j, "duplicate_of"), first);
    assert_string_equal(item(j, "content_sha256")->valuestring,
                        item(j, "content_sha256")->valuestring);
    cJSON_Delete(j);
    j = GAME(fx->s, first);
    assert_true(cJSON_IsNull(item(j, "duplicate_of")));
    assert_int_equal(cJSON_GetArraySize(item(j, "duplicates")), 1);
    assert_int_equal(num(j, "duplicates.0"), second);
    cJSON_Delete(j);
    j = STATS(fx->s);
    assert_int_equal(num(j, "games.total"), 2); /* uploads */
    assert_int_equal(num(j, "flier.flights"), 4); /* play: once */
    cJSON_Delete(j);
    j = PLAYER(fx->s, S.log.names[0]);
    assert_int_equal(num(j, "games"), 1);
    cJSON_Delete(j);
    /* a re-audit writes both again: the same links */
    assert_int_equal(store_replace_game(fx->s, first, &g, &e), ST_OK);
    assert_int_equal(store_replace_game(fx->s, second, &h, &e), ST_OK);
    j = GAME(fx->s, second);
    assert_int_equal(num(j, "duplicate_of"), first);
    cJSON_Delete(j);
    j = PLAYER(fx->s, S.log.names[0]);
    assert_int_equal(num(j, "games"), 1);
    cJSON_Delete(j);
    expect_whole(fx->s);
    /* the counted game's content changes: the duplicate counts now */
    struct variant v;
    variant(&v, 5, S.log.names[0], S.log.names[1]);
    g.log = &v.log;
    assert_int_equal(store_replace_game(fx->s, first, &g, &e), ST_OK);
    j = GAME(fx->s, second);
    assert_true(cJSON_IsNull(item(j, "duplicate_of")));
    cJSON_Delete(j);
    j = PLAYER(fx->s, S.log.names[0]);
    assert_int_equal(num(j, "games"), 2);
    cJSON_Delete(j);
    j = STATS(fx->s);
    assert_int_equal(num(j, "flier.flights"), 8);
    cJSON_Delete(j);
    expect_whole(fx->s);
}

/* Two live tables may start with the same bytes; an upload of bytes a
 * live game holds is a game of its own. */
static void test_live_games_never_dedupe(void **state)
{
    struct fixture *fx = *state;
    struct err e;
    struct game_record g = record(&S.log, &S.rep, S.sha, 1000);
    g.live = true;
    g.source = "live";
    int64_t a = insert_ok(fx->s, &g), b = insert_ok(fx->s, &g);
    assert_true(b != a);
    g.live = false; /* finished: still source "live" */
    assert_int_equal(store_replace_game(fx->s, a, &g, &e), ST_OK);
    g.source = "http";
    int64_t c = insert_ok(fx->s, &g), again = 0;
    bool dup = false;
    assert_int_equal(store_insert_game(fx->s, &g, &again, &dup, &e), ST_OK);
    assert_true(dup);
    assert_int_equal(again, c);
    /* an upload may not take the bytes of another upload by a replace */
    struct variant v;
    variant(&v, 51, "Ann", "Bob");
    struct game_record h = record(&v.log, &v.rep, v.sha, 1);
    int64_t d = insert_ok(fx->s, &h);
    assert_int_equal(store_replace_game(fx->s, d, &g, &e), ST_DB);
    assert_non_null(strstr(e.msg, "same bytes"));
    /* a replace without a name keeps the stored one */
    h.name = NULL;
    assert_int_equal(store_replace_game(fx->s, d, &h, &e), ST_OK);
    cJSON *j = GAME(fx->s, d);
    assert_string_equal(item(j, "name")->valuestring, "c2-2p.jcz");
    cJSON_Delete(j);
    struct game_filter f = any();
    assert_int_equal(total_of(fx->s, &f), 4);
}

static void test_game_and_raw(void **state)
{
    struct fixture *fx = *state;
    struct err e;
    struct game_record g = record(&S.log, &S.rep, S.sha, 1234);
    int64_t id = insert_ok(fx->s, &g);
    cJSON *j = GAME(fx->s, id);
    expect_json("the sample", j, JSON_WANT(
        JN("id", (double)id), JS("name", "c2-2p.jcz"), JS("format", "jcz"),
        JS("edition", "C2"), JS("engine", "flierd 0.2.0"), JT("valid"),
        JT("finished"), JF("live"), JN("flights", 4), JN("violations", 0),
        JN("turns", S.rep.turns), JN("size", (double)S.raw.len),
        JN("sets.basic:1", 1), JN("sets.flier:1", 1),
        JN("rules.followers", 7), JS("players.0.name", "Ada"),
        JN("players.0.score", 21), JN("players.0.rank", 2),
        JN("players.1.score", 25), JN("players.1.rank", 1),
        J0("players.0.claimed"), JC("winners", 1), JS("winners.0", "Ben"),
        JT("audit.valid")));
    cJSON_Delete(j);

    struct buf b = BUF_INIT;
    const char *fmt = NULL;
    char sha[65], stored_sha[65], want[SHA256_HEX_LEN];
    assert_int_equal(store_game_raw(fx->s, id, &b, &fmt, sha, &e), ST_OK);
    assert_string_equal(fmt, "jcz");
    assert_int_equal(b.len, S.raw.len);
    assert_memory_equal(b.p, S.raw.p, S.raw.len);
    /* the digest read with the upload is the upload's, as game_sha says */
    sha256_hex(S.raw.p, S.raw.len, want);
    assert_string_equal(sha, want);
    assert_int_equal(store_game_sha(fx->s, id, stored_sha, &e), ST_OK);
    assert_string_equal(stored_sha, want);
    bool live = true;
    assert_int_equal(store_game_is_live(fx->s, id, &live, &e), ST_OK);
    assert_false(live);
    assert_int_equal(store_game_is_live(fx->s, 999, &live, &e), ST_NOT_FOUND);
    assert_int_equal(store_game_json(fx->s, 999, &b, &e), ST_NOT_FOUND);
    assert_int_equal(store_game_raw(fx->s, 999, &b, &fmt, NULL, &e),
                     ST_NOT_FOUND);
    buf_release(&b);
}

static void expect_whole(struct store *s);

/* A record packed ahead (store_pack, as the ingest workers do) is stored
 * as one the write packs itself: the same upload and audit come back,
 * byte for byte, on either backend (PostgreSQL packs nothing). */
static void test_packed_ahead(void **state)
{
    struct fixture *fx = *state;
    struct err e;
    char sha[2][SHA256_HEX_LEN];
    struct store_packed pk = { BUF_INIT, BUF_INIT, false, "" };
    struct buf got[2] = { BUF_INIT, BUF_INIT }, raw = BUF_INIT;
    int64_t id[2];
    for (int i = 0; i < 2; i++) {
        fake_sha(sha[i], 700 + (unsigned)i);
        struct game_record g = record(&S.log, &S.rep, sha[i], 1000 + i);
        if (i == 1) {
            store_pack(fx->s, &g, &pk);
            g.packed = &pk;
        }
        id[i] = insert_ok(fx->s, &g);
        const char *fmt = NULL;
        raw.len = 0;
        assert_int_equal(
            store_game_raw(fx->s, id[i], &raw, &fmt, NULL, &e), ST_OK);
        assert_int_equal(raw.len, S.raw.len);
        assert_memory_equal(raw.p, S.raw.p, S.raw.len);
        assert_int_equal(store_game_json(fx->s, id[i], &got[i], &e), ST_OK);
        assert_non_null(strstr(got[i].p, ",\"audit\":{\"file\":\"c2-2p.jcz\","
                                         "\"valid\":true}}"));
    }
    /* packed where the backend keeps frames: smaller than the upload */
    assert_true(!pk.done || (pk.raw.len > 0 && pk.raw.len < S.raw.len / 2));
    store_packed_release(&pk);
    buf_release(&got[0]);
    buf_release(&got[1]);
    buf_release(&raw);
    expect_whole(fx->s);
}

/* ---- list --------------------------------------------------------------- */

#define QUOTED_NAME "Zo\xc3\xab \"Q\" \\"

/* Five games: 1 the sample (Ada, Ben) at 1000; 2 Cid/Ada, one
 * TILE_EDGE_MISMATCH, file forged.jcz, at 2000; 3 Dee/Eve, C3, not
 * finished, at 3000; 4 Ada/Eve with FLIER_BAD_ROLL and
 * TILE_EDGE_MISMATCH at 4000; 5 QUOTED_NAME/Ben at 5000. */
static void insert_five(struct store *s, struct variant v[5])
{
    variant(&v[0], 0, "Ada", "Ben");
    memcpy(v[0].sha, S.sha, sizeof v[0].sha);
    variant(&v[1], 2, "Cid", "Ada");
    add_violation(&v[1], RULE_TILE_EDGE_MISMATCH);
    variant(&v[2], 3, "Dee", "Eve");
    v[2].log.rules.set_copies[tile_set_find("basic:2")] = 1;
    v[2].rep.finished = false;
    variant(&v[3], 4, "Ada", "Eve");
    add_violation(&v[3], RULE_FLIER_BAD_ROLL);
    add_violation(&v[3], RULE_TILE_EDGE_MISMATCH);
    variant(&v[4], 5, QUOTED_NAME, "Ben");
    for (int i = 0; i < 5; i++) {
        struct game_record g =
            record(&v[i].log, &v[i].rep, v[i].sha, 1000 * (i + 1));
        if (i == 1)
            g.name = "forged.jcz";
        assert_int_equal(insert_ok(s, &g), i + 1);
    }
}

static void expect_ids(struct store *s, const struct game_filter *f,
                       int64_t total, const int *ids, int n)
{
    cJSON *j = list(s, f);
    assert_int_equal(num(j, "total"), total);
    const cJSON *games = item(j, "games");
    assert_int_equal(cJSON_GetArraySize(games), n);
    for (int i = 0; i < n; i++)
        assert_int_equal(num(cJSON_GetArrayItem(games, i), "id"), ids[i]);
    cJSON_Delete(j);
}

/* insert_five()'s games by each filter, newest first. */
static const struct list_case filter_cases[] = {
    { "all", ANY_F(), false, 5, 5, { 5, 4, 3, 2, 1 } },
    { "no filter", { 0 }, true, 5, 5, { 5, 4, 3, 2, 1 } },
    { "Ada's", ANY_F(.player = "Ada"), false, 3, 3, { 4, 2, 1 } },
    { "a quoted name's", ANY_F(.player = QUOTED_NAME), false, 1, 1, { 5 } },
    { "invalid", ANY_F(.verdict = 0), false, 2, 2, { 4, 2 } },
    { "valid", ANY_F(.verdict = 1), false, 3, 3, { 5, 3, 1 } },
    { "unfinished", ANY_F(.finished = 0), false, 1, 1, { 3 } },
    { "finished C2", ANY_F(.finished = 1, .edition = "C2"), false, 4, 4,
      { 5, 4, 2, 1 } },
    { "C3", ANY_F(.edition = "C3"), false, 1, 1, { 3 } },
    { "from 2000 to 4000", ANY_F(.from = 2000, .to = 4000), false, 3, 3,
      { 4, 3, 2 } },
    { "a rule broken twice", ANY_F(.rule = "TILE_EDGE_MISMATCH"), false, 2,
      2, { 4, 2 } },
    { "a rule broken once", ANY_F(.rule = "FLIER_BAD_ROLL"), false, 1, 1,
      { 4 } },
    { "a rule never broken", ANY_F(.rule = "TURN_ORDER"), false, 0, 0,
      { 0 } },
    { "a file name, any case", ANY_F(.q = "FORGED"), false, 1, 1, { 2 } },
    { "a player's name, any case", ANY_F(.q = "eve"), false, 2, 2, { 4, 3 } },
    { "quotes and a backslash", ANY_F(.q = "\"q\" \\"), false, 1, 1,
      { 5 } },
    { "a LIKE wildcard, literally", ANY_F(.q = "%"), false, 0, 0, { 0 } },
    { "Ada's invalid", ANY_F(.player = "Ada", .verdict = 0), false, 2, 2,
      { 4, 2 } },
};

static void test_list_filters(void **state)
{
    struct fixture *fx = *state;
    struct variant v[5];
    insert_five(fx->s, v);
    expect_lists(fx->s, filter_cases, N_OF(filter_cases));
}

/* insert_five()'s games sorted and paged. */
static const struct list_case page_cases[] = {
    { "oldest first", ANY_F(.ascending = true), false, 5, 5,
      { 1, 2, 3, 4, 5 } },
    { "most violations first", ANY_F(.sort = "violations"), false, 5, 5,
      { 4, 2, 5, 3, 1 } },
    { "by date, page 2 of 2", ANY_F(.sort = "date", .limit = 2, .offset = 1),
      false, 5, 2, { 4, 3 } },
    { "by date, the last", ANY_F(.sort = "date", .limit = 2, .offset = 4),
      false, 5, 1, { 1 } },
    { "by date, past the end",
      ANY_F(.sort = "date", .limit = 2, .offset = 10), false, 5, 0, { 0 } },
    { "valid, the second",
      ANY_F(.verdict = 1, .limit = 1, .offset = 1), false, 3, 1, { 3 } },
    /* dense sets (total^2 > (offset + limit) * games) are probed while
     * walking the sort index; sparse ones are fetched whole */
    { "Ada's second: 3^2 < 2 * 5, IN",
      ANY_F(.player = "Ada", .limit = 1, .offset = 1), false, 3, 1, { 2 } },
    { "Ada's oldest: 3^2 > 1 * 5, a probe",
      ANY_F(.player = "Ada", .limit = 1, .ascending = true), false, 3, 1,
      { 1 } },
    { "Ada's most flights",
      ANY_F(.player = "Ada", .limit = 1, .sort = "flights"), false, 3, 1,
      { 4 } },
    { "Ada's of a rule",
      ANY_F(.player = "Ada", .limit = 1, .rule = "TILE_EDGE_MISMATCH"),
      false, 2, 1, { 4 } },
    { "Ada's invalid of a rule, by turns",
      ANY_F(.player = "Ada", .limit = 1, .rule = "TILE_EDGE_MISMATCH",
            .verdict = 0, .sort = "turns"),
      false, 2, 1, { 4 } },
    { "a search, two a page", ANY_F(.q = "ben", .limit = 2), false, 2, 2,
      { 5, 1 } },
};

static void test_list_sort_and_paging(void **state)
{
    struct fixture *fx = *state;
    struct variant v[5];
    struct err e;
    struct buf b = BUF_INIT;
    insert_five(fx->s, v);
    expect_lists(fx->s, page_cases, N_OF(page_cases));
    struct game_filter f = any();
    f.sort = "best";
    f.limit = 5000;
    cJSON *j = list(fx->s, &f);
    expect_json("best first, too many a page", j, JSON_WANT(
        JN("limit", 1000), JN("games.0.players.1.score", 25)));
    cJSON_Delete(j);
    f.limit = 0;
    j = list(fx->s, &f);
    expect_json("best first, no limit", j, JSON_WANT(JN("limit", 50),
                                                     JN("offset", 0)));
    cJSON_Delete(j);
    static const char *const sorts[] = {"players", "turns", "flights"};
    for (size_t i = 0; i < 3; i++) {
        f.sort = sorts[i];
        assert_int_equal(total_of(fx->s, &f), 5);
    }
    f.sort = "nonsense";
    assert_int_equal(store_list_games(fx->s, &f, &b, &e), ST_PARSE);
    buf_release(&b);
    /* more shapes of list than a connection keeps prepared, twice: the
     * same pages, slices of the whole list, whichever was let go */
    for (int pass = 0; pass < 2; pass++)
        for (int k = 0; k < 48; k++) {
            f = any();
            f.sort = (const char *[]){"date", "players", "violations"}[k % 3];
            f.ascending = k % 2;
            f.limit = 1000;
            cJSON *all = list(fx->s, &f);
            f.limit = 1 + k % 5 + k / 12;
            f.offset = k % 4 == 3 ? 2 : 0;
            j = list(fx->s, &f);
            const cJSON *page = item(j, "games"), *whole = item(all, "games");
            int n = cJSON_GetArraySize(page);
            assert_int_equal(n, f.offset + f.limit <= 5 ? f.limit
                                                        : 5 - f.offset);
            for (int i = 0; i < n; i++)
                assert_int_equal(
                    num(cJSON_GetArrayItem(page, i), "id"),
                    num(cJSON_GetArrayItem(whole, f.offset + i), "id"));
            cJSON_Delete(j);
            cJSON_Delete(all);
        }
    f = any();
    expect_ids(fx->s, &f, 5, (int[]){5, 4, 3, 2, 1}, 5);
}

static void test_list_entry(void **state)
{
    struct fixture *fx = *state;
    struct variant v[5];
    insert_five(fx->s, v);
    struct game_filter f = any();
    f.player = QUOTED_NAME;
    cJSON *j = list(fx->s, &f);
    expect_json("a quoted name's entry", j, JSON_WANT(
        JS("games.0.players.0.name", QUOTED_NAME),
        JS("games.0.source", "http"), JN("games.0.uploaded_at", 5000)));
    cJSON_Delete(j);
    f = any();
    f.finished = 0;
    j = list(fx->s, &f);
    expect_json("an unfinished entry", j, JSON_WANT(
        JS("games.0.edition", "C3"), JF("games.0.finished"),
        JC("games.0.winners", 0)));
    cJSON_Delete(j);
}

/* ---- players and statistics ------------------------------------------ */

/* What the report says seat p scored by feature (pts; scored: the kinds
 * of the events that listed p, even for 0 points) and with fliers. */
static void expected_points(int p, int pts[FEAT__COUNT],
                            bool scored[FEAT__COUNT], int *flier)
{
    memset(pts, 0, FEAT__COUNT * sizeof *pts);
    memset(scored, 0, FEAT__COUNT * sizeof *scored);
    *flier = 0;
    for (size_t i = 0; i < S.rep.n_events; i++) {
        const struct score_event *ev = &S.rep.events[i];
        if (!(ev->players & (1u << p)))
            continue;
        pts[ev->feature] += ev->points;
        scored[ev->feature] = true;
        if (ev->fliers & (1u << p))
            *flier += ev->points;
    }
}

/* A player's "points" object holds exactly the kinds scored, with their
 * sums (times copies: the same game stored that many times); returns the
 * sum of its values. */
static int check_points(const cJSON *player, const int pts[FEAT__COUNT],
                        const bool scored[FEAT__COUNT], int copies)
{
    const cJSON *x;
    int total = 0, keys = 0, want_keys = 0;
    cJSON_ArrayForEach(x, item(player, "points"))
    {
        int f = feat_find(x->string);
        if (f <= 0 || !scored[f])
            fail_msg("points.%s: no such feature scored", x->string);
        assert_int_equal(x->valueint, copies * pts[f]);
        total += x->valueint;
        keys++;
    }
    for (int f = 0; f < FEAT__COUNT; f++)
        want_keys += scored[f];
    assert_int_equal(keys, want_keys);
    return total;
}

static void test_players(void **state)
{
    struct fixture *fx = *state;
    struct variant v[5];
    insert_five(fx->s, v);
    cJSON *j = PLAYERS(fx->s);
    expect_json("the players", j, JSON_WANT(
        JC("players", 6), /* Ada Ben Cid Dee Eve Zoë */
        JS("players.0.name", "Ada"), JN("players.0.games", 3),
        JN("players.0.wins", 1), /* game 2 as Ben's seat */
        JN("players.0.best", 25),
        JX("players.0.average", (21 + 25 + 21) / 3.0, 1e-9)));
    cJSON_Delete(j);

    struct buf b = BUF_INIT;
    struct err e;
    assert_int_equal(store_player_json(fx->s, "Nobody", &b, &e), ST_NOT_FOUND);
    buf_release(&b);
    j = PLAYER(fx->s, QUOTED_NAME);
    expect_json("a quoted name", j, JSON_WANT(JS("name", QUOTED_NAME),
                                              JN("games", 1)));
    cJSON_Delete(j);
}

static void test_player_numbers(void **state)
{
    struct fixture *fx = *state;
    struct game_record g = record(&S.log, &S.rep, S.sha, 1000);
    int64_t id = insert_ok(fx->s, &g);
    cJSON *j = PLAYER(fx->s, "Ben");
    int pts[FEAT__COUNT], flier;
    bool scored[FEAT__COUNT];
    expected_points(1, pts, scored, &flier);
    assert_true(scored[FEAT_ROAD] && scored[FEAT_CITY]);
    expect_json("Ben", j, JSON_WANT(
        JN("games", 1), JN("wins", 1), JN("average", 25), JN("best", 25),
        JN("points.road", pts[FEAT_ROAD]), JN("points.city", pts[FEAT_CITY]),
        JN("flier_points", flier),
        /* all of Ben's flights were a follower's */
        JC("by_figure", 1), JN("by_figure.small.flights", 3),
        JN("by_figure.small.landed", 2), JN("by_figure.small.returned", 1),
        JN("by_figure.small.forced_returns", 1),
        JX("by_figure.small.landing_rate", 2 / 3.0, 1e-9),
        JN("flights", 3), JN("landed", 2), JN("returned", 1),
        JN("forced_returns", 1), JX("landing_rate", 2 / 3.0, 1e-9),
        /* Ben rolled 2, 1, 3 */
        JN("die.rolls.0", 1), JN("die.rolls.1", 1), JN("die.rolls.2", 1),
        JX("die.chi_square", 0, 1e-9), JX("die.p_value", 1, 1e-9),
        JN("recent.0.id", (double)id), JN("recent.0.seat", 1),
        JT("recent.0.winner")));
    assert_int_equal(check_points(j, pts, scored, 1), 25);
    cJSON_Delete(j);
    j = PLAYER(fx->s, "Ada");
    expected_points(0, pts, scored, &flier);
    assert_int_equal(check_points(j, pts, scored, 1), 21);
    expect_json("Ada", j, JSON_WANT(
        JN("wins", 0), JN("recent.0.rank", 2),
        /* one 3: x = ((1/3)^2 + (1/3)^2 + (2/3)^2) / (1/3) = 2 */
        JX("die.chi_square", 2, 1e-9), JX("die.p_value", exp(-1), 1e-9)));
    cJSON_Delete(j);
}

static void test_stats_sample(void **state)
{
    struct fixture *fx = *state;
    struct game_record g = record(&S.log, &S.rep, S.sha, 1000);
    insert_ok(fx->s, &g);
    struct variant v;
    variant(&v, 9, "Cid", "Dee");
    add_violation(&v, RULE_TILE_EDGE_MISMATCH);
    add_violation(&v, RULE_TILE_EDGE_MISMATCH);
    add_violation(&v, RULE_TURN_ORDER);
    v.rep.finished = false;
    g = record(&v.log, &v.rep, v.sha, 2000);
    insert_ok(fx->s, &g);
    cJSON *j = STATS(fx->s);
    expect_json("the statistics", j, JSON_WANT(
        JN("games.total", 2), JN("games.valid", 1), JN("games.invalid", 1),
        JN("games.finished", 1), JN("games.unsupported", 0),
        JN("games.by_edition.C2", 2), JN("games.by_expansion.base", 2),
        JN("games.by_expansion.flier", 2), JC("games.by_expansion", 2),
        JN("flier.by_figure.small.flights", 8),
        JN("flier.by_figure.small.landed", 4),
        JN("flier.by_figure.small.pending", 0), JC("flier.by_figure", 1),
        JN("violations.total", 3),
        JN("violations.by_rule.TILE_EDGE_MISMATCH", 2),
        JN("violations.by_rule.TURN_ORDER", 1),
        /* only the finished game's 21 and 25 */
        JN("scores.count", 2), JN("scores.histogram.0.from", 20),
        JN("scores.histogram.0.count", 2),
        /* two copies of the sample's flights */
        JN("flier.flights", 8), JN("flier.landed", 4),
        JN("flier.returned", 4), JN("flier.forced_returns", 4),
        JX("flier.landing_rate", 0.5, 1e-9), JN("flier.by_roll.0.roll", 1),
        JN("flier.by_roll.0.flights", 2), JN("flier.by_roll.0.landed", 2),
        JN("flier.by_roll.1.flights", 2), JN("flier.by_roll.1.landed", 0),
        JN("flier.by_roll.1.forced_returns", 2),
        JN("flier.by_roll.2.flights", 4),
        JX("flier.by_roll.2.landing_rate", 0.5, 1e-9),
        JN("flier.by_direction.orthogonal.flights", 4),
        JN("flier.by_direction.orthogonal.landed", 2),
        JN("flier.by_direction.diagonal.flights", 4),
        JN("flier.by_direction.diagonal.landed", 2),
        /* rolls 1, 2, 3, 3 twice: [2, 2, 4], e = 8/3, x = 1 */
        JN("die.rolls.2", 4), JN("die.n", 8), JX("die.chi_square", 1, 1e-9),
        JX("die.p_value", exp(-0.5), 1e-9),
        JC("die_by_player", 4), /* Ada Ben Cid Dee */
        JS("die_by_player.0.name", "Ada"),
        JX("die_by_player.0.chi_square", 2, 1e-9)));
    cJSON_Delete(j);
}

/* A die that rolled ten 1s and five 2s: x = (25 + 0 + 25) / 5 = 10. */
static void test_stats_known_rolls(void **state)
{
    struct fixture *fx = *state;
    struct flight fl[16];
    struct variant v;
    memset(fl, 0, sizeof fl);
    for (int i = 0; i < 15; i++) {
        fl[i].turn = i + 1;
        fl[i].player = i % 2;
        fl[i].dir = i % 3 == 0 ? DIR_NE : DIR_S;
        fl[i].roll = i < 10 ? 1 : 2;
        fl[i].landed = i < 10 && i % 2 == 0;
        fl[i].n_options = i < 10 ? 1 : 0;
    }
    fl[15] = fl[0];
    fl[15].roll = 7; /* a bad roll is not a die roll */
    fl[15].bad_roll = true;
    fl[15].landed = false;
    variant(&v, 11, "Ann", "Bob");
    v.rep.flights = fl;
    v.rep.n_flights = 16;
    struct game_record g = record(&v.log, &v.rep, v.sha, 1000);
    insert_ok(fx->s, &g);
    cJSON *j = STATS(fx->s);
    expect_json("known rolls", j, JSON_WANT(
        JN("die.rolls.0", 10), JN("die.rolls.1", 5), JN("die.rolls.2", 0),
        JN("die.n", 15), JX("die.chi_square", 10, 1e-9),
        JX("die.p_value", exp(-5), 1e-12), JN("flier.flights", 16),
        JN("flier.landed", 5), JN("flier.forced_returns", 5),
        J0("flier.by_roll.2.landing_rate"),
        /* Ann flew i = 0, 2, ..., 14: rolls 1 x5, 2 x3 */
        JS("die_by_player.0.name", "Ann"), JN("die_by_player.0.rolls.0", 5),
        JN("die_by_player.0.rolls.1", 3)));
    cJSON_Delete(j);
}

/* The luck on flights whose odds are known (k: the rolls of three that
 * offered a landing; chance k/3, variance k(3 - k)/9):
 *   i  seat dir roll k outcome  points
 *   0  Ann  S   1    3 landed   5
 *   1  Ann  S   2    1 returned 0
 *   2  Bob  S   3    1 landed   3
 *   3  Ann  NE  1    2 returned 0
 *   4  Bob  NE  2    2 landed   0
 *   5  Ann  NE  3    3 pending  0   no outcome: out of the luck
 *   6  Bob  S   7    3 returned 0   no die's roll: out of the luck
 * orthogonal: landed 2, expected 5/3, ninths 0 + 2 + 2 = 4: spread 2/3;
 * diagonal: landed 1, expected 4/3, spread 2/3; all: landed 3,
 * expected 3, luck 0, spread sqrt(8/9). By roll, the chance before it:
 * 1: (3 + 2)/3, 2: (1 + 2)/3, 3: 1/3. Ann: 3 flights, landed 1,
 * expected 2, luck -1, spread 2/3; Bob: 2, landed 2, expected 1. */
static void test_luck_known_odds(void **state)
{
    struct fixture *fx = *state;
    static const struct {
        int seat, dir, roll, k, landed, pending, points;
    } t[] = {
        { 0, DIR_S, 1, 3, 1, 0, 5 },  { 0, DIR_S, 2, 1, 0, 0, 0 },
        { 1, DIR_S, 3, 1, 1, 0, 3 },  { 0, DIR_NE, 1, 2, 0, 0, 0 },
        { 1, DIR_NE, 2, 2, 1, 0, 0 }, { 0, DIR_NE, 3, 3, 0, 1, 0 },
        { 1, DIR_S, 7, 3, 0, 0, 0 },
    };
    struct flight fl[7];
    struct variant v;
    memset(fl, 0, sizeof fl);
    for (int i = 0; i < 7; i++) {
        fl[i].turn = i + 1;
        fl[i].player = t[i].seat;
        fl[i].dir = t[i].dir;
        fl[i].roll = t[i].roll;
        fl[i].bad_roll = t[i].roll > 3;
        fl[i].landed = t[i].landed;
        fl[i].pending = t[i].pending;
        fl[i].points = t[i].points;
        fl[i].n_options = t[i].landed || t[i].pending;
        for (int r = 0; r < t[i].k; r++) /* which rolls does not matter */
            fl[i].n_by_roll[r] = 1;
    }
    variant(&v, 12, "Ann", "Bob");
    v.rep.flights = fl;
    v.rep.n_flights = 7;
    struct game_record g = record(&v.log, &v.rep, v.sha, 1000);
    insert_ok(fx->s, &g);
    cJSON *j = STATS(fx->s);
    expect_json("luck by direction", j, JSON_WANT(
        JN("flier.landed", 3), JX("flier.expected", 3, 1e-9),
        JX("flier.luck", 0, 1e-9), JX("flier.spread", 0.94, 1e-9),
        JN("flier.points", 8),
        JN("flier.by_direction.orthogonal.landed", 2),
        JX("flier.by_direction.orthogonal.expected", 1.67, 1e-9),
        JX("flier.by_direction.orthogonal.luck", 0.33, 1e-9),
        JX("flier.by_direction.orthogonal.spread", 0.67, 1e-9),
        JN("flier.by_direction.orthogonal.points", 8),
        JX("flier.by_direction.diagonal.expected", 1.33, 1e-9),
        JX("flier.by_direction.diagonal.luck", -0.33, 1e-9),
        JX("flier.by_direction.diagonal.spread", 0.67, 1e-9),
        JN("flier.by_direction.diagonal.points", 0),
        JX("flier.by_roll.0.expected", 1.67, 1e-9),
        JN("flier.by_roll.0.points", 5),
        JX("flier.by_roll.1.expected", 1, 1e-9),
        JX("flier.by_roll.2.expected", 0.33, 1e-9),
        JN("flier.by_roll.2.points", 3)));
    cJSON_Delete(j);
    /* a player's points won by flights: each scoring once, as the
     * sample's events say (the variant keeps them) */
    int pts[FEAT__COUNT], flier[2];
    bool scored[FEAT__COUNT];
    expected_points(0, pts, scored, &flier[0]);
    expected_points(1, pts, scored, &flier[1]);
    j = PLAYER(fx->s, "Ann");
    expect_json("Ann's luck", j, JSON_WANT(
        JN("luck.flights", 3), JN("luck.landed", 1),
        JX("luck.expected", 2, 1e-9), JX("luck.luck", -1, 1e-9),
        JX("luck.spread", 0.67, 1e-9), JN("luck.points", flier[0])));
    cJSON_Delete(j);
    j = PLAYER(fx->s, "Bob");
    expect_json("Bob's luck", j, JSON_WANT(
        JN("luck.flights", 2), JN("luck.landed", 2),
        JX("luck.expected", 1, 1e-9), JX("luck.luck", 1, 1e-9),
        JX("luck.spread", 0.67, 1e-9), JN("luck.points", flier[1])));
    cJSON_Delete(j);
}

static void test_stats_empty(void **state)
{
    struct fixture *fx = *state;
    cJSON *j = STATS(fx->s);
    expect_json("no statistics", j, JSON_WANT(
        JN("games.total", 0), JN("die.n", 0), J0("die.chi_square"),
        J0("die.p_value"), JC("die_by_player", 0)));
    cJSON_Delete(j);
    j = PLAYERS(fx->s);
    expect_json("no players", j, JSON_WANT(JC("players", 0)));
    cJSON_Delete(j);
    static const struct list_case none[] = {
        { "no games", ANY_F(), false, 0, 0, { 0 } },
    };
    expect_lists(fx->s, none, N_OF(none));
}

/* ---- games of other expansions ---------------------------------------- */

#define OTHER_REASON                                                           \
    "unsupported: The Catapult (tile set 'catapult:1' in setup.sets) " \
    "is not audited yet"

/* An upload the engine could not audit: bytes, digest and the reason. */
static struct game_record unsupported_record(const char *sha, int64_t at)
{
    struct game_record g = record(NULL, NULL, sha, at);
    g.report_json = NULL;
    g.name = "mage.jcz";
    g.unsupported = OTHER_REASON;
    return g;
}

/* store_check() finds nothing but the variants' made-up digests. */
static void expect_whole(struct store *s)
{
    struct buf report = BUF_INIT;
    struct err e;
    int problems = -1, digests = 0;
    assert_int_equal(store_check(s, &report, &problems, &e), ST_OK);
    for (const char *p = report.p; (p = strstr(p, "the stored upload (")); p++)
        digests++;
    if (problems != digests)
        fail_msg("store_check: %s", report.p);
    buf_release(&report);
}

struct verdicts {
    int v[8];
    int n;
};

static int note_verdict(void *ctx, int64_t id, const char *raw, size_t raw_len,
                        const char *source, int64_t at, int verdict)
{
    struct verdicts *vs = ctx;
    (void)id, (void)raw, (void)raw_len, (void)source, (void)at;
    vs->v[vs->n++] = verdict;
    return 0;
}

/* The sample (1), an invalid variant (2) and an unsupported upload (3),
 * by each filter. */
static const struct list_case unsupported_lists[] = {
    { "unsupported", ANY_F(.status = "unsupported"), false, 1, 1, { 3 } },
    { "audited", ANY_F(.status = "audited"), false, 2, 2, { 2, 1 } },
    { "invalid", ANY_F(.verdict = 0), false, 1, 1, { 2 } },
    { "valid", ANY_F(.verdict = 1), false, 1, 1, { 1 } },
    { "finished", ANY_F(.finished = 1), false, 2, 2, { 2, 1 } },
    { "unfinished", ANY_F(.finished = 0), false, 0, 0, { 0 } },
    { "C2", ANY_F(.edition = "C2"), false, 2, 2, { 2, 1 } },
    { "the base game", ANY_F(.expansion = "base"), false, 2, 2, { 2, 1 } },
    { "a search", ANY_F(.q = "mage"), false, 1, 1, { 3 } },
    /* a set and a column test together */
    { "a search, unsupported", ANY_F(.q = "mage", .status = "unsupported"),
      false, 1, 1, { 3 } },
    /* NULL sorts below 0 */
    { "most violations first", ANY_F(.sort = "violations"), false, 3, 3,
      { 2, 1, 3 } },
};

/* Stored, listed with its status and reason, counted in the statistics
 * but never as valid or invalid, deduplicated, and turned into an
 * audited game (and back) by a replace, as `flierd reaudit` does. */
static void test_unsupported_is_stored(void **state)
{
    struct fixture *fx = *state;
    struct err e;
    struct game_record g = record(&S.log, &S.rep, S.sha, 1000);
    insert_ok(fx->s, &g);
    struct variant v;
    variant(&v, 71, "Cid", "Dee");
    add_violation(&v, RULE_TURN_ORDER);
    g = record(&v.log, &v.rep, v.sha, 2000);
    insert_ok(fx->s, &g);
    char sha[SHA256_HEX_LEN];
    fake_sha(sha, 72);
    struct game_record u = unsupported_record(sha, 3000);
    int64_t id = insert_ok(fx->s, &u);
    assert_int_equal(id, 3);

    struct game_filter f = any();
    cJSON *j = list(fx->s, &f);
    expect_json("the unsupported game's entry", j, JSON_WANT(
        JN("total", 3), JN("games.0.id", 3),
        JS("games.0.status", "unsupported"),
        JS("games.0.reason", OTHER_REASON), J0("games.0.valid"),
        J0("games.0.finished"), J0("games.0.edition"),
        J0("games.0.violations"), J0("games.0.flights"),
        J0("games.0.turns"), JF("games.0.live"), JC("games.0.players", 0),
        JC("games.0.winners", 0), JS("games.1.status", "audited"),
        J0("games.1.reason")));
    cJSON_Delete(j);
    expect_lists(fx->s, unsupported_lists, N_OF(unsupported_lists));

    j = GAME(fx->s, id);
    expect_json("the unsupported game", j, JSON_WANT(
        JS("status", "unsupported"), JS("reason", OTHER_REASON),
        JS("sha256", sha), JN("size", (double)S.raw.len), J0("audit"),
        J0("sets"), J0("elements"), J0("rules"), J0("n_players"),
        J0("halted"), J0("best_score"), JC("expansions", 0)));
    cJSON_Delete(j);
    struct buf raw = BUF_INIT;
    const char *fmt = NULL;
    assert_int_equal(store_game_raw(fx->s, id, &raw, &fmt, NULL, &e), ST_OK);
    assert_int_equal(raw.len, S.raw.len);
    assert_string_equal(fmt, "jcz");
    buf_release(&raw);

    j = STATS(fx->s);
    expect_json("the statistics", j, JSON_WANT(
        JN("games.total", 3), JN("games.unsupported", 1),
        JN("games.valid", 1), JN("games.invalid", 1),
        JN("games.finished", 2), JN("games.by_edition.C2", 2),
        JC("games.by_edition", 1), JN("games.by_expansion.base", 2)));
    cJSON_Delete(j);
    expect_whole(fx->s);

    /* the same bytes again: one game */
    char *before = dump(fx->s, 3);
    int64_t again = 0;
    bool dup = false;
    u.uploaded_at = 4000;
    assert_int_equal(store_insert_game(fx->s, &u, &again, &dup, &e), ST_OK);
    assert_true(dup);
    assert_int_equal(again, id);
    char *after = dump(fx->s, 3);
    assert_string_equal(before, after);
    free(before);
    free(after);
    /* never live; never without its reason */
    fake_sha(sha, 73);
    u = unsupported_record(sha, 5000);
    u.live = true;
    assert_int_equal(store_insert_game(fx->s, &u, &again, &dup, &e), ST_DB);
    u.live = false;
    u.unsupported = "";
    assert_int_equal(store_insert_game(fx->s, &u, &again, &dup, &e), ST_DB);
    f = any();
    assert_int_equal(total_of(fx->s, &f), 3);

    struct verdicts vs = {{0}, 0};
    assert_int_equal(store_each_game(fx->s, note_verdict, &vs, &e), ST_OK);
    assert_int_equal(vs.n, 3);
    assert_int_equal(vs.v[0], VERDICT_VALID);
    assert_int_equal(vs.v[1], VERDICT_INVALID);
    assert_int_equal(vs.v[2], VERDICT_UNSUPPORTED);

    /* a later engine audits it: same id, upload time and name */
    struct variant w;
    variant(&w, 72, "Eve", "Fay");
    g = record(&w.log, &w.rep, w.sha, 0);
    g.name = NULL;
    assert_int_equal(store_replace_game(fx->s, id, &g, &e), ST_OK);
    j = GAME(fx->s, id);
    expect_json("audited later", j, JSON_WANT(
        JS("status", "audited"), J0("reason"), JT("valid"),
        JS("name", "mage.jcz"), JN("uploaded_at", 3000)));
    cJSON_Delete(j);
    j = STATS(fx->s);
    expect_json("audited later", j, JSON_WANT(
        JN("games.unsupported", 0), JN("games.valid", 2)));
    cJSON_Delete(j);
    expect_whole(fx->s);
    /* and back (an engine that no longer reads it keeps it all the same) */
    u = unsupported_record(w.sha, 0);
    assert_int_equal(store_replace_game(fx->s, id, &u, &e), ST_OK);
    j = PLAYERS(fx->s);
    expect_json("unsupported again", j, JSON_WANT(
        JC("players", 4))); /* no Eve */
    cJSON_Delete(j);
    j = STATS(fx->s);
    expect_json("unsupported again", j, JSON_WANT(
        JN("games.unsupported", 1), JN("games.total", 3)));
    cJSON_Delete(j);
    expect_whole(fx->s);
}

/* The expansions a game uses are rows: the list filters by them, the
 * game lists them with its elements, the statistics count them. */
static void test_expansions_and_elements(void **state)
{
    struct fixture *fx = *state;
    struct game_record g = record(&S.log, &S.rep, S.sha, 1000);
    insert_ok(fx->s, &g);
    struct variant v;
    variant(&v, 81, "Ann", "Bob");
    struct rules *r = &v.log.rules;
    r->set_copies[tile_set_find("river/1:1")] = 1;
    r->set_copies[tile_set_find("inns-and-cathedrals:1")] = 1;
    r->figures[FIG_BIG] = 1;
    r->flags |= RF_INNS | RF_CATHEDRALS;
    g = record(&v.log, &v.rep, v.sha, 2000);
    insert_ok(fx->s, &g);

    static const struct list_case lists[] = {
        { "the River", ANY_F(.expansion = "river"), false, 1, 1, { 2 } },
        { "Inns", ANY_F(.expansion = "inns"), false, 1, 1, { 2 } },
        { "the Flier", ANY_F(.expansion = "flier"), false, 2, 2, { 2, 1 } },
        { "no phantom", ANY_F(.expansion = "phantom"), false, 0, 0, { 0 } },
        { "the River, valid, C2",
          ANY_F(.expansion = "river", .verdict = 1, .edition = "C2"), false,
          1, 1, { 2 } },
        { "the River, valid, C2, Ann's",
          ANY_F(.expansion = "river", .verdict = 1, .edition = "C2",
                .player = "Ann"),
          false, 1, 1, { 2 } },
        { "the River, valid, C2, Ada's",
          ANY_F(.expansion = "river", .verdict = 1, .edition = "C2",
                .player = "Ada"),
          false, 0, 0, { 0 } },
    };
    expect_lists(fx->s, lists, N_OF(lists));

    cJSON *j = GAME(fx->s, 2);
    expect_json("the River and Inns", j, JSON_WANT(
        JC("expansions", 4), JS("expansions.0", "base"),
        JS("expansions.1", "flier"), JS("expansions.2", "inns"),
        JS("expansions.3", "river"), JN("elements.small-follower", 7),
        JT("elements.farmers"), JN("elements.big-follower", 1),
        JT("elements.inn"), JT("elements.cathedral"), JC("elements", 5),
        JN("sets.river/1:1", 1), JN("sets.inns-and-cathedrals:1", 1),
        JN("rules.followers", 7)));
    cJSON_Delete(j);
    j = GAME(fx->s, 1);
    expect_json("the sample", j, JSON_WANT(JC("expansions", 2),
                                           JC("elements", 2)));
    cJSON_Delete(j);

    j = STATS(fx->s);
    expect_json("the statistics", j, JSON_WANT(
        JN("games.by_expansion.base", 2), JN("games.by_expansion.flier", 2),
        JN("games.by_expansion.inns", 1), JN("games.by_expansion.river", 1)));
    cJSON_Delete(j);
    expect_whole(fx->s);
}

/* Figures and feature kinds are names in rows: a large follower's and a
 * phantom's flights, points of a kind the old columns never had. A figure
 * the engine does not know refuses the game, as an unknown rule does. */
static void test_figures_and_features_are_rows(void **state)
{
    struct fixture *fx = *state;
    struct err e;
    struct flight fl[4];
    struct variant v;
    assert_int_equal(S.rep.n_flights, 4);
    memcpy(fl, S.rep.flights, sizeof fl);
    fl[2].figure = FIG_BIG;
    fl[3].figure = FIG_PHANTOM;
    struct score_event *ev = calloc(S.rep.n_events + 1, sizeof *ev);
    memcpy(ev, S.rep.events, S.rep.n_events * sizeof *ev);
    ev[S.rep.n_events] = (struct score_event){
        .turn = 3,
        .feature = FEAT_RIVER,
        .players = 1,
        .points = 4,
    };
    variant(&v, 91, "Ann", "Bob");
    v.rep.flights = fl;
    v.rep.events = ev;
    v.rep.n_events = S.rep.n_events + 1;
    struct game_record g = record(&v.log, &v.rep, v.sha, 1000);
    insert_ok(fx->s, &g);

    cJSON *j = PLAYER(fx->s, "Ann");
    int pts[FEAT__COUNT], flier;
    bool scored[FEAT__COUNT];
    expected_points(0, pts, scored, &flier);
    pts[FEAT_RIVER] += 4;
    scored[FEAT_RIVER] = true;
    assert_int_equal(check_points(j, pts, scored, 1), 21 + 4);
    expect_json("Ann", j, JSON_WANT(JN("points.river", 4),
                                    JN("by_figure.small.flights", 1)));
    cJSON_Delete(j);
    j = PLAYER(fx->s, "Bob");
    expect_json("Bob", j, JSON_WANT(
        JC("by_figure", 3), JN("by_figure.small.flights", 1),
        JN("by_figure.small.forced_returns", 1),
        JN("by_figure.big.flights", 1), JN("by_figure.big.landed", 1),
        JN("by_figure.phantom.landed", 1),
        JN("by_figure.phantom.landing_rate", 1)));
    cJSON_Delete(j);
    j = STATS(fx->s);
    expect_json("the statistics", j, JSON_WANT(
        JN("flier.by_figure.small.flights", 2),
        JN("flier.by_figure.small.landed", 0),
        JN("flier.by_figure.big.flights", 1),
        JN("flier.by_figure.phantom.flights", 1), JN("flier.flights", 4)));
    cJSON_Delete(j);
    expect_whole(fx->s);

    char *before = dump(fx->s, 3);
    variant(&v, 92, "Cid", "Dee");
    fl[3].figure = 200;
    v.rep.flights = fl;
    g = record(&v.log, &v.rep, v.sha, 2000);
    int64_t id = 9;
    bool dup = true;
    assert_int_equal(store_insert_game(fx->s, &g, &id, &dup, &e), ST_DB);
    assert_non_null(strstr(e.msg, "flight"));
    assert_int_equal(id, 0);
    char *after = dump(fx->s, 3);
    assert_string_equal(before, after);
    free(before);
    free(after);
    free(ev);
}

/* ---- replace and failures -------------------------------------------- */

static void test_replace_keeps_id(void **state)
{
    struct fixture *fx = *state;
    struct err e;
    struct game_record g = record(&S.log, &S.rep, S.sha, 1000);
    int64_t id = insert_ok(fx->s, &g);
    struct variant v, w;
    variant(&v, 21, "Ann", "Bob");
    add_violation(&v, RULE_TURN_ORDER);
    g = record(&v.log, &v.rep, v.sha, 9999);
    g.live = true;
    g.source = "live";
    assert_int_equal(store_replace_game(fx->s, id, &g, &e), ST_OK);
    cJSON *j = GAME(fx->s, id);
    expect_json("replaced", j, JSON_WANT(
        JN("uploaded_at", 1000), JS("sha256", v.sha), JT("live"),
        JF("valid")));
    cJSON_Delete(j);
    bool live = false;
    assert_int_equal(store_game_is_live(fx->s, id, &live, &e), ST_OK);
    assert_true(live);
    j = PLAYERS(fx->s);
    expect_json("replaced", j, JSON_WANT(JC("players", 2))); /* Ann Bob */
    cJSON_Delete(j);
    j = STATS(fx->s);
    expect_json("replaced", j, JSON_WANT(
        JN("games.total", 1), JN("games.live", 1), JN("games.invalid", 1),
        JN("flier.flights", 4), JN("violations.by_rule.TURN_ORDER", 1)));
    cJSON_Delete(j);
    struct game_filter f = any();
    f.rule = "TURN_ORDER";
    expect_ids(fx->s, &f, 1, (int[]){(int)id}, 1);
    assert_int_equal(store_replace_game(fx->s, 999, &g, &e), ST_NOT_FOUND);
    /* the live game's bytes may be uploaded as a game of their own */
    variant(&w, 22, "Cid", "Dee");
    g = record(&w.log, &w.rep, v.sha, 1);
    int64_t other = insert_ok(fx->s, &g);
    assert_true(other != id);
    f = any();
    assert_int_equal(total_of(fx->s, &f), 2);
}

/* A violation of no known rule breaks violations' NOT NULL rule, after
 * the games row, the players and the flights are written: the whole
 * game, with its aggregates, must vanish. */
static void test_failure_leaves_nothing(void **state)
{
    struct fixture *fx = *state;
    struct err e;
    struct game_record g = record(&S.log, &S.rep, S.sha, 1000);
    insert_ok(fx->s, &g);
    char *stats = dump(fx->s, 3), *players = dump(fx->s, 1);
    struct variant v;
    variant(&v, 31, "Xan", "Yul");
    add_violation(&v, RULE_TURN_ORDER);
    add_violation(&v, RULE_TURN_ORDER);
    v.viol[1].rule = (enum rule)999;
    g = record(&v.log, &v.rep, v.sha, 2000);
    int64_t id = 5;
    bool dup = true;
    assert_int_equal(store_insert_game(fx->s, &g, &id, &dup, &e), ST_DB);
    assert_non_null(strstr(e.msg, "violation"));
    assert_int_equal(id, 0);
    char *stats2 = dump(fx->s, 3), *players2 = dump(fx->s, 1);
    assert_string_equal(stats, stats2);
    assert_string_equal(players, players2);
    struct game_filter f = any();
    assert_int_equal(total_of(fx->s, &f), 1);
    v.viol[1].rule = RULE_TURN_ORDER;
    insert_ok(fx->s, &g);
    assert_int_equal(total_of(fx->s, &f), 2);
    free(stats);
    free(stats2);
    free(players);
    free(players2);
}

/* Fails the nth sqlite3_step of an insert for every n until the insert
 * gets through: each failure leaves the store as it was. */
static void test_every_step_failure_rolls_back(void **state)
{
    struct fixture *fx = *state;
    struct err e;
    struct game_record g = record(&S.log, &S.rep, S.sha, 1000);
    insert_ok(fx->s, &g);
    char *stats = dump(fx->s, 3), *players = dump(fx->s, 1);
    struct variant v;
    variant(&v, 41, "Xan", "Ben");
    add_violation(&v, RULE_TURN_ORDER);
    g = record(&v.log, &v.rep, v.sha, 2000);
    struct game_filter f = any();
    int n = 1;
    for (;; n++) {
        int64_t id = 0;
        bool dup = false;
        fail_at = n;
        fail_rc = n % 2 ? RC_BUSY : RC_IOERR;
        enum status st = store_insert_game(fx->s, &g, &id, &dup, &e);
        bool hit = fail_at == 0;
        fail_at = 0;
        if (!hit) {
            assert_int_equal(st, ST_OK);
            break;
        }
        assert_int_equal(st, n % 2 ? ST_BUSY : ST_DB);
        assert_int_equal(id, 0);
        char *s2 = dump(fx->s, 3), *p2 = dump(fx->s, 1);
        assert_string_equal(stats, s2);
        assert_string_equal(players, p2);
        free(s2);
        free(p2);
        assert_int_equal(total_of(fx->s, &f), 1);
    }
    /* every row was a step: the game, 2 seats, 4 flights, a violation */
    assert_true((size_t)n > 1 + 2 + S.rep.n_flights + 1);
    assert_int_equal(total_of(fx->s, &f), 2);
    free(stats);
    free(players);
}

/* ---- concurrency ------------------------------------------------------ */

struct writer {
    const char *path;
    unsigned first;
    int n_ok;
    char msg[ERR_MSG_MAX];
};

/* Inserts 20 games through its own connection: BEGIN IMMEDIATE waits for
 * the other writer (busy_timeout) instead of failing. */
static void *writer_main(void *arg)
{
    struct writer *w = arg;
    struct store *s = NULL;
    struct err e;
    if (store_open(w->path, false, &s, &e) != ST_OK) {
        snprintf(w->msg, sizeof w->msg, "%s", e.msg);
        return NULL;
    }
    for (unsigned i = 0; i < 20; i++) {
        struct variant v;
        int64_t id;
        bool dup;
        variant(&v, w->first + i, "Ann", "Bob");
        struct game_record g = record(&v.log, &v.rep, v.sha, 1000);
        if (store_insert_game(s, &g, &id, &dup, &e) == ST_OK)
            w->n_ok++;
        else
            snprintf(w->msg, sizeof w->msg, "%s", e.msg);
    }
    store_close(s);
    return NULL;
}

static void test_concurrent_writers(void **state)
{
    struct fixture *fx = *state;
    struct writer w[2] = {{fx->path, 1000, 0, ""}, {fx->path, 2000, 0, ""}};
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        assert_int_equal(pthread_create(&t[i], NULL, writer_main, &w[i]), 0);
    /* a reader meanwhile sees whole games only, each read one snapshot */
    int torn = 0, pages = 0;
    for (int k = 0; k < 50; k++) {
        cJSON *j = STATS(fx->s);
        torn += num(j, "flier.flights") != 4 * num(j, "games.total");
        cJSON_Delete(j);
        struct game_filter f = any();
        f.limit = 1000;
        j = list(fx->s, &f);
        pages += num(j, "total") != cJSON_GetArraySize(item(j, "games"));
        cJSON_Delete(j);
    }
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    for (int i = 0; i < 2; i++)
        if (w[i].n_ok != 20)
            fail_msg("writer %d: %s", i, w[i].msg);
    assert_int_equal(torn, 0);
    assert_int_equal(pages, 0);
    struct game_filter f = any();
    assert_int_equal(total_of(fx->s, &f), 40);
}

/* A replace built from an upload that is no longer the stored one (a
 * live move judged against a game another daemon changed meanwhile) is
 * refused, and the game keeps the other's change. */
static void test_stale_replace_conflicts(void **state)
{
    struct fixture *fx = *state;
    struct err e;
    struct variant v, w;
    variant(&v, 51, "Ann", "Bob");
    struct game_record g = record(&v.log, &v.rep, v.sha, 1000);
    g.live = true;
    g.source = "live";
    int64_t id = insert_ok(fx->s, &g);
    variant(&w, 52, "Ann", "Bob");
    struct game_record h = record(&w.log, &w.rep, w.sha, 1000);
    h.live = true;
    h.source = "live";
    h.replaces_sha256 = v.sha; /* as read */
    assert_int_equal(store_replace_game(fx->s, id, &h, &e), ST_OK);
    struct variant x;
    variant(&x, 53, "Ann", "Bob");
    struct game_record k = record(&x.log, &x.rep, x.sha, 1000);
    k.live = true;
    k.source = "live";
    k.replaces_sha256 = v.sha; /* read before h was stored */
    assert_int_equal(store_replace_game(fx->s, id, &k, &e), ST_CONFLICT);
    assert_non_null(strstr(e.msg, "changed"));
    char sha[65];
    assert_int_equal(store_game_sha(fx->s, id, sha, &e), ST_OK);
    assert_string_equal(sha, w.sha);
}

/* Writers that upload the same games at the same moment, each through
 * its own connection (as daemons on one database do): every game is
 * stored once, and each writer is told its id, new or duplicate. */
struct racer {
    const char *path;
    int64_t ids[10];
    int n_new;
    char msg[ERR_MSG_MAX];
};

static void *racer_main(void *arg)
{
    struct racer *r = arg;
    struct store *s = NULL;
    struct err e;
    if (store_open(r->path, false, &s, &e) != ST_OK) {
        snprintf(r->msg, sizeof r->msg, "%s", e.msg);
        return NULL;
    }
    for (unsigned i = 0; i < 10; i++) {
        struct variant v;
        bool dup = false;
        variant(&v, 3000 + i, "Ann", "Bob");
        struct game_record g = record(&v.log, &v.rep, v.sha, 1000);
        if (store_insert_game(s, &g, &r->ids[i], &dup, &e) != ST_OK)
            snprintf(r->msg, sizeof r->msg, "%s", e.msg);
        r->n_new += !dup;
    }
    store_close(s);
    return NULL;
}

static void test_same_bytes_at_once(void **state)
{
    struct fixture *fx = *state;
    struct racer r[3];
    pthread_t t[3];
    memset(r, 0, sizeof r);
    for (int i = 0; i < 3; i++) {
        r[i].path = fx->path;
        assert_int_equal(pthread_create(&t[i], NULL, racer_main, &r[i]), 0);
    }
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], NULL);
    for (int i = 0; i < 3; i++)
        if (r[i].msg[0])
            fail_msg("writer %d: %s", i, r[i].msg);
    assert_int_equal(r[0].n_new + r[1].n_new + r[2].n_new, 10);
    for (int k = 0; k < 10; k++) {
        assert_true(r[0].ids[k] > 0);
        assert_int_equal(r[0].ids[k], r[1].ids[k]);
        assert_int_equal(r[0].ids[k], r[2].ids[k]);
    }
    struct game_filter f = any();
    assert_int_equal(total_of(fx->s, &f), 10);
    /* the aggregates counted each game once */
    cJSON *j = STATS(fx->s);
    assert_int_equal(num(j, "games.total"), 10);
    assert_int_equal(num(j, "flier.flights"), 40);
    cJSON_Delete(j);
    j = PLAYER(fx->s, "Ann");
    assert_int_equal(num(j, "games"), 10);
    cJSON_Delete(j);
}

/* ---- batches ------------------------------------------------------------ */

/* A second, empty store beside fx's: the same kind of database. */
static struct store *second_store(struct fixture *fx, char *path, size_t n)
{
    struct store *s = NULL;
    struct err e;
    if (!test_db_fresh(path, n))
        snprintf(path, n, "%s/second.db", fx->dir);
    if (store_open(path, false, &s, &e) != ST_OK)
        fail_msg("store_open: %s", e.msg);
    return s;
}

/* In a batch each game is all-or-nothing (a failed one leaves nothing and
 * the batch goes on), a game the batch stored is a duplicate of itself,
 * and replaces (of a game stored before, of one the batch stored) take
 * their games' place; once it commits, the statistics and players are
 * those of the same games stored one by one, and the check finds the
 * aggregates whole. A batch dropped leaves nothing. */
static void test_batch(void **state)
{
    struct fixture *fx = *state;
    struct err e;
    struct variant v[7];
    variant(&v[0], 61, "Ann", "Bob");
    variant(&v[1], 62, "Ann", "Cid");
    variant(&v[2], 63, "Dan", "Eve");
    add_violation(&v[2], RULE_TURN_ORDER);
    add_violation(&v[2], RULE_TURN_ORDER);
    v[2].viol[1].rule = (enum rule)999; /* refused */
    variant(&v[3], 64, "Bob", "Fay");
    add_violation(&v[3], RULE_TURN_ORDER);
    variant(&v[4], 65, "Gus", "Ann"); /* replaces v[0] */
    variant(&v[5], 66, "Ann", "Hal"); /* replaces v[1] */
    v[5].rep.finished = false;
    variant(&v[6], 67, "Ivy", "Jon"); /* in the dropped batch */
    struct game_record g[7];
    for (int i = 0; i < 7; i++)
        g[i] = record(&v[i].log, &v[i].rep, v[i].sha, 1000 + i);
    int64_t before = insert_ok(fx->s, &g[0]), id = 0, same = 0;
    bool dup = true;

    assert_int_equal(
        store_batch_begin(fx->s, STORE_BATCH_SAVEPOINTS, &e), ST_OK);
    int64_t b1 = insert_ok(fx->s, &g[1]);
    assert_int_equal(store_insert_game(fx->s, &g[2], &id, &dup, &e), ST_DB);
    assert_int_equal(id, 0);
    int64_t b3 = insert_ok(fx->s, &g[3]);
    assert_int_equal(store_insert_game(fx->s, &g[1], &same, &dup, &e), ST_OK);
    assert_true(dup);
    assert_int_equal(same, b1);
    assert_int_equal(store_replace_game(fx->s, before, &g[4], &e), ST_OK);
    assert_int_equal(store_replace_game(fx->s, b1, &g[5], &e), ST_OK);
    assert_int_equal(store_batch_end(fx->s, true, &e), ST_OK);

    assert_int_equal(
        store_batch_begin(fx->s, STORE_BATCH_SAVEPOINTS, &e), ST_OK);
    insert_ok(fx->s, &g[6]);
    assert_int_equal(store_batch_end(fx->s, false, &e), ST_OK);

    struct game_filter f = any();
    assert_int_equal(total_of(fx->s, &f), 3);
    char sha[65];
    assert_int_equal(store_game_sha(fx->s, b3, sha, &e), ST_OK);
    assert_string_equal(sha, v[3].sha);
    expect_whole(fx->s);

    char path[256];
    struct store *ref = second_store(fx, path, sizeof path);
    insert_ok(ref, &g[4]);
    insert_ok(ref, &g[5]);
    insert_ok(ref, &g[3]);
    for (int what = 1; what <= 3; what += 2) {
        char *got = dump(fx->s, what), *want = dump(ref, what);
        assert_string_equal(got, want);
        free(got);
        free(want);
    }
    store_close(ref);
    test_db_drop(path);
    unlink(path);
}

/* A whole batch (no savepoints): a game that fails before it writes
 * (an incomplete record) costs only itself; one that fails halfway (the
 * unknown rule's NOT NULL, after its games row) takes the batch along on
 * SQLite: store_batch_lost(), every later game refused, the commit
 * refused, nothing of the batch kept and the aggregates whole. Then a
 * batch of the same games, the bad one left out, stores them all.
 * PostgreSQL keeps its savepoints: there the bad game fails alone. */
static void test_batch_whole(void **state)
{
    struct fixture *fx = *state;
    struct err e;
    struct variant v[4];
    variant(&v[0], 71, "Ann", "Bob");
    variant(&v[1], 72, "Cid", "Dan");
    variant(&v[2], 73, "Eve", "Fay");
    add_violation(&v[2], RULE_TURN_ORDER);
    v[2].viol[0].rule = (enum rule)999; /* refused halfway */
    variant(&v[3], 74, "Gus", "Hal");
    struct game_record g[4], bad;
    for (int i = 0; i < 4; i++)
        g[i] = record(&v[i].log, &v[i].rep, v[i].sha, 2000 + i);
    bad = g[1];
    bad.sha256 = NULL; /* refused before anything is written */
    int64_t before = insert_ok(fx->s, &g[0]), id = 0;
    bool dup = false, pg = test_db_pg();

    assert_int_equal(store_batch_begin(fx->s, STORE_BATCH_WHOLE, &e), ST_OK);
    assert_int_equal(store_insert_game(fx->s, &bad, &id, &dup, &e), ST_DB);
    assert_false(store_batch_lost(fx->s));
    int64_t b1 = insert_ok(fx->s, &g[1]);
    assert_true(b1 > before);
    assert_int_equal(store_insert_game(fx->s, &g[2], &id, &dup, &e), ST_DB);
    assert_int_equal(id, 0);
    assert_int_equal(store_batch_lost(fx->s), !pg);
    enum status later = store_insert_game(fx->s, &g[3], &id, &dup, &e);
    assert_int_equal(later, pg ? ST_OK : ST_DB);
    if (!pg)
        assert_non_null(strstr(e.msg, "rolled back"));
    assert_int_equal(store_batch_end(fx->s, true, &e), pg ? ST_OK : ST_DB);
    assert_false(store_batch_lost(fx->s));

    struct game_filter f = any();
    assert_int_equal(total_of(fx->s, &f), pg ? 3 : 1);
    expect_whole(fx->s);
    if (pg)
        return;
    assert_int_equal(store_batch_begin(fx->s, STORE_BATCH_WHOLE, &e), ST_OK);
    assert_int_equal(insert_ok(fx->s, &g[1]), b1); /* the id it had */
    insert_ok(fx->s, &g[3]);
    assert_int_equal(store_batch_end(fx->s, true, &e), ST_OK);
    assert_int_equal(total_of(fx->s, &f), 3);
    expect_whole(fx->s);
}

/* ---- each_game --------------------------------------------------------- */

struct visit {
    struct store *s;
    int64_t ids[8];
    int n;
    int stop_after;
    bool replace;
    bool ok;
};

static int visit(void *ctx, int64_t id, const char *raw, size_t raw_len,
                 const char *source, int64_t at, int verdict)
{
    struct visit *v = ctx;
    v->ids[v->n++] = id;
    v->ok = v->ok && raw_len == S.raw.len &&
            memcmp(raw, S.raw.p, raw_len) == 0 && strcmp(source, "http") == 0 &&
            at == 1000 * id &&
            verdict == (id != 2 && id != 4 ? VERDICT_VALID : VERDICT_INVALID);
    if (v->replace) {
        struct err e;
        struct variant w;
        variant(&w, 100 + (unsigned)id, "Re", "Played");
        struct game_record g = record(&w.log, &w.rep, w.sha, 0);
        v->ok = v->ok && store_replace_game(v->s, id, &g, &e) == ST_OK;
    }
    return v->n == v->stop_after;
}

static void test_each_game(void **state)
{
    struct fixture *fx = *state;
    struct err e;
    struct variant v[5];
    insert_five(fx->s, v);
    struct visit all = {.s = fx->s, .ok = true};
    assert_int_equal(store_each_game(fx->s, visit, &all, &e), ST_OK);
    assert_true(all.ok);
    assert_int_equal(all.n, 5);
    for (int i = 0; i < 5; i++)
        assert_int_equal(all.ids[i], i + 1);
    struct visit two = {.s = fx->s, .stop_after = 2, .ok = true};
    assert_int_equal(store_each_game(fx->s, visit, &two, &e), ST_OK);
    assert_int_equal(two.n, 2);
    /* a re-audit replaces games while it walks them */
    struct visit re = {.s = fx->s, .replace = true, .ok = true};
    assert_int_equal(store_each_game(fx->s, visit, &re, &e), ST_OK);
    assert_true(re.ok);
    assert_int_equal(re.n, 5);
    cJSON *j = PLAYERS(fx->s);
    assert_int_equal(cJSON_GetArraySize(item(j, "players")), 2);
    assert_int_equal(num(j, "players.0.games"), 5);
    cJSON_Delete(j);
}

/* ---- timing (FLIERD_BENCH_GAMES) ------------------------------------- */

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

enum bench_op {
    B_LIST,
    B_LIST_PLAYER,
    B_LIST_PLAYER_VALID,
    B_LIST_INVALID,
    B_LIST_RULE,
    B_LIST_RULE_RARE,
    B_LIST_DATES,
    B_LIST_BEST_DEEP,
    B_LIST_Q,
    B_LIST_Q_SHORT,
    B_LIST_EXPANSION,
    B_LIST_STATUS,
    B_GAME,
    B_PLAYERS,
    B_PLAYER,
    B_STATS,
    B__COUNT
};

static const char *const bench_names[] = {
    "list (date, 50)",
    "list player=",
    "list player= verdict=valid",
    "list verdict=invalid",
    "list rule= (9%)",
    "list rule= (1%)",
    "list date range (60%)",
    "list sort=best offset 5000",
    "list q=P0123",
    "list q=P1 (2 chars: scan)",
    "list expansion=flier (all)",
    "list status=unsupported (1%)",
    "game/{id}",
    "players",
    "players/{name}",
    "stats",
};

static void bench_once(struct store *s, enum bench_op op, int i, int64_t n)
{
    struct buf b = BUF_INIT;
    struct err e;
    struct game_filter f = any();
    char name[32];
    snprintf(name, sizeof name, "P%04d", i % 500);
    enum status st = ST_OK;
    switch (op) {
    case B_LIST_PLAYER: f.player = name; break;
    case B_LIST_PLAYER_VALID:
        f.player = name;
        f.verdict = 1;
        break;
    case B_LIST_INVALID: f.verdict = 0; break;
    case B_LIST_RULE: f.rule = "FLIER_WRONG_TARGET"; break;
    case B_LIST_RULE_RARE: f.rule = "TILE_EDGE_MISMATCH"; break;
    case B_LIST_DATES:
        f.from = 1000 + n * 100;
        f.to = 1000 + n * 400;
        break;
    case B_LIST_BEST_DEEP:
        f.sort = "best";
        f.offset = 5000;
        break;
    case B_LIST_Q: f.q = name; break;
    case B_LIST_Q_SHORT: f.q = "P1"; break;
    case B_LIST_EXPANSION: f.expansion = "flier"; break;
    case B_LIST_STATUS: f.status = "unsupported"; break;
    default: break;
    }
    if (op <= B_LIST_STATUS)
        st = store_list_games(s, &f, &b, &e);
    else if (op == B_GAME)
        st = store_game_json(s, 1 + i % n, &b, &e);
    else if (op == B_PLAYERS)
        st = store_players_json(s, &b, &e);
    else if (op == B_PLAYER)
        st = store_player_json(s, name, &b, &e);
    else
        st = store_stats_json(s, &b, &e);
    if (st != ST_OK)
        fail_msg("bench %s: %s", bench_names[op], e.msg);
    buf_release(&b);
}

static void bench_insert(struct store *s, int64_t n)
{
    struct variant v;
    char report[4096];
    memset(report, 'x', sizeof report - 1);
    report[sizeof report - 1] = '\0';
    report[0] = '"';
    report[sizeof report - 2] = '"';
    double t0 = now_ms();
    for (int64_t i = 0; i < n; i++) {
        char a[16], b[16];
        snprintf(a, sizeof a, "P%04d", (int)(i * 7 % 500));
        snprintf(b, sizeof b, "P%04d", (int)((i * 13 + 1) % 500));
        variant(&v, (unsigned)(1000 + i), a, b);
        if (i % 10 == 0)
            add_violation(&v, i % 100 ? RULE_FLIER_WRONG_TARGET
                                      : RULE_TILE_EDGE_MISMATCH);
        struct game_record g = record(&v.log, &v.rep, v.sha, 1000 + i * 500);
        g.report_json = report;
        if (i % 100 == 50) /* 1 %: stored, not audited */
            g = unsupported_record(v.sha, 1000 + i * 500);
        insert_ok(s, &g);
    }
    double t = now_ms() - t0;
    print_message("bench: %lld inserts in %.0f ms (%.2f ms each)\n",
                  (long long)n, t, t / n);
}

static void test_bench(void **state)
{
    struct fixture *fx = *state;
    const char *env = getenv("FLIERD_BENCH_GAMES");
    int64_t n = env ? atoll(env) : 0;
    if (n <= 0) {
        skip();
        return;
    }
    const char *dir = getenv("FLIERD_BENCH_DIR");
    char path[256];
    struct store *s = NULL;
    struct err e;
    snprintf(path, sizeof path, "%s/flierd-bench.db", dir ? dir : fx->dir);
    if (test_db_pg())
        snprintf(path, sizeof path, "%s", fx->path);
    assert_int_equal(store_open(path, false, &s, &e), ST_OK);
    struct game_filter f = any();
    int64_t have = total_of(s, &f);
    if (have < n)
        bench_insert(s, n - have);
    store_close(s);
    assert_int_equal(store_open(path, true, &s, &e), ST_OK);
    /* pass 0 on a fresh connection (pages not yet mapped), pass 1 warm */
    enum { RUNS = 200 };
    static double t[2][RUNS];
    for (int op = 0; op < B__COUNT; op++) {
        for (int pass = 0; pass < 2; pass++)
            for (int i = 0; i < RUNS; i++) {
                double t0 = now_ms();
                bench_once(s, (enum bench_op)op, i * 37, n);
                t[pass][i] = now_ms() - t0;
            }
        qsort(t[0], RUNS, sizeof *t[0], cmp_double);
        qsort(t[1], RUNS, sizeof *t[1], cmp_double);
        print_message("bench %-28s cold p50 %6.3f p99 %6.3f | warm p50 "
                      "%6.3f p99 %6.3f ms\n",
                      bench_names[op], t[0][RUNS / 2], t[0][RUNS * 99 / 100],
                      t[1][RUNS / 2], t[1][RUNS * 99 / 100]);
    }
    store_close(s);
    if (!dir) {
        static const char *const ext[] = {"", "-wal", "-shm"};
        for (int i = 0; i < 3; i++) {
            char p[300];
            snprintf(p, sizeof p, "%s%s", path, ext[i]);
            unlink(p);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_open_migrates_and_reopens, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_read_only_refuses_writes, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_duplicate_is_recognised, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_same_content_counts_once, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_live_games_never_dedupe, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_game_and_raw, setup, teardown),
        cmocka_unit_test_setup_teardown(test_packed_ahead, setup, teardown),
        cmocka_unit_test_setup_teardown(test_list_filters, setup, teardown),
        cmocka_unit_test_setup_teardown(test_list_sort_and_paging, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_list_entry, setup, teardown),
        cmocka_unit_test_setup_teardown(test_players, setup, teardown),
        cmocka_unit_test_setup_teardown(test_player_numbers, setup, teardown),
        cmocka_unit_test_setup_teardown(test_stats_sample, setup, teardown),
        cmocka_unit_test_setup_teardown(test_stats_known_rolls, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_luck_known_odds, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_stats_empty, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unsupported_is_stored, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_expansions_and_elements, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_figures_and_features_are_rows,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_replace_keeps_id, setup, teardown),
        cmocka_unit_test_setup_teardown(test_failure_leaves_nothing, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_concurrent_writers, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_each_game, setup, teardown),
        cmocka_unit_test_setup_teardown(test_stale_replace_conflicts, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_same_bytes_at_once, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_batch, setup, teardown),
        cmocka_unit_test_setup_teardown(test_batch_whole, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bench, setup, teardown),
    };
    /* the failures injected into sqlite3_step */
    const struct CMUnitTest sqlite_only[] = {
        cmocka_unit_test_setup_teardown(test_every_step_failure_rolls_back,
                                        setup, teardown),
    };
    int failed = cmocka_run_group_tests(tests, load_sample, free_sample);
    if (!test_db_pg())
        failed += cmocka_run_group_tests(sqlite_only, load_sample,
                                         free_sample);
    return failed;
}
