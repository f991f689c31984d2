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

import itertools
import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import won_state
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
#: two decks (two foundations a suit, two copies of each card), two piles, five ranks
TWO_DECKS = rules_for(get_spec("fours-up").reduced(tableau=2, ranks=5))


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


@pytest.mark.parametrize("rules", [FULL, SMALL, THREE], ids=["full", "2x5", "3x6"])
def test_a_won_image_has_no_moves(rules: Rules) -> None:
    # RULES "End": a won game has no legal moves, so no card is played back from it (random
    # play in the reduced game reaches a won position now and then)
    state = won_state(rules)
    game = MultisetGame(rules, state)
    img = game.image(state)
    assert img is not None and game.won(img)
    assert rules.legal_moves(state) == []
    assert list(game.moves(img)) == [] and list(game.successors(img)) == []
    assert check_both_halves(rules, state) == 0


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


def test_no_growth_of_the_table_past_the_end_of_the_budget() -> None:
    # growing the table moves every image (a second or more at millions of them) and a turn
    # cannot stop in its middle: with no time left in the solve's budget the compiled
    # search stops where its table would grow, undecided, and goes on from there later
    state = FULL.initial_state(179)  # open after millions of images
    game = MultisetGame(FULL, state)
    img = game.image(state)
    assert img is not None
    c = game.compiled(img, restart_unit=0)
    assert c is not None
    first = 1 << 16  # the table's first size: it grows past 70% full
    assert c.search(-1, -1.0, True, 0.0) == "unknown"
    assert c.size == first * 7 // 10
    nodes = c.nodes
    assert c.search(-1, -1.0, True, 0.0) == "unknown" and c.nodes == nodes  # still no room
    assert c.search(100_000, -1.0, True) == "unknown"  # no end given: it grows
    assert c.size > first * 7 // 10 and c.nodes > nodes
    c.release()


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


def images_of_random_play(rules: Rules, deals: range, steps: tuple[int, ...],
                          seed: int) -> Iterator[tuple[State, MultisetGame, bytes]]:
    """Positions of random play (``random_position``), each with its game of images and
    its image."""
    for deal in deals:
        for n in steps:
            state = random_position(rules, deal, n, deal * seed + n)
            game = MultisetGame(rules, state)
            img = game.image(state)
            assert img is not None
            yield state, game, img


def configurations(game: MultisetGame, sl: int, waste: bytes) -> list[bytes]:
    """Every image with stock length ``sl`` and ``waste`` whose foundations the cards out of
    the stock and the waste allow (each slot's cards there), and whose tableau fits in
    the piles: every image a position with that stock and waste can have."""
    nr = game.nr
    u = list(game.outside[sl])
    for k in waste:
        u[k] -= 1
    per_suit = []
    for su, group in enumerate(game.groups):
        options = []
        for heights in itertools.combinations_with_replacement(range(1, nr + 1), len(group)):
            if all(sum(h > r for h in heights) <= u[4 * r + su] for r in range(1, nr)):
                options.append(bytes(heights))
        per_suit.append(options)
    out = []
    for parts in itertools.product(*per_suit):
        img = bytes((sl,)) + b"".join(parts) + waste
        if game.fewest_runs(img) <= game.piles:
            out.append(img)
    return out


@pytest.mark.parametrize("rules", [TWO_DECKS, SMALL, THREE], ids=["2 decks", "2x5", "3x6"])
def test_a_waste_card_can_leave_exactly_when_a_configuration_lets_it(rules: Rules) -> None:
    # docs/solver.md, "Draining the waste": the test of one waste card, computed by matching
    # foundation slots to ranks, against every configuration of the foundations (RULES A7:
    # the waste's top goes home onto its suit's next card, or onto the tableau)
    verdicts = {True: 0, False: 0}
    for state, game, img in images_of_random_play(rules, range(1, 41), (15, 30, 45, 60), 1000):
        sl, waste = img[0], img[1 + game.nf:]
        if not waste:
            continue
        u = list(game.outside[sl])
        for k in waste:
            u[k] -= 1
        lets = any(ev[0] in ("wf", "wt") for cfg in configurations(game, sl, waste)
                   for ev, _ in game.moves(cfg))
        assert game.can_leave(u, waste[-1]) == lets, state
        verdicts[lets] += 1
    assert verdicts[True] >= 20 and verdicts[False] >= 10, verdicts


@pytest.mark.parametrize("rules,dead,reference", [
    (ONE, 150, "exhaustive"), (SMALL, 5, "exhaustive"), (TWO_DECKS, 4, "images")],
    ids=["1x5", "2x5", "2 decks"])
def test_a_waste_that_cannot_drain_is_lost(rules: Rules, dead: int, reference: str) -> None:
    # docs/solver.md, "Draining the waste": every position of random play whose waste the
    # test says cannot drain is lost, by the plain exhaustive search (RULES A7); with two
    # decks its raw space is too large, and the reference is the search over images
    # without the test (itself checked against the exhaustive search above)
    solver = solver_for(rules.spec)
    found = 0
    for state, game, img in images_of_random_play(rules, range(1, 121), (10, 20, 30, 40), 7):
        if not game.drains(img):
            if reference == "exhaustive":
                verdict = exhaustive(rules, state)[0]
            else:
                plain = _MultisetRun(solver, state, MultisetGame(rules, state), drain=False)
                verdict = plain.run(None, None)
            assert verdict == LOST, state
            found += 1
    assert found >= dead, found


def test_a_waste_that_cannot_drain_is_lost_in_fours_up() -> None:
    # the same in the full game (RULES A7), against the search over images without the
    # test, on positions late enough for it to decide
    solver = solver_for(FULL.spec)
    found = 0
    for deal in range(1, 31):
        state = FULL.initial_state(deal)
        rng = random.Random(deal)
        while len(state.piles[FULL.stock]) > 4 and (moves := FULL.legal_moves(state)):
            weights = [1 if m.is_deal else 6 if m.src == "waste" and m.dst[0] == "t" else 3
                       for m in moves]
            state = FULL.apply(state, rng.choices(moves, weights)[0])
        game = MultisetGame(FULL, state)
        img = game.image(state)
        assert img is not None
        if not game.drains(img):
            plain = _MultisetRun(solver, state, MultisetGame(FULL, state), restart_unit=0,
                                 drain=False)
            assert plain.run(None, 3_000_000) == LOST, deal
            found += 1
    assert found >= 15, found


def test_fours_up_deal_6_is_won_through_the_drain_test() -> None:
    """Deal 6 was open after 188 million images (a table of 9.2 GB) without the drain test:
    the search went on in regions where no waste could drain.  With it, the deal is won
    within 10,000 images, and its line replays."""
    state = FULL.initial_state(6)
    run = _MultisetRun(solver_for(FULL.spec), state, MultisetGame(FULL, state))
    assert run.run(None, 10_000) == WON
    assert run.cuts > 0
    for m in run.line:
        state = FULL.apply(state, m)
    assert FULL.is_won(state)
    plain = _MultisetRun(solver_for(FULL.spec), FULL.initial_state(6),
                         MultisetGame(FULL, FULL.initial_state(6)), drain=False)
    assert plain.run(None, 200_000) == UNKNOWN
