/* test_http_hostile.c - the daemon against hostile HTTP clients: every route
 * (and every kind of refusal: 400, 401, 404, 405, 409, 413, 429) carries
 * the security headers; static paths do not leave --web DIR however they
 * are spelled (%2e%2e, %2f, backslashes, symbolic links); per-address
 * rate limits answer 429 with Retry-After and a message; clients that
 * trickle their headers or body (slowloris) are cut at the request
 * deadline although each byte restarts the idle timeout. Each test
 * starts its own daemon (tests/integration/daemon.c) on a free port.
 *
 * The rate tests tell clients apart by their source address: any
 * 127.x.y.z is the loopback interface on Linux, so a socket bound to
 * 127.0.0.2 is another client for the daemon on 127.0.0.1. */
#include <stdarg.h> /* cmocka 1.1.5 needs these four first */
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "daemon.h"
#include "http_client.h"
#include "test_files.h"

#define TOKEN "hostile-test-token-7"
#define PAGE "<h1>flierd</h1>\n"
#define SECRET "not for the web\n"
#define SCRIPT "export {};\n"
#define AUTH "Authorization: Bearer " TOKEN "\r\n"
#define LIVE_SETUP                                                          \
    "{\"format\": \"flierlog/1\", \"edition\": \"C2\", \"players\": "       \
    "[{\"name\": \"Liv\"}, {\"name\": \"Max\"}]}"
#define LIVE_MOVE                                                           \
    "{\"turn\": 1, \"player\": \"Liv\", \"tile\": \"BA/RFr\", \"at\": "     \
    "[1, 0], \"rot\": 0, \"deploy\": \"road:WE\"}"

static struct {
    char dir[64];
    char web[128];
    char token[128];
    struct buf game; /* samples/c2-2p.jcz */
} H;

