"""The search: an explicit-stack depth-first search over canonical positions.

It decides a position exactly: ``won`` with a line of real moves (which the
tests replay through the engine), ``lost`` only when every position reachable
(up to the proven equivalences, safe moves and relaxation of docs/solver.md)
has been searched, or ``unknown`` when the node or time budget ran out first.
"""

from __future__ import annotations

import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass, field

from patience.rules.engine import Rules
from patience.rules.spec import StockKind
from patience.rules.state import Move, State
from patience.solver import relaxed
from patience.solver.keys import make_key, make_safe

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


class _Run:
    """One resumable depth-first search from one position."""

    def __init__(self, solver: Solver, state: State, prune: Prune | None) -> None:
        self.solver = solver
        self.prune = prune
        st, auto = solver.autoplay(state)
        self.visited = {solver.key(st)}
        self.nodes = 1
        self.best_progress = solver.progress(st)
        self.best_path: list[Move] = list(auto)
        self.line: list[Move] = []
        self.status = UNKNOWN
        if solver.rules.is_won(st):
            self.status = WON
            self.line = list(auto)
            self.stack: list[_Frame] = []
        elif prune is not None and prune(st):
            self.status = LOST
            self.stack = []
        else:
            self.stack = [_Frame(st, solver.ordered_moves(st), auto)]

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
                self.best_path = [mv for f in stack for mv in f.line] + step
            if prune is not None and prune(child):
                continue
            stack.append(_Frame(child, solver.ordered_moves(child), step))
            checks += 1
            if checks >= 64:
                checks = 0
                if max_nodes is not None and self.nodes >= max_nodes:
                    return UNKNOWN
                if deadline is not None and time.perf_counter() >= deadline:
                    return UNKNOWN
        self.status = LOST
        return LOST


class Solver:
    """A game's search, compiled once from its rules."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.key = make_key(rules)
        self.safe = make_safe(rules)
        self.found = rules.found
        self.reserve_row = rules.spec.stock is StockKind.RESERVE_ROW
        self.relaxable = relaxed.applies(rules)

    # ------------------------------------------------------------- helpers
    def progress(self, st: State) -> int:
        return sum(len(st.piles[f]) for f in self.found)

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

    def ordered_moves(self, st: State) -> list[Move]:
        """Legal moves, most promising first (ordering only; nothing is cut)."""
        rules = self.rules
        moves = rules.legal_moves(st)
        if len(moves) < 2:
            return moves
        piles = st.piles
        index = rules.index
        kind = rules.kind

        def score(m: Move) -> int:
            if m.src == "deal":
                return 100 if piles[rules.stock] else 200  # redeal last of all
            s, d = index[m.src], index[m.dst]
            ks, kd = kind[s], kind[d]
            if ks == "f":
                return 60 if kd == "t" else 150  # play-back: late; foundation shuffles: last
            if kd == "f":
                # a move to a foundation that empties a reserve pile can cost later deals
                if self.reserve_row and len(piles[s]) == 1:
                    return 50
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

        moves.sort(key=score)
        return moves

    # --------------------------------------------------------------- search
    def solve(self, state: State, *, max_nodes: int | None = None,
              max_seconds: float | None = None, track_memory: bool = False) -> SolveResult:
        start = time.perf_counter()
        if track_memory:
            tracemalloc.start()
        deadline = None if max_seconds is None else start + max_seconds
        proof = "exhausted"
        rx: relaxed.RelaxedSearch | None = None
        prune: Prune | None = None
        if self.relaxable:
            rx = relaxed.RelaxedSearch(self.rules, state)
            rx_search = rx

            def prune(st: State) -> bool:
                return rx_search.is_lost(st, max_nodes=200)

        run = _Run(self, state, prune)
        status = run.status
        if status == UNKNOWN:
            if rx is None:
                status = run.run(deadline, max_nodes)
            else:
                # a slice of the real search, then the relaxed proof, then the rest
                status = run.run(self._share(start, deadline, 0.3),
                                 None if max_nodes is None else max_nodes // 3)
                if status == UNKNOWN:
                    rdl = self._share(start, deadline, 0.7)
                    if rx.is_lost(state, deadline=rdl):
                        status, proof = LOST, "relaxation"
                    else:
                        status = run.run(deadline, max_nodes)
        elif status == LOST and rx is not None:
            proof = "relaxation"
        if status == LOST and proof == "exhausted" and rx is not None and run.nodes > 1:
            proof = "exhausted with relaxation cuts"
        peak_mem = 0
        if track_memory:
            peak_mem = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
        won = status == WON
        return SolveResult(
            status=status,
            moves=[str(m) for m in run.line] if won else [],
            nodes=run.nodes + (rx.nodes if rx is not None else 0),
            seconds=time.perf_counter() - start,
            peak_table=len(run.visited) + (len(rx.lost) if rx is not None else 0),
            peak_memory=peak_mem,
            best_line=[str(m) for m in (run.line if won else run.best_path)],
            best_progress=self.rules.total if won else run.best_progress,
            proof=proof if status == LOST else "",
        )

    @staticmethod
    def _share(start: float, deadline: float | None, frac: float) -> float | None:
        return None if deadline is None else start + (deadline - start) * frac
