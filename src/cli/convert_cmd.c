/* convert_cmd.c - `flierd convert`: one game log to another format.
 *
 *   flierd convert --to flierlog|jcz [--ndjson] FILE [-o OUT]
 *
 * Reads FILE ('-': stdin; the format is detected from the content) and
 * writes it as a flierlog (readable, or streaming with --ndjson) or as a
 * .jcz save, on stdout unless -o names a file. Both directions are
 * lossless: reading the output back gives the same game log. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "mlog/mlog.h"

struct convert_args {
    const char *to;     /* "flierlog" or "jcz" */
    bool ndjson;
    const char *file;
    const char *out;    /* NULL: stdout */
};

static void convert_usage(FILE *f)
{
    fputs("usage: flierd convert --to flierlog|jcz [--ndjson] FILE "
          "[-o OUT]\n"
          "  Reads a game log (.jcz or flierlog; '-' reads stdin) and writes\n"
          "  it in the other format, on stdout unless -o names a file.\n"
          "  --ndjson  the flierlog's streaming form (one turn per line)\n"
          "Exit status: 0 converted, 2 unreadable input or bad usage.\n",
          f);
}

/* 0 when args are complete, 1 for --help, 2 on a usage error. */
static int parse_args(int argc, char **argv, struct convert_args *a,
                      FILE *errs)
{
    memset(a, 0, sizeof *a);
    for (int i = 0; i < argc; i++) {
        const char *s = argv[i];
        if (strcmp(s, "--help") == 0 || strcmp(s, "-h") == 0)
            return 1;
        if (strcmp(s, "--ndjson") == 0) {
            a->ndjson = true;
        } else if (strncmp(s, "--to=", 5) == 0) {
            a->to = s + 5;
        } else if ((strcmp(s, "--to") == 0 || strcmp(s, "-o") == 0 ||
                    strcmp(s, "--output") == 0) && i + 1 < argc) {
            if (strcmp(s, "--to") == 0)
                a->to = argv[++i];
            else
                a->out = argv[++i];
        } else if (s[0] == '-' && s[1] != '\0') {
            fprintf(errs, "flierd convert: unknown or incomplete option "
                    "'%s'\n", s);
            return 2;
        } else if (a->file) {
            fprintf(errs, "flierd convert: one FILE at a time\n");
            return 2;
        } else {
            a->file = s;
        }
    }
    if (!a->to || (strcmp(a->to, "flierlog") != 0 &&
                   strcmp(a->to, "jcz") != 0)) {
        fprintf(errs, "flierd convert: --to flierlog or --to jcz is needed\n");
        return 2;
    }
    if (a->ndjson && strcmp(a->to, "flierlog") != 0) {
        fprintf(errs, "flierd convert: --ndjson goes with --to flierlog\n");
        return 2;
    }
    if (!a->file) {
        fprintf(errs, "flierd convert: no FILE given\n");
        return 2;
    }
    return 0;
}

static int write_out(const struct convert_args *a, const struct buf *b,
                     FILE *out, FILE *errs)
{
    FILE *f = a->out ? fopen(a->out, "wb") : out;
    if (!f) {
        fprintf(errs, "flierd convert: %s: cannot open: %s\n", a->out,
                strerror(errno));
        return 2;
    }
    bool ok = fwrite(b->p, 1, b->len, f) == b->len;
    if (a->out)
        ok = fclose(f) == 0 && ok;
    else
        ok = fflush(f) == 0 && ok;
    if (!ok) {
        fprintf(errs, "flierd convert: %s: write error: %s\n",
                a->out ? a->out : "<stdout>", strerror(errno));
        return 2;
    }
    return 0;
}

int cli_convert(int argc, char **argv, FILE *out, FILE *errs)
{
    struct convert_args a;
    struct buf in = BUF_INIT, res = BUF_INIT;
    struct game_log log;
    struct err e;
    enum mlog_format fmt;
    int rc = parse_args(argc, argv, &a, errs);
    if (rc) {
        convert_usage(rc == 1 ? out : errs);
        return rc == 1 ? 0 : 2;
    }
    err_clear(&e);
    game_log_init(&log);
    if (cli_read_input(a.file, &in, &e) != ST_OK ||
        mlog_parse(in.p ? in.p : "", in.len, &log, &fmt, &e) != ST_OK) {
        fprintf(errs, "flierd convert: %s: %s\n", cli_display_name(a.file),
                e.msg);
        rc = 2;
        goto out;
    }
    if (strcmp(a.to, "jcz") == 0)
        mlog_write_jcz(&log, &res);
    else if (a.ndjson)
        mlog_write_flierlog_ndjson(&log, &res);
    else
        mlog_write_flierlog(&log, &res);
    rc = write_out(&a, &res, out, errs);
out:
    game_log_release(&log);
    buf_release(&in);
    buf_release(&res);
    return rc;
}
