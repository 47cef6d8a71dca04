/* server.c - libmicrohttpd wiring: start and stop, the access handler
 * (body collection up to the cap, authorisation, dispatch), responses
 * with the security headers, the request-completed callback (log line,
 * metrics, freeing the request), and the store connection pool.
 *
 * The access handler is called several times per request: first with
 * the headers (*con_cls is NULL: we route and check the token and the
 * Content-Length, and may answer at once), then once per chunk of the
 * body, then once more with no data, where the handler runs. */
#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <dlfcn.h>
#include <microhttpd.h>
#include <pthread.h>

#include "http/http_int.h"
#include "http/replay_cache.h"
#include "util/xalloc.h"

#define CSP "default-src 'self'; frame-ancestors 'none'"
/* After the grace: for the replies already made to go out (server_stop) */
#define STOP_REPLY_MS 1000

/* libmicrohttpd is loaded when a daemon starts, not with the program:
 * with GnuTLS and the nine libraries under it, loading it took about
 * 1 ms of every flierd process, and `flierd audit` runs a process per
 * batch of files on a command line. Each function's type is the
 * header's, so the calls below are checked as if linked;
 * FLIERD_MHD_SONAME is the library's soname, read at build time. */
static struct {
    __typeof__(MHD_start_daemon) *start_daemon;
    __typeof__(MHD_stop_daemon) *stop_daemon;
    __typeof__(MHD_add_connection) *add_connection;
    __typeof__(MHD_get_connection_info) *get_connection_info;
    __typeof__(MHD_lookup_connection_value) *lookup_connection_value;
    __typeof__(MHD_create_response_from_buffer) *create_response_from_buffer;
    __typeof__(MHD_add_response_header) *add_response_header;
    __typeof__(MHD_queue_response) *queue_response;
    __typeof__(MHD_destroy_response) *destroy_response;
    __typeof__(MHD_suspend_connection) *suspend_connection;
    __typeof__(MHD_resume_connection) *resume_connection;
} mhd;
static pthread_once_t mhd_once = PTHREAD_ONCE_INIT;
static char mhd_error[256];

static void mhd_load_once(void)
{
    void *h = dlopen(FLIERD_MHD_SONAME, RTLD_NOW | RTLD_LOCAL);
    const char *missing = NULL;
    if (!h) {
        snprintf(mhd_error, sizeof mhd_error, "%s", dlerror());
        return;
    }
#define LOAD(field, name)                                                      \
    if (!missing && !(*(void **)&mhd.field = dlsym(h, name)))                  \
        missing = name;
    LOAD(start_daemon, "MHD_start_daemon")
    LOAD(stop_daemon, "MHD_stop_daemon")
    LOAD(add_connection, "MHD_add_connection")
    LOAD(get_connection_info, "MHD_get_connection_info")
    LOAD(lookup_connection_value, "MHD_lookup_connection_value")
    LOAD(create_response_from_buffer, "MHD_create_response_from_buffer")
    LOAD(add_response_header, "MHD_add_response_header")
    LOAD(queue_response, "MHD_queue_response")
    LOAD(destroy_response, "MHD_destroy_response")
    LOAD(suspend_connection, "MHD_suspend_connection")
    LOAD(resume_connection, "MHD_resume_connection")
#undef LOAD
    if (missing) {
        snprintf(mhd_error, sizeof mhd_error, "%s has no %s",
                 FLIERD_MHD_SONAME, missing);
        mhd.start_daemon = NULL;
    }
}

/* Loads libmicrohttpd (once per process); ST_IO naming it if it cannot
 * be. */
static enum status mhd_load(struct err *e)
{
    pthread_once(&mhd_once, mhd_load_once);
    if (mhd.start_daemon)
        return ST_OK;
    return err_set(e, ST_IO, "cannot load libmicrohttpd (%s; Debian: apt-get "
                   "install libmicrohttpd12)", mhd_error);
}

