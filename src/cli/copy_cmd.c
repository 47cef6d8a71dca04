/* copy_cmd.c - `flierd copy --from DB --to DB`: every game of one database
 * into another (SQLite to PostgreSQL and back, or into a new file),
 * through store.h only, so that any two backends behind it copy alike.
 *
 * A game is its upload: the bytes, with the file name, source, upload
 * time and live flag it was stored with. Everything else is derived, so
 * it is derived again rather than trusted from FROM: each upload is
 * audited by this engine the way `flierd ingest` audits a file
 * (ingest_prepare_stored; a game it cannot audit is stored as
 * unsupported), and the inserts rebuild TO's statistics. A verdict this
 * engine gives otherwise than FROM stored is listed.
 *
 * Ids. TO numbers the games itself, in FROM's id order. store.h has no
 * insert at a given id, and TO may hold games already whose ids FROM's
 * would collide with; links to /games/ID of FROM do not survive a copy.
 *
 * Duplicates. An upload TO holds already (the same SHA-256) is skipped
 * by the store, and counted. Games recorded live (source "live") are
 * never taken for duplicates by the store, as two tables may start
 * alike; copy matches them itself, each game of TO with one game of FROM
 * at most, so that a copy run again, or after an interruption, adds
 * nothing twice. TO's are read once, when FROM's first such game comes.
 *
 * FROM is opened read-only and read in one snapshot, so a daemon may go
 * on writing there. TO is written in batches of COPY_BATCH games, one
 * commit each, every game a savepoint: a game that fails leaves nothing
 * and the copy goes on; a batch that does not commit counts its games as
 * failed; every committed batch stays. The audits run on this thread:
 * store_each_upload() lends each upload for its call only, and keeping
 * them for ingest's worker threads would hold a database in memory. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/progress.h"
#include "ingest/ingest.h"
#include "store/store.h"
#include "util/xalloc.h"

#define COPY_BATCH 256

/* The SHA-256 of TO's games recorded live, sorted, each matched once. */
struct sha_bag {
    char (*sha)[65];
    bool *used;
    size_t n, cap;
    bool listed;
};

/* What the games stored since the last commit add, kept apart until it
 * is known whether their batch commits. */
struct copy_part {
    int copied, invalid, unsupported;
    struct buf unsupported_lines; /* "  game 7 (mage.jcz): unsupported: .." */
    struct buf changed_lines;     /* "  game 12: invalid -> valid" */
};

struct copy_run {
    struct store *to;
    struct progress prog;
    bool in_batch;
    size_t n_slot;                /* games since the last commit */
    int64_t stored_ids[COPY_BATCH]; /* FROM's ids of those stored */
    size_t n_stored;
    struct copy_part pending, done;
    int duplicates, failed;
    struct buf failures;          /* "  game 9 (x.jcz): reason" */
    struct sha_bag live;
    enum status st;               /* a failure that stops the copy */
    struct err e;
};

static const char *verdict_name(int verdict)
{
    return verdict == VERDICT_VALID     ? "valid"
           : verdict == VERDICT_INVALID ? "invalid"
                                        : "unsupported";
}

/* "game 12 (c2-2p.jcz)", or "game 12" for a game without a name. */
static void game_label(struct buf *b, const struct stored_upload *u)
{
    buf_printf(b, "  game %lld", (long long)u->id);
    if (u->name)
        buf_printf(b, " (%s)", u->name);
}

static void part_release(struct copy_part *p)
{
    buf_release(&p->unsupported_lines);
    buf_release(&p->changed_lines);
}

/* ---- games recorded live ------------------------------------------------ */

static int collect_live(void *ctx, const struct stored_upload *u)
{
    struct sha_bag *b = ctx;
    if (strcmp(u->source, "live") != 0)
        return 0;
    xgrow((void **)&b->sha, &b->cap, b->n + 1, sizeof *b->sha);
    snprintf(b->sha[b->n++], sizeof *b->sha, "%s", u->sha256);
    return 0;
}

static int cmp_sha(const void *a, const void *b)
{
    return strcmp(a, b);
}

static enum status bag_fill(struct sha_bag *b, struct store *to,
                            struct err *e)
{
    enum status st = store_each_upload(to, collect_live, b, e);
    if (st != ST_OK)
        return st;
    if (b->n > 1)
        qsort(b->sha, b->n, sizeof *b->sha, cmp_sha);
    b->used = xcalloc(b->n + 1, sizeof *b->used);
    b->listed = true;
    return ST_OK;
}

/* Takes a game of TO with these bytes that no other game of FROM took. */
static bool bag_take(struct sha_bag *b, const char *sha)
{
    size_t lo = 0, hi = b->n;
    while (lo < hi) { /* the first entry not below sha */
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(b->sha[mid], sha) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < b->n && strcmp(b->sha[lo], sha) == 0; lo++) {
        if (!b->used[lo]) {
            b->used[lo] = true;
            return true;
        }
    }
    return false;
}

static void bag_release(struct sha_bag *b)
{
    free(b->sha);
    free(b->used);
}

