/* sqlite_read.c - GET /api/games and GET /api/games/{id}.
 *
 * A page is two steps: the total (see count_games), then the page's ids
 * in sort order (an index walk) joined to games and game_entry to render
 * only those rows; the players and winners arrays were rendered at insert.
 * Every filter and sort key has an index; see docs/schema.md. */
#include <string.h>

#include "store/sqlite_int.h"

/* The fields of a list entry; GET /api/games/{id} adds to them. A 0/1
 * column is JSON false/true, and NULL (an unsupported game has no
 * verdict) null. */
/* A filter is a column test on games, or a set of game ids from another
 * table (a player's games, games with a rule broken, search hits). A set
 * has two forms: "g.id IN (set)", cheap when the set is small, and a
 * correlated probe "EXISTS (...g.id...)", cheap when the set is dense and
 * the page is read in sort order. Every form has exactly one '?'. */
enum cond_kind { COND_TOTALS, COND_COLUMN, COND_SET };

struct cond {
    enum cond_kind kind;
    const char *sql;   /* the test, or the set's SELECT of distinct ids */
    const char *probe; /* set: the EXISTS form, or NULL */
    const char *text;  /* the bound value: text, or num when NULL */
    int64_t num;
};

#define LIST_MAX_CONDS 12

struct list_query {
    struct cond c[LIST_MAX_CONDS];
    int n;
    struct buf pattern; /* owns the search pattern */
};

static void add_cond(struct list_query *q, enum cond_kind kind, const char *sql,
                     const char *probe, const char *text, int64_t num)
{
    q->c[q->n++] = (struct cond){kind, sql, probe, text, num};
}

/* The q filter over game_search: a phrase of trigrams (any substring of
 * 3+ characters, an index lookup), or LIKE '%q%' for shorter ones (a
 * scan). Case-insensitive either way. */
static void search_cond(const char *q, struct list_query *l)
{
    size_t chars = 0;
    for (const char *p = q; *p; p++)
        chars += ((unsigned char)*p & 0xc0) != 0x80;
    bool phrase = chars >= 3;
    buf_puts(&l->pattern, phrase ? "\"" : "%");
    for (; *q; q++) {
        if (phrase ? *q == '"' : *q == '%' || *q == '_' || *q == '\\')
            buf_append(&l->pattern, phrase ? "\"" : "\\", 1);
        buf_append(&l->pattern, q, 1);
    }
    buf_puts(&l->pattern, phrase ? "\"" : "%");
    add_cond(l, COND_SET,
             phrase ? "SELECT rowid FROM game_search WHERE game_search "
                      "MATCH ?"
                    : "SELECT rowid FROM game_search WHERE text LIKE ? "
                      "ESCAPE '\\'",
             NULL, l->pattern.p, 0);
}

static void build_query(const struct game_filter *f, struct list_query *q)
{
    memset(q, 0, sizeof *q);
    if (f->verdict == 0 || f->verdict == 1)
        add_cond(q, COND_TOTALS, "g.valid = ?", NULL, NULL, f->verdict);
    if (f->finished == 0 || f->finished == 1)
        add_cond(q, COND_TOTALS, "g.finished = ?", NULL, NULL, f->finished);
    if (f->edition)
        add_cond(q, COND_TOTALS, "g.edition = ?", NULL, f->edition, 0);
    if (f->status)
        add_cond(q, COND_TOTALS, "g.status = ?", NULL, f->status, 0);
    if (f->from)
        add_cond(q, COND_COLUMN, "g.uploaded_at >= ?", NULL, NULL, f->from);
    if (f->to)
        add_cond(q, COND_COLUMN, "g.uploaded_at <= ?", NULL, NULL, f->to);
    if (f->player)
        add_cond(q, COND_SET,
                 "SELECT DISTINCT gp.game_id FROM game_players gp WHERE "
                 "gp.player_id = (SELECT id FROM players WHERE name = ?)",
                 "EXISTS (SELECT 1 FROM game_players gp WHERE gp.game_id = "
                 "g.id AND gp.player_id = (SELECT id FROM players WHERE "
                 "name = ?))",
                 f->player, 0);
    if (f->rule)
        add_cond(q, COND_SET,
                 "SELECT DISTINCT game_id FROM violations WHERE rule = ?",
                 "EXISTS (SELECT 1 FROM violations v WHERE v.rule = ? AND "
                 "v.game_id = g.id)",
                 f->rule, 0);
    if (f->expansion)
        add_cond(q, COND_SET,
                 "SELECT game_id FROM game_expansions WHERE expansion = ?",
                 "EXISTS (SELECT 1 FROM game_expansions x WHERE x.game_id = "
                 "g.id AND x.expansion = ?)",
                 f->expansion, 0);
    if (f->q && f->q[0])
        search_cond(f->q, q);
}

static bool all_of(const struct list_query *q, enum cond_kind kind)
{
    for (int i = 0; i < q->n; i++)
        if (q->c[i].kind != kind)
            return false;
    return true;
}