#define MHD_start_daemon (*mhd.start_daemon)
#define MHD_stop_daemon (*mhd.stop_daemon)
#define MHD_add_connection (*mhd.add_connection)
#define MHD_get_connection_info (*mhd.get_connection_info)
#define MHD_lookup_connection_value (*mhd.lookup_connection_value)
#define MHD_create_response_from_buffer (*mhd.create_response_from_buffer)
#define MHD_add_response_header (*mhd.add_response_header)
#define MHD_queue_response (*mhd.queue_response)
#define MHD_destroy_response (*mhd.destroy_response)
#define MHD_suspend_connection (*mhd.suspend_connection)
#define MHD_resume_connection (*mhd.resume_connection)

void http_config_init(struct http_config *c)
{
    memset(c, 0, sizeof *c);
    c->db_path = "flierd.db";
    c->host = "127.0.0.1";
    c->port = 8080;
    c->max_body = 1u << 20;
    c->timeout_s = 30;
    c->request_timeout_s = 30;
    c->rate = 100;
    c->rate_burst = 200;
    c->write_rate = 10;
    c->write_burst = 50;
    c->per_ip = 64;
    c->max_conns = 512;
    /* One pool thread a processor: with writes on their own thread
     * (writes.c), a pool thread only reads and renders, and more threads
     * than processors only preempt each other mid-request (100K games,
     * 8 connections, two processors: a replay's p99 3.5-5.4 ms with two
     * threads, 5.7-8.5 ms with four, eight runs each). At least two, so
     * that one read waiting on the disk does not hold up every
     * connection. */
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    c->threads = cpus < 2 ? 2 : cpus > 64 ? 64 : (unsigned)cpus;
    c->conn_memory = 64u << 10;
    c->spool_ms = 1000;
    c->replay_cache = 64u << 20;
    c->log = stderr;
}

uint64_t http_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* ---- store connections ---- */

struct store *server_reader(struct server *s)
{
    pthread_mutex_lock(&s->rlock);
    while (s->n_idle == 0)
        pthread_cond_wait(&s->rfree, &s->rlock);
    struct store *st = s->idle[--s->n_idle];
    pthread_mutex_unlock(&s->rlock);
    return st;
}

void server_reader_put(struct server *s, struct store *st)
{
    pthread_mutex_lock(&s->rlock);
    s->idle[s->n_idle++] = st;
    pthread_cond_signal(&s->rfree);
    pthread_mutex_unlock(&s->rlock);
}

struct store *server_writer(struct server *s)
{
    pthread_mutex_lock(&s->wlock);
    return s->writer;
}

void server_writer_put(struct server *s)
{
    pthread_mutex_unlock(&s->wlock);
}

/* Unlocked: store_pack() reads no connection state, and the writer is
 * opened before the first request and closed after the last. */
const struct store *server_store(struct server *s)
{
    return s->writer;
}

/* ---- request helpers ---- */

void server_suspend(struct request *r)
{
    r->parked = true;
    MHD_suspend_connection(r->conn);
}

void server_resume(struct request *r)
{
    MHD_resume_connection(r->conn);
}

const char *req_query(struct request *r, const char *key)
{
    return MHD_lookup_connection_value(r->conn, MHD_GET_ARGUMENT_KIND, key);
}

const char *req_header(struct request *r, const char *name)
{
    return MHD_lookup_connection_value(r->conn, MHD_HEADER_KIND, name);
}

void req_add_header(struct request *r, const char *name, const char *value)
{
    if (r->n_hdrs >= REQ_MAX_HEADERS)
        return;
    r->hdr_name[r->n_hdrs] = name;
    r->hdr_value[r->n_hdrs++] = value;
}

static struct request *request_new(struct server *s, struct MHD_Connection *c,
                                   const char *url, const char *method)
{
    struct request *r = xcalloc(1, sizeof *r);
    r->srv = s;
    r->conn = c;
    r->start_us = http_now_us();
    r->method = ra_strndup(&r->arena, method, strlen(method));
    r->path = ra_strndup(&r->arena, url, strlen(url));
    return r;
}

static void request_free(struct request *r)
{
    buf_release(&r->body);
    buf_release(&r->out);
    ra_release(&r->arena);
    free(r);
}

