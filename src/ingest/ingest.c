/* ingest.c - bytes in, an audited game in the store.
 *
 * Everything is rendered before the store is touched, so a game is
 * written in one store call (one transaction) or not at all. A log the
 * reader cannot audit (ST_UNSUPPORTED) is, for uploads and re-audits, a
 * game of its own kind: its bytes, digest and the reader's message. */
#include "ingest/ingest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/audit.h"
#include "core/options.h"
#include "core/replay.h"
#include "mlog/mlog.h"
#include "util/sha256.h"
#include "util/version.h"
#include "util/xalloc.h"


/* A parsed, audited and rendered game, ready for the store; or, when
 * unsupported, the reader's reason (no log, no report). */
struct prepared {
    struct game_log log;
    struct report rep;
    struct buf report_json;
    char sha[SHA256_HEX_LEN];
    enum mlog_format fmt;
    bool audited;
    bool unsupported;
    char reason[ERR_MSG_MAX];
};

static void prepared_release(struct prepared *p)
{
    game_log_release(&p->log);
    if (p->audited)
        report_release(&p->rep);
    buf_release(&p->report_json);
}

/* Whether an unsupported log is kept (uploads, re-audits) or refused
 * (live games, which cannot be refereed without an engine). */
enum unsupported_is { UNSUPPORTED_REFUSED, UNSUPPORTED_KEPT };

static enum status prepare(const char *data, size_t len, const char *name,
                           enum unsupported_is keep, struct prepared *p,
                           struct err *e)
{
    memset(p, 0, sizeof *p);
    game_log_init(&p->log);
    enum status st = mlog_parse(data, len, &p->log, &p->fmt, e);
    /* kept only when its format is known: the store records it */
    if (st == ST_UNSUPPORTED && keep == UNSUPPORTED_KEPT &&
        p->fmt != MLOG_UNKNOWN) {
        game_log_release(&p->log);
        game_log_init(&p->log);
        p->unsupported = true;
        snprintf(p->reason, sizeof p->reason, "%s", e->msg);
        sha256_hex(data, len, p->sha);
        return ST_OK;
    }
    if (st != ST_OK)
        return st;
    sha256_hex(data, len, p->sha);
    audit_run(&p->log, NULL, &p->rep, NULL);
    p->audited = true;
    struct report_meta m = { name ? name : "upload", p->fmt, FLIERD_ENGINE, p->sha,
                             NULL, NULL };
    mlog_report_json_meta(&m, &p->log, &p->rep, &p->report_json);
    return ST_OK;
}

static struct game_record record_of(const struct prepared *p, const char *data,
                                    size_t len, const char *source,
                                    const char *name, int64_t now, bool live)
{
    struct game_record g = {
        data, len, p->sha, mlog_format_name(p->fmt), source, name, now,
        FLIERD_ENGINE, live, &p->log, &p->rep, p->report_json.p, NULL, NULL,
        NULL,
    };
    if (p->unsupported) {
        g.log = NULL;
        g.report = NULL;
        g.report_json = NULL;
        g.live = false;
        g.unsupported = p->reason;
    }
    return g;
}

struct ingest_job {
    struct prepared p;
    const char *data;
    size_t len;
    const char *source;
    char *name;
    int64_t now;
    bool live; /* a copied live game (ingest_prepare_stored) */
    struct store_packed packed; /* ingest_pack(), or not done */
};

enum status ingest_prepare(const char *data, size_t len, const char *source,
                           const char *name, int64_t now,
                           struct ingest_job **out, struct err *e)
{
    struct ingest_job *j = xcalloc(1, sizeof *j);
    j->data = data;
    j->len = len;
    j->source = source;
    j->name = name ? xstrdup(name) : NULL;
    j->now = now;
    enum status st = prepare(data, len, name, UNSUPPORTED_KEPT, &j->p, e);
    *out = j;
    return st;
}

