"""The solver's budget on wall time or on the thread's CPU time (win-rate runs)."""

from __future__ import annotations

import itertools
import time

import pytest

from patience.game import Game
from patience.solver import clock, hint, search, solve


def test_the_cpu_clock_does_not_run_while_the_thread_waits() -> None:
    with clock.on_cpu():
        assert clock.cpu()
        before = clock.now()
        time.sleep(0.3)
        waited = clock.now() - before
    assert not clock.cpu()
    before = clock.now()
    time.sleep(0.3)
    assert clock.now() - before >= 0.29
    assert waited < 0.1


def test_a_solve_on_cpu_time_spends_its_budget_and_restores_the_clock() -> None:
    """Four Seasons deal 1 is undecided within half a second (the compiled searches run
    too; the solver wins it after some 3 s): the solve stops at the budget read on CPU
    time, and the clock is wall time again."""
    game = Game("four-seasons", deal=1)
    start = game.state
    cpu0 = time.thread_time()
    result = solve(game, max_seconds=0.5, cpu_time=True)
    spent = time.thread_time() - cpu0
    assert result.status == "unknown"
    assert 0.45 <= result.seconds <= 0.8
    assert 0.45 <= spent <= 1.0
    assert not clock.cpu()
    assert game.state == start and game.moves == []


def test_a_czarina_solve_keeps_to_its_budget_and_gives_a_hint() -> None:
    """Czarina has no plan search (docs/solver.md, "Schedule"), so the best line for a hint
    comes from the guided search in Python, whose dead-end test is slow there: it runs in
    the last part of the budget rather than after it.  Deal 2 is undecided within ten
    seconds."""
    game = Game("czarina", deal=2)
    result = solve(game, max_seconds=1.0, cpu_time=True)
    assert result.status == "unknown"
    assert 0.9 <= result.seconds <= 1.15
    h = hint(game, max_seconds=0.5)
    assert h.status == "heuristic" and h.move in {str(m) for m in game.legal_moves()}


def test_the_compiled_exact_search_keeps_every_other_turn_when_a_run_drops_out(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/solver.md, "Schedule", step 4: in Czarina the compiled exact search takes every
    other turn, and keeps doing so when a run drops out (in Four Seasons it takes that
    run's turns).  Czarina deal 105's relaxation is won early (in its first phase, within
    0.1 s, or on a slower machine in one of its first turns), so it drops out of the
    turns; the exact search then alternates with the compiled guided search and the beam
    search (solver 1.19 gave the exact search the relaxation's turns too: two turns of
    three).  Deal 105 is undecided within five seconds, of which the first phases take 1.9
    (``search.RAMP_SECONDS``) and the turns the rest."""
    calls: list[str] = []
    dry_at: list[int] = []  # the call in which the relaxation was won
    real = search._CompiledRun.run
    real_beam = search._CompiledBeamRun.run
    real_relaxed = search._RelaxedRun.run

    def run(self: search._CompiledRun, deadline: float | None, max_nodes: int | None) -> str:
        calls.append("exact" if self.by_components else "guided")
        return real(self, deadline, max_nodes)

    def run_beam(self: search._CompiledBeamRun, deadline: float | None,
                 max_nodes: int | None) -> str:
        calls.append("beam")
        return real_beam(self, deadline, max_nodes)

    def run_relaxed(self: search._RelaxedRun, deadline: float | None,
                    max_nodes: int | None) -> str:
        calls.append("relaxation")
        status = real_relaxed(self, deadline, max_nodes)
        if self.dry and not dry_at:
            dry_at.append(len(calls))
        return status

    monkeypatch.setattr(search._CompiledRun, "run", run)
    monkeypatch.setattr(search._CompiledBeamRun, "run", run_beam)
    monkeypatch.setattr(search._RelaxedRun, "run", run_relaxed)
    result = solve(Game("czarina", deal=105), max_seconds=5.0, cpu_time=True)
    assert result.status == "unknown"
    assert calls[:4] == ["guided", "beam", "exact", "relaxation"], calls  # the first phases
    assert dry_at, calls  # won in its first phase or one of its first turns
    turns = calls[dry_at[0]:]  # the turns once it dropped out
    assert "relaxation" not in turns and len(turns) >= 6, calls
    assert {"guided", "beam"} <= set(turns), calls

    def every_other(turns: list[str]) -> bool:
        return all((a == "exact") != (b == "exact") for a, b in itertools.pairwise(turns))

    assert every_other(turns), calls
    assert every_other(calls[4:dry_at[0]]), calls


class _Stop(Exception):
    """Ends a solve once its first phases are known."""


@pytest.mark.parametrize(("game_id", "budget", "guided_end", "beam_end", "exact_end"), [
    ("czarina", 1.0, 0.1, 0.8, 0.9),  # below two seconds: shares of the budget
    ("czarina", 2.0, 0.2, 1.6, 1.8),
    ("czarina", 10.0, 0.2, 1.6, 1.8),  # above: the phases of a two-second solve
    ("czarina", 60.0, 0.2, 1.6, 1.8),
    ("four-seasons", 2.0, 0.2, 0.6, 0.7),  # Four Seasons: shares of any budget
    ("four-seasons", 10.0, 1.0, 3.0, 3.5),
])
def test_czarinas_first_phases_are_those_of_a_two_second_solve(
        monkeypatch: pytest.MonkeyPatch, game_id: str, budget: float, guided_end: float,
        beam_end: float, exact_end: float) -> None:
    """docs/solver.md, "Schedule": Czarina's compiled guided search has the first tenth of
    ``search.RAMP_SECONDS``, its beam search runs to eight tenths and its exact search by
    components to nine, whatever the budget above it (solver 1.33; to three and six tenths
    before); Four Seasons' phases are shares of the budget.  Czarina deal 13 and
    Four Seasons deal 97 (lost: the exact search exhausts it, within a quarter of a
    second) are not decided before the exact search's phase begins, neither by the first
    phase nor by the beam search's after it (the first phase ends the solve when it
    wins)."""
    ends: list[float] = []
    beam_ends: list[float] = []
    real = search._CompiledRun.run

    def run(self: search._CompiledRun, deadline: float | None, max_nodes: int | None) -> str:
        assert deadline is not None
        if self.beam:  # (the beam search's phase lies between the two)
            beam_ends.append(deadline)
            return real(self, deadline, max_nodes)
        ends.append(deadline)
        if len(ends) == 2:
            raise _Stop
        return real(self, deadline, max_nodes)

    monkeypatch.setattr(search._CompiledRun, "run", run)
    deal = 13 if game_id == "czarina" else 97
    with pytest.raises(_Stop):
        solve(Game(game_id, deal=deal), max_seconds=budget, cpu_time=True)
    assert ends[1] - ends[0] == pytest.approx(exact_end - guided_end, abs=1e-9)
    assert beam_ends[0] - ends[0] == pytest.approx(beam_end - guided_end, abs=1e-9)
