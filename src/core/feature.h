/* feature.h - the kinds of feature and of figure, each a class with its
 * properties, so that the engine asks the class ("may a flier land on
 * it?", "how does it score?") instead of testing kinds one by one.
 *
 * Each list below is the registry of its kind: one line per kind, giving
 * the enum and the name of the class object, which the expansion unit
 * that brings the kind defines (src/core/exp/<unit>.c), e.g. the base game
 * defines feature_class_ROAD and figure_class_SMALL, The Flier
 * feature_class_FLIER. Pure data and pure functions. */
#ifndef CORE_FEATURE_H
#define CORE_FEATURE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Where a feature's segments lie on a tile. */
enum feat_shape {
    SHAPE_NONE,   /* no segment (FEAT_NONE) */
    SHAPE_EDGES,  /* by edges: road, city, river; the edge kind of a side
                     is the city, else road, else river covering it, else
                     field */
    SHAPE_HALVES, /* by half-edges: field */
    SHAPE_INNER,  /* inside the tile: monastery, garden, flying machine */
    SHAPE_SPOTS,  /* inside the tile, several told apart by name (enum
                     tile_spot, a mask bit each): the City's quarters */
};

/* X(ID, name in reports and our notation, enum feat_shape) */
#define FEATURES(X)                                                        \
    X(NONE, "none", SHAPE_NONE)                                            \
    X(ROAD, "road", SHAPE_EDGES)                                           \
    X(CITY, "city", SHAPE_EDGES)                                           \
    X(FIELD, "field", SHAPE_HALVES)                                        \
    X(MONASTERY, "monastery", SHAPE_INNER)                                 \
    X(GARDEN, "garden", SHAPE_INNER)                                       \
    X(FLIER, "flier", SHAPE_INNER)                                         \
    X(RIVER, "river", SHAPE_EDGES)                                         \
    X(TRADE_GOODS, "trade-goods", SHAPE_NONE)                              \
    X(BARN, "barn", SHAPE_NONE)                                            \
    X(TOWER, "tower", SHAPE_INNER)                                         \
    X(RANSOM, "ransom", SHAPE_NONE)                                        \
    X(FAIRY, "fairy", SHAPE_NONE)                                          \
    X(QUARTER, "quarter", SHAPE_SPOTS)                                     \
    X(SHRINE, "shrine", SHAPE_INNER)                                       \
    X(CHURCH, "church", SHAPE_NONE)                                        \
    X(ABBOT_SEAT, "special-monastery", SHAPE_SPOTS)                        \
    X(ACROBATS, "acrobats", SHAPE_INNER)                                   \
    X(BIGTOP, "bigtop", SHAPE_NONE)                                        \
    X(RINGMASTER, "ringmaster", SHAPE_NONE)                                \
    X(CASTLE, "castle", SHAPE_EDGES)                                       \
    X(BAZAAR, "bazaar", SHAPE_NONE)                                        \
    X(KING, "king", SHAPE_NONE)                                            \
    X(ROBBER, "robber", SHAPE_NONE)                                        \
    X(WIND_ROSE, "wind-rose", SHAPE_NONE)                                  \
    X(YAGA_HUT, "yaga-hut", SHAPE_INNER)                                   \
    X(VODYANOY, "vodyanoy", SHAPE_INNER)                                   \
    X(RAZBOYNIK, "razboynik", SHAPE_INNER)                                 \
    X(WATCHTOWER, "watchtower", SHAPE_NONE)                                \
    X(FLOCK, "flock", SHAPE_NONE)

enum feat {
#define X(id, name, shape) FEAT_##id,
    FEATURES(X)
#undef X
    FEAT__COUNT
};
/* A bit per kind in 32-bit masks (figure_class.stands, tile_def.kinds,
 * the game's kinds_*). */
_Static_assert(FEAT__COUNT <= 32, "feature kinds are masked in 32 bits");

