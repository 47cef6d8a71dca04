/* test_store_check.c - store_check() (`flierd check`) finds every kind
 * of damage it claims to: a database of the samples (and of a game the
 * engine cannot audit yet) is checked whole, then copies of it are
 * damaged one way each (behind the store's back, with SQLite directly)
 * and each damage must be reported in words that name the table and the
 * game or aggregate row.
 *
 * And the migrations: a database at user_version 2 (schema/001 and 002,
 * with rows as the store wrote them before migration 003) opened by this
 * store is migrated, found whole, answers as before, and `flierd
 * reaudit` fills in what the old rows could not say.
 *
 * And one query plan (white-box, the backend's private header): the
 * writer's digest lookup, which dedupes uploads, must SEARCH the index
 * of schema/008, not scan it. */
#include <stdarg.h> /* cmocka 1.1.5 needs these four first */
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "core/audit.h"
#include "ingest/ingest.h"
#include "mlog/mlog.h"
#include "store/sqlite_int.h"
#include "store/store.h"
#include "util/sha256.h"

/* A .jcz of The Catapult, which this engine does not audit yet. */
static const char MAGE_JCZ[] =
    "{\"appVersion\":\"5.12.1\",\"setup\":{\"sets\":{\"basic:1\":1,"
    "\"catapult:1\":1,\"flier:1\":1},\"elements\":{\"small-follower\":7,"
    "\"farmers\":true,\"catapult\":true},\"rules\":{},\"start\":[{\"tile\":"
    "\"BA/RCr\",\"x\":0,\"y\":0,\"rotation\":0}]},\"players\":[{\"name\":"
    "\"Ada\",\"slot\":0},{\"name\":\"Ben\",\"slot\":1}],\"replay\":[]}";

static const char *const samples[] = {
    "c2-2p.jcz",        "c2-5p.jcz",         "c3-4p-abbots.jcz",
    "flier-returns.jcz", "tiny-city.jcz",    "disputed.flierlog",
    "forged/forged-wrong-target.jcz",
};

static char dir[64], pristine[128];

static void read_file(const char *path, struct buf *b)
{
    FILE *f = fopen(path, "rb");
    char chunk[8192];
    size_t n;
    assert_non_null(f);
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        buf_append(b, chunk, n);
    fclose(f);
}

static void copy_file(const char *from, const char *to)
{
    struct buf b = BUF_INIT;
    read_file(from, &b);
    FILE *f = fopen(to, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(b.p, 1, b.len, f), b.len);
    fclose(f);
    buf_release(&b);
}

static int setup(void **state)
{
    struct store *s = NULL;
    struct err e;
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/flierd-check-XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    snprintf(pristine, sizeof pristine, "%s/pristine.db", dir);
    if (store_open(pristine, false, &s, &e) != ST_OK)
        return -1;
    for (size_t i = 0; i < sizeof samples / sizeof *samples; i++) {
        char path[512];
        struct buf b = BUF_INIT;
        struct ingest_result res;
        snprintf(path, sizeof path, "%s/%s", FLIERD_SAMPLES_DIR, samples[i]);
        read_file(path, &b);
        enum status st = ingest_bytes(s, b.p, b.len, "cli", samples[i],
                                      1700000000 + (int64_t)i, &res, &e);
        buf_release(&b);
        if (st != ST_OK || res.id != (int64_t)i + 1)
            return -1;
    }
    /* game 8: stored, not audited */
    struct ingest_result res;
    if (ingest_bytes(s, MAGE_JCZ, sizeof MAGE_JCZ - 1, "cli", "mage.jcz",
                     1700000100, &res, &e) != ST_OK ||
        !res.unsupported || res.id != 8)
        return -1;
    store_close(s); /* the last connection: the WAL goes into the file */
    return 0;
}

static int teardown(void **state)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    (void)state;
    while (d && (de = readdir(d)) != NULL) {
        char p[512];
        snprintf(p, sizeof p, "%s/%s", dir, de->d_name);
        if (de->d_name[0] != '.')
            unlink(p);
    }
    if (d)
        closedir(d);
    rmdir(dir);
    return 0;
}

