/* feature.c - the registries of feature and figure classes, and of the
 * expansion units (their objects live in src/core/exp/). */
#include "core/feature.h"

#include <string.h>

#include "core/expansion.h"
#include "core/game.h"
#include "core/move.h"

const struct feature_class *const feature_classes[FEAT__CLASSES] = {
#define X(id, name, shape) &feature_class_##id,
    FEATURES(X)
#undef X
#define SCORE_CLASS(id, obj) &obj,
#include "core/exp/units.def"
#undef SCORE_CLASS
};

const uint8_t feature_shapes[FEAT__COUNT] = {
#define X(id, name, shape) shape,
    FEATURES(X)
#undef X
};

const struct figure_class *const figure_classes[FIG__COUNT] = {
#define X(id, jcz) &figure_class_##id,
    FIGURES(X)
#undef X
};

const struct expansion *const expansion_units[EXP__COUNT] = {
#define UNIT(id, obj, name) &obj,
#include "core/exp/units.def"
#undef UNIT
};

const char *feat_name(int f)
{
    return feature_class(f)->name;
}

int feat_find(const char *name)
{
    for (int f = 1; f < FEAT__COUNT; f++)
        if (strcmp(feature_classes[f]->name, name) == 0)
            return f;
    return -1;
}

/* The first byte first: these run for every figure a save deploys, over
 * every registered class. */
int feat_find_jcz(const char *jcz)
{
    for (int f = 1; f < FEAT__COUNT; f++) {
        const char *k = feature_classes[f]->jcz;
        if (k && k[0] == jcz[0] && strcmp(k, jcz) == 0)
            return f;
    }
    return -1;
}

int feat_logged(int f)
{
    int like = f > FEAT_NONE && f < FEAT__COUNT ? feature_class(f)->like : 0;
    return like ? like : f;
}

/* Several classes may share a JCloisterZone name (a special monastery's
 * monk place and abbot place are both "Monastery"): the location tells
 * them apart. */
int feat_find_jcz_loc(const char *jcz, const char *loc, uint8_t *mask)
{
    int first = feat_find_jcz(jcz);
    for (int f = first; f > 0 && f < FEAT__COUNT; f++) {
        const char *k = feature_classes[f]->jcz;
        if (k && strcmp(k, jcz) == 0 && loc_parse(f, loc, mask))
            return f;
    }
    *mask = 0;
    return first < 0 ? -1 : -2;
}

int figure_find(const char *jcz)
{
    for (int f = 0; f < FIG__COUNT; f++) {
        const char *k = figure_classes[f]->jcz;
        if (k[0] == jcz[0] && strcmp(k, jcz) == 0)
            return f;
    }
    return -1;
}

int expansion_find(const char *id)
{
    for (int e = 0; e < EXP__COUNT; e++)
        if (strcmp(expansion_units[e]->id, id) == 0)
            return e;
    return -1;
}

int element_get(const struct rules *r, const struct element *el)
{
    switch (el->kind) {
    case EL_FIGURES: return r->figures[el->what];
    case EL_COUNT: return r->counts[el->what];
    default: return (int)(r->flags >> el->what & 1);
    }
}

void element_set(struct rules *r, const struct element *el, int v)
{
    switch (el->kind) {
    case EL_FIGURES: r->figures[el->what] = (uint8_t)v; break;
    case EL_COUNT: r->counts[el->what] = (uint8_t)v; break;
    default:
        r->flags = v ? r->flags | 1u << el->what : r->flags & ~(1u << el->what);
    }
}

const struct element *element_find(const char *key, int *out_exp)
{
    for (int e = 0; e < EXP__COUNT; e++)
        for (const struct element *el = expansion_units[e]->elements; el && el->key;
             el++)
            if (strcmp(el->key, key) == 0) {
                if (out_exp)
                    *out_exp = e;
                return el;
            }
    return NULL;
}

/* JCloisterZone's other expansions, by the prefix of their tile sets and
 * by their elements, so that a save using one is told which. */
static const struct {
    const char *name;
    const char *keys[6];
} others[] = {
    { "The Catapult", { "catapult" } },
    { "The Wheel of Fortune", { "wheel-of-fortune" } },
    { "The Plague", { "plague" } },
    { "The School", { "school" } },
};

const char *expansion_unsupported(const char *set_or_element)
{
    size_t n = strcspn(set_or_element, ":/");
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++)
        for (int k = 0; k < 6 && others[i].keys[k]; k++)
            if (strlen(others[i].keys[k]) == n &&
                strncmp(others[i].keys[k], set_or_element, n) == 0)
                return others[i].name;
    return NULL;
}

/* ---- the move classes the units register (core/move.h) ------------- */

const struct move_class *move_class_of(int kind, int neutral)
{
    for (int e = 0; e < EXP__COUNT; e++) {
        const struct move_class *c = expansion_units[e]->moves;
        for (; c && c->name; c++)
            if (c->kind == kind && c->neutral == neutral)
                return c;
    }
    return NULL;
}

const struct move_class *move_class_named(const char *name)
{
    for (int e = 0; e < EXP__COUNT; e++) {
        const struct move_class *c = expansion_units[e]->moves;
        for (; c && c->name; c++)
            if (strcmp(c->name, name) == 0)
                return c;
    }
    return NULL;
}

const struct move_class *move_class_jcz(const char *type, int i)
{
    for (int e = 0; e < EXP__COUNT; e++) {
        const struct move_class *c = expansion_units[e]->moves;
        for (; c && c->name; c++)
            if (c->jcz && strcmp(c->jcz, type) == 0 && i-- == 0)
                return c;
    }
    return NULL;
}