/* " WHERE a AND b ..." with sets as IN or (probe) EXISTS. When the sets
 * are fetched (IN), they drive: a unary '+' keeps SQLite (which has no
 * statistics) from walking a column index of 90 % of the games instead
 * of looking up a set's few hundred members. */
static void append_where(struct buf *sql, const struct list_query *q,
                         bool probe)
{
    bool drive = false;
    for (int i = 0; i < q->n && !probe; i++)
        drive = drive || q->c[i].kind == COND_SET;
    for (int i = 0; i < q->n; i++) {
        const struct cond *c = &q->c[i];
        buf_puts(sql, i ? " AND " : " WHERE ");
        if (c->kind != COND_SET)
            buf_printf(sql, "%s%s", drive ? "+" : "", c->sql);
        else if (probe && c->probe)
            buf_puts(sql, c->probe);
        else
            buf_printf(sql, "g.id IN (%s)", c->sql);
    }
}

static void bind_query(sqlite3_stmt *st, const struct list_query *q)
{
    for (int i = 0; i < q->n; i++) {
        if (q->c[i].text)
            sq_bind_text(st, i + 1, q->c[i].text);
        else
            sqlite3_bind_int64(st, i + 1, q->c[i].num);
    }
}

/* Runs sql (binding q) and reads one integer. */
static enum status query_int(struct sq_store *s, const char *sql,
                             const struct list_query *q, int64_t *out,
                             struct err *e)
{
    sqlite3_stmt *st = NULL;
    enum status res = sq_cached_text(s, sql, &st, e);
    *out = 0;
    if (res == ST_OK) {
        if (q)
            bind_query(st, q);
        int rc = sqlite3_step(st);
        if (rc == SQLITE_ROW)
            *out = sqlite3_column_int64(st, 0);
        else
            res = sq_fail(s, rc, "count games", e);
    }
    sq_release(s, st);
    return res;
}

/* The total: from game_totals when only verdict/finished/edition/status
 * filter (its key has them all; '' and -1 stand for an unsupported game's
 * missing edition and verdict, which no filter value matches);
 * from the sets alone (no games rows touched) when only sets filter; else
 * a count over games. */
static enum status count_games(struct sq_store *s, const struct list_query *q,
                               int64_t *out, struct err *e)
{
    struct buf sql = BUF_INIT;
    if (all_of(q, COND_TOTALS)) {
        buf_puts(&sql, "SELECT coalesce(sum(g.n), 0) FROM game_totals g");
        append_where(&sql, q, false);
    } else if (all_of(q, COND_SET)) {
        buf_puts(&sql, "SELECT count(*) FROM (");
        for (int i = 0; i < q->n; i++)
            buf_printf(&sql, "%s%s", i ? " INTERSECT " : "", q->c[i].sql);
        buf_puts(&sql, ")");
    } else {
        buf_puts(&sql, "SELECT count(*) FROM games g");
        append_where(&sql, q, false);
    }
    enum status res = query_int(s, sql.p, q, out, e);
    buf_release(&sql);
    return res;
}

/* Probe the sets while walking the sort index when that reads fewer rows
 * than fetching every member: about (offset + limit) * games / total
 * probes against total lookups. */
static enum status use_probes(struct sq_store *s, const struct list_query *q,
                              int64_t total, int64_t wanted, bool *out,
                              struct err *e)
{
    int64_t games = 0;
    bool any = false;
    *out = false;
    for (int i = 0; i < q->n; i++)
        any = any || (q->c[i].kind == COND_SET && q->c[i].probe);
    if (!any || total == 0)
        return ST_OK;
    enum status res = query_int(
        s, "SELECT coalesce(sum(n), 0) FROM game_totals", NULL, &games, e);
    *out = res == ST_OK &&
           (double)total * (double)total > (double)wanted * (double)games;
    return res;
}

/* Appends the entries of one page, comma-separated, to out. */
static enum status list_page(struct sq_store *s, const struct list_query *q,
                             bool probe, const char *col, bool asc, int limit,
                             int offset, struct buf *out, struct err *e)
{
    sqlite3_stmt *st = NULL;
    struct buf sql = BUF_INIT;
    const char *dir = asc ? "ASC" : "DESC";
    /* the page's ids first, so only its rows are rendered */
    /* the entry as written (schema/007), else rendered as it was; the
     * game's expansions spliced in as text (an index read each, and no
     * JSON parsed) rather than stored, so no entry is rewritten */
    buf_printf(&sql,
               "SELECT substr(t, 1, length(t) - 1) || ',\"expansions\":' || "
               "xs || '}' FROM (SELECT coalesce(e.entry, json_object("
               SQ_ENTRY_FIELDS ")) AS t, (SELECT json_group_array("
               "x.expansion) FROM game_expansions x WHERE x.game_id = g.id) "
               "AS xs, g.%s AS k, g.id AS id FROM (SELECT g.id FROM games g",
               col);
    append_where(&sql, q, probe);
    buf_printf(&sql,
               " ORDER BY g.%s %s, g.id %s LIMIT %d OFFSET %d) AS page "
               "JOIN games g ON g.id = page.id JOIN game_entry e ON "
               "e.game_id = g.id) ORDER BY k %s, id %s",
               col, dir, dir, limit, offset, dir, dir);
    enum status res = sq_cached_text(s, sql.p, &st, e);
    if (res == ST_OK)
        bind_query(st, q);
    for (int k = 0; res == ST_OK; k++) {
        int rc = sqlite3_step(st);
        if (rc == SQLITE_DONE)
            break;
        if (rc != SQLITE_ROW) {
            res = sq_fail(s, rc, "list games", e);
            break;
        }
        buf_puts(out, k ? "," : "");
        sq_append_col(out, st, 0);
    }
    sq_release(s, st);
    buf_release(&sql);
    return res;
}

