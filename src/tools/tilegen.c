/* tilegen.c - compiles our tile notation (src/core/exp/NAME.tiles; the
 * grammar is at the top of base.tiles) into C tables for the engine:
 *
 *   tilegen OUT.c OUT.h FILE.tiles...
 *
 * OUT.c defines tile_defs[] (every kind, sorted by id in byte order,
 * which is JCloisterZone's pack order), tile_hash[] (the ids' hash table
 * tile_find() reads) and tile_set_defs[]; OUT.h defines TILE_KINDS,
 * TILE_KINDS_POW2 (the power of two the pack's search tree needs),
 * TILE_HASH_SLOTS and TILE_SETS. Each tile is checked as it is read: every side
 * holds at most one road, city or river, every half-edge at most one
 * field, a side that is no city has a field on both halves (when the tile
 * has fields), a field touches cities the tile has, attributes sit on
 * the features they belong to. Any mistake stops the build with
 * FILE:LINE and what is wrong. A build tool: it may do I/O. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/expansion.h"
#include "core/tiles.h"

#define MAX_TILES 512
#define MAX_SETS 64
#define MAX_REFS 64
#define MAX_LINE 4096

struct ptile {
    char id[32];
    struct tile_def def;
    bool closed;      /* 'closed': edges meet anything, end what they meet */
    bool walled;      /* 'walled': a side may hold nothing on a half (the
                         City of Carcassonne's walls inside it) */
    uint8_t inner[TILE_MAX_SEGS]; /* a field inside: 1 "I", 2 "II" */
    char exp[32];
    const char *file;
    int line;
};

struct pset {
    char id[48];
    char exp[32];
    int n_refs, n_removes;
    char ref[MAX_REFS][32];
    int count[MAX_REFS];
    char removes[8][32];
    int kind[MAX_REFS], remove_kind[8];
    int removes_if; /* 1 + enum game_option the removes wait for, 0 */
    const char *file;
    int line;
};

static struct ptile tiles[MAX_TILES];
static int n_tiles;
static struct pset sets[MAX_SETS];
static int n_sets;
static const char *cur_file;
static int cur_line;

static void die(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s:%d: ", cur_file ? cur_file : "tilegen", cur_line);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(1);
}

static const char *const feat_names[] = {
#define X(id, name, shape) name,
    FEATURES(X)
#undef X
};
static const int feat_shapes[] = {
#define X(id, name, shape) shape,
    FEATURES(X)
#undef X
};
static const char *const feat_ids[] = {
#define X(id, name, shape) "FEAT_" #id,
    FEATURES(X)
#undef X
};
static const char *const group_names[] = {
#define X(id, name, rank) name,
    TILE_GROUPS(X)
#undef X
#define GROUP(id, name, rank) name,
#include "core/exp/units.def"
#undef GROUP
};
static const char *const group_ids[] = {
#define X(id, name, rank) "TG_" #id,
    TILE_GROUPS(X)
#undef X
#define GROUP(id, name, rank) "TG_" #id,
#include "core/exp/units.def"
#undef GROUP
};
static const char *const spot_names[] = {
#define SPOT(id, name, jcz) name,
#include "core/exp/units.def"
#undef SPOT
};
static const char *const attr_names[] = {
#define ATTR(id, name, feature, receipt) name,
#include "core/exp/units.def"
#undef ATTR
};
static const char *const mark_names[] = {
#define MARK(id, name) name,
#include "core/exp/units.def"
#undef MARK
};
static const char *const exp_names[] = {
#define UNIT(id, obj, name) name,
#include "core/exp/units.def"
#undef UNIT
};
static const char *const exp_ids[] = {
#define UNIT(id, obj, name) "EXP_" #id,
#include "core/exp/units.def"
#undef UNIT
};
static const char *const option_keys[] = {
#define OPTION(id, key, def, pages, unit) key,
#include "core/exp/units.def"
#undef OPTION
};
static const char *const dir_names[8] = { "N", "NE", "E", "SE",
                                          "S", "SW", "W", "NW" };
