/* test_hostile_logs.c - hostile logs against the real daemon and the CLI.
 *
 * Each case of the readers' unit tables (tests/unit/test_jcz.c,
 * test_flierlog.c) once more over HTTP: the upload is refused with its
 * status and a message naming the byte offset or the field, nothing is
 * stored, and the daemon keeps serving. A name with markup is stored as
 * written and comes back JSON-escaped. The CLI refuses a file over its
 * cap and reports a hostile one as a malformed input (exit status 2). */
#include <stdarg.h> /* cmocka 1.1.5 needs these four first */
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "daemon.h"
#include "http_client.h"
#include "test_files.h"
#include "mlog/mlog.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

static struct {
    char dir[64];
    char db[128];
    struct daemon d;
} T;

/* ---- hostile saves ------------------------------------------------------ */

#define HEAD "{\"setup\":{\"sets\":{\"basic:1\":1,\"flier:1\":1}},"
#define PLAYERS "\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"}],"
#define PASS "{\"type\":\"PASS\",\"payload\":{}}"
#define PLACE_AT(pos)                                                      \
    "{\"type\":\"PLACE_TILE\",\"payload\":{\"tileId\":\"BA/RFr\","         \
    "\"rotation\":\"R0\",\"position\":" pos "}}"
#define FLY(rnd)                                                           \
    "{\"type\":\"DEPLOY_MEEPLE\",\"payload\":{\"pointer\":{\"position\":"  \
    "[1,0],\"feature\":\"FlyingMachine\",\"location\":\"I\"},"             \
    "\"meepleId\":\"0.small.1\",\"random\":" rnd "}}"
#define SAVE(players, replay) HEAD players "\"replay\":[" replay "]}"
/* One player of that name; it starts at byte offset 64. */
#define NAMED(name) SAVE("\"players\":[{\"name\":\"" name "\"}],", "")
/* "type" twice: the second at byte offset 124 */
#define DUP_SAVE                                                           \
    SAVE(PLAYERS, "{\"type\":\"PASS\",\"payload\":{},\"type\":\"COMMIT\"}")

/* One upload: the body (text, or built by make), the status and what the
 * message must say. */
struct up_case {
    const char *what;
    const char *body;
    void (*make)(struct buf *b);
    int status;
    const char *has[2];
};

/* 10001 messages: under the 1 MiB body cap, over the message cap. */
static void many_moves(struct buf *b)
{
    buf_puts(b, HEAD PLAYERS "\"replay\":[" PASS);
    for (int i = 1; i <= MLOG_MAX_ITEMS; i++)
        buf_puts(b, "," PASS);
    buf_puts(b, "]}");
}

/* A million messages: refused by the body cap before it is read. */
static void million_moves(struct buf *b)
{
    buf_puts(b, HEAD PLAYERS "\"replay\":[" PASS);
    for (int i = 1; i < 1000000; i++)
        buf_puts(b, "," PASS);
    buf_puts(b, "]}");
}

/* Arrays in arrays, 100000 deep, inside a key the reader ignores: the
 * first bracket at byte offset 105, the 65th level at 168. */
static void deep(struct buf *b)
{
    buf_puts(b, HEAD PLAYERS "\"replay\":[],\"junk\":");
    for (int i = 0; i < 100000; i++)
        buf_append(b, "[", 1);
    for (int i = 0; i < 100000; i++)
        buf_append(b, "]", 1);
    buf_puts(b, "}");
}

