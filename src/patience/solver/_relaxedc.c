/* The relaxed game of the Four Seasons family, compiled (docs/solver.md, "Relaxation"),
 * and, below it, the exact search of Four Seasons and Czarina (docs/solver.md, "Compiled
 * exact search"), which shares the relaxation's deal, dead-end test and table.
 *
 * The same search as relaxed.RelaxedSearch.search, position for position and in the same
 * order, for games of at most seven tableau piles: Four Seasons and Czarina (acyclic: a
 * plain depth-first search) and the 1883 rules (packets and vacancies, whose fills can lead
 * back to a position: Tarjan's components).  relaxed.py stays the reference: the tests
 * compare verdicts, node counts, tables and winning lines of the two.
 *
 * A position is two 64-bit words:
 *   a = the waste as a bit set of stock indices (a card dealt from stock[i] and still in
 *       the waste sets bit i; the waste's top is its lowest set bit) | stock length << 56
 *   b = component id | foundation heights (4 bits a suit) << 32
 * A tableau shape is its sorted piles, one byte each (top relative rank * 16 + length),
 * the first pile in the highest byte in use, so that comparing the numbers compares the
 * shapes as relaxed.py's sorted tuples do.
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

#ifdef __GLIBC__
#include <malloc.h>
#endif

#define MAXTAB 7
#define MAXSUITS 4

typedef struct { uint64_t a, b; } RState;

/* ------------------------------------------------------------------ hash tables */

