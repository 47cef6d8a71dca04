/* http_int.h - what the files of src/http share: the server, one request
 * and its reply, the route handlers, metrics. Only server.c includes
 * microhttpd.h; handlers see a request, never a connection, so they can
 * be read (and changed) without knowing libmicrohttpd.
 *
 * A request lives from the first call of the access handler to MHD's
 * request-completed callback, which frees it with everything its arena
 * holds. A handler fills r->status, r->ctype and r->out (or calls
 * reply_json / reply_error); server.c turns that into the response and
 * adds the security headers. */
#ifndef HTTP_HTTP_INT_H
#define HTTP_HTTP_INT_H
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

#include "http/http.h"
#include "store/store.h"
#include "util/buf.h"
#include "util/err.h"

struct MHD_Daemon;
struct MHD_Connection;

/* ---- per-request arena: bump allocation in chained blocks ---- */
struct arena_block;
struct req_arena {
    struct arena_block *head;
};
void *ra_alloc(struct req_arena *a, size_t n);
char *ra_strndup(struct req_arena *a, const char *s, size_t n);
void ra_release(struct req_arena *a);

/* ---- metrics (C11 atomics; rendered by GET /metrics) ---- */
#define LAT_BUCKETS 11
enum ingest_outcome { IN_STORED, IN_DUPLICATE, IN_FAILED, IN_N };
struct replay_cache;
struct metrics {
    atomic_ullong requests[6];        /* by status class: [2] = 2xx ... */
    atomic_ullong bytes_out;
    atomic_ullong lat_bucket[LAT_BUCKETS];
    atomic_ullong lat_sum_us;
    atomic_ullong lat_count;
    atomic_ullong ingests[IN_N];
    atomic_ullong ingest_invalid;     /* stored, with violations */
    atomic_ullong ingest_unsupported; /* stored, not auditable yet */
    atomic_ullong ingest_fail[ST__COUNT]; /* failures by status */
    atomic_ullong live_moves;
    atomic_ullong live_refused;
    atomic_int inflight;
};
void metrics_request(struct metrics *m, int status, size_t bytes,
                     uint64_t micros);
/* Counts one ingest attempt from its status and result. */
struct ingest_result;
void metrics_ingest(struct metrics *m, enum status st,
                    const struct ingest_result *res);
/* games: what store_counts() read, or NULL when the database could not
 * be read (the process's own counters are still worth a scrape). */
void metrics_render(struct metrics *m, struct replay_cache *replays,
                    const struct store_counts *games, struct buf *out);

/* ---- the server ---- */
struct server {
    struct http_config cfg;
    struct MHD_Daemon *daemon;
    unsigned port;
    char *web_root;                  /* realpath of cfg.web_dir, or NULL:
                                        the dashboard built in */

    pthread_mutex_t wlock;           /* guards writer */
    struct store *writer;

    pthread_mutex_t rlock;           /* guards the free readers */
    pthread_cond_t rfree;
    struct store **readers;          /* all of them, for closing */
    struct store **idle;             /* a stack of free ones */
    size_t n_readers, n_idle;

    struct metrics m;
    struct replay_cache *replays;    /* rendered replays (thread-safe) */

    bool spooling;                   /* spool thread started */
    pthread_t spool_thread;
    char *spool_claims;              /* DIR/.claimed/HOST.PID (spool.c) */
    pthread_mutex_t slock;
    pthread_cond_t swake;
    bool stopping;                   /* under slock */

    struct rate_limiter *rl;         /* NULL: no rate limits */
    pthread_mutex_t glock;           /* guards conns and their deadlines */
    pthread_cond_t gwake;
    struct conn_state *conns;        /* the open connections */
    bool guarding, guard_stopping;   /* conn_guard.c's thread */
    pthread_t guard_thread;

    int listen_fd, lwake[2];         /* listener.c; lwake stops it */
    bool accepting;                  /* its thread started */
    pthread_t accept_thread;

    pthread_mutex_t qlock;           /* guards the writes' queue */
    pthread_cond_t qwake;
    struct request *q_head, *q_tail; /* waiting writes (writes.c) */
    bool q_running, q_stopping;
    pthread_t q_thread;
    pthread_mutex_t wlist_lock;      /* guards the spectators' list */
    pthread_cond_t wlist_wake;
    struct request *wlist;           /* waiting spectators (watch.c) */
    bool wlist_running, wlist_stopping;
    pthread_t wlist_thread;
};

