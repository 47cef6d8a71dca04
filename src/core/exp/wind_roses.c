/* wind_roses.c - the Wind Roses as a unit, as JCloisterZone plays them:
 * on with the set (the save names no element).
 *  - A tile with the large rose (WR/CFR, the start tile, and WR/Rr)
 *    becomes the rose that counts, where it lies and as it is turned.
 *  - A tile with a small rose scores 3 for the player who places it when
 *    it lies in the quarter of the board its rose points to, seen from
 *    the large rose that counts: the same row or column counts as in the
 *    quarter. The small rose's quarter is read in the large rose's turn,
 *    not the small tile's own (JCloisterZone turns it by the large
 *    rose's rotation). A small rose placed with no large rose on the
 *    board scores nothing.
 * One event a tile ("wind-rose", its item "wind-rose" without a count).
 * Nothing of it flies. Tiles: wind_roses.tiles. */
#include "core/game_int.h"
#include "core/log.h"
#include "core/replay.h"
#include "core/text.h"

enum { ROSE_POINTS = 3 };

struct wind_roses {
    bool placed;      /* a large rose is on the board */
    uint8_t rot;      /* its turn */
    int16_t x, y;     /* its square */
};
UNIT_STATE_FITS(struct wind_roses);

/* The small roses' marks, by quarter in clockwise order from the
 * north-west, so that a quarter turned r quarter-turns is (q + r) & 3. */
static const unsigned small_roses[4] = {
    TILE_MARK(ROSE_NW), TILE_MARK(ROSE_NE), TILE_MARK(ROSE_SE),
    TILE_MARK(ROSE_SW),
};
/* Each quarter's sign of x and y from the large rose (y grows south). */
static const int8_t quarter_dx[4] = { -1, 1, 1, -1 };
static const int8_t quarter_dy[4] = { -1, -1, 1, 1 };

static struct wind_roses *state(struct game *g)
{
    return UNIT_STATE(g, EXP_WIND_ROSES, struct wind_roses);
}

/* "wind rose at (2,-1), in the quarter its rose points to: 3". */
static int explain_rose(const struct game_log *log,
                        const struct score_event *ev,
                        const struct feature_ref *refs, char *out,
                        size_t len)
{
    (void)log;
    struct text t = text_at(out, len);
    text_put(&t, "wind rose");
    if (ev->n_refs) {
        text_put(&t, " at ");
        text_square(&t, refs[0].x, refs[0].y);
    }
    text_put(&t, ", placed in the quarter its rose points to from the "
                 "large rose: ");
    text_int(&t, ev->points);
    return (int)t.n;
}

/* The rose's points: no board feature of their own. */
const struct feature_class feature_class_WIND_ROSE = {
    .name = "wind-rose", .explain = explain_rose,
};

/* Does d lie in quarter q from 0 along one axis (0 counts as in)? */
static bool towards(int d, int sign)
{
    return d == 0 || (d > 0) == (sign > 0);
}

static void placed(struct game *g, int ti)
{
    struct wind_roses *st = state(g);
    const struct placed *pl = &g->tiles[ti];
    unsigned marks = tile_get(pl->def)->marks;
    if (marks & TILE_MARK(ROSE)) {
        *st = (struct wind_roses){ true, pl->rot, pl->x, pl->y };
        return;
    }
    int q = 0;
    while (q < 4 && !(marks & small_roses[q]))
        q++;
    if (q == 4 || !st->placed || g->turn <= 0)
        return;
    q = (q + st->rot) & 3;
    if (!towards(pl->x - st->x, quarter_dx[q]) ||
        !towards(pl->y - st->y, quarter_dy[q]))
        return;
    struct score_event *ev = game_new_event(g);
    ev->feature = FEAT_WIND_ROSE;
    ev->completed = true;
    ev->seg = pl->seg0;
    ev->players = (uint8_t)(1u << g->seat);
    ev->points = ROSE_POINTS;
    score_add_item(ev, SI_WIND_ROSE, -1, ROSE_POINTS);
    game_event_ref(g, ev, pl->seg0);
    g->score[g->seat] += ROSE_POINTS;
}

/* Where the large rose that counts lies and its turn: not shown by the
 * tiles alone once a second one is placed. */
static uint64_t hash(const struct game *g, uint64_t h)
{
    const struct wind_roses *st =
        UNIT_STATE(g, EXP_WIND_ROSES, const struct wind_roses);
    return game_hash_mix(game_hash_mix(game_hash_mix(h, st->placed), st->x),
                         st->y);
}

/* For a replay: the large rose that counts, as a token on its square. */
static void replay(const struct game *g, struct replay_out *out)
{
    const struct wind_roses *st =
        UNIT_STATE(g, EXP_WIND_ROSES, const struct wind_roses);
    if (st->placed)
        replay_put(out, (struct replay_item){
            .kind = REPLAY_TOKEN, .name = "rose", .seat = -1,
            .at = { st->x, st->y }, .value = st->rot });
}

/* JCloisterZone starts a game of the set with the large rose's city and
 * road, WR/CFR, in place of the base game's start tile. */
static int start_layout(const struct rules *r, struct start_place *out,
                        int max)
{
    int set = tile_set_find("wind-roses");
    if (set < 0 || !r->set_copies[set] || max < 1)
        return 0;
    out[0] = (struct start_place){ (int16_t)tile_find("WR/CFR"), 0, { 0, 0 } };
    return 1;
}

const struct expansion expansion_wind_roses = {
    .id = "wind_roses",
    .name = "The Wind Roses",
    .placed = placed,
    .hash = hash,
    .replay = replay,
    .start_layout = start_layout,
};