enum status ingest_prepare_stored(const struct stored_upload *u,
                                  struct ingest_job **out, struct err *e)
{
    enum status st = ingest_prepare(u->raw ? u->raw : "", u->raw_len,
                                    u->source, u->name, u->uploaded_at, out,
                                    e);
    (*out)->live = u->live;
    return st;
}

enum status ingest_commit(struct store *s, struct ingest_job *j,
                          struct ingest_result *out, struct err *e)
{
    memset(out, 0, sizeof *out);
    struct game_record g = record_of(&j->p, j->data, j->len, j->source,
                                     j->name, j->now, j->live);
    g.packed = &j->packed;
    enum status st = store_insert_game(s, &g, &out->id, &out->duplicate, e);
    out->unsupported = j->p.unsupported;
    out->valid = j->p.audited && j->p.rep.valid;
    out->finished = j->p.audited && j->p.rep.finished;
    snprintf(out->reason, sizeof out->reason, "%s", j->p.reason);
    return st;
}

void ingest_pack(const struct store *s, struct ingest_job *j)
{
    struct game_record g = record_of(&j->p, j->data, j->len, j->source,
                                     j->name, j->now, j->live);
    store_pack(s, &g, &j->packed);
}

const char *ingest_job_sha(const struct ingest_job *j)
{
    return j->p.sha;
}

void ingest_job_free(struct ingest_job *j)
{
    if (!j)
        return;
    store_packed_release(&j->packed);
    prepared_release(&j->p);
    free(j->name);
    free(j);
}

enum status ingest_bytes(struct store *s, const char *data, size_t len,
                         const char *source, const char *name, int64_t now,
                         struct ingest_result *out, struct err *e)
{
    struct ingest_job *j = NULL;
    memset(out, 0, sizeof *out);
    enum status st = ingest_prepare(data, len, source, name, now, &j, e);
    if (st == ST_OK)
        st = ingest_commit(s, j, out, e);
    ingest_job_free(j);
    return st;
}

/* ---- live games ---------------------------------------------------- */

enum status ingest_live_start(struct store *s, const char *header,
                              size_t len, int64_t now, int64_t *out_id,
                              struct err *e)
{
    struct buf raw = BUF_INIT;
    struct prepared p;
    bool dup = false;
    *out_id = 0;
    while (len > 0 && (header[len - 1] == '\n' || header[len - 1] == '\r'))
        len--;
    if (memchr(header, '\n', len))
        return err_set(e, ST_PARSE, "the setup of a live game is one line "
                       "(a flierlog header)");
    buf_append(&raw, header, len);
    buf_puts(&raw, "\n");
    enum status st = prepare(raw.p, raw.len, "live", UNSUPPORTED_REFUSED, &p,
                             e);
    if (st == ST_OK && p.fmt != MLOG_FLIERLOG)
        st = err_set(e, ST_PARSE, "a live game starts with a flierlog "
                     "header, not a %s", mlog_format_name(p.fmt));
    if (st == ST_OK) {
        struct game_record g = record_of(&p, raw.p, raw.len, "live", "live",
                                         now, true);
        st = store_insert_game(s, &g, out_id, &dup, e);
    }
    prepared_release(&p);
    buf_release(&raw);
    return st;
}

/* The stored NDJSON of live game id (its first *out_stored bytes), with
 * a line appended. */
static enum status live_raw(struct store *s, int64_t id, const char *line,
                            size_t len, struct buf *raw, size_t *out_stored,
                            struct err *e)
{
    const char *fmt = NULL;
    bool live = false;
    enum status st = store_game_is_live(s, id, &live, e);
    if (st != ST_OK)
        return st;
    if (!live)
        return err_set(e, ST_CONFLICT, "game %lld is not a live game (or is "
                       "finished)", (long long)id);
    st = store_game_raw(s, id, raw, &fmt, NULL, e);
    if (st != ST_OK)
        return st;
    *out_stored = raw->len;
    while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
        len--;
    if (len == 0 || memchr(line, '\n', len))
        return err_set(e, ST_PARSE, "a move is one flierlog turn entry on "
                       "one line");
    buf_append(raw, line, len);
    buf_puts(raw, "\n");
    return ST_OK;
}

