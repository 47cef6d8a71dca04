/* base.c - the base game (C2 basic:1, C3 basic:2) as a unit: roads,
 * cities, fields and monasteries, the ordinary follower, farmers, and
 * how each feature scores. Tiles: base.tiles. */
#include <stdio.h>

#include "core/audit_unit.h"
#include "core/exp/units.h"
#include "core/move.h"
#include "core/receipt.h"
#include "core/text.h"

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

static const char *plural(int n, const char *one, const char *many)
{
    return n == 1 ? one : many;
}

int base_touched_cities(const struct score_event *ev,
                        const struct feature_ref *refs, char *out,
                        size_t len)
{
    struct text t = text_at(out, len);
    text_put(&t, " touching ");
    text_int(&t, ev->cities);
    text_put(&t, plural(ev->cities, " completed city", " completed cities"));
    for (unsigned k = 0; k < ev->n_refs; k++) {
        text_put(&t, k ? ", (" : " [(");
        text_int(&t, refs[k].x);
        text_put(&t, ",");
        text_int(&t, refs[k].y);
        text_put(&t, ") ");
        text_int(&t, refs[k].size);
        text_put(&t, plural(refs[k].size, " tile", " tiles"));
    }
    if (ev->n_refs)
        text_put(&t, "]");
    return (int)t.n;
}

int base_cities_formula(const struct score_event *ev, int rate, char *out,
                        size_t len)
{
    struct text t = text_at(out, len);
    text_put(&t, ": ");
    text_int(&t, ev->cities);
    text_put(&t, "×");
    text_int(&t, rate);
    for (int i = 0; i < ev->n_items; i++) /* terms units add */
        if (ev->items[i].kind != SI_CITIES) {
            text_put(&t, " + ");
            text_int(&t, ev->items[i].points);
            text_put(&t, " (");
            text_put(&t, receipt_item_word(ev->items[i].kind));
            text_put(&t, ")");
        }
    text_put(&t, " = ");
    text_int(&t, ev->points);
    return (int)t.n;
}

/* Points a completed city gives a field's farmers, by how it scored: at
 * the end or when a barn is placed on it 3, when it joins a barn 1. */
static const uint8_t field_rate[EXPR__COUNT] = {
    [EXPR_DONE] = 3, [EXPR_INCOMPLETE] = 3, [EXPR_EMPTY] = 3,
    [EXPR_BARN_PLACED] = 3, [EXPR_BARN_CONNECTED] = 1,
};

/* "field touching 2 completed cities [(0,-1) 2 tiles, (3,1) 5 tiles]:
 * 2×3 = 6": the cities by their lowest tile and size; a barn's doing
 * ("joined to a barn") before the formula. */
static int explain_field(const struct game_log *log,
                         const struct score_event *ev,
                         const struct feature_ref *refs, char *out,
                         size_t len)
{
    (void)log;
    const char *note = score_expr_note(ev->expr);
    struct text t = text_at(out, len);
    text_put(&t, "field");
    t.n += (size_t)base_touched_cities(ev, refs, out + t.n, len - t.n);
    if (note) {
        text_put(&t, ", ");
        text_put(&t, note);
    }
    t.n += (size_t)base_cities_formula(
        ev, field_rate[ev->expr < EXPR__COUNT ? ev->expr : 0], out + t.n,
        len - t.n);
    return (int)t.n;
}

