#include "util/buf.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/fault.h"
#include "util/xalloc.h"

static void reserve(struct buf *b, size_t extra)
{
    xgrow((void **)&b->p, &b->cap, b->len + extra + 1, 1);
}

char *buf_space(struct buf *b, size_t extra)
{
    reserve(b, extra);
    return b->p + b->len;
}

void buf_append_slow(struct buf *b, const char *s, size_t len)
{
    reserve(b, len);
    memcpy(b->p + b->len, s, len);
    b->len += len;
    b->p[b->len] = '\0';
}

bool buf_try_append(struct buf *b, const char *s, size_t len)
{
    size_t need = b->len + len + 1;
    if (need <= len)
        return false;
    if (need > b->cap) {
        size_t cap = b->cap ? b->cap : 16;
        while (cap < need)
            cap = cap <= SIZE_MAX / 2 ? cap * 2 : need;
        char *p = frealloc(b->p, cap);
        if (!p)
            return false;
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->len, s, len);
    b->len += len;
    b->p[b->len] = '\0';
    return true;
}

void buf_puts(struct buf *b, const char *s)
{
    buf_append(b, s, strlen(s));
}

void buf_printf(struct buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n <= 0)
        return;
    reserve(b, (size_t)n);
    va_start(ap, fmt);
    vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

void buf_release(struct buf *b)
{
    free(b->p);
    b->p = NULL;
    b->len = b->cap = 0;
}

/* Length of the valid UTF-8 sequence at s (1..4), or 0 if invalid. */
static size_t utf8_len(const unsigned char *s)
{
    unsigned c = s[0];
    size_t n;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF)
        n = 2;
    else if (c >= 0xE0 && c <= 0xEF)
        n = 3;
    else if (c >= 0xF0 && c <= 0xF4)
        n = 4;
    else
        return 0;
    for (size_t i = 1; i < n; i++)
        if ((s[i] & 0xC0) != 0x80)
            return 0;
    if (n == 3 && ((c == 0xE0 && s[1] < 0xA0) || (c == 0xED && s[1] >= 0xA0)))
        return 0; /* overlong, or a UTF-16 surrogate */
    if (n == 4 && ((c == 0xF0 && s[1] < 0x90) || (c == 0xF4 && s[1] >= 0x90)))
        return 0;
    return n;
}

void buf_json_string(struct buf *b, const char *s)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    buf_append(b, "\"", 1);
    while (*p) {
        size_t n = utf8_len(p);
        if (n == 0) { /* not UTF-8: the replacement character */
            buf_puts(b, "\\ufffd");
            p++;
        } else if (*p == '"' || *p == '\\') {
            char esc[2] = { '\\', (char)*p };
            buf_append(b, esc, 2);
            p++;
        } else if (*p < 0x20) {
            switch (*p) {
            case '\n': buf_puts(b, "\\n"); break;
            case '\r': buf_puts(b, "\\r"); break;
            case '\t': buf_puts(b, "\\t"); break;
            default: buf_printf(b, "\\u%04x", *p); break;
            }
            p++;
        } else {
            buf_append(b, (const char *)p, n);
            p += n;
        }
    }
    buf_append(b, "\"", 1);
}

bool buf_is_utf8(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        size_t n = utf8_len(p);
        if (n == 0)
            return false;
        p += n;
    }
    return true;
}
