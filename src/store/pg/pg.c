/* pg.c - the PostgreSQL backend: connecting, migrating under an advisory
 * lock, running statements, transactions and batches, the simple reads
 * (raw, sha, live, each game), and the backend's table of functions.
 *
 * Connection settings (libpq's, overridable in the URI): a connect
 * timeout and TCP keepalives, so a cut network is noticed in seconds; a
 * statement timeout, so no request waits on the database past the HTTP
 * deadline; a lock timeout, the counterpart of SQLite's busy timeout
 * (past it the call returns ST_BUSY); and synchronous_commit as the
 * server has it (on by default: a 201 means the commit is on disk).
 *
 * Those are the server's and the kernel's: a server that stops answering
 * with the connection still up (stopped, swapping, a disk that hangs)
 * would hold a request forever. So every statement is sent without
 * blocking and its answer waited for PG_ANSWER_MS at most, past the
 * statement timeout and short of the HTTP deadline (30 s); then the
 * connection is dropped, the call fails with ST_BUSY (503 and
 * Retry-After), and the next one connects again. FLIERD_PG_ANSWER_MS in
 * the environment sets another wait (1000 to 600000 ms), for a site
 * whose statement timeout differs, and for the tests. */
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store/pg/pg_int.h"
#include "util/xalloc.h"

#define PG_ANSWER_MS 20000

#include <stdlib.h>

static bool pg_connect(struct pg_store *s);
static enum status run(struct pg_store *s, const char *sql, const char *what,
                       struct err *e);

/* pg_advisory_xact_lock key of the migrations: "flierd" in ASCII. */
#define PG_MIGRATE_LOCK "112615676535396"

static const char PG_OPTIONS[] =
    "-c statement_timeout=15000 -c lock_timeout=5000 "
    "-c idle_in_transaction_session_timeout=60000";

/* ---- parameters ------------------------------------------------------ */

void pp_reset(struct pg_params *p)
{
    p->n = 0;
}

static int pp_next(struct pg_params *p)
{
    /* the callers' statements have fixed, smaller counts */
    return p->n < PG_MAX_PARAMS ? p->n++ : PG_MAX_PARAMS - 1;
}

void pp_null(struct pg_params *p)
{
    int i = pp_next(p);
    p->v[i] = NULL;
    p->len[i] = 0;
    p->fmt[i] = 0;
}

void pp_text(struct pg_params *p, const char *s)
{
    int i = pp_next(p);
    p->v[i] = s;
    p->len[i] = 0;
    p->fmt[i] = 0;
}

/* Binary format: the text's bytes as they are, no NUL needed. */
void pp_text_len(struct pg_params *p, const char *s, size_t len)
{
    int i = pp_next(p);
    p->v[i] = s ? s : "";
    p->len[i] = s ? (int)len : 0;
    p->fmt[i] = 1;
}

void pp_bytes(struct pg_params *p, const void *data, size_t len)
{
    pp_text_len(p, data, len);
}

void pp_int(struct pg_params *p, int64_t v)
{
    int i = pp_next(p);
    snprintf(p->num[i], sizeof p->num[i], "%" PRId64, v);
    p->v[i] = p->num[i];
    p->len[i] = 0;
    p->fmt[i] = 0;
}

/* ---- errors ---------------------------------------------------------- */

/* SQLSTATEs a client may meet again and get through: the server is away
 * or going (08, 57P01..57P03), a timeout or cancel (57014, 55P03), a
 * deadlock or serialization failure (40001, 40P01), too many connections
 * (53300). */
static bool transient(const char *state, bool conn_bad)
{
    static const char *const codes[] = {
        "57P01", "57P02", "57P03", "57014", "55P03", "40001", "40P01",
        "53300",
    };
    if (conn_bad || strncmp(state, "08", 2) == 0)
        return true;
    for (size_t i = 0; i < sizeof codes / sizeof *codes; i++)
        if (strcmp(state, codes[i]) == 0)
            return true;
    return false;
}

/* The message on one line: libpq ends it with a newline and puts its
 * hints on lines of their own. */
static void trimmed(const char *msg, char *out, size_t n)
{
    snprintf(out, n, "%s", msg && msg[0] ? msg : "unknown error");
    size_t len = strlen(out);
    while (len > 0 && (out[len - 1] == '\n' || out[len - 1] == ' '))
        out[--len] = '\0';
    for (char *p = out; *p; p++)
        if (*p == '\n' || *p == '\t')
            *p = ' ';
}

enum status pg_fail(struct pg_store *s, const PGresult *r, const char *what,
                    struct err *e)
{
    const char *state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
    /* the first line: the rest points into the SQL text */
    const char *msg = r ? PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY)
                        : NULL;
    bool bad = PQstatus(s->conn) != CONNECTION_OK;
    char text[200];
    snprintf(s->sqlstate, sizeof s->sqlstate, "%s", state ? state : "");
    trimmed(msg && msg[0] ? msg : PQerrorMessage(s->conn), text, sizeof text);
    if (bad && s->batch)
        s->batch_lost = true;
    enum status st = ST_DB;
    if (transient(s->sqlstate, bad))
        st = ST_BUSY;
    else if (strcmp(s->sqlstate, "53100") == 0)
        st = ST_FULL;
    else if (strcmp(s->sqlstate, "53200") == 0)
        st = ST_NOMEM;
    return err_set(e, st, "%s: %s%s", what, text,
                   bad ? " (the connection to the database was lost; it "
                         "is opened again on the next request)" : "");
}

