/* units.c - the simulator's registry: one line per unit that plays or
 * forges moves of its own, indexed like the core's units
 * (src/core/exp/units.def). */
#include "sim/exp/units.h"

const struct sim_unit *const sim_units[EXP__COUNT] = {
    [EXP_C3] = &sim_c3,
    [EXP_RIVER] = &sim_river,
    [EXP_PHANTOM] = &sim_phantom,
    [EXP_TRADERS] = &sim_traders,
    [EXP_ABBEY] = &sim_abbey,
    [EXP_TOWER] = &sim_tower,
    [EXP_DRAGON] = &sim_dragon,
    [EXP_COUNT] = &sim_count,
    [EXP_CULT] = &sim_cult,
    [EXP_DARMSTADT] = &sim_darmstadt,
    [EXP_MONASTERIES] = &sim_monasteries,
    [EXP_SIEGE] = &sim_siege,
    [EXP_CORN] = &sim_corn,
    [EXP_BIGTOP] = &sim_bigtop,
    [EXP_BCB] = &sim_bcb,
    [EXP_KR] = &sim_kr,
    [EXP_RUSSIAN_PROMOS] = &sim_russian_promos,
    [EXP_LITTLE_BUILDINGS] = &sim_little_buildings,
    [EXP_FESTIVAL] = &sim_festival,
    [EXP_TUNNEL] = &sim_tunnel,
    [EXP_LABYRINTH] = &sim_labyrinth,
    [EXP_WATCHTOWERS] = &sim_watchtowers,
    [EXP_GOLD] = &sim_gold,
    [EXP_FERRIES] = &sim_ferries,
    [EXP_HS] = &sim_hs,
    [EXP_MAGE] = &sim_mage,
};
