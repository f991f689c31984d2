/* Large pages for the compiled searches' tables (docs/solver.md, "Speed").  The tables are
 * read at random: with pages of 4 KiB nearly every lookup in a large one also misses the
 * processor's cache of page addresses.  Where the system gives large pages only when asked
 * (Linux's transparent huge pages in "madvise" mode), they are asked for every block of a
 * few megabytes or more, as it is made; elsewhere this does nothing. */
#ifndef PATIENCE_PAGES_H
#define PATIENCE_PAGES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __linux__
#include <sys/mman.h>
#include <unistd.h>
#endif

/* ``p`` (a block of ``bytes`` just made, or NULL), with large pages asked for */
static inline void *huge_pages(void *p, size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (p && bytes >= ((size_t)4 << 20)) {
        uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
        uintptr_t lo = ((uintptr_t)p + page - 1) & ~(page - 1);
        uintptr_t hi = ((uintptr_t)p + bytes) & ~(page - 1);
        if (hi > lo) madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
    }
#else
    (void)bytes;
#endif
    return p;
}

#endif
