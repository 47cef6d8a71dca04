/* buf.h - growable byte buffer for building text. */
#ifndef UTIL_BUF_H
#define UTIL_BUF_H
#include <stddef.h>
#include "util/err.h"

struct buf {
    char *p;     /* always NUL-terminated once anything was added */
    size_t len;
    size_t cap;
};

#define BUF_INIT { NULL, 0, 0 }

void buf_append(struct buf *b, const char *s, size_t len);
void buf_puts(struct buf *b, const char *s);
void buf_printf(struct buf *b, const char *fmt, ...) PRINTF_LIKE(2, 3);
/* Frees the storage; b is empty and reusable afterwards. */
void buf_release(struct buf *b);

#endif
