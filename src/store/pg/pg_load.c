/* pg_load.c - libpq, loaded when a PostgreSQL database is first opened
 * (pg_int.h says why). */
#define PG_LOADER
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#include "store/pg/pg_int.h"

struct pg_libpq pg_libpq;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static bool loaded;
static char why[256];

static void load(void)
{
    void *h = dlopen(FLIERD_PQ_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        snprintf(why, sizeof why, "%s", dlerror());
        return;
    }
    /* The lookups fill the table by name; a library without one of them
     * is not the libpq this was built for. */
#define PG_LIBPQ_LOAD(f)                                                       \
    if (!(*(void **)&pg_libpq.f = dlsym(h, #f))) {                             \
        snprintf(why, sizeof why, "%s has no %s", FLIERD_PQ_SONAME, #f);     \
        return;                                                                \
    }
    PG_LIBPQ(PG_LIBPQ_LOAD)
#undef PG_LIBPQ_LOAD
    loaded = true;
}

enum status pg_load(struct err *e)
{
    pthread_once(&once, load);
    if (loaded)
        return ST_OK;
    return err_set(e, ST_DB, "cannot load libpq for a postgresql:// "
                   "database (%s; Debian: apt-get install libpq5)", why);
}
