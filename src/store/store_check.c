/* store_check.c - is the database whole? (`flierd check`, the crash
 * tests), for every backend.
 *
 * What "whole" means follows the invariants of the schema (schema/ and
 * schema/pg/):
 *  1. The backend's own checks pass (SQLite: integrity_check and
 *     foreign_key_check; PostgreSQL: no index a failed build left
 *     invalid; it checks its pages as it reads them).
 *  2. Every row of a table that belongs to a game has its games row. The
 *     tables are found in the catalog (those that reference games), so a
 *     migration that adds or drops one needs no change here.
 *  3. Every games row has the rows a game is never without: required[]
 *     below, the one place to update when that changes (some rows only an
 *     audited game has), and one game_players row per seat; an
 *     unsupported game has none of an audit's rows (audit_only[]).
 *  4. Every stored upload hashes to its games.sha256 and has its
 *     raw_size, and no two uploads (source not 'live') share a digest;
 *     a duplicate of a game's content links to the one that counts.
 *  5. The aggregate tables, kept at every commit, equal the sums
 *     recomputed from the detail tables (aggregates[] below). A check
 *     whose tables a migration dropped is skipped and named in the
 *     summary.
 * The SQL here is what both backends' dialects take; where they differ
 * the backend says it (struct check_ops). */
#include "store/store_check.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "util/sha256.h"

/* Problem lines kept per section: a corrupt table can break every row. */
#define CHECK_MAX_LINES 20

/* The rows every game has (audited only: every audited game): table and
 * the column holding the game id (NULL: the backend's search_key). */
static const struct {
    const char *table, *key;
    bool audited_only;
} required[] = {
    { "game_raw", "game_id", false },
    { "game_report", "game_id", true },
    { "game_expansions", "game_id", true },
    { "game_entry", "game_id", false },
    { "game_search", NULL, false },
};

/* Tables whose rows only an audited game has: an unsupported game (its
 * log could not be read) holding one is a problem. */
static const char *const audit_only[] = {
    "game_report", "game_players", "game_player_points", "game_expansions",
    "flights", "violations",
};

/* The games the statistics of play count: a later upload of a stored
 * game's content (games.dup_of set) counts once, as the game it links
 * to; game_totals and expansion_totals count uploads. */
#define PLAYED " game_id IN (SELECT id FROM games WHERE dup_of IS NULL)"

/* A flight's luck terms (schema/011): with an outcome, and k, the rolls
 * of the three that offered a landing. */
#define DECIDED "outcome IN ('landed', 'returned')"
#define ROLLS_WITH_LANDING                                                \
    "(CASE WHEN n_roll1 > 0 THEN 1 ELSE 0 END + CASE WHEN n_roll2 > 0 "  \
    "THEN 1 ELSE 0 END + CASE WHEN n_roll3 > 0 THEN 1 ELSE 0 END)"

/* An aggregate table against the sums over its detail table. Both
 * queries return (key, values...) rows; key names the row for people.
 * stored leaves out rows whose counts are all 0: the writers decrement
 * and never delete those. Booleans are counted with CASE, which both
 * dialects take. */
