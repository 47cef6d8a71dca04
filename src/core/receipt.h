/* receipt.h - one sentence per score event that shows where its points
 * come from, e.g. "city, 5 tiles + 2 pennants, completed: 5x2 + 2x2 = 14;
 * Red 2 knights, Blue 1 -> Red 14". Pure formatting. */
#ifndef CORE_RECEIPT_H
#define CORE_RECEIPT_H
#include <stddef.h>

#include "core/audit.h"
#include "core/log.h"

/* Writes the receipt of r->events[i] (names from log) into out. */
/* The event's terms from its items, "5×2 + 2×2 + 7 (cathedral) = 21";
 * returns what snprintf() does. */
int receipt_items(const struct score_event *e, char *out, size_t len);
/* How a receipt names a term that has no count: "cathedral", "the City
 * of Carcassonne" (the item "coc"). */
const char *receipt_item_word(int kind);
void receipt_format(const struct game_log *log, const struct report *r,
                    size_t i, char *out, size_t len);

/* Names of the seats in mask joined with sep ("Ada and Ben"). */
void seats_join(const struct game_log *log, unsigned mask, const char *sep,
                char *out, size_t len);
/* Names of the seats in mask joined with ", " (e.g. "Ada, Ben"). */
void seats_format(const struct game_log *log, unsigned mask, char *out,
                  size_t len);

#endif