static const char *const half_names[8] = { "NL", "NR", "EL", "ER",
                                           "SL", "SR", "WL", "WR" };

static int find_in(const char *const *names, int n, const char *s, size_t len)
{
    for (int i = 0; i < n; i++)
        if (strlen(names[i]) == len && strncmp(names[i], s, len) == 0)
            return i;
    return -1;
}

static int edge_bit(char c)
{
    switch (c) {
    case 'N': return EDGE_N;
    case 'E': return EDGE_E;
    case 'S': return EDGE_S;
    case 'W': return EDGE_W;
    }
    return 0;
}

/* "NWE" -> edge bits; each edge once. */
static uint8_t parse_edges(const char *s, size_t len, const char *what)
{
    uint8_t m = 0;
    if (len == 0)
        die("%s: no edges", what);
    for (size_t i = 0; i < len; i++) {
        int b = edge_bit(s[i]);
        if (!b || (m & b))
            die("%s: '%.*s' is no set of edges N E S W", what, (int)len, s);
        m |= (uint8_t)b;
    }
    return m;
}

/* "NL.NR.EL" -> half-edge bits; "*" all eight; "I", "II" fields inside
 * (*inner 1, 2; masks 0 and FIELD_INNER2). */
static uint8_t parse_halves(const char *s, size_t len, uint8_t *inner)
{
    uint8_t m = 0;
    if (len == 1 && s[0] == '*')
        return 0xFF;
    if (len == 1 && s[0] == 'I') {
        *inner = 1;
        return 0;
    }
    if (len == 2 && s[0] == 'I' && s[1] == 'I') {
        *inner = 2;
        return FIELD_INNER2;
    }
    for (size_t i = 0; i < len;) {
        size_t j = i;
        while (j < len && s[j] != '.')
            j++;
        int h = find_in(half_names, 8, s + i, j - i);
        if (h < 0 || (m & (1u << h)))
            die("field: '%.*s' is no set of half-edges", (int)len, s);
        m |= (uint8_t)(1u << h);
        i = j + 1;
    }
    return m;
}

/* One feature token, e.g. "city:NW+", "road:WS/inn",
 * "field:SL.SR>NW", "flier:NW", "monastery". */
static void parse_feature(struct ptile *t, const char *tok)
{
    struct tile_def *d = &t->def;
    const char *colon = strchr(tok, ':');
    size_t klen = colon ? (size_t)(colon - tok) : strcspn(tok, "/");
    int kind = find_in(feat_names, FEAT__COUNT, tok, klen);
    if (kind <= FEAT_NONE)
        die("'%s': unknown feature", tok);
    if (d->n_seg >= TILE_MAX_SEGS)
        die("%s: more than %d segments", t->id, TILE_MAX_SEGS);
    struct seg_def *s = &d->seg[d->n_seg++];
    s->kind = (uint8_t)kind;
    const char *p = colon ? colon + 1 : tok + klen;
    size_t loc = strcspn(p, "+>/");
    int shape = feat_shapes[kind];
    if (kind == FEAT_FLIER) {
        int dir = find_in(dir_names, 8, p, loc);
        if (dir < 0)
            die("'%s': a flier needs a direction (flier:NW)", tok);
        if (d->flier_dir != NO_FLIER)
            die("%s: two flying machines", t->id);
        d->flier_dir = (int8_t)dir;
    } else if (shape == SHAPE_EDGES) {
        s->mask = parse_edges(p, loc, tok);
    } else if (shape == SHAPE_SPOTS) {
        int spot = find_in(spot_names, SPOT__COUNT, p, loc);
        if (spot < 0)
            die("'%s': a %s needs a spot's name", tok, feat_names[kind]);
        s->mask = (uint8_t)(1u << spot);
    } else if (shape == SHAPE_HALVES) {
        s->mask = parse_halves(p, loc, &t->inner[d->n_seg - 1]);
        if (!t->inner[d->n_seg - 1] && s->mask == FIELD_INNER2)
            die("'%s': these half-edges are the code of a second inner "
                "field", tok);
    } else if (loc || colon) {
        die("'%s': a %s has no location", tok, feat_names[kind]);
    }
    p += loc;
    if (*p == '+') {
        if (kind != FEAT_CITY)
            die("'%s': only cities have pennants", tok);
        char *end;
        long n = strtol(p + 1, &end, 10);
        s->pennants = (uint8_t)(end == p + 1 ? 1 : n);
        if (end != p + 1 && (n < 1 || n > 9))
            die("'%s': pennants 1..9", tok);
        p = end;
    }
    if (*p == '>') {
        if (kind != FEAT_FIELD)
            die("'%s': only fields touch cities ('>')", tok);
        size_t n = strcspn(p + 1, "/");
        s->cities = parse_edges(p + 1, n, tok);
        p += 1 + n;
    }
    while (*p == '/') {
        size_t n = strcspn(p + 1, "/");
        if (strncmp(p + 1, "wagon=", 6) == 0) {
            for (size_t i = 7; i < n + 1; i++) {
                if (p[i] < 'a' || p[i] > 'd')
                    die("'%s': wagon groups are letters a to d", tok);
                s->adjoin |= (uint8_t)(1u << (p[i] - 'a'));
            }
            p += 1 + n;
            continue;
        }
        int a = find_in(attr_names, SA__COUNT, p + 1, n);
        if (a < 0)
            die("'%s': unknown attribute '%.*s'", tok, (int)n, p + 1);
        static const int on[SA__COUNT] = {
#define ATTR(id, name, feature, receipt) FEAT_##feature,
#include "core/exp/units.def"
#undef ATTR
        };
        if (on[a] && kind != on[a])
            die("'%s': no %s on a %s", tok, attr_names[a], feat_names[kind]);
        s->attrs |= (uint16_t)(1u << a);
        p += 1 + n;
    }
    if (*p)
        die("'%s': unexpected '%s'", tok, p);
}

