/* test_tiles_xml.c - our tiles (src/core/exp/<unit>.tiles, compiled into
 * tile_defs[] and tile_set_defs[]) against JCloisterZone's tile
 * definitions, read in place from FLIERD_SHARED_DIR/peer/jcz/tiles/<set>.xml
 * with libxml2. Those files are test data of that project, never copied
 * here; libxml2 is linked into this test only.
 *
 * For every set flierd supports: the same tiles with the same counts and
 * the same removes. For every tile of such a set: the same group, flier
 * direction and segments, compared as multisets (the order is free):
 * roads, cities and rivers by their edges, with pennants, inn and
 * cathedral and the wagon's move groups; fields by their half-edges (or
 * "I" and "II", touching no edge) and
 * the cities they touch, compared as the city segments touched, since
 * JCloisterZone's TileBuilder and our game.c both take a named edge for
 * the city covering it; monastery (a shrine="true" one our shrine),
 * garden and flying machine; and the
 * edge kinds that placement matches, derived from those segments.
 *
 * Every element and attribute met in a supported set is either read and
 * compared here (modelled[], seg_elements[]) or listed in unmodelled[]
 * with what gives it a meaning, counted and reported; anything else is a
 * difference, so a new attribute in a supported set's tiles fails the
 * test until someone decides what it means for us.
 *
 * Reverse: every tile kind flierd defines belongs to a set and is in the
 * XMLs under the same id. */
#include <stdarg.h> /* cmocka 1.1.5 needs these four first */
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <ctype.h>
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "core/game.h" /* seg_format, TILE_KINDS */
#include "core/tiles.h"
#include "util/err.h" /* PRINTF_LIKE */

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))
#define TILES_DIR FLIERD_SHARED_DIR "/peer/jcz/tiles"

/* ---- what we read, and what we do not model yet ------------------------ */

/* The elements of a <tile> that are segments of ours. */
static const struct {
    const char *element;
    enum feat kind;
} seg_elements[] = {
    { "road", FEAT_ROAD },           { "city", FEAT_CITY },
    { "river", FEAT_RIVER },         { "field", FEAT_FIELD },
    { "monastery", FEAT_MONASTERY }, { "garden", FEAT_GARDEN },
    { "flying-machine", FEAT_FLIER }, { "tower", FEAT_TOWER },
    { "acrobats", FEAT_ACROBATS },
    { "yaga-hut", FEAT_YAGA_HUT },  { "vodyanoy", FEAT_VODYANOY },
    { "razboynik", FEAT_RAZBOYNIK },
};

/* The attributes read and compared below, by element. */
static const struct {
    const char *element, *attr;
} modelled[] = {
    { "tile", "id" },        { "tile", "group" },
    { "road", "inn" },       { "city", "pennants" },
    { "road", "tunnel" },     { "road", "labyrinth" },
    { "city", "cathedral" }, { "field", "city" },
    { "city", "resource" },  { "field", "pig-herd" },
    { "city", "princess" },  { "city", "darmstadtium" },
    { "monastery", "church" }, { "city", "besieged" },
    { "city", "castle-base" }, { "city", "multi-edge" },
    { "flying-machine", "direction" },
    { "road", "wagon-move" }, { "city", "wagon-move" },
    { "monastery", "wagon-move" }, { "monastery", "shrine" },
    { "monastery", "special" },
    { "tile", "wind-rose" },
    { "watchtower", "bonus" },
    { "tile-set", "id" },    { "ref", "tile" },
    { "ref", "count" },      { "remove", "tile" },
};

/* What the XMLs say that flierd does not model: an element (attr NULL)
 * or an attribute of an element ("*": of any element). Not modelled
 * until its expansion is supported, except the known gaps (gap true),
 * which belong to an expansion we support. Each occurrence in a
 * supported set is counted and reported. */
static const struct unmodelled {
    const char *element, *attr;
    bool gap;
    const char *why;
} unmodelled[] = {
    { "road", "wells", false, "a road's wells (JCloisterZone's Road.WELL)" },
    { "tile-set", "max", false, "The Count: its set is taken once" },
    /* JCloisterZone caps a kind's copies over all the sets played at
     * max (the spring and the two lakes, max 1). We never draw the spring
     * (it is the start tile) and The River II takes The River's lake out,
     * which covers The River with The River II; a river set taken twice,
     * or both editions of one, is not capped: two lakes. */
    { "tile", "max", true, "a cap on a kind's copies over all sets" },
    /* BB/Cccc.b says its copies twice: on the tile and on its sets' refs,
     * which we compare */
    { "tile", "count", true, "a kind's copies, repeated by its sets' refs" },
    /* gq11/river's river tiles go with The River's: a save lists every
     * set it plays, so the pack is the sets the save names */
    { "requires", NULL, true, "a set taken only with another expansion" },
};

/* How often each was met in the supported sets and their tiles, and the
 * first tile or set it was met on. */
static int unmodelled_seen[N_OF(unmodelled)];
static char unmodelled_first[N_OF(unmodelled)][40];

/* ---- the XMLs ---------------------------------------------------------- */

#define MAX_FILES 64
#define MAX_XML_TILES 1024
#define MAX_XML_SETS 128

struct named {
    char *id; /* xmlGetProp's copy */
    xmlNodePtr node;
    const char *file;
};

static struct {
    int n_files;
    char files[MAX_FILES][64];
    xmlDocPtr docs[MAX_FILES];
    int n_tiles, n_sets;
    struct named tiles[MAX_XML_TILES], sets[MAX_XML_SETS];
    int errors; /* unreadable files, missing or repeated ids */
} xml;

static const char *name_of(xmlNodePtr n)
{
    return (const char *)n->name;
}

/* The attribute's value (xmlFree it), or NULL. */
static char *prop(xmlNodePtr n, const char *attr)
{
    return (char *)xmlGetProp(n, (const xmlChar *)attr);
}

static void add_named(struct named *v, int *n, int max, xmlNodePtr node,
                      const char *file)
{
    char *id = prop(node, "id");
    if (!id || !*id || *n == max) {
        printf("%s: a <%s> without id, or too many\n", file, name_of(node));
        xml.errors++;
        xmlFree(id);
        return;
    }
    for (int i = 0; i < *n; i++)
        if (strcmp(v[i].id, id) == 0) {
            /* JCloisterZone refuses a tile id defined twice too */
            printf("%s: <%s id=\"%s\"> again (first in %s)\n", file,
                   name_of(node), id, v[i].file);
            xml.errors++;
        }
    v[(*n)++] = (struct named){ id, node, file };
}

