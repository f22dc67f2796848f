/*
 * tiny_server.h - a minimal HTTP/1.1 server on 127.0.0.1 (ephemeral port) for tests that need a server
 * the emulator cannot play: one that echoes what it received into its error text, or answers with a body
 * far larger than any real one. One thread accepts connections one at a time; each request is read whole
 * (headers + Content-Length body), logged, handed to the test's handler, and the connection is closed.
 *
 * Header-only (static functions): include it after harness.h in the one test program that uses it.
 *
 *   tiny_server s;
 *   tiny_start(&s, my_handler, my_data);   s.url is "http://127.0.0.1:<port>"
 *   ...                                    tiny_requests(&s) / tiny_request_at(&s, i) show what arrived
 *   tiny_stop(&s);
 */
#ifndef JUMP_TEST_TINY_SERVER_H
#define JUMP_TEST_TINY_SERVER_H

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#define TINY_API static __attribute__((unused))
#define TINY_MAX_HEADER 65536

typedef struct tiny_request {
    char method[16];
    char path[1024];          /* without the query string */
    char *authorization;      /* the Authorization header's value, or NULL */
    char *headers;            /* every header line as received ("Name: value\r\n"...) */
    char *body;               /* NUL-terminated copy of the body (may hold NULs before its end) */
    size_t body_length;
} tiny_request;

typedef struct tiny_server tiny_server;
/* Answers one request on fd (tiny_respond or raw writes). Runs on the server thread. */
typedef void (*tiny_handler)(tiny_server *server, const tiny_request *request, int fd);

struct tiny_server {
    int listen_fd;
    int port;
    char url[64];
    pthread_t thread;
    int thread_started;
    volatile int stopping;
    tiny_handler handler;
    void *data;               /* the test's */
    pthread_mutex_t mutex;
    tiny_request *log;
    int count, capacity;
};

