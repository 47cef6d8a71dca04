/* test_tiles.c - tile tables, rotation helpers and segment notation.
 *
 * Facts come from JCloisterZone's tile XMLs (peer/jcz/tiles): the base
 * packs hold 72 tiles with the start tile, each flier set 8. */
#include <stdarg.h> /* cmocka 1.1.5 needs these four first */
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/game.h"
#include "core/tiles.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

static struct rules rules_with(const char *set1, int n1, const char *set2,
                               int n2)
{
    struct rules r;
    rules_init(&r);
    r.n_players = 2;
    r.figures[FIG_SMALL] = 7;
    if (set1)
        r.set_copies[tile_set_find(set1)] = (uint8_t)n1;
    if (set2)
        r.set_copies[tile_set_find(set2)] = (uint8_t)n2;
    return r;
}

/* ---- packs ------------------------------------------------------------ */

static const struct {
    const char *set1;
    int n1;
    const char *set2;
    int n2;
    int size;
} pack_cases[] = {
    { "basic:1", 1, NULL, 0, 72 },      /* C2 base incl. start tile */
    { "basic:2", 1, NULL, 0, 72 },      /* C3 base incl. start tile */
    { "flier:1", 1, NULL, 0, 8 },
    { "flier:2", 1, NULL, 0, 8 },
    { "basic:1", 1, "flier:1", 1, 80 }, /* the corpus' C2 games */
    { "basic:2", 1, "flier:2", 1, 80 }, /* the corpus' C3 games */
    { "basic:1", 2, NULL, 0, 144 },     /* copies multiply */
    { NULL, 0, NULL, 0, 0 },            /* no sets, no tiles */
};

static void test_pack_sizes(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_OF(pack_cases); i++) {
        struct rules r = rules_with(pack_cases[i].set1, pack_cases[i].n1,
                                    pack_cases[i].set2, pack_cases[i].n2);
        assert_int_equal(game_pack_size(&r), pack_cases[i].size);
        /* a fresh game holds the whole pack: the start tile is in it */
        struct game *g = game_new(&r);
        assert_int_equal(game_pack_left(g), pack_cases[i].size);
        game_free(g);
    }
}

/* Every ref of every set names a tile we know, by id and by index, with a
 * positive count. */
static void test_every_set_tile_resolves(void **state)
{
    (void)state;
    assert_true(tile_set_count() >= 10);
    for (int s = 0; s < tile_set_count(); s++) {
        const struct tile_set_def *d = tile_set_get(s);
        assert_non_null(d);
        assert_int_equal(tile_set_find(d->id), s);
        assert_non_null(expansion_get(d->expansion));
        for (int i = 0; i < d->n_refs; i++) {
            const struct tile_def *t = tile_get(d->refs[i].kind);
            assert_non_null(t);
            assert_int_equal(tile_find(t->id), d->refs[i].kind);
            assert_true(d->refs[i].count > 0);
        }
    }
    assert_int_equal(tile_find("BA/Nope"), -1);
    assert_int_equal(tile_set_find("basic:3"), -1);
    assert_null(tile_get(-1));
    assert_null(tile_get(tile_count()));
    assert_null(tile_set_get(tile_set_count()));
}

static const struct {
    const char *set, *tile;
    int count;
} set_count_cases[] = {
    { "basic:1", "BA/RCr", 4 },  { "basic:1", "BA/Rr", 9 },
    { "basic:1", "BA/RFr", 8 },  { "basic:1", "BA/L", 4 },
    { "basic:1", "BA/CcG", 0 },  /* gardens are C3 only */
    { "basic:2", "BA/CcG", 1 },  { "basic:2", "BA/Rr", 8 },
    { "flier:1", "FL/F.d", 1 },  { "flier:1", "FL/F.dG", 0 },
    { "flier:2", "FL/F.dG", 1 }, { "flier:2", "FL/F.d", 0 },
};

