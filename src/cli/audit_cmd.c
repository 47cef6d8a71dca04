/* audit_cmd.c - `flierd audit`: read each file, replay it, report. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/audit.h"
#include "mlog/mlog.h"
#include "util/buf.h"
#include "util/xalloc.h"

struct audit_args {
    bool json;
    bool assume_finished;
};

/* Reads all of path ("-" is stdin) into b, refusing more than the cap. */
static enum status read_input(const char *path, struct buf *b, struct err *e)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    char chunk[65536];
    size_t n;
    enum status st = ST_OK;
    if (!f)
        return err_set(e, ST_IO, "cannot open: %s", strerror(errno));
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        buf_append(b, chunk, n);
        if (b->len > MLOG_MAX_BYTES) {
            st = err_set(e, ST_LIMIT, "larger than %u bytes", MLOG_MAX_BYTES);
            break;
        }
    }
    if (st == ST_OK && ferror(f))
        st = err_set(e, ST_IO, "read error: %s", strerror(errno));
    if (f != stdin)
        fclose(f);
    return st;
}

static void print_text(FILE *out, const char *file, enum mlog_format fmt,
                       const struct game_log *log, const struct report *r)
{
    int best = 0;
    fprintf(out, "%s (%s): %s, %s after %d turn%s", file,
            mlog_format_name(fmt), r->valid ? "valid" : "INVALID",
            r->finished ? "finished" : "not finished", r->turns,
            r->turns == 1 ? "" : "s");
    if (!r->finished)
        fprintf(out, ", %d tile%s left", r->tiles_left,
                r->tiles_left == 1 ? "" : "s");
    fputc('\n', out);
    for (int p = 0; p < log->rules.n_players; p++)
        if (r->score[p] > best)
            best = r->score[p];
    fprintf(out, "  scores:");
    for (int p = 0; p < log->rules.n_players; p++)
        fprintf(out, "%s %s %d%s", p ? "," : "", log->names[p], r->score[p],
                r->finished && r->score[p] == best ? " (winner)" : "");
    fputc('\n', out);
    size_t landed = 0;
    for (size_t i = 0; i < r->n_flights; i++)
        landed += r->flights[i].landed;
    fprintf(out, "  flights: %zu, %zu landed; score events: %zu\n",
            r->n_flights, landed, r->n_events);
    for (size_t i = 0; i < r->n_discards; i++)
        fprintf(out, "  discard: before turn %d, %s fit nowhere%s\n",
                r->discards[i].turn, tile_get(r->discards[i].tile)->id,
                r->discards[i].logged ? "" : " (inferred from the draw)");
    if (r->draw_note[0])
        fprintf(out, "  note: %s\n", r->draw_note);
    if (r->halted)
        fprintf(out, "  stopped: %s\n", r->halt_msg);
    if (r->n_violations == 0)
        fprintf(out, "  violations: none\n");
    else
        fprintf(out, "  violations: %zu\n", r->n_violations);
    for (size_t i = 0; i < r->n_violations; i++) {
        const struct violation *v = &r->violations[i];
        fprintf(out, "    turn %d, %s: %s: %s\n", v->turn,
                v->player >= 0 ? log->names[v->player] : "?",
                rule_id(v->rule), v->msg);
    }
}

/* Audits one file; returns its exit status contribution (0, 1, 2). */
static int audit_one(const char *path, const struct audit_args *args,
                     FILE *out, FILE *errs)
{
    struct buf data = BUF_INIT, json = BUF_INIT;
    struct game_log log;
    struct report rep;
    struct err e;
    enum mlog_format fmt = MLOG_UNKNOWN;
    int rc = 2;
    const char *name = strcmp(path, "-") == 0 ? "<stdin>" : path;

    err_clear(&e);
    game_log_init(&log);
    if (read_input(path, &data, &e) != ST_OK ||
        mlog_parse(data.p ? data.p : "", data.len, &log, &fmt, &e) != ST_OK) {
        fprintf(errs, "flierd: %s: %s\n", name, e.msg);
        if (args->json) {
            mlog_error_json(name, e.msg, &json);
            fputs(json.p, out);
        }
        goto out;
    }
    struct audit_opts o = { args->assume_finished };
    audit_run(&log, &o, &rep, NULL);
    if (args->json) {
        mlog_report_json(name, fmt, &log, &rep, &json);
        fputs(json.p, out);
    } else {
        print_text(out, name, fmt, &log, &rep);
    }
    rc = rep.valid ? 0 : 1;
    report_release(&rep);
out:
    game_log_release(&log);
    buf_release(&data);
    buf_release(&json);
    return rc;
}

static void usage(FILE *f)
{
    fputs("usage: flierd audit [--json] [--assume-finished] FILE...\n"
          "  Replays each game log (.jcz; '-' reads stdin) through the rules\n"
          "  and reports violations, flights and scores.\n"
          "  --json             one JSON object per file, one per line\n"
          "  --assume-finished  apply final scoring even with tiles left\n"
          "exit status: 0 all valid, 1 a violation, 2 an unreadable input\n",
          f);
}

int cli_audit(int argc, char **argv, FILE *out, FILE *errs)
{
    struct audit_args args = { false, false };
    int first = -1, worst = 0;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0) {
            args.json = true;
        } else if (strcmp(argv[i], "--assume-finished") == 0) {
            args.assume_finished = true;
        } else if (strcmp(argv[i], "-h") == 0 ||
                   strcmp(argv[i], "--help") == 0) {
            usage(out);
            return 0;
        } else if (strcmp(argv[i], "--") == 0) {
            first = i + 1;
            break;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            fprintf(errs, "flierd audit: unknown option '%s'\n", argv[i]);
            usage(errs);
            return 2;
        } else if (first < 0) {
            first = i;
        }
    }
    if (first < 0 || first >= argc) {
        usage(errs);
        return 2;
    }
    for (int i = first; i < argc; i++) {
        if (i > first && argv[i][0] == '-' && argv[i][1] != '\0' &&
            strcmp(argv[i - 1], "--") != 0)
            continue; /* options may follow files */
        int rc = audit_one(argv[i], &args, out, errs);
        if (rc > worst)
            worst = rc;
    }
    return worst;
}
