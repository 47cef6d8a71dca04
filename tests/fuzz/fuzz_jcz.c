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
#include "mlog/mlog_int.h" /* jcz_read, to skip the detection */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    struct game_log log;
    enum mlog_format fmt;
    struct err e;

    game_log_init(&log);
    enum status st = mlog_parse(text, size, &log, &fmt, &e);
    if (fmt == MLOG_FLIERLOG) {
        const char *end = NULL;
        cJSON *root = cJSON_ParseWithLengthOpts(text, size, &end, 0);
        game_log_release(&log);
        game_log_init(&log);
        st = cJSON_IsObject(root) ? jcz_read(root, &log, &e) : ST_PARSE;
        cJSON_Delete(root);
    }
    if (st == ST_OK)
        fuzz_check_log(&log, MLOG_JCZ);
    game_log_release(&log);
    return 0;
}
