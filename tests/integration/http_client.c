/* http_client.c - see http_client.h. */
#include "http_client.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

int http_connect(unsigned port)
{
    struct sockaddr_in a;
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return -1;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons((unsigned short)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

bool http_send_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t k = send(fd, p, n, MSG_NOSIGNAL);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return false;
        p += k;
        n -= (size_t)k;
    }
    return true;
}

/* Reads into b until it holds "\r\n\r\n" past from, or EOF. */
static bool read_head(int fd, struct buf *b, size_t from)
{
    char chunk[4096];
    for (;;) {
        if (b->len >= from + 4 && strstr(b->p + from, "\r\n\r\n"))
            return true;
        ssize_t k = recv(fd, chunk, sizeof chunk, 0);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return false;
        buf_append(b, chunk, (size_t)k);
    }
}

static void read_rest(int fd, struct buf *b)
{
    char chunk[16384];
    for (;;) {
        ssize_t k = recv(fd, chunk, sizeof chunk, 0);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return;
        buf_append(b, chunk, (size_t)k);
    }
}

static bool send_body(int fd, const char *body, size_t len, bool chunked)
{
    if (!chunked)
        return http_send_all(fd, body, len);
    for (size_t off = 0; off < len; off += 65536) {
        size_t n = len - off < 65536 ? len - off : 65536;
        char hdr[32];
        int h = snprintf(hdr, sizeof hdr, "%zx\r\n", n);
        if (!http_send_all(fd, hdr, (size_t)h) || !http_send_all(fd, body + off, n) ||
            !http_send_all(fd, "\r\n", 2))
            return false;
    }
    return http_send_all(fd, "0\r\n\r\n", 5);
}

/* Splits raw (from off) into status, head and body. */
static void parse(const struct buf *raw, size_t off, struct http_resp *r)
{
    const char *p = raw->p + off;
    const char *end = strstr(p, "\r\n\r\n");
    if (!end || sscanf(p, "HTTP/1.%*d %d", &r->status) != 1) {
        r->status = 0;
        return;
    }
    buf_append(&r->head, p, (size_t)(end - p) + 2);
    const char *body = end + 4;
    size_t n = raw->len - (size_t)(body - raw->p);
    char cl[32];
    if (http_header(r, "Content-Length", cl, sizeof cl) &&
        strtoul(cl, NULL, 10) < n)
        n = strtoul(cl, NULL, 10);
    buf_append(&r->body, body, n);
    if (!r->body.p)
        buf_append(&r->body, "", 0);
}

int http_do(unsigned port, const char *method, const char *path,
            const char *headers, const char *body, size_t len, bool chunked,
            struct http_resp *r)
{
    struct buf req = BUF_INIT, raw = BUF_INIT;
    int fd = http_connect(port);
    memset(r, 0, sizeof *r);
    if (fd < 0)
        return 0;
    buf_printf(&req, "%s %s HTTP/1.1\r\nHost: 127.0.0.1:%u\r\n"
               "Connection: close\r\n%s", method, path, port,
               headers ? headers : "");
    if (body && chunked)
        buf_puts(&req, "Transfer-Encoding: chunked\r\n");
    else if (body)
        buf_printf(&req, "Content-Length: %zu\r\n", len);
    if (body)
        buf_puts(&req, "Expect: 100-continue\r\n");
    buf_puts(&req, "\r\n");
    size_t off = 0;
    if (http_send_all(fd, req.p, req.len) && body && read_head(fd, &raw, 0)) {
        int status = 0;
        if (sscanf(raw.p, "HTTP/1.%*d %d", &status) == 1 && status == 100) {
            off = (size_t)(strstr(raw.p, "\r\n\r\n") + 4 - raw.p);
            send_body(fd, body, len, chunked);
        }
    }
    read_rest(fd, &raw);
    close(fd);
    if (raw.len > off)
        parse(&raw, off, r);
    buf_release(&req);
    buf_release(&raw);
    return r->status;
}

int http_begin(unsigned port, const char *path, size_t len)
{
    struct buf req = BUF_INIT, raw = BUF_INIT;
    int status = 0;
    int fd = http_connect(port);
    if (fd < 0)
        return -1;
    buf_printf(&req, "POST %s HTTP/1.1\r\nHost: 127.0.0.1:%u\r\n"
               "Connection: close\r\nContent-Length: %zu\r\n"
               "Expect: 100-continue\r\n\r\n", path, port, len);
    if (!http_send_all(fd, req.p, req.len) || !read_head(fd, &raw, 0) ||
        sscanf(raw.p, "HTTP/1.%*d %d", &status) != 1 || status != 100) {
        close(fd);
        fd = -1;
    }
    buf_release(&req);
    buf_release(&raw);
    return fd;
}

int http_finish(int fd, const char *body, size_t len, struct http_resp *r)
{
    struct buf raw = BUF_INIT;
    memset(r, 0, sizeof *r);
    http_send_all(fd, body, len);
    read_rest(fd, &raw);
    close(fd);
    if (raw.len > 0)
        parse(&raw, 0, r);
    buf_release(&raw);
    return r->status;
}

bool http_header(const struct http_resp *r, const char *name, char *out,
                 size_t len)
{
    size_t n = strlen(name);
    const char *p = r->head.p ? strstr(r->head.p, "\r\n") : NULL;
    for (; p; p = strstr(p, "\r\n")) {
        p += 2;
        if (strncasecmp(p, name, n) == 0 && p[n] == ':') {
            const char *v = p + n + 1, *e = strstr(v, "\r\n");
            while (*v == ' ')
                v++;
            size_t k = e ? (size_t)(e - v) : strlen(v);
            if (k >= len)
                k = len - 1;
            memcpy(out, v, k);
            out[k] = '\0';
            return true;
        }
    }
    return false;
}

void http_resp_release(struct http_resp *r)
{
    buf_release(&r->head);
    buf_release(&r->body);
}
