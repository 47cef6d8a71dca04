/* pg_rating.c - the ratings on PostgreSQL (store_rating.h). A trigger
 * on games notes each rated game a transaction writes, deletes or
 * promotes in rating_stale, committed with it (schema/pg/003); after
 * the commit the writer computes the ratings again from the earliest
 * noted place, under one advisory lock so that two daemons' passes never
 * cross. A pass that fails leaves its rows noted for the next one: the
 * game it follows is stored either way. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "store/pg/pg_int.h"
#include "store/store_rating.h"

#define PG_RATING_LOCK "1718183781" /* the class of game locks, plus one */

static const char SQL_TAKE[] =
    "WITH d AS (DELETE FROM rating_stale RETURNING played_at, game_id) "
    "SELECT played_at, game_id FROM d ORDER BY 1, 2 LIMIT 1";

static const char SQL_DROP_FROM[] =
    "DELETE FROM rating_history WHERE (played_at, game_id) >= ($1, $2)";

static const char SQL_GAMES_FROM[] =
    "SELECT g.id, g.uploaded_at, gp.player_id, gp.rank FROM games g "
    "JOIN game_players gp ON gp.game_id = g.id WHERE " RATED_GAME("g")
    " AND (g.uploaded_at, g.id) >= ($1, $2) "
    "ORDER BY g.uploaded_at, g.id, gp.seat";

static const char SQL_SEEDS[] =
    "SELECT p.player_id, h.mu, h.sigma FROM (SELECT DISTINCT gp.player_id "
    "FROM games g JOIN game_players gp ON gp.game_id = g.id WHERE "
    RATED_GAME("g") " AND (g.uploaded_at, g.id) >= ($1, $2)) p "
    "JOIN rating_history h ON h.player_id = p.player_id AND h.game_id = "
    "(SELECT x.game_id FROM rating_history x WHERE x.player_id = "
    "p.player_id ORDER BY x.played_at DESC, x.game_id DESC LIMIT 1)";

static const char SQL_INSERT[] =
    "INSERT INTO rating_history (game_id, player_id, played_at, mu, sigma, "
    "shown) SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], "
    "$4::float8[], $5::float8[], $6::float8[])";

/* The pass's rows as six array literals, one per column. */
static void row_arrays(const struct rating_run *run, struct buf a[6])
{
    for (int c = 0; c < 6; c++)
        buf_puts(&a[c], "{");
    for (size_t i = 0; i < run->n_rows; i++) {
        const struct rating_row *r = &run->rows[i];
        const char *sep = i ? "," : "";
        buf_printf(&a[0], "%s%" PRId64, sep, r->game_id);
        buf_printf(&a[1], "%s%" PRId64, sep, r->player_id);
        buf_printf(&a[2], "%s%" PRId64, sep, r->at);
        /* 17 digits: the double read back is the one written */
        buf_printf(&a[3], "%s%.17g", sep, r->mu);
        buf_printf(&a[4], "%s%.17g", sep, r->sigma);
        buf_printf(&a[5], "%s%.17g", sep, r->shown);
    }
    for (int c = 0; c < 6; c++)
        buf_puts(&a[c], "}");
}

/* Rates from (at, id) on, inside the pass's transaction. */
static enum status rate_from(struct pg_store *s, int64_t at, int64_t id,
                             struct err *e)
{
    struct pg_params p, rows;
    struct pg_stmt q[3];
    struct rating_run run;
    struct buf a[6] = { BUF_INIT, BUF_INIT, BUF_INIT,
                        BUF_INIT, BUF_INIT, BUF_INIT };
    pp_reset(&p);
    pp_int(&p, at);
    pp_int(&p, id);
    q[0] = (struct pg_stmt){ .sql = SQL_DROP_FROM, .p = &p };
    q[1] = (struct pg_stmt){ .sql = SQL_SEEDS, .p = &p };
    q[2] = (struct pg_stmt){ .sql = SQL_GAMES_FROM, .p = &p };
    rating_run_init(&run);
    enum status st = pg_pipeline(s, q, 3, "read the rated games", e);
    for (int i = 0; st == ST_OK && i < PQntuples(q[1].res); i++)
        rating_run_seed(&run, pg_int(q[1].res, i, 0),
                        strtod(PQgetvalue(q[1].res, i, 1), NULL),
                        strtod(PQgetvalue(q[1].res, i, 2), NULL));
    for (int i = 0; st == ST_OK && i < PQntuples(q[2].res); i++)
        rating_run_seat(&run, pg_int(q[2].res, i, 0), pg_int(q[2].res, i, 1),
                        pg_int(q[2].res, i, 2), (int)pg_int(q[2].res, i, 3));
    pg_pipeline_clear(q, 3);
    rating_run_finish(&run);
    if (st == ST_OK && run.n_rows > 0) {
        row_arrays(&run, a);
        pp_reset(&rows);
        for (int c = 0; c < 6; c++)
            pp_text(&rows, a[c].p);
        st = pg_exec(s, SQL_INSERT, true, &rows, "write the ratings", e);
    }
    for (int c = 0; c < 6; c++)
        buf_release(&a[c]);
    rating_run_release(&run);
    return st;
}

enum status pg_rating_refresh(struct pg_store *s, struct err *e)
{
    struct pg_stmt q[3];
    int64_t at = 0, id = 0;
    bool any = false;
    if (s->base.ratings_deferred || s->read_only || s->batch)
        return ST_OK;
    enum status st = pg_enter(s, e);
    if (st != ST_OK)
        return st;
    q[0] = (struct pg_stmt){ .sql = "BEGIN" };
    q[1] = (struct pg_stmt){ .sql = "SELECT pg_advisory_xact_lock("
                                    PG_RATING_LOCK ", 0)" };
    q[2] = (struct pg_stmt){ .sql = SQL_TAKE };
    st = pg_pipeline(s, q, 3, "take the stale ratings", e);
    if (st == ST_OK && PQntuples(q[2].res) > 0) {
        any = true;
        at = pg_int(q[2].res, 0, 0);
        id = pg_int(q[2].res, 0, 1);
    }
    pg_pipeline_clear(q, 3);
    if (st == ST_OK && any)
        st = rate_from(s, at, id, e);
    return pg_end(s, st, e);
}

enum status pg_ratings_rebuild(struct store *base, struct err *e)
{
    struct pg_store *s = pg_of(base);
    if (s->read_only)
        return err_set(e, ST_DB, "the store is open read-only");
    enum status st = pg_exec(s,
                             "INSERT INTO rating_stale VALUES (0, "
                             "-9223372036854775808) ON CONFLICT (game_id) "
                             "DO UPDATE SET played_at = excluded.played_at",
                             true, NULL, "mark every rating stale", e);
    if (st == ST_OK)
        st = pg_rating_refresh(s, e);
    return st;
}
