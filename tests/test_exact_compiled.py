"""The compiled exact search (docs/solver.md, "Compiled exact search") against the engine.

``_relaxedc.Exact`` searches every position reachable in Four Seasons or Czarina.  Its
``won`` lines are replayed through a :class:`Game` (which checks every move); its ``lost``
verdicts are checked by the plainest complete search there is
(``test_solver_exhaustive.exhaustive``: every legal move, whole states, nothing skipped).
"""

from __future__ import annotations

import json
import platform
import subprocess
import sys
from typing import Any

import pytest

from patience import Game
from patience.game import rules_for
from patience.games import get_spec
from patience.rules import Rules, State
from patience.rules.spec import GameSpec
from patience.solver import LOST, UNKNOWN, WON, keep_memory, relaxed, solver_for
from patience.solver.search import _CompiledRun
from test_solver_exhaustive import exhaustive


def exact(rules: Rules, st: State, *, cuts: bool = False, components: bool = False,
          max_states: int = 1_000_000, max_tableaux: int = 1_000_000,
          restart_unit: int = 0, drain: bool = True,
          ) -> tuple[relaxed.RelaxedSearch, relaxed.CompiledExact]:
    """The compiled exact search from ``st`` (over tableau components with
    ``components``); with ``cuts``, cut by the relaxation's table, filled first by a
    relaxed search from ``st``; ``drain=False`` leaves out the drain test (docs/solver.md,
    "Draining the waste"), where a test needs the searches large."""
    rx = relaxed.RelaxedSearch(rules, st, drain=drain)
    assert rx.compiled is not None
    if cuts:
        start = rx.relax(st)
        assert start is not None
        rx.search(start)
    c = rx.exact(st, components, cuts=cuts, max_states=max_states, max_tableaux=max_tableaux,
                 restart_unit=restart_unit)
    assert c is not None
    return rx, c


def replays(spec: GameSpec, deal: int, rx: relaxed.RelaxedSearch,
            line: list[tuple[int, int]]) -> bool:
    g = Game(spec, deal=deal)
    for m in rx.exact_line(line):
        g.play(str(m))  # raises on an illegal move
    return g.is_won


#: (game, reduction, deals, the least count of wins and of losses among them)
REDUCED = [
    ("four-seasons", {"ranks": 4, "tableau": 1}, range(1, 151), 10),
    ("four-seasons", {"ranks": 5, "tableau": 1}, range(1, 101), 10),
    ("four-seasons", {"ranks": 5, "tableau": 2}, range(1, 151), 3),
    ("czarina", {"ranks": 4, "tableau": 1}, range(1, 151), 10),
    ("czarina", {"ranks": 4, "tableau": 2}, range(1, 101), 5),
]


@pytest.mark.parametrize(("game", "params", "deals", "least"), REDUCED)
def test_verdicts_agree_with_the_exhaustive_search(game: str, params: dict[str, int],
                                                   deals: range, least: int) -> None:
    # RULES A1, A3: every won line replays; every loss is the whole raw space
    spec = get_spec(game).reduced(**params)
    rules = rules_for(spec)
    tally = {WON: 0, LOST: 0}
    for deal in deals:
        st = rules.initial_state(deal)
        verdicts = set()
        for cuts in (False, True):
            for components in (False, True):
                rx, c = exact(rules, st, cuts=cuts, components=components)
                verdict, line = c.search(-1, -1)
                verdicts.add(verdict)
                if verdict == WON:
                    assert replays(spec, deal, rx, line), (deal, cuts, components)
        assert len(verdicts) == 1, (deal, verdicts)
        verdict = verdicts.pop()
        if verdict == LOST:
            assert exhaustive(rules, st)[0] == LOST, deal
        tally[verdict] += 1
    print(spec.id, tally)
    assert tally[WON] >= least and tally[LOST] >= least, tally


@pytest.mark.parametrize("components", [False, True])
@pytest.mark.parametrize(("game", "ranks"), [("four-seasons", 6), ("czarina", 7)])
def test_a_full_table_is_emptied_and_the_verdict_stands(game: str, ranks: int,
                                                        components: bool) -> None:
    # a table of at most 1,024 positions is emptied many times over; positions are then
    # searched again, and nothing is skipped that was not searched whole (without the drain
    # test, whose cuts leave most of these searches too small to fill the table)
    spec = get_spec(game).reduced(ranks=ranks, tableau=2)
    rules = rules_for(spec)
    emptied = 0
    for deal in range(1, 31):
        st = rules.initial_state(deal)
        _, big = exact(rules, st, drain=False)
        rx, small = exact(rules, st, components=components, max_states=1024, drain=False)
        expected, _ = big.search(-1, -1)
        verdict, line = small.search(-1, -1)
        assert verdict == expected, deal
        if verdict == WON:
            assert replays(spec, deal, rx, line), deal
        emptied += small.flushes > 0
    assert emptied >= 5


