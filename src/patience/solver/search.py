"""The search: an explicit-stack depth-first search over canonical positions.

It decides a position exactly: ``won`` with a line of real moves (which the
tests replay through the engine), ``lost`` only when every position reachable
(up to the proven equivalences, safe moves and relaxation of docs/solver.md)
has been searched, or ``unknown`` when the node or time budget ran out first.
"""

from __future__ import annotations

import collections
import heapq
import tracemalloc
import zlib
from collections.abc import Callable, Collection, Generator, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from patience.rules.engine import Rules
from patience.rules.spec import Space, StockKind
from patience.rules.state import DEAL, Move, State
from patience.solver import clock, multiset, relaxed
from patience.solver.keys import (
    DeadEndFn,
    make_dead_end,
    make_drain_dead_end,
    make_key,
    make_safe,
    make_tableau_key,
    suits_matter,
)

if TYPE_CHECKING:
    from patience.solver import _multisetc

WON, LOST, UNKNOWN = "won", "lost", "unknown"


@dataclass
class SolveResult:
    """The verdict with its counters.

    ``moves`` is the winning line (move texts) when ``status == "won"``.
    ``best_line`` leads to the position with the most cards on foundations
    that the search saw (used for heuristic hints when undecided).
    """

    status: str
    moves: list[str] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0
    peak_table: int = 0
    peak_memory: int = 0
    best_line: list[str] = field(default_factory=list)
    best_progress: int = 0
    proof: str = ""  # how a loss was proven: "exhausted" or "relaxation"

    @property
    def decided(self) -> bool:
        return self.status != UNKNOWN

    def __str__(self) -> str:
        return (f"{self.status} ({self.nodes:,} positions, {self.seconds:.3f} s, "
                f"table {self.peak_table:,})")


class _Frame:
    __slots__ = ("i", "line", "moves", "state")

    def __init__(self, state: State, moves: list[Move], line: list[Move]) -> None:
        self.state = state
        self.moves = moves
        self.i = 0
        self.line = line  # moves from the parent to here (the choice and its safe moves)


Prune = Callable[[State], bool]


class _Search:
    """What every resumable search shares: the root after its safe moves, the verdict
    so far, the winning line, and the line to the best position seen."""

    visited: Collection[bytes]

    def __init__(self, solver: Solver, state: State, prune: Prune | None) -> None:
        self.solver = solver
        self.prune = prune
        self.root, self.root_line = solver.autoplay(state)
        self.nodes = 1
        self.best_progress = solver.progress(self.root)
        self._best_line: list[Move] = list(self.root_line)
        self.line: list[Move] = []
        self.status = UNKNOWN
        if solver.rules.is_won(self.root):
            self.status = WON
            self.line = list(self.root_line)
        elif prune is not None and prune(self.root):
            self.status = LOST

    @property
    def best_path(self) -> list[Move]:
        return self._best_line

    def spent(self, deadline: float | None, max_nodes: int | None) -> bool:
        return (max_nodes is not None and self.nodes >= max_nodes) or \
            (deadline is not None and clock.now() >= deadline)

    @property
    def table_size(self) -> int:
        return len(self.visited)

    def run(self, deadline: float | None, max_nodes: int | None) -> str:
        raise NotImplementedError


class _Run(_Search):
    """One resumable depth-first search from one position."""

    def __init__(self, solver: Solver, state: State, prune: Prune | None,
                 guided: bool = False, variant: int = 0) -> None:
        super().__init__(solver, state, prune)
        self.guided = guided
        self.variant = variant
        self.visited: set[bytes] = {solver.key(self.root)}
        self.stack: list[_Frame] = []
        if self.status == UNKNOWN:
            self.stack.append(_Frame(self.root, solver.ordered_moves(self.root, guided, variant),
                                     self.root_line))

    def run(self, deadline: float | None, max_nodes: int | None) -> str:
        """Search on until decided or out of budget; returns the status."""
        if self.status != UNKNOWN:
            return self.status
        solver = self.solver
        rules = solver.rules
        key = solver.key
        visited = self.visited
        stack = self.stack
        prune = self.prune
        checks = 0
        while stack:
            frame = stack[-1]
            if frame.i >= len(frame.moves):
                stack.pop()
                continue
            m = frame.moves[frame.i]
            frame.i += 1
            child, auto = solver.autoplay(rules.apply(frame.state, m))
            k = key(child)
            if k in visited:
                continue
            visited.add(k)
            self.nodes += 1
            step = [m, *auto]
            if rules.is_won(child):
                self.status = WON
                self.line = [mv for f in stack for mv in f.line] + step
                return WON
            prog = solver.progress(child)
            if prog > self.best_progress:
                self.best_progress = prog
                self._best_line = [mv for f in stack for mv in f.line] + step
            if prune is not None and prune(child):
                continue
            stack.append(_Frame(child, solver.ordered_moves(child, self.guided, self.variant),
                                step))
            checks += 1
            # the clock every 8 positions: where the dead-end test is slow (Czarina's, in
            # Python, a few milliseconds a position) 64 overran a deadline by 0.1 s; the
            # node budget every 64, as the fair player's probes were measured with
            if deadline is not None and not checks & 7 and clock.now() >= deadline:
                return UNKNOWN
            if checks >= 64:
                checks = 0
                if max_nodes is not None and self.nodes >= max_nodes:
                    return UNKNOWN
        self.status = LOST
        return LOST


class _BestFirst(_Search):
    """A resumable best-first search: the open position with the best
    :meth:`Solver.score` is expanded first (the newest among equals).  It
    explores the same positions as the depth-first search, in another order,
    so its verdicts are as exact; it keeps the open positions in memory."""

    def __init__(self, solver: Solver, state: State, prune: Prune | None) -> None:
        super().__init__(solver, state, prune)
        k = solver.key(self.root)
        self.parent: dict[bytes, tuple[bytes, list[Move]] | None] = {k: None}
        self.visited = self.parent.keys()  # the table, for the counters
        self.best_key = k
        self.seq = 0
        self.heap: list[tuple[int, int, bytes, State]] = []
        if self.status == UNKNOWN:
            self.heap.append((-solver.score(self.root), 0, k, self.root))

    def path(self, k: bytes) -> list[Move]:
        steps: list[list[Move]] = []
        link = self.parent[k]
        while link is not None:
            k, moves = link
            steps.append(moves)
            link = self.parent[k]
        return list(self.root_line) + [m for moves in reversed(steps) for m in moves]

    @property
    def best_path(self) -> list[Move]:
        return self.path(self.best_key)

    def run(self, deadline: float | None, max_nodes: int | None) -> str:
        if self.status != UNKNOWN:
            return self.status
        solver = self.solver
        rules = solver.rules
        key = solver.key
        parent = self.parent
        heap = self.heap
        prune = self.prune
        checks = 0
        while heap:
            _, _, k, st = heapq.heappop(heap)
            for m in solver.ordered_moves(st):
                child, auto = solver.autoplay(rules.apply(st, m))
                ck = key(child)
                if ck in parent:
                    continue
                parent[ck] = (k, [m, *auto])
                self.nodes += 1
                if rules.is_won(child):
                    self.status = WON
                    self.line = self.path(ck)
                    return WON
                prog = solver.progress(child)
                if prog > self.best_progress:
                    self.best_progress = prog
                    self.best_key = ck
                if prune is not None and prune(child):
                    continue
                self.seq += 1
                heapq.heappush(heap, (-solver.score(child), -self.seq, ck, child))
            checks += 1
            if checks >= 32:
                checks = 0
                if self.spent(deadline, max_nodes):
                    return UNKNOWN
        self.status = LOST
        return LOST


