/* input.c - reading a log file (or stdin) with the size cap. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "mlog/mlog.h"

enum status cli_read_input(const char *path, struct buf *b, struct err *e)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    char chunk[65536];
    size_t n;
    enum status st = ST_OK;
    if (!f)
        return err_set(e, ST_IO, "cannot open: %s", strerror(errno));
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        buf_append(b, chunk, n);
        if (b->len > MLOG_MAX_BYTES) {
            st = err_set(e, ST_LIMIT, "larger than the %u bytes a game log "
                         "may have", MLOG_MAX_BYTES);
            break;
        }
    }
    if (st == ST_OK && ferror(f))
        st = err_set(e, ST_IO, "read error: %s", strerror(errno));
    if (f != stdin)
        fclose(f);
    return st;
}

const char *cli_display_name(const char *path)
{
    return strcmp(path, "-") == 0 ? "<stdin>" : path;
}
