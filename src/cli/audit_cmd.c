/* audit_cmd.c - `flierd audit`: read each file, replay it, report. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/cli_int.h"
#include "core/audit.h"
#include "core/receipt.h"
#include "core/words.h"
#include "mlog/mlog.h"
#include "util/ordered.h"
#include "util/sha256.h"
#include "util/xalloc.h"

struct audit_args {
    bool json;
    bool assume_finished;
    bool explain;          /* receipts for every score event in text */
    const char *variant;   /* "tiny-city-scoring=2" */
    int variant_opt;       /* its enum game_option */
    int variant_value;     /* and the value it gives it */
};

/* Why a flight ended in the supply, as the replay page says it: a
 * logged landing that broke a rule was not applied; else the target
 * offered none, or the log sent the figure back all the same. */
static const char *flight_return_why(const struct report *r,
                                     const struct flight *f, char *buf,
                                     size_t len)
{
    if (f->bad_roll)
        return "returned to supply: the roll is not 1, 2 or 3";
    for (size_t i = 0; i < r->n_violations; i++) {
        const struct violation *v = &r->violations[i];
        const char *id = rule_id(v->rule);
        if (v->turn == f->turn && v->player == f->player &&
            v->rule != RULE_FLIER_MUST_LAND &&
            (strncmp(id, "FLIER_", 6) == 0 ||
             v->rule == RULE_MEEPLE_WRONG_TYPE)) {
            snprintf(buf, len, "returned to supply: the logged landing "
                     "breaks %s, so it was not applied", id);
            return buf;
        }
    }
    return f->n_options ? "returned to supply, although the target offered "
                          "a landing"
                        : "returned to supply: the target offers no valid "
                          "landing";
}

static void print_flights(FILE *out, const struct game_log *log,
                          const struct report *r)
{
    char opts[600], why[120];
    for (size_t i = 0; i < r->n_flights; i++) {
        const struct flight *f = &r->flights[i];
        const struct figure_class *fig = figure_class(f->figure);
        fprintf(out, "    turn %d: %s's %s flew %s from (%d,%d), rolled %d "
                "-> (%d,%d): ", f->turn, cli_seat_name(log, f->player),
                fig ? fig->name : "figure", dir_words(f->dir), f->from.x,
                f->from.y, f->roll, f->target.x, f->target.y);
        if (f->landed) {
            char seg[64];
            seg_words(f->feature, f->mask, seg, sizeof seg);
            fprintf(out, "landed on %s\n", seg);
        } else {
            fprintf(out, "%s\n", f->pending ? "landing not logged yet"
                                            : flight_return_why(r, f, why,
                                                              sizeof why));
        }
        cli_format_odds(log, f, opts, sizeof opts);
        fprintf(out, "      odds: %s\n", opts);
    }
}

static void print_scores(FILE *out, const struct game_log *log,
                         const struct report *r, const struct game *g)
{
    char receipt[600], where[160];
    for (size_t i = 0; i < r->n_events; i++) {
        const struct score_event *ev = &r->events[i];
        receipt_format(log, r, i, receipt, sizeof receipt);
        cli_event_where(r, g, i, where, sizeof where);
        if (ev->turn < 0)
            fprintf(out, "    final%s: %s\n", where, receipt);
        else if (ev->expr == EXPR_TURN) /* filed with the turn before */
            fprintf(out, "    before turn %d%s: %s\n", ev->turn + 1, where,
                    receipt);
        else
            fprintf(out, "    turn %d%s: %s\n", ev->turn, where, receipt);
    }
}

static void print_violations(FILE *out, const struct game_log *log,
                             const struct report *r)
{
    if (r->n_violations == 0) {
        fprintf(out, "  violations: none\n");
        return;
    }
    fprintf(out, "  violations: %zu\n", r->n_violations);
    for (size_t i = 0; i < r->n_violations; i++) {
        const struct violation *v = &r->violations[i];
        if (v->turn < 0)
            fprintf(out, "    final, %s: %s: %s\n",
                    cli_seat_name(log, v->player), rule_id(v->rule), v->msg);
        else if (v->between && v->turn == 0) /* its message names who */
            fprintf(out, "    before the first tile: %s: %s\n",
                    rule_id(v->rule), v->msg);
        else if (v->between)
            fprintf(out, "    after turn %d (%s's): %s: %s\n", v->turn,
                    cli_seat_name(log, v->player), rule_id(v->rule), v->msg);
        else
            fprintf(out, "    turn %d, %s: %s: %s\n", v->turn,
                    cli_seat_name(log, v->player), rule_id(v->rule), v->msg);
    }
}

