/* mlog_int.h - shared among src/mlog files only. */
#ifndef MLOG_MLOG_INT_H
#define MLOG_MLOG_INT_H
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "mlog/mlog.h"

/* Is a the string b? Inline: short names compared in place. */
static inline bool mlog_same(const char *a, const char *b)
{
    while (*a && *a == *b)
        a++, b++;
    return *a == *b;
}

/* obj's member key, or NULL (obj NULL or not an object too): what
 * cJSON_GetObjectItemCaseSensitive() answers, without a strcmp call per
 * member passed (a save's readers look up a few short keys in each of
 * its thousands of objects, and the calls were 4% of flierd audit).
 * json_check.c has refused duplicate keys, so the first match is the only
 * one. */
static inline cJSON *mlog_get(const cJSON *obj, const char *key)
{
    if (!obj || !cJSON_IsObject(obj))
        return NULL;
    for (cJSON *c = obj->child; c; c = c->next)
        if (c->string && mlog_same(c->string, key))
            return c;
    return NULL;
}

enum status jcz_read(const cJSON *root, struct game_log *l, struct err *e);
enum status jcz_read_replay(const cJSON *replay, double initial_random,
                            struct game_log *l, struct err *e);
enum status jcz_int(const cJSON *v, const char *path, int lo, int hi,
                    int *out, struct err *e);
/* A number item that cJSON_PrintUnformatted() writes so that it reads
 * back to exactly d (a raw item when cJSON's printer would round). */
cJSON *jcz_number(double d);

/* Appends item as cJSON_PrintUnformatted() would write it, byte for byte,
 * only faster (json_out.c). */
void mlog_json_print(const cJSON *item, struct buf *out);
/* Appends str as a JSON string the same way (quotes, backslash and
 * control characters escaped; every other byte as it is). */
void mlog_json_string(const char *str, struct buf *out);

/* A JSON writer straight into a buffer, for renderers: the bytes
 * cJSON_PrintUnformatted() would give for the same tree, without
 * building one (a node, a key copy and a free per value were most of
 * rendering a report). key is the member's name inside an object, NULL
 * inside an array or at the top. Nesting up to 64 levels. */
struct jw {
    struct buf *out;
    uint64_t more; /* bit d: the container at depth d has an item */
    int depth;
};
void jw_init(struct jw *w, struct buf *out);
void jw_object(struct jw *w, const char *key);
void jw_array(struct jw *w, const char *key);
void jw_end(struct jw *w, char close); /* '}' or ']' */
void jw_int(struct jw *w, const char *key, long long v);
void jw_number(struct jw *w, const char *key, double v);
void jw_string(struct jw *w, const char *key, const char *v); /* NULL: null */
void jw_bool(struct jw *w, const char *key, bool v);
void jw_null(struct jw *w, const char *key);
/* An already written JSON value (text), as it is. */
void jw_raw(struct jw *w, const char *key, const char *json, size_t len);
/* Tile kind t's geometry as the replay's "tiles" give it, under its id. */
void mlog_tile_def_json(struct jw *w, int t);

/* ---- cJSON's allocator (mlog_alloc.c) ---------------------------------- */

/* Until mlog_alloc_parse_end(), this thread's cJSON allocations may fail
 * (fault.h) instead of aborting, and come from an arena that
 * mlog_alloc_parse_end() drops: delete every tree made meanwhile before
 * it. The first call installs the hooks. */
void mlog_alloc_parse_begin(void);
/* Back to aborting on OOM; true when an allocation failed meanwhile. */
bool mlog_alloc_parse_end(void);
/* Allocations of this thread from the heap again, as outside a parse,
 * for what outlives it (the move templates, jcz_move.c); true when it
 * was parsing, which mlog_alloc_resume() restores. */
bool mlog_alloc_pause(void);
void mlog_alloc_resume(bool parsing);
/* Done with tree: one built while parsing goes at mlog_alloc_parse_end(),
 * any other is deleted. */
void mlog_tree_drop(cJSON *tree);

/* ---- hostile input (json_check.c) -------------------------------------- */

/* The checks mlog_parse() runs on data[0..len) before cJSON parses it:
 * UTF-8, strings, nesting, counts and duplicate keys (see mlog.h).
 * ST_PARSE or ST_LIMIT, naming the byte offset, line and column. */
enum status mlog_json_check(const char *data, size_t len, struct err *e);
/* What a byte is inside a JSON string: 0 the quote, the backslash or a
 * control (NUL among them), STR_PLAIN printable ASCII, STR_HIGH a byte
 * of a UTF-8 sequence. Writers copy every non-zero one as it is; the
 * raw check takes STR_PLAIN ones in runs and checks the others. */
enum { STR_PLAIN = 1, STR_HIGH = 2 };
extern const unsigned char mlog_str_byte[256];

