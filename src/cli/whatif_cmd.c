/* whatif_cmd.c - `flierd whatif`: the game with another roll at one
 * flight, the rest replayed as logged. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_int.h"
#include "core/audit.h"
#include "core/receipt.h"
#include "core/whatif.h"
#include "core/words.h"
#include "mlog/mlog.h"

struct whatif_args {
    const char *file;
    bool json;
    bool assume_finished;
    struct whatif w;
};

static void usage(FILE *f)
{
    fputs("usage: flierd whatif FILE --turn T --roll R [--landing SEG]\n"
          "                     [--json] [--assume-finished]\n"
          "  Replays the game with roll R at the flight of turn T (landing\n"
          "  on SEG of the new target, e.g. city:N, when several are\n"
          "  valid), the rest as logged: which moves become illegal and how\n"
          "  the final scores change.\n", f);
}

static bool parse_int(const char *s, int *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v < -1000000 || v > 1000000)
        return false;
    *out = (int)v;
    return true;
}

/* "city:N" -> (FEAT_CITY, N); "monastery", "shrine", "special-monastery:abbot":
 * any kind a figure may stand on, as its class says. */
static bool parse_segment(const char *s, struct whatif *w)
{
    for (int f = 1; f < FEAT__COUNT; f++) {
        const char *name = feat_name(f);
        size_t n = strlen(name);
        if (!feature_class(f)->claimable || strncmp(s, name, n) != 0 ||
            (s[n] != ':' && s[n] != '\0'))
            continue;
        w->feature = f;
        w->has_landing = true;
        return loc_parse(f, s[n] == ':' ? s + n + 1 : "", &w->mask);
    }
    return false;
}

static int parse_args(int argc, char **argv, struct whatif_args *a, FILE *errs)
{
    bool have_turn = false, have_roll = false;
    for (int i = 0; i < argc; i++) {
        const char *s = argv[i];
        bool more = i + 1 < argc;
        if (strcmp(s, "--json") == 0) {
            a->json = true;
        } else if (strcmp(s, "--assume-finished") == 0) {
            a->assume_finished = true;
        } else if (strcmp(s, "--turn") == 0 && more) {
            have_turn = parse_int(argv[++i], &a->w.turn);
        } else if (strcmp(s, "--roll") == 0 && more) {
            have_roll = parse_int(argv[++i], &a->w.roll);
        } else if (strcmp(s, "--landing") == 0 && more) {
            if (!parse_segment(argv[++i], &a->w)) {
                fprintf(errs, "flierd whatif: '%s' is no segment (e.g. "
                        "city:N, road:WE, monastery)\n", argv[i]);
                return 2;
            }
        } else if (strcmp(s, "-h") == 0 || strcmp(s, "--help") == 0) {
            usage(stdout);
            return 0;
        } else if (s[0] != '-' || s[1] == '\0') {
            a->file = s;
        } else {
            fprintf(errs, "flierd whatif: unknown option '%s'\n", s);
            return 2;
        }
    }
    if (!a->file || !have_turn || !have_roll) {
        usage(errs);
        return 2;
    }
    return -1; /* go on */
}

static bool same_violation(const struct violation *a,
                           const struct violation *b)
{
    return a->turn == b->turn && a->rule == b->rule && a->src == b->src;
}

/* Marks after->violations[i] that the logged game did not have. */
static void mark_new(const struct report *before, const struct report *after,
                     bool *is_new)
{
    for (size_t i = 0; i < after->n_violations; i++) {
        is_new[i] = true;
        for (size_t k = 0; k < before->n_violations && is_new[i]; k++)
            if (same_violation(&after->violations[i], &before->violations[k]))
                is_new[i] = false;
    }
}