/* Edge kinds and the geometry checks of a tile just read. */
static void finish_tile(struct ptile *t)
{
    struct tile_def *d = &t->def;
    uint8_t edged[FEAT__COUNT] = { 0 }, halves = 0, fields = 0;
    for (int i = 0; i < d->n_seg; i++) {
        const struct seg_def *s = &d->seg[i];
        if (feat_shapes[s->kind] == SHAPE_EDGES) {
            for (int k = 0; k < FEAT__COUNT; k++)
                if (edged[k] & s->mask)
                    die("%s: two features on one edge", t->id);
            edged[s->kind] |= s->mask;
        } else if (s->kind == FEAT_FIELD && t->inner[i]) {
            fields++; /* inside the tile: on no half-edge */
        } else if (s->kind == FEAT_FIELD) {
            if (halves & s->mask)
                die("%s: two fields on one half-edge", t->id);
            halves |= s->mask;
            fields++;
        }
    }
    d->edges = 0;
    for (int side = 0; side < 4; side++) {
        unsigned bit = 1u << side, kind = FEAT_FIELD;
        if (edged[FEAT_CITY] & bit)
            kind = FEAT_CITY;
        else if (edged[FEAT_ROAD] & bit)
            kind = FEAT_ROAD;
        else if (edged[FEAT_RIVER] & bit)
            kind = FEAT_RIVER;
        for (int k = 0; k < FEAT__COUNT; k++)
            if (k != FEAT_CITY && k != FEAT_ROAD && k != FEAT_RIVER &&
                (edged[k] & bit))
                die("%s: an edge feature the edge kinds do not know",
                    t->id);
        d->edges = (uint16_t)(d->edges | kind << 4 * side);
        unsigned two = 3u << 2 * side;
        if (t->closed && kind != FEAT_FIELD)
            die("%s: a closed tile has no edge features", t->id);
        if (fields && kind != FEAT_CITY && (halves & two) != two &&
            !t->walled)
            die("%s: side %s is no city but lacks a field on a half",
                t->id, dir_names[2 * side]);
        if (kind == FEAT_CITY && (halves & two))
            die("%s: a field on the city side %s", t->id,
                dir_names[2 * side]);
    }
    for (int i = 0; i < d->n_seg; i++)
        if (d->seg[i].cities & ~edged[FEAT_CITY])
            die("%s: a field touches a city the tile does not have", t->id);
    if (t->closed)
        d->edges = 0;
}

