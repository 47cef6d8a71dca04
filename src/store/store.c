/* store.c - the store's one entry: store_open() picks the backend from
 * the --db string (backends[] below), and every other store_ function
 * hands its call to the backend the handle was opened with. */
#include <string.h>

#include "store/store_backend.h"

/* By prefix, first match wins; the last entry takes anything. strip:
 * the backend gets the string without the prefix (sqlite:PATH -> PATH);
 * a PostgreSQL URI goes to libpq whole; anything else is a file. */
static const struct {
    const char *prefix;
    bool strip;
    const struct store_backend *be;
} backends[] = {
    { "postgresql://", false, &store_pg_backend },
    { "postgres://", false, &store_pg_backend },
    { "sqlite:", true, &store_sqlite_backend },
    { "", false, &store_sqlite_backend },
};

enum status store_open(const char *db, bool read_only, struct store **out,
                       struct err *e)
{
    *out = NULL;
    if (!db || !db[0])
        return err_set(e, ST_DB, "no database named (--db PATH or "
                       "postgresql://...)");
    for (size_t i = 0; i < sizeof backends / sizeof *backends; i++) {
        size_t n = strlen(backends[i].prefix);
        if (strncmp(db, backends[i].prefix, n) == 0)
            return backends[i].be->open(backends[i].strip ? db + n : db,
                                        read_only, out, e);
    }
    return err_set(e, ST_DB, "%s: no store for this name", db);
}

void store_close(struct store *s)
{
    if (s)
        s->be->close(s);
}

enum status store_insert_game(struct store *s, const struct game_record *g,
                              int64_t *out_id, bool *out_duplicate,
                              struct err *e)
{
    return s->be->insert_game(s, g, out_id, out_duplicate, e);
}

enum status store_batch_begin(struct store *s, enum store_batch kind,
                              struct err *e)
{
    return s->be->batch_begin(s, kind, e);
}

bool store_batch_lost(const struct store *s)
{
    return s->be->batch_lost(s);
}

enum status store_batch_end(struct store *s, bool commit, struct err *e)
{
    return s->be->batch_end(s, commit, e);
}

enum status store_replace_game(struct store *s, int64_t id,
                               const struct game_record *g, struct err *e)
{
    return s->be->replace_game(s, id, g, e);
}

enum status store_list_games(struct store *s, const struct game_filter *f,
                             struct buf *out, struct err *e)
{
    return s->be->list_games(s, f, out, e);
}

enum status store_game_json(struct store *s, int64_t id, struct buf *out,
                            struct err *e)
{
    return s->be->game_json(s, id, out, e);
}

void store_pack(const struct store *s, const struct game_record *g,
                struct store_packed *out)
{
    out->done = false;
    out->content[0] = '\0';
    if (s->be->pack)
        s->be->pack(g, out);
}

void store_packed_release(struct store_packed *p)
{
    buf_release(&p->raw);
    buf_release(&p->report);
    p->done = false;
    p->content[0] = '\0';
}

enum status store_game_raw(struct store *s, int64_t id, struct buf *out,
                           const char **out_format, char *sha_out,
                           struct err *e)
{
    return s->be->game_raw(s, id, out, out_format, sha_out, e);
}

enum status store_game_sha(struct store *s, int64_t id, char out[65],
                           struct err *e)
{
    return s->be->game_sha(s, id, out, e);
}

enum status store_game_is_live(struct store *s, int64_t id, bool *out_live,
                               struct err *e)
{
    return s->be->game_is_live(s, id, out_live, e);
}

enum status store_players_json(struct store *s, struct buf *out, struct err *e)
{
    return s->be->players_json(s, out, e);
}

enum status store_player_json(struct store *s, const char *name,
                              struct buf *out, struct err *e)
{
    return s->be->player_json(s, name, out, e);
}

enum status store_stats_json(struct store *s, struct buf *out, struct err *e)
{
    return s->be->stats_json(s, out, e);
}

enum status store_counts(struct store *s, struct store_counts *out,
                         struct err *e)
{
    *out = (struct store_counts){ 0 };
    return s->be->counts(s, out, e);
}

enum status store_each_game(struct store *s, store_game_fn fn, void *ctx,
                            struct err *e)
{
    return s->be->each_game(s, fn, ctx, e);
}

enum status store_each_upload(struct store *s, store_upload_fn fn, void *ctx,
                              struct err *e)
{
    return s->be->each_upload(s, fn, ctx, e);
}

enum status store_backup(struct store *s, const char *out, bool overwrite,
                         struct err *e)
{
    return s->be->backup(s, out, overwrite, e);
}

enum status store_check(struct store *s, struct buf *report, int *out_problems,
                        struct err *e)
{
    return s->be->check(s, report, out_problems, e);
}

enum status store_delete_game(struct store *s, int64_t id, int64_t at,
                              const char *token_fp, struct err *e)
{
    if (!token_fp || !token_fp[0])
        return err_set(e, ST_DB, "a deletion needs the fingerprint of the "
                       "token that asked for it");
    return s->be->delete_game(s, id, at, token_fp, e);
}

enum status store_rename_game(struct store *s, int64_t id, const char *name,
                              struct err *e)
{
    if (!name || !name[0])
        return err_set(e, ST_PARSE, "a game's new name may not be empty");
    return s->be->rename_game(s, id, name, e);
}

void store_ratings_defer(struct store *s, bool defer)
{
    s->ratings_deferred = defer;
}

enum status store_ratings_rebuild(struct store *s, struct err *e)
{
    s->ratings_deferred = false;
    return s->be->ratings_rebuild(s, e);
}

enum status store_sort_column(const char *sort, const char **out,
                              struct err *e)
{
    static const struct {
        const char *key, *col;
    } keys[] = {
        { "date", "uploaded_at" },  { "players", "n_players" },
        { "turns", "turns" },       { "violations", "n_violations" },
        { "flights", "n_flights" }, { "best", "best_score" },
    };
    *out = "uploaded_at";
    if (!sort || !sort[0])
        return ST_OK;
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        if (strcmp(sort, keys[i].key) == 0) {
            *out = keys[i].col;
            return ST_OK;
        }
    return err_set(e, ST_PARSE, "unknown sort key '%.40s' (date, players, "
                   "turns, violations, flights, best)", sort);
}
