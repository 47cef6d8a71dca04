/* fuzz_jcz.c - libFuzzer target: any bytes through mlog_parse() (its
 * checks of hostile input, the format detection, the .jcz reader), and
 * the JCloisterZone reader forced on what the detection takes for a
 * flierlog (the first JSON value of it, which passed the same checks),
 * so that the mutations of a save that gain a "format" key still reach
 * it; then the auditor, the replay, the renderers, the writers and
 * what-if (fuzz_common.c). Nothing may crash, leak, read out of bounds
 * or break an invariant there. */
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
    fuzz_log_input(data, size, MLOG_JCZ);
    return 0;
}
