/* pg_write.c - one game in, one game out, each inside one transaction,
 * on PostgreSQL: the same rows as the SQLite backend writes
 * (sqlite_write.c says which), the aggregates counted by count_games()
 * of schema/pg/001_init.sql before the transaction commits (a batch's
 * games all at once, when the batch commits).
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
 * waiting on the old row would find it gone and answer "no game".
 * Counter rows are taken in one order (count_games), after the names a
 * game adds, so writers counting at once take turns; two adding the
 * same new player names in other orders may deadlock: the server aborts
 * one, and that game runs again (a fresh transaction; inside a batch,
 * its savepoint). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/content.h"
#include "store/pg/pg_int.h"
#include "store/store_rating.h"
#include "store/store_record.h"

#define PG_WRITE_TRIES 5 /* a game lost to a deadlock runs again */
#define PG_GAME_LOCK "1718183780" /* "flid": the class of game locks */

/* ---- a game's statement ------------------------------------------------- */

/* A game is written by one statement (and its new player names by one
 * before it): its games row, then every child row from arrays, one per
 * column, that unnest() turns into rows. A game has some forty rows, and
 * a statement per row cost a round trip and the executor's start each;
 * the two statements go with their savepoint in one round trip
 * (pg_pipeline), planned once per connection. Foreign keys are checked
 * at the end of the statement, when the games row is there. */
#define GAME_COLS                                                              \
    "sha256, format, source, name, uploaded_at, raw_size, engine, live, "     \
    "status, edition, followers, abbots, farmers, gardens, tiny_city, "       \
    "n_players, valid, finished, halted, turns, tiles_left, n_violations, "   \
    "n_flights, best_score, sets, elements, reason, content_sha256, dup_of"
#define GAME_VALUES                                                            \
    "$1::text, $2::text, $3::text, $4::text, $5::bigint, $6::bigint, "        \
    "$7::text, $8::integer, $9::text, $10::text, $11::integer, "              \
    "$12::integer, $13::integer, $14::integer, $15::integer, $16::integer, "  \
    "$17::integer, $18::integer, $19::integer, $20::integer, $21::integer, "  \
    "$22::integer, $23::integer, $24::integer, $25::text, $26::text, "        \
    "$27::text, $76::text, (SELECT min(d.id) FROM games d WHERE "           \
    "d.content_sha256 = $76::text AND d.source <> 'live' AND d.dup_of IS " \
    "NULL AND $3::text <> 'live' AND $8::integer = 0)"