bool pg_retryable(const struct pg_store *s)
{
    return strcmp(s->sqlstate, "40001") == 0 ||
           strcmp(s->sqlstate, "40P01") == 0;
}

/* ---- running statements ------------------------------------------------ */

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Waits until the socket is ready for ev, or the deadline; false when the
 * deadline passed. */
static bool wait_socket(PGconn *c, short ev, int64_t deadline)
{
    struct pollfd pf = { PQsocket(c), ev, 0 };
    for (;;) {
        int64_t left = deadline - now_ms();
        if (left <= 0)
            return false;
        int n = poll(&pf, 1, (int)(left < 1000 ? left : 1000));
        if (n != 0) /* ready, or an error the next libpq call reports */
            return true;
    }
}

/* Prepared statements live with the server's session. */
static void forget_statements(struct pg_store *s)
{
    s->n_cache = 0;
    for (int i = 0; i < PG_TEXT_CACHE; i++) {
        free(s->texts[i]);
        s->texts[i] = NULL;
    }
}

/* Gives up on a connection that did not answer: dropped (so the call's
 * statement cannot complete later behind our back), connected again on
 * the next call (pg_ready). */
static enum status no_answer(struct pg_store *s, const char *what,
                             struct err *e)
{
    PQfinish(s->conn);
    s->conn = NULL;
    forget_statements(s);
    if (s->batch)
        s->batch_lost = true;
    snprintf(s->sqlstate, sizeof s->sqlstate, "08006");
    return err_set(e, ST_BUSY, "%s: %s: the database did not answer within "
                   "%d s (the connection is dropped and opened again on the "
                   "next request)", what, s->label,
                   (s->answer_ms + 999) / 1000);
}

/* Sends what libpq holds, reading meanwhile (the server may answer
 * before it has read everything): 1 sent, 0 the deadline passed first,
 * -1 the connection failed. */
static int flushed(struct pg_store *s, int64_t deadline)
{
    for (int f; (f = PQflush(s->conn)) != 0;) {
        if (f < 0)
            return -1;
        if (!wait_socket(s->conn, POLLOUT | POLLIN, deadline))
            return 0;
        if (!PQconsumeInput(s->conn))
            return -1;
    }
    return 1;
}

/* The next result (NULL: the end of a statement's results); false when
 * the deadline passed first. */
static bool next_result(struct pg_store *s, int64_t deadline, PGresult **out)
{
    *out = NULL;
    while (PQisBusy(s->conn)) {
        if (!wait_socket(s->conn, POLLIN, deadline))
            return false;
        if (!PQconsumeInput(s->conn))
            break; /* the connection failed: PQgetResult says how */
    }
    *out = PQgetResult(s->conn);
    return true;
}

/* The answer to what was just sent (sent: PQsend*() succeeded): the last
 * result, as PQexec() gives it, in *out (failures as error results);
 * ST_BUSY when none came within PG_ANSWER_MS. */
static enum status await(struct pg_store *s, bool sent, PGresult **out,
                         const char *what, struct err *e)
{
    int64_t deadline = now_ms() + s->answer_ms;
    PGresult *last = NULL, *r;
    *out = NULL;
    int f = sent ? flushed(s, deadline) : -1;
    if (f < 0)
        return pg_fail(s, NULL, what, e);
    if (f == 0)
        return no_answer(s, what, e);
    for (;;) {
        if (!next_result(s, deadline, &r)) {
            PQclear(last);
            return no_answer(s, what, e);
        }
        if (!r)
            break;
        PQclear(last);
        last = r;
    }
    *out = last;
    return ST_OK;
}

/* Prepares sql as name (p: its parameters' count). */
static enum status prepare_as(struct pg_store *s, const char *name,
                              const char *sql, const struct pg_params *p,
                              struct err *e)
{
    PGresult *r = NULL;
    enum status st = await(
        s, PQsendPrepare(s->conn, name, sql, p ? p->n : 0, NULL) == 1, &r,
        "prepare", e);
    if (st == ST_OK && PQresultStatus(r) != PGRES_COMMAND_OK)
        st = pg_fail(s, r, "prepare", e);
    PQclear(r);
    return st;
}

/* The prepared name of a cached statement, preparing it on first use. */
static enum status prepared(struct pg_store *s, const char *sql,
                            const struct pg_params *p, char name[24],
                            struct err *e)
{
    int i = 0;
    while (i < s->n_cache && s->cache[i] != sql)
        i++;
    snprintf(name, 24, "flierd_%d", i);
    if (i < s->n_cache)
        return ST_OK;
    if (i == PG_STMT_CACHE) { /* full: run it unnamed */
        name[0] = '\0';
        return ST_OK;
    }
    enum status st = prepare_as(s, name, sql, p, e);
    if (st == ST_OK)
        s->cache[s->n_cache++] = sql;
    return st;
}

static uint64_t text_hash(const char *sql)
{
    uint64_t h = 14695981039346656037u; /* FNV-1a */
    for (; *sql; sql++)
        h = (h ^ (unsigned char)*sql) * 1099511628211u;
    return h;
}

