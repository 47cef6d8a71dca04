/* bench.c - how fast flierd replays and audits games.
 *
 *   bench [--games N] [--runs R] [--ingest-runs R] [--expansions LIST]
 *         [--elements LIST] [--curve N [--dir DIR]] [DIR_OR_FILES...]
 *
 * (a) engine: audit_run over pre-parsed games: games/s and ns per move;
 * (b) end to end: .jcz bytes -> mlog_parse -> audit_run: games/s, MB/s, and
 *     the share of the time spent parsing;
 * (c) ingest: the same bytes through ingest_bytes() into a SQLite file in
 *     a temp folder, in batches (store_batch_begin, as `flierd ingest`)
 *     and, on a slice, one transaction per game: games/s, bytes per game.
 * (h) replay render: what a replay cache miss of the daemon costs past
 *     the database read: .jcz bytes -> mlog_parse -> replay_build (the
 *     audit and the boards, one pass) -> mlog_replay_json, games/s and
 *     each stage's share.
 * (g) with --curve N: N games into one SQLite database (under --dir, by
 *     default a temp folder), 10,000 at a time through the ingest
 *     pipeline; the rate of each ten thousand as the database grows;
 *     then, in turns, three chunks into the grown file and three into
 *     copies of a file of 10,000 games: the ratio of their medians (a
 *     single chunk's rate swings by a fifth here). The corpus's games are
 *     repeated with their gameId rewritten to the running count, so
 *     every upload is new (no duplicates) and audits as its model.
 * Games come from the .jcz files given, else from the simulator (seeded,
 * so every run measures the same games): the base game and The Flier, C2
 * and C3 in turn, or with --expansions and --elements (as `flierd
 * simulate` takes them, e.g. river,inns,phantom,traders,abbey, the Big
 * Box, and builder=1,...) those expansions too, which measures other
 * games than the main figures of docs/benchmarks.md. Simulated games are
 * audited once before timing: each must be valid and finished, so that
 * no figure measures a game the auditor stops short on. Each figure is
 * the median of R runs. Timing lives here, never in the tests. */
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/audit.h"
#include "core/replay.h"
#include "ingest/ingest.h"
#include "mlog/mlog.h"
#include "sim/sim.h"
#include "util/buf.h"
#include "util/xalloc.h"