/* The child rows of the games row g: $28 .. $75. */
#define GAME_CHILDREN                                                          \
    ", entry AS (INSERT INTO game_entry (game_id, players_json, "             \
    "winners_json) SELECT id, $28::text, $29::text FROM g), "                 \
    "search AS (INSERT INTO game_search (game_id, text) SELECT id, "          \
    "$30::text FROM g), "                                                     \
    "raw AS (INSERT INTO game_raw (game_id, raw) SELECT id, $31::bytea "      \
    "FROM g), "                                                               \
    "report AS (INSERT INTO game_report (game_id, json) SELECT id, "          \
    "$32::text FROM g WHERE $32::text IS NOT NULL), "                         \
    "seats AS (INSERT INTO game_players (game_id, seat, player_id, color, "   \
    "score, rank, claimed, finished, winner, flights, landed, returned, "     \
    "forced, flier_points, rolls1, rolls2, rolls3) SELECT g.id, t.n - 1, "    \
    "(SELECT p.id FROM players p WHERE p.name = t.name), t.color, t.score, "  \
    "t.rank, t.claimed, t.finished, t.winner, t.flights, t.landed, "          \
    "t.returned, t.forced, t.flier_points, t.rolls1, t.rolls2, t.rolls3 "     \
    "FROM g, unnest($33::text[], $34::text[], $35::integer[], "               \
    "$36::integer[], $37::integer[], $38::integer[], $39::integer[], "        \
    "$40::integer[], $41::integer[], $42::integer[], $43::integer[], "        \
    "$44::integer[], $45::integer[], $46::integer[], $47::integer[]) "        \
    "WITH ORDINALITY AS t (name, color, score, rank, claimed, finished, "     \
    "winner, flights, landed, returned, forced, flier_points, rolls1, "       \
    "rolls2, rolls3, n)), "                                                   \
    "points AS (INSERT INTO game_player_points (game_id, seat, feature, "     \
    "player_id, points) SELECT g.id, t.seat, t.feature, (SELECT p.id FROM "   \
    "players p WHERE p.name = ($33::text[])[t.seat + 1]), t.points FROM g, "  \
    "unnest($48::integer[], $49::text[], $50::integer[]) AS t (seat, "        \
    "feature, points)), "                                                     \
    "expansions AS (INSERT INTO game_expansions (game_id, expansion) "        \
    "SELECT g.id, t.x FROM g, unnest($51::text[]) AS t (x)), "                \
    "fl AS (INSERT INTO flights (game_id, idx, turn, seat, from_x, from_y, "  \
    "dir, diagonal, roll, bad_roll, target_x, target_y, outcome, landing, "   \
    "n_options, options, n_roll1, n_roll2, n_roll3, figure, points) SELECT "  \
    "g.id, t.n - 1, t.turn, t.seat, t.from_x, t.from_y, t.dir, t.diagonal, "  \
    "t.roll, t.bad_roll, t.target_x, t.target_y, t.outcome, t.landing, "      \
    "t.n_options, t.options, t.n_roll1, t.n_roll2, t.n_roll3, t.figure, "     \
    "t.points FROM g, unnest($52::integer[], $53::integer[], "                \
    "$54::integer[], $55::integer[], $56::text[], $57::integer[], "           \
    "$58::integer[], $59::integer[], $60::integer[], $61::integer[], "        \
    "$62::text[], $63::text[], $64::integer[], $65::text[], $66::integer[], " \
    "$67::integer[], $68::integer[], $69::text[], $70::integer[]) WITH "      \
    "ORDINALITY AS t (turn, seat, from_x, from_y, dir, diagonal, roll, "      \
    "bad_roll, target_x, target_y, outcome, landing, n_options, options, "    \
    "n_roll1, n_roll2, n_roll3, figure, points, n)), "                        \
    "viol AS (INSERT INTO violations (game_id, idx, turn, seat, rule, src, "  \
    "message) SELECT g.id, t.n - 1, t.turn, t.seat, t.rule, t.src, "          \
    "t.message FROM g, unnest($71::integer[], $72::integer[], $73::text[], "  \
    "$74::bigint[], $75::text[]) WITH ORDINALITY AS t (turn, seat, rule, "    \
    "src, message, n)) "

/* A new game: (id, 1); (id, 0) when the bytes are an upload already
 * stored; no row when a concurrent insert of the same bytes committed
 * after this statement began (the index waited for it; a new statement
 * sees it). Stored bytes are looked for first so that a duplicate takes
 * no identity value (ids of SQLite's kind, without gaps), then the
 * index settles a race. */
static const char SQL_GAME_NEW[] =
    "WITH g AS (INSERT INTO games (" GAME_COLS ") SELECT " GAME_VALUES
    " WHERE $3::text = 'live' OR NOT EXISTS (SELECT 1 FROM games WHERE "
    "sha256 = $1::text AND source <> 'live') ON CONFLICT (sha256) WHERE "
    "source <> 'live' DO NOTHING RETURNING id)" GAME_CHILDREN
    "SELECT id, 1 FROM g UNION ALL SELECT id, 0 FROM games WHERE sha256 = "
    "$1::text AND source <> 'live' AND $3::text <> 'live' AND NOT EXISTS "
    "(SELECT 1 FROM g)";
/* A replace: the same id again, $77. */
static const char SQL_GAME_ID[] =
    "WITH g AS (INSERT INTO games (" GAME_COLS ", id) VALUES (" GAME_VALUES
    ", $77::bigint) RETURNING id)" GAME_CHILDREN "SELECT id, 1 FROM g";
