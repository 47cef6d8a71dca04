/* test_http.c - the daemon end to end: starts `flierd serve` on a free
 * loopback port with a temporary database, talks HTTP to it with our own
 * client, and stops it with SIGTERM (exit status 0). The tests run in
 * order and share one daemon and database; each states what it adds.
 * The database is a SQLite file, or with FLIERD_TEST_DB a new database
 * on that PostgreSQL server (tests/pg/test_db.h): the same suite runs on
 * both backends (test_http, test_http_pg).
 * Games of other expansions: one of The Catapult (written below; not
 * audited yet) is stored as unsupported, one of Inns & Cathedrals is read
 * in place from the peer corpus (FLIERD_SHARED_DIR). */
#include <stdarg.h> /* cmocka 1.1.5 needs these four first */
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <arpa/inet.h>
#include <dirent.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon.h"
#include "flierd_run.h"
#include "http_client.h"
#include "test_db.h"
#include "test_files.h"
#include "mlog/mlog.h"
#include "util/sha256.h"

#define TOKEN "it-secret-token-42"

/* A .jcz of The Catapult, which this engine does not audit yet. */
static const char MAGE_JCZ[] =
    "{\"appVersion\":\"5.12.1\",\"setup\":{\"sets\":{\"basic:1\":1,"
    "\"catapult:1\":1,\"flier:1\":1},\"elements\":{\"small-follower\":7,"
    "\"farmers\":true,\"catapult\":true},\"rules\":{},\"start\":[{\"tile\":"
    "\"BA/RCr\",\"x\":0,\"y\":0,\"rotation\":0}]},\"players\":[{\"name\":"
    "\"Tess\",\"slot\":0},{\"name\":\"Ward\",\"slot\":1}],\"replay\":[]}";
#define MAGE_REASON                                                           \
    "unsupported: The Catapult (tile set 'catapult:1' in setup.sets) is not "        \
    "audited yet"

static struct {
    char dir[64];       /* the temporary folder */
    char db[256]; /* a SQLite file, or a PostgreSQL URI (FLIERD_TEST_DB) */
    char spool[128];
    char web[128];
    struct daemon d;
    struct buf valid;   /* samples/c2-2p.jcz */
    struct buf forged;  /* samples/forged/forged-wrong-target.jcz */
    long long valid_id, forged_id, mage_id;
} T;

/* ---- helpers ---- */

static bool exists(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0;
}

/* GET path, expect status, return the parsed body (caller deletes). */
static int post_text(const char *path, const char *text, cJSON **out);
static cJSON *get_json(const char *path, int status)
{
    struct http_resp r;
    http_do(T.d.port, "GET", path, NULL, NULL, 0, false, &r);
    if (r.status != status)
        fprintf(stderr, "GET %s: %d %s\n", path, r.status,
                r.body.p ? r.body.p : "");
    assert_int_equal(r.status, status);
    cJSON *j = cJSON_Parse(r.body.p);
    assert_non_null(j);
    http_resp_release(&r);
    return j;
}

static int post(const char *path, const char *hdrs, const struct buf *body,
                cJSON **out)
{
    struct http_resp r;
    int st = http_do(T.d.port, "POST", path, hdrs, body->p ? body->p : "",
                     body->len, false, &r);
    if (out) {
        *out = cJSON_Parse(r.body.p ? r.body.p : "");
        assert_non_null(*out);
    }
    http_resp_release(&r);
    return st;
}

static double num(const cJSON *j, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, key);
    assert_true(cJSON_IsNumber(v));
    return v->valuedouble;
}

static const char *str(const cJSON *j, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, key);
    assert_true(cJSON_IsString(v));
    return v->valuestring;
}

static bool flag(const cJSON *j, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, key);
    assert_true(cJSON_IsBool(v));
    return cJSON_IsTrue(v);
}

/* The "total" of GET /api/games?query. */
static int total_of(const char *query)
{
    char path[256];
    snprintf(path, sizeof path, "/api/games%s%s", query[0] ? "?" : "",
             query);
    cJSON *j = get_json(path, 200);
    int n = (int)num(j, "total");
    cJSON_Delete(j);
    return n;
}

/* ---- fixture ---- */

/* A new database for a daemon: a file named name in the suite's folder,
 * or a new database on the PostgreSQL server of FLIERD_TEST_DB. */
static bool fresh_db(char *out, size_t n, const char *name)
{
    if (test_db_fresh(out, n))
        return true;
    snprintf(out, n, "%s/%s", T.dir, name);
    return !test_db_pg();
}

static int setup(void **state)
{
    (void)state;
    snprintf(T.dir, sizeof T.dir, "/tmp/flierd-it-XXXXXX");
    if (!mkdtemp(T.dir))
        return -1;
    if (!fresh_db(T.db, sizeof T.db, "games.db"))
        return -1;
    snprintf(T.spool, sizeof T.spool, "%s/spool", T.dir);
    snprintf(T.web, sizeof T.web, "%s/web", T.dir);
    mkdir(T.spool, 0755);
    mkdir(T.web, 0755);
    tf_read(FLIERD_SAMPLES_DIR "/c2-2p.jcz", &T.valid);
    tf_read(FLIERD_SAMPLES_DIR "/forged/forged-wrong-target.jcz",
              &T.forged);
    /* This suite's client hammers from one address (32 uploads at once,
     * a live game move after move): no rate limits here;
     * test_http_hostile tests them. */
    const char *extra[] = { "--spool", T.spool, "--spool-interval", "50",
                            "--web", T.web, "--rate-limit", "0",
                            "--write-rate-limit", "0", NULL };
    return daemon_start(&T.d, T.db, extra) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    int rc = T.d.pid > 0 ? daemon_stop(&T.d) : 0;
    buf_release(&T.valid);
    buf_release(&T.forged);
    test_db_drop(T.db);
    tf_rm_tree(T.dir);
    return rc == 0 ? 0 : -1;
}

/* ---- uploads ---- */

static void test_health_and_headers(void **state)
{
    struct http_resp r;
    char v[256];
    (void)state;
    assert_int_equal(http_do(T.d.port, "GET", "/healthz", NULL, NULL, 0,
                             false, &r), 200);
    assert_non_null(strstr(r.body.p, "\"ok\""));
    assert_true(http_header(&r, "Content-Security-Policy", v, sizeof v));
    assert_non_null(strstr(v, "default-src 'self'"));
    assert_non_null(strstr(v, "frame-ancestors 'none'"));
    assert_true(http_header(&r, "X-Content-Type-Options", v, sizeof v));
    assert_string_equal(v, "nosniff");
    http_resp_release(&r);
    /* Errors carry them too. */
    assert_int_equal(http_do(T.d.port, "GET", "/api/nothing", NULL, NULL, 0,
                             false, &r), 404);
    assert_true(http_header(&r, "X-Content-Type-Options", v, sizeof v));
    assert_non_null(strstr(r.body.p, "\"error\""));
    http_resp_release(&r);
    assert_int_equal(http_do(T.d.port, "DELETE", "/api/games", NULL, NULL, 0,
                             false, &r), 405);
    assert_true(http_header(&r, "Allow", v, sizeof v));
    http_resp_release(&r);
}

