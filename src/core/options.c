/* options.c - the next moves of a game as the engine lists them
 * (options.h). Each step the query takes is applied through the auditor
 * (audit_step), so a tile the query places or a flight it takes is
 * judged exactly as a recorded one would be, and the lists that follow
 * come from the state the auditor leaves. */
#include "core/options.h"
#include "core/audit_unit.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

void options_query_init(struct options_query *q)
{
    memset(q, 0, sizeof *q);
    q->tile = -1;
    q->fly = -1;
    q->steps_from = -1;
}

/* A decimal integer filling all of s (an optional '-'), within lo..hi. */
static bool read_int(const char *s, int lo, int hi, int *out)
{
    long v = 0;
    bool neg = *s == '-';
    const char *p = s + neg;
    if (*p == '\0')
        return false;
    for (; *p; p++) {
        if (*p < '0' || *p > '9' || v > 100000)
            return false;
        v = v * 10 + (*p - '0');
    }
    v = neg ? -v : v;
    if (v < lo || v > hi)
        return false;
    *out = (int)v;
    return true;
}

/* "x,y" into p. */
static bool read_pos(const char *s, struct pos *p)
{
    char x[16], *comma = strchr(s, ',');
    size_t n = comma ? (size_t)(comma - s) : 0;
    int vx, vy;
    if (!comma || n == 0 || n >= sizeof x)
        return false;
    memcpy(x, s, n);
    x[n] = '\0';
    if (!read_int(x, -GAME_MAX_TILES, GAME_MAX_TILES, &vx) ||
        !read_int(comma + 1, -GAME_MAX_TILES, GAME_MAX_TILES, &vy))
        return false;
    p->x = vx;
    p->y = vy;
    return true;
}

enum status options_query_parse(struct options_query *q, const char *tile,
                                const char *at, const char *rot,
                                const char *fly, const char *roll,
                                struct err *e)
{
    int deg = 0;
    options_query_init(q);
    if (tile && (q->tile = tile_find(tile)) < 0)
        return err_set(e, ST_PARSE, "tile: no tile is called '%.40s'", tile);
    if (at && !read_pos(at, &q->at))
        return err_set(e, ST_PARSE, "at: '%.40s' is not a square "
                       "(write it x,y, e.g. 2,-1)", at);
    if (rot && (!read_int(rot, 0, 270, &deg) || deg % 90 != 0))
        return err_set(e, ST_PARSE, "rot: '%.40s' is not 0, 90, 180 or "
                       "270 (degrees clockwise)", rot);
    if (fly && ((q->fly = figure_find(fly)) < 0 ||
                !figure_class(q->fly)->flies))
        return err_set(e, ST_PARSE, "fly: '%.40s' is no figure that may "
                       "fly (small, big, abbot, phantom, ...)", fly);
    if (roll && !read_int(roll, 1, 3, &q->roll))
        return err_set(e, ST_PARSE, "roll: '%.40s' is not a roll of the "
                       "flier's die (1, 2 or 3)", roll);
    if (at && !tile)
        return err_set(e, ST_PARSE, "at: a square needs the tile (tile=)");
    if (rot && !at)
        return err_set(e, ST_PARSE, "rot: a rotation needs the square (at=)");
    if (fly && !at)
        return err_set(e, ST_PARSE, "fly: a flight needs the tile placed "
                       "(tile=, at=)");
    if (roll && !fly)
        return err_set(e, ST_PARSE, "roll: a roll needs the figure that "
                       "flies (fly=)");
    q->placed = at != NULL;
    q->rot = deg / 90;
    return ST_OK;
}

/* ---- the pieces --------------------------------------------------------- */

static struct seg_place seg_place_of(const struct game *g, int seg)
{
    const struct seg *s = &g->segs[seg];
    return (struct seg_place){ game_tile_pos(g, s->tile),
                               (uint8_t)feat_logged(s->kind), s->mask };
}

/* Most kinds of tile the units let a seat hold (an abbey). */
#define OPTIONS_HELD_MAX 4

