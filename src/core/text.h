/* text.h - bounded sentence building for receipts (receipt.c and the
 * units' explain hooks).
 *
 * A receipt is written for every score event of every audit report, and
 * snprintf's format parsing was most of the cost of a report; the parts
 * are put together piece by piece instead. Like snprintf, a text that
 * does not fit is cut, and out stays a terminated string. */
#ifndef CORE_TEXT_H
#define CORE_TEXT_H
#include <stddef.h>
#include <string.h>

struct text {
    char *out;
    size_t len; /* size of out */
    size_t n;   /* bytes written, at most len - 1 */
};

/* An empty text in out[len]. */
static inline struct text text_at(char *out, size_t len)
{
    struct text t = { out, len, 0 };
    if (len)
        out[0] = '\0';
    return t;
}

static inline void text_put(struct text *t, const char *s)
{
    size_t k = strlen(s);
    if (t->len == 0)
        return;
    if (k > t->len - 1 - t->n)
        k = t->len - 1 - t->n;
    memcpy(t->out + t->n, s, k);
    t->n += k;
    t->out[t->n] = '\0';
}

static inline void text_int(struct text *t, int v)
{
    char num[16], *p = num + sizeof num;
    unsigned u = v < 0 ? 0u - (unsigned)v : (unsigned)v;
    *--p = '\0';
    do {
        *--p = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        *--p = '-';
    text_put(t, p);
}

/* "(x,y)", a square as every receipt writes it. */
static inline void text_square(struct text *t, int x, int y)
{
    text_put(t, "(");
    text_int(t, x);
    text_put(t, ",");
    text_int(t, y);
    text_put(t, ")");
}

#endif