static void test_upload_valid_and_duplicate(void **state)
{
    cJSON *j;
    (void)state;
    assert_int_equal(post("/api/games", NULL, &T.valid, &j), 201);
    T.valid_id = (long long)num(j, "id");
    assert_true(T.valid_id > 0);
    assert_true(flag(j, "valid"));
    char url[64];
    snprintf(url, sizeof url, "/api/games/%lld", T.valid_id);
    assert_string_equal(str(j, "url"), url);
    cJSON_Delete(j);

    assert_int_equal(post("/api/games", NULL, &T.valid, &j), 200);
    assert_int_equal((long long)num(j, "id"), T.valid_id);
    assert_true(flag(j, "duplicate"));
    cJSON_Delete(j);
}

/* What curl -F file=@game.jcz sends: the log is the form's file part,
 * named by its file name; a form without one says what to send. */
static void test_upload_multipart(void **state)
{
    cJSON *j;
    struct buf body = BUF_INIT;
    (void)state;
    buf_puts(&body, "--XyZ\r\nContent-Disposition: form-data; "
             "name=\"note\"\r\n\r\nhello\r\n--XyZ\r\n"
             "Content-Disposition: form-data; name=\"file\"; "
             "filename=\"game.jcz\"\r\nContent-Type: "
             "application/octet-stream\r\n\r\n");
    buf_append(&body, T.valid.p, T.valid.len);
    buf_puts(&body, "\r\n--XyZ--\r\n");
    /* the same bytes as the plain upload: found as its duplicate */
    assert_int_equal(post("/api/games",
                          "Content-Type: multipart/form-data; "
                          "boundary=XyZ\r\n", &body, &j), 200);
    assert_true(flag(j, "duplicate"));
    assert_int_equal((long long)num(j, "id"), T.valid_id);
    cJSON_Delete(j);
    /* a form with no part at all is refused with the way out */
    body.len = 0;
    buf_puts(&body, "--XyZ--\r\n");
    assert_int_equal(post("/api/games",
                          "Content-Type: multipart/form-data; "
                          "boundary=XyZ\r\n", &body, &j), 400);
    assert_non_null(strstr(str(j, "error"), "curl -F file=@game.jcz"));
    cJSON_Delete(j);
    buf_release(&body);
}

static void test_upload_invalid(void **state)
{
    cJSON *j;
    (void)state;
    assert_int_equal(post("/api/games?name=forged.jcz", NULL, &T.forged, &j),
                     201);
    T.forged_id = (long long)num(j, "id");
    assert_false(flag(j, "valid"));
    cJSON_Delete(j);
}

static void test_upload_malformed(void **state)
{
    cJSON *j;
    struct buf b = BUF_INIT;
    (void)state;
    /* Cut short: the message says so, and where it ends. */
    buf_append(&b, T.valid.p, 200);
    assert_int_equal(post("/api/games", NULL, &b, &j), 400);
    assert_non_null(strstr(str(j, "error"), "the file ends early at byte "
                                            "200"));
    cJSON_Delete(j);
    /* Well-formed JSON, wrong shape: the message names the JSON path. */
    const char *at = strstr(T.valid.p, "\"position\":[0,1]");
    assert_non_null(at);
    b.len = 0;
    buf_append(&b, T.valid.p, (size_t)(at - T.valid.p));
    buf_puts(&b, "\"position\":\"here\"");
    buf_puts(&b, at + strlen("\"position\":[0,1]"));
    assert_int_equal(post("/api/games", NULL, &b, &j), 400);
    assert_non_null(strstr(str(j, "error"), "replay[0].payload.position"));
    cJSON_Delete(j);
    /* Empty body. */
    b.len = 0;
    assert_int_equal(post("/api/games", NULL, &b, &j), 400);
    cJSON_Delete(j);
    buf_release(&b);
}

/* Stored, not audited: 202 with the reason, and the same bytes again a
 * duplicate. A game element of no expansion flierd knows says so. */
static void test_upload_unsupported(void **state)
{
    cJSON *j;
    struct buf b = BUF_INIT;
    struct http_resp r;
    char v[64];
    (void)state;
    buf_puts(&b, MAGE_JCZ);
    assert_int_equal(http_do(T.d.port, "POST", "/api/games?name=mage.jcz",
                             NULL, b.p, b.len, false, &r), 202);
    assert_true(http_header(&r, "Location", v, sizeof v));
    j = cJSON_Parse(r.body.p);
    assert_non_null(j);
    T.mage_id = (long long)num(j, "id");
    assert_true(T.mage_id > T.forged_id);
    assert_string_equal(str(j, "status"), "unsupported");
    assert_string_equal(str(j, "reason"), MAGE_REASON);
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(j, "valid")));
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(j, "finished")));
    assert_false(flag(j, "duplicate"));
    char url[64];
    snprintf(url, sizeof url, "/api/games/%lld", T.mage_id);
    assert_string_equal(str(j, "url"), url);
    assert_string_equal(v, url);
    cJSON_Delete(j);
    http_resp_release(&r);

    assert_int_equal(post("/api/games", NULL, &b, &j), 200);
    assert_int_equal((long long)num(j, "id"), T.mage_id);
    assert_true(flag(j, "duplicate"));
    assert_string_equal(str(j, "status"), "unsupported");
    cJSON_Delete(j);

    j = get_json(url, 200);
    assert_string_equal(str(j, "status"), "unsupported");
    assert_string_equal(str(j, "reason"), MAGE_REASON);
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(j, "audit")));
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(j, "valid")));
    cJSON_Delete(j);
    /* its bytes are there; a replay is not */
    snprintf(url, sizeof url, "/api/games/%lld/raw", T.mage_id);
    assert_int_equal(http_do(T.d.port, "GET", url, NULL, NULL, 0, false, &r),
                     200);
    assert_int_equal(r.body.len, b.len);
    http_resp_release(&r);
    snprintf(url, sizeof url, "/api/games/%lld/replay", T.mage_id);
    j = get_json(url, 409);
    assert_non_null(strstr(str(j, "error"), "The Catapult"));
    cJSON_Delete(j);
    buf_release(&b);
}

static void test_upload_oversized(void **state)
{
    struct http_resp r;
    size_t n = (1u << 20) + 1;
    char *big = malloc(n);
    (void)state;
    memset(big, ' ', n);
    big[0] = '{';
    /* Announced by Content-Length: refused before the body is sent. */
    assert_int_equal(http_do(T.d.port, "POST", "/api/games", NULL, big, n,
                             false, &r), 413);
    assert_non_null(strstr(r.body.p, "\"error\""));
    http_resp_release(&r);
    /* Chunked, no length: refused once the running total passes the cap. */
    assert_int_equal(http_do(T.d.port, "POST", "/api/games", NULL, big, n,
                             true, &r), 413);
    http_resp_release(&r);
    /* Exactly at the cap is read (and then refused as malformed). */
    assert_int_equal(http_do(T.d.port, "POST", "/api/games", NULL, big,
                             n - 1, true, &r), 400);
    http_resp_release(&r);
    free(big);
}

/* ---- reads ---- */

