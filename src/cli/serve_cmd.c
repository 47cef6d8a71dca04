/* serve_cmd.c - `flierd serve`: arguments, the --load import, signals,
 * and the server's life. SIGTERM and SIGINT are blocked before any thread
 * starts (so every thread inherits the mask) and taken with sigwait() in
 * this thread: no handler runs in the middle of a request. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>

#include "cli/cli.h"
#include "http/http.h"
#include "store/store.h"

#define GRACE_MS 10000 /* for requests in flight at SIGTERM */

struct serve_args {
    struct http_config cfg;
    const char *token_file;
    const char *load_dir;
    char host[64];
};

static void usage(FILE *f)
{
    fputs("usage: flierd serve [--db PATH] [--listen HOST:PORT] [--load DIR]\n"
          "                    [--spool DIR] [--web DIR] [--token-file F]\n"
          "  Serves the JSON API (docs/api.md) over the game database, and\n"
          "  the dashboard at /.\n"
          "  --db PATH|URI      SQLite file, or postgresql://... for a\n"
          "                     database several daemons share\n"
          "                     (default flierd.db)\n"
          "  --listen HOST:PORT address (default 127.0.0.1:8080; port 0\n"
          "                     picks a free one)\n"
          "  --load DIR         ingest DIR's *.jcz/*.flierlog first\n"
          "  --spool DIR        ingest files dropped in DIR, then move them\n"
          "                     to DIR/done/ or DIR/failed/ (+ NAME.error)\n"
          "  --web DIR          serve the dashboard from DIR instead of the\n"
          "                     copy built in (to work on it without\n"
          "                     rebuilding)\n"
          "  --token-file F     writes need 'Authorization: Bearer <F>'\n"
          "  --max-body BYTES   upload cap (default 1048576)\n"
          "  --timeout S        idle connection timeout (default 30)\n"
          "  --request-timeout S  a request must arrive whole within\n"
          "                     --timeout + S seconds, however slowly it\n"
          "                     trickles (default 30; 0: no deadline)\n"
          "  --rate-limit N     requests a second per client address\n"
          "                     (default 100; 0: no limit), answered 429\n"
          "  --rate-burst N     requests at once before the rate holds (200)\n"
          "  --write-rate-limit N  uploads and live moves a second per\n"
          "                     client address, on top (10; 0: no limit)\n"
          "  --write-burst N    writes at once before that rate holds (50)\n"
          "  --per-ip N         connections per client address (64)\n"
          "  --max-connections N  connections in all (512)\n"
          "  --threads N        worker threads (default: one per processor,\n"
          "                     at least 2)\n"
          "  --replay-cache MB  rendered replays kept in memory (64; 0:\n"
          "                     none)\n"
          "  --spool-interval MS  spool scan interval (1000)\n"
          "  --quiet            no request log on stderr\n", f);
}

static bool parse_uint(const char *s, unsigned long max, unsigned long *out)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (*s == '\0' || *s == '-' || *end != '\0' || errno != 0 || v > max)
        return false;
    *out = v;
    return true;
}

/* "HOST:PORT", "[V6]:PORT", or "PORT" (loopback). */
static bool parse_listen(const char *s, struct serve_args *a)
{
    const char *colon = strrchr(s, ':');
    const char *host = s, *host_end = colon;
    unsigned long port;
    if (!colon) {
        host = "127.0.0.1";
        host_end = host + strlen(host);
        colon = s - 1;
    } else if (s[0] == '[') {
        if (colon < s + 2 || colon[-1] != ']')
            return false;
        host = s + 1;
        host_end = colon - 1;
    }
    size_t n = (size_t)(host_end - host);
    if (n == 0 || n >= sizeof a->host ||
        !parse_uint(colon + 1, 65535, &port))
        return false;
    memcpy(a->host, host, n);
    a->host[n] = '\0';
    a->cfg.host = a->host;
    a->cfg.port = (unsigned)port;
    return true;
}

/* The options that take a value, each with where it goes: a string, the
 * listening address, or a number in [min, max] (MiB for the cache). */
enum opt_kind { OPT_TEXT, OPT_LISTEN, OPT_UINT, OPT_SIZE, OPT_MIB };