/* Checks a copy of the pristine database damaged by sql (NULL: none). */
static int check_copy(const char *sql, struct buf *report)
{
    static int n;
    char path[160];
    struct store *s = NULL;
    struct err e;
    int problems = -1;
    snprintf(path, sizeof path, "%s/case%d.db", dir, n++);
    copy_file(pristine, path);
    if (sql) {
        sqlite3 *db = NULL;
        char *msg = NULL;
        assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
        if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK)
            fail_msg("%s: %s", sql, msg);
        sqlite3_close(db);
    }
    assert_int_equal(store_open(path, true, &s, &e), ST_OK);
    assert_int_equal(store_check(s, report, &problems, &e), ST_OK);
    store_close(s);
    return problems;
}

static void test_whole(void **state)
{
    struct buf r = BUF_INIT;
    (void)state;
    assert_int_equal(check_copy(NULL, &r), 0);
    /* (how many tables reference games is the schema's business) */
    assert_int_equal(strncmp(r.p, "8 games, 8 uploads hashed, ", 27), 0);
    assert_non_null(strstr(r.p, " tables of games, 8 aggregate tables: "
                                "0 problems\n"));
    buf_release(&r);
}

static const struct {
    const char *damage, *report;
} cases[] = {
    { "DELETE FROM game_raw WHERE game_id = 2",
      "1 games have no row in game_raw (the first: game 2)" },
    { "DELETE FROM game_report WHERE game_id = 3",
      "1 audited games have no row in game_report (the first: game 3)" },
    { "DELETE FROM game_expansions WHERE game_id = 2",
      "1 audited games have no row in game_expansions (the first: game 2)" },
    { "DELETE FROM game_raw WHERE game_id = 8",
      "1 games have no row in game_raw (the first: game 8)" },
    { "INSERT INTO game_report (game_id, json) VALUES (8, '{}')",
      "1 unsupported games have rows in game_report (the first: game 8)" },
    { "INSERT INTO game_expansions VALUES (8, 'base')",
      "1 unsupported games have rows in game_expansions (the first: "
      "game 8)" },
    { "INSERT INTO game_player_points VALUES (1, 5, 'road', 1, 3)",
      "table game_player_points: 1 rows name no seat of their game, or "
      "another player than the seat's (the first: game 1)" },
    { "UPDATE game_player_points SET player_id = 2 WHERE game_id = 1 "
      "AND seat = 0",
      "table game_player_points: " },
    { "UPDATE game_entry SET entry = replace(entry, '\"turns\":', "
      "'\"turns\":1') WHERE game_id = 3",
      "1 games have a list entry other than their rows render (the first: "
      "game 3)" },
    { "DELETE FROM game_entry WHERE game_id = 1",
      "1 games have no row in game_entry (the first: game 1)" },
    { "DELETE FROM game_search WHERE rowid = 4",
      "1 games have no row in game_search (the first: game 4)" },
    { "DELETE FROM game_players WHERE game_id = 5 AND seat = 1",
      "1 games have not one game_players row per seat (the first: game 5)" },
    { "UPDATE game_raw SET raw = CAST(raw || ' ' AS BLOB) WHERE game_id = 6",
      "game 6: the stored upload (" },
    { "UPDATE game_report SET json = substr(json, 1, 30) WHERE game_id = 7",
      "game 7: the stored audit (30 bytes) cannot be read: " },
    { "UPDATE games SET sha256 = (SELECT sha256 FROM games WHERE id = 1) "
      "WHERE id = 2",
      "games 1 and 2: one upload (sha256 " },
    { "UPDATE games SET raw_size = raw_size + 1 WHERE id = 1",
      "game 1: the stored upload has " },
    { "DELETE FROM games WHERE id = 2",
      "table game_raw: 1 rows belong to no game (the first: game 2)" },
    { "INSERT INTO violations VALUES (999, 0, 1, 0, 'TILE_OCCUPIED', 0, 'x')",
      "table violations: 1 rows belong to no game (the first: game 999)" },
    { "INSERT INTO game_search (rowid, text) VALUES (4242, 'ghost')",
      "table game_search: 1 rows belong to no game (the first: game 4242)" },
    { "UPDATE game_players SET player_id = 77777 WHERE game_id = 1 "
      "AND seat = 0",
      "table game_players: 1 rows point to no row of players" },
    { "UPDATE game_totals SET n = n + 1 WHERE edition = 'C2' AND valid = 1 "
      "AND finished = 1 AND live = 0",
      "table game_totals, status audited, edition C2, valid 1, finished 1, "
      "live 0: differs from the sums over games" },
    { "UPDATE game_totals SET n = n + 1 WHERE status = 'unsupported'",
      "table game_totals, status unsupported, edition , valid -1, "
      "finished -1, live 0: differs from the sums over games" },
    { "UPDATE expansion_totals SET n = n - 1 WHERE expansion = 'flier'",
      "table expansion_totals, expansion flier: differs from the sums over "
      "game_expansions" },
    { "UPDATE player_points SET points = points + 1 WHERE player_id = 1 "
      "AND feature = 'road'",
      "table player_points, player_id 1, feature road: differs from the "
      "sums over game_player_points" },
    { "DROP TRIGGER game_player_points_ad; DELETE FROM game_player_points "
      "WHERE game_id = 1 AND seat = 0 AND feature = 'city'",
      "table player_points, player_id 1, feature city: differs from the "
      "sums over game_player_points" },
    { "UPDATE player_figures SET landed = landed + 1",
      "table player_figures, player_id " },
    { "UPDATE player_totals SET wins = wins + 1 WHERE player_id = 1",
      "table player_totals, player_id 1: differs from the sums over "
      "game_players" },
    { "UPDATE player_totals SET best = best + 1 WHERE player_id = 1",
      "table player_totals: 1 players' best differs from their best "
      "finished score in game_players (the first: player_id 1)" },
    { "UPDATE score_hist SET n = n + 1",
      "table score_hist, bucket " },
    { "UPDATE flight_totals SET landed = landed + 1",
      "table flight_totals, roll " },
    { "UPDATE flights SET figure = 'big' WHERE game_id = 1 AND idx = 0",
      "differs from the sums over flights" },
    /* the luck's sums (schema/011) */
    { "UPDATE flight_totals SET thirds = thirds + 3",
      "table flight_totals, roll " },
    { "UPDATE flights SET points = points + 4 WHERE game_id = 1 AND idx = 0",
      "differs from the sums over flights" },
    { "DELETE FROM rule_totals",
      "table rule_totals, rule FLIER_WRONG_TARGET: differs from the sums "
      "over violations" },
    { "DROP TABLE game_entry", "table game_entry is missing" },
    /* an index that no longer matches its table: SQLite's own check */
    { "PRAGMA writable_schema = ON; UPDATE sqlite_master SET sql = "
      "'CREATE INDEX games_by_turns ON games (n_players, id)' "
      "WHERE name = 'games_by_turns'",
      "integrity_check: " },
};