static void test_list_filters(void **state)
{
    (void)state;
    /* The valid game, the forgery and the The Catapult game are stored (plus
     * nothing else); the The Catapult game is neither valid nor invalid. */
    assert_int_equal(total_of(""), 3);
    assert_int_equal(total_of("verdict=valid"), 1);
    assert_int_equal(total_of("verdict=invalid"), 1);
    assert_int_equal(total_of("status=audited"), 2);
    assert_int_equal(total_of("status=unsupported"), 1);
    assert_int_equal(total_of("status=unsupported&verdict=invalid"), 0);
    assert_int_equal(total_of("rule=FLIER_WRONG_TARGET"), 1);
    assert_int_equal(total_of("rule=TILE_OCCUPIED"), 0);
    assert_int_equal(total_of("player=Ada"), 2);
    assert_int_equal(total_of("player=Nobody"), 0);
    assert_int_equal(total_of("finished=true"), 2);
    assert_int_equal(total_of("finished=false"), 0);
    assert_int_equal(total_of("edition=C2"), 2);
    assert_int_equal(total_of("edition=C3"), 0);
    assert_int_equal(total_of("expansion=flier"), 2);
    assert_int_equal(total_of("expansion=river"), 0);
    assert_int_equal(total_of("from=2000-01-01&to=2999-12-31"), 3);
    assert_int_equal(total_of("to=2000-01-01"), 0);
    assert_int_equal(total_of("from=4102444800"), 0); /* 2100-01-01 */
    assert_int_equal(total_of("q=forged"), 1);
    assert_int_equal(total_of("q=mage"), 1);
    assert_int_equal(total_of("verdict=valid&player=Ada&edition=C2"), 1);

    /* The The Catapult game in the list: its status and reason. */
    cJSON *u = get_json("/api/games?status=unsupported", 200);
    cJSON *g = cJSON_GetArrayItem(cJSON_GetObjectItem(u, "games"), 0);
    assert_int_equal((long long)num(g, "id"), T.mage_id);
    assert_string_equal(str(g, "status"), "unsupported");
    assert_string_equal(str(g, "reason"), MAGE_REASON);
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(g, "valid")));
    cJSON_Delete(u);

    /* Paging: the total is the full count, the page is limit long. */
    cJSON *j = get_json("/api/games?limit=1&sort=violations&order=desc"
                        "&status=audited", 200);
    cJSON *games = cJSON_GetObjectItemCaseSensitive(j, "games");
    assert_int_equal(num(j, "total"), 2);
    assert_int_equal(cJSON_GetArraySize(games), 1);
    assert_int_equal((long long)num(cJSON_GetArrayItem(games, 0), "id"),
                     T.forged_id);
    cJSON_Delete(j);
    j = get_json("/api/games?limit=1&offset=1&sort=violations&order=desc",
                 200); /* the The Catapult game, with no count, sorts last */
    games = cJSON_GetObjectItemCaseSensitive(j, "games");
    assert_int_equal(cJSON_GetArraySize(games), 1);
    assert_int_equal((long long)num(cJSON_GetArrayItem(games, 0), "id"),
                     T.valid_id);
    cJSON_Delete(j);
    j = get_json("/api/games?sort=violations&order=asc", 200);
    games = cJSON_GetObjectItemCaseSensitive(j, "games");
    assert_int_equal((long long)num(cJSON_GetArrayItem(games, 0), "id"),
                     T.mage_id);
    assert_int_equal((long long)num(cJSON_GetArrayItem(games, 1), "id"),
                     T.valid_id);
    cJSON_Delete(j);

    /* Bad values are refused, naming the value. */
    static const char *const bad[] = {
        "/api/games?verdict=maybe", "/api/games?limit=abc",
        "/api/games?limit=5000",    "/api/games?sort=nope",
        "/api/games?edition=C9",    "/api/games?from=yesterday",
        "/api/games?finished=perhaps", "/api/games?status=maybe",
        "/api/games?expansion=catapult",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        j = get_json(bad[i], 400);
        assert_non_null(strstr(str(j, "error"), "bad query"));
        cJSON_Delete(j);
    }
}

static void test_game_endpoints(void **state)
{
    char path[96];
    struct http_resp r;
    (void)state;
    snprintf(path, sizeof path, "/api/games/%lld", T.valid_id);
    cJSON *j = get_json(path, 200);
    assert_int_equal((long long)num(j, "id"), T.valid_id);
    cJSON *audit = cJSON_GetObjectItemCaseSensitive(j, "audit");
    assert_true(cJSON_IsObject(audit));
    assert_true(flag(audit, "valid"));
    cJSON_Delete(j);

    snprintf(path, sizeof path, "/api/games/%lld/raw", T.valid_id);
    assert_int_equal(http_do(T.d.port, "GET", path, NULL, NULL, 0, false, &r),
                     200);
    assert_int_equal(r.body.len, T.valid.len);
    assert_memory_equal(r.body.p, T.valid.p, T.valid.len);
    http_resp_release(&r);
    /* the page asks for the upload's own name; only a plain file name of
     * a log is put in the header */
    static const struct {
        const char *q, *want;
    } names[] = {
        { "?filename=tower-c2-3p.jcz", "inline; filename=\"tower-c2-3p.jcz\"" },
        { "?filename=..%2Fetc%2Fpasswd.jcz", "inline; filename=\"game-" },
        { "?filename=a%22b.jcz", "inline; filename=\"game-" },
        { "?filename=notes.txt", "inline; filename=\"game-" },
    };
    for (size_t k = 0; k < sizeof names / sizeof *names; k++) {
        char v[256];
        snprintf(path, sizeof path, "/api/games/%lld/raw%s", T.valid_id,
                 names[k].q);
        assert_int_equal(http_do(T.d.port, "GET", path, NULL, NULL, 0, false,
                                 &r), 200);
        assert_true(http_header(&r, "Content-Disposition", v, sizeof v));
        if (strncmp(v, names[k].want, strlen(names[k].want)) != 0)
            fail_msg("%s: Content-Disposition %s", names[k].q, v);
        http_resp_release(&r);
    }

    snprintf(path, sizeof path, "/api/games/%lld/replay", T.forged_id);
    j = get_json(path, 200);
    assert_true(cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(j, "turns")));
    cJSON_Delete(j);

    cJSON_Delete(get_json("/api/games/999999", 404));
    cJSON_Delete(get_json("/api/games/abc", 404));
    cJSON_Delete(get_json("/api/games/999999/raw", 404));
}

static void test_players_and_stats(void **state)
{
    (void)state;
    cJSON *j = get_json("/api/players", 200);
    char *text = cJSON_PrintUnformatted(j);
    assert_non_null(strstr(text, "\"Ada\""));
    cJSON_free(text);
    cJSON_Delete(j);
    j = get_json("/api/players/Ada", 200);
    cJSON_Delete(j);
    cJSON_Delete(get_json("/api/players/No%20Such%20Player", 404));
    /* a name with a slash (the daemon sees %2F decoded) */
    cJSON *up = NULL;
    assert_int_equal(
        post_text("/api/games", "{\"format\": \"flierlog/1\", \"edition\": "
                  "\"C2\", \"players\": [{\"name\": \"Ada/Ben\"}, "
                  "{\"name\": \"Cy\"}], \"turns\": [], \"final\": {}}",
                  &up), 201);
    cJSON_Delete(up);
    j = get_json("/api/players/Ada%2FBen", 200);
    assert_string_equal(cJSON_GetObjectItem(j, "name")->valuestring,
                        "Ada/Ben");
    cJSON_Delete(j);
    j = get_json("/api/stats", 200);
    assert_true(cJSON_IsObject(j));
    cJSON *games = cJSON_GetObjectItem(j, "games");
    assert_int_equal(num(games, "total"), 4);
    assert_int_equal(num(games, "unsupported"), 1);
    assert_int_equal(num(games, "valid"), 2);
    assert_int_equal(num(games, "invalid"), 1);
    assert_int_equal(num(cJSON_GetObjectItem(games, "by_edition"), "C2"), 3);
    cJSON *fig = cJSON_GetObjectItem(cJSON_GetObjectItem(j, "flier"),
                                     "by_figure");
    assert_true(num(cJSON_GetObjectItem(fig, "small"), "flights") > 0);
    cJSON_Delete(j);
}