int options_tiles(const struct game *g, struct turn_options *o)
{
    free(o->tiles);
    o->tiles = xcalloc((size_t)g->n_pack_kinds + OPTIONS_HELD_MAX,
                       sizeof *o->tiles);
    o->n_tiles = 0;
    for (int k = 0; k < g->n_pack_kinds; k++) {
        int t = g->pack_kind[k];
        if (g->pack[t] <= 0)
            continue;
        o->tiles[o->n_tiles++] = (struct tile_offer){
            (int16_t)t, g->pack[t], game_drawable(g, t),
            game_fits_anywhere(g, t), false
        };
    }
    for (int u = 0; u < g->n_units; u++) {
        int16_t kinds[OPTIONS_HELD_MAX], held[OPTIONS_HELD_MAX];
        int room = OPTIONS_HELD_MAX - (o->n_tiles - g->n_pack_kinds);
        int n = g->unit[u]->held_tiles && room > 0
                    ? g->unit[u]->held_tiles(g, g->seat, kinds, held, room)
                    : 0;
        for (int i = 0; i < n; i++)
            o->tiles[o->n_tiles++] = (struct tile_offer){
                kinds[i], held[i], true, game_fits_anywhere(g, kinds[i]),
                true
            };
    }
    return o->n_tiles;
}

/* Empty squares beside the board, four turns each. */
#define OPTIONS_MAX_PLACES (4 * GAME_MAX_TILES * 4)

static int cmp_pos(const void *a, const void *b)
{
    const struct pos *p = a, *q = b;
    return p->x != q->x ? (p->x > q->x) - (p->x < q->x)
                        : (p->y > q->y) - (p->y < q->y);
}

/* Every turn of tile on every empty square beside the board that
 * game_fits() takes, as the auditor judges a placement: for the games
 * where a unit excuses edges that do not meet (a bridge the placement
 * brings), which game_list_placements() does not try. */
static int fitting_places(const struct game *g, int tile,
                          struct placement *out, int max)
{
    struct pos *sq = xcalloc((size_t)g->n_tiles * 4 + 1, sizeof *sq);
    int n_sq = 0, n = 0;
    for (int i = 0; i < g->n_tiles; i++)
        for (int side = 0; side < 4; side++) {
            struct pos q = pos_step(game_tile_pos(g, i), side);
            if (game_tile_at(g, q) < 0)
                sq[n_sq++] = q;
        }
    qsort(sq, (size_t)n_sq, sizeof *sq, cmp_pos);
    for (int k = 0; k < n_sq; k++) {
        if (k > 0 && cmp_pos(&sq[k - 1], &sq[k]) == 0)
            continue;
        for (int rot = 0; rot < 4 && n < max; rot++)
            if (game_fits(g, tile, sq[k], rot))
                out[n++] = (struct placement){ sq[k], rot };
    }
    free(sq);
    return n;
}

int options_places(const struct game *g, int tile, struct turn_options *o)
{
    free(o->places);
    o->places = xcalloc(OPTIONS_MAX_PLACES, sizeof *o->places);
    if (g->hooked >> HOOK_excuse_edges & 1)
        o->n_places = fitting_places(g, tile, o->places, OPTIONS_MAX_PLACES);
    else
        o->n_places = game_list_placements(g, tile, o->places,
                                           OPTIONS_MAX_PLACES);
    if (o->n_places > OPTIONS_MAX_PLACES)
        o->n_places = OPTIONS_MAX_PLACES;
    return o->n_places;
}

/* The flight of fig from the turn's tile, as each roll would end. */
static void flight_offer(const struct game *g, int fig,
                         struct flight_offer *f)
{
    struct flight_options fo;
    game_flight_options(g, g->now.tile, fig, &fo);
    f->figure = (uint8_t)fig;
    for (int r = 0; r < 3; r++) {
        f->target[r] = fo.target[r];
        f->n[r] = fo.n[r] < TILE_MAX_SEGS ? fo.n[r] : TILE_MAX_SEGS;
        for (int i = 0; i < f->n[r]; i++)
            f->land[r][i] = seg_place_of(g, fo.seg[r][i]);
    }
}

