/* test_writes_stop.c - stopping the server while writes wait in the
 * writes' queue (src/http/writes.c), in this process.
 *
 * Another connection holds the database's write lock, so the first of
 * three uploads waits in SQLite's busy handler (5 s) and the other two
 * wait in the queue, their connections suspended. The server is then
 * stopped with a short grace: the first upload must end with its own
 * 503 (the database is busy), the queued ones with "the server is
 * stopping", every client must hear its answer before the server is
 * gone, server_stop() must return, and nothing may be stored. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "http/http.h"
#include "http_client.h"
#include "test_files.h"
#include "util/buf.h"

#define UPLOADS 3

static const char *const files[UPLOADS] = {
    FLIERD_SAMPLES_DIR "/c2-2p.jcz",
    FLIERD_SAMPLES_DIR "/c2-5p.jcz",
    FLIERD_SAMPLES_DIR "/count-c2-4p.jcz",
};

struct upload {
    unsigned port;
    char path[64];
    struct buf body;
    struct http_resp resp;
};

static void *upload_main(void *arg)
{
    struct upload *u = arg;
    http_do(u->port, "POST", u->path, NULL, u->body.p, u->body.len, false,
            &u->resp);
    return NULL;
}

/* The server's gauge of requests being processed (the asking one too). */
static long in_flight(unsigned port)
{
    struct http_resp r;
    const char *key = "\nflierd_http_requests_in_flight ";
    long n = -1;
    if (http_do(port, "GET", "/metrics", NULL, NULL, 0, false, &r) == 200) {
        buf_append(&r.body, "", 1);
        const char *at = strstr(r.body.p, key);
        if (at)
            n = strtol(at + strlen(key), NULL, 10);
    }
    http_resp_release(&r);
    return n;
}

static void sleep_ms(long ms)
{
    struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

static bool contains(const struct buf *b, const char *needle)
{
    return b->p && memmem(b->p, b->len, needle, strlen(needle)) != NULL;
}

static void test_stop_with_writes_queued(void **state)
{
    char dir[] = "/tmp/flierd-writes-stop-XXXXXX", db[96];
    struct http_config c;
    struct server *srv;
    struct err e;
    sqlite3 *lock;
    (void)state;

    assert_non_null(mkdtemp(dir));
    snprintf(db, sizeof db, "%s/flierd.db", dir);
    http_config_init(&c);
    c.db_path = db;
    c.port = 0;
    c.threads = 2;
    c.rate = c.write_rate = 0;
    c.log = NULL;
    if (server_start(&c, &srv, &e) != ST_OK)
        fail_msg("server_start: %s", e.msg);
    unsigned port = server_port(srv);

    assert_int_equal(sqlite3_open(db, &lock), SQLITE_OK);
    assert_int_equal(sqlite3_exec(lock, "BEGIN IMMEDIATE", NULL, NULL, NULL),
                     SQLITE_OK);

    struct upload up[UPLOADS];
    pthread_t th[UPLOADS];
    for (int i = 0; i < UPLOADS; i++) {
        memset(&up[i], 0, sizeof up[i]);
        up[i].port = port;
        snprintf(up[i].path, sizeof up[i].path, "/api/games?name=u%d.jcz",
                 i);
        tf_read(files[i], &up[i].body);
        assert_int_equal(pthread_create(&th[i], NULL, upload_main, &up[i]),
                         0);
    }
    /* all three in: one waiting on the lock, two in the queue */
    long n = 0;
    for (int tries = 0; tries < 400 && n != UPLOADS + 1; tries++) {
        n = in_flight(port);
        if (n != UPLOADS + 1)
            sleep_ms(10);
    }
    assert_int_equal(n, UPLOADS + 1);

    /* The grace ends long before the busy handler gives up (5 s): the
     * queue is closed while the first upload still waits. */
    server_stop(srv, 200);

    int busy = 0, stopped = 0;
    for (int i = 0; i < UPLOADS; i++) {
        assert_int_equal(pthread_join(th[i], NULL), 0);
        if (up[i].resp.status != 503) /* 0: closed unanswered */
            fail_msg("upload %d: status %d, not 503", i, up[i].resp.status);
        if (contains(&up[i].resp.body, "the server is stopping"))
            stopped++;
        else if (contains(&up[i].resp.body, "database is locked"))
            busy++;
        http_resp_release(&up[i].resp);
        buf_release(&up[i].body);
    }
    assert_int_equal(busy, 1);
    assert_int_equal(stopped, UPLOADS - 1);

    /* nothing of the refused uploads was stored */
    sqlite3_stmt *q;
    assert_int_equal(sqlite3_exec(lock, "ROLLBACK", NULL, NULL, NULL),
                     SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(lock, "SELECT count(*) FROM games",
                                        -1, &q, NULL),
                     SQLITE_OK);
    assert_int_equal(sqlite3_step(q), SQLITE_ROW);
    assert_int_equal(sqlite3_column_int(q, 0), 0);
    sqlite3_finalize(q);
    sqlite3_close(lock);
    tf_rm_tree(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stop_with_writes_queued),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
