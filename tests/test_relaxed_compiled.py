"""The compiled relaxed search against its reference in Python (docs/solver.md, "Relaxation").

``_relaxedc.c`` is meant to be ``relaxed.RelaxedSearch.search`` position for position, in
the same order: so on every start tried here the two must give the same verdict, count the
same positions, keep the same table of lost positions and return the same winning line.
"""

from __future__ import annotations

import random

import pytest

from patience.game import rules_for
from patience.games import get_spec
from patience.rules import Rules, State
from patience.solver import relaxed

#: the rules the compiled search covers (RULES A1, A3, A2: the 1883 vacancies make cycles)
COMPILED = ("four-seasons", "czarina", "four-seasons-1883")


def both(rules: Rules, st: State) -> tuple[relaxed.RelaxedSearch, relaxed.RelaxedSearch]:
    return (relaxed.RelaxedSearch(rules, st, compiled=False),
            relaxed.RelaxedSearch(rules, st, compiled=True))


def outcome(rx: relaxed.RelaxedSearch, start: relaxed.RState,
            max_nodes: int | None) -> tuple[object, ...]:
    try:
        verdict = rx.search(start, max_nodes=max_nodes)
    except relaxed.ComponentTooLarge:
        verdict = "too large"
    return verdict, rx.nodes, len(rx.lost), rx.win_path


def test_the_compiled_search_is_built_for_four_seasons_czarina_and_1883() -> None:
    # `make test` builds it (setup.py); a checkout where it silently failed to build
    # would run the slower search in Python and lose the figures of docs/solver.md
    assert relaxed._relaxedc is not None
    for game in COMPILED:
        assert relaxed.compiles(rules_for(get_spec(game)))
    # Simplicity has twelve piles: searched in Python
    assert not relaxed.compiles(rules_for(get_spec("simplicity")))


@pytest.mark.parametrize("game", COMPILED)
def test_same_positions_same_order_from_the_openings(game: str) -> None:  # RULES A1-A3
    rules = rules_for(get_spec(game))
    verdicts = set()
    for deal in range(1, 31):
        st = rules.initial_state(deal)
        py, c = both(rules, st)
        start = py.relax(st)
        assert start is not None
        expected = outcome(py, start, 4000)
        assert outcome(c, start, 4000) == expected, deal
        verdicts.add(expected[0])
    assert {"won", "unknown"} <= verdicts


@pytest.mark.parametrize("game", COMPILED)
def test_same_positions_same_order_in_mid_game(game: str) -> None:  # RULES A1-A3
    rules = rules_for(get_spec(game))
    rng = random.Random(7)
    compared = 0
    for deal in range(40, 52):
        st = rules.initial_state(deal)
        py, c = both(rules, st)
        seen: list[relaxed.RState] = []
        for _ in range(60):
            moves = rules.legal_moves(st)
            if not moves:
                break
            st = rules.apply(st, rng.choice(moves))
            img = py.image(st)
            if img is not None and img not in seen:
                seen.append(img)
        for img in seen[::4]:
            assert outcome(c, img, 1500) == outcome(py, img, 1500), (deal, img)
            compared += 1
        # and the two tables answer alike for every image met
        for img in seen:
            assert (img in c.lost) == (img in py.lost), (deal, img)
    assert compared >= 100


@pytest.mark.parametrize("game", COMPILED)
def test_each_successor_is_given_once(game: str) -> None:  # RULES A1-A3
    # docs/solver.md, "Each successor once": equal piles, members of one component and the
    # 1883 vacancy fills often reach one relaxed position by several moves; the search keeps
    # the first of them (the searches above check that it searches the same positions)
    rules = rules_for(get_spec(game))
    rng = random.Random(11)
    looked = moved = 0
    for deal in range(1, 13):
        st = rules.initial_state(deal)
        rx = relaxed.RelaxedSearch(rules, st, compiled=False)
        for _ in range(50):
            img = rx.image(st)
            if img is not None:
                succ = rx.successors(img)
                assert len(succ) == len(set(succ)), (deal, img)
                looked += 1
                moved += len(succ) > 1
            moves = rules.legal_moves(st)
            if not moves:
                break
            st = rules.apply(st, rng.choice(moves))
    assert looked >= 200 and moved >= 100


@pytest.mark.parametrize(("game", "params", "least"), [
    ("four-seasons", {"ranks": 6, "tableau": 2}, 10),
    ("four-seasons", {"ranks": 5, "tableau": 1}, 10),
    ("czarina", {"ranks": 6, "tableau": 2}, 10),
    ("czarina", {"ranks": 7, "tableau": 3}, 10),
    ("four-seasons-1883", {"ranks": 5, "tableau": 1}, 10),
    ("four-seasons-1883", {"ranks": 6, "tableau": 1}, 10),
    # two piles: vacancies filled from the other pile, so positions lead back to each other
    # (Tarjan's components); lost deals are rare at this size
    ("four-seasons-1883", {"ranks": 5, "tableau": 2}, 3),
])
def test_complete_searches_agree_on_reduced_games(game: str, params: dict[str, int],
                                                  least: int) -> None:
    # RULES A1-A3: searched to the end, so every "lost" is the whole relaxed space
    rules = rules_for(get_spec(game).reduced(**params))
    tally = {"won": 0, "lost": 0}
    for deal in range(1, 121):
        st = rules.initial_state(deal)
        py, c = both(rules, st)
        start = py.relax(st)
        assert start is not None
        expected = outcome(py, start, None)
        assert outcome(c, start, None) == expected, deal
        assert isinstance(py.lost, set)
        assert all(s in c.lost for s in py.lost), deal
        tally[str(expected[0])] += 1
    assert tally["won"] >= least and tally["lost"] >= least, tally