static void test_damage(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct buf r = BUF_INIT;
        int problems = check_copy(cases[i].damage, &r);
        if (problems < 1 || !strstr(r.p, cases[i].report))
            fail_msg("after %s:\nwant '%s' in:\n%s", cases[i].damage,
                     cases[i].report, r.p);
        buf_release(&r);
    }
}

/* ---- migrating a database at user_version 2 --------------------------- */

static void exec_sql(sqlite3 *db, const char *sql)
{
    char *msg = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK)
        fail_msg("%.200s: %s", sql, msg);
}

/* An upload as the v2 store kept it: games row, raw, report, entry and
 * search text (the seats and flights come apart). */
static void v2_game(sqlite3 *db, int id, const char *file, const char *cols)
{
    char path[512], sha[SHA256_HEX_LEN];
    struct buf raw = BUF_INIT;
    sqlite3_stmt *st = NULL;
    snprintf(path, sizeof path, "%s/%s", FLIERD_SAMPLES_DIR, file);
    read_file(path, &raw);
    sha256_hex(raw.p, raw.len, sha);
    char *sql = sqlite3_mprintf(
        "INSERT INTO games (id, sha256, format, source, name, uploaded_at, "
        "raw_size, engine, live, edition, sets, followers, abbots, farmers, "
        "gardens, tiny_city, n_players, valid, finished, halted, turns, "
        "tiles_left, n_violations, n_flights, best_score) VALUES (%d, %Q, "
        "'jcz', 'http', %Q, %d, %lld, 'flierd 0.2.0', 0, %s);"
        "INSERT INTO game_report VALUES (%d, '{\"valid\": true}');"
        "INSERT INTO game_entry VALUES (%d, '[]', '[]');"
        "INSERT INTO game_search (rowid, text) VALUES (%d, %Q);",
        id, sha, file, 1000 * id, (long long)raw.len, cols, id, id, id,
        file);
    exec_sql(db, sql);
    sqlite3_free(sql);
    assert_int_equal(sqlite3_prepare_v2(db, "INSERT INTO game_raw VALUES "
                                        "(?1, ?2)", -1, &st, NULL),
                     SQLITE_OK);
    sqlite3_bind_int(st, 1, id);
    sqlite3_bind_blob(st, 2, raw.p, (int)raw.len, SQLITE_TRANSIENT);
    assert_int_equal(sqlite3_step(st), SQLITE_DONE);
    sqlite3_finalize(st);
    buf_release(&raw);
}

