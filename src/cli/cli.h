/* cli.h - the flierd subcommands that run without the daemon. */
#ifndef CLI_CLI_H
#define CLI_CLI_H
#include <stdio.h>

#include "util/buf.h"
#include "util/err.h"

#define FLIERD_VERSION "0.2.0"

/* flierd audit [--json] [--assume-finished] FILE...  Returns the process
 * exit status: 0 all valid, 1 a violation, 2 an unreadable input. */
int cli_audit(int argc, char **argv, FILE *out, FILE *errs);

/* flierd whatif FILE --turn T --roll R [--landing SEG] [--json] */
int cli_whatif(int argc, char **argv, FILE *out, FILE *errs);

/* Reads all of path ("-" is stdin) into b, refusing more than the log
 * size cap. On failure e says why (without the file name). */
enum status cli_read_input(const char *path, struct buf *b,
                           struct err *e) WARN_UNUSED;
/* "<stdin>" for "-", else path. */
const char *cli_display_name(const char *path);

#endif