static const struct {
    const char *table, *detail, *recomputed, *stored;
} aggregates[] = {
    { "game_totals", "games",
      "SELECT 'status ' || status || ', edition ' || coalesce(edition, '')"
      " || ', valid ' || coalesce(valid, -1) || ', finished '"
      " || coalesce(finished, -1) || ', live ' || live AS k, status,"
      " coalesce(edition, '') AS ed, coalesce(valid, -1) AS v,"
      " coalesce(finished, -1) AS f, live, count(*) AS n FROM games"
      " GROUP BY 2, 3, 4, 5, 6",
      "SELECT 'status ' || status || ', edition ' || edition || ', valid '"
      " || valid || ', finished ' || finished || ', live ' || live AS k,"
      " status, edition, valid, finished, live, n FROM game_totals"
      " WHERE n <> 0" },
    { "expansion_totals", "game_expansions",
      "SELECT 'expansion ' || expansion AS k, expansion, count(*)"
      " FROM game_expansions GROUP BY expansion",
      "SELECT 'expansion ' || expansion AS k, expansion, n"
      " FROM expansion_totals WHERE n <> 0" },
    { "player_totals", "game_players",
      "SELECT 'player_id ' || player_id AS k, player_id, count(*),"
      " sum(finished), sum(winner), sum(finished * score),"
      " sum(flights), sum(landed), sum(returned), sum(forced),"
      " sum(flier_points), sum(rolls1), sum(rolls2), sum(rolls3)"
      " FROM game_players WHERE" PLAYED " GROUP BY player_id",
      "SELECT 'player_id ' || player_id AS k, player_id, games,"
      " finished_games, wins, score_sum, flights, landed, returned, forced,"
      " flier_points, rolls1, rolls2, rolls3 FROM player_totals"
      " WHERE games <> 0" },
    { "player_points", "game_player_points",
      "SELECT 'player_id ' || player_id || ', feature ' || feature AS k,"
      " player_id, feature, sum(points), count(*) FROM game_player_points"
      " WHERE" PLAYED " GROUP BY player_id, feature",
      "SELECT 'player_id ' || player_id || ', feature ' || feature AS k,"
      " player_id, feature, points, n FROM player_points"
      " WHERE n <> 0 OR points <> 0" },
    { "score_hist", "game_players",
      "SELECT 'bucket ' || (score / 10) AS k, score / 10, count(*)"
      " FROM game_players WHERE finished = 1 AND" PLAYED
      " GROUP BY score / 10",
      "SELECT 'bucket ' || bucket AS k, bucket, n FROM score_hist"
      " WHERE n <> 0" },
    { "flight_totals", "flights",
      "SELECT 'roll ' || roll || ', diagonal ' || diagonal || ', figure '"
      " || figure AS k, roll, diagonal, figure, count(*),"
      " sum(CASE WHEN outcome = 'landed' THEN 1 ELSE 0 END),"
      " sum(CASE WHEN outcome = 'returned' THEN 1 ELSE 0 END),"
      " sum(CASE WHEN outcome = 'pending' THEN 1 ELSE 0 END),"
      " sum(CASE WHEN n_options = 0 AND bad_roll = 0 THEN 1 ELSE 0 END),"
      " sum(CASE WHEN " DECIDED " THEN " ROLLS_WITH_LANDING " ELSE 0 END),"
      " sum(CASE WHEN " DECIDED " THEN " ROLLS_WITH_LANDING " * (3 - "
      ROLLS_WITH_LANDING ") ELSE 0 END), sum(points)"
      " FROM flights WHERE" PLAYED " GROUP BY roll, diagonal, figure",
      "SELECT 'roll ' || roll || ', diagonal ' || diagonal || ', figure '"
      " || figure AS k, roll, diagonal, figure, flights, landed, returned,"
      " pending, forced, thirds, ninths, points FROM flight_totals"
      " WHERE flights <> 0 OR landed <> 0 OR returned <> 0 OR pending <> 0"
      " OR forced <> 0 OR thirds <> 0 OR ninths <> 0 OR points <> 0" },
    { "player_figures", "flights",
      "SELECT 'player_id ' || gp.player_id || ', figure ' || f.figure AS k,"
      " gp.player_id, f.figure, count(*),"
      " sum(CASE WHEN f.outcome = 'landed' THEN 1 ELSE 0 END),"
      " sum(CASE WHEN f.outcome = 'returned' THEN 1 ELSE 0 END),"
      " sum(CASE WHEN f.outcome = 'pending' THEN 1 ELSE 0 END),"
      " sum(CASE WHEN f.n_options = 0 AND f.bad_roll = 0 THEN 1 ELSE 0 END)"
      " FROM flights f"
      " JOIN game_players gp ON gp.game_id = f.game_id AND gp.seat = f.seat"
      " WHERE f." PLAYED " GROUP BY gp.player_id, f.figure",
      "SELECT 'player_id ' || player_id || ', figure ' || figure AS k,"
      " player_id, figure, flights, landed, returned, pending, forced"
      " FROM player_figures WHERE flights <> 0 OR landed <> 0"
      " OR returned <> 0 OR pending <> 0 OR forced <> 0" },
    { "rule_totals", "violations",
      "SELECT 'rule ' || rule AS k, rule, count(*) FROM violations"
      " WHERE" PLAYED " GROUP BY rule",
      "SELECT 'rule ' || rule AS k, rule, n FROM rule_totals WHERE n <> 0" },
};

#define N_OF(a) (sizeof(a) / sizeof *(a))

void check_begin(struct check *c, const struct check_ops *ops, void *db,
                 struct buf *report)
{
    memset(c, 0, sizeof *c);
    c->ops = ops;
    c->db = db;
    c->report = report;
    c->skipped = (struct buf)BUF_INIT;
    c->keyed = (struct buf)BUF_INIT;
}

void check_section(struct check *c)
{
    c->lines = 0;
}

void check_problem(struct check *c, const char *fmt, ...)
{
    char line[512];
    va_list ap;
    c->problems++;
    if (c->lines++ == CHECK_MAX_LINES)
        buf_puts(c->report, "  ... (more of the same left out)\n");
    if (c->lines > CHECK_MAX_LINES)
        return;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    buf_printf(c->report, "%s\n", line);
}

