/* fuzz_flierlog.c - libFuzzer target: any bytes through mlog_parse()
 * (its checks of hostile input, the format detection, the flierlog
 * readers: the document, and the streaming form live recording uses),
 * and the flierlog reader forced on what the detection takes for a
 * .jcz save (which passed the same checks); then the auditor, the
 * replay, the renderers, the writers and what-if (fuzz_common.c).
 * Nothing may crash, leak, read out of bounds or break an invariant. */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_common.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_log_input(data, size, MLOG_FLIERLOG);
    return 0;
}