static unsigned turn_edges(unsigned m, int r)
{
    return ((m << r) | (m >> ((4 - r) & 3))) & 0xF;
}

static unsigned turn_halves(unsigned m, int r)
{
    return ((m << 2 * r) | (m >> ((8 - 2 * r) & 7))) & 0xFF;
}

/* The tile turned 0..3 quarter turns (struct tile_turn), the kinds of its
 * segments and their edge counts. Fields inside (inner) lie on no side. */
static void finish_turns(struct tile_def *d, const uint8_t *inner)
{
    for (int i = 0; i < d->n_seg; i++) {
        struct seg_def *s = &d->seg[i];
        d->kinds = (uint32_t)(d->kinds | 1u << s->kind);
        if (feat_shapes[s->kind] == SHAPE_EDGES)
            s->n_edges = (uint8_t)__builtin_popcount(s->mask);
    }
    for (int r = 0; r < 4; r++) {
        struct tile_turn *t = &d->turn[r];
        unsigned e = d->edges, sh = 4u * (unsigned)r;
        t->edges = (uint16_t)((e << sh | e >> ((16 - sh) & 15)) & 0xFFFF);
        for (int i = 0; i < d->n_seg; i++) {
            const struct seg_def *s = &d->seg[i];
            int shape = feat_shapes[s->kind];
            unsigned m = shape == SHAPE_HALVES  ? turn_halves(s->mask, r)
                         : shape == SHAPE_EDGES ? turn_edges(s->mask, r)
                         : shape == SHAPE_SPOTS ? s->mask /* never turn */
                                                : 0;
            t->mask[i] = (uint8_t)m;
            if (inner[i])
                m = 0; /* its code is no half-edge */
            t->cities[i] = (uint8_t)turn_edges(s->cities, r);
            for (int b = 0; b < 8; b++) {
                if (!(m >> b & 1))
                    continue;
                if (shape == SHAPE_EDGES)
                    t->side_slots = (uint16_t)(t->side_slots |
                                               (unsigned)(i + 1) << 4 * b);
                else if (shape == SHAPE_HALVES)
                    t->half_slots |= (uint32_t)(i + 1) << 4 * b;
            }
        }
    }
}

static void parse_tile(char **tok, int n, const char *exp)
{
    if (n < 2)
        die("tile: expected an id and its features");
    if (n_tiles == MAX_TILES)
        die("more than %d tiles", MAX_TILES);
    struct ptile *t = &tiles[n_tiles++];
    memset(t, 0, sizeof *t);
    if (strlen(tok[1]) >= sizeof t->id)
        die("tile id '%s' too long", tok[1]);
    snprintf(t->id, sizeof t->id, "%s", tok[1]);
    snprintf(t->exp, sizeof t->exp, "%s", exp);
    t->file = cur_file;
    t->line = cur_line;
    t->def.flier_dir = NO_FLIER;
    for (int i = 2; i < n; i++) {
        int mark = find_in(mark_names,
                           (int)(sizeof mark_names / sizeof *mark_names),
                           tok[i], strlen(tok[i]));
        if (strcmp(tok[i], "closed") == 0) {
            t->closed = true;
        } else if (mark >= 0) {
            t->def.marks |= 1u << mark;
        } else if (strcmp(tok[i], "walled") == 0) {
            t->walled = true;
        } else if (strncmp(tok[i], "group=", 6) == 0) {
            int g = find_in(group_names, TG__COUNT, tok[i] + 6,
                            strlen(tok[i] + 6));
            if (g <= TG_NONE)
                die("'%s': unknown group", tok[i]);
            t->def.group = (uint8_t)g;
        } else {
            parse_feature(t, tok[i]);
        }
    }
    finish_tile(t);
    finish_turns(&t->def, t->inner);
}

