/* sqlite_write.c - one game in, one game out, each inside one transaction.
 *
 * A game is written as: the games row (setup, verdict, the list entry
 * rendered once), the upload and its audit, one row per seat with the
 * per-game sums the player pages add up and one row per seat and feature
 * with its points, the expansion units it uses, then flights and
 * violations. The aggregate tables follow through the triggers of
 * schema/003_expansions.sql. The replay is not stored: it is rendered
 * from the upload on request (schema/002_lean.sql). A game the engine
 * cannot audit yet (record.unsupported) is its games row (status
 * 'unsupported', the reason, no setup or verdict), its upload, an empty
 * list entry and its file name for the search. A replace deletes the
 * children first, then the games row, and writes everything again under
 * the same id. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "core/content.h"
#include "store/sqlite_int.h"
#include "store/store_record.h"


static const char SQL_GAME[] =
    "INSERT INTO games (id, sha256, format, source, name, uploaded_at, "
    "raw_size, engine, live, status, edition, followers, abbots, farmers, "
    "gardens, tiny_city, n_players, valid, finished, halted, turns, "
    "tiles_left, n_violations, n_flights, best_score, sets, elements, "
    "reason, content_sha256, dup_of) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, "
    "?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, "
    "?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29, ?30)";

/* What every game has: ?2 .. ?10. */
static void bind_upload(sqlite3_stmt *st, const struct game_record *g)
{
    sq_bind_text(st, 2, g->sha256);
    sq_bind_text(st, 3, g->format);
    sq_bind_text(st, 4, g->source);
    sq_bind_text(st, 5, g->name);
    sqlite3_bind_int64(st, 6, g->uploaded_at);
    sqlite3_bind_int64(st, 7, (sqlite3_int64)g->raw_len);
    sq_bind_text(st, 8, g->engine);
    sqlite3_bind_int(st, 9, g->live);
    sq_bind_text(st, 10, g->unsupported ? "unsupported" : "audited");
}

/* An audited game's setup and verdict: ?11 .. ?25 (the JSON texts,
 * ?26 and ?27, are the caller's). */
static void bind_setup(sqlite3_stmt *st, const struct game_record *g)
{
    const struct rules *ru = &g->log->rules;
    const struct report *r = g->report;
    int best = 0;
    for (int p = 0; p < ru->n_players; p++)
        best = p == 0 || r->score[p] > best ? r->score[p] : best;
    sq_bind_text(st, 11, record_edition(ru));
    sqlite3_bind_int(st, 12, ru->figures[FIG_SMALL]);
    sqlite3_bind_int(st, 13, ru->figures[FIG_ABBOT]);
    sqlite3_bind_int(st, 14, (ru->flags & RF_FARMERS) != 0);
    sqlite3_bind_int(st, 15, (ru->flags & RF_GARDENS) != 0);
    sqlite3_bind_int(st, 16, ru->opt[OPT_TINY_CITY]);
    sqlite3_bind_int(st, 17, ru->n_players);
    sqlite3_bind_int(st, 18, r->valid);
    sqlite3_bind_int(st, 19, r->finished);
    sqlite3_bind_int(st, 20, r->halted);
    sqlite3_bind_int(st, 21, r->turns);
    sqlite3_bind_int(st, 22, r->tiles_left);
    sqlite3_bind_int64(st, 23, (sqlite3_int64)r->n_violations);
    sqlite3_bind_int64(st, 24, (sqlite3_int64)r->n_flights);
    sqlite3_bind_int(st, 25, best);
}

/* The games row; an unsupported game leaves ?11 .. ?27 NULL. */
static enum status write_game_row(struct sq_store *s, int64_t id,
                                  const struct game_record *g,
                                  const char *content, int64_t dup_of,
                                  int64_t *out_id, struct err *e)
{
    sqlite3_stmt *st = NULL;
    struct buf sets = BUF_INIT, elements = BUF_INIT;
    enum status res = sq_cached(s, SQL_GAME, &st, e);
    if (res == ST_OK) {
        if (id > 0)
            sqlite3_bind_int64(st, 1, id);
        bind_upload(st, g);
        if (g->unsupported) {
            sq_bind_text(st, 28, g->unsupported);
        } else {
            record_sets_json(&g->log->rules, &sets);
            record_elements_json(&g->log->rules, &elements);
            bind_setup(st, g);
            sq_bind_text(st, 26, sets.p);
            sq_bind_text(st, 27, elements.p);
            sq_bind_text(st, 29, content);
            if (dup_of > 0)
                sqlite3_bind_int64(st, 30, dup_of);
        }
        res = sq_step_done(s, st, "insert game", e);
    }
    if (res == ST_OK)
        *out_id = sqlite3_last_insert_rowid(s->db);
    sq_release(s, st);
    buf_release(&sets);
    buf_release(&elements);
    return res;
}

/* Runs sql, an INSERT of ?1 the game id and ?2 (?3) the text of a (b),
 * once; a NULL buffer binds nothing. */
static enum status insert_texts(struct sq_store *s, const char *sql, int64_t id,
                                const struct buf *a, const struct buf *b,
                                struct err *e)
{
    sqlite3_stmt *st = NULL;
    const struct buf *v[2] = {a, b};
    enum status res = sq_cached(s, sql, &st, e);
    if (res == ST_OK) {
        sqlite3_bind_int64(st, 1, id);
        for (int i = 0; i < 2; i++)
            if (v[i])
                sq_bind_text_len(st, 2 + i, v[i]->p, v[i]->len);
        res = sq_step_done(s, st, "insert game data", e);
    }
    sq_release(s, st);
    return res;
}

