/* test_load.c - load: 64 clients, each on one kept-alive connection,
 * upload games and browse (the list with filters, a game, its audit,
 * raw bytes and replay, players, statistics, the dashboard's files) as
 * fast as they are answered, for LOAD_SECONDS (the environment, else the
 * build's default: 60, shorter under the sanitizers). Every response
 * must have the expected status (zero errors), the daemon must be alive
 * and exit cleanly afterwards, its peak RSS (VmHWM) must stay under
 * RSS_BOUND_MB, and `flierd check` must find the database whole. Prints
 * the throughput and the peak RSS (docs/security.md, "Load").
 *
 * Uploads come from a pool of distinct games (simulated games and copies
 * with trailing newlines); each is sent once (201), and once the pool is
 * used up again (200, a duplicate), so the database stays bounded. The
 * daemon runs without rate limits: the 64 clients share one address. */
#include <stdarg.h> /* cmocka 1.1.5 needs these four first */
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "daemon.h"
#include "http_client.h"
#include "flierd_run.h"

#define CLIENTS 64
#define N_SIM 100       /* simulated games: also the games loaded first */
#define N_POOL 1500     /* distinct uploads */
#define MAX_ERRORS_SHOWN 10

/* What a client asks for; weights are out of 100. */
enum kind { K_UPLOAD, K_LIST, K_FILTER, K_GAME, K_REPLAY, K_RAW, K_PLAYERS,
            K_PLAYER, K_STATS, K_STATIC, K__N };
static const struct {
    const char *name;
    int weight;
} kinds[K__N] = {
    [K_UPLOAD] = { "upload", 5 },   [K_LIST] = { "list", 15 },
    [K_FILTER] = { "filter", 10 },  [K_GAME] = { "game", 15 },
    [K_REPLAY] = { "replay", 10 },  [K_RAW] = { "raw", 5 },
    [K_PLAYERS] = { "players", 5 }, [K_PLAYER] = { "player", 5 },
    [K_STATS] = { "stats", 10 },    [K_STATIC] = { "static", 20 },
};
static const char *const static_files[] = { "/", "/app.js", "/api.js",
                                            "/style.css", "/games/3" };

static struct {
    char dir[64], db[128];
    unsigned port;
    struct buf pool[N_POOL];
    atomic_int next_upload;
    atomic_int stop;
    atomic_long count[K__N], errors, bytes;
    pthread_mutex_t lock; /* the error lines */
    struct buf error_lines;
    int shown;
} L;