/* Every <tile> and <tile-set>, wherever it sits: flier.xml keeps its
 * tiles directly under <defs>, the others in <tiles>. */
static void index_nodes(xmlNodePtr n, const char *file)
{
    for (; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        if (strcmp(name_of(n), "tile") == 0)
            add_named(xml.tiles, &xml.n_tiles, MAX_XML_TILES, n, file);
        else if (strcmp(name_of(n), "tile-set") == 0)
            add_named(xml.sets, &xml.n_sets, MAX_XML_SETS, n, file);
        else
            index_nodes(n->children, file);
    }
}

static int cmp_file(const void *a, const void *b)
{
    return strcmp(a, b);
}

static int read_xmls(void **state)
{
    (void)state;
    DIR *dir = opendir(TILES_DIR);
    if (!dir) {
        print_error("cannot open %s (JCloisterZone's tile definitions; "
                    "configure with -DFLIERD_SHARED_DIR=...)\n", TILES_DIR);
        return -1;
    }
    for (struct dirent *e = readdir(dir); e; e = readdir(dir)) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".xml") != 0)
            continue;
        if (xml.n_files == MAX_FILES || len >= sizeof xml.files[0]) {
            print_error("%s: too many files or name too long\n", e->d_name);
            closedir(dir);
            return -1;
        }
        memcpy(xml.files[xml.n_files++], e->d_name, len + 1);
    }
    closedir(dir);
    qsort(xml.files, (size_t)xml.n_files, sizeof xml.files[0], cmp_file);
    for (int f = 0; f < xml.n_files; f++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", TILES_DIR, xml.files[f]);
        /* plain data files: no network, entities left unexpanded */
        xml.docs[f] = xmlReadFile(path, NULL, XML_PARSE_NONET);
        if (!xml.docs[f]) {
            printf("%s: not well-formed XML\n", path);
            xml.errors++;
            continue;
        }
        index_nodes(xmlDocGetRootElement(xml.docs[f]), xml.files[f]);
    }
    return 0;
}

static int free_xmls(void **state)
{
    (void)state;
    for (int i = 0; i < xml.n_tiles; i++)
        xmlFree(xml.tiles[i].id);
    for (int i = 0; i < xml.n_sets; i++)
        xmlFree(xml.sets[i].id);
    for (int f = 0; f < xml.n_files; f++)
        xmlFreeDoc(xml.docs[f]);
    xmlCleanupParser();
    return 0;
}

static const struct named *find_named(const struct named *v, int n,
                                      const char *id)
{
    for (int i = 0; i < n; i++)
        if (strcmp(v[i].id, id) == 0)
            return &v[i];
    return NULL;
}

/* ---- differences ------------------------------------------------------- */

struct diffs {
    int n;
    bool quiet; /* the checker's own tests: count, print and note nothing */
};

static void PRINTF_LIKE(3, 4) differ(struct diffs *d, const char *where,
                                     const char *fmt, ...)
{
    d->n++;
    if (d->quiet)
        return;
    va_list ap;
    va_start(ap, fmt);
    printf("  %s: ", where);
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
}

/* Fails the test when d holds differences (printed above). */
static void fail_on(const struct diffs *d, const char *what)
{
    fflush(stdout); /* the differences before cmocka's failure line */
    if (d->n)
        fail_msg("%d differences: %s (above)", d->n, what);
}

enum verdict { MODELLED, UNMODELLED, UNKNOWN };

/* Is attr (NULL: the element itself) of element something we read, or
 * listed as not modelled (counted, on where)? */
static enum verdict classify(const char *element, const char *attr,
                             const char *where, struct diffs *d)
{
    if (!attr) {
        for (size_t i = 0; i < N_OF(seg_elements); i++)
            if (strcmp(seg_elements[i].element, element) == 0)
                return MODELLED;
    } else {
        for (size_t i = 0; i < N_OF(modelled); i++)
            if (strcmp(modelled[i].element, element) == 0 &&
                strcmp(modelled[i].attr, attr) == 0)
                return MODELLED;
    }
    for (size_t i = 0; i < N_OF(unmodelled); i++) {
        const struct unmodelled *u = &unmodelled[i];
        bool el = strcmp(u->element, "*") == 0 ||
                  strcmp(u->element, element) == 0;
        bool at = attr ? u->attr && strcmp(u->attr, attr) == 0 : !u->attr;
        if (!el || !at)
            continue;
        if (!d->quiet && unmodelled_seen[i]++ == 0)
            snprintf(unmodelled_first[i], sizeof unmodelled_first[i], "%s",
                     where);
        return UNMODELLED;
    }
    if (attr)
        differ(d, where, "<%s %s=...>: neither modelled nor listed as not "
               "modelled", element, attr);
    else
        differ(d, where, "<%s>: neither modelled nor listed as not "
               "modelled", element);
    return UNKNOWN;
}

/* Every attribute of n, checked against the tables. */
static void check_attrs(xmlNodePtr n, const char *where, struct diffs *d)
{
    for (xmlAttrPtr a = n->properties; a; a = a->next)
        classify(name_of(n), (const char *)a->name, where, d);
}

/* ---- locations --------------------------------------------------------- */

static const char *const edge_names[4] = { "N", "E", "S", "W" };
static const char *const half_names[8] = { "NL", "NR", "EL", "ER",
                                           "SL", "SR", "WL", "WR" };

/* Space-separated names out of names[n] ("N W", "EL ER SL") as a mask;
 * false for none, an unknown name or one named twice. */
static bool parse_names(const char *s, const char *const *names, int n,
                        uint8_t *out)
{
    unsigned m = 0;
    *out = 0;
    while (*s) {
        while (isspace((unsigned char)*s))
            s++;
        size_t len = 0;
        while (s[len] && !isspace((unsigned char)s[len]))
            len++;
        if (len == 0)
            break;
        int k = 0;
        while (k < n && (strlen(names[k]) != len ||
                         strncmp(names[k], s, len) != 0))
            k++;
        if (k == n || (m & (1u << k)))
            return false;
        m |= 1u << k;
        s += len;
    }
    *out = (uint8_t)m;
    return m != 0;
}

