/* test_backup.c - data out of a live daemon: `flierd backup` while four
 * clients upload over loopback (each copy passes `flierd check`, and its
 * game count lies between the uploads answered before it began and those
 * begun before it ended), its refusals, and `flierd export` while the
 * daemon serves, then `flierd ingest` of the export into a new database:
 * the same games (SHA-256), formats and verdicts, unsupported ones
 * included; every exported file is the upload byte for byte under a safe
 * name. */
#include <stdarg.h> /* cmocka 1.1.5 needs these four first */
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "daemon.h"
#include "flierd_run.h"
#include "http_client.h"
#include "test_files.h"
#include "util/sha256.h"

#define N_BASE 40    /* simulated games; variants make more uploads */
#define N_CLIENTS 4
#define N_BACKUPS 3

/* A .jcz of The Catapult, which this engine does not audit yet. */
static const char MAGE_JCZ[] =
    "{\"appVersion\":\"5.12.1\",\"setup\":{\"sets\":{\"basic:1\":1,"
    "\"catapult:1\":1,\"flier:1\":1},\"elements\":{\"small-follower\":7,"
    "\"farmers\":true,\"catapult\":true},\"rules\":{},\"start\":[{\"tile\":"
    "\"BA/RCr\",\"x\":0,\"y\":0,\"rotation\":0}]},\"players\":[{\"name\":"
    "\"Tess\",\"slot\":0},{\"name\":\"Ward\",\"slot\":1}],\"replay\":[]}";

static struct {
    char dir[64], db[128];
    struct daemon d;
    struct buf *base;
    atomic_int next;    /* the next upload to make */
    atomic_int started; /* uploads sent (or being sent) */
    atomic_int stored;  /* answered 201 */
    atomic_int failed;  /* answered anything else */
    atomic_bool stop;
    pthread_mutex_t lock; /* with grew: stored went up */
    pthread_cond_t grew;
} T;

static int setup(void **state)
{
    char sim[128];
    (void)state;
    snprintf(T.dir, sizeof T.dir, "/tmp/flierd-backup-XXXXXX");
    if (!mkdtemp(T.dir))
        return -1;
    snprintf(T.db, sizeof T.db, "%s/games.db", T.dir);
    snprintf(sim, sizeof sim, "%s/sim", T.dir);
    if (games_simulate(sim, N_BASE, 77, &T.base) != N_BASE)
        return -1;
    pthread_mutex_init(&T.lock, NULL);
    pthread_cond_init(&T.grew, NULL);
    const char *extra[] = { "--rate-limit", "0", "--write-rate-limit", "0",
                            "--quiet", NULL };
    return daemon_start(&T.d, T.db, extra) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    int rc = T.d.pid > 0 ? daemon_stop(&T.d) : 0;
    games_free(T.base, N_BASE);
    pthread_mutex_destroy(&T.lock);
    pthread_cond_destroy(&T.grew);
    tf_rm_tree(T.dir);
    return rc == 0 ? 0 : -1;
}

/* Upload i: a simulated game with i / N_BASE + 1 newlines added (other
 * bytes, so another upload of the same game). */
static void *uploader(void *arg)
{
    (void)arg;
    while (!atomic_load(&T.stop)) {
        int i = atomic_fetch_add(&T.next, 1);
        struct buf b = BUF_INIT;
        struct http_resp r;
        buf_append(&b, T.base[i % N_BASE].p, T.base[i % N_BASE].len);
        for (int k = 0; k <= i / N_BASE; k++)
            buf_append(&b, "\n", 1);
        atomic_fetch_add(&T.started, 1);
        int st = http_do(T.d.port, "POST", "/api/games", NULL, b.p, b.len,
                         false, &r);
        if (st == 201) {
            atomic_fetch_add(&T.stored, 1);
            pthread_mutex_lock(&T.lock);
            pthread_cond_broadcast(&T.grew);
            pthread_mutex_unlock(&T.lock);
        } else {
            fprintf(stderr, "upload %d: %d %s\n", i, st,
                    r.body.p ? r.body.p : "");
            atomic_fetch_add(&T.failed, 1);
        }
        http_resp_release(&r);
        buf_release(&b);
    }
    return NULL;
}