/* The list entry, whole and its players and winners (which the game's
 * own page renders again). The games row must be written. */
static enum status write_entry(struct sq_store *s, int64_t id,
                               const struct game_record *g,
                               const struct seat_sum *sum, struct err *e)
{
    struct buf players = BUF_INIT, winners = BUF_INIT;
    /* rendered here, not by json_object() per seat: a statement a seat */
    record_players_json(g, sum, &players, &winners);
    enum status res = insert_texts(s,
                           "INSERT INTO game_entry (game_id, players_json, "
                           "winners_json, entry) SELECT g.id, "
                           "e.players_json, e.winners_json, "
                           "json_object(" SQ_ENTRY_FIELDS ") FROM games g, "
                           "(SELECT ?2 AS players_json, ?3 AS winners_json) "
                           "AS e WHERE g.id = ?1",
                           id, &players, &winners, e);
    buf_release(&players);
    buf_release(&winners);
    return res;
}

/* ---- rows of a child table, several a statement ---------------------- */

/* A statement per row was most of a game's statements (a point row per
 * seat and feature kind, a seat row, a flight): each pays SQLite's start
 * and end of a statement. Rows go ROWS_MAX a statement instead, with a
 * statement for each shorter tail, each prepared once per connection. */
#define ROWS_MAX 8
enum row_table { RT_SEATS, RT_POINTS, RT_EXPANSIONS, RT_FLIGHTS,
                 RT_VIOLATIONS, RT__COUNT };
static const struct {
    const char *head; /* up to VALUES */
    int cols;
} row_tables[RT__COUNT] = {
    [RT_SEATS] = { "INSERT INTO game_players (game_id, seat, player_id, "
                   "color, score, rank, claimed, finished, winner, "
                   "flights, landed, returned, forced, flier_points, "
                   "rolls1, rolls2, rolls3) VALUES ", 17 },
    [RT_POINTS] = { "INSERT INTO game_player_points (game_id, seat, "
                    "feature, player_id, points) VALUES ", 5 },
    [RT_EXPANSIONS] = { "INSERT INTO game_expansions (game_id, expansion) "
                        "VALUES ", 2 },
    [RT_FLIGHTS] = { "INSERT INTO flights (game_id, idx, turn, seat, "
                     "from_x, from_y, dir, diagonal, roll, bad_roll, "
                     "target_x, target_y, outcome, landing, n_options, "
                     "options, n_roll1, n_roll2, n_roll3, figure, points) "
                     "VALUES ", 21 },
    [RT_VIOLATIONS] = { "INSERT INTO violations (game_id, idx, turn, seat, "
                        "rule, src, message) VALUES ", 7 },
};
#define ROW_SQL_MAX 1024
static char row_sql[RT__COUNT][ROWS_MAX][ROW_SQL_MAX];
static pthread_once_t row_sql_once = PTHREAD_ONCE_INIT;

static void build_row_sql(void)
{
    for (int t = 0; t < RT__COUNT; t++)
        for (int n = 1; n <= ROWS_MAX; n++) {
            char *p = row_sql[t][n - 1], *end = p + ROW_SQL_MAX;
            p += snprintf(p, (size_t)(end - p), "%s", row_tables[t].head);
            for (int r = 0; r < n; r++) {
                *p++ = r ? ',' : ' ';
                *p++ = '(';
                for (int c = 0; c < row_tables[t].cols; c++) {
                    *p++ = c ? ',' : '?';
                    if (c)
                        *p++ = '?';
                }
                *p++ = ')';
                assert(p < end - 64);
            }
            *p = '\0';
        }
}

/* Binds row i of a table; its first parameter is base + 1. */
typedef void bind_row_fn(sqlite3_stmt *st, int base, int i, const void *ctx);

/* Inserts rows 0 .. n of table t, as bind_row binds them. */
static enum status insert_rows(struct sq_store *s, enum row_table t, int n,
                               bind_row_fn *bind_row, const void *ctx,
                               const char *what, struct err *e)
{
    enum status res = ST_OK;
    pthread_once(&row_sql_once, build_row_sql);
    for (int at = 0; at < n && res == ST_OK; at += ROWS_MAX) {
        int k = n - at < ROWS_MAX ? n - at : ROWS_MAX;
        sqlite3_stmt *st = NULL;
        res = sq_cached(s, row_sql[t][k - 1], &st, e);
        for (int r = 0; r < k && res == ST_OK; r++)
            bind_row(st, r * row_tables[t].cols, at + r, ctx);
        if (res == ST_OK)
            res = sq_step_done(s, st, what, e);
        sq_release(s, st);
    }
    return res;
}

/* The upload, and the audit of an audited game, as zstd frames: packed
 * by the caller's thread (store_pack) or, when it did not, here. */
