/* test_db.h - which database the store's tests run on. Unset
 * FLIERD_TEST_DB: SQLite, files in the test's own folder (each test
 * names its own). FLIERD_TEST_DB=postgresql://...: that server (the
 * tests' throwaway cluster, tests/pg/cluster.sh), a new empty database
 * for each fixture, so that the same tests run on both backends. */
#ifndef TEST_DB_H
#define TEST_DB_H
#include <stdbool.h>
#include <stddef.h>

/* Do the tests run on PostgreSQL? */
bool test_db_pg(void);
/* On PostgreSQL: creates a new, empty database and writes its URI into
 * out (n bytes); false (and a message on stderr) when it cannot. On
 * SQLite: false, out untouched. */
bool test_db_fresh(char *out, size_t n);
/* Drops a database test_db_fresh() made (no-op for anything else);
 * whoever was still connected is disconnected. */
void test_db_drop(const char *db);
/* The --db string of a database that does not exist (open fails). */
void test_db_missing(const char *dir, char *out, size_t n);

#endif
