/* test_store_check.c - store_check() (`flierd check`) finds every kind
 * of damage it claims to: a database of the samples (and of a game the
 * engine cannot audit yet) is checked whole, then copies of it are
 * damaged one way each (behind the store's back, with SQLite directly)
 * and each damage must be reported in words that name the table and the
 * game or aggregate row. */
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

#include "ingest/ingest.h"
#include "store/store.h"

/* A .jcz of The Tower, which this engine does not audit yet. */
static const char TOWER_JCZ[] =
    "{\"appVersion\":\"5.12.1\",\"setup\":{\"sets\":{\"basic:1\":1,"
    "\"tower:1\":1,\"flier:1\":1},\"elements\":{\"small-follower\":7,"
    "\"farmers\":true,\"tower\":true},\"rules\":{},\"start\":[{\"tile\":"
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
    if (ingest_bytes(s, TOWER_JCZ, sizeof TOWER_JCZ - 1, "cli", "tower.jcz",
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
    { "INSERT INTO game_report VALUES (8, '{}')",
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
    { "DELETE FROM game_entry WHERE game_id = 1",
      "1 games have no row in game_entry (the first: game 1)" },
    { "DELETE FROM game_search WHERE rowid = 4",
      "1 games have no row in game_search (the first: game 4)" },
    { "DELETE FROM game_players WHERE game_id = 5 AND seat = 1",
      "1 games have not one game_players row per seat (the first: game 5)" },
    { "UPDATE game_raw SET raw = CAST(raw || ' ' AS BLOB) WHERE game_id = 6",
      "game 6: the stored upload (" },
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
    { "UPDATE score_hist SET n = n + 1",
      "table score_hist, bucket " },
    { "UPDATE flight_totals SET landed = landed + 1",
      "table flight_totals, roll " },
    { "UPDATE flights SET figure = 'big' WHERE game_id = 1 AND idx = 0",
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_whole),
        cmocka_unit_test(test_damage),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