/* Writes all of data; 0 on success, -1 when the peer went away. */
TINY_API int tiny_write_all(int fd, const void *data, size_t length) {
    const char *p = data;
    while (length > 0) {
        ssize_t n = send(fd, p, length, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return -1;
        p += n;
        length -= (size_t)n;
    }
    return 0;
}

/* A complete answer: status line, Content-Type, Content-Length, Connection: close, body. */
TINY_API void tiny_respond(int fd, int status, const char *content_type, const char *body, size_t length) {
    char head[512];
    int n = snprintf(head, sizeof head,
                     "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %lu\r\nConnection: close\r\n\r\n",
                     status, status == 200 ? "OK" : "Error", content_type, (unsigned long)length);
    if (tiny_write_all(fd, head, (size_t)n) == 0 && length > 0) tiny_write_all(fd, body, length);
}

TINY_API void tiny_respond_json(int fd, int status, const char *json) {
    tiny_respond(fd, status, "application/json", json, strlen(json));
}

/* The value of header `name` (case-insensitive) in the header block, malloc'd, or NULL. */
TINY_API char *tiny_header_value(const char *headers, const char *name) {
    size_t n = strlen(name);
    const char *line = headers;
    while (line != NULL && *line != '\0') {
        const char *end = strstr(line, "\r\n");
        if (end == NULL) end = line + strlen(line);
        if ((size_t)(end - line) > n && strncasecmp(line, name, n) == 0 && line[n] == ':') {
            const char *v = line + n + 1;
            size_t len;
            char *value;
            while (*v == ' ' || *v == '\t') v++;
            len = (size_t)(end - v);
            value = malloc(len + 1);
            if (value == NULL) return NULL;
            memcpy(value, v, len);
            value[len] = '\0';
            return value;
        }
        line = *end != '\0' ? end + 2 : end;
    }
    return NULL;
}

/* Reads one request from fd; 0 on success. */
TINY_API int tiny_read_request(int fd, tiny_request *request) {
    char *buffer = malloc(TINY_MAX_HEADER + 1);
    size_t used = 0, header_end = 0, content_length = 0;
    char *line_end, *target, *query, *value;
    memset(request, 0, sizeof *request);
    if (buffer == NULL) return -1;
    while (header_end == 0) {
        char *found;
        ssize_t n;
        if (used == TINY_MAX_HEADER) goto fail;
        n = recv(fd, buffer + used, TINY_MAX_HEADER - used, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) goto fail;
        used += (size_t)n;
        buffer[used] = '\0';
        found = strstr(buffer, "\r\n\r\n");
        if (found != NULL) header_end = (size_t)(found - buffer) + 4;
    }
    /* Request line. */
    line_end = strstr(buffer, "\r\n");
    *line_end = '\0';
    target = strchr(buffer, ' ');
    if (target == NULL) goto fail;
    *target++ = '\0';
    snprintf(request->method, sizeof request->method, "%s", buffer);
    if (strchr(target, ' ') != NULL) *strchr(target, ' ') = '\0';
    query = strchr(target, '?');
    if (query != NULL) *query = '\0';
    snprintf(request->path, sizeof request->path, "%s", target);
    /* Header block (after the request line, up to the blank line). */
    {
        size_t start = (size_t)(line_end - buffer) + 2, length = header_end - 2 - start;
        request->headers = malloc(length + 1);
        if (request->headers == NULL) goto fail;
        memcpy(request->headers, buffer + start, length);
        request->headers[length] = '\0';
    }
    request->authorization = tiny_header_value(request->headers, "Authorization");
    value = tiny_header_value(request->headers, "Content-Length");
    if (value != NULL) content_length = (size_t)strtoul(value, NULL, 10);
    free(value);
    value = tiny_header_value(request->headers, "Expect");
    if (value != NULL && strncasecmp(value, "100-continue", 12) == 0)
        tiny_write_all(fd, "HTTP/1.1 100 Continue\r\n\r\n", 25);
    free(value);
    if (content_length > ((size_t)256 << 20)) goto fail;
    request->body = malloc(content_length + 1);
    if (request->body == NULL) goto fail;
    {
        size_t have = used - header_end;
        if (have > content_length) have = content_length;
        memcpy(request->body, buffer + header_end, have);
        while (have < content_length) {
            ssize_t n = recv(fd, request->body + have, content_length - have, 0);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) goto fail;
            have += (size_t)n;
        }
        request->body[content_length] = '\0';
        request->body_length = content_length;
    }
    free(buffer);
    return 0;
fail:
    free(buffer);
    free(request->headers);
    free(request->authorization);
    free(request->body);
    memset(request, 0, sizeof *request);
    return -1;
}

TINY_API void *tiny_loop(void *arg) {
    tiny_server *s = arg;
    while (!s->stopping) {
        struct pollfd pfd;
        tiny_request request;
        int fd, r;
        pfd.fd = s->listen_fd;
        pfd.events = POLLIN;
        r = poll(&pfd, 1, 100);
        if (r <= 0) continue;
        fd = accept(s->listen_fd, NULL, NULL);
        if (fd < 0) continue;
        {
            /* A client that stops reading (or never sends) must not wedge the server thread. */
            struct timeval limit;
            limit.tv_sec = 10;
            limit.tv_usec = 0;
            setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, sizeof limit);
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
        }
        if (tiny_read_request(fd, &request) == 0) {
            pthread_mutex_lock(&s->mutex);
            if (s->count == s->capacity) {
                int capacity = s->capacity ? s->capacity * 2 : 16;
                tiny_request *grown = realloc(s->log, (size_t)capacity * sizeof *grown);
                if (grown != NULL) {
                    s->log = grown;
                    s->capacity = capacity;
                }
            }
            if (s->count < s->capacity) s->log[s->count++] = request;
            pthread_mutex_unlock(&s->mutex);
            s->handler(s, &request, fd);
            /* The log keeps the request's strings; freed by tiny_stop. */
        }
        shutdown(fd, SHUT_WR);
        close(fd);
    }
    return NULL;
}

