/* units.h - the simulator's units (src/sim/exp/ only): what each file
 * needs, and the objects the registry (units.c) lists. */
#ifndef SIM_EXP_UNITS_H
#define SIM_EXP_UNITS_H
#include "sim/forge_int.h"
#include "sim/sim_int.h"

extern const struct sim_unit sim_c3, sim_river, sim_phantom, sim_traders,
    sim_abbey, sim_tower, sim_dragon, sim_count, sim_cult, sim_darmstadt,
    sim_monasteries, sim_siege, sim_corn, sim_bigtop, sim_bcb;
extern const struct sim_unit sim_kr;
extern const struct sim_unit sim_russian_promos, sim_little_buildings,
    sim_festival, sim_tunnel, sim_labyrinth;
extern const struct sim_unit sim_watchtowers;
extern const struct sim_unit sim_gold;
extern const struct sim_unit sim_ferries;
extern const struct sim_unit sim_hs;
extern const struct sim_unit sim_mage;

#endif