struct conn {
    int fd;
    unsigned seed;
    struct buf in;
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int dial(void)
{
    int fd = http_connect(L.port), one = 1;
    if (fd >= 0)
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

/* Reads one response; returns its status (0: the stream broke) and sets
 * *closing when the server announced Connection: close. */
static int read_response(struct conn *c, bool *closing)
{
    char chunk[16384];
    const char *end = NULL;
    c->in.len = 0;
    while (!end) {
        ssize_t k = recv(c->fd, chunk, sizeof chunk, 0);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return 0;
        buf_append(&c->in, chunk, (size_t)k);
        end = strstr(c->in.p, "\r\n\r\n");
    }
    int status = 0;
    sscanf(c->in.p, "HTTP/1.%*d %d", &status);
    size_t head = (size_t)(end + 4 - c->in.p);
    const char *cl = strcasestr(c->in.p, "\r\ncontent-length:");
    size_t want = cl && cl < end ? strtoul(cl + 17, NULL, 10) : 0;
    const char *conn = strcasestr(c->in.p, "\r\nconnection: close");
    *closing = conn && conn < end;
    size_t have = c->in.len - head;
    while (have < want) {
        ssize_t k = recv(c->fd, chunk, sizeof chunk, 0);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return 0;
        have += (size_t)k;
    }
    atomic_fetch_add(&L.bytes, (long)(head + want));
    return status;
}

static void error_line(const char *what, const char *path, int status,
                       int want)
{
    atomic_fetch_add(&L.errors, 1);
    pthread_mutex_lock(&L.lock);
    if (L.shown++ < MAX_ERRORS_SHOWN)
        buf_printf(&L.error_lines, "  %s %s: %d, expected %d\n", what, path,
                   status, want);
    pthread_mutex_unlock(&L.lock);
}

static enum kind pick(unsigned *seed)
{
    int r = (int)(rand_r(seed) % 100);
    for (int k = 0; k < K__N; k++) {
        if (r < kinds[k].weight)
            return (enum kind)k;
        r -= kinds[k].weight;
    }
    return K_LIST;
}

/* The request of kind k into req; *want is the status to expect. */
static void make_request(enum kind k, unsigned *seed, struct buf *req,
                         char *path, size_t cap, int *want)
{
    int id = 1 + (int)(rand_r(seed) % N_SIM); /* loaded before the load */
    const struct buf *body = NULL;
    *want = 200;
    switch (k) {
    case K_UPLOAD: {
        /* the pool once, then its first half again: duplicates of
         * uploads long answered (never of one still in flight) */
        int i = atomic_fetch_add(&L.next_upload, 1);
        body = &L.pool[i < N_POOL ? i : (i - N_POOL) % (N_POOL / 2)];
        *want = i < N_POOL ? 201 : 200;
        snprintf(path, cap, "/api/games");
        break;
    }
    case K_LIST: snprintf(path, cap, "/api/games?limit=50"); break;
    case K_FILTER:
        snprintf(path, cap, "/api/games?player=Ada&verdict=valid&sort=turns"
                 "&order=asc&limit=20&offset=%d", id % 40);
        break;
    case K_GAME: snprintf(path, cap, "/api/games/%d", id); break;
    case K_REPLAY: snprintf(path, cap, "/api/games/%d/replay", id); break;
    case K_RAW: snprintf(path, cap, "/api/games/%d/raw", id); break;
    case K_PLAYERS: snprintf(path, cap, "/api/players"); break;
    case K_PLAYER:
        snprintf(path, cap, "/api/players/%s", id % 2 ? "Ada" : "Ben");
        break;
    case K_STATS: snprintf(path, cap, "/api/stats"); break;
    default:
        snprintf(path, cap, "%s",
                 static_files[(unsigned)id % (sizeof static_files /
                                              sizeof *static_files)]);
        break;
    }
    req->len = 0;
    buf_printf(req, "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\n",
               body ? "POST" : "GET", path);
    if (body) {
        buf_printf(req, "Content-Length: %zu\r\n\r\n", body->len);
        buf_append(req, body->p, body->len);
    } else {
        buf_puts(req, "\r\n");
    }
}

static void *client(void *arg)
{
    struct conn c = { -1, (unsigned)(uintptr_t)arg, BUF_INIT };
    struct buf req = BUF_INIT;
    char path[160];
    while (!atomic_load(&L.stop)) {
        int want = 0;
        bool closing = false;
        enum kind k = pick(&c.seed);
        make_request(k, &c.seed, &req, path, sizeof path, &want);
        if (c.fd < 0)
            c.fd = dial();
        int st = c.fd >= 0 && http_send_all(c.fd, req.p, req.len)
                     ? read_response(&c, &closing)
                     : 0;
        atomic_fetch_add(&L.count[k], 1);
        if (st != want)
            error_line(kinds[k].name, path, st, want);
        if (st == 0 || closing) { /* a new connection for the next one */
            close(c.fd);
            c.fd = -1;
        }
    }
    if (c.fd >= 0)
        close(c.fd);
    buf_release(&c.in);
    buf_release(&req);
    return NULL;
}

/* A "VmHWM:   12345 kB" line of /proc/PID/status, in KiB (0: none). */
static long proc_kb(pid_t pid, const char *field)
{
    char path[64], line[256];
    long kb = 0;
    size_t n = strlen(field);
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, field, n) == 0 && line[n] == ':')
            kb = strtol(line + n + 1, NULL, 10);
    if (f)
        fclose(f);
    return kb;
}

