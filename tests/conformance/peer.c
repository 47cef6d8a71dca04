/* peer.c - see peer.h. */
#include <stdarg.h> /* cmocka 1.1.5 needs these four first */
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "peer.h"

#define PATH_MAX_LEN 1024

void paths_add(struct paths *p, const char *s)
{
    if (p->n == p->cap) {
        p->cap = p->cap ? 2 * p->cap : 64;
        p->v = realloc(p->v, p->cap * sizeof *p->v);
        assert_non_null(p->v);
    }
    p->v[p->n] = strdup(s);
    assert_non_null(p->v[p->n]);
    p->n++;
}

void paths_free(struct paths *p)
{
    for (size_t i = 0; i < p->n; i++)
        free(p->v[i]);
    free(p->v);
    memset(p, 0, sizeof *p);
}

int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool is_jcz(const char *name)
{
    size_t n = strlen(name);
    return n > 4 && strcmp(name + n - 4, ".jcz") == 0;
}

/* Adds every *.jcz under dir (recursing when deep) to out, as full paths. */
static void find_jcz(const char *dir, bool deep, struct paths *out)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    if (!d)
        fail_msg("cannot open %s", dir);
    for (de = readdir(d); de; de = readdir(d)) {
        char path[PATH_MAX_LEN];
        struct stat st;
        if (de->d_name[0] == '.')
            continue;
        assert_true(snprintf(path, sizeof path, "%s/%s", dir, de->d_name) <
                    (int)sizeof path);
        assert_int_equal(stat(path, &st), 0);
        if (S_ISDIR(st.st_mode) && deep)
            find_jcz(path, deep, out);
        else if (S_ISREG(st.st_mode) && is_jcz(de->d_name))
            paths_add(out, path);
    }
    closedir(d);
}

void list_jcz(const char *dir, bool deep, struct paths *out)
{
    memset(out, 0, sizeof *out);
    find_jcz(dir, deep, out);
    qsort(out->v, out->n, sizeof *out->v, cmp_str);
}

const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* The whole file, NUL-terminated; the caller frees it. */
char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *data;
    long size;
    if (!f)
        fail_msg("cannot open %s", path);
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    size = ftell(f);
    assert_true(size >= 0);
    rewind(f);
    data = malloc((size_t)size + 1);
    assert_non_null(data);
    assert_int_equal(fread(data, 1, (size_t)size, f), (size_t)size);
    fclose(f);
    data[size] = '\0';
    *len = (size_t)size;
    return data;
}

cJSON *load_json(const char *path)
{
    size_t len;
    char *data = slurp(path, &len);
    cJSON *root = cJSON_ParseWithLength(data, len);
    free(data);
    if (!root)
        fail_msg("%s is not valid JSON", path);
    return root;
}

/* Parses the save at path, which must be readable; release log after. */
void load_log(const char *path, struct game_log *log)
{
    size_t len;
    struct err e;
    enum mlog_format fmt;
    char *data = slurp(path, &len);
    enum status st;
    game_log_init(log);
    st = mlog_parse(data, len, log, &fmt, &e);
    free(data);
    if (st != ST_OK)
        fail_msg("%s: %s: %s", path, status_name(st), e.msg);
    assert_int_equal(fmt, MLOG_JCZ);
}

int seat_of(const struct game_log *log, const char *name)
{
    for (int p = 0; p < log->rules.n_players; p++)
        if (strcmp(log->names[p], name) == 0)
            return p;
    return -1;
}

void print_violations(const char *file, const struct report *r)
{
    for (size_t i = 0; i < r->n_violations && i < 5; i++)
        print_error("%s: turn %d: %s: %s\n", file, r->violations[i].turn,
                    rule_id(r->violations[i].rule), r->violations[i].msg);
    if (r->halted)
        print_error("%s: halted: %s\n", file, r->halt_msg);
}

/* Is the save at path one of an expansion flierd does not audit yet
 * (mlog_parse() says "unsupported: ...")? */
bool unsupported(const char *path, char *why, size_t why_len)
{
    size_t len;
    struct err e;
    struct game_log log;
    enum mlog_format fmt;
    char *data = slurp(path, &len);
    game_log_init(&log);
    enum status st = mlog_parse(data, len, &log, &fmt, &e);
    free(data);
    game_log_release(&log);
    snprintf(why, why_len, "%s", st == ST_UNSUPPORTED ? e.msg : "");
    return st == ST_UNSUPPORTED;
}


/* Is rule one of the manifest's (a string, a list, or null: any)? */
static bool rule_matches(const cJSON *want, enum rule rule)
{
    const cJSON *it;
    if (cJSON_IsNull(want))
        return true;
    if (cJSON_IsString(want))
        return strcmp(want->valuestring, rule_id(rule)) == 0;
    cJSON_ArrayForEach(it, want)
        if (cJSON_IsString(it) && strcmp(it->valuestring, rule_id(rule)) == 0)
            return true;
    return false;
}

int check_forgery(const char *path, const cJSON *want)
{
    static const struct audit_opts plain = { .assume_finished = false };
    const cJSON *rule = cJSON_GetObjectItemCaseSensitive(want, "rule");
    const cJSON *turn = cJSON_GetObjectItemCaseSensitive(want, "turn");
    struct game_log log;
    struct report r;
    int bad = 0;
    if (!rule || !cJSON_IsNumber(turn))
        fail_msg("%s: the manifest gives no rule and turn", path);
    load_log(path, &log);
    audit_run(&log, &plain, &r, NULL);
    if (r.valid || r.n_violations == 0 ||
        r.violations[0].turn != turn->valueint ||
        !rule_matches(rule, r.violations[0].rule)) {
        char *w = cJSON_PrintUnformatted(rule);
        print_error("%s: expected %s at turn %d, got %s\n", base_name(path),
                    w, turn->valueint,
                    r.n_violations ? rule_id(r.violations[0].rule) : "none");
        if (r.n_violations)
            print_error("  turn %d: %s\n", r.violations[0].turn,
                        r.violations[0].msg);
        free(w);
        bad = 1;
    }
    report_release(&r);
    game_log_release(&log);
    return bad;
}