/* "monastery, incomplete: 1 + 4 neighbours = 5" */
int base_explain_cloister(const struct game_log *log,
                          const struct score_event *ev,
                          const struct feature_ref *refs, char *out,
                          size_t len)
{
    (void)log;
    (void)refs;
    struct text t = text_at(out, len);
    if (ev->recall)
        text_put(&t, "abbot recalled from the ");
    text_put(&t, feat_name(ev->feature));
    const char *note = score_expr_note(ev->expr);
    if (note) { /* a unit's way to score it (a shrine's challenge) */
        text_put(&t, ", ");
        text_put(&t, note);
        text_put(&t, ": ");
        text_int(&t, ev->points);
        return (int)t.n;
    }
    if (ev->completed) {
        text_put(&t, ", completed (all 8 neighbours): 9");
    } else {
        text_put(&t, ", incomplete: 1 + ");
        text_int(&t, ev->tiles - 1);
        text_put(&t, plural(ev->tiles - 1, " neighbour", " neighbours"));
    }
    /* the terms other units add (vineyards, buildings) after the tiles'
     * own: "9 + 2×3 (vineyards) = 15" */
    for (int i = 1; i < ev->n_items; i++) {
        const struct score_item *it = &ev->items[i];
        text_put(&t, " + ");
        if (it->count > 0) {
            text_int(&t, it->count);
            text_put(&t, "×");
            text_int(&t, it->points / it->count);
        } else {
            text_int(&t, it->points);
        }
        text_put(&t, " (");
        text_put(&t, receipt_item_word(it->kind));
        text_put(&t, ")");
    }
    if (!ev->completed || ev->n_items > 1) {
        text_put(&t, " = ");
        text_int(&t, ev->points);
    }
    return (int)t.n;
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
    .score = score_field, .explain = explain_field,
};

const struct feature_class feature_class_MONASTERY = {
    .claimable = true,
    .name = "monastery", .jcz = "Monastery", .done = DONE_BLOCK,
    .on_board = true, .landable = true, .role = "monk", .roles = "monks",
    .score = score_cloister, .explain = base_explain_cloister,
};

#define STANDS(f) (1u << FEAT_##f)

const struct figure_class figure_class_SMALL = {
    .jcz = "small", .name = "follower", .names = "followers", .strength = 1,
    .stands = STANDS(ROAD) | STANDS(CITY) | STANDS(MONASTERY) | STANDS(FIELD) |
              STANDS(TOWER) | STANDS(ABBOT_SEAT) | STANDS(ACROBATS) |
              STANDS(YAGA_HUT),
    .follower = true, .flies = true, .by_role = true,
};

static const struct element elements[] = {
    { "small-follower", EL_FIGURES, FIG_SMALL, GAME_MAX_FOLLOWERS, true },
    { "farmers", EL_FLAG, RFB_FARMERS, 1, false },
    { NULL, 0, 0, 0, false },
};

/* The moves this unit adds to a log (core/move.h). */
static const struct move_class moves[] = {
    {
        .kind = MV_PLACE,
        .at = AT_TILE,
        .check = audit_place,
        .name = "place",
        .jcz = "PLACE_TILE",
        .jcz_payload = "{\"tileId\":\"$tile\",\"rotation\":\"$rotation\",\"position\":\"$position\"}",
        .fl_fields = "tile at rot draw",
    },
    {
        .kind = MV_DISCARD,
        .check = audit_discard,
        .name = "discard",
        .jcz = NULL,
        .jcz_payload = NULL,
        .fl_fields = "tile draw",
    },
    {
        .kind = MV_DEPLOY,
        .at = AT_FEATURE,
        .check = audit_deploy,
        .meeple = audit_resolve_meeple,
        .name = "deploy",
        .jcz = "DEPLOY_MEEPLE",
        .jcz_payload = "{\"pointer\":\"$pointer\",\"meepleId\":\"$meeple\",\"random\":\"$random\"}",
        .fl_fields = "at segment meeple roll",
    },
    {
        .kind = MV_PASS,
        .check = audit_pass,
        .name = "pass",
        .jcz = "PASS",
        .jcz_payload = "{}",
        .fl_fields = "",
    },
    {
        .kind = MV_COMMIT,
        .check = audit_commit,
        .name = "commit",
        .jcz = "COMMIT",
        .jcz_payload = "{\"random\":\"$random\"}",
        .fl_fields = "",
    },
    { .name = NULL },
};

const struct expansion expansion_base = {
    .id = "base",
    .name = "the base game",
    .elements = elements,
    .moves = moves,
};
