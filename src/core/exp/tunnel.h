/* tunnel.h - what the simulator and the tests ask The Tunnel's unit
 * (tunnel.c). Pure. */
#ifndef CORE_EXP_TUNNEL_H
#define CORE_EXP_TUNNEL_H
#include <stdbool.h>
#include <stddef.h>

#include "core/game.h"

/* The colours of tunnel tokens, JCloisterZone's TUNNEL_A, _B, _C. */
enum tunnel_colour { TUNNEL_A, TUNNEL_B, TUNNEL_C, TUNNEL__COLOURS };

/* How many tokens of colour player still holds. */
int game_tunnels_left(const struct game *g, int player, int colour);
/* Is seg an open tunnel end (one of The Tunnel's, no token on it)? */
bool game_tunnel_open(const struct game *g, int seg);
/* May player put a token of colour on the tunnel end seg now (once a
 * turn, before or after the action)? RULE_OK, or RULE_TUNNEL /
 * RULE_TURN_SEQUENCE with why. */
enum rule game_check_tunnel(const struct game *g, int player, int colour,
                            int seg, char *why, size_t why_len);
/* Puts it there: the second of its colour joins the two roads. */
void game_tunnel(struct game *g, int player, int colour, int seg);

#endif