#define CFG(f) offsetof(struct serve_args, cfg.f)
static const struct serve_opt {
    const char *name;
    enum opt_kind kind;
    size_t at; /* offsetof the field in struct serve_args */
    unsigned long min, max;
} opts[] = {
    { "--db", OPT_TEXT, CFG(db_path), 0, 0 },
    { "--listen", OPT_LISTEN, 0, 0, 0 },
    { "--spool", OPT_TEXT, CFG(spool_dir), 0, 0 },
    { "--web", OPT_TEXT, CFG(web_dir), 0, 0 },
    { "--token-file", OPT_TEXT, offsetof(struct serve_args, token_file), 0,
      0 },
    { "--load", OPT_TEXT, offsetof(struct serve_args, load_dir), 0, 0 },
    { "--max-body", OPT_SIZE, CFG(max_body), 1, 1ul << 30 },
    { "--timeout", OPT_UINT, CFG(timeout_s), 0, 86400 },
    { "--per-ip", OPT_UINT, CFG(per_ip), 0, 65535 },
    { "--max-connections", OPT_UINT, CFG(max_conns), 1, 65535 },
    { "--threads", OPT_UINT, CFG(threads), 1, 256 },
    { "--spool-interval", OPT_UINT, CFG(spool_ms), 1, 3600000 },
    { "--request-timeout", OPT_UINT, CFG(request_timeout_s), 0, 86400 },
    { "--rate-limit", OPT_UINT, CFG(rate), 0, 1000000 },
    { "--rate-burst", OPT_UINT, CFG(rate_burst), 1, 1000000 },
    { "--write-rate-limit", OPT_UINT, CFG(write_rate), 0, 1000000 },
    { "--write-burst", OPT_UINT, CFG(write_burst), 1, 1000000 },
    { "--replay-cache", OPT_MIB, CFG(replay_cache), 0, 1ul << 20 },
};
#undef CFG

/* Sets option o from v; false when v is no value it takes. */
static bool set_option(struct serve_args *a, const struct serve_opt *o,
                       const char *v)
{
    char *field = (char *)a + o->at;
    unsigned long n;
    switch (o->kind) {
    case OPT_TEXT:
        memcpy(field, &v, sizeof v);
        return true;
    case OPT_LISTEN:
        return parse_listen(v, a);
    default:
        break;
    }
    if (!parse_uint(v, o->max, &n) || n < o->min)
        return false;
    if (o->kind == OPT_UINT) {
        unsigned u = (unsigned)n;
        memcpy(field, &u, sizeof u);
    } else {
        size_t z = o->kind == OPT_MIB ? (size_t)n << 20 : (size_t)n;
        memcpy(field, &z, sizeof z);
    }
    return true;
}

/* Options other servers have that flierd spells otherwise: what to type
 * instead, with the value given when there is one. */
static const struct {
    const char *given;
    bool port;        /* its value is a port: "127.0.0.1:VALUE" */
    const char *say;  /* the option to use */
} instead[] = {
    { "--port", true, "--listen" },
    { "-p", true, "--listen" },
    { "--host", false, "--listen" },
    { "--bind", false, "--listen" },
    { "--address", false, "--listen" },
    { "--database", false, "--db" },
    { "--token", false, "--token-file" },
};

/* Says what to type for a misnamed option s (value: the next argument,
 * or NULL); false when s is none of those. */
static bool say_instead(const char *s, const char *value, FILE *errs)
{
    for (size_t k = 0; k < sizeof instead / sizeof *instead; k++) {
        if (strcmp(s, instead[k].given) != 0)
            continue;
        bool number = value && value[0] &&
                      strspn(value, "0123456789") == strlen(value);
        if (instead[k].port && number)
            fprintf(errs, "  use %s HOST:PORT: here, %s 127.0.0.1:%s (or "
                    "0.0.0.0:%s for every address)\n", instead[k].say,
                    instead[k].say, value, value);
        else if (strcmp(instead[k].say, "--listen") == 0)
            fprintf(errs, "  use %s HOST:PORT (default 127.0.0.1:8080)\n",
                    instead[k].say);
        else
            fprintf(errs, "  use %s (see flierd serve --help)\n",
                    instead[k].say);
        return true;
    }
    return false;
}