/* The deployments off the turn's tile that units allow (a follower on a
 * tower, through a portal, onto acrobats beside the tile): every other
 * segment of the board asked of the engine's deployment check, for each
 * figure kind in supply, after the listed ones (listed[0, n)). */
static void board_deploys(const struct game *g, int seat,
                          const struct deploy_option *listed, int n,
                          struct turn_options *o)
{
    int fig[FIG__COUNT], mi[FIG__COUNT], n_fig = 0;
    for (int k = 0; k < FIG__COUNT; k++) {
        int m = game_meeple(g, seat, k, 0);
        if (m >= 0 && game_check_action(g, k, NULL, 0) == RULE_OK) {
            fig[n_fig] = k;
            mi[n_fig++] = m;
        }
    }
    bool *seen = xcalloc((size_t)g->n_segs * FIG__COUNT + 1, sizeof *seen);
    for (int i = 0; i < n; i++)
        seen[listed[i].seg * FIG__COUNT + listed[i].figure] = true;
    size_t cap = (size_t)o->n_deploys + 1;
    for (int seg = 0; seg < g->n_segs && n_fig > 0; seg++) {
        if (g->segs[seg].kind == FEAT_FLIER)
            continue;
        for (int k = 0; k < n_fig; k++) {
            if (seen[seg * FIG__COUNT + fig[k]] ||
                game_check_deploy(g, seat, mi[k], seg, NULL, 0) != RULE_OK)
                continue;
            xgrow((void **)&o->deploys, &cap, (size_t)o->n_deploys + 1,
                  sizeof *o->deploys);
            o->deploys[o->n_deploys++] = (struct deploy_offer){
                seg_place_of(g, seg), (uint8_t)fig[k]
            };
        }
    }
    free(seen);
}

int options_actions(const struct game *g, int seat, struct turn_options *o)
{
    int max = 2 * TILE_MAX_SEGS * FIG__COUNT;
    struct deploy_option *d = xcalloc((size_t)max, sizeof *d);
    int n = game_list_deploys(g, seat, d, max);
    if (n > max) { /* figures beside the tile: room for all of them */
        free(d);
        max = n;
        d = xcalloc((size_t)max, sizeof *d);
        n = game_list_deploys(g, seat, d, max);
    }
    free(o->deploys);
    o->deploys = xcalloc((size_t)n + 1, sizeof *o->deploys);
    o->n_deploys = o->n_flights = 0;
    for (int i = 0; i < n && i < max; i++) {
        if (g->segs[d[i].seg].kind == FEAT_FLIER) {
            if (o->n_flights < FIG__COUNT)
                flight_offer(g, d[i].figure, &o->flights[o->n_flights++]);
            continue;
        }
        o->deploys[o->n_deploys++] = (struct deploy_offer){
            seg_place_of(g, d[i].seg), d[i].figure
        };
    }
    board_deploys(g, seat, d, n < max ? n : max, o);
    free(d);
    o->may_pass = true;
    return o->n_deploys + o->n_flights;
}

int options_landings(const struct game *g, int fig, int roll,
                     struct turn_options *o)
{
    int segs[TILE_MAX_SEGS];
    int tile = g->now.tile;
    o->roll = roll;
    o->flier = (uint8_t)fig;
    o->target = game_flight_target(game_tile_pos(g, tile),
                                   game_flier_dir(g, tile), roll);
    o->n_landings = game_landings(g, o->target, fig, segs, TILE_MAX_SEGS);
    if (o->n_landings > TILE_MAX_SEGS)
        o->n_landings = TILE_MAX_SEGS;
    for (int i = 0; i < o->n_landings; i++)
        o->landings[i] = seg_place_of(g, segs[i]);
    return o->n_landings;
}

/* The phases in which a row's slot lets its move come (the auditor's
 * place checks would refuse it in the others): a bit per enum phase. */
static const unsigned slot_phases[] = {
    [SLOT_ANY] = ~0u,
    [SLOT_ACTION] = 1u << PH_ACTION | 1u << PH_DONE,
    [SLOT_AFTER] = 1u << PH_ACTION | 1u << PH_DONE,
    [SLOT_BETWEEN] = 1u << PH_IDLE,
};

