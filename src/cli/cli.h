/* cli.h - the flierd subcommands that run without the daemon. */
#ifndef CLI_CLI_H
#define CLI_CLI_H
#include <stdio.h>

#include "util/buf.h"
#include "util/err.h"

#include "util/version.h"

/* flierd audit [--json] [--assume-finished] FILE...  Returns the process
 * exit status: 0 all valid, 1 a violation, 2 an unreadable input. */
int cli_audit(int argc, char **argv, FILE *out, FILE *errs);

/* flierd whatif FILE --turn T --roll R [--landing SEG] [--json] */
int cli_whatif(int argc, char **argv, FILE *out, FILE *errs);

/* flierd convert --to flierlog|jcz [--ndjson] FILE [-o OUT]: 0 converted,
 * 2 unreadable input (the message names the file and offset or path). */
int cli_convert(int argc, char **argv, FILE *out, FILE *errs);

/* flierd serve [--db PATH] [--listen HOST:PORT] [--spool DIR] [--web DIR]
 * [--token-file F] [--load DIR] [limits]: the HTTP daemon and the
 * dashboard (built in, or the files of --web DIR). Prints
 * "listening on http://HOST:PORT" on out once ready and runs until
 * SIGTERM or SIGINT; returns 0 then, 2 when it could not start. */
int cli_serve(int argc, char **argv, FILE *out, FILE *errs);

/* flierd ingest [--db PATH] [--quiet] FILE...|DIR...: stores game logs.
 * Returns 0 all stored or duplicates, 1 a file failed, 2 bad usage. */
int cli_ingest(int argc, char **argv, FILE *out, FILE *errs);

/* flierd simulate --games N --seed S --out DIR [--players A..B]
 * [--edition c2|c3] [--flier-rate P] [--format jcz|flierlog]
 * [--forge RATE] [--quiet]: random legal games (some forged), one file
 * each, and DIR/manifest.json. Returns 0, or 2 on bad usage or a write
 * error. */
int cli_simulate(int argc, char **argv, FILE *out, FILE *errs);

/* flierd reaudit [--db PATH] [--quiet]: audits every stored game again
 * with this engine (those stored as unsupported too) and lists the games
 * whose verdict changed. 0, or 2 on error. */
int cli_reaudit(int argc, char **argv, FILE *out, FILE *errs);

/* flierd check [--db PATH] [--quiet]: is the database whole
 * (store_check)? Prints the problems and a summary line. Returns 0 all
 * holds, 1 problems, 2 the database could not be opened or read. */
int cli_check(int argc, char **argv, FILE *out, FILE *errs);

/* flierd backup [--db PATH] [--force] OUT: a consistent copy of the
 * database (store_backup), taken while a daemon may write. 0 copied, 2
 * bad usage, OUT exists (without --force), or a failure (named). */
int cli_backup(int argc, char **argv, FILE *out, FILE *errs);

/* flierd export [--db PATH] [--quiet] OUT: every stored upload as its
 * file in the new (or empty) folder OUT, and OUT/index.ndjson. 0
 * exported, 2 bad usage, OUT not empty, or a failure (naming the file). */
int cli_export(int argc, char **argv, FILE *out, FILE *errs);

/* flierd copy --from DB --to DB [--quiet]: every game of FROM stored in
 * TO with its upload, name, source, upload time and live flag, audited
 * again by this engine; TO gives new ids. 0 copied (or already there), 1
 * a game failed (named by its id in FROM), 2 bad usage, FROM the same as
 * TO, or a database that could not be opened or read. */
int cli_copy(int argc, char **argv, FILE *out, FILE *errs);

/* What an import did; failures and unsupported list "  PATH: reason"
 * lines. */
struct ingest_tally {
    int ingested;    /* newly stored, audited or not */
    int invalid;     /* of those, with a violation */
    int unsupported; /* of those, not auditable yet (stored all the same) */
    int duplicates;  /* identical to a stored game */
    int failed;      /* unreadable, malformed, too large, database */
    struct buf failures;
    struct buf unsupported_files;
};

struct store;
/* Ingests each path into s (a folder: its *.jcz and *.flierlog files,
 * recursively, in name order), adding to t. With tty non-NULL draws the
 * progress display there (progress.h). Never stops early: failures are
 * counted. */
void cli_ingest_paths(struct store *s, const char *const *paths, int n,
                      const char *source, FILE *tty, struct ingest_tally *t);
/* "ingested 7 (4 valid, 2 invalid, 1 unsupported), duplicates 2, failed
 * 1" + the unsupported files and the failures with their reasons. */
void cli_print_tally(FILE *out, const struct ingest_tally *t);

/* Reads all of path ("-" is stdin) into b, refusing more than the log
 * size cap. On failure e says why (without the file name). */
enum status cli_read_input(const char *path, struct buf *b,
                           struct err *e) WARN_UNUSED;
/* "<stdin>" for "-", else path. */
const char *cli_display_name(const char *path);

/* Paths (heap copies), as cli_collect_logs() lists them. */
struct cli_paths {
    char **v;
    size_t n, cap;
};
/* Appends the logs that paths[0..n) name to l: a folder its *.jcz and
 * *.flierlog files, sub-folders included, in name order; any other path
 * as it is (a file named is read whatever its name; a missing one fails
 * when read), except the index.ndjson of a flierd export. Free with
 * cli_paths_release(). */
void cli_collect_logs(const char *const *paths, int n, struct cli_paths *l);
void cli_paths_release(struct cli_paths *l);

#endif
