/* http_client.h - a small blocking HTTP/1.1 client over a loopback
 * socket, for the integration tests: one request per connection
 * (Connection: close), a body sent after "100 Continue" (so a server that
 * refuses it early is heard before the body goes out), optionally in
 * chunked transfer encoding. */
#ifndef IT_HTTP_CLIENT_H
#define IT_HTTP_CLIENT_H
#include <stdbool.h>
#include <stddef.h>

#include "util/buf.h"

struct http_resp {
    int status;      /* 0 when no response could be read */
    struct buf head; /* status line and headers */
    struct buf body;
};

/* Sends one request to 127.0.0.1:port. headers holds extra "Name: value"
 * lines, each ending in "\r\n" (or NULL). Returns the status (0 on a
 * connection error); r must be released with http_resp_release. */
int http_do(unsigned port, const char *method, const char *path,
            const char *headers, const char *body, size_t len, bool chunked,
            struct http_resp *r);
/* The same in two steps, to hold a request in flight: sends the head of
 * a POST of len bytes and waits for "100 Continue". Returns the socket,
 * or -1 (no connection, or the server answered at once). */
int http_begin(unsigned port, const char *path, size_t len);
/* Sends the body on fd, reads the response, closes fd. */
int http_finish(int fd, const char *body, size_t len, struct http_resp *r);

/* A socket connected to 127.0.0.1:port, or -1. */
int http_connect(unsigned port);
/* Sends p[0..n) whole (no SIGPIPE); false when the peer is gone. */
bool http_send_all(int fd, const char *p, size_t n);

/* The value of a response header (case-insensitive name) into out. */
bool http_header(const struct http_resp *r, const char *name, char *out,
                 size_t len);
void http_resp_release(struct http_resp *r);

#endif
