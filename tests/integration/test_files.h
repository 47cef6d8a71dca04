/* test_files.h - files for the integration tests: whole reads and
 * writes (a failure fails the test) and removing a temporary tree. */
#ifndef IT_TEST_FILES_H
#define IT_TEST_FILES_H
#include <stddef.h>

#include "util/buf.h"

/* Appends the whole file to b. */
void tf_read(const char *path, struct buf *b);
/* Writes data[0..len) as the whole file. */
void tf_write(const char *path, const char *data, size_t len);
/* Removes path, and everything below it if it is a folder (links are
 * removed, never followed). */
void tf_rm_tree(const char *path);

#endif