/* The text cache's slot holding sql (hash h), or -1. */
static int text_slot(const struct pg_store *s, const char *sql, uint64_t h)
{
    for (int i = 0; i < PG_TEXT_CACHE; i++)
        if (s->texts[i] && s->text_hash[i] == h &&
            strcmp(s->texts[i], sql) == 0)
            return i;
    return -1;
}

/* The same for text built per call (a list's statements: planning one
 * took longer than running it): the one used longest ago makes room. */
static enum status prepared_text(struct pg_store *s, const char *sql,
                                 const struct pg_params *p, char name[24],
                                 struct err *e)
{
    uint64_t h = text_hash(sql);
    int i = text_slot(s, sql, h), old = -1;
    if (i >= 0) {
        snprintf(name, 24, "flierd_t%d", i);
        s->text_used[i] = ++s->text_clock;
        return ST_OK;
    }
    for (int j = 0; j < PG_TEXT_CACHE && i < 0; j++)
        if (!s->texts[j])
            i = j;
        else if (old < 0 || s->text_used[j] < s->text_used[old])
            old = j;
    if (i < 0) { /* the slot is freed once the server has let go */
        char drop[48];
        i = old;
        snprintf(drop, sizeof drop, "DEALLOCATE flierd_t%d", i);
        enum status st = run(s, drop, "deallocate", e);
        if (st != ST_OK)
            return st;
        free(s->texts[i]);
        s->texts[i] = NULL;
    }
    snprintf(name, 24, "flierd_t%d", i);
    enum status st = prepare_as(s, name, sql, p, e);
    if (st == ST_OK) {
        s->texts[i] = xstrdup(sql);
        s->text_hash[i] = h;
        s->text_used[i] = ++s->text_clock;
    }
    return st;
}

/* The name q runs under when it is prepared already (or runs unnamed);
 * false when it is not prepared yet. */
static bool known(struct pg_store *s, const struct pg_stmt *q, char name[24])
{
    if (q->unnamed) {
        name[0] = '\0';
        return true;
    }
    if (q->built) {
        int i = text_slot(s, q->sql, text_hash(q->sql));
        if (i < 0)
            return false;
        snprintf(name, 24, "flierd_t%d", i);
        s->text_used[i] = ++s->text_clock;
        return true;
    }
    int i = 0;
    while (i < s->n_cache && s->cache[i] != q->sql)
        i++;
    if (i == PG_STMT_CACHE) { /* full: unnamed */
        name[0] = '\0';
        return true;
    }
    snprintf(name, 24, "flierd_%d", i);
    return i < s->n_cache;
}

enum status pg_query(struct pg_store *s, const char *sql, bool cached,
                     const struct pg_params *p, bool binary, PGresult **out,
                     const char *what, struct err *e)
{
    char name[24] = "";
    int n = p ? p->n : 0;
    *out = NULL;
    if (cached) {
        enum status st = prepared(s, sql, p, name, e);
        if (st != ST_OK)
            return st;
    }
    int sent =
        name[0] ? PQsendQueryPrepared(s->conn, name, n, p ? p->v : NULL,
                                      p ? p->len : NULL, p ? p->fmt : NULL,
                                      binary)
                : PQsendQueryParams(s->conn, sql, n, NULL, p ? p->v : NULL,
                                    p ? p->len : NULL, p ? p->fmt : NULL,
                                    binary);
    PGresult *r = NULL;
    enum status ast = await(s, sent == 1, &r, what, e);
    if (ast != ST_OK)
        return ast;
    ExecStatusType rs = PQresultStatus(r);
    if (rs != PGRES_TUPLES_OK && rs != PGRES_COMMAND_OK) {
        enum status st = pg_fail(s, r, what, e);
        PQclear(r);
        return st;
    }
    s->sqlstate[0] = '\0';
    *out = r;
    return ST_OK;
}

enum status pg_exec(struct pg_store *s, const char *sql, bool cached,
                    const struct pg_params *p, const char *what,
                    struct err *e)
{
    PGresult *r = NULL;
    enum status st = pg_query(s, sql, cached, p, false, &r, what, e);
    PQclear(r);
    return st;
}

static int send_prepared(struct pg_store *s, const char *name,
                         const char *sql, const struct pg_params *p,
                         bool binary)
{
    int n = p ? p->n : 0;
    return name[0] ? PQsendQueryPrepared(s->conn, name, n, p ? p->v : NULL,
                                         p ? p->len : NULL,
                                         p ? p->fmt : NULL, binary)
                   : PQsendQueryParams(s->conn, sql, n, NULL,
                                       p ? p->v : NULL, p ? p->len : NULL,
                                       p ? p->fmt : NULL, binary);
}

/* Collects the pipeline's results up to its sync: the last one of each
 * statement into q[i].res; false when the deadline passed. */
static bool pipeline_results(struct pg_store *s, struct pg_stmt *q, int n,
                             int64_t deadline)
{
    int i = 0;
    for (;;) {
        PGresult *r;
        if (!next_result(s, deadline, &r))
            return false;
        if (!r) { /* the end of statement i's results */
            if (PQstatus(s->conn) != CONNECTION_OK || ++i > n)
                return true;
            continue;
        }
        if (PQresultStatus(r) == PGRES_PIPELINE_SYNC) {
            PQclear(r);
            return true;
        }
        if (i < n) {
            PQclear(q[i].res);
            q[i].res = r;
        } else {
            PQclear(r);
        }
    }
}

