/* whatif.h - the same game with another die roll. */
#ifndef CORE_WHATIF_H
#define CORE_WHATIF_H
#include <stdbool.h>

#include "core/log.h"
#include "util/err.h"

struct whatif {
    int turn;          /* the turn whose flight changes */
    int roll;          /* the new roll, 1..3 */
    bool has_landing;  /* landing chosen by the caller */
    int feature;       /* its segment on the new target: enum feat */
    uint8_t mask;
};

/* What a what-if settled on, for the report. */
struct whatif_result {
    int old_roll;
    struct pos target;
    int n_options;     /* valid landings on the new target */
    bool lands;
    int feature;       /* landing chosen (or the only one), if lands */
    uint8_t mask;
};

/* Fills out (initialised by the caller, released with game_log_release)
 * with log in which the flight of w->turn rolls w->roll and lands as
 * chosen (without a choice: the only valid landing, or none: the meeple
 * returns); every other move is kept as logged, except that deployments
 * after it take any meeple of their kind from supply (a logged meeple id
 * may now be on the board); claims are dropped. On
 * failure (no flight that turn, roll outside 1..3, a landing that is not
 * valid or a choice that is needed) returns ST_RULE and e says why,
 * naming the valid landings. */
enum status whatif_build(const struct game_log *log, const struct whatif *w,
                         struct game_log *out, struct whatif_result *res,
                         struct err *e) WARN_UNUSED;

#endif
