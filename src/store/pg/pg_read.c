/* pg_read.c - GET /api/games and GET /api/games/{id} on PostgreSQL.
 *
 * A page is the total, then the page's ids in sort order, each with its
 * games and game_entry rows, rendered by pg_json.c as the SQLite backend
 * renders them. Filters are the SQLite backend's (sqlite_read.c): tests
 * on games columns and sets of ids from another table; PostgreSQL's
 * planner, which keeps statistics, chooses between fetching a set and
 * probing it. The sort puts NULLs (an unsupported game's missing
 * columns) where SQLite does: first ascending, last descending; the
 * indexes are built so. */
#include <string.h>

#include "store/pg/pg_int.h"

/* The list entry's columns, in the order entry_json() reads them. */
#define ENTRY_COLS                                                             \
    "g.id, g.name, g.format, g.source, g.uploaded_at, g.status, g.reason, "   \
    "g.edition, g.valid, g.finished, g.live, g.n_violations, g.n_flights, "   \
    "g.turns, e.players_json, e.winners_json"
#define ENTRY_N 16

/* A list entry's expansions after its columns, as SQLite renders them
 * (the ids need no escaping: they are the units' own). */
#define LIST_EXPANSIONS                                                        \
    "(SELECT '[' || coalesce(string_agg('\"' || x.expansion || '\"', ',' "   \
    "ORDER BY x.expansion COLLATE \"C\"), '') || ']' FROM game_expansions x " \
    "WHERE x.game_id = g.id)"

/* '{' and the entry's members from row; the caller closes it. */
static void entry_json(struct buf *b, const PGresult *r, int row)
{
    static const struct {
        const char *key;
        void (*put)(struct buf *, const PGresult *, int, int);
    } cols[ENTRY_N] = {
        { "id", pj_num },          { "name", pj_str },
        { "format", pj_str },      { "source", pj_str },
        { "uploaded_at", pj_num }, { "status", pj_str },
        { "reason", pj_str },      { "edition", pj_str },
        { "valid", pj_bool },      { "finished", pj_bool },
        { "live", pj_bool },       { "violations", pj_num },
        { "flights", pj_num },     { "turns", pj_num },
        { "players", pj_raw },     { "winners", pj_raw },
    };
    int k = 0;
    buf_puts(b, "{");
    for (int c = 0; c < ENTRY_N; c++) {
        pj_key(b, &k, cols[c].key);
        cols[c].put(b, r, row, c);
    }
}

/* The filters as SQL and their parameters ($1, $2, ... in order). */
struct list_query {
    struct buf where;   /* " WHERE ..." or empty */
    bool only_totals;   /* every test is on a game_totals column */
    struct pg_params p;
    struct buf pattern; /* owns the search pattern */
};

static void add_test(struct list_query *q, const char *fmt, bool totals)
{
    buf_puts(&q->where, q->p.n ? " AND " : " WHERE ");
    buf_printf(&q->where, fmt, q->p.n + 1);
    q->only_totals = q->only_totals && totals;
}

/* q as a substring, case-insensitive, of the file or a player name. */
static void search_test(struct list_query *q, const char *text)
{
    buf_puts(&q->pattern, "%");
    for (; *text; text++) {
        if (*text == '%' || *text == '_' || *text == '\\')
            buf_puts(&q->pattern, "\\");
        buf_append(&q->pattern, text, 1);
    }
    buf_puts(&q->pattern, "%");
    add_test(q, "g.id IN (SELECT game_id FROM game_search WHERE text ILIKE "
             "$%d ESCAPE '\\')", false);
    pp_text(&q->p, q->pattern.p);
}

static void build_query(const struct game_filter *f, struct list_query *q)
{
    memset(q, 0, sizeof *q);
    q->only_totals = true;
    buf_puts(&q->where, "");
    if (f->verdict == 0 || f->verdict == 1) {
        add_test(q, "g.valid = $%d", true);
        pp_int(&q->p, f->verdict);
    }
    if (f->finished == 0 || f->finished == 1) {
        add_test(q, "g.finished = $%d", true);
        pp_int(&q->p, f->finished);
    }
    if (f->edition) {
        add_test(q, "g.edition = $%d", true);
        pp_text(&q->p, f->edition);
    }
    if (f->status) {
        add_test(q, "g.status = $%d", true);
        pp_text(&q->p, f->status);
    }
    if (f->from) {
        add_test(q, "g.uploaded_at >= $%d", false);
        pp_int(&q->p, f->from);
    }
    if (f->to) {
        add_test(q, "g.uploaded_at <= $%d", false);
        pp_int(&q->p, f->to);
    }
    if (f->player) {
        add_test(q, "g.id IN (SELECT gp.game_id FROM game_players gp JOIN "
                 "players p ON p.id = gp.player_id WHERE p.name = $%d)",
                 false);
        pp_text(&q->p, f->player);
    }
    if (f->rule) {
        add_test(q, "g.id IN (SELECT game_id FROM violations WHERE rule = "
                 "$%d)", false);
        pp_text(&q->p, f->rule);
    }
    if (f->expansion) {
        add_test(q, "g.id IN (SELECT game_id FROM game_expansions WHERE "
                 "expansion = $%d)", false);
        pp_text(&q->p, f->expansion);
    }
    if (f->q && f->q[0])
        search_test(q, f->q);
}