/* The statements one after the other, each prepared on its first use
 * on the connection: a prepare that fails then comes after the savepoint
 * or BEGIN the first statement opened, and is undone with it, as a
 * statement that fails is (a prepare inside a transaction that fails
 * fails the transaction). */
static enum status in_turn(struct pg_store *s, struct pg_stmt *q, int n,
                           const char *what, struct err *e)
{
    for (int i = 0; i < n; i++) {
        char name[24];
        PGresult *r = NULL;
        enum status st = ST_OK;
        name[0] = '\0';
        if (q[i].built)
            st = prepared_text(s, q[i].sql, q[i].p, name, e);
        else if (!q[i].unnamed)
            st = prepared(s, q[i].sql, q[i].p, name, e);
        if (st == ST_OK)
            st = await(s,
                       send_prepared(s, name, q[i].sql, q[i].p,
                                     q[i].binary) == 1,
                       &r, what, e);
        if (st != ST_OK)
            return st;
        q[i].res = r;
        ExecStatusType rs = PQresultStatus(r);
        if (rs != PGRES_TUPLES_OK && rs != PGRES_COMMAND_OK)
            return pg_fail(s, r, what, e);
    }
    s->sqlstate[0] = '\0';
    return ST_OK;
}

enum status pg_pipeline(struct pg_store *s, struct pg_stmt *q, int n,
                        const char *what, struct err *e)
{
    char names[PG_PIPELINE_MAX][24];
    enum status st = ST_OK;
    bool ready = true;
    for (int i = 0; i < n; i++)
        q[i].res = NULL;
    if (n > PG_PIPELINE_MAX)
        return err_set(e, ST_DB, "%s: %d statements in one pipeline", what,
                       n);
    for (int i = 0; i < n; i++)
        ready = known(s, &q[i], names[i]) && ready;
    if (!ready) /* once per statement and connection */
        return in_turn(s, q, n, what, e);
    if (PQenterPipelineMode(s->conn) != 1)
        return pg_fail(s, NULL, what, e);
    int64_t deadline = now_ms() + s->answer_ms;
    bool sent = true;
    for (int i = 0; i < n && sent; i++)
        sent = send_prepared(s, names[i], q[i].sql, q[i].p, q[i].binary) == 1;
    sent = sent && PQpipelineSync(s->conn) == 1;
    int f = sent ? flushed(s, deadline) : -1;
    if (f == 0 || (f > 0 && !pipeline_results(s, q, n, deadline))) {
        pg_pipeline_clear(q, n);
        return no_answer(s, what, e); /* the rest goes with the conn */
    }
    if (f < 0 || PQexitPipelineMode(s->conn) != 1) {
        /* what was left half sent or unread cannot be told apart from
         * what comes next: start again on a new connection. The server
         * going away mid-pipeline ends here too ("cannot exit pipeline
         * mode while busy", the connection still said to be up), so a
         * failure without a cause of its own is one to retry (503). */
        st = pg_fail(s, NULL, what, e);
        if (st == ST_DB) {
            char why[ERR_MSG_MAX];
            snprintf(why, sizeof why, "%s", e->msg);
            st = err_set(e, ST_BUSY, "%s (the connection is opened again on "
                         "the next request)", why);
        }
        PQfinish(s->conn);
        s->conn = NULL;
        forget_statements(s);
        if (s->batch)
            s->batch_lost = true;
        return st;
    }
    for (int i = 0; i < n; i++) {
        ExecStatusType rs = q[i].res ? PQresultStatus(q[i].res)
                                     : PGRES_FATAL_ERROR;
        if (rs != PGRES_TUPLES_OK && rs != PGRES_COMMAND_OK)
            return pg_fail(s, q[i].res, what, e);
    }
    s->sqlstate[0] = '\0';
    return ST_OK;
}

void pg_pipeline_clear(struct pg_stmt *q, int n)
{
    for (int i = 0; i < n; i++) {
        PQclear(q[i].res);
        q[i].res = NULL;
    }
}

enum status pg_read_all(struct pg_store *s, struct pg_stmt *q, int n,
                        const char *what, struct err *e)
{
    struct pg_stmt all[PG_PIPELINE_MAX];
    if (n + 2 > PG_PIPELINE_MAX)
        return err_set(e, ST_DB, "%s: %d reads in one pipeline", what, n);
    enum status st = pg_enter(s, e);
    if (st != ST_OK)
        return st;
    all[0] = (struct pg_stmt){
        .sql = s->batch ? "SAVEPOINT game"
                        : "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
    };
    for (int i = 0; i < n; i++)
        all[i + 1] = q[i];
    all[n + 1] = (struct pg_stmt){
        .sql = s->batch ? "RELEASE SAVEPOINT game" : "COMMIT"
    };
    st = pg_pipeline(s, all, n + 2, what, e);
    for (int i = 0; i < n; i++) {
        q[i].res = all[i + 1].res;
        all[i + 1].res = NULL;
    }
    pg_pipeline_clear(all, n + 2);
    return st == ST_OK ? ST_OK : pg_end(s, st, e);
}

/* A command of its own (BEGIN, COMMIT, several statements): no
 * parameters, so the simple protocol, which takes many at once. */
