/* test_db.c - fresh databases on the tests' PostgreSQL cluster (see
 * test_db.h). The server's URI names its maintenance database; each
 * fresh one is the same URI with another database name. */
#include "test_db.h"

#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *base_uri(void)
{
    const char *u = getenv("FLIERD_TEST_DB");
    return u && u[0] ? u : NULL;
}

bool test_db_pg(void)
{
    return base_uri() != NULL;
}

/* uri with its database name (the path after the host) replaced. */
static bool with_db(const char *uri, const char *db, char *out, size_t n)
{
    const char *scheme = strstr(uri, "://");
    const char *path = scheme ? strchr(scheme + 3, '/') : NULL;
    if (!path)
        return false;
    const char *query = strchr(path, '?');
    int w = snprintf(out, n, "%.*s/%s%s", (int)(path - uri), uri, db,
                     query ? query : "");
    return w > 0 && (size_t)w < n;
}

static void quiet(void *arg, const char *msg)
{
    (void)arg;
    (void)msg;
}

static bool admin(const char *sql)
{
    PGconn *c = PQconnectdb(base_uri());
    bool ok = PQstatus(c) == CONNECTION_OK;
    if (ok) {
        PQsetNoticeProcessor(c, quiet, NULL); /* "does not exist, skipping" */
        PGresult *r = PQexec(c, sql);
        ok = PQresultStatus(r) == PGRES_COMMAND_OK;
        if (!ok)
            fprintf(stderr, "test_db: %s: %s", sql, PQerrorMessage(c));
        PQclear(r);
    } else {
        fprintf(stderr, "test_db: %s: %s", base_uri(), PQerrorMessage(c));
    }
    PQfinish(c);
    return ok;
}

bool test_db_fresh(char *out, size_t n)
{
    static unsigned counter;
    char name[64], sql[160];
    if (!base_uri())
        return false;
    snprintf(name, sizeof name, "flierd_t%ld_%u", (long)getpid(), ++counter);
    snprintf(sql, sizeof sql, "DROP DATABASE IF EXISTS %s WITH (FORCE)",
             name);
    if (!admin(sql))
        return false;
    snprintf(sql, sizeof sql, "CREATE DATABASE %s", name);
    if (!admin(sql))
        return false;
    if (!with_db(base_uri(), name, out, n)) {
        fprintf(stderr, "test_db: FLIERD_TEST_DB=%s: no database name to "
                "replace (postgresql://HOST/DB or postgresql:///DB?host=)\n",
                base_uri());
        return false;
    }
    return true;
}

void test_db_drop(const char *db)
{
    const char *p = strstr(db, "/flierd_t");
    char name[64], sql[160];
    if (!base_uri() || !p)
        return;
    snprintf(name, sizeof name, "%.*s", (int)strcspn(p + 1, "?/"), p + 1);
    snprintf(sql, sizeof sql, "DROP DATABASE IF EXISTS %s WITH (FORCE)",
             name);
    admin(sql);
}

void test_db_missing(const char *dir, char *out, size_t n)
{
    if (!base_uri() || !with_db(base_uri(), "flierd_no_such_db", out, n))
        snprintf(out, n, "%s/none.db", dir);
}