/* Starts the server; 0 on success. */
/* A listening socket on 127.0.0.1 (ephemeral port): its descriptor, or -1; *port and url ("http://...") set. */
TINY_API int tiny_listen(int *port, char *url, size_t url_size) {
    struct sockaddr_in addr;
    socklen_t len = sizeof addr;
    int one = 1, fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) return -1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    memset(&addr, 0, sizeof addr);
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(fd, (struct sockaddr *)&addr, sizeof addr) != 0 || listen(fd, 64) != 0 ||
        getsockname(fd, (struct sockaddr *)&addr, &len) != 0) {
        close(fd);
        return -1;
    }
    *port = ntohs(addr.sin_port);
    snprintf(url, url_size, "http://127.0.0.1:%d", *port);
    return fd;
}

TINY_API int tiny_start(tiny_server *s, tiny_handler handler, void *data) {
    memset(s, 0, sizeof *s);
    s->handler = handler;
    s->data = data;
    pthread_mutex_init(&s->mutex, NULL);
    s->listen_fd = tiny_listen(&s->port, s->url, sizeof s->url);
    if (s->listen_fd < 0) return -1;
    if (pthread_create(&s->thread, NULL, tiny_loop, s) != 0) {
        close(s->listen_fd);
        return -1;
    }
    s->thread_started = 1;
    return 0;
}

TINY_API void tiny_stop(tiny_server *s) {
    int i;
    if (!s->thread_started) return;
    s->stopping = 1;
    pthread_join(s->thread, NULL);
    s->thread_started = 0;
    close(s->listen_fd);
    for (i = 0; i < s->count; i++) {
        free(s->log[i].headers);
        free(s->log[i].authorization);
        free(s->log[i].body);
    }
    free(s->log);
    s->log = NULL;
    s->count = s->capacity = 0;
    pthread_mutex_destroy(&s->mutex);
}

/* Number of requests received so far. */
TINY_API int tiny_requests(tiny_server *s) {
    int n;
    pthread_mutex_lock(&s->mutex);
    n = s->count;
    pthread_mutex_unlock(&s->mutex);
    return n;
}

/* The i-th request whose path is `path` (NULL: any), or NULL. Valid until tiny_stop. */
TINY_API const tiny_request *tiny_find(tiny_server *s, const char *path, int nth) {
    const tiny_request *found = NULL;
    int i;
    pthread_mutex_lock(&s->mutex);
    for (i = 0; i < s->count && found == NULL; i++)
        if (path == NULL || strcmp(s->log[i].path, path) == 0) {
            if (nth-- == 0) found = &s->log[i];
        }
    pthread_mutex_unlock(&s->mutex);
    return found;
}

/* The URL-decoded value of form parameter `name` in an x-www-form-urlencoded body (malloc'd) or NULL. */
TINY_API char *tiny_form_value(const char *body, const char *name) {
    size_t n = strlen(name);
    const char *p = body;
    while (p != NULL && *p != '\0') {
        const char *end = strchr(p, '&');
        if (end == NULL) end = p + strlen(p);
        if ((size_t)(end - p) > n && strncmp(p, name, n) == 0 && p[n] == '=') {
            const char *v = p + n + 1;
            char *out = malloc((size_t)(end - v) + 1), *o = out;
            if (out == NULL) return NULL;
            while (v < end) {
                if (*v == '+') {
                    *o++ = ' ';
                    v++;
                } else if (*v == '%' && end - v >= 3) {
                    char hex[3] = {v[1], v[2], '\0'};
                    *o++ = (char)strtol(hex, NULL, 16);
                    v += 3;
                } else {
                    *o++ = *v++;
                }
            }
            *o = '\0';
            return out;
        }
        p = *end != '\0' ? end + 1 : end;
    }
    return NULL;
}

#endif
