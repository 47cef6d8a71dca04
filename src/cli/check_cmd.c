/* check_cmd.c - `flierd check`: is the database whole (store_check)? For
 * an operator after a crash or a disk incident, and for the crash tests.
 * Opens the database read-only: a check never changes what it checks. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cli_int.h"
#include "store/store.h"

static void usage(FILE *f)
{
    fputs("usage: flierd check [--db PATH] [--quiet]\n"
          "  Checks that the database (default flierd.db) is whole: SQLite's\n"
          "  integrity check, every game with all its rows and none without\n"
          "  its game, every upload matching its SHA-256, the statistics\n"
          "  tables equal to the sums over the games. Read-only; may run\n"
          "  beside the daemon. Exit 0 all holds, 1 problems (listed),\n"
          "  2 the database could not be read.\n"
          "  --quiet  print the problems only, not the summary line\n", f);
}

/* A SQLite path with nothing there: says where it looked (the whole
 * path: the default is relative to a folder the user may not think of)
 * and how to name another. A check never creates the file. */
static bool no_file(const char *db, FILE *errs)
{
    struct stat sb;
    char cwd[4096];
    if (strstr(db, "://") || stat(db, &sb) == 0 || errno != ENOENT)
        return false;
    bool rel = db[0] != '/' && getcwd(cwd, sizeof cwd);
    fprintf(errs, "flierd check: no database at %s%s%s (%s); name one with "
            "--db PATH\n", rel ? cwd : "", rel ? "/" : "", db,
            strcmp(db, "flierd.db") == 0 ? "the default, flierd.db in the "
                                           "current folder"
                                         : "no such file");
    return true;
}

int cli_check(int argc, char **argv, FILE *out, FILE *errs)
{
    const char *db = "flierd.db";
    bool quiet = false;
    struct store *s = NULL;
    struct buf report = BUF_INIT;
    struct err e;
    int problems = 0;
    const struct cli_opt opts[] = { { "--db", &db, NULL },
                                    { "--quiet", NULL, &quiet },
                                    { NULL, NULL, NULL } };
    int n = 0;
    const struct cli_args args = { .cmd = "check", .opts = opts,
                                   .usage = usage, .n_operands = &n };
    int rc = cli_parse(&args, argc, argv, out, errs);
    if (rc >= 0)
        return rc;
    err_clear(&e);
    if (no_file(db, errs))
        return 2;
    if (store_open(db, true, &s, &e) != ST_OK) {
        /* SQLite's open errors name the file already */
        bool named = strncmp(e.msg, db, strlen(db)) == 0;
        fprintf(errs, "flierd check: %s%s%s\n", named ? "" : db,
                named ? "" : ": ", e.msg);
        return 2;
    }
    enum status st = store_check(s, &report, &problems, &e);
    store_close(s);
    if (st != ST_OK) {
        fprintf(errs, "flierd check: %s: %s\n", db, e.msg);
        buf_release(&report);
        return 2;
    }
    /* the last line is the summary */
    char *last = report.p ? report.p + report.len - 1 : NULL;
    while (last && last > report.p && last[-1] != '\n')
        last--;
    if (report.p)
        fprintf(out, "%.*s", (int)(last - report.p), report.p);
    if (!quiet && last)
        fprintf(out, "%s: %s", db, last);
    buf_release(&report);
    return problems == 0 ? 0 : 1;
}