/* Queues r's reply; the body is copied, so r->out may be freed later. */
static enum MHD_Result send_reply(struct request *r)
{
    struct MHD_Response *resp;
    enum MHD_Result ok;

    if (r->status == 0)
        reply_error(r, 500, "the handler gave no reply");
    resp = MHD_create_response_from_buffer(r->out.len,
                                           r->out.p ? r->out.p : (char *)"",
                                           MHD_RESPMEM_MUST_COPY);
    if (!resp)
        return MHD_NO;
    MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE,
                            r->ctype ? r->ctype : "application/json");
    MHD_add_response_header(resp, "Content-Security-Policy", CSP);
    MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(resp, "X-Frame-Options", "DENY");
    MHD_add_response_header(resp, "Referrer-Policy", "no-referrer");
    for (int i = 0; i < r->n_hdrs; i++)
        MHD_add_response_header(resp, r->hdr_name[i], r->hdr_value[i]);
    ok = MHD_queue_response(r->conn, (unsigned)r->status, resp);
    MHD_destroy_response(resp);
    return ok;
}

/* Constant-time comparison, so the token cannot be guessed byte by byte
 * from response times. */
static bool same_secret(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    unsigned char d = la != lb;
    for (size_t i = 0; i < la; i++)
        d |= (unsigned char)(a[i] ^ b[i % (lb ? lb : 1)]);
    return d == 0;
}

static bool authorized(struct request *r)
{
    const char *want = r->srv->cfg.token;
    if (!want)
        return true;
    const char *h = req_header(r, MHD_HTTP_HEADER_AUTHORIZATION);
    if (!h || strncmp(h, "Bearer ", 7) != 0)
        return false;
    return same_secret(h + 7, want);
}

/* Over its client's rate limit? Then r gets its 429. Every request
 * counts, the refused ones too (a scan of 404s, a token guessed at),
 * but a read of one of the dashboard's own files (static_is_file()). */
static bool rate_limited(struct request *r, bool write)
{
    const struct http_config *cfg = &r->srv->cfg;
    bool by_write = false;
    unsigned wait = r->cs ? rl_take(r->srv->rl, r->cs->key, write,
                                    http_now_us(), &by_write)
                          : 0;
    if (wait == 0)
        return false;
    char *after = ra_alloc(&r->arena, 16), msg[256];
    snprintf(after, 16, "%u", wait);
    req_add_header(r, "Retry-After", after);
    snprintf(msg, sizeof msg, "%s %.80s: too many %s from %s: the limit is "
             "%u a second (bursts of %u); try again in %u s", r->method,
             r->path, by_write ? "writes" : "requests", r->cs->addr,
             by_write ? cfg->write_rate : cfg->rate,
             by_write ? cfg->write_burst : cfg->rate_burst, wait);
    reply_error(r, 429, msg);
    return true;
}

/* First call: route, check the rate, the token and the announced size.
 * Returns true when r already has its reply. */
static bool on_headers(struct request *r)
{
    bool write = false;
    int status = 404;

    r->handler = route_find(r, &write, &status);
    r->write = write;
    bool asset = r->handler == h_static &&
                 (strcmp(r->method, "GET") == 0 ||
                  strcmp(r->method, "HEAD") == 0) &&
                 static_is_file(r->srv, r->path);
    if (!asset && rate_limited(r, write))
        return true;
    if (!r->handler) {
        if (status == 405)
            reply_error(r, 405, "method not allowed");
        else
            reply_error(r, 404, "no such resource");
        return true;
    }
    if (write && !authorized(r)) {
        req_add_header(r, "WWW-Authenticate", "Bearer");
        reply_error(r, 401, "this needs Authorization: Bearer <token>");
        return true;
    }
    const char *cl = req_header(r, MHD_HTTP_HEADER_CONTENT_LENGTH);
    if (cl) {
        char *end;
        errno = 0;
        unsigned long long n = strtoull(cl, &end, 10);
        if (errno == 0 && *end == '\0' && n > r->srv->cfg.max_body) {
            char msg[96];
            snprintf(msg, sizeof msg, "body of %llu bytes is over the cap "
                     "of %zu", n, r->srv->cfg.max_body);
            reply_error(r, 413, msg);
            return true;
        }
    }
    return false;
}