static void parse_set(char **tok, int n, const char *exp)
{
    if (n < 3)
        die("set: expected an id and its tiles");
    if (n_sets == MAX_SETS)
        die("more than %d sets", MAX_SETS);
    struct pset *s = &sets[n_sets++];
    memset(s, 0, sizeof *s);
    snprintf(s->id, sizeof s->id, "%s", tok[1]);
    snprintf(s->exp, sizeof s->exp, "%s", exp);
    s->file = cur_file;
    s->line = cur_line;
    for (int i = 2; i < n; i++) {
        if (strncmp(tok[i], "if:", 3) == 0) {
            s->removes_if = 1 + find_in(option_keys, OPT__COUNT, tok[i] + 3,
                                        strlen(tok[i] + 3));
            if (s->removes_if == 0)
                die("'%s': no such rule variant", tok[i]);
            continue;
        }
        if (tok[i][0] == '-') {
            if (s->n_removes == 8)
                die("set %s: too many removals", s->id);
            snprintf(s->removes[s->n_removes++], 32, "%s", tok[i] + 1);
            continue;
        }
        char *c = strrchr(tok[i], ':');
        long count = c ? strtol(c + 1, NULL, 10) : 0;
        if (!c || count < 1 || count > 255)
            die("'%s': expected TILE:COUNT", tok[i]);
        if (s->n_refs == MAX_REFS)
            die("set %s: more than %d tiles", s->id, MAX_REFS);
        *c = '\0';
        snprintf(s->ref[s->n_refs], 32, "%s", tok[i]);
        s->count[s->n_refs++] = (int)count;
    }
}

/* One statement (continuation lines joined, comment stripped). */
static void statement(char *text, char *exp, size_t exp_len)
{
    char *tok[256];
    int n = 0;
    for (char *p = strtok(text, " \t"); p; p = strtok(NULL, " \t")) {
        if (n == 256)
            die("too many tokens");
        tok[n++] = p;
    }
    if (n == 0)
        return;
    if (strcmp(tok[0], "expansion") == 0 && n == 2) {
        if (find_in(exp_names, EXP__COUNT, tok[1], strlen(tok[1])) < 0)
            die("'%s': no such unit in EXPANSIONS (core/expansion.h)",
                tok[1]);
        snprintf(exp, exp_len, "%s", tok[1]);
    }
    else if (!exp[0])
        die("'expansion ID' must come first");
    else if (strcmp(tok[0], "tile") == 0)
        parse_tile(tok, n, exp);
    else if (strcmp(tok[0], "set") == 0)
        parse_set(tok, n, exp);
    else
        die("'%s': expected tile, set or expansion", tok[0]);
}

static void read_file(const char *path)
{
    FILE *f = fopen(path, "r");
    char line[MAX_LINE], stmt[4 * MAX_LINE] = "", exp[32] = "";
    int stmt_line = 0, line_no = 0;
    if (!f) {
        fprintf(stderr, "%s: %s\n", path, strerror(errno));
        exit(1);
    }
    cur_file = path;
    while (fgets(line, sizeof line, f)) {
        line_no++;
        line[strcspn(line, "#\r\n")] = '\0';
        bool cont = line[0] == ' ' || line[0] == '\t';
        if (cont && strspn(line, " \t") == strlen(line))
            continue;
        if (!cont) {
            cur_line = stmt_line;
            statement(stmt, exp, sizeof exp);
            stmt[0] = '\0';
            stmt_line = line_no;
        }
        size_t have = strlen(stmt), add = strlen(line);
        if (have + add + 2 > sizeof stmt)
            die("statement too long");
        stmt[have] = ' ';
        memcpy(stmt + have + 1, line, add + 1);
    }
    cur_line = stmt_line;
    statement(stmt, exp, sizeof exp);
    fclose(f);
}

static int cmp_tile(const void *a, const void *b)
{
    return strcmp(((const struct ptile *)a)->id, ((const struct ptile *)b)->id);
}

static int kind_of(const char *id)
{
    for (int i = 0; i < n_tiles; i++)
        if (strcmp(tiles[i].id, id) == 0)
            return i;
    return -1;
}

