/* pg_write.c - one game in, one game out, each inside one transaction,
 * on PostgreSQL: the same rows as the SQLite backend writes
 * (sqlite_write.c says which), the aggregates kept by the triggers of
 * schema/pg/001_init.sql.
 *
 * Many daemons may write at once. Identical uploads: the games row goes
 * first, with ON CONFLICT DO NOTHING on the unique sha256 index, which
 * waits for a concurrent insert of the same bytes to commit or roll back;
 * when it did commit, nothing is written and the stored id is answered
 * as a duplicate. Replaces (live moves, re-audits) of one game take
 * turns on a transaction-scoped advisory lock keyed by the game id, and
 * a replace that names the upload it was built from (replaces_sha256)
 * sees the other's result. Not a row lock (SELECT ... FOR UPDATE): a
 * replace deletes the games row and inserts it again, so a transaction
 * waiting on the old row would find it gone and answer "no game". Two games whose players overlap update the same
 * aggregate rows in different orders and may deadlock: the server aborts
 * one, and it is run again (a fresh transaction; inside a batch, its
 * savepoint). */
#include <stdio.h>
#include <string.h>

#include "store/pg/pg_int.h"
#include "store/store_record.h"

#define PG_WRITE_TRIES 5 /* a game lost to a deadlock runs again */
#define PG_GAME_LOCK "1718183780" /* "flid": the class of game locks */

/* The list entry's players and winners arrays, as the SQLite backend
 * renders them with json_object() and json_quote(). */
static void render_players(const struct game_record *g,
                           const struct seat_sum *sum, struct buf *players,
                           struct buf *winners)
{
    const struct game_log *l = g->log;
    buf_puts(players, "[");
    buf_puts(winners, "[");
    for (int p = 0; l && p < l->rules.n_players; p++) {
        int k = 0;
        buf_puts(players, p ? ",{" : "{");
        pj_key(players, &k, "name");
        pj_string(players, l->names[p]);
        pj_key(players, &k, "color");
        pj_string(players, l->colors[p][0] ? l->colors[p] : NULL);
        pj_key(players, &k, "score");
        buf_printf(players, "%d", g->report->score[p]);
        pj_key(players, &k, "rank");
        buf_printf(players, "%d", sum[p].rank);
        pj_key(players, &k, "claimed");
        if (sum[p].has_claim)
            buf_printf(players, "%d", sum[p].claimed);
        else
            buf_puts(players, "null");
        buf_puts(players, "}");
        if (g->report->finished && sum[p].rank == 1) {
            buf_puts(winners, winners->len > 1 ? "," : "");
            pj_string(winners, l->names[p]);
        }
    }
    buf_puts(players, "]");
    buf_puts(winners, "]");
}

/* A new game: the id from the identity; nothing when the bytes are an
 * upload already stored (or being stored: the index waits for it). */
static const char SQL_GAME_NEW[] =
    "INSERT INTO games (sha256, format, source, name, uploaded_at, "
    "raw_size, engine, live, status, edition, followers, abbots, farmers, "
    "gardens, tiny_city, n_players, valid, finished, halted, turns, "
    "tiles_left, n_violations, n_flights, best_score, sets, elements, "
    "reason) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, "
    "$13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, "
    "$27) ON CONFLICT (sha256) WHERE source <> 'live' DO NOTHING "
    "RETURNING id";
/* A replace: the same id again. */
static const char SQL_GAME_ID[] =
    "INSERT INTO games (sha256, format, source, name, uploaded_at, "
    "raw_size, engine, live, status, edition, followers, abbots, farmers, "
    "gardens, tiny_city, n_players, valid, finished, halted, turns, "
    "tiles_left, n_violations, n_flights, best_score, sets, elements, "
    "reason, id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, "
    "$13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, "
    "$27, $28) RETURNING id";