static void print_text(FILE *out, const struct report_meta *m,
                       const struct game_log *log, const struct report *r,
                       const struct game *g, const struct audit_args *args)
{
    fprintf(out, "%s (%s): %s, %s after %d turn%s", m->file,
            mlog_format_name(m->format), r->valid ? "valid" : "INVALID",
            r->finished ? "finished" : "not finished", r->turns,
            r->turns == 1 ? "" : "s");
    if (!r->finished)
        fprintf(out, ", %d tile%s left", r->tiles_left,
                r->tiles_left == 1 ? "" : "s");
    fprintf(out, "\n  verdict of %s, input sha256 %.16s…\n", m->engine,
            m->sha256);
    fputs("  squares: (x,y) from the start tile at (0,0), x growing east, "
          "y growing south\n", out);
    cli_print_scoreline(out, "  scores:", log, r->score, r->finished);
    size_t landed = 0;
    for (size_t i = 0; i < r->n_flights; i++)
        landed += r->flights[i].landed;
    fprintf(out, "  flights: %zu, %zu landed\n", r->n_flights, landed);
    print_flights(out, log, r);
    for (size_t i = 0; i < r->n_discards; i++) {
        char tw[80];
        tile_words(r->discards[i].tile, tw, sizeof tw);
        fprintf(out, "  discard: before turn %d, %s (%s) fit nowhere%s\n",
                r->discards[i].turn, tw, tile_get(r->discards[i].tile)->id,
                r->discards[i].logged ? "" : " (inferred from the draw)");
    }
    if (r->draw_note[0])
        fprintf(out, "  note: %s\n", r->draw_note);
    if (r->rule_note[0])
        fprintf(out, "  rule: %s\n", r->rule_note);
    if (r->halted)
        fprintf(out, "  stopped: %s\n", r->halt_msg);
    fprintf(out, "  score events: %zu\n", r->n_events);
    if (args->explain)
        print_scores(out, log, r, g);
    print_violations(out, log, r);
    if (r->has_claims) {
        size_t bad = 0;
        for (size_t i = 0; i < r->n_violations; i++)
            bad += r->violations[i].rule == RULE_SCORE_MISMATCH;
        if (r->divergence.found)
            fprintf(out, "  claims: %s\n", r->divergence.msg);
        else if (bad)
            fprintf(out, "  claims: %zu claimed score%s differ; no claimed "
                    "total does\n", bad, bad == 1 ? "" : "s");
        else
            fprintf(out, "  claims: every claim matches the rules\n");
    }
}

static void print_variant(FILE *out, const struct game_log *log,
                          const struct report *r, const struct report *v,
                          const char *variant)
{
    char label[80], before[200], after[200];
    unsigned wb = cli_winners(log, r->score), wa = cli_winners(log, v->score);
    snprintf(label, sizeof label, "  under %s:", variant);
    cli_print_scoreline(out, label, log, v->score, v->finished);
    seats_format(log, wb, before, sizeof before);
    seats_format(log, wa, after, sizeof after);
    if (wb == wa)
        fprintf(out, "  the winner does not change (%s)\n", after);
    else
        fprintf(out, "  the winner changes: %s (was %s)\n", after, before);
    if (v->n_violations != r->n_violations)
        fprintf(out, "  violations under it: %zu (were %zu)\n",
                v->n_violations, r->n_violations);
}

/* An input that was not audited: why on errs, and with --json (json_out)
 * its object: a log of what flierd does not audit yet is no broken
 * file. */
static void print_unread(const char *name, enum status st,
                         enum mlog_format fmt, const char *msg,
                         struct buf *json, struct buf *err)
{
    buf_printf(err, "flierd: %s: %s\n", name, msg);
    if (!json)
        return;
    if (st == ST_UNSUPPORTED)
        mlog_unsupported_json(name, fmt, msg, json);
    else
        mlog_error_json(name, msg, json);
}

/* Where audit_one() writes, and what it may keep between files. A file's
 * JSON and its error lines go to json and err (appended); the text
 * report to out. data holds the file: its room is kept for the next. */
struct audit_io {
    FILE *out;        /* the text report (not with --json) */
    struct buf *json; /* --json: the file's object */
    struct buf *err;  /* "flierd: FILE: why" lines */
    struct buf *data;
};