static inline uint64_t mix64(uint64_t x) {
    x ^= x >> 30; x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27; x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

typedef struct {  /* a set of positions; a == UINT64_MAX marks a free slot */
    RState *slots;
    size_t cap, count;
} StateSet;

static int set_init(StateSet *s, size_t cap) {
    s->slots = big_alloc(cap * sizeof(RState), 0);
    if (!s->slots) return -1;
    for (size_t i = 0; i < cap; i++) s->slots[i].a = UINT64_MAX;
    s->cap = cap; s->count = 0;
    return 0;
}

static inline int set_has(const StateSet *s, RState k) {
    size_t m = s->cap - 1, i = mix64(k.a ^ mix64(k.b)) & m;
    for (;;) {
        RState e = s->slots[i];
        if (e.a == UINT64_MAX) return 0;
        if (e.a == k.a && e.b == k.b) return 1;
        i = (i + 1) & m;
    }
}

static inline void set_prefetch(const StateSet *s, RState k) {
    __builtin_prefetch(&s->slots[mix64(k.a ^ mix64(k.b)) & (s->cap - 1)]);
}

static int set_grow(StateSet *s);

/* 1 added, 0 present already, -1 out of memory */
static inline int set_add(StateSet *s, RState k) {
    if ((s->count + 1) * 10 > s->cap * 7 && set_grow(s) < 0) return -1;
    size_t m = s->cap - 1, i = mix64(k.a ^ mix64(k.b)) & m;
    for (;;) {
        RState e = s->slots[i];
        if (e.a == UINT64_MAX) { s->slots[i] = k; s->count++; return 1; }
        if (e.a == k.a && e.b == k.b) return 0;
        i = (i + 1) & m;
    }
}

static int set_grow(StateSet *s) {
    StateSet n;
    if (set_init(&n, s->cap * 2) < 0) return -1;
    for (size_t i = 0; i < s->cap; i++)
        if (s->slots[i].a != UINT64_MAX) set_add(&n, s->slots[i]);
    big_free(s->slots);
    *s = n;
    return 0;
}

typedef struct {  /* shape -> component id; shape 0 is the empty tableau, stored apart */
    uint64_t *keys;
    int32_t *vals;
    size_t cap, count;
    int32_t empty_val;
} ShapeMap;

static int map_init(ShapeMap *m, size_t cap) {
    m->keys = big_alloc(cap * sizeof(uint64_t), 0);
    m->vals = big_alloc(cap * sizeof(int32_t), 0);
    if (!m->keys || !m->vals) return -1;
    memset(m->keys, 0, cap * sizeof(uint64_t));
    m->cap = cap; m->count = 0; m->empty_val = -1;
    return 0;
}

static inline int32_t map_get(const ShapeMap *m, uint64_t k) {
    if (k == 0) return m->empty_val;
    size_t mask = m->cap - 1, i = mix64(k) & mask;
    for (;;) {
        if (m->keys[i] == 0) return -1;
        if (m->keys[i] == k) return m->vals[i];
        i = (i + 1) & mask;
    }
}

static int map_put(ShapeMap *m, uint64_t k, int32_t v);

static int map_grow(ShapeMap *m) {
    ShapeMap n;
    if (map_init(&n, m->cap * 2) < 0) return -1;
    n.empty_val = m->empty_val;
    for (size_t i = 0; i < m->cap; i++)
        if (m->keys[i]) map_put(&n, m->keys[i], m->vals[i]);
    big_free(m->keys); big_free(m->vals);
    *m = n;
    return 0;
}

static int map_put(ShapeMap *m, uint64_t k, int32_t v) {
    if (k == 0) { m->empty_val = v; return 0; }
    if ((m->count + 1) * 10 > m->cap * 7 && map_grow(m) < 0) return -1;
    size_t mask = m->cap - 1, i = mix64(k) & mask;
    for (;;) {
        if (m->keys[i] == 0) { m->keys[i] = k; m->vals[i] = v; m->count++; return 0; }
        if (m->keys[i] == k) { m->vals[i] = v; return 0; }
        i = (i + 1) & mask;
    }
}

/* ------------------------------------------------------------------ shapes */

typedef struct { int n; int t[MAXTAB]; int len[MAXTAB]; } Piles;

static void decode(uint64_t shape, Piles *p) {
    int k = 0;
    for (int byte = 7; byte >= 0; byte--) {
        unsigned v = (unsigned)(shape >> (8 * byte)) & 0xff;
        if (!v) continue;
        p->t[k] = v >> 4; p->len[k] = v & 15; k++;
    }
    p->n = k;
}

static inline void drop(Piles *q, int i) {  /* removes pile i */
    for (int x = i; x < q->n - 1; x++) { q->t[x] = q->t[x + 1]; q->len[x] = q->len[x + 1]; }
    q->n--;
}

/* sorted piles, the first in the highest byte in use (byte n-1 ... byte 0) */
static uint64_t encode(const Piles *p) {
    unsigned v[MAXTAB];
    int n = p->n;
    for (int i = 0; i < n; i++) v[i] = (unsigned)(p->t[i] * 16 + p->len[i]);
    for (int i = 1; i < n; i++) {
        unsigned x = v[i]; int j = i;
        while (j > 0 && v[j - 1] > x) { v[j] = v[j - 1]; j--; }
        v[j] = x;
    }
    uint64_t out = 0;
    for (int i = 0; i < n; i++) out = (out << 8) | v[i];
    return out;
}

/* Python's order of sorted tuples: a shorter shape that is a prefix of a longer one comes
 * first.  With the first pile in the highest byte in use, shapes of different lengths
 * are compared after aligning them on their first pile. */
static int shape_cmp(uint64_t x, uint64_t y) {
    int nx = 0, ny = 0;
    for (uint64_t v = x; v; v >>= 8) nx++;
    for (uint64_t v = y; v; v >>= 8) ny++;
    int n = nx > ny ? nx : ny;
    uint64_t ax = nx < n ? x << (8 * (n - nx)) : x;
    uint64_t ay = ny < n ? y << (8 * (n - ny)) : y;
    if (ax != ay) return ax < ay ? -1 : 1;
    return nx < ny ? -1 : (nx > ny ? 1 : 0);
}

static int cmp_shapes(const void *p, const void *q) {
    return shape_cmp(*(const uint64_t *)p, *(const uint64_t *)q);
}

typedef struct { uint64_t shape; int emptied; } Removal;

static int cmp_removals(const void *p, const void *q) {
    const Removal *x = p, *y = q;
    int c = shape_cmp(x->shape, y->shape);
    if (c) return c;
    return x->emptied - y->emptied;
}

typedef struct {
    uint64_t *members;  /* sorted */
    int count;
    uint32_t tops;      /* bit t: some member has a pile with top t */
    int32_t *adds[16];  /* per rank: canonical component ids, by canonical shape */
    int nadds[16];
    Removal *removes[16];
    int nremoves[16];
} Component;

/* ------------------------------------------------------------------ the object */

typedef struct {
    PyObject_HEAD
    int n, suits, ntab, space_any, stock_to_space, refill, use_cycle, base, packets, vacancy;
    int drain;                  /* the drain test on (docs/solver.md, "Draining the waste") */
    struct DrainSlot *dcache;   /* its verdicts by the position's first word (lazily made) */
    struct BottomSlot *bcache;  /* Czarina's test with the piles' bottoms (bottom_dead) */
    int8_t relt[64];            /* each card's rank counted from the base rank (rel) */
    int nstock;
    int stock[64];
    int stock_pos[64];
    int max_component;
    size_t max_states;
    int disabled;
    int probe;  /* component() makes no new component, and says -4 (dfs_push) */
    ShapeMap shapes;
    Component *comps;
    int ncomps, capcomps;
    StateSet lost;
    long long nodes;
    /* scratch */
    uint64_t *seen_buf; size_t seen_cap;
} Relaxed;

static PyObject *TooLarge;  /* patience.solver._relaxedc.ComponentTooLarge */

static inline int rel(const Relaxed *r, int c) {
    return r->relt[c & 63];
}

#define H(b, s) ((int)(((b) >> (32 + 4 * (s))) & 15))
#define COMP(b) ((int32_t)((b) & 0xffffffffu))
#define SL(a) ((int)((a) >> 56))
#define WASTE(a) ((a) & ((1ULL << 56) - 1))

static inline uint64_t with_h(uint64_t b, int s, int v) {
    int sh = 32 + 4 * s;
    return (b & ~(15ULL << sh)) | ((uint64_t)v << sh);
}

#define MAXNB (MAXTAB * (MAXTAB * 16 + 1))  /* neighbours of a shape, at most */

/* neighbours of a shape by one reversible tableau move (relaxed.py, _reversible); with
 * ``lapsed``, also the moves allowed beside a lapsed 1883 vacancy */
static int reversible(const Relaxed *r, uint64_t shape, int lapsed, uint64_t *out) {
    Piles p; decode(shape, &p);
    int k = 0, empty = r->ntab - p.n;
    if (r->vacancy && empty && !lapsed) return 0;
    for (int i = 0; i < p.n; i++) {
        if (i && p.t[i - 1] == p.t[i] && p.len[i - 1] == p.len[i]) continue;
        int t = p.t[i], n = p.len[i];
        int kmax = r->packets ? n : 1;
        for (int m = 1; m <= kmax; m++) {
            if (m == n && !r->space_any) break;  /* empties a pile: a refill or a vacancy */
            for (int j = 0; j < p.n; j++) {
                if (j == i || p.t[j] != t + m) continue;
                Piles q = p;
                q.t[j] = t; q.len[j] = p.len[j] + m;
                if (n > m) { q.t[i] = t + m; q.len[i] = n - m; }
                else drop(&q, i);
                out[k++] = encode(&q);
            }
        }
        if (r->space_any && empty && n > 1) {
            Piles q = p;
            q.t[i] = t + 1; q.len[i] = n - 1;
            q.t[q.n] = t; q.len[q.n] = 1; q.n++;
            out[k++] = encode(&q);
        }
    }
    return k;
}

/* the component of a shape: its id, or -1 (too large: the relaxation is abandoned) or -2
 * (out of memory) */
static int32_t component(Relaxed *r, uint64_t shape) {
    int32_t id = map_get(&r->shapes, shape);
    if (id >= 0) return id;
    if (r->probe) return -4;  /* a new component, not made now (dfs_push) */
    if (r->disabled) return -1;
    /* depth-first over reversible moves; seen_buf holds the members found */
    StateSet seen;
    if (set_init(&seen, 1024) < 0) return -2;
    size_t count = 0, todo = 0;
    uint64_t nb[MAXNB];
    if (r->seen_cap < 64) {
        r->seen_buf = realloc(r->seen_buf, 64 * sizeof(uint64_t));
        r->seen_cap = 64;
    }
    RState key = {shape, 0};
    set_add(&seen, key);
    r->seen_buf[count++] = shape;
    while (todo < count) {
        uint64_t s = r->seen_buf[todo++];
        int k = reversible(r, s, 0, nb);
        for (int i = 0; i < k; i++) {
            RState kk = {nb[i], 0};
            int added = set_add(&seen, kk);
            if (added < 0) { big_free(seen.slots); return -2; }
            if (added) {
                if (count == r->seen_cap) {
                    r->seen_cap *= 2;
                    r->seen_buf = realloc(r->seen_buf, r->seen_cap * sizeof(uint64_t));
                    if (!r->seen_buf) { big_free(seen.slots); return -2; }
                }
                r->seen_buf[count++] = nb[i];
            }
        }
        if ((int)count > r->max_component) {
            big_free(seen.slots);
            r->disabled = 1;
            return -1;
        }
    }
    big_free(seen.slots);
    if (r->ncomps == r->capcomps) {
        int cap = r->capcomps ? r->capcomps * 2 : 256;
        Component *c = realloc(r->comps, (size_t)cap * sizeof(Component));
        if (!c) return -2;
        r->comps = c; r->capcomps = cap;
    }
    id = r->ncomps++;
    Component *c = &r->comps[id];
    memset(c, 0, sizeof(*c));
    c->members = malloc(count * sizeof(uint64_t));
    if (!c->members) return -2;
    memcpy(c->members, r->seen_buf, count * sizeof(uint64_t));
    qsort(c->members, count, sizeof(uint64_t), cmp_shapes);
    c->count = (int)count;
    for (size_t i = 0; i < count; i++) {
        if (map_put(&r->shapes, c->members[i], id) < 0) return -2;
        Piles p; decode(c->members[i], &p);
        for (int j = 0; j < p.n; j++) c->tops |= 1u << p.t[j];
    }
    for (int i = 0; i < 16; i++) { c->nadds[i] = -1; c->nremoves[i] = -1; }
    return id;
}

static inline uint64_t canon(const Relaxed *r, int32_t id) { return r->comps[id].members[0]; }

typedef struct { uint64_t canon; int32_t id; } ByCanon;

static int cmp_by_canon(const void *p, const void *q) {
    return shape_cmp(((const ByCanon *)p)->canon, ((const ByCanon *)q)->canon);
}

/* components after a rank-``rk`` card from the waste joins the tableau (relaxed.py,
 * _adds); returns the count or a negative error */
static int adds(Relaxed *r, int32_t id, int rk, int32_t **out) {
    Component *c = &r->comps[id];
    if (c->nadds[rk] >= 0) { *out = c->adds[rk]; return c->nadds[rk]; }
    int cap = 16, k = 0;
    int32_t *buf = malloc((size_t)cap * sizeof(int32_t));
    if (!buf) return -2;
    for (int m = 0; m < r->comps[id].count; m++) {
        uint64_t s = r->comps[id].members[m];
        Piles p; decode(s, &p);
        for (int pass = 0; pass <= p.n; pass++) {
            Piles q = p;
            if (pass < p.n) {
                if (p.t[pass] != rk + 1) continue;
                q.t[pass] = rk; q.len[pass] = p.len[pass] + 1;
            } else {
                if (!(r->space_any && p.n < r->ntab)) continue;
                q.t[q.n] = rk; q.len[q.n] = 1; q.n++;
            }
            int32_t cid = component(r, encode(&q));
            if (cid < 0) { free(buf); return cid; }
            int dup = 0;
            for (int x = 0; x < k; x++) if (buf[x] == cid) { dup = 1; break; }
            if (dup) continue;
            if (k == cap) { cap *= 2; buf = realloc(buf, (size_t)cap * sizeof(int32_t)); if (!buf) return -2; }
            buf[k++] = cid;
        }
    }
    ByCanon *order = malloc((size_t)(k ? k : 1) * sizeof(ByCanon));
    if (!order) { free(buf); return -2; }
    for (int x = 0; x < k; x++) { order[x].canon = canon(r, buf[x]); order[x].id = buf[x]; }
    qsort(order, (size_t)k, sizeof(ByCanon), cmp_by_canon);
    for (int x = 0; x < k; x++) buf[x] = order[x].id;
    free(order);
    c = &r->comps[id];  /* (component() may have moved the array) */
    c->adds[rk] = buf; c->nadds[rk] = k;
    *out = buf;
    return k;
}

/* shapes (not canonical) after a top card of relative rank ``t`` leaves the tableau, with
 * whether a pile was emptied (relaxed.py, _removes) */
static int removes(Relaxed *r, int32_t id, int t, Removal **out) {
    Component *c = &r->comps[id];
    if (c->nremoves[t] >= 0) { *out = c->removes[t]; return c->nremoves[t]; }
    int cap = 16, k = 0;
    Removal *buf = malloc((size_t)cap * sizeof(Removal));
    if (!buf) return -2;
    for (int m = 0; m < c->count; m++) {
        Piles p; decode(c->members[m], &p);
        for (int i = 0; i < p.n; i++) {
            if (p.t[i] != t) continue;
            Piles q = p;
            int emptied = p.len[i] == 1;
            if (!emptied) { q.t[i] = t + 1; q.len[i] = p.len[i] - 1; }
            else drop(&q, i);
            Removal rm = {encode(&q), emptied};
            int dup = 0;
            for (int x = 0; x < k; x++)
                if (buf[x].shape == rm.shape && buf[x].emptied == rm.emptied) { dup = 1; break; }
            if (dup) continue;
            if (k == cap) { cap *= 2; buf = realloc(buf, (size_t)cap * sizeof(Removal)); if (!buf) return -2; }
            buf[k++] = rm;
        }
    }
    qsort(buf, (size_t)k, sizeof(Removal), cmp_removals);
    c->removes[t] = buf; c->nremoves[t] = k;
    *out = buf;
    return k;
}

/* ------------------------------------------------------------------ moves */

static inline int in_waste(const Relaxed *r, uint64_t a, int card) {
    int pos = r->stock_pos[card];
    return pos >= SL(a) && ((a >> pos) & 1);
}

/* suits whose rank-t card is in the tableau and may go home (relaxed.py, home_suits) */
static int home_suits(const Relaxed *r, int t, uint64_t a, uint64_t b, int *out) {
    int k = 0, sl = SL(a);
    int rank0 = (t + r->base - 1) % r->n;
    for (int s = 0; s < r->suits; s++) {
        if (H(b, s) != t) continue;
        int c = rank0 * 4 + s;
        int pos = r->stock_pos[c];
        if (pos >= 0 && pos < sl) continue;
        if (pos >= sl && ((a >> pos) & 1)) continue;
        out[k++] = s;
    }
    return k;
}

/* Czarina's refill of an emptied pile, then the component (relaxed.py, _settle) */
static int32_t settle(Relaxed *r, int *sl, uint64_t shape, int emptied) {
    if (emptied && r->refill && *sl > 0) {
        Piles p; decode(shape, &p);
        p.t[p.n] = rel(r, r->stock[*sl - 1]); p.len[p.n] = 1; p.n++;
        shape = encode(&p);
        (*sl)--;
    }
    return component(r, shape);
}

static inline uint64_t make_a(uint64_t waste, int sl) { return waste | ((uint64_t)sl << 56); }
static inline uint64_t make_b(uint64_t b, int32_t id) { return (b & ~0xffffffffULL) | (uint32_t)id; }

typedef struct { RState *v; size_t n, cap; } Buf;

static inline int push(Buf *buf, uint64_t a, uint64_t b) {
    if (buf->n == buf->cap) {
        size_t cap = buf->cap ? buf->cap * 2 : 1024;
        RState *v = realloc(buf->v, cap * sizeof(RState));
        if (!v) return -2;
        buf->v = v; buf->cap = cap;
    }
    buf->v[buf->n].a = a; buf->v[buf->n].b = b; buf->n++;
    return 0;
}

#define TRY(x) do { int _e = (x); if (_e < 0) return _e; } while (0)
#define CID(x) do { if ((x) < 0) return (x); } while (0)

/* the positions where a pile's top card has moved alone into the vacancy of ``p`` */
static int split_fills(Relaxed *r, uint64_t a, uint64_t b, const Piles *p, Buf *buf) {
    for (int i = 0; i < p->n; i++) {
        if (p->len[i] <= 1) continue;
        Piles q = *p;
        q.t[i] = p->t[i] + 1; q.len[i] = p->len[i] - 1;
        q.t[q.n] = p->t[i]; q.len[q.n] = 1; q.n++;
        int32_t c2 = component(r, encode(&q));
        CID(c2);
        TRY(push(buf, a, make_b(b, c2)));
    }
    return 0;
}

/* RULES A2: the fills of a pending vacancy (relaxed.py, _vacancy_fills): 1 when play is
 * restricted to them (and they are appended), 0 when it is not, or a negative error */
static int vacancy_fills(Relaxed *r, uint64_t a, uint64_t b, Buf *buf) {
    int sl = SL(a);
    uint64_t waste = WASTE(a);
    Piles p; decode(canon(r, COMP(b)), &p);
    if (p.n == r->ntab || !(waste || sl)) return 0;
    TRY(split_fills(r, a, b, &p, buf));
    Piles q = p;
    if (waste) {
        int pos = __builtin_ctzll(waste);
        q.t[q.n] = rel(r, r->stock[pos]); q.len[q.n] = 1; q.n++;
        int32_t c2 = component(r, encode(&q));
        CID(c2);
        TRY(push(buf, make_a(waste & (waste - 1), sl), make_b(b, c2)));
    } else if (sl) {
        q.t[q.n] = rel(r, r->stock[sl - 1]); q.len[q.n] = 1; q.n++;
        int32_t c2 = component(r, encode(&q));
        CID(c2);
        TRY(push(buf, make_a(waste, sl - 1), make_b(b, c2)));
    }
    return 1;
}

/* appends the successors of (a, b) to buf (relaxed.py, successors) */
static int successors(Relaxed *r, uint64_t a, uint64_t b, Buf *buf) {
    int sl = SL(a);
    uint64_t waste = WASTE(a);
    int32_t id = COMP(b);
    if (r->vacancy) {
        int e = vacancy_fills(r, a, b, buf);
        if (e) return e < 0 ? e : 0;
    }
    if (waste) {
        int pos = __builtin_ctzll(waste);
        int w = r->stock[pos], rk = rel(r, w), s = w & 3;
        uint64_t rest = make_a(waste & (waste - 1), sl);
        if (H(b, s) == rk) TRY(push(buf, rest, with_h(b, s, rk + 1)));
        int32_t *ad;
        int k = adds(r, id, rk, &ad);
        CID(k);
        for (int i = 0; i < k; i++) TRY(push(buf, rest, make_b(b, ad[i])));
    }
    /* ranks wanted home, and which suits' cards of that rank are in the tableau */
    int wanted_suits[16][MAXSUITS], nwanted[16];
    uint32_t wanted = 0;
    for (int s = 0; s < r->suits; s++) {
        int t = H(b, s);
        if (t < r->n && !(wanted >> t & 1)) {
            wanted |= 1u << t;
            nwanted[t] = home_suits(r, t, a, b, wanted_suits[t]);
        }
    }
    uint32_t both = r->comps[id].tops & wanted;
    for (int t = 0; t < 16; t++) {
        if (!(both >> t & 1) || !nwanted[t]) continue;
        Removal *rm;
        int k = removes(r, id, t, &rm);
        CID(k);
        for (int i = 0; i < k; i++) {
            int sl2 = sl;
            int32_t c2 = settle(r, &sl2, rm[i].shape, rm[i].emptied);
            CID(c2);
            for (int j = 0; j < nwanted[t]; j++) {
                int s = wanted_suits[t][j];
                TRY(push(buf, make_a(waste, sl2), make_b(with_h(b, s, t + 1), c2)));
            }
        }
    }
    if (!r->space_any) {  /* pile-emptying tableau moves: a refill or a vacancy follows */
        int count = r->comps[id].count;
        for (int m = 0; m < count; m++) {
            Piles p; decode(r->comps[id].members[m], &p);
            for (int i = 0; i < p.n; i++) {
                int k = r->packets || p.len[i] == 1 ? p.len[i] : 0;
                if (!k) continue;
                for (int j = 0; j < p.n; j++) {
                    if (j == i || p.t[j] != p.t[i] + k) continue;
                    Piles q = p;
                    q.t[j] = p.t[i]; q.len[j] = p.len[j] + k;
                    drop(&q, i);
                    int sl2 = sl;
                    int32_t c2 = settle(r, &sl2, encode(&q), 1);
                    CID(c2);
                    TRY(push(buf, make_a(waste, sl2), make_b(b, c2)));
                }
            }
        }
    }
    if (r->vacancy) {
        /* beside a lapsed vacancy (waste and stock empty) packets move between piles and a
         * single card may fill it */
        Piles p; decode(canon(r, id), &p);
        if (p.n < r->ntab) {
            uint64_t nb[MAXNB];
            int k = reversible(r, canon(r, id), 1, nb);
            for (int i = 0; i < k; i++) {
                int32_t c2 = component(r, nb[i]);
                CID(c2);
                TRY(push(buf, a, make_b(b, c2)));
            }
            TRY(split_fills(r, a, b, &p, buf));
        }
    }
    if (sl) {
        int card = r->stock[sl - 1];
        uint64_t cs = canon(r, id);
        Piles p; decode(cs, &p);
        if (r->stock_to_space && p.n < r->ntab) {
            p.t[p.n] = rel(r, card); p.len[p.n] = 1; p.n++;
            int32_t c2 = component(r, encode(&p));
            CID(c2);
            TRY(push(buf, make_a(waste, sl - 1), make_b(b, c2)));
        }
        TRY(push(buf, make_a(waste | (1ULL << (sl - 1)), sl - 1), b));
    }
    return 0;
}

/* a move made without branching (relaxed.py, safe): 1 and the new position, 0 when none,
 * or a negative error */
static int safe(Relaxed *r, uint64_t *pa, uint64_t *pb) {
    uint64_t a = *pa, b = *pb;
    if (r->vacancy && (WASTE(a) || SL(a))) {
        Piles p; decode(canon(r, COMP(b)), &p);
        if (p.n < r->ntab) return 0;  /* a pending vacancy allows only fills */
    }
    int low = 99;
    for (int s = 0; s < r->suits; s++) if (H(b, s) < low) low = H(b, s);
    uint64_t waste = WASTE(a);
    int sl = SL(a);
    if (waste) {
        int pos = __builtin_ctzll(waste);
        int w = r->stock[pos], rk = rel(r, w), s = w & 3;
        if (rk <= low && H(b, s) == rk) {
            *pa = make_a(waste & (waste - 1), sl);
            *pb = with_h(b, s, rk + 1);
            return 1;
        }
    }
    int t = low;
    if (t >= r->n) return 0;
    int suits[MAXSUITS];
    if (home_suits(r, t, a, b, suits) != 1) return 0;
    int32_t id = COMP(b);
    Piles p; decode(canon(r, id), &p);
    int cover = 0;
    for (int i = 0; i < p.n; i++) if (p.t[i] <= t && t < p.t[i] + p.len[i]) cover++;
    if (cover != 1) return 0;
    Removal *rm;
    int k = removes(r, id, t, &rm);
    CID(k);
    for (int i = 0; i < k; i++) {
        if (rm[i].emptied && !r->space_any) continue;
        int32_t c2 = component(r, rm[i].shape);
        CID(c2);
        *pb = make_b(with_h(b, suits[0], t + 1), c2);
        return 1;
    }
    return 0;
}

static int autoplay(Relaxed *r, uint64_t *a, uint64_t *b) {
    for (;;) {
        int e = safe(r, a, b);
        if (e <= 0) return e;
    }
}

static inline int won(const Relaxed *r, uint64_t b) {
    for (int s = 0; s < r->suits; s++) if (H(b, s) != r->n) return 0;
    return 1;
}

/* Czarina's dead-end test (keys.waste_cycle with all_home_only false) */
/* ---------------------------------------------------------------- draining the waste
 * (docs/solver.md, "Draining the waste"; keys.drain_test is the reference).  ``u`` counts
 * the cards of each kind (relative rank * 4 + suit) out of the stock and the waste: the
 * tableau and the foundations.  A configuration of the foundations (one a suit) leaves the
 * tableau the rest, which needs m = sum_r max(0, e(r) - t(r)) runs, e(r) = c(r) - c(r+1)
 * for the c(r) cards of rank r in ``u``, t(r) the foundations whose top card has rank r;
 * each foundation is a token at any top rank up to its suit's first card missing. */

struct DrainSlot { uint64_t a; int8_t v; };  /* v: 0 none kept, 1 drains, 2 does not */
struct BottomSlot { uint64_t a, bottoms; int8_t v; };  /* the same, with Czarina's bottoms */
#define DRAIN_CACHE 65536
#define NO_BOTTOMS (~0ULL)  /* the piles' bottoms not known: Czarina's test with them not asked */

/* the slot of a question of the drain test in its cache (NULL where there is none): by
 * stock and waste, or by those and the bottoms */
static inline struct DrainSlot *drain_slot(const Relaxed *r, uint64_t a) {
    return r->dcache ? &r->dcache[mix64(a) & (DRAIN_CACHE - 1)] : NULL;
}

static inline struct BottomSlot *bottom_slot(const Relaxed *r, uint64_t a, uint64_t bottoms) {
    return r->bcache ? &r->bcache[mix64(a ^ mix64(bottoms)) & (DRAIN_CACHE - 1)] : NULL;
}

/* the answer kept for a question of the drain test (0: none; 1 drains, 2 does not), and
 * keeping one (where the caches are) */
static inline int drain_kept(const Relaxed *r, uint64_t a, uint64_t bottoms) {
    if (bottoms == NO_BOTTOMS) {
        const struct DrainSlot *e = drain_slot(r, a);
        return e && e->a == a ? e->v : 0;
    }
    const struct BottomSlot *e = bottom_slot(r, a, bottoms);
    return e && e->a == a && e->bottoms == bottoms ? e->v : 0;
}

static inline void drain_keep(const Relaxed *r, uint64_t a, uint64_t bottoms, int v) {
    if (bottoms == NO_BOTTOMS) {
        struct DrainSlot *e = drain_slot(r, a);
        if (e) { e->a = a; e->v = (int8_t)v; }
        return;
    }
    struct BottomSlot *e = bottom_slot(r, a, bottoms);
    if (e) { e->a = a; e->bottoms = bottoms; e->v = (int8_t)v; }
}

/* can waste card ``w`` (a kind) leave the waste, home or onto the tableau, under some
 * configuration that ``u`` allows? */
static int dleave(const Relaxed *r, const int *u, const int *c, int w) {
    int n = r->n, suits = r->suits, piles = r->ntab, r0 = w >> 2, s0 = w & 3;
    int e[16], cap[16], base = 0, lim[MAXSUITS];
    for (int rk = 0; rk < n; rk++) {
        e[rk] = c[rk] - c[rk + 1];
        cap[rk] = e[rk] > 0 ? e[rk] : 0;
        base += cap[rk];
    }
    for (int su = 0; su < suits; su++) {
        int b = n;
        for (int rk = 0; rk < n; rk++) if (!u[rk * 4 + su]) { b = rk; break; }
        lim[su] = b - 1;
    }
    if (r0 - 1 <= lim[s0]) {  /* home: its foundation with top rank r0 - 1 (or empty) */
        int c2[16], rest[MAXSUITS], k = 0, got = 0;
        memcpy(c2, cap, sizeof c2);
        if (r0 >= 1 && c2[r0 - 1] > 0) { c2[r0 - 1]--; got = 1; }
        for (int su = 0; su < suits; su++) if (su != s0) rest[k++] = lim[su];
        if (base - got - drain_match(n, c2, rest, k) <= piles) return 1;
    }
    int fewest = base - drain_match(n, cap, lim, suits), spaces = !r->refill;
    if (fewest > piles) return 0;
    if (spaces && fewest < piles) return 1;  /* a space can be made */
    if (r0 + 1 >= n) return 0;               /* nothing goes on a base-rank card */
    /* a pile ending in rank r0+1: n(r0+1) > n(r0), t(r0) > e(r0) foundations at r0 */
    int q = e[r0] + 1;
    if (q <= 0 || drain_full_fits(n, cap, lim, suits, r0, q, base, piles)) return 1;
    if (spaces) return 0;
    /* without spaces, also: fewer runs than piles and a rank r0+1 card out of home, with at
     * most c(r0+1) - 1 foundations whose top rank is r0+1 or more */
    int room = c[r0 + 1] - 1;
    if (room < 0) return 0;
    for (int kept = 0; kept < 1 << suits; kept++) {
        int above = 0, lims[MAXSUITS];
        for (int i = 0; i < suits; i++) {
            if (kept >> i & 1) { lims[i] = lim[i]; above += lim[i] > r0; }
            else lims[i] = lim[i] < r0 ? lim[i] : r0;
        }
        if (above <= room && base - drain_match(n, cap, lims, suits) < piles) return 1;
    }
    return 0;
}

static int bleave(const Relaxed *r, const int *u, const int *c, int w, const int *elig);

/* does the waste of ``a`` drain: can each of its cards leave, from the top down, when the
 * cards above it have and so have the stock's cards dealt by then (which lie above it)?
 * With ``bottoms`` (the piles' bottom cards as a set of kinds), Czarina's test with them
 * (bleave, below).  Each point of the pass, between two waste cards, is the question of
 * another position: the waste left, the stock as it is then, and the bottoms with the
 * stock's cards dealt since; an answer kept for one ends the pass, and the pass's answer
 * is kept for each (docs/solver.md, "Known to drain") */
static int drains(const Relaxed *r, uint64_t a, uint64_t bottoms) {
    /* u: per kind; c: per rank (c[n] = 0); elig: per rank, a set of suits */
    int u[64] = {0}, c[17] = {0}, elig[16] = {0}, sl = SL(a);
    uint64_t waste = WASTE(a);
    for (int rk = 0; rk < r->n; rk++) {
        for (int su = 0; su < r->suits; su++) u[rk * 4 + su] = 1;
        c[rk] = r->suits;
    }
    if (bottoms != NO_BOTTOMS)
        for (int rk = 0; rk < 16; rk++) elig[rk] = (int)(bottoms >> (4 * rk) & 15);
    for (int i = 0; i < sl; i++) {
        int k = rel(r, r->stock[i]) * 4 + (r->stock[i] & 3);
        u[k]--; c[k >> 2]--;
    }
    for (uint64_t x = waste; x; x &= x - 1) {
        int cd = r->stock[__builtin_ctzll(x)], k = rel(r, cd) * 4 + (cd & 3);
        u[k]--; c[k >> 2]--;
    }
    int next = sl - 1;  /* the stock's next card */
    uint64_t dealt = 0, pa[64], pb[64];  /* the stock's cards dealt (kinds); the points */
    int npoints = 0, v = 1;
    for (uint64_t x = waste; x; x &= x - 1) {  /* the waste from the top down */
        if (x != waste) {  /* a point of the pass */
            uint64_t qa = x | ((uint64_t)(next + 1) << 56);
            uint64_t qb = bottoms == NO_BOTTOMS ? NO_BOTTOMS : bottoms | dealt;
            if ((v = drain_kept(r, qa, qb)) != 0) break;
            v = 1;
            pa[npoints] = qa; pb[npoints] = qb; npoints++;
        }
        int cd = r->stock[__builtin_ctzll(x)], w = rel(r, cd) * 4 + (cd & 3);
        while (!(bottoms == NO_BOTTOMS ? dleave(r, u, c, w) : bleave(r, u, c, w, elig))) {
            if (next < 0) { v = 2; break; }
            int d = r->stock[next--], k = rel(r, d) * 4 + (d & 3);
            u[k]++; c[k >> 2]++;
            elig[k >> 2] |= 1 << (k & 3);  /* (dealt: it may have refilled a pile) */
            dealt |= 1ULL << k;
        }
        if (v == 2) break;
        u[w]++; c[w >> 2]++;
    }
    for (int i = 0; i < npoints; i++) drain_keep(r, pa[i], pb[i], v);
    return v == 1;
}

/* 1 when the waste of ``a`` cannot drain (the position is lost), with the piles' ``bottoms``
 * (Czarina's test) or without them (NO_BOTTOMS); answers kept by their question */
static int drain_dead(Relaxed *r, uint64_t a, uint64_t bottoms) {
    if (!r->drain || !WASTE(a)) return 0;
    if (bottoms == NO_BOTTOMS && !r->dcache)
        r->dcache = calloc(DRAIN_CACHE, sizeof(struct DrainSlot));
    if (bottoms != NO_BOTTOMS && !r->bcache)
        r->bcache = calloc(DRAIN_CACHE, sizeof(struct BottomSlot));  /* (none: not kept) */
    int v = drain_kept(r, a, bottoms);
    if (!v) drain_keep(r, a, bottoms, v = drains(r, a, bottoms) ? 1 : 2);
    return v == 2;
}

/* ---------------------------------------------------------------- Czarina's bottoms
 * (docs/solver.md, "Bottoms"; keys.BottomDrain is the reference).  Every pile is a run
 * down from its bottom card, and only a refill from the stock makes a new bottom: the runs
 * of a configuration start at cards of ``elig`` (the piles' bottoms now and the stock's
 * cards dealt since; for each rank, the set of their suits) that are not home, e(r) - t(r)
 * of them at rank r.  ``c`` counts the cards of each rank in ``u`` (c[n] = 0). */


/* the fewest runs of a configuration whose runs start at cards of ``elig`` not home, going
 * down the ranks with the set of suits whose top card lies above; mode 0: suit s0's top
 * card of rank r0 - 1 (home); 1: t(r0) > e(r0) (a pile ends in rank r0 + 1); 2: a run more
 * (counted) starting at rank r0, at most c(r0+1) - 1 tops above it.  piles + 1: none */
static int bruns(const Relaxed *r, const int *c, const int *e, const int *lim,
                 const int *elig, int r0, int s0, int mode) {
    static const int8_t POP4[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
    int n = r->n, suits = r->suits, piles = r->ntab;
    int best[16], nxt[16], at[16] = {0}, allowed = 0;
    unsigned live = 1;  /* the sets m with best[m] set (at most piles) */
    best[0] = 0;
    for (int su = 0; su < suits; su++) if (lim[su] >= 0) at[lim[su]] |= 1 << su;
    for (int rk = n - 1; rk >= 0; rk--) {
        allowed |= at[rk];  /* the suits whose first card missing lies above rank rk */
        int em = elig[rk];  /* the suits of the cards of rank rk in ``elig`` */
        unsigned nlive = 0;
        for (unsigned ms = live; ms; ms &= ms - 1) {
            int m = __builtin_ctz(ms), fr = allowed & ~m;
            for (int sub = fr;; sub = (sub - 1) & fr) {
                if (mode != 0 || (((sub >> s0) & 1) == (rk == r0 - 1))) {
                    int m2 = m | sub, d = e[rk] - POP4[sub];
                    int need = d > 0 ? d : 0, ok = 1;
                    if (rk == r0 && mode == 1) ok = d < 0;
                    else if (rk == r0 && mode == 2) {
                        ok = POP4[m] <= c[r0 + 1] - 1;
                        need++;
                    }
                    int cost = best[m] + need;
                    if (ok && need <= POP4[em & ~m2] && cost <= piles
                            && (!(nlive >> m2 & 1) || cost < nxt[m2])) {
                        nxt[m2] = cost;
                        nlive |= 1u << m2;
                    }
                }
                if (!sub) break;
            }
        }
        if (!nlive) return piles + 1;
        for (unsigned ms = nlive; ms; ms &= ms - 1)
            best[__builtin_ctz(ms)] = nxt[__builtin_ctz(ms)];
        live = nlive;
    }
    int low = piles + 1;
    for (unsigned ms = live; ms; ms &= ms - 1)
        if (best[__builtin_ctz(ms)] < low) low = best[__builtin_ctz(ms)];
    return low;
}

/* can waste card ``w`` leave, home or onto a pile ending in a card one rank higher, under
 * some configuration that ``u`` allows, with runs starting only at cards of ``elig``? */
static int bleave(const Relaxed *r, const int *u, const int *c, int w, const int *elig) {
    int n = r->n, suits = r->suits, piles = r->ntab, r0 = w >> 2, s0 = w & 3;
    int e[16], lim[MAXSUITS];
    for (int rk = 0; rk < n; rk++) e[rk] = c[rk] - c[rk + 1];
    for (int su = 0; su < suits; su++) {
        int b = n;
        for (int rk = 0; rk < n; rk++) if (!u[rk * 4 + su]) { b = rk; break; }
        lim[su] = b - 1;
    }
    if (r0 - 1 <= lim[s0] && bruns(r, c, e, lim, elig, r0, s0, 0) <= piles) return 1;
    if (r0 + 1 >= n) return 0;  /* nothing is placed on a base-rank card */
    return bruns(r, c, e, lim, elig, r0, s0, 1) <= piles
        || bruns(r, c, e, lim, elig, r0, s0, 2) <= piles;
}

static int waste_cycle(const Relaxed *r, uint64_t a, uint64_t b) {
    uint64_t waste = WASTE(a);
    int n = r->n, base = r->base;
    int cards[64], len = 0;
    /* the waste bottom to top: highest stock index first */
    for (int pos = 63; pos >= 0; pos--) if (waste >> pos & 1) cards[len++] = r->stock[pos];
    if (len < 2) return 0;
    int where[64];
    for (int c = 0; c < 64; c++) where[c] = -1;
    for (int i = 0; i < len; i++) where[cards[i]] = i;
    int nxt[MAXSUITS];
    for (int s = 0; s < r->suits; s++) nxt[s] = H(b, s);
    int home_only[64];
    for (int i = len - 1; i >= 0; i--) {  /* from the top down (keys.waste_cycle) */
        int c = cards[i], rk = rel(r, c);
        if (rk == n - 1) { home_only[i] = 1; continue; }
        int up = (rk + base) % n * 4;
        int all = 1;
        for (int s = 0; s < r->suits; s++) {
            int w = where[up + s];
            if (!(rk + 1 < nxt[s] || (w >= 0 && (w < i || home_only[w])))) { all = 0; break; }
        }
        home_only[i] = all;
    }
    int k = len, progress = 1;
    while (progress) {
        progress = 0;
        for (int s = 0; s < r->suits; s++) {
            while (nxt[s] < n) {
                int c = ((nxt[s] + base - 1) % n) * 4 + s;
                int w = where[c];
                if (w >= 0 && w < k) break;
                nxt[s]++;
                progress = 1;
            }
        }
        while (k) {
            int c = cards[k - 1];
            if (home_only[k - 1]) {
                if (rel(r, c) != nxt[c & 3]) break;
                nxt[c & 3]++;
            }
            k--;
            progress = 1;
        }
    }
    return k > 0;
}

/* ------------------------------------------------------------------ Python glue */

static int parse_state(Relaxed *r, PyObject *st, uint64_t *pa, uint64_t *pb) {
    int sl;
    PyObject *waste, *h, *shape;
    if (!PyArg_ParseTuple(st, "iO!O!O!", &sl, &PyTuple_Type, &waste, &PyTuple_Type, &h,
                          &PyTuple_Type, &shape))
        return -3;
    if (sl < 0 || sl > r->nstock) {
        PyErr_SetString(PyExc_ValueError, "a stock length out of range");
        return -3;
    }
    uint64_t mask = 0;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(waste); i++) {
        long c = PyLong_AsLong(PyTuple_GET_ITEM(waste, i));
        if (c < 0 || c >= 64 || r->stock_pos[c] < sl) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a waste card not dealt from this stock");
            return -3;
        }
        mask |= 1ULL << r->stock_pos[c];
    }
    if (PyTuple_GET_SIZE(h) != r->suits) {
        PyErr_SetString(PyExc_ValueError, "one height a suit");
        return -3;
    }
    uint64_t b = 0;
    for (int s = 0; s < r->suits; s++) {
        long v = PyLong_AsLong(PyTuple_GET_ITEM(h, s));
        if (v < 0 || v > r->n) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a height out of range");
            return -3;
        }
        b = with_h(b, s, (int)v);
    }
    Piles p; p.n = 0;
    if (PyTuple_GET_SIZE(shape) > r->ntab) {
        PyErr_SetString(PyExc_ValueError, "more piles than the tableau has");
        return -3;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(shape); i++) {
        int t, len;
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(shape, i), "ii", &t, &len)) return -3;
        if (t < 0 || t >= r->n || len < 1 || len > 15) {
            PyErr_SetString(PyExc_ValueError, "a pile out of range");
            return -3;
        }
        p.t[p.n] = t; p.len[p.n] = len; p.n++;
    }
    int32_t id = component(r, encode(&p));
    if (id < 0) return id;
    *pa = make_a(mask, sl);
    *pb = make_b(b, id);
    return 0;
}