/* Waits until at least n uploads were answered 201. */
static void wait_stored(int n)
{
    pthread_mutex_lock(&T.lock);
    while (atomic_load(&T.stored) < n && atomic_load(&T.failed) == 0)
        pthread_cond_wait(&T.grew, &T.lock);
    pthread_mutex_unlock(&T.lock);
    assert_int_equal(atomic_load(&T.failed), 0);
}

/* `flierd check --db path` passes; returns the games it counted. */
static long checked_games(const char *path)
{
    struct buf out = BUF_INIT;
    const char *args[] = { "check", "--db", path, NULL };
    int rc = flierd_run(args, &out);
    if (rc != 0)
        fprintf(stderr, "flierd check --db %s: %d\n%s", path, rc, out.p);
    assert_int_equal(rc, 0);
    const char *p = strstr(out.p, ": ");
    assert_non_null(p);
    long n = strtol(p + 2, NULL, 10);
    assert_non_null(strstr(p, " games, "));
    buf_release(&out);
    return n;
}

static int backup(const char *out, bool force, struct buf *log)
{
    const char *args[] = { "backup", "--db", T.db, out,
                           force ? "--force" : NULL, NULL };
    return flierd_run(args, log);
}

static void test_backup_while_uploading(void **state)
{
    pthread_t th[N_CLIENTS];
    char out[N_BACKUPS][160];
    (void)state;
    for (int i = 0; i < N_CLIENTS; i++)
        assert_int_equal(pthread_create(&th[i], NULL, uploader, NULL), 0);
    for (int b = 0; b < N_BACKUPS; b++) {
        wait_stored(10 + 25 * b);
        int before = atomic_load(&T.stored);
        snprintf(out[b], sizeof out[b], "%s/backup-%d.db", T.dir, b);
        struct buf log = BUF_INIT;
        assert_int_equal(backup(out[b], false, &log), 0);
        int begun = atomic_load(&T.started);
        assert_non_null(strstr(log.p, "quick_check ok"));
        buf_release(&log);
        long n = checked_games(out[b]);
        fprintf(stderr, "backup %d: %ld games (%d answered before it, %d "
                "begun before its end)\n", b, n, before, begun);
        assert_true(n >= before);
        assert_true(n <= begun);
    }
    atomic_store(&T.stop, true);
    for (int i = 0; i < N_CLIENTS; i++)
        pthread_join(th[i], NULL);
    assert_int_equal(atomic_load(&T.failed), 0);
    /* the uploads went on during every backup */
    assert_true(atomic_load(&T.stored) > 10 + 25 * (N_BACKUPS - 1));

    /* once quiet, a backup holds every game; --force replaces a copy */
    struct buf log = BUF_INIT;
    assert_int_equal(backup(out[0], true, &log), 0);
    buf_release(&log);
    assert_int_equal(checked_games(out[0]), atomic_load(&T.stored));
    /* the copy is one file, readable by its owner only */
    struct stat sb;
    char p[200];
    assert_int_equal(stat(out[0], &sb), 0);
    assert_int_equal(sb.st_mode & 0777, 0600);
    snprintf(p, sizeof p, "%s-wal", out[0]);
    assert_int_not_equal(stat(p, &sb), 0);
}

static void file_sha(const char *path, char hex[SHA256_HEX_LEN])
{
    struct buf b = BUF_INIT;
    tf_read(path, &b);
    sha256_hex(b.p ? b.p : "", b.len, hex);
    buf_release(&b);
}

static void test_backup_refusals(void **state)
{
    struct buf log = BUF_INIT;
    char out[160], before[SHA256_HEX_LEN], after[SHA256_HEX_LEN];
    (void)state;
    /* an existing OUT is left alone without --force */
    snprintf(out, sizeof out, "%s/backup-1.db", T.dir);
    file_sha(out, before);
    assert_int_equal(backup(out, false, &log), 2);
    assert_non_null(strstr(log.p, out));
    assert_non_null(strstr(log.p, "already exists"));
    assert_non_null(strstr(log.p, "--force"));
    file_sha(out, after);
    assert_string_equal(before, after);
    log.len = 0;
    /* a folder that is not there: named, with the reason */
    snprintf(out, sizeof out, "%s/no-such-folder/b.db", T.dir);
    assert_int_equal(backup(out, false, &log), 2);
    assert_non_null(strstr(log.p, out));
    assert_non_null(strstr(log.p, "No such file or directory"));
    log.len = 0;
    /* a database that is not there */
    const char *args[] = { "backup", "--db", "/nonexistent/games.db", out,
                           NULL };
    assert_int_equal(flierd_run(args, &log), 2);
    assert_non_null(strstr(log.p, "/nonexistent/games.db"));
    buf_release(&log);
}