static enum status write_blobs(struct sq_store *s, int64_t id,
                               const struct game_record *g, struct err *e)
{
    struct store_packed own = { BUF_INIT, BUF_INIT, false, "" };
    const struct store_packed *pk = g->packed;
    sqlite3_stmt *st = NULL;
    enum status res = ST_OK;
    if (!pk || !pk->done) {
        sq_pack(g, &own);
        pk = &own;
        if (!own.done)
            res = err_set(e, ST_NOMEM, "compress the upload: out of memory");
    }
    if (res == ST_OK)
        res = sq_cached(s,
                        "INSERT INTO game_raw (game_id, raw, codec) "
                        "VALUES (?1, ?2, 'zstd')",
                        &st, e);
    if (res == ST_OK) {
        sqlite3_bind_int64(st, 1, id);
        sq_bind_blob(st, 2, pk->raw.p, pk->raw.len);
        res = sq_step_done(s, st, "insert raw", e);
    }
    sq_release(s, st);
    st = NULL;
    if (res == ST_OK && !g->unsupported)
        res = sq_cached(s,
                        "INSERT INTO game_report (game_id, json, codec) "
                        "VALUES (?1, ?2, 'zstd')",
                        &st, e);
    if (res == ST_OK && !g->unsupported) {
        sqlite3_bind_int64(st, 1, id);
        sq_bind_blob(st, 2, pk->report.p, pk->report.len);
        res = sq_step_done(s, st, "insert audit", e);
    }
    sq_release(s, st);
    store_packed_release(&own);
    return res;
}

/* The id of the player with this name, created if new: looked up first,
 * as nearly every name of a batch is one seen before. */
static enum status player_id(struct sq_store *s, sqlite3_stmt *ins,
                             sqlite3_stmt *sel, const char *name, int64_t *out,
                             struct err *e)
{
    enum status res = ST_OK;
    sq_bind_text(sel, 1, name);
    int rc = sqlite3_step(sel);
    if (rc == SQLITE_ROW)
        *out = sqlite3_column_int64(sel, 0);
    else if (rc != SQLITE_DONE)
        res = sq_fail(s, rc, "find player", e);
    sqlite3_reset(sel);
    if (res != ST_OK || rc == SQLITE_ROW)
        return res;
    sq_bind_text(ins, 1, name);
    res = sq_step_done(s, ins, "insert player", e);
    if (res == ST_OK)
        *out = sqlite3_last_insert_rowid(s->db);
    return res;
}

/* What the rows of a game's seats and points are bound from. */
struct seat_rows {
    int64_t id;
    const struct game_record *g;
    const struct seat_sum *sum;
    const int64_t *pid; /* seat p's player */
    unsigned char seat[GAME_MAX_PLAYERS * FEAT__CLASSES]; /* point rows */
    unsigned char feat[GAME_MAX_PLAYERS * FEAT__CLASSES];
};

static void bind_seat(sqlite3_stmt *st, int b, int p, const void *ctx)
{
    const struct seat_rows *w = ctx;
    const struct game_record *g = w->g;
    const struct seat_sum *q = &w->sum[p];
    bool fin = g->report->finished;
    sqlite3_bind_int64(st, b + 1, w->id);
    sqlite3_bind_int(st, b + 2, p);
    sqlite3_bind_int64(st, b + 3, w->pid[p]);
    sq_bind_text(st, b + 4, g->log->colors[p][0] ? g->log->colors[p] : NULL);
    sqlite3_bind_int(st, b + 5, g->report->score[p]);
    sqlite3_bind_int(st, b + 6, q->rank);
    if (q->has_claim)
        sqlite3_bind_int(st, b + 7, q->claimed);
    sqlite3_bind_int(st, b + 8, fin);
    sqlite3_bind_int(st, b + 9, fin && q->rank == 1);
    sqlite3_bind_int(st, b + 10, q->flights);
    sqlite3_bind_int(st, b + 11, q->landed);
    sqlite3_bind_int(st, b + 12, q->returned);
    sqlite3_bind_int(st, b + 13, q->forced);
    sqlite3_bind_int(st, b + 14, q->flier_points);
    for (int k = 0; k < 3; k++)
        sqlite3_bind_int(st, b + 15 + k, q->rolls[k]);
}

static void bind_point(sqlite3_stmt *st, int b, int i, const void *ctx)
{
    const struct seat_rows *w = ctx;
    int p = w->seat[i], f = w->feat[i];
    sqlite3_bind_int64(st, b + 1, w->id);
    sqlite3_bind_int(st, b + 2, p);
    sq_bind_text(st, b + 3, feat_name(f));
    sqlite3_bind_int64(st, b + 4, w->pid[p]);
    sqlite3_bind_int(st, b + 5, w->sum[p].pts[f]);
}

struct unit_rows {
    int64_t id;
    int x[EXP__COUNT];
};

static void bind_expansion(sqlite3_stmt *st, int b, int i, const void *ctx)
{
    const struct unit_rows *w = ctx;
    sqlite3_bind_int64(st, b + 1, w->id);
    sq_bind_text(st, b + 2, expansion_get(w->x[i])->id);
}

/* A row per expansion unit the rules put in play ("base", "river"). */
static enum status write_expansions(struct sq_store *s, int64_t id,
                                    const struct rules *r, struct err *e)
{
    struct unit_rows w = { .id = id };
    uint64_t units = game_rules_units(r);
    int n = 0;
    for (int x = 0; x < EXP__COUNT; x++)
        if (units >> x & 1)
            w.x[n++] = x;
    return insert_rows(s, RT_EXPANSIONS, n, bind_expansion, &w,
                       "insert expansion", e);
}