static PyObject *build_state(Relaxed *r, uint64_t a, uint64_t b) {
    uint64_t waste = WASTE(a);
    int n = __builtin_popcountll(waste), k = 0;
    PyObject *w = PyTuple_New(n);
    for (int pos = 63; pos >= 0; pos--)
        if (waste >> pos & 1) PyTuple_SET_ITEM(w, k++, PyLong_FromLong(r->stock[pos]));
    PyObject *h = PyTuple_New(r->suits);
    for (int s = 0; s < r->suits; s++) PyTuple_SET_ITEM(h, s, PyLong_FromLong(H(b, s)));
    Piles p; decode(canon(r, COMP(b)), &p);
    PyObject *shape = PyTuple_New(p.n);
    for (int i = 0; i < p.n; i++) PyTuple_SET_ITEM(shape, i, Py_BuildValue("(ii)", p.t[i], p.len[i]));
    return Py_BuildValue("(iNNN)", SL(a), w, h, shape);
}

static PyObject *fail(int e) {
    if (e == -1) { PyErr_SetString(TooLarge, "a tableau component too large to enumerate"); return NULL; }
    if (e == -2) return PyErr_NoMemory();
    return NULL;  /* -3: an exception is set */
}

/* The clock the budget is read on: wall time, or (``cpu``, given by each search call's
 * optional last argument and kept with that call's deadline) the CPU time of the calling
 * thread, which other processes on the machine do not eat into. */
