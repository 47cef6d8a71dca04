/* flierd_run.h - the flierd binary as a tool for the integration tests:
 * run a subcommand and collect what it prints; make games with
 * `flierd simulate` and read them back. */
#ifndef IT_FLIERD_RUN_H
#define IT_FLIERD_RUN_H
#include "util/buf.h"

/* Runs FLIERD_BIN with args (NULL-terminated, without the program),
 * its stdout and stderr into out (may be NULL). Returns the exit status,
 * 128 + the signal that killed it, or -1 when it could not start. */
int flierd_run(const char *const *args, struct buf *out);

/* `flierd simulate --games n --seed seed --players 2 --out dir`, then
 * reads the n .jcz files in name order into a new array of n buffers
 * (*out; free with games_free). Returns the number read, or -1. */
int games_simulate(const char *dir, int n, unsigned seed, struct buf **out);
void games_free(struct buf *games, int n);

#endif