/* The quick path. mlog_json_check() reads every byte of the input
 * before cJSON does, and that was a seventh of `flierd audit`. A game
 * log as saves are (smaller than MLOG_MAX_VALUES bytes, so that its tree
 * cannot pass the caps; no backslash, so no escape at all: no \u0000,
 * no surrogate escape, every key's bytes as in the input; valid UTF-8
 * throughout) may go to cJSON first: mlog_json_quick() says whether
 * data is such a log (*ctrl: it has a byte below 0x20, white space or a
 * raw control in a string). Then, when cJSON made one value of all of
 * it, mlog_json_tree_ok() checks the tree for what the raw check would
 * refuse (nesting, counts, duplicate keys, raw controls in strings);
 * whenever either says no, mlog_json_check() judges the bytes as before
 * and names the byte offset. Accepting is never the quick path's alone
 * to decide wrongly: it passes only what the raw check passes. */
bool mlog_json_quick(const char *data, size_t len, bool *ctrl);
bool mlog_json_tree_ok(const cJSON *root, bool ctrl);
/* Replaces each byte of s that is not part of a well-formed UTF-8
 * character with '?' (a message cut mid-character by a "%.40s"). */
void mlog_utf8_scrub(char *s);
/* Does the JSON in p[0..len) stop inside an object, an array or a
 * string? Then the file was cut short, which says more than where cJSON
 * gave up. Only on the error path (it reads the whole input). */
bool mlog_json_ends_open(const char *p, size_t len);
/* ": NaN and Infinity are not JSON" when the syntax error at data[off]
 * is one of those words, else "": for the message of a parse error. */
const char *mlog_json_hint(const char *data, size_t len, size_t off);
/* Copies src into dst[size], cut at a character boundary if too long. */
void mlog_copy_text(char *dst, size_t size, const char *src);
/* dst = a + b, cut to size (a JSON path for messages: "replay[3].payload"
 * + ".position"); built for every message read, so no printf. */
void mlog_path(char *dst, size_t size, const char *a, const char *b);
/* dst = a + "[" + i + "]" + b, cut to size. */
void mlog_path_index(char *dst, size_t size, const char *a, unsigned i,
                     const char *b);
/* Is r a die's random number a log may hold: finite, and giving a roll
 * (mlog_roll_of()) within -MLOG_ROLL_MAX..MLOG_ROLL_MAX? A roll outside
 * 1..3 is the auditor's FLIER_BAD_ROLL; 1e20 or 1e999 is no roll. */
#define MLOG_ROLL_MAX 1000000
bool mlog_random_ok(double r);

/* ---- pieces both formats share ---------------------------------------- */

/* Reads a meeple id "<seat>.<kind>.<n>" into m->meeple, m->meeple_owner
 * (127 for a seat beyond GAME_MAX_PLAYERS) and m->meeple_n (255 for an n
 * no supply holds); path names the id in messages. ST_PARSE when
 * malformed, ST_UNSUPPORTED for another expansion's meeple kind. */
enum status mlog_meeple_id(const char *id, const char *path, struct move *m,
                           struct err *e);
/* JCloisterZone's die: floor(random x 3) + 1 in doubles as written
 * (1000000 for a random beyond reason). */
int mlog_roll_of(double random);
/* The random number our .jcz writer gives a roll when the log keeps none:
 * the middle of the roll's third, (roll - 1) / 3 + 1 / 6. */
double mlog_roll_random(int roll);
/* What a flight move keeps in move.draw: the die's random number when it
 * is in [0, 1), gives `roll` and is not mlog_roll_random(roll); else -1
 * (nothing worth keeping: the writers give that number back). */
double mlog_flight_draw(double random, int roll);

/* ---- flierlog (flierlog.c reads, flierlog_write.c writes) -------------
 * The writer tries the readable form of each turn entry and keeps it only
 * when the reader's own conversion gives back the very moves, so both
 * share the conversion below. */

/* What the entries read so far have done to the board. */
struct fl_ctx {
    const struct game_log *setup; /* rules and names (read only) */
    int line;          /* streaming form: line of the record, else 0 */
    int turns;         /* placements so far: the running turn number */
    uint16_t *grid;    /* BOARD_SPAN^2: tile kind + 1 placed there first */
};

/* setup must outlive c. Allocates the grid and places the start tile. */
void fl_ctx_init(struct fl_ctx *c, const struct game_log *setup);
void fl_ctx_release(struct fl_ctx *c);
/* Counts a placement and records its tile (the first one on a square). */
void fl_ctx_apply(struct fl_ctx *c, const struct move *m);

/* Appends the moves of one turn entry (path "turns[12]", src its index)
 * to into, without changing c. ST_PARSE / ST_UNSUPPORTED with the path. */
enum status fl_entry_moves(const struct fl_ctx *c, const cJSON *entry,
                           const char *path, uint32_t src,
                           struct game_log *into, struct err *e);
/* Where a flight of `roll` from place (an MV_PLACE) lands; false when its
 * tile is unknown or has no flying machine. */
bool fl_flight_target(const struct move *place, int roll, struct pos *out);
/* Monastery or garden of the tile the entries put at p (FEAT_MONASTERY,
 * mask 0 when there is none). */
void fl_recall_segment(const struct fl_ctx *c, struct pos p, uint8_t *kind,
                       uint8_t *mask);
