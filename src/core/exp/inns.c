/* inns.c - Inns & Cathedrals as a unit: the large follower (strength 2
 * in a majority, where an ordinary follower may stand), inns on roads
 * (a completed road with an inn scores 2 a tile, an unfinished one
 * nothing at the end) and cathedrals in cities (3 a tile and a pennant
 * when completed, nothing at the end). The sixth player's colour needs
 * nothing here. Tiles: inns.tiles. */
#include "core/game.h"

const struct figure_class figure_class_BIG = {
    .jcz = "big", .name = "large follower", .names = "large followers",
    .strength = 2,
    .stands = 1u << FEAT_ROAD | 1u << FEAT_CITY | 1u << FEAT_MONASTERY |
              1u << FEAT_FIELD | 1u << FEAT_TOWER | 1u << FEAT_ABBOT_SEAT |
              1u << FEAT_YAGA_HUT,
    .follower = true, .flies = true,
};

/* An inn or a cathedral on the feature: its points as JCloisterZone
 * lists them (completed: the extra tile and pennant points as one term;
 * unfinished at the end: that term alone, for nothing). */
static void score(const struct rules *r, struct score_event *ev)
{
    int item, extra;
    if (ev->feature == FEAT_ROAD && ev->attrs[SA_BIT_INN] &&
        (r->flags & RF_INNS)) {
        item = SI_INN;
        extra = ev->tiles;
    } else if (ev->feature == FEAT_CITY && ev->attrs[SA_BIT_CATHEDRAL] &&
               (r->flags & RF_CATHEDRALS)) {
        item = SI_CATHEDRAL;
        extra = ev->tiles + ev->pennants;
    } else {
        return;
    }
    if (!ev->completed) {
        ev->points = 0;
        ev->n_items = 0;
        extra = 0;
    }
    ev->points += extra;
    score_add_item(ev, item, -1, extra);
}

static const struct element elements[] = {
    { "big-follower", EL_FIGURES, FIG_BIG, 1, true },
    { "inn", EL_FLAG, RFB_INNS, 1, false },
    { "cathedral", EL_FLAG, RFB_CATHEDRALS, 1, false },
    { NULL, 0, 0, 0, false },
};

const struct expansion expansion_inns = {
    .id = "inns",
    .name = "Inns & Cathedrals",
    .elements = elements,
    .score = score,
};
