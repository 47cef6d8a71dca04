/* test_crash.c - crash safety: 50 times, the daemon is killed with
 * SIGKILL while clients stream uploads to it, at a moment that varies
 * from cycle to cycle (after 0 to 4 uploads were answered, then 0 to 19
 * ms more: in the middle of parsing, of a transaction, of its fsync, of
 * a reply). After each kill `flierd check` must find the database whole
 * (integrity, every game with all its rows, every upload hashing to its
 * SHA-256, the aggregates equal to their sums), and once restarted the
 * daemon must give back every upload it answered 201 or 202, byte for
 * byte. An upload cut off by the kill may be stored or not, but whole:
 * sent again it is a duplicate (200) or new (201, 202), never an error.
 *
 * The games come from `flierd simulate`; copies with trailing newlines
 * added are other uploads (other bytes, another SHA-256) of the same
 * game, so a few simulated games feed many cycles. One in ten is a game
 * of The Catapult instead, which flierd stores without an audit (202): the
 * same guarantees hold for it. */
#include <stdarg.h> /* cmocka 1.1.5 needs these four first */
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "daemon.h"
#include "flierd_run.h"
#include "http_client.h"
#include "util/sha256.h"

#define CYCLES 50
#define N_BASE 60        /* simulated games */
#define N_UPLOADS 2400   /* uploads available: base games x variants */
#define N_CLIENTS 3

enum outcome { NOT_SENT, SENT, STORED, CUT };

struct upload {
    struct buf body;
    char sha[SHA256_HEX_LEN];
    atomic_int outcome;
    long long id; /* when STORED */
};

static struct {
    char dir[64], db[128];
    struct upload *up;
    atomic_int next;      /* the next upload to send */
    atomic_int answered;  /* 201s in this cycle */
    pthread_mutex_t lock; /* with grew: a 201 or 202 came */
    pthread_cond_t grew;
    unsigned port;
} C;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The id of a {"id": N, ...} reply. */
static long long id_of(const struct http_resp *r)
{
    const char *p = r->body.p ? strstr(r->body.p, "\"id\":") : NULL;
    return p ? strtoll(p + 5, NULL, 10) : 0;
}

static int setup(void **state)
{
    struct buf *base = NULL;
    char games[128];
    (void)state;
    snprintf(C.dir, sizeof C.dir, "/tmp/flierd-crash-XXXXXX");
    if (!mkdtemp(C.dir))
        return -1;
    snprintf(C.db, sizeof C.db, "%s/games.db", C.dir);
    snprintf(games, sizeof games, "%s/games", C.dir);
    if (games_simulate(games, N_BASE, 2024, &base) != N_BASE)
        return -1;
    for (int b = 9; b < N_BASE; b += 10) {
        base[b].len = 0;
        buf_printf(&base[b], "{\"appVersion\": \"5.12.1\", \"setup\": "
                   "{\"sets\": {\"basic:1\": 1, \"catapult:1\": 1}, "
                   "\"elements\": {\"small-follower\": 7}, \"rules\": {}, "
                   "\"start\": [{\"tile\": \"BA/RCr\", \"x\": 0, \"y\": "
                   "0, \"rotation\": 0}]}, \"players\": [{\"name\": "
                   "\"Tess %d\", \"slot\": 0}, {\"name\": \"Ward\", "
                   "\"slot\": 1}], \"replay\": []}\n", b);
    }
    C.up = calloc(N_UPLOADS, sizeof *C.up);
    for (int i = 0; i < N_UPLOADS; i++) {
        struct upload *u = &C.up[i];
        buf_append(&u->body, base[i % N_BASE].p, base[i % N_BASE].len);
        for (int k = 0; k < i / N_BASE; k++)
            buf_puts(&u->body, "\n");
        sha256_hex(u->body.p, u->body.len, u->sha);
    }
    games_free(base, N_BASE);
    pthread_mutex_init(&C.lock, NULL);
    pthread_cond_init(&C.grew, NULL);
    return 0;
}

