/* fuzz_log.c - libFuzzer target: any bytes through the log readers (.jcz
 * and flierlog, detected from the content), the auditor, the replay and
 * the JSON renderers. Nothing may crash, leak or read out of bounds. */
#include <stddef.h>
#include <stdint.h>

#include "core/audit.h"
#include "core/replay.h"
#include "mlog/mlog.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct game_log log;
    struct report rep;
    struct replay rp;
    struct buf out = BUF_INIT;
    struct err e;
    enum mlog_format fmt;
    game_log_init(&log);
    if (mlog_parse((const char *)data, size, &log, &fmt, &e) == ST_OK) {
        struct audit_opts o = { true };
        audit_run(&log, &o, &rep, NULL);
        struct report_meta m = { "fuzz", fmt, "fuzz", "0", NULL, NULL };
        mlog_report_json_meta(&m, &log, &rep, &out);
        replay_build(&log, &o, &rp);
        mlog_replay_json(&log, &rep, &rp, &out);
        mlog_write_flierlog(&log, &out);
        mlog_write_jcz(&log, &out);
        replay_release(&rp);
        report_release(&rep);
    }
    game_log_release(&log);
    buf_release(&out);
    return 0;
}