@pytest.mark.parametrize("components", [False, True])
def test_a_full_table_is_emptied_down_to_at_most_half(components: bool) -> None:
    # docs/solver.md, "Table": a full table (1,433 positions here, 70% of 2,048 slots) is
    # emptied down to at most half its entries (those with the fewest cards dealt and home,
    # in whole levels of that count, so fewer when a level straddles the half; which ones,
    # the keys do not show here), and the positions on the stack are put back after it
    # (not counted in ``kept``); stepped 64 nodes at a time, the first emptying is read
    # just after it.  That the verdicts stand is the test above
    rules = rules_for(get_spec("czarina").reduced(ranks=7, tableau=2))
    partial = 0
    for deal in range(1, 31):
        _, c = exact(rules, rules.initial_state(deal), components=components,
                     max_states=1024, drain=False)
        while not c.finished and not c.flushes:
            c.search(64, -1)
        if not c.flushes:
            continue
        assert c.kept <= 1433 // 2, deal
        partial += c.kept >= 1433 // 4  # not emptied wholly (as until solver 1.21)
    assert partial >= 5, partial


@pytest.mark.parametrize(("game", "ranks"), [("four-seasons", 7), ("czarina", 7)])
def test_full_tables_of_components_are_emptied_and_the_verdict_stands(game: str,
                                                                      ranks: int) -> None:
    # with room for 600 tableaux, the search by components empties its tables of
    # components many times over, keeping its stack and its table of nodes seen (whose
    # keys name a component by its least member), and decides the same (without the drain
    # test, as above).  Since solver 1.23 an emptying keeps the components used last, up
    # to a quarter of the room (150 tableaux here; the stack's own may take up to half);
    # until 1.22 it kept only the stack's, 8-39 tableaux on these deals
    spec = get_spec(game).reduced(ranks=ranks, tableau=2)
    rules = rules_for(spec)
    emptied = kept = roomy = 0
    verdicts = set()
    for deal in range(1, 31):
        st = rules.initial_state(deal)
        _, big = exact(rules, st, components=True, drain=False)
        rx, small = exact(rules, st, components=True, max_tableaux=600, drain=False)
        expected, _ = big.search(-1, -1)
        verdict, line = small.search(-1, -1)
        assert verdict == expected, deal
        verdicts.add(verdict)
        if verdict == WON:
            assert replays(spec, deal, rx, line), deal
        emptied += small.component_flushes > 0 and big.component_flushes == 0
        kept += small.component_flushes > 0 and small.flushes == 0
        if small.component_flushes:
            assert 0 < small.components_kept <= 600 // 2, deal
            roomy += small.components_kept > 600 // 8
    assert emptied >= 5 and verdicts == {WON, LOST}
    assert kept == emptied  # the table of nodes seen was never emptied with them
    assert roomy >= 5, roomy


@pytest.mark.parametrize(("game", "ranks", "small"), [
    ("four-seasons", 6, False), ("czarina", 6, False),
    ("four-seasons", 7, True), ("czarina", 7, True)])
def test_restarts_keep_the_verdict(game: str, ranks: int, small: bool) -> None:
    # docs/solver.md, "Restarts": beginning again from the root every few nodes (a Luby
    # sequence of 1, 1, 2, ... nodes), with the children shuffled, decides as the search
    # without restarts does (itself checked against the exhaustive search above), and two
    # of its losses are checked by the exhaustive search here; with a ``small`` table
    # (1,024 positions), emptied after some restarts, which then stop.  Deals 1-31: with
    # the small table, 7-rank Four Seasons deals 32 and 39 take 10 s and 77 s (28,000 and
    # 250,000 emptyings) and add nothing the first 31 do not show.  The small table's runs
    # leave out the drain test, whose cuts leave too few searches large enough to fill it
    spec = get_spec(game).reduced(ranks=ranks, tableau=2)
    rules = rules_for(spec)
    tally = {WON: 0, LOST: 0}
    restarted = 0
    for deal in range(1, 32):
        st = rules.initial_state(deal)
        _, plain = exact(rules, st, components=True, drain=not small)
        rx, c = exact(rules, st, components=True, restart_unit=1,
                      max_states=1024 if small else 1_000_000, drain=not small)
        expected, _ = plain.search(-1, -1)
        verdict, line = c.search(-1, -1)
        assert verdict == expected, deal
        if verdict == WON:
            assert replays(spec, deal, rx, line), deal
        elif not small and tally[LOST] < 2:
            assert exhaustive(rules, st)[0] == LOST, deal
        tally[verdict] += 1
        restarted += c.restarts >= 10 and (c.flushes > 0) == small
    assert tally[WON] >= 3 and tally[LOST] >= 3, tally
    assert restarted >= 5, restarted


