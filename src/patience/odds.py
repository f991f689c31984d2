"""Win rates with 95% Wilson intervals, measured by the solver or the fair player.

A run solves every deal of a range and stores each verdict in the database
(table ``solve_results``: game, deal, rules version, solver version, player,
budget, verdict, nodes, seconds), so an interrupted run resumes where it
stopped and a finished one is not computed again.  Deals are solved in local
worker processes, or on a Dask distributed cluster (``scheduler``).

For the thoughtful player a decided verdict is a fact about the deal, so runs
build on each other: a win (its line replayed through the engine before it is
stored) counts under any budget and solver version, a loss under any budget of
the current major solver version, and a deal left unknown is solved again by a
run with a larger budget of the same kind, or by a run of a newer solver
version.  So ``--budget 2`` over 10,000 deals followed by ``--budget 30`` over
the same range re-solves only the unknown ones.

Two players:

* **thoughtful**: the solver, which knows the stock order
  (:func:`patience.solver.solve` with the run's budget);
* **fair**: :func:`patience.fair.play_fair`, which sees only what a person sees.

"Unknown" verdicts count as losses for the low end of the interval and as wins
for its high end.
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
import time
from collections.abc import Callable, Generator, Iterable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any

from patience.fair import FairPolicy, play_fair
from patience.games import get_spec
from patience.rules.spec import GameSpec
from patience.solver import BATCH_MEGABYTES, SOLVER_VERSION, keep_memory, same_major, solver_for

ENGINE_VERSION = "1"
#: of two verdicts on one deal, the stronger: a decided verdict is a fact about the deal
VERDICT_RANK = {"unknown": 0, "lost": 1, "won": 2}
THOUGHTFUL = "thoughtful"
Z95 = 1.959963984540054


#: Declaration fields added after results were first stored, with the value that keeps the
#: rules as they were: a declaration that holds it is written without the field, so adding
#: a field to the vocabulary leaves the games it does not change at the same version.
LATER_FIELDS: dict[str, object] = {
    "deal_to_empty": False, "foundations_down": 0, "down_base_rank": None,
    "foundation_wrap": True, "playback_down": True, "tableau_up": 0, "build_on_base": False,
    "free_cells": False,
}


def _declaration_text(spec: GameSpec) -> str:
    """``repr(spec)``, less the later fields at their neutral values."""
    parts = [f"{f.name}={getattr(spec, f.name)!r}" for f in dataclasses.fields(spec)
             if f.repr and not (f.name in LATER_FIELDS
                                and getattr(spec, f.name) == LATER_FIELDS[f.name])]
    return f"{type(spec).__qualname__}({', '.join(parts)})"


def rules_version(spec: GameSpec) -> str:
    """Changes whenever the game's declaration or the engine's version changes."""
    return hashlib.sha256(f"{ENGINE_VERSION}:{_declaration_text(spec)}".encode()).hexdigest()[:12]


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of ``successes`` out of ``n``."""
    if n <= 0:
        return 0.0, 1.0
    if not 0 <= successes <= n:
        raise ValueError("successes must lie in 0..n")
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class Budget:
    """Seconds per deal, or positions per deal (deterministic: for comparisons).

    Seconds are read on the solving thread's CPU time (``cpu``, the default of ``patience
    odds``), so that a deal gets the same search however busy the machine is, or on wall
    time (label ``2s``: the runs before CPU budgets, and ``cpu=False``)."""

    seconds: float | None = None
    nodes: int | None = None
    cpu: bool = False

    def __post_init__(self) -> None:
        if (self.seconds is None) == (self.nodes is None):
            raise ValueError("give a budget in seconds or in nodes, not both")
        if (self.seconds is not None and self.seconds <= 0) or \
                (self.nodes is not None and self.nodes <= 0):
            raise ValueError("a budget must be positive")
        if self.cpu and self.seconds is None:
            raise ValueError("a budget in CPU time is given in seconds")

    @property
    def label(self) -> str:
        if self.seconds is None:
            return f"{self.nodes}n"
        return f"{self.seconds:g}{'cpu' if self.cpu else 's'}"


@dataclass(frozen=True)
class Odds:
    """The measured win rate of one game by one player."""

    game: str
    player: str
    budget: str
    deals: int
    won: int
    lost: int
    unknown: int

    @property
    def rate(self) -> float:
        return self.won / self.deals if self.deals else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        low = wilson(self.won, self.deals)[0]
        high = wilson(self.won + self.unknown, self.deals)[1]
        return low, high

    def __str__(self) -> str:
        lo, hi = self.interval
        return (f"{self.game} ({self.player}, {self.budget} per deal): {self.rate:.1%} won of "
                f"{self.deals} deals, 95% interval {lo:.1%}–{hi:.1%} "
                f"({self.won} won, {self.lost} lost, {self.unknown} unknown)")


