/* simulate_cmd.c - `flierd simulate`: random legal games (src/sim), one
 * file per game, optionally with forged illegal moves and a manifest.
 *
 * Output depends on the arguments alone (no clock, no pid): game i is
 * played with a seed mixed from --seed and i, and the writers put no
 * timestamps in a file, so the same command writes the same bytes.
 *
 * DIR/manifest.json, one entry per line, in file order:
 *   {"game-000001.jcz": {"rule": null, "turn": null, "scores": [..],
 *                        "flights": n, "landed": n, "players": 3,
 *                        "edition": "C2", "expansions": ["base", "flier"]},
 *    "game-000002.jcz": {"rule": "TILE_OCCUPIED", "turn": 12,
 *                        "how": "placed ... on the start tile's square",
 *                        "players": 2, "edition": "C3", "expansions": [..]},
 *    "game-000003.jcz": {"rule": "FLIER_FIELD", "turn": 40, "how": "...",
 *                        "figure": "big", ...}, ...}
 * ("figure": the figure of a forged flight, JCloisterZone's meeple kind.)
 * A forged entry is checked before it is written: the file, read back and
 * audited, reports that rule first, at that turn. So is a legal game with
 * an expansion beyond the edition's (--expansions, --sets, --elements):
 * read back, it audits valid with the simulator's scores, or the command
 * fails, naming the file, rather than write a save the writers cannot
 * carry whole. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/progress.h"
#include "core/audit.h"
#include "mlog/mlog.h"
#include "sim/forge.h"
#include "sim/sim.h"

struct sim_opts {
    long games;
    unsigned long long seed;
    int min_players, max_players;
    int edition;          /* 2, 3, or 0: alternate */
    double flier_rate;
    double forge_rate;
    enum mlog_format format;
    const char *out;
    const char *expansions, *sets, *elements; /* struct sim_setup lists */
    bool quiet; /* no progress display */
};

static uint64_t mix(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* The units --expansions can name: those no edition brings. */
/* Every unit --expansions takes, one a line with its name, from the
 * registry: a list written by hand had fallen behind it (no count). */
static void unit_ids(FILE *f)
{
    struct sim_setup s = { 3, NULL, NULL, NULL };
    struct rules r;
    struct err e;
    uint64_t edition = sim_rules(&s, 2, &r, &e) == ST_OK
                           ? game_rules_units(&r)
                           : 0;
    for (int u = 0; u < EXP__COUNT; u++)
        if (!(edition >> u & 1))
            fprintf(f, "                 %-12s %s\n", expansion_get(u)->id,
                    expansion_get(u)->name);
}

static void usage(FILE *f)
{
    fputs("usage: flierd simulate --games N --seed S --out DIR [--players "
          "2..6]\n"
          "         [--edition c2|c3] [--expansions LIST] [--sets LIST]\n"
          "         [--elements LIST] [--flier-rate P] [--format "
          "jcz|flierlog]\n"
          "         [--forge RATE] [--quiet]\n"
          "  Plays N random legal games through the rules engine and writes\n"
          "  one file per game into DIR (created if needed), with\n"
          "  DIR/manifest.json. The same arguments write the same bytes.\n"
          "  --players    a count or a range A..B (default 2..6, in turn)\n"
          "  --edition    c2 or c3 (default: alternate): the base game and\n"
          "               The Flier of that edition, 7 followers, farmers\n"
          "               (c3: abbots and gardens too)\n"
          "  --expansions comma-separated units, each with its tile set of\n"
          "               the edition and all its game elements (the\n"
          "               README says what each brings), of these:\n",
          f);
    unit_ids(f);
    fputs("  --sets       tile sets to add, e.g. river/2 (The River II) or\n"
          "               inns-and-cathedrals:1 (edition spelt out)\n"
          "  --elements   game elements to add or set, e.g. big-follower,\n"
          "               phantom=1, abbey=1, farmers=0\n"
          "  --flier-rate chance to fly when a roll would land (default "
          "0.9)\n"
          "  --forge      share of games given one illegal move, of each\n"
          "               rule in turn (those the game allows); the\n"
          "               manifest names rule and turn\n"
          "  --quiet      no progress display (there is none when stderr\n"
          "               is not a terminal)\n"
          "  example: flierd simulate --games 10 --seed 1 --edition c3\n"
          "           --expansions river,inns,phantom --out games\n"
          "exit status: 0 done, 2 bad usage, DIR not writable, or a save\n"
          "  that would not replay as played\n",
          f);
}

static bool parse_players(const char *s, struct sim_opts *o)
{
    int a, b;
    char extra;
    if (sscanf(s, "%d..%d%c", &a, &b, &extra) == 2) {
        o->min_players = a;
        o->max_players = b;
    } else if (sscanf(s, "%d%c", &a, &extra) == 1) {
        o->min_players = o->max_players = a;
    } else {
        return false;
    }
    return o->min_players >= 2 && o->max_players <= GAME_MAX_PLAYERS &&
           o->min_players <= o->max_players;
}

static bool parse_rate(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !(v >= 0 && v <= 1))
        return false;
    *out = v;
    return true;
}

