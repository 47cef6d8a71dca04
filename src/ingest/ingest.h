/* ingest.h - bytes in, an audited game in the store: parse (mlog), audit
 * (core), render the audit (mlog), insert (store); and back out: the
 * replay of a stored game, rendered from its upload on request.
 *
 * A log the reader finds well-formed but cannot audit (ST_UNSUPPORTED: an
 * expansion, element or rule this engine does not model yet) is stored
 * all the same, as an unsupported game with the reader's message: a
 * recorder never throws a player's game away, and `flierd reaudit` audits
 * it once an engine supports it. Live games are the exception: a table
 * cannot be refereed turn by turn without an engine, so their setup is
 * refused instead. */
#ifndef INGEST_INGEST_H
#define INGEST_INGEST_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store/store.h"
#include "util/err.h"

struct ingest_result {
    int64_t id;        /* the stored game, 0 if none */
    bool duplicate;    /* identical bytes were stored before */
    bool unsupported;  /* stored, not audited: reason says why */
    bool valid;        /* the audit's verdict (false when unsupported) */
    bool finished;
    char reason[ERR_MSG_MAX]; /* "unsupported: ...", or "" */
};

/* The two halves of ingesting one log, so that parsing, auditing and
 * rendering (CPU work, no store) can run outside the writer's lock:
 * ingest_prepare() fails with ST_PARSE / ST_LIMIT (e names the byte
 * offset or JSON path), or ST_UNSUPPORTED for a log whose format it could
 * not tell; an unsupported log of a known format is prepared to be stored
 * as such (ST_OK). data must outlive the job.
 * ingest_commit() stores it in one transaction (ST_DB / ST_BUSY: nothing
 * stored). Free the job with ingest_job_free() (NULL-safe) either way. */
struct ingest_job;
enum status ingest_prepare(const char *data, size_t len, const char *source,
                           const char *name, int64_t now,
                           struct ingest_job **out, struct err *e) WARN_UNUSED;
enum status ingest_commit(struct store *s, struct ingest_job *job,
                          struct ingest_result *out,
                          struct err *e) WARN_UNUSED;
void ingest_job_free(struct ingest_job *job);
/* The SHA-256 (hex) of a prepared job's upload. */
const char *ingest_job_sha(const struct ingest_job *job);
/* Compresses a prepared job's upload and audit as s keeps them
 * (store_pack), on the calling thread: the pipeline's workers do it so
 * that the writer does not. Optional; needs no lock. */
void ingest_pack(const struct store *s, struct ingest_job *job);

/* A game of another database (`flierd copy`), prepared as
 * ingest_prepare() prepares an upload of u's bytes, and committed by
 * ingest_commit() with u's file name, source, upload time and live flag
 * (an unsupported game is never live). The verdict is this engine's,
 * not the one u was stored with. u's bytes and strings must outlive the
 * job: commit it within the store_each_upload() call that handed u out.
 * Fails as ingest_prepare() does; *out is set either way. */
enum status ingest_prepare_stored(const struct stored_upload *u,
                                  struct ingest_job **out,
                                  struct err *e) WARN_UNUSED;

/* Both halves at once. now is the caller's clock. */
enum status ingest_bytes(struct store *s, const char *data, size_t len,
                         const char *source, const char *name, int64_t now,
                         struct ingest_result *out,
                         struct err *e) WARN_UNUSED;

/* Many logs at once (`flierd ingest`, `serve --load`): items [0, n) are
 * read and prepared on worker threads and committed on the caller's
 * thread in index order, batch items per transaction (0: one transaction
 * each). A failing game leaves nothing and the batch goes on: the batch
 * is written without savepoints (STORE_BATCH_WHOLE) and, when a game
 * fails halfway and takes it along, its games so far are read and
 * written again, on the caller's thread, in a batch of savepoints. So
 * read() must give the same bytes for an item every time (an item whose
 * bytes changed is not written again: it fails). read() fills data
 * (empty on entry) and may set *name (copied); done() gets each item's
 * outcome in order, on the caller's thread; batch_failed() (may be NULL)
 * items first..last reported stored that are not after all: their batch
 * failed to commit, or an item could not be written again. */
