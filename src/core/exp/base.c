/* base.c - the base game (C2 basic:1, C3 basic:2) as a unit: roads,
 * cities, fields and monasteries, the ordinary follower, farmers, and
 * how each feature scores. Tiles: base.tiles. */
#include "core/exp/units.h"

/* Road: 1 a tile, complete or not. */
static void score_road(const struct rules *r, struct score_event *ev)
{
    (void)r;
    ev->expr = ev->completed ? EXPR_DONE : EXPR_INCOMPLETE;
    ev->points = ev->tiles;
    score_add_item(ev, SI_TILES, ev->tiles, ev->tiles);
}

/* City: complete 2 a tile and 2 a pennant, else 1 and 1. The tiny-city
 * variant scores a complete city of two tiles like an incomplete one. */
static void score_city(const struct rules *r, struct score_event *ev)
{
    ev->tiny = ev->completed && ev->tiles == 2 && r->opt[OPT_TINY_CITY] == 2;
    int per = ev->completed && !ev->tiny ? 2 : 1;
    ev->expr = ev->completed ? EXPR_DONE : EXPR_INCOMPLETE;
    ev->points = per * (ev->tiles + ev->pennants);
    score_add_item(ev, SI_TILES, ev->tiles, per * ev->tiles);
    if (ev->pennants)
        score_add_item(ev, SI_PENNANTS, ev->pennants, per * ev->pennants);
}

/* Field: 3 a completed city it touches, for the farmers' majority. */
static void score_field(const struct rules *r, struct score_event *ev)
{
    (void)r;
    ev->points = 3 * ev->cities;
    if (ev->cities)
        score_add_item(ev, SI_CITIES, ev->cities, ev->points);
}

/* Monastery (and garden): 9 complete, else 1 + its placed neighbours,
 * i.e. the tiles of its 3x3 block. */
static void score_cloister(const struct rules *r, struct score_event *ev)
{
    (void)r;
    ev->expr = ev->completed && !ev->recall ? EXPR_DONE : EXPR_INCOMPLETE;
    ev->points = ev->completed ? 9 : ev->tiles;
    score_add_item(ev, SI_TILES, ev->tiles, ev->points);
}

void base_score_cloister(const struct rules *r, struct score_event *ev)
{
    score_cloister(r, ev);
}

const struct feature_class feature_class_NONE = {
    .name = "none",
};

const struct feature_class feature_class_ROAD = {
    .claimable = true,
    .name = "road", .jcz = "Road", .done = DONE_EDGES, .on_board = true,
    .landable = true, .role = "highwayman", .roles = "highwaymen",
    .score = score_road,
};

const struct feature_class feature_class_CITY = {
    .claimable = true,
    .name = "city", .jcz = "City", .done = DONE_EDGES, .on_board = true,
    .landable = true, .role = "knight", .roles = "knights",
    .score = score_city,
};

const struct feature_class feature_class_FIELD = {
    .claimable = true,
    .name = "field", .jcz = "Field", .done = DONE_NEVER, .on_board = true,
    .stand_needs = RF_FARMERS, .role = "farmer", .roles = "farmers",
    .score = score_field,
};

const struct feature_class feature_class_MONASTERY = {
    .claimable = true,
    .name = "monastery", .jcz = "Monastery", .done = DONE_BLOCK,
    .on_board = true, .landable = true, .role = "monk", .roles = "monks",
    .score = score_cloister,
};

#define STANDS(f) (1u << FEAT_##f)

const struct figure_class figure_class_SMALL = {
    .jcz = "small", .name = "follower", .names = "followers", .strength = 1,
    .stands = STANDS(ROAD) | STANDS(CITY) | STANDS(MONASTERY) | STANDS(FIELD),
    .follower = true, .flies = true,
};

static const struct element elements[] = {
    { "small-follower", EL_FIGURES, FIG_SMALL, GAME_MAX_FOLLOWERS },
    { "farmers", EL_FLAG, RFB_FARMERS, 1 },
    { NULL, 0, 0, 0 },
};

const struct expansion expansion_base = {
    .id = "base",
    .name = "the base game",
    .elements = elements,
};
