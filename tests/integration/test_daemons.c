/* test_daemons.c - many daemons on one PostgreSQL database, and the
 * database going away under them (ctest: test_daemons_pg, on the tests'
 * throwaway cluster; FLIERD_TEST_DB names it, FLIERD_PG_DIR is its
 * folder for tests/pg/cluster.sh restart).
 *
 *  - Two daemons, four clients uploading the same forty games at once,
 *    two through each: every game stored once (one 201, the other three
 *    200 with its id), every id readable from both, and both answer the
 *    list and the statistics with the same bytes.
 *  - A live game whose every turn is sent through both daemons at the
 *    same moment: one is recorded, the other refused, and the stored
 *    game is the turns in order, each once.
 *  - kill -9 of one daemon amid uploads through both: every upload
 *    either answered 201 or 200 is there, `flierd check` finds the
 *    database whole, and the other daemon goes on serving.
 *  - The server restarted (pg_ctl restart) amid uploads: the daemon
 *    answers 503 with Retry-After while it is down, no request outlasts
 *    the deadline, and once it is back every 201 is there and uploads
 *    succeed again. */
#include <stdarg.h> /* cmocka 1.1.5 needs these four first */
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "daemon.h"
#include "flierd_run.h"
#include "http_client.h"
#include "mlog/mlog.h"
#include "test_db.h"
#include "util/sha256.h"

#define N_GAMES 40
#define N_CLIENTS 4
#define DEADLINE_S 20.0 /* statement timeout 15 s, connect 5 s */

static const char *const NO_LIMITS[] = { "--rate-limit", "0",
                                         "--write-rate-limit", "0", NULL };

