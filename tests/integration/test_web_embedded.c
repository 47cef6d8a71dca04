/* test_web_embedded.c - the dashboard built into the binary: the real
 * daemon, without --web, started in an empty folder (so nothing on disk
 * can be what it serves), answers every file of the source tree's web/
 * byte for byte with its type, the router's pages with index.html, a
 * strong ETag (the SHA-256 of the bytes) and If-None-Match with a 304,
 * and no path out of the table. */
#include <stdarg.h> /* cmocka 1.1.5 needs these four first */
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "daemon.h"
#include "http_client.h"
#include "test_files.h"
#include "util/sha256.h"

#define WEB FLIERD_SOURCE_DIR "/web"

static struct {
    char dir[64], cwd[96], db[96];
    struct daemon d;
} T;

static int setup(void **state)
{
    (void)state;
    snprintf(T.dir, sizeof T.dir, "/tmp/flierd-web-XXXXXX");
    if (!mkdtemp(T.dir))
        return -1;
    snprintf(T.cwd, sizeof T.cwd, "%s/elsewhere", T.dir);
    snprintf(T.db, sizeof T.db, "%s/games.db", T.dir);
    mkdir(T.cwd, 0755);
    const char *extra[] = { "--quiet", "--rate-limit", "0", NULL };
    return daemon_start_in(&T.d, T.cwd, T.db, extra) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    int rc = T.d.pid > 0 ? daemon_stop(&T.d) : 0;
    tf_rm_tree(T.dir);
    return rc == 0 ? 0 : -1;
}

/* The ETag the daemon must give a file of web/: its quoted SHA-256. */
static void etag_of(const char *rel, char out[SHA256_HEX_LEN + 2])
{
    struct buf b = BUF_INIT;
    char path[256], hex[SHA256_HEX_LEN];
    snprintf(path, sizeof path, "%s%s", WEB, rel);
    tf_read(path, &b);
    sha256_hex(b.p ? b.p : "", b.len, hex);
    snprintf(out, SHA256_HEX_LEN + 2, "\"%s\"", hex);
    buf_release(&b);
}

/* GET path must be the file rel of web/, with its type and validators. */
static void expect_file(const char *path, const char *rel, const char *type)
{
    struct http_resp r;
    struct buf want = BUF_INIT;
    char file[256], v[256], etag[SHA256_HEX_LEN + 2];
    snprintf(file, sizeof file, "%s%s", WEB, rel);
    tf_read(file, &want);
    etag_of(rel, etag);
    if (http_do(T.d.port, "GET", path, NULL, NULL, 0, false, &r) != 200)
        fprintf(stderr, "GET %s: %d\n", path, r.status);
    assert_int_equal(r.status, 200);
    assert_int_equal(r.body.len, want.len);
    assert_memory_equal(r.body.p, want.p, want.len);
    assert_true(http_header(&r, "ETag", v, sizeof v));
    assert_string_equal(v, etag);
    /* the modules are not named by their content: revalidate each use */
    assert_true(http_header(&r, "Cache-Control", v, sizeof v));
    assert_string_equal(v, "no-cache");
    assert_true(http_header(&r, "Content-Security-Policy", v, sizeof v));
    assert_non_null(strstr(v, "default-src 'self'"));
    assert_true(http_header(&r, "X-Content-Type-Options", v, sizeof v));
    if (type) {
        assert_true(http_header(&r, "Content-Type", v, sizeof v));
        assert_string_equal(v, type);
    }
    http_resp_release(&r);
    buf_release(&want);
}

static void test_pages(void **state)
{
    (void)state;
    expect_file("/", "/index.html", "text/html; charset=utf-8");
    expect_file("/index.html", "/index.html", "text/html; charset=utf-8");
    /* the client-side router's pages */
    expect_file("/games/1", "/index.html", "text/html; charset=utf-8");
    expect_file("/games/1/audit", "/index.html", NULL);
    expect_file("/stats", "/index.html", NULL);
    expect_file("/app.js", "/app.js", "text/javascript; charset=utf-8");
    expect_file("/pages/games.js", "/pages/games.js",
                "text/javascript; charset=utf-8");
    expect_file("/style.css", "/style.css", "text/css; charset=utf-8");
    expect_file("/favicon.svg", "/favicon.svg", "image/svg+xml");
}

/* Every file of web/, whatever it holds: the table is generated from the
 * folder, so a file added there is served without a change of code. */