/* ---- batches ------------------------------------------------------------ */

static void append_lines(struct buf *to, const struct buf *lines)
{
    if (lines->len) /* an empty buf has no bytes to copy from */
        buf_append(to, lines->p, lines->len);
}

/* Ends the open batch (if any) and settles what its games add: kept when
 * it commits, failures naming each game when it does not. */
static void settle(struct copy_run *r)
{
    struct err e;
    err_clear(&e);
    bool kept = !r->in_batch || store_batch_end(r->to, true, &e) == ST_OK;
    r->in_batch = false;
    if (kept) {
        r->done.copied += r->pending.copied;
        r->done.invalid += r->pending.invalid;
        r->done.unsupported += r->pending.unsupported;
        append_lines(&r->done.unsupported_lines,
                     &r->pending.unsupported_lines);
        append_lines(&r->done.changed_lines, &r->pending.changed_lines);
    } else {
        for (size_t i = 0; i < r->n_stored; i++)
            buf_printf(&r->failures, "  game %lld: not stored, its batch did "
                       "not commit: %s\n", (long long)r->stored_ids[i],
                       e.msg);
        r->failed += (int)r->n_stored;
    }
    part_release(&r->pending);
    memset(&r->pending, 0, sizeof r->pending);
    r->n_stored = 0;
    r->n_slot = 0;
}

/* A batch for the next COPY_BATCH games; without one (TO's write lock
 * stayed busy) each game commits alone, and the next slot tries again. */
static void open_slot(struct copy_run *r)
{
    struct err e;
    err_clear(&e);
    r->in_batch = store_batch_begin(r->to, STORE_BATCH_SAVEPOINTS, &e) == ST_OK;
}

/* ---- one game ----------------------------------------------------------- */

static void stored_game(struct copy_run *r, const struct stored_upload *u,
                        const struct ingest_result *res)
{
    struct copy_part *p = &r->pending;
    int now = res->unsupported ? VERDICT_UNSUPPORTED
              : res->valid     ? VERDICT_VALID
                               : VERDICT_INVALID;
    p->copied++;
    p->invalid += now == VERDICT_INVALID;
    p->unsupported += now == VERDICT_UNSUPPORTED;
    if (now == VERDICT_UNSUPPORTED) {
        game_label(&p->unsupported_lines, u);
        buf_printf(&p->unsupported_lines, ": %s\n", res->reason);
    }
    if (now != u->verdict) {
        game_label(&p->changed_lines, u);
        buf_printf(&p->changed_lines, ": %s -> %s\n",
                   verdict_name(u->verdict), verdict_name(now));
    }
    r->stored_ids[r->n_stored++] = u->id;
}

/* Stores u in TO; false when the copy must stop (r->st, r->e say why). */
static bool copy_game(struct copy_run *r, const struct stored_upload *u)
{
    struct ingest_job *job = NULL;
    struct ingest_result res;
    struct err e;
    if (strcmp(u->source, "live") == 0) {
        if (!r->live.listed) {
            settle(r); /* TO's list is read outside a batch */
            r->st = bag_fill(&r->live, r->to, &r->e);
            if (r->st != ST_OK)
                return false;
        }
        if (bag_take(&r->live, u->sha256)) {
            r->duplicates++;
            return true;
        }
    }
    if (r->n_slot == 0)
        open_slot(r);
    err_clear(&e);
    memset(&res, 0, sizeof res);
    enum status st = ingest_prepare_stored(u, &job, &e);
    if (st == ST_OK)
        st = ingest_commit(r->to, job, &res, &e);
    ingest_job_free(job);
    if (st != ST_OK) {
        r->failed++;
        game_label(&r->failures, u);
        buf_printf(&r->failures, ": %s\n", e.msg);
    } else if (res.duplicate) {
        r->duplicates++;
    } else {
        stored_game(r, u, &res);
    }
    if (++r->n_slot == COPY_BATCH)
        settle(r);
    return true;
}

static int copy_one(void *ctx, const struct stored_upload *u)
{
    struct copy_run *r = ctx;
    if (u->index == 0)
        progress_set_total(&r->prog, u->n_games);
    bool go_on = copy_game(r, u);
    progress_update(&r->prog, u->index + 1, progress_clock());
    return !go_on;
}

/* ---- the command -------------------------------------------------------- */

static void usage(FILE *f)
{
    fputs("usage: flierd copy --from DB --to DB [--quiet]\n"
          "  Copies every game of the database FROM into the database TO\n"
          "  (created if new, or one that holds games already): each\n"
          "  upload byte for byte, with its file name, source, upload time\n"
          "  and live flag. Each is audited again by this version's\n"
          "  engine (a game it cannot audit is stored as unsupported) and\n"
          "  TO's statistics are rebuilt from them. TO gives the games ids\n"
          "  of its own, in FROM's order: ids are not kept.\n"
          "  Games TO holds already (the same upload) are skipped and\n"
          "  counted, so a copy may be run again after an interruption.\n"
          "  Reads one snapshot of FROM, so it may run beside the daemon;\n"
          "  writes TO in batches of 256 games.\n"
          "  --from DB  the database to read (not changed): a SQLite\n"
          "             file or a postgresql:// URI\n"
          "  --to DB    the database to write, either kind; not the\n"
          "             same as FROM\n"
          "  --quiet    no progress display (there is none when stderr is\n"
          "             not a terminal)\n"
          "exit status: 0 every game copied (or already in TO), 1 a game\n"
          "  failed (listed with its id in FROM and the reason), 2 a bad\n"
          "  argument or a database that could not be opened or read\n", f);
}