/* name as an SQL identifier ("...", quotes doubled) or literal ('...'). */
static void quoted(struct buf *sql, const char *name, char q)
{
    buf_append(sql, &q, 1);
    for (const char *p = name; *p; p++) {
        if (*p == q)
            buf_append(sql, &q, 1);
        buf_append(sql, p, 1);
    }
    buf_append(sql, &q, 1);
}

static enum status two_ints(struct check *c, const char *sql, int64_t *a,
                            int64_t *b, struct err *e)
{
    *a = *b = 0;
    return c->ops->two_ints(c->db, sql, a, b, e);
}

enum status check_count(struct check *c, const char *sql, const char *prefix,
                        const char *what, const char *first_of,
                        struct err *e)
{
    int64_t n, first;
    enum status st = two_ints(c, sql, &n, &first, e);
    if (st == ST_OK && n > 0)
        check_problem(c, "%s%lld %s (the first: %s %lld)", prefix,
                      (long long)n, what, first_of, (long long)first);
    return st;
}

enum status check_table_exists(struct check *c, const char *name, bool *out,
                               struct err *e)
{
    struct buf lit = BUF_INIT, sql = BUF_INIT;
    int64_t n = 0, unused;
    quoted(&lit, name, '\'');
    buf_printf(&sql, c->ops->table_exists_sql, lit.p);
    enum status st = two_ints(c, sql.p, &n, &unused, e);
    buf_release(&lit);
    buf_release(&sql);
    *out = n > 0;
    return st;
}

/* Rows of table whose key column names no games row. */
static enum status orphans_of(struct check *c, const char *table,
                              const char *key, struct err *e)
{
    struct buf sql = BUF_INIT, prefix = BUF_INIT;
    buf_puts(&sql, "SELECT count(*), min(t.");
    quoted(&sql, key, '"');
    buf_puts(&sql, ") FROM ");
    quoted(&sql, table, '"');
    buf_puts(&sql, " t WHERE NOT EXISTS (SELECT 1 FROM games g WHERE "
                   "g.id = t.");
    quoted(&sql, key, '"');
    buf_puts(&sql, ")");
    buf_printf(&prefix, "table %s: ", table);
    enum status st = check_count(c, sql.p, prefix.p, "rows belong to no game",
                                 "game", e);
    buf_release(&sql);
    buf_release(&prefix);
    return st;
}

static void add_pair(void *arg, const char *const *col)
{
    buf_printf(arg, "%s\t%s\n", col[0], col[1]);
}

/* 2: every table that references games, as the catalog says today
 * (kept in c->keyed, "table\tcolumn\n" lines). */
static enum status check_orphans(struct check *c, struct err *e)
{
    enum status st = c->ops->each_row(c->db, c->ops->referencing_sql,
                                       add_pair, &c->keyed, e);
    check_section(c);
    /* the listing is done: no cursor stays open while others run */
    for (const char *p = c->keyed.p; st == ST_OK && p && *p;) {
        const char *tab = strchr(p, '\t'), *nl = strchr(p, '\n');
        char table[128], key[128];
        snprintf(table, sizeof table, "%.*s", (int)(tab - p), p);
        snprintf(key, sizeof key, "%.*s", (int)(nl - tab - 1), tab + 1);
        st = orphans_of(c, table, key, e);
        c->tables++;
        p = nl + 1;
    }
    return st;
}

/* Whether check_orphans() found a foreign key from table to games. */
static bool keyed(const struct check *c, const char *table)
{
    size_t n = strlen(table);
    for (const char *p = c->keyed.p; p && *p; p = strchr(p, '\n') + 1)
        if (strncmp(p, table, n) == 0 && p[n] == '\t')
            return true;
    return false;
}

