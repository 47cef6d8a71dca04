/* fuzz_common.h - what the log fuzz targets share: everything downstream
 * of a reader, with the invariants a parsed log must keep. A broken
 * invariant prints what broke to stderr and aborts, which libFuzzer (and
 * the corpus replay of the normal build) reports as a crash. */
#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H
#include <stddef.h>
#include <stdint.h>

#include "core/log.h"
#include "mlog/mlog.h"

/* libFuzzer's entry points; every target defines both. */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Audits log (in one run and move by move), builds its replay, renders
 * the report, the replay and every live turn as JSON, writes it in both
 * formats and reads those back, and tries a what-if at its first
 * flight. Aborts when the renderers write text that is not JSON, when
 * the two audits disagree, or when a written log does not read back to
 * a log that audits the same. */
void fuzz_check_log(const struct game_log *log, enum mlog_format fmt);

/* One input of a log target: through mlog_parse() (the hostile-input
 * checks, the detection, the reader); when the detection took it for
 * the other format, own's reader forced on it instead, so mutations that
 * flip the detection still reach that reader; then fuzz_check_log() on
 * what read. */
void fuzz_log_input(const uint8_t *data, size_t size, enum mlog_format own);

/* Aborts with "what: why" on stderr. */
_Noreturn void fuzz_fail(const char *what, const char *why);

#endif
