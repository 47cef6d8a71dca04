/* json_check.c - what cJSON lets through or handles badly, checked on the
 * raw bytes before it builds a tree.
 *
 * cJSON copies any byte into a string (invalid UTF-8, raw control
 * characters, a NUL that then cuts a C string short), keeps every
 * duplicate key (and its lookups return the first, while other readers
 * keep the last, so a forged save could read one way in JCloisterZone and
 * another here), recurses once per nesting level and allocates a node per
 * value. This pass finds strings and brackets only: the syntax is cJSON's
 * to judge, so on broken JSON it just has to stay in bounds. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlog/mlog_int.h"
#include "util/xalloc.h"

/* One open array or object. */
struct frame {
    uint32_t obj;      /* object serial (from 1); 0 for an array */
    uint32_t items;    /* members or elements so far */
    bool want_key;     /* object: the next string is a key */
    size_t name_at;    /* raw key it hangs under (after its quote), or 0 */
    size_t name_len;   /* 0 at the top level */
    size_t key0;       /* object: its first key in checker.keys */
    bool hashed;       /* object: its keys are in the hash table */
};

/* A key seen in an object: its bytes are in the input or, decoded, in
 * checker.names. The keys of the open objects are a stack, compared one
 * by one; an object past SMALL_OBJECT keys moves to the hash table, so a
 * hostile object of thousands of keys costs no quadratic time. */
#define SMALL_OBJECT 16
struct key_slot {
    uint32_t obj;      /* 0: empty slot */
    uint32_t hash;
    size_t off, len;   /* in names, or with RAW_KEY in the input */
    size_t at;         /* byte offset of the key's opening quote */
};

struct checker {
    const unsigned char *p;
    size_t len;
    struct frame stack[MLOG_MAX_DEPTH];
    int depth;
    uint32_t n_obj;
    size_t values, records;
    size_t last_key_at, last_key_len; /* raw span of the latest key */
    struct buf names;
    struct key_slot *slots;
    size_t n_slots, cap_slots;        /* cap: a power of two, or 0 */
    struct key_slot *keys;            /* the open objects' keys */
    size_t n_keys, cap_keys;
    struct err *e;
};

/* 1-based line and column (in bytes) of offset off. */
static void where(const struct checker *ck, size_t off, int *line, size_t *col)
{
    size_t bol = 0;
    *line = 1;
    for (size_t i = 0; i < off && i < ck->len; i++)
        if (ck->p[i] == '\n') {
            (*line)++;
            bol = i + 1;
        }
    *col = off - bol + 1;
}

/* "what at byte offset N (line L, column C)[: why]" */
static enum status fail_at(struct checker *ck, enum status st, size_t off,
                           const char *what, const char *why)
{
    int line;
    size_t col;
    where(ck, off, &line, &col);
    return err_set(ck->e, st, "%s at byte offset %zu (line %d, column %zu)%s"
                   "%s", what, off, line, col, why[0] ? ": " : "", why);
}

/* ---- UTF-8 (RFC 3629; Unicode 15, table 3-7) ---------------------------- */

/* Length of the well-formed sequence at p[i], or 0 with *why set. */
static size_t utf8_len(const unsigned char *p, size_t n, size_t i,
                       const char **why)
{
    unsigned char c = p[i];
    unsigned char lo = 0x80, hi = 0xBF;
    size_t need;
    if (c < 0x80)
        return 1;
    if (c < 0xC0) {
        *why = "a continuation byte with no lead byte";
        return 0;
    }
    if (c < 0xC2 || c > 0xF4) {
        *why = c < 0xC2 ? "an overlong encoding (0xC0, 0xC1)"
                        : "a byte that never appears in UTF-8 (0xF5..0xFF)";
        return 0;
    }
    need = c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    if (c == 0xE0)
        lo = 0xA0;  /* below: overlong */
    else if (c == 0xED)
        hi = 0x9F;  /* above: UTF-16 surrogates */
    else if (c == 0xF0)
        lo = 0x90;  /* below: overlong */
    else if (c == 0xF4)
        hi = 0x8F;  /* above: beyond U+10FFFF */
    for (size_t k = 1; k < need; k++) {
        unsigned char b = i + k < n ? p[i + k] : 0;
        if (i + k >= n || b < 0x80 || b > 0xBF) {
            *why = "a sequence cut short";
            return 0;
        }
        if (k == 1 && (b < lo || b > hi)) {
            *why = c == 0xED   ? "a UTF-16 surrogate (U+D800..U+DFFF)"
                   : c == 0xF4 ? "a code point beyond U+10FFFF"
                               : "an overlong encoding";
            return 0;
        }
    }
    return need;
}

