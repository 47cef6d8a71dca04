/* export_cmd.c - `flierd export --db PATH OUT`: every stored upload as
 * the file it was (the bytes as uploaded) and OUT/index.ndjson, so that
 * the data can leave flierd at any time; `flierd ingest OUT` brings it
 * back (the same games, and under the same engine the same verdicts).
 *
 * Files. A game uploaded with a name keeps its name's last segment
 * ("samples/c2-2p.jcz" gives c2-2p.jcz), with the format's extension
 * added when it lacks it (ingest reads a folder's *.jcz and *.flierlog
 * only). One without a name, or whose name is no safe file name (empty,
 * starting with a dot, with control characters, not UTF-8, over 200
 * bytes), is ID.jcz or ID.flierlog. A name taken already (two uploads
 * called game.jcz) gets the id in front: 12-game.jcz. Files are created,
 * never overwritten: OUT must be new or empty.
 *
 * OUT/index.ndjson, one line per game in id order:
 *   {"id": 12, "file": "12-game.jcz", "name": "game.jcz", "sha256": "..",
 *    "format": "jcz", "status": "audited", "verdict": "invalid",
 *    "source": "http", "uploaded_at": 1767225600, "live": false}
 * name is the name as stored (null: none); status "audited" or
 * "unsupported" (verdict null then). The index is written under a
 * hidden name and renamed at the end: an export that has its
 * index.ndjson is complete. ingest skips it.
 *
 * Opens the database read-only and reads one snapshot, so it may run
 * beside the daemon. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cli_int.h"
#include "cli/progress.h"
#include "store/store.h"

#define EXPORT_NAME_MAX 200 /* bytes; room for "ID-" and ".flierlog" */

struct export_run {
    const char *dir;
    FILE *index;
    struct progress prog;
    size_t n, valid, invalid, unsupported;
    enum status st; /* the first failure, with e */
    struct err e;
};

static bool safe_name(const char *n)
{
    size_t len = strlen(n);
    if (len == 0 || len > EXPORT_NAME_MAX || n[0] == '.')
        return false;
    for (const unsigned char *p = (const unsigned char *)n; *p; p++)
        if (*p < 0x20 || *p == 0x7f)
            return false;
    return buf_is_utf8(n);
}

static bool ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), k = strlen(tail);
    return n >= k && strcmp(s + n - k, tail) == 0;
}

/* The file name of u (see the top of the file); prefixed: "ID-" first. */
static void file_name(const struct stored_upload *u, bool prefixed,
                      struct buf *out)
{
    const char *ext =
        strcmp(u->format, "flierlog") == 0 ? ".flierlog" : ".jcz";
    const char *base = u->name;
    for (const char *p = base; p && *p; p++)
        if (*p == '/' || *p == '\\') /* a path, also from Windows */
            base = p + 1;
    out->len = 0;
    buf_puts(out, ""); /* out->p is a string even if nothing follows */
    if (prefixed)
        buf_printf(out, "%lld-", (long long)u->id);
    if (!base || !safe_name(base)) {
        buf_printf(out, "%lld%s", (long long)u->id, ext);
        return;
    }
    buf_puts(out, base);
    if (!ends_with(base, ext))
        buf_puts(out, ext);
}

/* Creates OUT/name with the bytes of u, never replacing a file; tries the
 * prefixed name when the plain one is taken. */
