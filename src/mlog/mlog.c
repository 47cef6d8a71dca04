/* mlog.c - format detection, parsing entry point and the JSON report. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "mlog/mlog_int.h"
#include "util/gunzip.h"

const char *mlog_format_name(enum mlog_format f)
{
    switch (f) {
    case MLOG_JCZ: return "jcz";
    case MLOG_FLIERLOG: return "flierlog";
    default: return "unknown";
    }
}

/* 1-based line and column of byte offset off, for people. */
static void line_col(const char *data, size_t off, int *line, int *col)
{
    *line = 1;
    *col = 1;
    for (size_t i = 0; i < off; i++) {
        if (data[i] == '\n') {
            (*line)++;
            *col = 1;
        } else {
            (*col)++;
        }
    }
}

/* The input once mlog_json_check() has passed it, or (quick) one that
 * mlog_json_quick() lets cJSON read first (mlog_int.h). */
bool mlog_json_ends_open(const char *p, size_t len)
{
    uint64_t arrays = 0; /* bit per level: an array, else an object */
    int depth = 0;
    bool in_str = false;
    for (size_t i = 0; i < len; i++) {
        char c = p[i];
        if (in_str) {
            if (c == '\\')
                i++;
            else if (c == '"')
                in_str = false;
        } else if (c == '"') {
            in_str = true;
        } else if (c == '{' || c == '[') {
            if (depth == 64)
                return false; /* deeper than any log: not ours to say */
            arrays = (arrays & ~(1ull << depth)) |
                     (uint64_t)(c == '[') << depth;
            depth++;
        } else if (c == '}' || c == ']') {
            /* a stray or mismatched closer: broken, not cut short */
            if (depth == 0 || (bool)(arrays >> (depth - 1) & 1) != (c == ']'))
                return false;
            depth--;
        }
    }
    return in_str || depth > 0;
}

static enum status parse_json(const char *data, size_t len, bool quick,
                              bool ctrl, struct game_log *out,
                              enum mlog_format *out_format, struct err *e)
{
    const char *end = NULL;
    cJSON *root;
    enum status st;

    root = cJSON_ParseWithLengthOpts(data, len, &end, 0);
    if (root && end) { /* one JSON value, then only white space */
        while (end < data + len &&
               (*end == ' ' || *end == '\t' || *end == '\n' || *end == '\r'))
            end++;
    }
    /* not one whole value whose tree passes: the bytes decide, first */
    if (quick && !(root && end == data + len &&
                   mlog_json_tree_ok(root, ctrl))) {
        st = mlog_json_check(data, len, e);
        if (st != ST_OK) {
            if (root)
                mlog_tree_drop(root);
            return st;
        }
    }
    if (root && end) {
        /* a flierlog header followed by more lines: the streaming form */
        if (end < data + len && cJSON_IsObject(root) &&
            mlog_get(root, "format") &&
            !mlog_get(root, "turns") &&
            !mlog_get(root, "final")) {
            mlog_tree_drop(root);
            *out_format = MLOG_FLIERLOG;
            return flierlog_read_ndjson(data, len, out, e);
        }
        if (end < data + len) {
            mlog_tree_drop(root);
            root = NULL;
        }
    }
    if (!root) {
        size_t off = end && end >= data ? (size_t)(end - data) : 0;
        int line, col;
        line_col(data, off, &line, &col);
        if (mlog_json_ends_open(data, len))
            return err_set(e, ST_PARSE, "the file ends early at byte %zu "
                           "(line %d): its JSON stops before it is complete; "
                           "was it cut short, or saved while still being "
                           "written?", len, line);
        return err_set(e, ST_PARSE, "not valid JSON at byte offset %zu "
                       "(line %d, column %d)%s", off, line, col,
                       mlog_json_hint(data, len, off));
    }
    if (!cJSON_IsObject(root)) {
        st = err_set(e, ST_PARSE, "$: expected a JSON object (a .jcz save "
                     "or a flierlog)");
    } else if (mlog_get(root, "format")) {
        *out_format = MLOG_FLIERLOG;
        st = flierlog_read(root, out, e);
    } else if (mlog_get(root, "replay")) {
        *out_format = MLOG_JCZ;
        st = jcz_read(root, out, e);
    } else {
        st = err_set(e, ST_PARSE, "$: neither a .jcz save (no \"replay\") nor "
                     "a flierlog (no \"format\")");
    }
    mlog_tree_drop(root);
    return st;
}