static void test_set_counts(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_OF(set_count_cases); i++) {
        struct rules r = rules_with(set_count_cases[i].set, 1, NULL, 0);
        struct game *g = game_new(&r);
        assert_int_equal(g->pack[tile_find(set_count_cases[i].tile)],
                         set_count_cases[i].count);
        game_free(g);
    }
}

/* ---- rotation --------------------------------------------------------- */

static const struct {
    uint8_t mask;
    int rot;
    uint8_t out;
} edge_cases[] = {
    { EDGE_N, 0, EDGE_N },
    { EDGE_N, 1, EDGE_E },
    { EDGE_N, 2, EDGE_S },
    { EDGE_N, 3, EDGE_W },
    { EDGE_W, 1, EDGE_N },                       /* wraps round */
    { EDGE_N | EDGE_W, 1, EDGE_N | EDGE_E },
    { EDGE_W | EDGE_E, 1, EDGE_N | EDGE_S },
    { EDGE_N | EDGE_E | EDGE_W, 2, EDGE_S | EDGE_W | EDGE_E },
    { 15, 3, 15 },
    { EDGE_E, 4, EDGE_E },                       /* only rot & 3 counts */
};

static void test_rot_edges(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_OF(edge_cases); i++)
        assert_int_equal(rot_edges(edge_cases[i].mask, edge_cases[i].rot),
                         edge_cases[i].out);
}

static const struct {
    uint8_t mask;
    int rot;
    uint8_t out;
} half_cases[] = {
    { HE_NL, 0, HE_NL },
    { HE_NL, 1, HE_EL },
    { HE_NR, 1, HE_ER },
    { HE_WR, 1, HE_NR },                         /* wraps round */
    { HE_WL, 3, HE_SL },
    { HE_NL | HE_NR, 2, HE_SL | HE_SR },
    { HE_EL | HE_WR, 1, HE_SL | HE_NR },         /* RCr's north field */
    { 0xFF, 1, 0xFF },
    { HE_SR, 4, HE_SR },
};

static void test_rot_halves(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_OF(half_cases); i++)
        assert_int_equal(rot_halves(half_cases[i].mask, half_cases[i].rot),
                         half_cases[i].out);
}

/* Board-frame sides N E S W of a tile turned rot. */
static const struct {
    const char *tile;
    int rot;
    enum feat side[4];
} tile_edge_cases[] = {
    { "BA/RCr", 0, { FEAT_CITY, FEAT_ROAD, FEAT_FIELD, FEAT_ROAD } },
    { "BA/RCr", 1, { FEAT_ROAD, FEAT_CITY, FEAT_ROAD, FEAT_FIELD } },
    { "BA/RCr", 2, { FEAT_FIELD, FEAT_ROAD, FEAT_CITY, FEAT_ROAD } },
    { "BA/RCr", 3, { FEAT_ROAD, FEAT_FIELD, FEAT_ROAD, FEAT_CITY } },
    { "BA/CRr", 0, { FEAT_CITY, FEAT_ROAD, FEAT_ROAD, FEAT_FIELD } },
    { "BA/CRr", 2, { FEAT_ROAD, FEAT_FIELD, FEAT_CITY, FEAT_ROAD } },
    { "BA/CccR", 1, { FEAT_CITY, FEAT_CITY, FEAT_CITY, FEAT_ROAD } },
    { "BA/L", 3, { FEAT_FIELD, FEAT_FIELD, FEAT_FIELD, FEAT_FIELD } },
    { "BA/LR", 2, { FEAT_ROAD, FEAT_FIELD, FEAT_FIELD, FEAT_FIELD } },
    { "FL/Rr.SW.o", 1, { FEAT_ROAD, FEAT_FIELD, FEAT_FIELD, FEAT_ROAD } },
    { "BA/Cccc+", 2, { FEAT_CITY, FEAT_CITY, FEAT_CITY, FEAT_CITY } },
};

static void test_tile_edge_rotated(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_OF(tile_edge_cases); i++) {
        const struct tile_def *t = tile_get(tile_find(tile_edge_cases[i].tile));
        assert_non_null(t);
        for (int side = 0; side < 4; side++)
            assert_int_equal(tile_edge(t, tile_edge_cases[i].rot, side),
                             tile_edge_cases[i].side[side]);
    }
}

