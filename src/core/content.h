/* content.h - a game's identity by its content, whatever file it came in.
 * Pure: no I/O. */
#ifndef CORE_CONTENT_H
#define CORE_CONTENT_H
#include "core/log.h"
#include "util/sha256.h"

/* The SHA-256 (hex, into out) of the game l records: its setup (tile
 * sets, players by name in seat order, figures, counts, rule flags and
 * options, the start tiles) and its moves (kind, seat, tile, square,
 * rotation, feature, figure kind, die roll and what units add), in a
 * canonical text that names no format. What only one format keeps
 * (where a move was in the file, a save's random numbers, a figure's
 * number within its kind, colours, claims, notes) is left out, so a .jcz
 * and its flierlog (flierd convert) have the same digest. */
void game_log_content_sha(const struct game_log *l,
                          char out[SHA256_HEX_LEN]);

#endif