static void print_text(FILE *out, const struct whatif_args *a,
                       const struct game_log *log,
                       const struct whatif_result *res,
                       const struct report *before,
                       const struct report *after, const bool *is_new)
{
    char seg[40], words[64], wb[200], wa[200];
    if (a->w.roll == res->old_roll) /* another landing, the same roll */
        fprintf(out, "%s: what if the flier of turn %d had rolled %d, as "
                "it did?\n", cli_display_name(a->file), a->w.turn,
                a->w.roll);
    else
        fprintf(out, "%s: what if the flier of turn %d had rolled %d (not "
                "%d)?\n", cli_display_name(a->file), a->w.turn, a->w.roll,
                res->old_roll);
    if (res->lands) {
        seg_format(res->feature, res->mask, seg, sizeof seg);
        seg_words(res->feature, res->mask, words, sizeof words);
        fprintf(out, "  target (%d,%d): lands on %s (%s)\n", res->target.x,
                res->target.y, words, seg);
    } else {
        fprintf(out, "  target (%d,%d): no valid landing, the meeple "
                "returns\n", res->target.x, res->target.y);
    }
    size_t n_new = 0;
    for (size_t i = 0; i < after->n_violations; i++) {
        if (!is_new[i])
            continue;
        const struct violation *v = &after->violations[i];
        if (n_new++ == 0)
            fprintf(out, "  moves that become illegal:\n");
        fprintf(out, "    turn %d, %s: %s: %s\n", v->turn,
                cli_seat_name(log, v->player), rule_id(v->rule), v->msg);
    }
    if (n_new == 0)
        fprintf(out, "  every later move stays legal\n");
    fprintf(out, "  final scores:");
    for (int p = 0; p < log->rules.n_players; p++)
        fprintf(out, "%s %s %d -> %d (%+d)", p ? "," : "", log->names[p],
                before->score[p], after->score[p],
                after->score[p] - before->score[p]);
    seats_format(log, cli_winners(log, before->score), wb, sizeof wb);
    seats_format(log, cli_winners(log, after->score), wa, sizeof wa);
    fprintf(out, "\n  winner: %s%s%s\n", wa,
            strcmp(wa, wb) ? ", was " : " (unchanged)",
            strcmp(wa, wb) ? wb : "");
}

int cli_whatif(int argc, char **argv, FILE *out, FILE *errs)
{
    struct whatif_args a;
    struct buf data = BUF_INIT, json = BUF_INIT;
    struct game_log log, alt;
    struct report before, after;
    struct whatif_result res;
    struct err e;
    enum mlog_format fmt;
    bool *is_new = NULL;
    memset(&a, 0, sizeof a);
    int rc = parse_args(argc, argv, &a, errs);
    if (rc >= 0)
        return rc;
    rc = 2;
    err_clear(&e);
    game_log_init(&log);
    game_log_init(&alt);
    const char *name = cli_display_name(a.file);
    if (cli_read_input(a.file, &data, &e) != ST_OK ||
        mlog_parse(data.p ? data.p : "", data.len, &log, &fmt, &e) != ST_OK) {
        fprintf(errs, "flierd: %s: %s\n", name, e.msg);
        goto out;
    }
    if (whatif_build(&log, &a.w, &alt, &res, &e) != ST_OK) {
        fprintf(errs, "flierd whatif: %s: %s\n", name, e.msg);
        goto out;
    }
    struct audit_opts o = { a.assume_finished };
    audit_run(&log, &o, &before, NULL);
    audit_run(&alt, &o, &after, NULL);
    is_new = calloc(after.n_violations + 1, sizeof *is_new);
    mark_new(&before, &after, is_new);
    if (a.json) {
        mlog_whatif_json(name, &log, a.w.turn, a.w.roll, &res, &before,
                         &after, is_new, &json);
        fputs(json.p, out);
    } else {
        print_text(out, &a, &log, &res, &before, &after, is_new);
    }
    rc = 0;
    report_release(&before);
    report_release(&after);
out:
    free(is_new);
    game_log_release(&log);
    game_log_release(&alt);
    buf_release(&data);
    buf_release(&json);
    return rc;
}