static double now(int cpu) {
    struct timespec ts;
    clock_gettime(cpu ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* a frame: its position, its successors (``next`` .. ``end`` in Dfs.succ), and its number
 * in search_cyclic */
typedef struct { RState st; size_t next, end; int64_t ix; } Frame;

/* a successor in Dfs.succ whose safe moves are still to be made (see dfs_push) */
#define RAW (1ULL << 63)

typedef struct {  /* a depth-first search's stack, its successors and its budget */
    Frame *stack;
    size_t depth, cap;
    Buf succ;
    long long limit;  /* r->nodes at which to stop, or -1 */
    double deadline;  /* now(cpu) at which to stop, or -1 */
    int cpu;          /* the deadline is on the thread's CPU clock */
    int checks;
    long long signals;
} Dfs;

/* pushes a frame for ``s`` with its successors: 0, or a negative error */
static int dfs_push(Relaxed *r, Dfs *d, RState s) {
    if (d->depth == d->cap) {
        size_t cap = d->cap ? d->cap * 2 : 256;
        Frame *ns = realloc(d->stack, cap * sizeof(Frame));
        if (!ns) return -2;
        d->stack = ns; d->cap = cap;
    }
    size_t from = d->succ.n;
    int err = successors(r, s.a, s.b, &d->succ);
    if (err < 0) return err;
    /* each successor once, first occurrences in order (relaxed.py, successors): a second
     * copy would find the first one searched already */
    size_t kept = from;
    for (size_t i = from; i < d->succ.n; i++) {
        RState x = d->succ.v[i];
        size_t j = from;
        while (j < kept && (d->succ.v[j].a != x.a || d->succ.v[j].b != x.b)) j++;
        if (j == kept) d->succ.v[kept++] = x;
    }
    d->succ.n = kept;
    /* the safe moves of each successor now, and the line of the table it will be looked up
     * in fetched early: the lookups then overlap their waits for memory.  Only where the
     * safe moves reach known components: a new one is made when the successor is reached,
     * as before (components are numbered in the order they are made, and one too large
     * abandons the relaxation).  The others are marked RAW and finish their safe moves
     * then; one stopped part way ends where it would have, safe moves being a chain. */
    r->probe = 1;
    for (size_t i = from; i < kept; i++) {
        RState *x = &d->succ.v[i];
        int e = autoplay(r, &x->a, &x->b);
        if (e < 0) { x->a |= RAW; continue; }
        set_prefetch(&r->lost, *x);
    }
    r->probe = 0;
    d->stack[d->depth].st = s;
    d->stack[d->depth].next = from;
    d->stack[d->depth].end = d->succ.n;
    d->depth++;
    return 0;
}

/* pops the top frame (its successors begin where those of the frame below end) */
static void dfs_pop(Dfs *d) {
    d->depth--;
    d->succ.n = d->depth ? d->stack[d->depth - 1].end : 0;
}

/* after each new position: 1 when the budget is spent (checked every 16, as relaxed.py
 * does), -3 when a signal raised an exception, else 0 */
static int dfs_spent(Relaxed *r, Dfs *d) {
    if (++d->checks < 16) return 0;
    d->checks = 0;
    if (d->limit >= 0 && r->nodes >= d->limit) return 1;
    if (d->deadline >= 0 && now(d->cpu) >= d->deadline) return 1;
    if (++d->signals >= 4096) {
        d->signals = 0;
        if (PyErr_CheckSignals() < 0) return -3;
    }
    return 0;
}

/* the winning line: the positions on the stack, then ``last`` */
static PyObject *dfs_line(Relaxed *r, const Dfs *d, RState last) {
    PyObject *path = PyList_New(0);
    if (!path) return NULL;
    for (size_t i = 0; i <= d->depth; i++) {
        RState s = i < d->depth ? d->stack[i].st : last;
        PyObject *x = build_state(r, s.a, s.b);
        if (!x || PyList_Append(path, x) < 0) { Py_XDECREF(x); Py_DECREF(path); return NULL; }
        Py_DECREF(x);
    }
    return path;
}

static PyObject *search_cyclic(Relaxed *r, RState root, Dfs *d);

/* The acyclic search (all but the 1883 rules) from ``root`` (after its safe moves, not won,
 * not known lost): 0 lost, 1 won (the stack holds the line, ``*last`` its last position),
 * 2 out of budget, or a negative error.  ``d`` is emptied first; its buffers are kept. */
static int search_acyclic(Relaxed *r, RState root, Dfs *d, RState *last) {
    d->depth = 0; d->succ.n = 0;
    int err = dfs_push(r, d, root);
    while (!err && d->depth) {
        Frame *f = &d->stack[d->depth - 1];
        if (f->next == f->end) {
            /* lost; once the table is full, positions are no longer recorded and the
             * search goes on without them (slower, as sound) */
            if (r->lost.count < r->max_states && set_add(&r->lost, f->st) < 0) return -2;
            dfs_pop(d);
            continue;
        }
        RState nx = d->succ.v[f->next++];
        if (nx.a & RAW) {
            nx.a &= ~RAW;
            if ((err = autoplay(r, &nx.a, &nx.b)) < 0) return err;
        }
        if (set_has(&r->lost, nx)) continue;
        if ((r->use_cycle && __builtin_popcountll(WASTE(nx.a)) > 1 && waste_cycle(r, nx.a, nx.b))
                || drain_dead(r, nx.a, NO_BOTTOMS)) {  /* dead ends */
            if (r->lost.count < r->max_states && set_add(&r->lost, nx) < 0) return -2;
            continue;
        }
        r->nodes++;
        if (won(r, nx.b)) { *last = nx; return 1; }
        if ((err = dfs_push(r, d, nx)) < 0) return err;
        int spent = dfs_spent(r, d);
        if (spent) return spent < 0 ? spent : 2;
    }
    return err < 0 ? err : 0;
}

/* search(start, max_nodes, seconds[, cpu]) -> (verdict, path): relaxed.RelaxedSearch.search */
static PyObject *Relaxed_search(Relaxed *r, PyObject *args) {
    PyObject *start;
    long long max_nodes;
    double seconds;
    int cpu = 0;
    if (!PyArg_ParseTuple(args, "OLd|p", &start, &max_nodes, &seconds, &cpu)) return NULL;
    uint64_t a, b;
    int e = parse_state(r, start, &a, &b);
    if (e < 0) return fail(e);
    e = autoplay(r, &a, &b);
    if (e < 0) return fail(e);
    if (won(r, b)) return Py_BuildValue("(sN)", "won", Py_BuildValue("[N]", build_state(r, a, b)));
    RState root = {a, b};
    if (set_has(&r->lost, root)) return Py_BuildValue("(s[])", "lost");
    Dfs d = {0};
    d.cpu = cpu;
    d.deadline = seconds >= 0 ? now(cpu) + seconds : -1;
    d.limit = max_nodes >= 0 ? r->nodes + max_nodes : -1;
    if (r->vacancy) return search_cyclic(r, root, &d);
    RState last;
    int v = search_acyclic(r, root, &d, &last);
    PyObject *path = v == 1 ? dfs_line(r, &d, last) : NULL;
    free(d.succ.v); free(d.stack);
    if (v < 0) return fail(v);
    if (v == 1) return path ? Py_BuildValue("(sN)", "won", path) : NULL;
    return Py_BuildValue("(s[])", v == 0 ? "lost" : "unknown");
}

typedef struct {  /* position -> its number in one search (Tarjan's index) */
    RState *keys;
    int64_t *vals;
    size_t cap, count;
} IndexMap;

static int imap_init(IndexMap *m, size_t cap) {
    m->keys = big_alloc(cap * sizeof(RState), 0);
    m->vals = big_alloc(cap * sizeof(int64_t), 0);
    if (!m->keys || !m->vals) { big_free(m->keys); big_free(m->vals); return -1; }
    for (size_t i = 0; i < cap; i++) m->keys[i].a = UINT64_MAX;
    m->cap = cap; m->count = 0;
    return 0;
}

static int64_t imap_get(const IndexMap *m, RState k) {
    size_t mask = m->cap - 1, i = mix64(k.a ^ mix64(k.b)) & mask;
    for (;;) {
        if (m->keys[i].a == UINT64_MAX) return -1;
        if (m->keys[i].a == k.a && m->keys[i].b == k.b) return m->vals[i];
        i = (i + 1) & mask;
    }
}

static int imap_put(IndexMap *m, RState k, int64_t v) {
    if ((m->count + 1) * 10 > m->cap * 7) {
        IndexMap n;
        if (imap_init(&n, m->cap * 2) < 0) return -1;
        for (size_t i = 0; i < m->cap; i++)
            if (m->keys[i].a != UINT64_MAX) imap_put(&n, m->keys[i], m->vals[i]);
        big_free(m->keys); big_free(m->vals);
        *m = n;
    }
    size_t mask = m->cap - 1, i = mix64(k.a ^ mix64(k.b)) & mask;
    for (;;) {
        if (m->keys[i].a == UINT64_MAX) { m->keys[i] = k; m->vals[i] = v; m->count++; return 0; }
        i = (i + 1) & mask;
    }
}

typedef struct { int64_t *v; size_t n, cap; } I64s;

static int i64_push(I64s *x, int64_t v) {
    if (x->n == x->cap) {
        size_t cap = x->cap ? x->cap * 2 : 1024;
        int64_t *nv = realloc(x->v, cap * sizeof(int64_t));
        if (!nv) return -1;
        x->v = nv; x->cap = cap;
    }
    x->v[x->n++] = v;
    return 0;
}

/* The search where positions can lead back to each other (the 1883 vacancies):
 * relaxed.RelaxedSearch.search with Tarjan's strongly connected components; a component
 * finished without a win is lost as a whole.  ``root`` is after its safe moves, not won
 * and not known lost. */
static PyObject *search_cyclic(Relaxed *r, RState root, Dfs *d) {
    IndexMap index = {0};
    I64s low = {0}, scc = {0};
    Buf states = {0};  /* by index */
    const char *verdict = "lost";
    PyObject *path = NULL;
    int err = imap_init(&index, 1024) < 0 ? -2 : 0;
    RState nx = root;
    while (!err) {
        if (nx.a != UINT64_MAX) {  /* number a new position and push it */
            int64_t ix = (int64_t)states.n;
            if (imap_put(&index, nx, ix) < 0 || i64_push(&low, ix) < 0
                    || i64_push(&scc, ix) < 0 || push(&states, nx.a, nx.b) < 0
                    || (err = dfs_push(r, d, nx)) < 0) {
                if (!err) err = -2;
                break;
            }
            d->stack[d->depth - 1].ix = ix;
            nx.a = UINT64_MAX;
            if (states.n > 1) {
                int spent = dfs_spent(r, d);
                /* Tarjan's numbering of one search takes 40 bytes a position: bounded */
                if (!spent && states.n >= r->max_states / 2) spent = 1;
                if (spent) { verdict = "unknown"; err = spent < 0 ? spent : 0; break; }
            }
        }
        if (!d->depth) break;
        Frame *f = &d->stack[d->depth - 1];
        if (f->next == f->end) {
            int64_t me = f->ix;
            int64_t lw = low.v[me];
            if (lw == me) {  /* a finished component: lost */
                for (;;) {
                    int64_t w = scc.v[--scc.n];
                    low.v[w] = -1;  /* off Tarjan's stack */
                    if (r->lost.count < r->max_states && set_add(&r->lost, states.v[w]) < 0)
                        err = -2;
                    if (w == me) break;
                }
            }
            dfs_pop(d);
            if (d->depth) {  /* (a finished component's lowlink is above the parent's) */
                int64_t parent = d->stack[d->depth - 1].ix;
                if (lw < low.v[parent]) low.v[parent] = lw;
            }
            continue;
        }
        RState c = d->succ.v[f->next++];
        if (c.a & RAW) {
            c.a &= ~RAW;
            if ((err = autoplay(r, &c.a, &c.b)) < 0) break;
        }
        if (set_has(&r->lost, c)) continue;
        if (drain_dead(r, c.a, NO_BOTTOMS)) {  /* a dead end */
            if (r->lost.count < r->max_states && set_add(&r->lost, c) < 0) { err = -2; break; }
            continue;
        }
        int64_t seen = imap_get(&index, c);
        if (seen >= 0) {
            int64_t me = f->ix;
            if (low.v[seen] >= 0 && seen < low.v[me]) low.v[me] = seen;
            continue;
        }
        r->nodes++;
        if (won(r, c.b)) {
            verdict = "won";
            if (!(path = dfs_line(r, d, c))) err = -3;
            break;
        }
        nx = c;
    }
    free(d->succ.v); free(d->stack); big_free(index.keys); big_free(index.vals);
    free(low.v); free(scc.v); free(states.v);
    if (err < 0) { Py_XDECREF(path); return fail(err); }
    if (path) return Py_BuildValue("(sN)", verdict, path);
    return Py_BuildValue("(s[])", verdict);
}

/* contains(state): is the position (as given, no safe moves made) in the table of lost
 * positions? */
static PyObject *Relaxed_contains(Relaxed *r, PyObject *st) {
    uint64_t a, b;
    if (!PyTuple_Check(st) || PyTuple_GET_SIZE(st) != 4) Py_RETURN_FALSE;
    int e = parse_state(r, st, &a, &b);
    if (e == -1 || e == -3) { PyErr_Clear(); Py_RETURN_FALSE; }  /* not a position of it */
    if (e < 0) return fail(e);
    RState k = {a, b};
    return PyBool_FromLong(set_has(&r->lost, k));
}

static PyObject *Relaxed_get_nodes(Relaxed *r, void *c) { (void)c; return PyLong_FromLongLong(r->nodes); }
static PyObject *Relaxed_get_size(Relaxed *r, void *c) { (void)c; return PyLong_FromSize_t(r->lost.count); }
static PyObject *Relaxed_get_disabled(Relaxed *r, void *c) { (void)c; return PyBool_FromLong(r->disabled); }

static int Relaxed_init(Relaxed *r, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"n", "suits", "ntab", "space_any", "stock_to_space", "refill",
                             "dead_end", "stock", "base", "max_component", "max_states",
                             "packets", "vacancy", "drain", NULL};
    PyObject *stock;
    Py_ssize_t max_states;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "iiippppO!iin|ppp", kwlist, &r->n, &r->suits,
                                     &r->ntab, &r->space_any, &r->stock_to_space, &r->refill,
                                     &r->use_cycle, &PyTuple_Type, &stock, &r->base,
                                     &r->max_component, &max_states, &r->packets,
                                     &r->vacancy, &r->drain))
        return -1;
    if (r->n < 2 || r->n > 13 || r->suits < 1 || r->suits > MAXSUITS || r->ntab < 1
            || r->ntab > MAXTAB || PyTuple_GET_SIZE(stock) > 52 || max_states < 1) {
        PyErr_SetString(PyExc_ValueError, "rules outside what the compiled relaxation handles");
        return -1;
    }
    r->nstock = (int)PyTuple_GET_SIZE(stock);
    for (int c = 0; c < 64; c++) {
        r->stock_pos[c] = -1;
        r->relt[c] = (int8_t)((((c >> 2) + 1 - r->base) % r->n + r->n) % r->n);
    }
    for (int i = 0; i < r->nstock; i++) {
        long c = PyLong_AsLong(PyTuple_GET_ITEM(stock, i));
        if (c < 0 || c >= 64) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a card out of range");
            return -1;
        }
        r->stock[i] = (int)c;
        r->stock_pos[c] = i;
    }
    r->max_states = (size_t)max_states;
    if (map_init(&r->shapes, 1024) < 0 || set_init(&r->lost, 1024) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static void free_tables(Relaxed *r) {
    for (int i = 0; i < r->ncomps; i++) {
        Component *c = &r->comps[i];
        free(c->members);
        for (int k = 0; k < 16; k++) {
            if (c->nadds[k] >= 0) free(c->adds[k]);
            if (c->nremoves[k] >= 0) free(c->removes[k]);
        }
    }
    free(r->comps);
    big_free(r->shapes.keys); big_free(r->shapes.vals);
    big_free(r->lost.slots);
    free(r->seen_buf);
    free(r->dcache); r->dcache = NULL;
    free(r->bcache); r->bcache = NULL;
    r->comps = NULL; r->ncomps = r->capcomps = 0;
    r->shapes.keys = NULL; r->shapes.vals = NULL; r->shapes.cap = r->shapes.count = 0;
    r->lost.slots = NULL; r->lost.cap = r->lost.count = 0;
    r->seen_buf = NULL; r->seen_cap = 0;
}

/* hands freed memory back to the system: glibc keeps freed blocks of up to 32 MB in the
 * process's heap, so a process that solves one deal after another (a web worker, a win-rate
 * run) would otherwise go on holding what its largest solve needed */
static void give_back(void) {
#ifdef __GLIBC__
    malloc_trim(0);
#endif
}

static void Relaxed_dealloc(Relaxed *r) {
    free_tables(r);
    Py_TYPE(r)->tp_free((PyObject *)r);
}

/* release(): frees the tables at once; the object is then empty and disabled */
static PyObject *Relaxed_release(Relaxed *r, PyObject *unused) {
    (void)unused;
    free_tables(r);
    if (map_init(&r->shapes, 16) < 0 || set_init(&r->lost, 16) < 0) return PyErr_NoMemory();
    r->disabled = 1;
    give_back();
    Py_RETURN_NONE;
}

/* bottom_drains(sl, waste, bottoms): Czarina's drain test with the piles' bottoms (a set
 * of kinds, relative rank * 4 + suit), for the tests against keys.BottomDrain */
static PyObject *Relaxed_bottom_drains(Relaxed *r, PyObject *args) {
    int sl;
    unsigned long long waste, bottoms;
    if (!PyArg_ParseTuple(args, "iKK", &sl, &waste, &bottoms)) return NULL;
    if (sl < 0 || sl > r->nstock || waste >> r->nstock) {
        PyErr_SetString(PyExc_ValueError, "not a position of this deal");
        return NULL;
    }
    /* (through the cache, as the searches ask it, so that kept answers are checked too) */
    return PyBool_FromLong(!drain_dead(r, (uint64_t)waste | ((uint64_t)sl << 56), bottoms));
}

static PyMethodDef Relaxed_methods[] = {
    {"bottom_drains", (PyCFunction)Relaxed_bottom_drains, METH_VARARGS,
     "bottom_drains(stock length, waste as stock indices, bottoms as kinds) -> bool"},
    {"search", (PyCFunction)Relaxed_search, METH_VARARGS,
     "search(start, max_nodes, seconds[, cpu]) -> (verdict, winning line); -1 for no limit; cpu: seconds of the thread's CPU time"},
    {"release", (PyCFunction)Relaxed_release, METH_NOARGS,
     "release() frees the tables; the search is then disabled"},
    {"contains", (PyCFunction)Relaxed_contains, METH_O,
     "contains(state) -> is the position in the table of lost positions"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Relaxed_getset[] = {
    {"nodes", (getter)Relaxed_get_nodes, NULL, "positions searched", NULL},
    {"size", (getter)Relaxed_get_size, NULL, "positions in the table of lost positions", NULL},
    {"disabled", (getter)Relaxed_get_disabled, NULL, "a component was too large", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject RelaxedType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "patience.solver._relaxedc.Relaxed",
    .tp_basicsize = sizeof(Relaxed),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The relaxed game of one deal, compiled (see relaxed.py).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Relaxed_init,
    .tp_dealloc = (destructor)Relaxed_dealloc,
    .tp_methods = Relaxed_methods,
    .tp_getset = Relaxed_getset,
};

/* ================================================================== the exact search
 *
 * The real game of Four Seasons or Czarina (one card moved at a time, no packets, no
 * vacancy rule), searched depth first over every reachable position: search.py's exact
 * search, compiled.  It shares the deal (the stock's order, the base, the rules' flags)
 * with a Relaxed object, whose dead-end test it uses and whose table of lost relaxed
 * positions cuts it (a real position whose relaxed image is lost is lost).
 *
 * A position is kept whole on the stack (XState).  Its key (three 64-bit words) is exact:
 *   w0 = the waste as a bit set of stock indices, shifted up by one, with a marker bit at
 *        the stock's length | foundation heights (4 bits a suit) << 48
 *   w1, w2 = the tableau piles, sorted (interchangeable piles), as a bit string: each
 *        pile's length (4 bits), then its bottom card (6 bits) and the suit of each card
 *        above it (2 bits; its rank is one below the card under it).
 * The table of positions seen is exact; when it is full it is emptied (the positions on
 * the stack kept), which costs searching some positions again and loses nothing: a
 * position is skipped only when it is on the stack or was searched whole.
 */

#define XMAXLEN 16

typedef struct {
    uint64_t waste;            /* bit i: stock[i] is in the waste; the top is the lowest */
    int8_t sl;                 /* stock length: stock[0 .. sl-1] */
    uint8_t h[MAXSUITS];       /* cards home, per suit */
    int8_t fp[MAXSUITS];       /* the foundation pile of each suit, -1 while it has none */
    uint8_t len[MAXTAB];
    uint8_t c[MAXTAB][XMAXLEN]; /* bottom to top */
} XState;

typedef struct { uint64_t w0, w1, w2; } XKey;
typedef struct { uint64_t w0; int dead; } DEntry;  /* a cached answer of xdead */
#define DCACHE 65536
typedef struct CSearch CSearch;  /* the search by components, below */

/* a move: src -1 the waste, -2 deal, else a tableau pile; dst a tableau pile, or
 * XFOUND + the foundation pile's index */
#define XFOUND 64
typedef struct { int8_t src, dst; } XMove;

typedef struct {
    XState st;
    size_t next, end;  /* its moves in Exact.moves */
    size_t lend;       /* its part of the line ends here in Exact.line */
} XFrame;

typedef struct {
    PyObject_HEAD
    Relaxed *rx;
    int cuts;
    int guided;  /* only the guided subset of the moves: a won line is real, lost says nothing */
    CSearch *cs; /* the search by components, when asked for */
    struct Beam *beam; /* the beam search, when asked for (below) */
    int nfound;
    XState root;
    int started, done;
    const char *verdict;
    /* the table of positions seen */
    XKey *slots;
    size_t cap, count, max_cap;
    long long flushes;  /* the table of positions (or nodes) seen emptied */
    size_t kept;        /* the positions that its last emptying kept */
    long long cflushes; /* the search by components' tables of components emptied */
    size_t ckept;       /* the tableaux that the last emptying of them kept */
    DEntry *dcache;    /* xdead's answers, by skeleton */
    long long nodes;
    /* the stack, the moves of its frames, and the line of moves that led to each frame */
    XFrame *stack; size_t depth, scap;
    XMove *moves; size_t nmoves, mcap;
    XMove *line; size_t nline, lcap;
    /* restarts of the search by components (docs/solver.md, "Restarts"): 0, or the nodes
     * of the Luby sequence's unit; the orders of the children after the first descent */
    long long restart_unit, next_restart, restarts;
    uint64_t rng;
} Exact;

typedef struct { uint64_t a, b; } TKey;  /* a tableau's sorted piles (see above) */
typedef unsigned __int128 U128;

/* A pile as one word, its code: length << 58 | bottom card << 52 | the suit of each card
 * above the bottom, 2 bits each, the second card in the lowest bits; 0 for an empty pile.
 * Codes compare as tkey sorts the piles, and a tableau key is its codes, sorted, packed. */
#define PLEN(code) ((int)((code) >> 58))
#define PLOW ((1ULL << 58) - 1)

static inline uint64_t pcode(const uint8_t *cards, int L) {
    if (!L) return 0;
    uint64_t v = ((uint64_t)L << 58) | ((uint64_t)cards[0] << 52);
    for (int j = 1; j < L; j++) v |= (uint64_t)(cards[j] & 3) << (2 * (j - 1));
    return v;
}

static inline int ptop(const Relaxed *r, uint64_t code) {  /* -1 for an empty pile */
    int L = PLEN(code);
    if (!L) return -1;
    int bottom = (int)((code >> 52) & 63);
    if (L == 1) return bottom;
    int rk = (bottom >> 2) + r->n - (L - 1);  /* (L <= n: a run holds each rank once) */
    while (rk >= r->n) rk -= r->n;
    return rk * 4 + (int)((code >> (2 * (L - 2))) & 3);
}

static inline uint64_t ppop(uint64_t code) {
    int L = PLEN(code);
    if (L <= 1) return 0;
    return ((code & PLOW) & ~(3ULL << (2 * (L - 2)))) | ((uint64_t)(L - 1) << 58);
}

static inline uint64_t ppush(uint64_t code, int card) {
    int L = PLEN(code);
    if (!L) return (1ULL << 58) | ((uint64_t)card << 52);
    return (code & PLOW) | ((uint64_t)(L + 1) << 58) | ((uint64_t)(card & 3) << (2 * (L - 1)));
}

/* the key of a tableau given as codes (in any order): -1 when it does not fit in 128 bits */
static inline int tpack(const Relaxed *r, const uint64_t *codes, TKey *k) {
    uint64_t code[MAXTAB];
    int n = r->ntab;
    for (int i = 0; i < n; i++) {  /* sorted, largest first */
        uint64_t x = codes[i]; int j = i;
        while (j > 0 && code[j - 1] < x) { code[j] = code[j - 1]; j--; }
        code[j] = x;
    }
    U128 w = 0;
    int bit = 0;
    for (int i = 0; i < n; i++) {
        int L = PLEN(code[i]);
        int nb = L ? 10 + 2 * (L - 1) : 4;
        if (bit + nb > 128) return -1;
        uint64_t field = (uint64_t)L | ((code[i] >> 52) & 63) << 4
                         | (code[i] & ((1ULL << 52) - 1)) << 10;
        w |= (U128)field << bit;
        bit += nb;
    }
    k->a = (uint64_t)w; k->b = (uint64_t)(w >> 64);
    return 0;
}

/* the codes of a tableau key, in its sorted order (empty piles last) */
static inline void tunpack(const Relaxed *r, TKey k, uint64_t *code) {
    U128 w = (U128)k.a | (U128)k.b << 64;
    for (int i = 0; i < r->ntab; i++) {
        int L = (int)(w & 15);
        if (!L) { code[i] = 0; w >>= 4; continue; }
        int nb = 10 + 2 * (L - 1);
        code[i] = (uint64_t)L << 58 | (uint64_t)((w >> 4) & 63) << 52
                  | (uint64_t)((w >> 10) & ((1ULL << (2 * (L - 1))) - 1));
        w >>= nb;
    }
}

/* the tableau's key: -1 when it does not fit in 128 bits */
static inline int tkey(const Relaxed *r, const uint8_t *len, const uint8_t (*c)[XMAXLEN],
                       TKey *k) {
    uint64_t code[MAXTAB];
    for (int i = 0; i < r->ntab; i++) code[i] = pcode(c[i], len[i]);
    return tpack(r, code, k);
}

/* the piles of a tableau key, in its sorted order (empty piles last) */
static void tdecode(const Relaxed *r, TKey k, uint8_t *len, uint8_t (*c)[XMAXLEN]) {
    uint64_t code[MAXTAB];
    tunpack(r, k, code);
    for (int i = 0; i < r->ntab; i++) {
        int L = PLEN(code[i]);
        len[i] = (uint8_t)L;
        if (!L) continue;
        int card = (int)((code[i] >> 52) & 63);
        c[i][0] = (uint8_t)card;
        for (int j = 1; j < L; j++) {
            card = (((card >> 2) - 1 + r->n) % r->n) * 4 + (int)((code[i] >> (2 * (j - 1))) & 3);
            c[i][j] = (uint8_t)card;
        }
    }
}

static inline uint64_t xskeleton(const Relaxed *r, const XState *s) {
    uint64_t w0 = (s->waste << 1) | (1ULL << s->sl);
    for (int i = 0; i < r->suits; i++) w0 |= (uint64_t)s->h[i] << (48 + 4 * i);
    return w0;
}

static inline int xkey(const Relaxed *r, const XState *s, XKey *k) {
    TKey t;
    if (tkey(r, s->len, (const uint8_t (*)[XMAXLEN])s->c, &t) < 0) return -1;
    k->w0 = xskeleton(r, s); k->w1 = t.a; k->w2 = t.b;
    return 0;
}

static inline size_t xhash(XKey k) { return (size_t)mix64(k.w0 ^ mix64(k.w1 ^ mix64(k.w2))); }

static int xtable_alloc(Exact *x, size_t cap) {
    /* w0 == 0 marks a free slot (w0 has a marker) */
    XKey *s = big_alloc(cap * sizeof(XKey), 1);
    if (!s) return -2;
    big_free(x->slots);
    x->slots = s; x->cap = cap; x->count = 0;
    return 0;
}

/* the slot of key ``k`` in a table of ``cap`` slots (a power of two; w0 == 0 marks a free
 * slot), probed linearly: the slot holding it, or the free one where it goes */
static inline XKey *xslot(XKey *slots, size_t cap, XKey k) {
    size_t m = cap - 1, i = xhash(k) & m;
    while (slots[i].w0 && !(slots[i].w0 == k.w0 && slots[i].w1 == k.w1 && slots[i].w2 == k.w2))
        i = (i + 1) & m;
    return &slots[i];
}

static inline int xtable_put(Exact *x, XKey k) {  /* 1 added, 0 present */
    XKey *e = xslot(x->slots, x->cap, k);
    if (e->w0) return 0;
    *e = k;
    x->count++;
    return 1;
}

/* empties slot ``i`` (in use), shifting back the entries after it */
static void xtable_del_at(Exact *x, size_t i) {
    size_t m = x->cap - 1;
    for (size_t j = i;;) {
        j = (j + 1) & m;
        if (!x->slots[j].w0) break;
        size_t h = xhash(x->slots[j]) & m;
        /* the entry at j stays when its home slot lies cyclically in (i, j] */
        if (i <= j ? (i < h && h <= j) : (i < h || h <= j)) continue;
        x->slots[i] = x->slots[j];
        i = j;
    }
    x->slots[i].w0 = 0;
    x->count--;
}

/* takes ``k`` out of the table (when there) */
static void xtable_del(Exact *x, XKey k) {
    size_t m = x->cap - 1, i = xhash(k) & m;
    for (;; i = (i + 1) & m) {
        XKey *e = &x->slots[i];
        if (!e->w0) return;
        if (e->w0 == k.w0 && e->w1 == k.w1 && e->w2 == k.w2) break;
    }
    xtable_del_at(x, i);
}

/* how far a skeleton lies from the opening: the cards taken from the stock and the cards
 * home (the stock's length is the skeleton's lowest bit, its marker; see xskeleton) */
static inline int xprogress(const Relaxed *r, uint64_t w0) {
    int d = r->nstock - __builtin_ctzll(w0);
    for (int i = 0; i < r->suits; i++) d += (int)((w0 >> (48 + 4 * i)) & 15);
    return d;
}

/* empties the full table down to at most half its entries, keeping those nearest the
 * opening (by xprogress): their searches are the longest to do again */
static void xtable_evict(Exact *x) {
    const Relaxed *r = x->rx;
    enum { LEVELS = 128 };
    size_t hist[LEVELS] = {0}, kept = 0;
    for (size_t i = 0; i < x->cap; i++)
        if (x->slots[i].w0) {
            int d = xprogress(r, x->slots[i].w0);
            hist[d < LEVELS ? d : LEVELS - 1]++;
        }
    int top = -1;  /* the last level kept */
    while (top + 1 < LEVELS && kept + hist[top + 1] <= x->count / 2) kept += hist[++top];
    /* a deletion shifts later entries back into slot i, so slot i is looked at again;
     * entries shifted across the end of the array were kept, and are looked at again */
    for (size_t i = 0; i < x->cap;) {
        if (x->slots[i].w0 && xprogress(r, x->slots[i].w0) > top) xtable_del_at(x, i);
        else i++;
    }
}

/* makes room for one more: grows the table up to its cap (0), else empties it down to
 * the half nearest the opening and puts back the positions on the stack (1) */
static int xtable_room(Exact *x) {
    if ((x->count + 1) * 10 <= x->cap * 7) return 0;
    XKey *old = x->slots;
    size_t ocap = x->cap;
    if (ocap < x->max_cap) {
        x->slots = NULL;
        if (xtable_alloc(x, ocap * 2) < 0) { x->slots = old; return -2; }
        for (size_t i = 0; i < ocap; i++) if (old[i].w0) xtable_put(x, old[i]);
        big_free(old);
        return 0;
    }
    xtable_evict(x);
    x->kept = x->count;
    x->flushes++;
    for (size_t i = 0; i < x->depth; i++) {
        XKey k;
        if (xkey(x->rx, &x->stack[i].st, &k) == 0) xtable_put(x, k);
    }
    return 1;
}

static inline void xhome(const Relaxed *r, XState *s, int card, int8_t *fpile, int nfound) {
    int suit = card & 3;
    if (s->fp[suit] < 0) {  /* the first empty foundation pile */
        int used = 0;
        for (int i = 0; i < r->suits; i++) if (s->fp[i] >= 0) used |= 1 << s->fp[i];
        for (int f = 0; f < nfound; f++) if (!(used >> f & 1)) { s->fp[suit] = (int8_t)f; break; }
    }
    *fpile = s->fp[suit];
    s->h[suit]++;
}

/* Czarina: a pile emptied by a move is refilled at once from the stock */
static inline void xrefill(const Relaxed *r, XState *s, int pile) {
    if (r->refill && !s->len[pile] && s->sl > 0) {
        s->c[pile][0] = (uint8_t)r->stock[s->sl - 1];
        s->len[pile] = 1;
        s->sl--;
    }
}

static inline int xwaste_top(const Relaxed *r, const XState *s) {
    return s->waste ? r->stock[__builtin_ctzll(s->waste)] : -1;
}

/* makes ``m`` on ``s`` (legal, as generated); a foundation move's pile is filled in */
static void xapply(const Exact *x, XState *s, XMove *m) {
    const Relaxed *r = x->rx;
    if (m->src == -2) {  /* deal */
        s->sl--;
        s->waste |= 1ULL << s->sl;
        return;
    }
    int card;
    if (m->src == -1) {
        card = xwaste_top(r, s);
        s->waste &= s->waste - 1;
    } else {
        card = s->c[m->src][--s->len[m->src]];
    }
    if (m->dst >= XFOUND) {
        int8_t f;
        xhome(r, s, card, &f, x->nfound);
        m->dst = (int8_t)(XFOUND + f);
    } else {
        s->c[m->dst][s->len[m->dst]++] = (uint8_t)card;
    }
    if (m->src >= 0) xrefill(r, s, m->src);
}

/* the safe move of keys.make_safe, if any: 1 and ``m`` */
static int xsafe(const Exact *x, const XState *s, XMove *m) {
    const Relaxed *r = x->rx;
    int low = 99;
    for (int i = 0; i < r->suits; i++) if (s->h[i] < low) low = s->h[i];
    int w = xwaste_top(r, s);
    if (w >= 0) {
        int rk = rel(r, w);
        if (rk <= low && s->h[w & 3] == rk) { m->src = -1; m->dst = XFOUND; return 1; }
    }
    for (int i = 0; i < r->ntab; i++) {
        int L = s->len[i];
        if (!L || (L == 1 && r->refill && s->sl > 0)) continue;
        int c = s->c[i][L - 1], rk = rel(r, c);
        if (rk <= low && s->h[c & 3] == rk) { m->src = (int8_t)i; m->dst = XFOUND; return 1; }
    }
    return 0;
}

static inline int xwon(const Relaxed *r, const XState *s) {
    for (int i = 0; i < r->suits; i++) if (s->h[i] != r->n) return 0;
    return 1;
}

static int xpush_move(Exact *x, int src, int dst) {
    if (x->nmoves == x->mcap) {
        size_t cap = x->mcap ? x->mcap * 2 : 4096;
        XMove *v = realloc(x->moves, cap * sizeof(XMove));
        if (!v) return -2;
        x->moves = v; x->mcap = cap;
    }
    x->moves[x->nmoves].src = (int8_t)src;
    x->moves[x->nmoves].dst = (int8_t)dst;
    x->nmoves++;
    return 0;
}

static int xpush_line(Exact *x, XMove m) {
    if (x->nline == x->lcap) {
        size_t cap = x->lcap ? x->lcap * 2 : 1024;
        XMove *v = realloc(x->line, cap * sizeof(XMove));
        if (!v) return -2;
        x->line = v; x->lcap = cap;
    }
    x->line[x->nline++] = m;
    return 0;
}

/* the moves of ``s``, in search.py's order: home, from the waste, between piles (a
 * pile's only card into a space is left out: it gives the same key), deal.  stock>tK is
 * left out: deal then waste>tK reaches the same position.  Guided (search.py,
 * guided_filter), a move between piles must empty its pile onto another pile or
 * uncover a card that can go home. */
static int xmoves(Exact *x, const XState *s) {
    const Relaxed *r = x->rx;
    int n = r->ntab, e = 0;
    int w = xwaste_top(r, s);
    int space = -1;
    if (r->space_any) for (int i = 0; i < n; i++) if (!s->len[i]) { space = i; break; }
    if (w >= 0 && s->h[w & 3] == rel(r, w)) e |= xpush_move(x, -1, XFOUND);
    for (int i = 0; i < n; i++) {
        int L = s->len[i];
        if (!L) continue;
        int c = s->c[i][L - 1];
        if (s->h[c & 3] == rel(r, c)) e |= xpush_move(x, i, XFOUND);
    }
    if (w >= 0) {
        int rk = rel(r, w);
        for (int j = 0; j < n; j++)
            if (s->len[j] && rel(r, s->c[j][s->len[j] - 1]) == rk + 1) e |= xpush_move(x, -1, j);
        if (space >= 0) e |= xpush_move(x, -1, space);
    }
    for (int i = 0; i < n; i++) {
        int L = s->len[i];
        if (!L) continue;
        int rk = rel(r, s->c[i][L - 1]);
        if (x->guided && L > 1) {
            int below = s->c[i][L - 2];
            if (s->h[below & 3] != rel(r, below)) continue;
        }
        for (int j = 0; j < n; j++)
            if (j != i && s->len[j] && rel(r, s->c[j][s->len[j] - 1]) == rk + 1)
                e |= xpush_move(x, i, j);
        if (space >= 0 && L > 1) e |= xpush_move(x, i, space);
    }
    if (s->sl > 0) e |= xpush_move(x, -2, -1);
    return e ? -2 : 0;
}

/* is the position dead by the drain test, or by Czarina's dead-end test
 * (keys.waste_cycle)?  ``a`` and ``b`` are set to its relaxed words, the tableau's
 * component left out.  The tests read only the stock, the waste and the foundations, which
 * many positions share: their answers are cached (the drain test's by stock and waste,
 * Czarina's by the skeleton, xskeleton, never 0), a newer answer replacing an older one in
 * its slot */
/* the piles' bottom cards of a tableau, as a set of kinds (relative rank * 4 + suit) */
static uint64_t xbottoms(const Relaxed *r, const uint8_t *len, const uint8_t (*cd)[XMAXLEN]) {
    uint64_t bottoms = 0;
    for (int i = 0; i < r->ntab; i++)
        if (len[i]) bottoms |= 1ULL << (rel(r, cd[i][0]) * 4 + (cd[i][0] & 3));
    return bottoms;
}

/* does the waste of a position (stock ``sl``, ``waste``) drain because that of the
 * position it was reached from does (``psl``, ``pwaste``; that one drained, or it would
 * have been cut)?  So it does when it has the same stock, a waste that only lost cards
 * (from its top: to the tableau or home) and, in Czarina, the same piles' bottoms (the
 * callers compare those last, as they cost more): the greedy pass that drained the one
 * before, over the cards left, lets each of them leave with the same cards out of the
 * stock and the waste as then (docs/solver.md, "Known to drain", under "Compiled exact
 * search") */
static inline int drain_implied(int sl, uint64_t waste, int psl, uint64_t pwaste) {
    return sl == psl && !(waste & ~pwaste);
}

/* is ``s`` lost by the dead-end tests?  ``drained``: its waste is known to drain
 * (drain_implied), so only the test of "Dead ends" is asked */
static int xdead(Exact *x, const XState *s, uint64_t bottoms, int drained, uint64_t *a,
                 uint64_t *b) {
    Relaxed *r = x->rx;
    *a = s->waste | ((uint64_t)s->sl << 56);
    *b = 0;
    for (int i = 0; i < r->suits; i++) *b = with_h(*b, i, s->h[i]);
    /* in Czarina only the test with the piles' bottoms, which cuts whatever the one
     * without them cuts ("Bottoms") */
    if (!drained && drain_dead(r, *a, r->refill ? bottoms : NO_BOTTOMS)) return 1;
    if (!r->use_cycle || __builtin_popcountll(s->waste) <= 1) return 0;
    uint64_t w0 = xskeleton(r, s);
    if (!x->dcache && !(x->dcache = calloc(DCACHE, sizeof(DEntry)))) return waste_cycle(r, *a, *b);
    DEntry *e = &x->dcache[mix64(w0) & (DCACHE - 1)];
    if (e->w0 != w0) { e->w0 = w0; e->dead = waste_cycle(r, *a, *b); }
    return e->dead;
}

/* can the relaxation's table cut anything? */
static inline int xcuts(const Exact *x) {
    return x->cuts && !x->rx->disabled && x->rx->lost.count;
}

/* the relaxed component of a tableau's shape: -1 when too large to enumerate (or no
 * memory), which cuts nothing */
static int32_t xshape_component(Relaxed *r, const uint8_t *len, const uint8_t (*cd)[XMAXLEN]) {
    Piles p; p.n = 0;
    for (int i = 0; i < r->ntab; i++)
        if (len[i]) { p.t[p.n] = rel(r, cd[i][len[i] - 1]); p.len[p.n] = len[i]; p.n++; }
    int32_t id = component(r, encode(&p));
    return id < 0 ? -1 : id;
}

/* is the relaxed position (``a``, ``b`` with component ``id``), after its safe moves, in
 * the relaxation's table of lost positions? */
static int xrelaxed_lost(Relaxed *r, uint64_t a, uint64_t b, int32_t id) {
    if (id < 0) return 0;
    b = make_b(b, id);
    if (autoplay(r, &a, &b) < 0) return 0;
    RState k = {a, b};
    return set_has(&r->lost, k);
}

/* is ``s`` lost by the dead-end test or by the relaxation's table?  ``from``: the position
 * it was reached from (NULL for the root).  (A relaxed search from each position's image,
 * of 30 or 300 relaxed positions, cut 10-20% of Czarina positions and almost none in Four
 * Seasons, at 7 to 20 times the cost: not done.) */
static int xcut(Exact *x, const XState *s, const XState *from) {
    uint64_t a, b;
    uint64_t bottoms = x->rx->refill  /* (read only in Czarina) */
        ? xbottoms(x->rx, s->len, (const uint8_t (*)[XMAXLEN])s->c) : NO_BOTTOMS;
    int drained = from && drain_implied(s->sl, s->waste, from->sl, from->waste)
        && (!x->rx->refill
            || xbottoms(x->rx, from->len, (const uint8_t (*)[XMAXLEN])from->c) == bottoms);
    if (xdead(x, s, bottoms, drained, &a, &b)) return 1;
    if (!xcuts(x)) return 0;
    return xrelaxed_lost(x->rx, a, b, xshape_component(x->rx, s->len,
                                                       (const uint8_t (*)[XMAXLEN])s->c));
}

/* pushes a frame for ``s``, whose line part ends at Exact.nline */
static int xpush_frame(Exact *x, const XState *s) {
    if (x->depth == x->scap) {
        size_t cap = x->scap ? x->scap * 2 : 256;
        XFrame *v = realloc(x->stack, cap * sizeof(XFrame));
        if (!v) return -2;
        x->stack = v; x->scap = cap;
    }
    XFrame *f = &x->stack[x->depth];
    f->st = *s;
    f->next = x->nmoves;
    if (xmoves(x, s) < 0) return -2;
    f = &x->stack[x->depth];
    f->end = x->nmoves;
    f->lend = x->nline;
    x->depth++;
    return 0;
}

/* the safe moves from ``s``, made and added to the line */
static int xautoplay(Exact *x, XState *s) {
    XMove m;
    while (xsafe(x, s, &m)) {
        xapply(x, s, &m);
        if (xpush_line(x, m) < 0) return -2;
    }
    return 0;
}

static PyObject *xline(Exact *x) {
    PyObject *out = PyList_New((Py_ssize_t)x->nline);
    if (!out) return NULL;
    for (size_t i = 0; i < x->nline; i++)
        PyList_SET_ITEM(out, (Py_ssize_t)i, Py_BuildValue("(ii)", x->line[i].src, x->line[i].dst));
    return out;
}

static PyObject *xresult(Exact *x) {
    if (x->verdict[0] == 'w') return Py_BuildValue("(sN)", x->verdict, xline(x));
    return Py_BuildValue("(s[])", x->verdict);
}

/* ================================================================ the beam search
 * (docs/solver.md, "Beam"; search._BeamRun is the reference).  Every move but a tableau
 * move raises a position's level, home + 2 * dealt - waste: a deal by one, a card home or
 * the waste onto the tableau by one or two, a refill by two more.  So the positions fall
 * into layers by level.  The layer searched is first filled out by tableau moves (up to
 * BEAM_CLOSURE times the width), then its ``width`` best positions by bscore go on to the
 * layers above, and the layer is forgotten.  The passes from the root go on with a beam
 * ``growth`` times as wide each (twice: docs/solver.md, "Passes twice as wide").  A win
 * is a real line (each position keeps the position it came from and the move, and the
 * line is made again from the root); a pass that dies out proves nothing. */

#define BEAM_LEVELS 160   /* levels: at most 52 home + 2 * 47 dealt */
#define BEAM_CLOSURE 1     /* a layer filled out to the width (ten times: slower, fewer wins) */
#define BEAM_WASTE 60     /* what a waste card costs in the order (a card home: 100) */
#define BEAM_SPREAD 1     /* positions of one skeleton that go on before the others' second */

typedef struct { int32_t parent; XMove m; } BRec;  /* how a position was reached */
typedef struct { XState st; int32_t rec, score; } BLive;
typedef struct { BLive *v; size_t n, cap; XKey *keys; size_t kcap, kn; } BLayer;

struct Beam {
    int width, passes, pass, growth;  /* growth: each pass so many times as wide */
    BRec *recs; size_t nrec, rcap;
    BLayer lay[BEAM_LEVELS];
    int here;                /* the layer searched; -1 before a pass */
    int phase;               /* 0: filling it out by tableau moves; 1: going on from it */
    size_t lo, hi, i;        /* phase 0: the frontier [lo, hi) and its next; phase 1: order */
    size_t norder;           /* the positions of the layer that go on (its first ones) */
    size_t compacted;        /* the records left by the last compaction (bcompact) */
    XState root;             /* after its safe moves */
    uint64_t *skel; size_t scap;  /* bspread: the skeletons met in a layer (0: a free slot) */
    int32_t *taken;               /* and how many of each go on */
    BLive *spare; size_t spcap;   /* and the positions that go on, in their new order */
};

static inline int blevel(const Relaxed *r, const XState *s) {
    int home = 0;
    for (int i = 0; i < r->suits; i++) home += s->h[i];
    return home + 2 * (r->nstock - s->sl) - __builtin_popcountll(s->waste);
}

/* search.Solver.score, less BEAM_WASTE a waste card */
static int32_t bscore(const Relaxed *r, const XState *s) {
    int32_t score = 0;
    for (int su = 0; su < r->suits; su++) {
        score += 100 * s->h[su];
        int h = s->h[su];
        if (h > 0 && h < r->n) {  /* the next card of a foundation begun */
            int card = ((h + r->base - 1) % r->n) * 4 + su, pos = r->stock_pos[card];
            if (pos >= 0 && pos < 64 && (s->waste >> pos & 1))
                score -= 3 * __builtin_popcountll(s->waste & ((1ULL << pos) - 1));
        }
    }
    for (int i = 0; i < r->ntab; i++) if (!s->len[i]) score += 20;
    return score - BEAM_WASTE * __builtin_popcountll(s->waste);
}

static void blayer_free(BLayer *l) {
    big_free(l->v); big_free(l->keys);
    memset(l, 0, sizeof *l);
}

static void bfree(struct Beam *b) {
    if (!b) return;
    for (int i = 0; i < BEAM_LEVELS; i++) blayer_free(&b->lay[i]);
    big_free(b->recs);
    free(b->skel); free(b->taken); free(b->spare);
    free(b);
}

/* adds key ``k`` to layer ``l``'s set: 1 added, 0 present, -2 no memory */
static int blayer_put(BLayer *l, XKey k) {
    if ((l->kn + 1) * 2 > l->kcap) {
        size_t cap = l->kcap ? l->kcap * 2 : 1024;
        XKey *v = big_alloc(cap * sizeof(XKey), 1);
        if (!v) return -2;
        for (size_t j = 0; j < l->kcap; j++)
            if (l->keys[j].w0) *xslot(v, cap, l->keys[j]) = l->keys[j];
        big_free(l->keys);
        l->keys = v; l->kcap = cap;
    }
    XKey *e = xslot(l->keys, l->kcap, k);
    if (e->w0) return 0;
    *e = k;
    l->kn++;
    return 1;
}

/* does layer ``l`` hold key ``k`` (kept, or cut there)? */
static inline int blayer_has(const BLayer *l, XKey k) {
    return l->kcap && xslot(l->keys, l->kcap, k)->w0;
}

/* keeps position ``s``, reached by ``m`` from the position of record ``parent``, in layer
 * ``l``: 1 kept, 0 there already, -2 no memory */
static int bkeep(struct Beam *b, BLayer *l, const XState *s, XKey k, int32_t parent, XMove m) {
    int e = blayer_put(l, k);
    if (e <= 0) return e;
    if (b->nrec == b->rcap) {
        size_t cap = b->rcap ? b->rcap * 2 : 65536;
        BRec *v = big_grow(b->recs, b->rcap * sizeof(BRec), cap * sizeof(BRec));
        if (!v) return -2;
        b->recs = v; b->rcap = cap;
    }
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 256;
        BLive *v = big_grow(l->v, l->cap * sizeof(BLive), cap * sizeof(BLive));
        if (!v) return -2;
        l->v = v; l->cap = cap;
    }
    b->recs[b->nrec].parent = parent;
    b->recs[b->nrec].m = m;
    BLive *e2 = &l->v[l->n++];
    e2->st = *s;
    e2->rec = (int32_t)b->nrec++;
    e2->score = 0;
    return 1;
}

/* the line to record ``rec``, made again from the root with the safe moves, in Exact.line */
static int bline(Exact *x, struct Beam *b, int32_t rec, XMove last) {
    size_t n = 1;
    for (int32_t i = rec; i >= 0; i = b->recs[i].parent) n++;
    XMove *path = malloc(n * sizeof(XMove));
    if (!path) return -2;
    size_t k = n;
    path[--k] = last;
    for (int32_t i = rec; i >= 0; i = b->recs[i].parent) path[--k] = b->recs[i].m;
    /* path[0] is the root's record (no move) */
    x->nline = 0;
    XState s = x->root;
    int err = xautoplay(x, &s);
    for (size_t j = 1; j < n && !err; j++) {
        XMove m = path[j];
        xapply(x, &s, &m);
        if (!(err = xpush_line(x, m))) err = xautoplay(x, &s);
    }
    free(path);
    return err;
}

/* keeps only the records that the positions of the layers above ``here`` were reached
 * through, in their order (a record's parent comes before it), once the records have
 * doubled since the last time: the others lead to positions forgotten */
static int bcompact(struct Beam *b) {
    if (b->nrec < 65536 || b->nrec < 2 * b->compacted) return 0;
    uint8_t *keep = calloc(b->nrec, 1);
    int32_t *to = malloc(b->nrec * sizeof(int32_t));
    if (!keep || !to) { free(keep); free(to); return -2; }
    for (int lv = b->here + 1; lv < BEAM_LEVELS; lv++)
        for (size_t j = 0; j < b->lay[lv].n; j++)
            for (int32_t i = b->lay[lv].v[j].rec; i >= 0 && !keep[i]; i = b->recs[i].parent)
                keep[i] = 1;
    size_t n = 0;
    for (size_t i = 0; i < b->nrec; i++) {
        if (!keep[i]) continue;
        BRec e = b->recs[i];
        if (e.parent >= 0) e.parent = to[e.parent];
        to[i] = (int32_t)n;
        b->recs[n++] = e;
    }
    for (int lv = b->here + 1; lv < BEAM_LEVELS; lv++)
        for (size_t j = 0; j < b->lay[lv].n; j++) b->lay[lv].v[j].rec = to[b->lay[lv].v[j].rec];
    b->nrec = b->compacted = n;
    free(keep); free(to);
    return 0;
}

/* the position that move ``m`` (its foundation filled in) and the safe moves after it
 * make from ``from``, in ``s``; the safe moves are not kept in the line */
static int bchild(Exact *x, const XState *from, XMove *m, XState *s) {
    *s = *from;
    xapply(x, s, m);
    size_t mark = x->nline;
    int err = xautoplay(x, s);
    x->nline = mark;
    return err;
}

/* a child ``s`` (key ``k``) of the position of record ``parent`` (state ``from``), by
 * ``m``, into layer ``l``: cut there (its key kept, so that it is not tried again), or kept */
static int badd(Exact *x, struct Beam *b, BLayer *l, const XState *s, XKey k,
                const XState *from, int32_t parent, XMove m) {
    x->nodes++;
    if (xcut(x, s, from)) return blayer_put(l, k) < 0 ? -2 : 0;
    return bkeep(b, l, s, k, parent, m) < 0 ? -2 : 0;
}

/* has the search spent its node or time budget? */
static inline int bspent(const Exact *x, long long limit, double deadline, int cpu) {
    return (limit >= 0 && x->nodes >= limit) || (deadline >= 0 && now(cpu) >= deadline);
}

/* best first; between equals, the one kept later first (a tableau reached by more moves
 * within its layer, or from a later parent): the beam then tries other arrangements of a
 * skeleton than the first one met (docs/solver.md, "Ties, and most of two seconds in Czarina") */
static int cmp_live(const void *pa, const void *pb) {
    const BLive *a = pa, *b = pb;
    if (a->score != b->score) return a->score > b->score ? -1 : 1;
    return a->rec > b->rec ? -1 : a->rec < b->rec;
}

/* the layer ``l``, sorted best first: its first ``width`` places (those that go on) are
 * given again to the best BEAM_SPREAD of each skeleton (stock, waste, foundations: the
 * positions that differ only in the tableau), then to the best of the others, each part
 * in its order: a beam of many tableaux of one skeleton searches about the same lines
 * many times over (docs/solver.md, "Beam", "One tableau a skeleton").  The places past
 * the width are not read again (the layer is forgotten). */
static int bspread(struct Beam *b, const Relaxed *r, BLayer *l) {
    size_t width = (size_t)b->width;
    if (l->n <= width) return 0;
    size_t cap = 1024;
    while (cap < 2 * l->n) cap <<= 1;
    if (cap > b->scap) {
        free(b->skel); free(b->taken);
        b->skel = malloc(cap * sizeof(uint64_t));
        b->taken = malloc(cap * sizeof(int32_t));
        b->scap = b->skel && b->taken ? cap : 0;
        if (!b->scap) return -2;
    }
    if (width > b->spcap) {
        free(b->spare);
        b->spcap = 0;
        if (!(b->spare = malloc(width * sizeof(BLive)))) return -2;
        b->spcap = width;
    }
    memset(b->skel, 0, cap * sizeof(uint64_t));
    size_t front = 0;
    for (size_t j = 0; j < l->n && front < width; j++) {
        uint64_t k = xskeleton(r, &l->v[j].st);
        size_t i = (size_t)mix64(k) & (cap - 1);
        while (b->skel[i] && b->skel[i] != k) i = (i + 1) & (cap - 1);
        if (!b->skel[i]) { b->skel[i] = k; b->taken[i] = 0; }
        if (b->taken[i] < BEAM_SPREAD) {
            b->taken[i]++;
            b->spare[front++] = l->v[j];
            l->v[j].score = INT32_MIN;  /* (taken: the order is no longer read) */
        }
    }
    for (size_t j = 0; j < l->n && front < width; j++)
        if (l->v[j].score != INT32_MIN) b->spare[front++] = l->v[j];
    memcpy(l->v, b->spare, front * sizeof(BLive));
    return 0;
}

/* starts a pass: the root in its layer; 0, or 1 when no pass is left */
static int bstart(Exact *x, struct Beam *b) {
    if (b->pass >= b->passes) return 1;
    if (b->pass) b->width *= b->growth;
    b->pass++;
    for (int i = 0; i < BEAM_LEVELS; i++) blayer_free(&b->lay[i]);
    b->nrec = b->compacted = 0;
    XKey k;
    if (xkey(x->rx, &b->root, &k) < 0) return 1;
    int lv = blevel(x->rx, &b->root);
    XMove none = {0, 0};
    if (bkeep(b, &b->lay[lv], &b->root, k, -1, none) < 0) return -2;
    b->here = lv; b->phase = 0; b->lo = 0; b->hi = 1; b->i = 0;
    return 0;
}

/* goes on with the beam search until a win, the end of its passes or the budget */
static int beam_search(Exact *x, double deadline, int cpu, long long limit) {
    Relaxed *r = x->rx;
    struct Beam *b = x->beam;
    int checks = 0, err;
    if (b->here < 0) {
        if (xautoplay(x, &b->root) < 0) return -2;
        x->nline = 0;
        if (xwon(r, &b->root)) {
            x->done = 1; x->verdict = "won";
            return bline(x, b, -1, (XMove){0, 0}) < 0 ? -2 : 0;  /* (the root's safe moves) */
        }
        if ((err = bstart(x, b))) { if (err < 0) return err; x->done = 1; return 0; }
    }
    for (;;) {
        BLayer *l = &b->lay[b->here];
        size_t cap = (size_t)BEAM_CLOSURE * (size_t)b->width;
        if (b->phase == 0) {  /* filling the layer out by tableau moves */
            while (b->lo < b->hi && l->n < cap) {
                if (b->i >= b->hi) { b->lo = b->hi; b->hi = l->n; b->i = b->lo; continue; }
                /* (copies: keeping a child may move l->v) */
                XState from = l->v[b->i].st;
                int32_t rec = l->v[b->i++].rec;
                x->nmoves = 0;
                if (xmoves(x, &from) < 0) return -2;
                for (size_t j = 0; j < x->nmoves && l->n < cap; j++) {
                    XMove m = x->moves[j];
                    if (m.src < 0 || m.dst >= XFOUND) continue;  /* not between piles */
                    XState s;
                    XKey k;
                    if (bchild(x, &from, &m, &s) < 0) return -2;
                    if (blevel(r, &s) != b->here) continue;  /* (a refill, or a safe move) */
                    if (xkey(r, &s, &k) < 0 || blayer_has(l, k)) continue;
                    if ((err = badd(x, b, l, &s, k, &from, rec, m)) < 0) return err;
                }
                if (++checks >= 16) {
                    checks = 0;
                    if (bspent(x, limit, deadline, cpu)) return 0;
                }
                if (b->i >= b->hi) { b->lo = b->hi; b->hi = l->n; b->i = b->lo; }
            }
            /* the best of the layer */
            for (size_t j = 0; j < l->n; j++) l->v[j].score = bscore(r, &l->v[j].st);
            qsort(l->v, l->n, sizeof(BLive), cmp_live);
            if ((err = bspread(b, r, l)) < 0) return err;
            b->norder = l->n < (size_t)b->width ? l->n : (size_t)b->width;
            b->phase = 1; b->i = 0;
        }
        while (b->i < b->norder) {  /* going on from the best */
            const BLive *from = &l->v[b->i++];
            x->nmoves = 0;
            if (xmoves(x, &from->st) < 0) return -2;
            for (size_t j = 0; j < x->nmoves; j++) {
                XMove m = x->moves[j];
                XState s;
                XKey k;
                if (bchild(x, &from->st, &m, &s) < 0) return -2;
                int up = blevel(r, &s);
                if (up <= b->here || up >= BEAM_LEVELS) continue;
                if (xwon(r, &s)) {
                    x->nodes++;
                    x->done = 1; x->verdict = "won";
                    return bline(x, b, from->rec, m);
                }
                if (xkey(r, &s, &k) < 0 || blayer_has(&b->lay[up], k)) continue;
                if ((err = badd(x, b, &b->lay[up], &s, k, &from->st, from->rec, m)) < 0)
                    return err;
            }
            if (++checks >= 16) {
                checks = 0;
                if (bspent(x, limit, deadline, cpu)) return 0;
            }
        }
        blayer_free(l);  /* the layer is done: on to the next one that holds positions */
        if ((err = bcompact(b)) < 0) return err;
        int next = b->here + 1;
        while (next < BEAM_LEVELS && !b->lay[next].n) { blayer_free(&b->lay[next]); next++; }
        if (next < BEAM_LEVELS) {
            b->here = next; b->phase = 0; b->lo = 0; b->hi = b->lay[next].n; b->i = 0;
            continue;
        }
        if ((err = bstart(x, b))) { if (err < 0) return err; x->done = 1; return 0; }
    }
}

/* ================================================================ the exact search by
 * tableau components (docs/solver.md, "Compiled exact search", "Components")
 *
 * A tableau move between piles that can be undone (every such move in Four Seasons; in
 * Czarina those that empty no pile) changes neither the stock, nor the waste, nor the
 * foundations, so the positions that differ only by such moves have one outcome.  This
 * mode searches nodes (skeleton, component): the skeleton is the key's first word, and a
 * component is every tableau those moves connect, numbered once for the whole search (its
 * members are a function of the tableau alone).  A node's moves are the other moves, made
 * from any member: deal, waste home, a card home, the waste onto the tableau and, in
 * Czarina, a move that empties a pile (then refilled from the stock).  Their results are
 * cached by component.  A won line is rebuilt at the end, the moves inside each component
 * found by a breadth-first search over real tableaux.
 */

#define CK_HOME 0   /* a tableau card home */
#define CK_ADD 1    /* the waste top onto the tableau */
#define CK_EMPTY 2  /* Czarina: a pile's only card onto another pile */
#define E_DEAL 3
#define E_WHOME 4

typedef struct { TKey k; int32_t v1; } CEntry;  /* v1 = component id + 1; 0: a free slot */
typedef struct { TKey k; int32_t comp; uint8_t emptied; } CRes;
typedef struct { uint64_t key; size_t first; int32_t count; } CExit;  /* key 0: free */
typedef struct {
    size_t first; int32_t count; int32_t rxc; uint64_t tops; uint32_t mark;
    uint64_t bottoms;  /* its piles' bottoms (xbottoms), NO_BOTTOMS until asked */
    TKey canon;        /* its least member: the same whenever it is numbered */
    uint32_t used;     /* CSearch.tick when last expanded or reached (for cflush) */
} CComp;
typedef struct { uint64_t w0; int32_t comp; uint8_t kind, card; } CNode;  /* child + edge */
typedef struct { uint8_t kind, card; int32_t target; } CEdge;
typedef struct { CNode node; size_t next, end, lend; } CFrame;
typedef struct { uint32_t gen, idx; } LSlot;  /* a member of the component being enumerated */

struct CSearch {
    CEntry *map; size_t mcap, mcount;      /* tableau -> component */
    TKey *members; size_t nmem, memcap;
    CComp *comps; size_t ncomps, compcap;
    CExit *exits; size_t ecap, ecount;
    CRes *res; size_t nres, rescap;
    CNode *kids; size_t nkids, kidcap;
    CEdge *edges; size_t nedges, edgecap;
    CFrame *stack; size_t depth, scap;
    uint64_t *nodes; size_t ncap, ncount, nmax;  /* the table of nodes seen: (w0, comp) */
    size_t max_members;
    uint32_t serial;  /* numbers cexits' calls, for CComp.mark */
    LSlot *lset; size_t lcap; uint32_t lgen;  /* the component being enumerated (ccomp) */
    uint32_t tick;    /* numbers the nodes expanded, for CComp.used */
};

#define GROW(ptr, n, cap, T, first) do { \
        if ((n) == (cap)) { \
            size_t c_ = (cap) ? (cap) * 2 : (first); \
            T *v_ = big_grow((ptr), (cap) * sizeof(T), c_ * sizeof(T)); \
            if (!v_) return -2; \
            (ptr) = v_; (cap) = c_; \
        } } while (0)

static inline size_t thash(TKey k) { return (size_t)mix64(k.a ^ mix64(k.b + 0x9e3779b97f4a7c15ULL)); }

static int32_t cmap_get(const CSearch *c, TKey k) {
    size_t m = c->mcap - 1, i = thash(k) & m;
    for (;;) {
        const CEntry *e = &c->map[i];
        if (!e->v1) return -1;
        if (e->k.a == k.a && e->k.b == k.b) return e->v1 - 1;
        i = (i + 1) & m;
    }
}

static int cmap_put(CSearch *c, TKey k, int32_t v) {
    if ((c->mcount + 1) * 10 > c->mcap * 7) {
        size_t ocap = c->mcap;
        CEntry *old = c->map;
        CEntry *nm = big_alloc(ocap * 2 * sizeof(CEntry), 1);
        if (!nm) return -2;
        c->map = nm; c->mcap = ocap * 2; c->mcount = 0;
        for (size_t i = 0; i < ocap; i++) if (old[i].v1) cmap_put(c, old[i].k, old[i].v1 - 1);
        big_free(old);
    }
    size_t m = c->mcap - 1, i = thash(k) & m;
    for (;;) {
        CEntry *e = &c->map[i];
        if (!e->v1) { e->k = k; e->v1 = v + 1; c->mcount++; return 0; }
        i = (i + 1) & m;
    }
}

static inline void cmap_prefetch(const CSearch *c, TKey k) {
    __builtin_prefetch(&c->map[thash(k) & (c->mcap - 1)]);
}

/* the reversible moves of a tableau given as codes: (from, to) pairs */
static int crev_codes(const Relaxed *r, const uint64_t *code, int (*out)[2]) {
    int k = 0, n = r->ntab, space = -1, top[MAXTAB];
    for (int j = 0; j < n; j++) {
        top[j] = code[j] ? rel(r, ptop(r, code[j])) : -9;
        if (space < 0 && r->space_any && !code[j]) space = j;
    }
    for (int i = 0; i < n; i++) {
        int L = PLEN(code[i]);
        if (!L || (!r->space_any && L < 2)) continue;
        for (int j = 0; j < n; j++)
            if (j != i && top[j] == top[i] + 1) { out[k][0] = i; out[k][1] = j; k++; }
        if (space >= 0 && L > 1) { out[k][0] = i; out[k][1] = space; k++; }
    }
    return k;
}

/* The set of the members found so far of the component being enumerated: slots of the
 * current generation hold a member's index from ``first``.  It stays small (twice the
 * component) and so mostly in the processor's caches, where looking each neighbour up in
 * the map of every tableau numbered (tens of megabytes) missed them nearly every time;
 * the map then only takes the members, once, its slots fetched ahead. */
static inline LSlot *lslot(const CSearch *c, size_t first, TKey k) {
    size_t m = c->lcap - 1, i = thash(k) & m;
    for (;;) {
        LSlot *e = &c->lset[i];
        if (e->gen != c->lgen) return e;
        const TKey *o = &c->members[first + e->idx];
        if (o->a == k.a && o->b == k.b) return e;
        i = (i + 1) & m;
    }
}

/* room in the set for one more member: 0, or -2 out of memory */
static int lset_room(CSearch *c, size_t first) {
    size_t n = c->nmem - first;
    if ((n + 1) * 2 <= c->lcap) return 0;
    size_t cap = c->lcap ? c->lcap * 2 : 4096;
    LSlot *v = calloc(cap, sizeof(LSlot));
    if (!v) return -2;
    free(c->lset);
    c->lset = v; c->lcap = cap; c->lgen = 1;
    for (size_t q = 0; q < n; q++) {
        LSlot *e = lslot(c, first, c->members[first + q]);
        e->gen = 1; e->idx = (uint32_t)q;
    }
    return 0;
}

/* the component of a tableau, numbered (and its members enumerated) when new: its id, -1
 * when it is too large (the search gives up), -2 out of memory.  A tableau's neighbours
 * (by moves that can be undone) are in its component, so a tableau not numbered yet has
 * none numbered either: the enumeration looks them up in its own set alone. */
static int32_t ccomp(CSearch *c, const Relaxed *r, TKey k) {
    int32_t id = cmap_get(c, k);
    if (id >= 0) return id;
    GROW(c->comps, c->ncomps, c->compcap, CComp, 1024);
    id = (int32_t)c->ncomps;
    size_t first = c->nmem;
    if (!c->lset && lset_room(c, first) < 0) return -2;
    if (++c->lgen == 0) { memset(c->lset, 0, c->lcap * sizeof(LSlot)); c->lgen = 1; }
    GROW(c->members, c->nmem, c->memcap, TKey, 4096);
    c->members[c->nmem++] = k;
    LSlot *e0 = lslot(c, first, k);
    e0->gen = c->lgen; e0->idx = 0;
    uint64_t tops = 0;
    for (size_t q = first; q < c->nmem; q++) {
        uint64_t code[MAXTAB];
        tunpack(r, c->members[q], code);
        for (int i = 0; i < r->ntab; i++) if (code[i]) tops |= 1ULL << ptop(r, code[i]);
        int mv[MAXTAB * MAXTAB][2];
        int nm = crev_codes(r, code, mv);
        TKey nk[MAXTAB * MAXTAB];
        for (int t = 0; t < nm; t++) {  /* the neighbours' keys */
            uint64_t u[MAXTAB];
            memcpy(u, code, sizeof u);
            int i = mv[t][0], j = mv[t][1];
            u[j] = ppush(u[j], ptop(r, u[i]));
            u[i] = ppop(u[i]);
            if (tpack(r, u, &nk[t]) < 0) return -1;
        }
        for (int t = 0; t < nm; t++) {
            LSlot *e = lslot(c, first, nk[t]);
            if (e->gen == c->lgen) continue;
            if (c->nmem >= c->max_members) return -1;
            GROW(c->members, c->nmem, c->memcap, TKey, 4096);
            c->members[c->nmem++] = nk[t];
            e->gen = c->lgen; e->idx = (uint32_t)(c->nmem - 1 - first);
            if (lset_room(c, first) < 0) return -2;
        }
    }
    size_t n = c->nmem - first;
    for (size_t q = 0; q < n; q++) {  /* into the map, each slot fetched eight members ahead */
        if (q + 8 < n) cmap_prefetch(c, c->members[first + q + 8]);
        if (cmap_put(c, c->members[first + q], id) < 0) return -2;
    }
    TKey least = c->members[first];
    for (size_t q = first + 1; q < c->nmem; q++) {
        TKey m = c->members[q];
        if (m.a < least.a || (m.a == least.a && m.b < least.b)) least = m;
    }
    c->comps[id].canon = least;
    c->comps[id].first = first;
    c->comps[id].count = (int32_t)n;
    c->comps[id].tops = tops;
    c->comps[id].rxc = -2;  /* not asked yet */
    c->comps[id].bottoms = NO_BOTTOMS;
    c->comps[id].mark = 0;
    c->comps[id].used = c->tick;
    c->ncomps++;
    return id;
}

static int cres_push(CSearch *c, TKey k, int32_t comp, int emptied) {
    GROW(c->res, c->nres, c->rescap, CRes, 4096);
    c->res[c->nres].k = k; c->res[c->nres].comp = comp; c->res[c->nres].emptied = (uint8_t)emptied;
    c->nres++;
    return 0;
}

/* the tableaux that one kind of move (with ``card``, of relative rank ``crk``) makes from
 * the tableau ``member``, into ``nk`` (their slots in the map fetched), with whether each
 * emptied a pile; their number, or -1 (a key too large) */
static int cmember_results(const CSearch *c, const Relaxed *r, TKey member, int kind,
                           int card, int crk, TKey *nk, int *emptied) {
    uint64_t code[MAXTAB];
    tunpack(r, member, code);
    int top[MAXTAB];
    for (int a = 0; a < r->ntab; a++) top[a] = code[a] ? rel(r, ptop(r, code[a])) : -9;
    int nr = 0;
    for (int a = 0; a < r->ntab; a++) {
        int L = PLEN(code[a]);
        int results[MAXTAB + 1][2], na = 0;  /* (pile taking a card, pile giving one) */
        if (kind == CK_HOME) {
            if (L && ptop(r, code[a]) == card) { results[0][0] = -1; results[0][1] = a; na = 1; }
        } else if (kind == CK_ADD) {
            if (L && top[a] == crk + 1) { results[0][0] = a; results[0][1] = -1; na = 1; }
            else if (!L && r->space_any) {
                int first_space = a;
                for (int b = 0; b < a; b++) if (!code[b]) first_space = -1;
                if (first_space >= 0) { results[0][0] = a; results[0][1] = -1; na = 1; }
            }
        } else if (L == 1) {  /* CK_EMPTY */
            int brk = rel(r, (int)((code[a] >> 52) & 63));
            for (int b = 0; b < r->ntab; b++)
                if (b != a && top[b] == brk + 1) { results[na][0] = b; results[na][1] = a; na++; }
        }
        for (int t = 0; t < na; t++) {
            int to = results[t][0], from = results[t][1];
            uint64_t u[MAXTAB];
            memcpy(u, code, sizeof u);
            if (from >= 0 && to >= 0) { u[to] = ppush(u[to], ptop(r, u[from])); u[from] = ppop(u[from]); }
            else if (from >= 0) u[from] = ppop(u[from]);
            else u[to] = ppush(u[to], card);
            emptied[nr] = from >= 0 && !u[from] && !r->space_any;
            if (tpack(r, u, &nk[nr]) < 0) return -1;
            cmap_prefetch(c, nk[nr]);
            nr++;
        }
    }
    return nr;
}

/* the results of one kind of move (with ``card``) from any member of component ``id``,
 * one per resulting component; cached */
static int cexits(CSearch *c, const Relaxed *r, int32_t id, int kind, int card, CExit **out) {
    uint64_t key = ((uint64_t)id << 10 | (uint64_t)kind << 7 | (uint64_t)card) + 1;
    size_t m = c->ecap - 1, i = (size_t)mix64(key) & m;
    for (;;) {
        if (!c->exits[i].key) break;
        if (c->exits[i].key == key) { *out = &c->exits[i]; return 0; }
        i = (i + 1) & m;
    }
    size_t first = c->nres;
    size_t mfirst = c->comps[id].first;
    int32_t count = c->comps[id].count;
    uint32_t serial = ++c->serial;
    int crk = card >= 0 ? rel(r, card) : 0;
    /* one member behind: a member's results are looked up in the map while the next
     * member's are made, their slots fetched meanwhile */
    TKey nks[2][MAXTAB * MAXTAB];
    int emptieds[2][MAXTAB * MAXTAB], nrs[2] = {0, 0};
    for (int32_t q = 0; q <= count; q++) {
        if (q < count) {  /* member q's results */
            int nr = cmember_results(c, r, c->members[mfirst + (size_t)q], kind, card, crk,
                                     nks[q & 1], emptieds[q & 1]);
            if (nr < 0) return -1;
            nrs[q & 1] = nr;
        }
        if (q == 0) continue;
        const TKey *pk = nks[(q - 1) & 1];
        const int *pe = emptieds[(q - 1) & 1];
        for (int t = 0; t < nrs[(q - 1) & 1]; t++) {
            int32_t rc = ccomp(c, r, pk[t]);
            if (rc < 0) return rc;
            c->comps[rc].used = c->tick;
            if (c->comps[rc].mark == serial) continue;  /* that component is a result already */
            c->comps[rc].mark = serial;
            if (cres_push(c, pk[t], rc, pe[t]) < 0) return -2;
        }
    }
    if (c->nres - first > 0 && c->nres > c->max_members * 2) return -1;
    if ((c->ecount + 1) * 10 > c->ecap * 7) {  /* grow the cache */
        size_t ocap = c->ecap;
        CExit *old = c->exits;
        CExit *ne = big_alloc(ocap * 2 * sizeof(CExit), 1);
        if (!ne) return -2;
        c->exits = ne; c->ecap = ocap * 2;
        for (size_t z = 0; z < ocap; z++) if (old[z].key) {
            size_t mm = c->ecap - 1, j = (size_t)mix64(old[z].key) & mm;
            while (c->exits[j].key) j = (j + 1) & mm;
            c->exits[j] = old[z];
        }
        big_free(old);
        m = c->ecap - 1; i = (size_t)mix64(key) & m;
        while (c->exits[i].key) i = (i + 1) & m;
    }
    c->exits[i].key = key; c->exits[i].first = first; c->exits[i].count = (int32_t)(c->nres - first);
    c->ecount++;
    *out = &c->exits[i];
    return 0;
}

static inline void cskel(const Relaxed *r, uint64_t w0, XState *s) {
    uint64_t low = w0 & ((1ULL << 48) - 1);
    int sl = __builtin_ctzll(low);
    s->sl = (int8_t)sl;
    s->waste = (low ^ (1ULL << sl)) >> 1;
    for (int i = 0; i < r->suits; i++) s->h[i] = (uint8_t)((w0 >> (48 + 4 * i)) & 15);
}

static inline int cnext_card(const Relaxed *r, int suit, int h) {  /* rel h of the suit */
    return ((h + r->base - 1) % r->n) * 4 + suit;
}

/* a result's component after Czarina's refill (the stock's top into the emptied pile) */
static int32_t crefill(CSearch *c, const Relaxed *r, const CRes *res, XState *s) {
    if (!res->emptied || !r->refill || s->sl <= 0) return res->comp;
    uint64_t code[MAXTAB];
    tunpack(r, res->k, code);
    for (int i = 0; i < r->ntab; i++)
        if (!code[i]) { code[i] = ppush(0, r->stock[s->sl - 1]); break; }
    s->sl--;
    TKey k;
    if (tpack(r, code, &k) < 0) return -1;
    return ccomp(c, r, k);
}

static int cedge(CSearch *c, int kind, int card, int32_t target) {
    GROW(c->edges, c->nedges, c->edgecap, CEdge, 1024);
    c->edges[c->nedges].kind = (uint8_t)kind;
    c->edges[c->nedges].card = (uint8_t)card;
    c->edges[c->nedges].target = target;
    c->nedges++;
    return 0;
}

/* the safe moves of a node (keys.make_safe, from any member), made, with their edges */
static int cauto(CSearch *c, const Relaxed *r, CNode *nd) {
    XState s;
    cskel(r, nd->w0, &s);
    for (;;) {
        int low = 99;
        for (int i = 0; i < r->suits; i++) if (s.h[i] < low) low = s.h[i];
        int w = s.waste ? r->stock[__builtin_ctzll(s.waste)] : -1;
        if (w >= 0 && rel(r, w) <= low && s.h[w & 3] == rel(r, w)) {
            s.waste &= s.waste - 1; s.h[w & 3]++;
            if (cedge(c, E_WHOME, w, nd->comp) < 0) return -2;
            continue;
        }
        int done = 0;
        for (int su = 0; su < r->suits && !done; su++) {
            if (s.h[su] != low || low >= r->n) continue;
            int card = cnext_card(r, su, low);
            if (!(c->comps[nd->comp].tops >> card & 1)) continue;
            CExit *ex;
            int e = cexits(c, r, nd->comp, CK_HOME, card, &ex);
            if (e < 0) return e;
            for (int32_t z = 0; z < ex->count; z++) {
                CRes *res = &c->res[ex->first + (size_t)z];
                if (res->emptied && r->refill && s.sl > 0) continue;  /* a refill follows */
                s.h[su]++;
                nd->comp = res->comp;
                if (cedge(c, CK_HOME, card, nd->comp) < 0) return -2;
                done = 1;
                break;
            }
        }
        if (!done) break;
    }
    nd->w0 = xskeleton(r, &s);
    return 0;
}

static int ckid(CSearch *c, uint64_t w0, int32_t comp, int kind, int card) {
    GROW(c->kids, c->nkids, c->kidcap, CNode, 4096);
    CNode *k = &c->kids[c->nkids++];
    k->w0 = w0; k->comp = comp; k->kind = (uint8_t)kind; k->card = (uint8_t)card;
    return 0;
}

/* a node's moves, in search.py's order: home, from the waste, Czarina's emptying moves,
 * deal */
static int ckids(CSearch *c, const Relaxed *r, const CNode *nd) {
    XState s;
    cskel(r, nd->w0, &s);
    c->comps[nd->comp].used = ++c->tick;
    int w = s.waste ? r->stock[__builtin_ctzll(s.waste)] : -1;
    if (w >= 0 && s.h[w & 3] == rel(r, w)) {
        XState t = s; t.waste &= t.waste - 1; t.h[w & 3]++;
        if (ckid(c, xskeleton(r, &t), nd->comp, E_WHOME, w) < 0) return -2;
    }
    for (int su = 0; su < r->suits; su++) {
        if (s.h[su] >= r->n) continue;
        int card = cnext_card(r, su, s.h[su]);
        if (!(c->comps[nd->comp].tops >> card & 1)) continue;
        CExit *ex;
        int e = cexits(c, r, nd->comp, CK_HOME, card, &ex);
        if (e < 0) return e;
        size_t first = ex->first; int32_t count = ex->count;
        for (int32_t z = 0; z < count; z++) {
            XState t = s; t.h[su]++;
            CRes res = c->res[first + (size_t)z];
            int32_t rc = crefill(c, r, &res, &t);
            if (rc < 0) return rc;
            if (ckid(c, xskeleton(r, &t), rc, CK_HOME, card) < 0) return -2;
        }
    }
    if (w >= 0) {
        CExit *ex;
        int e = cexits(c, r, nd->comp, CK_ADD, w, &ex);
        if (e < 0) return e;
        size_t first = ex->first; int32_t count = ex->count;
        for (int32_t z = 0; z < count; z++) {
            XState t = s; t.waste &= t.waste - 1;
            if (ckid(c, xskeleton(r, &t), c->res[first + (size_t)z].comp, CK_ADD, w) < 0) return -2;
        }
    }
    if (r->refill) {
        CExit *ex;
        int e = cexits(c, r, nd->comp, CK_EMPTY, 0, &ex);
        if (e < 0) return e;
        size_t first = ex->first; int32_t count = ex->count;
        for (int32_t z = 0; z < count; z++) {
            XState t = s;
            CRes res = c->res[first + (size_t)z];
            int32_t rc = crefill(c, r, &res, &t);
            if (rc < 0) return rc;
            if (ckid(c, xskeleton(r, &t), rc, CK_EMPTY, 0) < 0) return -2;
        }
    }
    if (s.sl > 0) {
        XState t = s; t.sl--; t.waste |= 1ULL << t.sl;
        if (ckid(c, xskeleton(r, &t), nd->comp, E_DEAL, 0) < 0) return -2;
    }
    return 0;
}

/* ------------------------------------------------ rebuilding a won line */

typedef struct { XState st; int32_t parent; XMove via; } CB;  /* a breadth-first entry */

/* the final move of an edge from the real position ``t``, if one leads to ``target``:
 * 1 and the move (made on ``t``) */
static int cfinal(Exact *x, CSearch *c, XState *t, const CEdge *e, XMove *out) {
    const Relaxed *r = x->rx;
    int n = r->ntab;
    XMove cand[MAXTAB * MAXTAB];
    int k = 0;
    if (e->kind == CK_HOME) {
        for (int i = 0; i < n; i++)
            if (t->len[i] && t->c[i][t->len[i] - 1] == e->card) { cand[k].src = (int8_t)i; cand[k].dst = XFOUND; k++; }
    } else if (e->kind == CK_ADD) {
        int space_done = 0;
        for (int j = 0; j < n; j++) {
            if (t->len[j] && rel(r, t->c[j][t->len[j] - 1]) == rel(r, e->card) + 1) {
                cand[k].src = -1; cand[k].dst = (int8_t)j; k++;
            } else if (!t->len[j] && r->space_any && !space_done) {
                space_done = 1; cand[k].src = -1; cand[k].dst = (int8_t)j; k++;
            }
        }
    } else {  /* CK_EMPTY */
        for (int i = 0; i < n; i++) {
            if (t->len[i] != 1) continue;
            for (int j = 0; j < n; j++)
                if (j != i && t->len[j] && rel(r, t->c[j][t->len[j] - 1]) == rel(r, t->c[i][0]) + 1) {
                    cand[k].src = (int8_t)i; cand[k].dst = (int8_t)j; k++;
                }
        }
    }
    for (int q = 0; q < k; q++) {
        XState u = *t;
        XMove m = cand[q];
        xapply(x, &u, &m);
        TKey tk;
        if (tkey(r, u.len, (const uint8_t (*)[XMAXLEN])u.c, &tk) < 0) continue;
        if (cmap_get(c, tk) == e->target) { *t = u; *out = m; return 1; }
    }
    return 0;
}

/* the real moves of the won line: x->line, from the edges */
static int crebuild(Exact *x, CSearch *c) {
    const Relaxed *r = x->rx;
    XState cur = x->root;
    x->nline = 0;
    CB *q = NULL; size_t nq = 0, qcap = 0;
    StateSet seen = {0};
    int err = 0;
    for (size_t ei = 0; ei < c->nedges && !err; ei++) {
        const CEdge *e = &c->edges[ei];
        XMove m;
        if (e->kind == E_DEAL || e->kind == E_WHOME) {
            m.src = e->kind == E_DEAL ? -2 : -1;
            m.dst = e->kind == E_DEAL ? -1 : XFOUND;
            xapply(x, &cur, &m);
            if (xpush_line(x, m) < 0) err = -2;
            continue;
        }
        /* breadth first over the real tableaux of cur's component */
        nq = 0;
        big_free(seen.slots);
        if (set_init(&seen, 1024) < 0) { err = -2; break; }
        if (nq == qcap) { qcap = qcap ? qcap * 2 : 1024; CB *v = realloc(q, qcap * sizeof(CB)); if (!v) { err = -2; break; } q = v; }
        q[nq].st = cur; q[nq].parent = -1; nq++;
        TKey tk;
        tkey(r, cur.len, (const uint8_t (*)[XMAXLEN])cur.c, &tk);
        RState sk = {tk.a, tk.b};
        if (set_add(&seen, sk) < 0) { err = -2; break; }
        int found = -1;
        XMove fin;
        XState after;
        for (size_t h = 0; h < nq && found < 0; h++) {
            XState t = q[h].st;
            if (cfinal(x, c, &t, e, &fin)) { found = (int)h; after = t; break; }
            int mv[MAXTAB * MAXTAB][2];
            uint64_t code[MAXTAB];
            for (int i = 0; i < r->ntab; i++) code[i] = pcode(q[h].st.c[i], q[h].st.len[i]);
            int nm = crev_codes(r, code, mv);
            for (int z = 0; z < nm; z++) {
                XState u = q[h].st;
                int i = mv[z][0], j = mv[z][1];
                u.c[j][u.len[j]++] = u.c[i][--u.len[i]];
                tkey(r, u.len, (const uint8_t (*)[XMAXLEN])u.c, &tk);
                RState k2 = {tk.a, tk.b};
                int added = set_add(&seen, k2);
                if (added < 0) { err = -2; break; }
                if (!added) continue;
                if (nq == qcap) { qcap *= 2; CB *v = realloc(q, qcap * sizeof(CB)); if (!v) { err = -2; break; } q = v; }
                q[nq].st = u; q[nq].parent = (int32_t)h;
                q[nq].via.src = (int8_t)mv[z][0]; q[nq].via.dst = (int8_t)mv[z][1];
                nq++;
            }
            if (err) break;
        }
        if (err) break;
        if (found < 0) { err = -4; break; }  /* cannot happen: the search found this edge */
        size_t mark = x->nline;
        for (int32_t h = found; q[h].parent >= 0; h = q[h].parent)
            if (xpush_line(x, q[h].via) < 0) { err = -2; break; }
        /* the path was pushed last move first: turn it round */
        for (size_t a = mark, b = x->nline; a + 1 < b; a++, b--) {
            XMove tmp = x->line[a]; x->line[a] = x->line[b - 1]; x->line[b - 1] = tmp;
        }
        if (!err && xpush_line(x, fin) < 0) err = -2;
        cur = after;
    }
    free(q); big_free(seen.slots);
    return err;
}

/* ------------------------------------------------ the search */

static int cframe(Exact *x, CSearch *c, const CNode *nd) {
    GROW(c->stack, c->depth, c->scap, CFrame, 256);
    size_t from = c->nkids;
    int e = ckids(c, x->rx, nd);
    if (e < 0) return e;
    if (x->restarts) {  /* after a restart: the children shuffled, the deal kept last */
        size_t end = c->nkids;
        if (end > from && c->kids[end - 1].kind == E_DEAL) end--;
        for (size_t i = end; i > from + 1; i--) {
            size_t j = from + (size_t)(xorshift64(&x->rng) % (i - from));
            CNode t = c->kids[i - 1]; c->kids[i - 1] = c->kids[j]; c->kids[j] = t;
        }
    }
    CFrame *f = &c->stack[c->depth++];
    f->node = *nd; f->next = from; f->end = c->nkids; f->lend = c->nedges;
    return 0;
}

/* the piles' bottoms of component ``id`` (Czarina; NO_BOTTOMS elsewhere), which its
 * members share */
static uint64_t cbottoms(CSearch *c, const Relaxed *r, int32_t id) {
    CComp *cc = &c->comps[id];
    if (cc->bottoms == NO_BOTTOMS && r->refill) {
        uint8_t len[MAXTAB], cd[MAXTAB][XMAXLEN];
        tdecode(r, c->members[cc->first], len, cd);
        cc->bottoms = xbottoms(r, len, (const uint8_t (*)[XMAXLEN])cd);
    }
    return cc->bottoms;
}

/* is the node lost by the dead-end test or the relaxation's table?  ``from``: the node it
 * was reached from (NULL for the root) */
static int ccut(Exact *x, CSearch *c, const CNode *nd, const CNode *from) {
    Relaxed *r = x->rx;
    XState s;
    cskel(r, nd->w0, &s);  /* (the stock, the waste and the foundations only) */
    uint64_t a, b, bottoms = cbottoms(c, r, nd->comp);
    int drained = 0;
    if (from) {
        XState p;
        cskel(r, from->w0, &p);
        drained = drain_implied(s.sl, s.waste, p.sl, p.waste)
            && cbottoms(c, r, from->comp) == bottoms;
    }
    CComp *cc = &c->comps[nd->comp];
    if (xdead(x, &s, bottoms, drained, &a, &b)) return 1;
    if (!xcuts(x)) return 0;
    if (cc->rxc == -2) {  /* the relaxed component: that of any member's shape */
        uint8_t len[MAXTAB], cd[MAXTAB][XMAXLEN];
        tdecode(r, c->members[cc->first], len, cd);
        cc->rxc = xshape_component(r, len, (const uint8_t (*)[XMAXLEN])cd);
    }
    return xrelaxed_lost(r, a, b, cc->rxc);
}

static inline int cwon(const Relaxed *r, uint64_t w0) {
    for (int i = 0; i < r->suits; i++) if ((int)((w0 >> (48 + 4 * i)) & 15) != r->n) return 0;
    return 1;
}

/* a node's key in the table of nodes seen: its skeleton and its component's least member,
 * which stay the same when the tables of components are emptied and numbered again */
static inline XKey cnkey(const CSearch *c, const CNode *nd) {
    TKey t = c->comps[nd->comp].canon;
    XKey k = {nd->w0, t.a, t.b};
    return k;
}

/* 1 added, 0 seen, <0 error; empties a full table (the stack's nodes put back) */
static int cseen(Exact *x, CSearch *c, const CNode *nd) {
    int e = xtable_room(x);
    if (e < 0) return e;
    if (e == 1)
        for (size_t i = 0; i < c->depth; i++) xtable_put(x, cnkey(c, &c->stack[i].node));
    return xtable_put(x, cnkey(c, nd));
}

static int csearch_won(Exact *x, CSearch *c) {
    int e = crebuild(x, c);
    if (e < 0) return e;
    x->done = 1;
    x->verdict = "won";
    return 0;
}

/* empties the tables of components down to those the search used last: the components
 * that the stack, its pending children and the line's edges hold, then the most recently
 * expanded or reached, while their members fit in CKEEP of the room.  The kept ones are
 * numbered again in order (their members moved down, the map of tableaux rebuilt), and
 * the cache of moves' results is emptied.  The table of nodes seen stays: a node's key
 * there names its component by the component's least member, not by its id.  A flush
 * costs enumerating again the components that come back later.  -1 when the stack's own
 * components fill half the room (the search gives up). */
#define CKEEP 4  /* keeps up to a quarter of the room */
#define CAGES 4096
static int cflush(Exact *x, CSearch *c) {
    size_t n = c->ncomps;
    int32_t *remap = malloc((n ? n : 1) * sizeof(int32_t));
    if (!remap) return -2;
    for (size_t i = 0; i < n; i++) remap[i] = -1;
    size_t must = 0;
#define CMUST(id) do { if (remap[id] < 0) { remap[id] = 0; must += (size_t)c->comps[id].count; } } while (0)
    for (size_t i = 0; i < c->depth; i++) CMUST(c->stack[i].node.comp);
    for (size_t i = 0; i < c->nkids; i++) CMUST(c->kids[i].comp);
    for (size_t i = 0; i < c->nedges; i++) CMUST(c->edges[i].target);
#undef CMUST
    if (must > c->max_members / 2) { free(remap); return -1; }
    size_t room = c->max_members / CKEEP;
    /* the components by age (ticks since last used, in CAGES bands), newest first while
     * they fit in the room beside those that must stay */
    uint32_t oldest = c->tick;
    for (size_t i = 0; i < n; i++) if (c->comps[i].used < oldest) oldest = c->comps[i].used;
    uint64_t span = (uint64_t)(c->tick - oldest) + 1;
    size_t *hist = calloc(CAGES, sizeof(size_t));
    if (!hist) { free(remap); return -2; }
#define CAGE(i) ((size_t)((uint64_t)(c->tick - c->comps[i].used) * CAGES / span))
    for (size_t i = 0; i < n; i++) if (remap[i] < 0) hist[CAGE(i)] += (size_t)c->comps[i].count;
    size_t kept = must, bands = 0;
    while (bands < CAGES && kept + hist[bands] <= room) kept += hist[bands++];
    free(hist);
    size_t nm = 0;
    int32_t nid = 0;
    for (size_t i = 0; i < n; i++) {
        if (remap[i] < 0 && CAGE(i) >= bands) continue;
        CComp cc = c->comps[i];
        memmove(&c->members[nm], &c->members[cc.first], (size_t)cc.count * sizeof(TKey));
        cc.first = nm;
        cc.mark = 0;
        nm += (size_t)cc.count;
        c->comps[nid] = cc;
        remap[i] = nid++;
    }
#undef CAGE
    c->nmem = nm;
    c->ncomps = (size_t)nid;
    c->serial = 0;
    memset(c->map, 0, c->mcap * sizeof(CEntry));
    c->mcount = 0;
    for (int32_t id = 0; id < nid; id++) {
        const CComp *cc = &c->comps[id];
        for (size_t q = cc->first; q < cc->first + (size_t)cc->count; q++) {
            if (q + 8 < nm) cmap_prefetch(c, c->members[q + 8]);
            if (cmap_put(c, c->members[q], id) < 0) { free(remap); return -2; }
        }
    }
    memset(c->exits, 0, c->ecap * sizeof(CExit));
    c->ecount = c->nres = 0;
    for (size_t i = 0; i < c->depth; i++) c->stack[i].node.comp = remap[c->stack[i].node.comp];
    for (size_t i = 0; i < c->nkids; i++) c->kids[i].comp = remap[c->kids[i].comp];
    for (size_t i = 0; i < c->nedges; i++) c->edges[i].target = remap[c->edges[i].target];
    free(remap);
    x->cflushes++;
    x->ckept = nm;
    return 0;
}

/* the root node pushed (the first time, or after a restart): 0, or a negative error */
static int cstart(Exact *x, CSearch *c) {
    Relaxed *r = x->rx;
    int e;
    x->started = 1;
    TKey tk;
    if (tkey(r, x->root.len, (const uint8_t (*)[XMAXLEN])x->root.c, &tk) < 0) return -1;
    CNode nd;
    nd.w0 = xskeleton(r, &x->root);
    if ((nd.comp = ccomp(c, r, tk)) < 0) return nd.comp;
    if ((e = cauto(c, r, &nd)) < 0) return e;
    if (cwon(r, nd.w0)) return csearch_won(x, c);
    if ((e = cseen(x, c, &nd)) < 0) return e;
    x->nodes++;
    if (ccut(x, c, &nd, NULL)) { x->done = 1; x->verdict = "lost"; return 0; }
    return cframe(x, c, &nd);
}

/* A restart: the search begins again from the root, its children in another order.  The
 * nodes on the stack leave the table of nodes seen, which then holds only nodes searched
 * whole without a win (the graph is acyclic), so they are still skipped: the search stays
 * exhaustive, and each restart costs only the descent back.  Once the table of nodes seen
 * has been emptied (full, down to its half nearest the opening) there are no more
 * restarts: part of the work before would be lost, and only the depth-first order keeps
 * track of what is searched.  Emptying the tables of components (cflush) leaves that
 * table, so the restarts go on. */
static int crestart(Exact *x, CSearch *c) {
    for (size_t i = 0; i < c->depth; i++) xtable_del(x, cnkey(c, &c->stack[i].node));
    c->depth = c->nkids = c->nedges = 0;
    x->restarts++;
    x->next_restart = x->nodes + x->restart_unit * luby(x->restarts + 1);
    return cstart(x, c);
}

/* the component mode of Exact.search: 0, or a negative error (-1: gave up, a component or
 * a key too large) */
static int csearch(Exact *x, double deadline, int cpu, long long limit) {
    CSearch *c = x->cs;
    Relaxed *r = x->rx;
    int e, checks = 0;
    long long signals = 0;
    if (!x->started) {
        if (x->restart_unit > 0) x->next_restart = x->nodes + x->restart_unit;
        if ((e = cstart(x, c)) < 0 || x->done) return e;
    }
    while (c->depth) {
        if (x->restart_unit > 0 && x->nodes >= x->next_restart && !x->flushes) {
            if ((e = crestart(x, c)) < 0 || x->done) return e;
            continue;
        }
        if (c->nmem > c->max_members / 4 * 3) {  /* room for the next nodes' components */
            if ((e = cflush(x, c)) < 0) return e;
            if (c->nmem > c->max_members / 2) return -1;  /* the stack alone fills it */
        }
        CFrame *f = &c->stack[c->depth - 1];
        if (f->next == f->end) {
            c->depth--;
            c->nkids = c->depth ? c->stack[c->depth - 1].end : 0;
            c->nedges = c->depth ? c->stack[c->depth - 1].lend : 0;
            continue;
        }
        CNode nd = c->kids[f->next++];
        size_t mark = c->nedges;
        if ((e = cedge(c, nd.kind, nd.card, nd.comp)) < 0) return e;
        if ((e = cauto(c, r, &nd)) < 0) return e;
        if (cwon(r, nd.w0)) return csearch_won(x, c);
        if ((e = cseen(x, c, &nd)) < 0) return e;
        if (!e || ccut(x, c, &nd, &f->node)) { c->nedges = mark; continue; }
        x->nodes++;
        if ((e = cframe(x, c, &nd)) < 0) return e;
        if (++checks >= 64) {
            checks = 0;
            if ((limit >= 0 && x->nodes >= limit) || (deadline >= 0 && now(cpu) >= deadline))
                return 0;
            if (++signals >= 256) {
                signals = 0;
                if (PyErr_CheckSignals() < 0) return -3;
            }
        }
    }
    x->done = 1;
    x->verdict = "lost";
    return 0;
}

static void cfree(CSearch *c) {
    if (!c) return;
    big_free(c->map); big_free(c->members); big_free(c->comps); big_free(c->exits);
    big_free(c->res); big_free(c->kids); big_free(c->edges); big_free(c->stack); free(c->lset);
    free(c);
}

static CSearch *cnew(size_t max_members) {
    CSearch *c = calloc(1, sizeof(CSearch));
    if (!c) return NULL;
    c->mcap = 1024; c->map = calloc(c->mcap, sizeof(CEntry));
    c->ecap = 1024; c->exits = calloc(c->ecap, sizeof(CExit));
    c->max_members = max_members;
    if (!c->map || !c->exits) { cfree(c); return NULL; }
    return c;
}

/* search(max_nodes, seconds[, cpu]) -> (verdict, line): goes on where the last call stopped;
 * the line is a list of (src, dst) as described at XMove */
static PyObject *Exact_search(Exact *x, PyObject *args) {
    long long max_nodes;
    double seconds;
    int cpu = 0;
    if (!PyArg_ParseTuple(args, "Ld|p", &max_nodes, &seconds, &cpu)) return NULL;
    if (x->done) return xresult(x);
    if (!x->rx) { PyErr_SetString(PyExc_ValueError, "released"); return NULL; }
    Relaxed *r = x->rx;
    double deadline = seconds >= 0 ? now(cpu) + seconds : -1;
    long long limit = max_nodes >= 0 ? x->nodes + max_nodes : -1;
    int err = 0, checks = 0;
    long long signals = 0;
    x->verdict = "unknown";
    if (x->beam) {
        if ((err = beam_search(x, deadline, cpu, limit)) < 0) goto fail;
        return xresult(x);  /* (done and unknown: every pass died out, which proves nothing) */
    }
    if (x->cs) {
        err = csearch(x, deadline, cpu, limit);
        if (err == -1) { x->done = 1; x->verdict = "unknown"; err = 0; }  /* gave up */
        if (err < 0) goto fail;
        return xresult(x);
    }
    if (!x->started) {
        x->started = 1;
        XState s = x->root;
        XKey k;
        if ((err = xautoplay(x, &s)) < 0) goto fail;
        if (xwon(r, &s)) { x->done = 1; x->verdict = "won"; return xresult(x); }
        if (xkey(r, &s, &k) < 0) { x->done = 1; return xresult(x); }
        if ((err = xtable_room(x)) < 0) goto fail;
        xtable_put(x, k);
        x->nodes++;
        if (xcut(x, &s, NULL)) { x->done = 1; x->verdict = "lost"; return xresult(x); }
        if ((err = xpush_frame(x, &s)) < 0) goto fail;
    }
    while (x->depth) {
        XFrame *f = &x->stack[x->depth - 1];
        if (f->next == f->end) {  /* searched whole */
            x->depth--;  /* its moves began where those of the frame below end */
            x->nmoves = x->depth ? x->stack[x->depth - 1].end : 0;
            x->nline = x->depth ? x->stack[x->depth - 1].lend : 0;
            continue;
        }
        XMove m = x->moves[f->next++];
        XState s = f->st;
        xapply(x, &s, &m);
        size_t mark = x->nline;
        if ((err = xpush_line(x, m)) < 0 || (err = xautoplay(x, &s)) < 0) goto fail;
        if (xwon(r, &s)) { x->done = 1; x->verdict = "won"; return xresult(x); }
        XKey k;
        if (xkey(r, &s, &k) < 0) { x->done = 1; x->verdict = "unknown"; return xresult(x); }
        if ((err = xtable_room(x)) < 0) goto fail;
        if (!xtable_put(x, k)) { x->nline = mark; continue; }
        if (xcut(x, &s, &f->st)) { x->nline = mark; continue; }
        x->nodes++;
        if ((err = xpush_frame(x, &s)) < 0) goto fail;
        if (++checks >= 256) {
            checks = 0;
            if ((limit >= 0 && x->nodes >= limit) || (deadline >= 0 && now(cpu) >= deadline))
                return xresult(x);
            if (++signals >= 64) {
                signals = 0;
                if (PyErr_CheckSignals() < 0) return NULL;
            }
        }
    }
    x->done = 1;
    x->verdict = "lost";
    x->nline = 0;
    return xresult(x);
fail:
    return fail(err);
}

static int Exact_init(Exact *x, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"relaxed", "stock_length", "waste", "foundations", "tableau",
                             "cuts", "max_states", "guided", "components", "max_tableaux",
                             "restart_unit", "seed", "beam", "beam_passes", "beam_growth",
                             NULL};
    PyObject *rx, *waste, *found, *tab;
    int sl, cuts;
    Py_ssize_t max_states;
    int guided = 0, components = 0;
    Py_ssize_t max_tableaux = 0;
    long long restart_unit = 0;
    unsigned long long seed = 1;
    int beam = 0, beam_passes = 4, beam_growth = 2;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O!iO!O!O!pn|ppnLKiii", kwlist, &RelaxedType, &rx,
                                     &sl, &PyTuple_Type, &waste, &PyTuple_Type, &found,
                                     &PyTuple_Type, &tab, &cuts, &max_states, &guided,
                                     &components, &max_tableaux, &restart_unit, &seed,
                                     &beam, &beam_passes, &beam_growth))
        return -1;
    if (beam < 0 || beam_passes < 1 || beam_growth < 1 || (beam && (components || guided))) {
        PyErr_SetString(PyExc_ValueError, "a beam is a width of at least 1, with its own moves");
        return -1;
    }
    x->restart_unit = components && restart_unit > 0 ? restart_unit : 0;
    x->restarts = 0;
    x->rng = xorshift64_seed(seed);
    if (max_tableaux <= 0) max_tableaux = max_states;
    if (components && guided) {
        PyErr_SetString(PyExc_ValueError, "the search by components is not guided");
        return -1;
    }
    cfree(x->cs);
    x->cs = NULL;
    if (components && !(x->cs = cnew((size_t)max_tableaux))) { PyErr_NoMemory(); return -1; }
    x->guided = guided;
    Relaxed *r = (Relaxed *)rx;
    if (r->packets || r->vacancy || r->nstock > 47 || PyTuple_GET_SIZE(tab) != r->ntab
            || PyTuple_GET_SIZE(found) > 8 || max_states < 1024 || sl < 0 || sl > r->nstock) {
        PyErr_SetString(PyExc_ValueError, "a game or position outside what the exact search handles");
        return -1;
    }
    XState *s = &x->root;
    memset(s, 0, sizeof *s);
    s->sl = (int8_t)sl;
    for (int i = 0; i < MAXSUITS; i++) s->fp[i] = -1;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(waste); i++) {
        long c = PyLong_AsLong(PyTuple_GET_ITEM(waste, i));
        if (c < 0 || c >= 64 || r->stock_pos[c] < sl) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a waste card not dealt from this stock");
            return -1;
        }
        s->waste |= 1ULL << r->stock_pos[c];
    }
    x->nfound = (int)PyTuple_GET_SIZE(found);
    for (int f = 0; f < x->nfound; f++) {
        int suit, height;
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(found, f), "ii", &suit, &height)) return -1;
        if (height == 0) continue;
        if (suit < 0 || suit >= r->suits || height > r->n) {
            PyErr_SetString(PyExc_ValueError, "a foundation out of range");
            return -1;
        }
        s->fp[suit] = (int8_t)f;
        s->h[suit] = (uint8_t)height;
    }
    for (int i = 0; i < r->ntab; i++) {
        PyObject *pile = PyTuple_GET_ITEM(tab, i);
        if (!PyTuple_Check(pile) || PyTuple_GET_SIZE(pile) > XMAXLEN - 1) {
            PyErr_SetString(PyExc_ValueError, "a tableau pile must be a tuple of at most 15 cards");
            return -1;
        }
        for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(pile); j++) {
            long c = PyLong_AsLong(PyTuple_GET_ITEM(pile, j));
            if (c < 0 || c >= 64) {
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a card out of range");
                return -1;
            }
            s->c[i][j] = (uint8_t)c;
        }
        s->len[i] = (uint8_t)PyTuple_GET_SIZE(pile);
    }
    size_t cap = 1024;
    while (cap * 7 / 10 < (size_t)max_states) cap *= 2;
    x->max_cap = cap;
    if (xtable_alloc(x, 1024) < 0) { PyErr_NoMemory(); return -1; }
    Py_INCREF(rx);
    Py_XSETREF(x->rx, r);
    x->cuts = cuts;
    x->verdict = "unknown";
    bfree(x->beam);
    x->beam = NULL;
    if (beam) {
        if (!(x->beam = calloc(1, sizeof(struct Beam)))) { PyErr_NoMemory(); return -1; }
        x->beam->width = beam;
        x->beam->passes = beam_passes;
        x->beam->growth = beam_growth;
        x->beam->here = -1;
        x->beam->root = x->root;
    }
    return 0;
}