/* The game's player names, before the statement that looks them up: a
 * name another transaction is adding meanwhile is waited for here, and
 * only a statement that begins after sees its row. */
static const char SQL_PLAYERS[] =
    "INSERT INTO players (name) SELECT unnest($1::text[]) "
    "ON CONFLICT (name) DO NOTHING";

/* Arrays of the child rows, $33 .. $75 in this order. */
enum {
    A_NAME, A_COLOR, A_SCORE, A_RANK, A_CLAIMED, A_FINISHED, A_WINNER,
    A_FLIGHTS, A_LANDED, A_RETURNED, A_FORCED, A_FLIER_POINTS, A_ROLLS1,
    A_ROLLS2, A_ROLLS3,
    A_PT_SEAT, A_PT_FEATURE, A_PT_POINTS,
    A_EXPANSION,
    A_F_TURN, A_F_SEAT, A_F_FROM_X, A_F_FROM_Y, A_F_DIR, A_F_DIAGONAL,
    A_F_ROLL, A_F_BAD_ROLL, A_F_TARGET_X, A_F_TARGET_Y, A_F_OUTCOME,
    A_F_LANDING, A_F_N_OPTIONS, A_F_OPTIONS, A_F_N_ROLL1, A_F_N_ROLL2,
    A_F_N_ROLL3, A_F_FIGURE, A_F_POINTS,
    A_V_TURN, A_V_SEAT, A_V_RULE, A_V_SRC, A_V_MESSAGE,
    A__COUNT
};

/* Everything a game's statement sends: the values must outlive it. */
struct game_rows {
    struct pg_params p;
    struct pg_params names; /* SQL_PLAYERS's */
    struct buf sets, elements, players, winners, search;
    struct buf a[A__COUNT];
    struct buf names_arr;
    char content[SHA256_HEX_LEN]; /* $76, "" when not audited */
};

/* Array literals: {1,NULL,"a \"b\""}. An element goes after a ',' once
 * the array has one ("{" alone: none yet). */
static void arr_sep(struct buf *b)
{
    buf_puts(b, b->len > 1 ? "," : "");
}

static void arr_int(struct buf *b, int64_t v)
{
    arr_sep(b);
    buf_printf(b, "%lld", (long long)v);
}