/* Two games as the store kept them before migration 003, its triggers
 * keeping the sums: c2-2p.jcz (valid, two flights) and c3-4p-abbots.jcz
 * (stored invalid, a violation, an abbot and gardens). The numbers are
 * the old columns', not the audit's: the migration moves what is there. */
static const char V2_ROWS[] =
    "INSERT INTO players (id, name) VALUES (1, 'Ada'), (2, 'Ben'), "
    "(3, 'Cleo'), (4, 'Dov');"
    /* game_id, seat, player_id, color, score, rank, claimed, finished,
     * winner, pts_road/city/field/monastery/garden, flights, landed,
     * returned, forced, flier_points, rolls1..3 */
    "INSERT INTO game_players VALUES "
    "(1, 0, 1, NULL, 21, 2, NULL, 1, 0, 5, 10, 0, 6, 0, 1, 0, 1, 1, 0, "
    "0, 0, 1),"
    "(1, 1, 2, NULL, 25, 1, NULL, 1, 1, 4, 12, 9, 0, 0, 1, 1, 0, 0, 3, "
    "1, 0, 0),"
    "(2, 0, 1, NULL, 27, 2, NULL, 1, 0, 10, 17, 0, 0, 0, 0, 0, 0, 0, 0, "
    "0, 0, 0),"
    "(2, 1, 2, NULL, 33, 1, NULL, 1, 1, 8, 16, 0, 0, 9, 0, 0, 0, 0, 0, "
    "0, 0, 0),"
    "(2, 2, 3, NULL, 22, 4, NULL, 1, 0, 2, 20, 0, 0, 0, 0, 0, 0, 0, 0, "
    "0, 0, 0),"
    "(2, 3, 4, NULL, 27, 2, NULL, 1, 0, 7, 14, 6, 0, 0, 0, 0, 0, 0, 0, "
    "0, 0, 0);"
    "INSERT INTO flights VALUES "
    "(1, 0, 5, 0, 1, 0, 'E', 0, 3, 0, 4, 0, 'returned', NULL, 0, '[]', "
    "0, 1, 0),"
    "(1, 1, 24, 1, 2, 2, 'NW', 1, 1, 0, 1, 1, 'landed', 'road:WE', 1, "
    "'[\"road:WE\"]', 1, 0, 1);"
    "INSERT INTO violations VALUES (2, 0, 12, 1, 'TILE_EDGE_MISMATCH', 40, "
    "'forged');";