static enum status bad_utf8(struct checker *ck, size_t off, const char *why)
{
    char what[64];
    snprintf(what, sizeof what, "invalid UTF-8 (byte 0x%02X)", ck->p[off]);
    return fail_at(ck, ST_PARSE, off, what, why);
}

void mlog_utf8_scrub(char *s)
{
    size_t n = strlen(s);
    const char *why = NULL;
    for (size_t i = 0; i < n;) {
        size_t k = utf8_len((const unsigned char *)s, n, i, &why);
        if (k == 0) {
            s[i++] = '?';
            continue;
        }
        i += k;
    }
}

void mlog_copy_text(char *dst, size_t size, const char *src)
{
    size_t n = strlen(src);
    if (size == 0)
        return;
    if (n >= size) {
        n = size - 1;
        /* back off to a character boundary: never half a character */
        while (n > 0 && ((unsigned char)src[n] & 0xC0) == 0x80)
            n--;
    }
    memcpy(dst, src, n);
    dst[n] = '\0';
}

void mlog_path(char *dst, size_t size, const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b);
    if (size == 0)
        return;
    if (na >= size)
        na = size - 1;
    if (nb >= size - na)
        nb = size - 1 - na;
    memcpy(dst, a, na);
    memcpy(dst + na, b, nb);
    dst[na + nb] = '\0';
}

void mlog_path_index(char *dst, size_t size, const char *a, unsigned i,
                     const char *b)
{
    /* built for every message of a save: one pass, no strlen of dst */
    char num[16], *p = num + sizeof num;
    size_t n = 0;
    *--p = ']';
    do {
        *--p = (char)('0' + i % 10);
        i /= 10;
    } while (i);
    *--p = '[';
    if (size == 0)
        return;
    for (const char *part[3] = { a, p, b }, **q = part; q < part + 3; q++) {
        size_t k = q == part + 1 ? (size_t)(num + sizeof num - p) : strlen(*q);
        if (k > size - 1 - n)
            k = size - 1 - n;
        memcpy(dst + n, *q, k);
        n += k;
    }
    dst[n] = '\0';
}

/* ---- duplicate keys ----------------------------------------------------- */

/* A key with no escape is compared where it stands in the input; only
 * one with an escape is decoded (into names) first. */
#define RAW_KEY ((size_t)1 << (sizeof(size_t) * 8 - 1))

static const char *key_bytes(const struct checker *ck, size_t off)
{
    if (off & RAW_KEY)
        return (const char *)ck->p + (off & ~RAW_KEY);
    return ck->names.p ? ck->names.p + off : "";
}

static uint32_t key_hash(uint32_t obj, const char *s, size_t n)
{
    uint32_t h = 2166136261u ^ obj; /* FNV-1a */
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h ? h : 1;
}

static void slots_grow(struct checker *ck)
{
    size_t cap = ck->cap_slots ? ck->cap_slots * 2 : 64;
    struct key_slot *t = xcalloc(cap, sizeof *t);
    for (size_t i = 0; i < ck->cap_slots; i++) {
        struct key_slot *s = &ck->slots[i];
        size_t j = s->hash & (cap - 1);
        if (!s->obj)
            continue;
        while (t[j].obj)
            j = (j + 1) & (cap - 1);
        t[j] = *s;
    }
    free(ck->slots);
    ck->slots = t;
    ck->cap_slots = cap;
}

