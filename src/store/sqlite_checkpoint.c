/* sqlite_checkpoint.c - the writer's WAL copied into the database file by
 * a thread of its own.
 *
 * A checkpoint copies the WAL's pages into the file and fsyncs it. Run by
 * the writer after its commit (SQLite's autocheckpoint), it stalled the
 * writer for as long, and the more the file had grown the longer: into
 * a file of a million games the fsyncs of ingest took three times those
 * of a new one. So the writer's connection only signals, after each
 * commit, how large the WAL is, and a second connection on this thread
 * runs passive checkpoints (they never wait for the writer nor block
 * it). The writer still checkpoints itself when the WAL passes
 * CKPT_LIMIT pages (the background one busy or behind): by then most
 * pages are in the file and synced, and its own checkpoint is short. A
 * WAL restarts from its start only when every frame is in the file, so
 * that bound is what keeps it from growing while batches follow each
 * other. */
#include <pthread.h>
#include <stdlib.h>

#include "store/sqlite_int.h"

/* WAL frames (a page each, 8 KiB in files made since schema 004: 16 and
 * 64 MiB) before the thread is woken, and before the writer checkpoints
 * itself */
#define CKPT_WAKE 2048
#define CKPT_LIMIT 8192

struct sq_checkpointer {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t wake;
    sqlite3 *db; /* the thread's own connection */
    int pages;   /* WAL size at the writer's last commit */
    bool stop;
};

static void *run(void *arg)
{
    struct sq_checkpointer *c = arg;
    pthread_mutex_lock(&c->mu);
    for (;;) {
        while (!c->stop && c->pages < CKPT_WAKE)
            pthread_cond_wait(&c->wake, &c->mu);
        if (c->stop)
            break;
        c->pages = 0;
        pthread_mutex_unlock(&c->mu);
        /* failures (busy, I/O) leave the pages in the WAL, where the
         * writer's own checkpoint or the next round finds them */
        sqlite3_wal_checkpoint_v2(c->db, NULL, SQLITE_CHECKPOINT_PASSIVE,
                                  NULL, NULL);
        pthread_mutex_lock(&c->mu);
    }
    pthread_mutex_unlock(&c->mu);
    return NULL;
}

static int wal_hook(void *arg, sqlite3 *db, const char *name, int pages)
{
    struct sq_checkpointer *c = arg;
    if (pages >= CKPT_WAKE) {
        pthread_mutex_lock(&c->mu);
        c->pages = pages;
        pthread_cond_signal(&c->wake);
        pthread_mutex_unlock(&c->mu);
    }
    if (pages >= CKPT_LIMIT)
        sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_PASSIVE, NULL,
                                  NULL);
    return SQLITE_OK;
}

struct sq_checkpointer *sq_checkpointer_start(sqlite3 *writer,
                                              const char *path)
{
    struct sq_checkpointer *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    if (sqlite3_open_v2(path, &c->db, SQLITE_OPEN_READWRITE, NULL) !=
            SQLITE_OK ||
        pthread_mutex_init(&c->mu, NULL) != 0) {
        sqlite3_close_v2(c->db);
        free(c);
        return NULL;
    }
    sqlite3_busy_timeout(c->db, 0);
    /* A connection finds the WAL at its first read; until then (SQLite
     * 3.40, Debian's) a checkpoint through it is a no-op that reports
     * success: this thread copied nothing, and the writer did all its
     * own checkpoints at CKPT_LIMIT. One read opens the WAL for good. */
    if (sqlite3_exec(c->db, "SELECT 1 FROM sqlite_schema LIMIT 1", NULL,
                     NULL, NULL) != SQLITE_OK ||
        pthread_cond_init(&c->wake, NULL) != 0 ||
        pthread_create(&c->thread, NULL, run, c) != 0) {
        pthread_mutex_destroy(&c->mu);
        sqlite3_close_v2(c->db);
        free(c);
        return NULL;
    }
    /* replaces the autocheckpoint, which is a WAL hook too */
    sqlite3_wal_hook(writer, wal_hook, c);
    return c;
}

void sq_checkpointer_stop(struct sq_checkpointer *c, sqlite3 *writer)
{
    if (!c)
        return;
    sqlite3_wal_hook(writer, NULL, NULL);
    pthread_mutex_lock(&c->mu);
    c->stop = true;
    pthread_cond_signal(&c->wake);
    pthread_mutex_unlock(&c->mu);
    pthread_join(c->thread, NULL);
    pthread_cond_destroy(&c->wake);
    pthread_mutex_destroy(&c->mu);
    sqlite3_close_v2(c->db);
    free(c);
}
