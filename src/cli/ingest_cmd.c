/* ingest_cmd.c - `flierd ingest --db PATH FILE...|DIR`: store game logs,
 * with a progress bar on a terminal and a summary. Also the loader of
 * `flierd serve --load DIR`. The progress display is progress.c's. A folder contributes its *.jcz and
 * *.flierlog files, its sub-folders included, in name order; a file
 * named on the command line is read whatever its name. Games are
 * read and audited on one worker thread per core and stored in order
 * in batches of INGEST_BATCH, one transaction (one fsync) each,
 * every game a savepoint within it: a game that fails leaves nothing and
 * the batch goes on; an interrupted import keeps every batch it
 * committed and no part of any other game. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cli_int.h"
#include "cli/progress.h"
#include "ingest/ingest.h"
#include "store/store.h"
#include "util/xalloc.h"

#define INGEST_BATCH 256

/* What became of each file, so that a batch whose commit fails can take
 * back the games it had counted as stored. */
enum outcome {
    OUT_FAILED,
    OUT_VALID,
    OUT_INVALID,
    OUT_UNSUPPORTED,
    OUT_DUPLICATE
};

static bool stored(unsigned char outcome)
{
    return outcome == OUT_VALID || outcome == OUT_INVALID ||
           outcome == OUT_UNSUPPORTED;
}

struct run {
    struct cli_paths *files;
    struct ingest_tally *t;
    struct progress prog;
    unsigned char *outcome; /* enum outcome per file */
    char **reason;          /* per unsupported file, until listed */
};

static enum status read_file(void *ctx, size_t i, struct buf *data,
                             const char **name, struct err *e)
{
    struct run *r = ctx;
    *name = r->files->v[i];
    return cli_read_input(r->files->v[i], data, e);
}

static void file_done(void *ctx, size_t i, enum status st,
                      const struct ingest_result *res, const struct err *e)
{
    struct run *r = ctx;
    struct ingest_tally *t = r->t;
    if (st != ST_OK) {
        t->failed++;
        buf_printf(&t->failures, "  %s: %s\n", r->files->v[i], e->msg);
        r->outcome[i] = OUT_FAILED;
    } else if (res->duplicate) {
        t->duplicates++;
        r->outcome[i] = OUT_DUPLICATE;
    } else if (res->unsupported) {
        t->ingested++;
        t->unsupported++;
        r->reason[i] = xstrdup(res->reason);
        r->outcome[i] = OUT_UNSUPPORTED;
    } else {
        t->ingested++;
        t->invalid += !res->valid;
        r->outcome[i] = res->valid ? OUT_VALID : OUT_INVALID;
    }
    progress_update(&r->prog, i + 1, progress_clock());
}

/* A failed commit loses the batch: the games it had stored count as
 * failed after all, each with the reason. */
static void batch_failed(void *ctx, size_t first, size_t last,
                         const struct err *e)
{
    struct run *r = ctx;
    struct ingest_tally *t = r->t;
    for (size_t i = first; i <= last; i++) {
        if (!stored(r->outcome[i]))
            continue;
        t->ingested--;
        t->invalid -= r->outcome[i] == OUT_INVALID;
        t->unsupported -= r->outcome[i] == OUT_UNSUPPORTED;
        t->failed++;
        r->outcome[i] = OUT_FAILED;
        buf_printf(&t->failures, "  %s: not stored, its batch did not "
                   "commit: %s\n", r->files->v[i], e->msg);
    }
}

/* One worker per core, beside the thread that writes. */
static int worker_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > INGEST_MAX_THREADS ? INGEST_MAX_THREADS : (int)n;
}