/* The start tile of both editions, as JCloisterZone defines it. */
static void test_start_tile_geometry(void **state)
{
    (void)state;
    const struct tile_def *t = tile_get(tile_find("BA/RCr"));
    assert_non_null(t);
    assert_int_equal(t->flier_dir, NO_FLIER);
    assert_int_equal(t->n_seg, 4);
    assert_int_equal(t->seg[0].kind, FEAT_ROAD);
    assert_int_equal(t->seg[0].mask, EDGE_W | EDGE_E);
    assert_int_equal(t->seg[1].kind, FEAT_CITY);
    assert_int_equal(t->seg[1].mask, EDGE_N);
    assert_int_equal(t->seg[2].kind, FEAT_FIELD);
    assert_int_equal(t->seg[2].mask, HE_EL | HE_WR);
    assert_int_equal(t->seg[2].cities, EDGE_N); /* north field meets city */
    assert_int_equal(t->seg[3].mask, HE_ER | HE_SL | HE_SR | HE_WL);
    assert_int_equal(t->seg[3].cities, 0);
}

/* ---- flier directions --------------------------------------------------- */

static const struct {
    const char *tile;
    int rot;
    int dir;
} flier_dir_cases[] = {
    { "FL/F.o", 0, DIR_W },       { "FL/F.o", 1, DIR_N },
    { "FL/F.o", 2, DIR_E },       { "FL/F.o", 3, DIR_S },
    { "FL/F.d", 0, DIR_NW },      { "FL/F.d", 1, DIR_NE },
    { "FL/F.d", 2, DIR_SE },      { "FL/F.d", 3, DIR_SW },
    { "FL/RFr.d", 1, DIR_NE },    { "FL/Rr.NW.o", 3, DIR_S },
    { "FL/RFr.NS.o", 2, DIR_E },  { "FL/Rr.d", 2, DIR_SE },
    { "BA/RFr", 1, NO_FLIER },    /* no machine, whatever the rotation */
};

/* game_place() turns the arrow with the tile: d -> (d + 2 rot) % 8. */
static void test_flier_dir_turns_with_tile(void **state)
{
    (void)state;
    struct rules r = rules_with("basic:1", 1, "flier:1", 1);
    for (size_t i = 0; i < N_OF(flier_dir_cases); i++) {
        struct game *g = game_new(&r);
        assert_true(game_place(g, tile_find(flier_dir_cases[i].tile),
                               (struct pos){ 4, -2 }, flier_dir_cases[i].rot,
                               1));
        assert_int_equal(game_flier_dir(g, 0), flier_dir_cases[i].dir);
        assert_int_equal(g->tiles[0].flier_dir, flier_dir_cases[i].dir);
        game_free(g);
    }
    assert_string_equal(dir_name(DIR_NW), "NW");
    assert_string_equal(dir_name(DIR_SE), "SE");
}

/* ---- notation ----------------------------------------------------------- */

static const struct {
    int kind;
    const char *loc;  /* as loc_parse() reads it */
    uint8_t mask;
    const char *text; /* as seg_format() writes it */
} notation_cases[] = {
    { FEAT_CITY, "NE", EDGE_N | EDGE_E, "city:NE" },
    { FEAT_CITY, "_W", EDGE_N | EDGE_E | EDGE_S, "city:_W" },
    { FEAT_CITY, "_S", EDGE_N | EDGE_E | EDGE_W, "city:_S" },
    { FEAT_CITY, "NWSE", 15, "city:NWSE" },
    { FEAT_ROAD, "WE", EDGE_W | EDGE_E, "road:WE" },
    { FEAT_ROAD, "NS", EDGE_N | EDGE_S, "road:NS" },
    { FEAT_ROAD, "SW", EDGE_S | EDGE_W, "road:SW" },
    { FEAT_ROAD, "E", EDGE_E, "road:E" },
    { FEAT_FIELD, "NL.NR.EL", HE_NL | HE_NR | HE_EL, "field:NL.NR.EL" },
    { FEAT_FIELD, "WR", HE_WR, "field:WR" },
    { FEAT_FIELD, "NL.NR.EL.ER.SL.SR.WL.WR", 0xFF,
      "field:NL.NR.EL.ER.SL.SR.WL.WR" },
    { FEAT_MONASTERY, "I", 0, "monastery" },
    { FEAT_GARDEN, "I", 0, "garden" },
    { FEAT_FLIER, "I", 0, "flier" },
};