/* $1 .. $27 of the games row; sets and elements must outlive p. */
static void game_params(struct pg_params *p, const struct game_record *g,
                        const struct buf *sets, const struct buf *elements)
{
    pp_text(p, g->sha256);
    pp_text(p, g->format);
    pp_text(p, g->source);
    pp_text(p, g->name);
    pp_int(p, g->uploaded_at);
    pp_int(p, (int64_t)g->raw_len);
    pp_text(p, g->engine);
    pp_int(p, g->live);
    pp_text(p, g->unsupported ? "unsupported" : "audited");
    if (g->unsupported) {
        for (int i = 0; i < 17; i++) /* edition .. elements */
            pp_null(p);
        pp_text(p, g->unsupported);
        return;
    }
    const struct rules *ru = &g->log->rules;
    const struct report *r = g->report;
    int best = 0;
    for (int i = 0; i < ru->n_players; i++)
        best = i == 0 || r->score[i] > best ? r->score[i] : best;
    pp_text(p, record_edition(ru));
    pp_int(p, ru->figures[FIG_SMALL]);
    pp_int(p, ru->figures[FIG_ABBOT]);
    pp_int(p, (ru->flags & RF_FARMERS) != 0);
    pp_int(p, (ru->flags & RF_GARDENS) != 0);
    pp_int(p, ru->opt[OPT_TINY_CITY]);
    pp_int(p, ru->n_players);
    pp_int(p, r->valid);
    pp_int(p, r->finished);
    pp_int(p, r->halted);
    pp_int(p, r->turns);
    pp_int(p, r->tiles_left);
    pp_int(p, (int64_t)r->n_violations);
    pp_int(p, (int64_t)r->n_flights);
    pp_int(p, best);
    pp_text(p, sets->p);
    pp_text(p, elements->p);
    pp_null(p); /* reason */
}

/* The games row. *out_id 0: the bytes are stored already (new games). */
static enum status write_game_row(struct pg_store *s, int64_t id,
                                  const struct game_record *g, int64_t *out_id,
                                  struct err *e)
{
    struct pg_params p;
    struct buf sets = BUF_INIT, elements = BUF_INIT;
    PGresult *r = NULL;
    *out_id = 0;
    if (!g->unsupported) {
        record_sets_json(&g->log->rules, &sets);
        record_elements_json(&g->log->rules, &elements);
    }
    pp_reset(&p);
    game_params(&p, g, &sets, &elements);
    if (id > 0)
        pp_int(&p, id);
    enum status st = pg_query(s, id > 0 ? SQL_GAME_ID : SQL_GAME_NEW, true,
                              &p, false, &r, "insert game", e);
    if (st == ST_OK && PQntuples(r) == 1)
        *out_id = pg_int(r, 0, 0);
    PQclear(r);
    buf_release(&sets);
    buf_release(&elements);
    return st;
}

/* Runs a cached INSERT of $1 the game id and $2 (and $3) texts. */
static enum status insert_texts(struct pg_store *s, const char *sql,
                                int64_t id, const struct buf *a,
                                const struct buf *b, struct err *e)
{
    struct pg_params p;
    pp_reset(&p);
    pp_int(&p, id);
    pp_text_len(&p, a->p, a->len);
    if (b)
        pp_text_len(&p, b->p, b->len);
    return pg_exec(s, sql, true, &p, "insert game data", e);
}

static enum status write_entry(struct pg_store *s, int64_t id,
                               const struct game_record *g,
                               const struct seat_sum *sum, struct err *e)
{
    struct buf players = BUF_INIT, winners = BUF_INIT, search = BUF_INIT;
    render_players(g, sum, &players, &winners);
    record_search_text(g, &search);
    enum status st = insert_texts(s,
                                  "INSERT INTO game_entry (game_id, "
                                  "players_json, winners_json) VALUES ($1, "
                                  "$2::text, $3::text)",
                                  id, &players, &winners, e);
    if (st == ST_OK)
        st = insert_texts(s,
                          "INSERT INTO game_search (game_id, text) "
                          "VALUES ($1, $2::text)",
                          id, &search, NULL, e);
    buf_release(&players);
    buf_release(&winners);
    buf_release(&search);
    return st;
}

static enum status write_blobs(struct pg_store *s, int64_t id,
                               const struct game_record *g, struct err *e)
{
    struct pg_params p;
    pp_reset(&p);
    pp_int(&p, id);
    pp_bytes(&p, g->raw, g->raw_len);
    enum status st = pg_exec(s,
                             "INSERT INTO game_raw (game_id, raw) "
                             "VALUES ($1, $2::bytea)",
                             true, &p, "insert raw", e);
    if (st == ST_OK && !g->unsupported) {
        const char *json = g->report_json;
        struct buf rep = { (char *)json, strlen(json), 0 };
        st = insert_texts(s,
                          "INSERT INTO game_report (game_id, json) "
                          "VALUES ($1, $2::text)",
                          id, &rep, NULL, e);
    }
    return st;
}

