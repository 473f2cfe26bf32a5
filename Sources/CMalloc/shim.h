#ifndef SYNCD_CMALLOC_SHIM_H
#define SYNCD_CMALLOC_SHIM_H

#if defined(__GLIBC__) || defined(__linux__)
#include <malloc.h>
#include <stdlib.h>

/// glibc's mallopt(M_ARENA_MAX, count): at most `count` malloc arenas
/// (https://man7.org/linux/man-pages/man3/mallopt.3.html), unless the environment sets MALLOC_ARENA_MAX, which wins.
/// Returns 1 when the limit was set, 0 otherwise.
static inline int syncd_limit_malloc_arenas(int count) {
    if (getenv("MALLOC_ARENA_MAX") != NULL) return 0;
#ifdef M_ARENA_MAX
    return mallopt(M_ARENA_MAX, count);
#else
    return 0;
#endif
}
#else
static inline int syncd_limit_malloc_arenas(int count) {
    (void)count;
    return 0;
}
#endif

#endif
