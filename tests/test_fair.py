"""The fair player (src/patience/fair.py): what it may know of the stock, and its labels."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from patience import fair
from patience.fair import POLICY_VERSION, FairPolicy, label_version, stock_known
from patience.games import get_spec
from patience.rules.state import DEAL, Move, State
from patience.solver import multiset, solver_for
from patience.solver.search import SolveResult


def test_labels_name_the_policy_version_and_its_budget() -> None:
    policy = FairPolicy(samples=3, nodes=300)
    assert policy.label == f"fair-v{POLICY_VERSION}:3x300"
    assert label_version(policy.label) == int(POLICY_VERSION)
    assert label_version("fair-v1:3x1000") == 1
    assert FairPolicy.from_label("fair-v1:3x1000") == FairPolicy(samples=3, nodes=1000)
    for other in ("thoughtful", "fair-v:3x300", "fair-vx:3x300", "fair-v2:3", "fair-v2:ax3"):
        assert label_version(other) is None and FairPolicy.from_label(other) is None


def _probes(monkeypatch: pytest.MonkeyPatch, game: str, st: State,
            policy: FairPolicy) -> list[tuple[State, int]]:
    """The positions (and budgets) the fair player searches to choose its move at ``st``."""
    solver = solver_for(get_spec(game))
    seen: list[tuple[State, int]] = []

    def probe(state: State, max_nodes: int) -> SolveResult:
        seen.append((state, max_nodes))
        return SolveResult(status="unknown", moves=[], nodes=max_nodes, seconds=0.0)

    monkeypatch.setattr(solver, "probe", probe)
    moves = solver.ordered_moves(st)
    assert len(moves) > 1, "a decision, not a forced move"
    choice = fair._vote(solver, st, moves, policy, random.Random(1), fair.FairResult(False))
    assert choice in moves
    return seen


def test_the_first_pass_stock_is_sampled_as_an_unseen_set(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # RULES A6: the 184 cards of the first pass are face down
    solver = solver_for(get_spec("quadrennial"))
    st = solver.rules.initial_state(3)
    assert not stock_known(st)
    policy = FairPolicy(samples=4, nodes=50)
    probes = _probes(monkeypatch, "quadrennial", st, policy)
    stock = solver.rules.stock
    assert [n for _, n in probes] == [50] * 4
    for sampled, _ in probes:
        assert Counter(sampled.piles[stock]) == Counter(st.piles[stock])
        assert sampled.piles[:stock] + sampled.piles[stock + 1:] == \
            st.piles[:stock] + st.piles[stock + 1:]  # only the stock's order is unknown
    assert any(s.piles[stock] != st.piles[stock] for s, _ in probes)


@pytest.mark.parametrize("game", ["quadrennial", "florentine"])
def test_after_a_redeal_the_stock_is_known_and_the_position_itself_is_searched(
        monkeypatch: pytest.MonkeyPatch, game: str) -> None:
    # RULES A6 (gathered reserve piles) and B2 (the waste turned over): the new stock is
    # made of cards that lay face up, in an order the rules fix
    rules = solver_for(get_spec(game)).rules
    st = rules.initial_state(5)
    while st.passes == 1:
        st = rules.apply(st, DEAL)
    assert stock_known(st) and st.piles[rules.stock]
    deals = 0
    while len(solver_for(get_spec(game)).ordered_moves(st)) < 2:
        st = rules.apply(st, DEAL)  # on to a decision
        deals += 1
        assert deals < 50
    probes = _probes(monkeypatch, game, st, FairPolicy(samples=3, nodes=40))
    assert probes == [(st, 120)]  # once, with the budget of the three samples


def _image_changes(game: str, moves: list[str], deal: int) -> list[bytes]:
    """The images (docs/solver.md, "The tableau as a multiset") a line passes through,
    one each time a move changes it."""
    solver = solver_for(get_spec(game))
    rules = solver.rules
    st = rules.initial_state(deal)
    images = multiset.MultisetGame(rules, st)
    seen = [images.image(st)]
    for text in moves:
        st = rules.apply(st, Move.parse(text))
        img = images.image(st)
        assert img is not None  # every pile stays a run from its bottom card (RULES A7)
        if img != seen[-1]:
            seen.append(img)
    return [i for i in seen if i is not None]


def test_in_fours_up_the_fair_player_never_returns_to_an_image() -> None:
    # RULES A7: tableau moves and play-back are reversible; the player that chose among
    # real moves went round them (deal 11: 1,800 tableau moves in a row, to its limit)
    policy = FairPolicy(samples=1, nodes=20, max_moves=2000)
    for deal in (11, 16):
        result = fair.play_fair("fours-up", deal, policy)
        assert len(result.moves) < policy.max_moves
        images = _image_changes("fours-up", result.moves, deal)
        assert len(images) == len(set(images)) > 100


def _image_decision(deal: int) -> tuple[State, multiset.MultisetGame,
                                        list[tuple[list[multiset.Event], bytes]]]:
    """A Fours Up position of deal ``deal`` with a choice that includes a play-back."""
    rules = solver_for(get_spec("fours-up")).rules
    st = rules.initial_state(deal)
    images = multiset.MultisetGame(rules, st)
    rng = random.Random(deal)
    for _ in range(400):
        img = images.image(st)
        assert img is not None
        events, _ = images.settle(img)
        fresh = list(images.successors(img))
        kinds = {evs[0][0] for evs, _ in fresh}
        if not events and "ft" in kinds and len(kinds) > 1 and "deal" in kinds:
            return st, images, fresh
        _, st = images.realize(st, events or rng.choice(fresh)[0])
    raise AssertionError("no decision with a play-back")


@pytest.mark.parametrize("deal", [1, 2, 3])
def test_in_fours_up_a_vote_goes_to_the_image_move_a_line_makes_first(
        monkeypatch: pytest.MonkeyPatch, deal: int) -> None:
    solver = solver_for(get_spec("fours-up"))
    st, images, fresh = _image_decision(deal)
    policy = FairPolicy(samples=2, nodes=10)

    def choose(line: list[str], status: str = "won") -> str:
        def probe(state: State, max_nodes: int) -> SolveResult:
            return SolveResult(status=status, moves=line if status == "won" else [],
                               nodes=1, seconds=0.0, best_line=line)
        monkeypatch.setattr(solver, "probe", probe)
        events = fair._vote_images(solver, images, st, fresh, policy, random.Random(1),
                                   fair.FairResult(False))
        assert any(events == evs for evs, _ in fresh)
        return events[0][0]

    # a line that deals first votes for the deal, whatever card the sample deals
    assert choose(["deal"]) == "deal"
    # a line that plays a card back first votes for that play-back
    back = next(evs for evs, _ in fresh if evs[0][0] == "ft")
    moves, _ = images.realize(st, back[:1])
    assert choose([str(m) for m in moves], "unknown") == "ft"
    # no sample points anywhere: progress, never a play-back
    assert choose([], "unknown") == next(evs for evs, _ in fresh if evs[0][0] != "ft")[0][0]