@pytest.mark.parametrize("components", [False, True])
def test_a_search_in_steps_is_the_same_search(components: bool) -> None:
    # resumed where it stopped: the same verdict after the same number of positions (with
    # the drain test and without it, whose searches are longer)
    rules = rules_for(get_spec("czarina").reduced(ranks=7, tableau=2))
    stepped_many = 0
    for deal, drain in [(d, dr) for d in range(1, 21) for dr in (True, False)]:
        st = rules.initial_state(deal)
        _, whole = exact(rules, st, components=components, drain=drain)
        _, steps = exact(rules, st, components=components, drain=drain)
        expected, line = whole.search(-1, -1)
        verdict = UNKNOWN
        calls = 0
        while verdict == UNKNOWN:
            verdict, stepped = steps.search(300, -1)
            calls += 1
        assert (verdict, stepped, steps.nodes) == (expected, line, whole.nodes), deal
        stepped_many += calls > 2
    assert stepped_many >= 5


@pytest.mark.parametrize(("guided", "deals", "least"), [(False, 12, 2), (True, 30, 3)])
@pytest.mark.parametrize("game", ["four-seasons", "czarina"])
def test_wins_of_full_deals_replay(game: str, guided: bool, deals: int,
                                   least: int) -> None:  # RULES A1, A3
    # by components, and guided (its moves only: running dry proves nothing, and the
    # solver keeps it out of its exact searches)
    spec = get_spec(game)
    rules = rules_for(spec)
    won = 0
    for deal in range(1, deals + 1):
        st = rules.initial_state(deal)
        rx = relaxed.RelaxedSearch(rules, st)
        run = _CompiledRun(solver_for(spec), st, None, rx, guided=guided)
        assert run.by_components != guided
        status = run.run(None, 300_000)
        if status == WON:
            won += 1
            g = Game(spec, deal=deal)
            for m in run.line:
                g.play(str(m))
            assert g.is_won, deal
        if not guided:
            assert status != LOST  # none of these deals is lost
        run.release()
    assert won >= least


def test_the_solver_uses_it_only_where_it_applies() -> None:
    # Four Seasons and Czarina; not the 1883 rules (packets, vacancies) nor Simplicity
    # (colours)
    for game, applies in [("four-seasons", True), ("czarina", True),
                          ("four-seasons-1883", False)]:
        spec = get_spec(game)
        rules = rules_for(spec)
        st = rules.initial_state(1)
        rx = relaxed.RelaxedSearch(rules, st)
        assert (rx.exact(st) is not None) == applies, game
        run = _CompiledRun(solver_for(spec), st, None, rx)
        assert (run.c is not None) == applies, game
        assert run.by_components
    simple = rules_for(get_spec("simplicity").reduced(ranks=4, tableau=2))
    st = simple.initial_state(1)
    assert relaxed.RelaxedSearch(simple, st).exact(st) is None