/* Borrow a read-only connection (blocks while all are in use). */
struct store *server_reader(struct server *s);
void server_reader_put(struct server *s, struct store *st);
/* The writer, locked; server_writer_put unlocks it. */
struct store *server_writer(struct server *s);
void server_writer_put(struct server *s);
/* The writer's store, not locked: only for store_pack() (ingest_pack),
 * which compresses an upload outside the writer's lock. */
const struct store *server_store(struct server *s);

/* ---- one request and its reply ---- */
struct request;
typedef void (*handler_fn)(struct request *r);
#define REQ_MAX_PARAMS 2
#define REQ_MAX_HEADERS 4
struct request {
    struct server *srv;
    struct MHD_Connection *conn;
    struct conn_state *cs;           /* its connection's, or NULL */
    struct req_arena arena;
    const char *method;              /* "GET", "HEAD", "POST", ... */
    const char *path;                /* decoded, without the query */
    const char *params[REQ_MAX_PARAMS]; /* {id}, {name} of the route */
    handler_fn handler;              /* found with the headers */
    struct buf body;                 /* the upload, at most cfg.max_body */
    bool too_big;                    /* the upload passed the cap */
    bool no_mem;                     /* the upload could not be held */
    bool write;                      /* its route changes data */
    bool parked;                     /* suspended, with the writes' thread */
    struct request *q_next;          /* in the writes' queue */
    bool watched;                    /* a spectator's wait was parked
                                        (watch.c): answer when back */
    bool watch_changed;              /* its game changed meanwhile */
    int64_t watch_game;
    uint64_t watch_until_us;
    struct request *w_next;          /* in the spectators' list */
    uint64_t start_us;

    int status;                      /* 0 until a handler replies */
    const char *ctype;
    struct buf out;
    const char *hdr_name[REQ_MAX_HEADERS];
    const char *hdr_value[REQ_MAX_HEADERS];
    int n_hdrs;
};

/* A query parameter of the URL (decoded), or NULL. */
const char *req_query(struct request *r, const char *key);
/* A request header, or NULL. */
const char *req_header(struct request *r, const char *name);
/* Adds a response header; name and value must live as long as r (static
 * or from r->arena). Ignored beyond REQ_MAX_HEADERS. */
void req_add_header(struct request *r, const char *name, const char *value);

/* Moves *b into the reply (b is left empty). */
void reply_json(struct request *r, int status, struct buf *b);
/* {"error": msg}, plus "rule" when given. */
void reply_error(struct request *r, int status, const char *msg);
void reply_error_rule(struct request *r, int status, const char *rule,
                      const char *msg);
/* Replies with the HTTP status that fits st and e->msg; a 5xx message
 * also names the request, and the passing failures (ST_BUSY, ST_FULL,
 * ST_NOMEM: 503) get a Retry-After. */
void reply_status(struct request *r, enum status st, const struct err *e);
/* A read's answer: b as JSON (200) when st is ST_OK, else the status
 * with e's message; releases b either way. */
void reply_read(struct request *r, enum status st, struct buf *b,
                const struct err *e);
int http_status_of(enum status st);

/* ---- routes and handlers ---- */
/* Finds the handler of method + path; fills r->params. Returns NULL and
 * sets *out_status to 404 or 405 (with an Allow header) when none fits.
 * *out_write says whether the route changes data (needs the token). */
handler_fn route_find(struct request *r, bool *out_write, int *out_status);

void h_games_list(struct request *r);
void h_games_upload(struct request *r);
void h_game(struct request *r);
void h_game_raw(struct request *r);
void h_game_delete(struct request *r); /* api_manage.c */
void h_game_rename(struct request *r);
void h_game_replay(struct request *r);
void h_players(struct request *r);
void h_player(struct request *r);
void h_stats(struct request *r);
void h_healthz(struct request *r);
/* GET /api/upload: what an upload may be (the cap, whether a token is
 * needed), for the upload page to say before a file is refused. */
void h_upload_info(struct request *r);
void h_metrics(struct request *r);
void h_live_start(struct request *r);
void h_live_move(struct request *r);
void h_live_finish(struct request *r);
void h_live_options(struct request *r);
void h_live_undo(struct request *r);
void h_game_wait(struct request *r);
/* The dashboard (GET of anything outside /api): files of cfg.web_dir,
 * or without it the copy of web/ built into the binary. */
void h_static(struct request *r);
bool static_is_file(const struct server *s, const char *path);