#define INGEST_MAX_THREADS 16
struct ingest_source {
    size_t n;
    const char *source; /* "cli", "spool", ... */
    int64_t now;        /* the upload time of every item */
    void *ctx;
    enum status (*read)(void *ctx, size_t i, struct buf *data,
                        const char **name, struct err *e);
    void (*done)(void *ctx, size_t i, enum status st,
                 const struct ingest_result *res, const struct err *e);
    void (*batch_failed)(void *ctx, size_t first, size_t last,
                         const struct err *e);
};
void ingest_pipeline(struct store *s, const struct ingest_source *src,
                     int threads, int batch);

/* The replay of stored game id (mlog_replay_json), from its stored upload
 * replayed by this engine: ST_NOT_FOUND; ST_CONFLICT for a game stored as
 * unsupported that this engine cannot audit either; ST_DB if it no longer
 * parses. */
/* With sha_out (SHA256_HEX_LEN bytes), also the SHA-256 of the upload
 * it was rendered from. */
enum status ingest_replay(struct store *s, int64_t id, char *sha_out,
                          struct buf *out,
                          struct err *e) WARN_UNUSED;

/* Live recording: a live game is a flierlog in its streaming form (one
 * header line, one line per turn) stored with source "live". */
/* Starts one from a header line (the flierlog setup); *out_id names it.
 * A setup this engine cannot audit is refused (ST_UNSUPPORTED): every
 * turn of a live game is judged as it comes. */
enum status ingest_live_start(struct store *s, const char *header,
                              size_t len, int64_t now, int64_t *out_id,
                              struct err *e) WARN_UNUSED;
/* Appends one turn (a flierlog turn entry). An illegal turn is refused:
 * ST_RULE, e gives "RULE_ID: message", nothing stored; ST_CONFLICT when
 * the game is not live (over, or an upload), or when the entry's "turn"
 * is recorded already as another entry (the same entry again is answered
 * as it was, and nothing is written). On success out
 * receives {"turn", "scores": {...}, "flight": {...}|null, "events"}. */
enum status ingest_live_move(struct store *s, int64_t id, const char *turn,
                             size_t len, int64_t now, struct buf *out,
                             struct err *e) WARN_UNUSED;
/* Takes live game id's last entry back (a turn recorded by mistake):
 * the game is as it was before it. turn > 0 guards a retry: the last
 * entry must be that turn, else ST_CONFLICT and nothing changes (so a
 * second undo sent by a queue takes nothing more). ST_CONFLICT too when
 * the game is not live or has no turn. out: {"undone": N, "turns": M}
 * (N -1 for an entry without a number). */
enum status ingest_live_undo(struct store *s, int64_t id, int turn,
                             int64_t now, struct buf *out,
                             struct err *e) WARN_UNUSED;
/* The options of live game id's next turn, step by step as q chooses it
 * (core/options.h), or, with turn (a flierlog turn entry on one line,
 * turn_len bytes; NULL: none), from where that turn so far leaves the
 * game, each of its moves judged; rendered (mlog_options_json).
 * ST_NOT_FOUND; ST_CONFLICT when the game is not live; ST_RULE when a
 * step breaks a rule ("RULE_ID: turn N: ..."); ST_PARSE when q skips
 * one or the turn does not read. Reads only. */
struct options_query;
enum status ingest_live_options(struct store *s, int64_t id,
                                const struct options_query *q,
                                const char *turn, size_t turn_len,
                                struct buf *out, struct err *e) WARN_UNUSED;
/* A stored upload (raw, len bytes) written again as a .jcz save (jcz
 * true) or a flierlog document, into out: a download in the other
 * format (docs/api.md). ST_PARSE when it no longer reads. */
enum status ingest_convert(const char *raw, size_t len, bool jcz,
                           struct buf *out, struct err *e) WARN_UNUSED;
/* Ends the game: final scoring; the result is the audit object. */
enum status ingest_live_finish(struct store *s, int64_t id, int64_t now,
                               struct buf *out, struct err *e) WARN_UNUSED;

/* flierd reaudit: re-audits every stored game with this engine, the
 * unsupported ones too (those it now supports become audited games, the
 * others stay unsupported with this engine's reason); writes one line per
 * game whose verdict changed to report ("game 12: unsupported -> valid"),
 * and counts the games, the changes and those still unsupported.
 * progress (may be NULL) is called with ctx after each game, with the
 * games done and the games there are. */
typedef void (*ingest_progress_fn)(void *ctx, size_t done, size_t total);
enum status ingest_reaudit(struct store *s, struct buf *report,
                           int *out_games, int *out_changed,
                           int *out_unsupported, ingest_progress_fn progress,
                           void *ctx, struct err *e) WARN_UNUSED;

#endif
