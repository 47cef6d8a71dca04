/* replay_cache.h - rendered replays kept in memory, bounded in bytes.
 *
 * A replay is rendered from the stored upload on request (parse, audit,
 * replay, print: about a millisecond of CPU); the dashboard asks for the
 * same few games again and again. Entries are keyed by game id and the
 * SHA-256 of the upload they were rendered from (a live game's upload
 * changes with each move, so a changed game simply misses), and hold
 * this engine's rendering only (the cache lives and dies with the
 * process). The least recently used entry goes first. Thread-safe. */
#ifndef HTTP_REPLAY_CACHE_H
#define HTTP_REPLAY_CACHE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/buf.h"
#include "util/sha256.h"

struct replay_cache;

struct replay_cache_stats {
    unsigned long long hits, misses, evictions;
    size_t bytes, entries, max_bytes;
};

/* max_bytes 0: a cache that keeps nothing (every lookup misses). */
struct replay_cache *replay_cache_new(size_t max_bytes);
void replay_cache_free(struct replay_cache *c);
/* Appends the replay of (id, sha) to out: true on a hit. */
bool replay_cache_get(struct replay_cache *c, int64_t id,
                      const char sha[SHA256_HEX_LEN], struct buf *out);
/* Keeps a copy of data[0..len) for (id, sha), replacing an older
 * rendering of id; one larger than an eighth of the cache is not kept. */
void replay_cache_put(struct replay_cache *c, int64_t id,
                      const char sha[SHA256_HEX_LEN], const char *data,
                      size_t len);
void replay_cache_stats(struct replay_cache *c,
                        struct replay_cache_stats *out);

#endif