/* A seat row per seat, then a row per seat and feature kind the seat
 * scored with, named by the engine's feature table (whatever kinds an
 * expansion brings). */
static enum status write_players(struct sq_store *s, int64_t id,
                                 const struct game_record *g,
                                 const struct seat_sum *sum, struct err *e)
{
    sqlite3_stmt *ins = NULL, *sel = NULL;
    int64_t pid[GAME_MAX_PLAYERS] = { 0 };
    struct seat_rows w = { .id = id, .g = g, .sum = sum, .pid = pid };
    int n_seats = g->log->rules.n_players, n_points = 0;
    enum status res = sq_cached(
        s, "INSERT INTO players (name) VALUES (?1)", &ins, e);
    if (res == ST_OK)
        res =
            sq_cached(s, "SELECT id FROM players WHERE name = ?1", &sel, e);
    for (int p = 0; p < n_seats && res == ST_OK; p++)
        res = player_id(s, ins, sel, g->log->names[p], &pid[p], e);
    sq_release(s, ins);
    sq_release(s, sel);
    if (res == ST_OK)
        res = insert_rows(s, RT_SEATS, n_seats, bind_seat, &w, "insert seat",
                          e);
    for (int p = 0; p < n_seats; p++)
        for (int f = 0; f < FEAT__CLASSES; f++)
            if (sum[p].scored[f]) {
                w.seat[n_points] = (unsigned char)p;
                w.feat[n_points++] = (unsigned char)f;
            }
    if (res == ST_OK)
        res = insert_rows(s, RT_POINTS, n_points, bind_point, &w,
                          "insert points", e);
    return res;
}

/* ---- flights, score events, violations -------------------------------- */

/* The report's rows, and the game they belong to. */
struct report_rows {
    int64_t id;
    const struct report *r;
};

static void bind_flight(sqlite3_stmt *st, int b, int i, const void *ctx)
{
    const struct report_rows *w = ctx;
    const struct report *r = w->r;
    const struct flight *f = &r->flights[i];
    char seg[40];
    struct buf opts = BUF_INIT;
    sqlite3_bind_int64(st, b + 1, w->id);
    sqlite3_bind_int64(st, b + 2, (sqlite3_int64)i);
    sqlite3_bind_int(st, b + 3, f->turn);
    sqlite3_bind_int(st, b + 4, f->player);
    sqlite3_bind_int(st, b + 5, f->from.x);
    sqlite3_bind_int(st, b + 6, f->from.y);
    sq_bind_text(st, b + 7, dir_name(f->dir));
    sqlite3_bind_int(st, b + 8, f->dir & 1);
    sqlite3_bind_int(st, b + 9, f->roll);
    sqlite3_bind_int(st, b + 10, f->bad_roll);
    sqlite3_bind_int(st, b + 11, f->target.x);
    sqlite3_bind_int(st, b + 12, f->target.y);
    sq_bind_text(st, b + 13,
                    f->landed    ? "landed"
                    : f->pending ? "pending"
                                 : "returned");
    if (f->landed) {
        seg_format(f->feature, f->mask, seg, sizeof seg);
        sq_bind_text(st, b + 14, seg);
    }
    sqlite3_bind_int(st, b + 15, f->n_options);
    record_options_json(f, &opts);
    sq_bind_text(st, b + 16, opts.p);
    buf_release(&opts);
    for (int k = 0; k < 3; k++)
        sqlite3_bind_int(st, b + 17 + k, f->n_by_roll[k]);
    /* NULL for a figure this engine does not know: NOT NULL then refuses
     * the game rather than count it under a wrong name */
    const struct figure_class *fc = figure_class(f->figure);
    sq_bind_text(st, b + 20, fc ? fc->jcz : NULL);
    sqlite3_bind_int(st, b + 21, f->points);
}

static void bind_violation(sqlite3_stmt *st, int b, int i, const void *ctx)
{
    const struct report_rows *w = ctx;
    const struct report *r = w->r;
    const struct violation *v = &r->violations[i];
    sqlite3_bind_int64(st, b + 1, w->id);
    sqlite3_bind_int64(st, b + 2, (sqlite3_int64)i);
    if (v->turn >= 0)
        sqlite3_bind_int(st, b + 3, v->turn);
    if (v->player >= 0)
        sqlite3_bind_int(st, b + 4, v->player);
    /* NULL for a rule this engine does not know: the NOT NULL
     * constraint then refuses the game rather than store "UNKNOWN" */
    sq_bind_text(st, b + 5, (unsigned)v->rule < RULE__COUNT
                               ? rule_id(v->rule) : NULL);
    sqlite3_bind_int64(st, b + 6, v->src);
    sq_bind_text(st, b + 7, v->msg);
}

static enum status write_flights(struct sq_store *s, int64_t id,
                                 const struct report *r, struct err *e)
{
    struct report_rows w = { id, r };
    return insert_rows(s, RT_FLIGHTS, (int)r->n_flights, bind_flight, &w,
                       "insert flight", e);
}

static enum status write_violations(struct sq_store *s, int64_t id,
                                    const struct report *r, struct err *e)
{
    struct report_rows w = { id, r };
    return insert_rows(s, RT_VIOLATIONS, (int)r->n_violations,
                       bind_violation, &w, "insert violation", e);
}

