/* input.c - reading a log file (or stdin) with the size cap. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "mlog/mlog.h"

/* A file is read straight into b, sized by fstat (stdin and pipes grow
 * as they come): fopen's buffer and a copy per chunk were a few percent
 * of auditing many small files. */
enum status cli_read_input(const char *path, struct buf *b, struct err *e)
{
    bool in = strcmp(path, "-") == 0;
    int fd = in ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
    struct stat sb;
    size_t want = 65536;
    enum status st = ST_OK;
    if (fd < 0)
        return err_set(e, ST_IO, "cannot open: %s", strerror(errno));
    if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size >= 0 &&
        (uint64_t)sb.st_size <= MLOG_MAX_BYTES)
        want = (size_t)sb.st_size + 1; /* +1: see the end without a read */
    for (;;) {
        char *at = buf_space(b, want);
        ssize_t n = read(fd, at, want);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            st = err_set(e, ST_IO, "read error: %s", strerror(errno));
            break;
        }
        if (n == 0)
            break;
        b->len += (size_t)n;
        b->p[b->len] = '\0';
        if (b->len > MLOG_MAX_BYTES) {
            st = err_set(e, ST_LIMIT, "larger than the %u bytes a game log "
                         "may have", MLOG_MAX_BYTES);
            break;
        }
        want = 65536;
    }
    if (!in)
        close(fd);
    return st;
}

const char *cli_display_name(const char *path)
{
    return strcmp(path, "-") == 0 ? "<stdin>" : path;
}