static void xfree(Exact *x) {
    cfree(x->cs);
    x->cs = NULL;
    bfree(x->beam);
    x->beam = NULL;
    big_free(x->slots); free(x->stack); free(x->moves); free(x->line); free(x->dcache);
    x->dcache = NULL;
    x->slots = NULL; x->stack = NULL; x->moves = NULL; x->line = NULL;
    x->cap = x->count = x->depth = x->scap = x->nmoves = x->mcap = x->nline = x->lcap = 0;
}

static void Exact_dealloc(Exact *x) {
    xfree(x);
    Py_CLEAR(x->rx);
    Py_TYPE(x)->tp_free((PyObject *)x);
}

/* release(): frees the tables; later searches say what they said last, or unknown */
static PyObject *Exact_release(Exact *x, PyObject *unused) {
    (void)unused;
    xfree(x);
    Py_CLEAR(x->rx);
    x->done = 1;
    give_back();
    Py_RETURN_NONE;
}

static PyObject *Exact_get_nodes(Exact *x, void *c) { (void)c; return PyLong_FromLongLong(x->nodes); }
static PyObject *Exact_get_size(Exact *x, void *c) {
    (void)c;
    return PyLong_FromSize_t(x->beam ? x->beam->nrec : x->count);  /* (a beam's: its pass's) */
}
static PyObject *Exact_get_beam_width(Exact *x, void *c) {
    (void)c;
    return PyLong_FromLong(x->beam && x->beam->pass ? x->beam->width : 0);
}
static PyObject *Exact_get_flushes(Exact *x, void *c) { (void)c; return PyLong_FromLongLong(x->flushes); }
static PyObject *Exact_get_kept(Exact *x, void *c) { (void)c; return PyLong_FromSize_t(x->kept); }
static PyObject *Exact_get_cflushes(Exact *x, void *c) { (void)c; return PyLong_FromLongLong(x->cflushes); }
static PyObject *Exact_get_ckept(Exact *x, void *c) { (void)c; return PyLong_FromSize_t(x->ckept); }
static PyObject *Exact_get_restarts(Exact *x, void *c) { (void)c; return PyLong_FromLongLong(x->restarts); }
static PyObject *Exact_get_finished(Exact *x, void *c) { (void)c; return PyBool_FromLong(x->done); }
static PyObject *Exact_get_components(Exact *x, void *c) {
    (void)c;
    if (!x->cs) return Py_BuildValue("(ii)", 0, 0);
    return Py_BuildValue("(nn)", (Py_ssize_t)x->cs->ncomps, (Py_ssize_t)x->cs->nmem);
}