struct corpus {
    struct buf *files;     /* raw .jcz bytes */
    struct game_log *logs; /* parsed */
    size_t n, cap;
    size_t bytes, moves;
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void add_bytes(struct corpus *c, const char *data, size_t len)
{
    size_t i = c->n;
    size_t cap = c->cap;
    xgrow((void **)&c->files, &cap, i + 1, sizeof *c->files);
    xgrow((void **)&c->logs, &c->cap, i + 1, sizeof *c->logs);
    struct buf b = BUF_INIT;
    buf_append(&b, data, len);
    c->files[i] = b;
    game_log_init(&c->logs[i]);
    enum mlog_format fmt;
    struct err e;
    if (mlog_parse(b.p, b.len, &c->logs[i], &fmt, &e) != ST_OK) {
        fprintf(stderr, "bench: skipping a log: %s\n", e.msg);
        game_log_release(&c->logs[i]);
        buf_release(&c->files[i]);
        return;
    }
    c->bytes += len;
    c->moves += c->logs[i].n_moves;
    c->n++;
}

static void add_file(struct corpus *c, const char *path)
{
    FILE *f = fopen(path, "rb");
    struct buf b = BUF_INIT;
    char chunk[65536];
    size_t n;
    if (!f)
        return;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        buf_append(&b, chunk, n);
    fclose(f);
    if (b.len)
        add_bytes(c, b.p, b.len);
    buf_release(&b);
}

static void add_path(struct corpus *c, const char *path)
{
    DIR *d = opendir(path);
    struct dirent *de;
    if (!d) {
        add_file(c, path);
        return;
    }
    while ((de = readdir(d)) != NULL) {
        size_t len = strlen(de->d_name);
        if (len > 4 && strcmp(de->d_name + len - 4, ".jcz") == 0) {
            char full[4096];
            snprintf(full, sizeof full, "%s/%s", path, de->d_name);
            add_file(c, full);
        }
    }
    closedir(d);
}

static void add_simulated(struct corpus *c, int n, const char *expansions,
                          const char *elements)
{
    static const char *const names[] = { "Ada", "Ben", "Cleo", "Dov", "Eli" };
    struct sim_policy p = sim_policy_default();
    for (int i = 0; i < n; i++) {
        struct sim_setup setup = { i % 2 ? 3 : 2, expansions, NULL,
                                   elements };
        struct rules r;
        struct err e;
        if (sim_rules(&setup, 2 + i % 4, &r, &e) != ST_OK) {
            fprintf(stderr, "bench: %s\n", e.msg);
            exit(2);
        }
        struct game_log l;
        struct buf b = BUF_INIT;
        sim_play(&r, names, (uint64_t)i + 1, &p, &l);
        mlog_write_jcz(&l, &b);
        size_t before = c->n;
        add_bytes(c, b.p, b.len);
        game_log_release(&l);
        buf_release(&b);
        if (c->n == before)
            exit(2); /* add_bytes said why */
        struct report rep;
        audit_run(&c->logs[before], NULL, &rep, NULL);
        if (!rep.valid || !rep.finished) {
            fprintf(stderr, "bench: simulated game %d (seed %d) audits %s: "
                    "%s\n", i + 1, i + 1,
                    rep.valid ? "unfinished" : "invalid",
                    rep.n_violations ? rep.violations[0].msg
                                     : rep.halt_msg);
            exit(2);
        }
        report_release(&rep);
    }
}

/* Seconds to audit every pre-parsed game once. */
static double run_engine(const struct corpus *c, uint64_t *sink)
{
    double t0 = now_s();
    for (size_t i = 0; i < c->n; i++) {
        struct report r;
        audit_run(&c->logs[i], NULL, &r, NULL);
        *sink += r.state_hash;
        report_release(&r);
    }
    return now_s() - t0;
}

/* Seconds to parse and audit every file once; *parse_s gets the parse
 * part. */
static double run_end_to_end(const struct corpus *c, double *parse_s,
                             uint64_t *sink)
{
    double total = 0, parse = 0;
    for (size_t i = 0; i < c->n; i++) {
        struct game_log l;
        struct report r;
        enum mlog_format fmt;
        struct err e;
        double t0 = now_s();
        game_log_init(&l);
        if (mlog_parse(c->files[i].p, c->files[i].len, &l, &fmt, &e) != ST_OK)
            abort(); /* parsed once before: cannot fail now */
        double t1 = now_s();
        audit_run(&l, NULL, &r, NULL);
        *sink += r.state_hash;
        report_release(&r);
        game_log_release(&l);
        double t2 = now_s();
        parse += t1 - t0;
        total += t2 - t0;
    }
    *parse_s = parse;
    return total;
}

/* Seconds to render every game's replay as the daemon does on a miss;
 * stage[0..2] get parsing, replaying and printing. */
static double run_replay(const struct corpus *c, double stage[3],
                         uint64_t *sink)
{
    double t[4];
    memset(stage, 0, 3 * sizeof *stage);
    for (size_t i = 0; i < c->n; i++) {
        struct game_log l;
        struct report r;
        struct replay rp;
        struct buf out = BUF_INIT;
        enum mlog_format fmt;
        struct err e;
        t[0] = now_s();
        game_log_init(&l);
        if (mlog_parse(c->files[i].p, c->files[i].len, &l, &fmt, &e) != ST_OK)
            abort(); /* parsed once before: cannot fail now */
        t[1] = now_s();
        replay_build(&l, NULL, &rp, &r);
        t[2] = now_s();
        mlog_replay_json(&l, &r, &rp, &out);
        t[3] = now_s();
        *sink += out.len;
        buf_release(&out);
        replay_release(&rp);
        report_release(&r);
        game_log_release(&l);
        for (int k = 0; k < 3; k++)
            stage[k] += t[k + 1] - t[k];
    }
    return stage[0] + stage[1] + stage[2];
}

static long file_size(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 ? (long)sb.st_size : 0;
}

static enum status read_game(void *ctx, size_t i, struct buf *data,
                             const char **name, struct err *e)
{
    const struct corpus *c = ctx;
    (void)e;
    *name = NULL;
    buf_append(data, c->files[i].p, c->files[i].len);
    return ST_OK;
}

static void game_done(void *ctx, size_t i, enum status st,
                      const struct ingest_result *res, const struct err *e)
{
    (void)ctx;
    (void)res;
    if (st != ST_OK)
        fprintf(stderr, "bench: ingest of game %zu: %s\n", i, e->msg);
}

static void copy_file(const char *from, const char *to)
{
    char chunk[1 << 16];
    size_t n;
    FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
    if (!in || !out)
        abort();
    while ((n = fread(chunk, 1, sizeof chunk, in)) > 0)
        if (fwrite(chunk, 1, n, out) != n)
            abort();
    fclose(in);
    if (fclose(out) != 0)
        abort();
}

static void remove_db(const char *path)
{
    char side[4200];
    unlink(path);
    snprintf(side, sizeof side, "%s-wal", path);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", path);
    unlink(side);
}

static struct store *open_or_exit(const char *path)
{
    struct store *s = NULL;
    struct err e;
    if (store_open(path, false, &s, &e) != ST_OK) {
        fprintf(stderr, "bench: %s\n", e.msg);
        exit(2);
    }
    return s;
}

/* Seconds to ingest games [0, n) into a new database in a temp folder,
 * batch games per transaction (0: one each), with `threads` workers as
 * `flierd ingest` does (0: ingest_bytes() in a loop on this thread);
 * *out_bytes gets the size of the database (with its WAL) per game. */
static double run_ingest(const struct corpus *c, size_t n, int batch,
                         int threads, double *out_bytes)
{
    char dir[] = "/tmp/flierd-bench-XXXXXX", db[64], wal[80];
    struct err e;
    double t0, t;
    if (!mkdtemp(dir))
        abort();
    snprintf(db, sizeof db, "%s/bench.db", dir);
    snprintf(wal, sizeof wal, "%s-wal", db);
    struct store *s = open_or_exit(db);
    t0 = now_s();
    if (threads > 0) {
        struct ingest_source src = { n, "cli", 1700000000, (void *)c,
                                     read_game, game_done, NULL };
        ingest_pipeline(s, &src, threads, batch);
    }
    for (size_t i = 0; threads == 0 && i < n; i++) {
        struct ingest_result res;
        if (batch && i % (size_t)batch == 0 &&
            store_batch_begin(s, STORE_BATCH_WHOLE, &e) != ST_OK)
            abort();
        if (ingest_bytes(s, c->files[i].p, c->files[i].len, "cli", NULL,
                         1700000000, &res, &e) != ST_OK)
            fprintf(stderr, "bench: ingest: %s\n", e.msg);
        if (batch && (i % (size_t)batch == (size_t)batch - 1 || i + 1 == n) &&
            store_batch_end(s, true, &e) != ST_OK)
            abort();
    }
    store_close(s);
    t = now_s() - t0;
    *out_bytes = (double)(file_size(db) + file_size(wal)) / (double)n;
    remove_db(db);
    rmdir(dir);
    return t;
}

/* (g): item i of a chunk is game base + i, a copy of a corpus game whose
 * gameId is that count in hex (same length: the same audit, new bytes). */
struct curve {
    const struct corpus *c;
    size_t base;
    size_t failed;
};

static enum status read_curve(void *ctx, size_t i, struct buf *data,
                              const char **name, struct err *e)
{
    const struct curve *cv = ctx;
    size_t k = cv->base + i;
    const struct buf *t = &cv->c->files[k % cv->c->n];
    (void)e;
    *name = NULL;
    buf_append(data, t->p, t->len);
    char *id = strstr(data->p, "\"gameId\":\"");
    char *end = id ? strchr(id + 10, '"') : NULL;
    for (char *q = end; q && q > id + 10; k >>= 4)
        *--q = "0123456789abcdef"[k & 15];
    return ST_OK;
}

static void curve_done(void *ctx, size_t i, enum status st,
                       const struct ingest_result *res, const struct err *e)
{
    struct curve *cv = ctx;
    (void)i;
    if (st != ST_OK || res->duplicate) {
        if (cv->failed++ == 0)
            fprintf(stderr, "bench: curve: %s\n",
                    st != ST_OK ? e->msg : "a duplicate");
    }
}

static bool curve_point(size_t at)
{
    static const size_t points[] = { 10000, 20000, 50000, 100000, 200000,
                                     300000, 500000, 700000, 1000000 };
    for (size_t i = 0; i < sizeof points / sizeof *points; i++)
        if (at == points[i])
            return true;
    return at % 1000000 == 0;
}

/* Games [cv->base, cv->base + n) into s: games/s. */
static double curve_chunk(struct store *s, struct curve *cv, size_t n,
                          int workers)
{
    struct ingest_source src = { n, "cli", 1700000000, cv, read_curve,
                                 curve_done, NULL };
    double t0 = now_s();
    ingest_pipeline(s, &src, workers, 256);
    return n / (now_s() - t0);
}

/* One chunk's rate swings by a fifth on a shared machine, so the end of
 * the curve is also measured against its reference in turns: a chunk
 * into the grown file, then one into a fresh copy of a file of 10,000
 * games (ref.db, made first), PAIRS times; the target is the ratio of
 * the medians. A copy takes WARM games untimed first: the grown file's
 * store has its caches and prepared statements, the copy's would start
 * cold. Chunks past the curve's end and the copies' chunks take games
 * of their own (base past total), so none is a duplicate. */
static void run_curve(const struct corpus *c, size_t total, const char *dir,
                      int workers)
{
    enum { CHUNK = 10000, PAIRS = 3, WARM = 1000 };
    char path[4096], ref[4096], run[4096], tmp[] = "/tmp/flierd-curve-XXXXXX";
    if (!dir && !(dir = mkdtemp(tmp)))
        abort();
    snprintf(path, sizeof path, "%s/curve.db", dir);
    snprintf(ref, sizeof ref, "%s/ref.db", dir);
    snprintf(run, sizeof run, "%s/ref-run.db", dir);
    remove_db(path);
    remove_db(ref);
    struct curve cv = { c, 0, 0 };
    struct store *s = open_or_exit(ref);
    curve_chunk(s, &cv, CHUNK, workers);
    store_close(s); /* the last connection: the WAL goes into the file */
    s = open_or_exit(path);
    double first = 0, last = 0, low = 0;
    printf("(g) ingest as the database grows: %zu games, %d at a time, "
           "%d workers\n", total, CHUNK, workers);
    for (cv.base = 0; cv.base < total; cv.base += CHUNK) {
        size_t n = total - cv.base < CHUNK ? total - cv.base : CHUNK;
        double rate = curve_chunk(s, &cv, n, workers);
        if (cv.base == CHUNK)
            first = rate;
        if (cv.base >= CHUNK)
            low = low == 0 || rate < low ? rate : low;
        last = rate;
        if (curve_point(cv.base) || cv.base + n >= total) {
            struct stat sb;
            long long size = stat(path, &sb) == 0 ? (long long)sb.st_size : 0;
            printf("  at %7zu stored: %5.0f games/s (file %lld MB)\n",
                   cv.base, rate, size >> 20);
            fflush(stdout);
        }
    }
    double big[PAIRS], small[PAIRS];
    for (int k = 0; k < PAIRS; k++) {
        cv.base = total + (size_t)k * CHUNK;
        big[k] = curve_chunk(s, &cv, CHUNK, workers);
        remove_db(run);
        copy_file(ref, run);
        struct store *r = open_or_exit(run);
        cv.base = total + (size_t)(PAIRS + k) * CHUNK; /* warm-up */
        curve_chunk(r, &cv, WARM, workers);
        cv.base += WARM;
        small[k] = curve_chunk(r, &cv, CHUNK, workers);
        store_close(r);
    }
    store_close(s);
    printf("  in turns, %d each: at %zu+ stored", PAIRS, total);
    for (int k = 0; k < PAIRS; k++)
        printf(" %.0f", big[k]);
    printf(" games/s; into a copy of %d games (+%d)", CHUNK, WARM);
    for (int k = 0; k < PAIRS; k++)
        printf(" %.0f", small[k]);
    printf("\n  ratio of the medians: %.2f (target >= 0.80)\n",
           median(big, PAIRS) / median(small, PAIRS));
    if (first > 0)
        printf("  single chunks: last / at 10,000: %.2f; lowest / at "
               "10,000: %.2f; %zu failed\n", last / first, low / first,
               cv.failed);
    remove_db(run);
    remove_db(ref);
    if (strcmp(dir, tmp) == 0) {
        remove_db(path);
        rmdir(dir);
    }
}

int main(int argc, char **argv)
{
    struct corpus c = { 0 };
    int games = 1000, runs = 5, ingest_runs = 3;
    size_t curve = 0;
    const char *curve_dir = NULL;
    const char *expansions = NULL, *elements = NULL;
    uint64_t sink = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--games") == 0 && i + 1 < argc)
            games = atoi(argv[++i]) > 0 ? atoi(argv[i]) : games;
        else if (strcmp(argv[i], "--ingest-runs") == 0 && i + 1 < argc)
            ingest_runs = atoi(argv[++i]) >= 0 ? atoi(argv[i]) : ingest_runs;
        else if (strcmp(argv[i], "--expansions") == 0 && i + 1 < argc)
            expansions = argv[++i];
        else if (strcmp(argv[i], "--elements") == 0 && i + 1 < argc)
            elements = argv[++i];
        else if (strcmp(argv[i], "--curve") == 0 && i + 1 < argc)
            curve = strtoul(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--dir") == 0 && i + 1 < argc)
            curve_dir = argv[++i];
        else if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
            runs = atoi(argv[++i]) > 0 ? atoi(argv[i]) : runs;
        else
            add_path(&c, argv[i]);
    }
    if (c.n == 0)
        add_simulated(&c, games, expansions, elements);
    if (c.n == 0 || runs > 99) {
        fprintf(stderr, "bench: no games\n");
        return 2;
    }
    double eng[99], e2e[99], par[99], rep[99], stage[3][99];
    for (int k = 0; k < runs; k++) {
        double st[3];
        eng[k] = run_engine(&c, &sink);
        e2e[k] = run_end_to_end(&c, &par[k], &sink);
        rep[k] = run_replay(&c, st, &sink);
        for (int j = 0; j < 3; j++)
            stage[j][k] = st[j];
    }
    double te = median(eng, runs), tt = median(e2e, runs);
    double tp = median(par, runs);
    printf("games: %zu (%zu moves, %.1f MB of .jcz), median of %d runs\n",
           c.n, c.moves, c.bytes / 1e6, runs);
    printf("(a) engine: %.0f games/s per core, %.0f ns per move\n",
           c.n / te, te * 1e9 / c.moves);
    printf("(b) audit end to end: %.0f games/s per core, %.1f MB/s, "
           "parsing %.0f%% of the time\n", c.n / tt, c.bytes / 1e6 / tt,
           100.0 * tp / tt);
    double tr = median(rep, runs);
    printf("(h) replay render: %.0f games/s per core, %.0f us a game: "
           "parse %.0f%%, audit and boards %.0f%%, JSON %.0f%%\n",
           c.n / tr, tr * 1e6 / c.n, 100.0 * median(stage[0], runs) / tr,
           100.0 * median(stage[1], runs) / tr,
           100.0 * median(stage[2], runs) / tr);
    if (ingest_runs > 0) {
        double ib[99], i1[99], bytes = 0, single, sb;
        size_t slice = c.n < 200 ? c.n : 200;
        long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
        int workers = ncpu < 1 ? 1 : ncpu > 16 ? 16 : (int)ncpu;
        for (int k = 0; k < ingest_runs && k < 99; k++) {
            ib[k] = run_ingest(&c, c.n, 256, workers, &bytes);
            i1[k] = run_ingest(&c, c.n, 256, 0, &sb);
        }
        single = run_ingest(&c, slice, 0, 0, &sb);
        printf("(c) ingest: %.0f games/s in batches of 256 with %d workers "
               "(as flierd ingest), %.0f on one thread (median of %d), "
               "%.0f database bytes per game; one transaction per game: "
               "%.0f games/s\n", c.n / median(ib, ingest_runs), workers,
               c.n / median(i1, ingest_runs), ingest_runs, bytes,
               slice / single);
        /* The most ingest could do on this machine if storing cost
         * nothing: every worker parsing and auditing at (b)'s rate. Its
         * share, and what the rest adds a game, compare machines whose
         * speeds differ (the 5,000 games/s target is absolute). */
        double ceiling = workers * c.n / tt;
        printf("  against (b): %d x (b) = %.0f games/s with nothing "
               "stored, (c) %.2f of it; rendering and storing add %.0f us "
               "a game on one thread to (b)'s %.0f (parsing %.0f of them)\n",
               workers, ceiling, c.n / median(ib, ingest_runs) / ceiling,
               (median(i1, ingest_runs) - tt) * 1e6 / c.n, tt * 1e6 / c.n,
               tp * 1e6 / c.n);
    }
    if (curve > 0) {
        long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
        run_curve(&c, curve, curve_dir,
                  ncpu < 1 ? 1 : ncpu > 16 ? 16 : (int)ncpu);
    }
    fprintf(stderr, "(checksum %llx)\n", (unsigned long long)sink);
    for (size_t i = 0; i < c.n; i++) {
        game_log_release(&c.logs[i]);
        buf_release(&c.files[i]);
    }
    free(c.logs);
    free(c.files);
    return 0;
}
