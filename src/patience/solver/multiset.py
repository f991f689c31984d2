"""The tableau as a multiset of cards: an exact abstraction of Fours Up (docs/solver.md,
"The tableau as a multiset").

Where the tableau builds down regardless of suit, any run moves (into a space too), a
space takes any card or run, nothing goes on a base-rank card and every pile is a run from
its bottom card, *which* tableau pile holds a card does not matter, only which cards the
tableau holds.  With ``n(r)`` the tableau cards of relative rank ``r`` and ``P`` piles:

* the fewest runs that hold them are ``m = Σ max(0, n(r) − n(r+1))``, and run moves can
  always bring the tableau down to ``m`` piles;
* a card of rank ``r`` can join the tableau iff ``m < P`` (a space can be made) or
  ``n(r+1) > n(r)`` (a pile ends in a rank ``r+1`` card);
* a tableau card of rank ``r`` can leave it iff ``m < P`` or ``n(r) > n(r−1)`` (a pile
  ends in a rank ``r`` card, and the run above the card goes there).

So a position is its *image* — the stock's length, the foundations' heights and the
waste, the tableau being every other card — and the game of images has the same verdict
as the real one.  :class:`MultisetGame` gives the images' moves (with the safe moves of
docs/solver.md, "Safe moves", made at once) and turns a line of them into real moves.
"""

from __future__ import annotations

from collections.abc import Iterator

from patience.rules.engine import Rules
from patience.rules.spec import Build, Runs, Space, StockKind
from patience.rules.state import DEAL, Move, State
from patience.solver.keys import match_tokens

try:  # the same search compiled (setup.py); without it, search._MultisetRun runs in Python
    from patience.solver import _multisetc
except ImportError:  # pragma: no cover - a machine that could not build it
    _multisetc = None  # type: ignore[assignment]

#: images the compiled search keeps (24 bytes each, in a table at most 70% full: 384 MB);
#: once full, it stops undecided
MAX_COMPILED_IMAGES = 11_000_000
#: the compiled search begins again from the root after 1,000 images, then after each term
#: of the Luby sequence times that, the successors shuffled (docs/solver.md, "Restarts");
#: 0 never restarts (the search in Python, its reference, does not)
RESTART_UNIT = 1_000

#: an image: bytes ``[stock length, height of each foundation (grouped by suit, sorted
#: within a suit), waste cards bottom to top (as ``rank·4 + suit``, ranks relative)]``
Image = bytes
#: one step of an image's line: ``("deal",)``, ``("wf",)`` (the waste's top card home),
#: ``("wt",)`` (the waste's top card to the tableau), ``("tf", k)`` (tableau card ``k``
#: home) or ``("ft", i)`` (the top card of the foundation in height slot ``i`` played back)
Event = tuple[str, ...] | tuple[str, int]


def applies(rules: Rules) -> bool:
    """Whether a game's declaration is one the abstraction is proven for."""
    s = rules.spec
    return (bool(rules.tab) and rules.waste >= 0 and s.stock is StockKind.WASTE
            and s.passes == 1 and s.tableau_build is Build.ANY and s.runs is Runs.ANY
            and s.space is Space.ANY and not s.build_on_base and s.tableau_up == 0
            and not s.stock_to_space and s.waste_to_tableau and s.prefilled
            and s.foundation_build is Build.SUIT and s.foundations_down == 0
            and s.foundation_wrap and not rules.cell and not rules.res)


