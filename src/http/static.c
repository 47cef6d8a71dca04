/* static.c - the dashboard: the copy of web/ built into the binary
 * (embed_web.cmake), or the files of --web DIR, through one code path. A
 * source only finds a file by its URL path; the rest (the path check,
 * index.html for "/", the router's fallback, types, validators, caching)
 * is the same for both.
 *
 * Paths. The decoded path is refused when a segment starts with a dot
 * (so ".", ".." and hidden files) or it holds a backslash. In DIR, the
 * file's real path (symbolic links resolved) must still lie inside the
 * real path of DIR, so "/../", "%2e%2e" and links out of DIR all end in
 * 404; the table built in holds web/'s own names and nothing else. A
 * missing path whose last segment has no dot (/games/12, /stats) is a
 * page of the dashboard's client-side router: it gets index.html. Files
 * of DIR are read whole; they are small.
 *
 * Validators. Every file has a strong ETag, the SHA-256 of its bytes
 * (computed at build time for the table; per request for DIR, whose
 * files are read whole anyway and hash at over a GB/s), and a request
 * whose If-None-Match lists it gets a 304 without a body. The same bytes
 * have the same ETag from either source.
 *
 * Caching. The dashboard's modules are loaded by fixed names (app.js
 * imports './router.js'), not by names that change with their content. A
 * max-age on them would let a browser run a new app.js against a cached
 * old router.js after an upgrade, broken until the age ran out. So every
 * file is "Cache-Control: no-cache": kept, but revalidated before each
 * use, which costs one conditional request per file, answered by a
 * bodiless 304. Only a file whose name carries its own content hash (a
 * dot-separated part of 8 to 64 hex digits that begins its SHA-256, as in
 * app.3f2a9c1d.js) is kept for a year unasked: new bytes would come under
 * a new name. index.html and the router's fallback are never that. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "http/http_int.h"
#include "util/sha256.h"

#define STATIC_MAX_BYTES (8u << 20)

static const struct {
    const char *ext, *type;
} types[] = {
    { ".html", "text/html; charset=utf-8" },
    { ".css", "text/css; charset=utf-8" },
    { ".js", "text/javascript; charset=utf-8" },
    { ".mjs", "text/javascript; charset=utf-8" },
    { ".json", "application/json" },
    { ".svg", "image/svg+xml" },
    { ".png", "image/png" },
    { ".jpg", "image/jpeg" },
    { ".ico", "image/x-icon" },
    { ".txt", "text/plain; charset=utf-8" },
    { ".woff2", "font/woff2" },
};

static const char *content_type(const char *path)
{
    size_t n = strlen(path);
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        size_t k = strlen(types[i].ext);
        if (n >= k && strcmp(path + n - k, types[i].ext) == 0)
            return types[i].type;
    }
    return "application/octet-stream";
}

/* No segment starting with a dot, no backslash. */
static bool safe_path(const char *p)
{
    if (p[0] != '/' || strchr(p, '\\'))
        return false;
    for (const char *s = p; *s; s++)
        if (s[0] == '/' && s[1] == '.')
            return false;
    return true;
}

static bool read_file(const char *path, struct buf *out)
{
    FILE *f = fopen(path, "rb");
    char chunk[16384];
    size_t n;
    bool ok = true;
    if (!f)
        return false;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        buf_append(out, chunk, n);
        if (out->len > STATIC_MAX_BYTES) {
            ok = false;
            break;
        }
    }
    if (ferror(f))
        ok = false;
    fclose(f);
    return ok;
}

/* What a source found for a path. */
enum found {
    FOUND,
    MISSING, /* no such file: a router page may fall back to index.html */
    REFUSED, /* outside DIR, or not to be served: 404, no fallback */
    FAILED   /* there, but unreadable: 500 */
};

/* One file to answer with, from either source. */
struct static_file {
    const char *data; /* len bytes: the table's, or owned's */
    size_t len;
    const char *sha256; /* hex */
    char sha_buf[SHA256_HEX_LEN];
    struct buf owned; /* bytes read from DIR */
};

static enum found find_built_in(const char *path, struct static_file *f)
{
    for (size_t i = 0; i < web_n_assets; i++) {
        if (strcmp(web_assets[i].path, path) != 0)
            continue;
        f->data = (const char *)web_assets[i].data;
        f->len = web_assets[i].len;
        f->sha256 = web_assets[i].sha256;
        return FOUND;
    }
    return MISSING;
}

static enum found find_in_dir(const char *root, const char *path,
                              struct static_file *f)
{
    struct buf full = BUF_INIT;
    struct stat sb;
    enum found res = FOUND;
    size_t rl = strlen(root);

    buf_printf(&full, "%s%s", root, path);
    char *real = realpath(full.p, NULL);
    if (!real)
        res = errno == ENOENT || errno == ENOTDIR ? MISSING : REFUSED;
    else if (strncmp(real, root, rl) != 0 || real[rl] != '/')
        res = REFUSED;
    else if (stat(real, &sb) != 0 || !S_ISREG(sb.st_mode))
        res = MISSING; /* a folder: as in the table, a router page */
    else if (!read_file(real, &f->owned))
        res = FAILED;
    if (res == FOUND) {
        f->data = f->owned.p ? f->owned.p : "";
        f->len = f->owned.len;
        sha256_hex(f->data, f->len, f->sha_buf);
        f->sha256 = f->sha_buf;
    }
    free(real);
    buf_release(&full);
    return res;
}

