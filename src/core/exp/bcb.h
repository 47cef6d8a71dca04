/* bcb.h - Bridges, Castles & Bazaars' calls for the simulator and the
 * tests (exp/bcb.c). */
#ifndef CORE_EXP_BCB_H
#define CORE_EXP_BCB_H
#include <stdbool.h>
#include <stddef.h>

#include "core/game.h"

/* Castles player still holds. */
int bcb_castles_left(const struct game *g, int player);
/* May the city of seg become player's castle now (after the turn's
 * action, before its COMMIT)? RULE_OK, or RULE_CASTLE_PLACEMENT with
 * why. */
enum rule bcb_check_castle(const struct game *g, int player, int seg,
                           char *why, size_t why_len);
/* Makes it so (its follower stays, as the castle's). */
void bcb_castle(struct game *g, int player, int seg);

/* Bridges player still holds. */
int bcb_bridges_left(const struct game *g, int player);
/* May the player on turn put a bridge across axis (an edge mask, N|S or
 * W|E) of the tile at `at` now? RULE_OK, or RULE_BRIDGE_PLACEMENT with
 * why. */
enum rule bcb_check_bridge(const struct game *g, struct pos at,
                           unsigned axis, char *why, size_t why_len);
/* Builds it: a road across the tile, joined to what lies beyond. */
void bcb_bridge(struct game *g, struct pos at, unsigned axis);

/* The seat whose say it is at the bazaar's auction now, or -1 when no
 * auction is on. */
int bcb_bazaar_asked(const struct game *g);

/* The auction as a player sees it. */
struct bcb_auction {
    bool open;
    bool choosing;  /* the selector picks a tile and bids first */
    bool deciding;  /* the selector buys or sells */
    int n;          /* tiles in the supply */
    int price;      /* the highest bid so far */
    int index;      /* the tile bid for, -1 while the selector chooses */
    bool sold[GAME_MAX_PLAYERS];
};
void bcb_bazaar_view(const struct game *g, struct bcb_auction *out);
/* The supply, drawn with the bazaar turn's random number r and its
 * generator's next ones (once); tile i of it, or -1 before. */
void bcb_bazaar_supply(struct game *g, double r);
int bcb_bazaar_tile(const struct game *g, int i);
/* The supply's random number, for the first bought tile's message (a
 * .jcz gives the COMMIT's number to the next tile); -1 after it. */
double bcb_bazaar_draw(const struct game *g);
/* The say of the seat asked (bcb_bazaar_asked()): a bid (index: the
 * tile, when the selector chooses), a PASS (a bidder's), or the
 * selector's purchase or sale. RULE_OK, or RULE_BAZAAR with why. */
enum rule bcb_bid(struct game *g, int index, int amount, char *why,
                  size_t why_len);
enum rule bcb_bazaar_pass(struct game *g, char *why, size_t why_len);
enum rule bcb_bazaar_decide(struct game *g, bool buy, char *why,
                            size_t why_len);
/* The sales' points, once the auction is over (once). */
void bcb_bazaar_pay(struct game *g);
/* The tile seat bought and has still to place (-1: none), and taking it
 * for the seat's turn (back in the pack, placed undrawn). */
int bcb_bought(const struct game *g, int seat);
void bcb_take_bought(struct game *g, int seat);
/* ... or losing it (it fits nowhere: the seat draws instead). */
void bcb_lose_bought(struct game *g, int seat);

#endif