class MultisetGame:
    """The game of images of one position's game.  It is not used (``whole`` is False)
    where a pile is not a run from its bottom card, or where the position does not hold
    every card of the game (a position made up for a test or a puzzle)."""

    def __init__(self, rules: Rules, state: State) -> None:
        self.rules = rules
        spec = rules.spec
        self.nr = spec.ranks
        self.base = state.base
        self.piles = len(rules.tab)
        p = state.piles
        # foundations grouped by suit; a slot's height is its number of cards
        self.groups: list[list[int]] = [[] for _ in range(4)]
        for f in rules.found:
            self.groups[p[f][0] & 3].append(f)
        self.slot_suit = [s for s in range(4) for _ in self.groups[s]]
        self.group_start = []
        i = 0
        for g in self.groups:
            self.group_start.append(i)
            i += len(g)
        self.nf = i
        #: the drain test is argued for one or two foundations a suit (docs/solver.md,
        #: "Draining the waste")
        self.drain_applies = all(1 <= len(g) <= 2 for g in self.groups)
        self._drains: dict[tuple[int, bytes], bool] = {}
        total = [0] * (4 * self.nr)
        for c in rules.deck():
            total[self.index(c)] += 1
        self.total = bytes(total)
        stock = p[rules.stock]
        self.stock = bytes(self.index(c) for c in stock)  # top last
        # tableau cards of each kind before the waste and the foundations are counted out:
        # every card not in the stock's first ``sl`` cards
        left = list(total)
        for c in stock:
            left[self.index(c)] -= 1
        out = [list(left)]
        for k in reversed(self.stock):
            left[k] += 1
            out.append(list(left))
        self.outside = out[::-1]  # outside[sl]: the stock holds its first sl cards
        self.outside_by_rank = [[sum(o[4 * r:4 * r + 4]) for r in range(self.nr)] + [0]
                                for o in self.outside]
        # the tableau is every card not in the stock, the waste or home: true of every
        # position of a deal, not of a position made up with cards left out
        img = self.image(state)
        held = [0] * (4 * self.nr)
        for t in rules.tab:
            for c in p[t]:
                held[self.index(c)] += 1
        self.whole = img is not None and held == [self._count(img, k)
                                                  for k in range(4 * self.nr)]

    # ------------------------------------------------------------------ images
    def index(self, c: int) -> int:
        return ((c >> 2) + 1 - self.base) % self.nr * 4 + (c & 3)

    def image(self, st: State) -> Image | None:
        rules = self.rules
        p = st.piles
        for t in rules.tab:
            if p[t] and rules.run_length(p[t], st.base) != len(p[t]):
                return None
        heights = bytearray()
        for g in self.groups:
            heights += bytes(sorted(len(p[f]) for f in g))
        return bytes((len(p[rules.stock]),)) + bytes(heights) + \
            bytes(self.index(c) for c in p[rules.waste])

    def compiled(self, img: Image, restart_unit: int = RESTART_UNIT,
                 drain: bool = True) -> _multisetc.Search | None:
        """The compiled search from ``img`` (None where it is not built or does not fit),
        restarting after ``restart_unit`` images and the Luby sequence's multiples (0:
        never, the same search as the one in Python), cutting the images whose waste
        cannot drain (``drain`` and ``drain_applies``)."""
        if _multisetc is None:
            return None
        nf = self.nf
        sl = img[0]
        d = img[1 + nf:] + self.stock[:sl][::-1]  # the waste, then the stock as dealt
        if len(d) > 128 or self.nr > 15 or nf > 8:
            return None
        return _multisetc.Search(d=d, waste=len(img) - 1 - nf, total=self.total,
                                 slot_suits=bytes(self.slot_suit), heights=img[1:1 + nf],
                                 ranks=self.nr, piles=self.piles,
                                 playback=self.rules.spec.playback,
                                 max_states=MAX_COMPILED_IMAGES, restart_unit=restart_unit,
                                 drain=drain and self.drain_applies)

    def won(self, img: Image) -> bool:
        nr = self.nr
        return all(h == nr for h in img[1:1 + self.nf])

    def home(self, img: Image) -> int:
        """Cards on the foundations."""
        return sum(img[1:1 + self.nf])

    def _count(self, img: Image, k: int) -> int:
        """Tableau cards of kind ``k``."""
        nf = self.nf
        r, s = k >> 2, k & 3
        a = self.group_start[s]
        home = sum(1 for h in img[1 + a:1 + a + len(self.groups[s])] if h > r)
        return self.outside[img[0]][k] - img.count(k, 1 + nf) - home

    def by_rank(self, img: Image) -> list[int]:
        """Tableau cards of each relative rank (and a 0 for the rank above the top)."""
        nf = self.nf
        byr = list(self.outside_by_rank[img[0]])
        for k in img[1 + nf:]:
            byr[k >> 2] -= 1
        for h in img[1:1 + nf]:
            for r in range(h):
                byr[r] -= 1
        return byr

    def fewest_runs(self, img: Image) -> int:
        """The fewest runs that hold the tableau's cards."""
        return self._runs(self.by_rank(img))

    def _runs(self, byr: list[int]) -> int:
        """The fewest runs that hold ``byr`` cards of each rank: ``Σ max(0, n(r) − n(r+1))``."""
        return sum(max(0, byr[r] - byr[r + 1]) for r in range(self.nr))

    def successors(self, img: Image) -> Iterator[tuple[list[Event], Image]]:
        """Each move from ``img`` with the safe moves after it, and the image reached."""
        settle = self.settle
        for ev, nxt in self.moves(img):
            # a deal changes neither the tableau nor the foundations of a settled image:
            # only the dealt card can go home
            yield settle(nxt, [ev], waste_only=ev[0] == "deal")

    def moves(self, img: Image) -> Iterator[tuple[Event, Image]]:
        """Each move from ``img`` and the image it reaches: cards home first, then the
        waste's top card to the tableau, play-back, the deal (play-back before the deal
        finds wins far sooner: a card played back joins runs that the waste's cards
        need).  None from a won image: a won game has no legal moves (RULES, "End"), so
        no card is played back from it."""
        if self.won(img):
            return
        nf = self.nf
        nr = self.nr
        sl = img[0]
        h = img[1:1 + nf]
        w = img[1 + nf:]
        byr = self.by_rank(img)
        # loose: fewer runs than piles, so a space can be made
        loose = self._runs(byr) < self.piles
        start = self.group_start
        slot_suit = self.slot_suit
        # a tableau card home
        for i in range(nf):
            r = h[i]
            if r >= nr or (i > start[slot_suit[i]] and h[i - 1] == r):
                continue  # complete, or the same as the slot before
            if loose or byr[r] > (byr[r - 1] if r else 0):
                k = r * 4 + slot_suit[i]
                if self._count(img, k):
                    yield ("tf", k), self._raise(img, i, 1)
        if w:
            k = w[-1]
            r, s = k >> 2, k & 3
            for i in range(start[s], start[s] + len(self.groups[s])):
                if h[i] == r:
                    yield ("wf",), self._raise(img[:-1], i, 1)
                    break
            if loose or byr[r + 1] > byr[r]:
                yield ("wt",), img[:-1]
        if self.rules.spec.playback:
            for i in range(nf):
                r = h[i] - 1  # the top card's rank; the founding card never leaves
                if r < 1 or (i + 1 < start[slot_suit[i]] + len(self.groups[slot_suit[i]])
                              and h[i + 1] == h[i]):
                    continue
                if loose or byr[r + 1] > byr[r]:
                    yield ("ft", i), self._raise(img, i, -1)
        if sl:
            yield ("deal",), bytes((sl - 1,)) + img[1:] + self.stock[sl - 1:sl]

    def _raise(self, img: Image, i: int, d: int) -> Image:
        """``img`` with slot ``i`` one card higher (or lower), its suit's slots sorted."""
        nf = self.nf
        h = bytearray(img[1:1 + nf])
        h[i] += d
        s = self.slot_suit[i]
        a = self.group_start[s]
        b = a + len(self.groups[s])
        h[a:b] = bytes(sorted(h[a:b]))
        return img[:1] + bytes(h) + img[1 + nf:]

    def settle(self, img: Image, events: list[Event] | None = None, waste_only: bool = False
               ) -> tuple[list[Event], Image]:
        """Make the safe moves: a card of rank at most the lowest foundation height that
        can go home goes (docs/solver.md, "Safe moves", read for images: a tableau card
        can go home when some arrangement of the tableau has it on top)."""
        events = [] if events is None else events
        nf = self.nf
        nr = self.nr
        while True:
            h = img[1:1 + nf]
            low = min(h)
            if low >= nr:
                return events, img
            moved = False
            for i in range(nf):
                if h[i] != low or (i > self.group_start[self.slot_suit[i]] and h[i - 1] == low):
                    continue
                k = low * 4 + self.slot_suit[i]
                if len(img) > 1 + nf and img[-1] == k:
                    events = [*events, ("wf",)]
                    img = self._raise(img[:-1], i, 1)
                    moved = True
                    break
                if waste_only:
                    continue
                if self._count(img, k):
                    byr = self.by_rank(img)
                    if self._runs(byr) < self.piles or byr[low] > (byr[low - 1] if low else 0):
                        events = [*events, ("tf", k)]
                        img = self._raise(img, i, 1)
                        moved = True
                        break
            if not moved:
                return events, img
            waste_only = False  # a card went home: the tableau's cards may follow

    def shortcut(self, path: list[Image]) -> list[Event]:
        """The events of a line through ``path`` (each image a successor of the one
        before) that jumps, from each image, to the furthest later image of ``path`` that
        one move reaches: a depth-first search's line wanders, and this one is far
        shorter."""
        at = {img: i for i, img in enumerate(path)}
        events: list[Event] = []
        i = 0
        while i < len(path) - 1:
            j, step = max((at.get(nxt, -1), ev) for ev, nxt in self.successors(path[i]))
            if j <= i:  # (never: the next image of the path is a successor)
                raise RuntimeError("a line whose image has no successor on it")
            events += step
            i = j
        return events

    # ------------------------------------------------------------ draining the waste
    def drains(self, img: Image) -> bool:
        """The drain test (docs/solver.md, "Draining the waste"): whether every waste card
        can leave in turn, from the top down, each when the cards above it have left and
        so have the stock's cards dealt by then (which lie above it).  False proves the
        image lost.  It reads the stock's length and the waste alone."""
        nf = self.nf
        sl = img[0]
        waste = img[1 + nf:]
        kept = self._drains.get((sl, waste))
        if kept is None:
            kept = self._drains[sl, waste] = self._drains_now(sl, waste)
        return kept

    def _drains_now(self, sl: int, waste: bytes) -> bool:
        u = list(self.outside[sl])
        for k in waste:
            u[k] -= 1
        coming = iter(self.stock[:sl][::-1])  # the stock in the order it is dealt
        for w in reversed(waste):
            while not self.can_leave(u, w):
                nxt = next(coming, None)
                if nxt is None:
                    return False
                u[nxt] += 1
            u[w] += 1
        return True

    def can_leave(self, u: list[int], w: int) -> bool:
        """Whether waste card ``w`` can go home or to the tableau under some configuration
        of the foundations, when ``u`` counts the cards of each kind in the tableau or home
        (``w`` not among them).  With t(r) the slots whose top card has rank r, the tableau
        needs m = Σ_r max(0, e(r) − t(r)) runs, e(r) = c(r) − c(r+1) for the c(r) cards of
        rank r in ``u``; each slot is a token that may sit at any top rank up to a limit."""
        nr, piles = self.nr, self.piles
        r0, s0 = w >> 2, w & 3
        c = [sum(u[4 * r:4 * r + 4]) for r in range(nr)] + [0]
        e = [0] + [c[r] - c[r + 1] for r in range(1, nr)]
        cap = [0] + [max(0, x) for x in e[1:]]
        base = sum(cap)
        limits = [self._limits(u, su) for su in range(4)]
        tokens = [x for lims in limits for x in lims]
        own = limits[s0]
        if r0 - 1 <= own[-1]:  # home: a slot of its suit whose top card has rank r0 - 1
            rest = [x for su in range(4) if su != s0 for x in limits[su]]
            if len(own) == 2:
                rest.append(own[1] if r0 - 1 <= own[0] else own[0])
            c2 = list(cap)
            got = 0
            if r0 - 1 >= 1 and c2[r0 - 1] > 0:
                c2[r0 - 1] -= 1
                got = 1
            if base - got - match_tokens(c2, rest, 1) <= piles:
                return True
        fewest = base - match_tokens(cap, tokens, 1)
        if fewest < piles:
            return True  # loose: a space can be made
        if fewest > piles or r0 + 1 >= nr:
            return False
        # full: a pile must end in a rank r0+1 card, n(r0+1) > n(r0), that is t(r0) > e(r0)
        q = e[r0] + 1
        if q <= 0:
            return True
        order = sorted(range(len(tokens)), key=lambda i: tokens[i])  # stable, as in C
        taken = [i for i in order if tokens[i] >= r0][:q]
        if len(taken) < q:
            return False
        c2 = list(cap)
        c2[r0] = 0
        rest = [tokens[i] for i in range(len(tokens)) if i not in taken]
        return base - cap[r0] - match_tokens(c2, rest, 1) <= piles

    def _limits(self, u: list[int], su: int) -> list[int]:
        """The top-rank limit of each slot of suit ``su``, lowest first: the j-th lowest of g
        slots reaches up to the first rank of which ``u`` has at most g − 1 − j cards."""
        g = len(self.groups[su])
        out = []
        for j in range(g):
            h = next((r for r in range(1, self.nr) if u[4 * r + su] <= g - 1 - j), self.nr)
            out.append(h - 1)
        return out

    # ---------------------------------------------------------------- real moves
    def realize(self, st: State, events: list[Event]) -> tuple[list[Move], State]:
        """The real moves that carry out ``events`` from ``st`` (a position whose image the
        events start from), and the position they reach.  Tableau moves are added where
        a card must be freed or a place made, as the abstraction's argument does."""
        moves: list[Move] = []
        for ev in events:
            for m in self._event_moves(st, ev):
                why = self.rules.why_illegal(st, m)
                if why is not None:  # the argument of docs/solver.md failed: a bug
                    raise RuntimeError(f"realizing {ev}: {m} is illegal: {why}")
                st = self.rules.apply(st, m)
                moves.append(m)
        return moves, st

    def _event_moves(self, st: State, ev: Event) -> Iterator[Move]:
        rules = self.rules
        ids = rules.ids
        kind = ev[0]
        if kind == "deal":
            yield DEAL
        elif kind == "wf":
            yield Move("waste", ids[self._foundation_for(st, st.piles[rules.waste][-1])])
        elif kind == "wt":
            yield from self._place(st, "waste", st.piles[rules.waste][-1])
        elif kind == "ft":
            slot = int(ev[1])
            s = self.slot_suit[slot]
            height = sorted(len(st.piles[f]) for f in self.groups[s])[slot - self.group_start[s]]
            f = next(f for f in self.groups[s] if len(st.piles[f]) == height)
            yield from self._place(st, ids[f], st.piles[f][-1])
        else:
            k = int(ev[1])
            yield from self._free(st, k)

    def _foundation_for(self, st: State, c: int) -> int:
        rel = self.index(c) >> 2
        return next(f for f in self.groups[c & 3] if len(st.piles[f]) == rel)

    def _merge(self, st: State) -> Move:
        """A whole pile onto another pile's top that takes its bottom card: one always
        exists while the tableau has more piles than the fewest runs holding its cards."""
        rules = self.rules
        p = st.piles
        for a in rules.tab:
            if not p[a]:
                continue
            for b in rules.tab:
                if b != a and p[b] and rules.builds_on(p[a][0], p[b][-1], st.base):
                    return Move(rules.ids[a], rules.ids[b], len(p[a]))
        raise RuntimeError("no space and no pile to merge")  # the argument failed: a bug

    def _place(self, st: State, src: str, c: int) -> Iterator[Move]:
        """Moves that put card ``c`` (from ``src``) on the tableau; the caller applies
        each before asking for the next."""
        rules = self.rules
        while True:
            p = st.piles
            spaces = [t for t in rules.tab if not p[t]]
            fits = [t for t in rules.tab if p[t] and rules.builds_on(c, p[t][-1], st.base)]
            if fits or spaces:
                yield Move(src, rules.ids[(fits or spaces)[0]])
                return
            m = self._merge(st)
            yield m
            st = rules.apply(st, m)

    def _free(self, st: State, k: int) -> Iterator[Move]:
        """Moves that bring a tableau card of kind ``k`` to a pile's top and then home."""
        rules = self.rules
        while True:
            p = st.piles
            best: tuple[int, int] | None = None  # (cards above it, pile)
            for t in rules.tab:
                pile = p[t]
                for depth in range(len(pile)):
                    if self.index(pile[-1 - depth]) == k:
                        if best is None or depth < best[0]:
                            best = (depth, t)
                        break
            if best is None:
                raise RuntimeError(f"no card of kind {k} in the tableau")  # a bug
            depth, t = best
            if depth == 0:
                c = p[t][-1]
                yield Move(rules.ids[t], rules.ids[self._foundation_for(st, c)])
                return
            bottom = p[t][-depth]  # the lowest card of the run above it
            places = [u for u in rules.tab if u != t and p[u]
                      and rules.builds_on(bottom, p[u][-1], st.base)]
            places += [u for u in rules.tab if not p[u]]
            m = Move(rules.ids[t], rules.ids[places[0]], depth) if places else self._merge(st)
            yield m
            st = rules.apply(st, m)