static enum MHD_Result on_access(void *cls, struct MHD_Connection *c,
                                 const char *url, const char *method,
                                 const char *version, const char *upload,
                                 size_t *upload_len, void **con_cls)
{
    struct server *s = cls;
    struct request *r = *con_cls;
    (void)version;

    if (!r) {
        const union MHD_ConnectionInfo *ci =
            MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
        r = request_new(s, c, url, method);
        r->cs = ci ? ci->socket_context : NULL;
        *con_cls = r;
        atomic_fetch_add(&s->m.inflight, 1);
        if (on_headers(r))
            return send_reply(r);
        return MHD_YES;
    }
    if (r->parked) { /* back from the writes' or spectators' thread */
        r->parked = false;
        if (r->status == 0 && r->handler) /* a spectator's wait: answer */
            r->handler(r);
        return send_reply(r);
    }
    if (r->status != 0) { /* answered early; drop whatever still comes */
        *upload_len = 0;
        return MHD_YES;
    }
    if (*upload_len != 0) {
        if (r->too_big || r->no_mem) {
            /* keep reading, to answer; keep nothing */
        } else if (r->body.len + *upload_len > s->cfg.max_body) {
            r->too_big = true;
            buf_release(&r->body);
        } else if (!buf_try_append(&r->body, upload, *upload_len)) {
            r->no_mem = true; /* answered 503: the client may try again */
            buf_release(&r->body);
        }
        *upload_len = 0;
        return MHD_YES;
    }
    if (r->cs) /* received whole: answering has no deadline */
        guard_set(s, r->cs, false);
    if (r->too_big) {
        char msg[64];
        snprintf(msg, sizeof msg, "body is over the cap of %zu bytes",
                 s->cfg.max_body);
        reply_error(r, 413, msg);
    } else if (r->no_mem) {
        struct err e;
        err_set(&e, ST_NOMEM, "out of memory holding the body");
        reply_status(r, ST_NOMEM, &e);
    } else if (r->write) {
        if (writes_submit(r))
            return MHD_YES; /* answered when the thread resumes it */
    } else {
        r->handler(r);
        if (r->parked) /* a spectator's wait (watch.c): answered later */
            return MHD_YES;
    }
    return send_reply(r);
}

static void on_completed(void *cls, struct MHD_Connection *c, void **con_cls,
                         enum MHD_RequestTerminationCode why)
{
    struct server *s = cls;
    struct request *r = *con_cls;
    (void)c;
    if (!r)
        return;
    *con_cls = NULL;
    if (r->cs) /* waits for its next request (keep-alive) */
        guard_set(s, r->cs, true);
    uint64_t us = http_now_us() - r->start_us;
    int status = r->status;
    if (why != MHD_REQUEST_TERMINATED_COMPLETED_OK && status == 0)
        status = 499; /* the client went away before a reply */
    metrics_request(&s->m, status, r->out.len, us);
    if (s->cfg.log)
        fprintf(s->cfg.log, "%s %s %d %zu %.1fms%s\n", r->method, r->path,
                status, r->out.len, (double)us / 1000.0,
                why == MHD_REQUEST_TERMINATED_COMPLETED_OK ? ""
                                                           : " (aborted)");
    request_free(r);
    atomic_fetch_sub(&s->m.inflight, 1);
}

/* A connection opens or closes: its state for the rate limits and the
 * request deadline (conn_guard.c). */