/* The total (from game_totals when every test is on its columns), then
 * the page: the page's ids in sort order walk the sort key's index, and
 * each of them fetches its rows by key. uploaded_at is never NULL: its
 * sort says no NULLS, so that a backward walk of (uploaded_at, id)
 * serves it (the other keys' indexes put NULLs first, as their sorts
 * do). The rows are lateral subqueries that OFFSET 0 keeps apart: joined,
 * the planner would hash a scan of every game_entry row while the table
 * is small (0.6 ms at 2,000 games, 0.14 ms this way) and spend longer
 * choosing. */
static void list_sql(const struct list_query *q, const char *col, bool asc,
                     int limit, int offset, struct buf *count,
                     struct buf *page)
{
    bool nullable = strcmp(col, "uploaded_at") != 0;
    const char *dir = asc ? nullable ? "ASC NULLS FIRST" : "ASC"
                          : nullable ? "DESC NULLS LAST" : "DESC";
    const char *id_dir = asc ? "ASC" : "DESC";
    if (q->only_totals)
        buf_printf(count, "SELECT coalesce(sum(g.n), 0) FROM game_totals g%s",
                   q->where.p);
    else
        buf_printf(count, "SELECT count(*) FROM games g%s", q->where.p);
    buf_printf(page,
               "SELECT " ENTRY_COLS ", " LIST_EXPANSIONS " FROM (SELECT "
               "g.id, g.%s AS k FROM "
               "games g%s ORDER BY g.%s %s, g.id %s LIMIT %d OFFSET %d) AS "
               "page CROSS JOIN LATERAL (SELECT * FROM games g WHERE g.id = "
               "page.id OFFSET 0) AS g CROSS JOIN LATERAL (SELECT * FROM "
               "game_entry e WHERE e.game_id = page.id OFFSET 0) AS e "
               "ORDER BY page.k %s, page.id %s",
               col, q->where.p, col, dir, id_dir, limit, offset, dir, id_dir);
}

enum status pg_list_games(struct store *base, const struct game_filter *f,
                          struct buf *out, struct err *e)
{
    static const struct game_filter none = { .verdict = -1, .finished = -1 };
    struct pg_store *s = pg_of(base);
    struct list_query q;
    struct buf count = BUF_INIT, page = BUF_INIT;

    f = f ? f : &none;
    const char *col;
    if (store_sort_column(f->sort, &col, e))
        return e->code;
    int limit = f->limit <= 0 ? 50 : f->limit > 1000 ? 1000 : f->limit;
    int offset = f->offset < 0 ? 0 : f->offset;
    build_query(f, &q);
    list_sql(&q, col, f->ascending, limit, offset, &count, &page);
    /* one snapshot: the total and the page agree (a page past the total
     * is empty). A first page is kept prepared, as its total; the pages
     * after it are planned each time rather than each push out one that
     * is asked for again. */
    struct pg_stmt r[2] = {
        { .sql = count.p, .p = &q.p, .built = true },
        { .sql = page.p, .p = &q.p, .built = offset == 0,
          .unnamed = offset > 0 },
    };
    enum status st = pg_read_all(s, r, 2, "list games", e);
    if (st == ST_OK) {
        buf_printf(out, "{\"total\":%lld,\"offset\":%d,\"limit\":%d,"
                   "\"games\":[", (long long)pg_int(r[0].res, 0, 0), offset,
                   limit);
        for (int i = 0; i < PQntuples(r[1].res); i++) {
            buf_puts(out, i ? "," : "");
            entry_json(out, r[1].res, i);
            buf_puts(out, ",\"expansions\":");
            pj_raw(out, r[1].res, i, ENTRY_N);
            buf_puts(out, "}");
        }
        buf_puts(out, "]}");
    }
    pg_pipeline_clear(r, 2);
    buf_release(&count);
    buf_release(&page);
    buf_release(&q.pattern);
    buf_release(&q.where);
    return st;
}