#: the beam search's widths, one pass from the root each (docs/solver.md, "Beam"): the
#: compiled search's passes begin at the first
BEAM_WIDTHS = (100, 400, 1600)
#: the beam's widths in the other games, searched in Python (the relatives, Quadrennial):
#: a few positions a layer win most deals
BEAM_WIDTHS_PLAIN = (4, 16, 64, 256)
#: the compiled search's passes (the last 102,400 wide), each so many times as wide as the
#: last: in Four Seasons four, in Czarina (its phases ramped, below) two since solver 1.34
#: (docs/solver.md, "Passes twice as wide")
BEAM_PASSES, BEAM_GROWTH = 6, 4
BEAM_PASSES_RAMPED, BEAM_GROWTH_RAMPED = 11, 2
BEAM_END = 0.3  # the end of its first phase (a share of the budget; Czarina: BEAM_END_RAMPED)
BEAM_TURNS = 2  # its turns a round
#: positions of one layer searched by tableau moves, per place in the beam: in the Four
#: Seasons family as many as the beam (a layer filled out ten times over is slower to
#: search and finds fewer wins), in the other games ten times as many (their tableau
#: moves are most of a line)
BEAM_CLOSURE = 1
BEAM_CLOSURE_PLAIN = 10
BEAM_WASTE = 60  # what a waste card costs in the beam's order (a card home is 100)

_Link = tuple[tuple[Move, ...], "_Link | None"]  # a line, as its last moves and the rest
#: the kinds of piles (source, destination) of a move that can keep the beam's layer
_WITHIN = frozenset({("t", "t"), ("t", "c"), ("c", "t"), ("c", "c"), ("f", "f")})


class _BeamRun(_Search):
    """A layered beam search, for wins only (docs/solver.md, "Beam"): every move but a
    tableau move raises ``home + 2 * dealt - len(waste)``, and a redeal the pass counted
    above it (a play back from a foundation lowers it: the search leaves those out), so
    the positions fall into layers by that number.
    A layer is first filled out by tableau moves (up to ``closure`` times the width),
    then only its ``width`` best positions by :meth:`_BeamRun.order` go on to
    the layers above (with ``spread``, see :meth:`best`).  Passes from the root with wider
    beams follow one another. A win is a real line; a pass that dies out proves nothing,
    and after the last one the run drops out of the turns (as a guided search that runs
    dry).

    ``spread`` is the compiled beam's rule (``BEAM_SPREAD`` in ``_relaxedc.c``, 1), kept
    here as its reference; the solver's beams in Python go without it: at their speed
    it wins fewer deals within a solve's budget (docs/solver.md, "One tableau a
    skeleton")."""

    def __init__(self, solver: Solver, state: State, prune: Prune | None,
                 widths: tuple[int, ...] = BEAM_WIDTHS, closure: int = BEAM_CLOSURE,
                 spread: int | None = None) -> None:
        super().__init__(solver, state, prune)
        self.closure = closure
        self.spread = spread
        rules = solver.rules
        self._skeleton_piles = tuple(i for i in range(len(state.piles)) if i not in rules.tab)
        self.stock_i, self.waste_i = rules.stock, rules.waste
        self.dealt0 = len(state.piles[self.stock_i])
        # a redeal puts the waste, or the reserve piles, back in the stock (at most every
        # card): a pass more counts above all that the pass before could reach
        self.passes0, self.per_pass = state.passes, 2 * rules.total + 1
        self.visited: dict[bytes, tuple[State, _Link]] = {}  # the layer searched
        self.passes = 0
        self._steps: Iterator[None] | None = None
        if self.status == UNKNOWN:
            self._steps = self._search(widths)

    def level(self, st: State) -> int:
        """The layer's number: every move but a tableau move (and a play back from a
        foundation, which lowers it) raises it."""
        dealt = self.dealt0 - len(st.piles[self.stock_i])
        return self.solver.progress(st) + 2 * dealt - self.waste(st) + \
            (st.passes - self.passes0) * self.per_pass

    def waste(self, st: State) -> int:
        """How many cards are in the waste (none where the game has no waste)."""
        return len(st.piles[self.waste_i]) if self.waste_i >= 0 else 0

    def order(self, st: State) -> int:
        """How promising a position looks (higher first): :meth:`Solver.score` less
        ``BEAM_WASTE`` for each waste card (every one must leave it, from the top)."""
        return self.solver.score(st) - BEAM_WASTE * self.waste(st)

    def skeleton(self, st: State) -> tuple[tuple[int, ...], ...]:
        """All but the tableau, as the piles lie (not sorted as in the keys: a skeleton
        told apart only by the order of its foundations spreads the beam a little less)."""
        piles = st.piles
        return tuple(piles[i] for i in self._skeleton_piles)

    def best(self, layer: Iterable[tuple[State, _Link]],
             width: int) -> list[tuple[State, _Link]]:
        """The ``width`` positions of a layer that go on: the best by :meth:`order`, but
        with ``spread``, the best ``spread`` of each skeleton (all but the tableau) before
        a further one of any (docs/solver.md, "One tableau a skeleton"), and between
        equals the later in the layer first, as the compiled beam ("Ties, and most of two
        seconds in Czarina")."""
        entries = list(layer)
        if self.spread is not None:
            entries.reverse()  # (a stable sort: equals keep this order)
        ranked = sorted(entries, key=lambda e: self.order(e[0]), reverse=True)
        if self.spread is None or len(ranked) <= width:
            return ranked[:width]
        skeleton = self.skeleton
        taken: dict[tuple[tuple[int, ...], ...], int] = {}
        first: list[tuple[State, _Link]] = []
        rest: list[tuple[State, _Link]] = []
        for entry in ranked:
            k = skeleton(entry[0])
            n = taken.get(k, 0)
            if n < self.spread:
                taken[k] = n + 1
                first.append(entry)
                if len(first) == width:
                    return first
            elif len(rest) < width:
                rest.append(entry)
        return (first + rest)[:width]

    def run(self, deadline: float | None, max_nodes: int | None) -> str:
        if self.status != UNKNOWN or self._steps is None:
            return self.status
        for _ in self._steps:
            if self.spent(deadline, max_nodes):
                return UNKNOWN
        if self.status == UNKNOWN:
            self.status = LOST  # every pass died out: it drops out (no proof)
        return self.status

    def _search(self, widths: tuple[int, ...]) -> Iterator[None]:
        """Yields every few dozen positions, so that :meth:`run` keeps its budget."""
        for width in widths:
            self.passes += 1
            if (yield from self._pass(width)):
                return

    def _children(self, st: State, link: _Link,
                  within: bool = False) -> Iterator[tuple[State, int, _Link]]:
        """Each move's position from ``st`` (after its safe moves), its layer, and its line;
        ``within``: only the moves that can keep the layer, between tableau piles and cells
        or between foundations (the others change what is home, dealt or in the waste)."""
        solver, rules = self.solver, self.solver.rules
        kind, index = rules.kind, rules.index
        for m in solver.ordered_moves(st):
            if within and (m.src == "deal" or (kind[index[m.src]], kind[index[m.dst]]) not in
                           _WITHIN):
                continue
            child, auto = solver.autoplay(rules.apply(st, m))
            yield child, self.level(child), ((m, *auto), link)

    def _pass(self, width: int) -> Generator[None, None, bool]:
        """One pass; returns whether it won.  A child not in its layer yet is counted
        (yielding every 64), and kept there unless the dead-end tests cut it."""
        solver, prune, key = self.solver, self.prune, self.solver.key
        layers: dict[int, dict[bytes, tuple[State, _Link]]] = {
            self.level(self.root): {key(self.root): (self.root, (tuple(self.root_line), None))}}
        cap = self.closure * width
        while layers:
            here = min(layers)
            layer = self.visited = layers.pop(here)
            frontier = list(layer.values())
            while frontier and len(layer) < cap:  # the layer filled out by tableau moves
                grown: list[tuple[State, _Link]] = []
                for st, link in frontier:
                    for child, up, line in self._children(st, link, within=True):
                        if up != here:
                            continue
                        k = key(child)
                        if k in layer:
                            continue
                        self.nodes += 1
                        if not self.nodes & 63:
                            yield
                        if prune is None or not prune(child):
                            layer[k] = entry = (child, line)
                            grown.append(entry)
                        if len(layer) >= cap:
                            break
                    if len(layer) >= cap:
                        break
                frontier = grown
            best = self.best(layer.values(), width)
            if best:
                prog = solver.progress(best[0][0])
                if prog > self.best_progress:
                    self.best_progress, self._best_line = prog, _flatten(best[0][1])
            for st, link in best:
                for child, up, line in self._children(st, link):
                    if up <= here:
                        continue
                    k = key(child)
                    above = layers.setdefault(up, {})
                    if k in above:
                        continue
                    self.nodes += 1
                    if not self.nodes & 63:
                        yield
                    if solver.rules.is_won(child):
                        self.status = WON
                        self.line = _flatten(line)
                        return True
                    if prune is None or not prune(child):
                        above[k] = (child, line)
        return False


