"""Canonical transposition keys and safe moves, derived from a game's declaration.

Every rule here is argued in ``docs/solver.md``; a rule is used to *cut* the
search only with that argument.  Summary:

* interchangeable piles are sorted: the tableau piles building the same way,
  all cells and the foundations building the same way are governed by the same
  rules in every declaration, so a permutation of them changes nothing that can
  happen next;
* a stock that is only ever popped (one pass, waste games) is fixed by its
  length;
* a suit-built foundation is fixed by its bottom card and its height;
* where no rule of the game looks at suits (suit-free foundations, no
  tableau or a tableau built regardless of suit, no cells), cards are keyed by
  rank alone.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

from patience.rules.engine import Rules
from patience.rules.spec import Build, Space, StockKind
from patience.rules.state import Move, State

KeyFn = Callable[[State], bytes]

_RANK_TABLE = bytes((c >> 2) if c < 52 else c for c in range(256))
SEP = b"\xff"


def suits_matter(rules: Rules) -> bool:
    spec = rules.spec
    if spec.foundation_build is not Build.ANY:
        return True
    return bool(rules.tab) and spec.tableau_build is not Build.ANY


def make_key(rules: Rules, tableau: bool = True) -> KeyFn:
    """The canonical key function of a game (bytes, compact for big tables); with
    ``tableau=False`` the tableau is left out (the component search adds its own)."""
    spec = rules.spec
    stock_i, waste_i = rules.stock, rules.waste
    tab, cells, res = rules.tab, rules.cell, rules.res
    ranks_only = not suits_matter(rules)
    stock_by_len = spec.stock is StockKind.WASTE and spec.passes == 1
    suit_found = spec.foundation_build is Build.SUIT
    # piles are sorted within the groups that build the same way (RULES B3)
    found_groups, tab_groups = rules.found_groups, rules.tab_groups

    def cards(b: bytes) -> bytes:
        """Card bytes, by rank alone where suits do not matter (never counts or heights)."""
        return b.translate(_RANK_TABLE) if ranks_only else b

    def key(st: State) -> bytes:
        p = st.piles
        head = bytes((st.base, st.passes, len(p[stock_i]) & 0xFF, len(p[stock_i]) >> 8))
        parts = [head]
        if not stock_by_len:
            parts.append(cards(bytes(p[stock_i])))
        if waste_i >= 0:
            parts.append(cards(bytes(p[waste_i])))
        for group in found_groups:
            if suit_found:
                parts.append(b"".join(sorted(bytes((f[0], len(f))) if f else b"\x00\x00"
                                             for f in (p[i] for i in group))))
            elif ranks_only:
                parts.append(bytes(sorted(len(p[i]) for i in group)))
            else:
                parts.append(SEP.join(sorted(bytes(p[i]) for i in group)))
        if tab and tableau:
            for group in tab_groups:
                parts.append(SEP.join(sorted(cards(bytes(p[i])) for i in group)))
        if cells:
            parts.append(cards(bytes(sorted(p[i][0] if p[i] else 254 for i in cells))))
        if res:
            parts.append(SEP.join(cards(bytes(p[i])) for i in res))
        return (SEP + SEP).join(parts)

    return key


def make_tableau_key(rules: Rules) -> KeyFn:
    """The tableau part of the key: its piles, sorted within each group."""
    groups = rules.tab_groups
    ranks_only = not suits_matter(rules)

    def key(st: State) -> bytes:
        p = st.piles
        k = (SEP + SEP).join(SEP.join(sorted(bytes(p[i]) for i in g)) for g in groups)
        return k.translate(_RANK_TABLE) if ranks_only else k

    return key


SafeFn = Callable[[State], Move | None]


def _acquaintance_family(rules: Rules) -> bool:
    """Reserve piles fed by the stock that feed only the foundations, which build up
    regardless of suit from prefilled Aces (RULES A6, B1)."""
    spec = rules.spec
    return (spec.stock is StockKind.RESERVE_ROW and spec.foundation_build is Build.ANY
            and spec.prefilled and not rules.tab and not rules.cell and rules.waste < 0
            and not spec.foundations_down)


def make_safe(rules: Rules) -> SafeFn | None:
    """A function returning a foundation move that can be made without branching
    (or None), for the games where docs/solver.md proves one; else None.

    The rule: a card whose rank, counted from the base rank, is at most the
    lowest foundation height may go home, because every card that could ever
    be placed on it is home already.  Where emptying a pile forces a refill or a
    vacancy, the rule is not used for a pile's last card.

    Where there is no tableau and the waste only feeds the foundations (one deck,
    one pass: Corners), any card that can go home from the waste may go, and so may
    a cell's card once the stock is empty (no refill follows): such a card has no
    other use, nothing is ever placed on it, and its going home only uncovers cards
    and raises one foundation (docs/solver.md, "Safe moves").

    In the Acquaintance family (foundations regardless of suit, reserves that feed only
    them), on the last pass, a reserve card goes onto a foundation of the lowest height.
    """
    spec = rules.spec
    if _acquaintance_family(rules):
        return _safe_on_the_last_pass(rules)
    if (not rules.tab and rules.waste >= 0 and spec.free_cells and not spec.playback
            and spec.passes == 1 and spec.prefilled and spec.stock is StockKind.WASTE
            and spec.foundation_build is Build.SUIT):
        return _safe_to_the_lowest(rules)
    if spec.foundation_build is not Build.SUIT or not rules.found or not spec.one_way:
        return None
    if spec.playback and not (rules.tab and spec.space is Space.ANY):
        return None
    n = spec.ranks
    found, tab, cells = rules.found, rules.tab, rules.cell
    waste_i, stock_i = rules.waste, rules.stock
    ids = rules.ids
    refills = spec.space is not Space.ANY or spec.refill_cells  # emptying a pile forces something
    vacancy = spec.space is Space.VACANCY
    sources = ([waste_i] if waste_i >= 0 else []) + tab + cells
    only_home = (not tab and waste_i >= 0 and not spec.waste_to_tableau and spec.decks == 1
                 and spec.passes == 1 and not spec.playback
                 and (not cells or spec.refill_cells))

    def safe(st: State) -> Move | None:
        p = st.piles
        if vacancy and (p[stock_i] or p[waste_i]) and not all(p[t] for t in tab):
            return None  # a pending vacancy allows only fills (RULES A2)
        base = st.base
        low = min(len(p[f]) for f in found)
        for s in sources:
            pile = p[s]
            if not pile:
                continue
            if s != waste_i and len(pile) == 1 and (vacancy or (refills and p[stock_i])):
                continue
            c = pile[-1]
            rel = ((c >> 2) + 1 - base) % n
            if rel > low and not (only_home and (s == waste_i or not p[stock_i])):
                continue
            for f in found:
                fp = p[f]
                if (len(fp) == rel and (not fp or fp[0] & 3 == c & 3)
                        and (fp or rel == 0)):
                    return Move(ids[s], ids[f])
        return None

    return safe


def _safe_to_the_lowest(rules: Rules) -> SafeFn:
    """Sixes and Sevens (no tableau, free cells, one pass, no play-back): a card of the
    waste or a cell goes home when the foundation taking it is no higher than any other
    foundation of its suit building the same way (docs/solver.md, "Safe moves")."""
    found, down, ids = rules.found, rules.down, rules.ids
    sources = [rules.waste, *rules.cell]

    def safe(st: State) -> Move | None:
        p = st.piles
        home: dict[int, list[int]] | None = None
        for s in sources:
            if not p[s]:
                continue
            if home is None:
                home = rules.home_map(st)
            for f in home.get(p[s][-1], ()):
                h, way, suit = len(p[f]), f in down, p[f][0] & 3
                if all(len(p[g]) >= h for g in found
                       if g != f and (g in down) == way and p[g][0] & 3 == suit):
                    return Move(ids[s], ids[f])
        return None

    return safe


def _safe_on_the_last_pass(rules: Rules) -> SafeFn:
    """The Acquaintance family (reserve piles that feed only the foundations, which build
    up regardless of suit): on the last pass, a reserve card goes home when every card
    one rank lower is home, i.e. onto a foundation of the lowest height; where deals skip
    empty piles (Quadrennial), not a pile's last card while the stock has cards
    (docs/solver.md, "Safe moves")."""
    spec = rules.spec
    found, res, stock_i, ids = rules.found, rules.res, rules.stock, rules.ids
    skips_empty = not spec.deal_to_empty

    def safe(st: State) -> Move | None:
        if st.passes < spec.passes:
            return None  # a redeal gathers the piles: taking a card changes what it deals
        p = st.piles
        low = min(len(p[f]) for f in found)
        if low >= spec.ranks:
            return None
        to = next(f for f in found if len(p[f]) == low)
        for r in res:
            pile = p[r]
            if not pile or (pile[-1] >> 2) != low:  # rank code low = rank low + 1
                continue
            if skips_empty and len(pile) == 1 and p[stock_i]:
                continue  # emptying it stops its deals
            return Move(ids[r], ids[to])
        return None

    return safe


DeadEndFn = Callable[[State], bool]


def _reserve_row_dead_end(rules: Rules) -> DeadEndFn:
    """Leap Year, Auld Lang Syne and Acquaintance's last pass: a relaxed game in which a
    card of rank r may go home whenever more cards of rank r - 1 are home than there were
    cards of rank r home at the position tested.  It is monotone (a card going home never
    stops another), so playing every card it allows before each deal is its best line;
    when that leaves cards out, the position is lost (docs/solver.md, "Dead ends")."""
    spec = rules.spec
    n, found, res, stock_i = spec.ranks, rules.found, rules.res, rules.stock

    def dead(st: State) -> bool:
        if st.passes < spec.passes:
            return False  # a redeal would gather the piles
        p = st.piles
        home = [0] * (n + 2)  # home[r]: cards of rank r home (foundations r or more high)
        for f in found:
            home[len(p[f])] += 1
        for r in range(n - 1, 0, -1):
            home[r] += home[r + 1]
        had = home[:]  # the counts at the position tested
        home[0] = 1 << 30
        piles = [list(p[r]) for r in res]
        stock = p[stock_i]
        left = len(stock)
        while True:
            moved = True
            while moved:
                moved = False
                for pile in piles:
                    while pile:
                        r = (pile[-1] >> 2) + 1
                        if home[r - 1] <= had[r]:
                            break
                        pile.pop()
                        home[r] += 1
                        moved = True
            if not left:
                return any(piles)
            for pile in piles:  # RULES B1: a card onto every pile, empty ones included
                if not left:
                    break
                left -= 1
                pile.append(stock[left])

    return dead


WasteCycleFn = Callable[[tuple[int, ...], list[int], int], bool]


def waste_cycle(n: int, suits: int, all_home_only: bool) -> WasteCycleFn:
    """``cycle(waste, heights, base)``: do the waste cards that can only go home (every
    one with ``all_home_only``; else those of the highest relative rank, or whose
    one-higher cards are each home, below them in the waste, or above them in the waste
    and able only to go home themselves) and the suits' orders have a cycle?  ``heights``
    (per suit, the relative rank needed next) is changed."""

    def cycle(waste: tuple[int, ...], nxt: list[int], base: int) -> bool:
        where = {c: i for i, c in enumerate(waste)}
        if all_home_only:
            home_only = [True] * len(waste)
        else:
            # from the top down: a card's verdict reads only those of the cards above it
            home_only = [False] * len(waste)
            for i in range(len(waste) - 1, -1, -1):
                c = waste[i]
                r = ((c >> 2) + 1 - base) % n
                if r == n - 1:
                    home_only[i] = True
                    continue
                up = (r + base) % n * 4  # rank code of relative rank r + 1, suit 0
                ok = True
                for s in range(suits):
                    j = where.get(up + s)
                    if not (r + 1 < nxt[s] or (j is not None and (j < i or home_only[j]))):
                        ok = False
                        break
                home_only[i] = ok
        k = len(waste)  # waste[k:] have left the waste in the order being built
        progress = True
        while progress:  # Kahn's algorithm on chains of orders: greedy is exact
            progress = False
            for s in range(suits):
                while nxt[s] < n:
                    c = ((nxt[s] + base - 1) % n) * 4 + s
                    if where.get(c, k) < k:
                        break  # still under other waste cards
                    nxt[s] += 1
                    progress = True
            while k:
                c = waste[k - 1]
                if home_only[k - 1]:
                    if ((c >> 2) + 1 - base) % n != nxt[c & 3]:
                        break
                    nxt[c & 3] += 1
                k -= 1  # (a card with somewhere else to go may leave at any time)
                progress = True
        return k > 0

    return cycle


def match_tokens(cap: list[int], limits: list[int], lowest: int = 0) -> int:
    """Foundations as tokens whose top rank is at most their limit, matched to the ranks
    from ``lowest`` up with ``cap`` places each, smallest limit first, each to the highest
    free rank it reaches: a largest matching, since every token reaches every rank from
    ``lowest`` to its own limit (docs/solver.md, "Draining the waste")."""
    c = list(cap)
    got = 0
    for lim in sorted(limits):
        for r in range(min(lim, len(c) - 1), lowest - 1, -1):
            if c[r] > 0:
                c[r] -= 1
                got += 1
                break
    return got


class WasteDrain:
    """The drain test of the Four Seasons family (docs/solver.md, "Draining the waste";
    one deck, one foundation a suit, a tableau of runs built down regardless of suit,
    nothing on a base-rank card).  ``spaces``: the waste's top may go into an empty pile
    (not in Czarina, whose spaces are refilled from the stock)."""

    decks = 1

    def __init__(self, n: int, suits: int, piles: int, spaces: bool) -> None:
        self.n, self.suits, self.piles, self.spaces = n, suits, piles, spaces

    def __call__(self, coming: tuple[int, ...], waste: tuple[int, ...], base: int,
                 bottoms: tuple[int, ...] = ()) -> bool:
        """Can every card of ``waste`` (bottom to top) leave it in turn, from the top down,
        each when the cards above it have left and so have the stock's cards dealt by then
        (``coming``, in the order they are dealt)?  False proves the position lost.
        ``bottoms``: the piles' bottom cards, which only ``BottomDrain`` reads."""
        n = self.n

        def kind(c: int) -> int:
            return ((c >> 2) + 1 - base) % n * 4 + (c & 3)

        u = [self.decks if (k & 3) < self.suits else 0 for k in range(4 * n)]
        elig = [0] * (4 * n)  # the possible bottoms (BottomDrain)
        for c in bottoms:
            elig[kind(c)] = 1
        for c in coming:
            u[kind(c)] -= 1
        kinds = [kind(c) for c in waste]
        for k in kinds:
            u[k] -= 1
        j = 0
        for w in reversed(kinds):
            while not self.leaves(u, w, elig):
                if j >= len(coming):
                    return False
                k = kind(coming[j])
                u[k] += 1
                elig[k] = 1  # (dealt: it may have refilled a pile)
                j += 1
            u[w] += 1
        return True

    def leaves(self, u: list[int], w: int, elig: list[int]) -> bool:
        """The question for one card that ``__call__`` asks (``can_leave``; ``elig``, the
        possible bottoms, is for ``BottomDrain``)."""
        return self.can_leave(u, w)

    def can_leave(self, u: list[int], w: int) -> bool:
        """Can the waste card of kind ``w`` (relative rank · 4 + suit) go home, or onto the
        tableau, under some configuration of the foundations that ``u`` allows (``u``: the
        cards of each kind out of the stock and the waste, ``w`` not among them), the
        tableau being the rest of ``u`` in at most ``piles`` runs?"""
        n, suits, piles, match = self.n, self.suits, self.piles, match_tokens
        r0, s0 = w >> 2, w & 3
        c = [sum(u[4 * r:4 * r + suits]) for r in range(n)] + [0]
        e = [c[r] - c[r + 1] for r in range(n)]
        cap = [max(0, x) for x in e]
        base = sum(cap)  # the fewest runs: base less the foundations matched
        # a foundation's top rank is at most the one below its suit's first card not in u
        # (-1: it holds no card)
        lim = [next((r for r in range(n) if not u[4 * r + s]), n) - 1 for s in range(suits)]
        if r0 - 1 <= lim[s0]:  # home: its foundation with top rank r0 - 1 (or empty)
            c2 = list(cap)
            got = 0
            if r0 >= 1 and c2[r0 - 1] > 0:
                c2[r0 - 1] -= 1
                got = 1
            if base - got - match(c2, [lim[s] for s in range(suits) if s != s0]) <= piles:
                return True
        fewest = base - match(cap, lim)
        if fewest > piles:
            return False
        if self.spaces and fewest < piles:
            return True  # a space can be made
        if r0 + 1 >= n:
            return False  # nothing is placed on a base-rank card
        # a pile ending in rank r0+1: n(r0+1) > n(r0), t(r0) > e(r0) foundations at r0
        q = e[r0] + 1
        if q <= 0:
            return True
        order = sorted(range(suits), key=lambda i: lim[i])
        taken = [i for i in order if lim[i] >= r0][:q]
        if len(taken) == q:
            c2 = list(cap)
            c2[r0] = 0
            rest = [lim[i] for i in range(suits) if i not in taken]
            if base - cap[r0] - match(c2, rest) <= piles:
                return True
        if self.spaces:
            return False
        # without spaces, also: fewer runs than piles, and a rank r0+1 card out of home (a
        # pile can end in it): at most c(r0+1) - 1 foundations with top rank r0+1 or more
        room = c[r0 + 1] - 1
        for kept in range(1 << suits):
            if room < 0 or sum(1 for i in range(suits) if kept >> i & 1 and lim[i] > r0) > room:
                continue
            lims = [lim[i] if kept >> i & 1 else min(lim[i], r0) for i in range(suits)]
            if base - match(cap, lims) < piles:
                return True
        return False