/* The value of one line of /metrics ("name{labels}"), or -1. */
static long long metric(const char *line)
{
    struct http_resp r;
    long long v = -1;
    assert_int_equal(http_do(T.d.port, "GET", "/metrics", NULL, NULL, 0,
                             false, &r), 200);
    for (const char *p = r.body.p; p && (p = strstr(p, line)); p++)
        if ((p == r.body.p || p[-1] == '\n') && p[strlen(line)] == ' ') {
            v = atoll(p + strlen(line) + 1);
            break;
        }
    http_resp_release(&r);
    return v;
}

static void test_metrics(void **state)
{
    struct http_resp r;
    char v[128];
    (void)state;
    assert_int_equal(http_do(T.d.port, "GET", "/metrics", NULL, NULL, 0,
                             false, &r), 200);
    assert_true(http_header(&r, "Content-Type", v, sizeof v));
    assert_non_null(strstr(v, "text/plain"));
    assert_non_null(strstr(r.body.p, "# TYPE flierd_http_requests_total "
                                     "counter"));
    /* two sample uploads, the The Catapult game and the slash-named players'
     * game; the sample (plain and as a form) and the The Catapult game
     * again */
    assert_non_null(strstr(r.body.p, "flierd_ingests_total{outcome="
                                     "\"stored\"} 4\n"));
    assert_non_null(strstr(r.body.p, "flierd_ingests_total{outcome="
                                     "\"duplicate\"} 3\n"));
    assert_non_null(strstr(r.body.p, "flierd_ingests_unsupported_total 1\n"));
    assert_non_null(strstr(r.body.p, "flierd_ingests_invalid_total 1\n"));
    assert_non_null(strstr(r.body.p, "flierd_ingest_failures_total{reason="
                                     "\"unsupported\"} 0\n"));
    assert_non_null(strstr(r.body.p, "flierd_http_request_duration_seconds"
                                     "_bucket{le=\"+Inf\"}"));
    http_resp_release(&r);
    /* the database's own gauges: what the statistics count */
    cJSON *stats = get_json("/api/stats", 200);
    const cJSON *games = cJSON_GetObjectItemCaseSensitive(stats, "games");
    assert_int_equal(metric("flierd_games{verdict=\"valid\"}"),
                     (long long)num(games, "valid"));
    assert_int_equal(metric("flierd_games{verdict=\"invalid\"}"),
                     (long long)num(games, "invalid"));
    assert_int_equal(metric("flierd_games{verdict=\"unsupported\"}"),
                     (long long)num(games, "unsupported"));
    assert_int_equal(metric("flierd_live_games"),
                     (long long)num(games, "live"));
    assert_true(num(games, "valid") > 0);
    cJSON_Delete(stats);
}

/* ---- other expansions ---- */

static const cJSON *member(const cJSON *j, const char *a, const char *b)
{
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(j, a);
    if (x && b)
        x = cJSON_GetObjectItemCaseSensitive(x, b);
    if (!x)
        fail_msg("no %s.%s", a, b ? b : "");
    return x;
}

/* Inns & Cathedrals with the large follower, from the peer corpus: its
 * points by feature and flights by figure, as the player page and the
 * statistics show them. ic-dev-001: Alice 19, Bob 17; five followers'
 * flights and one large follower's. */
static void test_expansion_game(void **state)
{
    struct buf b = BUF_INIT;
    cJSON *j;
    (void)state;
    tf_read(FLIERD_SHARED_DIR "/peer/jcz/expansions/ic/ic-dev-001.jcz", &b);
    assert_int_equal(post("/api/games?name=ic-dev-001.jcz", NULL, &b, &j),
                     201);
    assert_string_equal(str(j, "status"), "audited");
    assert_true(flag(j, "valid"));
    long long id = (long long)num(j, "id");
    cJSON_Delete(j);
    assert_int_equal(total_of("expansion=inns"), 1);
    assert_int_equal(total_of("expansion=inns&verdict=valid"), 1);
    char path[64];
    snprintf(path, sizeof path, "/api/games/%lld", id);
    j = get_json(path, 200);
    const cJSON *x, *xs = member(j, "expansions", NULL);
    bool inns = false;
    cJSON_ArrayForEach(x, xs)
        inns = inns || strcmp(x->valuestring, "inns") == 0;
    assert_true(inns);
    assert_int_equal(num(member(j, "elements", NULL), "big-follower"), 1);
    cJSON_Delete(j);

    int scores[2] = { 19, 17 }, flights = 0, big = 0;
    static const char *const names[] = { "Alice", "Bob" };
    for (int p = 0; p < 2; p++) {
        snprintf(path, sizeof path, "/api/players/%s", names[p]);
        j = get_json(path, 200);
        int sum = 0;
        cJSON_ArrayForEach(x, member(j, "points", NULL))
            sum += x->valueint;
        assert_int_equal(sum, scores[p]);
        cJSON_ArrayForEach(x, member(j, "by_figure", NULL)) {
            flights += (int)num(x, "flights");
            if (strcmp(x->string, "big") == 0)
                big += (int)num(x, "flights");
        }
        cJSON_Delete(j);
    }
    assert_int_equal(flights, 6);
    assert_int_equal(big, 1);
    j = get_json("/api/stats", 200);
    assert_int_equal(num(member(member(j, "flier", "by_figure"), "big",
                                NULL), "flights"), 1);
    assert_int_equal(num(member(j, "games", "by_expansion"), "inns"), 1);
    cJSON_Delete(j);
    buf_release(&b);
}

/* `flierd reaudit` beside the running daemon: this engine still cannot
 * audit the The Catapult game, which stays as it was, with its reason; every
 * other game keeps its verdict. The spool keeps such a game too, and a
 * live game of it is refused (nobody could referee its turns). */
