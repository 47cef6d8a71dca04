/* corn.c - The Crop Circles in a flierlog: the round after a crop circle
 * is spelt out ("moves": the choice "circle-deploy" or "circle-remove",
 * then each player's "deploy", "circle-return" or "pass", a "commit"
 * after each follower added or taken back), so all it adds is the
 * version those moves need. */
#include "mlog/fl_turn.h"

/* flierlog/1.3: a crop circle's choice or a follower taken back. */
static bool needs_1_3(const struct game_log *l)
{
    for (size_t i = 0; i < l->n_moves; i++)
        if (l->moves[i].kind == MV_CIRCLE_DEPLOY ||
            l->moves[i].kind == MV_CIRCLE_REMOVE ||
            l->moves[i].kind == MV_CIRCLE_RETURN)
            return true;
    return false;
}

const struct fl_turn_unit fl_turn_corn = {.needs_1_3 = needs_1_3};