/* Most moves one row lists at once (every follower on the board). */
#define OPTIONS_ROW_MAX (GAME_MAX_MEEPLES + GAME_MAX_SEGS)

int options_moves(const struct audit *a, struct turn_options *o)
{
    const struct game *g = a->g;
    struct move *one = xcalloc(OPTIONS_ROW_MAX, sizeof *one);
    size_t cap = 0;
    o->n_moves = 0;
    for (int u = 0; u < g->n_units; u++)
        for (const struct move_class *c = g->unit[u]->moves; c && c->name;
             c++) {
            if (!c->options || !(slot_phases[c->slot] >> a->phase & 1) ||
                (c->slot == SLOT_ACTION && a->passed))
                continue;
            int n = c->options(a, one, OPTIONS_ROW_MAX);
            if (n <= 0)
                continue;
            xgrow((void **)&o->moves, &cap, (size_t)(o->n_moves + n),
                  sizeof *o->moves);
            memcpy(o->moves + o->n_moves, one, sizeof *one * (size_t)n);
            o->n_moves += n;
        }
    free(one);
    return o->n_moves;
}

/* ---- one query ---------------------------------------------------------- */

/* The moves the tile, a deployment, PASS and COMMIT do not cover. */
static bool unit_move(int kind)
{
    static const bool base[MV__COUNT] = {
        [MV_PLACE] = true, [MV_DISCARD] = true, [MV_DEPLOY] = true,
        [MV_PASS] = true,  [MV_COMMIT] = true,
    };
    return kind >= 0 && kind < MV__COUNT && !base[kind];
}

static void list_unit_moves(const struct game *g, struct turn_options *o)
{
    for (int u = 0; u < g->n_units; u++)
        for (const struct move_class *c = g->unit[u]->moves; c && c->name;
             c++)
            if (unit_move(c->kind) && o->n_unit_moves < OPTIONS_MAX_MOVES)
                o->unit_moves[o->n_unit_moves++] = c->name;
}

/* Steps the query's move m through the auditor: ST_RULE when it breaks
 * a rule, with the rule id first. */
static enum status judged(struct audit *a, struct report *rep,
                          const struct move *m, struct err *e)
{
    size_t before = rep->n_violations;
    if (audit_step(a, m) == 0 && !rep->halted)
        return ST_OK;
    if (rep->n_violations > before) {
        const struct violation *v = &rep->violations[before];
        return err_set(e, ST_RULE, "%s: turn %d: %s", rule_id(v->rule),
                       v->turn, v->msg);
    }
    return err_set(e, ST_RULE, "TURN_SEQUENCE: turn %d: %s", a->turn,
                   rep->halt_msg);
}

static void copy_msg(char *dst, size_t size, const char *src)
{
    size_t n = 0;
    while (n + 1 < size && src[n]) {
        dst[n] = src[n];
        n++;
    }
    dst[n] = '\0';
}

/* Does the seat on turn hold a tile it places instead of a draw (a tile
 * bought at the bazaar)? */
static bool holds_tile(const struct game *g)
{
    int16_t kinds[OPTIONS_HELD_MAX], held[OPTIONS_HELD_MAX];
    for (int u = 0; u < g->n_units; u++)
        if (g->unit[u]->held_tiles &&
            g->unit[u]->held_tiles(g, g->seat, kinds, held,
                                   OPTIONS_HELD_MAX) > 0)
            return true;
    return false;
}

/* After the last tile, a round asked only then (the last round of
 * abbeys) gives the seat it asks a turn with the tile it holds, or a
 * PASS: OPTS_TILE for that seat, the round named. The walk moves the
 * seat on turn in a's game, which is options_compute()'s own. */
static bool last_round(const struct audit *a, struct turn_options *o)
{
    struct move pass = audit_option(MV_PASS);
    for (int i = 0; i < a->n_units; i++)
        for (const struct round_class *rc = a->units[i]->rounds;
             rc && rc->asked; rc++) {
            int seat = rc->last ? rc->asked(a->g) : -1;
            if (seat < 0 || (rc->claims && !rc->claims(a, &pass)))
                continue;
            o->stage = OPTS_TILE;
            o->seat = seat;
            o->part = game_turn_part(a->g);
            o->round = rc->what;
            o->may_pass = true;
            return true;
        }
    return false;
}

