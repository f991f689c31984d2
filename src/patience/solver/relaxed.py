"""A sound relaxation of the Four Seasons family, searched by tableau components.

In the Four Seasons family the tableau is built regardless of suit (or, in
Simplicity, in alternating colours), so every tableau pile is a run of
consecutive ranks counted from the base rank.  The relaxed game forgets *which*
pile holds which suit: a pile is only ``(relative rank of its top card,
length)``, and a pile whose top has relative rank ``r`` may send home *any*
rank-``r`` card that is somewhere in the tableau.  Every move of the real game
is a move of the relaxed game, so a relaxed loss is a real loss
(docs/solver.md, "Relaxation").

Two further reductions make the relaxed game small enough to exhaust:

* **Components.**  The tableau-only moves that can be undone (all of them in
  Four Seasons and Simplicity; those that empty no pile in Czarina; packet moves
  that leave no vacancy in the 1883 rules) connect shapes into components whose
  members are reachable from each other without touching stock, waste or
  foundations.  All members have the same outcome, so a position is keyed by the
  smallest member of its component, and its moves are the other moves (deal,
  waste and foundation plays, pile-emptying moves) made from any member.
* **The tableau's cards are not stored**: they are every card that is neither
  in the stock, in the waste, nor home.

Apart from the 1883 vacancy rule every remaining move strictly lowers
``2·stock + waste + cards not home``, so the graph of positions is acyclic and
every position that the depth-first search finishes without a win is lost;
the table of lost positions is kept between calls (:meth:`is_lost`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Protocol

from patience.rules.engine import Rules
from patience.rules.spec import Build, Runs, Space, StockKind
from patience.rules.state import DEAL, Move, State
from patience.solver import clock
from patience.solver.keys import WasteDrain, drain_applies, waste_cycle

try:  # the same search compiled (setup.py); without it, the search below runs
    from patience.solver import _relaxedc
except ImportError:  # pragma: no cover - a machine that could not build it
    _relaxedc = None  # type: ignore[assignment]

MAX_COMPONENT = 5000  # shapes; beyond this the relaxation gives up (it never guesses)
#: positions the compiled search keeps in its table of lost positions (16 bytes each, in a
#: table at most 70% full: 134 MB); once it is full, the search goes on without recording
MAX_COMPILED_STATES = 5_800_000
#: positions the compiled exact search keeps in its table of positions seen (24 bytes each,
#: in a table at most 70% full: 201 MB); once it is full it is emptied down to the half
#: nearest the opening (docs/solver.md, "Table"), which costs time only
MAX_EXACT_STATES = 5_800_000
#: tableaux the search by components numbers (16 bytes each, and a map at most 70% full:
#: about 70 MB); at three quarters of this it empties its tables and goes on from its
#: stack, and it gives up (the search goes on position by position) only when the stack's
#: own components fill half of it.  (With 2.9 million, a Czarina solve of 10 s peaked at up
#: to 1 GB; with 1.9 million at 680 MB, with the same verdicts on the deals decided late.
#: Solver 1.27 searches a third faster and fills more of its tables in 10 s: in the
#: Czarina bench, with 1.9 million, deal 142 peaked at 1,027 MB; with 1.6 million at
#: 994 MB; with 1.5 million the highest peak is 966 MB, deal 179.)
MAX_EXACT_TABLEAUX = 1_500_000
#: the search by components begins again from the root after 500 nodes, then after each
#: term of the Luby sequence times that (docs/solver.md, "Restarts"); 0 never restarts
RESTART_UNIT = 500

if _relaxedc is not None:
    CompiledExact = _relaxedc.Exact


class ComponentTooLarge(Exception):
    """A tableau component too large to enumerate: the relaxation is abandoned."""


RPile = tuple[int, int]  # (relative rank of the top card, length)
Shape = tuple[RPile, ...]  # sorted
RState = tuple[int, tuple[int, ...], tuple[int, ...], Shape]


class LostTable(Protocol):
    """The relaxed positions proven lost."""

    def __contains__(self, st: object, /) -> bool: ...

    def __len__(self) -> int: ...


class _CompiledTable:
    """The compiled search's table of lost positions, asked from Python."""

    def __init__(self, search: _relaxedc.Relaxed) -> None:
        self.search = search

    def __contains__(self, st: object, /) -> bool:
        return bool(self.search.contains(st))

    def __len__(self) -> int:
        return int(self.search.size)


