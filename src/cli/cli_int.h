/* cli_int.h - what the cli subcommands share: their option tables and
 * the text report's helpers. */
#ifndef CLI_CLI_INT_H
#define CLI_CLI_INT_H
#include <stddef.h>
#include <stdio.h>

#include "core/audit.h"
#include "core/log.h"

/* An option: a flag (flag set true) or one that takes a value (value
 * set to it). A table of them ends with a NULL name. */
struct cli_opt {
    const char *name; /* "--db" */
    const char **value;
    bool *flag;
};

/* A command's arguments: its options, then up to max_operands words
 * that are no option (at least min_operands) into operands. */
struct cli_args {
    const char *cmd;       /* "check": for messages */
    const struct cli_opt *opts;
    void (*usage)(FILE *f);
    const char **operands;
    int min_operands, max_operands;
    int *n_operands;
    const char *operand;   /* "OUT file": what a second one is called */
};

/* Reads argv; -h or --help prints the usage to out. Returns -1 to go
 * on, else the exit status: 0 after --help, 2 with the reason on errs
 * (an unknown option, a missing value, an operand too many or too
 * few). */
int cli_parse(const struct cli_args *a, int argc, char **argv, FILE *out,
              FILE *errs);

/* The seat's name, or "?" for -1 / out of range. */
const char *cli_seat_name(const struct game_log *log, int seat);
/* Seats with the best score, as a bit mask. */
unsigned cli_winners(const struct game_log *log, const int *score);
/* "<label> Ada 71 (winner), Ben 64" */
void cli_print_scoreline(FILE *out, const char *label,
                         const struct game_log *log, const int *score,
                         bool mark_winner);
/* "roll 1 -> (2,0): the city on the north side (Ada 1), the road running
 * east–west; roll 2 -> (1,-1): no landing; ...; chance to land 1/3" */
void cli_format_odds(const struct game_log *log, const struct flight *f,
                     char *out, size_t len);
/* Where score event i of r lies, for telling equal receipts apart:
 * " (the road from (2,0) to (5,0))", " (the city at (0,1) and (0,2))",
 * for a field " (the field to the north of the tile at (3,4))" when g,
 * the game's final state, is given (else ""). */
void cli_event_where(const struct report *r, const struct game *g,
                     size_t i, char *out, size_t len);

#endif