static void arr_text(struct buf *b, const char *s)
{
    arr_sep(b);
    if (!s) {
        buf_puts(b, "NULL");
        return;
    }
    buf_puts(b, "\"");
    while (*s) {
        size_t n = strcspn(s, "\"\\");
        buf_append(b, s, n);
        s += n;
        if (*s) {
            char esc[2] = { '\\', *s++ };
            buf_append(b, esc, 2);
        }
    }
    buf_puts(b, "\"");
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The seats' arrays, and the names once each in byte order: two games
 * adding the same new names take their index entries in one order. */
static void seat_arrays(struct game_rows *w, const struct game_record *g,
                        const struct seat_sum *sum)
{
    const struct game_log *l = g->log;
    const char *sorted[GAME_MAX_PLAYERS];
    int n = l->rules.n_players;
    bool fin = g->report->finished;
    for (int p = 0; p < n; p++) {
        const struct seat_sum *q = &sum[p];
        sorted[p] = l->names[p];
        arr_text(&w->a[A_NAME], l->names[p]);
        arr_text(&w->a[A_COLOR], l->colors[p][0] ? l->colors[p] : NULL);
        arr_int(&w->a[A_SCORE], g->report->score[p]);
        arr_int(&w->a[A_RANK], q->rank);
        if (q->has_claim)
            arr_int(&w->a[A_CLAIMED], q->claimed);
        else
            arr_text(&w->a[A_CLAIMED], NULL);
        arr_int(&w->a[A_FINISHED], fin);
        arr_int(&w->a[A_WINNER], fin && q->rank == 1);
        arr_int(&w->a[A_FLIGHTS], q->flights);
        arr_int(&w->a[A_LANDED], q->landed);
        arr_int(&w->a[A_RETURNED], q->returned);
        arr_int(&w->a[A_FORCED], q->forced);
        arr_int(&w->a[A_FLIER_POINTS], q->flier_points);
        arr_int(&w->a[A_ROLLS1], q->rolls[0]);
        arr_int(&w->a[A_ROLLS2], q->rolls[1]);
        arr_int(&w->a[A_ROLLS3], q->rolls[2]);
        for (int f = 0; f < FEAT__CLASSES; f++) {
            if (!q->scored[f])
                continue;
            arr_int(&w->a[A_PT_SEAT], p);
            arr_text(&w->a[A_PT_FEATURE], feat_name(f));
            arr_int(&w->a[A_PT_POINTS], q->pts[f]);
        }
    }
    qsort(sorted, (size_t)n, sizeof *sorted, by_name);
    buf_puts(&w->names_arr, "{");
    for (int p = 0; p < n; p++)
        if (p == 0 || strcmp(sorted[p], sorted[p - 1]) != 0)
            arr_text(&w->names_arr, sorted[p]);
    buf_puts(&w->names_arr, "}");
}

static void flight_arrays(struct game_rows *w, const struct report *r)
{
    struct buf opts = BUF_INIT;
    char seg[40];
    for (size_t i = 0; i < r->n_flights; i++) {
        const struct flight *f = &r->flights[i];
        arr_int(&w->a[A_F_TURN], f->turn);
        arr_int(&w->a[A_F_SEAT], f->player);
        arr_int(&w->a[A_F_FROM_X], f->from.x);
        arr_int(&w->a[A_F_FROM_Y], f->from.y);
        arr_text(&w->a[A_F_DIR], dir_name(f->dir));
        arr_int(&w->a[A_F_DIAGONAL], f->dir & 1);
        arr_int(&w->a[A_F_ROLL], f->roll);
        arr_int(&w->a[A_F_BAD_ROLL], f->bad_roll);
        arr_int(&w->a[A_F_TARGET_X], f->target.x);
        arr_int(&w->a[A_F_TARGET_Y], f->target.y);
        arr_text(&w->a[A_F_OUTCOME], f->landed    ? "landed"
                                     : f->pending ? "pending"
                                                  : "returned");
        if (f->landed)
            seg_format(f->feature, f->mask, seg, sizeof seg);
        arr_text(&w->a[A_F_LANDING], f->landed ? seg : NULL);
        arr_int(&w->a[A_F_N_OPTIONS], f->n_options);
        record_options_json(f, &opts);
        arr_text(&w->a[A_F_OPTIONS], opts.p);
        arr_int(&w->a[A_F_N_ROLL1], f->n_by_roll[0]);
        arr_int(&w->a[A_F_N_ROLL2], f->n_by_roll[1]);
        arr_int(&w->a[A_F_N_ROLL3], f->n_by_roll[2]);
        /* NULL for a figure this engine does not know: NOT NULL then
         * refuses the game rather than count it under a wrong name */
        const struct figure_class *fc = figure_class(f->figure);
        arr_text(&w->a[A_F_FIGURE], fc ? fc->jcz : NULL);
        arr_int(&w->a[A_F_POINTS], f->points);
    }
    buf_release(&opts);
}

static void violation_arrays(struct game_rows *w, const struct report *r)
{
    for (size_t i = 0; i < r->n_violations; i++) {
        const struct violation *v = &r->violations[i];
        if (v->turn >= 0)
            arr_int(&w->a[A_V_TURN], v->turn);
        else
            arr_text(&w->a[A_V_TURN], NULL);
        if (v->player >= 0)
            arr_int(&w->a[A_V_SEAT], v->player);
        else
            arr_text(&w->a[A_V_SEAT], NULL);
        /* NULL for a rule this engine does not know: refused, not
         * "UNKNOWN" */
        arr_text(&w->a[A_V_RULE],
                 (unsigned)v->rule < RULE__COUNT ? rule_id(v->rule) : NULL);
        arr_int(&w->a[A_V_SRC], v->src);
        arr_text(&w->a[A_V_MESSAGE], v->msg);
    }
}

/* $1 .. $27 of the games row. */
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

/* The parameters of game g's statement ($76: its content digest, $77:
 * id, when > 0) and of its
 * names' (none when it has no seats: w->names.n 0). */
static void game_rows(struct game_rows *w, const struct game_record *g,
                      int64_t id)
{
    struct seat_sum sum[GAME_MAX_PLAYERS];
    bool audited = !g->unsupported;
    memset(w, 0, sizeof *w);
    memset(sum, 0, sizeof sum);
    if (audited) {
        record_summarise(g, sum);
        record_sets_json(&g->log->rules, &w->sets);
        record_elements_json(&g->log->rules, &w->elements);
    }
    record_players_json(g, sum, &w->players, &w->winners);
    record_search_text(g, &w->search);
    pp_reset(&w->p);
    game_params(&w->p, g, &w->sets, &w->elements);
    pp_text_len(&w->p, w->players.p, w->players.len);
    pp_text_len(&w->p, w->winners.p, w->winners.len);
    pp_text_len(&w->p, w->search.p, w->search.len);
    pp_bytes(&w->p, g->raw, g->raw_len);
    if (audited)
        pp_text_len(&w->p, g->report_json, strlen(g->report_json));
    else
        pp_null(&w->p);
    pp_reset(&w->names);
    if (audited) {
        for (int i = 0; i < A__COUNT; i++)
            buf_puts(&w->a[i], "{");
        seat_arrays(w, g, sum);
        uint64_t units = game_rules_units(&g->log->rules);
        for (int x = 0; x < EXP__COUNT; x++)
            if (units >> x & 1)
                arr_text(&w->a[A_EXPANSION], expansion_get(x)->id);
        flight_arrays(w, g->report);
        violation_arrays(w, g->report);
        for (int i = 0; i < A__COUNT; i++) {
            buf_puts(&w->a[i], "}");
            pp_text(&w->p, w->a[i].p);
        }
        pp_text(&w->names, w->names_arr.p);
    } else {
        for (int i = 0; i < A__COUNT; i++)
            pp_null(&w->p);
    }
    if (audited) {
        game_log_content_sha(g->log, w->content);
        pp_text(&w->p, w->content);
    } else {
        pp_null(&w->p);
    }
    if (id > 0)
        pp_int(&w->p, id);
}

static void game_rows_release(struct game_rows *w)
{
    buf_release(&w->sets);
    buf_release(&w->elements);
    buf_release(&w->players);
    buf_release(&w->winners);
    buf_release(&w->search);
    buf_release(&w->names_arr);
    for (int i = 0; i < A__COUNT; i++)
        buf_release(&w->a[i]);
}

/* The statement adding game w's new player names, when it has seats. */
static void players_stmt(struct pg_stmt *q, int *k, const struct game_rows *w)
{
    if (w->names.n > 0)
        q[(*k)++] = (struct pg_stmt){ .sql = SQL_PLAYERS, .p = &w->names };
}

/* The statement writing game w: SQL_GAME_ID when id > 0. */
static void game_stmt(struct pg_stmt *q, int *k, const struct game_rows *w,
                      int64_t id)
{
    q[(*k)++] = (struct pg_stmt){ .sql = id > 0 ? SQL_GAME_ID : SQL_GAME_NEW,
                                  .p = &w->p };
}

/* Every row of a game: one statement, whose foreign keys are checked at
 * its end, when the children are gone with the games row. */
const char pg_sql_delete_game[] =
    "WITH f AS (DELETE FROM flights WHERE game_id = $1), "
    "v AS (DELETE FROM violations WHERE game_id = $1), "
    "pp AS (DELETE FROM game_player_points WHERE game_id = $1), "
    "gp AS (DELETE FROM game_players WHERE game_id = $1), "
    "x AS (DELETE FROM game_expansions WHERE game_id = $1), "
    "r AS (DELETE FROM game_raw WHERE game_id = $1), "
    "a AS (DELETE FROM game_report WHERE game_id = $1), "
    "en AS (DELETE FROM game_entry WHERE game_id = $1), "
    "se AS (DELETE FROM game_search WHERE game_id = $1) "
    "DELETE FROM games WHERE id = $1";

/* ---- the public entry points --------------------------------------------- */

/* The game is stored whatever the pass does: a pass that fails leaves
 * its places noted, and the next writer's pass takes them. */
static void rate_after_commit(struct pg_store *s)
{
    struct err e;
    (void)pg_rating_refresh(s, &e);
}

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
static const char SQL_FIND_SHA[] =
    "SELECT id FROM games WHERE sha256 = $1 AND source <> 'live' AND "
    "id <> $2";

static enum status find_sha(struct pg_store *s, const char *sha,
                            int64_t not_id, int64_t *out_id, struct err *e)
{
    struct pg_params p;
    PGresult *r = NULL;
    *out_id = 0;
    pp_reset(&p);
    pp_text(&p, sha);
    pp_int(&p, not_id);
    enum status st = pg_query(s, SQL_FIND_SHA, true, &p, false, &r,
                              "find sha256", e);
    if (st == ST_OK && PQntuples(r) > 0)
        *out_id = pg_int(r, 0, 0);
    PQclear(r);
    return st;
}

/* The games row's statement answered (id, 1) for a new game, (id, 0)
 * for bytes stored already, nothing when it lost a race (SQL_GAME_NEW). */
static void game_answer(const PGresult *r, int64_t *out_id, bool *out_dup)
{
    *out_id = 0;
    *out_dup = false;
    if (r && PQntuples(r) == 1) {
        *out_id = pg_int(r, 0, 0);
        *out_dup = pg_int(r, 0, 1) == 0;
    }
}

/* The race SQL_GAME_NEW leaves to a new statement: the bytes it waited
 * for were committed meanwhile. Inside a batch the savepoint is gone by
 * then: a read of its own keeps a failure from failing the batch. */
static enum status after_race(struct pg_store *s, const struct game_record *g,
                              int64_t *out_id, struct err *e)
{
    enum status st = s->batch ? pg_begin(s, false, e) : ST_OK;
    if (st == ST_OK)
        st = find_sha(s, g->sha256, 0, out_id, e);
    if (st == ST_OK && *out_id == 0)
        st = err_set(e, ST_BUSY, "insert game: the same upload was being "
                     "stored by another writer");
    return s->batch ? pg_end(s, st, e) : st;
}

static enum status insert_once(struct pg_store *s, const struct game_record *g,
                               int64_t *out_id, bool *out_duplicate,
                               struct err *e)
{
    struct game_rows w;
    struct pg_stmt q[4];
    int k = 0;
    enum status st = pg_enter(s, e);
    if (st != ST_OK)
        return st;
    game_rows(&w, g, 0);
    q[k++] = (struct pg_stmt){ .sql = pg_begin_sql(s) };
    players_stmt(q, &k, &w);
    int game = k;
    game_stmt(q, &k, &w, 0);
    if (s->batch)
        q[k++] = (struct pg_stmt){ .sql = "RELEASE SAVEPOINT game" };
    st = pg_pipeline(s, q, k, "insert game", e);
    if (st == ST_OK)
        game_answer(q[game].res, out_id, out_duplicate);
    pg_pipeline_clear(q, k);
    game_rows_release(&w);
    if (st != ST_OK)
        return pg_end(s, st, e);
    if (*out_id == 0) { /* lost a race: the other's bytes are stored */
        st = after_race(s, g, out_id, e);
        *out_duplicate = st == ST_OK;
        return s->batch ? st : pg_end(s, st, e);
    }
    if (*out_duplicate)
        return s->batch ? ST_OK : pg_end(s, ST_OK, e);
    if (s->batch) { /* counted with the batch */
        pg_uncounted_add(s, *out_id);
        return ST_OK;
    }
    return pg_commit_counted(s, out_id, 1, e);
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
    } else if (!s->batch && !*out_duplicate && rating_record_rated(g)) {
        rate_after_commit(s);
    }
    return st;
}