/* Offsets: the players' array starts at byte 44, a first name at 64. */
static const struct up_case up_cases[] = {
    { "deep nesting", NULL, deep, 400,
      { "JSON nested deeper than 64 levels at byte offset 168", NULL } },
    { "a million moves", NULL, million_moves, 413,
      { "over the cap of 1048576", NULL } },
    { "10001 moves", NULL, many_moves, 413,
      { "more than 10000 items in \"replay\"", "a few hundred messages" } },
    { "NaN", SAVE(PLAYERS, FLY("NaN")), NULL, 400,
      { "not valid JSON at byte offset", "NaN and Infinity are not JSON" } },
    { "Infinity", SAVE(PLAYERS, PLACE_AT("[-Infinity,0]")), NULL, 400,
      { "NaN and Infinity are not JSON", NULL } },
    { "1e999", SAVE(PLAYERS, PLACE_AT("[1e999,0]")), NULL, 400,
      { "replay[0].payload.position[0]: expected an integer", "not inf" } },
    { "-1e400", SAVE(PLAYERS, PLACE_AT("[0,-1e400]")), NULL, 400,
      { "replay[0].payload.position[1]", "not -inf" } },
    { "1e20", SAVE(PLAYERS, FLY("1e20")), NULL, 400,
      { "replay[0].payload.random: 1e+20 is no die's random number", NULL } },
    { "2^53+1", SAVE(PLAYERS, PLACE_AT("[9007199254740993,0]")), NULL, 400,
      { "replay[0].payload.position[0]", "not 9007199254740992" } },
    { "a fraction", SAVE(PLAYERS, PASS ",{\"type\":\"PASS\",\"payload\":{},"
                                       "\"player\":0.5}"), NULL,
      400, { "replay[1].player: expected a seat number", NULL } },
    { "duplicate key", DUP_SAVE, NULL, 400,
      { "duplicate key \"type\" at byte offset 124", "disagree" } },
    { "escaped duplicate key",
      SAVE("\"players\":[{\"name\":\"Ann\",\"n\\u0061me\":\"Eve\"}],", ""),
      NULL, 400, { "duplicate key \"name\" at byte offset 69", NULL } },
    { "invalid UTF-8", NAMED("A\xff"), NULL, 400,
      { "invalid UTF-8 (byte 0xFF) at byte offset 65", NULL } },
    { "overlong UTF-8", NAMED("\xc0\xbc"), NULL, 400,
      { "at byte offset 64", "overlong" } },
    { "UTF-8 surrogate", NAMED("\xed\xa0\x80"), NULL, 400,
      { "at byte offset 64", "surrogate" } },
    { "lone surrogate escape", NAMED("\\udc00"), NULL, 400,
      { "lone UTF-16 surrogate escape at byte offset 64", NULL } },
    { "NUL escape", NAMED("A\\u0000B"), NULL, 400,
      { "\\u0000 in a string at byte offset 65", NULL } },
};

/* ---- helpers ------------------------------------------------------------ */

static int upload(const char *body, size_t len, struct http_resp *r)
{
    return http_do(T.d.port, "POST", "/api/games?name=hostile", NULL, body,
                   len, false, r);
}

static cJSON *get_json(const char *path)
{
    struct http_resp r;
    assert_int_equal(http_do(T.d.port, "GET", path, NULL, NULL, 0, false,
                             &r), 200);
    cJSON *j = cJSON_ParseWithLength(r.body.p, r.body.len);
    if (!j)
        fail_msg("GET %s: not JSON: %.200s", path, r.body.p);
    http_resp_release(&r);
    return j;
}

static int total_games(void)
{
    cJSON *j = get_json("/api/games");
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(j, "total");
    assert_true(cJSON_IsNumber(t));
    int n = (int)t->valuedouble;
    cJSON_Delete(j);
    return n;
}

static void expect_serving(void)
{
    struct http_resp r;
    assert_int_equal(http_do(T.d.port, "GET", "/healthz", NULL, NULL, 0,
                             false, &r), 200);
    http_resp_release(&r);
}

/* The "error" of a JSON error body, which must name what has[] says. */
static void expect_error(const char *what, const struct http_resp *r,
                         int status, const char *const has[2])
{
    if (r->status != status)
        fail_msg("%s: status %d, expected %d: %.300s", what, r->status,
                 status, r->body.p ? r->body.p : "");
    cJSON *j = cJSON_ParseWithLength(r->body.p, r->body.len);
    const cJSON *err = cJSON_GetObjectItemCaseSensitive(j, "error");
    if (!cJSON_IsString(err))
        fail_msg("%s: no {\"error\"}: %.300s", what, r->body.p);
    for (int k = 0; k < 2 && has[k]; k++)
        if (!strstr(err->valuestring, has[k]))
            fail_msg("%s: '%s' lacks '%s'", what, err->valuestring, has[k]);
    cJSON_Delete(j);
}

/* ---- fixture ------------------------------------------------------------ */

static int setup(void **state)
{
    (void)state;
    snprintf(T.dir, sizeof T.dir, "/tmp/flierd-hostile-logs-XXXXXX");
    if (!mkdtemp(T.dir))
        return -1;
    snprintf(T.db, sizeof T.db, "%s/games.db", T.dir);
    /* many uploads in a row: no rate limit in the way */
    const char *extra[] = { "--rate-limit", "0", "--write-rate-limit", "0",
                            NULL };
    return daemon_start(&T.d, T.db, extra) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    int rc = T.d.pid > 0 ? daemon_stop(&T.d) : 0;
    static const char *const files[] = { "games.db", "games.db-wal",
                                         "games.db-shm", "big.jcz",
                                         "bad.jcz", "out.txt" };
    for (size_t i = 0; i < N_OF(files); i++) {
        char p[192];
        snprintf(p, sizeof p, "%s/%s", T.dir, files[i]);
        unlink(p);
    }
    rmdir(T.dir);
    return rc == 0 ? 0 : -1;
}

