"""The tableau as a multiset (solver/multiset.py, docs/solver.md "The tableau as a multiset").

The search over images decides Fours Up exactly only if both halves of its argument hold:
every real move that is not a tableau rearrangement is a move of the image (so a lost image
is a lost position), and every move of the image can be carried out by real moves from any
arrangement of the tableau (so a won image is a won position).  Both are checked here on
positions of random play, in the full game and in reductions where the tableau is often
full; the verdicts are checked against the plain exhaustive search of
tests/test_solver_exhaustive.py.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from patience import Move
from patience.game import rules_for
from patience.games import all_specs, get_spec
from patience.rules import Rules, State
from patience.solver import LOST, UNKNOWN, WON, solver_for
from patience.solver.multiset import MultisetGame, applies
from patience.solver.search import _MultisetRun
from test_solver_exhaustive import exhaustive

FULL = rules_for(get_spec("fours-up"))
#: two piles and five ranks: the tableau is full (as many runs as piles) at most positions
SMALL = rules_for(get_spec("fours-up").reduced(decks=1, foundations=4, tableau=2, ranks=5))
THREE = rules_for(get_spec("fours-up").reduced(decks=1, foundations=4, tableau=3, ranks=6))
#: one pile and five ranks: about a quarter of the deals are lost
ONE = rules_for(get_spec("fours-up").reduced(decks=1, foundations=4, tableau=1, ranks=5))


def test_applies_to_fours_up_alone() -> None:
    # RULES A7: runs regardless of suit, moving into spaces too, nothing on a Four
    assert {s.id for s in all_specs() if applies(rules_for(s))} == {"fours-up"}


def test_a_position_with_cards_left_out_is_not_an_image() -> None:
    # a made-up position (tests, puzzles) need not hold every card: its tableau is then not
    # "every card not in the stock, the waste or home", and the search over positions runs
    piles = {f"f{i}": ["4" + "CDHS"[(i - 1) % 4]] for i in range(1, 9)}
    piles.update({"t1": ["9C", "8D"], "waste": ["KS"]})
    state = FULL.make_state(piles)
    assert not MultisetGame(FULL, state).whole
    assert _MultisetRun(solver_for(FULL.spec), state, MultisetGame(FULL, state)).full


def random_position(rules: Rules, deal: int, steps: int, seed: int) -> State:
    """A position of random play that favours filling the tableau from the waste."""
    rng = random.Random(seed)
    state = rules.initial_state(deal)
    for _ in range(steps):
        moves = rules.legal_moves(state)
        if not moves:
            break
        weights = [1 if m.is_deal else 6 if m.src == "waste" and m.dst[0] == "t" else 3
                   for m in moves]
        state = rules.apply(state, rng.choices(moves, weights)[0])
    return state


def check_both_halves(rules: Rules, state: State) -> int:
    """Assert the argument's two halves at ``state``; returns how many image moves it
    carried out."""
    game = MultisetGame(rules, state)
    img = game.image(state)
    assert img is not None and game.whole  # every pile is a run from its bottom card
    moves = dict((nxt, ev) for ev, nxt in game.moves(img))
    for m in rules.legal_moves(state):
        if not m.is_deal and m.src[0] == m.dst[0] and m.src[0] in "tf":
            # a tableau rearrangement, or a card played back onto the other foundation of
            # its suit: the same image
            assert game.image(rules.apply(state, m)) == img
        else:
            assert game.image(rules.apply(state, m)) in moves, f"{m} is not an image move"
    for nxt, ev in moves.items():
        _, after = game.realize(state, [ev])  # raises if a real move would be illegal
        assert game.image(after) == nxt, f"{ev} reaches another image"
    return len(moves)


@pytest.mark.parametrize("rules", [FULL, SMALL, THREE], ids=["full", "2x5", "3x6"])
@settings(max_examples=60, deadline=None)
@given(deal=st.integers(1, 10**6), steps=st.integers(0, 120), seed=st.integers(0, 2**32))
def test_image_moves_are_the_real_moves(rules: Rules, deal: int, steps: int, seed: int) -> None:
    # RULES A7 (runs, spaces, play-back)
    check_both_halves(rules, random_position(rules, deal, steps, seed))


def test_full_tableaux_are_covered() -> None:
    """The random positions include full tableaux (as many runs as piles), where a card
    joins or leaves the tableau only through a pile's top, and the checks hold there."""
    full = 0
    for deal in range(1, 60):
        for steps in (10, 25, 40):
            state = random_position(SMALL, deal, steps, deal * 100 + steps)
            game = MultisetGame(SMALL, state)
            img = game.image(state)
            assert img is not None
            if game.fewest_runs(img) == len(SMALL.tab):
                full += 1
            check_both_halves(SMALL, state)
    assert full >= 20


@pytest.mark.parametrize("rules,deals,lost", [(ONE, range(1, 201), 40),
                                              (SMALL, range(1, 61), 0)], ids=["1x5", "2x5"])