/* The id of the player with this name, created if new. Two statements:
 * when another transaction adds the name meanwhile, the insert waits
 * for it and does nothing, and only a new statement sees its row. */
static enum status player_id(struct pg_store *s, const char *name,
                             int64_t *out, struct err *e)
{
    struct pg_params p;
    PGresult *r = NULL;
    pp_reset(&p);
    pp_text(&p, name);
    enum status st = pg_query(s,
                              "INSERT INTO players (name) VALUES ($1) "
                              "ON CONFLICT (name) DO NOTHING RETURNING id",
                              true, &p, false, &r, "insert player", e);
    if (st == ST_OK && PQntuples(r) == 0) {
        PQclear(r);
        r = NULL;
        st = pg_query(s, "SELECT id FROM players WHERE name = $1", true, &p,
                      false, &r, "find player", e);
        if (st == ST_OK && PQntuples(r) == 0)
            st = err_set(e, ST_DB, "find player '%s': not there", name);
    }
    if (st == ST_OK)
        *out = pg_int(r, 0, 0);
    PQclear(r);
    return st;
}

static enum status write_seat(struct pg_store *s, int64_t id,
                              const struct game_record *g, int seat,
                              int64_t pid, const struct seat_sum *q,
                              struct err *e)
{
    struct pg_params p;
    bool fin = g->report->finished;
    pp_reset(&p);
    pp_int(&p, id);
    pp_int(&p, seat);
    pp_int(&p, pid);
    pp_text(&p, g->log->colors[seat][0] ? g->log->colors[seat] : NULL);
    pp_int(&p, g->report->score[seat]);
    pp_int(&p, q->rank);
    if (q->has_claim)
        pp_int(&p, q->claimed);
    else
        pp_null(&p);
    pp_int(&p, fin);
    pp_int(&p, fin && q->rank == 1);
    pp_int(&p, q->flights);
    pp_int(&p, q->landed);
    pp_int(&p, q->returned);
    pp_int(&p, q->forced);
    pp_int(&p, q->flier_points);
    for (int k = 0; k < 3; k++)
        pp_int(&p, q->rolls[k]);
    return pg_exec(s,
                   "INSERT INTO game_players (game_id, seat, player_id, "
                   "color, score, rank, claimed, finished, winner, flights, "
                   "landed, returned, forced, flier_points, rolls1, rolls2, "
                   "rolls3) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, "
                   "$11, $12, $13, $14, $15, $16, $17)",
                   true, &p, "insert seat", e);
}

static enum status write_players(struct pg_store *s, int64_t id,
                                 const struct game_record *g,
                                 const struct seat_sum *sum, struct err *e)
{
    int64_t pid[GAME_MAX_PLAYERS] = { 0 };
    int n = g->log->rules.n_players;
    enum status st = ST_OK;
    for (int p = 0; p < n && st == ST_OK; p++) {
        st = player_id(s, g->log->names[p], &pid[p], e);
        if (st == ST_OK)
            st = write_seat(s, id, g, p, pid[p], &sum[p], e);
    }
    for (int p = 0; p < n && st == ST_OK; p++)
        for (int f = 0; f < FEAT__COUNT && st == ST_OK; f++) {
            struct pg_params q;
            if (!sum[p].scored[f])
                continue;
            pp_reset(&q);
            pp_int(&q, id);
            pp_int(&q, p);
            pp_text(&q, feat_name(f));
            pp_int(&q, pid[p]);
            pp_int(&q, sum[p].pts[f]);
            st = pg_exec(s,
                         "INSERT INTO game_player_points (game_id, seat, "
                         "feature, player_id, points) VALUES ($1, $2, $3, "
                         "$4, $5)",
                         true, &q, "insert points", e);
        }
    return st;
}

