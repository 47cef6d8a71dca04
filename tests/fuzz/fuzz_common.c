/* fuzz_common.c - a parsed log through the auditor, the replay, the
 * renderers, the writers and what-if, with cross-checks between them:
 * fuzzing finds more than crashes when two paths that must agree are
 * compared on every input. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "core/audit.h"
#include "core/replay.h"
#include "core/whatif.h"
#include "fuzz_common.h"
#include "mlog/mlog_int.h" /* the readers, to skip the detection */

_Noreturn void fuzz_fail(const char *what, const char *why)
{
    fprintf(stderr, "fuzz invariant broken: %s: %s\n", what, why);
    abort();
}

/* The renderers promise JSON; a stray byte would break every client. */
static void check_json(const char *what, const struct buf *b)
{
    const char *end = NULL;
    if (b->len == 0)
        fuzz_fail(what, "rendered nothing");
    cJSON *v = cJSON_ParseWithLengthOpts(b->p, b->len, &end, 0);
    if (!v) {
        fprintf(stderr, "%.*s\n", (int)(b->len < 2000 ? b->len : 2000),
                b->p);
        fuzz_fail(what, "not valid JSON");
    }
    cJSON_Delete(v);
}

/* What two audits of the same game must agree on. */
static void check_same(const char *what, const struct report *a,
                       const struct report *b)
{
    char why[200];
    if (a->valid != b->valid || a->finished != b->finished ||
        a->turns != b->turns || a->n_violations != b->n_violations ||
        memcmp(a->score, b->score, sizeof a->score) != 0) {
        snprintf(why, sizeof why, "valid %d/%d finished %d/%d turns %d/%d "
                 "violations %zu/%zu scores %d,%d/%d,%d", a->valid, b->valid,
                 a->finished, b->finished, a->turns, b->turns,
                 a->n_violations, b->n_violations, a->score[0], a->score[1],
                 b->score[0], b->score[1]);
        fuzz_fail(what, why);
    }
}

/* The live recorder audits one move at a time: it must reach the very
 * verdict of the one-shot audit. */
static void check_stepwise(const struct game_log *log,
                           const struct audit_opts *o, const struct report *r)
{
    struct report step;
    struct audit *a = audit_begin(log, &step);
    for (size_t i = 0; i < log->n_moves; i++)
        audit_step(a, &log->moves[i]);
    audit_finish(a, o, NULL);
    check_same("audit_step against audit_run", r, &step);
    report_release(&step);
}

/* Writes log with one writer, reads it back and audits it again. */
typedef void (*writer_fn)(const struct game_log *l, struct buf *out);

static void check_round_trip(const char *what, writer_fn write,
                             const struct game_log *log,
                             const struct audit_opts *o,
                             const struct report *r)
{
    struct buf text = BUF_INIT;
    struct game_log back;
    struct report rb;
    struct err e;
    enum mlog_format fmt;

    write(log, &text);
    game_log_init(&back);
    if (mlog_parse(text.p, text.len, &back, &fmt, &e) != ST_OK) {
        fprintf(stderr, "%.*s\n", (int)(text.len < 4000 ? text.len : 4000),
                text.p);
        fuzz_fail(what, e.msg);
    }
    audit_run(&back, o, &rb, NULL);
    check_same(what, r, &rb);
    report_release(&rb);
    game_log_release(&back);
    buf_release(&text);
}

/* The same game with the first flight's roll changed. */
static void check_whatif(const struct game_log *log, const struct report *r)
{
    struct whatif w = { 0 };
    struct whatif_result res;
    struct game_log alt;
    struct err e;

    if (r->n_flights == 0 || r->flights[0].bad_roll)
        return;
    w.turn = r->flights[0].turn;
    w.roll = r->flights[0].roll % 3 + 1;
    game_log_init(&alt);
    if (whatif_build(log, &w, &alt, &res, &e) == ST_OK) {
        struct report ra;
        audit_run(&alt, NULL, &ra, NULL);
        report_release(&ra);
    }
    game_log_release(&alt);
}

static void render(const struct game_log *log, enum mlog_format fmt,
                   const struct audit_opts *o, const struct report *r)
{
    struct buf out = BUF_INIT, again = BUF_INIT;
    struct replay rp;
    struct report rr;
    struct report_meta m = { "fuzz", fmt, "fuzz", "0", NULL, NULL };

    mlog_report_json_meta(&m, log, r, &out);
    check_json("mlog_report_json_meta", &out);
    /* the replay's own pass stands in for the audit: the very report */
    replay_build(log, o, &rp, &rr);
    mlog_report_json_meta(&m, log, &rr, &again);
    if (again.len != out.len || memcmp(again.p, out.p, out.len) != 0)
        fuzz_fail("replay_build's report", "differs from audit_run's");
    report_release(&rr);
    buf_release(&again);
    buf_release(&out);
    mlog_replay_json(log, r, &rp, &out);
    check_json("mlog_replay_json", &out);
    buf_release(&out);
    replay_release(&rp);
    for (int t = 1; t <= r->turns; t += r->turns > 1 ? r->turns - 1 : 1) {
        mlog_live_turn_json(log, r, t, &out);
        check_json("mlog_live_turn_json", &out);
        buf_release(&out);
    }
}

void fuzz_check_log(const struct game_log *log, enum mlog_format fmt)
{
    struct audit_opts o = { true };
    struct report r;

    audit_run(log, &o, &r, NULL);
    check_stepwise(log, &o, &r);
    render(log, fmt, &o, &r);
    check_round_trip("jcz round trip", mlog_write_jcz, log, &o, &r);
    check_round_trip("flierlog round trip", mlog_write_flierlog, log, &o,
                     &r);
    check_round_trip("NDJSON round trip", mlog_write_flierlog_ndjson, log,
                     &o, &r);
    check_whatif(log, &r);
    report_release(&r);
}

/* The quick path may only pass what the raw check passes: when the
 * quick check lets cJSON go first and the tree passes, the bytes must
 * pass mlog_json_check() too. */
static void check_quick_path(const char *text, size_t size)
{
    bool ctrl = true;
    if (!mlog_json_quick(text, size, &ctrl))
        return;
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(text, size, &end, 0);
    while (root && end && end < text + size &&
           (*end == ' ' || *end == '\t' || *end == '\n' || *end == '\r'))
        end++;
    if (root && end == text + size && mlog_json_tree_ok(root, ctrl)) {
        struct err e;
        if (mlog_json_check(text, size, &e) != ST_OK) {
            fprintf(stderr, "quick path passed what the raw check "
                    "refuses: %s\n", e.msg);
            abort();
        }
    }
    cJSON_Delete(root);
}

void fuzz_log_input(const uint8_t *data, size_t size, enum mlog_format own)
{
    const char *text = (const char *)data;
    struct game_log log;
    enum mlog_format fmt;
    struct err e;

    check_quick_path(text, size);
    game_log_init(&log);
    enum status st = mlog_parse(text, size, &log, &fmt, &e);
    if (fmt != MLOG_UNKNOWN && fmt != own) {
        /* the first JSON value: a stream's first line is its header */
        const char *end = NULL;
        cJSON *root = cJSON_ParseWithLengthOpts(text, size, &end, 0);
        game_log_release(&log);
        game_log_init(&log);
        st = !cJSON_IsObject(root) ? ST_PARSE
             : own == MLOG_JCZ     ? jcz_read(root, &log, &e)
                                   : flierlog_read(root, &log, &e);
        cJSON_Delete(root);
    }
    if (st == ST_OK)
        fuzz_check_log(&log, own);
    game_log_release(&log);
}