class SuitWasteDrain(WasteDrain):
    """The drain test where every pile is a run built down *in suit* (the Busy Aces
    family: two decks, ``decks`` foundations a suit, cells that hold one card counted among
    the ``piles``).  A pile holds one suit, so the runs a configuration needs are counted
    suit by suit, m = Σ_s Σ_r max(0, n_s(r) − n_s(r+1)), and each suit's foundations are
    chosen apart from the others': the question for one card is decided by going through
    the configurations of its own suit, each other suit at its fewest runs."""

    def __init__(self, n: int, suits: int, piles: int, spaces: bool, decks: int) -> None:
        super().__init__(n, suits, piles, spaces)
        self.decks = decks
        self._suit_memo: dict[tuple[int, ...], list[tuple[tuple[int, ...], int,
                                                          tuple[int, ...]]]] = {}
        #: each choice of the suit's foundation heights, with the cards of each rank that
        #: it puts home
        self._heights = [(hs, tuple(sum(1 for h in hs if h > r) for r in range(n)))
                         for hs in itertools.combinations_with_replacement(range(n + 1),
                                                                           decks)]

    def configurations(self, have: tuple[int, ...]) -> list[tuple[tuple[int, ...], int,
                                                                  tuple[int, ...]]]:
        """``(heights, runs, n)`` for each configuration of one suit's foundations that its
        cards out of the stock and the waste (``have``, by rank) allow: the heights (cards
        home on each foundation, lowest first), the fewest runs of the suit's tableau
        cards, and those cards by rank."""
        got = self._suit_memo.get(have)
        if got is None:
            got = []
            for hs, home in self._heights:
                left = [a - b for a, b in zip(have, home, strict=True)]
                if min(left) < 0:
                    continue
                runs = sum(a - b for a, b in zip(left, (*left[1:], 0), strict=True) if a > b)
                got.append((hs, runs, tuple(left)))
            got.sort(key=lambda x: x[1])
            if len(self._suit_memo) > 1 << 16:
                self._suit_memo.clear()
            self._suit_memo[have] = got
        return got

    def can_leave(self, u: list[int], w: int) -> bool:
        """Can the waste card of kind ``w`` (relative rank · 4 + suit) go home, onto a pile
        ending in the next higher card of its suit, or into a space, under some
        configuration that ``u`` allows (``w`` not among ``u``), the tableau in at most
        ``piles`` runs of one suit each?"""
        n = self.n
        r0, s0 = w >> 2, w & 3
        room = self.piles
        for s in range(self.suits):
            if s != s0:
                room -= self.configurations(tuple(u[s::4]))[0][1]
        for hs, runs, left in self.configurations(tuple(u[s0::4])):
            if runs > room:
                break  # (sorted by runs)
            if r0 in hs:
                return True  # home, onto a foundation of height r0
            if self.spaces and runs < room:
                return True  # a space can be made
            # a pile ends in the rank r0+1 card of its suit: more of those than of rank r0
            # in the tableau, or one that a rank r0 card could have covered (a run more)
            if r0 + 1 < n and (left[r0 + 1] > left[r0] or (runs < room and left[r0 + 1])):
                return True
        return False