/* Begins a replace of game id: takes the game's lock (kept until the
 * transaction ends), then reads its upload time, file name (out_name
 * stays empty when none) and digest, and the id of another upload of
 * the same bytes (*out_other, 0 when none, or when g never dedupes): one
 * round trip, each statement run once the one before it has, so the
 * reads see the last replace. */
static enum status lock_game(struct pg_store *s, int64_t id,
                             const struct game_record *g, int64_t *out_at,
                             struct buf *out_name, char out_sha[65],
                             int64_t *out_other, struct err *e)
{
    struct pg_params p, sha;
    struct pg_stmt q[4];
    int k = 0;
    pp_reset(&p);
    pp_int(&p, id);
    pp_reset(&sha);
    pp_text(&sha, g->sha256);
    pp_int(&sha, id);
    out_sha[0] = '\0';
    *out_other = 0;
    q[k++] = (struct pg_stmt){ .sql = pg_begin_sql(s) };
    /* two int4 keys: a space apart from the migrations' bigint one */
    q[k++] = (struct pg_stmt){ .sql = "SELECT pg_advisory_xact_lock("
                                      PG_GAME_LOCK
                                      ", ($1 % 2147483647)::int)",
                               .p = &p };
    q[k++] = (struct pg_stmt){ .sql = "SELECT uploaded_at, name, sha256 "
                                      "FROM games WHERE id = $1",
                               .p = &p };
    if (dedupes(g))
        q[k++] = (struct pg_stmt){ .sql = SQL_FIND_SHA, .p = &sha };
    enum status st = pg_pipeline(s, q, k, "lock game", e);
    const PGresult *r = q[2].res;
    if (st == ST_OK && PQntuples(r) == 0)
        st = err_set(e, ST_NOT_FOUND, "no game %lld", (long long)id);
    if (st == ST_OK) {
        *out_at = pg_int(r, 0, 0);
        if (pg_cell(r, 0, 1))
            buf_puts(out_name, pg_cell(r, 0, 1));
        snprintf(out_sha, 65, "%s", PQgetvalue(r, 0, 2));
        if (k == 4 && PQntuples(q[3].res) > 0)
            *out_other = pg_int(q[3].res, 0, 0);
    }
    pg_pipeline_clear(q, k);
    return st;
}