static bool blank(const char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    return *s == '\0';
}

/* The text is exactly "I" or "II" (an inner field), spaces aside: its
 * mask (0 or FIELD_INNER2) in *mask. */
static bool inner(const char *s, uint8_t *mask)
{
    while (isspace((unsigned char)*s))
        s++;
    if (s[0] == 'I' && s[1] == 'I' && blank(s + 2)) {
        *mask = FIELD_INNER2;
        return true;
    }
    *mask = 0;
    return *s == 'I' && blank(s + 1);
}

static void edges_text(uint8_t mask, char *out, size_t len)
{
    size_t n = 0;
    out[0] = '\0';
    for (int i = 0; i < 4 && n < len; i++)
        if (mask & (1u << i))
            n += (size_t)snprintf(out + n, len - n, "%s", edge_names[i]);
}

/* ---- a tile as a multiset of segments ---------------------------------- */

struct seg_want {
    uint8_t kind, mask, pennants;
    uint16_t attrs; /* enum seg_attr bits */
    uint8_t wagon;  /* wagon-move groups a..d as bits 0..3 */
    uint8_t cities; /* the masks of the city segments touched, or'ed */
};

struct tile_want {
    int n_seg;
    struct seg_want seg[TILE_MAX_SEGS];
    uint8_t named[TILE_MAX_SEGS]; /* field: the city edges as named */
    int flier_dir;
    int group;
    unsigned marks; /* TILE_MARK() bits: <volcano/>, <dragon/>, <portal/>,
                       <corn-circle type=.../> */
};

/* The tile marks (enum tile_mark) carry the names of JCloisterZone's
 * elements: <volcano/>, <dragon/>, <portal/>. -1: no mark. */
static int mark_of(const char *element)
{
    static const char *const names[] = {
#define MARK(id, name) name,
#include "core/exp/units.def"
#undef MARK
    };
    for (size_t i = 0; i < N_OF(names); i++)
        if (strcmp(names[i], element) == 0)
            return (int)i;
    return -1;
}

/* A mark element's name as our notation spells the mark: the element's,
 * with its type when it has one (<corn-circle type="City"/>:
 * "corn-circle-city") or its bonus, a slash a dash (<watchtower
 * bonus="2/meeple"/>: "watchtower-2-meeple"). */
static const char *mark_name(xmlNodePtr el, char *out, size_t len)
{
    char *type = prop(el, "type");
    if (!type)
        type = prop(el, "bonus");
    snprintf(out, len, "%s%s%s", name_of(el), type ? "-" : "",
             type ? type : "");
    for (char *c = out; *c; c++)
        *c = *c == '/' ? '-' : (char)tolower((unsigned char)*c);
    xmlFree(type);
    return out;
}

static uint64_t seg_key(const struct seg_want *s)
{
    return (uint64_t)s->wagon << 48 | (uint64_t)s->kind << 40 |
           (uint64_t)s->mask << 32 | (uint64_t)s->pennants << 24 |
           (uint64_t)s->cities << 16 | s->attrs;
}

static int cmp_seg(const void *a, const void *b)
{
    uint64_t x = seg_key(a), y = seg_key(b);
    return x < y ? -1 : x > y;
}

/* Our notation, with the cities touched as the whole city segments. */
static void seg_text(const struct seg_want *s, char *out, size_t len)
{
    static const char *const attr_names[SA__COUNT] = {
#define ATTR(id, name, feature, receipt) name,
#include "core/exp/units.def"
#undef ATTR
    };
    char loc[48], cities[8];
    seg_format(s->kind, s->mask, loc, sizeof loc);
    size_t n = (size_t)snprintf(out, len, "%s", loc);
    if (s->pennants == 1 && n < len) /* as our notation writes them */
        n += (size_t)snprintf(out + n, len - n, "+");
    else if (s->pennants && n < len)
        n += (size_t)snprintf(out + n, len - n, "+%d", s->pennants);
    if (s->cities && n < len) {
        edges_text(s->cities, cities, sizeof cities);
        n += (size_t)snprintf(out + n, len - n, ">%s", cities);
    }
    for (int a = 0; a < SA__COUNT && n < len; a++)
        if (s->attrs & (1u << a))
            n += (size_t)snprintf(out + n, len - n, "/%s", attr_names[a]);
    if (s->wagon && n < len) {
        n += (size_t)snprintf(out + n, len - n, "/wagon=");
        for (int b = 0; b < 4 && n < len; b++)
            if (s->wagon & (1u << b))
                n += (size_t)snprintf(out + n, len - n, "%c", 'a' + b);
    }
}

/* The field's named city edges as the city segments covering them; an
 * edge no city covers is a difference (JCloisterZone throws on it). */
static void resolve_cities(struct tile_want *w, const char *where,
                           const char *whose, struct diffs *d)
{
    for (int i = 0; i < w->n_seg; i++) {
        w->seg[i].cities = 0;
        for (int e = 0; e < 4; e++) {
            if (!(w->named[i] & (1u << e)))
                continue;
            int c = 0;
            while (c < w->n_seg && (w->seg[c].kind != FEAT_CITY ||
                                    !(w->seg[c].mask & (1u << e))))
                c++;
            if (c == w->n_seg)
                differ(d, where, "%s: a field touches a city at %s, but "
                       "no city covers that edge", whose, edge_names[e]);
            else
                w->seg[i].cities |= w->seg[c].mask;
        }
    }
}

/* A segment element's text as its mask (edges, half-edges or "I", or
 * nothing for an inner feature). */
static void read_location(xmlNodePtr el, struct seg_want *s,
                          const char *where, struct diffs *d)
{
    char *text = (char *)xmlNodeGetContent(el);
    const char *what = name_of(el);
    bool ok;
    switch (feat_shape(s->kind)) {
    case SHAPE_EDGES:
        ok = parse_names(text, edge_names, 4, &s->mask);
        break;
    case SHAPE_HALVES:
        ok = inner(text, &s->mask) ||
             parse_names(text, half_names, 8, &s->mask);
        break;
    default:
        ok = blank(text);
    }
    if (!ok)
        differ(d, where, "<%s>%s</%s>: not a location of a %s", what, text,
               what, feat_name(s->kind));
    xmlFree(text);
}