static int walk(const char *rel)
{
    struct buf dir = BUF_INIT;
    int n = 0;
    buf_printf(&dir, "%s%s", WEB, rel);
    DIR *d = opendir(dir.p);
    assert_non_null(d);
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        struct buf sub = BUF_INIT, path = BUF_INIT;
        struct stat sb;
        if (de->d_name[0] == '.')
            continue;
        buf_printf(&sub, "%s/%s", rel, de->d_name);
        buf_printf(&path, "%s%s", WEB, sub.p);
        assert_int_equal(stat(path.p, &sb), 0);
        if (S_ISDIR(sb.st_mode)) {
            n += walk(sub.p);
        } else {
            expect_file(sub.p, sub.p, NULL);
            n++;
        }
        buf_release(&sub);
        buf_release(&path);
    }
    closedir(d);
    buf_release(&dir);
    return n;
}

static void test_every_file(void **state)
{
    (void)state;
    assert_true(walk("") >= 10);
}

static int get_if(const char *path, const char *inm, struct http_resp *r)
{
    char hdr[600];
    snprintf(hdr, sizeof hdr, "If-None-Match: %s\r\n", inm);
    return http_do(T.d.port, "GET", path, inm ? hdr : NULL, NULL, 0, false,
                   r);
}

static void test_not_modified(void **state)
{
    struct http_resp r;
    char etag[SHA256_HEX_LEN + 2], v[256], list[512];
    (void)state;
    etag_of("/app.js", etag);
    assert_int_equal(get_if("/app.js", etag, &r), 304);
    assert_int_equal(r.body.len, 0);
    assert_true(http_header(&r, "ETag", v, sizeof v));
    assert_string_equal(v, etag);
    assert_true(http_header(&r, "Cache-Control", v, sizeof v));
    assert_string_equal(v, "no-cache");
    assert_true(http_header(&r, "X-Content-Type-Options", v, sizeof v));
    http_resp_release(&r);
    /* a weak comparison, as If-None-Match asks; lists; any */
    snprintf(list, sizeof list, "W/%s", etag);
    assert_int_equal(get_if("/app.js", list, &r), 304);
    http_resp_release(&r);
    snprintf(list, sizeof list, "\"x,y\", %s", etag);
    assert_int_equal(get_if("/app.js", list, &r), 304);
    http_resp_release(&r);
    assert_int_equal(get_if("/app.js", "*", &r), 304);
    http_resp_release(&r);
    /* another file's tag, a changed tag, a prefix of the tag: the file */
    static const char *const stale[] = {
        "\"0000\"", "\"9\"", "W/\"abc\", \"def\"",
    };
    for (size_t i = 0; i < sizeof stale / sizeof *stale; i++) {
        assert_int_equal(get_if("/app.js", stale[i], &r), 200);
        assert_true(r.body.len > 0);
        http_resp_release(&r);
    }
    snprintf(list, sizeof list, "%.20s\"", etag);
    assert_int_equal(get_if("/app.js", list, &r), 200);
    http_resp_release(&r);
    assert_int_equal(get_if("/style.css", etag, &r), 200);
    http_resp_release(&r);
    /* the router's fallback is index.html, validators and all */
    etag_of("/index.html", etag);
    assert_int_equal(get_if("/games/1", etag, &r), 304);
    http_resp_release(&r);
}

static void test_refused(void **state)
{
    struct http_resp r;
    (void)state;
    static const char *const refused[] = {
        "/../etc/passwd",          "/%2e%2e/etc/passwd",
        "/%2E%2E/%2E%2E/etc/passwd", "/pages/../../etc/passwd",
        "/pages/%2e%2e%2f%2e%2e%2fetc%2fpasswd", "/..%5c..%5cetc/passwd",
        "/./index.html",           "/.hidden",
        "/missing.js",             "/pages/missing.js",
        "/etc/passwd.txt",
    };
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        int st = http_do(T.d.port, "GET", refused[i], NULL, NULL, 0, false,
                         &r);
        if (st != 404)
            fprintf(stderr, "GET %s: %d\n", refused[i], st);
        assert_int_equal(st, 404);
        assert_null(strstr(r.body.p ? r.body.p : "", "root:"));
        http_resp_release(&r);
    }
    /* the API keeps its own answers */
    assert_int_equal(http_do(T.d.port, "GET", "/api/nothing", NULL, NULL, 0,
                             false, &r), 404);
    assert_non_null(strstr(r.body.p, "\"error\""));
    http_resp_release(&r);
    assert_int_equal(http_do(T.d.port, "POST", "/app.js", NULL, "x", 1,
                             false, &r), 405);
    http_resp_release(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pages),
        cmocka_unit_test(test_every_file),
        cmocka_unit_test(test_not_modified),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