static enum status write_upload(struct export_run *x,
                                const struct stored_upload *u,
                                struct buf *name, struct err *e)
{
    struct buf path = BUF_INIT;
    enum status st = ST_OK;
    int fd = -1;
    for (int prefixed = 0; prefixed < 2 && fd < 0; prefixed++) {
        file_name(u, prefixed, name);
        path.len = 0;
        buf_printf(&path, "%s/%s", x->dir, name->p);
        fd = open(path.p, O_WRONLY | O_CREAT | O_EXCL, 0644);
        if (fd < 0 && (errno != EEXIST || prefixed)) {
            st = err_set(e, ST_IO, "%s: %s", path.p, strerror(errno));
            goto out;
        }
    }
    FILE *f = fdopen(fd, "wb");
    if (!f) {
        st = err_set(e, ST_IO, "%s: %s", path.p, strerror(errno));
        close(fd);
        goto out;
    }
    bool ok = fwrite(u->raw ? u->raw : "", 1, u->raw_len, f) == u->raw_len;
    if (fclose(f) != 0 || !ok)
        st = err_set(e, ST_IO, "%s: %s", path.p, strerror(errno));
out:
    buf_release(&path);
    return st;
}

static void index_line(FILE *f, const struct stored_upload *u,
                       const char *file)
{
    struct buf b = BUF_INIT;
    const char *verdict = u->verdict == VERDICT_VALID     ? "\"valid\""
                          : u->verdict == VERDICT_INVALID ? "\"invalid\""
                                                          : "null";
    buf_printf(&b, "{\"id\": %lld, \"file\": ", (long long)u->id);
    buf_json_string(&b, file);
    buf_puts(&b, ", \"name\": ");
    if (u->name)
        buf_json_string(&b, u->name);
    else
        buf_puts(&b, "null");
    buf_printf(&b, ", \"sha256\": \"%s\", \"format\": \"%s\", \"status\": "
               "\"%s\", \"verdict\": %s, \"source\": \"%s\", "
               "\"uploaded_at\": %lld, \"live\": %s}\n", u->sha256, u->format,
               u->verdict == VERDICT_UNSUPPORTED ? "unsupported" : "audited",
               verdict, u->source, (long long)u->uploaded_at,
               u->live ? "true" : "false");
    fwrite(b.p, 1, b.len, f);
    buf_release(&b);
}

static int export_one(void *ctx, const struct stored_upload *u)
{
    struct export_run *x = ctx;
    struct buf name = BUF_INIT;
    if (u->index == 0)
        progress_set_total(&x->prog, u->n_games);
    x->st = write_upload(x, u, &name, &x->e);
    if (x->st == ST_OK) {
        index_line(x->index, u, name.p);
        x->n++;
        x->valid += u->verdict == VERDICT_VALID;
        x->invalid += u->verdict == VERDICT_INVALID;
        x->unsupported += u->verdict == VERDICT_UNSUPPORTED;
    }
    buf_release(&name);
    progress_update(&x->prog, u->index + 1, progress_clock());
    return x->st != ST_OK;
}

/* OUT is created, or must be an empty folder. */
static bool prepare_dir(const char *dir, FILE *errs)
{
    if (mkdir(dir, 0755) == 0)
        return true;
    if (errno != EEXIST) {
        fprintf(errs, "flierd export: %s: %s\n", dir, strerror(errno));
        return false;
    }
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(errs, "flierd export: %s: %s\n", dir,
                errno == ENOTDIR ? "exists and is not a folder"
                                 : strerror(errno));
        return false;
    }
    struct dirent *de;
    bool empty = true;
    while (empty && (de = readdir(d)) != NULL)
        empty = strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0;
    closedir(d);
    if (!empty)
        fprintf(errs, "flierd export: %s is not empty: export into a new "
                "or empty folder\n", dir);
    return empty;
}

static void usage(FILE *f)
{
    fputs("usage: flierd export [--db PATH] [--quiet] OUT\n"
          "  Writes every game of the database (default flierd.db) into\n"
          "  the folder OUT (created; or empty) as the file it was\n"
          "  uploaded as, byte for byte: under its own name when it had\n"
          "  one (ID-NAME when two share it), else ID.jcz or ID.flierlog;\n"
          "  and OUT/index.ndjson, a line per game: id, file, name,\n"
          "  sha256, format, status, verdict, source, uploaded_at, live.\n"
          "  Reads one snapshot, so it may run beside the daemon.\n"
          "  'flierd ingest --db NEW.db OUT' stores the games again (it\n"
          "  skips index.ndjson); this engine gives them the same verdicts.\n"
          "  --quiet  no progress display (there is none when stderr is\n"
          "           not a terminal)\n"
          "exit status: 0 exported, 2 a bad argument, OUT not empty, the\n"
          "  database unreadable or a file not written (named)\n", f);
}

