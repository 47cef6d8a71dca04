/* ordered.c - the ordered worker ring (ordered.h). */
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/ordered.h"
#include "util/xalloc.h"

struct ring {
    const struct ordered_work *w;
    unsigned char *slots;
    size_t *index; /* item a slot holds, valid while ready */
    bool *ready;
    size_t n_ring;
    size_t next;     /* the next index a worker takes */
    size_t consumed; /* items the caller is done with */
    bool stop;
    pthread_mutex_t mu;
    pthread_cond_t filled, freed;
};

static void *slot_at(struct ring *r, size_t k)
{
    return r->slots + k * r->w->slot_size;
}

static void *worker(void *arg)
{
    struct ring *r = arg;
    pthread_mutex_lock(&r->mu);
    for (;;) {
        while (!r->stop && r->next < r->w->n &&
               r->next >= r->consumed + r->n_ring)
            pthread_cond_wait(&r->freed, &r->mu);
        if (r->stop || r->next >= r->w->n)
            break;
        size_t i = r->next++, k = i % r->n_ring;
        pthread_mutex_unlock(&r->mu);
        r->w->prepare(r->w->ctx, i, slot_at(r, k));
        pthread_mutex_lock(&r->mu);
        r->index[k] = i;
        r->ready[k] = true;
        pthread_cond_broadcast(&r->filled);
    }
    pthread_mutex_unlock(&r->mu);
    return NULL;
}

/* The caller's loop when it helps: the next item in order when it is
 * ready, else an item of its own to prepare, else a wait. */
static void helping_caller(struct ring *r)
{
    const struct ordered_work *w = r->w;
    pthread_mutex_lock(&r->mu);
    while (r->consumed < w->n) {
        size_t c = r->consumed, k = c % r->n_ring;
        if (r->ready[k] && r->index[k] == c) {
            pthread_mutex_unlock(&r->mu);
            w->consume(w->ctx, c, slot_at(r, k));
            pthread_mutex_lock(&r->mu);
            r->ready[k] = false;
            r->consumed = c + 1;
            pthread_cond_broadcast(&r->freed);
        } else if (r->next < w->n && r->next < r->consumed + r->n_ring) {
            size_t i = r->next++, j = i % r->n_ring;
            pthread_mutex_unlock(&r->mu);
            w->prepare(w->ctx, i, slot_at(r, j));
            pthread_mutex_lock(&r->mu);
            r->index[j] = i;
            r->ready[j] = true;
        } else {
            pthread_cond_wait(&r->filled, &r->mu);
        }
    }
    pthread_mutex_unlock(&r->mu);
}

void ordered_run(const struct ordered_work *w, int threads,
                 size_t per_thread)
{
    struct ring r;
    pthread_t tid[ORDERED_MAX_THREADS];
    int nt = threads < 0 ? 0 : threads > ORDERED_MAX_THREADS
                                   ? ORDERED_MAX_THREADS : threads;
    memset(&r, 0, sizeof r);
    r.w = w;
    r.n_ring = (size_t)(nt ? nt : 1) * (per_thread ? per_thread : 1);
    if (r.n_ring > w->n && w->n > 0)
        r.n_ring = w->n;
    r.slots = xcalloc(r.n_ring ? r.n_ring : 1, w->slot_size ? w->slot_size
                                                            : 1);
    r.index = xcalloc(r.n_ring ? r.n_ring : 1, sizeof *r.index);
    r.ready = xcalloc(r.n_ring ? r.n_ring : 1, sizeof *r.ready);
    pthread_mutex_init(&r.mu, NULL);
    pthread_cond_init(&r.filled, NULL);
    pthread_cond_init(&r.freed, NULL);
    if (w->caller_helps && nt > 0)
        nt--; /* the caller is one of them */
    for (int t = 0; t < nt; t++)
        if (pthread_create(&tid[t], NULL, worker, &r) != 0)
            nt = t; /* fewer workers; at worst the caller does it all */
    bool helped = w->caller_helps && nt > 0;
    if (helped)
        helping_caller(&r);
    for (size_t i = 0; !helped && i < w->n; i++) {
        size_t k = i % r.n_ring;
        if (nt == 0) {
            w->prepare(w->ctx, i, slot_at(&r, k));
        } else {
            pthread_mutex_lock(&r.mu);
            while (!(r.ready[k] && r.index[k] == i))
                pthread_cond_wait(&r.filled, &r.mu);
            pthread_mutex_unlock(&r.mu);
        }
        w->consume(w->ctx, i, slot_at(&r, k));
        if (nt > 0) {
            pthread_mutex_lock(&r.mu);
            r.ready[k] = false;
            r.consumed = i + 1;
            pthread_cond_broadcast(&r.freed);
            pthread_mutex_unlock(&r.mu);
        }
    }
    pthread_mutex_lock(&r.mu);
    r.stop = true;
    pthread_cond_broadcast(&r.freed);
    pthread_mutex_unlock(&r.mu);
    for (int t = 0; t < nt; t++)
        pthread_join(tid[t], NULL);
    if (w->release)
        for (size_t k = 0; k < r.n_ring; k++)
            w->release(w->ctx, slot_at(&r, k));
    pthread_mutex_destroy(&r.mu);
    pthread_cond_destroy(&r.filled);
    pthread_cond_destroy(&r.freed);
    free(r.slots);
    free(r.index);
    free(r.ready);
}

int ordered_cpus(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > ORDERED_MAX_THREADS ? ORDERED_MAX_THREADS
                                               : (int)n;
}
