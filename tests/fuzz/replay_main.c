/* replay_main.c - runs a fuzz target's entry point once on every file of
 * its corpus, without libFuzzer, so the normal build (gcc, and the ASan
 * build) replays the seeds and the regression inputs of past crashes in
 * every ctest run.
 *
 *   fuzz_X_replay DIR|FILE...
 *
 * Exits 0 when every input ran (a broken invariant aborts), 1 when an
 * input cannot be read or there was none at all. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_common.h"
#include "util/buf.h"

static int run_file(const char *path)
{
    struct buf b = BUF_INIT;
    char chunk[16384];
    size_t n;
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return -1;
    }
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        buf_append(&b, chunk, n);
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        fprintf(stderr, "%s: read error\n", path);
        buf_release(&b);
        return -1;
    }
    /* a private copy of the exact size, so ASan sees any overread */
    uint8_t *copy = malloc(b.len ? b.len : 1);
    if (b.len)
        memcpy(copy, b.p, b.len);
    LLVMFuzzerTestOneInput(copy, b.len);
    free(copy);
    buf_release(&b);
    return 1;
}

/* Runs every regular file of dir (not recursing); count of inputs, or
 * -1 on a read error. */
static int run_dir(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    int count = 0;
    if (!d) {
        perror(dir);
        return -1;
    }
    while ((de = readdir(d)) != NULL) {
        char path[4096];
        struct stat sb;
        if (de->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode))
            continue;
        int r = run_file(path);
        if (r < 0) {
            count = -1;
            break;
        }
        count += r;
    }
    closedir(d);
    return count;
}

int main(int argc, char **argv)
{
    int total = 0;
    if (argc < 2) {
        fprintf(stderr, "usage: %s DIR|FILE...\n", argv[0]);
        return 2;
    }
    LLVMFuzzerInitialize(&argc, &argv);
    for (int i = 1; i < argc; i++) {
        struct stat sb;
        int r = stat(argv[i], &sb) == 0 && S_ISDIR(sb.st_mode)
                    ? run_dir(argv[i])
                    : run_file(argv[i]);
        if (r < 0)
            return 1;
        total += r;
    }
    printf("%d inputs replayed\n", total);
    if (total == 0) {
        fprintf(stderr, "no inputs: an empty corpus checks nothing\n");
        return 1;
    }
    return 0;
}
