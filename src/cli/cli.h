/* cli.h - the flierd subcommands that run without the daemon. */
#ifndef CLI_CLI_H
#define CLI_CLI_H
#include <stdio.h>

#define FLIERD_VERSION "0.1.0"

/* flierd audit [--json] [--assume-finished] FILE...  Returns the process
 * exit status: 0 all valid, 1 a violation, 2 an unreadable input. */
int cli_audit(int argc, char **argv, FILE *out, FILE *errs);

#endif
