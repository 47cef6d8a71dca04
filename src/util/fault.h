/* fault.h - fallible allocation, and the counter tests fail it through.
 *
 * flierd allocates with xmalloc, which aborts on OOM (inputs are
 * size-capped before they get far). Where running out of memory can be
 * answered instead -- the upload body, cJSON's parse tree -- fmalloc and
 * frealloc return NULL, and the caller refuses the request with "out of
 * memory, try again" (ST_NOMEM). Every fallible allocation passes
 * fault_hit(), so a test can make the Nth one fail (beanstalkd's failure
 * injection); tests may route other allocators through it too (SQLite's,
 * with sqlite3_config). Unless a test started it, fault_hit() is one
 * relaxed atomic load. */
#ifndef UTIL_FAULT_H
#define UTIL_FAULT_H
#include <stdbool.h>
#include <stddef.h>

/* malloc / realloc that may fail (NULL, p left as it was). */
void *fmalloc(size_t n);
void *frealloc(void *p, size_t n);

/* Counts one fallible allocation; true when it is the one to fail. */
bool fault_hit(void);

/* Starts counting fallible allocations from 0 (any thread); the nth one
 * fails, and only that one (n = 0: none fails, the run is counted). */
void fault_start(long n);
/* Stops counting and failing; returns the allocations counted. */
long fault_stop(void);

#endif