static int setup(void **state)
{
    struct buf *sim = NULL;
    char games[128];
    (void)state;
    snprintf(L.dir, sizeof L.dir, "/tmp/flierd-load-XXXXXX");
    if (!mkdtemp(L.dir))
        return -1;
    snprintf(L.db, sizeof L.db, "%s/games.db", L.dir);
    snprintf(games, sizeof games, "%s/games", L.dir);
    if (games_simulate(games, N_SIM, 77, &sim) != N_SIM)
        return -1;
    for (int i = 0; i < N_POOL; i++) {
        /* copy 0 of each game is loaded with --load: start at 1 */
        buf_append(&L.pool[i], sim[i % N_SIM].p, sim[i % N_SIM].len);
        for (int k = 0; k <= i / N_SIM; k++)
            buf_puts(&L.pool[i], "\n");
    }
    games_free(sim, N_SIM);
    pthread_mutex_init(&L.lock, NULL);
    return 0;
}

static int teardown(void **state)
{
    char cmd[160];
    (void)state;
    for (int i = 0; i < N_POOL; i++)
        buf_release(&L.pool[i]);
    buf_release(&L.error_lines);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", L.dir);
    return system(cmd) == 0 ? 0 : -1;
}

static int load_seconds(void)
{
    const char *s = getenv("LOAD_SECONDS");
    int n = s ? atoi(s) : LOAD_SECONDS;
    return n > 0 ? n : LOAD_SECONDS;
}

static void test_load(void **state)
{
    struct daemon d;
    pthread_t th[CLIENTS];
    char games[128];
    int seconds = load_seconds();
    (void)state;
    snprintf(games, sizeof games, "%s/games", L.dir);
    /* the defaults of `flierd serve` but the rate limits (one address) */
    const char *extra[] = { "--load", games, "--web", FLIERD_WEB_DIR,
                            "--quiet", "--rate-limit", "0",
                            "--write-rate-limit", "0", NULL };
    assert_true(daemon_start(&d, L.db, extra));
    L.port = d.port;
    double t0 = now_s();
    for (int i = 0; i < CLIENTS; i++)
        assert_int_equal(pthread_create(&th[i], NULL, client,
                                        (void *)(uintptr_t)(i + 1)), 0);
    struct timespec left = { seconds, 0 };
    while (nanosleep(&left, &left) != 0 && errno == EINTR)
        ;
    atomic_store(&L.stop, 1);
    for (int i = 0; i < CLIENTS; i++)
        pthread_join(th[i], NULL);
    double took = now_s() - t0;
    long hwm = proc_kb(d.pid, "VmHWM"), rss = proc_kb(d.pid, "VmRSS");
    assert_int_equal(kill(d.pid, 0), 0); /* alive */
    long total = 0;
    for (int k = 0; k < K__N; k++)
        total += atomic_load(&L.count[k]);
    long uploads = atomic_load(&L.count[K_UPLOAD]);
    fprintf(stderr, "load: %d clients for %.0f s: %ld requests (%.0f/s, "
            "%.1f MB/s), %ld uploads (%.0f/s), %ld errors; flierd peak RSS "
            "%.1f MiB (VmHWM; now %.1f MiB), bound %d MiB\n", CLIENTS, took,
            total, (double)total / took,
            (double)atomic_load(&L.bytes) / took / 1e6, uploads,
            (double)uploads / took, atomic_load(&L.errors),
            (double)hwm / 1024.0, (double)rss / 1024.0, RSS_BOUND_MB);
    for (int k = 0; k < K__N; k++)
        fprintf(stderr, "  %-8s %ld\n", kinds[k].name,
                atomic_load(&L.count[k]));
    if (L.error_lines.len)
        fprintf(stderr, "first errors:\n%s", L.error_lines.p);
    assert_int_equal(atomic_load(&L.errors), 0);
    assert_true(total > CLIENTS * seconds); /* it did run */
    assert_true(hwm > 0 && hwm < RSS_BOUND_MB * 1024L);
    assert_int_equal(daemon_stop(&d), 0);
    const char *check[] = { "check", "--db", L.db, NULL };
    struct buf out = BUF_INIT;
    int rc = flierd_run(check, &out);
    fprintf(stderr, "%s", out.p ? out.p : "");
    assert_int_equal(rc, 0);
    buf_release(&out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_load),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