/* The entry's columns, then the setup, the pinned verdict and the audit. */
static const char SQL_GAME_JSON[] =
    "SELECT " ENTRY_COLS ", g.sha256, g.raw_size, g.engine, g.sets, "
    "g.elements, g.followers, g.abbots, g.farmers, g.gardens, g.tiny_city, "
    "g.n_players, g.halted, g.tiles_left, g.best_score, r.json, "
    "g.content_sha256, g.dup_of, (SELECT string_agg(d.id::text, ',' ORDER "
    "BY d.id) FROM games d WHERE d.dup_of = g.id) "
    "FROM games g JOIN game_entry e ON e.game_id = g.id "
    "LEFT JOIN game_report r ON r.game_id = g.id WHERE g.id = $1";

static void rules_json(struct buf *b, const PGresult *r, int c)
{
    int k = 0;
    if (strcmp(PQgetvalue(r, 0, 5), "audited") != 0) {
        buf_puts(b, "null");
        return;
    }
    buf_puts(b, "{");
    pj_key(b, &k, "followers");
    pj_num(b, r, 0, c);
    pj_key(b, &k, "abbots");
    pj_num(b, r, 0, c + 1);
    pj_key(b, &k, "farmers");
    pj_bool(b, r, 0, c + 2);
    pj_key(b, &k, "gardens");
    pj_bool(b, r, 0, c + 3);
    pj_key(b, &k, "tiny-city-scoring");
    pj_num(b, r, 0, c + 4);
    buf_puts(b, "}");
}

static void game_json(struct buf *b, const PGresult *g, const PGresult *x)
{
    int k = ENTRY_N, c = ENTRY_N;
    entry_json(b, g, 0);
    pj_key(b, &k, "sha256");
    pj_str(b, g, 0, c);
    pj_key(b, &k, "size");
    pj_num(b, g, 0, c + 1);
    pj_key(b, &k, "engine");
    pj_str(b, g, 0, c + 2);
    pj_key(b, &k, "sets");
    pj_raw(b, g, 0, c + 3);
    pj_key(b, &k, "elements");
    pj_raw(b, g, 0, c + 4);
    pj_key(b, &k, "expansions");
    buf_puts(b, "[");
    for (int i = 0; i < PQntuples(x); i++) {
        buf_puts(b, i ? "," : "");
        pj_str(b, x, i, 0);
    }
    buf_puts(b, "]");
    pj_key(b, &k, "rules");
    rules_json(b, g, c + 5);
    pj_key(b, &k, "n_players");
    pj_num(b, g, 0, c + 10);
    pj_key(b, &k, "halted");
    pj_bool(b, g, 0, c + 11);
    pj_key(b, &k, "tiles_left");
    pj_num(b, g, 0, c + 12);
    pj_key(b, &k, "best_score");
    pj_num(b, g, 0, c + 13);
    pj_key(b, &k, "content_sha256");
    pj_str(b, g, 0, c + 15);
    pj_key(b, &k, "duplicate_of");
    pj_num(b, g, 0, c + 16);
    pj_key(b, &k, "duplicates");
    buf_puts(b, "[");
    if (!PQgetisnull(g, 0, c + 17))
        buf_puts(b, PQgetvalue(g, 0, c + 17));
    buf_puts(b, "]");
    pj_key(b, &k, "audit");
    if (PQgetlength(g, 0, c + 14) > 0)
        pj_raw(b, g, 0, c + 14);
    else
        buf_puts(b, "null");
    buf_puts(b, "}");
}

enum status pg_game_json(struct store *base, int64_t id, struct buf *out,
                         struct err *e)
{
    struct pg_store *s = pg_of(base);
    struct pg_params p;
    pp_reset(&p);
    pp_int(&p, id);
    /* the row and its expansions, one snapshot */
    struct pg_stmt r[2] = {
        { .sql = SQL_GAME_JSON, .p = &p },
        { .sql = "SELECT expansion FROM game_expansions WHERE game_id = $1 "
          "ORDER BY expansion COLLATE \"C\"", .p = &p },
    };
    enum status st = pg_read_all(s, r, 2, "read game", e);
    if (st == ST_OK && PQntuples(r[0].res) == 0)
        st = err_set(e, ST_NOT_FOUND, "no game %lld", (long long)id);
    if (st == ST_OK)
        game_json(out, r[0].res, r[1].res);
    pg_pipeline_clear(r, 2);
    return st;
}
