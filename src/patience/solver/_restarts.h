/* What the compiled searches' restarts share (docs/solver.md, "Restarts"): when to begin
 * again from the root, and the generator that shuffles the order of the moves after it. */
#ifndef PATIENCE_RESTARTS_H
#define PATIENCE_RESTARTS_H

#include <stdint.h>

/* the Luby sequence (1, 1, 2, 1, 1, 2, 4, 1, ...): its ``i``-th term, from 1 */
static inline long long luby(long long i) {
    for (;;) {
        int k = 1;
        while ((1LL << k) - 1 < i) k++;
        if ((1LL << k) - 1 == i) return 1LL << (k - 1);
        i -= (1LL << (k - 1)) - 1;
    }
}

/* xorshift64 on ``*state`` (never 0) */
static inline uint64_t xorshift64(uint64_t *state) {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

/* a generator's first state from a seed (never 0) */
static inline uint64_t xorshift64_seed(unsigned long long seed) {
    uint64_t s = seed * 0x9e3779b97f4a7c15ULL + 0x2545f4914f6cdd1dULL;
    return s ? s : 1;
}

#endif
