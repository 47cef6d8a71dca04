/* replay_cache.c - an LRU of rendered replays (replay_cache.h).
 *
 * Entries sit in a doubly linked list, most recently used first, and in
 * an open-addressing table by game id (one entry per game: a newer
 * rendering replaces the old). A lookup copies the bytes out under the
 * lock: a replay is tens of kilobytes, a copy microseconds. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "http/replay_cache.h"
#include "util/xalloc.h"

struct entry {
    int64_t id;
    char sha[SHA256_HEX_LEN];
    char *data;
    size_t len;
    struct entry *prev, *next; /* LRU list */
};

struct replay_cache {
    pthread_mutex_t mu;
    size_t max_bytes, bytes, entries;
    unsigned long long hits, misses, evictions;
    struct entry *head, *tail; /* most and least recently used */
    struct entry **table;      /* NULL or entry; TOMB after a removal */
    size_t cap;                /* a power of two */
    size_t used;               /* slots not NULL (tombstones included) */
};

static struct entry tomb_entry;
#define TOMB (&tomb_entry)

static size_t slot_of(int64_t id, size_t cap)
{
    uint64_t h = (uint64_t)id * 0x9E3779B97F4A7C15u;
    return (size_t)(h >> 20) & (cap - 1);
}

/* The slot holding id, or the slot where it would go (*found false). */
static size_t find(const struct replay_cache *c, int64_t id, bool *found)
{
    size_t j = slot_of(id, c->cap), free_at = (size_t)-1;
    for (;; j = (j + 1) & (c->cap - 1)) {
        struct entry *e = c->table[j];
        if (!e) {
            *found = false;
            return free_at != (size_t)-1 ? free_at : j;
        }
        if (e == TOMB) {
            if (free_at == (size_t)-1)
                free_at = j;
        } else if (e->id == id) {
            *found = true;
            return j;
        }
    }
}

static void rehash(struct replay_cache *c, size_t cap)
{
    struct entry **old = c->table;
    size_t old_cap = c->cap;
    c->table = xcalloc(cap, sizeof *c->table);
    c->cap = cap;
    c->used = 0;
    for (size_t i = 0; i < old_cap; i++)
        if (old[i] && old[i] != TOMB) {
            bool found;
            c->table[find(c, old[i]->id, &found)] = old[i];
            c->used++;
        }
    free(old);
}

static void unlink_lru(struct replay_cache *c, struct entry *e)
{
    if (e->prev)
        e->prev->next = e->next;
    else
        c->head = e->next;
    if (e->next)
        e->next->prev = e->prev;
    else
        c->tail = e->prev;
    e->prev = e->next = NULL;
}

static void push_front(struct replay_cache *c, struct entry *e)
{
    e->prev = NULL;
    e->next = c->head;
    if (c->head)
        c->head->prev = e;
    c->head = e;
    if (!c->tail)
        c->tail = e;
}

static void drop(struct replay_cache *c, struct entry *e)
{
    bool found;
    size_t j = find(c, e->id, &found);
    if (found)
        c->table[j] = TOMB;
    unlink_lru(c, e);
    c->bytes -= e->len;
    c->entries--;
    free(e->data);
    free(e);
}

struct replay_cache *replay_cache_new(size_t max_bytes)
{
    struct replay_cache *c = xcalloc(1, sizeof *c);
    pthread_mutex_init(&c->mu, NULL);
    c->max_bytes = max_bytes;
    c->cap = 64;
    c->table = xcalloc(c->cap, sizeof *c->table);
    return c;
}

void replay_cache_free(struct replay_cache *c)
{
    if (!c)
        return;
    while (c->head)
        drop(c, c->head);
    free(c->table);
    pthread_mutex_destroy(&c->mu);
    free(c);
}

bool replay_cache_get(struct replay_cache *c, int64_t id,
                      const char sha[SHA256_HEX_LEN], struct buf *out)
{
    bool found, hit = false;
    pthread_mutex_lock(&c->mu);
    size_t j = find(c, id, &found);
    if (found && strcmp(c->table[j]->sha, sha) == 0) {
        struct entry *e = c->table[j];
        unlink_lru(c, e);
        push_front(c, e);
        buf_append(out, e->data, e->len);
        hit = true;
    }
    if (hit)
        c->hits++;
    else
        c->misses++;
    pthread_mutex_unlock(&c->mu);
    return hit;
}

void replay_cache_put(struct replay_cache *c, int64_t id,
                      const char sha[SHA256_HEX_LEN], const char *data,
                      size_t len)
{
    if (len == 0 || len > c->max_bytes / 8)
        return;
    struct entry *e = xcalloc(1, sizeof *e);
    e->id = id;
    memcpy(e->sha, sha, SHA256_HEX_LEN);
    e->sha[SHA256_HEX_LEN - 1] = '\0';
    e->data = xmalloc(len);
    memcpy(e->data, data, len);
    e->len = len;
    pthread_mutex_lock(&c->mu);
    bool found;
    size_t j = find(c, id, &found);
    if (found)
        drop(c, c->table[j]);
    while (c->bytes + len > c->max_bytes && c->tail) {
        drop(c, c->tail);
        c->evictions++;
    }
    if (2 * (c->used + 1) > c->cap)
        rehash(c, 2 * (c->entries + 1) > c->cap / 2 ? c->cap * 2 : c->cap);
    j = find(c, id, &found);
    if (!c->table[j])
        c->used++;
    c->table[j] = e;
    push_front(c, e);
    c->bytes += len;
    c->entries++;
    pthread_mutex_unlock(&c->mu);
}

void replay_cache_stats(struct replay_cache *c,
                        struct replay_cache_stats *out)
{
    pthread_mutex_lock(&c->mu);
    out->hits = c->hits;
    out->misses = c->misses;
    out->evictions = c->evictions;
    out->bytes = c->bytes;
    out->entries = c->entries;
    out->max_bytes = c->max_bytes;
    pthread_mutex_unlock(&c->mu);
}