/* Uploads dedupe by sha256; recorded live games (source "live") never
 * do, as two tables may start alike (games_by_sha_prefix is partial). */
static bool dedupes(const struct game_record *g)
{
    return !g->live && strcmp(g->source, "live") != 0;
}

/* *out_id: the game that counts for this content (other than not_id), or
 * 0. Called in the transaction that writes the game, as find_sha. */
static enum status find_content(struct sq_store *s, const char *content,
                                int64_t not_id, int64_t *out_id,
                                struct err *e)
{
    sqlite3_stmt *st = NULL;
    *out_id = 0;
    enum status res = sq_cached(
        s,
        "SELECT id FROM games WHERE content_sha256 = ?1 AND source <> "
        "'live' AND dup_of IS NULL AND id <> ?2 ORDER BY id LIMIT 1",
        &st, e);
    if (res == ST_OK) {
        sq_bind_text(st, 1, content);
        sqlite3_bind_int64(st, 2, not_id);
        int rc = sqlite3_step(st);
        if (rc == SQLITE_ROW)
            *out_id = sqlite3_column_int64(st, 0);
        else if (rc != SQLITE_DONE)
            res = sq_fail(s, rc, "find content", e);
    }
    sq_release(s, st);
    return res;
}

enum status sq_write_game(struct sq_store *s, int64_t id, int64_t uploaded_at,
                             const struct game_record *g, int64_t *out_id,
                             struct err *e)
{
    struct seat_sum sum[GAME_MAX_PLAYERS];
    struct game_record rec = *g;
    bool audited = !g->unsupported;
    char content[SHA256_HEX_LEN] = "";
    int64_t dup_of = 0;
    enum status res = ST_OK;
    rec.uploaded_at = uploaded_at;
    memset(sum, 0, sizeof sum);
    if (audited) {
        record_summarise(&rec, sum);
        if (g->packed && g->packed->content[0])
            memcpy(content, g->packed->content, sizeof content);
        else
            game_log_content_sha(g->log, content);
        if (dedupes(g))
            res = find_content(s, content, id, &dup_of, e);
    }
    if (res == ST_OK)
        res = write_game_row(s, id, &rec, audited ? content : NULL, dup_of,
                             out_id, e);
    /* the search text goes into game_search at the commit
     * (sq_flush_pending) */
    struct buf search = BUF_INIT;
    record_search_text(&rec, &search);
    if (res == ST_OK)
        res = insert_texts(s,
                           "INSERT INTO temp.pending_games (id, search) "
                           "VALUES (?1, ?2)",
                           *out_id, &search, NULL, e);
    buf_release(&search);
    s->pending = true;
    if (res == ST_OK && rating_record_rated(g))
        rating_mark_at(&s->rmark, uploaded_at, *out_id);
    if (res == ST_OK)
        res = write_entry(s, *out_id, &rec, sum, e);
    if (res == ST_OK)
        res = write_blobs(s, *out_id, &rec, e);
    if (res == ST_OK && audited)
        res = write_players(s, *out_id, &rec, sum, e);
    if (res == ST_OK && audited)
        res = write_expansions(s, *out_id, &rec.log->rules, e);
    if (res == ST_OK && audited)
        res = write_flights(s, *out_id, rec.report, e);
    if (res == ST_OK && audited)
        res = write_violations(s, *out_id, rec.report, e);
    return res;
}

/* What a transaction's games add to the aggregates, one statement per
 * table (each the sum its AFTER INSERT trigger kept before
 * schema/005), then the search texts, then the lists emptied. The
 * statistics of play count the pending games that count (not a later
 * upload of a stored game's content, schema/009) and the duplicates
 * that came to count in the transaction (temp.pending_promoted). */
#define PLAYED_PENDING                                                     \
    " IN (SELECT p.id FROM (SELECT id FROM temp.pending_games UNION "      \
    "SELECT id FROM temp.pending_promoted) p JOIN games g ON g.id = p.id " \
    "WHERE g.dup_of IS NULL) "