static int check_setup(const struct sim_opts *o, FILE *errs);

/* Returns 0 when parsed, 1 for --help, 2 on a bad argument. */
static int parse_args(int argc, char **argv, struct sim_opts *o, FILE *out,
                      FILE *errs)
{
    *o = (struct sim_opts){ -1, 0, 2, 6, 0, 0.9, 0, MLOG_JCZ, NULL,
                            NULL, NULL, NULL, false };
    bool have_seed = false;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        char *end;
        bool ok = v != NULL;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(out);
            return 1;
        } else if (strcmp(a, "--quiet") == 0) {
            o->quiet = true;
            continue;
        } else if (strcmp(a, "--games") == 0 && ok) {
            o->games = strtol(v, &end, 10);
            ok = *end == '\0' && o->games >= 0 && o->games <= 99999999;
        } else if (strcmp(a, "--seed") == 0 && ok) {
            o->seed = strtoull(v, &end, 0);
            ok = *end == '\0' && *v != '-';
            have_seed = true;
        } else if (strcmp(a, "--players") == 0 && ok) {
            ok = parse_players(v, o);
        } else if (strcmp(a, "--edition") == 0 && ok) {
            o->edition = strcmp(v, "c2") == 0 ? 2 : strcmp(v, "c3") == 0 ? 3
                                                                           : -1;
            ok = o->edition > 0;
        } else if (strcmp(a, "--flier-rate") == 0 && ok) {
            ok = parse_rate(v, &o->flier_rate);
        } else if (strcmp(a, "--forge") == 0 && ok) {
            ok = parse_rate(v, &o->forge_rate);
        } else if (strcmp(a, "--format") == 0 && ok) {
            o->format = strcmp(v, "jcz") == 0        ? MLOG_JCZ
                        : strcmp(v, "flierlog") == 0 ? MLOG_FLIERLOG
                                                     : MLOG_UNKNOWN;
            ok = o->format != MLOG_UNKNOWN;
        } else if (strcmp(a, "--out") == 0 && ok) {
            o->out = v;
        } else if (strcmp(a, "--expansions") == 0 && ok) {
            o->expansions = v;
        } else if (strcmp(a, "--sets") == 0 && ok) {
            o->sets = v;
        } else if (strcmp(a, "--elements") == 0 && ok) {
            o->elements = v;
        } else {
            fprintf(errs, "flierd simulate: bad argument '%s'\n", a);
            return 2;
        }
        if (!ok) {
            fprintf(errs, "flierd simulate: bad value for %s\n", a);
            return 2;
        }
        i++;
    }
    if (o->games < 0 || !have_seed || !o->out) {
        usage(errs);
        return 2;
    }
    return check_setup(o, errs);
}

static struct sim_setup setup_of(const struct sim_opts *o, int edition)
{
    struct sim_setup s = { edition, o->expansions, o->sets, o->elements };
    return s;
}

/* Every edition the games will use must accept the lists. */
static int check_setup(const struct sim_opts *o, FILE *errs)
{
    for (int ed = 2; ed <= 3; ed++) {
        struct sim_setup s = setup_of(o, ed);
        struct rules r;
        struct err e;
        if (o->edition && o->edition != ed)
            continue;
        if (sim_rules(&s, o->min_players, &r, &e) != ST_OK) {
            fprintf(errs, "flierd simulate: %s\n", e.msg);
            return 2;
        }
    }
    return 0;
}

/* Game i's rules; *extra: units in play beyond those of the edition. */
static void game_rules(const struct sim_opts *o, long i, struct rules *r,
                       bool *c3, uint64_t *extra)
{
    struct sim_setup s;
    struct rules plain;
    struct err e;
    int n = o->min_players + (int)(i % (o->max_players - o->min_players + 1));
    *c3 = o->edition ? o->edition == 3 : i % 2 == 1;
    s = setup_of(o, *c3 ? 3 : 2);
    if (sim_rules(&s, n, r, &e) != ST_OK)
        abort(); /* check_setup() accepted the lists for this edition */
    s.expansions = s.sets = s.elements = NULL;
    if (sim_rules(&s, n, &plain, &e) != ST_OK)
        abort();
    *extra = game_rules_units(r) & ~game_rules_units(&plain);
}