class BottomDrain(WasteDrain):
    """The drain test of Czarina, where the player never fills a space (RULES A3): every
    pile is a run down from its bottom card, and a card becomes a pile's bottom only by a
    refill from the stock; so the bottoms, now and later, are among the piles' bottom cards
    now and the stock's cards dealt by then (docs/solver.md, "Bottoms").  In a configuration
    the piles then start at ranks where such a card is in the tableau: a rank holding e(r)
    − t(r) more tableau cards than the one above needs that many of them (``can_leave``
    decides by going down the ranks, the foundations whose top card is above each rank a
    set of suits)."""

    def __init__(self, n: int, suits: int, piles: int) -> None:
        super().__init__(n, suits, piles, spaces=False)

    def leaves(self, u: list[int], w: int, elig: list[int]) -> bool:
        """Can the waste card of kind ``w`` leave, home or onto a pile ending in a card one
        rank higher, under some configuration that ``u`` allows, the tableau's runs
        starting only at cards of ``elig`` (the possible bottoms) that are not home?"""
        n, suits, piles = self.n, self.suits, self.piles
        r0, s0 = w >> 2, w & 3
        c = [sum(u[4 * r:4 * r + suits]) for r in range(n)] + [0]
        e = [c[r] - c[r + 1] for r in range(n)]
        lim = [next((r for r in range(n) if not u[4 * r + s]), n) - 1 for s in range(suits)]
        if r0 - 1 <= lim[s0] and self._runs(c, e, lim, elig, r0, s0, "home") <= piles:
            return True
        if r0 + 1 >= n:
            return False  # nothing is placed on a base-rank card
        return (self._runs(c, e, lim, elig, r0, s0, "top") <= piles
                or self._runs(c, e, lim, elig, r0, s0, "extra") <= piles)

    def _runs(self, c: list[int], e: list[int], lim: list[int], elig: list[int], r0: int,
              s0: int, mode: str) -> int:
        """The fewest runs of a configuration with every run starting at a possible bottom,
        and: ``home``, suit s0's top card of rank r0 − 1 (none when r0 = 0); ``top``, more
        tableau cards of rank r0 + 1 than of r0 (a pile ends in one); ``extra``, a run more
        (counted) starting at rank r0, and a rank r0 + 1 card out of home for it to end on.
        Ranks are taken from the top down, the state being the suits whose top card is
        above the rank; ``piles + 1`` when no configuration will do."""
        n, suits, piles = self.n, self.suits, self.piles
        best = {0: 0}
        for r in range(n - 1, -1, -1):
            allowed = sum(1 << s for s in range(suits) if lim[s] >= r)
            bot = elig[4 * r:4 * r + suits]
            nxt: dict[int, int] = {}
            for m, cost in best.items():
                free = allowed & ~m
                sub = free
                while True:
                    ok = True
                    if mode == "home":
                        ok = bool(sub >> s0 & 1) == (r == r0 - 1)
                    if ok:
                        m2 = m | sub
                        d = e[r] - bin(sub).count("1")
                        need = max(0, d)
                        avail = sum(bot[s] for s in range(suits) if not m2 >> s & 1)
                        if r == r0 and mode == "top":
                            ok = d < 0
                        elif r == r0 and mode == "extra":  # (the extra run counted)
                            ok = bin(m).count("1") <= c[r0 + 1] - 1
                            need += 1
                        ok = ok and need <= avail
                        if ok and cost + need <= min(piles, nxt.get(m2, piles + 1) - 1):
                            nxt[m2] = cost + need
                    if sub == 0:
                        break
                    sub = (sub - 1) & free
            best = nxt
            if not best:
                return piles + 1
        return min(best.values())