static const char *const flush_sql[] = {
    "INSERT INTO game_totals (status, edition, valid, finished, live, n) "
    "SELECT status, coalesce(edition, ''), coalesce(valid, -1), "
    "coalesce(finished, -1), live, count(*) FROM games "
    "WHERE id IN (SELECT id FROM temp.pending_games) GROUP BY 1, 2, 3, 4, 5 "
    "ON CONFLICT DO UPDATE SET n = n + excluded.n",

    "INSERT INTO expansion_totals (expansion, n) "
    "SELECT expansion, count(*) FROM game_expansions "
    "WHERE game_id IN (SELECT id FROM temp.pending_games) GROUP BY 1 "
    "ON CONFLICT DO UPDATE SET n = n + excluded.n",

    "INSERT INTO player_totals (player_id, games, finished_games, wins, "
    "score_sum, flights, landed, returned, forced, flier_points, rolls1, "
    "rolls2, rolls3, best) "
    "SELECT player_id, count(*), sum(finished), sum(winner), "
    "sum(finished * score), sum(flights), sum(landed), sum(returned), "
    "sum(forced), sum(flier_points), sum(rolls1), sum(rolls2), "
    "sum(rolls3), max(iif(finished, score, NULL)) FROM game_players "
    "WHERE game_id " PLAYED_PENDING " GROUP BY 1 "
    "ON CONFLICT DO UPDATE SET games = games + excluded.games, "
    "finished_games = finished_games + excluded.finished_games, "
    "wins = wins + excluded.wins, "
    "score_sum = score_sum + excluded.score_sum, "
    "flights = flights + excluded.flights, "
    "landed = landed + excluded.landed, "
    "returned = returned + excluded.returned, "
    "forced = forced + excluded.forced, "
    "flier_points = flier_points + excluded.flier_points, "
    "rolls1 = rolls1 + excluded.rolls1, rolls2 = rolls2 + excluded.rolls2, "
    "rolls3 = rolls3 + excluded.rolls3, "
    "best = iif(best IS NULL OR excluded.best > best, excluded.best, best)",

    "INSERT INTO score_hist (bucket, n) "
    "SELECT score / 10, count(*) FROM game_players "
    "WHERE game_id " PLAYED_PENDING " AND finished GROUP BY 1 "
    "ON CONFLICT DO UPDATE SET n = n + excluded.n",

    "INSERT INTO player_points (player_id, feature, points, n) "
    "SELECT player_id, feature, sum(points), count(*) "
    "FROM game_player_points WHERE game_id " PLAYED_PENDING " "
    "GROUP BY 1, 2 "
    "ON CONFLICT DO UPDATE SET points = points + excluded.points, "
    "n = n + excluded.n",

    "INSERT INTO flight_totals (roll, diagonal, figure, flights, landed, "
    "returned, pending, forced, thirds, ninths, points) "
    "SELECT roll, diagonal, figure, count(*), sum(outcome = 'landed'), "
    "sum(outcome = 'returned'), sum(outcome = 'pending'), "
    "sum(n_options = 0 AND NOT bad_roll), sum(decided * k), "
    "sum(decided * k * (3 - k)), sum(points) FROM (SELECT roll, diagonal, "
    "figure, outcome, n_options, bad_roll, points, "
    "outcome IN ('landed', 'returned') AS decided, "
    "(n_roll1 > 0) + (n_roll2 > 0) + (n_roll3 > 0) AS k FROM flights "
    "WHERE game_id " PLAYED_PENDING ") GROUP BY 1, 2, 3 "
    "ON CONFLICT DO UPDATE SET flights = flights + excluded.flights, "
    "landed = landed + excluded.landed, "
    "returned = returned + excluded.returned, "
    "pending = pending + excluded.pending, "
    "forced = forced + excluded.forced, "
    "thirds = thirds + excluded.thirds, "
    "ninths = ninths + excluded.ninths, "
    "points = points + excluded.points",

    "INSERT INTO player_figures (player_id, figure, flights, landed, "
    "returned, pending, forced) "
    "SELECT gp.player_id, f.figure, count(*), sum(f.outcome = 'landed'), "
    "sum(f.outcome = 'returned'), sum(f.outcome = 'pending'), "
    "sum(f.n_options = 0 AND NOT f.bad_roll) FROM flights f "
    "JOIN game_players gp ON gp.game_id = f.game_id AND gp.seat = f.seat "
    "WHERE f.game_id " PLAYED_PENDING " GROUP BY 1, 2 "
    "ON CONFLICT DO UPDATE SET flights = flights + excluded.flights, "
    "landed = landed + excluded.landed, "
    "returned = returned + excluded.returned, "
    "pending = pending + excluded.pending, "
    "forced = forced + excluded.forced",

    "INSERT INTO rule_totals (rule, n) "
    "SELECT rule, count(*) FROM violations "
    "WHERE game_id " PLAYED_PENDING " GROUP BY 1 "
    "ON CONFLICT DO UPDATE SET n = n + excluded.n",

    /* FTS5 writes out what it holds at every savepoint, a segment per
     * game in a batch: the texts go in here, one segment a transaction */
    ("INSERT INTO game_search (rowid, text) "
     "SELECT id, search FROM temp.pending_games"),

    "DELETE FROM temp.pending_games",
    "DELETE FROM temp.pending_promoted",
};

enum status sq_flush_pending(struct sq_store *s, struct err *e)
{
    enum status res = ST_OK;
    for (size_t i = 0; i < sizeof flush_sql / sizeof *flush_sql &&
                       res == ST_OK; i++) {
        sqlite3_stmt *st = NULL;
        res = sq_cached(s, flush_sql[i], &st, e);
        if (res == ST_OK)
            res = sq_step_done(s, st, "count the transaction's games", e);
        sq_release(s, st);
    }
    if (res == ST_OK)
        s->pending = false;
    /* after the counts: a promoted duplicate is rated as the game that
     * counts */
    if (res == ST_OK)
        res = sq_rating_refresh(s, e);
    return res;
}

/* Before a delete: a game this transaction wrote is counted first, so
 * that the delete triggers take away what was added. */
static enum status flush_if_pending(struct sq_store *s, int64_t id,
                                    struct err *e)
{
    sqlite3_stmt *st = NULL;
    if (!s->pending)
        return ST_OK;
    enum status res = sq_cached(
        s,
        "SELECT 1 FROM temp.pending_games WHERE id = ?1 UNION ALL "
        "SELECT 1 FROM temp.pending_promoted WHERE id = ?1",
        &st, e);
    int rc = SQLITE_DONE;
    if (res == ST_OK) {
        sqlite3_bind_int64(st, 1, id);
        rc = sqlite3_step(st);
        if (rc != SQLITE_ROW && rc != SQLITE_DONE)
            res = sq_fail(s, rc, "find a pending game", e);
    }
    sq_release(s, st);
    if (res == ST_OK && rc == SQLITE_ROW)
        res = sq_flush_pending(s, e);
    return res;
}