/* ---- uploads ------------------------------------------------------------ */

static void test_hostile_uploads(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_OF(up_cases); i++) {
        const struct up_case *c = &up_cases[i];
        struct buf b = BUF_INIT;
        struct http_resp r;
        if (c->make)
            c->make(&b);
        else
            buf_puts(&b, c->body);
        upload(b.p, b.len, &r);
        expect_error(c->what, &r, c->status, c->has);
        http_resp_release(&r);
        buf_release(&b);
        expect_serving();
    }
    assert_int_equal(total_games(), 0); /* nothing half-stored */
}

/* ---- markup in names ---------------------------------------------------- */

#define SCRIPT "<script>alert(\"x\")</script>"
#define SCRIPT_JSON "<script>alert(\\\"x\\\")</script>"
#define IMG "<img src=x onerror=alert(1)>"

/* GET path: 200, JSON, and the name there escaped as JSON wants it. */
static void expect_name_escaped(const char *path)
{
    struct http_resp r;
    char v[128];
    assert_int_equal(http_do(T.d.port, "GET", path, NULL, NULL, 0, false,
                             &r), 200);
    assert_true(http_header(&r, "Content-Type", v, sizeof v));
    assert_non_null(strstr(v, "application/json"));
    assert_true(http_header(&r, "X-Content-Type-Options", v, sizeof v));
    assert_string_equal(v, "nosniff");
    if (!strstr(r.body.p, "\"" SCRIPT_JSON "\"") ||
        !strstr(r.body.p, "\"" IMG "\""))
        fail_msg("GET %s: the names are not there as JSON strings: %.400s",
                 path, r.body.p);
    cJSON *j = cJSON_ParseWithLength(r.body.p, r.body.len);
    assert_non_null(j);
    cJSON_Delete(j);
    http_resp_release(&r);
}

/* Stored as written (the raw bytes come back unchanged), shown as JSON
 * strings by every read that names players. */
static void test_markup_names(void **state)
{
    static const char body[] = SAVE("\"players\":[{\"name\":\"" SCRIPT_JSON
                                    "\"},{\"name\":\"" IMG "\"}],",
                                    "");
    struct http_resp r;
    char path[96];
    (void)state;
    assert_int_equal(upload(body, strlen(body), &r), 201);
    cJSON *j = cJSON_ParseWithLength(r.body.p, r.body.len);
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(j, "id");
    assert_true(cJSON_IsNumber(id));
    long long game = (long long)id->valuedouble;
    cJSON_Delete(j);
    http_resp_release(&r);

    snprintf(path, sizeof path, "/api/games/%lld", game);
    expect_name_escaped(path);
    j = get_json(path);
    const cJSON *p0 = cJSON_GetArrayItem(
        cJSON_GetObjectItemCaseSensitive(j, "players"), 0);
    assert_string_equal(
        cJSON_GetObjectItemCaseSensitive(p0, "name")->valuestring, SCRIPT);
    cJSON_Delete(j);
    snprintf(path, sizeof path, "/api/games/%lld/replay", game);
    expect_name_escaped(path);
    expect_name_escaped("/api/games");
    expect_name_escaped("/api/players");
    expect_name_escaped("/api/games?player=%3Cscript%3Ealert(%22x%22)"
                        "%3C%2Fscript%3E");

    snprintf(path, sizeof path, "/api/games/%lld/raw", game);
    assert_int_equal(http_do(T.d.port, "GET", path, NULL, NULL, 0, false,
                             &r), 200);
    assert_int_equal(r.body.len, strlen(body));
    assert_memory_equal(r.body.p, body, strlen(body));
    http_resp_release(&r);
}

/* ---- live games --------------------------------------------------------- */

#define LIVE_HEAD "{\"format\": \"flierlog/1\", \"edition\": \"C2\", "    \
                  "\"players\": [{\"name\": \"Liv\"}, {\"name\": \"Max\"}]}"

static const struct {
    const char *what;
    const char *move;
    int status;
    const char *has[2];
} live_cases[] = {
    { "1e999", "{\"tile\": \"BA/RFr\", \"at\": [1, 1e999]}", 400,
      { "line 2: turns[0].at[1]: expected an integer", "not inf" } },
    { "duplicate key", "{\"tile\": \"BA/RFr\", \"at\": [1, 0], \"at\": [2, 0]}",
      400, { "duplicate key \"at\"", "(line 2, column 34)" } },
    { "invalid UTF-8", "{\"tile\": \"BA/RFr\", \"at\": [1, 0], \"note\": "
                       "\"\xe2\x82\"}", 400,
      { "invalid UTF-8 (byte 0xE2)", "cut short" } },
    { "NaN", "{\"tile\": \"BA/RFr\", \"at\": [1, 0], \"fly\": {\"roll\": 1, "
             "\"random\": NaN}}", 400,
      { "NaN and Infinity are not JSON", NULL } },
};