/* Deletes game id and writes g under its id, its share of the aggregates
 * taken away first (unless the open batch has it still to count) and
 * that of g added: now, committing, or with the batch. */
static enum status rewrite_game(struct pg_store *s, int64_t id,
                                const struct game_record *g, struct err *e)
{
    struct pg_params p, ids, add;
    struct buf arr = BUF_INIT;
    struct game_rows w;
    struct pg_stmt q[PG_PIPELINE_MAX];
    int k = 0;
    pp_reset(&p);
    pp_int(&p, id);
    pg_ids_array(&arr, &id, 1);
    pp_reset(&ids);
    pp_text(&ids, arr.p);
    pp_int(&ids, -1);
    pp_reset(&add);
    pp_text(&add, arr.p);
    pp_int(&add, 1);
    game_rows(&w, g, id);
    /* the names first: a name being added by another writer is waited
     * for before this one holds any counter row (that writer may be a
     * batch about to count) */
    players_stmt(q, &k, &w);
    if (!(s->batch && pg_uncounted(s, id)))
        q[k++] = (struct pg_stmt){ .sql = pg_sql_count, .p = &ids };
    q[k++] = (struct pg_stmt){ .sql = pg_sql_delete_game, .p = &p };
    game_stmt(q, &k, &w, id);
    if (s->batch) {
        q[k++] = (struct pg_stmt){ .sql = "RELEASE SAVEPOINT game" };
    } else {
        q[k++] = (struct pg_stmt){ .sql = pg_sql_count, .p = &add };
        q[k++] = (struct pg_stmt){ .sql = "COMMIT" };
    }
    enum status st = pg_pipeline(s, q, k, "replace game", e);
    pg_pipeline_clear(q, k);
    game_rows_release(&w);
    buf_release(&arr);
    if (st == ST_OK && s->batch)
        pg_uncounted_add(s, id);
    return st;
}