/* loc_parse() and seg_format() agree in both directions. */
static void test_notation_round_trip(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_OF(notation_cases); i++) {
        uint8_t mask = 0xAA;
        char text[64];
        assert_true(loc_parse(notation_cases[i].kind, notation_cases[i].loc,
                              &mask));
        assert_int_equal(mask, notation_cases[i].mask);
        seg_format(notation_cases[i].kind, mask, text, sizeof text);
        assert_string_equal(text, notation_cases[i].text);
        /* what seg_format() writes after the colon parses back */
        const char *colon = strchr(text, ':');
        if (colon) {
            assert_true(loc_parse(notation_cases[i].kind, colon + 1, &mask));
            assert_int_equal(mask, notation_cases[i].mask);
        }
    }
}

/* The same set of edges written in another order is the same mask. */
static void test_notation_order_free(void **state)
{
    (void)state;
    uint8_t a, b;
    assert_true(loc_parse(FEAT_ROAD, "EW", &a));
    assert_true(loc_parse(FEAT_ROAD, "WE", &b));
    assert_int_equal(a, b);
    assert_true(loc_parse(FEAT_FIELD, "EL.NL", &a));
    assert_true(loc_parse(FEAT_FIELD, "NL.EL", &b));
    assert_int_equal(a, b);
    assert_true(loc_parse(FEAT_MONASTERY, "", &a)); /* inner: "" as "I" */
    assert_int_equal(a, 0);
}

static const struct {
    int kind;
    const char *loc;
} bad_loc_cases[] = {
    { FEAT_CITY, "" },        { FEAT_CITY, "NN" },    /* repeated edge */
    { FEAT_CITY, "NX" },      { FEAT_CITY, "_" },
    { FEAT_CITY, "_WE" },     { FEAT_CITY, "n" },     /* case matters */
    { FEAT_ROAD, "I" },       { FEAT_FIELD, "" },
    { FEAT_FIELD, "NL." },    /* trailing dot */
    { FEAT_FIELD, "NLNR" },   /* missing dot */
    { FEAT_FIELD, "NX" },     { FEAT_FIELD, "NL.NL" },
    { FEAT_FIELD, ".NL" },    { FEAT_FIELD, "N" },
    { FEAT_MONASTERY, "N" },  { FEAT_GARDEN, "NE" },
    { FEAT_NONE, "N" },       /* no such feature kind */
};

static void test_notation_rejects_malformed(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_OF(bad_loc_cases); i++) {
        uint8_t mask = 0xAA;
        if (loc_parse(bad_loc_cases[i].kind, bad_loc_cases[i].loc, &mask))
            fail_msg("case %zu: '%s' accepted for a %s", i,
                     bad_loc_cases[i].loc, feat_name(bad_loc_cases[i].kind));
    }
}

static void test_names(void **state)
{
    (void)state;
    assert_string_equal(feat_name(FEAT_ROAD), "road");
    assert_string_equal(feat_name(FEAT_MONASTERY), "monastery");
    assert_string_equal(feat_name(FEAT_FLIER), "flier");
    assert_string_equal(feat_name(FEAT__CLASSES), "none");
    assert_string_equal(rule_id(RULE_FLIER_MUST_LAND), "FLIER_MUST_LAND");
    assert_string_equal(rule_id(RULE_TILE_DISCARD_FITS), "TILE_DISCARD_FITS");
    assert_string_equal(rule_id(RULE_OK), "OK");
    /* every rule has its own id string */
    for (int a = 0; a < RULE__COUNT; a++)
        for (int b = a + 1; b < RULE__COUNT; b++)
            assert_string_not_equal(rule_id((enum rule)a),
                                    rule_id((enum rule)b));
}