/* A round between turns owes its answer: OPTS_ROUND with the seat
 * asked and the answers the round lists. */
static bool round_stage(const struct audit *a, struct turn_options *o)
{
    int seat = -1;
    bool pass = false;
    const struct round_class *rc = audit_round_open(a, &seat, &pass);
    if (!rc)
        return false;
    o->stage = OPTS_ROUND;
    o->seat = seat;
    o->round = rc->what;
    o->may_pass = pass;
    o->n_moves = 0;
    if (rc->options) {
        o->moves = xcalloc(OPTIONS_ROW_MAX, sizeof *o->moves);
        o->n_moves = rc->options(a, o->moves, OPTIONS_ROW_MAX);
    }
    return true;
}

/* Where the log leaves the game: OPTS_OVER with a reason, or the turn to
 * come. ST_CONFLICT when the log stops inside a turn. */
static enum status settle(const struct audit *a, const struct report *rep,
                          struct turn_options *o, struct err *e)
{
    const struct game *g = a->g;
    o->tiles_left = game_pack_left(g);
    o->seat = g->seat;
    o->turn = a->turn + 1;
    o->part = game_turn_part(g);
    o->stage = OPTS_OVER;
    if (rep->halted)
        copy_msg(o->over, sizeof o->over, rep->halt_msg);
    else if (a->log->end_turn >= 0 && a->turn >= a->log->end_turn)
        copy_msg(o->over, sizeof o->over, "the game is over");
    else if (a->commit_due && (a->phase == PH_IDLE || a->phase == PH_ROUND))
        o->stage = OPTS_ANSWERED;
    else if (a->phase != PH_IDLE && a->phase != PH_ROUND)
        return err_set(e, ST_CONFLICT, "the log stops within turn %d: the "
                       "options are for the turn after a whole one",
                       a->turn);
    else if (round_stage(a, o))
        return ST_OK;
    else if (a->phase == PH_ROUND)
        return err_set(e, ST_CONFLICT, "turn %d's scoring waits for a "
                       "round that asks no one", a->turn);
    else if (game_pack_done(g) && !last_round(a, o) && !holds_tile(g))
        copy_msg(o->over, sizeof o->over, "no tile left fits anywhere: "
                    "the game is over; finish it for the final scoring");
    else
        o->stage = OPTS_TILE;
    return ST_OK;
}

static struct move query_move(const struct game_log *log, int kind)
{
    struct move m;
    memset(&m, 0, sizeof m);
    m.kind = (uint8_t)kind;
    m.player = -1; /* the seat on turn */
    m.tile = -1;
    m.meeple_owner = -1;
    m.draw = -1.0;
    m.src = (uint32_t)log->n_moves;
    return m;
}

/* The query's tile, stepped as the turn's placement; then the actions
 * open on it. */
static enum status place(struct audit *a, struct report *rep,
                         const struct options_query *q,
                         struct turn_options *o, struct err *e)
{
    struct move m = query_move(a->log, MV_PLACE);
    m.tile = (int16_t)q->tile;
    copy_msg(m.tile_id, sizeof m.tile_id, tile_get(q->tile)->id);
    m.at = q->at;
    m.rot = (uint8_t)q->rot;
    enum status st = judged(a, rep, &m, e);
    if (st != ST_OK)
        return st;
    o->seat = a->player;
    options_actions(a->g, a->player, o);
    o->stage = OPTS_ACTION;
    return ST_OK;
}

/* The query's flight: the figure must be offered one, then the flight is
 * stepped and the roll's landings listed. */