def _flatten(link: _Link | None) -> list[Move]:
    steps: list[tuple[Move, ...]] = []
    while link is not None:
        moves, link = link
        steps.append(moves)
    return [m for moves in reversed(steps) for m in moves]


MAX_MEMBERS = 2_000  # tableaux in one component; past this a position is keyed as it is


class _Component:
    """The tableaux reachable from an entry position by tableau moves that can be
    undone, each with the real moves that reach it from the entry."""

    __slots__ = ("canon", "parent", "states")

    def __init__(self) -> None:
        self.canon = b""
        self.states: dict[bytes, State] = {}
        self.parent: dict[bytes, tuple[bytes, Move] | None] = {}

    def path(self, k: bytes) -> list[Move]:
        out: list[Move] = []
        link = self.parent[k]
        while link is not None:
            k, m = link
            out.append(m)
            link = self.parent[k]
        out.reverse()
        return out


class _ComponentRun(_Search):
    """A resumable depth-first search whose positions are tableau components
    (docs/solver.md, "Components"): positions that differ only by tableau moves
    that can be undone have the same outcome, so one is searched for all, and
    its moves are the other moves made from any of its tableaux."""

    def __init__(self, solver: Solver, state: State, prune: Prune | None) -> None:
        super().__init__(solver, state, prune)
        self.canon_of: dict[bytes, bytes] = {}  # tableau key -> component canon (cache)
        self.too_large: set[bytes] = set()  # tableau keys of components past MAX_MEMBERS
        comp = self.component(self.root)
        self.visited: set[bytes] = {self.node_key(self.root, comp)}
        self.stack: list[tuple[_Component | None, Iterator[tuple[list[Move], State]],
                               list[Move]]] = []
        if self.status == UNKNOWN:
            self.stack.append((comp, self.children(self.root, comp), self.root_line))

    def tkey(self, st: State) -> bytes:
        """The tableau's key, with what else decides which tableau moves are legal: in the
        1883 game a vacancy blocks them while the waste or the stock has cards."""
        k = self.solver.tableau_key(st)
        if self.solver.vacancy:
            rules = self.solver.rules
            k += b"+" if st.piles[rules.stock] or st.piles[rules.waste] else b"-"
        return k

    def component(self, st: State) -> _Component | None:
        """The component of ``st`` explored from it (None when too large)."""
        solver = self.solver
        rules = solver.rules
        tkey = self.tkey
        comp = _Component()
        k0 = tkey(st)
        comp.states[k0] = st
        comp.parent[k0] = None
        todo = collections.deque([k0])
        while todo:
            k = todo.popleft()  # breadth first: short paths from the entry
            cur = comp.states[k]
            for m in rules.legal_moves(cur):
                if not solver.reversible(cur, m):
                    continue
                nxt = rules.apply(cur, m)
                nk = tkey(nxt)
                if nk not in comp.states:
                    comp.states[nk] = nxt
                    comp.parent[nk] = (k, m)
                    todo.append(nk)
            if len(comp.states) > MAX_MEMBERS:
                # every tableau met is in the same (too large) component: not again
                self.too_large.update(comp.states)
                return None
        comp.canon = min(comp.states)
        for k in comp.states:
            self.canon_of[k] = comp.canon
        return comp

    def node_key(self, st: State, comp: _Component | None) -> bytes:
        head = self.solver.key_without_tableau(st)
        if comp is None:
            return b"R" + self.solver.key(st)
        return head + b"\xfe" + comp.canon

    def child_key(self, st: State) -> tuple[bytes, _Component | None]:
        """The key of a new position; its component is explored only when not cached."""
        tk = self.tkey(st)
        canon = self.canon_of.get(tk)
        if canon is not None:
            return self.solver.key_without_tableau(st) + b"\xfe" + canon, None
        if tk in self.too_large:
            return self.node_key(st, None), None
        comp = self.component(st)
        return self.node_key(st, comp), comp

    def children(self, st: State, comp: _Component | None) -> Iterator[tuple[list[Move], State]]:
        """Every other move from every tableau of the component, as (the moves from the
        entry position, the position they start from): first the plays to the
        foundations from any tableau, then the rest, each tableau in turn."""
        solver = self.solver
        if comp is None:
            for m in solver.ordered_moves(st):
                yield [m], st
            return
        later: list[tuple[bytes, State, list[Move]]] = []
        deal = False
        for k, member in comp.states.items():
            moves = [m for m in solver.ordered_moves(member)
                     if not solver.reversible(member, m)]
            rest = []
            for m in moves:
                if m.dst[:1] == "f" and m.src[0] != "f":
                    yield [*comp.path(k), m], member
                elif m.src == "deal":
                    deal = True  # the same from every tableau: tried once, last
                else:
                    rest.append(m)
            if rest:
                later.append((k, member, rest))
        for k, member, rest in later:
            path = comp.path(k)
            for m in rest:
                yield [*path, m], member
        if deal:
            yield [DEAL], st

    def run(self, deadline: float | None, max_nodes: int | None) -> str:
        if self.status != UNKNOWN:
            return self.status
        solver = self.solver
        rules = solver.rules
        stack = self.stack
        visited = self.visited
        prune = self.prune
        while stack:
            _, todo, _ = stack[-1]
            nxt = next(todo, None)
            if nxt is None:
                stack.pop()
                continue
            moves, member = nxt
            child, auto = solver.autoplay(rules.apply(member, moves[-1]))
            k, ccomp = self.child_key(child)
            if k in visited:
                continue
            visited.add(k)
            self.nodes += 1
            step = [*moves, *auto]
            if rules.is_won(child):
                self.status = WON
                self.line = [m for f in stack for m in f[2]] + step
                return WON
            prog = solver.progress(child)
            if prog > self.best_progress:
                self.best_progress = prog
                self._best_line = [m for f in stack for m in f[2]] + step
            if prune is not None and prune(child):
                continue
            if ccomp is None and not k.startswith(b"R"):
                ccomp = self.component(child)
            stack.append((ccomp, self.children(child, ccomp), step))
            if self.spent(deadline, max_nodes):  # each step may explore a component
                return UNKNOWN
        self.status = LOST
        return LOST


PLAN_MEMBERS = 3_000  # tableaux of one component searched for the plan's next step
PLAN_NODES = 5_000  # relaxed positions searched for a plan from one real position


_PlanChild = tuple[list[Move], State, "list[relaxed.RState] | None"]