static void write_log(const struct game_log *l, enum mlog_format f,
                      struct buf *b)
{
    b->len = 0;
    if (f == MLOG_FLIERLOG)
        mlog_write_flierlog(l, b);
    else
        mlog_write_jcz(l, b);
}

/* Reads the written bytes back and audits them into *r (released by the
 * caller); false, with why, when they do not parse. */
static bool audit_bytes(const struct buf *b, struct report *r, char *why,
                        size_t why_len)
{
    struct game_log l;
    enum mlog_format fmt;
    struct err e;
    bool ok;
    game_log_init(&l);
    ok = mlog_parse(b->p, b->len, &l, &fmt, &e) == ST_OK;
    if (ok)
        audit_run(&l, NULL, r, NULL);
    else
        snprintf(why, why_len, "it does not read back: %s", e.msg);
    game_log_release(&l);
    return ok;
}

/* Is the forgery flagged in the written file? */
static bool flagged_in_file(const struct buf *b, const struct sim_forgery *f)
{
    struct report r;
    char why[ERR_MSG_MAX + 32];
    bool ok = audit_bytes(b, &r, why, sizeof why);
    if (ok) {
        ok = sim_forgery_flagged(&r, f);
        report_release(&r);
    }
    return ok;
}

/* Does the written file replay as the simulator played it: valid,
 * finished, the same scores? why says what differs. */
static bool replays_as_played(const struct buf *b, const struct rules *rules,
                              const struct sim_result *res, char *why,
                              size_t why_len)
{
    struct report r;
    if (!audit_bytes(b, &r, why, why_len))
        return false;
    bool ok = r.valid && r.finished;
    if (!ok)
        snprintf(why, why_len, "it audits %s: %s",
                 r.valid ? "unfinished" : "invalid",
                 r.n_violations ? r.violations[0].msg : r.halt_msg);
    for (int p = 0; ok && p < rules->n_players; p++)
        if (r.score[p] != res->score[p]) {
            snprintf(why, why_len, "seat %d scores %d read back, %d played",
                     p, r.score[p], res->score[p]);
            ok = false;
        }
    report_release(&r);
    return ok;
}

/* Forges game l with the rule of turn k (or the next that this game and
 * format allow) into b; false when none could be. */
static bool forge_one(const struct game_log *l, enum mlog_format fmt,
                      uint64_t seed, long k, struct buf *b,
                      struct sim_forgery *out_f)
{
    enum rule rules[RULE__COUNT];
    int n = sim_forge_rules_for(&l->rules, rules, RULE__COUNT);
    for (int j = 0; j < n; j++) {
        enum rule rule = rules[(k + j) % n];
        for (uint64_t s = 0; s < 2; s++) {
            struct game_log forged;
            if (!sim_forge(l, rule, seed + s * 7919, &forged, out_f))
                break; /* no turn of this game suits the rule */
            write_log(&forged, fmt, b);
            game_log_release(&forged);
            if (flagged_in_file(b, out_f))
                return true;
        }
    }
    return false;
}

static void manifest_entry(struct buf *m, const char *file, long i, bool c3,
                           const struct rules *r, const struct sim_result *res,
                           const struct sim_forgery *f)
{
    buf_printf(m, "%s\"%s\": {", i ? ",\n " : "{", file);
    if (f) {
        buf_printf(m, "\"rule\": \"%s\", \"turn\": %d, \"how\": \"%s\"",
                   rule_id(f->rule), f->turn, f->how);
        if (figure_class(f->figure))
            buf_printf(m, ", \"figure\": \"%s\"",
                       figure_class(f->figure)->jcz);
    } else {
        buf_printf(m, "\"rule\": null, \"turn\": null, \"scores\": [");
        for (int p = 0; p < r->n_players; p++)
            buf_printf(m, "%s%d", p ? ", " : "", res->score[p]);
        buf_printf(m, "], \"flights\": %d, \"landed\": %d", res->flights,
                   res->landed);
    }
    buf_printf(m, ", \"players\": %d, \"edition\": \"%s\", \"expansions\": [",
               r->n_players, c3 ? "C3" : "C2");
    uint64_t units = game_rules_units(r);
    for (int u = 0, n = 0; u < EXP__COUNT; u++)
        if (units >> u & 1)
            buf_printf(m, "%s\"%s\"", n++ ? ", " : "", expansion_get(u)->id);
    buf_puts(m, "]}");
}