/* Is line (len bytes, its end trimmed) a turn whose number the stored
 * game (raw[0, stored): the header, then a line per entry) has already?
 * The same bytes again (a page's queue sending a turn twice) is a repeat,
 * *out_turn its number; another turn of that number is ST_CONFLICT. */
static enum status live_repeat(int64_t id, const char *raw, size_t stored,
                               const char *line, size_t len, int *out_turn,
                               bool *out_repeat, struct err *e)
{
    int n = -1;
    *out_repeat = false;
    while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
        len--;
    enum status st = mlog_turn_number(line, len, &n, e);
    *out_turn = n;
    if (st == ST_PARSE || st == ST_LIMIT) /* the reader says where, in */
        return ST_OK;                     /* the game's own lines */
    if (st != ST_OK || n < 0)
        return st;
    const char *p = memchr(raw, '\n', stored), *end = raw + stored;
    while (p && p + 1 < end) {
        const char *s = p + 1;
        p = memchr(s, '\n', (size_t)(end - s));
        size_t l = (size_t)((p ? p : end) - s);
        int t = -1;
        struct err ignored;
        if (mlog_turn_number(s, l, &t, &ignored) != ST_OK || t != n)
            continue;
        if (l == len && memcmp(s, line, len) == 0) {
            *out_repeat = true;
            return ST_OK;
        }
        return err_set(e, ST_CONFLICT, "turn %d of game %lld is recorded "
                       "already, as another turn: undo it first (POST "
                       "/api/live/%lld/undo) to record this one instead", n,
                       (long long)id, (long long)id);
    }
    return ST_OK;
}

/* One try: read the game, judge the turn against it, and replace it on
 * the condition that nobody did meanwhile (ST_CONFLICT with *out_raced
 * when somebody did: another daemon on the same database, a move that
 * came in at the same time). */
static enum status live_move_once(struct store *s, int64_t id,
                                  const char *turn, size_t len, int64_t now,
                                  struct buf *out, bool *out_raced,
                                  struct err *e)
{
    struct buf raw = BUF_INIT;
    struct prepared before, after;
    memset(&before, 0, sizeof before);
    memset(&after, 0, sizeof after);
    size_t old_len = 0;
    *out_raced = false;
    int number = -1;
    bool repeat = false;
    enum status st = live_raw(s, id, turn, len, &raw, &old_len, e);
    if (st == ST_OK)
        st = live_repeat(id, raw.p, old_len, turn, len, &number, &repeat, e);
    if (st != ST_OK)
        goto out;
    st = prepare(raw.p, old_len, "live", UNSUPPORTED_REFUSED, &before, e);
    if (st == ST_OK && repeat) { /* answered as the first time, no write */
        mlog_live_turn_json(&before.log, &before.rep, number, out);
        goto out;
    }
    if (st == ST_OK)
        st = prepare(raw.p, raw.len, "live", UNSUPPORTED_REFUSED, &after, e);
    if (st != ST_OK)
        goto out;
    /* A move that breaks a rule is refused; a claim the rules do not give
     * is the players' word, recorded and reported as in an upload. */
    for (size_t i = before.rep.n_violations; i < after.rep.n_violations;
         i++) {
        const struct violation *v = &after.rep.violations[i];
        if (v->rule == RULE_SCORE_MISMATCH)
            continue;
        st = err_set(e, ST_RULE, "%s: turn %d: %s", rule_id(v->rule), v->turn,
                     v->msg);
        goto out;
    }
    struct game_record g = record_of(&after, raw.p, raw.len, "live", "live",
                                     now, true);
    g.replaces_sha256 = before.sha; /* the upload as read */
    st = store_replace_game(s, id, &g, e);
    *out_raced = st == ST_CONFLICT;
    if (st == ST_OK)
        mlog_live_turn_json(&after.log, &after.rep, after.rep.turns, out);
out:
    prepared_release(&before);
    prepared_release(&after);
    buf_release(&raw);
    return st;
}