static void make_v2(const char *path)
{
    static const char *const files[] = { "001_init.sql", "002_lean.sql" };
    sqlite3 *db = NULL;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    exec_sql(db, "PRAGMA foreign_keys = ON; BEGIN");
    for (int i = 0; i < 2; i++) {
        char p[512];
        struct buf sql = BUF_INIT;
        snprintf(p, sizeof p, "%s/../schema/%s", FLIERD_SAMPLES_DIR,
                 files[i]);
        read_file(p, &sql);
        buf_append(&sql, "", 1);
        exec_sql(db, sql.p);
        buf_release(&sql);
    }
    v2_game(db, 1, "c2-2p.jcz",
            "'C2', '{\"basic:1\":1,\"flier:1\":1}', 7, 0, 1, 0, 4, 2, 1, 1, "
            "0, 35, 0, 0, 2, 25");
    v2_game(db, 2, "c3-4p-abbots.jcz",
            "'C3', '{\"basic:2\":1,\"flier:2\":1}', 7, 1, 1, 1, 4, 4, 0, 1, "
            "0, 79, 0, 1, 0, 33");
    exec_sql(db, V2_ROWS);
    exec_sql(db, "PRAGMA user_version = 2; COMMIT");
    sqlite3_close(db);
}

static cJSON *read_json(struct store *s, int what, const char *name)
{
    struct buf b = BUF_INIT;
    struct err e;
    struct game_filter f = { .verdict = -1, .finished = -1 };
    enum status st = what == 0   ? store_stats_json(s, &b, &e)
                     : what == 1 ? store_player_json(s, name, &b, &e)
                     : what == 2 ? store_game_json(s, 2, &b, &e)
                                 : store_list_games(s, &f, &b, &e);
    if (st != ST_OK)
        fail_msg("read %d: %s", what, e.msg);
    cJSON *j = cJSON_Parse(b.p);
    assert_non_null(j);
    buf_release(&b);
    return j;
}

static const cJSON *at(const cJSON *j, const char *a, const char *b)
{
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(j, a);
    if (x && b)
        x = cJSON_GetObjectItemCaseSensitive(x, b);
    if (!x)
        fail_msg("no %s.%s", a, b ? b : "");
    return x;
}

static int64_t total(struct store *s, const char *status,
                     const char *expansion, int verdict)
{
    struct buf b = BUF_INIT;
    struct err e;
    struct game_filter f = { .verdict = verdict, .finished = -1,
                             .status = status, .expansion = expansion };
    assert_int_equal(store_list_games(s, &f, &b, &e), ST_OK);
    cJSON *j = cJSON_Parse(b.p);
    int64_t n = (int64_t)at(j, "total", NULL)->valuedouble;
    cJSON_Delete(j);
    buf_release(&b);
    return n;
}

static void expect_whole(struct store *s, int64_t games)
{
    struct buf r = BUF_INIT;
    struct err e;
    int problems = -1;
    char head[64];
    assert_int_equal(store_check(s, &r, &problems, &e), ST_OK);
    if (problems != 0)
        fail_msg("migrated database: %s", r.p);
    snprintf(head, sizeof head, "%lld games, %lld uploads hashed",
             (long long)games, (long long)games);
    assert_non_null(strstr(r.p, head));
    buf_release(&r);
}

/* SQLite substitutes the digest of "sha256 = ?1" into substr(sha256,
 * ...) and then scans the whole index: each upload would read it all. */