static void test_unsupported_after_reaudit(void **state)
{
    struct buf out = BUF_INIT, b = BUF_INIT;
    char p[256];
    cJSON *j;
    (void)state;
    int before = total_of("");
    const char *args[] = { "reaudit", "--db", T.db, NULL };
    assert_int_equal(flierd_run(args, &out), 0);
    assert_non_null(strstr(out.p, " 0 verdicts changed, 1 still "
                                  "unsupported\n"));
    assert_int_equal(total_of(""), before);
    assert_int_equal(total_of("status=unsupported"), 1);
    j = get_json("/api/games?status=unsupported", 200);
    cJSON *g = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "games"), 0);
    assert_int_equal((long long)num(g, "id"), T.mage_id);
    assert_string_equal(str(g, "reason"), MAGE_REASON);
    assert_string_equal(str(g, "name"), "mage.jcz");
    cJSON_Delete(j);
    j = get_json("/api/stats", 200);
    assert_int_equal(num(member(j, "games", NULL), "unsupported"), 1);
    cJSON_Delete(j);
    const char *check[] = { "check", "--db", T.db, NULL };
    out.len = 0;
    assert_int_equal(flierd_run(check, &out), 0);
    assert_non_null(strstr(out.p, ": 0 problems\n"));

    /* the spool stores one (other bytes: another game) in done/ */
    buf_puts(&b, MAGE_JCZ);
    buf_puts(&b, "\n");
    snprintf(p, sizeof p, "%s/mage2.jcz", T.spool);
    tf_write(p, b.p, b.len);
    assert_true(daemon_wait_log(&T.d, "spool: mage2.jcz -> done (game ",
                                10000));
    assert_true(daemon_wait_log(&T.d, "stored, not audited: unsupported: "
                                "The Catapult", 10000));
    snprintf(p, sizeof p, "%s/done/mage2.jcz", T.spool);
    assert_true(exists(p));
    assert_int_equal(total_of("status=unsupported"), 2);

    static const char header[] =
        "{\"format\": \"flierlog/1\", \"edition\": \"C2\", \"sets\": "
        "{\"basic:1\": 1, \"catapult:1\": 1}, \"players\": [{\"name\": "
        "\"Ada\"}, {\"name\": \"Cy\"}]}";
    assert_int_equal(post_text("/api/live", header, &j), 415);
    assert_non_null(strstr(str(j, "error"), "catapult"));
    cJSON_Delete(j);
    assert_int_equal(total_of(""), before + 1);
    buf_release(&out);
    buf_release(&b);
}

/* The ETag a file of --web DIR must have: its quoted SHA-256. */
static void etag_of(const char *text, char out[SHA256_HEX_LEN + 2])
{
    char hex[SHA256_HEX_LEN];
    sha256_hex(text, strlen(text), hex);
    snprintf(out, SHA256_HEX_LEN + 2, "\"%s\"", hex);
}

static int get_if(const char *path, const char *etag, struct http_resp *r)
{
    char hdr[128];
    snprintf(hdr, sizeof hdr, "If-None-Match: %s\r\n", etag);
    return http_do(T.d.port, "GET", path, hdr, NULL, 0, false, r);
}

/* --web DIR has the validators of the dashboard built in, computed from
 * the file as it is now: an edited file is served anew at once. */
static void static_validators(void)
{
    struct http_resp r;
    char p[256], v[128], etag[SHA256_HEX_LEN + 2], hex[SHA256_HEX_LEN];
    etag_of("<h1>flierd</h1>\n", etag);
    assert_int_equal(get_if("/", etag, &r), 304);
    assert_int_equal(r.body.len, 0);
    http_resp_release(&r);
    assert_int_equal(get_if("/stats", etag, &r), 304);
    http_resp_release(&r);
    snprintf(p, sizeof p, "%s/index.html", T.web);
    tf_write(p, "<h1>flierd 2</h1>\n", 18);
    assert_int_equal(get_if("/", etag, &r), 200);
    assert_string_equal(r.body.p, "<h1>flierd 2</h1>\n");
    assert_true(http_header(&r, "ETag", v, sizeof v));
    etag_of("<h1>flierd 2</h1>\n", etag);
    assert_string_equal(v, etag);
    assert_true(http_header(&r, "Cache-Control", v, sizeof v));
    assert_string_equal(v, "no-cache");
    http_resp_release(&r);

    /* kept a year only under a name that carries the bytes' own hash */
    static const char mod[] = "export const x = 1;\n";
    sha256_hex(mod, strlen(mod), hex);
    snprintf(p, sizeof p, "%s/mod.%.12s.js", T.web, hex);
    tf_write(p, mod, strlen(mod));
    snprintf(p, sizeof p, "/mod.%.12s.js", hex);
    assert_int_equal(http_do(T.d.port, "GET", p, NULL, NULL, 0, false, &r),
                     200);
    assert_true(http_header(&r, "Cache-Control", v, sizeof v));
    assert_string_equal(v, "public, max-age=31536000, immutable");
    assert_true(http_header(&r, "Content-Type", v, sizeof v));
    assert_string_equal(v, "text/javascript; charset=utf-8");
    http_resp_release(&r);
    snprintf(p, sizeof p, "%s/mod.0123456789ab.js", T.web);
    tf_write(p, mod, strlen(mod));
    assert_int_equal(http_do(T.d.port, "GET", "/mod.0123456789ab.js", NULL,
                             NULL, 0, false, &r), 200);
    assert_true(http_header(&r, "Cache-Control", v, sizeof v));
    assert_string_equal(v, "no-cache");
    http_resp_release(&r);
}

static void test_static_files(void **state)
{
    char p[256];
    struct http_resp r;
    char v[128];
    (void)state;
    snprintf(p, sizeof p, "%s/index.html", T.web);
    tf_write(p, "<h1>flierd</h1>\n", 16);
    /* a file beside the database, outside --web (the database itself
     * may be on a server) */
    char target[256];
    snprintf(target, sizeof target, "%s/outside.db", T.dir);
    tf_write(target, "x", 1);
    snprintf(p, sizeof p, "%s/outside", T.web);
    assert_int_equal(symlink(target, p), 0);
    snprintf(p, sizeof p, "%s/.secret", T.web);
    tf_write(p, "x", 1);

    assert_int_equal(http_do(T.d.port, "GET", "/", NULL, NULL, 0, false, &r),
                     200);
    assert_string_equal(r.body.p, "<h1>flierd</h1>\n");
    assert_true(http_header(&r, "Content-Type", v, sizeof v));
    assert_non_null(strstr(v, "text/html"));
    assert_true(http_header(&r, "Content-Security-Policy", v, sizeof v));
    http_resp_release(&r);
    static const char *const refused[] = {
        "/../games.db", "/%2e%2e/games.db", "/a/../../games.db",
        "/outside",     "/.secret",         "/missing.html",
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        assert_int_equal(http_do(T.d.port, "GET", refused[i], NULL, NULL, 0,
                                 false, &r), 404);
        http_resp_release(&r);
    }
    static_validators();
}

/* ---- spool ---- */

static void test_spool(void **state)
{
    char p[256], q[256];
    struct buf b = BUF_INIT;
    (void)state;
    int before = total_of("");
    /* Written under a skipped name, then renamed: never read half. */
    tf_read(FLIERD_SAMPLES_DIR "/c2-5p.jcz", &b);
    snprintf(p, sizeof p, "%s/five.jcz.tmp", T.spool);
    tf_write(p, b.p, b.len);
    snprintf(q, sizeof q, "%s/five.jcz", T.spool);
    assert_int_equal(rename(p, q), 0);
    snprintf(p, sizeof p, "%s/garbage.jcz", T.spool);
    tf_write(p, "this is not a game", 18);
    assert_true(daemon_wait_log(&T.d, "spool: five.jcz -> done", 10000));
    assert_true(daemon_wait_log(&T.d, "spool: garbage.jcz -> failed", 10000));

    snprintf(p, sizeof p, "%s/done/five.jcz", T.spool);
    assert_true(exists(p));
    assert_false(exists(q));
    snprintf(p, sizeof p, "%s/failed/garbage.jcz", T.spool);
    assert_true(exists(p));
    snprintf(p, sizeof p, "%s/failed/garbage.jcz.error", T.spool);
    b.len = 0;
    tf_read(p, &b);
    assert_non_null(strstr(b.p, "byte offset 0"));
    assert_int_equal(total_of(""), before + 1);
    assert_int_equal(total_of("q=five"), 1);

    /* The same bytes again: a duplicate, also moved to done/ (renamed). */
    snprintf(q, sizeof q, "%s/five.jcz", T.spool);
    snprintf(p, sizeof p, "%s/done/five.jcz", T.spool);
    b.len = 0;
    tf_read(p, &b);
    tf_write(q, b.p, b.len);
    assert_true(daemon_wait_log(&T.d, "duplicate)", 10000));
    snprintf(p, sizeof p, "%s/done/five.jcz.1", T.spool);
    assert_true(exists(p));
    assert_int_equal(total_of(""), before + 1);
    buf_release(&b);
}

