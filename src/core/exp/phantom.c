/* phantom.c - the Phantom as a unit: each player's phantom is a second
 * figure for the turn. After the turn's first action (a deployment, a
 * flight, an abbot's recall) the phantom, when it is in the supply, may
 * act once more where an ordinary follower could stand; it may also be
 * that first action itself (and when it flew and came back, deploy after
 * its flight). Nothing acts after the second action. It flies like any
 * figure, but a flying machine serves one flight a turn: the phantom
 * cannot use one the turn's first figure used (the seeds' clarification
 * of 5/2013; JCloisterZone stops offering it but loads a save that does
 * it). */
#include "core/game.h"

const struct figure_class figure_class_PHANTOM = {
    .jcz = "phantom", .name = "phantom", .names = "phantoms", .strength = 1,
    .stands = 1u << FEAT_ROAD | 1u << FEAT_CITY | 1u << FEAT_MONASTERY |
              1u << FEAT_FIELD | 1u << FEAT_TOWER | 1u << FEAT_ABBOT_SEAT |
              1u << FEAT_YAGA_HUT,
    .follower = true, .flies = true,
};

/* Whether the phantom is in the supply is the caller's first check. */
static bool extra_action(const struct game *g, int fig)
{
    return fig == FIG_PHANTOM && g->now.actions == 1;
}

static const struct element elements[] = {
    { "phantom", EL_FIGURES, FIG_PHANTOM, 1, true },
    { NULL, 0, 0, 0, false },
};

const struct expansion expansion_phantom = {
    .id = "phantom",
    .name = "The Phantom",
    .elements = elements,
    .extra_action = extra_action,
};