def applies(rules: Rules) -> bool:
    """The family this relaxation is written for (and proven sound on)."""
    spec = rules.spec
    return (spec.stock is StockKind.WASTE and spec.passes == 1 and spec.decks == 1
            and spec.foundation_build is Build.SUIT and not spec.playback
            and not spec.prefilled and bool(rules.tab) and not rules.cell
            and spec.waste_to_tableau and spec.runs in (Runs.NONE, Runs.PACKET)
            and spec.one_way)


class _Component:
    """The shapes reachable from each other by reversible tableau moves, with
    the results of adding or removing a top card from any of them."""

    __slots__ = ("add", "canon", "members", "remove", "tops")

    def __init__(self, canon: Shape, members: list[Shape]) -> None:
        self.canon = canon
        self.members = members
        self.tops: set[int] | None = None  # relative ranks of the members' top cards
        self.add: dict[int, list[Shape]] = {}
        self.remove: dict[int, list[tuple[Shape, bool]]] = {}


def compiles(rules: Rules) -> bool:
    """True when the compiled search covers these rules (at most seven piles: all but
    Simplicity)."""
    spec = rules.spec
    return (_relaxedc is not None and len(rules.tab) <= 7 and spec.ranks <= 13
            and spec.suits <= 4)


class RelaxedSearch:
    """The relaxed game of one stock order and base rank (one deal).  ``compiled``:
    search with the compiled module where it covers the rules (the default), or always
    here in Python (the reference).  ``drain``: cut the positions whose waste cannot drain
    (docs/solver.md, "Draining the waste"), here and in the exact search that shares the
    deal (the default)."""

    def __init__(self, rules: Rules, root: State, compiled: bool = True,
                 drain: bool = True) -> None:
        spec = rules.spec
        self.rules = rules
        self.n = spec.ranks
        self.suits = spec.suits
        self.ntab = len(rules.tab)
        self.space = spec.space
        self.stock_to_space = spec.stock_to_space
        self.packets = spec.runs is Runs.PACKET
        # the stock as dealt from: its cards still to come, then (from a position past the
        # opening) the waste's cards, top first, as if just dealt in that order, which is
        # where they came from (a one-pass stock)
        waste = root.piles[rules.waste] if rules.waste >= 0 else ()
        self.stock = root.piles[rules.stock] + tuple(reversed(waste))
        self.base = root.base
        self.stock_pos = [-1] * 64
        for i, c in enumerate(self.stock):
            self.stock_pos[c] = i
        self.components: dict[Shape, _Component] = {}
        self._lost: set[RState] = set()  # the table of the search in Python
        self.lost: LostTable = self._lost
        # the drain test (docs/solver.md, "Draining the waste") reads only the stock and
        # the waste, which the relaxation keeps exactly, and holds in the relaxed game (its
        # tableau is runs of the cards out of the stock, the waste and home); it needs the
        # position to hold every card of the deal
        whole = sum(map(len, root.piles)) == self.n * self.suits
        self.drain = WasteDrain(self.n, self.suits, self.ntab, spec.space is not Space.AUTO) \
            if drain and drain_applies(rules) and whole else None
        self._drains: dict[tuple[int, tuple[int, ...]], bool] = {}
        self.compiled: _relaxedc.Relaxed | None = None
        if compiled and compiles(rules):
            self.compiled = _relaxedc.Relaxed(
                n=self.n, suits=self.suits, ntab=self.ntab, space_any=spec.space is Space.ANY,
                stock_to_space=spec.stock_to_space, refill=spec.space is Space.AUTO,
                dead_end=spec.space is Space.AUTO, stock=tuple(self.stock), base=self.base,
                max_component=MAX_COMPONENT, max_states=MAX_COMPILED_STATES,
                packets=self.packets, vacancy=spec.space is Space.VACANCY,
                drain=self.drain is not None)
            self.lost = _CompiledTable(self.compiled)
        # Czarina's dead-end test (docs/solver.md, "Dead ends") holds in the relaxed game
        # too: it reads only the waste and the foundations, which the relaxation keeps,
        # and a relaxed waste card still goes only home or onto a one-higher top
        self.waste_cycle = (waste_cycle(self.n, self.suits, all_home_only=False)
                            if spec.space is Space.AUTO else None)
        self.nodes = 0
        self.disabled = False
        self.win_path: list[RState] = []  # the last search's winning line, when it won

    def drains(self, st: RState) -> bool:
        """The drain test of a relaxed position (True where it does not apply)."""
        if self.drain is None or not st[1]:
            return True
        k = (st[0], st[1])
        v = self._drains.get(k)
        if v is None:
            v = self._drains[k] = self.drain(self.stock[:st[0]][::-1], st[1], self.base)
        return v

    # ------------------------------------------------------------ mapping
    def rel(self, c: int) -> int:
        return ((c >> 2) + 1 - self.base) % self.n

    def relax(self, st: State) -> RState | None:
        """The relaxed position of a real one (None if it is not of this deal)."""
        rules = self.rules
        p = st.piles
        if st.base != self.base or p[rules.stock] != self.stock[:len(p[rules.stock])]:
            return None
        height = [0] * self.suits
        for f in rules.found:
            if p[f]:
                height[p[f][0] & 3] = len(p[f])
        piles = []
        for t in rules.tab:
            pile = p[t]
            if pile:
                rels = [self.rel(c) for c in pile]
                if any(rels[i + 1] != rels[i] - 1 for i in range(len(rels) - 1)):
                    return None
                piles.append((rels[-1], len(pile)))
        shape = tuple(sorted(piles))
        return (len(p[rules.stock]), tuple(p[rules.waste]), tuple(height),
                self.component(shape).canon)

    # --------------------------------------------------------- components
    def _reversible(self, shape: Shape, lapsed: bool = False) -> Iterator[Shape]:
        """Shapes one reversible tableau move away (with ``lapsed``, also the moves
        allowed beside a lapsed 1883 vacancy)."""
        empty = self.ntab - len(shape)
        space_any = self.space is Space.ANY
        if self.space is Space.VACANCY and empty and not lapsed:
            return
        for i, (t, n) in enumerate(shape):
            if i and shape[i - 1] == (t, n):
                continue
            kmax = n if self.packets else 1
            for k in range(1, kmax + 1):
                if k == n and not space_any:
                    break  # empties a pile: a refill or a vacancy follows
                for j, (t2, n2) in enumerate(shape):
                    if j != i and t2 == t + k:
                        ps = list(shape)
                        ps[j] = (t, n2 + k)
                        if n > k:
                            ps[i] = (t + k, n - k)
                        else:
                            del ps[i]
                        yield tuple(sorted(ps))
            if space_any and empty and n > 1:
                ps = list(shape)
                ps[i] = (t + 1, n - 1)
                ps.append((t, 1))
                yield tuple(sorted(ps))

    def component(self, shape: Shape) -> _Component:
        comp = self.components.get(shape)
        if comp is not None:
            return comp
        seen = {shape}
        todo = [shape]
        while todo:
            s = todo.pop()
            for nxt in self._reversible(s):
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
            if len(seen) > MAX_COMPONENT:
                self.disabled = True
                raise ComponentTooLarge(len(seen))
        members = sorted(seen)
        comp = _Component(members[0], members)
        for s in members:
            self.components[s] = comp
        return comp

    def _adds(self, comp: _Component, r: int) -> list[Shape]:
        """Canonical shapes after a rank-``r`` card from the waste joins the tableau."""
        out = comp.add.get(r)
        if out is None:
            found: set[Shape] = set()
            for s in comp.members:
                for i, (t, n) in enumerate(s):
                    if t == r + 1:
                        ps = list(s)
                        ps[i] = (r, n + 1)
                        found.add(self.component(tuple(sorted(ps))).canon)
                if self.space is Space.ANY and len(s) < self.ntab:
                    found.add(self.component(tuple(sorted((*s, (r, 1))))).canon)
            out = comp.add[r] = sorted(found)
        return out

    def _removes(self, comp: _Component, t: int) -> list[tuple[Shape, bool]]:
        """Shapes (not yet canonical) after a top card of relative rank ``t`` leaves the
        tableau, with whether a pile was emptied."""
        out = comp.remove.get(t)
        if out is None:
            found: set[tuple[Shape, bool]] = set()
            for s in comp.members:
                for i, (t2, n) in enumerate(s):
                    if t2 == t:
                        ps = list(s)
                        if n > 1:
                            ps[i] = (t + 1, n - 1)
                        else:
                            del ps[i]
                        found.add((tuple(sorted(ps)), n == 1))
            out = comp.remove[t] = sorted(found)
        return out

    # --------------------------------------------------------------- moves
    def home_suits(self, r: int, sl: int, waste: tuple[int, ...],
                   h: tuple[int, ...]) -> list[int]:
        """Suits whose relative-rank-``r`` card is in the tableau and may go home now."""
        out = []
        rank0 = (r + self.base - 1) % self.n
        for s in range(self.suits):
            if h[s] == r:
                c = rank0 * 4 + s
                if not (0 <= self.stock_pos[c] < sl) and c not in waste:
                    out.append(s)
        return out

    def _settle(self, sl: int, shape: Shape, emptied: bool) -> tuple[int, Shape]:
        """Czarina's refill of an emptied pile, then the canonical shape."""
        if emptied and self.space is Space.AUTO and sl > 0:
            shape = tuple(sorted((*shape, (self.rel(self.stock[sl - 1]), 1))))
            sl -= 1
        return sl, self.component(shape).canon

    def _vacancy_fills(self, st: RState) -> list[RState] | None:
        """RULES A2: the fills of a pending vacancy, or None when play is not restricted."""
        sl, waste, h, shape = st
        if len(shape) == self.ntab or not (waste or sl):
            return None
        fills: list[RState] = []
        for i, (t, n) in enumerate(shape):
            if n > 1:
                ps = list(shape)
                ps[i] = (t + 1, n - 1)
                ps.append((t, 1))
                fills.append((sl, waste, h, self.component(tuple(sorted(ps))).canon))
        if waste:
            shape2 = tuple(sorted((*shape, (self.rel(waste[-1]), 1))))
            fills.append((sl, waste[:-1], h, self.component(shape2).canon))
        elif sl:
            shape2 = tuple(sorted((*shape, (self.rel(self.stock[sl - 1]), 1))))
            fills.append((sl - 1, waste, h, self.component(shape2).canon))
        return fills

    def successors(self, st: RState) -> list[RState]:
        """Each successor once, first occurrences in order: several moves often reach the
        same relaxed position (identical piles, the same shape after a removal, vacancy
        fills from equal piles), and a second copy would only find the first one searched
        already (docs/solver.md, "Each successor once")."""
        return list(dict.fromkeys(self._moves(st)))

    def _moves(self, st: RState) -> list[RState]:
        sl, waste, h, canon = st
        if self.space is Space.VACANCY:
            fills = self._vacancy_fills(st)
            if fills is not None:
                return fills
        comp = self.component(canon)
        out: list[RState] = []
        if waste:
            w = waste[-1]
            r = self.rel(w)
            rest = waste[:-1]
            if h[w & 3] == r:
                out.append((sl, rest, h[:w & 3] + (r + 1,) + h[(w & 3) + 1:], canon))
            for shape in self._adds(comp, r):
                out.append((sl, rest, h, shape))
        wanted: dict[int, list[int]] = {}  # rank t -> suits whose rank-t card may go home
        for s in range(self.suits):
            t = h[s]
            if t < self.n and t not in wanted:
                wanted[t] = self.home_suits(t, sl, waste, h)
        tops = comp.tops
        if tops is None:
            tops = comp.tops = {t for s in comp.members for (t, _) in s}
        for t in sorted(tops.intersection(wanted)):
            suits = wanted[t]
            if not suits:
                continue
            for shape, emptied in self._removes(comp, t):
                sl2, shape2 = self._settle(sl, shape, emptied)
                for s in suits:
                    out.append((sl2, waste, h[:s] + (t + 1,) + h[s + 1:], shape2))
        if self.space is not Space.ANY:
            # pile-emptying tableau moves (a refill or a vacancy follows)
            for member in comp.members:
                for i, (t, n) in enumerate(member):
                    k = n if (self.packets or n == 1) else 0
                    if not k:
                        continue
                    for j, (t2, n2) in enumerate(member):
                        if j != i and t2 == t + k:
                            ps = list(member)
                            ps[j] = (t, n2 + k)
                            del ps[i]
                            sl2, shape2 = self._settle(sl, tuple(sorted(ps)), True)
                            out.append((sl2, waste, h, shape2))
        if self.space is Space.VACANCY and len(canon) < self.ntab:
            # beside a lapsed vacancy (waste and stock empty) packets move between piles
            # and a single card may fill it
            for shape in self._reversible(canon, lapsed=True):
                out.append((sl, waste, h, self.component(shape).canon))
            for i, (t, n) in enumerate(canon):
                if n > 1:
                    ps = list(canon)
                    ps[i] = (t + 1, n - 1)
                    ps.append((t, 1))
                    out.append((sl, waste, h, self.component(tuple(sorted(ps))).canon))
        if sl:
            card = self.stock[sl - 1]
            if self.stock_to_space and len(canon) < self.ntab:
                out.append((sl - 1, waste, h, self.component(
                    tuple(sorted((*canon, (self.rel(card), 1))))).canon))
            out.append((sl - 1, (*waste, card), h, canon))
        return out

    def safe(self, st: RState) -> RState | None:
        """A move made without branching (docs/solver.md, "Safe moves"): the waste top
        or the only tableau card of its relative rank goes home when that rank is at
        most the lowest foundation height."""
        sl, waste, h, canon = st
        if self.space is Space.VACANCY and len(canon) < self.ntab and (waste or sl):
            return None  # a pending vacancy allows only fills
        low = min(h)
        if waste:
            w = waste[-1]
            r = self.rel(w)
            if r <= low and h[w & 3] == r:
                return (sl, waste[:-1], h[:w & 3] + (r + 1,) + h[(w & 3) + 1:], canon)
        # a suit whose foundation is at height t has t >= low: only t = low qualifies
        t = low
        if t >= self.n:
            return None
        suits = self.home_suits(t, sl, waste, h)
        if len(suits) != 1 or sum(1 for (t2, n) in canon if t2 <= t < t2 + n) != 1:
            return None
        for shape, emptied in self._removes(self.component(canon), t):
            if emptied and self.space is not Space.ANY:
                continue
            s = suits[0]
            return (sl, waste, h[:s] + (t + 1,) + h[s + 1:], self.component(shape).canon)
        return None

    def autoplay(self, st: RState) -> RState:
        while True:
            nxt = self.safe(st)
            if nxt is None:
                return st
            st = nxt

    def won(self, st: RState) -> bool:
        return all(x == self.n for x in st[2])

    # -------------------------------------------------------------- search
    def search(self, start: RState, max_nodes: int | None = None,
               deadline: float | None = None) -> str:
        """``"won"``, ``"lost"`` or ``"unknown"`` for the relaxed position ``start``.

        A depth-first search that records lost positions as it goes: a position is lost
        once its strongly connected component (Tarjan) is finished without a win, since
        everything it reaches has then been searched.  In the acyclic graphs (all but
        the 1883 rules) every component is a single position."""
        if self.compiled is not None:
            return self._search_compiled(start, max_nodes, deadline)
        root = self.autoplay(start)
        self.win_path = []
        if self.won(root):
            self.win_path = [root]
            return "won"
        lost = self._lost
        if root in lost:
            return "lost"
        index: dict[RState, int] = {root: 0}
        low: dict[RState, int] = {root: 0}
        scc: list[RState] = [root]  # Tarjan's stack
        stack: list[tuple[RState, Iterator[RState]]] = [(root, iter(self.successors(root)))]
        limit = None if max_nodes is None else self.nodes + max_nodes
        checks = 0
        while stack:
            state, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                stack.pop()
                lw = low[state]
                if lw == index[state]:  # a finished component: lost
                    while True:
                        w = scc.pop()
                        low[w] = -1  # off Tarjan's stack
                        lost.add(w)
                        if w == state:
                            break
                if stack:  # (a finished component's lowlink is above the parent's)
                    parent = stack[-1][0]
                    if lw < low[parent]:
                        low[parent] = lw
                continue
            nxt = self.autoplay(nxt)
            if nxt in lost:
                continue
            if ((self.waste_cycle is not None and len(nxt[1]) > 1
                    and self.waste_cycle(nxt[1], list(nxt[2]), self.base))
                    or not self.drains(nxt)):
                lost.add(nxt)  # a dead end
                continue
            seen = index.get(nxt)
            if seen is not None:
                if low[nxt] >= 0 and seen < low[state]:  # still on Tarjan's stack
                    low[state] = seen
                continue
            self.nodes += 1
            if self.won(nxt):
                self.win_path = [s for s, _ in stack] + [nxt]
                return "won"
            index[nxt] = low[nxt] = len(index)
            scc.append(nxt)
            stack.append((nxt, iter(self.successors(nxt))))
            checks += 1
            if checks >= 16:
                checks = 0
                if limit is not None and self.nodes >= limit:
                    return "unknown"
                if deadline is not None and clock.now() >= deadline:
                    return "unknown"
        return "lost"

    def _search_compiled(self, start: RState, max_nodes: int | None,
                         deadline: float | None) -> str:
        """:meth:`search`, by the compiled module: the same positions in the same order."""
        c = self.compiled
        assert c is not None
        seconds = -1.0 if deadline is None else max(0.0, deadline - clock.now())
        before = c.nodes
        try:
            verdict, path = c.search(start, -1 if max_nodes is None else max_nodes, seconds,
                                     clock.cpu())
        except _relaxedc.ComponentTooLarge as e:
            self.disabled = True
            raise ComponentTooLarge(str(e)) from None
        finally:
            self.nodes += c.nodes - before
        self.win_path = path
        return str(verdict)

    # ------------------------------------------------------ exact, compiled
    @property
    def exact_applies(self) -> bool:
        """Whether the game is one that the compiled exact search handles (given the
        compiled module): no packets, no vacancies, building regardless of colour, a
        stock of at most 47 cards."""
        return not (self.packets or self.space is Space.VACANCY or len(self.stock) > 47
                    or self.rules.spec.tableau_build is not Build.ANY)

    def exact(self, st: State, components: bool = False, guided: bool = False, *,
              cuts: bool = True, max_states: int | None = None,
              max_tableaux: int | None = None,
              restart_unit: int | None = None, beam: int = 0,
              beam_passes: int = 1, beam_growth: int = 2) -> CompiledExact | None:
        """The compiled exact search from the real position ``st`` (docs/solver.md,
        "Compiled exact search"), over tableau components with ``components``, or over
        the guided search's moves only with ``guided``, or a beam search for wins whose
        first pass has the width ``beam`` and which makes ``beam_passes`` passes, each
        ``beam_growth`` times as wide as the last ("Beam"), cut by this relaxation's table
        (unless ``cuts`` is false; the tables' sizes may be given); None where it does not
        apply (no compiled module, packets, vacancies, building in colours, or another
        deal)."""
        c = self.compiled
        rules = self.rules
        p = st.piles
        if (c is None or not self.exact_applies
                or st.base != self.base or p[rules.stock] != self.stock[:len(p[rules.stock])]):
            return None
        return _relaxedc.Exact(
            c, stock_length=len(p[rules.stock]), waste=tuple(p[rules.waste]),
            foundations=tuple((f[0] & 3, len(f)) if f else (-1, 0)
                              for f in (p[i] for i in rules.found)),
            tableau=tuple(tuple(p[i]) for i in rules.tab), cuts=cuts,
            max_states=MAX_EXACT_STATES if max_states is None else max_states,
            components=components, guided=guided,
            max_tableaux=MAX_EXACT_TABLEAUX if max_tableaux is None else max_tableaux,
            restart_unit=RESTART_UNIT if restart_unit is None else restart_unit, beam=beam,
            beam_passes=beam_passes, beam_growth=beam_growth)

    def exact_line(self, line: list[tuple[int, int]]) -> list[Move]:
        """The compiled exact search's winning line as moves: a source is -1 (the waste),
        -2 (deal) or a tableau pile's number; a destination is a tableau pile's number or
        64 + a foundation's number."""
        rules = self.rules
        ids = rules.ids
        moves = []
        for src, dst in line:
            if src == -2:
                moves.append(DEAL)
                continue
            a = "waste" if src == -1 else ids[rules.tab[src]]
            b = ids[rules.found[dst - 64]] if dst >= 64 else ids[rules.tab[dst]]
            moves.append(Move(a, b))
        return moves

    def release(self) -> None:
        """Frees the tables (a solve is over): the relaxation is then disabled."""
        self.disabled = True
        self._lost.clear()
        self.components.clear()
        if self.compiled is not None:
            self.compiled.release()

    def image(self, st: State) -> RState | None:
        """The relaxed position of ``st`` after the relaxed safe moves (None when the
        relaxation does not apply to it)."""
        if self.disabled:
            return None
        try:
            r = self.relax(st)
        except ComponentTooLarge:
            return None
        return None if r is None else self.autoplay(r)

    def known_lost(self, st: State) -> bool:
        """True when the relaxed image of ``st`` is already in the table of lost positions."""
        if self.disabled:
            return False
        try:
            r = self.relax(st)
        except ComponentTooLarge:
            return False
        return r is not None and self.autoplay(r) in self.lost

    def verdict(self, st: State, deadline: float | None = None,
                max_nodes: int | None = None) -> str | None:
        """The relaxed game's verdict on the real position ``st`` (``"unknown"`` when the
        budget ran out), or None when the relaxation does not apply to it."""
        if self.disabled:
            return None
        try:
            r = self.relax(st)
            if r is None:
                return None
            return self.search(r, max_nodes=max_nodes, deadline=deadline)
        except ComponentTooLarge:
            return None

    def is_lost(self, st: State, deadline: float | None = None,
                max_nodes: int | None = None) -> bool:
        """True when the relaxed game proves the real position ``st`` lost."""
        return self.verdict(st, deadline, max_nodes) == "lost"
