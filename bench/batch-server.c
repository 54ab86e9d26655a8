/*
 * batch-server: the server of bench/engine-vs-wrk.sh's gen-bound section. It answers every
 * request (a GET: a header section ending in an empty line, no body) with the same
 * "Hello, World!" answer nginx gives, its Date header renewed once a second, and it writes all
 * the answers one read asked for in one write. nginx writes each pipelined answer on its own
 * (one writev and one TCP segment an answer), so with 16 requests in flight per connection
 * nginx, not the load generator, is the limit. This server needs a fraction of nginx's CPU per
 * answer, so that what the section measures is the generator's own cost.
 *
 * Not an HTTP server for anything else: it reads no request line, no body, no header.
 * One thread, epoll, level-triggered; binds 127.0.0.1 only.
 *
 * Usage: batch-server PORT      (prints "ready" once it listens; stops on SIGTERM/SIGINT)
 * Build: cc -O2 -o batch-server bench/batch-server.c
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_FDS 65536
#define BATCH 1024 /* answers prepared in one buffer: the most written by one write() */

static const char HEAD[] = "HTTP/1.1 200 OK\r\nServer: batch-server\r\nDate: ";
static const char TAIL[] = "\r\nContent-Type: text/plain\r\nContent-Length: 13\r\n"
                           "Connection: keep-alive\r\n\r\nHello, World!";

/* Per connection: how far into "\r\n\r\n" the last read ended; the bytes of answers owed but not
 * yet written because the socket's send buffer was full, and how far into an answer they start;
 * whether epoll also waits for the socket to be writable. */
static unsigned char matched[MAX_FDS];
static long owed[MAX_FDS];
static size_t torn[MAX_FDS];
static unsigned char waits_out[MAX_FDS];

static char *answers;   /* BATCH copies of the answer, back to back */
static size_t answer_len;  /* bytes of one answer: the same every second (a fixed-width Date) */
static time_t date_of;  /* the second the Date in `answers` shows */

static void renew_date(void) {
    time_t now = time(NULL);
    if (now == date_of) return;
    date_of = now;
    char date[64];
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(date, sizeof date, "%a, %d %b %Y %H:%M:%S GMT", &tm);
    char one[256];
    answer_len = (size_t)snprintf(one, sizeof one, "%s%s%s", HEAD, date, TAIL);
    for (int i = 0; i < BATCH; i++) memcpy(answers + (size_t)i * answer_len, one, answer_len);
}

/* Writes what fd is owed; returns -1 when the connection is to be closed. The answers are all
 * alike, so a write that stopped inside one goes on from the same place of any copy. */
static int pay(int ep, int fd) {
    while (owed[fd] > 0) {
        size_t room = BATCH * answer_len - torn[fd];
        size_t n = (size_t)owed[fd] < room ? (size_t)owed[fd] : room;
        ssize_t w = write(fd, answers + torn[fd], n);
        if (w < 0 && errno == EAGAIN) break;
        if (w <= 0) return -1;
        owed[fd] -= w;
        torn[fd] = (torn[fd] + (size_t)w) % answer_len;
        if ((size_t)w < n) break;
    }
    unsigned char want = owed[fd] > 0;
    if (want == waits_out[fd]) return 0;
    waits_out[fd] = want;
    struct epoll_event ev = {.events = EPOLLIN | (want ? EPOLLOUT : 0), .data.fd = fd};
    return epoll_ctl(ep, EPOLL_CTL_MOD, fd, &ev) == 0 ? 0 : -1;
}

/* Counts the complete requests in buf[0, n) for fd. */
static long requests_in(int fd, const char *buf, ssize_t n) {
    int s = matched[fd];
    long k = 0;
    for (ssize_t i = 0; i < n; i++) {
        char c = buf[i];
        if (c == (s % 2 == 0 ? '\r' : '\n')) {
            if (++s == 4) { k++; s = 0; }
        } else {
            s = c == '\r';
        }
    }
    matched[fd] = (unsigned char)s;
    return k;
}

static void drop(int fd) {
    owed[fd] = 0;
    torn[fd] = 0;
    matched[fd] = 0;
    waits_out[fd] = 0;
    close(fd);
}

static volatile sig_atomic_t stop;
static void on_signal(int sig) { (void)sig; stop = 1; }

int main(int argc, char **argv) {
    if (argc != 2 || atoi(argv[1]) <= 0 || atoi(argv[1]) > 65535) {
        fprintf(stderr, "usage: batch-server PORT (1-65535)\n");
        return 2;
    }
    signal(SIGTERM, on_signal);
    signal(SIGINT, on_signal);
    signal(SIGPIPE, SIG_IGN);
    answers = malloc(BATCH * 256);
    if (!answers) return 1;
    renew_date();

    int one = 1, ls = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t)atoi(argv[1]))};
    inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
    if (bind(ls, (struct sockaddr *)&addr, sizeof addr) != 0 || listen(ls, 4096) != 0) {
        fprintf(stderr, "batch-server: cannot listen on 127.0.0.1:%s: %s\n", argv[1], strerror(errno));
        return 1;
    }
    int ep = epoll_create1(0);
    struct epoll_event lev = {.events = EPOLLIN, .data.fd = ls};
    epoll_ctl(ep, EPOLL_CTL_ADD, ls, &lev);
    printf("ready\n");
    fflush(stdout);

    static char in[65536];
    struct epoll_event evs[256];
    while (!stop) {
        int n = epoll_wait(ep, evs, 256, 1000);
        if (n < 0 && errno != EINTR) return 1;
        renew_date();
        for (int i = 0; i < n; i++) {
            int fd = evs[i].data.fd;
            if (fd == ls) {
                int c;
                while ((c = accept4(ls, NULL, NULL, SOCK_NONBLOCK)) >= 0) {
                    if (c >= MAX_FDS) { close(c); continue; }
                    setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
                    struct epoll_event ev = {.events = EPOLLIN, .data.fd = c};
                    epoll_ctl(ep, EPOLL_CTL_ADD, c, &ev);
                }
                continue;
            }
            if (evs[i].events & EPOLLIN) {
                ssize_t r = read(fd, in, sizeof in);
                if (r < 0 && errno == EAGAIN) continue;
                if (r <= 0) { drop(fd); continue; }
                owed[fd] += requests_in(fd, in, r) * (long)answer_len;
            }
            if (owed[fd] > 0 && pay(ep, fd) != 0) drop(fd);
        }
    }
    return 0;
}
