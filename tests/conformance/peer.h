/* peer.h - reading JCloisterZone's test data in place from the shared
 * folder (FLIERD_SHARED_DIR/peer/jcz) for the conformance suites. Include
 * after cmocka.h: failures end the test with a message. */
#ifndef TESTS_PEER_H
#define TESTS_PEER_H
#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "core/audit.h"
#include "mlog/mlog.h"

#define PEER_DIR FLIERD_SHARED_DIR "/peer/jcz"

struct paths {
    char **v;
    size_t n, cap;
};

/* qsort() comparison of char * */
int cmp_str(const void *a, const void *b);
void paths_add(struct paths *p, const char *s);
void paths_free(struct paths *p);
/* Every *.jcz under dir (recursing when deep), sorted, as full paths. */
void list_jcz(const char *dir, bool deep, struct paths *out);
const char *base_name(const char *path);
/* The whole file, NUL-terminated; the caller frees it. */
char *slurp(const char *path, size_t *len);
cJSON *load_json(const char *path);
/* Parses the save at path, which must be readable; release log after. */
void load_log(const char *path, struct game_log *log);
/* Does the save at path belong to an expansion flierd does not audit yet
 * (mlog_parse() says "unsupported: ...", copied to why)? */
bool unsupported(const char *path, char *why, size_t why_len);
int seat_of(const struct game_log *log, const char *name);
/* The first violations of r (and its halt), as test output. */
void print_violations(const char *file, const struct report *r);
/* A forged save's first violation must be want's "rule" (a rule id, a
 * list of them, or null: any) at want's "turn"; 0, or 1 after printing
 * what differs. */
int check_forgery(const char *path, const cJSON *want);

#endif
