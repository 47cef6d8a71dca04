/* reaudit_cmd.c - `flierd reaudit`: audits every stored game again with
 * this engine (after a rules fix, or an upgrade that supports more
 * expansions: games stored as unsupported are audited now if they can
 * be) and lists the verdicts that changed. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_int.h"
#include "cli/progress.h"
#include "ingest/ingest.h"
#include "store/store.h"

static void usage(FILE *f)
{
    fputs("usage: flierd reaudit [--db PATH] [--quiet]\n"
          "  Audits every game of the database (default flierd.db) again\n"
          "  with this version's engine, stores the new audits and lists\n"
          "  the games whose verdict changed, and rates every player again\n"
          "  over the rated games in play order. Games stored as unsupported\n"
          "  (an expansion an earlier version could not audit) are audited\n"
          "  when this version supports them, and stay unsupported, with\n"
          "  this version's reason, when it does not.\n"
          "  --quiet  no progress display (there is none when stderr is\n"
          "           not a terminal)\n", f);
}

/* The re-audit knows how many games there are once it has listed them:
 * the display learns its total from the first call. */
static void tick(void *ctx, size_t done, size_t total)
{
    struct progress *p = ctx;
    progress_set_total(p, total);
    progress_update(p, done, progress_clock());
}

int cli_reaudit(int argc, char **argv, FILE *out, FILE *errs)
{
    const char *db = "flierd.db";
    bool quiet = false;
    struct store *s = NULL;
    struct buf report = BUF_INIT;
    struct err e;
    int games = 0, changed = 0, unsupported = 0;

    const struct cli_opt opts[] = { { "--db", &db, NULL },
                                    { "--quiet", NULL, &quiet },
                                    { NULL, NULL, NULL } };
    int n = 0;
    const struct cli_args args = { .cmd = "reaudit", .opts = opts,
                                   .usage = usage, .n_operands = &n };
    int rc = cli_parse(&args, argc, argv, out, errs);
    if (rc >= 0)
        return rc;
    err_clear(&e);
    if (store_open(db, false, &s, &e) != ST_OK) {
        fprintf(errs, "flierd reaudit: %s: %s\n", db, e.msg);
        return 2;
    }
    struct progress prog;
    progress_start(&prog, progress_stream(errs, quiet), "games", 0,
                   progress_clock());
    /* every game is written again: the ratings once, from the start,
     * after the last (not again from each game to the end) */
    store_ratings_defer(s, true);
    enum status st = ingest_reaudit(s, &report, &games, &changed,
                                    &unsupported, tick, &prog, &e);
    if (st == ST_OK)
        st = store_ratings_rebuild(s, &e);
    progress_end(&prog);
    store_close(s);
    if (report.len)
        fputs(report.p, out);
    buf_release(&report);
    fprintf(out, "re-audited %d game%s, %d verdict%s changed, %d still "
            "unsupported\n", games, games == 1 ? "" : "s", changed,
            changed == 1 ? "" : "s", unsupported);
    if (st != ST_OK) {
        fprintf(errs, "flierd reaudit: %s\n", e.msg);
        return 2;
    }
    return 0;
}
