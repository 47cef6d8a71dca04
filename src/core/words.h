/* words.h - things named as players name them, for the texts people read
 * (violation messages, receipts' places, the text report): "the road
 * running north–south", "the city on every side but north", "the tile
 * with a city and three roads", "north-west". Our notation (road:NS,
 * BA/CRRR, NW) stays in the JSON fields, where programs read it.
 *
 * Every function writes a terminated string into out[len], cut like
 * snprintf when it does not fit. Pure: no I/O. */
#ifndef CORE_WORDS_H
#define CORE_WORDS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A segment of a tile (kind: enum feat; mask as in struct seg_def, in
 * board orientation): "the road running north–south", "the city on the
 * north and east sides", "the field to the south", "the monastery". */
void seg_words(int kind, uint8_t mask, char *out, size_t len);

/* A feature kind (enum feat) as a word, one or many: "city", "cities",
 * "flying machine". */
void feat_words(int kind, bool many, char *out, size_t len);

/* A tile kind (index into the tile table) by what is on it: "the tile
 * with a city and three roads". An unknown index: "an unknown tile". */
void tile_words(int def, char *out, size_t len);

/* An eight-way direction (enum dir8): "north-west". */
const char *dir_words(int dir);

/* One side (EDGE_N ...): "north"; "" for anything else. */
const char *side_word(int edge);

#endif
