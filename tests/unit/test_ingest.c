/* test_ingest.c - uploads in, replays out, through a real SQLite file,
 * or a new PostgreSQL database per test when FLIERD_TEST_DB names a
 * server (tests/pg/test_db.h): the same tests on both backends.
 *
 * The replay is not stored: ingest_replay() renders it from the stored
 * upload on request, sending each turn's meeple changes. These tests
 * rebuild every turn's board from those changes and hold it against the
 * engine's own snapshots (replay_build), for every sample: so the deltas
 * lose nothing, on games with flights, landings on shared features,
 * abbots and recalls.
 *
 * Games of other expansions: one the engine cannot audit yet is stored
 * all the same (and has no replay); one it audits (Inns & Cathedrals,
 * read in place from the peer corpus) leaves its points by feature and
 * its flights by figure as the audit has them. */
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
#include <sqlite3.h>

#include "core/replay.h"
#include "ingest/ingest.h"
#include "mlog/mlog.h"
#include "test_db.h"

/* A .jcz of The Catapult, which this engine does not audit yet. */
static const char MAGE_JCZ[] =
    "{\"appVersion\":\"5.12.1\",\"setup\":{\"sets\":{\"basic:1\":1,"
    "\"catapult:1\":1,\"flier:1\":1},\"elements\":{\"small-follower\":7,"
    "\"farmers\":true,\"catapult\":true},\"rules\":{},\"start\":[{\"tile\":"
    "\"BA/RCr\",\"x\":0,\"y\":0,\"rotation\":0}]},\"players\":[{\"name\":"
    "\"Ada\",\"slot\":0},{\"name\":\"Ben\",\"slot\":1}],\"replay\":[]}";

struct fixture {
    char dir[64];
    char path[256]; /* a file, or a PostgreSQL URI */
    struct store *s;
};