static enum status parse_plain(const char *data, size_t len,
                               struct game_log *out,
                               enum mlog_format *out_format, struct err *e)
{
    enum status st;

    *out_format = MLOG_UNKNOWN;
    if (len > MLOG_MAX_BYTES)
        return err_set(e, ST_LIMIT, "%zu bytes is more than the %u a game log "
                       "may have", len, MLOG_MAX_BYTES);
    if (len == 0)
        return err_set(e, ST_PARSE, "empty input");
    bool ctrl = true, quick = mlog_json_quick(data, len, &ctrl);
    st = quick ? ST_OK : mlog_json_check(data, len, e);
    if (st == ST_OK) {
        jcz_moves_init(); /* what outlives the parse's arena, before it */
        mlog_alloc_parse_begin();
        st = parse_json(data, len, quick, ctrl, out, out_format, e);
        if (mlog_alloc_parse_end()) /* whatever cJSON made of it */
            st = err_set(e, ST_NOMEM, "out of memory parsing the %zu bytes "
                         "of the log; try again", len);
    }
    /* before the audit, the heavy part, which this bounds */
    if (st == ST_OK && out->n_moves > MLOG_MAX_ITEMS)
        st = err_set(e, ST_LIMIT, "%zu moves is more than the %d a game log "
                     "may hold (a real game has a few hundred)", out->n_moves,
                     MLOG_MAX_ITEMS);
    /* messages quote the input cut to a few bytes, maybe mid-character */
    if (st != ST_OK && e)
        mlog_utf8_scrub(e->msg);
    return st;
}

enum status mlog_turn_number(const char *line, size_t len, int *out_turn,
                             struct err *e)
{
    const char *end = NULL;
    *out_turn = -1;
    if (len > MLOG_MAX_BYTES)
        return err_set(e, ST_LIMIT, "a turn entry of %zu bytes is more than "
                       "the %u a game log may have", len, MLOG_MAX_BYTES);
    enum status st = mlog_json_check(line, len, e);
    if (st != ST_OK)
        return st;
    mlog_alloc_parse_begin();
    cJSON *root = cJSON_ParseWithLengthOpts(line, len, &end, 0);
    const cJSON *t = cJSON_IsObject(root) ? mlog_get(root, "turn") : NULL;
    if (!root)
        st = err_set(e, ST_PARSE, "a turn entry is not valid JSON");
    else if (!cJSON_IsObject(root))
        st = err_set(e, ST_PARSE, "a turn entry is a JSON object");
    else if (t && (!cJSON_IsNumber(t) || t->valuedouble < 1 ||
                   t->valuedouble > 100000 ||
                   t->valuedouble != (double)(int)t->valuedouble))
        st = err_set(e, ST_PARSE, "turn: expected a turn number (1, 2, ...)");
    else if (t)
        *out_turn = (int)t->valuedouble;
    mlog_tree_drop(root);
    if (mlog_alloc_parse_end())
        st = err_set(e, ST_NOMEM, "out of memory reading a turn entry; try "
                     "again");
    return st;
}

/* A save kept gzip-compressed (game.jcz.gz, as people keep and mail
 * them) is read as what it holds; its messages say that their byte
 * offsets are the decompressed log's. */
enum status mlog_parse(const char *data, size_t len, struct game_log *out,
                       enum mlog_format *out_format, struct err *e)
{
    struct buf plain = BUF_INIT;
    enum status st;
    if (!gunzip_is(data, len))
        return parse_plain(data, len, out, out_format, e);
    *out_format = MLOG_UNKNOWN;
    st = gunzip(data, len, MLOG_MAX_BYTES, &plain, e);
    if (st == ST_OK)
        st = parse_plain(plain.p ? plain.p : "", plain.len, out, out_format,
                         e);
    if (st != ST_OK && e && strncmp(e->msg, "the compressed", 14) != 0) {
        static const char pre[] = "in the gzip-compressed log: ";
        size_t k = sizeof pre - 1, n = strlen(e->msg);
        if (n + k >= sizeof e->msg)
            n = sizeof e->msg - 1 - k;
        memmove(e->msg + k, e->msg, n);
        memcpy(e->msg, pre, k);
        e->msg[k + n] = '\0';
    }
    buf_release(&plain);
    return st;
}