/* ---- live recording ---- */

struct lines {
    char **v;
    int n;
};

/* A sample as a flierlog stream: line 0 the setup, then one turn each. */
static void stream_of(const struct buf *jcz, struct lines *out)
{
    struct game_log log;
    struct buf nd = BUF_INIT;
    struct err e;
    enum mlog_format fmt;
    game_log_init(&log);
    assert_int_equal(mlog_parse(jcz->p, jcz->len, &log, &fmt, &e), ST_OK);
    mlog_write_flierlog_ndjson(&log, &nd);
    game_log_release(&log);
    out->v = NULL;
    out->n = 0;
    for (char *p = nd.p; p && *p;) {
        char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        out->v = realloc(out->v, sizeof *out->v * (size_t)(out->n + 1));
        out->v[out->n] = strndup(p, n);
        out->n++;
        p += n + (nl != NULL);
    }
    buf_release(&nd);
}

static void lines_free(struct lines *l)
{
    for (int i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
}

static int post_text(const char *path, const char *text, cJSON **out)
{
    struct buf b = BUF_INIT;
    buf_puts(&b, text);
    int st = post(path, NULL, &b, out);
    buf_release(&b);
    return st;
}

/* Is game id in the list, with that "live" flag? */
static bool listed_live(long long id, bool live)
{
    cJSON *j = get_json("/api/games?limit=1000", 200), *g;
    bool found = false;
    cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(j, "games"))
        if ((long long)num(g, "id") == id)
            found = flag(g, "live") == live;
    cJSON_Delete(j);
    return found;
}

static bool is_final(const char *line)
{
    return strncmp(line, "{\"final\"", 8) == 0;
}

static void test_live(void **state)
{
    struct lines good, bad;
    char path[96];
    cJSON *j;
    (void)state;
    stream_of(&T.valid, &good);
    stream_of(&T.forged, &bad);
    assert_true(good.n > 10);
    /* The forgery differs from the game at its flight of turn 24. */
    int diff = 1;
    while (diff < good.n && diff < bad.n &&
           strcmp(good.v[diff], bad.v[diff]) == 0)
        diff++;
    assert_true(diff < good.n && diff < bad.n);

    assert_int_equal(post_text("/api/live", good.v[0], &j), 201);
    long long id = (long long)num(j, "id");
    cJSON_Delete(j);
    snprintf(path, sizeof path, "/api/live/%lld/moves", id);
    for (int i = 1; i < diff; i++) {
        assert_int_equal(post_text(path, good.v[i], &j), 200);
        assert_true(cJSON_IsObject(
            cJSON_GetObjectItemCaseSensitive(j, "scores")));
        cJSON_Delete(j);
    }
    /* In the list, live, and replayable while in progress. */
    assert_true(listed_live(id, true));
    char rp[96];
    snprintf(rp, sizeof rp, "/api/games/%lld/replay", id);
    j = get_json(rp, 200);
    int n_turns = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(
        j, "turns"));
    assert_true(n_turns >= diff - 1); /* (the start tile may count) */
    cJSON_Delete(j);

    /* The forged flight is refused with its rule and not recorded: the
     * game is unchanged, so its rendered replay comes from the cache. */
    const char *hits = "flierd_replay_cache_requests_total{result=\"hit\"}";
    long long hits0 = metric(hits);
    assert_true(hits0 >= 0);
    assert_int_equal(post_text(path, bad.v[diff], &j), 422);
    assert_string_equal(str(j, "rule"), "FLIER_WRONG_TARGET");
    assert_non_null(strstr(str(j, "error"), "FLIER_WRONG_TARGET"));
    cJSON_Delete(j);
    j = get_json(rp, 200);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(
                         j, "turns")), n_turns);
    cJSON_Delete(j);
    assert_int_equal(metric(hits), hits0 + 1);

    /* The true flight: scores and the landing options. */
    assert_int_equal(post_text(path, good.v[diff], &j), 200);
    cJSON *flight = cJSON_GetObjectItemCaseSensitive(j, "flight");
    assert_true(cJSON_IsObject(flight));
    cJSON_Delete(j);
    for (int i = diff + 1; i < good.n && !is_final(good.v[i]); i++) {
        assert_int_equal(post_text(path, good.v[i], &j), 200);
        cJSON_Delete(j);
    }
    snprintf(path, sizeof path, "/api/live/%lld/finish", id);
    assert_int_equal(post_text(path, "", &j), 200);
    assert_true(flag(j, "valid"));
    assert_true(flag(j, "finished"));
    cJSON_Delete(j);
    assert_true(listed_live(id, false));
    /* The moves since changed the upload: no stale rendering is served. */
    j = get_json(rp, 200);
    assert_true(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(
                    j, "turns")) > n_turns);
    cJSON_Delete(j);
    assert_int_equal(metric(hits), hits0 + 1);
    /* Finished: no more moves. */
    snprintf(path, sizeof path, "/api/live/%lld/moves", id);
    assert_int_equal(post_text(path, good.v[1], &j), 409);
    cJSON_Delete(j);
    assert_int_equal(post_text("/api/live/999999/moves", good.v[1], &j), 404);
    cJSON_Delete(j);
    assert_int_equal(post_text("/api/live", "{\"format\": 3}", &j), 400);
    cJSON_Delete(j);
    lines_free(&good);
    lines_free(&bad);
}

/* A query's value, percent-encoded (all but letters and digits). */
static void url_encode(const char *in, char *out, size_t len)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t n = 0;
    for (; *in && n + 4 < len; in++) {
        unsigned char c = (unsigned char)*in;
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
            (c >= '0' && c <= '9')) {
            out[n++] = (char)c;
        } else {
            out[n++] = '%';
            out[n++] = hex[c >> 4];
            out[n++] = hex[c & 15];
        }
    }
    out[n] = '\0';
}

/* The options within a turn (?turn=): the tile placed, the actions
 * follow; a pass after it, the turn is complete ("after"); a move that
 * breaks a rule is 422 with its rule. */