/* Returns -1 to go on, else an exit status. */
static int parse_args(int argc, char **argv, struct serve_args *a, FILE *out,
                      FILE *errs)
{
    for (int i = 0; i < argc; i++) {
        const char *s = argv[i];
        const struct serve_opt *o = opts;
        if (strcmp(s, "-h") == 0 || strcmp(s, "--help") == 0) {
            usage(out);
            return 0;
        }
        if (strcmp(s, "--quiet") == 0) {
            a->cfg.log = NULL;
            continue;
        }
        while (o < opts + sizeof opts / sizeof *opts && strcmp(s, o->name))
            o++;
        if (o == opts + sizeof opts / sizeof *opts) {
            fprintf(errs, "flierd serve: unknown option '%s'\n", s);
            if (!say_instead(s, i + 1 < argc ? argv[i + 1] : NULL, errs))
                usage(errs);
            return 2;
        }
        if (i + 1 >= argc) {
            fprintf(errs, "flierd serve: %s wants a value\n", s);
            return 2;
        }
        if (!set_option(a, o, argv[++i])) {
            fprintf(errs, "flierd serve: bad value '%s' for %s\n", argv[i],
                    s);
            return 2;
        }
    }
    return -1;
}

/* The first line of path, trimmed, into tok. */
static bool read_token(const char *path, char *tok, size_t len, FILE *errs)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(errs, "flierd serve: --token-file %s: %s\n", path,
                strerror(errno));
        return false;
    }
    if (!fgets(tok, (int)len, f))
        tok[0] = '\0';
    fclose(f);
    size_t n = strlen(tok);
    while (n > 0 && (tok[n - 1] == '\n' || tok[n - 1] == '\r' ||
                     tok[n - 1] == ' ' || tok[n - 1] == '\t'))
        tok[--n] = '\0';
    if (n < 8) {
        fprintf(errs, "flierd serve: --token-file %s: the token must have "
                "at least 8 characters\n", path);
        return false;
    }
    return true;
}

static bool load(const char *db, const char *dir, FILE *errs)
{
    struct store *s = NULL;
    struct err e;
    const char *paths[1] = { dir };
    err_clear(&e);
    if (store_open(db, false, &s, &e) != ST_OK) {
        fprintf(errs, "flierd serve: %s: %s\n", db, e.msg);
        return false;
    }
    struct ingest_tally t = { 0, 0, 0, 0, 0, BUF_INIT, BUF_INIT };
    cli_ingest_paths(s, paths, 1, "cli", NULL, &t);
    store_close(s);
    fprintf(errs, "loaded %s: ", dir);
    cli_print_tally(errs, &t);
    buf_release(&t.failures);
    buf_release(&t.unsupported_files);
    return true;
}

int cli_serve(int argc, char **argv, FILE *out, FILE *errs)
{
    struct serve_args a;
    struct server *srv = NULL;
    struct err e;
    char token[512];
    sigset_t stop;
    int sig = 0;

    memset(&a, 0, sizeof a);
    http_config_init(&a.cfg);
    int rc = parse_args(argc, argv, &a, out, errs);
    if (rc >= 0)
        return rc;
    if (a.token_file) {
        if (!read_token(a.token_file, token, sizeof token, errs))
            return 2;
        a.cfg.token = token;
    }
    if (a.load_dir && !load(a.cfg.db_path, a.load_dir, errs))
        return 2;
    /* A shell starts background jobs with SIGINT ignored, and an ignored
     * signal never reaches sigwait(): restore the default first. */
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGPIPE, SIG_IGN);
    sigemptyset(&stop);
    sigaddset(&stop, SIGTERM);
    sigaddset(&stop, SIGINT);
    pthread_sigmask(SIG_BLOCK, &stop, NULL);
    err_clear(&e);
    if (server_start(&a.cfg, &srv, &e) != ST_OK) {
        fprintf(errs, "flierd serve: %s\n", e.msg);
        return 2;
    }
    bool v6 = strchr(a.cfg.host, ':') != NULL;
    fprintf(out, "listening on http://%s%s%s:%u\n", v6 ? "[" : "",
            a.cfg.host, v6 ? "]" : "", server_port(srv));
    fflush(out);
    while (sigwait(&stop, &sig) != 0)
        ;
    if (a.cfg.log)
        fprintf(a.cfg.log, "flierd: %s, stopping\n",
                sig == SIGINT ? "SIGINT" : "SIGTERM");
    server_stop(srv, GRACE_MS);
    return 0;
}
