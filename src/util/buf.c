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

void buf_append(struct buf *b, const char *s, size_t len)
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