static void live_within_turn(long long id, const cJSON *t2)
{
    char entry[512], enc[1536], q[1700];
    const cJSON *at = cJSON_GetObjectItemCaseSensitive(t2, "at");
    const cJSON *rot = cJSON_GetObjectItemCaseSensitive(t2, "rot");
    static const struct { const char *then, *stage; int status; } cases[] = {
        { "", "action", 200 },
        { ",{\"move\":\"pass\"}", "after", 200 },
        { ",{\"move\":\"deploy\",\"at\":[40,40],\"segment\":\"road:WE\"}",
          NULL, 422 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        snprintf(entry, sizeof entry, "{\"moves\":[{\"move\":\"place\","
                 "\"tile\":\"%s\",\"at\":[%d,%d],\"rot\":%d}%s]}",
                 str(t2, "tile"), cJSON_GetArrayItem(at, 0)->valueint,
                 cJSON_GetArrayItem(at, 1)->valueint, rot ? rot->valueint : 0,
                 cases[i].then);
        url_encode(entry, enc, sizeof enc);
        snprintf(q, sizeof q, "/api/live/%lld/options?turn=%s", id, enc);
        cJSON *j = get_json(q, cases[i].status);
        if (cases[i].stage) {
            assert_string_equal(str(j, "stage"), cases[i].stage);
            assert_non_null(cJSON_GetObjectItemCaseSensitive(j, "moves"));
        }
        cJSON_Delete(j);
    }
    snprintf(q, sizeof q, "/api/live/%lld/options?turn=%%7B", id);
    cJSON_Delete(get_json(q, 400));
}

/* A spectator's wait answers at once without a version or with another
 * one (a wait held open is the e2e test's); a turn whose claimed totals
 * the rules do not give is recorded, not refused, and the game is no
 * longer valid. */
static void live_wait_and_claims(long long id, const char *path,
                                 const cJSON *t2)
{
    char q[128];
    snprintf(q, sizeof q, "/api/games/%lld/wait", id);
    cJSON *j = get_json(q, 200);
    assert_true(flag(j, "live"));
    assert_int_equal((int)strlen(str(j, "version")), 16);
    cJSON_Delete(j);
    snprintf(q, sizeof q, "/api/games/%lld/wait?version=0000", id);
    cJSON_Delete(get_json(q, 200));
    cJSON_Delete(get_json("/api/games/999999/wait", 404));

    cJSON *claimed = cJSON_Duplicate(t2, true); /* turn 2, as it is */
    cJSON_ReplaceItemInObject(claimed, "turn", cJSON_CreateNumber(2));
    cJSON_DeleteItemFromObject(claimed, "totals");
    cJSON *totals = cJSON_AddArrayToObject(claimed, "totals");
    cJSON_AddItemToArray(totals, cJSON_CreateNumber(999));
    char *body = cJSON_PrintUnformatted(claimed);
    assert_int_equal(post_text(path, body, &j), 200);
    assert_false(flag(j, "valid"));
    cJSON_Delete(j);
    free(body);
    cJSON_Delete(claimed);
    /* taken back: the suite's counts of invalid games stay as they were */
    snprintf(q, sizeof q, "/api/live/%lld/undo?turn=2", id);
    assert_int_equal(post_text(q, "", &j), 200);
    cJSON_Delete(j);
}

/* A repeated turn is answered again, another of its number refused;
 * the next turn's options follow the game, step by step; undo takes the
 * last turn back once. */
static void test_live_turns(void **state)
{
    struct lines good;
    char path[96], q[192];
    cJSON *j, *again;
    (void)state;
    stream_of(&T.valid, &good);
    assert_int_equal(post_text("/api/live", good.v[0], &j), 201);
    long long id = (long long)num(j, "id");
    cJSON_Delete(j);
    snprintf(path, sizeof path, "/api/live/%lld/moves", id);
    assert_int_equal(post_text(path, good.v[1], &j), 200);
    assert_int_equal(post_text(path, good.v[1], &again), 200);
    char *a = cJSON_PrintUnformatted(j), *b = cJSON_PrintUnformatted(again);
    assert_string_equal(a, b);
    free(a);
    free(b);
    cJSON_Delete(j);
    cJSON_Delete(again);
    /* the second turn sent as turn 1 */
    cJSON *t2 = cJSON_Parse(good.v[2]);
    cJSON_ReplaceItemInObject(t2, "turn", cJSON_CreateNumber(1));
    char *as1 = cJSON_PrintUnformatted(t2);
    assert_int_equal(post_text(path, as1, &j), 409);
    assert_non_null(strstr(str(j, "error"), "turn 1 of game"));
    free(as1);
    cJSON_Delete(j);

    /* options: the tile, then its square, then the actions */
    snprintf(q, sizeof q, "/api/live/%lld/options", id);
    j = get_json(q, 200);
    assert_string_equal(str(j, "stage"), "tile");
    assert_int_equal((int)num(j, "turn"), 2);
    cJSON_Delete(j);
    const cJSON *at = cJSON_GetObjectItemCaseSensitive(t2, "at");
    const cJSON *rot = cJSON_GetObjectItemCaseSensitive(t2, "rot");
    snprintf(q, sizeof q, "/api/live/%lld/options?tile=%s", id,
             str(t2, "tile"));
    j = get_json(q, 200);
    assert_string_equal(str(j, "stage"), "place");
    assert_true(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(
                    j, "places")) > 0);
    cJSON_Delete(j);
    snprintf(q, sizeof q, "/api/live/%lld/options?tile=%s&at=%d,%d&rot=%d",
             id, str(t2, "tile"), cJSON_GetArrayItem(at, 0)->valueint,
             cJSON_GetArrayItem(at, 1)->valueint, rot ? rot->valueint : 0);
    j = get_json(q, 200);
    assert_string_equal(str(j, "stage"), "action");
    assert_true(flag(j, "pass"));
    cJSON_Delete(j);
    snprintf(q, sizeof q, "/api/live/%lld/options?tile=%s&at=40,40", id,
             str(t2, "tile"));
    j = get_json(q, 422);
    assert_string_equal(str(j, "rule"), "TILE_NOT_ADJACENT");
    cJSON_Delete(j);
    snprintf(q, sizeof q, "/api/live/%lld/options?roll=2", id);
    cJSON_Delete(get_json(q, 400));

    /* undo: the last turn, once */
    snprintf(q, sizeof q, "/api/live/%lld/undo?turn=1", id);
    assert_int_equal(post_text(q, "", &j), 200);
    assert_int_equal((int)num(j, "undone"), 1);
    assert_int_equal((int)num(j, "turns"), 0);
    cJSON_Delete(j);
    assert_int_equal(post_text(q, "", &j), 409);
    cJSON_Delete(j);
    snprintf(q, sizeof q, "/api/live/%lld/options", id);
    j = get_json(q, 200);
    assert_int_equal((int)num(j, "turn"), 1);
    cJSON_Delete(j);
    assert_int_equal(post_text(path, good.v[1], &j), 200);
    cJSON_Delete(j);
    live_within_turn(id, t2);
    live_wait_and_claims(id, path, t2);
    cJSON_Delete(t2);
    lines_free(&good);
}

/* ---- concurrency ---- */

struct upload_job {
    const struct buf *body;
    int status;
    long long id;
};

static void *upload_thread(void *arg)
{
    struct upload_job *job = arg;
    struct http_resp r;
    job->status = http_do(T.d.port, "POST", "/api/games", NULL, job->body->p,
                          job->body->len, false, &r);
    cJSON *j = cJSON_Parse(r.body.p ? r.body.p : "");
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(j, "id");
    job->id = cJSON_IsNumber(id) ? (long long)id->valuedouble : 0;
    cJSON_Delete(j);
    http_resp_release(&r);
    return NULL;
}

static void run_uploads(struct upload_job *jobs, int n)
{
    pthread_t th[64];
    for (int i = 0; i < n; i++)
        assert_int_equal(pthread_create(&th[i], NULL, upload_thread,
                                        &jobs[i]), 0);
    for (int i = 0; i < n; i++)
        pthread_join(th[i], NULL);
}