/* Our segment attributes (enum seg_attr) carry JCloisterZone's names:
 * inn="true", cathedral="true", pig-herd="true"; a city's trade goods
 * are resource="wine" (or cloth, grain), our attribute of that name;
 * castle-base="false" is our "nocastle". */
static void read_flags(xmlNodePtr el, struct seg_want *s, const char *where,
                       struct diffs *d)
{
    static const char *const names[SA__COUNT] = {
#define ATTR(id, name, feature, receipt) name,
#include "core/exp/units.def"
#undef ATTR
    };
    char *res = prop(el, "resource");
    if (res) {
        int a;
        for (a = 0; a < SA__COUNT && strcmp(names[a], res) != 0; a++)
            ;
        if (a < SA__COUNT)
            s->attrs |= (uint16_t)(1u << a);
        else
            differ(d, where, "resource=\"%s\": no such trade good", res);
        xmlFree(res);
    }
    /* castle-base="false": our "nocastle" (a city is a base by default) */
    char *base = prop(el, "castle-base");
    if (base && strcmp(base, "false") == 0)
        s->attrs |= SA_NOCASTLE;
    else if (base && strcmp(base, "true") != 0)
        differ(d, where, "castle-base=\"%s\": not true or false", base);
    xmlFree(base);
    for (int a = 0; a < SA__COUNT; a++) {
        char *v = prop(el, names[a]);
        if (!v)
            continue;
        if (strcmp(v, "true") == 0)
            s->attrs |= (uint16_t)(1u << a);
        else if (strcmp(v, "false") != 0)
            differ(d, where, "%s=\"%s\": not true or false", names[a], v);
        xmlFree(v);
    }
}

/* Reads one segment element's location and attributes into the tile. */
static void read_seg(xmlNodePtr el, enum feat kind, struct tile_want *w,
                     const char *where, struct diffs *d)
{
    struct seg_want *s = &w->seg[w->n_seg];
    uint8_t *named = &w->named[w->n_seg++];
    memset(s, 0, sizeof *s);
    *named = 0;
    s->kind = (uint8_t)kind;
    check_attrs(el, where, d);
    read_location(el, s, where, d);
    read_flags(el, s, where, d);

    char *v = prop(el, "pennants");
    if (v) {
        char *end;
        long p = strtol(v, &end, 10);
        if (end == v || *end || p < 0 || p > 9)
            differ(d, where, "pennants=\"%s\": not a count", v);
        else
            s->pennants = (uint8_t)p;
        xmlFree(v);
    }
    v = kind == FEAT_MONASTERY ? prop(el, "shrine") : NULL;
    if (v && strcmp(v, "true") == 0) /* a shrine: a kind of our own */
        s->kind = FEAT_SHRINE;
    else if (v && strcmp(v, "false") != 0)
        differ(d, where, "shrine=\"%s\": not true or false", v);
    xmlFree(v);
    v = prop(el, "wagon-move");
    if (v) {
        static const char *const groups[4] = { "a", "b", "c", "d" };
        if (!parse_names(v, groups, 4, &s->wagon))
            differ(d, where, "wagon-move=\"%s\": not groups a to d", v);
        xmlFree(v);
    }
    v = kind == FEAT_FIELD ? prop(el, "city") : NULL;
    if (v && !parse_names(v, edge_names, 4, named))
        differ(d, where, "<field city=\"%s\">: not edges", v);
    xmlFree(v);
    if (kind != FEAT_FLIER)
        return;
    v = prop(el, "direction");
    int dir = v ? dir_find(v) : -1;
    if (dir < 0)
        differ(d, where, "<flying-machine direction=\"%s\">: not a "
               "direction", v ? v : "");
    else if (w->flier_dir != NO_FLIER)
        differ(d, where, "two flying machines");
    else
        w->flier_dir = dir;
    xmlFree(v);
}

/* What JCloisterZone's <tile> says, in our terms. */
static void read_xml_tile(xmlNodePtr tile, const char *where,
                          struct tile_want *w, struct diffs *d)
{
    char name[48];
    memset(w, 0, sizeof *w);
    w->flier_dir = NO_FLIER;
    w->group = TG_NONE;
    check_attrs(tile, where, d);
    /* a rose is an attribute of the tile, not an element: our mark
     * "wind-rose-" and its quarters, in lower case */
    char *rose = prop(tile, "wind-rose");
    if (rose) {
        char mark[32];
        snprintf(mark, sizeof mark, "wind-rose-%s", rose);
        for (char *c = mark; *c; c++)
            *c = (char)tolower((unsigned char)*c);
        if (mark_of(mark) >= 0)
            w->marks |= 1u << mark_of(mark);
        else
            differ(d, where, "wind-rose=\"%s\": a rose we do not know", rose);
        xmlFree(rose);
    }
    char *group = prop(tile, "group");
    if (group) {
        w->group = tile_group_find(group);
        if (w->group < 0)
            differ(d, where, "group=\"%s\": a group we do not know", group);
        xmlFree(group);
    }
    for (xmlNodePtr el = tile->children; el; el = el->next) {
        if (el->type == XML_TEXT_NODE) {
            char *text = (char *)xmlNodeGetContent(el);
            if (!blank(text))
                differ(d, where, "text \"%s\" in <tile>", text);
            xmlFree(text);
        }
        if (el->type != XML_ELEMENT_NODE)
            continue; /* comments */
        int mark = mark_of(mark_name(el, name, sizeof name));
        if (mark >= 0) {
            w->marks |= 1u << mark;
            /* JCloisterZone puts the dragon's tiles in group "dragon" */
            if (mark == TM_BIT_DRAGON)
                w->group = TG_DRAGON;
            continue;
        }
        if (strcmp(name_of(el), "quarter") == 0) {
            /* the City's four quarters, which JCloisterZone makes in code
             * (CountCapability) on the tile holding this element */
            for (int q = SPOT_CASTLE;
                 q <= SPOT_CATHEDRAL && w->n_seg < TILE_MAX_SEGS; q++)
                w->seg[w->n_seg++] = (struct seg_want){
                    FEAT_QUARTER, (uint8_t)(1u << q), 0, 0, 0, 0 };
            continue;
        }
        if (classify(name_of(el), NULL, where, d) != MODELLED)
            continue;
        if (w->n_seg == TILE_MAX_SEGS) {
            differ(d, where, "more than %d segments", TILE_MAX_SEGS);
            break;
        }
        size_t k = 0;
        while (strcmp(seg_elements[k].element, name_of(el)) != 0)
            k++;
        read_seg(el, seg_elements[k].kind, w, where, d);
        /* a city beside another on one edge: the tile's mark
         * "multi-edge" (Hills & Sheep) */
        char *multi = prop(el, "multi-edge");
        if (multi && mark_of("multi-edge") >= 0)
            w->marks |= 1u << mark_of("multi-edge");
        xmlFree(multi);
        char *special = prop(el, "special");
        /* a special monastery: the abbot's place beside the monks' */
        if (special && strcmp(special, "true") == 0 &&
            w->n_seg < TILE_MAX_SEGS)
            w->seg[w->n_seg++] = (struct seg_want){
                FEAT_ABBOT_SEAT, (uint8_t)(1u << SPOT_ABBOT), 0, 0, 0, 0 };
        xmlFree(special);
    }
    resolve_cities(w, where, "JCloisterZone", d);
    /* JCloisterZone knows the City of Carcassonne by its tiles' ids: its
     * start tiles (our group city), every field of them joined to it */
    if (strncmp(where, "CO/", 3) == 0) {
        w->group = TG_CITY;
        for (int i = 0; i < w->n_seg; i++)
            if (w->seg[i].kind == FEAT_FIELD)
                w->seg[i].attrs |= SA_COC;
    }
}