def test_search_over_images_agrees_with_the_exhaustive_search(rules: Rules, deals: range,
                                                               lost: int) -> None:
    # RULES A7: the search over images alone, against every legal move; with one pile
    # both verdicts are common (with more, small deals are nearly always won, and the
    # reference is slow to find the win: the slow run of tests/test_solver_exhaustive.py
    # has those, and the lost ones of two piles of seven ranks)
    solver = solver_for(rules.spec)
    verdicts = {WON: 0, LOST: 0}
    for deal in deals:
        state = rules.initial_state(deal)
        run = _MultisetRun(solver, state, MultisetGame(rules, state))
        verdict = run.run(None, None)
        assert verdict == exhaustive(rules, state)[0], f"deal {deal}"
        verdicts[verdict] += 1
        if verdict == WON:
            replay = state
            for m in run.line:
                assert rules.why_illegal(replay, m) is None
                replay = rules.apply(replay, m)
            assert rules.is_won(replay)
    assert verdicts[LOST] >= lost, verdicts


@pytest.mark.parametrize("rules,deals,lost,reference", [
    (ONE, range(1, 201), 40, "exhaustive"), (SMALL, range(1, 61), 0, "exhaustive"),
    (THREE, range(1, 101), 0, "no restarts")], ids=["1x5", "2x5", "3x6"])
def test_restarts_keep_the_verdict(rules: Rules, deals: range, lost: int,
                                   reference: str) -> None:
    # docs/solver.md, "Restarts": the compiled search beginning again from the root after
    # every few images (a Luby sequence of 1, 1, 2, ... images), the successors shuffled,
    # decides as the exhaustive search does (one pile: both verdicts common), play-back's
    # cycles included, and as the search without restarts where the exhaustive one is too
    # slow; its wins replay
    solver = solver_for(rules.spec)
    verdicts = {WON: 0, LOST: 0}
    restarted = 0
    for deal in deals:
        state = rules.initial_state(deal)
        run = _MultisetRun(solver, state, MultisetGame(rules, state), restart_unit=1)
        assert run.c is not None
        c = run.c
        verdict = run.run(None, None)
        if reference == "exhaustive":
            expected = exhaustive(rules, state)[0]
        else:
            plain = _MultisetRun(solver, state, MultisetGame(rules, state), restart_unit=0)
            expected = plain.run(None, None)
        assert verdict == expected, f"deal {deal}"
        verdicts[verdict] += 1
        restarted += c.restarts >= 5
        if verdict == WON:
            replay = state
            for m in run.line:
                replay = rules.apply(replay, m)
            assert rules.is_won(replay), f"deal {deal}"
    assert verdicts[LOST] >= lost, verdicts
    assert restarted >= len(deals) // 2, restarted


def test_fours_up_deal_1_is_won() -> None:
    """Deal 1, undecided by the searches over positions after 60 s of CPU time (1.4
    million positions), is won through its images within 20,000 of them."""
    state = FULL.initial_state(1)
    result = solver_for(FULL.spec).solve(state, max_nodes=100_000)
    assert result.status == WON
    for text in result.moves:
        state = FULL.apply(state, Move.parse(text))
    assert FULL.is_won(state)
    assert len(result.moves) < 600  # the line, shortened (MultisetGame.shortcut)


def test_the_compiled_search_is_built() -> None:
    # `make test` builds it (setup.py); without it the search runs in Python, some fifty
    # times slower
    from patience.solver import multiset

    assert multiset._multisetc is not None


def both_searches(rules: Rules, state: State, max_nodes: int | None) -> list[tuple[object, ...]]:
    solver = solver_for(rules.spec)
    out = []
    for compiled in (False, True):
        run = _MultisetRun(solver, state, MultisetGame(rules, state), compiled=compiled,
                           restart_unit=0)
        verdict = run.run(None, max_nodes)
        best = run.best_path if verdict == UNKNOWN else []  # (a hint's line, when undecided)
        out.append((verdict, run.nodes, run.best_progress, run.line, best))
    return out


@pytest.mark.parametrize("rules,deals", [(ONE, range(1, 201)), (SMALL, range(1, 101)),
                                         (THREE, range(1, 101))], ids=["1x5", "2x5", "3x6"])
def test_the_compiled_search_is_the_search_in_python(rules: Rules, deals: range) -> None:
    # the same images in the same order: the same verdict, count, line and best line
    for deal in deals:
        python, compiled = both_searches(rules, rules.initial_state(deal), None)
        assert python == compiled, f"deal {deal}"


@pytest.mark.parametrize("deal", [1, 2, 6, 8, 46])
def test_the_compiled_search_is_the_search_in_python_in_fours_up(deal: int) -> None:
    # RULES A7; deals won within 20,000 images (1, 2, 46) and open after them (6, 8), and
    # a position of random play
    python, compiled = both_searches(FULL, FULL.initial_state(deal), 20_000)
    assert python == compiled
    python, compiled = both_searches(FULL, random_position(FULL, deal, 60, deal), 20_000)
    assert python == compiled