static void resolve(void)
{
    qsort(tiles, (size_t)n_tiles, sizeof tiles[0], cmp_tile);
    for (int i = 1; i < n_tiles; i++)
        if (strcmp(tiles[i - 1].id, tiles[i].id) == 0) {
            cur_file = tiles[i].file;
            cur_line = tiles[i].line;
            die("tile %s defined twice", tiles[i].id);
        }
    for (int s = 0; s < n_sets; s++) {
        struct pset *p = &sets[s];
        cur_file = p->file;
        cur_line = p->line;
        for (int k = 0; k < s; k++)
            if (strcmp(sets[k].id, p->id) == 0)
                die("set %s defined twice", p->id);
        for (int i = 0; i < p->n_refs; i++) {
            p->kind[i] = kind_of(p->ref[i]);
            if (p->kind[i] < 0)
                die("set %s: unknown tile %s", p->id, p->ref[i]);
            for (int j = 0; j < i; j++)
                if (p->kind[j] == p->kind[i])
                    die("set %s: tile %s twice", p->id, p->ref[i]);
        }
        for (int i = 0; i < p->n_removes; i++) {
            p->remove_kind[i] = kind_of(p->removes[i]);
            if (p->remove_kind[i] < 0)
                die("set %s: unknown tile %s", p->id, p->removes[i]);
        }
    }
}

/* Slots of the id hash: a power of two, at most half full, so that a
 * probe for an id not there soon meets an empty slot. */
static int hash_slots(void)
{
    int slots = 1;
    while (slots < 2 * n_tiles)
        slots *= 2;
    return slots;
}

/* tile_hash[]: each kind's index at its id's hash, probed linearly; -1
 * empty. tile_find() reads it in place of a binary search over the
 * ids, which share their first bytes ("BA/C..."). */
static void emit_hash(FILE *f)
{
    int slots = hash_slots();
    int *slot = malloc(sizeof *slot * (size_t)slots);
    if (!slot)
        die("out of memory");
    for (int h = 0; h < slots; h++)
        slot[h] = -1;
    for (int i = 0; i < n_tiles; i++) {
        uint32_t h = tile_id_hash(tiles[i].id) & (uint32_t)(slots - 1);
        while (slot[h] >= 0)
            h = (h + 1) & (uint32_t)(slots - 1);
        slot[h] = i;
    }
    fprintf(f, "const int16_t tile_hash[TILE_HASH_SLOTS] = {");
    for (int h = 0; h < slots; h++)
        fprintf(f, "%s%d,", h % 16 ? " " : "\n   ", slot[h]);
    fprintf(f, "\n};\n\n");
    free(slot);
}