static enum status write_expansions(struct pg_store *s, int64_t id,
                                    const struct rules *r, struct err *e)
{
    uint32_t units = game_rules_units(r);
    enum status st = ST_OK;
    for (int x = 0; x < EXP__COUNT && st == ST_OK; x++) {
        struct pg_params p;
        if (!(units >> x & 1))
            continue;
        pp_reset(&p);
        pp_int(&p, id);
        pp_text(&p, expansion_get(x)->id);
        st = pg_exec(s,
                     "INSERT INTO game_expansions (game_id, expansion) "
                     "VALUES ($1, $2)",
                     true, &p, "insert expansion", e);
    }
    return st;
}

static enum status write_flight(struct pg_store *s, int64_t id, size_t i,
                                const struct flight *f, struct err *e)
{
    struct pg_params p;
    struct buf opts = BUF_INIT;
    char seg[40];
    pp_reset(&p);
    pp_int(&p, id);
    pp_int(&p, (int64_t)i);
    pp_int(&p, f->turn);
    pp_int(&p, f->player);
    pp_int(&p, f->from.x);
    pp_int(&p, f->from.y);
    pp_text(&p, dir_name(f->dir));
    pp_int(&p, f->dir & 1);
    pp_int(&p, f->roll);
    pp_int(&p, f->bad_roll);
    pp_int(&p, f->target.x);
    pp_int(&p, f->target.y);
    pp_text(&p, f->landed ? "landed" : f->pending ? "pending" : "returned");
    if (f->landed) {
        seg_format(f->feature, f->mask, seg, sizeof seg);
        pp_text(&p, seg);
    } else {
        pp_null(&p);
    }
    pp_int(&p, f->n_options);
    record_options_json(f, &opts);
    pp_text(&p, opts.p);
    for (int k = 0; k < 3; k++)
        pp_int(&p, f->n_by_roll[k]);
    /* NULL for a figure this engine does not know: NOT NULL then refuses
     * the game rather than count it under a wrong name */
    const struct figure_class *fc = figure_class(f->figure);
    pp_text(&p, fc ? fc->jcz : NULL);
    enum status st = pg_exec(
        s,
        "INSERT INTO flights (game_id, idx, turn, seat, from_x, from_y, dir, "
        "diagonal, roll, bad_roll, target_x, target_y, outcome, landing, "
        "n_options, options, n_roll1, n_roll2, n_roll3, figure) VALUES ($1, "
        "$2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, "
        "$17, $18, $19, $20)",
        true, &p, "insert flight", e);
    buf_release(&opts);
    return st;
}

static enum status write_violation(struct pg_store *s, int64_t id, size_t i,
                                   const struct violation *v, struct err *e)
{
    struct pg_params p;
    pp_reset(&p);
    pp_int(&p, id);
    pp_int(&p, (int64_t)i);
    if (v->turn >= 0)
        pp_int(&p, v->turn);
    else
        pp_null(&p);
    if (v->player >= 0)
        pp_int(&p, v->player);
    else
        pp_null(&p);
    /* NULL for a rule this engine does not know: refused, not "UNKNOWN" */
    pp_text(&p, (unsigned)v->rule < RULE__COUNT ? rule_id(v->rule) : NULL);
    pp_int(&p, v->src);
    pp_text(&p, v->msg);
    return pg_exec(s,
                   "INSERT INTO violations (game_id, idx, turn, seat, rule, "
                   "src, message) VALUES ($1, $2, $3, $4, $5, $6, $7)",
                   true, &p, "insert violation", e);
}

/* Every row of game g; *out_id 0 when it is an upload already stored. */
static enum status write_game(struct pg_store *s, int64_t id,
                              int64_t uploaded_at, const struct game_record *g,
                              int64_t *out_id, struct err *e)
{
    struct seat_sum sum[GAME_MAX_PLAYERS];
    struct game_record rec = *g;
    bool audited = !g->unsupported;
    rec.uploaded_at = uploaded_at;
    memset(sum, 0, sizeof sum);
    if (audited)
        record_summarise(&rec, sum);
    enum status st = write_game_row(s, id, &rec, out_id, e);
    if (st != ST_OK || *out_id == 0)
        return st;
    if (st == ST_OK)
        st = write_entry(s, *out_id, &rec, sum, e);
    if (st == ST_OK)
        st = write_blobs(s, *out_id, &rec, e);
    if (st == ST_OK && audited)
        st = write_players(s, *out_id, &rec, sum, e);
    if (st == ST_OK && audited)
        st = write_expansions(s, *out_id, &rec.log->rules, e);
    for (size_t i = 0; audited && i < rec.report->n_flights && st == ST_OK;
         i++)
        st = write_flight(s, *out_id, i, &rec.report->flights[i], e);
    for (size_t i = 0; audited && i < rec.report->n_violations && st == ST_OK;
         i++)
        st = write_violation(s, *out_id, i, &rec.report->violations[i], e);
    return st;
}

