/* store_backend.h - what a backend of the store provides: one table of
 * functions per database (SQLite in src/store/sqlite*.c, PostgreSQL in
 * src/store/pg/), chosen by store_open() from the --db string. Each
 * backend's connection struct starts with struct store, so the
 * dispatcher in store.c reaches the table through any handle.
 *
 * Every function has the contract its store_ namesake in store.h states;
 * a NULL entry is not allowed (a backend that cannot do a thing says so
 * with an error, as PostgreSQL's backup does). */
#ifndef STORE_STORE_BACKEND_H
#define STORE_STORE_BACKEND_H
#include "store/store.h"

struct store_backend;

struct store {
    const struct store_backend *be;
    bool ratings_deferred; /* store_ratings_defer() */
};

struct store_backend {
    const char *name; /* "sqlite", "postgresql": for messages */
    enum status (*open)(const char *target, bool read_only,
                        struct store **out, struct err *e);
    void (*close)(struct store *s);
    enum status (*insert_game)(struct store *s, const struct game_record *g,
                               int64_t *out_id, bool *out_duplicate,
                               struct err *e);
    enum status (*batch_begin)(struct store *s, enum store_batch kind,
                               struct err *e);
    enum status (*batch_end)(struct store *s, bool commit, struct err *e);
    bool (*batch_lost)(const struct store *s);
    enum status (*replace_game)(struct store *s, int64_t id,
                                const struct game_record *g, struct err *e);
    enum status (*delete_game)(struct store *s, int64_t id, int64_t at,
                               const char *token_fp, struct err *e);
    enum status (*rename_game)(struct store *s, int64_t id, const char *name,
                               struct err *e);
    enum status (*ratings_rebuild)(struct store *s, struct err *e);
    enum status (*list_games)(struct store *s, const struct game_filter *f,
                              struct buf *out, struct err *e);
    enum status (*game_json)(struct store *s, int64_t id, struct buf *out,
                             struct err *e);
    enum status (*game_raw)(struct store *s, int64_t id, struct buf *out,
                            const char **out_format, char *sha_out,
                            struct err *e);
    enum status (*game_sha)(struct store *s, int64_t id, char out[65],
                            struct err *e);
    enum status (*game_is_live)(struct store *s, int64_t id, bool *out_live,
                                struct err *e);
    enum status (*players_json)(struct store *s, struct buf *out,
                                struct err *e);
    enum status (*player_json)(struct store *s, const char *name,
                               struct buf *out, struct err *e);
    enum status (*stats_json)(struct store *s, struct buf *out,
                              struct err *e);
    enum status (*counts)(struct store *s, struct store_counts *out,
                          struct err *e);
    enum status (*each_game)(struct store *s, store_game_fn fn, void *ctx,
                             struct err *e);
    enum status (*each_upload)(struct store *s, store_upload_fn fn, void *ctx,
                               struct err *e);
    enum status (*backup)(struct store *s, const char *out, bool overwrite,
                          struct err *e);
    enum status (*check)(struct store *s, struct buf *report,
                         int *out_problems, struct err *e);
    /* NULL: the backend keeps uploads and audits as they are */
    void (*pack)(const struct game_record *g, struct store_packed *out);
};

extern const struct store_backend store_sqlite_backend;
extern const struct store_backend store_pg_backend;

#endif