/* Game id stops counting for its content unless content (its new one;
 * NULL: it goes) is what it holds: the first of its duplicates counts in
 * its place (counted now, or with the batch that wrote it), the others
 * link to that one. Inside the transaction that holds the game's lock. */
enum status pg_promote_dups(struct pg_store *s, int64_t id,
                            const char *content, struct err *e)
{
    struct pg_params p, add;
    struct pg_stmt q[1];
    struct buf arr = BUF_INIT;
    int64_t next = 0;
    pp_reset(&p);
    pp_int(&p, id);
    if (content)
        pp_text(&p, content);
    else
        pp_null(&p);
    q[0] = (struct pg_stmt){
        .sql = "WITH n AS (SELECT min(d.id) AS id FROM games d WHERE "
               "d.dup_of = $1 AND (SELECT o.content_sha256 FROM games o "
               "WHERE o.id = $1) IS DISTINCT FROM $2::text) "
               "UPDATE games SET dup_of = CASE WHEN games.id = n.id THEN "
               "NULL ELSE n.id END FROM n WHERE games.dup_of = $1 AND n.id "
               "IS NOT NULL RETURNING games.id, games.dup_of IS NULL",
        .p = &p };
    enum status st = pg_pipeline(s, q, 1, "promote a duplicate", e);
    for (int r = 0; st == ST_OK && r < PQntuples(q[0].res); r++)
        if (strcmp(PQgetvalue(q[0].res, r, 1), "t") == 0)
            next = pg_int(q[0].res, r, 0);
    pg_pipeline_clear(q, 1);
    if (st != ST_OK || next == 0 || (s->batch && pg_uncounted(s, next)))
        return st;
    pg_ids_array(&arr, &next, 1);
    pp_reset(&add);
    pp_text(&add, arr.p);
    pp_int(&add, 1);
    q[0] = (struct pg_stmt){ .sql = "SELECT count_played($1::bigint[], "
                                    "$2::integer)",
                             .p = &add };
    st = pg_pipeline(s, q, 1, "count a promoted duplicate", e);
    pg_pipeline_clear(q, 1);
    buf_release(&arr);
    return st;
}

