/* bcb.c - Bridges, Castles & Bazaars as a unit. So far its tiles
 * (bcb.tiles: the bazaar mark, the cities that are no castle base), so
 * that its sets are known; its elements (bridge, castle, bazaar) are not
 * modelled yet, and a save that names them is still "not audited yet"
 * (expansion_unsupported()). Without the elements its tiles are plain
 * tiles, as JCloisterZone plays them when the elements are off. */
#include "core/game_int.h"

const struct expansion expansion_bcb = {
    .id = "bcb",
    .name = "Bridges, Castles & Bazaars",
};
