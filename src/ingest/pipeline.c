/* pipeline.c - many logs into the store: parsed and audited on worker
 * threads, committed in order on the caller's thread.
 *
 * Reading, parsing, auditing and rendering a game is three times the
 * work of writing it, and needs no lock; SQLite takes one writer. So
 * workers take the next index, prepare it (ingest_prepare) into a slot of
 * a ring, and the caller commits slot after slot in index order: the
 * database sees exactly the order, the batches and the outcome of the
 * one-thread loop, only sooner. The ring bounds the memory held. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/ingest.h"
#include "util/xalloc.h"

#define RING_PER_WORKER 8

struct slot {
    size_t index; /* which item it holds, valid when ready */
    bool ready;
    enum status st;
    struct err e;
    struct buf data;
    struct ingest_job *job;
};

struct pipe {
    const struct ingest_source *src;
    struct slot *ring;
    size_t n_ring;
    size_t next;      /* the next index a worker takes */
    size_t committed; /* items the caller is done with */
    bool stop;
    pthread_mutex_t mu;
    pthread_cond_t filled, freed;
};

static void prepare_item(struct pipe *p, size_t i, struct slot *s)
{
    const char *name = NULL;
    err_clear(&s->e);
    s->job = NULL;
    s->data.len = 0;
    s->st = p->src->read(p->src->ctx, i, &s->data, &name, &s->e);
    if (s->st == ST_OK)
        s->st = ingest_prepare(s->data.p ? s->data.p : "", s->data.len,
                               p->src->source, name, p->src->now, &s->job,
                               &s->e);
}

static void *worker(void *arg)
{
    struct pipe *p = arg;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (!p->stop && p->next < p->src->n &&
               p->next >= p->committed + p->n_ring)
            pthread_cond_wait(&p->freed, &p->mu);
        if (p->stop || p->next >= p->src->n)
            break;
        size_t i = p->next++;
        struct slot *s = &p->ring[i % p->n_ring];
        pthread_mutex_unlock(&p->mu);
        prepare_item(p, i, s);
        pthread_mutex_lock(&p->mu);
        s->index = i;
        s->ready = true;
        pthread_cond_broadcast(&p->filled);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

/* Commits slot s (item i) and hands its outcome to the source. */
static void commit_item(struct store *st, struct pipe *p, size_t i,
                        struct slot *s)
{
    struct ingest_result res;
    memset(&res, 0, sizeof res);
    if (s->st == ST_OK)
        s->st = ingest_commit(st, s->job, &res, &s->e);
    p->src->done(p->src->ctx, i, s->st, &res, &s->e);
    ingest_job_free(s->job);
    s->job = NULL;
    s->data.len = 0;
}

static void batch_end(struct store *st, const struct ingest_source *src,
                      size_t first, size_t last)
{
    struct err e;
    err_clear(&e);
    if (store_batch_end(st, true, &e) != ST_OK && src->batch_failed)
        src->batch_failed(src->ctx, first, last, &e);
}

void ingest_pipeline(struct store *st, const struct ingest_source *src,
                     int threads, int batch)
{
    struct pipe p;
    pthread_t tid[INGEST_MAX_THREADS];
    int nt = threads < 1 ? 1 : threads > INGEST_MAX_THREADS
                                   ? INGEST_MAX_THREADS : threads;
    memset(&p, 0, sizeof p);
    p.src = src;
    p.n_ring = (size_t)nt * RING_PER_WORKER;
    p.ring = xcalloc(p.n_ring, sizeof *p.ring);
    pthread_mutex_init(&p.mu, NULL);
    pthread_cond_init(&p.filled, NULL);
    pthread_cond_init(&p.freed, NULL);
    for (int k = 0; k < nt; k++)
        if (pthread_create(&tid[k], NULL, worker, &p) != 0)
            nt = k; /* fewer workers; at least the caller's loop below */
    bool in_batch = false;
    size_t first = 0;
    for (size_t i = 0; i < src->n; i++) {
        struct slot *s = &p.ring[i % p.n_ring];
        if (nt == 0) { /* no thread could start: do it here */
            prepare_item(&p, i, s);
        } else {
            pthread_mutex_lock(&p.mu);
            while (!(s->ready && s->index == i))
                pthread_cond_wait(&p.filled, &p.mu);
            pthread_mutex_unlock(&p.mu);
        }
        if (batch > 0 && i % (size_t)batch == 0) {
            struct err e;
            /* without a batch (the lock is busy) each game commits alone */
            in_batch = store_batch_begin(st, &e) == ST_OK;
            first = i;
        }
        commit_item(st, &p, i, s);
        if (in_batch && (i % (size_t)batch == (size_t)batch - 1 ||
                         i + 1 == src->n)) {
            batch_end(st, src, first, i);
            in_batch = false;
        }
        pthread_mutex_lock(&p.mu);
        s->ready = false;
        p.committed = i + 1;
        pthread_cond_broadcast(&p.freed);
        pthread_mutex_unlock(&p.mu);
    }
    pthread_mutex_lock(&p.mu);
    p.stop = true;
    pthread_cond_broadcast(&p.freed);
    pthread_mutex_unlock(&p.mu);
    for (int k = 0; k < nt; k++)
        pthread_join(tid[k], NULL);
    for (size_t k = 0; k < p.n_ring; k++)
        buf_release(&p.ring[k].data);
    free(p.ring);
    pthread_mutex_destroy(&p.mu);
    pthread_cond_destroy(&p.filled);
    pthread_cond_destroy(&p.freed);
}