/* Our tile_def in the same terms. */
static void read_our_tile(const struct tile_def *t, struct tile_want *w,
                          struct diffs *d)
{
    memset(w, 0, sizeof *w);
    w->flier_dir = t->flier_dir;
    w->group = t->group;
    w->marks = t->marks;
    w->n_seg = t->n_seg;
    for (int i = 0; i < t->n_seg; i++) {
        w->seg[i] = (struct seg_want){ t->seg[i].kind, t->seg[i].mask,
                                       t->seg[i].pennants, t->seg[i].attrs,
                                       t->seg[i].adjoin, 0 };
        w->named[i] = t->seg[i].cities;
    }
    resolve_cities(w, t->id, "flierd", d);
}

/* The edge kinds placement matches (struct tile_def's edges): per side,
 * the city covering it, else the road, else the river, else field. */
static uint16_t edge_kinds(const struct tile_want *w)
{
    static const enum feat order[] = { FEAT_CITY, FEAT_ROAD, FEAT_RIVER };
    uint16_t edges = 0;
    for (int side = 0; side < 4; side++) {
        unsigned kind = FEAT_FIELD;
        for (size_t o = N_OF(order); o-- > 0;)
            for (int i = 0; i < w->n_seg; i++)
                if (w->seg[i].kind == order[o] &&
                    (w->seg[i].mask & (1u << side)))
                    kind = order[o];
        edges |= (uint16_t)(kind << (4 * side));
    }
    return edges;
}

/* Reports the segments only one side has (both lists sorted). */
static void diff_segs(const char *id, struct tile_want *x,
                      struct tile_want *o, struct diffs *d)
{
    qsort(x->seg, (size_t)x->n_seg, sizeof x->seg[0], cmp_seg);
    qsort(o->seg, (size_t)o->n_seg, sizeof o->seg[0], cmp_seg);
    int i = 0, j = 0;
    char text[96];
    while (i < x->n_seg || j < o->n_seg) {
        uint64_t kx = i < x->n_seg ? seg_key(&x->seg[i]) : UINT64_MAX;
        uint64_t ko = j < o->n_seg ? seg_key(&o->seg[j]) : UINT64_MAX;
        if (i < x->n_seg && j < o->n_seg && kx == ko) {
            i++, j++;
        } else if (j == o->n_seg || (i < x->n_seg && kx < ko)) {
            seg_text(&x->seg[i++], text, sizeof text);
            differ(d, id, "JCloisterZone has %s, flierd does not", text);
        } else {
            seg_text(&o->seg[j++], text, sizeof text);
            differ(d, id, "flierd has %s, JCloisterZone does not", text);
        }
    }
}

/* Compares our tile t with JCloisterZone's <tile> node; returns the
 * number of differences, each reported. */
static int check_tile(const struct tile_def *t, xmlNodePtr node,
                      struct diffs *d)
{
    int before = d->n;
    struct tile_want x, o;
    read_xml_tile(node, t->id, &x, d);
    read_our_tile(t, &o, d);
    if (x.group != o.group)
        differ(d, t->id, "group \"%s\" in JCloisterZone, \"%s\" in flierd",
               x.group >= 0 ? tile_group_name(x.group) : "?",
               tile_group_name(o.group));
    if (x.marks != o.marks)
        differ(d, t->id, "tile marks 0x%x in JCloisterZone, 0x%x in flierd",
               x.marks, o.marks);
    if (x.flier_dir != o.flier_dir)
        differ(d, t->id, "flying machine %s in JCloisterZone, %s in flierd",
               x.flier_dir >= 0 ? dir_name(x.flier_dir) : "none",
               o.flier_dir >= 0 ? dir_name(o.flier_dir) : "none");
    uint32_t kinds = 0;
    for (int i = 0; i < x.n_seg; i++)
        kinds |= 1u << x.seg[i].kind;
    if (kinds != t->kinds)
        differ(d, t->id, "feature kinds 0x%04x from JCloisterZone, 0x%04x "
               "in flierd", kinds, t->kinds);
    if (edge_kinds(&x) != t->edges)
        differ(d, t->id, "edge kinds 0x%04x from JCloisterZone, 0x%04x in "
               "flierd", edge_kinds(&x), t->edges);
    diff_segs(t->id, &x, &o, d);
    return d->n - before;
}

/* ---- sets -------------------------------------------------------------- */

/* A <ref>'s or <remove>'s tile as our kind, or -1 (reported). */
static int ref_kind(xmlNodePtr el, const char *where, struct diffs *d)
{
    char *id = prop(el, "tile");
    int k = id ? tile_find(id) : -1;
    if (k < 0)
        differ(d, where, "<%s tile=\"%s\">: a tile flierd does not define",
               name_of(el), id ? id : "");
    xmlFree(id);
    return k;
}