/* The live API reads the same way: a bad move is refused and not
 * recorded, the game goes on. */
static void test_live_hostile(void **state)
{
    struct http_resp r;
    char path[96];
    (void)state;
    static const char dup_head[] = "{\"format\": \"flierlog/1\", \"edition\": "
                                   "\"C2\", \"edition\": \"C3\", \"players\": "
                                   "[{\"name\": \"A\"}]}";
    static const char *const dup_has[2] = { "duplicate key \"edition\"",
                                            NULL };
    http_do(T.d.port, "POST", "/api/live", NULL, dup_head, strlen(dup_head),
            false, &r);
    expect_error("live setup", &r, 400, dup_has);
    http_resp_release(&r);

    assert_int_equal(http_do(T.d.port, "POST", "/api/live", NULL, LIVE_HEAD,
                             strlen(LIVE_HEAD), false, &r), 201);
    cJSON *j = cJSON_ParseWithLength(r.body.p, r.body.len);
    long long id = (long long)cJSON_GetObjectItemCaseSensitive(j, "id")
                       ->valuedouble;
    cJSON_Delete(j);
    http_resp_release(&r);
    snprintf(path, sizeof path, "/api/live/%lld/moves", id);
    for (size_t i = 0; i < N_OF(live_cases); i++) {
        http_do(T.d.port, "POST", path, NULL, live_cases[i].move,
                strlen(live_cases[i].move), false, &r);
        expect_error(live_cases[i].what, &r, live_cases[i].status,
                     live_cases[i].has);
        http_resp_release(&r);
    }
    static const char ok[] = "{\"tile\": \"BA/RFr\", \"at\": [1, 0]}";
    assert_int_equal(http_do(T.d.port, "POST", path, NULL, ok, strlen(ok),
                             false, &r), 200);
    http_resp_release(&r);
    expect_serving();
}

/* ---- the CLI ------------------------------------------------------------ */

/* Runs flierd with args (NULL-terminated), stdout and stderr into
 * out.txt; returns the exit status and the output in out. */
static int run_cli(const char *const *args, struct buf *out)
{
    char path[192];
    snprintf(path, sizeof path, "%s/out.txt", T.dir);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
            _exit(127);
        execv(FLIERD_BIN, (char *const *)args);
        _exit(127);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    FILE *f = fopen(path, "rb");
    char chunk[4096];
    size_t n;
    assert_non_null(f);
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        buf_append(out, chunk, n);
    fclose(f);
    assert_true(WIFEXITED(status));
    return WEXITSTATUS(status);
}

/* A file over the cap is refused before it is all read; a hostile one is
 * a malformed input: exit status 2, the file and the offset named. */
static void test_cli_hostile(void **state)
{
    char big[192], bad[192];
    struct buf out = BUF_INIT;
    (void)state;
    snprintf(big, sizeof big, "%s/big.jcz", T.dir);
    size_t len = (size_t)MLOG_MAX_BYTES + 1;
    char *data = malloc(len);
    assert_non_null(data);
    memset(data, ' ', len);
    data[0] = '{';
    tf_write(big, data, len);
    free(data);
    const char *audit_big[] = { FLIERD_BIN, "audit", big, NULL };
    assert_int_equal(run_cli(audit_big, &out), 2);
    if (!strstr(out.p, big) || !strstr(out.p, "larger than the 33554432"))
        fail_msg("flierd audit big.jcz: %s", out.p);
    buf_release(&out);

    snprintf(bad, sizeof bad, "%s/bad.jcz", T.dir);
    tf_write(bad, DUP_SAVE, strlen(DUP_SAVE));
    const char *audit_bad[] = { FLIERD_BIN, "audit", "--json", bad, NULL };
    assert_int_equal(run_cli(audit_bad, &out), 2);
    if (!strstr(out.p, "{\"file\"") ||
        !strstr(out.p, "duplicate key \\\"type\\\" at byte offset 124"))
        fail_msg("flierd audit --json bad.jcz: %s", out.p);
    buf_release(&out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hostile_uploads),
        cmocka_unit_test(test_markup_names),
        cmocka_unit_test(test_live_hostile),
        cmocka_unit_test(test_cli_hostile),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
