/* The search over Fours Up's images, compiled (docs/solver.md, "The tableau as a multiset").
 *
 * The same depth-first search as search._MultisetRun over the images of
 * multiset.MultisetGame, in the same order, with the same safe moves: multiset.py is its
 * reference, and tests/test_solver_multiset.py checks that both search the same images.
 *
 * An image is kept in 24 bytes: the waste as a set of positions in the sequence D of the
 * cards that can be in the waste (the waste at the start, bottom to top, then the stock in
 * the order it is dealt; a waste is always a subsequence of D), the stock's length and the
 * foundations' heights (four bits a slot).  Images reached are kept in an open-addressing
 * table; when it is full the search stops (it can no longer prove a loss).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "_drain.h"
#include "_pages.h"
#include "_restarts.h"

#define MAXD 128    /* cards in D */
#define MAXSLOTS 8  /* foundations (four bits each in ``c``) */
#define MAXR 15     /* ranks */
#define MAXK (4 * MAXR)

typedef struct { uint64_t lo, hi, c; } Img;  /* c: stock length | heights << 8 */

#define FREE UINT64_MAX  /* c of a free slot (a real c is below 2^40) */

static inline uint64_t mix64(uint64_t x) {
    x ^= x >> 33; x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33; x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

static inline uint64_t img_hash(const Img *m) {
    return mix64(m->lo ^ mix64(m->hi ^ mix64(m->c)));
}

typedef struct { Img *v; size_t cap, n, max_cap; } Set;

static int set_init(Set *s, size_t cap, size_t max_cap) {
    s->v = big_alloc(cap * sizeof(Img), 0);
    if (!s->v) return -1;
    for (size_t i = 0; i < cap; i++) s->v[i].c = FREE;
    s->cap = cap; s->n = 0; s->max_cap = max_cap;
    return 0;
}

static void set_insert(Img *v, size_t cap, Img m) {
    size_t i = img_hash(&m) & (cap - 1);
    while (v[i].c != FREE) i = (i + 1) & (cap - 1);
    v[i] = m;
}

/* 1 added, 0 present, -1 out of memory, -2 full (at ``max_cap`` and 70% used) */
static int set_add(Set *s, Img m) {
    size_t i = img_hash(&m) & (s->cap - 1);
    while (s->v[i].c != FREE) {
        if (s->v[i].c == m.c && s->v[i].lo == m.lo && s->v[i].hi == m.hi) return 0;
        i = (i + 1) & (s->cap - 1);
    }
    if ((s->n + 1) * 10 > s->cap * 7) {
        if (s->cap * 2 > s->max_cap) return -2;
        size_t cap = s->cap * 2;
        Img *v = big_alloc(cap * sizeof(Img), 0);
        if (!v) return -1;
        for (size_t j = 0; j < cap; j++) v[j].c = FREE;
        for (size_t j = 0; j < s->cap; j++)
            if (s->v[j].c != FREE) set_insert(v, cap, s->v[j]);
        big_free(s->v);
        s->v = v; s->cap = cap;
        set_insert(v, cap, m);
    } else {
        s->v[i] = m;
    }
    s->n++;
    return 1;
}

/* takes ``m`` out of the set (when there), shifting back the entries after it */
static void set_del(Set *s, Img m) {
    size_t msk = s->cap - 1, i = img_hash(&m) & msk;
    for (;; i = (i + 1) & msk) {
        const Img *e = &s->v[i];
        if (e->c == FREE) return;
        if (e->c == m.c && e->lo == m.lo && e->hi == m.hi) break;
    }
    for (size_t j = i;;) {
        j = (j + 1) & msk;
        if (s->v[j].c == FREE) break;
        size_t h = img_hash(&s->v[j]) & msk;
        /* the entry at j stays when its home slot lies cyclically in (i, j] */
        if (i <= j ? (i < h && h <= j) : (i < h || h <= j)) continue;
        s->v[i] = s->v[j];
        i = j;
    }
    s->v[i].c = FREE;
    s->n--;
}

typedef struct { Img img; size_t next, end; } Frame;

/* a verdict of the drain test: the waste (lo, hi) at stock length sl; verdict 0: none kept */
typedef struct { uint64_t lo, hi; uint32_t sl; uint8_t verdict; } DrainEntry;
#define DCACHE (1 << 18)

enum { UNKNOWN = 0, WON = 1, LOST = 2, FULL = 3 };

typedef struct {
    PyObject_HEAD
    int nd, nr, piles, nslots, playback;
    uint8_t d[MAXD];                  /* kinds (rank·4 + suit) of D */
    int16_t prev_same[MAXD];          /* the position before p in D of d[p]'s kind, or -1 */
    uint8_t slot_suit[MAXSLOTS], gstart[4], glen[4];
    int16_t outside[MAXD + 1][MAXK];  /* cards of each kind not in a stock of sl cards */
    Set seen;
    Frame *stack; size_t depth, cap;
    Img *succ; size_t nsucc, succcap;
    long long nodes;
    /* restarts (docs/solver.md, "Restarts"): 0, or the images of the Luby sequence's unit;
     * after the first, the successors of every image are tried in a shuffled order */
    long long restart_unit, next_restart, restarts;
    uint64_t rng;
    /* the drain test (docs/solver.md, "Draining the waste"): on or off, its verdicts kept
     * by stock length and waste (it reads nothing else), and the images it cut */
    int drain;
    DrainEntry *dcache, dlast;
    long long cuts;
    /* seconds that growing the table takes for each image it holds, as last measured: a
     * growth moves every image, and is not begun when the solve's budget would end first */
    double grow_cost;
    int status, best;
    PyObject *best_path;              /* the line to the image with most cards home */
    PyObject *line;                   /* the winning line */
} Search;

#define SL(m) ((int)((m)->c & 0xff))
#define HT(m, i) ((int)(((m)->c >> (8 + 4 * (i))) & 15))

static inline void set_ht(Img *m, int i, int v) {
    m->c = (m->c & ~(15ULL << (8 + 4 * i))) | ((uint64_t)v << (8 + 4 * i));
}

static inline int top_pos(const Img *m) {  /* the waste's top in D, or -1 */
    if (m->hi) return 64 + 63 - __builtin_clzll(m->hi);
    if (m->lo) return 63 - __builtin_clzll(m->lo);
    return -1;
}

static inline void clear_pos(Img *m, int p) {
    if (p >= 64) m->hi &= ~(1ULL << (p - 64)); else m->lo &= ~(1ULL << p);
}

static inline void set_pos(Img *m, int p) {
    if (p >= 64) m->hi |= 1ULL << (p - 64); else m->lo |= 1ULL << p;
}

/* where the card dealt from ``m`` goes in D: its own position, or the first one after the
 * waste's top that holds a card of its kind (two decks: a copy dealt before it and gone
 * from the waste), so that a waste is always the earliest positions its cards can have
 * in D, and two images whose wastes hold the same cards are one */
static inline int dealt_pos(const Search *s, const Img *m) {
    int p = s->nd - SL(m), top = top_pos(m);
    while (s->prev_same[p] > top) p = s->prev_same[p];
    return p;
}

/* slot i one card higher (or lower), its suit's slots sorted */
static void raise_slot(const Search *s, Img *m, int i, int dv) {
    int su = s->slot_suit[i], a = s->gstart[su], b = a + s->glen[su];
    int h[MAXSLOTS] = {0};
    for (int j = a; j < b; j++) h[j - a] = HT(m, j);
    h[i - a] += dv;
    for (int x = 1; x < b - a; x++)  /* insertion sort */
        for (int y = x; y > 0 && h[y - 1] > h[y]; y--) { int t = h[y]; h[y] = h[y - 1]; h[y - 1] = t; }
    for (int j = a; j < b; j++) set_ht(m, j, h[j - a]);
}

/* tableau cards of each kind (n) and of each rank (byr, with byr[nr] = 0) */
static void counts(const Search *s, const Img *m, int *n, int *byr) {
    int nk = 4 * s->nr;
    const int16_t *o = s->outside[SL(m)];
    for (int k = 0; k < nk; k++) n[k] = o[k];
    uint64_t x = m->lo;
    while (x) { n[s->d[__builtin_ctzll(x)]]--; x &= x - 1; }
    x = m->hi;
    while (x) { n[s->d[64 + __builtin_ctzll(x)]]--; x &= x - 1; }
    for (int i = 0; i < s->nslots; i++) {
        int su = s->slot_suit[i], h = HT(m, i);
        for (int r = 0; r < h; r++) n[r * 4 + su]--;
    }
    for (int r = 0; r < s->nr; r++) byr[r] = n[4 * r] + n[4 * r + 1] + n[4 * r + 2] + n[4 * r + 3];
    byr[s->nr] = 0;
}

static inline int is_loose(const Search *s, const int *byr) {
    int runs = 0;
    for (int r = 0; r < s->nr; r++) if (byr[r] > byr[r + 1]) runs += byr[r] - byr[r + 1];
    return runs < s->piles;
}

static inline int won(const Search *s, const Img *m) {
    for (int i = 0; i < s->nslots; i++) if (HT(m, i) != s->nr) return 0;
    return 1;
}

static inline int home(const Search *s, const Img *m) {
    int t = 0;
    for (int i = 0; i < s->nslots; i++) t += HT(m, i);
    return t;
}

/* the safe moves (MultisetGame.settle).  ``n0`` and ``byr0`` are the tableau's counts of
 * the image ``m`` came from (counts()), and ``m`` has card kind ``dk`` more in its tableau
 * (``dv`` = 1) or one fewer (-1), or none (0); with ``n0`` NULL they are counted here */
static void settle(const Search *s, Img *m, int waste_only, const int *n0, const int *byr0,
                   int dk, int dv) {
    int n[MAXK], byr[MAXR + 1], have = 0;
    for (;;) {
        int low = 99;
        for (int i = 0; i < s->nslots; i++) if (HT(m, i) < low) low = HT(m, i);
        if (low >= s->nr) return;
        int moved = 0;
        for (int i = 0; i < s->nslots && !moved; i++) {
            int su = s->slot_suit[i];
            if (HT(m, i) != low || (i > s->gstart[su] && HT(m, i - 1) == low)) continue;
            int k = low * 4 + su, tp = top_pos(m);
            if (tp >= 0 && s->d[tp] == k) {  /* (the tableau as it was) */
                clear_pos(m, tp);
                raise_slot(s, m, i, 1);
                moved = 1;
                break;
            }
            if (waste_only) continue;
            if (!have) {
                if (n0) {
                    memcpy(n, n0, (size_t)(4 * s->nr) * sizeof(int));
                    memcpy(byr, byr0, (size_t)(s->nr + 1) * sizeof(int));
                    if (dv) { n[dk] += dv; byr[dk >> 2] += dv; }
                } else {
                    counts(s, m, n, byr);
                }
                have = 1;
            }
            if (n[k] > 0 && (is_loose(s, byr) || byr[low] > (low ? byr[low - 1] : 0))) {
                raise_slot(s, m, i, 1);
                n[k]--;
                byr[low]--;
                moved = 1;
            }
        }
        if (!moved) return;
        waste_only = 0;
    }
}


/* ---------------------------------------------------------------- draining the waste
 * (docs/solver.md, "Draining the waste").  ``u`` counts the cards of each kind in the
 * tableau or home.  A configuration of the foundations is the height of each slot; with
 * the tableau every other card of ``u``, it needs m = Σ_r max(0, e(r) − t(r)) runs, where
 * e(r) = c(r) − c(r+1) for the cards c(r) of rank r in ``u`` and t(r) is the number of
 * slots whose top card has rank r.  A slot is a token whose top rank may be anything up
 * to a limit that ``u`` sets (the cards below it must be there), so the fewest runs over
 * every configuration are Σ_r max(0, e(r)) less a greedy matching of tokens to ranks. */

/* the top-rank limit of each slot of suit ``su`` (sorted slots: the j-th lowest may hold
 * cards up to where ``u`` has at most glen - 1 - j of a rank), into ``lim`` */
static int suit_limits(const Search *s, const int *u, int su, int *lim) {
    int g = s->glen[su];
    for (int j = 0; j < g; j++) {
        int h = s->nr;
        for (int r = 1; r < s->nr; r++)
            if (u[r * 4 + su] <= g - 1 - j) { h = r; break; }
        lim[j] = h - 1;
    }
    return g;
}

/* can waste card ``w`` leave the waste, to a foundation or to the tableau, under some
 * configuration of the foundations that ``u`` (not counting ``w``) allows? */
static int can_leave(const Search *s, const int *u, int w) {
    int nr = s->nr, r0 = w >> 2, s0 = w & 3;
    int c[MAXR + 1], e[MAXR], cap[MAXR], base = 0;
    for (int r = 0; r < nr; r++) c[r] = u[4 * r] + u[4 * r + 1] + u[4 * r + 2] + u[4 * r + 3];
    c[nr] = 0;
    cap[0] = 0;
    for (int r = 1; r < nr; r++) {
        e[r] = c[r] - c[r + 1];
        cap[r] = e[r] > 0 ? e[r] : 0;
        base += cap[r];
    }
    int lim[MAXSLOTS], n = 0, own[2], nown = 0;
    for (int su = 0; su < 4; su++) {
        int l[2], g = suit_limits(s, u, su, l);
        for (int j = 0; j < g; j++) lim[n++] = l[j];
        if (su == s0) { for (int j = 0; j < g; j++) own[j] = l[j]; nown = g; }
    }
    /* home: a slot of its suit with top rank r0 - 1 */
    if (r0 - 1 <= own[nown - 1]) {
        int rest[MAXSLOTS], k = 0, c2[MAXR], got = 0;
        for (int su = 0, i = 0; su < 4; su++)
            for (int j = 0; j < s->glen[su]; j++, i++)
                if (su != s0) rest[k++] = lim[i];
        if (nown == 2) rest[k++] = r0 - 1 <= own[0] ? own[1] : own[0];
        memcpy(c2, cap, sizeof c2);
        if (r0 - 1 >= 1 && c2[r0 - 1] > 0) { c2[r0 - 1]--; got = 1; }
        if (base - got - drain_match(nr, c2, rest, k) <= s->piles) return 1;
    }
    int fewest = base - drain_match(nr, cap, lim, n);
    if (fewest < s->piles) return 1;   /* loose: a space can be made */
    if (fewest > s->piles || r0 + 1 >= nr) return 0;
    /* full: a pile must end in a rank r0+1 card, n(r0+1) > n(r0), i.e. t(r0) > e(r0) */
    int q = e[r0] + 1;
    return q <= 0 || drain_full_fits(nr, cap, lim, n, r0, q, base, s->piles);
}

/* 1 when every waste card can leave in turn, from the top down: the card at position i
 * leaves when the cards above it have, and so have the stock's cards dealt by then, which
 * lie above it; each test may take more of the stock than the one before */
static int drains(const Search *s, const Img *m) {
    int u[MAXK], nk = 4 * s->nr, sl = SL(m), next = s->nd - sl, end = s->nd;
    const int16_t *o = s->outside[sl];
    for (int k = 0; k < nk; k++) u[k] = o[k];
    uint64_t x = m->lo;
    while (x) { u[s->d[__builtin_ctzll(x)]]--; x &= x - 1; }
    x = m->hi;
    while (x) { u[s->d[64 + __builtin_ctzll(x)]]--; x &= x - 1; }
    for (int p = top_pos(m); p >= 0; p--) {
        if (!(p < 64 ? (m->lo >> p) & 1 : (m->hi >> (p - 64)) & 1)) continue;
        int w = s->d[p];
        while (!can_leave(s, u, w)) {
            if (next >= end) return 0;
            u[s->d[next++]]++;
        }
        u[w]++;
    }
    return 1;
}

static inline DrainEntry *drain_slot(const Search *s, const Img *m) {
    uint64_t key = mix64(m->lo ^ mix64(m->hi ^ mix64((uint64_t)SL(m) + 0x51)));
    return &s->dcache[key & (DCACHE - 1)];
}

/* the drain test's verdict for ``m`` (1: it drains), kept by stock length and waste; most
 * images share them with the image searched before (a card home or played back leaves
 * the stock and the waste as they were), so that one is looked at first */
static int drains_kept(Search *s, const Img *m) {
    DrainEntry *e = &s->dlast;
    if (!(e->verdict && e->lo == m->lo && e->hi == m->hi && e->sl == (uint32_t)SL(m))) {
        e = drain_slot(s, m);
        if (!(e->verdict && e->lo == m->lo && e->hi == m->hi && e->sl == (uint32_t)SL(m))) {
            int v = drains(s, m);
            e->lo = m->lo; e->hi = m->hi; e->sl = (uint32_t)SL(m); e->verdict = v ? 1 : 2;
        }
        s->dlast = *e;
    }
    return e->verdict == 1;
}

static int push_succ(Search *s, Img m, int waste_only, const int *n, const int *byr, int dk,
                     int dv) {
    settle(s, &m, waste_only, n, byr, dk, dv);
    if (s->nsucc == s->succcap) {
        size_t cap = s->succcap ? s->succcap * 2 : 4096;
        Img *v = realloc(s->succ, cap * sizeof(Img));
        if (!v) return -1;
        s->succ = v; s->succcap = cap;
    }
    s->succ[s->nsucc++] = m;
    return 0;
}

/* the successors of ``m`` (MultisetGame.successors, in its order) onto the buffer */
static int successors(Search *s, const Img *m) {
    int n[MAXK], byr[MAXR + 1];
    counts(s, m, n, byr);
    int loose = is_loose(s, byr), nr = s->nr;
    for (int i = 0; i < s->nslots; i++) {  /* a tableau card home */
        int su = s->slot_suit[i], r = HT(m, i);
        if (r >= nr || (i > s->gstart[su] && HT(m, i - 1) == r)) continue;
        if ((loose || byr[r] > (r ? byr[r - 1] : 0)) && n[r * 4 + su] > 0) {
            Img x = *m;
            raise_slot(s, &x, i, 1);
            if (push_succ(s, x, 0, n, byr, r * 4 + su, -1) < 0) return -1;
        }
    }
    int tp = top_pos(m);
    if (tp >= 0) {
        int k = s->d[tp], r = k >> 2, su = k & 3;
        for (int i = s->gstart[su]; i < s->gstart[su] + s->glen[su]; i++) {
            if (HT(m, i) == r) {  /* the waste's top card home */
                Img x = *m;
                clear_pos(&x, tp);
                raise_slot(s, &x, i, 1);
                if (push_succ(s, x, 0, n, byr, k, 0) < 0) return -1;
                break;
            }
        }
        if (loose || byr[r + 1] > byr[r]) {  /* to the tableau */
            Img x = *m;
            clear_pos(&x, tp);
            if (push_succ(s, x, 0, n, byr, k, 1) < 0) return -1;
        }
    }
    if (s->playback) {
        for (int i = 0; i < s->nslots; i++) {
            int su = s->slot_suit[i], r = HT(m, i) - 1;
            if (r < 1 || (i + 1 < s->gstart[su] + s->glen[su] && HT(m, i + 1) == HT(m, i)))
                continue;
            if (loose || byr[r + 1] > byr[r]) {
                Img x = *m;
                raise_slot(s, &x, i, -1);
                if (push_succ(s, x, 0, n, byr, r * 4 + su, 1) < 0) return -1;
            }
        }
    }
    int sl = SL(m);
    if (sl) {  /* the deal */
        Img x = *m;
        set_pos(&x, dealt_pos(s, m));
        x.c = (x.c & ~0xffULL) | (uint64_t)(sl - 1);
        if (push_succ(s, x, 1, n, byr, 0, 0) < 0) return -1;
    }
    return 0;
}

static int push_frame(Search *s, Img m) {
    if (s->depth == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 256;
        Frame *v = realloc(s->stack, cap * sizeof(Frame));
        if (!v) return -1;
        s->stack = v; s->cap = cap;
    }
    size_t from = s->nsucc;
    if (successors(s, &m) < 0) return -1;
    if (s->restarts) {  /* after a restart: the successors shuffled, the deal kept last */
        size_t end = s->nsucc;
        if (SL(&m) && end > from) end--;  /* the deal is the last successor */
        for (size_t i = end; i > from + 1; i--) {
            size_t j = from + (size_t)(xorshift64(&s->rng) % (i - from));
            Img t = s->succ[i - 1]; s->succ[i - 1] = s->succ[j]; s->succ[j] = t;
        }
    }
    /* the line of the table each successor will be looked up in, fetched now: the
     * lookups of a frame's successors then overlap their waits for memory */
    for (size_t i = from; i < s->nsucc; i++) {
        __builtin_prefetch(&s->seen.v[img_hash(&s->succ[i]) & (s->seen.cap - 1)]);
        if (s->drain && (s->succ[i].lo != m.lo || s->succ[i].hi != m.hi
                         || SL(&s->succ[i]) != SL(&m)))
            __builtin_prefetch(drain_slot(s, &s->succ[i]));
    }
    s->stack[s->depth].img = m;
    s->stack[s->depth].next = from;
    s->stack[s->depth].end = s->nsucc;
    s->depth++;
    return 0;
}

/* an image as multiset.Image: bytes [stock length, heights..., waste kinds bottom to top] */
static PyObject *as_bytes(const Search *s, const Img *m) {
    uint8_t buf[1 + MAXSLOTS + MAXD];
    int n = 0;
    buf[n++] = (uint8_t)SL(m);
    for (int i = 0; i < s->nslots; i++) buf[n++] = (uint8_t)HT(m, i);
    for (int p = 0; p < s->nd; p++) {
        uint64_t w = p < 64 ? m->lo >> p : m->hi >> (p - 64);
        if (w & 1) buf[n++] = s->d[p];
    }
    return PyBytes_FromStringAndSize((const char *)buf, n);
}

/* the images on the stack, then ``last`` */
static PyObject *path_to(const Search *s, const Img *last) {
    PyObject *path = PyList_New(0);
    if (!path) return NULL;
    for (size_t i = 0; i <= s->depth; i++) {
        PyObject *x = as_bytes(s, i < s->depth ? &s->stack[i].img : last);
        if (!x || PyList_Append(path, x) < 0) { Py_XDECREF(x); Py_DECREF(path); return NULL; }
        Py_DECREF(x);
    }
    return path;
}

static double now(int cpu) {
    struct timespec ts;
    clock_gettime(cpu ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void Search_free_tables(Search *s) {
    big_free(s->seen.v); s->seen.v = NULL; s->seen.cap = 0;
    free(s->dcache); s->dcache = NULL;
    free(s->stack); s->stack = NULL; s->cap = s->depth = 0;
    free(s->succ); s->succ = NULL; s->succcap = s->nsucc = 0;
}

static void Search_dealloc(Search *s) {
    Search_free_tables(s);
    Py_XDECREF(s->best_path);
    Py_XDECREF(s->line);
    Py_TYPE(s)->tp_free((PyObject *)s);
}

static int read_bytes(PyObject *o, const char *what, uint8_t *out, int max) {
    char *b; Py_ssize_t n;
    if (PyBytes_AsStringAndSize(o, &b, &n) < 0) return -1;
    if (n > max) { PyErr_Format(PyExc_ValueError, "%s: at most %d", what, max); return -1; }
    memcpy(out, b, (size_t)n);
    return (int)n;
}

/* Search(*, d, waste, total, slot_suits, heights, ranks, piles, playback, max_states,
 *        restart_unit=0, seed=1, drain=False) */
static int Search_init(Search *s, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"d", "waste", "total", "slot_suits", "heights", "ranks", "piles",
                             "playback", "max_states", "restart_unit", "seed", "drain", NULL};
    PyObject *d, *total, *suits, *heights;
    int waste, nr, piles, playback, drain = 0;
    Py_ssize_t max_states;
    long long restart_unit = 0;
    unsigned long long seed = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "SiSSSiipn|LKp", kwlist, &d, &waste, &total,
                                     &suits, &heights, &nr, &piles, &playback, &max_states,
                                     &restart_unit, &seed, &drain))
        return -1;
    s->restart_unit = restart_unit > 0 ? restart_unit : 0;
    s->restarts = 0;
    s->next_restart = restart_unit;
    s->rng = xorshift64_seed(seed);
    if (nr < 1 || nr > MAXR) { PyErr_SetString(PyExc_ValueError, "ranks: 1 to 15"); return -1; }
    int nd = read_bytes(d, "d", s->d, MAXD);
    uint8_t tot[MAXK], ss[MAXSLOTS], hs[MAXSLOTS];
    int nt = read_bytes(total, "total", tot, MAXK);
    int ns = read_bytes(suits, "slot_suits", ss, MAXSLOTS);
    int nh = read_bytes(heights, "heights", hs, MAXSLOTS);
    if (nd < 0 || nt < 0 || ns < 0 || nh < 0) return -1;
    if (nt != 4 * nr || nh != ns || waste > nd || waste < 0) {
        PyErr_SetString(PyExc_ValueError, "inconsistent sizes");
        return -1;
    }
    s->nd = nd; s->nr = nr; s->piles = piles; s->nslots = ns; s->playback = playback;
    memset(s->glen, 0, sizeof s->glen);
    for (int i = 0; i < ns; i++) {
        if (ss[i] > 3 || (i && ss[i] < ss[i - 1])) {
            PyErr_SetString(PyExc_ValueError, "slot_suits: grouped, ascending");
            return -1;
        }
        s->slot_suit[i] = ss[i];
        s->glen[ss[i]]++;
    }
    for (int su = 0, a = 0; su < 4; su++) { s->gstart[su] = (uint8_t)a; a += s->glen[su]; }
    for (int su = 0; su < 4 && drain; su++)
        if (s->glen[su] < 1 || s->glen[su] > 2) {
            PyErr_SetString(PyExc_ValueError, "drain: one or two foundations a suit");
            return -1;
        }
    for (int p = 0; p < nd; p++) {
        s->prev_same[p] = -1;
        for (int q = p - 1; q >= 0; q--)
            if (s->d[q] == s->d[p]) { s->prev_same[p] = (int16_t)q; break; }
    }
    /* outside[sl]: every card but those of a stock of sl cards, the last sl of D */
    for (int sl = 0; sl <= nd; sl++) {
        for (int k = 0; k < 4 * nr; k++) s->outside[sl][k] = tot[k];
        for (int p = nd - sl; p < nd; p++) s->outside[sl][s->d[p]]--;
    }
    Search_free_tables(s);
    s->drain = drain;
    s->cuts = 0;
    s->grow_cost = 2e-7;  /* (measured at the first growth) */
    memset(&s->dlast, 0, sizeof s->dlast);
    if (drain && !(s->dcache = calloc(DCACHE, sizeof(DrainEntry)))) {
        PyErr_NoMemory();
        return -1;
    }
    size_t max_cap = 1024;
    while (max_cap * 7 / 10 < (size_t)max_states) max_cap *= 2;
    if (set_init(&s->seen, 1 << 16, max_cap) < 0) { PyErr_NoMemory(); return -1; }
    Img root = {0, 0, (uint64_t)(nd - waste)};
    for (int p = 0; p < waste; p++) set_pos(&root, p);
    for (int i = 0; i < ns; i++) set_ht(&root, i, hs[i]);
    settle(s, &root, 0, NULL, NULL, 0, 0);
    s->nodes = 1;
    s->status = UNKNOWN;
    s->best = home(s, &root);
    Py_CLEAR(s->line);
    Py_CLEAR(s->best_path);
    s->nsucc = 0;
    set_add(&s->seen, root);
    if (won(s, &root)) {
        s->status = WON;
        s->line = path_to(s, &root);
        return s->line ? 0 : -1;
    }
    s->best_path = path_to(s, &root);
    if (s->best_path && s->drain && !drains_kept(s, &root)) {  /* lost at once */
        s->cuts++;
        s->status = LOST;
        return 0;
    }
    if (!s->best_path || push_frame(s, root) < 0) {
        if (!PyErr_Occurred()) PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* A restart: the search begins again from the root, the successors of each image in
 * another order.  The images on the stack leave the table of images seen, which then
 * holds only images whose search finished without a win; they are still skipped, and
 * the search stays exhaustive (docs/solver.md, "Restarts": the argument holds with the
 * cycles that play-back makes).  A restart costs only the descent back. */
static int restart(Search *s) {
    Img root = s->stack[0].img;
    for (size_t i = 0; i < s->depth; i++) set_del(&s->seen, s->stack[i].img);
    s->depth = 0;
    s->nsucc = 0;
    s->restarts++;
    s->next_restart = s->nodes + s->restart_unit * luby(s->restarts + 1);
    set_add(&s->seen, root);  /* room: it was just taken out */
    return push_frame(s, root);
}

static const char *STATUS[] = {"unknown", "won", "lost", "unknown"};

/* search(max_nodes, seconds, cpu, until) -> status: on until decided, ``max_nodes`` more
 * images (-1: no limit) or ``seconds`` on the clock (-1: none).  ``until`` (-1: none) is
 * what is left of the whole solve's budget: the table is not grown when that would end
 * past it (a turn cannot stop in the middle of a growth, which takes a second or more at
 * millions of images); the search stops there instead, undecided. */
static PyObject *Search_search(Search *s, PyObject *args) {
    long long max_nodes;
    double seconds, until = -1;
    int cpu = 0;
    if (!PyArg_ParseTuple(args, "Ld|pd", &max_nodes, &seconds, &cpu, &until)) return NULL;
    if (s->status != UNKNOWN || !s->seen.v) return PyUnicode_FromString(STATUS[s->status]);
    long long limit = max_nodes < 0 ? -1 : s->nodes + max_nodes;
    double deadline = seconds < 0 ? -1 : now(cpu) + seconds;
    double end = until < 0 ? -1 : now(cpu) + until;
    int checks = 0;
    long long signals = 0;
    while (s->depth) {
        if (s->restart_unit > 0 && s->nodes >= s->next_restart) {
            if (restart(s) < 0) return PyErr_NoMemory();
            continue;
        }
        Frame *f = &s->stack[s->depth - 1];
        if (f->next == f->end) {
            s->depth--;
            s->nsucc = s->depth ? s->stack[s->depth - 1].end : 0;
            continue;
        }
        Img m = s->succ[f->next++];
        size_t cap = s->seen.cap;
        double t0 = 0;
        if ((s->seen.n + 1) * 10 > cap * 7 && cap * 2 <= s->seen.max_cap) {  /* would grow */
            t0 = now(cpu);
            if (end >= 0 && t0 + s->grow_cost * (double)s->seen.n > end) {
                f->next--;  /* (tried again if the search goes on) */
                break;
            }
        }
        int added = set_add(&s->seen, m);
        if (s->seen.cap != cap && s->seen.n > 1)
            s->grow_cost = (now(cpu) - t0) / (double)(s->seen.n - 1);
        if (added == 0) continue;
        if (added == -1) return PyErr_NoMemory();
        if (added == -2) { s->status = FULL; break; }
        s->nodes++;
        if (won(s, &m)) {
            s->line = path_to(s, &m);
            if (!s->line) return NULL;
            s->status = WON;
            break;
        }
        int h = home(s, &m);
        if (h > s->best) {
            PyObject *p = path_to(s, &m);
            if (!p) return NULL;
            Py_XSETREF(s->best_path, p);
            s->best = h;
        }
        /* an image whose waste cannot drain is lost: it stays in the table, as searched */
        if (s->drain && !drains_kept(s, &m)) { s->cuts++; continue; }
        if (push_frame(s, m) < 0) return PyErr_NoMemory();
        if (++checks >= 64) {
            checks = 0;
            if (limit >= 0 && s->nodes >= limit) break;
            if (deadline >= 0 && now(cpu) >= deadline) break;
            if (++signals >= 1024) {
                signals = 0;
                if (PyErr_CheckSignals() < 0) return NULL;
            }
        }
    }
    if (!s->depth && s->status == UNKNOWN) s->status = LOST;
    return PyUnicode_FromString(STATUS[s->status]);
}

static PyObject *Search_release(Search *s, PyObject *Py_UNUSED(ignored)) {
    Search_free_tables(s);
    Py_RETURN_NONE;
}

static PyObject *get_line(Search *s, void *Py_UNUSED(c)) {
    if (!s->line) Py_RETURN_NONE;
    return Py_NewRef(s->line);
}

static PyObject *get_best(Search *s, void *Py_UNUSED(c)) {
    if (!s->best_path) return PyList_New(0);
    return Py_NewRef(s->best_path);
}

static PyObject *get_full(Search *s, void *Py_UNUSED(c)) {
    return PyBool_FromLong(s->status == FULL);
}

static PyObject *get_size(Search *s, void *Py_UNUSED(c)) {
    return PyLong_FromSize_t(s->seen.n);
}

static PyObject *get_nodes(Search *s, void *Py_UNUSED(c)) {
    return PyLong_FromLongLong(s->nodes);
}

static PyObject *get_best_home(Search *s, void *Py_UNUSED(c)) {
    return PyLong_FromLong(s->best);
}

static PyObject *get_restarts(Search *s, void *Py_UNUSED(c)) {
    return PyLong_FromLongLong(s->restarts);
}

static PyObject *get_cuts(Search *s, void *Py_UNUSED(c)) {
    return PyLong_FromLongLong(s->cuts);
}

static PyGetSetDef Search_getset[] = {
    {"line", (getter)get_line, NULL, "the images of the winning line (None until won)", NULL},
    {"best", (getter)get_best, NULL, "the images of the line to the most cards home", NULL},
    {"best_home", (getter)get_best_home, NULL, "cards home at the end of ``best``", NULL},
    {"full", (getter)get_full, NULL, "the table of images filled up", NULL},
    {"size", (getter)get_size, NULL, "images in the table", NULL},
    {"nodes", (getter)get_nodes, NULL, "images reached", NULL},
    {"restarts", (getter)get_restarts, NULL, "times the search began again from the root", NULL},
    {"cuts", (getter)get_cuts, NULL, "images the drain test found lost", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMethodDef Search_methods[] = {
    {"search", (PyCFunction)Search_search, METH_VARARGS, "search on; returns the status"},
    {"release", (PyCFunction)Search_release, METH_NOARGS, "free the tables"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "patience.solver._multisetc.Search",
    .tp_basicsize = sizeof(Search),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The depth-first search over images (search._MultisetRun), compiled.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Search_init,
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_methods = Search_methods,
    .tp_getset = Search_getset,
};

static PyMethodDef module_methods[] = {KEEP_MEMORY_METHOD, {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_multisetc",
    "The search over Fours Up's images, compiled (multiset.py is its reference).", -1,
    module_methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__multisetc(void) {
    if (PyType_Ready(&SearchType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&SearchType);
    if (PyModule_AddObject(m, "Search", (PyObject *)&SearchType) < 0) {
        Py_DECREF(&SearchType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
