/* buf.h - growable byte buffer for building text. */
#ifndef UTIL_BUF_H
#define UTIL_BUF_H
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include "util/err.h"

struct buf {
    char *p;     /* always NUL-terminated once anything was added */
    size_t len;
    size_t cap;
};

#define BUF_INIT { NULL, 0, 0 }

void buf_append_slow(struct buf *b, const char *s, size_t len);
/* Inline while it fits: renderers append a few bytes at a time, and the
 * call was a tenth of printing a report. */
static inline void buf_append(struct buf *b, const char *s, size_t len)
{
    if (b->cap - b->len > len) {
        memcpy(b->p + b->len, s, len);
        b->len += len;
        b->p[b->len] = '\0';
    } else {
        buf_append_slow(b, s, len);
    }
}
/* The same, but out of memory is the caller's to answer (fault.h): false
 * and b unchanged when the buffer cannot grow. */
bool buf_try_append(struct buf *b, const char *s, size_t len) WARN_UNUSED;
/* Room for extra more bytes (and the NUL) after b->len, to be filled in
 * place (a read() straight into the buffer); the caller then adds what
 * it wrote to b->len and terminates it. */
char *buf_space(struct buf *b, size_t extra);
void buf_puts(struct buf *b, const char *s);
void buf_printf(struct buf *b, const char *fmt, ...) PRINTF_LIKE(2, 3);
/* Appends s as a JSON string literal: quotes included, UTF-8 passed
 * through, control characters escaped, bytes that are not UTF-8 replaced
 * by U+FFFD (so the text stays valid JSON whatever s holds). */
void buf_json_string(struct buf *b, const char *s);
/* Is s valid UTF-8 throughout (no overlong forms, no surrogates), so that
 * buf_json_string() replaces none of it? */
bool buf_is_utf8(const char *s);
/* Frees the storage; b is empty and reusable afterwards. */
void buf_release(struct buf *b);

#endif