static int teardown(void **state)
{
    char cmd[160];
    (void)state;
    for (int i = 0; C.up && i < N_UPLOADS; i++)
        buf_release(&C.up[i].body);
    free(C.up);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", C.dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* A client: uploads the next game until the daemon is gone. */
static void *client(void *arg)
{
    (void)arg;
    for (;;) {
        int i = atomic_fetch_add(&C.next, 1);
        struct http_resp r;
        if (i >= N_UPLOADS)
            return NULL;
        struct upload *u = &C.up[i];
        atomic_store(&u->outcome, SENT);
        int st = http_do(C.port, "POST", "/api/games", NULL, u->body.p,
                         u->body.len, false, &r);
        if (st == 201 || st == 202) {
            u->id = id_of(&r);
            atomic_store(&u->outcome, STORED);
            pthread_mutex_lock(&C.lock);
            atomic_fetch_add(&C.answered, 1);
            pthread_cond_broadcast(&C.grew);
            pthread_mutex_unlock(&C.lock);
        } else {
            /* no answer: the kill came first (any other answer is a
             * failure of the test, seen in verify_cut) */
            atomic_store(&u->outcome, st == 0 ? CUT : -st);
        }
        http_resp_release(&r);
        if (st == 0)
            return NULL;
    }
}

/* Waits (at most 60 s) until n uploads of this cycle were answered 201
 * (or 202: stored, not audited). */
static void wait_answered(int n)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 60;
    pthread_mutex_lock(&C.lock);
    while (atomic_load(&C.answered) < n &&
           pthread_cond_timedwait(&C.grew, &C.lock, &until) == 0)
        ;
    pthread_mutex_unlock(&C.lock);
    assert_true(atomic_load(&C.answered) >= n);
}

/* `flierd check` on the database the killed daemon left. */
static void check_db(int cycle)
{
    struct buf out = BUF_INIT;
    const char *args[] = { "check", "--db", C.db, NULL };
    int rc = flierd_run(args, &out);
    if (rc != 0)
        fprintf(stderr, "after kill %d: flierd check exits %d:\n%s", cycle,
                rc, out.p ? out.p : "");
    assert_int_equal(rc, 0);
    buf_release(&out);
}

/* The stored upload u is there by its id, byte for byte. */
static void verify_stored(unsigned port, const struct upload *u)
{
    struct http_resp r;
    char path[64], sha[SHA256_HEX_LEN], field[96];
    snprintf(path, sizeof path, "/api/games/%lld/raw", u->id);
    assert_int_equal(http_do(port, "GET", path, NULL, NULL, 0, false, &r),
                     200);
    sha256_hex(r.body.p, r.body.len, sha);
    assert_string_equal(sha, u->sha);
    assert_int_equal(r.body.len, u->body.len);
    assert_memory_equal(r.body.p, u->body.p, u->body.len);
    http_resp_release(&r);
    snprintf(path, sizeof path, "/api/games/%lld", u->id);
    assert_int_equal(http_do(port, "GET", path, NULL, NULL, 0, false, &r),
                     200);
    snprintf(field, sizeof field, "\"sha256\":\"%s\"", u->sha);
    assert_non_null(strstr(r.body.p, field));
    http_resp_release(&r);
}

struct tally {
    int stored, cut, cut_kept;
};

/* After the restart: uploads [from, to) of the last cycle. One cut off
 * by the kill is sent again: a duplicate if it was stored (whole: the
 * check said so), new if not. */
static void verify_cycle(unsigned port, int from, int to, struct tally *t)
{
    for (int i = from; i < to; i++) {
        struct upload *u = &C.up[i];
        int o = atomic_load(&u->outcome);
        if (o != STORED && o != CUT)
            fail_msg("upload %d: answered %d, not 201, 202 nor cut off", i,
                     -o);
        if (o == CUT) {
            struct http_resp r;
            int st = http_do(port, "POST", "/api/games", NULL, u->body.p,
                             u->body.len, false, &r);
            assert_true(st == 200 || st == 201 || st == 202);
            u->id = id_of(&r);
            http_resp_release(&r);
            t->cut++;
            t->cut_kept += st == 200;
            atomic_store(&u->outcome, STORED);
        } else {
            t->stored++;
        }
        verify_stored(port, u);
    }
}

static const char *const daemon_args[] = {
    "--quiet", "--rate-limit", "0", "--write-rate-limit", "0", NULL
};

/* Uploads from N_CLIENTS clients, SIGKILL at a moment that depends on
 * cycle, `flierd check`, restart, verify. */