def _drain_shape(rules: Rules) -> bool:
    """What both drain tests ask of a game: one pass of the stock through a waste that
    feeds the tableau, foundations that build up in suit (a deck's worth of them) and
    piles that build down with nothing on a base-rank card, no reserve."""
    spec = rules.spec
    return (rules.waste >= 0 and bool(rules.tab) and spec.passes == 1
            and spec.foundation_build is Build.SUIT and spec.stock is StockKind.WASTE
            and spec.one_way and not rules.res and spec.waste_to_tableau
            and len(rules.found) == spec.suits * spec.decks and not spec.build_on_base)


def drain_applies(rules: Rules) -> bool:
    """The Four Seasons family's drain test holds where the relaxation does: one deck, one
    pass, a tableau of runs built down from the waste regardless of suit or in
    alternating colours (a colour rule only adds runs), a foundation a suit."""
    spec = rules.spec
    return (_drain_shape(rules) and spec.decks == 1 and not spec.playback
            and not spec.free_cells and not rules.cell
            and spec.tableau_build in (Build.ANY, Build.ALT_COLOR))


def suit_drain_applies(rules: Rules) -> bool:
    """``SuitWasteDrain`` holds in the games of one pass whose foundations build up in
    suit, a deck's worth of them, fed from the waste and from a tableau of runs built down
    in suit with nothing on a base-rank card, and cells that hold one card (the Busy Aces
    family but Eights Down, whose tableau builds up and whose waste is dealt again)."""
    return _drain_shape(rules) and rules.spec.tableau_build is Build.SUIT