static struct {
    char dir[64];
    struct buf *games; /* N_GAMES simulated .jcz */
    struct daemon d[2]; /* a test's daemons, stopped by stop_daemons */
} T;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void sleep_ms(long ms)
{
    struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

static long long id_of(const struct http_resp *r)
{
    const char *p = r->body.p ? strstr(r->body.p, "\"id\":") : NULL;
    return p ? strtoll(p + 5, NULL, 10) : 0;
}

static int setup(void **state)
{
    char dir[128];
    (void)state;
    if (!test_db_pg() || !getenv("FLIERD_PG_DIR")) {
        fprintf(stderr, "test_daemons: needs FLIERD_TEST_DB and "
                "FLIERD_PG_DIR (run it as ctest's test_daemons_pg)\n");
        return -1;
    }
    snprintf(T.dir, sizeof T.dir, "/tmp/flierd-daemons-XXXXXX");
    if (!mkdtemp(T.dir))
        return -1;
    snprintf(dir, sizeof dir, "%s/games", T.dir);
    return games_simulate(dir, N_GAMES, 77, &T.games) == N_GAMES ? 0 : -1;
}

/* After each test, also one that failed half-way: no daemon outlives
 * it. */
static int stop_daemons(void **state)
{
    (void)state;
    for (int i = 0; i < 2; i++)
        if (T.d[i].pid > 0)
            daemon_stop(&T.d[i]);
    return 0;
}

static int teardown(void **state)
{
    char cmd[128];
    (void)state;
    games_free(T.games, N_GAMES);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", T.dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void get_body(unsigned port, const char *path, struct buf *out)
{
    struct http_resp r;
    int st = http_do(port, "GET", path, NULL, NULL, 0, false, &r);
    if (st != 200)
        fail_msg("GET %s: %d %s", path, st, r.body.p ? r.body.p : "");
    buf_append(out, r.body.p, r.body.len);
    http_resp_release(&r);
}

/* Both daemons give the same bytes for path. */
static void same_answer(unsigned a, unsigned b, const char *path)
{
    struct buf x = BUF_INIT, y = BUF_INIT;
    get_body(a, path, &x);
    get_body(b, path, &y);
    if (x.len != y.len || memcmp(x.p, y.p, x.len) != 0)
        fail_msg("GET %s differs between the daemons", path);
    buf_release(&x);
    buf_release(&y);
}

/* The lines of /metrics that come from the database (flierd_games,
 * flierd_live_games): the same from both daemons, and nonzero games. The
 * other counters are each process's own. */
static void same_db_metrics(unsigned a, unsigned b)
{
    struct buf x = BUF_INIT, y = BUF_INIT, lx = BUF_INIT, ly = BUF_INIT;
    get_body(a, "/metrics", &x);
    get_body(b, "/metrics", &y);
    const struct buf *in[2] = { &x, &y };
    struct buf *out[2] = { &lx, &ly };
    for (int k = 0; k < 2; k++)
        for (const char *p = in[k]->p; p && *p;) {
            const char *nl = strchr(p, '\n');
            size_t n = nl ? (size_t)(nl - p) + 1 : strlen(p);
            if (strncmp(p, "flierd_games{", 13) == 0 ||
                strncmp(p, "flierd_live_games ", 18) == 0)
                buf_append(out[k], p, n);
            p += n;
        }
    assert_non_null(lx.p);
    assert_non_null(strstr(lx.p, "flierd_games{verdict=\"valid\"} "));
    assert_null(strstr(lx.p, "flierd_games{verdict=\"valid\"} 0\n"));
    if (!ly.p || strcmp(lx.p, ly.p) != 0)
        fail_msg("the database's metrics differ between the daemons:\n%s"
                 "---\n%s", lx.p, ly.p ? ly.p : "");
    buf_release(&x);
    buf_release(&y);
    buf_release(&lx);
    buf_release(&ly);
}

/* The stored upload of id, through port, is body. */
static void stored_as(unsigned port, long long id, const struct buf *body)
{
    char path[64];
    struct buf raw = BUF_INIT;
    snprintf(path, sizeof path, "/api/games/%lld/raw", id);
    get_body(port, path, &raw);
    assert_int_equal(raw.len, body->len);
    assert_memory_equal(raw.p, body->p, body->len);
    buf_release(&raw);
}

static void check_whole(const char *db)
{
    struct buf out = BUF_INIT;
    const char *args[] = { "check", "--db", db, NULL };
    int rc = flierd_run(args, &out);
    if (rc != 0 || !strstr(out.p ? out.p : "", ": 0 problems"))
        fail_msg("flierd check: exit %d: %s", rc, out.p ? out.p : "");
    buf_release(&out);
}

/* ---- the same games through two daemons ---------------------------------- */

struct client {
    unsigned port;
    int first; /* where in the list this client starts */
    long long ids[N_GAMES];
    int status[N_GAMES];
};

static void *client_main(void *arg)
{
    struct client *c = arg;
    for (int k = 0; k < N_GAMES; k++) {
        int i = (c->first + k) % N_GAMES;
        struct http_resp r;
        c->status[i] = http_do(c->port, "POST", "/api/games", NULL,
                               T.games[i].p, T.games[i].len, false, &r);
        c->ids[i] = id_of(&r);
        http_resp_release(&r);
    }
    return NULL;
}

static void test_same_games_two_daemons(void **state)
{
    struct daemon *a = &T.d[0], *b = &T.d[1];
    struct client c[N_CLIENTS];
    pthread_t t[N_CLIENTS];
    char db[256];
    (void)state;
    assert_true(test_db_fresh(db, sizeof db));
    assert_true(daemon_start(a, db, NO_LIMITS));
    assert_true(daemon_start(b, db, NO_LIMITS));
    memset(c, 0, sizeof c);
    for (int k = 0; k < N_CLIENTS; k++) {
        c[k].port = k % 2 ? b->port : a->port;
        c[k].first = (k / 2) * (N_GAMES / 2); /* pairs start alike */
        assert_int_equal(pthread_create(&t[k], NULL, client_main, &c[k]), 0);
    }
    for (int k = 0; k < N_CLIENTS; k++)
        pthread_join(t[k], NULL);
    for (int i = 0; i < N_GAMES; i++) {
        int created = 0;
        for (int k = 0; k < N_CLIENTS; k++) {
            if (c[k].status[i] != 201 && c[k].status[i] != 200)
                fail_msg("game %d through client %d: %d", i, k,
                         c[k].status[i]);
            created += c[k].status[i] == 201;
            assert_true(c[k].ids[i] > 0);
            assert_int_equal(c[k].ids[i], c[0].ids[i]);
        }
        assert_int_equal(created, 1);
        stored_as(a->port, c[0].ids[i], &T.games[i]);
        stored_as(b->port, c[0].ids[i], &T.games[i]);
    }
    same_answer(a->port, b->port, "/api/games?limit=1000");
    same_answer(a->port, b->port, "/api/stats");
    same_answer(a->port, b->port, "/api/players");
    same_db_metrics(a->port, b->port);
    assert_int_equal(daemon_stop(a), 0);
    assert_int_equal(daemon_stop(b), 0);
    check_whole(db);
    test_db_drop(db);
}

/* ---- one live game, every turn through both daemons at once ---------- */

struct mover {
    unsigned port;
    const char *path, *line;
    pthread_barrier_t *go;
    int status;
    char body[200];
};

static void *mover_main(void *arg)
{
    struct mover *m = arg;
    struct http_resp r;
    pthread_barrier_wait(m->go);
    m->status = http_do(m->port, "POST", m->path, NULL, m->line,
                        strlen(m->line), false, &r);
    snprintf(m->body, sizeof m->body, "%s", r.body.p ? r.body.p : "");
    http_resp_release(&r);
    return NULL;
}

static void test_live_turns_through_both(void **state)
{
    struct daemon *a = &T.d[0], *b = &T.d[1];
    struct buf nd = BUF_INIT, expect = BUF_INIT;
    struct game_log log;
    struct err e;
    enum mlog_format fmt;
    char db[256], path[64];
    pthread_barrier_t go;
    (void)state;
    game_log_init(&log);
    assert_int_equal(mlog_parse(T.games[0].p, T.games[0].len, &log, &fmt, &e),
                     ST_OK);
    mlog_write_flierlog_ndjson(&log, &nd);
    game_log_release(&log);
    assert_true(test_db_fresh(db, sizeof db));
    assert_true(daemon_start(a, db, NO_LIMITS));
    assert_true(daemon_start(b, db, NO_LIMITS));

    char *line = strtok(nd.p, "\n");
    struct http_resp r;
    assert_int_equal(http_do(a->port, "POST", "/api/live", NULL, line,
                             strlen(line), false, &r), 201);
    long long id = id_of(&r);
    http_resp_release(&r);
    buf_printf(&expect, "%s\n", line);
    snprintf(path, sizeof path, "/api/live/%lld/moves", id);
    pthread_barrier_init(&go, NULL, 2);
    int turns = 0;
    while ((line = strtok(NULL, "\n")) && strncmp(line, "{\"final\"", 8)) {
        char nl[4096]; /* as a client that ends its lines sends it */
        snprintf(nl, sizeof nl, "%s\n", line);
        struct mover m[2] = { { a->port, path, line, &go, 0, "" },
                              { b->port, path, nl, &go, 0, "" } };
        pthread_t t[2];
        for (int k = 0; k < 2; k++)
            pthread_create(&t[k], NULL, mover_main, &m[k]);
        for (int k = 0; k < 2; k++)
            pthread_join(t[k], NULL);
        /* one recorded it; the other, judged again after it, found
         * the same turn under its number and was answered as the first
         * (a numbered turn sent twice is recorded once) */
        if (m[0].status != 200 || m[1].status != 200 ||
            strcmp(m[0].body, m[1].body) != 0)
            fail_msg("turn %d: %d (%s) through one daemon, %d (%s) "
                     "through the other", turns + 1, m[0].status, m[0].body,
                     m[1].status, m[1].body);
        buf_printf(&expect, "%s\n", line);
        turns++;
    }
    pthread_barrier_destroy(&go);
    assert_true(turns > 10);
    /* every turn once, in order, whichever daemon stored it */
    stored_as(a->port, id, &expect);
    stored_as(b->port, id, &expect);
    snprintf(path, sizeof path, "/api/live/%lld/finish", id);
    assert_int_equal(http_do(b->port, "POST", path, NULL, "", 0, false, &r),
                     200);
    http_resp_release(&r);
    assert_int_equal(daemon_stop(a), 0);
    assert_int_equal(daemon_stop(b), 0);
    check_whole(db);
    test_db_drop(db);
    buf_release(&nd);
    buf_release(&expect);
}

/* ---- uploads while a daemon dies or the server restarts --------------- */

/* Variants of the simulated games: trailing newlines make other bytes. */
#define N_VARIANTS 400

struct stream {
    unsigned port;
    int first, step;
    atomic_bool *stop;
    long long ids[N_VARIANTS]; /* > 0: answered 201 or 200 */
    int n_busy;                /* 503s, each with Retry-After */
    int n_cut;                 /* no answer (the daemon died) */
    int n_other;
    double slowest;
};

static void variant(int i, struct buf *out)
{
    out->len = 0;
    buf_append(out, T.games[i % N_GAMES].p, T.games[i % N_GAMES].len);
    for (int k = 0; k <= i / N_GAMES; k++)
        buf_puts(out, "\n");
}

static void *stream_main(void *arg)
{
    struct stream *s = arg;
    struct buf body = BUF_INIT;
    for (int i = s->first; i < N_VARIANTS && !atomic_load(s->stop);
         i += s->step) {
        struct http_resp r;
        char retry[16];
        variant(i, &body);
        double t0 = now_s();
        int st = http_do(s->port, "POST", "/api/games", NULL, body.p,
                         body.len, false, &r);
        double took = now_s() - t0;
        s->slowest = took > s->slowest ? took : s->slowest;
        if (st == 201 || st == 200) {
            s->ids[i] = id_of(&r);
        } else if (st == 503 && http_header(&r, "Retry-After", retry,
                                            sizeof retry)) {
            s->n_busy++;
            i -= s->step; /* again, as a client told to retry would */
            sleep_ms(50);
        } else if (st == 0) {
            s->n_cut++;
        } else {
            s->n_other++;
            fprintf(stderr, "upload %d: %d %s\n", i, st,
                    r.body.p ? r.body.p : "");
        }
        http_resp_release(&r);
    }
    buf_release(&body);
    return NULL;
}

/* Every upload answered 201 or 200 is stored, through port. */
static int all_there(unsigned port, const struct stream *s, int n)
{
    struct buf body = BUF_INIT;
    int count = 0;
    for (int k = 0; k < n; k++)
        for (int i = 0; i < N_VARIANTS; i++)
            if (s[k].ids[i] > 0) {
                variant(i, &body);
                stored_as(port, s[k].ids[i], &body);
                count++;
            }
    buf_release(&body);
    return count;
}

static void test_kill_one_daemon(void **state)
{
    struct daemon *a = &T.d[0], *b = &T.d[1];
    struct stream s[2];
    pthread_t t[2];
    atomic_bool stop = false;
    char db[256];
    (void)state;
    assert_true(test_db_fresh(db, sizeof db));
    assert_true(daemon_start(a, db, NO_LIMITS));
    assert_true(daemon_start(b, db, NO_LIMITS));
    memset(s, 0, sizeof s);
    for (int k = 0; k < 2; k++) {
        s[k] = (struct stream){ .port = k ? b->port : a->port, .first = k,
                                .step = 2, .stop = &stop };
        pthread_create(&t[k], NULL, stream_main, &s[k]);
    }
    /* kill -9 the first daemon in the middle of its uploads */
    while (s[0].ids[20] == 0 && s[0].ids[21] == 0 && s[0].n_cut == 0)
        sleep_ms(10);
    sleep_ms(7);
    kill(a->pid, SIGKILL);
    assert_int_equal(daemon_stop(a), 128 + SIGKILL);
    for (int k = 0; k < 2; k++)
        pthread_join(t[k], NULL);
    assert_int_equal(s[1].n_cut + s[1].n_other + s[0].n_other, 0);
    assert_true(s[0].n_cut > 0); /* it did die amid them */
    int stored = all_there(b->port, s, 2);
    assert_true(stored > N_VARIANTS / 2);
    check_whole(db);
    struct http_resp r; /* the survivor still serves */
    assert_int_equal(http_do(b->port, "GET", "/healthz", NULL, NULL, 0, false,
                             &r), 200);
    http_resp_release(&r);
    assert_int_equal(daemon_stop(b), 0);
    test_db_drop(db);
}

static void cluster(const char *cmd)
{
    char line[512];
    snprintf(line, sizeof line, "bash '%s' %s '%s'", CLUSTER_SH, cmd,
             getenv("FLIERD_PG_DIR"));
    assert_int_equal(system(line), 0);
}

static void test_server_restart(void **state)
{
    struct daemon *a = &T.d[0];
    struct stream s[2];
    pthread_t t[2];
    atomic_bool stop = false;
    char db[256];
    (void)state;
    assert_true(test_db_fresh(db, sizeof db));
    assert_true(daemon_start(a, db, NO_LIMITS));
    memset(s, 0, sizeof s);
    for (int k = 0; k < 2; k++) {
        s[k] = (struct stream){ .port = a->port, .first = k, .step = 2,
                                .stop = &stop };
        pthread_create(&t[k], NULL, stream_main, &s[k]);
    }
    while (s[0].ids[40] == 0 && s[0].n_other == 0)
        sleep_ms(10);
    cluster("restart");
    for (int k = 0; k < 2; k++)
        pthread_join(t[k], NULL);
    for (int k = 0; k < 2; k++) {
        assert_int_equal(s[k].n_cut + s[k].n_other, 0);
        if (s[k].slowest > DEADLINE_S)
            fail_msg("an upload took %.1f s", s[k].slowest);
    }
    /* every variant ended stored: 503s were retried until they were */
    assert_int_equal(all_there(a->port, s, 2), N_VARIANTS);
    fprintf(stderr, "restart: %d and %d uploads answered 503 meanwhile\n",
            s[0].n_busy, s[1].n_busy);
    check_whole(db);
    assert_int_equal(daemon_stop(a), 0);
    test_db_drop(db);
}

/* The server's processes: the postmaster (postmaster.pid's first line)
 * and its children, signalled all at once. */
static void signal_server(int sig)
{
    char line[512];
    snprintf(line, sizeof line,
             "p=$(head -n 1 '%s/data/postmaster.pid') && "
             "kill -%d $p $(pgrep -P $p)", getenv("FLIERD_PG_DIR"), sig);
    assert_int_equal(system(line), 0);
}

/* A server that stops answering with its connections up (SIGSTOP: as a
 * hung disk or a paused machine would): uploads are answered 503 within
 * the answer deadline (FLIERD_PG_ANSWER_MS, 2 s here), never held; once
 * it answers again the daemon reconnects by itself, and every upload
 * answered 201 is there. A call waits the answer deadline, or a
 * reconnection's connect timeout (5 s), at most. */
static void test_server_frozen(void **state)
{
    struct daemon *a = &T.d[0];
    struct stream s;
    pthread_t t;
    atomic_bool stop = false;
    char db[256];
    (void)state;
    assert_true(test_db_fresh(db, sizeof db));
    setenv("FLIERD_PG_ANSWER_MS", "2000", 1);
    bool up = daemon_start(a, db, NO_LIMITS);
    unsetenv("FLIERD_PG_ANSWER_MS");
    assert_true(up);
    memset(&s, 0, sizeof s);
    s = (struct stream){ .port = a->port, .first = 0, .step = 1,
                         .stop = &stop };
    pthread_create(&t, NULL, stream_main, &s);
    while (s.ids[10] == 0 && s.n_other == 0)
        sleep_ms(10);
    signal_server(SIGSTOP);
    double until = now_s() + DEADLINE_S;
    while (s.n_busy < 2 && now_s() < until)
        sleep_ms(20);
    signal_server(SIGCONT);
    pthread_join(t, NULL);
    assert_int_equal(s.n_cut + s.n_other, 0);
    assert_true(s.n_busy >= 2);   /* told to come back, not held */
    /* The 2 s wait, or a reconnection's connect timeout (5 s): 5.0 s
     * on an idle machine, so a bound of 6 s left one second for a busy
     * one (ctest -j2). A held upload would take until SIGCONT,
     * DEADLINE_S, as the stream sends one at a time. */
    if (s.slowest > 10.0)
        fail_msg("an upload took %.1f s", s.slowest);
    assert_int_equal(all_there(a->port, &s, 1), N_VARIANTS);
    fprintf(stderr, "frozen: %d uploads answered 503 meanwhile, the slowest "
            "took %.1f s\n", s.n_busy, s.slowest);
    check_whole(db);
    assert_int_equal(daemon_stop(a), 0);
    test_db_drop(db);
}

/* ---- one spool folder, two daemons ------------------------------------ */

static void write_file(const char *path, const struct buf *b)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(b->p, 1, b->len, f), b->len);
    assert_int_equal(fclose(f), 0);
}