static void on_connection(void *cls, struct MHD_Connection *c,
                          void **socket_context,
                          enum MHD_ConnectionNotificationCode what)
{
    struct server *s = cls;
    struct conn_state *cs = *socket_context;
    if (what == MHD_CONNECTION_NOTIFY_CLOSED) {
        if (cs)
            guard_close(s, cs);
        free(cs);
        *socket_context = NULL;
        return;
    }
    const union MHD_ConnectionInfo *fd =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
    const union MHD_ConnectionInfo *addr =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (!fd || !addr)
        return; /* no limits for it: cannot happen with our options */
    cs = xcalloc(1, sizeof *cs);
    cs->fd = fd->connect_fd;
    rl_key(addr->client_addr, cs->key);
    const struct sockaddr *sa = addr->client_addr;
    const void *ip = sa->sa_family == AF_INET6
                         ? (const void *)&((const struct sockaddr_in6 *)sa)
                               ->sin6_addr
                         : (const void *)&((const struct sockaddr_in *)sa)
                               ->sin_addr;
    if (!inet_ntop(sa->sa_family, ip, cs->addr, sizeof cs->addr))
        snprintf(cs->addr, sizeof cs->addr, "an unknown address");
    guard_open(s, cs);
    *socket_context = cs;
}

static void mhd_log(void *cls, const char *fmt, va_list ap)
{
    struct server *s = cls;
    if (!s->cfg.log)
        return;
    char line[512];
    vsnprintf(line, sizeof line, fmt, ap);
    size_t n = strlen(line);
    while (n > 0 && line[n - 1] == '\n')
        line[--n] = '\0';
    fprintf(s->cfg.log, "flierd: http: %s\n", line);
}

/* ---- start and stop ---- */

static enum status open_stores(struct server *s, struct err *e)
{
    enum status st = store_open(s->cfg.db_path, false, &s->writer, e);
    if (st != ST_OK)
        return st;
    s->n_readers = s->cfg.threads;
    s->readers = xcalloc(s->n_readers, sizeof *s->readers);
    s->idle = xcalloc(s->n_readers, sizeof *s->idle);
    for (size_t i = 0; i < s->n_readers; i++) {
        st = store_open(s->cfg.db_path, true, &s->readers[i], e);
        if (st != ST_OK)
            return st;
        s->idle[s->n_idle++] = s->readers[i];
    }
    return ST_OK;
}

static void close_stores(struct server *s)
{
    for (size_t i = 0; i < s->n_readers; i++)
        if (s->readers[i])
            store_close(s->readers[i]);
    free(s->readers);
    free(s->idle);
    if (s->writer)
        store_close(s->writer);
}

void server_add_connection(struct server *s, int fd,
                           const struct sockaddr *addr, socklen_t len)
{
    /* On failure (a limit reached) libmicrohttpd has closed fd and
     * logged why. */
    (void)MHD_add_connection(s->daemon, fd, addr, len);
}

static enum status start_daemon(struct server *s, struct err *e)
{
    /* listener.c accepts and hands connections over (why: there) */
    unsigned flags = MHD_USE_AUTO_INTERNAL_THREAD | MHD_USE_ITC |
                     MHD_USE_NO_LISTEN_SOCKET | MHD_ALLOW_SUSPEND_RESUME |
                     MHD_USE_ERROR_LOG;

    /* The pool option only when there is a pool: MHD warns about 1. */
    struct MHD_OptionItem pool[] = {
        { s->cfg.threads > 1 ? MHD_OPTION_THREAD_POOL_SIZE : MHD_OPTION_END,
          (intptr_t)s->cfg.threads, NULL },
        { MHD_OPTION_END, 0, NULL },
    };
    s->daemon = MHD_start_daemon(
        flags, 0, NULL, NULL, on_access, s,
        MHD_OPTION_EXTERNAL_LOGGER, mhd_log, s, /* first, to catch all */
        MHD_OPTION_ARRAY, pool,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)s->cfg.timeout_s,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned)s->cfg.per_ip,
        MHD_OPTION_CONNECTION_LIMIT, (unsigned)s->cfg.max_conns,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, s->cfg.conn_memory,
        MHD_OPTION_NOTIFY_COMPLETED, on_completed, s,
        MHD_OPTION_NOTIFY_CONNECTION, on_connection, s,
        MHD_OPTION_END);
    if (!s->daemon)
        return err_set(e, ST_IO, "cannot start the HTTP server on %s:%u "
                       "(see the log above)", s->cfg.host, s->port);
    return ST_OK;
}

enum status server_start(const struct http_config *cfg, struct server **out,
                         struct err *e)
{
    struct server *s;
    enum status st = mhd_load(e);

