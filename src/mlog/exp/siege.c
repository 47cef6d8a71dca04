/* siege.c - the siege in a flierlog: a turn with an escape, or with the
 * escape declined after its COMMIT, is spelt out ("moves": the move
 * "escape", or a "pass" after the "commit"), so all it adds is the
 * version such a move needs. */
#include "mlog/fl_turn.h"

/* flierlog/1.3: the escape from a besieged city. */
static bool needs_1_3(const struct game_log *l)
{
    for (size_t i = 0; i < l->n_moves; i++)
        if (l->moves[i].kind == MV_ESCAPE)
            return true;
    return false;
}

const struct fl_turn_unit fl_turn_siege = {.needs_1_3 = needs_1_3};