static void check_set(const struct tile_set_def *s, xmlNodePtr node,
                      struct diffs *d)
{
    static int want[TILE_KINDS], have[TILE_KINDS];
    static bool want_rm[TILE_KINDS], have_rm[TILE_KINDS];
    memset(want, 0, sizeof want);
    memset(have, 0, sizeof have);
    memset(want_rm, 0, sizeof want_rm);
    memset(have_rm, 0, sizeof have_rm);
    for (int i = 0; i < s->n_refs; i++)
        have[s->refs[i].kind] += s->refs[i].count;
    /* removes that wait for a rule variant JCloisterZone makes in code
     * (keep-monasteries: MonasteriesCapability), not in its sets */
    for (int i = 0; !s->removes_if && i < s->n_removes; i++)
        have_rm[s->removes[i]] = true;

    check_attrs(node, s->id, d);
    for (xmlNodePtr el = node->children; el; el = el->next) {
        if (el->type != XML_ELEMENT_NODE)
            continue;
        bool ref = strcmp(name_of(el), "ref") == 0;
        if (!ref && strcmp(name_of(el), "remove") != 0) {
            classify(name_of(el), NULL, s->id, d);
            continue;
        }
        check_attrs(el, s->id, d);
        int k = ref_kind(el, s->id, d);
        if (k < 0)
            continue;
        if (!ref) {
            want_rm[k] = true;
            continue;
        }
        /* JCloisterZone adds up the refs of a tile (copies times count) */
        char *count = prop(el, "count"), *end = NULL;
        long n = count ? strtol(count, &end, 10) : 0;
        if (!count || end == count || *end || n < 1 || n > 255)
            differ(d, s->id, "%s: count=\"%s\" is not a count",
                   tile_get(k)->id, count ? count : "");
        else
            want[k] += (int)n;
        xmlFree(count);
    }
    for (int k = 0; k < TILE_KINDS; k++) {
        if (want[k] != have[k])
            differ(d, s->id, "%s: %d in JCloisterZone, %d in flierd",
                   tile_get(k)->id, want[k], have[k]);
        if (want_rm[k] != have_rm[k])
            differ(d, s->id, "%s: %sremoved in JCloisterZone, %sin flierd",
                   tile_get(k)->id, want_rm[k] ? "" : "not ",
                   have_rm[k] ? "" : "not ");
    }
}

/* ---- tests ------------------------------------------------------------- */

static void test_xml_read(void **state)
{
    (void)state;
    printf("read %d files of %s: %d tiles, %d sets\n", xml.n_files,
           TILES_DIR, xml.n_tiles, xml.n_sets);
    assert_true(xml.n_files > 0);
    assert_int_equal(xml.errors, 0);
}

/* Every tile set JCloisterZone defines is one we audit, or a row of the
 * table "Tile sets not audited" in docs/architecture.md that says why:
 * a save of any other set is refused as unsupported, and that list is
 * where users read which. A row of a set we audit is stale: it fails too. */
static void test_every_set_audited_or_listed(void **state)
{
    (void)state;
    FILE *f = fopen(FLIERD_SOURCE_DIR "/docs/architecture.md", "r");
    assert_non_null(f);
    static char doc[1 << 20];
    size_t n = fread(doc, 1, sizeof doc - 1, f);
    fclose(f);
    doc[n] = '\0';
    const char *table = strstr(doc, "\n## Tile sets not audited");
    assert_non_null(table);
    const char *end = strstr(table + 1, "\n## ");
    int listed = 0, stale = 0, missing = 0;
    for (int i = 0; i < xml.n_sets; i++) {
        char row[96];
        snprintf(row, sizeof row, "\n| `%s` |", xml.sets[i].id);
        const char *at = strstr(table, row);
        bool in_table = at && (!end || at < end);
        bool audited = tile_set_find(xml.sets[i].id) >= 0;
        if (audited && in_table) {
            printf("  %s: audited, yet listed as not audited\n",
                   xml.sets[i].id);
            stale++;
        } else if (!audited && !in_table) {
            printf("  %s (%s): neither audited nor listed in "
                   "docs/architecture.md with the reason\n",
                   xml.sets[i].id, xml.sets[i].file);
            missing++;
        }
        listed += in_table;
    }
    printf("%d sets: %d audited, %d listed as not audited\n", xml.n_sets,
           xml.n_sets - listed, listed);
    fflush(stdout);
    if (stale || missing)
        fail_msg("%d sets neither audited nor listed, %d listed but "
                 "audited (above)", missing, stale);
}

/* Every set we support is in the XMLs with the same tiles, counts and
 * removes. */
static void test_sets_match(void **state)
{
    (void)state;
    struct diffs d = { 0, false };
    for (int s = 0; s < tile_set_count(); s++) {
        const struct tile_set_def *def = tile_set_get(s);
        const struct named *n = find_named(xml.sets, xml.n_sets, def->id);
        if (!n)
            differ(&d, def->id, "no such <tile-set> in the XMLs");
        else
            check_set(def, n->node, &d);
    }
    printf("checked %d sets\n", tile_set_count());
    fail_on(&d, "our sets and JCloisterZone's");
}

static void unmodelled_text(const struct unmodelled *u, char *out,
                            size_t len)
{
    if (!u->attr)
        snprintf(out, len, "<%s>", u->element);
    else if (strcmp(u->element, "*") == 0)
        snprintf(out, len, "<any %s=>", u->attr);
    else
        snprintf(out, len, "<%s %s=>", u->element, u->attr);
}

/* What the supported sets hold that we do not model, and the rest of the
 * list (met only in sets we do not support). */
static void report_unmodelled(void)
{
    char what[48], rest[512] = "";
    size_t n = 0;
    for (size_t i = 0; i < N_OF(unmodelled); i++) {
        const struct unmodelled *u = &unmodelled[i];
        unmodelled_text(u, what, sizeof what);
        if (!unmodelled_seen[i]) {
            if (n < sizeof rest)
                n += (size_t)snprintf(rest + n, sizeof rest - n, "%s%s",
                                      n ? " " : "", what);
            continue;
        }
        printf("%s: %s (%s): %d in the supported sets, first on %s\n",
               u->gap ? "known gap, not modelled"
                      : "not modelled until its expansion is supported",
               what, u->why, unmodelled_seen[i], unmodelled_first[i]);
    }
    printf("listed as not modelled, in no supported set: %s\n", rest);
}