/* Audits one file; returns its exit status contribution (0, 1, 2). */
static int audit_one(const char *path, const struct audit_args *args,
                     const struct audit_io *io)
{
    struct buf *data = io->data, *json = io->json;
    struct game_log log;
    struct report rep, var;
    struct game *final = NULL;
    struct err e;
    char sha[SHA256_HEX_LEN];
    enum mlog_format fmt = MLOG_UNKNOWN;
    int rc = 2;
    const char *name = cli_display_name(path);

    err_clear(&e);
    game_log_init(&log);
    data->len = 0;
    enum status st = cli_read_input(path, data, &e);
    if (st == ST_OK)
        st = mlog_parse(data->p ? data->p : "", data->len, &log, &fmt, &e);
    if (st != ST_OK) {
        print_unread(name, st, fmt, e.msg, args->json ? json : NULL, io->err);
        goto out;
    }
    sha256_hex(data->p, data->len, sha);
    struct audit_opts o = { args->assume_finished };
    /* the final board tells where each field that scored lies */
    audit_run(&log, &o, &rep, args->explain && !args->json ? &final : NULL);
    struct report_meta m = { name, fmt, FLIERD_ENGINE, sha,
                             NULL, NULL };
    if (args->variant) {
        struct game_log alt = log; /* shares the moves; only rules differ */
        alt.rules.opt[args->variant_opt] = args->variant_value;
        audit_run(&alt, &o, &var, NULL);
        m.variant = args->variant;
        m.variant_report = &var;
    }
    if (args->json) {
        mlog_report_json_meta(&m, &log, &rep, json);
    } else {
        print_text(io->out, &m, &log, &rep, final, args);
        if (args->variant)
            print_variant(io->out, &log, &rep, &var, args->variant);
    }
    rc = rep.valid ? 0 : 1;
    report_release(&rep);
    if (args->variant)
        report_release(&var);
out:
    if (final)
        game_free(final);
    game_log_release(&log);
    return rc;
}

/* One file's output, written by a worker and copied out in input order. */
/* A slot of the ordered ring: a file's output, written by a worker and
 * copied out by the caller's thread. The buffers stay with the slot from
 * file to file (no allocation per file, and none freed on another thread
 * than the one that made it, which glibc serialises on the arena's lock:
 * a tenth of -j 2's time went to that and to memory streams). */
struct audit_slot {
    struct buf out, err, data;
    int rc;
};

struct audit_batch {
    const char **files;
    const struct audit_args *args;
    FILE *out, *errs;
    int worst;
};

static void write_out(struct audit_batch *b, const struct buf *out,
                      const struct buf *err)
{
    if (out->len)
        fwrite(out->p, 1, out->len, b->out);
    if (err->len)
        fwrite(err->p, 1, err->len, b->errs);
}

/* One file on the caller's thread, its output written at once. */
static int audit_direct(struct audit_batch *b, const char *path,
                        struct buf *data)
{
    struct buf json = BUF_INIT, err = BUF_INIT;
    struct audit_io io = { b->out, &json, &err, data };
    int rc = audit_one(path, b->args, &io);
    write_out(b, &json, &err);
    buf_release(&json);
    buf_release(&err);
    return rc;
}

static void audit_prepare(void *ctx, size_t i, void *slot)
{
    struct audit_batch *b = ctx;
    struct audit_slot *s = slot;
    struct audit_io io = { NULL, &s->out, &s->err, &s->data };
    char *text = NULL;
    size_t text_len = 0;
    s->out.len = s->err.len = 0;
    if (!b->args->json) { /* the text report prints to a FILE */
        io.out = open_memstream(&text, &text_len);
        if (!io.out) {
            s->rc = -1;
            return;
        }
    }
    s->rc = audit_one(b->files[i], b->args, &io);
    if (io.out) {
        fclose(io.out);
        buf_append(&s->out, text ? text : "", text_len);
        free(text);
    }
}

static void audit_consume(void *ctx, size_t i, void *slot)
{
    struct audit_batch *b = ctx;
    struct audit_slot *s = slot;
    if (s->rc < 0) /* no memory for its output: do it here, directly */
        s->rc = audit_direct(b, b->files[i], &s->data);
    else
        write_out(b, &s->out, &s->err);
    if (s->rc > b->worst)
        b->worst = s->rc;
}

static void audit_release(void *ctx, void *slot)
{
    struct audit_slot *s = slot;
    (void)ctx;
    buf_release(&s->out);
    buf_release(&s->err);
    buf_release(&s->data);
}

static void usage(FILE *f)
{
    fputs("usage: flierd audit [--json] [--explain] [--assume-finished]\n"
          "                    [--rule tiny-city-scoring=2|4] "
          "[--rule flier-acrobats=never|small] [-j N] "
          "FILE...|DIR...\n"
          "  Replays each game log (.jcz or flierlog; '-' reads stdin)\n"
          "  through the rules and reports violations, flights and scores.\n"
          "  A folder adds its *.jcz and *.flierlog files, sub-folders\n"
          "  included, in name order.\n"
          "  --json             one JSON object per file, one per line\n"
          "  --explain          list every score event with its receipt\n"
          "  --assume-finished  apply final scoring even with tiles left\n"
          "  --rule R=V         also score under a rule variant and say\n"
          "                     whether the winner changes\n"
          "  -j, --jobs N       audit on N threads (default: one per\n"
          "                     processor); output stays in input order\n"
          "exit status: 0 all valid, 1 a violation, 2 an unreadable input\n",
          f);
}