static int setup(void **state)
{
    struct fixture *fx = calloc(1, sizeof *fx);
    struct err e;
    snprintf(fx->dir, sizeof fx->dir, "/tmp/flierd-ingest.XXXXXX");
    if (!mkdtemp(fx->dir))
        return -1;
    if (!test_db_fresh(fx->path, sizeof fx->path)) {
        if (test_db_pg())
            return -1;
        snprintf(fx->path, sizeof fx->path, "%s/t.db", fx->dir);
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
    char p[300];
    store_close(fx->s);
    test_db_drop(fx->path);
    unlink(fx->path);
    snprintf(p, sizeof p, "%s-wal", fx->path);
    unlink(p);
    snprintf(p, sizeof p, "%s-shm", fx->path);
    unlink(p);
    rmdir(fx->dir);
    free(fx);
    return 0;
}

static void slurp(const char *path, struct buf *out)
{
    FILE *f = fopen(path, "rb");
    char chunk[8192];
    size_t n;
    assert_non_null(f);
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        buf_append(out, chunk, n);
    fclose(f);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The meeples on the board after each turn, as (player|kind|x,y|segment)
 * strings sorted, from the engine's own snapshots. */
static void engine_board(const struct game_log *log, const struct replay *rp,
                         size_t turn, struct buf *out)
{
    const struct replay_turn *t = &rp->turns[turn];
    char **keys = calloc(t->n_meeples + 1, sizeof *keys);
    for (size_t k = 0; k < t->n_meeples; k++) {
        const struct replay_meeple *m = &rp->meeples[t->meeple0 + k];
        char seg[40];
        seg_format(m->feature, m->mask, seg, sizeof seg);
        keys[k] = malloc(128);
        snprintf(keys[k], 128, "%s|%s|%d,%d|%s|%d",
                 m->owner >= 0 ? log->names[m->owner] : "-",
                 figure_class(m->kind)->jcz, m->at.x,
                 m->at.y, seg, m->flew);
    }
    qsort(keys, t->n_meeples, sizeof *keys, cmp_str);
    for (size_t k = 0; k < t->n_meeples; k++) {
        buf_printf(out, "%s;", keys[k]);
        free(keys[k]);
    }
    free(keys);
}

/* The same strings from the JSON: every id placed so far, minus removed. */
static void json_board(cJSON *on, struct buf *out)
{
    int n = cJSON_GetArraySize(on), i = 0;
    char **keys = calloc((size_t)n + 1, sizeof *keys);
    for (cJSON *m = on->child; m; m = m->next, i++) {
        cJSON *at = cJSON_GetObjectItem(m, "at");
        keys[i] = malloc(128);
        snprintf(keys[i], 128, "%s|%s|%d,%d|%s|%d",
                 cJSON_IsString(cJSON_GetObjectItem(m, "player"))
                     ? cJSON_GetObjectItem(m, "player")->valuestring
                     : "-",
                 cJSON_GetObjectItem(m, "kind")->valuestring,
                 cJSON_GetArrayItem(at, 0)->valueint,
                 cJSON_GetArrayItem(at, 1)->valueint,
                 cJSON_GetObjectItem(m, "segment")->valuestring,
                 cJSON_IsTrue(cJSON_GetObjectItem(m, "flew")));
    }
    qsort(keys, (size_t)n, sizeof *keys, cmp_str);
    for (i = 0; i < n; i++) {
        buf_printf(out, "%s;", keys[i]);
        free(keys[i]);
    }
    free(keys);
}

/* Applies one turn's changes to the board 'on' (an object by id). */
static void apply_turn(const char *file, size_t i, cJSON *t, cJSON *on)
{
    cJSON *x;
    cJSON_ArrayForEach(x, cJSON_GetObjectItem(t, "removed"))
    {
        char id[24];
        snprintf(id, sizeof id, "%d", x->valueint);
        if (!cJSON_GetObjectItem(on, id))
            fail_msg("%s turn %zu: removed %s, which is not on the board",
                     file, i, id);
        cJSON_DeleteItemFromObject(on, id);
    }
    cJSON_ArrayForEach(x, cJSON_GetObjectItem(t, "placed"))
    {
        char id[24];
        snprintf(id, sizeof id, "%d", cJSON_GetObjectItem(x, "id")->valueint);
        if (cJSON_GetObjectItem(on, id))
            fail_msg("%s turn %zu: id %s placed twice", file, i, id);
        cJSON_AddItemToObject(on, id, cJSON_Duplicate(x, true));
    }
}

static void check_sample(struct fixture *fx, const char *file)
{
    struct buf raw = BUF_INIT, json = BUF_INIT;
    struct ingest_result res;
    struct err e;
    struct game_log log;
    enum mlog_format fmt;
    struct replay rp;
    slurp(file, &raw);
    if (ingest_bytes(fx->s, raw.p, raw.len, "cli", file, 1, &res, &e) !=
        ST_OK)
        fail_msg("%s: %s", file, e.msg);
    if (ingest_replay(fx->s, res.id, NULL, &json, &e) != ST_OK)
        fail_msg("%s: replay: %s", file, e.msg);

    game_log_init(&log);
    assert_int_equal(mlog_parse(raw.p, raw.len, &log, &fmt, &e), ST_OK);
    /* the replay's pass gives the report the audit gives, to the byte */
    struct report by_replay, by_audit;
    struct buf rj = BUF_INIT, aj = BUF_INIT;
    replay_build(&log, NULL, &rp, &by_replay);
    audit_run(&log, NULL, &by_audit, NULL);
    mlog_report_json(file, fmt, &log, &by_replay, &rj);
    mlog_report_json(file, fmt, &log, &by_audit, &aj);
    assert_string_equal(rj.p, aj.p);
    report_release(&by_replay);
    report_release(&by_audit);
    buf_release(&rj);
    buf_release(&aj);
    cJSON *j = cJSON_Parse(json.p), *on = cJSON_CreateObject();
    assert_non_null(j);
    cJSON *turns = cJSON_GetObjectItem(j, "turns");
    assert_int_equal(cJSON_GetArraySize(turns), rp.n_turns);
    size_t i = 0;
    for (cJSON *t = turns->child; t; t = t->next, i++) {
        struct buf want = BUF_INIT, got = BUF_INIT;
        apply_turn(file, i, t, on);
        engine_board(&log, &rp, i, &want);
        json_board(on, &got);
        if (strcmp(want.p ? want.p : "", got.p ? got.p : "") != 0)
            fail_msg("%s turn %zu:\n engine %s\n replay %s", file, i,
                     want.p, got.p);
        buf_release(&want);
        buf_release(&got);
    }
    cJSON_Delete(on);
    cJSON_Delete(j);
    replay_release(&rp);
    game_log_release(&log);
    buf_release(&raw);
    buf_release(&json);
}

static void test_replay_deltas_rebuild_every_board(void **state)
{
    static const char *const samples[] = {
        "c2-2p.jcz", "c2-5p.jcz", "c3-4p-abbots.jcz", "disputed.flierlog",
        "flier-lands-on-shared-monastery.jcz", "flier-returns.jcz",
        "tiny-city.jcz",
    };
    for (size_t i = 0; i < sizeof samples / sizeof *samples; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", FLIERD_SAMPLES_DIR, samples[i]);
        check_sample(*state, path);
    }
}

/* An unknown id is ST_NOT_FOUND and renders nothing. */
static void test_replay_errors(void **state)
{
    struct fixture *fx = *state;
    struct buf b = BUF_INIT;
    struct err e;
    assert_int_equal(ingest_replay(fx->s, 4242, NULL, &b, &e), ST_NOT_FOUND);
    assert_int_equal(b.len, 0);
    buf_release(&b);
}

/* The replay is the same document for the same upload, byte for byte. */
static void test_replay_is_deterministic(void **state)
{
    struct fixture *fx = *state;
    struct buf raw = BUF_INIT, a = BUF_INIT, b = BUF_INIT;
    struct ingest_result res;
    struct err e;
    char path[512];
    snprintf(path, sizeof path, "%s/c3-4p-abbots.jcz", FLIERD_SAMPLES_DIR);
    slurp(path, &raw);
    assert_int_equal(
        ingest_bytes(fx->s, raw.p, raw.len, "cli", "x.jcz", 1, &res, &e),
        ST_OK);
    assert_int_equal(ingest_replay(fx->s, res.id, NULL, &a, &e), ST_OK);
    assert_int_equal(ingest_replay(fx->s, res.id, NULL, &b, &e), ST_OK);
    assert_int_equal(a.len, b.len);
    assert_memory_equal(a.p, b.p, a.len);
    /* the whole board is never repeated: far smaller than the upload */
    assert_true(a.len < raw.len * 2);
    buf_release(&raw);
    buf_release(&a);
    buf_release(&b);
}

/* ---- the pipeline ------------------------------------------------------ */

struct items {
    const char *bytes[12];
    size_t len[12];
    size_t n_done;
    enum status st[12];
    int64_t id[12];
    bool dup[12];
    bool unsupported[12];
};

static enum status read_item(void *ctx, size_t i, struct buf *data,
                             const char **name, struct err *e)
{
    struct items *it = ctx;
    (void)e;
    *name = "item";
    buf_append(data, it->bytes[i], it->len[i]);
    return ST_OK;
}

static void item_done(void *ctx, size_t i, enum status st,
                      const struct ingest_result *res, const struct err *e)
{
    struct items *it = ctx;
    (void)e;
    assert_int_equal(i, it->n_done); /* in order, each once */
    it->st[i] = st;
    it->id[i] = res->id;
    it->dup[i] = res->duplicate;
    it->unsupported[i] = res->unsupported;
    it->n_done++;
}

/* Twelve items over three workers and batches of 4: a broken log fails
 * alone, a repeat is a duplicate of the first, and ids follow the input
 * order whatever thread prepared what. */
static void test_pipeline_keeps_order(void **state)
{
    struct fixture *fx = *state;
    static const char *const names[] = { "c2-2p.jcz", "c2-5p.jcz",
                                         "c3-4p-abbots.jcz", "tiny-city.jcz",
                                         "flier-returns.jcz" };
    struct buf raw[5];
    struct items it;
    memset(&it, 0, sizeof it);
    for (int k = 0; k < 5; k++) {
        char path[512];
        raw[k] = (struct buf)BUF_INIT;
        snprintf(path, sizeof path, "%s/%s", FLIERD_SAMPLES_DIR, names[k]);
        slurp(path, &raw[k]);
    }
    for (int i = 0; i < 12; i++) {
        it.bytes[i] = raw[i % 5].p;
        it.len[i] = raw[i % 5].len;
    }
    it.bytes[10] = "{\"not\": \"a game\"";
    it.len[10] = strlen(it.bytes[10]);
    it.bytes[11] = MAGE_JCZ; /* stored, not audited */
    it.len[11] = sizeof MAGE_JCZ - 1;
    struct ingest_source src = { 12, "cli", 7, &it, read_item, item_done,
                                 NULL };
    ingest_pipeline(fx->s, &src, 3, 4);
    assert_int_equal(it.n_done, 12);
    int64_t last = 0;
    for (int i = 0; i < 12; i++) {
        if (i == 10) {
            assert_int_equal(it.st[i], ST_PARSE);
            continue;
        }
        if (i == 11) {
            assert_int_equal(it.st[i], ST_OK);
            assert_false(it.dup[i]);
            assert_true(it.unsupported[i]);
            assert_true(it.id[i] > last);
            continue;
        }
        assert_int_equal(it.st[i], ST_OK);
        assert_int_equal(it.dup[i], i >= 5);
        if (i < 5) {
            assert_true(it.id[i] > last);
            last = it.id[i];
        } else {
            assert_int_equal(it.id[i], it.id[i % 5]);
        }
    }
    for (int k = 0; k < 5; k++)
        buf_release(&raw[k]);
}

/* ---- a game failing halfway through a whole batch (SQLite) ----------- */

/* -Wl,--wrap=sqlite3_step: the store's every step passes through here.
 * Once a games row of a file named fail_name is inserted, that game's
 * upload row fails (after the games row and more were written), fail_left
 * times (-1: always). */
static const char *fail_name;
static int fail_left;
static bool failing;

int __real_sqlite3_step(sqlite3_stmt *st);
int __wrap_sqlite3_step(sqlite3_stmt *st);
int __wrap_sqlite3_step(sqlite3_stmt *st)
{
    const char *sql = fail_name ? sqlite3_sql(st) : NULL;
    if (sql && strncmp(sql, "INSERT INTO games (", 19) == 0) {
        char *x = sqlite3_expanded_sql(st);
        failing = x && strstr(x, fail_name) && fail_left != 0;
        sqlite3_free(x);
    } else if (sql && failing &&
               strncmp(sql, "INSERT INTO game_raw ", 21) == 0) {
        failing = false;
        fail_left -= fail_left > 0;
        return SQLITE_CONSTRAINT;
    }
    return __real_sqlite3_step(st);
}

enum { REDO_N = 10 };

/* Ten distinct samples; item changed (if >= 0) reads other bytes from its
 * second read on. */
struct redo {
    struct buf raw[REDO_N];
    char name[REDO_N][16];
    int reads[REDO_N];
    int changed;
    size_t n_done;
    enum status st[REDO_N];
    int64_t id[REDO_N];
    bool taken_back[REDO_N];
};

static enum status redo_read(void *ctx, size_t i, struct buf *data,
                             const char **name, struct err *e)
{
    struct redo *r = ctx;
    (void)e;
    *name = r->name[i];
    buf_append(data, r->raw[i].p, r->raw[i].len);
    if (r->reads[i]++ > 0 && (int)i == r->changed)
        buf_puts(data, " "); /* the same game, other bytes */
    return ST_OK;
}

static void redo_done(void *ctx, size_t i, enum status st,
                      const struct ingest_result *res, const struct err *e)
{
    struct redo *r = ctx;
    (void)e;
    assert_int_equal(i, r->n_done);
    r->st[i] = st;
    r->id[i] = res->id;
    r->n_done++;
}

static void redo_taken_back(void *ctx, size_t first, size_t last,
                            const struct err *e)
{
    struct redo *r = ctx;
    assert_non_null(strstr(e->msg, "changed"));
    for (size_t i = first; i <= last; i++)
        r->taken_back[i] = true;
}

/* Ten samples in batches of 4 over two workers, item fail failing
 * halfway through its write fail_times times (-1: always). */
static void run_redo(struct fixture *fx, struct redo *r, int fail, int times,
                     int changed)
{
    static const char *const names[REDO_N] = {
        "c2-2p.jcz", "c2-5p.jcz", "c3-4p-abbots.jcz", "tiny-city.jcz",
        "flier-returns.jcz", "count-c2-4p.jcz", "river-c2-4p.jcz",
        "inns-c2-3p.jcz", "phantom-c3-3p.jcz", "bigbox-c2-4p.jcz" };
    memset(r, 0, sizeof *r);
    for (int k = 0; k < REDO_N; k++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", FLIERD_SAMPLES_DIR, names[k]);
        slurp(path, &r->raw[k]);
        snprintf(r->name[k], sizeof r->name[k], "item-%d", k);
    }
    r->changed = changed;
    fail_name = r->name[fail];
    fail_left = times;
    struct ingest_source src = { REDO_N, "cli", 7, r, redo_read, redo_done,
                                 redo_taken_back };
    ingest_pipeline(fx->s, &src, 2, 4);
    fail_name = NULL;
    failing = false;
    for (int k = 0; k < REDO_N; k++)
        buf_release(&r->raw[k]);
    assert_int_equal(r->n_done, REDO_N);
}

/* The store holds n games, ids ascending in input order, and its check
 * finds every aggregate whole. */
static void expect_stored(struct fixture *fx, const struct redo *r, int n)
{
    struct store_counts c;
    struct buf report = BUF_INIT;
    struct err e;
    int problems = -1;
    assert_int_equal(store_counts(fx->s, &c, &e), ST_OK);
    assert_int_equal(c.total, n);
    assert_int_equal(store_check(fx->s, &report, &problems, &e), ST_OK);
    if (problems != 0)
        fail_msg("check: %s", report.p);
    buf_release(&report);
    int64_t last = 0;
    for (int i = 0; i < REDO_N; i++)
        if (r->st[i] == ST_OK && !r->taken_back[i]) {
            assert_true(r->id[i] > last);
            last = r->id[i];
        }
}

/* Item 6 always fails halfway: the batch (items 4-7) is rolled back,
 * items 4 and 5 are read and written again, item 6 fails alone and 7
 * and the last batch are stored as ever. */
static void test_pipeline_rewrites_a_lost_batch(void **state)
{
    struct fixture *fx = *state;
    struct redo r;
    run_redo(fx, &r, 6, -1, -1);
    for (int i = 0; i < REDO_N; i++) {
        assert_int_equal(r.st[i], i == 6 ? ST_DB : ST_OK);
        assert_int_equal(r.reads[i], i == 4 || i == 5 ? 2 : 1);
        assert_false(r.taken_back[i]);
    }
    expect_stored(fx, &r, REDO_N - 1);
}

/* Item 5 fails halfway once: written again it is stored. Item 4 reads
 * other bytes the second time: it is taken back, not written. */
static void test_pipeline_rewrite_checks_the_bytes(void **state)
{
    struct fixture *fx = *state;
    struct redo r;
    run_redo(fx, &r, 5, 1, 4);
    for (int i = 0; i < REDO_N; i++) {
        assert_int_equal(r.st[i], ST_OK);
        assert_int_equal(r.taken_back[i], i == 4);
    }
    assert_int_equal(r.reads[4], 2);
    assert_int_equal(r.reads[5], 1); /* its job was kept */
    expect_stored(fx, &r, REDO_N - 1);
}

/* ---- games of other expansions --------------------------------------- */

/* A re-audit's progress calls: how many, and the last (done, total). */
static void note_progress(void *ctx, size_t done, size_t total)
{
    size_t *seen = ctx;
    seen[0]++;
    seen[1] = done;
    seen[2] = total;
}

static void test_unsupported_is_kept(void **state)
{
    struct fixture *fx = *state;
    struct ingest_result res, again;
    struct buf b = BUF_INIT;
    struct err e;
    assert_int_equal(ingest_bytes(fx->s, MAGE_JCZ, sizeof MAGE_JCZ - 1,
                                  "cli", "mage.jcz", 5, &res, &e), ST_OK);
    assert_true(res.id > 0);
    assert_true(res.unsupported);
    assert_false(res.duplicate);
    assert_false(res.valid);
    assert_string_equal(res.reason, "unsupported: The Catapult (tile set "
                        "'catapult:1' in setup.sets) is not audited yet");
    assert_int_equal(ingest_bytes(fx->s, MAGE_JCZ, sizeof MAGE_JCZ - 1,
                                  "http", NULL, 6, &again, &e), ST_OK);
    assert_true(again.duplicate);
    assert_true(again.unsupported);
    assert_int_equal(again.id, res.id);
    /* no replay without an engine for it: a conflict, not a failure */
    assert_int_equal(ingest_replay(fx->s, res.id, NULL, &b, &e), ST_CONFLICT);
    assert_non_null(strstr(e.msg, "The Catapult"));
    assert_int_equal(b.len, 0);
    /* what is not a game log at all is still refused */
    static const char odd[] = "{\"neither\": 1}";
    assert_int_equal(ingest_bytes(fx->s, odd, sizeof odd - 1, "cli", NULL, 7,
                                  &res, &e), ST_PARSE);
    /* nor is a live game started without an engine to referee it */
    static const char header[] =
        "{\"format\": \"flierlog/1\", \"edition\": \"C2\", \"sets\": "
        "{\"basic:1\": 1, \"catapult:1\": 1}, \"players\": [{\"name\": "
        "\"Ada\"}, {\"name\": \"Cy\"}]}";
    int64_t live = 0;
    assert_int_equal(ingest_live_start(fx->s, header, sizeof header - 1, 8,
                                       &live, &e), ST_UNSUPPORTED);
    assert_int_equal(live, 0);
    /* a re-audit by this engine leaves it as it is */
    int games = 0, changed = 0, unsupported = 0;
    size_t seen[3] = { 0, 0, 0 }; /* calls, last done, last total */
    assert_int_equal(ingest_reaudit(fx->s, &b, &games, &changed,
                                    &unsupported, note_progress, seen, &e),
                     ST_OK);
    assert_int_equal(seen[0], 1);
    assert_int_equal(seen[1], 1);
    assert_int_equal(seen[2], 1);
    assert_int_equal(games, 1);
    assert_int_equal(changed, 0);
    assert_int_equal(unsupported, 1);
    buf_release(&b);
}

static const cJSON *member(const cJSON *o, const char *a, const char *b)
{
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, a);
    if (x && b)
        x = cJSON_GetObjectItemCaseSensitive(x, b);
    if (!x)
        fail_msg("no %s.%s", a, b ? b : "");
    return x;
}

static cJSON *player_json(struct store *s, const char *name)
{
    struct buf b = BUF_INIT;
    struct err e;
    if (store_player_json(s, name, &b, &e) != ST_OK)
        fail_msg("player %s: %s", name, e.msg);
    cJSON *j = cJSON_Parse(b.p);
    assert_non_null(j);
    buf_release(&b);
    return j;
}

/* Each seat's "points" holds exactly the feature kinds its events named,
 * with their sums; "by_figure" its flights by the figure that flew. */
static void check_seat(struct store *s, const struct game_log *log,
                       const struct report *rep, int p)
{
    int pts[FEAT__CLASSES] = { 0 }, n_pts = 0;
    bool scored[FEAT__CLASSES] = { false };
    int flights[FIG__COUNT] = { 0 }, landed[FIG__COUNT] = { 0 }, n_figs = 0;
    for (size_t i = 0; i < rep->n_events; i++)
        if (rep->events[i].players >> p & 1) {
            pts[rep->events[i].feature] += rep->events[i].points;
            n_pts += !scored[rep->events[i].feature];
            scored[rep->events[i].feature] = true;
        }
    for (size_t i = 0; i < rep->n_flights; i++)
        if (rep->flights[i].player == p) {
            n_figs += flights[rep->flights[i].figure]++ == 0;
            landed[rep->flights[i].figure] += rep->flights[i].landed;
        }
    cJSON *j = player_json(s, log->names[p]);
    const cJSON *pj = member(j, "points", NULL), *fj = member(j, "by_figure",
                                                              NULL);
    assert_int_equal(cJSON_GetArraySize(pj), n_pts);
    assert_int_equal(cJSON_GetArraySize(fj), n_figs);
    for (int f = 0; f < FEAT__CLASSES; f++)
        if (scored[f])
            assert_int_equal(member(pj, feat_name(f), NULL)->valueint,
                             pts[f]);
    for (int k = 0; k < FIG__COUNT; k++) {
        if (!flights[k])
            continue;
        const cJSON *x = member(fj, figure_class(k)->jcz, NULL);
        assert_int_equal(member(x, "flights", NULL)->valueint, flights[k]);
        assert_int_equal(member(x, "landed", NULL)->valueint, landed[k]);
    }
    cJSON_Delete(j);
}

/* Inns & Cathedrals with the large follower (a big flight among small
 * ones), from the peer corpus, read where it lies. */
static void test_expansion_game_rows(void **state)
{
    struct fixture *fx = *state;
    static const char path[] =
        FLIERD_SHARED_DIR "/peer/jcz/expansions/ic/ic-dev-001.jcz";
    struct buf raw = BUF_INIT, b = BUF_INIT;
    struct ingest_result res;
    struct err e;
    struct game_log log;
    struct report rep;
    enum mlog_format fmt;
    if (access(path, R_OK) != 0)
        fail_msg("%s: not readable (the peer corpus is read in place from "
                 "FLIERD_SHARED_DIR)", path);
    slurp(path, &raw);
    assert_int_equal(ingest_bytes(fx->s, raw.p, raw.len, "cli",
                                  "ic-dev-001.jcz", 9, &res, &e), ST_OK);
    assert_false(res.unsupported);
    assert_true(res.valid);
    game_log_init(&log);
    assert_int_equal(mlog_parse(raw.p, raw.len, &log, &fmt, &e), ST_OK);
    audit_run(&log, NULL, &rep, NULL);
    bool big = false;
    for (size_t i = 0; i < rep.n_flights; i++)
        big = big || rep.flights[i].figure == FIG_BIG;
    assert_true(big);
    for (int p = 0; p < log.rules.n_players; p++)
        check_seat(fx->s, &log, &rep, p);

    assert_int_equal(store_game_json(fx->s, res.id, &b, &e), ST_OK);
    cJSON *j = cJSON_Parse(b.p);
    assert_non_null(j);
    const cJSON *xs = member(j, "expansions", NULL), *x;
    bool inns = false;
    cJSON_ArrayForEach(x, xs)
        inns = inns || strcmp(x->valuestring, "inns") == 0;
    assert_true(inns);
    assert_int_equal(member(j, "elements", "big-follower")->valueint, 1);
    assert_true(cJSON_IsTrue(member(j, "elements", "inn")));
    assert_string_equal(member(j, "status", NULL)->valuestring, "audited");
    cJSON_Delete(j);
    b.len = 0;
    assert_int_equal(store_stats_json(fx->s, &b, &e), ST_OK);
    j = cJSON_Parse(b.p);
    assert_int_equal(member(member(j, "flier", "by_figure"), "big",
                            "flights")->valueint, 1);
    assert_int_equal(member(member(j, "games", "by_expansion"), "inns",
                            NULL)->valueint, 1);
    cJSON_Delete(j);
    struct game_filter f = { .verdict = -1, .finished = -1,
                             .expansion = "inns" };
    b.len = 0;
    assert_int_equal(store_list_games(fx->s, &f, &b, &e), ST_OK);
    assert_non_null(strstr(b.p, "\"total\":1,"));
    int problems = -1;
    b.len = 0;
    assert_int_equal(store_check(fx->s, &b, &problems, &e), ST_OK);
    assert_int_equal(problems, 0);
    report_release(&rep);
    game_log_release(&log);
    buf_release(&raw);
    buf_release(&b);
}

/* What store_each_upload() hands out, kept past the call. */
struct kept {
    char name[32], source[16];
    int64_t uploaded_at;
    int verdict;
    bool live;
};

static int keep_upload(void *ctx, const struct stored_upload *u)
{
    struct kept *k = (struct kept *)ctx + u->index;
    snprintf(k->name, sizeof k->name, "%s", u->name ? u->name : "(null)");
    snprintf(k->source, sizeof k->source, "%s", u->source);
    k->uploaded_at = u->uploaded_at;
    k->verdict = u->verdict;
    k->live = u->live;
    return 0;
}

/* A game of another database (flierd copy) keeps what it was stored
 * with: name, source, upload time, and the live flag unless this engine
 * cannot audit it; an upload stored already is a duplicate. */
static void test_prepare_stored_keeps_the_upload(void **state)
{
    struct fixture *fx = *state;
    static const char header[] =
        "{\"format\": \"flierlog/1\", \"edition\": \"C2\", \"players\": "
        "[{\"name\": \"Ada\"}, {\"name\": \"Ben\"}]}\n";
    struct stored_upload live = { 7, header, sizeof header - 1, "live",
                                  "flierlog", NULL, "live", 1700000000,
                                  VERDICT_VALID, true, 0, 3 };
    struct stored_upload mage = { 8, MAGE_JCZ, sizeof MAGE_JCZ - 1,
                                  "mage.jcz", "jcz", NULL, "http", 1700000100,
                                  VERDICT_UNSUPPORTED, true, 1, 3 };
    const struct stored_upload *in[] = { &live, &mage, &mage };
    struct ingest_result res[3];
    struct kept k[2];
    struct err e;
    for (int i = 0; i < 3; i++) {
        struct ingest_job *job = NULL;
        assert_int_equal(ingest_prepare_stored(in[i], &job, &e), ST_OK);
        assert_int_equal(ingest_commit(fx->s, job, &res[i], &e), ST_OK);
        ingest_job_free(job);
    }
    assert_false(res[0].duplicate);
    assert_false(res[1].duplicate);
    assert_true(res[1].unsupported);
    assert_true(res[2].duplicate);
    assert_int_equal(res[2].id, res[1].id);
    memset(k, 0, sizeof k);
    assert_int_equal(store_each_upload(fx->s, keep_upload, k, &e), ST_OK);
    assert_string_equal(k[0].name, "live");
    assert_string_equal(k[0].source, "live");
    assert_int_equal(k[0].uploaded_at, 1700000000);
    assert_int_equal(k[0].verdict, VERDICT_VALID);
    assert_true(k[0].live);
    assert_string_equal(k[1].name, "mage.jcz");
    assert_string_equal(k[1].source, "http");
    assert_int_equal(k[1].uploaded_at, 1700000100);
    assert_int_equal(k[1].verdict, VERDICT_UNSUPPORTED);
    assert_false(k[1].live); /* nobody referees it turn by turn */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(
            test_replay_deltas_rebuild_every_board, setup, teardown),
        cmocka_unit_test_setup_teardown(test_replay_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_replay_is_deterministic, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_pipeline_keeps_order, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_unsupported_is_kept, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_expansion_game_rows, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_prepare_stored_keeps_the_upload,
                                        setup, teardown),
    };
    /* the failures injected into sqlite3_step (PostgreSQL keeps its
     * savepoints: no batch is lost there) */
    const struct CMUnitTest sqlite_only[] = {
        cmocka_unit_test_setup_teardown(test_pipeline_rewrites_a_lost_batch,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(
            test_pipeline_rewrite_checks_the_bytes, setup, teardown),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    if (!test_db_pg())
        failed += cmocka_run_group_tests(sqlite_only, NULL, NULL);
    return failed;
}