static enum status run(struct pg_store *s, const char *sql, const char *what,
                       struct err *e)
{
    PGresult *r = NULL;
    enum status st = await(s, PQsendQuery(s->conn, sql) == 1, &r, what, e);
    if (st != ST_OK)
        return st;
    ExecStatusType rs = PQresultStatus(r);
    if (rs != PGRES_COMMAND_OK && rs != PGRES_TUPLES_OK)
        st = pg_fail(s, r, what, e);
    PQclear(r);
    return st;
}

const char *pg_cell(const PGresult *r, int row, int col)
{
    return PQgetisnull(r, row, col) ? NULL : PQgetvalue(r, row, col);
}

int64_t pg_int(const PGresult *r, int row, int col)
{
    const char *v = pg_cell(r, row, col);
    return v ? strtoll(v, NULL, 10) : 0;
}

/* ---- connection state and transactions ---------------------------------- */

enum status pg_ready(struct pg_store *s, struct err *e)
{
    /* An idle connection the server has closed meanwhile (a restart, an
     * administrator's kill) has its goodbye waiting on the socket: read
     * it now, so that the call reconnects instead of failing once. */
    for (int i = 0; i < 2 && !s->batch && /* the message, then the EOF */
                    PQstatus(s->conn) == CONNECTION_OK &&
                    PQtransactionStatus(s->conn) == PQTRANS_IDLE;
         i++)
        PQconsumeInput(s->conn);
    if (PQstatus(s->conn) != CONNECTION_OK) {
        char text[200];
        if (s->batch) {
            s->batch_lost = true;
            return err_set(e, ST_BUSY, "%s: the connection was lost during "
                           "a batch", s->label);
        }
        if (!pg_connect(s)) {
            trimmed(s->conn ? PQerrorMessage(s->conn) : "out of memory",
                    text, sizeof text);
            return err_set(e, ST_BUSY, "%s: the database cannot be reached: "
                           "%s", s->label, text);
        }
    }
    PGTransactionStatusType ts = PQtransactionStatus(s->conn);
    if (!s->batch && (ts == PQTRANS_INTRANS || ts == PQTRANS_INERROR))
        return run(s, "ROLLBACK", "roll back a leftover transaction", e);
    return ST_OK;
}

enum status pg_enter(struct pg_store *s, struct err *e)
{
    if (s->batch && s->batch_lost)
        return err_set(e, ST_DB, "the batch this game belongs to was rolled "
                       "back after an earlier failure");
    s->sqlstate[0] = '\0';
    return pg_ready(s, e);
}

const char *pg_begin_sql(const struct pg_store *s)
{
    return s->batch ? "SAVEPOINT game" : "BEGIN";
}

enum status pg_begin(struct pg_store *s, bool read, struct err *e)
{
    enum status st = pg_enter(s, e);
    if (st != ST_OK)
        return st;
    if (s->batch)
        return run(s, "SAVEPOINT game", "begin", e);
    /* a read sees one snapshot: a total and its page agree */
    return run(s, read ? "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
                       : "BEGIN", "begin", e);
}

static enum status end_savepoint(struct pg_store *s, enum status st,
                                 struct err *e)
{
    struct err e2;
    if (st == ST_OK)
        st = run(s, "RELEASE SAVEPOINT game", "release savepoint", e);
    if (st == ST_OK)
        return ST_OK;
    if (run(s, "ROLLBACK TO SAVEPOINT game", "rollback", &e2) != ST_OK ||
        run(s, "RELEASE SAVEPOINT game", "release", &e2) != ST_OK) {
        /* the game could not be undone alone: give up the whole batch
         * rather than ever commit part of a game */
        s->batch_lost = true;
        if (PQstatus(s->conn) == CONNECTION_OK)
            run(s, "ROLLBACK", "rollback", &e2);
    }
    return st;
}

enum status pg_end(struct pg_store *s, enum status st, struct err *e)
{
    struct err e2;
    if (s->batch)
        return end_savepoint(s, st, e);
    if (st == ST_OK)
        st = run(s, "COMMIT", "commit", e);
    if (st != ST_OK && PQstatus(s->conn) == CONNECTION_OK &&
        PQtransactionStatus(s->conn) != PQTRANS_IDLE)
        run(s, "ROLLBACK", "rollback", &e2);
    return st;
}

/* kind is not used: a savepoint here is a few messages on a round trip
 * the game makes anyway, and never copies pages. */
enum status pg_batch_begin(struct store *base, enum store_batch kind,
                           struct err *e)
{
    struct pg_store *s = pg_of(base);
    (void)kind;
    if (s->batch)
        return err_set(e, ST_DB, "a batch is already open");
    if (s->read_only)
        return err_set(e, ST_DB, "read-only");
    enum status st = pg_begin(s, false, e);
    s->batch = st == ST_OK;
    s->batch_lost = false;
    s->n_uncounted = 0;
    return st;
}

bool pg_batch_lost(const struct store *base)
{
    const struct pg_store *s = (const struct pg_store *)base;
    return s->batch && s->batch_lost;
}

const char pg_sql_count[] = "SELECT count_games($1::bigint[], $2::integer)";

void pg_ids_array(struct buf *b, const int64_t *ids, size_t n)
{
    buf_puts(b, "{");
    for (size_t i = 0; i < n; i++)
        buf_printf(b, "%s%" PRId64, i ? "," : "", ids[i]);
    buf_puts(b, "}");
}

