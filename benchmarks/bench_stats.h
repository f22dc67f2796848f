/* bench_stats.h - the clock and the median every benchmark program reports with (header-only). */
#ifndef JUMP_BENCH_STATS_H
#define JUMP_BENCH_STATS_H

#include <stdlib.h>
#include <time.h>

/* Monotonic milliseconds. */
static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of count values (sorts them in place). */
static double median(double *values, int count) {
    qsort(values, (size_t)count, sizeof *values, compare_doubles);
    return count % 2 ? values[count / 2] : (values[count / 2 - 1] + values[count / 2]) / 2;
}

#endif
