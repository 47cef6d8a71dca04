/* mlog_int.h - shared among src/mlog files only. */
#ifndef MLOG_MLOG_INT_H
#define MLOG_MLOG_INT_H
#include <cjson/cJSON.h>

#include "mlog/mlog.h"

enum status jcz_read(const cJSON *root, struct game_log *l, struct err *e);
enum status jcz_read_replay(const cJSON *replay, double initial_random,
                            struct game_log *l, struct err *e);
enum status jcz_int(const cJSON *v, const char *path, int lo, int hi,
                    int *out, struct err *e);

#endif