enum status pg_commit_counted(struct pg_store *s, const int64_t *ids,
                              size_t n, struct err *e)
{
    struct pg_params p;
    struct buf arr = BUF_INIT;
    struct pg_stmt q[2];
    int k = 0;
    struct err e2;
    if (n > 0) {
        pg_ids_array(&arr, ids, n);
        pp_reset(&p);
        pp_text(&p, arr.p);
        pp_int(&p, 1);
        q[k++] = (struct pg_stmt){ .sql = pg_sql_count, .p = &p };
    }
    q[k++] = (struct pg_stmt){ .sql = "COMMIT" };
    enum status st = pg_pipeline(s, q, k, "commit", e);
    pg_pipeline_clear(q, k);
    buf_release(&arr);
    if (st != ST_OK && PQstatus(s->conn) == CONNECTION_OK &&
        PQtransactionStatus(s->conn) != PQTRANS_IDLE)
        run(s, "ROLLBACK", "rollback", &e2);
    return st;
}

bool pg_uncounted(const struct pg_store *s, int64_t id)
{
    for (size_t i = 0; i < s->n_uncounted; i++)
        if (s->uncounted[i] == id)
            return true;
    return false;
}

void pg_uncounted_add(struct pg_store *s, int64_t id)
{
    if (pg_uncounted(s, id))
        return;
    if (s->n_uncounted == s->cap_uncounted) {
        s->cap_uncounted = s->cap_uncounted ? 2 * s->cap_uncounted : 256;
        s->uncounted = xrealloc(s->uncounted,
                                s->cap_uncounted * sizeof *s->uncounted);
    }
    s->uncounted[s->n_uncounted++] = id;
}

enum status pg_batch_end(struct store *base, bool commit, struct err *e)
{
    struct pg_store *s = pg_of(base);
    struct err e2;
    if (!s->batch)
        return ST_OK;
    s->batch = false;
    size_t n = s->n_uncounted;
    s->n_uncounted = 0;
    if (!commit || s->batch_lost) {
        if (PQstatus(s->conn) == CONNECTION_OK &&
            PQtransactionStatus(s->conn) != PQTRANS_IDLE)
            run(s, "ROLLBACK", "rollback", &e2);
        if (commit)
            return err_set(e, ST_DB, "the batch was rolled back: a failed "
                           "game could not be undone alone (or the "
                           "connection was lost), so the games before it "
                           "in the batch were not kept");
        return ST_OK;
    }
    enum status st = pg_commit_counted(s, s->uncounted, n, e);
    if (st == ST_OK) {
        struct err e3; /* the batch is stored: see pg_rating.c */
        (void)pg_rating_refresh(s, &e3);
    }
    return st;
}

/* ---- opening and migrating ---------------------------------------------- */

/* The server's notices ("already exists, skipping" when two daemons
 * migrate at once) are not errors, and the store writes no log: libpq
 * would print them on stderr. */
static void no_notices(void *arg, const char *msg)
{
    (void)arg;
    (void)msg;
}

/* The URI as errors may show it: without a password (user:PASSWORD@,
 * or a password=... parameter). */
static void label_of(const char *uri, char *out, size_t n)
{
    const char *scheme = strstr(uri, "://");
    const char *rest = scheme ? scheme + 3 : uri;
    const char *at = strchr(rest, '@'), *slash = strchr(rest, '/');
    const char *colon = strchr(rest, ':');
    if (at && (!slash || at < slash) && colon && colon < at)
        snprintf(out, n, "%.*s:***%s", (int)(colon - uri), uri, at);
    else
        snprintf(out, n, "%s", uri);
    char was[256];
    snprintf(was, sizeof was, "%s", out);
    const char *pw = strstr(was, "password=");
    if (pw) {
        const char *end = pw + strcspn(pw, "&");
        snprintf(out, n, "%.*spassword=***%s", (int)(pw - was), was, end);
    }
}

static enum status schema_version(struct pg_store *s, int *out, struct err *e)
{
    PGresult *r = NULL;
    *out = 0;
    enum status st = pg_query(s,
                              "SELECT to_regclass('schema_version') IS NULL",
                              false, NULL, false, &r, "read schema_version",
                              e);
    bool none = st == ST_OK && strcmp(PQgetvalue(r, 0, 0), "t") == 0;
    PQclear(r);
    if (st != ST_OK || none) /* a new database: version 0 */
        return st;
    st = pg_query(s, "SELECT coalesce(max(version), 0) FROM schema_version",
                  false, NULL, false, &r, "read schema_version", e);
    if (st == ST_OK && PQntuples(r) == 1)
        *out = (int)pg_int(r, 0, 0);
    PQclear(r);
    return st;
}

/* Applies migration v (0-based) unless another process did meanwhile:
 * the advisory lock makes daemons that start together take turns. */
