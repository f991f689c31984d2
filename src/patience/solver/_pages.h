/* Large pages for the compiled searches' tables (docs/solver.md, "Speed").  The tables are
 * read at random: with pages of 4 KiB nearly every lookup in a large one also misses the
 * processor's cache of page addresses.  Where the system gives large pages only when asked
 * (Linux's transparent huge pages in "madvise" mode), they are asked for every block of a
 * few megabytes or more, as it is made; elsewhere this does nothing. */
#ifndef PATIENCE_PAGES_H
#define PATIENCE_PAGES_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

/* Kept blocks (docs/solver.md, "Kept blocks").  A large page that the process has not used
 * before is slow to get on some virtual machines: the system zeroes it, and the host behind it
 * gives it memory only then (a quarter of a gigabyte a second, measured, where a page the
 * process used before is zeroed at several gigabytes a second).  A process that solves one
 * deal after another (a win-rate worker, a web worker) may therefore keep the large blocks
 * its tables hand back, for the next table that fits in one (a table grown, another search,
 * the next solve), up to ``keep_memory(bytes)``; by default (0) every block is handed back
 * at once.  The large blocks in use and kept stay within that limit, or within what the
 * tables in use need when that is more: a new block first hands back kept ones, the
 * smallest first.  Where the C library cannot tell a block's size, nothing is kept. */
#define LARGE_BLOCK ((size_t)4 << 20)
#define KEPT_SLOTS 32

#ifdef __GLIBC__
#include <malloc.h>
static struct { void *p; size_t bytes; } kept_[KEPT_SLOTS];
static int nkept_;
static size_t kept_bytes_, live_bytes_;  /* large blocks kept, and in use */
static size_t kept_limit_;               /* keep_memory's bytes */

static inline void drop_kept(int i) {
    free(kept_[i].p);
    kept_bytes_ -= kept_[i].bytes;
    kept_[i] = kept_[--nkept_];
}

static inline int smallest_kept(void) {
    int s = 0;
    for (int i = 1; i < nkept_; i++) if (kept_[i].bytes < kept_[s].bytes) s = i;
    return s;
}
#endif

/* sets the limit of the blocks kept (bytes), handing back those beyond it */
static inline void keep_memory(size_t bytes) {
#ifdef __GLIBC__
    kept_limit_ = bytes;
    int dropped = 0;
    while (nkept_ && kept_bytes_ > kept_limit_) { drop_kept(smallest_kept()); dropped = 1; }
    /* glibc keeps freed blocks of up to 32 MB in the heap (once a larger one was freed):
     * hand those just dropped back to the system now, not at the next solve's end */
    if (dropped) malloc_trim(0);
#else
    (void)bytes;
#endif
}

/* a block of ``bytes`` (zeroed when ``zero``): the smallest kept block that holds it and is
 * at most an eighth larger (a larger one would hold memory that no table uses), else a new
 * one, with large pages asked for */
static inline void *big_alloc(size_t bytes, int zero) {
#ifdef __GLIBC__
    int large = bytes >= LARGE_BLOCK;
    if (large) {
        int best = -1;
        for (int i = 0; i < nkept_; i++)
            if (kept_[i].bytes >= bytes && kept_[i].bytes <= bytes + bytes / 8
                && (best < 0 || kept_[i].bytes < kept_[best].bytes))
                best = i;
        if (best >= 0) {
            void *p = kept_[best].p;
            kept_bytes_ -= kept_[best].bytes;
            live_bytes_ += kept_[best].bytes;
            kept_[best] = kept_[--nkept_];
            if (zero) memset(p, 0, bytes);
            return p;
        }
        while (nkept_ && live_bytes_ + kept_bytes_ + bytes > kept_limit_)
            drop_kept(smallest_kept());
    }
#endif
    void *p = huge_pages(zero ? calloc(1, bytes) : malloc(bytes), bytes);
#ifdef __GLIBC__
    if (p && large) live_bytes_ += malloc_usable_size(p);
#endif
    return p;
}

/* hands back a block from big_alloc (NULL does nothing): a large one is kept while the
 * kept ones stay within the limit, smaller kept ones making room for it */
static inline void big_free(void *p) {
#ifdef __GLIBC__
    size_t bytes = p ? malloc_usable_size(p) : 0;
    if (bytes >= LARGE_BLOCK) {
        live_bytes_ -= bytes < live_bytes_ ? bytes : live_bytes_;
        while (nkept_ && (nkept_ == KEPT_SLOTS || kept_bytes_ + bytes > kept_limit_)) {
            int s = smallest_kept();
            if (kept_[s].bytes >= bytes) break;
            drop_kept(s);
        }
        if (nkept_ < KEPT_SLOTS && kept_bytes_ + bytes <= kept_limit_) {
            kept_[nkept_].p = p; kept_[nkept_].bytes = bytes; nkept_++;
            kept_bytes_ += bytes;
            return;
        }
    }
#endif
    free(p);
}

/* ``p`` (``old_bytes`` long, from malloc, realloc or big_alloc; or NULL) made ``bytes``
 * long, its contents kept: a block of big_alloc when that is large, else realloc's */
static inline void *big_grow(void *p, size_t old_bytes, size_t bytes) {
    if (bytes < LARGE_BLOCK) return realloc(p, bytes);
    void *q = big_alloc(bytes, 0);
    if (!q) return NULL;
    if (p) memcpy(q, p, old_bytes);
    big_free(p);
    return q;
}

#ifdef Py_PYTHON_H
/* keep_memory(bytes), a function of both compiled modules */
static PyObject *py_keep_memory(PyObject *self, PyObject *arg) {
    (void)self;
    long long n = PyLong_AsLongLong(arg);
    if (n == -1 && PyErr_Occurred()) return NULL;
    if (n < 0) { PyErr_SetString(PyExc_ValueError, "keep_memory: bytes must be >= 0"); return NULL; }
    keep_memory((size_t)n);
    Py_RETURN_NONE;
}

#define KEEP_MEMORY_METHOD {"keep_memory", py_keep_memory, METH_O, \
    "keep_memory(bytes): keep up to this many bytes of the large blocks that tables hand " \
    "back, for the next tables (0, the default: hand every block back at once)."}
#endif

#endif