void cli_ingest_paths(struct store *s, const char *const *paths, int n,
                      const char *source, FILE *tty, struct ingest_tally *t)
{
    struct cli_paths l = { NULL, 0, 0 };
    cli_collect_logs(paths, n, &l);
    struct run r = { &l, t, { NULL, NULL, 0, 0, 0, false },
                     xcalloc(l.n + 1, 1), xcalloc(l.n + 1, sizeof(char *)) };
    struct ingest_source src = { l.n, source, (int64_t)time(NULL), &r,
                                 read_file, file_done, batch_failed };
    progress_start(&r.prog, tty, "files", l.n, progress_clock());
    ingest_pipeline(s, &src, worker_count(), INGEST_BATCH);
    progress_end(&r.prog);
    /* listed once every batch is settled: a batch that did not commit
     * took its games back */
    for (size_t i = 0; i < l.n; i++) {
        if (r.outcome[i] == OUT_UNSUPPORTED)
            buf_printf(&t->unsupported_files, "  %s: %s\n", l.v[i],
                       r.reason[i]);
        free(r.reason[i]);
        free(l.v[i]);
    }
    free(l.v);
    free(r.outcome);
    free(r.reason);
}

void cli_print_tally(FILE *out, const struct ingest_tally *t)
{
    fprintf(out, "ingested %d (%d valid, %d invalid, %d unsupported), "
            "duplicates %d, failed %d\n", t->ingested,
            t->ingested - t->invalid - t->unsupported, t->invalid,
            t->unsupported, t->duplicates, t->failed);
    if (t->unsupported)
        fprintf(out, "stored, not audited yet (flierd reaudit audits them "
                "once supported):\n%s", t->unsupported_files.p);
    if (t->failed)
        fprintf(out, "failed:\n%s", t->failures.p);
}

static void usage(FILE *f)
{
    fputs("usage: flierd ingest [--db PATH] [--quiet] FILE...|DIR...\n"
          "  Audits game logs (.jcz or flierlog) and stores them in the\n"
          "  database (default flierd.db), each game in one transaction.\n"
          "  A folder adds its *.jcz and *.flierlog files, sub-folders\n"
          "  included. Identical files are stored once. A game of an\n"
          "  expansion this version cannot audit yet is stored as\n"
          "  unsupported (flierd reaudit audits it once supported).\n"
          "  A folder of flierd export is read the same way (its\n"
          "  index.ndjson is skipped, even when named).\n"
          "  --quiet  no progress display (there is none when stderr is\n"
          "           not a terminal)\n"
          "exit status: 0 all stored (or already there), 1 a file failed,\n"
          "2 a bad argument or the database could not be opened\n", f);
}

int cli_ingest(int argc, char **argv, FILE *out, FILE *errs)
{
    const char *db = "flierd.db";
    bool quiet = false;
    const char **paths = xcalloc((size_t)argc + 1, sizeof *paths);
    int n = 0;
    struct store *s = NULL;
    struct err e;
    const struct cli_opt opts[] = { { "--db", &db, NULL },
                                    { "--quiet", NULL, &quiet },
                                    { NULL, NULL, NULL } };
    const struct cli_args args = {
        .cmd = "ingest", .opts = opts, .usage = usage, .operands = paths,
        .min_operands = 1, .max_operands = argc, .n_operands = &n,
        .operand = "FILE"
    };

    xalloc_keep_freed();
    int rc = cli_parse(&args, argc, argv, out, errs);
    if (rc >= 0)
        goto out;
    rc = 2;
    err_clear(&e);
    if (store_open(db, false, &s, &e) != ST_OK) {
        fprintf(errs, "flierd ingest: %s: %s\n", db, e.msg);
        goto out;
    }
    struct ingest_tally t = { 0, 0, 0, 0, 0, BUF_INIT, BUF_INIT };
    cli_ingest_paths(s, paths, n, "cli", progress_stream(errs, quiet), &t);
    store_close(s);
    cli_print_tally(out, &t);
    buf_release(&t.failures);
    buf_release(&t.unsupported_files);
    rc = t.failed ? 1 : 0;
out:
    free(paths);
    return rc;
}