static enum status fly(struct audit *a, struct report *rep,
                       const struct options_query *q, struct turn_options *o,
                       struct err *e)
{
    const struct game *g = a->g;
    bool offered = false;
    for (int i = 0; i < o->n_flights; i++)
        offered |= o->flights[i].figure == q->fly;
    if (!offered) {
        char why[AUDIT_MSG_MAX] = "";
        enum rule r = game_check_flight(g, q->fly, why, sizeof why);
        return err_set(e, ST_RULE, "%s: turn %d: %s",
                       rule_id(r == RULE_OK ? RULE_MEEPLE_NONE_LEFT : r),
                       a->turn, why[0] ? why : "no such figure in supply");
    }
    if (q->roll == 0)
        return ST_OK;
    struct move m = query_move(a->log, MV_DEPLOY);
    m.at = game_tile_pos(g, g->now.tile);
    m.feature = FEAT_FLIER;
    m.meeple = (uint8_t)q->fly;
    m.roll = q->roll;
    enum status st = judged(a, rep, &m, e);
    if (st == ST_OK) {
        options_landings(g, q->fly, q->roll, o);
        o->stage = OPTS_LAND;
    }
    return st;
}

/* The log stops within the turn the recorder is choosing (its moves
 * from q->steps_from on): what may come next there. */
static void within_turn(const struct audit *a, const struct report *rep,
                        struct turn_options *o)
{
    const struct game *g = a->g;
    o->seat = a->player;
    o->tiles_left = game_pack_left(g);
    o->part = game_turn_part(g);
    switch (a->phase) {
    case PH_ACTION:
        options_actions(g, a->player, o);
        o->stage = OPTS_ACTION;
        break;
    case PH_FLYING: {
        const struct flight *f = &rep->flights[a->flight];
        options_actions(g, a->player, o);
        options_landings(g, f->figure, f->roll, o);
        o->stage = OPTS_LAND;
        break;
    }
    default: /* the action is taken, or passed: what follows it */
        if (!a->passed)
            options_actions(g, a->player, o);
        o->may_pass = false;
        o->stage = OPTS_AFTER;
        break;
    }
}

enum status options_compute(const struct game_log *log,
                            const struct options_query *q,
                            struct turn_options *out, struct err *e)
{
    struct report rep;
    enum status st = ST_OK;
    memset(out, 0, sizeof *out);
    struct audit *a = audit_begin(log, &rep);
    size_t from = q->steps_from >= 0 && (size_t)q->steps_from < log->n_moves
                      ? (size_t)q->steps_from : log->n_moves;
    for (size_t i = 0; i < from; i++)
        audit_step(a, &log->moves[i]);
    const struct game *g = a->g;
    for (size_t i = from; i < log->n_moves && st == ST_OK; i++)
        st = judged(a, &rep, &log->moves[i], e);
    list_unit_moves(g, out);
    if (st != ST_OK)
        goto out;
    if (from < log->n_moves && a->phase != PH_IDLE && a->phase != PH_VOID &&
        a->phase != PH_ROUND) {
        options_tiles(g, out);
        within_turn(a, &rep, out);
        out->turn = a->turn;
        options_moves(a, out);
        goto out;
    }
    st = settle(a, &rep, out, e);
    if (st != ST_OK || out->stage == OPTS_OVER)
        goto out;
    if (out->stage == OPTS_ROUND || out->stage == OPTS_ANSWERED) {
        if (q->tile >= 0)
            st = err_set(e, ST_CONFLICT, "%s: the next tile comes once "
                         "it is answered",
                         out->stage == OPTS_ROUND
                             ? out->round
                             : "a round's answer waits for its commit");
        goto out;
    }
    options_moves(a, out);
    options_tiles(g, out);
    if (q->tile < 0)
        goto out;
    options_places(g, q->tile, out);
    out->stage = OPTS_PLACE;
    if (!q->placed)
        goto out;
    st = place(a, &rep, q, out, e);
    if (st == ST_OK && q->fly >= 0)
        st = fly(a, &rep, q, out, e);
    if (st == ST_OK)
        options_moves(a, out);
out:
    audit_finish(a, NULL, NULL);
    report_release(&rep);
    return st;
}

void options_release(struct turn_options *o)
{
    free(o->tiles);
    free(o->places);
    free(o->deploys);
    free(o->moves);
    memset(o, 0, sizeof *o);
}