/* Every tile of every set we support has JCloisterZone's features. */
static void test_tiles_match(void **state)
{
    (void)state;
    struct diffs d = { 0, false };
    bool in_set[TILE_KINDS] = { false };
    for (int s = 0; s < tile_set_count(); s++) {
        const struct tile_set_def *def = tile_set_get(s);
        for (int i = 0; i < def->n_refs; i++)
            in_set[def->refs[i].kind] = true;
    }
    int checked = 0;
    for (int k = 0; k < tile_count(); k++) {
        if (!in_set[k])
            continue;
        const struct tile_def *t = tile_get(k);
        const struct named *n = find_named(xml.tiles, xml.n_tiles, t->id);
        if (!n) {
            differ(&d, t->id, "no such <tile> in the XMLs");
            continue;
        }
        check_tile(t, n->node, &d);
        checked++;
    }
    printf("checked %d tile kinds of %d sets\n", checked, tile_set_count());
    report_unmodelled();
    fail_on(&d, "our tiles and JCloisterZone's");
}

/* Every kind we define is played in some set, and JCloisterZone knows it
 * by the same id. */
static void test_every_kind_in_a_set_and_the_xml(void **state)
{
    (void)state;
    struct diffs d = { 0, false };
    int held = 0;
    for (int k = 0; k < tile_count(); k++) {
        const struct tile_def *t = tile_get(k);
        bool in_set = false;
        for (int s = 0; s < tile_set_count() && !in_set; s++) {
            const struct tile_set_def *def = tile_set_get(s);
            for (int i = 0; i < def->n_refs; i++)
                in_set = in_set || def->refs[i].kind == k;
        }
        /* A held tile (the abbey) is never in a pack, and JCloisterZone
         * makes it in code, not in its XMLs: it must be in no set. */
        if (tile_group_rank(t->group) < 0) {
            if (in_set)
                differ(&d, t->id, "held by the players, yet in a set");
            if (find_named(xml.tiles, xml.n_tiles, t->id))
                differ(&d, t->id, "held by the players, yet in the XMLs");
            held++;
            continue;
        }
        if (!in_set)
            differ(&d, t->id, "in no set of ours");
        if (!find_named(xml.tiles, xml.n_tiles, t->id))
            differ(&d, t->id, "no <tile id=\"%s\"> in the XMLs", t->id);
    }
    printf("checked %d tile kinds, %d held by the players\n", tile_count(),
           held);
    fail_on(&d, "tile kinds in no set or not in the XMLs");
}

/* The checker itself: one tile's XML, altered one way at a time. */
static const struct {
    const char *tile;
    const char *xml;
    bool differs;
} checker_cases[] = {
    { "BA/RCr", "<tile id='BA/RCr'><road>W E</road><city>N</city>"
      "<field city='N'>EL WR</field><field>ER SL SR WL</field></tile>",
      false },
    /* segment order and spacing are free */
    { "BA/RCr", "<tile id='BA/RCr'><field> WL SR SL ER </field>"
      "<field city='N'>WR EL</field><city>N</city>"
      "<road>E W</road></tile>", false },
    /* the wagon's move groups are compared, in any order */
    { "TB/CcRR.w", "<tile id='TB/CcRR.w'><city resource='wine' "
      "wagon-move='b a'>N W</city><road wagon-move='a'>S</road>"
      "<road wagon-move='b'>E</road><field city='N'>SR</field>"
      "<field city='N'>SL ER</field><field city='N'>EL</field></tile>",
      false },
    { "TB/CcRR.w", "<tile id='TB/CcRR.w'><city resource='wine' "
      "wagon-move='a'>N W</city><road wagon-move='a'>S</road>"
      "<road wagon-move='b'>E</road><field city='N'>SR</field>"
      "<field city='N'>SL ER</field><field city='N'>EL</field></tile>",
      true },
    { "BA/RCr", "<tile id='BA/RCr'><road>W E</road>"
      "<city wagon-move='a'>N</city><field city='N'>EL WR</field>"
      "<field>ER SL SR WL</field></tile>", true },
    /* a field names any edge of the city it touches */
    { "BA/Ccc", "<tile id='BA/Ccc'><city>N E W</city>"
      "<field city='W'>SL SR</field></tile>", false },
    { "BA/RCr", "<tile id='BA/RCr'><road>W</road><city>N</city>"
      "<field city='N'>EL WR</field><field>ER SL SR WL</field></tile>",
      true },
    { "BA/RCr", "<tile id='BA/RCr'><road>W E</road><city>N</city>"
      "<field>EL WR</field><field>ER SL SR WL</field></tile>", true },
    { "BA/RCr", "<tile id='BA/RCr'><road>W E</road><city>N</city>"
      "<field city='E'>EL WR</field><field>ER SL SR WL</field></tile>",
      true },
    /* an attribute or element nobody listed */
    { "BA/RCr", "<tile id='BA/RCr'><road sheep='1'>W E</road><city>N</city>"
      "<field city='N'>EL WR</field><field>ER SL SR WL</field></tile>",
      true },
    { "BA/RCr", "<tile id='BA/RCr'><road>W E</road><city>N</city>"
      "<field city='N'>EL WR</field><field>ER SL SR WL</field><sheep/>"
      "</tile>", true },
    { "BA/RCr", "<tile id='BA/RCr' flavour='x'><road>W E</road><city>N</city>"
      "<field city='N'>EL WR</field><field>ER SL SR WL</field></tile>",
      true },
    { "BA/CFc+", "<tile id='BA/CFc+'><city>W E</city>"
      "<field city='W'>NL NR</field><field city='W'>SL SR</field></tile>",
      true },
    { "IC/RFr.i", "<tile id='IC/RFr.i'><road>W E</road>"
      "<field>WR NL NR EL</field><field>ER SL SR WL</field></tile>", true },
    { "IC/Cccc.c", "<tile id='IC/Cccc.c'><city>N W S E</city></tile>",
      true },
    { "FL/F.d", "<tile id='FL/F.d'><flying-machine direction='W'/>"
      "<field>NL NR SL SR WL WR EL ER</field></tile>", true },
    { "FL/F.d", "<tile id='FL/F.d'>"
      "<field>NL NR SL SR WL WR EL ER</field></tile>", true },
    { "BA/CCG", "<tile id='BA/CCG'><city>N</city><city>W</city>"
      "<field city='N W'>EL ER SL SR</field></tile>", true },
    { "BA/LR", "<tile id='BA/LR'><road>S</road>"
      "<field>NL NR EL ER SL SR WL WR</field></tile>", true },
    { "RI/s", "<tile id='RI/s'><field>NL NR EL ER SL SR WL WR</field>"
      "<river>E</river></tile>", true },
    { "RI/s", "<tile id='RI/s' group='river-spring'>"
      "<field>NL NR EL ER SL SR WL WR</field><road>E</road></tile>", true },
    { "IC/CCCC", "<tile id='IC/CCCC'><city>N</city><city>W</city>"
      "<city>E</city><city>S</city><field city='N W E S'>I</field></tile>",
      false },
    { "IC/CCCC", "<tile id='IC/CCCC'><city>N</city><city>W</city>"
      "<city>E</city><city>S</city><field city='N W E S'>II</field></tile>",
      true },
    { "IC/RFr.i", "<tile id='IC/RFr.i'><road inn='yes'>W E</road>"
      "<field>WR NL NR EL</field><field>ER SL SR WL</field></tile>", true },
    { "BA/Cccc+", "<tile id='BA/Cccc+'><city pennants='1'>N W S E</city>"
      "</tile>", false },
    { "BA/Cccc+", "<tile id='BA/Cccc+'><city pennants='2'>N W S E</city>"
      "</tile>", true },
};