/* ---- export ---- */

/* Uploads body under the name (URL-encoded; NULL: none). */
static void upload(const char *name, const char *body, size_t len,
                   int want)
{
    char path[256];
    struct http_resp r;
    snprintf(path, sizeof path, "/api/games%s%s", name ? "?name=" : "",
             name ? name : "");
    int st = http_do(T.d.port, "POST", path, NULL, body, len, false, &r);
    if (st != want)
        fprintf(stderr, "POST %s: %d %s\n", path, st, r.body.p);
    assert_int_equal(st, want);
    http_resp_release(&r);
}

static void upload_sample(const char *name, const char *sample)
{
    struct buf b = BUF_INIT;
    char p[256];
    snprintf(p, sizeof p, "%s/%s", FLIERD_SAMPLES_DIR, sample);
    tf_read(p, &b);
    upload(name, b.p, b.len, 201);
    buf_release(&b);
}

/* An export's index: every line's file checked against its SHA-256;
 * returns the lines as a JSON array (sorted by sha256 is not needed:
 * lookups go by sha256). */
static cJSON *read_export(const char *dir)
{
    struct buf idx = BUF_INIT;
    char p[320], hex[SHA256_HEX_LEN];
    cJSON *all = cJSON_CreateArray();
    snprintf(p, sizeof p, "%s/index.ndjson", dir);
    tf_read(p, &idx);
    for (char *line = idx.p, *nl; line && *line; line = nl + 1) {
        nl = strchr(line, '\n');
        assert_non_null(nl);
        *nl = '\0';
        cJSON *j = cJSON_Parse(line);
        assert_non_null(j);
        const char *file = cJSON_GetObjectItem(j, "file")->valuestring;
        assert_null(strchr(file, '/'));
        assert_true(file[0] != '.');
        snprintf(p, sizeof p, "%s/%s", dir, file);
        file_sha(p, hex);
        assert_string_equal(hex,
                            cJSON_GetObjectItem(j, "sha256")->valuestring);
        cJSON_AddItemToArray(all, j);
    }
    buf_release(&idx);
    return all;
}

static const cJSON *by(const cJSON *all, const char *key, const char *v)
{
    const cJSON *j;
    cJSON_ArrayForEach(j, all) {
        const cJSON *k = cJSON_GetObjectItem(j, key);
        if (cJSON_IsString(k) && strcmp(k->valuestring, v) == 0)
            return j;
    }
    return NULL;
}

static const char *field(const cJSON *j, const char *key)
{
    const cJSON *k = cJSON_GetObjectItem(j, key);
    return cJSON_IsString(k) ? k->valuestring : "null";
}

static void expect_file(const cJSON *all, const char *name, const char *file)
{
    const cJSON *j = by(all, "name", name);
    if (!j)
        fprintf(stderr, "no game named %s in the export\n", name);
    assert_non_null(j);
    if (strcmp(field(j, "file"), file) != 0)
        fprintf(stderr, "%s: file %s, want %s\n", name, field(j, "file"),
                file);
    assert_string_equal(field(j, "file"), file);
}

static int run_ok(const char *const *args)
{
    struct buf log = BUF_INIT;
    int rc = flierd_run(args, &log);
    if (rc != 0)
        fprintf(stderr, "flierd %s: %d\n%s", args[0], rc, log.p);
    buf_release(&log);
    return rc;
}