/* Runs sql with ?1 = a and ?2 = b (0: NULL). */
static enum status run2(struct sq_store *s, const char *sql, int64_t a,
                        int64_t b, const char *what, struct err *e)
{
    sqlite3_stmt *st = NULL;
    enum status res = sq_cached(s, sql, &st, e);
    if (res == ST_OK) {
        sqlite3_bind_int64(st, 1, a);
        if (b > 0)
            sqlite3_bind_int64(st, 2, b);
        res = sq_step_done(s, st, what, e);
    }
    sq_release(s, st);
    return res;
}

/* Game id stops counting for its content (it goes, or its content
 * changes): the first of its duplicates counts in its place, from this
 * transaction's commit (temp.pending_promoted), and the others link to
 * that one. */
enum status sq_promote_dups(struct sq_store *s, int64_t id, struct err *e)
{
    sqlite3_stmt *st = NULL;
    int64_t next = 0;
    enum status res = sq_cached(
        s, "SELECT min(id) FROM games WHERE dup_of = ?1", &st, e);
    if (res == ST_OK) {
        sqlite3_bind_int64(st, 1, id);
        int rc = sqlite3_step(st);
        if (rc == SQLITE_ROW)
            next = sqlite3_column_int64(st, 0);
        else
            res = sq_fail(s, rc, "find duplicates", e);
    }
    sq_release(s, st);
    if (res != ST_OK || next == 0)
        return res;
    res = run2(s, "UPDATE games SET dup_of = NULL WHERE id = ?1", next, 0,
               "promote a duplicate", e);
    if (res == ST_OK)
        res = run2(s, "UPDATE games SET dup_of = ?2 WHERE dup_of = ?1", id,
                   next, "link duplicates", e);
    if (res == ST_OK)
        res = run2(s, "INSERT OR IGNORE INTO temp.pending_promoted (id) "
                   "VALUES (?1)", next, 0, "promote a duplicate", e);
    if (res == ST_OK)
        res = sq_rating_mark_stored(s, next, e);
    if (res == ST_OK)
        s->pending = true;
    return res;
}

/* Before game id is written again as g: when its content changes, its
 * duplicates are no longer its own. */
static enum status relink_before_replace(struct sq_store *s, int64_t id,
                                         const struct game_record *g,
                                         struct err *e)
{
    sqlite3_stmt *st = NULL;
    char content[SHA256_HEX_LEN] = "";
    bool same = false;
    if (!g->unsupported && g->log)
        game_log_content_sha(g->log, content);
    enum status res = sq_cached(
        s, "SELECT content_sha256 = ?2 FROM games WHERE id = ?1", &st, e);
    if (res == ST_OK) {
        sqlite3_bind_int64(st, 1, id);
        sq_bind_text(st, 2, content);
        int rc = sqlite3_step(st);
        if (rc == SQLITE_ROW)
            same = sqlite3_column_int(st, 0) == 1;
        else if (rc != SQLITE_DONE)
            res = sq_fail(s, rc, "read content", e);
    }
    sq_release(s, st);
    if (res == ST_OK && !same)
        res = sq_promote_dups(s, id, e);
    return res;
}

/* Children first: the aggregate triggers of points and flights find the
 * seat's player in game_players, and a foreign key would refuse the
 * games row (or a seat) going first. */
enum status sq_delete_game(struct sq_store *s, int64_t id, struct err *e)
{
    static const char *const sql[] = {
        "DELETE FROM flights WHERE game_id = ?1",
        "DELETE FROM violations WHERE game_id = ?1",
        "DELETE FROM game_player_points WHERE game_id = ?1",
        "DELETE FROM game_players WHERE game_id = ?1",
        "DELETE FROM game_expansions WHERE game_id = ?1",
        "DELETE FROM game_raw WHERE game_id = ?1",
        "DELETE FROM game_report WHERE game_id = ?1",
        "DELETE FROM game_entry WHERE game_id = ?1",
        "DELETE FROM game_search WHERE rowid = ?1",
        "DELETE FROM temp.pending_games WHERE id = ?1",
        "DELETE FROM games WHERE id = ?1",
    };
    enum status res = flush_if_pending(s, id, e);
    /* after the flush, which rates what is pending and clears the mark */
    if (res == ST_OK)
        res = sq_rating_mark_stored(s, id, e);
    for (size_t i = 0; i < sizeof sql / sizeof *sql && res == ST_OK; i++) {
        sqlite3_stmt *st = NULL;
        res = sq_cached(s, sql[i], &st, e);
        if (res == ST_OK) {
            sqlite3_bind_int64(st, 1, id);
            res = sq_step_done(s, st, "delete game", e);
        }
        sq_release(s, st);
    }
    return res;
}

/* ---- the public entry points ------------------------------------------ */

