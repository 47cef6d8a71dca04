/* winter.c - the Winter edition as a unit: a pack of its own (the base
 * game's tile kinds in snow and twelve of its own, winter.tiles), played
 * by the base game's rules. The unit is its tiles and its name. */
#include "core/game_int.h"

const struct expansion expansion_winter = {
    .id = "winter",
    .name = "Winter",
};
