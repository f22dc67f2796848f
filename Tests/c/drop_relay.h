/*
 * drop_relay.h - a keep-alive HTTP/1.1 relay on 127.0.0.1 in front of the emulator, for the tests of what a
 * client does when a kept-alive connection dies after the server applied a request (an idle timeout racing
 * the request, a load balancer recycling connections).
 *
 * Each client connection is served by a thread of its own and kept alive. Every request is forwarded to the
 * upstream (libcurl, a new upstream connection each) and its answer sent back with Content-Length. The one
 * exception: a POST whose path is `drop_path`, arriving on a connection that already carried a request, is
 * forwarded (so the server applies it), then the client connection is closed unanswered, `drops` times.
 *
 * Header-only (static functions, on top of tiny_server.h's): include it after harness.h in the one test
 * program that uses it.
 *
 *   drop_relay r;
 *   drop_relay_start(&r, emu_url());      r.url is "http://127.0.0.1:<port>"
 *   drop_relay_arm(&r, "/entity.update", 1);
 *   ...                                   drop_relay_count(&r, "/entity.update"): how many arrived
 *   drop_relay_stop(&r);
 */
#ifndef JUMP_TEST_DROP_RELAY_H
#define JUMP_TEST_DROP_RELAY_H

#include <arpa/inet.h>
#include <curl/curl.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include "emulator.h"
#include "tiny_server.h"

#define DROP_RELAY_API static __attribute__((unused))
#define DROP_RELAY_MAX_HEADER 65536
#define DROP_RELAY_PATHS 64

typedef struct drop_relay {
    int listen_fd;
    int port;
    char url[64];
    char upstream[256];
    pthread_t thread;
    int thread_started;
    volatile int stopping;
    pthread_mutex_t mutex;
    char drop_path[256];
    int drops_left;
    int dropped;
    /* How many requests arrived per path (every connection, dropped or not). */
    char paths[DROP_RELAY_PATHS][256];
    int counts[DROP_RELAY_PATHS];
} drop_relay;

typedef struct drop_relay_connection {
    drop_relay *relay;
    int fd;
} drop_relay_connection;

/* The first line of data before end that starts with name (which begins with "\r\n"), any case, or NULL. */
DROP_RELAY_API const char *drop_relay_find_header(const char *data, const char *end, const char *name) {
    size_t length = strlen(name);
    for (; data + length <= end; data++) {
        if (strncasecmp(data, name, length) == 0) return data;
    }
    return NULL;
}

/* Reads one request (headers, then a Content-Length body) into *buffer (malloc'd); its length, or -1 at the
 * end of the connection. *header_end: where the body starts. */
DROP_RELAY_API long drop_relay_read_request(int fd, char **buffer, size_t *header_end) {
    size_t capacity = 8192, length = 0, need = 0;
    char *data = malloc(capacity + 1), *end;
    if (data == NULL) return -1;
    for (;;) {
        ssize_t n;
        if (length == capacity) {
            char *grown;
            if (capacity >= DROP_RELAY_MAX_HEADER * 16) break;
            grown = realloc(data, capacity * 2 + 1);
            if (grown == NULL) break;
            data = grown;
            capacity *= 2;
        }
        n = recv(fd, data + length, capacity - length, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        length += (size_t)n;
        data[length] = '\0';
        if (need == 0 && (end = strstr(data, "\r\n\r\n")) != NULL) {
            const char *cl = drop_relay_find_header(data, end, "\r\nContent-Length:");
            *header_end = (size_t)(end - data) + 4;
            need = *header_end + (cl != NULL && cl < end ? strtoul(cl + 17, NULL, 10) : 0);
        }
        if (need != 0 && length >= need) {
            *buffer = data;
            return (long)need;
        }
    }
    free(data);
    return -1;
}

/* Forwards the request to the upstream; the answer's status (0: none), type and body. */
DROP_RELAY_API long drop_relay_forward(drop_relay *relay, const char *method, const char *target, char *request,
                                       size_t header_end, size_t length, char *type, size_t type_size,
                                       emu_body *body) {
    CURL *curl = curl_easy_init();
    struct curl_slist *headers = NULL;
    char url[1400], *line, *save = NULL, *content_type = NULL;
    long status = 0;
    if (curl == NULL) return 0;
    snprintf(url, sizeof url, "%s%s", relay->upstream, target);
    request[header_end - 2] = '\0';
    line = strtok_r(strstr(request, "\r\n") + 2, "\r\n", &save);
    for (; line != NULL; line = strtok_r(NULL, "\r\n", &save)) {
        if (strncasecmp(line, "Host:", 5) == 0 || strncasecmp(line, "Content-Length:", 15) == 0 ||
            strncasecmp(line, "Connection:", 11) == 0 || strncasecmp(line, "Accept-Encoding:", 16) == 0)
            continue;
        headers = curl_slist_append(headers, line);
    }
    headers = curl_slist_append(headers, "Expect:");
    curl_easy_setopt(curl, CURLOPT_URL, url);
    curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, method);
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    if (strcmp(method, "GET") != 0) {
        curl_easy_setopt(curl, CURLOPT_POSTFIELDS, request + header_end);
        curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)(length - header_end));
    }
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, emu_body_writer);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, body);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT, 30L);
    if (curl_easy_perform(curl) == CURLE_OK) {
        curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
        curl_easy_getinfo(curl, CURLINFO_CONTENT_TYPE, &content_type);
        snprintf(type, type_size, "%s", content_type != NULL ? content_type : "application/octet-stream");
    }
    curl_slist_free_all(headers);
    curl_easy_cleanup(curl);
    return status;
}