static void emit_c(FILE *f, int argc, char **argv)
{
    fprintf(f, "/* tiles_gen.c - generated by tilegen from");
    for (int i = 3; i < argc; i++)
        fprintf(f, " %s", strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1
                                                  : argv[i]);
    fprintf(f, ": do not edit. */\n#include \"core/tiles.h\"\n"
               "#include <stddef.h>\n\n#include \"core/expansion.h\"\n#include \"tiles_gen.h\"\n\n"
               "const struct tile_def tile_defs[TILE_KINDS] = {\n");
    for (int i = 0; i < n_tiles; i++) {
        const struct tile_def *d = &tiles[i].def;
        fprintf(f, "    { \"%s\", %d, %s, 0x%04x, 0x%04x, %s, %d, {",
                tiles[i].id, d->flier_dir, group_ids[d->group], d->edges,
                d->kinds,
                exp_ids[find_in(exp_names, EXP__COUNT, tiles[i].exp,
                                strlen(tiles[i].exp))],
                d->n_seg);
        for (int k = 0; k < d->n_seg; k++) {
            const struct seg_def *s = &d->seg[k];
            fprintf(f, "%s\n        { %s, 0x%02x, %d, 0x%x, 0x%x, %d, 0x%x }",
                    k ? "," : "", feat_ids[s->kind], s->mask, s->pennants,
                    s->cities, s->attrs, s->n_edges, s->adjoin);
        }
        fprintf(f, " },\n      {");
        for (int r = 0; r < 4; r++) {
            const struct tile_turn *t = &d->turn[r];
            fprintf(f, "%s\n        { 0x%04x, 0x%04x, 0x%08x, {", r ? "," : "",
                    t->edges, t->side_slots, t->half_slots);
            for (int k = 0; k < d->n_seg; k++)
                fprintf(f, "%s0x%02x", k ? ", " : " ", t->mask[k]);
            fprintf(f, " }, {");
            for (int k = 0; k < d->n_seg; k++)
                fprintf(f, "%s0x%x", k ? ", " : " ", t->cities[k]);
            fprintf(f, " } }");
        }
        fprintf(f, " }, 0x%x },\n", d->marks);
    }
    fprintf(f, "};\n\n");
    emit_hash(f);
    for (int s = 0; s < n_sets; s++) {
        fprintf(f, "static const struct set_ref refs%d[] = {", s);
        for (int i = 0; i < sets[s].n_refs; i++)
            fprintf(f, "%s{ %d, %d }",
                    i == 0 ? "\n    " : i % 6 ? ", " : ",\n    ",
                    sets[s].kind[i], sets[s].count[i]);
        fprintf(f, "\n};\n");
        if (sets[s].n_removes) {
            fprintf(f, "static const int16_t removes%d[] = {", s);
            for (int i = 0; i < sets[s].n_removes; i++)
                fprintf(f, " %d,", sets[s].remove_kind[i]);
            fprintf(f, " };\n");
        }
    }
    fprintf(f, "\nconst struct tile_set_def tile_set_defs[TILE_SETS] = {\n");
    for (int s = 0; s < n_sets; s++) {
        fprintf(f, "    { \"%s\", %s, %d, refs%d, %d, ", sets[s].id,
                exp_ids[find_in(exp_names, EXP__COUNT, sets[s].exp,
                                strlen(sets[s].exp))],
                sets[s].n_refs, s, sets[s].n_removes);
        if (sets[s].n_removes)
            fprintf(f, "removes%d, %d },\n", s, sets[s].removes_if);
        else
            fprintf(f, "NULL, 0 },\n");
    }
    fprintf(f, "};\n");
}

static void emit_h(FILE *f)
{
    int pow2 = 1;
    while (pow2 < n_tiles)
        pow2 *= 2;
    fprintf(f, "/* tiles_gen.h - generated by tilegen: do not edit. */\n"
               "#ifndef TILES_GEN_H\n#define TILES_GEN_H\n"
               "#define TILE_KINDS %d\n"
               "#define TILE_KINDS_POW2 %d /* the pack tree's width */\n"
               "#define TILE_SETS %d\n"
               "#define TILE_HASH_SLOTS %d /* a power of two */\n"
               "extern const struct tile_def tile_defs[TILE_KINDS];\n"
               "extern const int16_t tile_hash[TILE_HASH_SLOTS];\n"
               "extern const struct tile_set_def tile_set_defs[TILE_SETS];\n"
               "#endif\n",
            n_tiles, pow2, n_sets, hash_slots());
}

static void write_out(const char *path, void (*emit)(FILE *), int argc,
                      char **argv, void (*emit_argv)(FILE *, int, char **))
{
    char tmp[1024];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        fprintf(stderr, "%s: %s\n", tmp, strerror(errno));
        exit(1);
    }
    if (emit)
        emit(f);
    else
        emit_argv(f, argc, argv);
    if (fclose(f) != 0 || rename(tmp, path) != 0) {
        fprintf(stderr, "%s: %s\n", path, strerror(errno));
        exit(1);
    }
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: tilegen OUT.c OUT.h FILE.tiles...\n");
        return 2;
    }
    for (int i = 3; i < argc; i++)
        read_file(argv[i]);
    resolve();
    if (n_tiles == 0 || n_sets == 0) {
        fprintf(stderr, "tilegen: no tiles or no sets\n");
        return 1;
    }
    write_out(argv[1], NULL, argc, argv, emit_c);
    write_out(argv[2], emit_h, 0, NULL, NULL);
    return 0;
}
