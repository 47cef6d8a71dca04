/* fuzz_http.c - libFuzzer target: HTTP requests to the real daemon,
 * started in this process once (two servers: one open, one with a
 * token; a temporary folder holds their databases and a small web root)
 * and reached over loopback sockets, one connection per request.
 *
 * An input is up to four requests separated by SEP. A request is
 *
 *   byte 0   mode: bits 0-2 the method, bit 3 the server with the
 *            token, bit 4 a chunked body; 0xF0 and above: raw mode, the
 *            rest of the request goes out as it is
 *   byte 1   the route template (routes[] below)
 *   line     the value of {p} in the template, percent-encoded where
 *            the request line needs it ('%' and '/' kept, so encoded
 *            dots and slashes reach the decoder)
 *   line     the query string
 *   lines    "Name: value" headers, up to an empty line
 *   rest     the body (its Content-Length is computed)
 *
 * {last} in a template is the id of the last game an earlier request of
 * the same input created or found (from its Location header), so that
 * an input can upload or start a live game and then read or extend it.
 *
 * Every request must get a well-formed status line. One that reached
 * our code (all structured requests: they are valid HTTP) must not get a
 * 5xx, must carry the security headers, a JSON body when it says JSON,
 * and never the bytes of the files static.c must not serve.
 *
 * FUZZ_HTTP_VERBOSE=1 prints each request line, the answer and the time
 * (to see what a corpus reaches). */
#define _XOPEN_SOURCE 700 /* nftw */
#include <arpa/inet.h>
#include <errno.h>
#include <ftw.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "fuzz_common.h"
#include "http/http.h"
#include "util/buf.h"

#define SEP "\n=next=\n"
#define MAX_REQUESTS 4
#define MAX_BODY (64u << 10)
#define TOKEN "fuzz-token"
/* The content of the files static.c must not serve. The fuzzer learns
 * the bytes the harness compares with, so they must be bytes no other
 * answer can carry: a JSON message stops at a NUL and escapes 0xFF, and
 * no upload with them parses (so /raw cannot give them back). */
static const char secret[] = "flierd-fuzz-secret\0\xff\n";
#define SECRET_LEN (sizeof secret - 1)
#define ANSWER_TIMEOUT_S 20

static const char *const methods[8] = { "GET",    "HEAD",    "POST",
                                        "PUT",    "DELETE",  "OPTIONS",
                                        "PATCH",  "PROPFIND" };

static const char *const routes[] = {
    "/api/games",           "/api/games/{p}",       "/api/games/{last}",
    "/api/games/{last}/raw", "/api/games/{last}/replay",
    "/api/games/{p}/raw",   "/api/games/{p}/replay", "/api/players",
    "/api/players/{p}",     "/api/stats",           "/api/live",
    "/api/live/{last}/moves", "/api/live/{last}/finish",
    "/api/live/{p}/moves",  "/api/live/{p}/finish", "/healthz",
    "/metrics",             "/",                    "/{p}",
    "/index.html",          "/games/{p}",           "/api/{p}",
    "{p}",                  "/pages/{p}",
};
#define N_ROUTES (sizeof routes / sizeof routes[0])

static char base_dir[256];
static struct server *servers[2]; /* [0] open, [1] with the token */
static unsigned ports[2];
static bool verbose; /* FUZZ_HTTP_VERBOSE=1: one line per request */

/* ---- the temporary folder ---- */

static void write_file(const char *name, const char *text, size_t len)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", base_dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(text, 1, len, f) != len || fclose(f) != 0)
        fuzz_fail(path, strerror(errno));
}

static void write_text(const char *name, const char *text)
{
    write_file(name, text, strlen(text));
}

static void make_tree(void)
{
    const char *tmp = getenv("TMPDIR");
    char path[512];
    snprintf(base_dir, sizeof base_dir, "%s/flierd-fuzz-XXXXXX",
             tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(base_dir))
        fuzz_fail("mkdtemp", strerror(errno));
    snprintf(path, sizeof path, "%s/web", base_dir);
    mkdir(path, 0700);
    snprintf(path, sizeof path, "%s/web/pages", base_dir);
    mkdir(path, 0700);
    write_text("web/index.html", "<!doctype html><title>flierd</title>\n");
    write_text("web/app.js", "export const app = 1;\n");
    write_text("web/pages/games.js", "export const games = 2;\n");
    /* what static.c must never serve: a dot file, and a file outside
     * the root reached through a link inside it */
    write_file("web/.hidden", secret, SECRET_LEN);
    write_file("secret.txt", secret, SECRET_LEN);
    snprintf(path, sizeof path, "%s/web/link.txt", base_dir);
    if (symlink("../secret.txt", path) != 0)
        fuzz_fail("symlink", strerror(errno));
}