/* A turn that lost a race is judged again against the game as the
 * winner left it: it may still be legal (moves of different players
 * never are both, the turn order sees to that), or now be refused. */
#define LIVE_MOVE_TRIES 8

enum status ingest_live_move(struct store *s, int64_t id, const char *turn,
                             size_t len, int64_t now, struct buf *out,
                             struct err *e)
{
    bool raced = true;
    enum status st = ST_OK;
    for (int i = 0; i < LIVE_MOVE_TRIES && raced; i++)
        st = live_move_once(s, id, turn, len, now, out, &raced, e);
    return st;
}

enum status ingest_live_undo(struct store *s, int64_t id, int turn,
                             int64_t now, struct buf *out, struct err *e)
{
    struct buf raw = BUF_INIT;
    struct prepared p;
    const char *fmt = NULL;
    char sha[SHA256_HEX_LEN];
    bool live = false;
    int last = -1;
    memset(&p, 0, sizeof p);
    enum status st = store_game_is_live(s, id, &live, e);
    if (st == ST_OK && !live)
        st = err_set(e, ST_CONFLICT, "game %lld is not a live game (or is "
                     "finished): its turns stay as they are", (long long)id);
    if (st == ST_OK)
        st = store_game_raw(s, id, &raw, &fmt, sha, e);
    if (st != ST_OK)
        goto out;
    /* the last line: the stored stream ends with a newline */
    size_t n = raw.len > 0 && raw.p[raw.len - 1] == '\n' ? raw.len - 1
                                                         : raw.len;
    size_t start = n;
    while (start > 0 && raw.p[start - 1] != '\n')
        start--;
    if (start == 0) {
        st = err_set(e, ST_CONFLICT, "game %lld has no turn to undo yet",
                     (long long)id);
        goto out;
    }
    if (mlog_turn_number(raw.p + start, n - start, &last, e) != ST_OK)
        last = -1;
    if (turn > 0 && last != turn) {
        st = err_set(e, ST_CONFLICT, "the last turn recorded is %d, not %d: "
                     "nothing was undone", last, turn);
        goto out;
    }
    st = prepare(raw.p, start, "live", UNSUPPORTED_REFUSED, &p, e);
    if (st == ST_OK) {
        struct game_record g = record_of(&p, raw.p, start, "live", "live",
                                         now, true);
        g.replaces_sha256 = sha; /* the upload as read */
        st = store_replace_game(s, id, &g, e);
    }
    if (st == ST_OK)
        buf_printf(out, "{\"undone\": %d, \"turns\": %d}\n", last,
                   p.rep.turns);
out:
    prepared_release(&p);
    buf_release(&raw);
    return st;
}

/* The stored game parsed into log, then, with a turn so far, that turn
 * appended and parsed again: *out_from is where its moves start (-1:
 * none). */
static enum status live_options_log(int64_t id, struct buf *raw,
                                    const char *turn, size_t turn_len,
                                    struct game_log *log, long *out_from,
                                    struct err *e)
{
    enum mlog_format fmt;
    *out_from = -1;
    if (mlog_parse(raw->p ? raw->p : "", raw->len, log, &fmt, e) != ST_OK) {
        char why[ERR_MSG_MAX]; /* it parsed when it was stored */
        snprintf(why, sizeof why, "%s", e->msg);
        return err_set(e, ST_DB, "game %lld no longer parses: %s",
                       (long long)id, why);
    }
    if (!turn)
        return ST_OK;
    size_t n = log->n_moves;
    while (turn_len > 0 && (turn[turn_len - 1] == '\n' ||
                            turn[turn_len - 1] == '\r'))
        turn_len--;
    if (turn_len == 0 || memchr(turn, '\n', turn_len))
        return err_set(e, ST_PARSE, "turn: the turn so far is one flierlog "
                       "turn entry on one line");
    buf_append(raw, turn, turn_len);
    buf_puts(raw, "\n");
    game_log_release(log);
    game_log_init(log);
    if (mlog_parse(raw->p, raw->len, log, &fmt, e) != ST_OK) {
        char why[ERR_MSG_MAX];
        snprintf(why, sizeof why, "%s", e->msg);
        return err_set(e, ST_PARSE, "turn: %s", why);
    }
    *out_from = (long)n;
    return ST_OK;
}

