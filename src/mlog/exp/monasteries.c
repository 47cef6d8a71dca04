/* monasteries.c - The Monasteries in a flierlog: the abbot's place is a
 * segment like any other ("special-monastery:abbot", deployed on, landed
 * on, recalled from), so all it adds is the version that names it. */
#include "mlog/fl_turn.h"

/* flierlog/1.3: a reader before it knows no abbot's place. */
static bool needs_1_3(const struct game_log *l)
{
    for (size_t i = 0; i < l->n_moves; i++)
        if (l->moves[i].feature == FEAT_ABBOT_SEAT)
            return true;
    return false;
}

const struct fl_turn_unit fl_turn_monasteries = {.needs_1_3 = needs_1_3};
