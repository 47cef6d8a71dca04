/* count.c - The Count of Carcassonne in a flierlog: its moves are
 * spelt out ("moves": the count's, a follower into a quarter of the
 * City and out of it), so all it adds is the version they need. */
#include "mlog/fl_turn.h"

/* flierlog/1.3: the City's start tiles, the count's move, a follower
 * sent into a quarter. */
static bool needs_1_3(const struct game_log *l)
{
    if (game_log_n_starts(l) > 1)
        return true;
    for (size_t i = 0; i < l->n_moves; i++)
        if ((l->moves[i].kind == MV_NEUTRAL &&
             l->moves[i].neutral == FIG_COUNT) ||
            (l->moves[i].kind == MV_DEPLOY &&
             l->moves[i].feature == FEAT_QUARTER))
            return true;
    return false;
}

const struct fl_turn_unit fl_turn_count = {.needs_1_3 = needs_1_3};