def make_drain_dead_end(rules: Rules) -> DeadEndFn | None:
    """The drain test on positions, for the Four Seasons family (``WasteDrain``; Czarina's
    counts the piles' bottoms, ``BottomDrain``) and the Busy Aces family
    (``SuitWasteDrain``): True when the position's waste cannot drain (it
    is lost); None where it does not apply."""
    spec = rules.spec
    spaces = spec.space is not Space.AUTO
    drains: WasteDrain
    if drain_applies(rules) and not spaces:  # Czarina: the piles' bottoms count too
        drains = BottomDrain(spec.ranks, spec.suits, len(rules.tab))
    elif drain_applies(rules):
        drains = WasteDrain(spec.ranks, spec.suits, len(rules.tab), spaces)
    elif suit_drain_applies(rules):
        drains = SuitWasteDrain(spec.ranks, spec.suits, len(rules.tab) + len(rules.cell),
                                spaces, spec.decks)
    else:
        return None
    stock_i, waste_i, tab, cells = rules.stock, rules.waste, rules.tab, rules.cell
    deck = spec.ranks * spec.suits * spec.decks
    bottomed = isinstance(drains, BottomDrain)
    kept: dict[tuple[tuple[int, ...], tuple[int, ...], int, tuple[int, ...]], bool] = {}

    def dead(st: State) -> bool:
        p = st.piles
        waste = p[waste_i]
        if not waste:
            return False
        bottoms = tuple(sorted(p[t][0] for t in tab if p[t])) if bottomed else ()
        k = (p[stock_i], waste, st.base, bottoms)
        v = kept.get(k)
        if v is None:
            # the argument counts every card out of the stock and the waste as in the
            # tableau or home, and every pile as a run (a cell as a pile of one card): a
            # position made up otherwise (a test, a puzzle) is not judged
            if sum(map(len, p)) != deck or any(len(p[c]) > 1 for c in cells) or \
                    any(rules.run_length(p[t], st.base) != len(p[t]) for t in tab if p[t]):
                return False
            if len(kept) > 1 << 16:
                kept.clear()
            v = kept[k] = not drains(p[stock_i][::-1], waste, st.base, bottoms)
        return v

    return dead


