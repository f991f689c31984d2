/* What the compiled searches' drain tests share (docs/solver.md, "Draining the waste"):
 * the matching of foundations (tokens, each at any top rank up to its limit) to the ranks
 * whose excess e(r) = c(r) - c(r+1) a foundation's top card absorbs.  The fewest runs of a
 * configuration are sum_r max(0, e(r)) less the tokens matched. */
#ifndef PATIENCE_DRAIN_H
#define PATIENCE_DRAIN_H

#include <string.h>

#define DRAIN_MAXTOKENS 8
#define DRAIN_MAXRANKS 16

/* tokens of top-rank limits ``lim`` (``k`` of them; a limit below 0: none) matched to ranks
 * 0..n-1 with ``cap`` places each, smallest limit first: a largest matching, since every
 * token reaches every rank below its own limit */
static inline int drain_match(int n, const int *cap, const int *lim, int k) {
    int l[DRAIN_MAXTOKENS], c[DRAIN_MAXRANKS];
    memcpy(l, lim, (size_t)k * sizeof(int));
    memcpy(c, cap, (size_t)n * sizeof(int));
    for (int i = 1; i < k; i++)
        for (int j = i; j > 0 && l[j - 1] > l[j]; j--) { int t = l[j]; l[j] = l[j - 1]; l[j - 1] = t; }
    int got = 0;
    for (int i = 0; i < k; i++)
        for (int rk = l[i] < n - 1 ? l[i] : n - 1; rk >= 0; rk--)
            if (c[rk] > 0) { c[rk]--; got++; break; }
    return got;
}

/* with ``q`` tokens at rank ``r0`` (the ones of smallest limit that reach it: a token of a
 * larger limit does whatever a smaller one does), a pile ends in a rank r0+1 card of a full
 * tableau (t(r0) > e(r0) = q - 1): do the fewest runs then fit in ``piles``?  ``base`` is
 * sum_r max(0, e(r)) */
static inline int drain_full_fits(int n, const int *cap, const int *lim, int k, int r0,
                                  int q, int base, int piles) {
    int order[DRAIN_MAXTOKENS] = {0}, taken[DRAIN_MAXTOKENS] = {0}, got = 0;
    for (int i = 0; i < k; i++) order[i] = i;
    for (int i = 1; i < k; i++)
        for (int j = i; j > 0 && lim[order[j - 1]] > lim[order[j]]; j--) {
            int t = order[j]; order[j] = order[j - 1]; order[j - 1] = t;
        }
    for (int i = 0; i < k && got < q; i++)
        if (lim[order[i]] >= r0) { taken[order[i]] = 1; got++; }
    if (got < q) return 0;
    int rest[DRAIN_MAXTOKENS], nrest = 0, c2[DRAIN_MAXRANKS];
    for (int i = 0; i < k; i++) if (!taken[i]) rest[nrest++] = lim[i];
    memcpy(c2, cap, (size_t)n * sizeof(int));
    c2[r0] = 0;
    return base - cap[r0] - drain_match(n, c2, rest, nrest) <= piles;
}

#endif