    *out = NULL;
    if (st != ST_OK)
        return st;
    s = xcalloc(1, sizeof *s);
    s->cfg = *cfg;
    s->listen_fd = s->lwake[0] = s->lwake[1] = -1;
    if (s->cfg.threads == 0)
        s->cfg.threads = 1;
    pthread_mutex_init(&s->wlock, NULL);
    pthread_mutex_init(&s->rlock, NULL);
    pthread_cond_init(&s->rfree, NULL);
    pthread_mutex_init(&s->slock, NULL);
    pthread_cond_init(&s->swake, NULL);
    pthread_mutex_init(&s->glock, NULL);
    pthread_cond_init(&s->gwake, NULL);
    pthread_mutex_init(&s->wlist_lock, NULL);
    pthread_cond_init(&s->wlist_wake, NULL);
    s->rl = rl_new((struct rl_limit){ cfg->rate, cfg->rate_burst },
                   (struct rl_limit){ cfg->write_rate, cfg->write_burst });
    s->replays = replay_cache_new(cfg->replay_cache);
    if (cfg->web_dir) {
        s->web_root = realpath(cfg->web_dir, NULL);
        if (!s->web_root) {
            st = err_set(e, ST_IO, "--web %s: %s", cfg->web_dir,
                         strerror(errno));
            goto out;
        }
    }
    st = open_stores(s, e);
    if (st != ST_OK)
        goto out;
    if (cfg->spool_dir) {
        st = spool_start(s, e);
        if (st != ST_OK)
            goto out;
    }
    st = listener_open(s, e);
    if (st == ST_OK)
        st = guard_start(s, e);
    if (st == ST_OK)
        st = writes_start(s, e);
    if (st == ST_OK)
        st = watch_start(s, e);
    if (st == ST_OK)
        st = start_daemon(s, e);
    if (st == ST_OK)
        st = listener_start(s, e);
out:
    if (st != ST_OK) {
        server_stop(s, 0);
        return st;
    }
    *out = s;
    return ST_OK;
}

unsigned server_port(const struct server *s)
{
    return s->port;
}

/* Waits until no request is in flight, or for ms at most. */
static void drain(struct server *s, unsigned ms)
{
    uint64_t until = http_now_us() + (uint64_t)ms * 1000u;
    while (s->daemon && atomic_load(&s->m.inflight) > 0 &&
           http_now_us() < until) {
        struct timespec ts = { 0, 5 * 1000 * 1000 };
        nanosleep(&ts, NULL);
    }
}

void server_stop(struct server *s, unsigned grace_ms)
{
    if (!s)
        return;
    /* Stop accepting, let the requests in flight be answered, then
     * close what is left (idle keep-alive connections). */
    listener_stop(s);
    watch_stop(s); /* spectators' waits answered now, not after the grace */
    drain(s, grace_ms);
    /* Every suspended connection resumed first: libmicrohttpd aborts the
     * process if it is stopped with one suspended. The writes still
     * queued now have their 503 (writes.c), but a resumed connection's
     * reply goes out only when its pool thread next runs: stopped at
     * once, libmicrohttpd closed most of them unanswered
     * (test_writes_stop). So they get a moment to go out. */
    writes_stop(s);
    drain(s, STOP_REPLY_MS);
    if (s->daemon)
        MHD_stop_daemon(s->daemon);
    guard_stop(s); /* after the daemon: no connection is left */
    rl_free(s->rl);
    replay_cache_free(s->replays);
    spool_stop(s);
    close_stores(s);
    pthread_mutex_destroy(&s->wlock);
    pthread_mutex_destroy(&s->rlock);
    pthread_cond_destroy(&s->rfree);
    pthread_mutex_destroy(&s->slock);
    pthread_cond_destroy(&s->swake);
    pthread_mutex_destroy(&s->glock);
    pthread_cond_destroy(&s->gwake);
    pthread_mutex_destroy(&s->qlock);
    pthread_cond_destroy(&s->qwake);
    pthread_mutex_destroy(&s->wlist_lock);
    pthread_cond_destroy(&s->wlist_wake);
    free(s->web_root);
    free(s);
}