/* The whole of a text file of the checkout (freed by the caller). */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    char *text = NULL;
    size_t n = 0, cap = 0, got;
    do {
        if (n + 4096 + 1 > cap) {
            cap = 2 * cap + 4096 + 1;
            text = realloc(text, cap);
            assert_non_null(text);
        }
        got = fread(text + n, 1, 4096, f);
        n += got;
    } while (got > 0);
    fclose(f);
    text[n] = '\0';
    return text;
}

/* Users read the rule ids in the README, the generic ones in the order
 * that says which is reported first, then each unit's, and their meaning
 * in docs/architecture.md: every id is there, the README's in enum order
 * (the generic ones, then the units' in units.def order). */
static void test_rule_ids_documented(void **state)
{
    (void)state;
    char *readme = slurp(FLIERD_SOURCE_DIR "/README.md");
    char *arch = slurp(FLIERD_SOURCE_DIR "/docs/architecture.md");
    const char *last = readme;
    char quoted[48], row[48];
    for (int r = RULE_OK + 1; r < RULE__COUNT; r++) {
        snprintf(quoted, sizeof quoted, "`%s`", rule_id((enum rule)r));
        snprintf(row, sizeof row, "| `%s` |", rule_id((enum rule)r));
        const char *at = strstr(last, quoted);
        if (!at)
            fail_msg("README.md: %s missing, or not after the rule before "
                     "it", quoted);
        last = at + strlen(quoted);
        if (!strstr(arch, row))
            fail_msg("docs/architecture.md: no table row for %s", quoted);
    }
    free(readme);
    free(arch);
}

/* tile_find(id) is -1 or a kind whose id is id, byte for byte. */
static bool found_exactly(const char *id)
{
    int k = tile_find(id);
    return k < 0 || strcmp(tile_get(k)->id, id) == 0;
}

/* JCloisterZone draws from its pack sorted by tile id; game_pack_draw()
 * relies on our table having that order. tile_find() hashes: every id
 * finds its kind, and an id one byte off (a prefix, one more byte, a
 * changed last byte) finds none. */
static void test_table_sorted_by_id(void **state)
{
    (void)state;
    for (int i = 1; i < tile_count(); i++)
        assert_true(strcmp(tile_get(i - 1)->id, tile_get(i)->id) < 0);
    for (int i = 0; i < tile_count(); i++) {
        char near[64];
        const char *id = tile_get(i)->id;
        size_t n = strlen(id);
        assert_int_equal(tile_find(id), i);
        assert_true(n > 0 && n + 2 < sizeof near);
        memcpy(near, id, n - 1);
        near[n - 1] = '\0';
        assert_true(found_exactly(near));
        memcpy(near, id, n + 1);
        near[n - 1] = (char)(id[n - 1] ^ 0x7f);
        assert_true(found_exactly(near));
        memcpy(near, id, n);
        memcpy(near + n, "#", 2);
        assert_int_equal(tile_find(near), -1);
    }
    assert_int_equal(tile_find("BA/XYZ"), -1);
    assert_int_equal(tile_find(""), -1);
}

/* The draw follows pack order: r = 0 gives the first tile left, r just
 * below 1 the last, and game_pack_random(def) draws def. */
static void test_pack_draw(void **state)
{
    (void)state;
    struct rules r = { .n_players = 2, .figures[FIG_SMALL] = 7, .flags = RF_FARMERS,
                       .opt[OPT_TINY_CITY] = 4 };
    r.set_copies[tile_set_find("basic:1")] = 1;
    r.set_copies[tile_set_find("flier:1")] = 1;
    struct game *g = game_new(&r);
    assert_int_equal(game_pack_draw(g, 0.0), tile_find("BA/C"));
    assert_int_equal(game_pack_draw(g, 0.9999999), tile_find("FL/Rr.d"));
    assert_int_equal(game_pack_draw(g, 1.0), -1);
    for (int t = 0; t < tile_count(); t++)
        if (g->pack[t] > 0)
            assert_int_equal(game_pack_draw(g, game_pack_random(g, t)), t);
    assert_true(game_pack_random(g, tile_find("BA/CCG")) < 0);
    game_free(g);
}

