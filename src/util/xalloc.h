/* xalloc.h - allocation that never returns NULL.
 *
 * Out of memory is not an input error we can report sensibly, so these
 * print one line and abort (Redis's zmalloc model). */
#ifndef UTIL_XALLOC_H
#define UTIL_XALLOC_H
#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

/* Grows *p (an array of elem-sized items with capacity *cap) so that it can
 * hold at least need items; doubles to keep appends amortised O(1). */
void xgrow(void **p, size_t *cap, size_t need, size_t elem);

/* For commands that read many files one after another (audit, ingest):
 * keep freed memory in the process for the next file. glibc otherwise
 * maps each big parse buffer afresh and gives the memory back after every
 * file, and the page faults and unmaps of that were a tenth of
 * `flierd audit` (more with threads, which contend for the address
 * space). Peak memory stays that of the largest file per thread. */
void xalloc_keep_freed(void);

#endif