/* Is path one of the dashboard's own files, not the router's page? A
 * page load revalidates each of its modules (some sixty, a bodiless 304
 * each: see "Caching" above), which the rate limit does not count: a
 * reader who opens four pages in a second is no flood. */
bool static_is_file(const struct server *s, const char *path)
{
    if (!s->web_root) {
        for (size_t i = 0; i < web_n_assets; i++)
            if (strcmp(web_assets[i].path, path) == 0)
                return true;
        return false;
    }
    struct buf full = BUF_INIT;
    struct stat sb;
    buf_printf(&full, "%s%s", s->web_root, path);
    char *real = realpath(full.p, NULL);
    size_t rl = strlen(s->web_root);
    bool file = real && strncmp(real, s->web_root, rl) == 0 &&
                real[rl] == '/' && stat(real, &sb) == 0 &&
                S_ISREG(sb.st_mode);
    free(real);
    buf_release(&full);
    return file;
}

static enum found find(struct request *r, const char *path,
                       struct static_file *f)
{
    buf_release(&f->owned);
    if (r->srv->web_root)
        return find_in_dir(r->srv->web_root, path, f);
    return find_built_in(path, f);
}

/* Does a dot-separated part of the file name, not its extension, hold 8
 * to 64 hex digits that begin sha (the file's own hash)? */
static bool named_by_hash(const char *path, const char *sha)
{
    const char *s = strrchr(path, '/');
    for (s = s ? s + 1 : path;;) {
        const char *dot = strchr(s, '.');
        if (!dot)
            return false; /* s is the extension */
        size_t n = (size_t)(dot - s);
        if (n >= 8 && n <= 64 && strspn(s, "0123456789abcdef") == n &&
            strncmp(s, sha, n) == 0)
            return true;
        s = dot + 1;
    }
}

/* Does an If-None-Match value list etag (weak comparison, as RFC 9110
 * asks for this header: W/ is ignored), or is it "*"? */
static bool etag_listed(const char *header, const char *etag)
{
    size_t n = strlen(etag);
    const char *p = header;
    while (*p) {
        while (*p == ' ' || *p == '\t' || *p == ',')
            p++;
        if (*p == '*')
            return true;
        if (strncmp(p, "W/", 2) == 0)
            p += 2;
        if (strncmp(p, etag, n) == 0 &&
            strchr(" \t,", p[n])) /* the NUL too */
            return true;
        if (*p == '"') { /* past the quoted tag, commas and all */
            const char *q = strchr(p + 1, '"');
            if (!q)
                return false;
            p = q + 1;
        }
        while (*p && *p != ',')
            p++;
    }
    return false;
}

/* Answers with f as the file at path; page: the router's fallback. */
static void reply_file(struct request *r, const char *path,
                       struct static_file *f, bool page)
{
    char *etag = ra_alloc(&r->arena, SHA256_HEX_LEN + 2);
    snprintf(etag, SHA256_HEX_LEN + 2, "\"%s\"", f->sha256);
    bool forever = !page && strcmp(path, "/index.html") != 0 &&
                   named_by_hash(path, f->sha256);
    req_add_header(r, "ETag", etag);
    req_add_header(r, "Cache-Control", forever
                                           ? "public, max-age=31536000, "
                                             "immutable"
                                           : "no-cache");
    r->ctype = content_type(path);
    buf_release(&r->out);
    const char *inm = req_header(r, "If-None-Match");
    if (inm && etag_listed(inm, etag)) {
        r->status = 304; /* no body: the client has these bytes */
        return;
    }
    r->status = 200;
    if (f->owned.p) {
        r->out = f->owned;
        f->owned = (struct buf)BUF_INIT;
    } else {
        buf_append(&r->out, f->data, f->len);
    }
}

void h_static(struct request *r)
{
    const char *path = r->path;
    struct static_file f;
    bool page = false;

    memset(&f, 0, sizeof f);
    if (!safe_path(path)) {
        reply_error(r, 404, "no such file");
        return;
    }
    size_t n = strlen(path);
    if (path[n - 1] == '/') { /* a folder: its index.html */
        char *p = ra_alloc(&r->arena, n + sizeof "index.html");
        memcpy(p, path, n);
        memcpy(p + n, "index.html", sizeof "index.html");
        path = p;
    }
    enum found res = find(r, path, &f);
    if (res == MISSING && !strchr(strrchr(r->path, '/'), '.')) {
        path = "/index.html";
        page = true;
        res = find(r, path, &f);
    }
    if (res == FOUND)
        reply_file(r, path, &f, page);
    else if (res == FAILED)
        reply_error(r, 500, "cannot read the file");
    else
        reply_error(r, 404, "no such file");
    buf_release(&f.owned);
}