/* The slot a draw lands in, counted the slow way. */
static int draw_by_scan(const struct game *g, double r)
{
    int idx = (int)(r * game_pack_left(g));
    for (int t = 0; t < tile_count(); t++) {
        if (idx < g->pack[t])
            return t;
        idx -= g->pack[t];
    }
    return -1;
}

/* The draw keeps following the pack as tiles leave it and come back. */
static void test_pack_draw_follows_pack(void **state)
{
    (void)state;
    struct rules r = { .n_players = 2, .figures[FIG_SMALL] = 7, .opt[OPT_TINY_CITY] = 4 };
    r.set_copies[tile_set_find("basic:2")] = 2;
    r.set_copies[tile_set_find("flier:2")] = 1;
    struct game *g = game_new(&r);
    for (int k = 0; game_pack_left(g) > 0; k++) {
        for (double x = 0; x < 1; x += 1.0 / 257)
            assert_int_equal(game_pack_draw(g, x), draw_by_scan(g, x));
        int t = game_pack_draw(g, (k * 0.37) - (int)(k * 0.37));
        game_discard(g, t);
        if (k % 5 == 0) {
            game_undiscard(g, t);
            game_discard(g, game_pack_draw(g, 0.999));
        }
    }
    assert_int_equal(game_pack_draw(g, 0.5), -1);
    game_free(g);
}

/* A side of a tile holds at most one road, city or river segment, a
 * half-edge one field, and a field's city edges one city each: the engine
 * keeps one segment per side and per half-edge of a placed tile (tilegen
 * checks it as it compiles the tiles; this keeps it true). */
static void test_one_segment_per_edge(void **state)
{
    (void)state;
    for (int t = 0; t < tile_count(); t++) {
        const struct tile_def *d = tile_get(t);
        unsigned edges = 0, halves = 0, cities = 0;
        for (int i = 0; i < d->n_seg; i++) {
            const struct seg_def *s = &d->seg[i];
            unsigned *seen = feat_shape(s->kind) == SHAPE_HALVES  ? &halves
                             : feat_shape(s->kind) == SHAPE_EDGES ? &edges
                                                                  : NULL;
            if (!seen) { /* inside: only spots are told apart */
                if (feat_shape(s->kind) != SHAPE_SPOTS)
                    assert_int_equal(s->mask, 0);
                continue;
            }
            if (seen == &halves && s->mask == 0) /* a field inside cities */
                assert_true(s->cities != 0);
            assert_int_equal(*seen & s->mask, 0);
            *seen |= s->mask;
            if (s->kind == FEAT_CITY)
                cities |= s->mask;
        }
        for (int i = 0; i < d->n_seg; i++)
            if (d->seg[i].kind == FEAT_FIELD)
                assert_int_equal(d->seg[i].cities & ~cities, 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pack_sizes),
        cmocka_unit_test(test_every_set_tile_resolves),
        cmocka_unit_test(test_set_counts),
        cmocka_unit_test(test_rot_edges),
        cmocka_unit_test(test_rot_halves),
        cmocka_unit_test(test_tile_edge_rotated),
        cmocka_unit_test(test_start_tile_geometry),
        cmocka_unit_test(test_flier_dir_turns_with_tile),
        cmocka_unit_test(test_notation_round_trip),
        cmocka_unit_test(test_notation_order_free),
        cmocka_unit_test(test_notation_rejects_malformed),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_rule_ids_documented),
        cmocka_unit_test(test_table_sorted_by_id),
        cmocka_unit_test(test_pack_draw),
        cmocka_unit_test(test_pack_draw_follows_pack),
        cmocka_unit_test(test_one_segment_per_edge),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