static enum status migrate_one(struct pg_store *s, int v, struct err *e)
{
    char set[96];
    int now = 0;
    enum status st = run(s, "BEGIN", "begin", e);
    if (st == ST_OK)
        st = run(s, "SET LOCAL statement_timeout = 0; "
                    "SET LOCAL lock_timeout = '60s'; "
                    "SELECT pg_advisory_xact_lock(" PG_MIGRATE_LOCK "); "
                    "CREATE TABLE IF NOT EXISTS schema_version "
                    "(version integer NOT NULL)",
                 "lock for migrations", e);
    if (st == ST_OK)
        st = schema_version(s, &now, e);
    if (st == ST_OK && now <= v) {
        PGresult *r = PQexec(s->conn, pg_migrations[v].sql);
        if (PQresultStatus(r) != PGRES_COMMAND_OK &&
            PQresultStatus(r) != PGRES_TUPLES_OK) {
            char what[96];
            snprintf(what, sizeof what, "migration pg/%s",
                     pg_migrations[v].name);
            st = pg_fail(s, r, what, e);
        }
        PQclear(r);
        snprintf(set, sizeof set, "DELETE FROM schema_version; INSERT INTO "
                 "schema_version VALUES (%d)", v + 1);
        if (st == ST_OK)
            st = run(s, set, "set schema_version", e);
    }
    return pg_end(s, st, e);
}

static enum status migrate(struct pg_store *s, struct err *e)
{
    int v = 0;
    enum status st = schema_version(s, &v, e);
    if (st != ST_OK)
        return st;
    if (v > pg_n_migrations)
        return err_set(e, ST_DB, "%s: database schema version %d is newer "
                       "than this flierd's (%d)", s->label, v,
                       pg_n_migrations);
    if (v < pg_n_migrations && s->read_only)
        return err_set(e, ST_DB, "%s: database schema version %d, this "
                       "flierd needs %d: open it read-write once to "
                       "migrate", s->label, v, pg_n_migrations);
    for (; v < pg_n_migrations && st == ST_OK; v++)
        st = migrate_one(s, v, e);
    return st;
}

/* (Re)connects s->conn; false with s->conn NULL or not connected. */
static bool pg_connect(struct pg_store *s)
{
    const char *const keys[] = {
        "connect_timeout", "keepalives_idle", "keepalives_interval",
        "keepalives_count", "tcp_user_timeout", "application_name",
        "options", "dbname", NULL,
    };
    const char *const vals[] = {
        "5", "10", "5", "3", "15000", "flierd", s->options, s->uri, NULL,
    };
    PQfinish(s->conn);
    forget_statements(s);
    s->conn = PQconnectdbParams(keys, vals, 1);
    if (!s->conn || PQstatus(s->conn) != CONNECTION_OK)
        return false;
    PQsetNoticeProcessor(s->conn, no_notices, NULL);
    /* statements are sent without blocking, their answers awaited with
     * a deadline (await) */
    return PQsetnonblocking(s->conn, 1) == 0;
}

enum status pg_open(const char *uri, bool read_only, struct store **out,
                    struct err *e)
{
    struct pg_store *s = xcalloc(1, sizeof *s);
    char text[200];
    enum status st = ST_OK;

    *out = NULL;
    if (pg_load(e) != ST_OK) {
        free(s);
        return e->code;
    }
    s->base.be = &store_pg_backend;
    s->read_only = read_only;
    s->uri = xstrdup(uri);
    s->answer_ms = PG_ANSWER_MS;
    const char *wait = getenv("FLIERD_PG_ANSWER_MS");
    if (wait) {
        char *end;
        long ms = strtol(wait, &end, 10);
        if (*wait && !*end && ms >= 1000 && ms <= 600000)
            s->answer_ms = (int)ms;
    }
    /* ours first: whatever the URI says comes later and wins */
    snprintf(s->options, sizeof s->options, "%s%s", PG_OPTIONS,
             read_only ? " -c default_transaction_read_only=on" : "");
    label_of(uri, s->label, sizeof s->label);
    if (!pg_connect(s)) {
        trimmed(s->conn ? PQerrorMessage(s->conn) : "out of memory", text,
                sizeof text);
        st = err_set(e, ST_DB, "%s: %s", s->label, text);
        goto out;
    }
    st = migrate(s, e);
    if (st == ST_OK && !read_only) {
        struct err e2; /* places left noted (a migration, a stopped
                          daemon) are rated now, or by the next pass */
        (void)pg_rating_refresh(s, &e2);
    }
out:
    if (st != ST_OK)
        pg_close(&s->base);
    else
        *out = &s->base;
    return st;
}

void pg_close(struct store *base)
{
    struct pg_store *s = pg_of(base);
    if (!s)
        return;
    PQfinish(s->conn); /* NULL-safe */
    forget_statements(s);
    free(s->uncounted);
    free(s->uri);
    free(s);
}

/* ---- simple reads -------------------------------------------------------- */

/* Runs a one-row read of game id (sql has $1), binary when it holds
 * bytes; ST_NOT_FOUND when there is no such game. */
static enum status read_game(struct pg_store *s, const char *sql, int64_t id,
                             bool binary, PGresult **out, struct err *e)
{
    struct pg_params p;
    pp_reset(&p);
    pp_int(&p, id);
    *out = NULL;
    enum status st = pg_ready(s, e);
    if (st == ST_OK)
        st = pg_query(s, sql, true, &p, binary, out, "read game", e);
    if (st == ST_OK && PQntuples(*out) == 0) {
        PQclear(*out);
        *out = NULL;
        st = err_set(e, ST_NOT_FOUND, "no game %lld", (long long)id);
    }
    return st;
}

