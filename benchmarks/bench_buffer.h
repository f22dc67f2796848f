/* bench_buffer.h - a libcurl write callback that collects a response body into a NUL-terminated buffer
 * (the by-hand sides of bench_signin and bench_many). */
#ifndef JUMP_BENCH_BUFFER_H
#define JUMP_BENCH_BUFFER_H

#include <stdlib.h>
#include <string.h>

struct buffer {
    char *data;
    size_t length;
};

static size_t collect(char *data, size_t size, size_t count, void *userdata) {
    struct buffer *buffer = userdata;
    char *grown = realloc(buffer->data, buffer->length + size * count + 1);
    if (grown == NULL) return 0;
    memcpy(grown + buffer->length, data, size * count);
    buffer->data = grown;
    buffer->length += size * count;
    buffer->data[buffer->length] = '\0';
    return size * count;
}

#endif