static enum status replace_once(struct pg_store *s, int64_t id,
                                const struct game_record *g, struct err *e)
{
    int64_t at = 0, other = 0;
    struct buf name = BUF_INIT;
    char sha[65];
    enum status st = pg_enter(s, e);
    if (st != ST_OK)
        return st;
    st = lock_game(s, id, g, &at, &name, sha, &other, e);
    if (st == ST_OK && g->replaces_sha256 &&
        strcmp(g->replaces_sha256, sha) != 0)
        st = err_set(e, ST_CONFLICT, "game %lld changed since it was read",
                     (long long)id);
    if (st == ST_OK && other > 0)
        st = err_set(e, ST_DB, "cannot replace game %lld: game %lld holds "
                     "the same bytes", (long long)id, (long long)other);
    if (st == ST_OK) {
        char content[SHA256_HEX_LEN];
        if (!g->unsupported && g->log)
            game_log_content_sha(g->log, content);
        st = pg_promote_dups(s, id, g->unsupported || !g->log ? NULL
                                                              : content, e);
    }
    if (st == ST_OK) {
        struct game_record rec = *g;
        rec.name = g->name ? g->name : name.p;
        rec.uploaded_at = at;
        st = rewrite_game(s, id, &rec, e);
    }
    buf_release(&name);
    return st == ST_OK ? ST_OK : pg_end(s, st, e);
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
    /* a live game's moves replace a game that was live too: never rated */
    if (st == ST_OK && !s->batch && (rating_record_rated(g) || !g->live))
        rate_after_commit(s);
    return st;
}
