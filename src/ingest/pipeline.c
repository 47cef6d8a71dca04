/* pipeline.c - many logs into the store: parsed and audited on worker
 * threads, committed in order on the caller's thread.
 *
 * Reading, parsing, auditing, rendering and compressing a game is about
 * twice the work of writing it, and needs no lock; SQLite takes one
 * writer. So workers take the next index, prepare it (ingest_prepare,
 * ingest_pack) into a slot of a ring, and the caller commits slot after
 * slot in index order: the database sees exactly the order, the batches
 * and the outcome of the one-thread loop, only sooner. The caller
 * prepares items too whenever the next one to commit is not ready (on 2
 * cores it had been idle a third of the time: 3,800 -> 5,100 games/s),
 * and the ring holds 32 items a worker, enough for the workers to run on
 * through a commit's fsync and checkpoint (8 held 29 MB, 32 hold 36 MB).
 * The ring bounds the memory held.
 *
 * A batch is one transaction without savepoints (STORE_BATCH_WHOLE): a
 * savepoint per game copied every page the game changed before changing
 * it, 6% of the CPU of ingest. A game failing halfway through its write
 * (a constraint the engine's output broke, a full disk) then rolls the
 * whole batch back; the games it had written are read, prepared and
 * written again on this thread, in a batch of savepoints that the rest
 * of the batch keeps. Their outcome was reported already and stays true;
 * one that no longer reads the same, or no longer writes, is taken back
 * (batch_failed). */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/ingest.h"
#include "util/ordered.h"
#include "util/sha256.h"
#include "util/xalloc.h"

#define RING_PER_WORKER 32

struct slot {
    enum status st;
    struct err e;
    struct buf data; /* kept between items: its capacity is reused */
    struct ingest_job *job;
};

/* The uploads' digests prepared so far, by their first 64 bits, each
 * with the least index that had it. An item whose bytes an earlier item
 * has is a duplicate unless that one fails to be stored, so it is not
 * packed: compressing and digesting its content again was a fifth of
 * the CPU of ingesting a folder that holds each file twice. Should it be
 * written after all (the earlier one failed, or 64 bits matched other
 * bytes) the write packs it, as it does a record whose packing failed. */
#define SEEN_MAX ((size_t)1 << 20)
struct seen {
    pthread_mutex_t lock;
    uint64_t *key; /* 0: empty */
    size_t *idx;
    size_t cap, n; /* cap a power of two; no more than cap / 2 kept */
};

static void seen_init(struct seen *t, size_t items)
{
    pthread_mutex_init(&t->lock, NULL);
    t->cap = 16;
    while (t->cap < 2 * items && t->cap < SEEN_MAX)
        t->cap *= 2;
    t->key = xcalloc(t->cap, sizeof *t->key);
    t->idx = xcalloc(t->cap, sizeof *t->idx);
    t->n = 0;
}

static void seen_free(struct seen *t)
{
    pthread_mutex_destroy(&t->lock);
    free(t->key);
    free(t->idx);
}

