/* traders.c - Traders & Builders in forged games (builders and pigs are
 * deployed, and a builder's second tile played, from the engine's
 * answers): a builder or a pig where it may not stand, and a second tile
 * in a row without a builder's right to it. */
#include "sim/exp/units.h"

/* A builder on a road or city without its owner's follower (or
 * completed), a pig in a field without its owner's farmer. */
static bool f_builder_placement(struct forge *f)
{
    return forge_deploy_refused(f, RULE_BUILDER_PLACEMENT, FIG_BUILDER, true);
}

static bool f_pig_placement(struct forge *f)
{
    return forge_deploy_refused(f, RULE_PIG_PLACEMENT, FIG_PIG, true);
}

/* The turn's tile placed by the player of the turn before, as a
 * builder's second tile is: without the builder's right to it. */
static bool f_builder_bonus(struct forge *f)
{
    if (f->prev_seat < 0 || f->prev_seat == f->seat)
        return false;
    f->out->moves[f->place].player = (int8_t)f->prev_seat;
    forge_how(f, "%s placed a second tile in a row, "
              "without a builder's right to it, on %s's turn",
              f->in->names[f->prev_seat], f->in->names[f->seat]);
    return true;
}

static const struct forger forgers[] = {
    { RULE_BUILDER_PLACEMENT, f_builder_placement, EXP_TRADERS, BY_NONE },
    { RULE_PIG_PLACEMENT, f_pig_placement, EXP_TRADERS, BY_NONE },
    { RULE_BUILDER_BONUS, f_builder_bonus, EXP_TRADERS, BY_NONE },
    { RULE_OK, NULL, -1, BY_NONE },
};

const struct sim_unit sim_traders = { .forgers = forgers };
