/* gq11.c - the GQ11 promo as a unit: ten tiles of the known features
 * (one a pig herd's field) and two of The River's (gq11.tiles), played by
 * the rules those features already have. */
#include "core/game_int.h"

const struct expansion expansion_gq11 = {
    .id = "gq11",
    .name = "GQ11",
};