static enum status duplicate(struct checker *ck, const char *k, size_t len,
                             size_t first, size_t at)
{
    char what[160], why[96];
    snprintf(what, sizeof what, "duplicate key \"%.*s\"%s",
             (int)(len > 60 ? 60 : len), k, len > 60 ? "..." : "");
    snprintf(why, sizeof why, "first at byte offset %zu; JSON readers "
             "disagree on which one counts", first);
    return fail_at(ck, ST_PARSE, at, what, why);
}

/* The hash table's check and insertion of key (obj, k); ST_PARSE if the
 * object has it already. */
static enum status hash_add(struct checker *ck, const struct key_slot *key)
{
    const char *k = key_bytes(ck, key->off);
    uint32_t h = key_hash(key->obj, k, key->len);
    if (2 * (ck->n_slots + 1) > ck->cap_slots)
        slots_grow(ck);
    size_t j = h & (ck->cap_slots - 1);
    for (; ck->slots[j].obj; j = (j + 1) & (ck->cap_slots - 1)) {
        const struct key_slot *s = &ck->slots[j];
        if (s->obj == key->obj && s->hash == h && s->len == key->len &&
            (key->len == 0 || memcmp(key_bytes(ck, s->off), k, key->len) == 0))
            return duplicate(ck, k, key->len, s->at, key->at);
    }
    ck->slots[j] = *key;
    ck->slots[j].hash = h;
    ck->n_slots++;
    return ST_OK;
}

/* Records key k (len bytes at off: see key_bytes()) of the object of
 * frame f (the key's quote at byte at); ST_PARSE if it has it already. */
static enum status key_add(struct checker *ck, struct frame *f, size_t off,
                           size_t len, size_t at)
{
    if (f->hashed) {
        struct key_slot key = { f->obj, 0, off, len, at };
        return hash_add(ck, &key);
    }
    const char *k = key_bytes(ck, off);
    for (size_t i = f->key0; i < ck->n_keys; i++) {
        const struct key_slot *s = &ck->keys[i];
        const char *o = key_bytes(ck, s->off);
        if (s->len == len &&
            (len == 0 || (o[0] == k[0] && memcmp(o, k, len) == 0)))
            return duplicate(ck, k, len, s->at, at);
    }
    if (ck->n_keys - f->key0 < SMALL_OBJECT) {
        if (ck->n_keys == ck->cap_keys)
            xgrow((void **)&ck->keys, &ck->cap_keys, ck->n_keys + 1,
                  sizeof *ck->keys);
        /* field by field: a struct built on the stack and copied stalled
         * on store forwarding, half of this function's time */
        struct key_slot *s = &ck->keys[ck->n_keys++];
        s->obj = f->obj;
        s->hash = 0;
        s->off = off;
        s->len = len;
        s->at = at;
        return ST_OK;
    }
    for (size_t i = f->key0; i < ck->n_keys; i++)
        (void)hash_add(ck, &ck->keys[i]); /* distinct: checked above */
    ck->n_keys = f->key0;
    f->hashed = true;
    struct key_slot key = { f->obj, 0, off, len, at };
    return hash_add(ck, &key);
}

/* ---- strings ------------------------------------------------------------ */

static int hex4(const unsigned char *p, size_t n, size_t i)
{
    int v = 0;
    if (i + 4 > n)
        return -1;
    for (size_t k = i; k < i + 4; k++) {
        int d = p[k] >= '0' && p[k] <= '9'   ? p[k] - '0'
                : p[k] >= 'a' && p[k] <= 'f' ? p[k] - 'a' + 10
                : p[k] >= 'A' && p[k] <= 'F' ? p[k] - 'A' + 10
                                             : -1;
        if (d < 0)
            return -1;
        v = v * 16 + d;
    }
    return v;
}

