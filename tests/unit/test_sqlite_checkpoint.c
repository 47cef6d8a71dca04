/* test_sqlite_checkpoint.c - the SQLite writer's background checkpoints
 * (src/store/sqlite_checkpoint.c), white-box: the test includes the
 * backend's private header and drives a plain connection.
 *
 * Until this test, the thread's connection had never read the database,
 * so SQLite (3.40) did not know it was in WAL mode and every checkpoint
 * through it returned SQLITE_OK having copied nothing; the writer did
 * all checkpoints itself at CKPT_LIMIT, on its own time. Here the writer
 * commits some 3,000 frames, more than wake the thread and fewer than
 * make the writer checkpoint, so pages reach the database file only if
 * the thread copied them. The wait for that is a bound for a stuck
 * thread (ten seconds), not a timing figure. */
#include <stdarg.h> /* cmocka 1.1.5 needs these four first */
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "store/sqlite_int.h"

enum { ROWS_PER_COMMIT = 500, COMMITS = 6, ROW_BYTES = 8000 };

static long long file_size(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 ? (long long)sb.st_size : -1;
}

static void exec_ok(sqlite3 *db, const char *sql)
{
    char *msg = NULL;
    int rc = sqlite3_exec(db, sql, NULL, NULL, &msg);
    if (rc != SQLITE_OK)
        fail_msg("%s: %s", sql, msg ? msg : sqlite3_errstr(rc));
}

static void test_thread_copies_the_wal(void **state)
{
    (void)state;
    char dir[] = "/tmp/flierd-ckpt-XXXXXX", path[64], wal[72];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/t.db", dir);
    snprintf(wal, sizeof wal, "%s-wal", path);

    sqlite3 *db = NULL;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    /* as the store's writer: no autocheckpoint of its own below the
     * hook's limit */
    exec_ok(db, "PRAGMA page_size = 8192");
    exec_ok(db, "PRAGMA journal_mode = WAL");
    exec_ok(db, "PRAGMA wal_autocheckpoint = 8192");
    exec_ok(db, "CREATE TABLE t (b BLOB)");
    struct sq_checkpointer *c = sq_checkpointer_start(db, path);
    assert_non_null(c);
    long long before = file_size(path);

    sqlite3_stmt *st = NULL;
    assert_int_equal(sqlite3_prepare_v2(db, "INSERT INTO t VALUES (?1)", -1,
                                        &st, NULL),
                     SQLITE_OK);
    for (int k = 0; k < COMMITS; k++) {
        exec_ok(db, "BEGIN");
        for (int i = 0; i < ROWS_PER_COMMIT; i++) {
            sqlite3_bind_zeroblob(st, 1, ROW_BYTES);
            assert_int_equal(sqlite3_step(st), SQLITE_DONE);
            sqlite3_reset(st);
        }
        exec_ok(db, "COMMIT");
    }
    sqlite3_finalize(st);
    long long wal_bytes = file_size(wal);
    /* more than the thread's wake-up (2,048 frames), less than the
     * writer's own limit (8,192) */
    assert_true(wal_bytes > 2048LL * 8192);
    assert_true(wal_bytes < 8192LL * 8192);

    /* the rows are some 23 MiB: the file holds them once the thread has
     * copied the frames of the commit that woke it */
    long long want = before + 8LL * 1024 * 1024;
    for (int i = 0; i < 1000 && file_size(path) < want; i++)
        nanosleep(&(struct timespec){ 0, 10 * 1000 * 1000 }, NULL);
    long long after = file_size(path);
    sq_checkpointer_stop(c, db);
    assert_int_equal(sqlite3_close(db), SQLITE_OK);
    unlink(wal);
    char shm[72];
    snprintf(shm, sizeof shm, "%s-shm", path);
    unlink(shm);
    unlink(path);
    rmdir(dir);
    if (after < want)
        fail_msg("database file %lld bytes (was %lld) with %lld bytes of "
                 "WAL: the checkpointer's thread copied nothing",
                 after, before, wal_bytes);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_thread_copies_the_wal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