static void test_find_sha_searches(void **state)
{
    (void)state;
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    struct buf plan = BUF_INIT;
    assert_int_equal(sqlite3_open_v2(pristine, &db, SQLITE_OPEN_READONLY,
                                     NULL),
                     SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(db,
                                        "EXPLAIN QUERY PLAN " SQ_FIND_SHA_SQL,
                                        -1, &st, NULL),
                     SQLITE_OK);
    while (sqlite3_step(st) == SQLITE_ROW)
        buf_printf(&plan, "%s\n", (const char *)sqlite3_column_text(st, 3));
    sqlite3_finalize(st);
    sqlite3_close(db);
    if (!strstr(plan.p ? plan.p : "",
                "SEARCH games USING INDEX games_by_sha_prefix (<expr>=?)"))
        fail_msg("the digest lookup's plan:\n%s", plan.p ? plan.p : "");
    buf_release(&plan);
}

static void expect_number(const cJSON *x, double want)
{
    assert_non_null(x);
    if (!cJSON_IsNumber(x) || x->valuedouble < want - 0.005 ||
        x->valuedouble > want + 0.005)
        fail_msg("want %.2f, got %.4f", want, x->valuedouble);
}

/* The points of the flights of the two v2 games as the engine audits
 * them now. */
static int flight_points(void)
{
    static const char *const files[] = { "c2-2p.jcz", "c3-4p-abbots.jcz" };
    int sum = 0;
    for (int i = 0; i < 2; i++) {
        char path[512];
        struct buf raw = BUF_INIT;
        struct game_log log;
        struct report rep;
        struct err e;
        enum mlog_format fmt;
        snprintf(path, sizeof path, "%s/%s", FLIERD_SAMPLES_DIR, files[i]);
        read_file(path, &raw);
        game_log_init(&log);
        assert_int_equal(mlog_parse(raw.p, raw.len, &log, &fmt, &e), ST_OK);
        audit_run(&log, NULL, &rep, NULL);
        for (size_t k = 0; k < rep.n_flights; k++)
            sum += rep.flights[k].points;
        report_release(&rep);
        game_log_release(&log);
        buf_release(&raw);
    }
    return sum;
}

