/* corn.c - The Crop Circles in simulated and forged games: after a crop
 * circle's turn has scored, the seat the engine asks to choose
 * (game_corn_chooser()) adds or takes back (MV_CIRCLE_DEPLOY or
 * MV_CIRCLE_REMOVE); then each seat the engine asks (game_corn_asked())
 * adds a follower onto the spot of one of its own of the circle's kind
 * (MV_DEPLOY) or passes (MV_PASS), or takes one back (MV_CIRCLE_RETURN),
 * a COMMIT after each follower moved.
 * Forgery: a crop circle's choice where no crop circle asks for one. */
#include "core/exp/corn.h"
#include "sim/exp/units.h"

enum { R_ADD, R_DEPLOY };
enum { T_ADDED, T_TAKEN_BACK };

/* add: the chooser picks "add" rather than "take back"; deploy: an asked
 * seat adds a follower rather than passing. */
static const struct sim_rate rates[] = { { "circle_add", 0.45 },
                                         { "circle_deploy", 0.6 },
                                         { NULL, 0 } };
static const char *const counts[] = { "circle_adds", "circle_returns",
                                      NULL };

/* The seat's answers the engine allows now: meeple and segment pairs in
 * s->targets (meeple * GAME_MAX_SEGS + seg). */
static int answers(struct sim *s, int seat, bool add)
{
    struct game *g = s->g;
    int n = 0;
    for (int k = 0; k < g->n_meeples; k++) { /* the seat's spots */
        int seg = g->meeples[k].seg;
        if (g->meeples[k].owner != seat || seg < 0)
            continue;
        for (int m = 0; m < g->n_meeples && n < GAME_MAX_SEGS; m++) {
            bool ok = add ? game_check_corn_deploy(g, seat, m, seg, NULL,
                                                   0) == RULE_OK
                          : m == k && game_check_corn_return(
                                          g, seat, m, seg, NULL, 0) ==
                                          RULE_OK;
            if (ok)
                s->targets[n++] = m * GAME_MAX_SEGS + seg;
        }
    }
    return n;
}

/* The seat asked answers: a follower added or taken back, or a PASS. */
static void answer(struct sim *s, int seat)
{
    bool add = game_corn_mode(s->g) == CORN_DEPLOY;
    int n = answers(s, seat, add);
    if (n == 0 || (add && !sim_chance(s, sim_rate(s, EXP_CORN, R_DEPLOY)))) {
        if (add) /* taking back, the engine asks only seats that can */
            sim_emit(s, MV_PASS);
        game_corn_answer(s->g, -1, -1);
        return;
    }
    int t = s->targets[sim_below(s, n)];
    int m = t / GAME_MAX_SEGS, seg = t % GAME_MAX_SEGS;
    sim_emit_on(s, add ? MV_DEPLOY : MV_CIRCLE_RETURN, m, seg);
    sim_emit(s, MV_COMMIT);
    game_corn_answer(s->g, m, add ? seg : -1);
    sim_tally(s, EXP_CORN, add ? T_ADDED : T_TAKEN_BACK);
}

/* After a crop circle's turn: the choice, then the round. */
static void circle_round(struct sim *s)
{
    int seat;
    if (game_corn_chooser(s->g) < 0)
        return;
    bool add = sim_chance(s, sim_rate(s, EXP_CORN, R_ADD));
    sim_emit(s, add ? MV_CIRCLE_DEPLOY : MV_CIRCLE_REMOVE);
    game_corn_choose(s->g, add ? CORN_DEPLOY : CORN_REMOVE);
    while ((seat = game_corn_asked(s->g)) >= 0)
        answer(s, seat);
}

/* ---- forgeries ---------------------------------------------------------- */

/* A choice after a turn without a crop circle's round (its COMMIT right
 * before the next tile). */
static bool f_stray_choice(struct forge *f)
{
    size_t at = f->commit + 1;
    if (at >= f->in->n_moves || f->in->moves[at].kind != MV_PLACE)
        return false;
    struct forge_state st;
    const struct game *g = forge_state_at(&st, f->in, at);
    bool quiet = game_corn_chooser(g) < 0 && game_corn_asked(g) < 0;
    forge_state_end(&st);
    if (!quiet)
        return false;
    struct move *m = forge_insert(f->out, at);
    m->kind = MV_CIRCLE_REMOVE;
    m->player = -1;
    m->tile = -1;
    m->draw = -1;
    m->meeple_owner = -1;
    forge_how(f, "after the turn, a crop circle's choice (take back) where "
              "no crop circle asks for one");
    return true;
}

static const struct forger forgers[] = {
    { RULE_CORN_CIRCLE, f_stray_choice, EXP_CORN, BY_NONE },
    { RULE_OK, NULL, -1, BY_NONE },
};

const struct sim_unit sim_corn = {
    .rates = rates,
    .counts = counts,
    .after = circle_round,
    .forgers = forgers,
};