enum status ingest_live_options(struct store *s, int64_t id,
                                const struct options_query *q,
                                const char *turn, size_t turn_len,
                                struct buf *out, struct err *e)
{
    struct buf raw = BUF_INIT;
    struct game_log log;
    struct turn_options o;
    struct options_query qt = *q;
    const char *stored = NULL;
    bool live = false;
    game_log_init(&log);
    memset(&o, 0, sizeof o);
    enum status st = store_game_is_live(s, id, &live, e);
    if (st == ST_OK && !live)
        st = err_set(e, ST_CONFLICT, "game %lld is not a live game (or is "
                     "finished): it has no next turn", (long long)id);
    if (st == ST_OK)
        st = store_game_raw(s, id, &raw, &stored, NULL, e);
    if (st == ST_OK) {
        if (raw.len > 0 && raw.p[raw.len - 1] != '\n')
            buf_puts(&raw, "\n");
        st = live_options_log(id, &raw, turn, turn_len, &log, &qt.steps_from,
                              e);
    }
    if (st == ST_OK)
        st = options_compute(&log, &qt, &o, e);
    if (st == ST_OK)
        mlog_options_json(id, &log, &qt, &o, out);
    options_release(&o);
    game_log_release(&log);
    buf_release(&raw);
    return st;
}

enum status ingest_convert(const char *raw, size_t len, bool jcz,
                           struct buf *out, struct err *e)
{
    struct game_log log;
    enum mlog_format fmt;
    game_log_init(&log);
    enum status st = mlog_parse(raw ? raw : "", len, &log, &fmt, e);
    if (st == ST_OK && jcz)
        mlog_write_jcz(&log, out);
    else if (st == ST_OK)
        mlog_write_flierlog(&log, out);
    game_log_release(&log);
    return st;
}

enum status ingest_live_finish(struct store *s, int64_t id, int64_t now,
                               struct buf *out, struct err *e)
{
    static const char final_line[] = "{\"final\": {}}";
    struct buf raw = BUF_INIT;
    struct prepared p;
    memset(&p, 0, sizeof p);
    size_t stored = 0;
    enum status st = live_raw(s, id, final_line, sizeof final_line - 1, &raw,
                              &stored, e);
    if (st == ST_OK)
        st = prepare(raw.p, raw.len, "live", UNSUPPORTED_REFUSED, &p, e);
    if (st == ST_OK) {
        struct game_record g = record_of(&p, raw.p, raw.len, "live", "live",
                                         now, false);
        st = store_replace_game(s, id, &g, e);
    }
    if (st == ST_OK)
        buf_append(out, p.report_json.p, p.report_json.len);
    prepared_release(&p);
    buf_release(&raw);
    return st;
}

/* ---- re-audit ------------------------------------------------------------ */

struct game_ref {
    int64_t id;
    int64_t uploaded_at;
    int verdict; /* enum game_verdict, as stored */
    char source[16];
};

struct ref_list {
    struct game_ref *v;
    size_t n, cap;
};

static int collect(void *ctx, int64_t id, const char *raw, size_t raw_len,
                   const char *source, int64_t uploaded_at, int verdict)
{
    struct ref_list *l = ctx;
    (void)raw;
    (void)raw_len;
    xgrow((void **)&l->v, &l->cap, l->n + 1, sizeof *l->v);
    struct game_ref *r = &l->v[l->n++];
    r->id = id;
    r->uploaded_at = uploaded_at;
    r->verdict = verdict;
    snprintf(r->source, sizeof r->source, "%s", source ? source : "cli");
    return 0;
}

static const char *verdict_name(int verdict)
{
    return verdict == VERDICT_VALID     ? "valid"
           : verdict == VERDICT_INVALID ? "invalid"
                                        : "unsupported";
}

/* What was stored against what this engine says: one line per change. */
struct reaudit_tally {
    struct buf *report;
    int changed;
    int unsupported;
};