/* ---- the dashboard built in (generated by embed_web.cmake) ---- */
struct web_asset {
    const char *path;          /* "/index.html", "/pages/games.js" */
    const unsigned char *data; /* len bytes (and a NUL) */
    size_t len;
    const char *sha256;        /* of the bytes, 64 hex digits */
};
extern const struct web_asset web_assets[];
extern const size_t web_n_assets;

/* ---- connections: rate limits (ratelimit.c), deadlines (conn_guard.c) */
#define RL_KEY_LEN 16
/* One per connection, from libmicrohttpd's connection notices. */
struct conn_state {
    struct conn_state *prev, *next; /* in server.conns, under glock */
    int fd;
    unsigned char key[RL_KEY_LEN];  /* the client, for the rate limits */
    char addr[48];                  /* the client, for people */
    uint64_t deadline_us;           /* 0: none (a reply is being made) */
    bool cut;                       /* shut down by the guard */
};

/* A token bucket's refill rate (tokens a second; 0: no limit) and size. */
struct rl_limit {
    unsigned rate, burst;
};
struct rate_limiter;
struct sockaddr;
/* NULL (no limiter) when both rates are 0. */
struct rate_limiter *rl_new(struct rl_limit all, struct rl_limit write);
void rl_free(struct rate_limiter *rl); /* NULL-safe */
/* The client key of an address: IPv4 (also IPv4-mapped IPv6), or the
 * /64 of an IPv6 address. */
void rl_key(const struct sockaddr *sa, unsigned char key[RL_KEY_LEN]);
/* Takes a token for one request of client key (a write takes one of the
 * write bucket too). Returns 0 when the request may go on, else the
 * seconds until it may (>= 1), having taken nothing; *out_by_write then
 * says whether the write limit refused it. rl NULL allows everything. */
unsigned rl_take(struct rate_limiter *rl, const unsigned char key[RL_KEY_LEN],
                 bool write, uint64_t now_us, bool *out_by_write);

/* Registers c (deadline: timeout + request timeout from now). */
void guard_open(struct server *s, struct conn_state *c);
void guard_close(struct server *s, struct conn_state *c);
/* waiting: the connection waits for a request again (a new deadline);
 * else its request is being answered (no deadline). */
void guard_set(struct server *s, struct conn_state *c, bool waiting);
/* The thread that shuts late connections down (none when
 * cfg.request_timeout_s is 0). */
enum status guard_start(struct server *s, struct err *e) WARN_UNUSED;
void guard_stop(struct server *s);

/* ---- the daemon's own threads ---- */
/* writes.c: write requests run on a thread of their own, at a lower
 * priority; writes_submit() suspends r's connection and queues it (false:
 * the server is stopping, and r has its 503 to send); writes_stop() answers
 * what is still queued with 503 and resumes every connection. */
/* Spectators' waits (watch.c): watch_park() suspends r until game
 * changes (watch_notify()) or its time is up, then r's handler runs again
 * with r->watched set (false: the server is stopping; answer now);
 * watch_stop() resumes every one. */
enum status watch_start(struct server *s, struct err *e) WARN_UNUSED;
bool watch_park(struct request *r, int64_t game);
void watch_notify(struct server *s, int64_t game);
void watch_stop(struct server *s);

enum status writes_start(struct server *s, struct err *e) WARN_UNUSED;
bool writes_submit(struct request *r);
void writes_stop(struct server *s);
/* Lowers the calling thread's priority below the pool's (writes.c). */
void http_lower_priority(void);
/* listener.c: listener_open() binds cfg.host:cfg.port (setting s->port),
 * listener_start() accepts on a thread, handing each connection to
 * server_add_connection(); listener_stop() stops and closes. */
enum status listener_open(struct server *s, struct err *e) WARN_UNUSED;
enum status listener_start(struct server *s, struct err *e) WARN_UNUSED;
void listener_stop(struct server *s);
void server_add_connection(struct server *s, int fd,
                           const struct sockaddr *addr, socklen_t len);
/* server.c: suspend r's connection (marking r parked) / resume it. */
void server_suspend(struct request *r);
void server_resume(struct request *r);

/* ---- spool ---- */
enum status spool_start(struct server *s, struct err *e) WARN_UNUSED;
void spool_stop(struct server *s);

/* Monotonic microseconds. */
uint64_t http_now_us(void);
/* A positive decimal game id, else 0. */
int64_t http_parse_id(const char *s);

#endif