static void one_cycle(struct daemon *d, int cycle, struct tally *t)
{
    pthread_t th[N_CLIENTS];
    int from = atomic_load(&C.next);
    atomic_store(&C.answered, 0);
    C.port = d->port;
    for (int i = 0; i < N_CLIENTS; i++)
        assert_int_equal(pthread_create(&th[i], NULL, client, NULL), 0);
    wait_answered(cycle % 5);
    /* then 0 to 19 ms more, so the kill lands anywhere in an upload */
    struct timespec jitter = { 0, (long)(cycle * 7) % 20 * 1000000L };
    while (nanosleep(&jitter, &jitter) != 0 && errno == EINTR)
        ;
    kill(d->pid, SIGKILL);
    for (int i = 0; i < N_CLIENTS; i++)
        pthread_join(th[i], NULL);
    assert_int_equal(daemon_stop(d), 128 + SIGKILL);
    int to = atomic_load(&C.next);
    assert_true(to < N_UPLOADS); /* the kill, not the end of the games */
    check_db(cycle);
    assert_true(daemon_start(d, C.db, daemon_args));
    verify_cycle(d->port, from, to, t);
}

static void test_sigkill_during_uploads(void **state)
{
    struct daemon d;
    struct tally t = { 0, 0, 0 };
    double t0 = now_s();
    (void)state;
    assert_true(daemon_start(&d, C.db, daemon_args));
    for (int cycle = 0; cycle < CYCLES; cycle++)
        one_cycle(&d, cycle, &t);
    /* Everything answered 201 or 202 in any cycle is still there. */
    int n = 0;
    for (int i = 0; i < atomic_load(&C.next) && i < N_UPLOADS; i++)
        if (atomic_load(&C.up[i].outcome) == STORED) {
            verify_stored(d.port, &C.up[i]);
            n++;
        }
    assert_int_equal(n, t.stored + t.cut);
    assert_int_equal(daemon_stop(&d), 0);
    check_db(CYCLES);
    fprintf(stderr, "%d kills in %.1f s: %d uploads answered 201/202 and "
            "kept; %d cut off by a kill, of which %d were stored whole and "
            "%d not at all\n", CYCLES, now_s() - t0, t.stored, t.cut,
            t.cut_kept, t.cut - t.cut_kept);
    assert_true(t.stored >= CYCLES); /* the kills came amid uploads */
}

/* The first bytes of game 1's upload as the store keeps it (a zstd
 * frame), read with SQLite itself. */
static void stored_upload(const char *path, struct buf *out)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL),
                     SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(db, "SELECT raw FROM game_raw "
                                        "ORDER BY game_id LIMIT 1",
                                        -1, &st, NULL),
                     SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    buf_append(out, sqlite3_column_blob(st, 0),
               (size_t)sqlite3_column_bytes(st, 0));
    sqlite3_finalize(st);
    sqlite3_close(db);
}

/* `flierd check` exits 1 and says which game when an upload's bytes
 * change on disk, 2 when there is no database. The daemon has exited
 * (its last connection moved the WAL into the file), so a byte of an
 * upload, flipped in the file, is the stored upload's. */
static void test_check_finds_damage(void **state)
{
    struct buf db = BUF_INIT, out = BUF_INIT;
    char wal[160];
    (void)state;
    snprintf(wal, sizeof wal, "%s-wal", C.db);
    struct stat sb; /* (a read-only `flierd check` may leave it empty) */
    assert_true(stat(wal, &sb) != 0 || sb.st_size == 0);
    FILE *f = fopen(C.db, "r+b");
    assert_non_null(f);
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        buf_append(&db, chunk, n);
    /* a byte within the frame's first block: it then decodes to other
     * bytes or not at all */
    struct buf frame = BUF_INIT;
    stored_upload(C.db, &frame);
    assert_true(frame.len > 40);
    const char *at = memmem(db.p, db.len, frame.p, 40);
    assert_non_null(at);
    buf_release(&frame);
    long off = (long)(at - db.p) + 24;
    assert_int_equal(fseek(f, off, SEEK_SET), 0);
    int flipped = (unsigned char)(db.p[off] ^ 0x20); /* fputc's answer */
    assert_int_equal(fputc(flipped, f), flipped);
    fclose(f);
    const char *args[] = { "check", "--db", C.db, NULL };
    assert_int_equal(flierd_run(args, &out), 1);
    assert_non_null(strstr(out.p, ": the stored upload ("));
    assert_true(strstr(out.p, "games.sha256 says") ||
                strstr(out.p, "cannot be read: not a whole zstd frame"));
    assert_non_null(strstr(out.p, ": 1 problem\n"));
    out.len = 0;
    char missing[160];
    snprintf(missing, sizeof missing, "%s/none.db", C.dir);
    const char *none[] = { "check", "--db", missing, NULL };
    assert_int_equal(flierd_run(none, &out), 2);
    assert_non_null(strstr(out.p, missing));
    buf_release(&db);
    buf_release(&out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sigkill_during_uploads),
        cmocka_unit_test(test_check_finds_damage),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
