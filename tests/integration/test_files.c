/* test_files.c - see test_files.h. */
#include <stdarg.h> /* cmocka 1.1.5 needs these four first */
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "test_files.h"

#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void tf_read(const char *path, struct buf *b)
{
    FILE *f = fopen(path, "rb");
    char chunk[8192];
    size_t n;
    assert_non_null(f);
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        buf_append(b, chunk, n);
    fclose(f);
}

void tf_write(const char *path, const char *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

void tf_rm_tree(const char *path)
{
    struct stat sb;
    if (lstat(path, &sb) != 0)
        return;
    if (!S_ISDIR(sb.st_mode)) {
        unlink(path);
        return;
    }
    DIR *d = opendir(path);
    struct dirent *de;
    while (d && (de = readdir(d)) != NULL) {
        char sub[512];
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
            continue;
        snprintf(sub, sizeof sub, "%s/%s", path, de->d_name);
        tf_rm_tree(sub);
    }
    if (d)
        closedir(d);
    rmdir(path);
}