def make_dead_end(rules: Rules) -> DeadEndFn | None:
    """A test that proves a position lost, for the games where docs/solver.md argues
    one; else None.

    Some waste cards can only ever go home: in Corners every one (the waste feeds only
    the foundations); in Czarina, where the player never fills a space, a card of the
    highest relative rank, and any card whose one-higher cards are all home or below it
    in the waste.  Such cards leave the waste only by going home, so they go home in
    top-down order; each foundation takes its suit in rank order.  When these orders
    have a cycle, the game is lost.

    In the Acquaintance family, where deals cover every pile, a monotone relaxation of
    the last pass (``_reserve_row_dead_end``).
    """
    spec = rules.spec
    if _acquaintance_family(rules) and spec.deal_to_empty:
        return _reserve_row_dead_end(rules)
    if (rules.waste < 0 or spec.decks != 1 or spec.passes != 1 or spec.playback
            or spec.foundation_build is not Build.SUIT or spec.stock is not StockKind.WASTE
            or not spec.one_way or spec.free_cells):
        return None
    corners = (not rules.tab and not spec.waste_to_tableau
               and (not rules.cell or spec.refill_cells))
    czarina = (bool(rules.tab) and not rules.cell and spec.space is Space.AUTO
               and spec.tableau_build is Build.ANY and spec.waste_to_tableau)
    if not (corners or czarina):
        return None
    waste_i, found = rules.waste, rules.found
    n, suits = spec.ranks, spec.suits
    cycle = waste_cycle(n, suits, all_home_only=corners)

    def dead(st: State) -> bool:
        waste = st.piles[waste_i]
        if len(waste) < 2:
            return False
        nxt = [0] * suits  # the relative rank each suit needs next
        for f in found:
            fp = st.piles[f]
            if fp:
                nxt[fp[0] & 3] = len(fp)
        return cycle(waste, nxt, st.base)

    return dead
