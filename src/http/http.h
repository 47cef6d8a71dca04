/* http.h - the flierd HTTP daemon: JSON API over the store, uploads and
 * live recording through ingest, the spool folder, static files of the
 * dashboard. The only module that sees microhttpd.h.
 *
 * Threads: libmicrohttpd's internal polling threads (a pool of
 * cfg.threads) run the handlers; each borrows one of cfg.threads
 * read-only store connections for reads; every write (upload, live move,
 * spool file) goes through the one writer connection under a mutex, as
 * SQLite serialises writes anyway. The spool, when given, has a thread
 * of its own that uses the same writer. */
#ifndef HTTP_HTTP_H
#define HTTP_HTTP_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "util/err.h"

struct server;

/* Everything `flierd serve` can set; http_config_init() fills defaults. */
struct http_config {
    const char *db_path;      /* SQLite file, created if missing */
    const char *host;         /* IPv4 or IPv6 literal to bind */
    unsigned port;            /* 0 picks a free port (see server_port) */
    const char *spool_dir;    /* NULL: no spool */
    const char *web_dir;      /* NULL: the dashboard built in */
    const char *token;        /* NULL: writes are public too */
    size_t max_body;          /* bytes per upload (default 1 MiB) */
    unsigned timeout_s;       /* idle connection timeout (default 30) */
    /* A connection must deliver a whole request within timeout_s +
     * request_timeout_s of opening or of its previous reply, however
     * slowly it trickles (default 30; 0: no such deadline). */
    unsigned request_timeout_s;
    /* Per client address: requests a second and their burst (default
     * 100, 200), writes a second and their burst on top (10, 50); a rate
     * of 0 is no limit. */
    unsigned rate, rate_burst, write_rate, write_burst;
    unsigned per_ip;          /* connections per client IP (default 64) */
    unsigned max_conns;       /* connections in all (default 512) */
    unsigned threads;         /* worker threads (default 4) */
    size_t conn_memory;       /* MHD memory per connection (64 KiB) */
    unsigned spool_ms;        /* spool scan interval (default 1000) */
    size_t replay_cache;      /* bytes of rendered replays kept (default
                                 64 MiB; 0: none) */
    FILE *log;                /* one line per request; NULL: silent */
};

void http_config_init(struct http_config *c);

/* Opens the store (writer + cfg->threads readers), starts listening and,
 * with a spool, the spool thread. The strings of cfg must outlive the
 * server. On failure nothing runs and e says why (the address in use,
 * the database, the spool folder). */
enum status server_start(const struct http_config *cfg, struct server **out,
                         struct err *e) WARN_UNUSED;

/* The port actually bound (useful with port 0). */
unsigned server_port(const struct server *s);

/* Stops accepting, waits up to grace_ms for requests in flight to be
 * answered, stops the spool, closes everything and frees s. NULL-safe. */
void server_stop(struct server *s, unsigned grace_ms);

#endif
