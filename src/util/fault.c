#include "util/fault.h"

#include <stdatomic.h>
#include <stdlib.h>

static atomic_bool active;  /* a test called fault_start() */
static atomic_long counted; /* fallible allocations since then */
static atomic_long fail_at; /* the one to fail (1-based); 0 none */

bool fault_hit(void)
{
    if (!atomic_load_explicit(&active, memory_order_relaxed))
        return false;
    long k = atomic_fetch_add(&counted, 1) + 1;
    return k == atomic_load(&fail_at);
}

void *fmalloc(size_t n)
{
    return fault_hit() ? NULL : malloc(n ? n : 1);
}

void *frealloc(void *p, size_t n)
{
    return fault_hit() ? NULL : realloc(p, n ? n : 1);
}

void fault_start(long n)
{
    atomic_store(&active, false);
    atomic_store(&counted, 0);
    atomic_store(&fail_at, n);
    atomic_store(&active, true);
}

long fault_stop(void)
{
    atomic_store(&active, false);
    atomic_store(&fail_at, 0);
    return atomic_load(&counted);
}
