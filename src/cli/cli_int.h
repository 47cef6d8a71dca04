/* cli_int.h - text-report helpers shared by the cli subcommands. */
#ifndef CLI_CLI_INT_H
#define CLI_CLI_INT_H
#include <stddef.h>
#include <stdio.h>

#include "core/audit.h"
#include "core/log.h"

/* The seat's name, or "?" for -1 / out of range. */
const char *cli_seat_name(const struct game_log *log, int seat);
/* Seats with the best score, as a bit mask. */
unsigned cli_winners(const struct game_log *log, const int *score);
/* "<label> Ada 71 (winner), Ben 64" */
void cli_print_scoreline(FILE *out, const char *label,
                         const struct game_log *log, const int *score,
                         bool mark_winner);
/* "roll 1 -> (2,0): city:N [Ada 1], road:WE; roll 2 -> (1,-1): nothing;
 * roll 3 -> (0,-2): no tile; chance to land 1/3" */
void cli_format_odds(const struct game_log *log, const struct flight *f,
                     char *out, size_t len);

#endif