/* The rules an edition ("C2": false, "C3": true) stands for: its sets,
 * figures, switches and the options' defaults (players untouched). */
void fl_edition_rules(bool c3, struct rules *r);
/* A "meeple" name: the figure's meeple id kind ("abbot", "big",
 * "phantom", "small"), or "follower", flierlog/1.0's name for "small";
 * -1 when none. fl_figure_name() is the name the writer gives fig. */
int fl_figure_find(const char *name);
const char *fl_figure_name(int fig);
/* The next key of a move class's flierlog fields at *p (core/move.h,
 * "meeple=abbot.1"): its name in key[], its default after '=' in arg[];
 * false at the end. */
bool fl_next_key(const char **p, char key[16], char arg[16]);
/* A "meeple" key's default ("abbot.1"): the figure and number a move's
 * meeple is unless it says (any follower: FIG_SMALL, 0). */
void fl_meeple_default(const char *arg, int *kind, int *n);
/* Does a flierlog/1.0 reader know figure fig (the follower and the
 * abbot)? Others need flierlog/1.1. */
bool fl_figure_in_1_0(int fig);
/* flierlog/1.0's setup keys that stand for elements ("followers" for
 * "small-follower", ...): the element key for legacy key i, NULL past the
 * last. */
const char *fl_legacy_key(int i, const char **element);
/* The seat a move of this entry defaults to: the entry's player, else
 * the seat on turn after `turns` placements, else -1. */
int fl_default_seat(const struct fl_ctx *c, int player, int turns);

/* Claims, totals and notes as lists with a "turn" each (-1: final): the
 * flierlog's top-level fallback and the .jcz "flierd" object. l receives
 * them; c gives names and the line for messages. src of each is its
 * index in the list. */
enum status fl_read_claim_list(const struct fl_ctx *c, const cJSON *v,
                               const char *path, struct game_log *l,
                               struct err *e);
enum status fl_read_total_list(const struct fl_ctx *c, const cJSON *v,
                               const char *path, struct game_log *l,
                               struct err *e);
enum status fl_read_note_list(const struct fl_ctx *c, const cJSON *v,
                              const char *path, struct game_log *l,
                              struct err *e);
/* Items of those lists, as the writers make them (seats by number). */
cJSON *fl_claim_json(const struct game_log *l, const struct claim_event *c,
                     bool with_turn, bool seats_by_number);
cJSON *fl_scores_json(const struct game_log *l, const struct claim_total *t,
                      bool by_number);
cJSON *fl_note_json(const struct turn_note *n);

/* A flierlog document as one JSON value, or in its streaming form. */
enum status flierlog_read(const cJSON *root, struct game_log *l,
                          struct err *e);
enum status flierlog_read_ndjson(const char *data, size_t len,
                                 struct game_log *l, struct err *e);

/* Appends v as compact JSON with a space after ':' and ',', numbers in
 * the shortest form that reads back exactly. */
void fl_print(const cJSON *v, struct buf *out);

/* ---- moves in a .jcz (jcz_move.c) -------------------------------------
 * Each move class's payload template (core/move.h), parsed once, read and
 * written by one matcher; only the fields' codecs are the format's. */

/* The rows of a message type, or NULL when no unit has one; after
 * jcz_moves_init(). */
struct jcz_type;
const struct jcz_type *jcz_move_type(const char *type);
/* Reads the payload (path "replay[3].payload") of a message of type t
 * into m: the first row of the type whose constants the payload carries.
 * *draw is the random number that draws the next tile: a tile's move
 * takes it, a move of no feature with a random (the COMMIT) sets it.
 * ST_UNSUPPORTED when no row's constants match, naming the first that
 * differs. */
enum status jcz_move_read(const struct jcz_type *t, const cJSON *payload,
                          const char *path, struct move *m, double *draw,
                          struct err *e);
/* The message type of m and its payload, or NULL for a move a save does
 * not record; draw is the random number a move of no feature hands to the
 * next draw (negative: none). */
cJSON *jcz_move_payload(const struct move *m, double draw, const char **type);
/* Parses the templates, if not yet: before a parse's arena, since they
 * outlive it (any thread, any time: once). */
void jcz_moves_init(void);

/* ---- the .jcz "flierd" object (jcz_flierd.c) ---------------------------
 * What a save has no place for: claims, totals, notes, colours, discards,
 * and draws and meeple ids the replay cannot say. */

/* The object for l, given plain: what a reader makes of the save written
 * without it. NULL when there is nothing to add. */
cJSON *jcz_flierd_json(const struct game_log *l, const struct game_log *plain);
/* Applies a save's "flierd" object to the log read from its replay. */
enum status jcz_read_flierd(const cJSON *obj, struct game_log *l,
                            struct err *e);
/* l's moves with every meeple the log leaves open (meeple_n 0) named as
 * the auditor picks it, so that JCloisterZone gets real ids. The caller
 * frees the copy. */
struct move *jcz_named_meeples(const struct game_log *l);

#endif