static PyMethodDef Exact_methods[] = {
    {"search", (PyCFunction)Exact_search, METH_VARARGS,
     "search(max_nodes, seconds[, cpu]) -> (verdict, line of (src, dst)); -1 for no limit; cpu: seconds of the thread's CPU time"},
    {"release", (PyCFunction)Exact_release, METH_NOARGS, "release() frees the tables"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Exact_getset[] = {
    {"nodes", (getter)Exact_get_nodes, NULL, "positions searched", NULL},
    {"size", (getter)Exact_get_size, NULL, "positions in the table (a beam search: kept by its pass)", NULL},
    {"beam_width", (getter)Exact_get_beam_width, NULL,
     "the width of the beam's pass begun last (0: none begun, or no beam)", NULL},
    {"flushes", (getter)Exact_get_flushes, NULL,
     "times the full table was emptied (down to the half nearest the opening)", NULL},
    {"kept", (getter)Exact_get_kept, NULL, "the positions that its last emptying kept", NULL},
    {"component_flushes", (getter)Exact_get_cflushes, NULL,
     "times the search by components emptied its tables of components", NULL},
    {"components_kept", (getter)Exact_get_ckept, NULL,
     "the tableaux that its last emptying of the tables of components kept", NULL},
    {"restarts", (getter)Exact_get_restarts, NULL, "times the search by components began again from the root", NULL},
    {"components", (getter)Exact_get_components, NULL, "components numbered, and their tableaux", NULL},
    {"finished", (getter)Exact_get_finished, NULL, "decided, or given up (a component too large)", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject ExactType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "patience.solver._relaxedc.Exact",
    .tp_basicsize = sizeof(Exact),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The exact search of one position of Four Seasons or Czarina, compiled.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Exact_init,
    .tp_dealloc = (destructor)Exact_dealloc,
    .tp_methods = Exact_methods,
    .tp_getset = Exact_getset,
};

static PyMethodDef module_methods[] = {KEEP_MEMORY_METHOD, {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_relaxedc",
    .m_doc = "The relaxed game and the exact search of the Four Seasons family, compiled.",
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC PyInit__relaxedc(void) {
    if (PyType_Ready(&RelaxedType) < 0 || PyType_Ready(&ExactType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    TooLarge = PyErr_NewException("patience.solver._relaxedc.ComponentTooLarge", NULL, NULL);
    Py_INCREF(&RelaxedType);
    Py_INCREF(&ExactType);
    if (PyModule_AddObject(m, "Relaxed", (PyObject *)&RelaxedType) < 0
            || PyModule_AddObject(m, "Exact", (PyObject *)&ExactType) < 0
            || PyModule_AddObject(m, "ComponentTooLarge", TooLarge) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