def test_a_component_too_large_hands_over_to_the_search_by_positions(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # with room for 1,024 tableaux the search by components gives up on a full deal; the
    # run goes on position by position, and what it finds still replays
    monkeypatch.setattr(relaxed, "MAX_EXACT_TABLEAUX", 1024)
    spec = get_spec("four-seasons")
    rules = rules_for(spec)
    handed_over = 0
    for deal in range(1, 6):
        st = rules.initial_state(deal)
        rx = relaxed.RelaxedSearch(rules, st)
        run = _CompiledRun(solver_for(spec), st, None, rx)
        for _ in range(20):
            if run.run(None, run.nodes + 20_000) != UNKNOWN:
                break
        handed_over += not run.by_components
        assert run.status != LOST
        if run.status == WON:
            g = Game(spec, deal=deal)
            for m in run.line:
                g.play(str(m))
            assert g.is_won
        run.release()
    assert handed_over >= 3


# Resident memory is measured in a process of its own: in a test worker, what the tests
# before left in glibc's heap (and hand back whenever a solve trims it) moves the figures
# by tens of megabytes either way.
_MEMORY_SCENARIO = r"""
import gc, json, sys
from patience import Game
from patience.games import get_spec
from patience.solver import keep_memory, solver_for

def resident_mb():
    with open("/proc/self/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")

solver = solver_for(get_spec("czarina"))
# a first solve makes what every later one shares (not tables), and raises glibc's
# threshold: blocks of up to 32 MB freed after it stay in the heap unless handed back
verdicts = [solver.solve(Game("czarina", deal=2).state, max_seconds=1, cpu_time=True).status]
base = resident_mb()
keep_memory(int(sys.argv[1]))
after = []
for deal in (2, 56):
    st = Game("czarina", deal=deal).state
    verdicts.append(solver.solve(st, max_seconds=3, cpu_time=True).status)
    gc.collect()
    after.append(resident_mb() - base)
keep_memory(0)
gc.collect()
print(json.dumps({"verdicts": verdicts, "after": after, "released": resident_mb() - base}))
"""


def _memory_scenario(keep_mb: int) -> dict[str, Any]:
    """Resident memory (MB above what it was after a first solve) after each of two
    Czarina solves of 3 s that keep ``keep_mb`` of their tables, and after keep_memory(0),
    in a new process."""
    done = subprocess.run([sys.executable, "-c", _MEMORY_SCENARIO, str(keep_mb)],
                          capture_output=True, text=True, timeout=300, check=True)
    figures: dict[str, Any] = json.loads(done.stdout)
    assert figures["verdicts"] == [UNKNOWN] * 3, figures  # solves that fill their tables
    return figures


@pytest.mark.skipif(relaxed._relaxedc is None or not sys.platform.startswith("linux")
                    or platform.libc_ver()[0] != "glibc",
                    reason="measures glibc's heap on Linux")
def test_a_solve_gives_its_memory_back() -> None:
    # glibc keeps freed blocks of up to 32 MB in the heap once a larger one was freed: a
    # process solving deal after deal (a web worker) would hold its largest solve's tables
    # unless the searches hand them back when released (keep_memory's default, 0)
    figures = _memory_scenario(0)
    assert max(figures["after"]) < 25 and figures["released"] < 25, figures


@pytest.mark.skipif(relaxed._relaxedc is None or not sys.platform.startswith("linux")
                    or platform.libc_ver()[0] != "glibc",
                    reason="measures glibc's heap on Linux")
def test_kept_memory_is_bounded_and_handed_back() -> None:
    # a process that solves one deal after another keeps the tables' large blocks for the
    # next solves, up to keep_memory's limit, and hands them back when the limit drops
    figures = _memory_scenario(192)
    assert all(25 < kept < 192 + 25 for kept in figures["after"]), figures
    assert figures["released"] < 25, figures


def test_kept_blocks_do_not_change_a_search() -> None:
    # a kept block still holds the tables of the solve before: reused, it must search
    # exactly as a new one (the same nodes, verdict and line within a budget of nodes)
    solver = solver_for(get_spec("czarina"))
    runs = []
    for megabytes in (0, 512, 512):
        keep_memory(megabytes)
        try:
            for deal in (2, 8):
                r = solver.solve(Game("czarina", deal=deal).state, max_nodes=400_000)
                runs.append((deal, r.status, r.nodes, tuple(r.moves)))
        finally:
            keep_memory(0)
    assert runs[0:2] == runs[2:4] == runs[4:6], runs
    assert {status for _, status, _, _ in runs} >= {UNKNOWN}


@pytest.mark.parametrize("components", [False, True])
@pytest.mark.parametrize("tableau", [2, 3])
def test_czarina_cut_with_its_bottoms_decides_as_the_search_without_cuts(
        tableau: int, components: bool) -> None:
    # RULES A3; docs/solver.md, "Bottoms": the searches cut by the drain test with the
    # piles' bottoms (by positions, and by components, whose nodes hold no tableau: the
    # bottoms are read from a member of the component) decide as the search by positions
    # without the drain test
    spec = get_spec("czarina").reduced(ranks=7, tableau=tableau)
    rules = rules_for(spec)
    verdicts = {WON: 0, LOST: 0}
    for deal in range(1, 41):
        st = rules.initial_state(deal)
        _, plain = exact(rules, st, drain=False)
        rx, cut = exact(rules, st, components=components)
        expected, _ = plain.search(-1, -1)
        verdict, line = cut.search(-1, -1)
        assert verdict == expected, deal
        if verdict == WON:
            assert replays(spec, deal, rx, line), deal
        verdicts[verdict] += 1
    assert verdicts[WON] >= 5 and verdicts[LOST] >= 5, verdicts


@pytest.mark.parametrize("deal", [16, 102])
def test_czarina_deals_once_called_lost_by_components_are_won(deal: int) -> None:
    # RULES A3: the search by components once read the bottoms of a tableau it had not
    # decoded, and called these won deals lost; each is won, and its line replays
    spec = get_spec("czarina")
    rules = rules_for(spec)
    rx, c = exact(rules, rules.initial_state(deal), components=True)
    verdict, line = c.search(-1, 30.0)
    assert verdict == WON and replays(spec, deal, rx, line)