/* Children first: the aggregate triggers of points and flights find the
 * seat's player in game_players, and the foreign keys would refuse the
 * games row (or a seat) going first. */
static enum status delete_game(struct pg_store *s, int64_t id, struct err *e)
{
    static const char *const sql[] = {
        "DELETE FROM flights WHERE game_id = $1",
        "DELETE FROM violations WHERE game_id = $1",
        "DELETE FROM game_player_points WHERE game_id = $1",
        "DELETE FROM game_players WHERE game_id = $1",
        "DELETE FROM game_expansions WHERE game_id = $1",
        "DELETE FROM game_raw WHERE game_id = $1",
        "DELETE FROM game_report WHERE game_id = $1",
        "DELETE FROM game_entry WHERE game_id = $1",
        "DELETE FROM game_search WHERE game_id = $1",
        "DELETE FROM games WHERE id = $1",
    };
    struct pg_params p;
    enum status st = ST_OK;
    pp_reset(&p);
    pp_int(&p, id);
    for (size_t i = 0; i < sizeof sql / sizeof *sql && st == ST_OK; i++)
        st = pg_exec(s, sql[i], true, &p, "delete game", e);
    return st;
}

/* ---- the public entry points --------------------------------------------- */

static enum status check_record(const struct pg_store *s,
                                const struct game_record *g, struct err *e)
{
    if (s->read_only)
        return err_set(e, ST_DB, "the store is open read-only: games cannot "
                       "be written");
    if (!g || !g->sha256 || !g->format || !g->source || !g->engine ||
        (!g->raw && g->raw_len > 0))
        return err_set(e, ST_DB, "incomplete game record: sha256, format, "
                       "source and engine are required");
    if (g->unsupported) {
        if (!g->unsupported[0] || g->live)
            return err_set(e, ST_DB, "an unsupported game needs its reason "
                           "and is never live");
        return ST_OK;
    }
    if (!g->log || !g->report || !g->report_json)
        return err_set(e, ST_DB, "incomplete game record: log, report and "
                       "report_json are required");
    int n = g->log->rules.n_players;
    if (n < 1 || n > GAME_MAX_PLAYERS)
        return err_set(e, ST_DB, "game record with %d players", n);
    return ST_OK;
}

static bool dedupes(const struct game_record *g)
{
    return !g->live && strcmp(g->source, "live") != 0;
}

/* *out_id: the upload holding these bytes (other than not_id), or 0. */
static enum status find_sha(struct pg_store *s, const char *sha,
                            int64_t not_id, int64_t *out_id, struct err *e)
{
    struct pg_params p;
    PGresult *r = NULL;
    *out_id = 0;
    pp_reset(&p);
    pp_text(&p, sha);
    pp_int(&p, not_id);
    enum status st = pg_query(s,
                              "SELECT id FROM games WHERE sha256 = $1 AND "
                              "source <> 'live' AND id <> $2",
                              true, &p, false, &r, "find sha256", e);
    if (st == ST_OK && PQntuples(r) > 0)
        *out_id = pg_int(r, 0, 0);
    PQclear(r);
    return st;
}

static enum status insert_once(struct pg_store *s, const struct game_record *g,
                               int64_t *out_id, bool *out_duplicate,
                               struct err *e)
{
    int64_t have = 0;
    enum status st = pg_begin(s, false, e);
    if (st != ST_OK)
        return st;
    if (dedupes(g))
        st = find_sha(s, g->sha256, 0, &have, e);
    if (st == ST_OK && have == 0)
        st = write_game(s, 0, g->uploaded_at, g, out_id, e);
    /* the insert met a concurrent one of the same bytes: it committed */
    if (st == ST_OK && have == 0 && *out_id == 0) {
        st = find_sha(s, g->sha256, 0, &have, e);
        if (st == ST_OK && have == 0)
            st = err_set(e, ST_BUSY, "insert game: the same upload was "
                         "being stored by another writer");
    }
    if (st == ST_OK && have > 0) {
        *out_id = have;
        *out_duplicate = true;
    }
    return pg_end(s, st, e);
}