static void test_migrates_v2(void **state)
{
    char path[160];
    struct store *s = NULL;
    struct err e;
    (void)state;
    snprintf(path, sizeof path, "%s/v2.db", dir);
    make_v2(path);
    /* read-only cannot migrate; read-write does, once */
    assert_int_equal(store_open(path, true, &s, &e), ST_DB);
    assert_non_null(strstr(e.msg, "version 2"));
    assert_int_equal(store_open(path, false, &s, &e), ST_OK);
    expect_whole(s, 2);

    /* the answers the v2 rows gave, from rows now */
    assert_int_equal(total(s, NULL, NULL, -1), 2);
    assert_int_equal(total(s, "audited", NULL, -1), 2);
    assert_int_equal(total(s, "unsupported", NULL, -1), 0);
    assert_int_equal(total(s, NULL, NULL, 0), 1);
    assert_int_equal(total(s, NULL, "base", -1), 2);
    assert_int_equal(total(s, NULL, "flier", -1), 2);
    assert_int_equal(total(s, NULL, "c3", 0), 1);
    cJSON *j = read_json(s, 1, "Ada");
    const cJSON *pts = at(j, "points", NULL);
    assert_int_equal(cJSON_GetArraySize(pts), 3); /* no 0-point kinds */
    assert_int_equal(at(pts, "road", NULL)->valueint, 15);
    assert_int_equal(at(pts, "city", NULL)->valueint, 27);
    assert_int_equal(at(pts, "monastery", NULL)->valueint, 6);
    assert_int_equal(at(j, "games", NULL)->valueint, 2);
    assert_int_equal(at(j, "by_figure", "unknown")->child->valueint, 1);
    assert_int_equal(at(at(j, "by_figure", "unknown"), "forced_returns",
                        NULL)->valueint, 1);
    cJSON_Delete(j);
    j = read_json(s, 1, "Ben");
    assert_int_equal(at(j, "points", "garden")->valueint, 9);
    assert_int_equal(at(j, "points", "field")->valueint, 9);
    cJSON_Delete(j);
    j = read_json(s, 0, NULL);
    assert_int_equal(at(j, "games", "valid")->valueint, 1);
    assert_int_equal(at(j, "games", "invalid")->valueint, 1);
    assert_int_equal(at(j, "games", "unsupported")->valueint, 0);
    assert_int_equal(at(at(j, "games", "by_edition"), "C3", NULL)->valueint,
                     1);
    assert_int_equal(at(at(j, "games", "by_expansion"), "c3",
                        NULL)->valueint, 1);
    assert_int_equal(at(at(j, "flier", "by_figure"), "unknown",
                        "flights")->valueint, 2);
    assert_int_equal(at(j, "flier", "flights")->valueint, 2);
    /* the luck from the v2 rows' odds (migration 011): E roll 3
     * returned, 1 roll of 3 with a landing; NW roll 1 landed, 2 of 3.
     * Points only the engine can tell: 0 until the re-audit. */
    expect_number(at(j, "flier", "expected"), 1.0);
    expect_number(at(j, "flier", "luck"), 0.0);
    expect_number(at(j, "flier", "spread"), 0.67); /* sqrt(2/9 + 2/9) */
    expect_number(at(at(j, "flier", "by_direction"), "orthogonal", "luck"),
                  -0.33);
    expect_number(at(at(j, "flier", "by_direction"), "diagonal", "spread"),
                  0.47);
    expect_number(at(j, "flier", "points"), 0);
    assert_int_equal(at(j, "violations", "total")->valueint, 1);
    cJSON_Delete(j);
    j = read_json(s, 2, NULL);
    assert_string_equal(at(j, "status", NULL)->valuestring, "audited");
    char *el = cJSON_PrintUnformatted(at(j, "elements", NULL));
    assert_string_equal(el, "{\"small-follower\":7,\"farmers\":true,"
                            "\"abbot\":1,\"garden\":true}");
    cJSON_free(el);
    assert_int_equal(cJSON_GetArraySize(at(j, "expansions", NULL)), 3);
    cJSON_Delete(j);

    /* a game of an expansion not audited yet, beside them */
    struct ingest_result res;
    assert_int_equal(ingest_bytes(s, MAGE_JCZ, sizeof MAGE_JCZ - 1, "cli",
                                  "mage.jcz", 3000, &res, &e), ST_OK);
    assert_true(res.unsupported);
    assert_non_null(strstr(res.reason, "The Catapult"));
    expect_whole(s, 3);

    /* the engine renders every game again: figures and 0-point kinds
     * known, the verdicts its own, The Catapult still unsupported */
    struct buf report = BUF_INIT;
    int games = 0, changed = 0, unsupported = 0;
    assert_int_equal(ingest_reaudit(s, &report, &games, &changed,
                                    &unsupported, NULL, NULL, &e), ST_OK);
    assert_int_equal(games, 3);
    assert_int_equal(unsupported, 1);
    assert_non_null(strstr(report.p, "game 2: invalid -> valid\n"));
    buf_release(&report);
    expect_whole(s, 3);
    j = read_json(s, 0, NULL);
    const cJSON *fig = at(j, "flier", "by_figure"), *x;
    int sum = 0;
    assert_null(cJSON_GetObjectItemCaseSensitive(fig, "unknown"));
    cJSON_ArrayForEach(x, fig)
        sum += at(x, "flights", NULL)->valueint;
    assert_int_equal(sum, at(j, "flier", "flights")->valueint);
    assert_true(sum > 0);
    assert_int_equal(at(j, "games", "unsupported")->valueint, 1);
    assert_int_equal(at(j, "games", "total")->valueint, 3);
    assert_int_equal(at(j, "games", "valid")->valueint, 2);
    /* the re-audit wrote the flights' points: what the engine gives */
    assert_int_equal(at(j, "flier", "points")->valueint, flight_points());
    assert_true(at(j, "flier", "points")->valueint > 0);
    cJSON_Delete(j);
    store_close(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_whole),
        cmocka_unit_test(test_damage),
        cmocka_unit_test(test_find_sha_searches),
        cmocka_unit_test(test_migrates_v2),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
