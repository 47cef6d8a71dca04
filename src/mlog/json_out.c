/* json_out.c - a cJSON tree to text, byte for byte what
 * cJSON_PrintUnformatted() writes, without its cost.
 *
 * cJSON prints every number as "%1.15g" and reads it back
 * with sscanf to check the round trip, and grows its output by
 * reallocating: on a replay or an audit (thousands of small integers)
 * that was two thirds of rendering, and rendering was most of serving a
 * replay. Integers, nearly all our numbers, take a short path here; the
 * rest follow cJSON's own rules, so the output does not change. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlog/mlog_int.h"

/* What "%1.15g" makes of an integer below 1e15 in magnitude: its digits
 * (the sign of -0 included). */
static void put_int(struct buf *out, double d)
{
    char tmp[24];
    int n = 0;
    bool neg = signbit(d);
    uint64_t u = (uint64_t)(neg ? -d : d);
    do {
        tmp[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (neg)
        tmp[n++] = '-';
    char rev[24];
    for (int i = 0; i < n; i++)
        rev[i] = tmp[n - 1 - i];
    buf_append(out, rev, (size_t)n);
}

/* cJSON 1.7.15's compare_double(): its round-trip test is relative. */
static bool close_enough(double a, double b)
{
    double max = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
    return fabs(a - b) <= max * DBL_EPSILON;
}

/* cJSON 1.7.15's print_number(), with integers made cheap. */
static void put_double(struct buf *out, double d)
{
    char s[26];
    double back = 0;
    if (isnan(d) || isinf(d)) {
        buf_append(out, "null", 4);
    } else if (fabs(d) < 1e15 && d == floor(d)) {
        put_int(out, d);
    } else {
        snprintf(s, sizeof s, "%1.15g", d);
        if (sscanf(s, "%lg", &back) != 1 || !close_enough(back, d))
            snprintf(s, sizeof s, "%1.17g", d);
        buf_puts(out, s);
    }
}

static void put_number(struct buf *out, const cJSON *item)
{
    put_double(out, item->valuedouble);
}


/* cJSON's print_string_ptr(): quotes, backslash and controls escaped,
 * every other byte (UTF-8 included) as it is. */
void mlog_json_string(const char *str, struct buf *out)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *p = (const unsigned char *)(str ? str : "");
    buf_append(out, "\"", 1);
    for (;;) {
        const unsigned char *run = p;
        while (mlog_str_byte[*p]) /* stops at the NUL too */
            p++;
        buf_append(out, (const char *)run, (size_t)(p - run));
        if (*p == '\0')
            break;
        char esc[6] = { '\\', 0, 0, 0, 0, 0 };
        size_t n = 2;
        switch (*p) {
        case '"': esc[1] = '"'; break;
        case '\\': esc[1] = '\\'; break;
        case '\b': esc[1] = 'b'; break;
        case '\f': esc[1] = 'f'; break;
        case '\n': esc[1] = 'n'; break;
        case '\r': esc[1] = 'r'; break;
        case '\t': esc[1] = 't'; break;
        default:
            memcpy(esc + 1, "u00", 3);
            esc[4] = hex[*p >> 4];
            esc[5] = hex[*p & 15];
            n = 6;
        }
        buf_append(out, esc, n);
        p++;
    }
    buf_append(out, "\"", 1);
}

static void put_value(struct buf *out, const cJSON *item);

static void put_children(struct buf *out, const cJSON *item, bool object)
{
    buf_append(out, object ? "{" : "[", 1);
    for (const cJSON *c = item->child; c; c = c->next) {
        if (object) {
            mlog_json_string(c->string, out);
            buf_append(out, ":", 1);
        }
        put_value(out, c);
        if (c->next)
            buf_append(out, ",", 1);
    }
    buf_append(out, object ? "}" : "]", 1);
}

static void put_value(struct buf *out, const cJSON *item)
{
    switch (item->type & 0xff) {
    case cJSON_NULL: buf_append(out, "null", 4); break;
    case cJSON_False: buf_append(out, "false", 5); break;
    case cJSON_True: buf_append(out, "true", 4); break;
    case cJSON_Number: put_number(out, item); break;
    case cJSON_Raw: buf_puts(out, item->valuestring ? item->valuestring : "");
        break;
    case cJSON_String: mlog_json_string(item->valuestring, out); break;
    case cJSON_Array: put_children(out, item, false); break;
    case cJSON_Object: put_children(out, item, true); break;
    default: break; /* cJSON_Invalid: cJSON prints nothing either */
    }
}

void mlog_json_print(const cJSON *item, struct buf *out)
{
    if (item)
        put_value(out, item);
}

/* ---- the writer --------------------------------------------------------- */

void jw_init(struct jw *w, struct buf *out)
{
    w->out = out;
    w->more = 0;
    w->depth = 0;
}

/* The comma before an item and its key, if any. */
static void item(struct jw *w, const char *key)
{
    uint64_t bit = (uint64_t)1 << (w->depth & 63);
    if (w->depth > 0) {
        if (w->more & bit)
            buf_append(w->out, ",", 1);
        w->more |= bit;
    }
    if (key) {
        /* a key of ours ("valid", "turn") needs no escape: written with
         * its quotes and colon in one append (keys were a tenth of
         * rendering); another (from the input) takes the escaping path */
        size_t n = 0;
        while (mlog_str_byte[(unsigned char)key[n]])
            n++;
        if (key[n] == '\0') {
            /* straight into the buffer: a key put together on the stack
             * and copied stalled on store forwarding */
            char *at = w->out->cap - w->out->len > n + 3
                           ? w->out->p + w->out->len
                           : buf_space(w->out, n + 3);
            at[0] = '"';
            memcpy(at + 1, key, n);
            at[n + 1] = '"';
            at[n + 2] = ':';
            at[n + 3] = '\0';
            w->out->len += n + 3;
        } else {
            mlog_json_string(key, w->out);
            buf_append(w->out, ":", 1);
        }
    }
}

static void open_container(struct jw *w, const char *key, const char *c)
{
    item(w, key);
    buf_append(w->out, c, 1);
    w->depth++;
    w->more &= ~((uint64_t)1 << (w->depth & 63));
}

void jw_object(struct jw *w, const char *key)
{
    open_container(w, key, "{");
}

void jw_array(struct jw *w, const char *key)
{
    open_container(w, key, "[");
}

void jw_end(struct jw *w, char close)
{
    buf_append(w->out, &close, 1);
    w->depth -= w->depth > 0;
}

void jw_int(struct jw *w, const char *key, long long v)
{
    char tmp[24], *p = tmp + sizeof tmp;
    unsigned long long u = v < 0 ? 0ull - (unsigned long long)v
                                 : (unsigned long long)v;
    item(w, key);
    do {
        *--p = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        *--p = '-';
    buf_append(w->out, p, (size_t)(tmp + sizeof tmp - p));
}

void jw_number(struct jw *w, const char *key, double v)
{
    item(w, key);
    put_double(w->out, v);
}

void jw_string(struct jw *w, const char *key, const char *v)
{
    item(w, key);
    if (v)
        mlog_json_string(v, w->out);
    else
        buf_append(w->out, "null", 4);
}

void jw_bool(struct jw *w, const char *key, bool v)
{
    item(w, key);
    buf_append(w->out, v ? "true" : "false", v ? 4 : 5);
}

void jw_null(struct jw *w, const char *key)
{
    item(w, key);
    buf_append(w->out, "null", 4);
}

void jw_raw(struct jw *w, const char *key, const char *json, size_t len)
{
    item(w, key);
    buf_append(w->out, json, len);
}