/* The set checker, the same way: river/2:1 as JCloisterZone has it, then
 * altered. */
#define RIVER2_REFS                                                        \
    "<ref count='1' tile='RI/s'/><ref count='1' tile='RI.2/IFC'/>"         \
    "<ref count='1' tile='RI.2/I.v'/><ref count='1' tile='RI.2/III'/>"     \
    "<ref count='1' tile='RI.2/CIcI'/><ref count='1' tile='RI.2/LIFI'/>"   \
    "<ref count='1' tile='RI.2/RIrI'/><ref count='1' tile='RI.2/CIRI'/>"   \
    "<ref count='1' tile='RI.2/II'/><ref count='1' tile='RI.2/CcII+'/>"    \
    "<ref count='1' tile='RI.2/II+'/>"
static const struct {
    const char *xml;
    bool differs;
} set_cases[] = {
    { "<tile-set id='river/2:1'><remove tile='RI.1/I.e'/>" RIVER2_REFS
      "<ref count='1' tile='RI.2/RrII'/></tile-set>", false },
    /* comments are no elements */
    { "<tile-set id='river/2:1'><remove tile='RI.1/I.e'/>" RIVER2_REFS
      "<!-- --><ref count='1' tile='RI.2/RrII'/></tile-set>", false },
    { "<tile-set id='river/2:1'>" RIVER2_REFS
      "<ref count='1' tile='RI.2/RrII'/></tile-set>", true },
    { "<tile-set id='river/2:1'><remove tile='RI.1/I.e'/>" RIVER2_REFS
      "<ref count='2' tile='RI.2/RrII'/></tile-set>", true },
    { "<tile-set id='river/2:1'><remove tile='RI.1/I.e'/>" RIVER2_REFS
      "</tile-set>", true },
    { "<tile-set id='river/2:1'><remove tile='RI.1/I.e'/>" RIVER2_REFS
      "<ref count='1' tile='RI.2/RrII'/><ref count='1' tile='XX/1'/>"
      "</tile-set>", true },
    { "<tile-set id='river/2:1' shuffle='no'><remove tile='RI.1/I.e'/>"
      RIVER2_REFS "<ref count='1' tile='RI.2/RrII'/></tile-set>", true },
    { "<tile-set id='river/2:1'><remove tile='RI.1/I.e'/>" RIVER2_REFS
      "<ref count='1' tile='RI.2/RrII'/><bonus/></tile-set>", true },
};

static void test_set_checker_catches_differences(void **state)
{
    (void)state;
    const struct tile_set_def *def = tile_set_get(tile_set_find("river/2:1"));
    assert_non_null(def);
    for (size_t i = 0; i < N_OF(set_cases); i++) {
        const char *src = set_cases[i].xml;
        xmlDocPtr doc = xmlReadMemory(src, (int)strlen(src), "case.xml", NULL,
                                      XML_PARSE_NONET);
        assert_non_null(doc);
        struct diffs d = { 0, true };
        check_set(def, xmlDocGetRootElement(doc), &d);
        xmlFreeDoc(doc);
        if ((d.n > 0) != set_cases[i].differs)
            fail_msg("set case %zu: %d differences found, expected %s", i,
                     d.n, set_cases[i].differs ? "some" : "none");
    }
}

static void test_tile_checker_catches_differences(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_OF(checker_cases); i++) {
        const char *src = checker_cases[i].xml;
        xmlDocPtr doc = xmlReadMemory(src, (int)strlen(src), "case.xml", NULL,
                                      XML_PARSE_NONET);
        assert_non_null(doc);
        const struct tile_def *t = tile_get(tile_find(checker_cases[i].tile));
        assert_non_null(t);
        struct diffs d = { 0, true };
        int n = check_tile(t, xmlDocGetRootElement(doc), &d);
        xmlFreeDoc(doc);
        if ((n > 0) != checker_cases[i].differs)
            fail_msg("case %zu (%s): %d differences found, expected %s", i,
                     checker_cases[i].tile, n,
                     checker_cases[i].differs ? "some" : "none");
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_xml_read),
        cmocka_unit_test(test_sets_match),
        cmocka_unit_test(test_every_set_audited_or_listed),
        cmocka_unit_test(test_tiles_match),
        cmocka_unit_test(test_every_kind_in_a_set_and_the_xml),
        cmocka_unit_test(test_tile_checker_catches_differences),
        cmocka_unit_test(test_set_checker_catches_differences),
    };
    return cmocka_run_group_tests(tests, read_xmls, free_xmls);
}