/* 3: the rows no game is without. */
static enum status check_required(struct check *c, struct err *e)
{
    enum status st = ST_OK;
    check_section(c);
    for (size_t i = 0; i < N_OF(required) && st == ST_OK; i++) {
        const char *table = required[i].table;
        const char *key = required[i].key ? required[i].key
                                          : c->ops->search_key;
        bool have = false;
        st = check_table_exists(c, table, &have, e);
        if (st != ST_OK)
            break;
        if (!have) {
            check_problem(c, "table %s is missing", table);
            continue;
        }
        struct buf sql = BUF_INIT, what = BUF_INIT;
        buf_printf(&sql, "SELECT count(*), min(g.id) FROM games g WHERE %s "
                   "NOT EXISTS (SELECT 1 FROM ",
                   required[i].audited_only ? "g.status = 'audited' AND"
                                            : "");
        quoted(&sql, table, '"');
        buf_puts(&sql, " t WHERE t.");
        quoted(&sql, key, '"');
        buf_puts(&sql, " = g.id)");
        buf_printf(&what, "%sgames have no row in %s",
                   required[i].audited_only ? "audited " : "", table);
        st = check_count(c, sql.p, "", what.p, "game", e);
        buf_release(&sql);
        buf_release(&what);
        /* no foreign key for check_orphans to find (SQLite's FTS5) */
        if (st == ST_OK && !keyed(c, table))
            st = orphans_of(c, table, key, e);
    }
    if (st == ST_OK)
        st = check_count(c,
                         "SELECT count(*), min(g.id) FROM games g WHERE "
                         "g.status = 'audited' AND n_players <> (SELECT "
                         "count(*) FROM game_players p WHERE p.game_id = "
                         "g.id)",
                         "", "games have not one game_players row per seat",
                         "game", e);
    return st;
}

/* A points row names its seat's player (a copy, for the aggregate): the
 * seat must be there, with that player. */
static enum status check_points_seats(struct check *c, struct err *e)
{
    bool have = false;
    enum status st = check_table_exists(c, "game_player_points", &have, e);
    if (st != ST_OK || !have)
        return st;
    check_section(c);
    return check_count(c,
                       "SELECT count(*), min(p.game_id) FROM "
                       "game_player_points p WHERE NOT EXISTS (SELECT 1 FROM "
                       "game_players gp WHERE gp.game_id = p.game_id AND "
                       "gp.seat = p.seat AND gp.player_id = p.player_id)",
                       "table game_player_points: ",
                       "rows name no seat of their game, or another player "
                       "than the seat's",
                       "game", e);
}

/* An unsupported game was never read: no audit, seat, point, expansion,
 * flight or violation may belong to it. */
static enum status check_unsupported(struct check *c, struct err *e)
{
    enum status st = ST_OK;
    check_section(c);
    for (size_t i = 0; i < N_OF(audit_only) && st == ST_OK; i++) {
        bool have = false;
        st = check_table_exists(c, audit_only[i], &have, e);
        if (st != ST_OK || !have)
            continue; /* check_required names the missing ones */
        struct buf sql = BUF_INIT, what = BUF_INIT;
        buf_puts(&sql, "SELECT count(DISTINCT g.id), min(g.id) FROM games g "
                       "JOIN ");
        quoted(&sql, audit_only[i], '"');
        buf_puts(&sql, " t ON t.game_id = g.id WHERE g.status = "
                       "'unsupported'");
        buf_printf(&what, "unsupported games have rows in %s", audit_only[i]);
        st = check_count(c, sql.p, "", what.p, "game", e);
        buf_release(&sql);
        buf_release(&what);
    }
    return st;
}

/* 4b: a duplicate links to a game that counts, with its content; no two
 * uploads that count hold one content (schema/009). */
static enum status check_links(struct check *c, struct err *e)
{
    check_section(c);
    enum status st = check_count(
        c,
        "SELECT count(*), min(d.id) FROM games d LEFT JOIN games o ON "
        "o.id = d.dup_of WHERE d.dup_of IS NOT NULL AND (o.id IS NULL OR "
        "o.dup_of IS NOT NULL OR d.source = 'live' OR "
        "coalesce(o.content_sha256, '') <> coalesce(d.content_sha256, ''))",
        "", "games link (dup_of) to no game that counts with their content",
        "game", e);
    if (st == ST_OK)
        st = check_count(
            c,
            "SELECT count(*), min(x.id) FROM (SELECT min(id) AS id FROM "
            "games WHERE content_sha256 IS NOT NULL AND source <> 'live' "
            "AND dup_of IS NULL GROUP BY content_sha256 HAVING count(*) > 1) "
            "AS x",
            "", "contents are counted more than once (two games without "
            "dup_of hold them)",
            "game", e);
    return st;
}

void check_upload(struct check *c, const struct check_upload *u)
{
    char hex[SHA256_HEX_LEN];
    c->hashed++;
    if (u->why) {
        check_problem(c, "game %lld: the stored upload (%zu bytes) cannot be "
                      "read: %s", (long long)u->id, u->stored, u->why);
        return;
    }
    sha256_hex(u->bytes ? u->bytes : "", u->len, hex);
    if (!u->sha256 || strcmp(hex, u->sha256) != 0)
        check_problem(c, "game %lld: the stored upload (%zu bytes) hashes to "
                      "%.16s..., games.sha256 says %.16s...",
                      (long long)u->id, u->len, hex,
                      u->sha256 ? u->sha256 : "(null)");
    else if (u->raw_size != (int64_t)u->len)
        check_problem(c, "game %lld: the stored upload has %zu bytes, "
                      "games.raw_size says %lld", (long long)u->id, u->len,
                      (long long)u->raw_size);
}

