/* words.c - segments, tiles and directions in words (words.h). */
#include "core/words.h"

#include <string.h>

#include "core/feature.h"
#include "core/text.h"
#include "core/tiles.h"

static const char *const sides[4] = { "north", "east", "south", "west" };

const char *side_word(int edge)
{
    switch (edge) {
    case EDGE_N: return sides[0];
    case EDGE_E: return sides[1];
    case EDGE_S: return sides[2];
    case EDGE_W: return sides[3];
    }
    return "";
}

const char *dir_words(int dir)
{
    static const char *const words[8] = {
        "north", "north-east", "east", "south-east",
        "south", "south-west", "west", "north-west",
    };
    return words[dir & 7];
}

/* A kind's name as a word: our notation's hyphens are spaces to a
 * reader, and the flier's feature is the machine players see. */
static void kind_put(struct text *t, int kind, bool many)
{
    if (kind < 0 || kind >= FEAT__COUNT) {
        text_put(t, many ? "features" : "feature");
        return;
    }
    char w[40];
    struct text k = text_at(w, sizeof w);
    text_put(&k, kind == FEAT_FLIER ? "flying machine" : feat_name(kind));
    for (char *p = w; *p; p++)
        if (*p == '-')
            *p = ' ';
    size_t n = strlen(w);
    if (many && n > 1 && w[n - 1] == 'y' && !strchr("aeiou", w[n - 2])) {
        w[n - 1] = '\0';
        text_put(t, w);
        text_put(t, "ies");
        return;
    }
    text_put(t, w);
    if (many && n && w[n - 1] != 's')
        text_put(t, "s");
}

static void edges_words(struct text *t, uint8_t mask)
{
    int n = __builtin_popcount(mask & 15u);
    if (n == 4) {
        text_put(t, " on every side");
    } else if (n == 3) {
        text_put(t, " on every side but ");
        text_put(t, side_word(15 & ~mask));
    } else if (mask == (EDGE_N | EDGE_S)) {
        text_put(t, " running north–south");
    } else if (mask == (EDGE_E | EDGE_W)) {
        text_put(t, " running east–west");
    } else if (n == 2) {
        /* adjacent sides, clockwise: "on the west and north sides" would
         * read backwards, so the pair starts where the turn starts */
        int first = mask == (EDGE_W | EDGE_N) ? EDGE_N
                    : (mask & -mask);
        text_put(t, " on the ");
        text_put(t, side_word(first));
        text_put(t, " and ");
        text_put(t, side_word(mask & ~first));
        text_put(t, " sides");
    } else if (n == 1) {
        text_put(t, " on the ");
        text_put(t, side_word(mask));
        text_put(t, " side");
    }
}

/* A field by where its half-edges lie: the sum of their places (x east,
 * y north; NL is the west half of the north edge, the halves go round
 * clockwise) points to the part of the tile it covers. */
static void halves_words(struct text *t, uint8_t mask)
{
    static const int hx[8] = { -1, 1, 2, 2, 1, -1, -2, -2 };
    static const int hy[8] = { 2, 2, 1, -1, -2, -2, -1, 1 };
    static const char *const corner[8] = {
        [1] = "north-east", [3] = "south-east", [5] = "south-west",
        [7] = "north-west",
    };
    if (mask == 0 || mask == FIELD_INNER2) {
        text_put(t, mask ? " inside the tile (the second one)"
                         : " inside the tile");
        return;
    }
    if (mask == 0xFF) {
        text_put(t, " all round the tile");
        return;
    }
    int x = 0, y = 0;
    for (int i = 0; i < 8; i++)
        if (mask & (1u << i)) {
            x += hx[i];
            y += hy[i];
        }
    for (int i = 1; i < 8; i += 2) /* two halves meeting at a corner */
        if (mask == ((1u << i) | (1u << ((i + 1) & 7)))) {
            text_put(t, " in the ");
            text_put(t, corner[i]);
            text_put(t, " corner");
            return;
        }
    int ax = x < 0 ? -x : x, ay = y < 0 ? -y : y;
    if (ax == 0 && ay == 0) {
        text_put(t, " across the tile");
        return;
    }
    const char *ns = y > 0 ? "north" : "south", *we = x > 0 ? "east" : "west";
    text_put(t, " to the ");
    if (ay > 2 * ax) {
        text_put(t, ns);
    } else if (ax > 2 * ay) {
        text_put(t, we);
    } else {
        text_put(t, ns);
        text_put(t, "-");
        text_put(t, we);
    }
}

void feat_words(int kind, bool many, char *out, size_t len)
{
    struct text t = text_at(out, len);
    kind_put(&t, kind, many);
}

void seg_words(int kind, uint8_t mask, char *out, size_t len)
{
    struct text t = text_at(out, len);
    int shape = feat_shape(kind);
    text_put(&t, "the ");
    kind_put(&t, kind, false);
    if (shape == SHAPE_EDGES) {
        edges_words(&t, mask);
    } else if (shape == SHAPE_HALVES) {
        halves_words(&t, mask);
    } else if (shape == SHAPE_SPOTS && mask) {
        text_put(&t, " (");
        text_put(&t, tile_spot_name(__builtin_ctz(mask)));
        text_put(&t, ")");
    }
}

static void count_put(struct text *t, int n)
{
    static const char *const numbers[] = {
        "no", "a", "two", "three", "four", "five", "six", "seven", "eight",
    };
    if (n >= 0 && n < (int)(sizeof numbers / sizeof numbers[0]))
        text_put(t, numbers[n]);
    else
        text_int(t, n);
}

void tile_words(int def, char *out, size_t len)
{
    struct text t = text_at(out, len);
    const struct tile_def *d = tile_get(def);
    int count[FEAT__COUNT] = { 0 }, kinds = 0, said = 0;
    if (!d) {
        text_put(&t, "an unknown tile");
        return;
    }
    /* fields lie round everything else: the features they part are
     * what tells tiles apart */
    for (int i = 0; i < d->n_seg; i++) {
        int k = d->seg[i].kind, shape = feat_shape(k);
        if (k < FEAT__COUNT && shape != SHAPE_HALVES && shape != SHAPE_NONE)
            kinds += count[k]++ == 0;
    }
    if (kinds == 0) {
        text_put(&t, "the tile of fields only");
        return;
    }
    text_put(&t, "the tile with ");
    /* the registry lists the plain kinds first; "a city and three
     * roads" names the rarer, larger ones first */
    for (int k = FEAT__COUNT - 1; k >= 0; k--) {
        if (!count[k])
            continue;
        if (said)
            text_put(&t, said == kinds - 1 ? " and " : ", ");
        if (count[k] == 1 && strchr("aeiou", feat_name(k)[0]))
            text_put(&t, "an");
        else
            count_put(&t, count[k]);
        text_put(&t, " ");
        kind_put(&t, k, count[k] > 1);
        said++;
    }
}
