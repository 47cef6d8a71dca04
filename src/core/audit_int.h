/* audit_int.h - shared among the auditor's own files only. */
#ifndef CORE_AUDIT_INT_H
#define CORE_AUDIT_INT_H
#include "core/audit.h"
#include "util/err.h"

/* Appends a violation to r. */
void report_violation(struct report *r, int turn, int player, enum rule rule,
                      uint32_t src, const char *fmt, ...) PRINTF_LIKE(6, 7);

/* Compares the log's claimed score events and running totals with the
 * computed ones in r: SCORE_MISMATCH per claimed event that the rules do
 * not give (and per computed event missing from a turn's claims), per
 * claimed total that differs, and r->divergence. Run after final scoring. */
void claims_check(const struct game_log *log, struct report *r);

#endif