static bool write_file(const char *path, const struct buf *b)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return false;
    bool ok = fwrite(b->p, 1, b->len, f) == b->len;
    return fclose(f) == 0 && ok;
}

struct sim_tally {
    long forged, unforgeable, flights, landed;
};

/* Plays, forges and writes game i; false when the file cannot be written
 * or would not replay as played. */
static bool one_game(const struct sim_opts *o, long i, struct buf *manifest,
                     struct sim_tally *t, FILE *errs)
{
    static const char *const names[GAME_MAX_PLAYERS] = { "Ada", "Ben", "Cleo",
                                                         "Dov", "Eli", "Fay" };
    struct sim_policy p = sim_policy_default();
    struct rules r;
    struct game_log l;
    struct sim_result res;
    struct sim_forgery f;
    struct buf b = BUF_INIT, path = BUF_INIT, file = BUF_INIT;
    bool c3, forged = false, ok = true;
    uint64_t extra;
    char why[AUDIT_MSG_MAX + 64];
    uint64_t seed = mix(o->seed ^ mix((uint64_t)i));

    p.flier_rate = o->flier_rate;
    game_rules(o, i, &r, &c3, &extra);
    sim_play_result(&r, names, seed, &p, &l, &res);
    t->flights += res.flights;
    t->landed += res.landed;
    if (o->forge_rate > 0 &&
        (double)(mix(seed ^ 0xf0f0) >> 11) / 9007199254740992.0 <
            o->forge_rate) {
        forged = forge_one(&l, o->format, seed, t->forged + t->unforgeable,
                           &b, &f);
        t->forged += forged;
        t->unforgeable += !forged;
    }
    if (!forged)
        write_log(&l, o->format, &b);
    buf_printf(&file, "game-%06ld.%s", i + 1,
               o->format == MLOG_FLIERLOG ? "flierlog" : "jcz");
    buf_printf(&path, "%s/%s", o->out, file.p);
    /* the writers learnt the base game first: a game with more is read
     * back before it is written */
    if (!forged && extra && !replays_as_played(&b, &r, &res, why, sizeof why)) {
        fprintf(errs, "flierd simulate: %s would not replay as played (%s); "
                "the %s writer cannot carry this game yet\n", path.p, why,
                o->format == MLOG_FLIERLOG ? "flierlog" : ".jcz");
        ok = false;
    }
    if (ok && !write_file(path.p, &b)) {
        fprintf(errs, "flierd simulate: %s: %s\n", path.p, strerror(errno));
        ok = false;
    }
    manifest_entry(manifest, file.p, i, c3, &r, &res, forged ? &f : NULL);
    game_log_release(&l);
    buf_release(&b);
    buf_release(&path);
    buf_release(&file);
    return ok;
}

int cli_simulate(int argc, char **argv, FILE *out, FILE *errs)
{
    struct sim_opts o;
    struct sim_tally t = { 0, 0, 0, 0 };
    struct buf manifest = BUF_INIT, path = BUF_INIT;
    int rc = parse_args(argc, argv, &o, out, errs);
    if (rc)
        return rc == 1 ? 0 : 2;
    if (mkdir(o.out, 0777) != 0 && errno != EEXIST) {
        fprintf(errs, "flierd simulate: %s: %s\n", o.out, strerror(errno));
        return 2;
    }
    struct progress prog;
    progress_start(&prog, progress_stream(errs, o.quiet), "games",
                   (size_t)o.games, progress_clock());
    rc = 0;
    for (long i = 0; i < o.games && rc == 0; i++) {
        if (!one_game(&o, i, &manifest, &t, errs))
            rc = 2;
        progress_update(&prog, (size_t)i + 1, progress_clock());
    }
    progress_end(&prog);
    buf_printf(&manifest, "%s}\n", o.games ? "" : "{");
    buf_printf(&path, "%s/manifest.json", o.out);
    if (rc == 0 && !write_file(path.p, &manifest)) {
        fprintf(errs, "flierd simulate: %s: %s\n", path.p, strerror(errno));
        rc = 2;
    }
    if (rc == 0)
        fprintf(out, "simulated %ld games into %s: %ld forged%s, %ld "
                "flights, %ld landed\n", o.games, o.out, t.forged,
                t.unforgeable ? " (some games allowed no forgery)" : "",
                t.flights, t.landed);
    buf_release(&manifest);
    buf_release(&path);
    return rc;
}