/* Regular files in folder (not starting with '.', not .error files). */
static int count_files(const char *folder)
{
    DIR *d = opendir(folder);
    struct dirent *de;
    int n = 0;
    if (!d)
        return -1;
    while ((de = readdir(d)) != NULL) {
        char path[640];
        struct stat sb;
        snprintf(path, sizeof path, "%s/%s", folder, de->d_name);
        n += de->d_name[0] != '.' && !strstr(de->d_name, ".error") &&
             stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
    }
    closedir(d);
    return n;
}

/* Both daemons scan one spool folder: every file is ingested by one of
 * them and lands in done/ once, under its own name; a file left claimed
 * by a daemon that died is given back and ingested too. */
static void test_shared_spool(void **state)
{
    struct daemon *a = &T.d[0], *b = &T.d[1];
    char db[256], spool[128], path[640], done[160];
    (void)state;
    assert_true(test_db_fresh(db, sizeof db));
    snprintf(spool, sizeof spool, "%s/spool", T.dir);
    snprintf(done, sizeof done, "%s/done", spool);
    assert_int_equal(mkdir(spool, 0755), 0);
    /* a claim of a daemon of this host that is gone: a child's pid */
    pid_t gone = fork();
    if (gone == 0)
        _exit(0);
    assert_true(gone > 0);
    assert_int_equal(waitpid(gone, NULL, 0), gone);
    char host[256], claim[512];
    assert_int_equal(gethostname(host, sizeof host), 0);
    snprintf(path, sizeof path, "%s/.claimed", spool);
    assert_int_equal(mkdir(path, 0755), 0);
    snprintf(claim, sizeof claim, "%s/.claimed/%s.%ld", spool, host,
             (long)gone);
    assert_int_equal(mkdir(claim, 0755), 0);
    snprintf(path, sizeof path, "%s/orphan.jcz", claim);
    write_file(path, &T.games[N_GAMES - 1]);

    const char *args[] = { "--rate-limit", "0", "--write-rate-limit", "0",
                           "--spool", spool, "--spool-interval", "5",
                           NULL };
    assert_true(daemon_start(a, db, args));
    assert_true(daemon_start(b, db, args));
    /* written under a skipped name, then renamed, as writers should */
    for (int i = 0; i < N_GAMES - 1; i++) {
        char part[640];
        snprintf(part, sizeof part, "%s/g%02d.jcz.part", spool, i);
        snprintf(path, sizeof path, "%s/g%02d.jcz", spool, i);
        write_file(part, &T.games[i]);
        assert_int_equal(rename(part, path), 0);
    }
    double until = now_s() + DEADLINE_S;
    while (count_files(done) < N_GAMES && now_s() < until)
        sleep_ms(20);
    assert_int_equal(count_files(done), N_GAMES);
    for (int i = 0; i < N_GAMES - 1; i++) { /* each once, its own name */
        snprintf(path, sizeof path, "%s/g%02d.jcz", done, i);
        assert_int_equal(access(path, F_OK), 0);
    }
    snprintf(path, sizeof path, "%s/orphan.jcz", done);
    assert_int_equal(access(path, F_OK), 0);
    assert_int_equal(count_files(spool), 0);
    assert_int_equal(access(claim, F_OK), -1); /* the dead one's: gone */
    /* every game stored once, whichever daemon took its file */
    struct buf list = BUF_INIT;
    get_body(a->port, "/api/games?limit=1000", &list);
    assert_non_null(strstr(list.p, "\"total\":40"));
    buf_release(&list);
    assert_int_equal(daemon_stop(a), 0);
    assert_int_equal(daemon_stop(b), 0);
    check_whole(db);
    test_db_drop(db);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_same_games_two_daemons, stop_daemons),
        cmocka_unit_test_teardown(test_live_turns_through_both,
                                  stop_daemons),
        cmocka_unit_test_teardown(test_kill_one_daemon, stop_daemons),
        cmocka_unit_test_teardown(test_shared_spool, stop_daemons),
        cmocka_unit_test_teardown(test_server_frozen, stop_daemons),
        cmocka_unit_test_teardown(test_server_restart, stop_daemons),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