static void dup_found(void *arg, const char *const *col)
{
    check_problem(arg, "games %s and %s: one upload (sha256 %.16s...) "
                  "stored %s times", col[1], col[2], col[0], col[3]);
}

/* 4a: two uploads of the same bytes (the writer dedupes; SQLite keeps
 * no index that would refuse them). */
static enum status check_duplicates(struct check *c, struct err *e)
{
    check_section(c);
    return c->ops->each_row(c->db,
                            "SELECT sha256, min(id), max(id), count(*) "
                            "FROM games WHERE source <> 'live' GROUP BY "
                            "sha256 HAVING count(*) > 1 ORDER BY min(id)",
                            dup_found, c, e);
}

struct agg_ctx {
    struct check *c;
    size_t i;
};

static void agg_differs(void *arg, const char *const *col)
{
    struct agg_ctx *a = arg;
    check_problem(a->c, "table %s, %s: differs from the sums over %s",
                  aggregates[a->i].table, col[0], aggregates[a->i].detail);
}

/* 5: one aggregate table against its recomputed sums. */
static enum status check_aggregate(struct check *c, size_t i, struct err *e)
{
    bool agg = false, detail = false;
    enum status st = check_table_exists(c, aggregates[i].table, &agg, e);
    if (st == ST_OK)
        st = check_table_exists(c, aggregates[i].detail, &detail, e);
    if (st != ST_OK || !agg || !detail) {
        if (st == ST_OK)
            buf_printf(&c->skipped, ", %s (no table %s)", aggregates[i].table,
                       agg ? aggregates[i].detail : aggregates[i].table);
        return st;
    }
    /* each row on one side only is a difference (a row in both with
     * other counts shows on both sides: name it once) */
    struct buf sql = BUF_INIT;
    struct agg_ctx a = { c, i };
    buf_printf(&sql,
               "WITH a AS (%s), b AS (%s) SELECT k FROM (SELECT * FROM "
               "(SELECT * FROM a EXCEPT SELECT * FROM b) AS x UNION ALL "
               "SELECT * FROM (SELECT * FROM b EXCEPT SELECT * FROM a) AS y) "
               "AS d GROUP BY k ORDER BY k%s",
               aggregates[i].recomputed, aggregates[i].stored,
               c->ops->byte_order);
    check_section(c);
    st = c->ops->each_row(c->db, sql.p, agg_differs, &a, e);
    buf_release(&sql);
    c->n_agg++;
    return st;
}

enum status check_run(struct check *c, struct err *e)
{
    int64_t unused;
    check_section(c);
    enum status st = c->ops->native(c->db, c, e);
    if (st == ST_OK)
        st = two_ints(c, "SELECT count(*), 0 FROM games", &c->games, &unused,
                      e);
    if (st == ST_OK)
        st = check_orphans(c, e);
    if (st == ST_OK)
        st = check_required(c, e);
    if (st == ST_OK)
        st = check_unsupported(c, e);
    if (st == ST_OK)
        st = check_points_seats(c, e);
    if (st == ST_OK) {
        check_section(c);
        st = c->ops->each_upload(c->db, c, e);
    }
    if (st == ST_OK)
        st = check_duplicates(c, e);
    if (st == ST_OK)
        st = check_links(c, e);
    if (st == ST_OK && c->ops->extra) {
        check_section(c);
        st = c->ops->extra(c->db, c, e);
    }
    for (size_t i = 0; i < N_OF(aggregates) && st == ST_OK; i++)
        st = check_aggregate(c, i, e);
    return st;
}

enum status check_end(struct check *c, enum status st, int *out_problems)
{
    *out_problems = 0;
    if (st == ST_OK) {
        buf_printf(c->report, "%lld games, %lld uploads hashed, %d tables of "
                   "games, %d aggregate tables%s%s: %d problem%s\n",
                   (long long)c->games, (long long)c->hashed, c->tables,
                   c->n_agg, c->skipped.len ? "; skipped" : "",
                   c->skipped.len ? c->skipped.p + 1 : "", c->problems,
                   c->problems == 1 ? "" : "s");
        *out_problems = c->problems;
    }
    buf_release(&c->skipped);
    buf_release(&c->keyed);
    return st;
}