/* Classes of score events that are no feature of the board (what a
 * player holds, scored at the end): the units' SCORE_CLASS(ID, object)
 * lines, numbered after the feature kinds, so that they take no bit of
 * the kinds' masks. An event's feature may be one; a segment's never. */
enum score_class {
    FEAT__SCORE_BASE = FEAT__COUNT - 1,
#define SCORE_CLASS(id, obj) FEAT_##id,
#include "core/exp/units.def"
#undef SCORE_CLASS
    FEAT__CLASSES
};
_Static_assert(FEAT__CLASSES <= 256, "an event's class is a byte");

/* X(ID, JCloisterZone's meeple id kind) */
#define FIGURES(X)                                                         \
    X(SMALL, "small")                                                      \
    X(ABBOT, "abbot")                                                      \
    X(BIG, "big")                                                          \
    X(PHANTOM, "phantom")                                                  \
    X(BUILDER, "builder")                                                  \
    X(PIG, "pig")                                                          \
    X(MAYOR, "mayor")                                                      \
    X(WAGON, "wagon")                                                      \
    X(BARN, "barn")                                                        \
    X(DRAGON, "dragon")                                                    \
    X(FAIRY, "fairy")                                                      \
    X(COUNT, "count")                                                      \
    X(RINGMASTER, "ringmaster")                                            \
    X(SHEPHERD, "shepherd")                                                \
    X(MAGE, "mage")                                                        \
    X(WITCH, "witch")

enum figure {
#define X(id, jcz) FIG_##id,
    FIGURES(X)
#undef X
    FIG__COUNT
};

struct rules;
struct score_event;
struct feature_ref;
struct game_log;

/* When a feature is complete. */
enum feat_done {
    DONE_NEVER,   /* fields, flying machines */
    DONE_EDGES,   /* no unmatched edge is left: road, city */
    DONE_BLOCK,   /* the 3x3 block around its tile is full: monastery */
};

struct feature_class {
    const char *name;       /* "road" (the FEATURES name) */
    const char *expr;       /* the name its score expressions start with,
                               when not its name (a barn's: "field") */
    const char *jcz;        /* JCloisterZone's feature name, or NULL */
    uint8_t done;           /* enum feat_done */
    bool on_board;          /* its segments join the board's features */
    bool claimable;         /* figures may stand on it (as the figure's
                               class and the rules allow) */
    bool landable;          /* a flier may land on it (if incomplete) */
    uint8_t no_landing;     /* claimable but not landable: the rule a
                               landing on it breaks (enum rule; 0:
                               FLIER_FIELD) */
    uint8_t land_option;    /* claimable, not landable, but a rule variant
                               lets a flier land on it: 1 + its enum
                               game_option, landable while that option is
                               nonzero (acrobats); 0: none */
    uint32_t needs;         /* rules flags (enum rule_flag) without which
                               the feature is not in play */
    uint32_t stand_needs;   /* ... without which no figure stands on it */
    uint8_t like;           /* a kind of this other kind (enum feat; 0:
                               none): figures that may stand on that one
                               may stand on it, a log naming that one on
                               its tile means it (JCloisterZone calls a
                               shrine a Monastery), and without its rule
                               flags it is that one (a shrine without
                               shrines is a monastery) */
    uint8_t part_of;        /* the feature of its tile it belongs to (enum
                               feat; the abbot's place: the monastery), 0:
                               none: it is finished when that one is, and
                               an abbot recalled from it scores that one */
    const char *role;       /* what a follower on it is: "knight" */
    const char *roles;      /* "knights" */
    /* Points of a measured feature (ev->tiles, pennants, cities, attrs,
     * completed): sets ev->points, ev->expr and ev->items. NULL: scores
     * nothing. */
    void (*score)(const struct rules *r, struct score_event *ev);
    /* Writes the formula of a scored feature, e.g. "field touching 2
     * completed cities [(0,-1) 2 tiles, (3,1) 5 tiles]: 2×3 = 6" (refs:
     * the event's; log: the players, for a formula that names them, as
     * trade goods' does); returns what snprintf() does. NULL: the
     * receipt's own, from the event's items (receipt.h). */
    int (*explain)(const struct game_log *log, const struct score_event *ev,
                   const struct feature_ref *refs, char *out, size_t len);
};