Verdict = tuple[int, str, int, float]  # deal, verdict, nodes, seconds


def solve_deal(game_id: str, deal: int, budget: Budget, fair: FairPolicy | None) -> Verdict:
    """One deal's verdict (runs in a worker process or on a Dask worker)."""
    keep_memory(BATCH_MEGABYTES)  # one solve after another: the next reuses the tables
    start = time.perf_counter()
    if fair is not None:
        r = play_fair(game_id, deal, fair)
        return deal, "won" if r.won else "lost", r.nodes, time.perf_counter() - start
    spec = get_spec(game_id)
    solver = solver_for(spec)
    root = solver.rules.initial_state(deal)
    result = solver.solve(root, max_seconds=budget.seconds, max_nodes=budget.nodes,
                          cpu_time=budget.cpu)
    if result.status == "won" and not replays(game_id, deal, result.moves):
        raise RuntimeError(f"{game_id} deal {deal}: the solver's winning line does not replay")
    return deal, result.status, result.nodes, result.seconds


def replays(game_id: str, deal: int, moves: list[str]) -> bool:
    """True when ``moves`` played from the deal's start through the engine win it."""
    from patience.game import Game

    game = Game(game_id, deal=deal)
    for m in moves:
        game.play(m)
    return game.is_won


#: the order in which runs of each budget kind are listed (wall time came first)
KIND_ORDER = {"s": 0, "cpu": 1, "n": 2}


def run_order(label: str) -> tuple[int, str, float]:
    """A sort key listing budgets by kind (wall time, CPU time, positions), then size."""
    kind, size = budget_key(label)
    return KIND_ORDER.get(kind, len(KIND_ORDER)), kind, size


def budget_key(label: str) -> tuple[str, float]:
    """A budget label's kind ("s" wall seconds, "cpu" CPU seconds or "n" positions) and
    size, to compare budgets of one kind (the fair player's label, "policy", is a kind of
    its own)."""
    size = label.rstrip("cpusn")
    try:
        return label[len(size):], float(size)
    except ValueError:
        return label, 0.0


def best_verdicts(rows: Iterable[tuple[int, str, str, str]], *,
                  thoughtful: bool) -> dict[int, tuple[str, str, str]]:
    """Deal → (verdict, budget, solver version) from stored rows ``(deal, verdict, budget,
    solver version)`` of one game, rules version and player.  For the thoughtful player a
    win of any solver version beats a loss of the current major version, which beats an
    unknown of the current major version: the one of the current minor version, then the
    one with the largest budget.  The fair player's verdicts count only from the current
    major version."""
    rank = VERDICT_RANK
    out: dict[int, tuple[str, str, str]] = {}
    for deal, verdict, budget, version in rows:
        if not same_major(version) and not (thoughtful and verdict == "won"):
            continue
        old = out.get(deal)
        if old is None or rank[verdict] > rank[old[0]] or (
                verdict == old[0] == "unknown" and
                (version == SOLVER_VERSION, budget_key(budget))
                > (old[2] == SOLVER_VERSION, budget_key(old[1]))):
            out[deal] = (verdict, budget, version)
    return out