static void test_export_and_ingest(void **state)
{
    char out[160], out2[160], db2[160], id_name[64];
    (void)state;
    upload("mage.jcz", MAGE_JCZ, strlen(MAGE_JCZ), 202);
    upload_sample("c2-2p.jcz", "c2-2p.jcz");
    upload_sample("c2-2p.jcz", "c2-5p.jcz");       /* the same name */
    upload_sample("%2e%2e%2f%2e%2e%2fevil.jcz", "forged/forged-wrong-target.jcz");
    upload_sample("upload", "tiny-city.jcz");       /* no extension */
    upload_sample("Spiel%20f%C3%BCr%20Ada.jcz", "river-c2-4p.jcz");
    upload_sample(NULL, "c2-2p.flierlog");          /* no name */

    snprintf(out, sizeof out, "%s/export", T.dir);
    const char *exp[] = { "export", "--db", T.db, out, NULL };
    assert_int_equal(run_ok(exp), 0); /* the daemon still serving */
    cJSON *a = read_export(out);
    int n = cJSON_GetArraySize(a);
    assert_int_equal(n, atomic_load(&T.stored) + 7);

    expect_file(a, "mage.jcz", "mage.jcz");
    assert_string_equal(field(by(a, "name", "mage.jcz"), "status"),
                        "unsupported");
    assert_string_equal(field(by(a, "name", "mage.jcz"), "verdict"),
                        "null");
    expect_file(a, "c2-2p.jcz", "c2-2p.jcz"); /* the first of the two */
    const cJSON *second = NULL, *j;
    cJSON_ArrayForEach(j, a) {
        if (strcmp(field(j, "name"), "c2-2p.jcz") == 0 &&
            strcmp(field(j, "file"), "c2-2p.jcz") != 0)
            second = j;
    }
    assert_non_null(second);
    snprintf(id_name, sizeof id_name, "%d-c2-2p.jcz",
             cJSON_GetObjectItem(second, "id")->valueint);
    assert_string_equal(field(second, "file"), id_name);
    expect_file(a, "../../evil.jcz", "evil.jcz");
    assert_string_equal(field(by(a, "file", "evil.jcz"), "verdict"),
                        "invalid");
    expect_file(a, "upload", "upload.jcz");
    expect_file(a, "Spiel f\xc3\xbcr Ada.jcz", "Spiel f\xc3\xbcr Ada.jcz");
    const cJSON *unnamed = by(a, "format", "flierlog");
    assert_non_null(unnamed);
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(unnamed, "name")));
    snprintf(id_name, sizeof id_name, "%d.flierlog",
             cJSON_GetObjectItem(unnamed, "id")->valueint);
    assert_string_equal(field(unnamed, "file"), id_name);

    /* into a new database, and out again: the same games and verdicts */
    snprintf(db2, sizeof db2, "%s/restored.db", T.dir);
    const char *ing[] = { "ingest", "--db", db2, out, NULL };
    assert_int_equal(run_ok(ing), 0);
    snprintf(out2, sizeof out2, "%s/export2", T.dir);
    const char *exp2[] = { "export", "--db", db2, out2, NULL };
    assert_int_equal(run_ok(exp2), 0);
    cJSON *b = read_export(out2);
    assert_int_equal(cJSON_GetArraySize(b), n);
    cJSON_ArrayForEach(j, a) {
        const cJSON *k = by(b, "sha256", field(j, "sha256"));
        assert_non_null(k);
        assert_string_equal(field(k, "format"), field(j, "format"));
        assert_string_equal(field(k, "status"), field(j, "status"));
        assert_string_equal(field(k, "verdict"), field(j, "verdict"));
    }
    assert_int_equal(checked_games(db2), n);
    cJSON_Delete(a);
    cJSON_Delete(b);
}

static void test_export_refusals(void **state)
{
    struct buf log = BUF_INIT;
    char out[160], p[200], db3[160];
    (void)state;
    /* a folder with anything in it */
    snprintf(out, sizeof out, "%s/export", T.dir);
    const char *again[] = { "export", "--db", T.db, out, NULL };
    assert_int_equal(flierd_run(again, &log), 2);
    assert_non_null(strstr(log.p, out));
    assert_non_null(strstr(log.p, "not empty"));
    log.len = 0;
    /* ingest skips the index, even when it is named */
    snprintf(db3, sizeof db3, "%s/third.db", T.dir);
    snprintf(p, sizeof p, "%s/index.ndjson", out);
    char mage[200];
    snprintf(mage, sizeof mage, "%s/mage.jcz", out);
    const char *ing[] = { "ingest", "--db", db3, p, mage, NULL };
    assert_int_equal(flierd_run(ing, &log), 0);
    assert_non_null(strstr(log.p, "ingested 1 (0 valid, 0 invalid, 1 "
                                  "unsupported)"));
    buf_release(&log);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_backup_while_uploading),
        cmocka_unit_test(test_backup_refusals),
        cmocka_unit_test(test_export_and_ingest),
        cmocka_unit_test(test_export_refusals),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