/* Returns -1 to go on, else an exit status. */
static int parse_args(int argc, char **argv, const char **db,
                      const char **dir, bool *quiet, FILE *out, FILE *errs)
{
    const struct cli_opt opts[] = { { "--db", db, NULL },
                                    { "--quiet", NULL, quiet },
                                    { NULL, NULL, NULL } };
    int n = 0;
    const struct cli_args args = {
        .cmd = "export", .opts = opts, .usage = usage, .operands = dir,
        .min_operands = 1, .max_operands = 1, .n_operands = &n,
        .operand = "OUT folder"
    };
    return cli_parse(&args, argc, argv, out, errs);
}

/* Closes the index under its hidden name and gives it its own. */
static bool finish_index(struct export_run *x, const char *tmp, FILE *errs)
{
    struct buf final = BUF_INIT;
    bool ok = true;
    if (fclose(x->index) != 0) {
        fprintf(errs, "flierd export: %s: %s\n", tmp, strerror(errno));
        ok = false;
    }
    x->index = NULL;
    buf_printf(&final, "%s/index.ndjson", x->dir);
    if (ok && rename(tmp, final.p) != 0) {
        fprintf(errs, "flierd export: %s: %s\n", final.p, strerror(errno));
        ok = false;
    }
    buf_release(&final);
    return ok;
}

int cli_export(int argc, char **argv, FILE *out, FILE *errs)
{
    const char *db = "flierd.db", *dir = NULL;
    bool quiet = false;
    struct store *s = NULL;
    struct export_run x;
    struct buf tmp = BUF_INIT;
    int rc = parse_args(argc, argv, &db, &dir, &quiet, out, errs);
    if (rc >= 0)
        return rc;
    memset(&x, 0, sizeof x);
    x.dir = dir;
    err_clear(&x.e);
    if (store_open(db, true, &s, &x.e) != ST_OK) {
        bool named = strncmp(x.e.msg, db, strlen(db)) == 0;
        fprintf(errs, "flierd export: %s%s%s\n", named ? "" : db,
                named ? "" : ": ", x.e.msg);
        return 2;
    }
    rc = 2;
    if (!prepare_dir(dir, errs))
        goto out;
    buf_printf(&tmp, "%s/.index.ndjson.tmp", dir);
    x.index = fopen(tmp.p, "wx");
    if (!x.index) {
        fprintf(errs, "flierd export: %s: %s\n", tmp.p, strerror(errno));
        goto out;
    }
    progress_start(&x.prog, progress_stream(errs, quiet), "games", 0,
                   progress_clock());
    enum status st = store_each_upload(s, export_one, &x, &x.e);
    progress_end(&x.prog);
    if (st != ST_OK || x.st != ST_OK) { /* a write's message names its file */
        fprintf(errs, "flierd export: %s%s%s; %s is incomplete (it has no "
                "index.ndjson)\n", x.st != ST_OK ? "" : db,
                x.st != ST_OK ? "" : ": ", x.e.msg, dir);
        goto out;
    }
    if (!finish_index(&x, tmp.p, errs))
        goto out;
    fprintf(out, "exported %zu games to %s (%zu valid, %zu invalid, %zu "
            "unsupported), index %s/index.ndjson\n", x.n, dir, x.valid,
            x.invalid, x.unsupported, dir);
    rc = 0;
out:
    if (x.index)
        fclose(x.index);
    store_close(s);
    buf_release(&tmp);
    return rc;
}