static int remove_one(const char *path, const struct stat *sb, int type,
                      struct FTW *ftw)
{
    (void)sb;
    (void)type;
    (void)ftw;
    return remove(path);
}

static void stop_servers(void)
{
    for (int i = 0; i < 2; i++) {
        server_stop(servers[i], 1000);
        servers[i] = NULL;
    }
    if (base_dir[0])
        nftw(base_dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void start_server(int i)
{
    static char db[2][300], web[300];
    struct http_config c;
    struct err e;

    snprintf(db[i], sizeof db[i], "%s/%s.db", base_dir, i ? "token" : "open");
    snprintf(web, sizeof web, "%s/web", base_dir);
    http_config_init(&c);
    c.db_path = db[i];
    c.host = "127.0.0.1";
    c.port = 0;
    c.web_dir = web;
    c.token = i ? TOKEN : NULL;
    c.max_body = MAX_BODY;
    c.threads = 2;
    /* Raw requests may stop halfway, and the server keeps such a
     * connection until its timeout: keep that short, and allow the
     * connections to pile up meanwhile. Every request comes from
     * 127.0.0.1, hundreds a second: no rate limits. */
    c.timeout_s = 1;
    c.per_ip = 512;
    c.max_conns = 512;
    c.rate = 0;
    c.write_rate = 0;
    c.log = NULL;
    if (server_start(&c, &servers[i], &e) != ST_OK)
        fuzz_fail("server_start", e.msg);
    ports[i] = server_port(servers[i]);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    verbose = getenv("FUZZ_HTTP_VERBOSE") != NULL;
    make_tree();
    start_server(0);
    start_server(1);
    atexit(stop_servers);
    return 0;
}

/* ---- building a request ---- */

struct span {
    const uint8_t *p;
    size_t n;
};

/* Cuts s at the first occurrence of sep: *head before it, s after it
 * (s empty when there is none). */
static void cut(struct span *s, const char *sep, struct span *head)
{
    size_t k = strlen(sep);
    *head = *s;
    for (size_t i = 0; i + k <= s->n; i++)
        if (memcmp(s->p + i, sep, k) == 0) {
            head->n = i;
            s->p += i + k;
            s->n -= i + k;
            return;
        }
    s->p += s->n;
    s->n = 0;
}

/* Appends s with the bytes a request line cannot hold, and those in
 * escape, percent-encoded; '%' stays, so encoded bytes reach the
 * decoder as the fuzzer wrote them. */
static void encode(struct buf *b, struct span s, const char *escape)
{
    for (size_t i = 0; i < s.n; i++) {
        unsigned char c = s.p[i];
        if (c > 0x20 && c < 0x7f && !strchr(escape, c))
            buf_append(b, (const char *)&s.p[i], 1);
        else
            buf_printf(b, "%%%02X", c);
    }
}

static void expand_route(struct buf *b, const char *tpl, struct span param,
                         long long last)
{
    for (const char *t = tpl; *t;) {
        if (strncmp(t, "{p}", 3) == 0) {
            encode(b, param, "?#");
            t += 3;
        } else if (strncmp(t, "{last}", 6) == 0) {
            buf_printf(b, "%lld", last);
            t += 6;
        } else {
            buf_append(b, t++, 1);
        }
    }
}

static bool is_tchar(unsigned char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
           (c >= 'A' && c <= 'Z') || (c && strchr("!#$%&'*+-.^_`|~", c));
}

/* One "Name: value" line as a valid header, or nothing. The framing is
 * the harness's: a Content-Length is kept only when it announces more
 * than the cap (the early 413), as any other would hang the request;
 * returns true when it was kept. */
static bool add_header(struct buf *b, struct span line)
{
    const uint8_t *colon = memchr(line.p, ':', line.n);
    if (!colon || colon == line.p)
        return false;
    size_t nl = (size_t)(colon - line.p), start = b->len;
    for (size_t i = 0; i < nl; i++)
        buf_append(b, is_tchar(line.p[i]) ? (const char *)&line.p[i] : "-",
                   1);
    const char *name = b->p + start;
    bool cl = strncasecmp(name, "Content-Length", nl) == 0 && nl == 14;
    if ((nl == 4 && strncasecmp(name, "Host", 4) == 0) ||
        (nl == 10 && strncasecmp(name, "Connection", 10) == 0) ||
        (nl == 17 && strncasecmp(name, "Transfer-Encoding", 17) == 0)) {
        b->len = start;
        b->p[start] = '\0';
        return false;
    }
    buf_puts(b, ":");
    size_t vstart = b->len;
    for (const uint8_t *v = colon + 1; v < line.p + line.n; v++) {
        char c = *v < 0x20 && *v != '\t' ? ' ' : *v == 0x7f ? ' ' : (char)*v;
        buf_append(b, &c, 1);
    }
    if (cl) {
        char *end;
        unsigned long long n = strtoull(b->p + vstart, &end, 10);
        if (end == b->p + vstart || *end != '\0' || n <= MAX_BODY ||
            strchr(b->p + vstart, '-')) {
            b->len = start;
            b->p[start] = '\0';
            return false;
        }
    }
    buf_puts(b, "\r\n");
    return cl;
}

static void add_body(struct buf *b, struct span body, bool chunked,
                     bool has_length)
{
    if (has_length) { /* over the cap: answered before the body */
        buf_puts(b, "\r\n");
        buf_append(b, (const char *)body.p, body.n);
        return;
    }
    if (!chunked) {
        buf_printf(b, "Content-Length: %zu\r\n\r\n", body.n);
        buf_append(b, (const char *)body.p, body.n);
        return;
    }
    buf_puts(b, "Transfer-Encoding: chunked\r\n\r\n");
    for (size_t at = 0; at < body.n; at += 4096) {
        size_t n = body.n - at < 4096 ? body.n - at : 4096;
        buf_printf(b, "%zx\r\n", n);
        buf_append(b, (const char *)body.p + at, n);
        buf_puts(b, "\r\n");
    }
    buf_puts(b, "0\r\n\r\n");
}

/* Turns one structured request into HTTP text. */
static void build_request(struct span in, long long last, struct buf *out,
                          const char **method)
{
    unsigned mode = in.p[0];
    struct span param, query, line;
    bool has_length = false;

    *method = methods[mode & 7];
    buf_printf(out, "%s ", *method);
    in.p++;
    in.n--;
    const char *tpl = routes[(in.n ? in.p[0] : 0) % N_ROUTES];
    if (in.n) {
        in.p++;
        in.n--;
    }
    cut(&in, "\n", &param);
    cut(&in, "\n", &query);
    size_t path_at = out->len;
    expand_route(out, tpl, param, last);
    if (out->len == path_at)
        buf_puts(out, "/");
    if (query.n) {
        buf_puts(out, "?");
        encode(out, query, "#");
    }
    buf_puts(out, " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n");
    for (;;) {
        cut(&in, "\n", &line);
        if (line.n && line.p[line.n - 1] == '\r')
            line.n--;
        if (line.n == 0)
            break;
        has_length |= add_header(out, line);
    }
    add_body(out, in, mode & 16, has_length);
}

/* ---- checking the answer ---- */

struct answer {
    int status;
    const char *head, *body; /* in the response buffer */
    size_t head_len, body_len;
};

/* Parses the final response (after any 100 Continue). */
static bool parse_answer(const struct buf *resp, struct answer *a)
{
    if (!resp->p)
        return false;
    const char *p = resp->p, *end = resp->p + resp->len;
    for (;;) {
        if (end - p < 13 || strncmp(p, "HTTP/1.", 7) != 0 ||
            (p[7] != '0' && p[7] != '1') || p[8] != ' ' || p[12] != ' ')
            return false;
        a->status = 0;
        for (int i = 9; i < 12; i++) {
            if (p[i] < '0' || p[i] > '9')
                return false;
            a->status = a->status * 10 + (p[i] - '0');
        }
        if (a->status < 100 || a->status > 599)
            return false;
        const char *he = NULL;
        for (const char *q = p; q + 4 <= end; q++)
            if (memcmp(q, "\r\n\r\n", 4) == 0) {
                he = q + 4;
                break;
            }
        if (!he)
            return false;
        if (a->status >= 200) {
            a->head = p;
            a->head_len = (size_t)(he - p);
            a->body = he;
            a->body_len = (size_t)(end - he);
            return true;
        }
        p = he;
    }
}

/* The value of header name in a's head (case-insensitive), into out. */
static bool header_of(const struct answer *a, const char *name, char *out,
                      size_t len)
{
    size_t k = strlen(name);
    for (const char *l = a->head; l < a->head + a->head_len;) {
        const char *eol = memchr(l, '\n', (size_t)(a->head + a->head_len - l));
        if (!eol)
            break;
        if ((size_t)(eol - l) > k && strncasecmp(l, name, k) == 0 &&
            l[k] == ':') {
            const char *v = l + k + 1;
            while (*v == ' ')
                v++;
            size_t n = (size_t)(eol - v);
            if (n && v[n - 1] == '\r')
                n--;
            if (n >= len)
                n = len - 1;
            memcpy(out, v, n);
            out[n] = '\0';
            return true;
        }
        l = eol + 1;
    }
    return false;
}

/* A raw request may leave the connection open (keep-alive), and
 * libmicrohttpd may keep a connection whose client has shut its side
 * down until the idle timeout: a raw exchange ends with the first whole
 * response instead. */
static bool whole_response(const struct buf *resp, bool head)
{
    struct answer a;
    char v[32];
    if (!parse_answer(resp, &a))
        return false;
    if (head || a.status == 204 || a.status == 304)
        return true;
    if (!header_of(&a, "Content-Length", v, sizeof v))
        return false;
    return a.body_len >= strtoull(v, NULL, 10);
}

/* ---- talking to the server ---- */

/* libFuzzer's -timeout sends this process a SIGALRM every timeout/2 + 1
 * seconds, and whichever thread takes it: a blocking connect(), send()
 * or recv() of ours then fails with EINTR (1,800 runs of 60 s in CI once
 * read that as the server closing without an answer). An interrupted
 * connect() goes on in the background; waits for it to finish. */
static bool connected_after_signal(int fd)
{
    struct pollfd p = { fd, POLLOUT, 0 };
    int rc, err = 0;
    socklen_t len = sizeof err;
    do
        rc = poll(&p, 1, ANSWER_TIMEOUT_S * 1000);
    while (rc < 0 && errno == EINTR);
    if (rc != 1 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0)
        return false;
    errno = err;
    return err == 0;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Sends req and reads until the server closes (raw: or a whole response
 * is in). Returns false when the server neither answered nor closed
 * within ANSWER_TIMEOUT_S (its own idle timeout is 1 s). Interrupted
 * calls are retried (above; an EINTR taken for the server's end read as
 * an empty answer), within that time all told: each retry starts
 * SO_RCVTIMEO again. */
static bool exchange(unsigned port, const struct buf *req, bool raw,
                     struct buf *resp)
{
    struct sockaddr_in a;
    struct timeval tv = { ANSWER_TIMEOUT_S, 0 };
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        fuzz_fail("socket", strerror(errno));
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0 &&
        !(errno == EINTR && connected_after_signal(fd)))
        fuzz_fail("connect to the daemon", strerror(errno));
    double until = now_s() + ANSWER_TIMEOUT_S;
    /* an early answer (401, 404, 413) may close before all is sent */
    for (size_t at = 0; at < req->len;) {
        ssize_t n = send(fd, req->p + at, req->len - at, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR && now_s() < until)
            continue;
        if (n <= 0)
            break;
        at += (size_t)n;
    }
    if (raw)
        shutdown(fd, SHUT_WR);
    bool answered = true;
    for (;;) {
        char chunk[16384];
        ssize_t n = recv(fd, chunk, sizeof chunk, 0);
        if (n > 0) {
            buf_append(resp, chunk, (size_t)n);
            if (raw && whole_response(resp, strncmp(req->p, "HEAD", 4) == 0))
                break;
            continue;
        }
        if (n < 0 && errno == EINTR && now_s() < until)
            continue;
        if (n < 0 &&
            (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK))
            answered = false;
        break;
    }
    close(fd);
    return answered;
}

static void fail_with(const char *why, const struct buf *req,
                      const struct buf *resp)
{
    fprintf(stderr, "request:\n%.*s\nresponse:\n%.*s\n",
            (int)(req->len < 3000 ? req->len : 3000), req->p,
            (int)(resp->len < 3000 ? resp->len : 3000),
            resp->p ? resp->p : "");
    fuzz_fail("fuzz_http", why);
}

/* What every answer of our own code must be. */
static void check_ours(const struct answer *a, const char *method,
                       const struct buf *req, const struct buf *resp)
{
    static const char *const sec[] = { "Content-Security-Policy",
                                       "X-Content-Type-Options",
                                       "X-Frame-Options", "Referrer-Policy" };
    char v[256];

    if (a->status >= 500)
        fail_with("a 5xx answer", req, resp);
    for (size_t i = 0; i < sizeof sec / sizeof sec[0]; i++)
        if (!header_of(a, sec[i], v, sizeof v))
            fail_with("a security header is missing", req, resp);
    if (a->status == 405 && !header_of(a, "Allow", v, sizeof v))
        fail_with("a 405 without Allow", req, resp);
    if (a->status == 401 && !header_of(a, "WWW-Authenticate", v, sizeof v))
        fail_with("a 401 without WWW-Authenticate", req, resp);
    if (a->status == 201 && !header_of(a, "Location", v, sizeof v))
        fail_with("a 201 without Location", req, resp);
    if (strcmp(method, "HEAD") != 0 && a->body_len > 0 &&
        header_of(a, "Content-Type", v, sizeof v) &&
        strcmp(v, "application/json") == 0) {
        cJSON *j = cJSON_ParseWithLength(a->body, a->body_len);
        if (!j)
            fail_with("a JSON answer that is not JSON", req, resp);
        cJSON_Delete(j);
    }
}

static bool contains(const struct buf *b, const char *needle, size_t k)
{
    for (size_t i = 0; i + k <= b->len; i++)
        if (memcmp(b->p + i, needle, k) == 0)
            return true;
    return false;
}

/* Length of the first line of s (at most 200), for the verbose log. */
static int first_line(const char *s)
{
    size_t n = s ? strcspn(s, "\r\n") : 0;
    return n < 200 ? (int)n : 200;
}

/* Sends one request; returns the id of a game it created, else last. */
static long long one_request(struct span in, long long last)
{
    struct buf req = BUF_INIT, resp = BUF_INIT;
    struct answer a;
    const char *method = "RAW";
    bool raw = in.p[0] >= 0xF0;
    unsigned port = ports[(in.p[0] >> 3) & 1];

    if (raw && in.n == 1)
        return last; /* nothing to send */
    if (raw)
        buf_append(&req, (const char *)in.p + 1, in.n - 1);
    else
        build_request(in, last, &req, &method);
    double t0 = now_s();
    bool answered = exchange(port, &req, raw, &resp);
    if (verbose) /* the request line, the answer's first line, the time */
        fprintf(stderr, "%.*s -> %.*s (%.1f ms)\n", first_line(req.p),
                req.p, first_line(resp.p), resp.p ? resp.p : "",
                (now_s() - t0) * 1e3);
    if (!answered)
        fail_with("no answer in time", &req, &resp);
    if (contains(&resp, secret, SECRET_LEN))
        fail_with("served a file that static.c must refuse", &req, &resp);
    if (resp.len == 0 && raw) /* a request never completed */
        goto out;
    if (!parse_answer(&resp, &a))
        fail_with("no well-formed status line", &req, &resp);
    char csp[128];
    if (!raw || header_of(&a, "Content-Security-Policy", csp, sizeof csp))
        check_ours(&a, method, &req, &resp);
    char loc[64];
    if (a.status / 100 == 2 && header_of(&a, "Location", loc, sizeof loc) &&
        strncmp(loc, "/api/games/", 11) == 0)
        last = strtoll(loc + 11, NULL, 10);
out:
    buf_release(&req);
    buf_release(&resp);
    return last;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct span in = { data, size }, one;
    long long last = 1;

    for (int i = 0; i < MAX_REQUESTS && in.n > 0; i++) {
        cut(&in, SEP, &one);
        if (one.n > 0)
            last = one_request(one, last);
    }
    return 0;
}