enum status sq_list_games(struct store *base, const struct game_filter *f,
                             struct buf *out, struct err *e)
{
    struct sq_store *s = sq_of(base);
    static const struct game_filter none = {.verdict = -1, .finished = -1};
    struct list_query q;
    struct buf page = BUF_INIT;
    int64_t total = 0;
    bool probe = false;

    f = f ? f : &none;
    const char *col;
    if (store_sort_column(f->sort, &col, e))
        return e->code;
    int limit = f->limit <= 0 ? 50 : f->limit > 1000 ? 1000 : f->limit;
    int offset = f->offset < 0 ? 0 : f->offset;
    build_query(f, &q);
    /* one snapshot: the total and the page agree under a writer */
    enum status res = sq_begin_read(s, e);
    if (res == ST_OK)
        res = count_games(s, &q, &total, e);
    if (res == ST_OK)
        res = use_probes(s, &q, total, (int64_t)limit + offset, &probe, e);
    if (res == ST_OK && offset < total)
        res =
            list_page(s, &q, probe, col, f->ascending, limit, offset, &page, e);
    res = sq_end(s, res, e);
    if (res == ST_OK)
        buf_printf(out,
                   "{\"total\":%lld,\"offset\":%d,\"limit\":%d,"
                   "\"games\":[%s]}",
                   (long long)total, offset, limit, page.p ? page.p : "");
    buf_release(&page);
    buf_release(&q.pattern);
    return res;
}

/* The list entry plus the setup and the pinned verdict; then the stored
 * audit is spliced in verbatim as "audit" (null for a game the engine
 * could not audit: it has no setup and no audit row). */
static const char SQL_GAME_JSON[] =
    "SELECT json_object(" SQ_ENTRY_FIELDS ", "
    "'sha256', g.sha256, 'size', g.raw_size, 'engine', g.engine, "
    "'sets', json(g.sets), 'elements', json(g.elements), "
    "'expansions', (SELECT json_group_array(x.expansion) FROM "
    "game_expansions x WHERE x.game_id = g.id), "
    "'rules', iif(g.status = 'audited', json_object('followers', "
    "g.followers, 'abbots', g.abbots, "
    "'farmers', json(iif(g.farmers, 'true', 'false')), "
    "'gardens', json(iif(g.gardens, 'true', 'false')), "
    "'tiny-city-scoring', g.tiny_city), NULL), 'n_players', g.n_players, "
    "'halted', json(CASE g.halted WHEN 1 THEN 'true' WHEN 0 THEN 'false' "
    "ELSE 'null' END), "
    "'tiles_left', g.tiles_left, 'best_score', g.best_score, "
    "'content_sha256', g.content_sha256, 'duplicate_of', g.dup_of, "
    "'duplicates', (SELECT json_group_array(d.id) FROM (SELECT id FROM "
    "games WHERE dup_of = g.id ORDER BY id) d)), "
    "unpack(r.json, r.codec) "
    "FROM games g JOIN game_entry e ON e.game_id = g.id "
    "LEFT JOIN game_report r ON r.game_id = g.id WHERE g.id = ?1";

enum status sq_game_json(struct store *base, int64_t id, struct buf *out,
                            struct err *e)
{
    struct sq_store *s = sq_of(base);
    sqlite3_stmt *st = NULL;
    enum status res = sq_prepare(s, SQL_GAME_JSON, &st, e);
    if (res != ST_OK)
        goto out;
    sqlite3_bind_int64(st, 1, id);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_DONE) {
        res = err_set(e, ST_NOT_FOUND, "no game %lld", (long long)id);
        goto out;
    }
    if (rc != SQLITE_ROW) {
        res = sq_fail(s, rc, "read game", e);
        goto out;
    }
    const char *meta = (const char *)sqlite3_column_text(st, 0);
    int meta_len = sqlite3_column_bytes(st, 0);
    if (!meta || meta_len < 2) {
        res = err_set(e, ST_DB, "game %lld: no metadata", (long long)id);
        goto out;
    }
    buf_append(out, meta, (size_t)meta_len - 1); /* drop the '}' */
    buf_puts(out, ",\"audit\":");
    if (sqlite3_column_bytes(st, 1) > 0)
        sq_append_col(out, st, 1);
    else
        buf_puts(out, "null");
    buf_puts(out, "}");
out:
    sqlite3_finalize(st);
    return res;
}
