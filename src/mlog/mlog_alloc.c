/* mlog_alloc.c - cJSON's allocator.
 *
 * Left to itself cJSON returns NULL when malloc fails: a parse then looks
 * like a syntax error, and a writer silently drops the items it could not
 * create. With these hooks a parse that runs out of memory is reported as
 * out of memory (fault.h: the caller answers "try again"), and anything
 * else cJSON allocates (the writers, whose inputs are size-capped before)
 * aborts like xmalloc.
 *
 * While parsing, nodes come from a per-thread arena of big chunks and a
 * tree is dropped with the arena, not node by node: a tree is built, read
 * once and dropped whole, and malloc/free per node (and cJSON_Delete's
 * walk) were a fifth of parsing. (Reports are written without a tree:
 * json_out.c's writer.) */
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

#include "mlog/mlog_int.h"
#include "util/fault.h"
#include "util/xalloc.h"

#define CHUNK_MIN (64u << 10)
#define ALIGN 16u

/* A chunk of the arena; the payload follows the header. */
struct chunk {
    struct chunk *prev;
    size_t size; /* payload bytes */
};

/* Per thread: the daemon parses on several at once. */
enum mode { OFF, PARSING };
static _Thread_local enum mode mode;
static _Thread_local bool parse_oom;
static _Thread_local struct chunk *chunks; /* newest first */
static _Thread_local char *cur, *end;

static void *arena_alloc(size_t n)
{
    n = (n + ALIGN - 1) & ~(size_t)(ALIGN - 1);
    if (n > (size_t)(end - cur) || !cur) {
        size_t size = n > CHUNK_MIN ? n : CHUNK_MIN;
        struct chunk *c = fmalloc(sizeof(struct chunk) + ALIGN + size);
        if (!c)
            return NULL;
        c->prev = chunks;
        c->size = size;
        chunks = c;
        cur = (char *)c + ((sizeof *c + ALIGN - 1) & ~(size_t)(ALIGN - 1));
        end = cur + size;
    }
    void *p = cur;
    cur += n;
    return p;
}

static bool in_arena(const void *p)
{
    for (const struct chunk *c = chunks; c; c = c->prev)
        if ((const char *)p > (const char *)c &&
            (const char *)p < (const char *)c + sizeof *c + ALIGN + c->size)
            return true;
    return false;
}

/* Under AddressSanitizer every node keeps its own allocation, so that a
 * fuzzer still catches a use after free in the tree's readers. */
#if defined(__SANITIZE_ADDRESS__)
#define USE_ARENA 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define USE_ARENA 0
#endif
#endif
#ifndef USE_ARENA
#define USE_ARENA 1
#endif

static void *hook_malloc(size_t n)
{
    if (mode == OFF)
        return xmalloc(n);
    void *p = USE_ARENA ? arena_alloc(n) : fmalloc(n);
    if (!p)
        parse_oom = true;
    return p;
}

static void hook_free(void *p)
{
    if (p && !(mode != OFF && in_arena(p)))
        free(p);
}

static void install(void)
{
    cJSON_Hooks h = { hook_malloc, hook_free };
    cJSON_InitHooks(&h);
}

static void arena_begin(enum mode m)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, install);
    mode = m;
    parse_oom = false;
}

static void arena_end(void)
{
    mode = OFF;
    while (chunks) {
        struct chunk *c = chunks;
        chunks = c->prev;
        free(c);
    }
    cur = end = NULL;
}

void mlog_alloc_parse_begin(void)
{
    arena_begin(PARSING);
}

bool mlog_alloc_parse_end(void)
{
    arena_end();
    return parse_oom;
}

void mlog_tree_drop(cJSON *tree)
{
    if (mode == PARSING && USE_ARENA)
        return; /* mlog_alloc_parse_end() drops it with the rest */
    cJSON_Delete(tree);
}

bool mlog_alloc_pause(void)
{
    bool parsing = mode == PARSING;
    mode = OFF;
    return parsing;
}

void mlog_alloc_resume(bool parsing)
{
    mode = parsing ? PARSING : OFF;
}