static enum status reaudit_one(struct store *s, const struct game_ref *ref,
                               struct reaudit_tally *t, struct err *e)
{
    struct buf raw = BUF_INIT;
    struct prepared p;
    const char *fmt = NULL;
    bool live = false;
    memset(&p, 0, sizeof p);
    enum status st = store_game_raw(s, ref->id, &raw, &fmt, NULL, e);
    if (st == ST_OK)
        st = store_game_is_live(s, ref->id, &live, e);
    if (st == ST_OK)
        st = prepare(raw.p ? raw.p : "", raw.len, NULL, UNSUPPORTED_KEPT, &p,
                     e);
    if (st == ST_OK) {
        struct game_record g = record_of(&p, raw.p, raw.len, ref->source,
                                         NULL, ref->uploaded_at, live);
        st = store_replace_game(s, ref->id, &g, e);
    }
    int now = p.unsupported  ? VERDICT_UNSUPPORTED
              : p.rep.valid ? VERDICT_VALID
                            : VERDICT_INVALID;
    if (st == ST_OK && now != ref->verdict) {
        t->changed++;
        buf_printf(t->report, "game %lld: %s -> %s%s%s\n",
                   (long long)ref->id, verdict_name(ref->verdict),
                   verdict_name(now), p.unsupported ? " (" : "",
                   p.unsupported ? p.reason : "");
        if (p.unsupported)
            buf_puts(t->report, ")");
    }
    if (st == ST_OK && p.unsupported)
        t->unsupported++;
    prepared_release(&p);
    buf_release(&raw);
    return st;
}

enum status ingest_replay(struct store *s, int64_t id, char *sha_out,
                          struct buf *out, struct err *e)
{
    struct buf raw = BUF_INIT;
    struct game_log log;
    struct report rep;
    struct replay rp;
    enum mlog_format fmt;
    const char *stored = NULL;
    game_log_init(&log);
    /* the digest stored with the upload, read in the same query: hashing
     * the upload again was 3% of the daemon's time under a replay load */
    enum status st = store_game_raw(s, id, &raw, &stored, sha_out, e);
    if (st == ST_OK) {
        st = mlog_parse(raw.p ? raw.p : "", raw.len, &log, &fmt, e);
        if (st == ST_UNSUPPORTED) { /* stored as such: no replay yet */
            char why[ERR_MSG_MAX];
            snprintf(why, sizeof why, "%s", e->msg);
            st = err_set(e, ST_CONFLICT, "game %lld is stored but not "
                         "audited, so it has no replay: %s", (long long)id,
                         why);
        } else if (st != ST_OK && st != ST_NOMEM) { /* it parsed when stored */
            char why[ERR_MSG_MAX];
            snprintf(why, sizeof why, "%s", e->msg);
            st = err_set(e, ST_DB, "game %lld no longer parses: %s",
                         (long long)id, why);
        }
    }
    if (st == ST_OK) {
        replay_build(&log, NULL, &rp, &rep);
        mlog_replay_json(&log, &rep, &rp, out);
        replay_release(&rp);
        report_release(&rep);
    }
    game_log_release(&log);
    buf_release(&raw);
    return st;
}

enum status ingest_reaudit(struct store *s, struct buf *report,
                           int *out_games, int *out_changed,
                           int *out_unsupported, ingest_progress_fn progress,
                           void *ctx, struct err *e)
{
    struct ref_list refs = { NULL, 0, 0 };
    struct reaudit_tally t = { report, 0, 0 };
    *out_games = *out_changed = *out_unsupported = 0;
    enum status st = store_each_game(s, collect, &refs, e);
    for (size_t i = 0; st == ST_OK && i < refs.n; i++) {
        st = reaudit_one(s, &refs.v[i], &t, e);
        if (st == ST_OK)
            (*out_games)++;
        if (progress)
            progress(ctx, i + 1, refs.n);
    }
    *out_changed = t.changed;
    *out_unsupported = t.unsupported;
    free(refs.v);
    return st;
}