/* Whether an item before i had the digest sha (hex); notes that i has. */
static bool seen_before(struct seen *t, const char *sha, size_t i)
{
    uint64_t k = 0;
    for (int d = 0; d < 16 && sha[d]; d++) {
        char c = sha[d];
        k = k << 4 | (uint64_t)(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
    }
    k = k ? k : 1;
    bool before = false;
    pthread_mutex_lock(&t->lock);
    size_t h = (size_t)(k ^ k >> 29) & (t->cap - 1);
    while (t->key[h] && t->key[h] != k)
        h = (h + 1) & (t->cap - 1);
    if (t->key[h]) {
        before = t->idx[h] < i;
        if (!before)
            t->idx[h] = i;
    } else if (t->n < t->cap / 2) {
        t->key[h] = k;
        t->idx[h] = i;
        t->n++;
    }
    pthread_mutex_unlock(&t->lock);
    return before;
}

struct pipe {
    const struct ingest_source *src;
    struct store *st;
    int batch;
    bool in_batch;
    bool careful; /* the open batch was written again: savepoints */
    size_t first; /* the open batch's first item */
    /* per item of the open batch, the digest of what it wrote, or "" */
    char (*wrote)[SHA256_HEX_LEN];
    struct seen *seen; /* NULL: every item is packed */
};

static void prepare_item(void *ctx, size_t i, void *slot)
{
    struct pipe *p = ctx;
    struct slot *s = slot;
    const char *name = NULL;
    err_clear(&s->e);
    s->job = NULL;
    s->data.len = 0;
    s->st = p->src->read(p->src->ctx, i, &s->data, &name, &s->e);
    if (s->st == ST_OK)
        s->st = ingest_prepare(s->data.p ? s->data.p : "", s->data.len,
                               p->src->source, name, p->src->now, &s->job,
                               &s->e);
    if (s->st == ST_OK &&
        !(p->seen && seen_before(p->seen, ingest_job_sha(s->job), i)))
        ingest_pack(p->st, s->job);
}

static void batch_end(struct store *st, const struct ingest_source *src,
                      size_t first, size_t last)
{
    struct err e;
    err_clear(&e);
    if (store_batch_end(st, true, &e) != ST_OK && src->batch_failed)
        src->batch_failed(src->ctx, first, last, &e);
}

/* Item k, which wrote a game of digest sha before its batch was rolled
 * back, written again; taken back from the source if it cannot be. */
static void write_again(struct pipe *p, size_t k, const char *sha)
{
    struct slot t = { ST_OK, { ST_OK, "" }, BUF_INIT, NULL };
    struct ingest_result res;
    prepare_item(p, k, &t);
    if (t.st == ST_OK && strcmp(ingest_job_sha(t.job), sha) != 0)
        t.st = err_set(&t.e, ST_DB, "it changed while its batch was being "
                       "written");
    if (t.st == ST_OK)
        t.st = ingest_commit(p->st, t.job, &res, &t.e);
    if (t.st != ST_OK && p->src->batch_failed)
        p->src->batch_failed(p->src->ctx, k, k, &t.e);
    ingest_job_free(t.job);
    buf_release(&t.data);
}

/* Item i failed and took the whole batch along: the batch again from its
 * start, with savepoints, then item i once more (its outcome). */
static enum status rewrite_batch(struct pipe *p, size_t i, struct slot *s,
                                 struct ingest_result *res)
{
    struct err e;
    /* rolled back already: this only closes it, and cannot fail */
    if (store_batch_end(p->st, false, &e) != ST_OK)
        err_clear(&e);
    p->careful = true;
    p->in_batch = store_batch_begin(p->st, STORE_BATCH_SAVEPOINTS, &e) ==
                  ST_OK;
    for (size_t k = p->first; k < i; k++)
        if (p->wrote[k - p->first][0])
            write_again(p, k, p->wrote[k - p->first]);
    memset(res, 0, sizeof *res);
    err_clear(&s->e);
    return ingest_commit(p->st, s->job, res, &s->e);
}

/* Commits item i in its batch and hands its outcome to the source. */
static void commit_item(void *ctx, size_t i, void *slot)
{
    struct pipe *p = ctx;
    struct slot *s = slot;
    struct ingest_result res;
    size_t batch = (size_t)p->batch;
    if (p->batch > 0 && i % batch == 0) {
        struct err e;
        /* without a batch (the lock is busy) each game commits alone */
        p->in_batch = store_batch_begin(p->st, STORE_BATCH_WHOLE, &e) ==
                      ST_OK;
        p->careful = false;
        p->first = i;
    }
    memset(&res, 0, sizeof res);
    if (s->st == ST_OK)
        s->st = ingest_commit(p->st, s->job, &res, &s->e);
    if (s->st != ST_OK && p->in_batch && !p->careful &&
        store_batch_lost(p->st))
        s->st = rewrite_batch(p, i, s, &res);
    if (p->in_batch)
        snprintf(p->wrote[i - p->first], SHA256_HEX_LEN, "%s",
                 s->st == ST_OK && !res.duplicate ? ingest_job_sha(s->job)
                                                  : "");
    p->src->done(p->src->ctx, i, s->st, &res, &s->e);
    ingest_job_free(s->job);
    s->job = NULL;
    s->data.len = 0;
    if (p->in_batch && (i % batch == batch - 1 || i + 1 == p->src->n)) {
        batch_end(p->st, p->src, p->first, i);
        p->in_batch = false;
    }
}

static void release_slot(void *ctx, void *slot)
{
    (void)ctx;
    buf_release(&((struct slot *)slot)->data);
}

void ingest_pipeline(struct store *st, const struct ingest_source *src,
                     int threads, int batch)
{
    struct seen seen;
    struct pipe p = { src, st, batch, false, false, 0, NULL, &seen };
    struct ordered_work w = { src->n, sizeof(struct slot), &p, prepare_item,
                              commit_item, release_slot, true };
    if (batch > 0)
        p.wrote = xcalloc((size_t)batch, sizeof *p.wrote);
    seen_init(&seen, src->n);
    /* at least one worker: parsing overlaps the caller's commits, which
     * prepares too when it would wait */
    ordered_run(&w, threads < 1 ? 1 : threads > INGEST_MAX_THREADS
                                          ? INGEST_MAX_THREADS : threads,
                RING_PER_WORKER);
    free(p.wrote);
    seen_free(&seen);
}
