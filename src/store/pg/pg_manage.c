/* pg_manage.c - an organiser's changes to stored games on PostgreSQL: a
 * game deleted (and the deletion recorded), a game renamed. Each is one
 * transaction under the game's lock, as a replace is (pg_write.c). */
#include <string.h>

#include "store/pg/pg_int.h"

#define PG_GAME_LOCK "1718183780" /* pg_write.c's class of game locks */

static const char SQL_LOCK[] =
    "SELECT pg_advisory_xact_lock(" PG_GAME_LOCK
    ", ($1 % 2147483647)::int)";

static const char SQL_RECORD[] =
    "INSERT INTO deletions (game_id, sha256, content_sha256, name, "
    "deleted_at, token_fp) SELECT id, sha256, content_sha256, name, $2, $3 "
    "FROM games WHERE id = $1";

/* Begins, takes game id's lock and reads whether it is live. */
static enum status lock_for_change(struct pg_store *s, int64_t id,
                                   bool *out_live, struct err *e)
{
    struct pg_params p;
    struct pg_stmt q[3];
    pp_reset(&p);
    pp_int(&p, id);
    q[0] = (struct pg_stmt){ .sql = "BEGIN" };
    q[1] = (struct pg_stmt){ .sql = SQL_LOCK, .p = &p };
    q[2] = (struct pg_stmt){ .sql = "SELECT live FROM games WHERE id = $1",
                             .p = &p };
    enum status st = pg_pipeline(s, q, 3, "lock game", e);
    if (st == ST_OK && PQntuples(q[2].res) == 0)
        st = err_set(e, ST_NOT_FOUND, "no game %lld", (long long)id);
    if (st == ST_OK)
        *out_live = pg_int(q[2].res, 0, 0) != 0;
    pg_pipeline_clear(q, 3);
    return st;
}

static enum status check_writable(const struct pg_store *s, const char *verb,
                                  struct err *e)
{
    if (s->read_only)
        return err_set(e, ST_DB, "the store is open read-only: games cannot "
                       "be %s", verb);
    if (s->batch)
        return err_set(e, ST_DB, "games are not %s inside a batch", verb);
    return ST_OK;
}

enum status pg_delete(struct store *base, int64_t id, int64_t at,
                      const char *token_fp, struct err *e)
{
    struct pg_store *s = pg_of(base);
    struct pg_params p, rec, ids;
    struct pg_stmt q[4];
    struct buf arr = BUF_INIT;
    bool live = false;
    enum status st = check_writable(s, "deleted", e);
    if (st == ST_OK)
        st = pg_enter(s, e);
    if (st != ST_OK)
        return st;
    st = lock_for_change(s, id, &live, e);
    if (st == ST_OK && live)
        st = err_set(e, ST_CONFLICT, "game %lld is being recorded live",
                     (long long)id);
    if (st == ST_OK)
        st = pg_promote_dups(s, id, NULL, e);
    if (st == ST_OK) {
        pp_reset(&p);
        pp_int(&p, id);
        pp_reset(&rec);
        pp_int(&rec, id);
        pp_int(&rec, at);
        pp_text(&rec, token_fp);
        pg_ids_array(&arr, &id, 1);
        pp_reset(&ids);
        pp_text(&ids, arr.p);
        pp_int(&ids, -1);
        /* recorded while the row it describes is there, and its share
         * of the aggregates taken away before its rows go */
        q[0] = (struct pg_stmt){ .sql = SQL_RECORD, .p = &rec };
        q[1] = (struct pg_stmt){ .sql = pg_sql_count, .p = &ids };
        q[2] = (struct pg_stmt){ .sql = pg_sql_delete_game, .p = &p };
        q[3] = (struct pg_stmt){ .sql = "COMMIT" };
        st = pg_pipeline(s, q, 4, "delete game", e);
        pg_pipeline_clear(q, 4);
    }
    buf_release(&arr);
    if (st != ST_OK)
        return pg_end(s, st, e);
    /* the game is gone either way; a pass that fails is taken again by
     * the next writer */
    struct err e2;
    (void)pg_rating_refresh(s, &e2);
    return ST_OK;
}

enum status pg_rename(struct store *base, int64_t id, const char *name,
                      struct err *e)
{
    struct pg_store *s = pg_of(base);
    struct pg_params p;
    struct pg_stmt q[3];
    bool live = false;
    enum status st = check_writable(s, "renamed", e);
    if (st == ST_OK)
        st = pg_enter(s, e);
    if (st != ST_OK)
        return st;
    st = lock_for_change(s, id, &live, e);
    if (st == ST_OK) {
        pp_reset(&p);
        pp_int(&p, id);
        pp_text(&p, name);
        q[0] = (struct pg_stmt){ .sql = "UPDATE games SET name = $2 "
                                        "WHERE id = $1",
                                 .p = &p };
        /* the search text's first line is the name, the players follow;
         * the list entry is rendered from the row on read */
        q[1] = (struct pg_stmt){
            .sql = "UPDATE game_search SET text = $2 || coalesce(substr("
                   "text, nullif(strpos(text, E'\\n'), 0)), '') "
                   "WHERE game_id = $1",
            .p = &p };
        q[2] = (struct pg_stmt){ .sql = "COMMIT" };
        st = pg_pipeline(s, q, 3, "rename game", e);
        pg_pipeline_clear(q, 3);
    }
    return st == ST_OK ? ST_OK : pg_end(s, st, e);
}
