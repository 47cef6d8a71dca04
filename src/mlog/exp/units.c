/* units.c - the flierlog's registry: one line per unit with keys of its
 * own in a turn entry (fl_turn.h), in the order messages list the
 * actions. */
#include "mlog/fl_turn.h"

extern const struct fl_turn_unit fl_turn_base, fl_turn_flier, fl_turn_c3,
    fl_turn_abbey, fl_turn_tower, fl_turn_dragon, fl_turn_count,
    fl_turn_monasteries, fl_turn_siege, fl_turn_corn;

const struct fl_turn_unit *const fl_turn_units[] = {
    &fl_turn_base,
    &fl_turn_flier,
    &fl_turn_c3,
    &fl_turn_abbey,
    &fl_turn_tower,
    &fl_turn_dragon,
    &fl_turn_count,
    &fl_turn_monasteries,
    &fl_turn_siege,
    &fl_turn_corn,
    NULL,
};