/* ---- helpers ---- */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void pause_ms(long ms)
{
    struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

/* A socket from source address src (NULL: any) to 127.0.0.1:port. */
static int dial_from(unsigned port, const char *src)
{
    struct sockaddr_in a;
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    assert_true(fd >= 0);
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    if (src) {
        assert_int_equal(inet_pton(AF_INET, src, &a.sin_addr), 1);
        assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
    }
    a.sin_port = htons((unsigned short)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    assert_int_equal(connect(fd, (struct sockaddr *)&a, sizeof a), 0);
    return fd;
}

/* Reads one response (Content-Length framed) from a kept-alive
 * connection into r; returns its status, 0 when the stream ends first. */
static int read_response(int fd, struct http_resp *r)
{
    struct buf raw = BUF_INIT;
    char chunk[4096], cl[32];
    const char *end = NULL;
    memset(r, 0, sizeof *r);
    while (!end) {
        ssize_t k = recv(fd, chunk, sizeof chunk, 0);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        buf_append(&raw, chunk, (size_t)k);
        end = strstr(raw.p, "\r\n\r\n");
    }
    if (end && sscanf(raw.p, "HTTP/1.%*d %d", &r->status) == 1) {
        buf_append(&r->head, raw.p, (size_t)(end - raw.p) + 2);
        size_t want = http_header(r, "Content-Length", cl, sizeof cl)
                          ? strtoul(cl, NULL, 10)
                          : 0;
        size_t have = raw.len - (size_t)(end + 4 - raw.p);
        buf_append(&r->body, end + 4, have);
        while (have < want) {
            ssize_t k = recv(fd, chunk, sizeof chunk, 0);
            if (k <= 0)
                break;
            buf_append(&r->body, chunk, (size_t)k);
            have += (size_t)k;
        }
        buf_append(&r->body, "", 0);
    }
    buf_release(&raw);
    return r->status;
}

/* One request from source address src, the connection closed after. */
static int request_from(unsigned port, const char *src, const char *method,
                        const char *path, const char *hdrs, const char *body,
                        struct http_resp *r)
{
    struct buf req = BUF_INIT;
    int fd = dial_from(port, src);
    buf_printf(&req, "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: "
               "close\r\n%sContent-Length: %zu\r\n\r\n%s", method, path,
               hdrs ? hdrs : "", body ? strlen(body) : 0, body ? body : "");
    assert_true(http_send_all(fd, req.p, req.len));
    read_response(fd, r);
    close(fd);
    buf_release(&req);
    return r->status;
}

/* The headers every response carries, whatever its status. */
static void assert_security_headers(const struct http_resp *r,
                                    const char *what)
{
    char v[256];
    bool ok = http_header(r, "Content-Security-Policy", v, sizeof v) &&
              strstr(v, "default-src 'self'") &&
              strstr(v, "frame-ancestors 'none'");
    ok = ok && http_header(r, "X-Content-Type-Options", v, sizeof v) &&
         strcmp(v, "nosniff") == 0;
    ok = ok && http_header(r, "X-Frame-Options", v, sizeof v) &&
         strcmp(v, "DENY") == 0;
    ok = ok && http_header(r, "Referrer-Policy", v, sizeof v) &&
         strcmp(v, "no-referrer") == 0;
    if (!ok)
        fprintf(stderr, "%s: %d without the security headers:\n%s\n", what,
                r->status, r->head.p ? r->head.p : "(no head)");
    assert_true(ok);
}

/* ---- fixture ---- */

static int setup(void **state)
{
    char p[256];
    (void)state;
    snprintf(H.dir, sizeof H.dir, "/tmp/flierd-hostile-XXXXXX");
    if (!mkdtemp(H.dir))
        return -1;
    snprintf(H.web, sizeof H.web, "%s/web", H.dir);
    snprintf(H.token, sizeof H.token, "%s/token", H.dir);
    mkdir(H.web, 0755);
    snprintf(p, sizeof p, "%s/sub", H.web);
    mkdir(p, 0755);
    snprintf(p, sizeof p, "%s/index.html", H.web);
    tf_write(p, PAGE, sizeof PAGE - 1);
    snprintf(p, sizeof p, "%s/sub/app.js", H.web);
    tf_write(p, SCRIPT, sizeof SCRIPT - 1);
    snprintf(p, sizeof p, "%s/secret.txt", H.dir); /* beside web/ */
    tf_write(p, SECRET, sizeof SECRET - 1);
    tf_write(H.token, TOKEN "\n", sizeof TOKEN "\n" - 1);
    tf_read(FLIERD_SAMPLES_DIR "/c2-2p.jcz", &H.game);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    buf_release(&H.game);
    tf_rm_tree(H.dir);
    return 0;
}

static void start(struct daemon *d, const char *name, const char *const *extra)
{
    char db[256];
    snprintf(db, sizeof db, "%s/%s.db", H.dir, name);
    assert_true(daemon_start(d, db, extra));
}

/* ---- static paths ---- */

static void test_static_paths(void **state)
{
    struct daemon d;
    struct http_resp r;
    char p[256], q[256];
    (void)state;
    /* a link to a directory outside web/, one to a file outside, and one
     * that stays inside (served: links are judged by where they lead) */
    snprintf(p, sizeof p, "%s/out", H.web);
    assert_int_equal(symlink(H.dir, p), 0);
    snprintf(p, sizeof p, "%s/leak.txt", H.web);
    snprintf(q, sizeof q, "%s/secret.txt", H.dir);
    assert_int_equal(symlink(q, p), 0);
    snprintf(p, sizeof p, "%s/alias.html", H.web);
    assert_int_equal(symlink("index.html", p), 0);
    const char *extra[] = { "--web", H.web, "--quiet", NULL };
    start(&d, "static", extra);

    static const char *const served[] = { "/", "/index.html", "/alias.html",
                                          "/sub/app.js", "/games/12" };
    for (size_t i = 0; i < sizeof served / sizeof *served; i++) {
        assert_int_equal(http_do(d.port, "GET", served[i], NULL, NULL, 0,
                                 false, &r), 200);
        assert_security_headers(&r, served[i]);
        http_resp_release(&r);
    }
    static const char *const refused[] = {
        "/../secret.txt",        "/%2e%2e/secret.txt",
        "/%2E%2E/secret.txt",    "/%2e%2e%2fsecret.txt",
        "/sub/..%2f..%2fsecret.txt", "/sub%2f..%2f..%2fsecret.txt",
        "/..%5csecret.txt",      "/sub/%2e%2e/%2e%2e/secret.txt",
        "/%252e%252e/secret.txt", "/out/secret.txt",
        "/leak.txt",
        "/sub/../../secret.txt", "/./index.html",
        "/out%2fsecret.txt",
    };
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        int st = http_do(d.port, "GET", refused[i], NULL, NULL, 0, false, &r);
        if (st != 404 || strstr(r.body.p, "not for the web"))
            fprintf(stderr, "GET %s: %d %s\n", refused[i], st, r.body.p);
        assert_int_equal(st, 404);
        assert_null(strstr(r.body.p, "not for the web"));
        assert_security_headers(&r, refused[i]);
        http_resp_release(&r);
    }
    assert_int_equal(daemon_stop(&d), 0);
}

/* ---- every route, every refusal: the security headers ---- */

#define MAX_ROUTES 64
struct walk {
    unsigned port;
    char routes[MAX_ROUTES][96]; /* "METHOD PATTERN" of routes.c */
    bool answered[MAX_ROUTES];   /* with a 2xx */
    int n_routes, n_requests;
};

/* The route table, read from src/http/routes.c itself: a route added
 * there fails this test until the walk below covers it. */
static void read_routes(struct walk *w)
{
    struct buf src = BUF_INIT;
    tf_read(FLIERD_SAMPLES_DIR "/../src/http/routes.c", &src);
    const char *p = strstr(src.p, "routes[] = {");
    const char *end = p ? strstr(p, "};") : NULL;
    assert_non_null(end);
    char method[16], pattern[64];
    while ((p = strstr(p, "{ \"")) != NULL && p < end) {
        assert_int_equal(sscanf(p, "{ \"%15[A-Z]\", \"%63[^\"]\"", method,
                                pattern), 2);
        assert_true(w->n_routes < MAX_ROUTES);
        snprintf(w->routes[w->n_routes++], sizeof w->routes[0], "%s %s",
                 method, pattern);
        p += 3;
    }
    assert_true(w->n_routes >= 10);
    buf_release(&src);
}

/* One request; checks its status and headers, and an error's JSON.
 * route names the routes.c entry it exercises (NULL: none). Returns the
 * body (the caller releases r). */
static void step(struct walk *w, const char *method, const char *path,
                 const char *hdrs, const char *body, size_t len, int want,
                 const char *route, struct http_resp *r)
{
    int st = http_do(w->port, method, path, hdrs, body, len, false, r);
    char what[160];
    snprintf(what, sizeof what, "%s %s", method, path);
    if (st != want)
        fprintf(stderr, "%s: %d, not %d: %s\n", what, st, want,
                r->body.p ? r->body.p : "");
    assert_int_equal(st, want);
    assert_security_headers(r, what);
    if (want >= 400 && strcmp(method, "HEAD") != 0)
        assert_non_null(strstr(r->body.p, "{\"error\": \""));
    w->n_requests++;
    for (int i = 0; route && i < w->n_routes; i++)
        if (strcmp(w->routes[i], route) == 0 && want < 300)
            w->answered[i] = true;
}

/* step() when the body is not needed. */
static void check(struct walk *w, const char *method, const char *path,
                  const char *hdrs, const char *body, int want,
                  const char *route)
{
    struct http_resp r;
    step(w, method, path, hdrs, body, body ? strlen(body) : 0, want, route,
         &r);
    http_resp_release(&r);
}

/* The id in a {"id": N, ...} answer. */
static long long id_of(const struct http_resp *r)
{
    const char *p = strstr(r->body.p, "\"id\":");
    assert_non_null(p);
    return strtoll(p + 5, NULL, 10);
}

static void walk_games(struct walk *w)
{
    struct http_resp r;
    char path[96];
    size_t big = (1u << 20) + 1;
    char *huge = calloc(1, big);
    check(w, "POST", "/api/games", NULL, "{}", 401, NULL);
    check(w, "POST", "/api/games", "Authorization: Bearer not-the-token\r\n",
          "{}", 401, NULL);
    step(w, "POST", "/api/games", AUTH, H.game.p, H.game.len, 201,
         "POST /api/games", &r);
    long long id = id_of(&r);
    http_resp_release(&r);
    step(w, "POST", "/api/games", AUTH, H.game.p, H.game.len, 200,
         "POST /api/games", &r);
    http_resp_release(&r);
    check(w, "POST", "/api/games", AUTH, "{\"cut", 400, NULL);
    step(w, "POST", "/api/games", AUTH, huge, big, 413, NULL, &r);
    http_resp_release(&r);
    free(huge);
    check(w, "GET", "/api/games", NULL, NULL, 200, "GET /api/games");
    check(w, "HEAD", "/api/games", NULL, NULL, 200, "GET /api/games");
    check(w, "GET", "/api/games?verdict=maybe", NULL, NULL, 400, NULL);
    snprintf(path, sizeof path, "/api/games/%lld", id);
    check(w, "GET", path, NULL, NULL, 200, "GET /api/games/{id}");
    snprintf(path, sizeof path, "/api/games/%lld/raw", id);
    check(w, "GET", path, NULL, NULL, 200, "GET /api/games/{id}/raw");
    snprintf(path, sizeof path, "/api/games/%lld/replay", id);
    check(w, "GET", path, NULL, NULL, 200, "GET /api/games/{id}/replay");
    check(w, "GET", "/api/games/999999", NULL, NULL, 404, NULL);
    check(w, "GET", "/api/games/999999/replay", NULL, NULL, 404, NULL);
    check(w, "GET", "/api/players", NULL, NULL, 200, "GET /api/players");
    check(w, "GET", "/api/players/Ada", NULL, NULL, 200,
          "GET /api/players/{name*}");
    check(w, "GET", "/api/players/No%2FOne", NULL, NULL, 404, NULL);
    check(w, "GET", "/api/stats", NULL, NULL, 200, "GET /api/stats");
    check(w, "GET", "/api/upload", NULL, NULL, 200, "GET /api/upload");
}

static void walk_live(struct walk *w)
{
    struct http_resp r;
    char moves[96], finish[96];
    check(w, "POST", "/api/live", NULL, LIVE_SETUP, 401, NULL);
    step(w, "POST", "/api/live", AUTH, LIVE_SETUP, strlen(LIVE_SETUP), 201,
         "POST /api/live", &r);
    long long id = id_of(&r);
    http_resp_release(&r);
    snprintf(moves, sizeof moves, "/api/live/%lld/moves", id);
    snprintf(finish, sizeof finish, "/api/live/%lld/finish", id);
    check(w, "POST", moves, AUTH, "{\"turn\": 1, \"player\": \"Liv\", "
          "\"tile\": \"BA/RFr\", \"at\": [9, 9], \"rot\": 0}", 422, NULL);
    check(w, "POST", moves, AUTH, LIVE_MOVE, 200,
          "POST /api/live/{id}/moves");
    char options[96], undo[96];
    snprintf(options, sizeof options, "/api/live/%lld/options", id);
    snprintf(undo, sizeof undo, "/api/live/%lld/undo?turn=1", id);
    check(w, "GET", options, NULL, NULL, 200, "GET /api/live/{id}/options");
    check(w, "POST", options, AUTH, "", 405, NULL);
    check(w, "POST", undo, NULL, "", 401, NULL);
    check(w, "POST", undo, AUTH, "", 200, "POST /api/live/{id}/undo");
    /* a spectator's wait: without a version it answers at once */
    char wait[96];
    snprintf(wait, sizeof wait, "/api/games/%lld/wait", id);
    check(w, "GET", wait, NULL, NULL, 200, "GET /api/games/{id}/wait");
    check(w, "GET", "/api/games/999999/wait", NULL, NULL, 404, NULL);
    check(w, "POST", moves, AUTH, LIVE_MOVE, 200, NULL);
    check(w, "POST", finish, AUTH, "", 200, "POST /api/live/{id}/finish");
    check(w, "GET", options, NULL, NULL, 409, NULL);
    check(w, "POST", moves, AUTH, LIVE_MOVE, 409, NULL);
    check(w, "POST", "/api/live/999999/moves", AUTH, LIVE_MOVE, 404, NULL);
    char game[96], name[112];
    snprintf(game, sizeof game, "/api/games/%lld", id);
    snprintf(name, sizeof name, "/api/games/%lld/name", id);
    check(w, "POST", name, NULL, "x.flierlog", 401, NULL);
    check(w, "POST", name, AUTH, "", 400, NULL);
    check(w, "POST", name, AUTH, "x.flierlog", 200,
          "POST /api/games/{id}/name");
    check(w, "DELETE", game, NULL, NULL, 401, NULL);
    check(w, "DELETE", game, AUTH, NULL, 200, "DELETE /api/games/{id}");
    check(w, "DELETE", game, AUTH, NULL, 404, NULL);
}

static void walk_rest(struct walk *w)
{
    check(w, "GET", "/healthz", NULL, NULL, 200, "GET /healthz");
    check(w, "GET", "/metrics", NULL, NULL, 200, "GET /metrics");
    check(w, "GET", "/api/nothing", NULL, NULL, 404, NULL);
    check(w, "GET", "/api", NULL, NULL, 404, NULL);
    check(w, "DELETE", "/api/games", NULL, NULL, 405, NULL);
    check(w, "PUT", "/healthz", NULL, NULL, 405, NULL);
    check(w, "GET", "/api/live", NULL, NULL, 405, NULL);
    check(w, "POST", "/index.html", AUTH, "x", 405, NULL);
    /* static files, the router's fallback, a miss, an escape */
    check(w, "GET", "/", NULL, NULL, 200, NULL);
    check(w, "GET", "/sub/app.js", NULL, NULL, 200, NULL);
    check(w, "GET", "/stats", NULL, NULL, 200, NULL);
    check(w, "GET", "/missing.js", NULL, NULL, 404, NULL);
    check(w, "GET", "/%2e%2e/token", NULL, NULL, 404, NULL);
}

/* Reads until the limit answers: 429, with Retry-After and the headers. */
static void walk_429(struct walk *w)
{
    struct http_resp r;
    char v[32];
    int st = 200;
    for (int i = 0; i < 400 && st != 429; i++) {
        st = http_do(w->port, "GET", "/api/stats", NULL, NULL, 0, false, &r);
        assert_true(st == 200 || st == 429);
        if (st != 429)
            http_resp_release(&r);
    }
    assert_int_equal(st, 429);
    assert_security_headers(&r, "GET /api/stats (429)");
    assert_true(http_header(&r, "Retry-After", v, sizeof v));
    assert_true(atoi(v) >= 1);
    assert_non_null(strstr(r.body.p, "too many requests from 127.0.0.1"));
    http_resp_release(&r);
    check(w, "POST", "/api/games", AUTH, "{}", 429, NULL);
    check(w, "GET", "/nowhere", NULL, NULL, 429, NULL);
    check(w, "GET", "/stats", NULL, NULL, 429, NULL); /* the router's page */
    /* the dashboard's own files are not counted: a page load revalidates
     * each of its modules, and the bucket is empty now */
    for (int i = 0; i < 300; i++)
        check(w, "GET", "/sub/app.js", NULL, NULL, 200, NULL);
}

static void test_every_route_has_headers(void **state)
{
    struct daemon d;
    struct walk w;
    (void)state;
    memset(&w, 0, sizeof w);
    read_routes(&w);
    /* a read burst that the walk stays under, refilled slowly so that
     * walk_429 reaches the limit in a bounded number of requests */
    const char *extra[] = { "--web", H.web, "--token-file", H.token,
                            "--rate-limit", "1", "--rate-burst", "120",
                            "--write-rate-limit", "0", "--quiet", NULL };
    start(&d, "walk", extra);
    w.port = d.port;
    walk_games(&w);
    walk_live(&w);
    walk_rest(&w);
    assert_true(w.n_requests < 120);
    for (int i = 0; i < w.n_routes; i++) {
        if (!w.answered[i])
            fprintf(stderr, "route %s is not walked by this test\n",
                    w.routes[i]);
        assert_true(w.answered[i]);
    }
    walk_429(&w);
    assert_int_equal(daemon_stop(&d), 0);
}

/* ---- rate limits ---- */

/* Requests from src until the first 429 (at most cap); returns how many
 * were answered before it, and that 429 in r. */
static int until_429(unsigned port, const char *src, const char *method,
                     const char *path, const char *body, int cap,
                     struct http_resp *r)
{
    for (int n = 0; n < cap; n++) {
        int st = request_from(port, src, method, path, NULL, body, r);
        assert_true(st != 0);
        if (st == 429)
            return n;
        http_resp_release(r);
    }
    fail_msg("%s %s from %s: no 429 in %d requests", method, path, src, cap);
    return -1;
}

static void test_rate_limits(void **state)
{
    struct daemon d;
    struct http_resp r;
    char v[32];
    (void)state;
    const char *extra[] = { "--rate-limit", "2", "--rate-burst", "5",
                            "--write-rate-limit", "1", "--write-burst", "2",
                            "--quiet", NULL };
    start(&d, "rate", extra);

    /* Reads: the burst, then 429; a 404 counts like any request. */
    double t0 = now_s();
    int n = until_429(d.port, "127.0.0.2", "GET", "/api/nothing", NULL, 50,
                      &r);
    double took = now_s() - t0;
    assert_true(n >= 5);
    assert_true(n <= 5 + (int)(took * 2) + 1); /* what refilled meanwhile */
    assert_security_headers(&r, "429");
    assert_true(http_header(&r, "Retry-After", v, sizeof v));
    assert_string_equal(v, "1"); /* a token every 0.5 s, rounded up */
    assert_non_null(strstr(r.body.p, "{\"error\": \"GET /api/nothing: too "
                                     "many requests from 127.0.0.2: the "
                                     "limit is 2 a second (bursts of 5); "
                                     "try again in 1 s\"}"));
    http_resp_release(&r);
    /* Another address has its own bucket. */
    assert_int_equal(request_from(d.port, "127.0.0.3", "GET", "/healthz",
                                  NULL, NULL, &r), 200);
    http_resp_release(&r);
    /* After Retry-After, the limited address is served again. */
    pause_ms(1000);
    assert_int_equal(request_from(d.port, "127.0.0.2", "GET", "/healthz",
                                  NULL, NULL, &r), 200);
    http_resp_release(&r);

    /* Writes: their own smaller bucket, on top of the read one. A
     * refused upload is not stored. */
    t0 = now_s();
    n = until_429(d.port, "127.0.0.4", "POST", "/api/live", LIVE_SETUP, 20,
                  &r);
    took = now_s() - t0;
    assert_true(n >= 2 && n <= 2 + (int)took + 1);
    assert_non_null(strstr(r.body.p, "too many writes from 127.0.0.4: the "
                                     "limit is 1 a second (bursts of 2)"));
    assert_true(http_header(&r, "Retry-After", v, sizeof v));
    http_resp_release(&r);
    /* reads from that address still pass: the refusals took nothing */
    assert_int_equal(request_from(d.port, "127.0.0.4", "GET", "/api/games",
                                  NULL, NULL, &r), 200);
    char total[32];
    snprintf(total, sizeof total, "\"total\":%d,", n);
    if (!strstr(r.body.p, total))
        fprintf(stderr, "want %s in %s\n", total, r.body.p);
    assert_non_null(strstr(r.body.p, total));
    http_resp_release(&r);
    assert_int_equal(daemon_stop(&d), 0);
}

/* ---- slowloris ---- */

/* Has the server ended the stream of fd? (Waits up to ms.) */
static bool ended(int fd, int ms)
{
    struct pollfd p = { fd, POLLIN, 0 };
    char c;
    if (poll(&p, 1, ms) != 1)
        return false;
    ssize_t k = recv(fd, &c, 1, MSG_DONTWAIT);
    return k == 0 || (k < 0 && errno != EAGAIN && errno != EWOULDBLOCK);
}

static void test_slowloris(void **state)
{
    struct daemon d;
    struct http_resp r;
    (void)state;
    /* Idle timeout 1 s, deadline 1 + 1 s. */
    const char *extra[] = { "--timeout", "1", "--request-timeout", "1",
                            NULL };
    start(&d, "slow", extra);
    /* One client trickles its headers, one its body, a byte every 300 ms:
     * each byte restarts the idle timeout, which alone never fires. */
    static const char head[] = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                               "X-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
    static const char post[] = "POST /api/games HTTP/1.1\r\nHost: x\r\n"
                               "Content-Length: 1000\r\n\r\n";
    int a = dial_from(d.port, NULL), b = dial_from(d.port, NULL);
    assert_true(http_send_all(b, post, strlen(post)));
    double t0 = now_s(), cut_a = 0, cut_b = 0;
    for (size_t i = 0; (cut_a == 0 || cut_b == 0) && now_s() - t0 < 10; i++) {
        const char *next = head + i % (sizeof head - 1);
        if (cut_a == 0 && (!http_send_all(a, next, 1) || ended(a, 0)))
            cut_a = now_s() - t0;
        if (cut_b == 0 && (!http_send_all(b, "{", 1) || ended(b, 0)))
            cut_b = now_s() - t0;
        /* the daemon serves others meanwhile */
        if (i % 4 == 0) {
            assert_int_equal(http_do(d.port, "GET", "/healthz", NULL, NULL, 0,
                                     false, &r), 200);
            http_resp_release(&r);
        }
        pause_ms(300);
    }
    close(a);
    close(b);
    fprintf(stderr, "trickled headers cut after %.1f s, body after %.1f s\n",
            cut_a, cut_b);
    assert_true(cut_a >= 1.5 && cut_a < 5);
    assert_true(cut_b >= 1.5 && cut_b < 5);
    assert_true(daemon_wait_log(&d, "no whole request within 2 s", 5000));

    /* A kept-alive client that asks now and then is never cut: the
     * deadline starts again after every reply. */
    int k = dial_from(d.port, NULL);
    static const char get[] = "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n";
    for (int i = 0; i < 5; i++) { /* 5 x 0.6 s, past the 2 s deadline */
        assert_true(http_send_all(k, get, strlen(get)));
        assert_int_equal(read_response(k, &r), 200);
        http_resp_release(&r);
        pause_ms(600);
    }
    close(k);
    assert_int_equal(daemon_stop(&d), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_static_paths),
        cmocka_unit_test(test_every_route_has_headers),
        cmocka_unit_test(test_rate_limits),
        cmocka_unit_test(test_slowloris),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