class _PlanRun(_Search):
    """A depth-first search guided by the relaxation's winning lines (docs/solver.md,
    "Plans").  At each position the relaxed game is searched from the position's relaxed
    image: a relaxed loss cuts the position (a proof); a relaxed win is a plan.  The
    tableaux that tableau moves which can be undone reach from the position are searched
    breadth first, and the other moves made from them are tried: those whose relaxed
    image lies on the plan as soon as they are found, the rest after.  It is a
    guided search: its wins are real, and running dry proves nothing, since large
    components are searched only in part."""

    def __init__(self, solver: Solver, state: State, prune: Prune | None,
                 rx: relaxed.RelaxedSearch) -> None:
        super().__init__(solver, state, prune)
        self.rx = rx
        self.limit: int | None = None  # the node budget of the current turn
        self.deadline: float | None = None  # and its end
        self.visited: set[bytes] = {solver.key(self.root)}
        self.stack: list[tuple[Iterator[_PlanChild], list[Move]]] = []
        if self.status == UNKNOWN:
            self.stack.append((self.children(self.root, None), self.root_line))

    def children(self, st: State, given: list[relaxed.RState] | None
                 ) -> Iterator[_PlanChild]:
        """(moves from ``st``, the position they lead to, the plan from there when it is
        the rest of this one), most promising first.  ``given`` is a plan from ``st``
        already known (the rest of the parent's)."""
        solver = self.solver
        rules = solver.rules
        rx = self.rx
        image = rx.image
        img = image(st)
        line: list[relaxed.RState] = []
        room = PLAN_NODES if self.limit is None else max(1, min(PLAN_NODES,
                                                                 self.limit - self.nodes))
        if given and given[0] == img:
            line = given
        elif img is not None:
            before = rx.nodes
            try:
                verdict = rx.search(img, max_nodes=room, deadline=self.deadline)
            except relaxed.ComponentTooLarge:
                verdict = UNKNOWN  # the relaxation is abandoned (it never guesses)
            self.nodes += rx.nodes - before  # relaxed positions count as searched too
            if verdict == LOST:
                return
            if verdict == WON:
                line = rx.win_path
        plan = {p: i for i, p in enumerate(line)}
        key = solver.key
        lost = rx.lost
        members = {key(st)}
        todo: collections.deque[tuple[State, list[Move]]] = collections.deque([(st, [])])
        rest: list[tuple[int, int, list[Move], State]] = []
        n = 0
        deadline = self.deadline
        while todo:
            if deadline is not None and clock.now() >= deadline:
                break  # out of time: the moves found so far (a guided search may skip some)
            cur, path = todo.popleft()
            for m in solver.ordered_moves(cur):
                if solver.reversible(cur, m):
                    if len(members) < min(PLAN_MEMBERS, room):
                        nxt = rules.apply(cur, m)
                        k = key(nxt)
                        if k not in members:
                            members.add(k)
                            todo.append((nxt, [*path, m]))
                            self.nodes += 1
                    continue
                child, auto = solver.autoplay(rules.apply(cur, m))
                ci = image(child)
                step = [*path, m, *auto]
                if ci is not None and ci in plan:
                    # on the plan: at once, nearest tableau first
                    yield step, child, line[plan[ci]:]
                elif ci is None or ci not in lost:
                    n += 1
                    rest.append((solver.move_class(cur, m), n, step, child))
        rest.sort(key=lambda x: x[:2])
        for _, _, step, child in rest:
            yield step, child, None

    def run(self, deadline: float | None, max_nodes: int | None) -> str:
        if self.status != UNKNOWN:
            return self.status
        self.limit = max_nodes
        self.deadline = deadline
        rules = self.solver.rules
        key = self.solver.key
        visited = self.visited
        stack = self.stack
        prune = self.prune
        while stack:
            todo, _ = stack[-1]
            nxt = next(todo, None)
            if nxt is None:
                stack.pop()
                continue
            step, child, given = nxt
            k = key(child)
            if k in visited:
                continue
            visited.add(k)
            self.nodes += 1
            if rules.is_won(child):
                self.status = WON
                self.line = [m for f in stack for m in f[1]] + step
                return WON
            prog = self.solver.progress(child)
            if prog > self.best_progress:
                self.best_progress = prog
                self._best_line = [m for f in stack for m in f[1]] + step
            if prune is not None and prune(child):
                continue
            stack.append((self.children(child, given), step))
            if self.spent(deadline, max_nodes):
                return UNKNOWN
        self.status = LOST
        return LOST


#: positions of the guided search in Python that give an undecided solve its heuristic line
#: when no other search reached a card home (Four Seasons, Czarina: see ``Solver._solve``)
GUIDED_HINT_NODES = 300

#: Czarina's first phases take the shares of a solve of this many seconds, whatever the
#: budget (the guided search a tenth, the beam to eight tenths, the exact search by
#: components to nine, the relaxation to nineteen twentieths), and the turns have the rest:
#: the first two seconds of a longer solve are a two-second solve, in which the beam has
#: most of the time (since solver 1.33; the exact search until 1.32)
RAMP_SECONDS = 2.0
#: the ends of those phases, shares of RAMP_SECONDS (docs/solver.md, "Ties, and most of two
#: seconds in Czarina"): the beam's,
BEAM_END_RAMPED = 0.8
EXACT_END_RAMPED = 0.9  # the exact search's
RELAX_END_RAMPED = 0.95  # and the relaxation's

#: images the search over the tableau as a multiset keeps (about 100 bytes each): at most
#: 400 MB; once full, it can no longer prove a loss and stops
MAX_IMAGES = 4_000_000