static enum status check_record(const struct sq_store *s,
                                const struct game_record *g, struct err *e)
{
    if (s->read_only)
        return err_set(e, ST_DB,
                       "the store is open read-only: games cannot "
                       "be written");
    if (!g || !g->sha256 || !g->format || !g->source || !g->engine ||
        (!g->raw && g->raw_len > 0))
        return err_set(e, ST_DB,
                       "incomplete game record: sha256, format, source "
                       "and engine are required");
    if (g->unsupported) {
        if (!g->unsupported[0] || g->live)
            return err_set(e, ST_DB,
                           "an unsupported game needs its reason and is "
                           "never live");
        return ST_OK;
    }
    if (!g->log || !g->report || !g->report_json)
        return err_set(e, ST_DB,
                       "incomplete game record: log, report and "
                       "report_json are required");
    int n = g->log->rules.n_players;
    if (n < 1 || n > GAME_MAX_PLAYERS)
        return err_set(e, ST_DB, "game record with %d players", n);
    return ST_OK;
}

/* *out_id: the upload holding these bytes (other than not_id), or 0.
 * Called in the transaction that then writes the game: uniqueness of
 * uploads is this lookup's (schema/008). */
static enum status find_sha(struct sq_store *s, const char *sha, int64_t not_id,
                            int64_t *out_id, struct err *e)
{
    sqlite3_stmt *st = NULL;
    *out_id = 0;
    enum status res = sq_cached(s, SQ_FIND_SHA_SQL, &st, e);
    if (res == ST_OK) {
        sq_bind_text(st, 1, sha);
        sqlite3_bind_int64(st, 2, not_id);
        int rc = sqlite3_step(st);
        if (rc == SQLITE_ROW)
            *out_id = sqlite3_column_int64(st, 0);
        else if (rc != SQLITE_DONE)
            res = sq_fail(s, rc, "find sha256", e);
    }
    sq_release(s, st);
    return res;
}

enum status sq_insert_game(struct store *base, const struct game_record *g,
                              int64_t *out_id, bool *out_duplicate,
                              struct err *e)
{
    struct sq_store *s = sq_of(base);
    int64_t have = 0;
    *out_id = 0;
    *out_duplicate = false;
    enum status st = check_record(s, g, e);
    if (st != ST_OK)
        return st;
    st = sq_begin(s, e);
    if (st != ST_OK)
        return st;
    if (dedupes(g))
        st = find_sha(s, g->sha256, 0, &have, e);
    if (st == ST_OK && have > 0) {
        *out_id = have;
        *out_duplicate = true;
    } else if (st == ST_OK) {
        st = sq_write_game(s, 0, g->uploaded_at, g, out_id, e);
    }
    st = sq_end(s, st, e);
    if (st != ST_OK) {
        *out_id = 0;
        *out_duplicate = false;
    }
    return st;
}

/* The upload time, file name (out_name stays empty, p NULL, when the
 * game has none) and upload digest of game id. */
static enum status stored_meta(struct sq_store *s, int64_t id, int64_t *out_at,
                               struct buf *out_name, char out_sha[65],
                               struct err *e)
{
    sqlite3_stmt *st = NULL;
    enum status res = sq_cached(
        s, "SELECT uploaded_at, name, sha256 FROM games WHERE id = ?1", &st,
        e);
    out_sha[0] = '\0';
    if (res == ST_OK) {
        sqlite3_bind_int64(st, 1, id);
        int rc = sqlite3_step(st);
        if (rc == SQLITE_ROW) {
            const char *sha = (const char *)sqlite3_column_text(st, 2);
            *out_at = sqlite3_column_int64(st, 0);
            if (sqlite3_column_type(st, 1) != SQLITE_NULL)
                sq_append_col(out_name, st, 1);
            snprintf(out_sha, 65, "%s", sha ? sha : "");
        } else if (rc == SQLITE_DONE) {
            res = err_set(e, ST_NOT_FOUND, "no game %lld", (long long)id);
        } else {
            res = sq_fail(s, rc, "find game", e);
        }
    }
    sq_release(s, st);
    return res;
}

enum status sq_replace_game(struct store *base, int64_t id,
                               const struct game_record *g, struct err *e)
{
    struct sq_store *s = sq_of(base);
    int64_t at = 0, other = 0, got = 0;
    struct buf name = BUF_INIT;
    char sha[65];
    enum status st = check_record(s, g, e);
    if (st != ST_OK)
        return st;
    st = sq_begin(s, e);
    if (st != ST_OK)
        return st;
    st = stored_meta(s, id, &at, &name, sha, e);
    if (st == ST_OK && g->replaces_sha256 &&
        strcmp(g->replaces_sha256, sha) != 0)
        st = err_set(e, ST_CONFLICT, "game %lld changed since it was read",
                     (long long)id);
    if (st == ST_OK && dedupes(g))
        st = find_sha(s, g->sha256, id, &other, e);
    if (st == ST_OK && other > 0)
        st = err_set(e, ST_DB,
                     "cannot replace game %lld: game %lld holds "
                     "the same bytes",
                     (long long)id, (long long)other);
    if (st == ST_OK)
        st = relink_before_replace(s, id, g, e);
    if (st == ST_OK)
        st = sq_delete_game(s, id, e);
    if (st == ST_OK) {
        struct game_record rec = *g;
        rec.name = g->name ? g->name : name.p;
        st = sq_write_game(s, id, at, &rec, &got, e);
    }
    buf_release(&name);
    return sq_end(s, st, e);
}