static void test_parallel_uploads(void **state)
{
    enum { N = 32 };
    struct upload_job jobs[N];
    struct buf same = BUF_INIT, distinct[N];
    (void)state;
    int before = total_of("");

    /* 32 uploads of the same bytes at once: stored exactly once. */
    tf_read(FLIERD_SAMPLES_DIR "/c3-4p-abbots.jcz", &same);
    for (int i = 0; i < N; i++)
        jobs[i] = (struct upload_job){ &same, 0, 0 };
    run_uploads(jobs, N);
    int created = 0;
    for (int i = 0; i < N; i++) {
        assert_true(jobs[i].status == 201 || jobs[i].status == 200);
        created += jobs[i].status == 201;
        assert_int_equal(jobs[i].id, jobs[0].id);
    }
    assert_int_equal(created, 1);
    assert_int_equal(total_of(""), before + 1);

    /* 32 different games at once: 32 games, 32 ids. */
    for (int i = 0; i < N; i++) {
        distinct[i] = (struct buf)BUF_INIT;
        tf_read(FLIERD_SAMPLES_DIR "/flier-returns.jcz", &distinct[i]);
        for (int k = 0; k <= i; k++)
            buf_puts(&distinct[i], "\n"); /* other bytes, same game */
        jobs[i] = (struct upload_job){ &distinct[i], 0, 0 };
    }
    run_uploads(jobs, N);
    for (int i = 0; i < N; i++) {
        assert_int_equal(jobs[i].status, 201);
        for (int k = 0; k < i; k++)
            assert_true(jobs[k].id != jobs[i].id);
        buf_release(&distinct[i]);
    }
    assert_int_equal(total_of(""), before + 1 + N);
    buf_release(&same);
}

/* ---- authorisation ---- */

static void test_token(void **state)
{
    struct daemon d;
    char tok[256], db[256];
    struct http_resp r;
    (void)state;
    snprintf(tok, sizeof tok, "%s/token", T.dir);
    tf_write(tok, TOKEN "\n", strlen(TOKEN) + 1);
    assert_true(fresh_db(db, sizeof db, "auth.db"));
    const char *extra[] = { "--token-file", tok, NULL };
    assert_true(daemon_start(&d, db, extra));

    assert_int_equal(http_do(d.port, "POST", "/api/games", NULL, T.valid.p,
                             T.valid.len, false, &r), 401);
    char v[64];
    assert_true(http_header(&r, "WWW-Authenticate", v, sizeof v));
    http_resp_release(&r);
    assert_int_equal(http_do(d.port, "POST", "/api/games",
                             "Authorization: Bearer wrong-token-0000\r\n",
                             T.valid.p, T.valid.len, false, &r), 401);
    http_resp_release(&r);
    assert_int_equal(http_do(d.port, "POST", "/api/live", NULL, "{}", 2,
                             false, &r), 401);
    http_resp_release(&r);
    assert_int_equal(http_do(d.port, "POST", "/api/games",
                             "Authorization: Bearer " TOKEN "\r\n",
                             T.valid.p, T.valid.len, false, &r), 201);
    http_resp_release(&r);
    /* Reads stay public. */
    assert_int_equal(http_do(d.port, "GET", "/api/games", NULL, NULL, 0,
                             false, &r), 200);
    cJSON *j = cJSON_Parse(r.body.p);
    assert_int_equal(num(j, "total"), 1);
    cJSON_Delete(j);
    http_resp_release(&r);
    assert_int_equal(daemon_stop(&d), 0);
}

/* ---- connection limits ---- */

static int connect_loopback(unsigned port)
{
    struct sockaddr_in a;
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons((unsigned short)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    assert_int_equal(connect(fd, (struct sockaddr *)&a, sizeof a), 0);
    return fd;
}

/* Waits (at most 10 s) for the server to close fd; true if it did. */
static bool closed_by_server(int fd)
{
    struct pollfd p = { fd, POLLIN, 0 };
    char c;
    return poll(&p, 1, 10000) == 1 && recv(fd, &c, 1, 0) <= 0;
}

static void test_limits(void **state)
{
    struct daemon d;
    char db[256];
    struct http_resp r;
    (void)state;
    assert_true(fresh_db(db, sizeof db, "limits.db"));
    const char *extra[] = { "--per-ip", "2", "--timeout", "1", "--threads",
                            "2", NULL };
    assert_true(daemon_start(&d, db, extra));
    /* Two idle connections are allowed; a third from the same address is
     * closed at once. */
    int a = connect_loopback(d.port), b = connect_loopback(d.port);
    assert_int_equal(http_do(d.port, "GET", "/healthz", NULL, NULL, 0, false,
                             &r), 0);
    http_resp_release(&r);
    /* Idle connections are closed after the timeout (1 s). */
    assert_true(closed_by_server(a));
    assert_true(closed_by_server(b));
    close(a);
    close(b);
    assert_int_equal(daemon_stop(&d), 0);
}

/* ---- shutdown and restart ---- */

static void test_sigterm_and_restart(void **state)
{
    struct buf b = BUF_INIT;
    struct http_resp r;
    char path[96];
    (void)state;
    int before = total_of("");
    snprintf(path, sizeof path, "/api/games/%lld/raw", T.valid_id);

    /* A request in flight when SIGTERM comes is still answered. */
    tf_read(FLIERD_SAMPLES_DIR "/tiny-city.jcz", &b);
    int fd = http_begin(T.d.port, "/api/games?name=late.jcz", b.len);
    assert_true(fd >= 0);
    kill(T.d.pid, SIGTERM);
    assert_true(daemon_wait_log(&T.d, "SIGTERM, stopping", 10000));
    assert_int_equal(http_finish(fd, b.p, b.len, &r), 201);
    http_resp_release(&r);
    assert_int_equal(daemon_stop(&T.d), 0);

    /* Everything is still there after a restart. */
    /* as in setup: no rate limits */
    const char *extra[] = { "--spool", T.spool, "--spool-interval", "50",
                            "--web", T.web, "--rate-limit", "0",
                            "--write-rate-limit", "0", NULL };
    assert_true(daemon_start(&T.d, T.db, extra));
    assert_int_equal(total_of(""), before + 1);
    assert_int_equal(total_of("q=late"), 1);
    assert_int_equal(http_do(T.d.port, "GET", path, NULL, NULL, 0, false, &r),
                     200);
    assert_int_equal(r.body.len, T.valid.len);
    assert_memory_equal(r.body.p, T.valid.p, T.valid.len);
    http_resp_release(&r);
    assert_int_equal(total_of("verdict=invalid"), 1);
    buf_release(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_health_and_headers),
        cmocka_unit_test(test_upload_valid_and_duplicate),
        cmocka_unit_test(test_upload_multipart),
        cmocka_unit_test(test_upload_invalid),
        cmocka_unit_test(test_upload_malformed),
        cmocka_unit_test(test_upload_unsupported),
        cmocka_unit_test(test_upload_oversized),
        cmocka_unit_test(test_list_filters),
        cmocka_unit_test(test_game_endpoints),
        cmocka_unit_test(test_players_and_stats),
        cmocka_unit_test(test_metrics),
        cmocka_unit_test(test_expansion_game),
        cmocka_unit_test(test_unsupported_after_reaudit),
        cmocka_unit_test(test_static_files),
        cmocka_unit_test(test_spool),
        cmocka_unit_test(test_live),
        cmocka_unit_test(test_live_turns),
        cmocka_unit_test(test_parallel_uploads),
        cmocka_unit_test(test_token),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_sigterm_and_restart),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
