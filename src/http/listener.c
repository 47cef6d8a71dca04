/* listener.c - the listening socket, and the thread that accepts on it.
 *
 * libmicrohttpd's pool can listen by itself, but then whichever pool
 * thread wakes first accepts, up to ten connections in a row: with 8
 * clients connecting together, runs had one, two or three of the four
 * threads serving all of them while the rest idled (one thread serving
 * all 8 halved the throughput and doubled the median latency). Handed
 * over with MHD_add_connection(), a connection goes to the pool thread
 * its descriptor's number selects, so connections opened together spread
 * over every thread. libmicrohttpd still applies the connection limits
 * and closes the connections it refuses. */
#define _GNU_SOURCE /* accept4(): no window where the fd leaks to exec */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "http/http_int.h"

static enum status bind_address(struct server *s, struct err *e)
{
    struct sockaddr_storage ss;
    socklen_t len;
    memset(&ss, 0, sizeof ss);
    struct sockaddr_in *v4 = (struct sockaddr_in *)&ss;
    struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)&ss;
    if (inet_pton(AF_INET, s->cfg.host, &v4->sin_addr) == 1) {
        v4->sin_family = AF_INET;
        v4->sin_port = htons((uint16_t)s->cfg.port);
        len = sizeof *v4;
    } else if (inet_pton(AF_INET6, s->cfg.host, &v6->sin6_addr) == 1) {
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons((uint16_t)s->cfg.port);
        len = sizeof *v6;
    } else {
        return err_set(e, ST_IO, "listen address '%s' is not an IPv4 or "
                       "IPv6 address", s->cfg.host);
    }
    int fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
                    0);
    if (fd < 0)
        return err_set(e, ST_IO, "cannot listen on %s:%u: %s", s->cfg.host,
                       s->cfg.port, strerror(errno));
    int one = 1;
    /* a restarted daemon rebinds while old connections sit in TIME_WAIT */
    (void)setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (ss.ss_family == AF_INET6) /* "::" means IPv6 only, as asked */
        (void)setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one);
    if (bind(fd, (struct sockaddr *)&ss, len) != 0 ||
        listen(fd, SOMAXCONN) != 0 ||
        getsockname(fd, (struct sockaddr *)&ss, &len) != 0) {
        int err = errno;
        close(fd);
        return err_set(e, ST_IO, "cannot listen on %s:%u: %s", s->cfg.host,
                       s->cfg.port, strerror(err));
    }
    s->port = ss.ss_family == AF_INET6 ? ntohs(v6->sin6_port)
                                       : ntohs(v4->sin_port);
    s->listen_fd = fd;
    return ST_OK;
}

/* s->listen_fd and s->lwake start at -1 (server_start()), so that
 * listener_stop() closes only what was opened. */
enum status listener_open(struct server *s, struct err *e)
{
    if (pipe2(s->lwake, O_CLOEXEC) != 0)
        return err_set(e, ST_IO, "cannot make a pipe: %s", strerror(errno));
    return bind_address(s, e);
}

static void *accept_main(void *arg)
{
    struct server *s = arg;
    bool told = false;
    for (;;) {
        struct pollfd p[2] = { { s->listen_fd, POLLIN, 0 },
                               { s->lwake[0], POLLIN, 0 } };
        if (poll(p, 2, -1) < 0 && errno != EINTR)
            break;
        if (p[1].revents)
            break; /* listener_stop() */
        if (!(p[0].revents & POLLIN))
            continue;
        struct sockaddr_storage ss;
        socklen_t len = sizeof ss;
        int fd = accept4(s->listen_fd, (struct sockaddr *)&ss, &len,
                         SOCK_CLOEXEC);
        if (fd >= 0) {
            told = false;
            server_add_connection(s, fd, (struct sockaddr *)&ss, len);
        } else if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS ||
                   errno == ENOMEM) {
            /* The waiting connection stays queued: accepting it again at
             * once would spin. Wait for descriptors to come back. */
            if (!told && s->cfg.log)
                fprintf(s->cfg.log, "flierd: http: cannot accept a "
                        "connection: %s; waiting\n", strerror(errno));
            told = true;
            struct timespec ts = { 0, 50 * 1000 * 1000 };
            nanosleep(&ts, NULL);
        } /* else gone before we took it (ECONNABORTED), or EAGAIN */
    }
    return NULL;
}

enum status listener_start(struct server *s, struct err *e)
{
    if (pthread_create(&s->accept_thread, NULL, accept_main, s) != 0)
        return err_set(e, ST_IO, "cannot start the accepting thread: %s",
                       strerror(errno));
    s->accepting = true;
    return ST_OK;
}

void listener_stop(struct server *s)
{
    if (s->accepting) {
        ssize_t n;
        do
            n = write(s->lwake[1], "x", 1);
        while (n < 0 && errno == EINTR);
        pthread_join(s->accept_thread, NULL);
        s->accepting = false;
    }
    for (int i = 0; i < 2; i++)
        if (s->lwake[i] >= 0)
            close(s->lwake[i]);
    if (s->listen_fd >= 0)
        close(s->listen_fd);
    s->lwake[0] = s->lwake[1] = s->listen_fd = -1;
}
