/* spiel_doch.c - the Spiel doch! promo as a unit: two tiles that start
 * the game side by side in place of the base game's start tile, which
 * goes into the pack (spiel_doch.tiles); played by the base game's
 * rules. */
#include "core/game_int.h"

/* As JCloisterZone lays them out: the two cities at (0,0), the junction
 * east of it turned 270° (edition 2's with a garden). */
static int start_layout(const struct rules *r, struct start_place *out,
                        int max)
{
    static const struct {
        const char *set, *junction;
    } editions[] = { { "spiel-doch:1", "SD/RRR" },
                     { "spiel-doch:2", "SD/RRRG" } };
    for (size_t i = 0; i < sizeof editions / sizeof *editions; i++) {
        int set = tile_set_find(editions[i].set);
        if (set < 0 || !r->set_copies[set] || max < 2)
            continue;
        out[0] = (struct start_place){ (int16_t)tile_find("SD/CC"), 0,
                                       { 0, 0 } };
        out[1] = (struct start_place){
            (int16_t)tile_find(editions[i].junction), 3, { 1, 0 } };
        return 2;
    }
    return 0;
}

const struct expansion expansion_spiel_doch = {
    .id = "spiel-doch",
    .name = "Spiel doch!",
    .start_layout = start_layout,
};