/* "KEY=VALUE": an option of the table (core/expansion.h) and a value it
 * may take. */
static bool parse_variant(const char *s, struct audit_args *args)
{
    char key[40];
    const char *eq = strchr(s, '=');
    if (!eq || (size_t)(eq - s) >= sizeof key)
        return false;
    memcpy(key, s, (size_t)(eq - s));
    key[eq - s] = '\0';
    int o = option_find(key), v = o >= 0 ? option_parse(o, eq + 1) : -1;
    if (v < 0)
        return false;
    args->variant_opt = o;
    args->variant_value = v;
    args->variant = s;
    return true;
}

int cli_audit(int argc, char **argv, FILE *out, FILE *errs)
{
    struct audit_args args = { false, false, false, NULL, 0, 0 };
    const char **files = xcalloc((size_t)argc + 1, sizeof *files);
    int n_files = 0, worst = 0, jobs = ordered_cpus();
    struct cli_paths logs = { NULL, 0, 0 };
    bool only_files = false;
    xalloc_keep_freed();
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (only_files || a[0] != '-' || a[1] == '\0') {
            files[n_files++] = a;
        } else if (strcmp(a, "--") == 0) {
            only_files = true;
        } else if (strcmp(a, "--json") == 0) {
            args.json = true;
        } else if (strcmp(a, "--explain") == 0) {
            args.explain = true;
        } else if (strcmp(a, "--assume-finished") == 0) {
            args.assume_finished = true;
        } else if (strcmp(a, "--rule") == 0 && i + 1 < argc) {
            if (!parse_variant(argv[++i], &args)) {
                fprintf(errs, "flierd audit: unknown rule variant '%s' "
                        "(known: tiny-city-scoring=2, tiny-city-scoring=4, "
                        "flier-acrobats=never, flier-acrobats=small)\n",
                        argv[i]);
                worst = 2;
                goto out;
            }
        } else if (((strcmp(a, "-j") == 0 || strcmp(a, "--jobs") == 0) &&
                    i + 1 < argc) ||
                   (strncmp(a, "-j", 2) == 0 && a[2])) {
            const char *v = a[2] && a[1] == 'j' ? a + 2 : argv[++i];
            char *endp;
            long n = strtol(v, &endp, 10);
            if (*v == '\0' || *endp || n < 1 || n > ORDERED_MAX_THREADS) {
                fprintf(errs, "flierd audit: -j wants a number of threads "
                        "from 1 to %d, not '%s'\n", ORDERED_MAX_THREADS, v);
                worst = 2;
                goto out;
            }
            jobs = (int)n;
        } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(out);
            goto out;
        } else {
            fprintf(errs, "flierd audit: unknown option '%s'\n", a);
            usage(errs);
            worst = 2;
            goto out;
        }
    }
    if (n_files == 0) {
        usage(errs);
        worst = 2;
    }
    /* a folder is its logs, as for ingest and serve --load */
    for (int i = 0; i < n_files; i++) {
        size_t before = logs.n;
        cli_collect_logs(&files[i], 1, &logs);
        struct stat sb;
        if (logs.n == before && stat(files[i], &sb) == 0 &&
            S_ISDIR(sb.st_mode)) {
            fprintf(errs, "flierd audit: %s: a folder with no .jcz or "
                    ".flierlog file in it\n", files[i]);
            worst = 2;
        }
    }
    free(files);
    files = (const char **)logs.v;
    n_files = (int)logs.n;
    if (n_files > 0) {
        struct audit_batch b = { files, &args, out, errs, worst };
        struct ordered_work w = { (size_t)n_files, sizeof(struct audit_slot),
                                  &b, audit_prepare, audit_consume,
                                  audit_release, true };
        if (jobs == 1 || n_files == 1) { /* no copy: straight to out */
            struct buf data = BUF_INIT;
            for (int i = 0; i < n_files; i++) {
                int rc = audit_direct(&b, files[i], &data);
                b.worst = rc > b.worst ? rc : b.worst;
            }
            buf_release(&data);
        } else {
            ordered_run(&w, jobs > n_files ? n_files : jobs, 4);
        }
        worst = b.worst;
    }
out:
    if (files != (const char **)logs.v)
        free(files);
    cli_paths_release(&logs);
    return worst;
}