enum status pg_insert_game(struct store *base, const struct game_record *g,
                           int64_t *out_id, bool *out_duplicate,
                           struct err *e)
{
    struct pg_store *s = pg_of(base);
    *out_id = 0;
    *out_duplicate = false;
    enum status st = check_record(s, g, e);
    for (int i = 0; st == ST_OK && i < PG_WRITE_TRIES; i++) {
        *out_id = 0;
        *out_duplicate = false;
        st = insert_once(s, g, out_id, out_duplicate, e);
        if (st == ST_OK || !pg_retryable(s) || s->batch_lost ||
            i + 1 == PG_WRITE_TRIES)
            break;
        st = ST_OK; /* lost to a deadlock: again */
    }
    if (st != ST_OK) {
        *out_id = 0;
        *out_duplicate = false;
    }
    return st;
}

/* The upload time, file name (out_name stays empty when none) and digest
 * of game id, read once the game's lock is ours (kept until the
 * transaction ends; the statement after it sees the last replace). */
static enum status lock_game(struct pg_store *s, int64_t id, int64_t *out_at,
                             struct buf *out_name, char out_sha[65],
                             struct err *e)
{
    struct pg_params p;
    PGresult *r = NULL;
    pp_reset(&p);
    pp_int(&p, id);
    out_sha[0] = '\0';
    /* two int4 keys: a space apart from the migrations' bigint one */
    enum status st = pg_exec(s,
                             "SELECT pg_advisory_xact_lock(" PG_GAME_LOCK
                             ", ($1 % 2147483647)::int)",
                             true, &p, "lock game", e);
    if (st == ST_OK)
        st = pg_query(s,
                      "SELECT uploaded_at, name, sha256 FROM games "
                      "WHERE id = $1",
                      true, &p, false, &r, "find game", e);
    if (st == ST_OK && PQntuples(r) == 0)
        st = err_set(e, ST_NOT_FOUND, "no game %lld", (long long)id);
    if (st == ST_OK) {
        *out_at = pg_int(r, 0, 0);
        if (pg_cell(r, 0, 1))
            buf_puts(out_name, pg_cell(r, 0, 1));
        snprintf(out_sha, 65, "%s", PQgetvalue(r, 0, 2));
    }
    PQclear(r);
    return st;
}

static enum status replace_once(struct pg_store *s, int64_t id,
                                const struct game_record *g, struct err *e)
{
    int64_t at = 0, other = 0, got = 0;
    struct buf name = BUF_INIT;
    char sha[65];
    enum status st = pg_begin(s, false, e);
    if (st != ST_OK)
        return st;
    st = lock_game(s, id, &at, &name, sha, e);
    if (st == ST_OK && g->replaces_sha256 &&
        strcmp(g->replaces_sha256, sha) != 0)
        st = err_set(e, ST_CONFLICT, "game %lld changed since it was read",
                     (long long)id);
    if (st == ST_OK && dedupes(g))
        st = find_sha(s, g->sha256, id, &other, e);
    if (st == ST_OK && other > 0)
        st = err_set(e, ST_DB, "cannot replace game %lld: game %lld holds "
                     "the same bytes", (long long)id, (long long)other);
    if (st == ST_OK)
        st = delete_game(s, id, e);
    if (st == ST_OK) {
        struct game_record rec = *g;
        rec.name = g->name ? g->name : name.p;
        st = write_game(s, id, at, &rec, &got, e);
    }
    buf_release(&name);
    return pg_end(s, st, e);
}

enum status pg_replace_game(struct store *base, int64_t id,
                            const struct game_record *g, struct err *e)
{
    struct pg_store *s = pg_of(base);
    enum status st = check_record(s, g, e);
    for (int i = 0; st == ST_OK && i < PG_WRITE_TRIES; i++) {
        st = replace_once(s, id, g, e);
        if (st == ST_OK || !pg_retryable(s) || s->batch_lost ||
            i + 1 == PG_WRITE_TRIES)
            break;
        st = ST_OK; /* lost to a deadlock: again */
    }
    return st;
}