struct figure_class {
    const char *jcz;        /* meeple id kind: "small" */
    const char *name;       /* in messages: "follower" */
    const char *names;      /* "followers" */
    uint8_t strength;       /* weight in a majority */
    uint32_t stands;        /* bit (1 << enum feat) per feature it may
                               occupy, before the rules (no farmers...) */
    bool follower;          /* counts for majorities */
    bool by_pennants;       /* its strength is its city's pennants (the
                               mayor; 0 pennants: none) */
    bool stays;             /* stays when its feature is completed (the
                               barn); the others go back to supply */
    bool flies;             /* may use a flying machine */
    bool beside;            /* may stand on a tile around the turn's tile
                               (the barn: logged on the tile south-east of
                               the corner it stands on) */
    bool by_role;           /* a receipt calls it by its feature's role
                               (knight, farmer), else by its name */
};

#define X(id, name, shape) extern const struct feature_class feature_class_##id;
FEATURES(X)
#undef X
#define X(id, jcz) extern const struct figure_class figure_class_##id;
FIGURES(X)
#undef X
#define SCORE_CLASS(id, obj) extern const struct feature_class obj;
#include "core/exp/units.def"
#undef SCORE_CLASS

/* The registries as tables (feature.c), for the inline lookups below. */
extern const struct feature_class *const feature_classes[FEAT__CLASSES];
extern const struct figure_class *const figure_classes[FIG__COUNT];
extern const uint8_t feature_shapes[FEAT__COUNT];

/* The class of a kind or score class (FEAT_NONE's for anything out of
 * range; NULL for a figure out of range). */
static inline const struct feature_class *feature_class(int f)
{
    return feature_classes[(unsigned)f < FEAT__CLASSES ? f : 0];
}

static inline const struct figure_class *figure_class(int fig)
{
    return (unsigned)fig < FIG__COUNT ? figure_classes[fig] : (void *)0;
}

/* Where a feature kind's segments lie (enum feat_shape). */
static inline int feat_shape(int f)
{
    return (unsigned)f < FEAT__COUNT ? feature_shapes[f] : SHAPE_NONE;
}
/* Is kind f the kind k, or a kind of it (its class's like)? */
static inline bool feat_is(int f, int k)
{
    return f == k || (f != FEAT_NONE && feature_class(f)->like == k);
}

/* May figure fig stand on feature kind f, before the rules (as on the
 * kind f is a kind of, if the figure's class does not name f)? */
static inline bool figure_stands_on(int fig, int f)
{
    const struct figure_class *k = figure_class(fig);
    int like = feature_class(f)->like;
    return k && (unsigned)f < FEAT__COUNT &&
           ((k->stands >> f & 1) || (like && (k->stands >> like & 1)));
}

/* Lower-case feature name ("road", ... "none" out of range), and back
 * (-1: none). */
const char *feat_name(int f);
int feat_find(const char *name);
/* The kind a log names for a segment of kind f: the kind it is a kind
 * of (its class's like: a shrine is logged as a monastery, as .jcz saves
 * point at it), so that a log reads the same in either format. */
int feat_logged(int f);
/* The kind whose JCloisterZone name this is ("Road"), or -1. */
int feat_find_jcz(const char *jcz);
/* The kind of that JCloisterZone name whose locations hold loc (its
 * mask in *mask): the first class of the name that reads it; -1: no
 * class of that name, -2: none of them has that location. */
int feat_find_jcz_loc(const char *jcz, const char *loc, uint8_t *mask);
/* The figure whose meeple id kind this is ("big"), or -1. */
int figure_find(const char *jcz);

#endif
