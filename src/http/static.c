/* static.c - files of --web DIR (the dashboard). The decoded path is
 * refused when a segment starts with a dot (so ".", ".." and hidden
 * files), and the file's real path (symbolic links resolved) must still lie
 * inside the real path of DIR, so "/../", "%2e%2e" and links out of DIR
 * all end in 404. Files are read whole; they are small. A missing path
 * whose last segment has no dot (/games/12, /stats) is a page of the
 * dashboard's client-side router: it gets DIR/index.html. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "http/http_int.h"

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

void h_static(struct request *r)
{
    const char *root = r->srv->web_root;
    const char *path = r->path;
    struct buf full = BUF_INIT, body = BUF_INIT;
    char *real = NULL;
    struct stat sb;

    if (!safe_path(path)) {
        reply_error(r, 404, "no such file");
        return;
    }
    buf_printf(&full, "%s%s%s", root, path,
               path[strlen(path) - 1] == '/' ? "index.html" : "");
    real = realpath(full.p, NULL);
    if (!real && (errno == ENOENT || errno == ENOTDIR) &&
        !strchr(strrchr(path, '/'), '.')) {
        buf_release(&full);
        buf_printf(&full, "%s/index.html", root);
        real = realpath(full.p, NULL);
    }
    size_t rl = strlen(root);
    if (!real || strncmp(real, root, rl) != 0 || real[rl] != '/' ||
        stat(real, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        reply_error(r, 404, "no such file");
        goto out;
    }
    if (!read_file(real, &body)) {
        reply_error(r, 500, "cannot read the file");
        goto out;
    }
    buf_release(&r->out);
    r->out = body;
    body.p = NULL;
    r->status = 200;
    r->ctype = content_type(real);
    req_add_header(r, "Cache-Control", "no-cache");
out:
    free(real);
    buf_release(&full);
    buf_release(&body);
}