enum status pg_game_raw(struct store *base, int64_t id, struct buf *out,
                        const char **out_format, char *sha_out,
                        struct err *e)
{
    PGresult *r = NULL;
    *out_format = NULL;
    enum status st = read_game(pg_of(base),
                               "SELECT g.format, r.raw, g.sha256 FROM games g "
                               "JOIN game_raw r ON r.game_id = g.id "
                               "WHERE g.id = $1",
                               id, true, &r, e);
    if (st == ST_OK) {
        const char *fmt = PQgetvalue(r, 0, 0);
        *out_format = strncmp(fmt, "jcz", 3) == 0 && PQgetlength(r, 0, 0) == 3
                          ? "jcz"
                          : "flierlog";
        buf_append(out, PQgetvalue(r, 0, 1), (size_t)PQgetlength(r, 0, 1));
        if (sha_out) /* text: its binary form is its bytes */
            snprintf(sha_out, 65, "%.*s", PQgetlength(r, 0, 2),
                     PQgetvalue(r, 0, 2));
    }
    PQclear(r);
    return st;
}

enum status pg_game_sha(struct store *base, int64_t id, char out[65],
                        struct err *e)
{
    PGresult *r = NULL;
    enum status st = read_game(pg_of(base),
                               "SELECT sha256 FROM games WHERE id = $1", id,
                               false, &r, e);
    snprintf(out, 65, "%s", st == ST_OK ? PQgetvalue(r, 0, 0) : "");
    PQclear(r);
    return st;
}

enum status pg_game_is_live(struct store *base, int64_t id, bool *out_live,
                            struct err *e)
{
    PGresult *r = NULL;
    *out_live = false;
    enum status st = read_game(pg_of(base),
                               "SELECT live FROM games WHERE id = $1", id,
                               false, &r, e);
    if (st == ST_OK)
        *out_live = pg_int(r, 0, 0) == 1;
    PQclear(r);
    return st;
}

/* A column cast to text, read from a binary result (no NUL there). */
static int64_t text_int(const PGresult *r, int row, int col)
{
    char num[24];
    int len = PQgetlength(r, row, col);
    snprintf(num, sizeof num, "%.*s", len < 23 ? len : 23,
             PQgetvalue(r, row, col));
    return strtoll(num, NULL, 10);
}

/* One game at a time (id > last), no result kept during the callback:
 * fn may write to the store (a re-audit replaces the game). */
enum status pg_each_game(struct store *base, store_game_fn fn, void *ctx,
                         struct err *e)
{
    struct pg_store *s = pg_of(base);
    struct pg_params p;
    struct buf raw = BUF_INIT;
    char source[16];
    int64_t last = 0;
    enum status st = pg_ready(s, e);
    while (st == ST_OK) {
        PGresult *r = NULL;
        pp_reset(&p);
        pp_int(&p, last);
        st = pg_query(s,
                      "SELECT g.id::text, r.raw, g.source, "
                      "g.uploaded_at::text, coalesce(g.valid, -1)::text "
                      "FROM games g JOIN game_raw r ON r.game_id = g.id "
                      "WHERE g.id > $1 ORDER BY g.id LIMIT 1",
                      true, &p, true, &r, "read games", e);
        if (st != ST_OK || PQntuples(r) == 0) {
            PQclear(r);
            break;
        }
        last = text_int(r, 0, 0);
        raw.len = 0;
        buf_append(&raw, PQgetvalue(r, 0, 1), (size_t)PQgetlength(r, 0, 1));
        snprintf(source, sizeof source, "%.*s", PQgetlength(r, 0, 2),
                 PQgetvalue(r, 0, 2));
        int64_t at = text_int(r, 0, 3);
        int verdict = (int)text_int(r, 0, 4);
        PQclear(r);
        if (fn(ctx, last, raw.p ? raw.p : "", raw.len, source, at,
               verdict) != 0)
            break;
    }
    buf_release(&raw);
    return st;
}

/* A server's database is copied with the server's tools, which know its
 * files, its WAL and its roles; `flierd export` writes the games out on
 * either backend. */
static enum status pg_backup(struct store *base, const char *out,
                             bool overwrite, struct err *e)
{
    (void)overwrite;
    return err_set(e, ST_DB, "%s: flierd backup copies SQLite databases "
                   "only: back up a PostgreSQL database with pg_dump (or "
                   "write its games out with flierd export %s)",
                   pg_of(base)->label, out);
}

const struct store_backend store_pg_backend = {
    .name = "postgresql",
    .open = pg_open,
    .close = pg_close,
    .insert_game = pg_insert_game,
    .batch_begin = pg_batch_begin,
    .batch_end = pg_batch_end,
    .batch_lost = pg_batch_lost,
    .replace_game = pg_replace_game,
    .delete_game = pg_delete,
    .rename_game = pg_rename,
    .ratings_rebuild = pg_ratings_rebuild,
    .list_games = pg_list_games,
    .game_json = pg_game_json,
    .game_raw = pg_game_raw,
    .game_sha = pg_game_sha,
    .game_is_live = pg_game_is_live,
    .players_json = pg_players_json,
    .player_json = pg_player_json,
    .stats_json = pg_stats_json,
    .counts = pg_counts,
    .each_game = pg_each_game,
    .each_upload = pg_each_upload,
    .backup = pg_backup,
    .check = pg_check,
};