DROP_RELAY_API void drop_relay_count_path(drop_relay *relay, const char *path) {
    int i;
    for (i = 0; i < DROP_RELAY_PATHS; i++) {
        if (relay->paths[i][0] == '\0') snprintf(relay->paths[i], sizeof relay->paths[i], "%s", path);
        if (strcmp(relay->paths[i], path) == 0) {
            relay->counts[i]++;
            return;
        }
    }
}

static void *drop_relay_serve(void *argument) {
    drop_relay_connection *connection = argument;
    drop_relay *relay = connection->relay;
    int fd = connection->fd, served = 0;
    free(connection);
    for (;;) {
        char *request = NULL, method[16], target[1024], path[1024], type[256], head[512];
        size_t header_end = 0;
        long length = drop_relay_read_request(fd, &request, &header_end), status;
        emu_body body = {NULL, 0};
        int drop = 0;
        if (length < 0) break;
        if (sscanf(request, "%15s %1023s", method, target) != 2) {
            free(request);
            break;
        }
        snprintf(path, sizeof path, "%.*s", (int)strcspn(target, "?"), target);
        pthread_mutex_lock(&relay->mutex);
        drop_relay_count_path(relay, path);
        if (served > 0 && relay->drops_left > 0 && strcmp(method, "POST") == 0 && strcmp(path, relay->drop_path) == 0) {
            relay->drops_left--;
            relay->dropped++;
            drop = 1;
        }
        pthread_mutex_unlock(&relay->mutex);
        served++;
        status = drop_relay_forward(relay, method, target, request, header_end, (size_t)length, type, sizeof type, &body);
        free(request);
        if (drop || status == 0) {
            free(body.data);
            break;  /* applied upstream; the client hears nothing and its connection closes */
        }
        snprintf(head, sizeof head, "HTTP/1.1 %ld X\r\nContent-Type: %s\r\nContent-Length: %lu\r\n\r\n", status, type,
                 (unsigned long)body.size);
        if (tiny_write_all(fd, head, strlen(head)) != 0 ||
            (body.size > 0 && tiny_write_all(fd, body.data, body.size) != 0)) {
            free(body.data);
            break;
        }
        free(body.data);
    }
    close(fd);
    return NULL;
}

static void *drop_relay_accept(void *argument) {
    drop_relay *relay = argument;
    while (!relay->stopping) {
        struct pollfd p = {relay->listen_fd, POLLIN, 0};
        int fd;
        pthread_t thread;
        drop_relay_connection *connection;
        if (poll(&p, 1, 100) <= 0) continue;
        fd = accept(relay->listen_fd, NULL, NULL);
        if (fd < 0) continue;
        connection = malloc(sizeof *connection);
        if (connection == NULL) {
            close(fd);
            continue;
        }
        connection->relay = relay;
        connection->fd = fd;
        if (pthread_create(&thread, NULL, drop_relay_serve, connection) != 0) {
            free(connection);
            close(fd);
            continue;
        }
        pthread_detach(thread);
    }
    return NULL;
}

/* 0 on success; relay->url is the relay's base URL. */
DROP_RELAY_API int drop_relay_start(drop_relay *relay, const char *upstream) {
    memset(relay, 0, sizeof *relay);
    if (upstream == NULL) return -1;
    snprintf(relay->upstream, sizeof relay->upstream, "%s", upstream);
    pthread_mutex_init(&relay->mutex, NULL);
    relay->listen_fd = tiny_listen(&relay->port, relay->url, sizeof relay->url);
    if (relay->listen_fd < 0) return -1;
    if (pthread_create(&relay->thread, NULL, drop_relay_accept, relay) != 0) {
        close(relay->listen_fd);
        return -1;
    }
    relay->thread_started = 1;
    return 0;
}

/* From now on, the next `drops` POSTs to `path` on a reused connection are applied and left unanswered. */
DROP_RELAY_API void drop_relay_arm(drop_relay *relay, const char *path, int drops) {
    pthread_mutex_lock(&relay->mutex);
    snprintf(relay->drop_path, sizeof relay->drop_path, "%s", path);
    relay->drops_left = drops;
    pthread_mutex_unlock(&relay->mutex);
}

/* How many requests to `path` arrived; how many were dropped. */
DROP_RELAY_API int drop_relay_count(drop_relay *relay, const char *path) {
    int i, count = 0;
    pthread_mutex_lock(&relay->mutex);
    for (i = 0; i < DROP_RELAY_PATHS; i++) {
        if (strcmp(relay->paths[i], path) == 0) count = relay->counts[i];
    }
    pthread_mutex_unlock(&relay->mutex);
    return count;
}

DROP_RELAY_API int drop_relay_dropped(drop_relay *relay) {
    int dropped;
    pthread_mutex_lock(&relay->mutex);
    dropped = relay->dropped;
    pthread_mutex_unlock(&relay->mutex);
    return dropped;
}

/* Stops accepting; connections still open end with their clients. */
DROP_RELAY_API void drop_relay_stop(drop_relay *relay) {
    relay->stopping = 1;
    if (relay->thread_started) pthread_join(relay->thread, NULL);
    relay->thread_started = 0;
    if (relay->listen_fd >= 0) close(relay->listen_fd);
    relay->listen_fd = -1;
}

#endif
