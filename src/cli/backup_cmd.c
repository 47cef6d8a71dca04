/* backup_cmd.c - `flierd backup --db PATH OUT`: a consistent copy of a
 * database that a daemon may be writing to (store_backup). Opens the
 * database read-only: a backup never changes what it copies. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/cli_int.h"
#include "store/store.h"

static void usage(FILE *f)
{
    fputs("usage: flierd backup [--db PATH] [--force] OUT\n"
          "  Copies the database (default flierd.db) into the file OUT as\n"
          "  it is at one moment, whole and consistent, while the daemon\n"
          "  may go on storing games (SQLite's online backup). The copy is\n"
          "  checked (SQLite's quick_check) and synced before it takes the\n"
          "  name OUT, so OUT is either the whole copy or not there. It is\n"
          "  readable by its owner only. To restore, stop the daemon and\n"
          "  put the copy in place of the database (remove the old\n"
          "  database's -wal and -shm files).\n"
          "  --force  replace OUT if it exists (else that is an error)\n"
          "exit status: 0 copied, 2 a bad argument, OUT exists, or the\n"
          "  database could not be read or the copy not written\n", f);
}

int cli_backup(int argc, char **argv, FILE *out, FILE *errs)
{
    const char *db = "flierd.db", *dest = NULL;
    bool force = false;
    struct store *s = NULL;
    struct err e;

    const struct cli_opt opts[] = { { "--db", &db, NULL },
                                    { "--force", NULL, &force },
                                    { NULL, NULL, NULL } };
    int n = 0;
    const struct cli_args args = {
        .cmd = "backup", .opts = opts, .usage = usage, .operands = &dest,
        .min_operands = 1, .max_operands = 1, .n_operands = &n,
        .operand = "OUT file"
    };
    int rc = cli_parse(&args, argc, argv, out, errs);
    if (rc >= 0)
        return rc;
    err_clear(&e);
    if (store_open(db, true, &s, &e) != ST_OK) {
        /* SQLite's open errors name the file already */
        bool named = strncmp(e.msg, db, strlen(db)) == 0;
        fprintf(errs, "flierd backup: %s%s%s\n", named ? "" : db,
                named ? "" : ": ", e.msg);
        return 2;
    }
    enum status st = store_backup(s, dest, force, &e);
    store_close(s);
    if (st == ST_CONFLICT) {
        fprintf(errs, "flierd backup: %s already exists; choose another "
                "name, or --force to replace it\n", dest);
        return 2;
    }
    if (st != ST_OK) { /* e names the file that failed */
        fprintf(errs, "flierd backup: %s\n", e.msg);
        return 2;
    }
    struct stat sb;
    double mib = stat(dest, &sb) == 0 ? (double)sb.st_size / 1048576.0 : 0;
    fprintf(out, "backed up %s to %s (%.1f MiB, quick_check ok)\n", db, dest,
            mib);
    return 0;
}
