/* sqlite_manage.c - an organiser's changes to stored games on SQLite:
 * a game deleted (and the deletion recorded), a game renamed. Each is
 * one transaction, as a game's write is. */
#include <string.h>

#include "store/sqlite_int.h"

static enum status run_id_text(struct sq_store *s, const char *sql,
                               int64_t id, const char *text,
                               const char *what, int *out_changes,
                               struct err *e)
{
    sqlite3_stmt *st = NULL;
    enum status res = sq_cached(s, sql, &st, e);
    if (res == ST_OK) {
        sqlite3_bind_int64(st, 1, id);
        if (text)
            sq_bind_text(st, 2, text);
        res = sq_step_done(s, st, what, e);
    }
    sq_release(s, st);
    if (out_changes)
        *out_changes = res == ST_OK ? sqlite3_changes(s->db) : 0;
    return res;
}

/* Is game id stored, and is it being recorded live? */
static enum status game_state(struct sq_store *s, int64_t id, bool *out_live,
                              struct err *e)
{
    sqlite3_stmt *st = NULL;
    enum status res = sq_cached(s, "SELECT live FROM games WHERE id = ?1",
                                &st, e);
    if (res == ST_OK) {
        sqlite3_bind_int64(st, 1, id);
        int rc = sqlite3_step(st);
        if (rc == SQLITE_ROW)
            *out_live = sqlite3_column_int(st, 0) != 0;
        else if (rc == SQLITE_DONE)
            res = err_set(e, ST_NOT_FOUND, "no game %lld", (long long)id);
        else
            res = sq_fail(s, rc, "find game", e);
    }
    sq_release(s, st);
    return res;
}

static enum status record_deletion(struct sq_store *s, int64_t id,
                                   int64_t at, const char *token_fp,
                                   struct err *e)
{
    sqlite3_stmt *st = NULL;
    enum status res = sq_cached(
        s,
        "INSERT INTO deletions (game_id, sha256, content_sha256, name, "
        "deleted_at, token_fp) SELECT id, sha256, content_sha256, name, "
        "?2, ?3 FROM games WHERE id = ?1",
        &st, e);
    if (res == ST_OK) {
        sqlite3_bind_int64(st, 1, id);
        sqlite3_bind_int64(st, 2, at);
        sq_bind_text(st, 3, token_fp);
        res = sq_step_done(s, st, "record the deletion", e);
    }
    sq_release(s, st);
    return res;
}

enum status sq_delete(struct store *base, int64_t id, int64_t at,
                      const char *token_fp, struct err *e)
{
    struct sq_store *s = sq_of(base);
    bool live = false;
    if (s->read_only)
        return err_set(e, ST_DB, "the store is open read-only: games cannot "
                       "be deleted");
    enum status st = sq_begin(s, e);
    if (st != ST_OK)
        return st;
    st = game_state(s, id, &live, e);
    if (st == ST_OK && live)
        st = err_set(e, ST_CONFLICT, "game %lld is being recorded live",
                     (long long)id);
    /* the deletion is written while the row it describes is there */
    if (st == ST_OK)
        st = record_deletion(s, id, at, token_fp, e);
    if (st == ST_OK)
        st = sq_promote_dups(s, id, e);
    if (st == ST_OK)
        st = sq_delete_game(s, id, e);
    return sq_end(s, st, e);
}

enum status sq_rename(struct store *base, int64_t id, const char *name,
                      struct err *e)
{
    struct sq_store *s = sq_of(base);
    int changed = 0;
    if (s->read_only)
        return err_set(e, ST_DB, "the store is open read-only: games cannot "
                       "be renamed");
    enum status st = sq_begin(s, e);
    if (st != ST_OK)
        return st;
    st = run_id_text(s, "UPDATE games SET name = ?2 WHERE id = ?1", id, name,
                     "rename", &changed, e);
    if (st == ST_OK && changed == 0)
        st = err_set(e, ST_NOT_FOUND, "no game %lld", (long long)id);
    /* the list entry holds the name: render it again from the row (one
     * written before migration 007 has none, and is rendered on read) */
    if (st == ST_OK)
        st = run_id_text(s,
                         "UPDATE game_entry SET entry = (SELECT json_object("
                         SQ_ENTRY_FIELDS ") FROM games g, game_entry e "
                         "WHERE g.id = ?1 AND e.game_id = ?1) "
                         "WHERE game_id = ?1 AND entry IS NOT NULL",
                         id, NULL, "render the list entry", NULL, e);
    /* the search text's first line is the name, the players follow */
    if (st == ST_OK)
        st = run_id_text(s,
                         "UPDATE game_search SET text = ?2 || coalesce("
                         "substr(text, nullif(instr(text, char(10)), 0)), "
                         "'') WHERE rowid = ?1",
                         id, name, "rename in the search", NULL, e);
    return sq_end(s, st, e);
}