class _MultisetRun(_Search):
    """Depth-first search over the images of ``multiset.MultisetGame`` (docs/solver.md,
    "The tableau as a multiset"): the images' game has the real game's verdict, so its
    verdict is exact either way, and its winning line is made real move by move.  Compiled
    where it is built (``_multisetc``, the same images in the same order when
    ``restart_unit`` is 0; by default it restarts, docs/solver.md, "Restarts"), unless
    ``compiled=False``.  An image whose waste cannot drain is lost and not searched on
    (docs/solver.md, "Draining the waste"), unless ``drain=False``."""

    def __init__(self, solver: Solver, state: State, game: multiset.MultisetGame,
                 compiled: bool = True, restart_unit: int = multiset.RESTART_UNIT,
                 drain: bool = True) -> None:
        super().__init__(solver, state, None)
        self.game = game
        self.drain = drain and game.drain_applies
        self.cuts = 0
        self.visited: set[bytes] = set()
        # (the moves still to try, the image, and the events that led to it)
        self.stack: list[tuple[Iterator[tuple[list[multiset.Event], bytes]], bytes,
                               list[multiset.Event]]] = []
        self.full = False
        self.c: _multisetc.Search | None = None
        #: the end of the whole solve's budget on the clock, when it has one: the compiled
        #: search does not begin a growth of its table that would end past it
        self.until: float | None = None
        self.size = 0
        self._best: tuple[list[multiset.Event], list[bytes]] | None = None
        if self.status != UNKNOWN:
            return
        img = game.image(self.root)
        if img is None or not game.whole:  # the abstraction does not apply
            self.full = True
            return
        if compiled:
            self.c = game.compiled(img, restart_unit, self.drain)
        self.first, img = game.settle(img)  # the root's safe moves (the compiled search's too)
        if self.c is not None:
            return
        self.visited.add(img)
        if game.won(img):
            self._win(self.first, [img])
        elif self.drain and not game.drains(img):
            self.cuts += 1
            self.status = LOST
        else:
            self.stack.append((game.successors(img), img, self.first))

    @property
    def table_size(self) -> int:
        return max(self.size, self.c.size if self.c is not None else len(self.visited))

    def _path(self, img: bytes) -> tuple[list[multiset.Event], list[bytes]]:
        """The events from the root image to its safe moves' end, and the images of the
        line from there to ``img``, a successor of the stack's top."""
        return self.first, [f[1] for f in self.stack] + [img]

    def _win(self, first: list[multiset.Event], path: list[bytes]) -> None:
        game = self.game
        moves, st = game.realize(self.root, first + game.shortcut(path))
        if not self.solver.rules.is_won(st):  # the argument failed: a bug, never a verdict
            raise RuntimeError("a won image whose line does not win")
        self.status = WON
        self.line = [*self.root_line, *moves]

    @property
    def best_path(self) -> list[Move]:
        if self.c is not None and self.c.best_home > self.solver.progress(self.root):
            self._best = (self.first, self.c.best)
        if self._best is not None:
            first, path = self._best
            moves, _ = self.game.realize(self.root, first + self.game.shortcut(path))
            self._best_line = [*self.root_line, *moves]
            self._best = None
        return self._best_line

    def run(self, deadline: float | None, max_nodes: int | None) -> str:
        if self.status != UNKNOWN or self.full:
            return self.status
        if self.c is not None:
            return self._run_compiled(deadline, max_nodes)
        game = self.game
        visited = self.visited
        stack = self.stack
        checks = 0
        while stack:
            nxt = next(stack[-1][0], None)
            if nxt is None:
                stack.pop()
                continue
            events, img = nxt
            if img in visited:
                continue
            visited.add(img)
            self.nodes += 1
            if game.won(img):
                self._win(*self._path(img))
                return WON
            home = game.home(img)  # cards home, as ``Solver.progress`` counts them
            if home > self.best_progress:
                self.best_progress = home
                self._best = self._path(img)
            if self.drain and not game.drains(img):  # lost; in ``visited``, as searched
                self.cuts += 1
                continue
            stack.append((game.successors(img), img, events))
            checks += 1
            if checks >= 64:
                checks = 0
                if len(visited) >= MAX_IMAGES:
                    self.full = True  # out of room: no proof can follow
                    return UNKNOWN
                if self.spent(deadline, max_nodes):
                    return UNKNOWN
        self.status = LOST
        return LOST

    def _run_compiled(self, deadline: float | None, max_nodes: int | None) -> str:
        c = self.c
        assert c is not None
        now = clock.now()
        seconds = -1.0 if deadline is None else max(0.0, deadline - now)
        until = -1.0 if self.until is None else max(0.0, self.until - now)
        room = -1 if max_nodes is None else max(1, max_nodes - self.nodes)
        before = c.nodes
        status = c.search(room, seconds, clock.cpu(), until)
        self.nodes += c.nodes - before
        self.cuts = c.cuts
        self.best_progress = max(self.best_progress, c.best_home)
        if status == WON:
            assert c.line is not None
            self._win(self.first, c.line)
        elif status == LOST:
            self.status = LOST
        self.full = c.full
        if self.status != UNKNOWN or self.full:
            self.size = c.size
            self._best = (self.first, c.best) if self.status == UNKNOWN else None
            c.release()
            self.c = None
        return self.status


class _RelaxedRun(_Search):
    """The relaxation searched from the root, in turns (docs/solver.md, "Schedule"): a
    relaxed loss is the deal's loss.  A relaxed win proves nothing, and the run stops
    (``dry``).  Its table of lost positions is the one the other searches cut with, so
    each turn resumes where the last one stopped."""

    def __init__(self, solver: Solver, state: State, rx: relaxed.RelaxedSearch) -> None:
        super().__init__(solver, state, None)
        self.state = state
        self.rx = rx
        self.visited = ()
        self.dry = self.status != UNKNOWN

    def run(self, deadline: float | None, max_nodes: int | None) -> str:
        if self.status != UNKNOWN or self.dry:
            return self.status
        before = self.rx.nodes
        room = None if max_nodes is None else max(1, max_nodes - self.nodes)
        verdict = self.rx.verdict(self.state, deadline, room)
        self.nodes += self.rx.nodes - before
        if verdict == LOST:
            self.status = LOST
        elif verdict != UNKNOWN:
            self.dry = True  # won, or the relaxation does not apply
        return self.status


class _CompiledRun(_Search):
    """The exact search compiled (``_relaxedc.Exact``, docs/solver.md, "Compiled exact
    search"): every position reachable in Four Seasons or Czarina, depth first, cut by the
    dead-end test and by the relaxation's table of lost positions; first over tableau
    components, and over single positions if that search gives up (its stack's
    components, or one component, too large for its table).  Resumable; either verdict
    is exact.  With ``guided``, the guided search's moves only
    (``Solver.guided_filter``), position by position: its wins are real, and running dry
    (``lost``) proves nothing; so with ``beam``, the beam search (:class:`_CompiledBeamRun`).
    """

    def __init__(self, solver: Solver, state: State, prune: Prune | None,
                 rx: relaxed.RelaxedSearch, guided: bool = False, beam: bool = False) -> None:
        super().__init__(solver, state, prune)
        self.visited = ()
        self.rx = rx
        self.state = state
        self.beam = beam
        self.by_components = not guided and not beam
        self.c: relaxed.CompiledExact | None
        if beam:
            ramped = solver.ramped
            self.c = rx.exact(state, beam=BEAM_WIDTHS[0],
                              beam_passes=BEAM_PASSES_RAMPED if ramped else BEAM_PASSES,
                              beam_growth=BEAM_GROWTH_RAMPED if ramped else BEAM_GROWTH)
        else:
            self.c = rx.exact(state, components=not guided, guided=guided)
        self.size = 0

    @property
    def table_size(self) -> int:
        return self.size if self.c is None else max(self.size, self.c.size)

    def run(self, deadline: float | None, max_nodes: int | None) -> str:
        if self.status != UNKNOWN or self.c is None:
            return self.status
        seconds = -1.0 if deadline is None else max(0.0, deadline - clock.now())
        room = -1 if max_nodes is None else max(1, max_nodes - self.nodes)
        before = self.c.nodes
        verdict, line = self.c.search(room, seconds, clock.cpu())
        self.nodes += self.c.nodes - before
        if verdict == WON:
            self.line = self.rx.exact_line(line)
        if verdict != UNKNOWN:
            self.status = verdict
            self.release()
        elif self.c.finished and self.beam:  # every pass died out: dry, no proof
            self.status = LOST
            self.release()
        elif self.c.finished and self.by_components:  # gave up: position by position
            self.release()
            self.by_components = False
            self.c = self.rx.exact(self.state)
        return self.status

    def release(self) -> None:
        """Frees the tables (a solve is over)."""
        if self.c is not None:
            self.size = max(self.size, self.c.size)
            self.c.release()
            self.c = None


class _CompiledBeamRun(_CompiledRun):
    """The beam search compiled (``_relaxedc.Exact`` with ``beam``, docs/solver.md,
    "Beam"; :class:`_BeamRun` is the same search in Python): the passes from the root,
    each four times as wide as the last (in Czarina twice), cut by the dead-end tests and
    the relaxation's table.  A win is a real line; once its passes have died out it runs
    dry (``lost``), which proves nothing."""

    def __init__(self, solver: Solver, state: State, prune: Prune | None,
                 rx: relaxed.RelaxedSearch) -> None:
        super().__init__(solver, state, prune, rx, beam=True)


