"""Solve deals exactly: verdicts, winning lines, hints and winnable deal numbers."""

from __future__ import annotations

from dataclasses import dataclass

from patience.game import Game, rules_for
from patience.games import get_spec
from patience.rules.spec import GameSpec
from patience.solver.search import LOST, UNKNOWN, WON, Solver, SolveResult

__all__ = ["LOST", "SOLVER_VERSION", "UNKNOWN", "WON", "Hint", "SolveResult", "Solver", "hint",
           "keep_memory", "same_major", "solve", "solver_for", "winnable_deal"]

#: Stored with every measured verdict (``patience odds``), as ``MAJOR.MINOR``.  The major
#: part changes when a stored verdict could be wrong (a soundness fix): the losses and the
#: fair player's runs of another major version are dropped.  The minor part changes when
#: the search decides more deals (a new proven cut, a better guide or move order): the
#: verdicts already stored remain true, and the deals left unknown by an older minor
#: version are solved again, at the same budget too.  (Stored "1" is "1.0".)
SOLVER_VERSION = "1.34"


def same_major(version: str) -> bool:
    """True when a stored solver version has the current major part (its verdicts hold)."""
    return version.partition(".")[0] == SOLVER_VERSION.partition(".")[0]

#: what a process that solves one deal after another keeps (``keep_memory``): the win-rate
#: runs' workers, the bench's and the web's
BATCH_MEGABYTES = 768


def keep_memory(megabytes: int) -> None:
    """Let this process keep up to ``megabytes`` of the large tables that solves hand back.

    The next solves reuse them instead of asking the system for new memory, which some
    virtual machines give slowly (docs/solver.md, "Kept blocks"); for a process that solves one
    deal after another.  0, the default, hands every table back when its solve ends.
    """
    if megabytes < 0:
        raise ValueError(f"keep_memory: megabytes must be 0 or more, not {megabytes}")
    import contextlib
    import importlib

    for name in ("patience.solver._relaxedc", "patience.solver._multisetc"):
        with contextlib.suppress(ImportError):  # a machine that could not build it
            importlib.import_module(name).keep_memory(megabytes << 20)


_SOLVERS: dict[GameSpec, Solver] = {}


def solver_for(spec: GameSpec) -> Solver:
    s = _SOLVERS.get(spec)
    if s is None:
        s = _SOLVERS[spec] = Solver(rules_for(spec))
    return s


def solve(game: Game, *, max_seconds: float | None = None,
          max_nodes: int | None = None, cpu_time: bool = False) -> SolveResult:
    """Decide ``game`` from its current position, knowing the stock order.

    Returns a :class:`SolveResult` with ``status`` ``"won"`` (and the winning
    line in ``moves``), ``"lost"`` (proven) or ``"unknown"`` (budget spent).
    ``max_seconds`` is wall time, or with ``cpu_time`` the CPU time of the
    calling thread.  The game is not changed.
    """
    return solver_for(game.spec).solve(game.state, max_nodes=max_nodes, max_seconds=max_seconds,
                                       cpu_time=cpu_time)


@dataclass(frozen=True)
class Hint:
    """``status`` is ``"won"`` (``move`` starts a winning line), ``"lost"``
    (proven: no line wins) or ``"heuristic"`` (undecided within the budget:
    ``move`` is the first move towards the position with the most cards on
    the foundations that the search reached)."""

    status: str
    move: str | None
    result: SolveResult

    @property
    def certain(self) -> bool:
        return self.status in (WON, LOST)

    def __str__(self) -> str:
        if self.status == WON:
            return f"{self.move} (on a winning line)"
        if self.status == LOST:
            return "this position cannot be won"
        return f"{self.move} (best guess: not proven)" if self.move else "no move"


def hint(game: Game, max_seconds: float = 2.0) -> Hint:
    """The first move of a winning line, ``lost`` when proven, else a labelled guess."""
    result = solve(game, max_seconds=max_seconds)
    if result.status == WON:
        return Hint(WON, result.moves[0] if result.moves else None, result)
    if result.status == LOST:
        return Hint(LOST, None, result)
    move = result.best_line[0] if result.best_line else None
    if move is None:
        legal = solver_for(game.spec).ordered_moves(game.state)
        move = str(legal[0]) if legal else None
    return Hint("heuristic", move, result)


def winnable_deal(game_id: str | GameSpec, start: int = 1, *, max_seconds: float = 2.0,
                  limit: int = 10_000) -> int:
    """The first deal number ≥ ``start`` that the solver proves winnable.

    Deals that the published win-rate runs settled (``patience.odds_archive.settled``) are
    taken from there: a win at once, a proven loss skipped.  Every other deal gets
    ``max_seconds``; undecided deals are skipped.  Raises ValueError when none of ``limit``
    deals is proven winnable.
    """
    from patience.odds_archive import settled

    spec = get_spec(game_id)
    solver = solver_for(spec)
    known = settled(spec)
    for deal in range(start, start + limit):
        if deal in known:
            if known[deal] == WON:
                return deal
            continue
        st = solver.rules.initial_state(deal)
        if solver.solve(st, max_seconds=max_seconds).status == WON:
            return deal
    raise ValueError(f"no winnable deal of {spec.id} found in {start}..{start + limit - 1}")