static void put_utf8(struct buf *b, unsigned long cp)
{
    char u[4];
    size_t n;
    if (cp < 0x80) {
        u[0] = (char)cp;
        n = 1;
    } else if (cp < 0x800) {
        u[0] = (char)(0xC0 | (cp >> 6));
        u[1] = (char)(0x80 | (cp & 0x3F));
        n = 2;
    } else if (cp < 0x10000) {
        u[0] = (char)(0xE0 | (cp >> 12));
        u[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        u[2] = (char)(0x80 | (cp & 0x3F));
        n = 3;
    } else {
        u[0] = (char)(0xF0 | (cp >> 18));
        u[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
        u[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
        u[3] = (char)(0x80 | (cp & 0x3F));
        n = 4;
    }
    buf_append(b, u, n);
}

/* A \uXXXX escape at p[*i] (the backslash): no NUL, no lone surrogate.
 * Appends the character to out (if any) and moves *i past it. An escape
 * that is not four hex digits is cJSON's syntax error, not ours. */
static enum status read_uhex(struct checker *ck, size_t *i, struct buf *out)
{
    size_t at = *i;
    int cp = hex4(ck->p, ck->len, at + 2);
    if (cp < 0) {
        *i += 2;
        return ST_OK;
    }
    *i += 6;
    if (cp == 0)
        return fail_at(ck, ST_PARSE, at, "\\u0000 in a string", "a name or "
                       "id cannot hold a NUL character");
    if (cp >= 0xDC00 && cp <= 0xDFFF)
        return fail_at(ck, ST_PARSE, at, "a lone UTF-16 surrogate escape",
                       "a low surrogate with no high one before it");
    if (cp >= 0xD800 && cp <= 0xDBFF) {
        int lo = *i + 1 < ck->len && ck->p[*i] == '\\' && ck->p[*i + 1] == 'u'
                     ? hex4(ck->p, ck->len, *i + 2)
                     : -1;
        if (lo < 0xDC00 || lo > 0xDFFF)
            return fail_at(ck, ST_PARSE, at, "a lone UTF-16 surrogate escape",
                           "a high surrogate with no low one after it");
        *i += 6;
        if (out)
            put_utf8(out, 0x10000 + (((unsigned long)cp - 0xD800) << 10) +
                              ((unsigned long)lo - 0xDC00));
        return ST_OK;
    }
    if (out)
        put_utf8(out, (unsigned long)cp);
    return ST_OK;
}

/* One escape at p[*i] (the backslash), decoded into out (if any). */
static enum status escape(struct checker *ck, size_t *i, struct buf *out)
{
    static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
    if (*i + 1 >= ck->len) {
        *i = ck->len;
        return ST_OK;
    }
    if (ck->p[*i + 1] == 'u')
        return read_uhex(ck, i, out);
    const char *f = strchr(from, ck->p[*i + 1]);
    if (out && f && *f)
        buf_append(out, &to[f - from], 1);
    *i += 2;
    return ST_OK;
}

/* What a byte is inside a JSON string (mlog_int.h). */
#define P16(v) v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v
const unsigned char mlog_str_byte[256] = {
    P16(0), P16(0),                                  /* controls */
    1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,  /* ' ' .. '/': '"' */
    P16(1), P16(1),                                  /* '0' .. 'O' */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1,  /* 'P' .. '_': '\\' */
    P16(1), P16(1),                                  /* '`' .. DEL */
    P16(2), P16(2), P16(2), P16(2),                  /* 0x80 .. 0xFF */
    P16(2), P16(2), P16(2), P16(2),
};
#undef P16

/* The bytes of the 8 at p that are not plain, as their high bits (0: all
 * plain). Tested a word at a time: most of a save is short ASCII
 * strings, and a byte at a time through the table was a sixth of the
 * check. A byte is not plain when it is a quote or a backslash (XOR to
 * zero), below 0x20, or at or above 0x80 ("has a byte less than n", a
 * classic bit trick: only bytes above a true one can be flagged falsely,
 * so the lowest flag is exact). */
static inline uint64_t special8(const unsigned char *p)
{
    const uint64_t ones = 0x0101010101010101u, high = 0x8080808080808080u;
    uint64_t w, q, b;
    memcpy(&w, p, sizeof w);
    q = w ^ (ones * '"');
    b = w ^ (ones * '\\');
    return (((q - ones) & ~q) | ((b - ones) & ~b) | ((w - ones * 0x20) & ~w) |
            w) & high;
}

/* The offset of the first byte at or after j that is not plain (len if
 * none). Little-endian: the lowest flag is the first byte. */
static inline size_t plain_run(const unsigned char *p, size_t len, size_t j)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    for (; j + 8 <= len; j += 8) {
        uint64_t m = special8(p + j);
        if (m)
            return j + ((size_t)__builtin_ctzll(m) >> 3);
    }
#endif
    while (j < len && mlog_str_byte[p[j]] == STR_PLAIN)
        j++;
    return j;
}

/* The string whose quote is at p[*i]: UTF-8, no raw control character
 * (RFC 8259 wants them escaped), sane escapes; decoded into out (if any);
 * *escaped set when it holds an escape. Leaves *i after the closing quote
 * (or at the end: cJSON reports it). */
static enum status string(struct checker *ck, size_t *i, struct buf *out,
                          bool *escaped)
{
    size_t j = *i + 1;
    for (;;) {
        size_t run = plain_run(ck->p, ck->len, j);
        if (out && run > j)
            buf_append(out, (const char *)ck->p + j, run - j);
        j = run;
        if (j >= ck->len)
            break;
        unsigned char c = ck->p[j];
        enum status st = ST_OK;
        const char *why = "";
        size_t k = 1;
        if (c == '"')
            break;
        if (c == '\\') {
            *escaped = true;
            st = escape(ck, &j, out);
            if (st)
                return st;
            continue;
        }
        if (c < 0x20) {
            char what[64];
            snprintf(what, sizeof what, "control character 0x%02X in a "
                     "string", c);
            return fail_at(ck, ST_PARSE, j, what, "JSON wants it escaped");
        }
        k = utf8_len(ck->p, ck->len, j, &why); /* c >= 0x80 */
        if (k == 0)
            return bad_utf8(ck, j, why);
        if (out)
            buf_append(out, (const char *)ck->p + j, k);
        j += k;
    }
    *i = j < ck->len ? j + 1 : j;
    return ST_OK;
}

/* ---- structure ---------------------------------------------------------- */

/* "\"replay\"" (the key a container hangs under), or "the top level". */
static void frame_name(const struct checker *ck, const struct frame *f,
                       char *out, size_t size)
{
    if (!f->name_len)
        snprintf(out, size, "the top level");
    else
        snprintf(out, size, "\"%.*s\"", (int)(f->name_len < 60 ? f->name_len
                                                               : 60),
                 (const char *)ck->p + f->name_at);
}

/* The error of count_item(): kept out of line, so that counting stays a
 * few instructions. */
static enum status too_many(struct checker *ck, size_t at)
{
    char what[160], name[72];
    if (ck->depth == 0) {
        snprintf(what, sizeof what, "more than %d lines (top-level JSON "
                 "values)", MLOG_MAX_ITEMS);
    } else {
        const struct frame *top = &ck->stack[ck->depth - 1];
        frame_name(ck, top, name, sizeof name);
        snprintf(what, sizeof what, "more than %d %s in %s", MLOG_MAX_ITEMS,
                 top->obj ? "members" : "items", name);
    }
    return fail_at(ck, ST_LIMIT, at, what, "a game log has a few hundred "
                   "messages");
}

/* One more member or element of the innermost container (or one more
 * value at the top level: a line of a streaming log). */
static inline enum status count_item(struct checker *ck, size_t at)
{
    size_t n = ck->depth > 0 ? ++ck->stack[ck->depth - 1].items
                             : ++ck->records;
    return n <= MLOG_MAX_ITEMS ? ST_OK : too_many(ck, at);
}

static enum status too_many_values(struct checker *ck, size_t at)
{
    char what[64];
    snprintf(what, sizeof what, "more than %d JSON values", MLOG_MAX_VALUES);
    return fail_at(ck, ST_LIMIT, at, what, "a game log has a few thousand");
}

/* A value starts at byte at: count it. */
static inline enum status value_at(struct checker *ck, size_t at)
{
    if (++ck->values > MLOG_MAX_VALUES)
        return too_many_values(ck, at);
    /* an object's members are counted by their keys */
    if (ck->depth > 0 && ck->stack[ck->depth - 1].obj)
        return ST_OK;
    return count_item(ck, at);
}

static enum status open_container(struct checker *ck, size_t at, bool obj)
{
    enum status st = value_at(ck, at);
    if (st)
        return st;
    if (ck->depth == MLOG_MAX_DEPTH) {
        char what[64];
        snprintf(what, sizeof what, "JSON nested deeper than %d levels",
                 MLOG_MAX_DEPTH);
        return fail_at(ck, ST_PARSE, at, what, "a game log needs fewer than "
                       "ten");
    }
    struct frame *f = &ck->stack[ck->depth++];
    bool in_obj = ck->depth > 1 && f[-1].obj;
    bool in_arr = ck->depth > 1 && !f[-1].obj;
    *f = (struct frame){ 0 };
    f->obj = obj ? ++ck->n_obj : 0;
    f->want_key = obj;
    f->key0 = ck->n_keys;
    if (in_obj) { /* named by its key */
        f->name_at = ck->last_key_at;
        f->name_len = ck->last_key_len;
    } else if (in_arr) { /* an array's item: by the array's name */
        f->name_at = f[-1].name_at;
        f->name_len = f[-1].name_len;
    }
    return ST_OK;
}

/* A string at p[*i]: a key (checked for duplicates) or a value. */
static enum status string_at(struct checker *ck, size_t *i)
{
    struct frame *top = ck->depth > 0 ? &ck->stack[ck->depth - 1] : NULL;
    size_t at = *i, off = ck->names.len;
    enum status st;
    bool escaped = false;
    if (!top || !top->obj || !top->want_key) {
        st = value_at(ck, at);
        return st ? st : string(ck, i, NULL, &escaped);
    }
    top->want_key = false;
    st = count_item(ck, at);
    if (!st)
        st = string(ck, i, NULL, &escaped);
    if (!st) {
        size_t raw = at + 1, n = *i > raw ? *i - raw - 1 : 0;
        if (!escaped) {
            st = key_add(ck, top, raw | RAW_KEY, n, at);
        } else {
            size_t j = at;
            st = string(ck, &j, &ck->names, &escaped);
            if (!st)
                st = key_add(ck, top, off, ck->names.len - off, at);
        }
    }
    ck->last_key_at = at + 1;
    ck->last_key_len = *i > at + 1 ? *i - at - 2 : 0;
    return st;
}

/* What a byte outside strings starts. A dense table: switching on the
 * bytes themselves compiled to a chain of comparisons. */
enum byte_class {
    B_OTHER = 0, /* a syntax error, or a non-ASCII byte: cJSON's to judge */
    B_SCALAR,    /* a number or literal: 0-9 a-z A-Z . + - */
    B_SKIP,      /* whitespace and the colon */
    B_COMMA,
    B_OBJECT,
    B_ARRAY,
    B_CLOSE,
    B_QUOTE,
};
#define R10(c) [c] = B_SCALAR, [c + 1] = B_SCALAR, [c + 2] = B_SCALAR,        \
               [c + 3] = B_SCALAR, [c + 4] = B_SCALAR, [c + 5] = B_SCALAR,    \
               [c + 6] = B_SCALAR, [c + 7] = B_SCALAR, [c + 8] = B_SCALAR,    \
               [c + 9] = B_SCALAR
#define R26(c) R10(c), R10(c + 10), [c + 20] = B_SCALAR, [c + 21] = B_SCALAR, \
               [c + 22] = B_SCALAR, [c + 23] = B_SCALAR, [c + 24] = B_SCALAR, \
               [c + 25] = B_SCALAR
static const unsigned char byte_class[256] = {
    ['\t'] = B_SKIP, ['\n'] = B_SKIP, ['\r'] = B_SKIP, [' '] = B_SKIP,
    [':'] = B_SKIP, [','] = B_COMMA, ['{'] = B_OBJECT, ['['] = B_ARRAY,
    ['}'] = B_CLOSE, [']'] = B_CLOSE, ['"'] = B_QUOTE,
    ['.'] = B_SCALAR, ['+'] = B_SCALAR, ['-'] = B_SCALAR,
    R10('0'), R26('a'), R26('A'),
};
#undef R10
#undef R26

/* A number, literal or stray bytes at p[*i] (class B_SCALAR or B_OTHER):
 * one value, unless it goes on from the scalar before (was). */
static enum status scalar_at(struct checker *ck, size_t *i, bool was)
{
    size_t at = *i;
    if (ck->p[*i] >= 0x80) {
        const char *why = "";
        size_t k = utf8_len(ck->p, ck->len, *i, &why);
        if (k == 0)
            return bad_utf8(ck, *i, why);
        *i += k - 1;
    }
    (*i)++;
    /* the rest of a number or literal at once: one value */
    while (*i < ck->len && byte_class[ck->p[*i]] == B_SCALAR)
        (*i)++;
    return was ? ST_OK : value_at(ck, at);
}

enum status mlog_json_check(const char *data, size_t len, struct err *e)
{
    struct checker ck;
    enum status st = ST_OK;
    bool scalar = false; /* the previous byte was part of a scalar */
    memset(&ck, 0, sizeof ck);
    ck.p = (const unsigned char *)data;
    ck.len = len;
    ck.e = e;
    for (size_t i = 0; i < len && st == ST_OK;) {
        bool was = scalar;
        scalar = false;
        switch (byte_class[ck.p[i]]) {
        case B_SKIP:
            i++;
            break;
        case B_COMMA:
            if (ck.depth > 0 && ck.stack[ck.depth - 1].obj)
                ck.stack[ck.depth - 1].want_key = true;
            i++;
            break;
        case B_OBJECT:
        case B_ARRAY:
            i++;
            st = open_container(&ck, i - 1, ck.p[i - 1] == '{');
            break;
        case B_CLOSE:
            if (ck.depth > 0) /* a stray one is cJSON's to report */
                ck.n_keys = ck.stack[--ck.depth].key0;
            i++;
            break;
        case B_QUOTE:
            st = string_at(&ck, &i);
            break;
        default:
            scalar = true;
            st = scalar_at(&ck, &i, was);
        }
    }
    buf_release(&ck.names);
    free(ck.slots);
    free(ck.keys);
    return st;
}

/* ---- the quick path: checking the tree instead -------------------------- */

bool mlog_json_quick(const char *data, size_t len, bool *ctrl)
{
    const uint64_t ones = 0x0101010101010101u, high = 0x8080808080808080u;
    const unsigned char *p = (const unsigned char *)data;
    bool c = false;
    size_t i = 0;
    /* one value takes a byte at least: below MLOG_MAX_VALUES bytes, the
     * tree cannot pass the cap, so cJSON may build it first */
    /* a NUL would end cJSON's copy of a string before the walk saw it */
    if (len >= MLOG_MAX_VALUES || memchr(data, '\\', len) ||
        memchr(data, '\0', len))
        return false;
    /* white space after the value is no control in a string (a save ends
     * with a newline): ctrl looks before it only */
    while (len > 0 && (p[len - 1] == '\n' || p[len - 1] == '\r' ||
                       p[len - 1] == '\t' || p[len - 1] == ' '))
        len--;
    while (i < len) {
        /* 32 bytes a turn while all are ASCII */
        while (i + 32 <= len) {
            uint64_t w[4];
            memcpy(w, p + i, sizeof w);
            if ((w[0] | w[1] | w[2] | w[3]) & high)
                break;
            c |= ((((w[0] - ones * 0x20) & ~w[0]) |
                  ((w[1] - ones * 0x20) & ~w[1]) |
                  ((w[2] - ones * 0x20) & ~w[2]) |
                  ((w[3] - ones * 0x20) & ~w[3])) & high) != 0;
            i += 32;
        }
        if (i >= len) /* the turns above took the last bytes */
            break;
        if (i + 8 <= len) {
            uint64_t w;
            memcpy(&w, p + i, sizeof w);
            if (!(w & high)) { /* eight ASCII bytes */
                c |= ((w - ones * 0x20) & ~w & high) != 0;
                i += 8;
                continue;
            }
        }
        if (p[i] < 0x80) {
            c |= p[i] < 0x20;
            i++;
            continue;
        }
        const char *why = "";
        size_t k = utf8_len(p, len, i, &why);
        if (k == 0)
            return false;
        i += k;
    }
    *ctrl = c;
    return true;
}

static bool has_control(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20)
            return true;
    return false;
}

/* The walk of mlog_json_tree_ok() below container v at nesting depth
 * (the top one is 1, as in the raw check). cJSON's type tests are calls
 * into the library: the walk reads the type itself. */
static bool tree_ok(const cJSON *v, int depth, bool ctrl)
{
    bool obj = (v->type & 0xFF) == cJSON_Object;
    size_t n = 0;
    if (depth > MLOG_MAX_DEPTH)
        return false;
    for (const cJSON *c = v->child; c; c = c->next) {
        int type = c->type & 0xFF;
        if (++n > MLOG_MAX_ITEMS)
            return false;
        if (obj) {
            /* pairs compared: a big object is the raw check's (it
             * hashes them) */
            if (!c->string || n > 4 * SMALL_OBJECT ||
                (ctrl && has_control(c->string)))
                return false;
            for (const cJSON *d = v->child; d != c; d = d->next)
                if (d->string[0] == c->string[0] &&
                    strcmp(d->string, c->string) == 0)
                    return false;
        }
        if (type == cJSON_String) {
            if (ctrl && has_control(c->valuestring))
                return false;
        } else if (type == cJSON_Array || type == cJSON_Object) {
            if (!tree_ok(c, depth + 1, ctrl))
                return false;
        }
    }
    return true;
}

bool mlog_json_tree_ok(const cJSON *root, bool ctrl)
{
    if (!root)
        return false;
    switch (root->type & 0xFF) {
    case cJSON_String:
        return !ctrl || !has_control(root->valuestring);
    case cJSON_Array:
    case cJSON_Object:
        return tree_ok(root, 1, ctrl);
    default:
        return true;
    }
}

const char *mlog_json_hint(const char *data, size_t len, size_t off)
{
    /* the spellings of JavaScript and Python's json module */
    static const char *const words[] = { "NaN", "Infinity", "-Infinity" };
    for (size_t w = 0; w < sizeof words / sizeof *words; w++) {
        size_t n = strlen(words[w]);
        /* cJSON stops at the word, or at the sign before it */
        for (size_t at = off > 0 ? off - 1 : 0; at <= off; at++)
            if (at + n <= len && memcmp(data + at, words[w], n) == 0)
                return ": NaN and Infinity are not JSON numbers";
    }
    return "";
}