class Solver:
    """A game's search, compiled once from its rules."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.key = make_key(rules)
        self.key_without_tableau = make_key(rules, tableau=False)
        self.tableau_key = make_tableau_key(rules)
        # tableau moves can be undone (docs/solver.md, "Components"); in two-deck games
        # the components grow too large to pay for themselves
        self.components = bool(rules.tab) and rules.spec.decks == 1 and rules.spec.one_way
        self.vacancy = rules.spec.space is Space.VACANCY
        self.safe = make_safe(rules)
        #: the dead-end test of the game's own rules (the fair player's probes use it)
        self.dead_end = make_dead_end(rules)
        # a solve's searches also cut the positions whose waste cannot drain, in the Four
        # Seasons and Busy Aces families (docs/solver.md, "Draining the waste"); the fair
        # player's probes, whose policy is fixed by its version, do not
        drained = make_drain_dead_end(rules)
        base_dead = self.dead_end
        self.solve_dead_end: DeadEndFn | None = base_dead if drained is None else \
            drained if base_dead is None else (lambda st: base_dead(st) or drained(st))
        self.found = rules.found
        self.reserve_row = rules.spec.stock is StockKind.RESERVE_ROW
        self.relaxable = relaxed.applies(rules)
        # the search guided by the relaxation's plans (docs/solver.md, "Plans"), where it
        # wins: not in Czarina, whose spaces the player never fills, so the suit-free
        # relaxation's plans can rarely be carried out (of deals 1-200 at 2 s, every win
        # and all but one loss came from the compiled searches, that loss from the
        # relaxation's first search, which runs without it)
        self.plans = rules.spec.space is not Space.AUTO
        #: Czarina's first phases are those of a solve of RAMP_SECONDS whatever the budget,
        #: and its beam's passes grow by BEAM_GROWTH_RAMPED
        self.ramped = self.relaxable and not self.plans
        self.multiset = multiset.applies(rules)
        # the beam search in Python (docs/solver.md, "Beam"), for wins, in the games
        # without the compiled one: its layers hold there too (a play back from a
        # foundation, which would lower them, it leaves out); not in Fours Up, whose search
        # over images wins there
        self.plain_beam = not self.relaxable and not self.multiset
        self.playback = rules.spec.playback
        # two-deck waste games: depth-first wanders; best-first finds wins (docs/solver.md)
        self.best_first = rules.spec.decks > 1 and rules.spec.stock is StockKind.WASTE
        # where the key holds only the foundations' heights (suits matter nowhere), two
        # foundations of one group with the same height are one: a card sent to either
        # makes the same key (docs/solver.md, "Equivalences")
        self.home_by_height: dict[int, int] | None = None
        if not suits_matter(rules):  # (so the foundations build regardless of suit)
            self.home_by_height = {f: g for g, group in enumerate(rules.found_groups)
                                   for f in group}

    # ------------------------------------------------------------- helpers
    def progress(self, st: State) -> int:
        return sum(len(st.piles[f]) for f in self.found)

    def reversible(self, st: State, m: Move) -> bool:
        """A legal tableau-to-tableau move that the reverse move undoes: every card in
        a tableau pile above its bottom card was placed there legally, so it can go back;
        a pile emptied by the move can take it back only where spaces take any card."""
        if m.src[0] != "t" or m.dst[0] != "t":
            return False
        p = st.piles
        if self.rules.spec.space is Space.ANY:
            return True
        return len(p[self.rules.index[m.src]]) > m.n and bool(p[self.rules.index[m.dst]])

    def move_class(self, st: State, m: Move) -> int:
        """Move ordering for the component search: home first, deals last."""
        if m.src == "deal":
            return 9
        if m.dst[0] == "f":
            return 0 if m.src[0] != "f" else 8
        if m.src == "waste":
            return 2
        if m.src == "stock":
            return 4
        return 3 if m.src[0] == "t" else 6

    def score(self, st: State) -> int:
        """How promising a position looks, for the best-first order (ordering only):
        cards home count most, then empty tableau piles, then how shallow in the
        waste the cards that the foundations need next lie."""
        p = st.piles
        rules = self.rules
        home = 0
        need: set[int] = set()
        for f in self.found:
            fp = p[f]
            home += len(fp)
            if fp and len(fp) < rules.spec.ranks:
                top = fp[-1]
                need.add((rules.next_needed(f, top) - 1) * 4 + (top & 3))
        score = 100 * home
        score += 20 * sum(1 for t in rules.tab if not p[t])
        if rules.waste >= 0:
            waste = p[rules.waste]
            n = len(waste)
            for i, c in enumerate(waste):
                if c in need:
                    score -= 3 * (n - 1 - i)  # cards above a needed one
        return score

    def autoplay(self, st: State) -> tuple[State, list[Move]]:
        """Make every safe move (docs/solver.md, "Safe moves")."""
        done: list[Move] = []
        if self.safe is None:
            return st, done
        while True:
            m = self.safe(st)
            if m is None:
                return st, done
            st = self.rules.apply(st, m)
            done.append(m)

    def one_per_height(self, st: State, moves: list[Move]) -> list[Move]:
        """``moves`` without those that send a card from where an earlier one sends it to
        a foundation of the same group and height: they make the same key."""
        group = self.home_by_height
        assert group is not None
        index, piles = self.rules.index, st.piles
        seen: set[tuple[str, int, int]] = set()
        out = []
        for m in moves:
            d = index.get(m.dst, -1)
            if d in group:
                sig = (m.src, group[d], len(piles[d]))
                if sig in seen:
                    continue
                seen.add(sig)
            out.append(m)
        return out

    def guided_filter(self, st: State, moves: list[Move]) -> list[Move]:
        """The moves a guided search tries (docs/solver.md, "Guided search"): foundation
        plays, waste plays, deals, and tableau moves that empty a pile or uncover a
        card that can go home.  Wins found this way are real; nothing is proven lost."""
        rules = self.rules
        piles = st.piles
        index = rules.index
        out = []
        home_moves = False
        goes_home: dict[int, list[int]] | None = None  # card → foundations taking it now
        for m in moves:
            if m.src == "deal":
                out.append(m)
                continue
            s, d = index[m.src], index[m.dst]
            ks, kd = rules.kind[s], rules.kind[d]
            if kd == "f":
                if ks != "f":
                    out.append(m)
                    home_moves = home_moves or len(piles[s]) > 1
                continue
            if ks in ("waste", "stock"):
                out.append(m)
            elif ks == "t" and kd == "t":
                src = piles[s]
                if len(src) == m.n:
                    if piles[d]:
                        out.append(m)
                else:
                    if goes_home is None:
                        goes_home = rules.home_map(st)
                    if src[-m.n - 1] in goes_home:
                        out.append(m)
        if self.reserve_row and home_moves:
            # play what can be played before dealing
            out = [m for m in out if m.src != "deal"]
        return out

    def ordered_moves(self, st: State, guided: bool = False, variant: int = 0) -> list[Move]:
        """Legal moves, most promising first (ordering only; nothing is cut), or the
        guided subset of them; ``variant`` > 0 breaks ties in another fixed order."""
        rules = self.rules
        index = rules.index
        kind = rules.kind
        moves = rules.legal_moves(st)
        if self.home_by_height is not None:
            moves = self.one_per_height(st, moves)
        if self.playback:
            # a foundation's top moved to another foundation building the same way leaves
            # the same key
            down = rules.down
            moves = [m for m in moves if not (m.src[0] == "f" and m.dst[0] == "f" and (
                (index[m.src] in down) == (index[m.dst] in down)))]
        if guided:
            moves = self.guided_filter(st, moves)
        if len(moves) < 2:
            return moves
        piles = st.piles
        passes = rules.spec.passes

        def score(m: Move) -> int:
            if m.src == "deal":
                return 100 if piles[rules.stock] else 200  # redeal last of all
            s, d = index[m.src], index[m.dst]
            ks, kd = kind[s], kind[d]
            if ks == "f":
                return 60 if kd == "t" else 150  # play-back: late; foundation shuffles: last
            if kd == "f":
                if self.reserve_row:
                    # a move home that empties a reserve pile stops that pile's deals for
                    # the rest of the pass: first (variant 0) keep every pile alive until
                    # the last pass and play from the deepest pile first; variant 1 keeps
                    # them alive on every pass; variant 2 only goes deepest first
                    n_src = len(piles[s])
                    alive = n_src == 1 and bool(piles[rules.stock])
                    if variant == 1:
                        return 120 if alive else 0
                    keep = variant == 0 and alive and st.passes < passes
                    return (120 if keep else 0) - n_src
                return 0
            src_len = len(piles[s])
            if kd == "t" and not piles[d]:
                if m.src == "stock":
                    return 40
                # into a space: worth it when it uncovers something
                return 30 if src_len > m.n else 90
            if ks == "waste":
                return 10
            # tableau to tableau: emptying a pile or uncovering a card first
            return 15 if src_len == m.n else 20

        if variant:
            moves.sort(key=lambda m: (score(m), zlib.crc32(f"{variant}:{m}".encode())))
        else:
            moves.sort(key=score)
        return moves

    # --------------------------------------------------------------- search
    def solve(self, state: State, *, max_nodes: int | None = None,
              max_seconds: float | None = None, track_memory: bool = False,
              cpu_time: bool = False) -> SolveResult:
        """Decide ``state``; see docs/solver.md for the schedule.  ``max_seconds`` (and the
        result's ``seconds``) are wall time, or with ``cpu_time`` the CPU time of this thread
        (the win-rate runs: a deal gets the same search however busy the machine is).

        1. a guided search (10% of the budget) for a quick win (in Czarina the first
           phases take the shares of at most ``RAMP_SECONDS``, the exact search by
           components most of them), then, but in Fours Up, the 1883 rules and
           Simplicity, the beam search (to 30%, where there is a waste; docs/solver.md
           "Beam");
        2. in the Four Seasons family, the search guided by the relaxation's plans (up to
           50%; not in Czarina), then the relaxation alone from the root (up to 60%), for
           a proof of loss;
        3. in turns of a fifth of a second: the guided searches (the first, the plan
           search, two more with other tie-breaks, the beam search with two turns a
           round, one in the relatives), the relaxation from the root (until
           it is won or lost) and the exact searches of the game (the compiled one, where
           there is one, every other turn), until a guided one wins or an exact one or the
           relaxation decides, or the budget is spent;
        """
        held: list[relaxed.RelaxedSearch | _CompiledRun] = []
        try:
            with clock.on_cpu(cpu_time):
                return self._solve(state, max_nodes, max_seconds, track_memory, held)
        finally:
            # the searches' suspended generators hold them in cycles: free the compiled
            # tables now rather than when the garbage collector comes round
            for run in held:
                run.release()

    def _solve(self, state: State, max_nodes: int | None, max_seconds: float | None,
               track_memory: bool,
               held: list[relaxed.RelaxedSearch | _CompiledRun]) -> SolveResult:
        start = clock.now()
        if track_memory:
            tracemalloc.start()
        deadline = None if max_seconds is None else start + max_seconds

        def share(frac: float) -> float | None:
            return None if deadline is None else start + (deadline - start) * frac

        # Czarina's first phases (no plan search) are those of a solve of RAMP_SECONDS,
        # whatever the budget, and the rest of it goes to the turns: the first two seconds
        # of a longer solve are a two-second solve (docs/solver.md, "Schedule")
        ramped = self.ramped

        def phase(frac: float) -> float | None:
            if not ramped or deadline is None:
                return share(frac)
            return start + min(deadline - start, RAMP_SECONDS) * frac

        def node_share(frac: float) -> int | None:
            if max_nodes is not None:
                return int(max_nodes * frac)
            return None if deadline is not None else 200_000

        dead_end = self.solve_dead_end
        rx: relaxed.RelaxedSearch | None = None
        beam: _Search | None = None  # the beam search (docs/solver.md, "Beam"), where it runs
        if self.relaxable:
            rx = relaxed.RelaxedSearch(self.rules, state)
            held.append(rx)
        guided = _Run(self, state, dead_end, guided=True)
        searched: list[_Search] = [guided]  # every run, for the counters
        # the guided search compiled, where it is (Four Seasons, Czarina): the same moves,
        # a hundred times as many positions in its share of the budget
        first: _Search = guided
        if rx is not None:
            fast = _CompiledRun(self, state, dead_end, rx, guided=True)
            if fast.c is None or fast.status != UNKNOWN:  # (decided at the root: won)
                fast.release()
            else:
                held.append(fast)
                searched.append(fast)
                first = fast
        # where the tableau is a multiset (Fours Up), the compiled search over its images,
        # with its drain test, finds in milliseconds the wins that the guided search finds,
        # and more: it takes every turn from the start (the guided search stays for a hint)
        exact_first = self.exact_runs(state, dead_end) if self.multiset else None
        images_first = exact_first is not None and isinstance(exact_first[0], _MultisetRun) \
            and exact_first[0].c is not None
        if not images_first and first.run(phase(0.1), node_share(0.1)) == WON:
            return self._result(first, WON, start, track_memory)
        rx_run: _RelaxedRun | None = None
        compiled: _CompiledRun | None = None
        prune: Prune | None = dead_end

        def others(run: _Search | None) -> int:
            return sum(r.nodes for r in searched if r is not run)

        if rx is not None:
            known_lost = rx.known_lost
            prune = known_lost if dead_end is None else \
                (lambda st: dead_end(st) or known_lost(st))
            # the beam search (docs/solver.md, "Beam"): in a few hundredths of a second
            # most of the wins that the guided search missed, and, given its turns, most
            # of those that the other searches miss within a minute
            beam = self.beam_run(state, prune, rx)
            if isinstance(beam, _CompiledRun):
                held.append(beam)
            if beam is not None:
                searched.append(beam)
                if beam.run(phase(BEAM_END_RAMPED if ramped else BEAM_END),
                            node_share(BEAM_END)) == WON:
                    return self._result(beam, WON, start, track_memory, extra=others(beam))
            # the exact search compiled, by components, where there is one (Four Seasons,
            # Czarina): it finds in a fraction of a second most wins the guided one missed
            early = _CompiledRun(self, state, prune, rx)
            if early.c is not None or early.status != UNKNOWN:
                compiled = early
                held.append(early)
                searched.append(early)
                status = early.run(phase(EXACT_END_RAMPED) if ramped else share(0.35),
                                   node_share(0.2))
                if status != UNKNOWN:
                    return self._exact_result(early, status, start, track_memory,
                                              others(early), rx)
            # the relaxation's winning lines as a guide (docs/solver.md, "Plans"); its
            # first relaxed search, from the root, may prove the deal lost already
            # (later by a tenth of the budget where the compiled search ran first)
            later = 0.1 if compiled is not None else 0.0
            plan: _Search | None = None
            if self.plans:
                plan = _PlanRun(self, state, prune, rx)
                searched.append(plan)
                if plan.run(share(0.5 + later), node_share(0.3)) == WON:
                    return self._result(plan, WON, start, track_memory, extra=others(plan))
            else:
                later -= 0.25  # (the plan search's share goes to the others)
            rx_run = _RelaxedRun(self, state, rx)
            searched.append(rx_run)
            rx_end = phase(RELAX_END_RAMPED) if ramped else share(0.6 + later)
            if known_lost(state) or rx_run.run(rx_end, node_share(0.2)) == LOST:
                proved = plan or rx_run
                result = self._result(proved, LOST, start, track_memory, extra=others(proved))
                result.proof = "relaxation"
                return result
        elif self.plain_beam:
            # in the other games (the relatives, Quadrennial), in Python, narrower, with
            # one turn a round: many of the wins that the guided searches miss within
            # 10 s, in a second or two (docs/solver.md, "Beam", "In the relatives"); its
            # own phase only where there is a waste (in Quadrennial, whose other searches
            # win every deal, it would leave 4 of deals 1-200 undecided at 2 s)
            beam = _BeamRun(self, state, prune, widths=BEAM_WIDTHS_PLAIN,
                            closure=BEAM_CLOSURE_PLAIN)
            searched.append(beam)
            if self.rules.waste >= 0 and \
                    beam.run(share(BEAM_END), node_share(BEAM_END)) == WON:
                return self._result(beam, WON, start, track_memory, extra=others(beam))
        # guided searches with other tie-breaks (restarts), then the exact searches
        searched = [r for r in searched if r is not compiled]
        plans = [r for r in searched if isinstance(r, _PlanRun)]
        if first is guided:
            runs: list[_Search] = [
                *searched, _Run(self, state, dead_end, guided=True, variant=1),
                *plans,  # the plan search, when there is one, has two turns a round
                _Run(self, state, dead_end, guided=True, variant=2)]
        else:
            # the guided search is compiled (Four Seasons, Czarina): the same search in
            # Python, and its restarts, only repeat a fraction of its work; on the deals of
            # 1-200 that were won later than 2 s, at 10 s, none of them found a win
            runs = [*(r for r in searched if r is not guided), *plans,
                    *([beam] * (BEAM_TURNS - 1) if beam is not None else [])]
        exact: list[_Search] = [compiled] if compiled is not None else \
            exact_first if exact_first is not None else self.exact_runs(state, prune)
        if compiled is not None:
            # the compiled exact search takes every other turn: it searches a hundred times
            # as many positions a turn as the searches in Python (when a run drops out,
            # see drop below)
            runs = [turn for run in runs for turn in (run, compiled)]
        elif isinstance(exact[0], _MultisetRun):
            # the search over the tableau's images (Fours Up) takes every turn: it wins
            # where the guided searches do, and more (deals 1-100 at 2 s: 66 wins, against
            # 64 with the guided searches taking turns beside it)
            runs = list(exact)
        else:
            runs += exact
        searched = list(dict.fromkeys(runs))

        def drop(run: _Search) -> None:
            """Takes ``run`` out of the turns.  In Four Seasons the compiled exact search
            takes its turns (at 10 s, deals 1-200: 188 decided, against 184 with the exact
            search still every other turn); in Czarina, which has no plan search, the
            exact search keeps every other turn, the compiled guided search the others
            (docs/solver.md, "Schedule", step 4)."""
            if compiled is None or self.plans:
                runs.remove(run)
                return
            rest = [r for r in runs if r is not compiled and r is not run]
            runs[:] = [turn for r in rest for turn in (r, compiled)] or [compiled]

        for run in exact:
            if isinstance(run, _MultisetRun):
                run.until = deadline
        if rx_run is not None:
            exact.append(rx_run)  # its loss is a proof; it never wins
            if rx_run.dry:
                drop(rx_run)
        turns_end = deadline
        hint_room = 0.0
        if rx is not None and not self.plans and deadline is not None:
            # without the plan search no run keeps a best line; the guided search in Python
            # that gives it (below) is slow where the dead-end test is Czarina's: it has the
            # end of the budget to itself, rather than running past it
            hint_room = min(0.25, 0.05 * (deadline - start))
            turns_end = deadline - hint_room
        while True:
            for run in list(runs):
                if turns_end is not None and clock.now() >= turns_end:
                    break  # the round ends with the budget
                if turns_end is None:
                    step_deadline = None
                    limit: int | None = run.nodes + 20_000
                else:
                    step_deadline = min(turns_end, clock.now() + 0.2)
                    limit = None
                if max_nodes is not None:
                    room = max_nodes - others(None)
                    limit = run.nodes + max(0, min(room, 20_000))
                status = run.run(step_deadline, limit)
                if status == WON or (status == LOST and run in exact):
                    if run is rx_run:
                        result = self._result(run, status, start, track_memory,
                                              extra=others(run))
                        result.proof = "relaxation"
                        return result
                    return self._exact_result(run, status, start, track_memory, others(run),
                                              rx)
                if (status == LOST or (run is rx_run and rx_run.dry)) and run in runs:
                    drop(run)  # ran dry (a guided search, a won relaxation): no proof
            out_of_time = turns_end is not None and clock.now() >= turns_end
            out_of_nodes = max_nodes is not None and others(None) >= max_nodes
            if out_of_time or out_of_nodes:
                best = max(searched, key=lambda r: r.best_progress)
                if best.best_progress <= guided.best_progress and guided not in searched:
                    # the compiled searches keep no best line; where the others reached no
                    # card home (a short budget on a busy machine), the guided search in
                    # Python gives the heuristic line, within a few hundred positions
                    guided.run(deadline if hint_room else None, GUIDED_HINT_NODES)
                    best = max([best, guided], key=lambda r: r.best_progress)
                return self._result(best, UNKNOWN, start, track_memory, extra=others(best))

    def _exact_result(self, run: _Search, status: str, start: float, track_memory: bool,
                      extra: int, rx: relaxed.RelaxedSearch | None) -> SolveResult:
        """The result of a run that decided (a loss only from an exact search)."""
        result = self._result(run, status, start, track_memory, extra=extra)
        if status == LOST:
            result.proof = "exhausted" if rx is None else \
                "exhausted (with cuts proven by the relaxation)"
        return result

    def beam_run(self, state: State, prune: Prune | None,
                 rx: relaxed.RelaxedSearch) -> _Search | None:
        """The beam search (docs/solver.md, "Beam") where the exact search is compiled
        (Four Seasons, Czarina), or would be but for the compiled module (then in Python);
        else none (the 1883 rules' packets and vacancies, Simplicity's colours)."""
        if rx.compiled is None:
            return _BeamRun(self, state, prune) if rx.exact_applies else None
        run = _CompiledBeamRun(self, state, prune, rx)
        return run if run.c is not None or run.status != UNKNOWN else None

    def probe(self, state: State, max_nodes: int) -> SolveResult:
        """Only the guided search, within ``max_nodes``: a quick look for a win (the fair
        player's samples).  ``won`` is a real win; anything else proves nothing and is
        reported as ``unknown``."""
        start = clock.now()
        guided = _Run(self, state, self.dead_end, guided=True)
        status = guided.run(None, max_nodes)
        return self._result(guided, WON if status == WON else UNKNOWN, start, False)

    def exact_runs(self, state: State, prune: Prune | None) -> list[_Search]:
        """The exact searches tried in turns where none is compiled: each explores every
        position, in its own order and grouping, so whichever finishes first decides.
        (Where the exact search is compiled, Four Seasons and Czarina, it is the only one:
        it searches the same positions some hundred times faster.)"""
        runs: list[_Search] = []
        if self.multiset:
            # where the tableau is a multiset (Fours Up), the search over its images
            # explores the same positions, each arrangement of the tableau once
            run = _MultisetRun(self, state, multiset.MultisetGame(self.rules, state))
            if not run.full:
                return [run]
        if self.components:
            runs.append(_ComponentRun(self, state, prune))
        runs.append(_BestFirst(self, state, prune) if self.best_first else _Run(self, state, prune))
        return runs

    def _result(self, run: _Search, status: str, start: float,
                track_memory: bool, extra: int = 0) -> SolveResult:
        peak_mem = 0
        if track_memory:
            peak_mem = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
        won = status == WON
        return SolveResult(
            status=status,
            moves=[str(m) for m in run.line] if won else [],
            nodes=run.nodes + extra,
            seconds=clock.now() - start,
            peak_table=run.table_size,
            peak_memory=peak_mem,
            best_line=[str(m) for m in (run.line if won else run.best_path)],
            best_progress=self.rules.total if won else run.best_progress,
        )