/* Returns -1 to go on, else an exit status. */
static int parse_args(int argc, char **argv, const char **from,
                      const char **to, bool *quiet, FILE *out, FILE *errs)
{
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--from") == 0 && i + 1 < argc) {
            *from = argv[++i];
        } else if (strcmp(argv[i], "--to") == 0 && i + 1 < argc) {
            *to = argv[++i];
        } else if (strcmp(argv[i], "--quiet") == 0) {
            *quiet = true;
        } else if (strcmp(argv[i], "-h") == 0 ||
                   strcmp(argv[i], "--help") == 0) {
            usage(out);
            return 0;
        } else {
            fprintf(errs, "flierd copy: unknown argument '%s'\n", argv[i]);
            usage(errs);
            return 2;
        }
    }
    if (!*from || !*to) {
        fprintf(errs, "flierd copy: both --from and --to are needed\n");
        usage(errs);
        return 2;
    }
    return -1;
}

/* The same database under two names: the same string, or (files) the
 * same inode. Two URIs of one server's database are not recognised; such
 * a copy would only find every game a duplicate. */
static bool same_database(const char *a, const char *b)
{
    struct stat sa, sb;
    if (strcmp(a, b) == 0)
        return true;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

/* store_open's errors may name the database already. */
static void open_failed(FILE *errs, const char *db, const struct err *e)
{
    bool named = strncmp(e->msg, db, strlen(db)) == 0;
    fprintf(errs, "flierd copy: %s%s%s\n", named ? "" : db,
            named ? "" : ": ", e->msg);
}

static void print_summary(FILE *out, const struct copy_run *r,
                          const char *from, const char *to)
{
    const struct copy_part *d = &r->done;
    if (d->unsupported)
        fprintf(out, "stored, not audited yet (flierd reaudit audits them "
                "once supported):\n%s", d->unsupported_lines.p);
    if (d->changed_lines.len)
        fprintf(out, "verdicts that differ from those stored in %s "
                "(audited again by this engine):\n%s", from,
                d->changed_lines.p);
    if (r->failed)
        fprintf(out, "failed (ids in %s):\n%s", from, r->failures.p);
    fprintf(out, "copied %d game%s from %s to %s (%d valid, %d invalid, "
            "%d unsupported), duplicates skipped %d, failed %d\n",
            d->copied, d->copied == 1 ? "" : "s", from, to,
            d->copied - d->invalid - d->unsupported,
            d->invalid, d->unsupported, r->duplicates, r->failed);
}

int cli_copy(int argc, char **argv, FILE *out, FILE *errs)
{
    const char *from = NULL, *to = NULL;
    bool quiet = false;
    struct store *src = NULL;
    struct copy_run r;
    struct err e;
    int rc = parse_args(argc, argv, &from, &to, &quiet, out, errs);
    if (rc >= 0)
        return rc;
    if (same_database(from, to)) {
        if (strcmp(from, to) == 0)
            fprintf(errs, "flierd copy: --from and --to name the same "
                    "database (%s)\n", from);
        else
            fprintf(errs, "flierd copy: --from and --to name the same "
                    "database (%s and %s are one file)\n", from, to);
        return 2;
    }
    memset(&r, 0, sizeof r);
    err_clear(&e);
    err_clear(&r.e);
    /* FROM first: a FROM that cannot be read leaves no new TO behind */
    if (store_open(from, true, &src, &e) != ST_OK) {
        open_failed(errs, from, &e);
        return 2;
    }
    if (store_open(to, false, &r.to, &e) != ST_OK) {
        open_failed(errs, to, &e);
        store_close(src);
        return 2;
    }
    progress_start(&r.prog, progress_stream(errs, quiet), "games", 0,
                   progress_clock());
    enum status st = store_each_upload(src, copy_one, &r, &e);
    settle(&r);
    progress_end(&r.prog);
    store_close(src);
    store_close(r.to);
    print_summary(out, &r, from, to);
    rc = r.failed ? 1 : 0;
    if (r.st != ST_OK) {
        fprintf(errs, "flierd copy: %s: %s; stopped, the games copied "
                "before are kept (run the copy again to go on)\n", to,
                r.e.msg);
        rc = 2;
    } else if (st != ST_OK) {
        fprintf(errs, "flierd copy: %s: %s; stopped, the games copied "
                "before are kept (run the copy again to go on)\n", from,
                e.msg);
        rc = 2;
    }
    part_release(&r.pending);
    part_release(&r.done);
    buf_release(&r.failures);
    bag_release(&r.live);
    return rc;
}
