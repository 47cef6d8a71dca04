/* mlog_alloc.c - cJSON's allocator.
 *
 * Left to itself cJSON returns NULL when malloc fails: a parse then looks
 * like a syntax error, and a writer silently drops the items it could not
 * create. With these hooks a parse that runs out of memory is reported as
 * out of memory (fault.h: the caller answers "try again"), and anything
 * else cJSON allocates (the writers, whose inputs are size-capped before)
 * aborts like xmalloc. */
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

#include "mlog/mlog_int.h"
#include "util/fault.h"
#include "util/xalloc.h"

/* Per thread: the daemon parses on several at once. */
static _Thread_local bool parsing;
static _Thread_local bool parse_oom;

static void *hook_malloc(size_t n)
{
    if (!parsing)
        return xmalloc(n);
    void *p = fmalloc(n);
    if (!p)
        parse_oom = true;
    return p;
}

static void install(void)
{
    cJSON_Hooks h = { hook_malloc, free };
    cJSON_InitHooks(&h);
}

void mlog_alloc_parse_begin(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, install);
    parsing = true;
    parse_oom = false;
}

bool mlog_alloc_parse_end(void)
{
    parsing = false;
    return parse_oom;
}
