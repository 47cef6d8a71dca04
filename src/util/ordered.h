/* ordered.h - many items prepared on worker threads, consumed in order.
 *
 * Workers take the next index and prepare it into a slot of a ring; the
 * caller's thread consumes slot after slot in index order. What the
 * consumer sees (order, content) is what a one-thread loop would give, so
 * output stays byte-identical whatever the number of threads; the ring
 * bounds the memory held. */
#ifndef UTIL_ORDERED_H
#define UTIL_ORDERED_H
#include <stdbool.h>
#include <stddef.h>

#define ORDERED_MAX_THREADS 64

struct ordered_work {
    size_t n;         /* items 0 .. n-1 */
    size_t slot_size; /* bytes of one slot; slots start zeroed and are
                         reused: prepare fills one, consume empties it */
    void *ctx;
    /* On a worker thread (or the caller's when threads <= 1). */
    void (*prepare)(void *ctx, size_t i, void *slot);
    /* On the caller's thread, in index order. */
    void (*consume)(void *ctx, size_t i, void *slot);
    /* Optional: after the last item, each slot once (frees what slots
       keep between items, e.g. buffers kept for reuse). */
    void (*release)(void *ctx, void *slot);
    /* The caller's thread prepares items too, whenever the next one in
       order is not ready, and threads counts it: -j 2 is one worker and
       the caller. When consuming is cheap (writing text out) a caller
       that only consumed woke up once per item and took a core from a
       worker each time: a tenth of `flierd audit -j 2`. */
    bool caller_helps;
};

/* Runs w with `threads` worker threads (0 or less: none, the caller's
 * thread prepares and consumes in turn) and `per_thread` slots each in
 * the ring (at least 1). */
void ordered_run(const struct ordered_work *w, int threads,
                 size_t per_thread);

/* The number of processors online, at least 1 (the -j default). */
int ordered_cpus(void);

#endif