class OddsRun:
    """The win-rate run of one game over a range of deals, stored in a database."""

    def __init__(self, game: str, deals: Iterable[int], budget: Budget, *,
                 fair: FairPolicy | None = None, db_url: str | None = None) -> None:
        from patience.web.db import default_db_url, make_engine, migrate

        self.spec = get_spec(game)
        self.deals = list(deals)
        self.budget = budget
        self.fair = fair
        self.player = fair.label if fair is not None else THOUGHTFUL
        self.budget_label = "policy" if fair is not None else budget.label
        self.engine = make_engine(db_url or default_db_url())
        migrate(self.engine)

    def _where(self) -> dict[str, Any]:
        return {"game": self.spec.id, "rules_version": rules_version(self.spec),
                "solver_version": SOLVER_VERSION, "player": self.player,
                "budget": self.budget_label}

    def _rows(self) -> list[tuple[int, str, str, str]]:
        """The stored rows ``(deal, verdict, budget, solver version)`` of the range."""
        from sqlalchemy import select

        from patience.web.db import SolveRecord

        wanted = set(self.deals)
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(SolveRecord.deal, SolveRecord.verdict, SolveRecord.budget,
                       SolveRecord.solver_version)
                .filter_by(game=self.spec.id, rules_version=rules_version(self.spec),
                           player=self.player))
            return [(d, v, b, sv) for d, v, b, sv in rows if d in wanted]

    def _best(self, rows: list[tuple[int, str, str, str]] | None = None,
              ) -> dict[int, tuple[str, str, str]]:
        """Deal → (best stored verdict, its budget, solver version) for the range."""
        return best_verdicts(self._rows() if rows is None else rows,
                             thoughtful=self.fair is None)

    def done(self) -> dict[int, str]:
        """Deal → verdict for the deals of the range settled for this run: decided, or
        left unknown by the current solver version at this budget or a larger one of the
        same kind (whatever unknowns of other kinds are stored beside it)."""
        rows = self._rows()
        out = {deal: verdict for deal, (verdict, _, _) in self._best(rows).items()
               if verdict != "unknown"}
        mine = budget_key(self.budget_label)
        for deal, verdict, budget, version in rows:
            key = budget_key(budget)
            if (verdict == "unknown" and version == SOLVER_VERSION and deal not in out
                    and key[0] == mine[0] and key >= mine):
                out[deal] = "unknown"
        return out

    def pending(self) -> list[int]:
        have = self.done()
        return [d for d in self.deals if d not in have]

    def _store(self, verdicts: list[Verdict]) -> None:
        from sqlalchemy.orm import Session

        from patience.web.db import SolveRecord

        now = time.time()
        with Session(self.engine) as s:
            for deal, verdict, nodes, seconds in verdicts:
                s.merge(SolveRecord(deal=deal, verdict=verdict, nodes=nodes, seconds=seconds,
                                    created_at=now, **self._where()))
            s.commit()

    def _results(self, deals: list[int], workers: int,
                 scheduler: str | None) -> Generator[Verdict, None, None]:
        if not deals:
            return
        args = (self.spec.id, self.budget, self.fair)
        if scheduler is not None:
            from distributed import Client
            from distributed import as_completed as dask_completed

            with Client(scheduler) as client:  # type: ignore[no-untyped-call]
                futures = client.map(solve_deal, [args[0]] * len(deals), deals,
                                     [args[1]] * len(deals), [args[2]] * len(deals),
                                     pure=False)
                for f in dask_completed(futures):  # type: ignore[no-untyped-call]
                    yield f.result()
            return
        if workers <= 1:
            for d in deals:
                yield solve_deal(self.spec.id, d, self.budget, self.fair)
            return
        import multiprocessing

        ctx = multiprocessing.get_context("spawn")
        others = set(multiprocessing.active_children())
        pool = ProcessPoolExecutor(workers, mp_context=ctx)
        try:
            futs = [pool.submit(solve_deal, self.spec.id, d, self.budget, self.fair)
                    for d in deals]
            for f in as_completed(futs):
                yield f.result()
        except BaseException:
            # interrupted (Ctrl-C, a signal, a worker lost, the consumer gone): the deals
            # not begun are dropped and the ones being solved are stopped, rather than
            # waited for (a minute each at the long budgets); every verdict yielded is stored
            pool.shutdown(wait=False, cancel_futures=True)
            for child in set(multiprocessing.active_children()) - others:
                child.terminate()  # (the pool's workers)
            raise
        finally:
            pool.shutdown(wait=True)

    def run(self, *, workers: int = 1, scheduler: str | None = None,
            on_result: Callable[[Verdict, int, int], None] | None = None) -> Odds:
        """Solve the pending deals and store each verdict; returns the odds of the range.

        ``on_result(verdict, done, total)`` is called after each deal (progress)."""
        todo = self.pending()
        batch: list[Verdict] = []
        last = time.monotonic()
        done = len(self.deals) - len(todo)
        results = self._results(todo, workers, scheduler)
        try:
            for v in results:
                batch.append(v)
                done += 1
                if on_result is not None:
                    on_result(v, done, len(self.deals))
                if len(batch) >= 50 or time.monotonic() - last > 2:
                    self._store(batch)
                    batch, last = [], time.monotonic()
        finally:
            results.close()  # an interrupted pool stops now, not when collected
            if batch:
                self._store(batch)
        return self.odds()

    def odds(self) -> Odds:
        verdicts = [v for v, _, _ in self._best().values()]
        return Odds(self.spec.id, self.player, self.budget_label, len(verdicts),
                    verdicts.count("won"), verdicts.count("lost"), verdicts.count("unknown"))
