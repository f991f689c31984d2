"""The contract every registered game keeps (RULES §0), checked by random playouts.

For each game: numbered deals are deterministic; along seeded random playouts, at every
step, no card is lost or duplicated, every legal move's text parses back (and up to
``PLAYED_PER_STEP`` of them, chosen at random, are played on a copy of the game), undo
and redo are exact inverses, illegal moves are refused without changing anything, and
``is_lost`` / ``is_won`` agree with the legal moves; the JSON form replays the game.
"""

from __future__ import annotations

import json
import random

import pytest

import patience
from helpers import GAME_IDS, PART_A, full_multiset, rules_of, state_multiset, won_state
from patience import DEAL, Game, IllegalMove, Move, State
from patience.cards import rank_of
from patience.rules import Rules

DEALS = (1, 2, 3)
MAX_MOVES = 300
PLAYED_PER_STEP = 8  # legal moves played on a copy at each step (all of them when fewer)
MALFORMED = ("x", "t9>f1", "t1>", "deal2", "t1>t2x1", "", ">", "t1>>t2", "t0>f1", "q1>f1",
             "t1>t2x", "t1>t2xx2", "stock", "waste>", "undo", "t1-t2", "t1>t99", "f99>t1")


def choose(rng: random.Random, moves: list[Move]) -> Move:
    """A random move, biased towards foundations and the stock so that playouts get on."""
    home = [m for m in moves if m.dst.startswith("f") and not m.src.startswith("f")]
    if home and rng.random() < 0.6:
        return rng.choice(home)
    if DEAL in moves and rng.random() < 0.2:
        return DEAL
    return rng.choice(moves)


def check_refused(g: Game, text: str) -> None:
    """``text`` is refused with a reason, and the game is left exactly as it was."""
    st, moves, can_redo = g.state, g.moves, g.can_redo
    with pytest.raises(IllegalMove) as info:
        g.play(text)
    err = info.value
    assert isinstance(err, ValueError)
    assert err.why.strip(), f"no reason given for {text!r}"
    assert str(err).strip()
    assert g.state == st
    assert g.moves == moves
    assert g.can_redo == can_redo


def test_every_commissioned_game_is_registered() -> None:
    # RULES Part A (A1–A7): the seven commissioned games are all registered, ids as listed
    assert set(PART_A) <= set(GAME_IDS)
    assert len(GAME_IDS) == len(set(GAME_IDS))


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_deals_are_deterministic(game_id: str) -> None:
    # RULES §0 Piles (deal numbering, patience.deals: a deal number fixes every pile)
    for deal in (0, 1, 2, 1000, 2**64 - 1):
        a, b = patience.new_game(game_id, deal=deal), patience.new_game(game_id, deal=deal)
        assert a.piles == b.piles
        assert a.state == b.state
    layouts = {json.dumps(patience.new_game(game_id, deal=d).piles, sort_keys=True)
               for d in range(1, 21)}
    assert len(layouts) == 20, "different deal numbers must give different layouts"


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_opening_layout_is_complete(game_id: str) -> None:
    # RULES §0 (piles and their ids), A1–A7 and B1–B3 (each game's layout and deal)
    rules = rules_of(game_id)
    spec = rules.spec
    for deal in DEALS:
        g = patience.new_game(game_id, deal=deal)
        assert tuple(g.piles) == spec.pile_ids
        assert state_multiset(g.state) == full_multiset(rules)
        assert sum(len(p) for p in g.piles.values()) == spec.decks * 52
        assert g.passes == 1
        assert g.moves == [] and not g.can_undo and not g.can_redo
        f1 = g.state.piles[rules.index["f1"]]
        if spec.base_rank is not None and not spec.prefilled:
            # RULES B3 "bases dealt at start: no": every foundation starts empty
            assert not any(g.state.piles[f] for f in rules.found)
            assert g.base_rank == g.state.base == spec.base_rank
            continue
        assert f1, "every other game founds f1 at the start"
        assert rank_of(f1[0]) == g.base_rank == g.state.base


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_won_game_has_no_legal_moves(game_id: str) -> None:
    # RULES §0 (End): won when every card is on a foundation; a won game has no legal moves
    rules = rules_of(game_id)
    st = won_state(rules)
    assert state_multiset(st) == full_multiset(rules)
    assert rules.is_won(st)
    assert rules.legal_moves(st) == []
    g = Game(game_id, deal=1)
    g.state = st
    assert g.is_won and not g.is_lost
    check_refused(g, "deal")
    for pid in rules.ids:
        check_refused(g, f"{pid}>t1")


@pytest.mark.parametrize("move", [
    Move("t1", "t2", 0),
    Move("t1", "t2", -1), Move("", ""),
    Move("t1", "t1"), Move("T1", "t2"), Move("deal", "t1", 1), Move("stock", "waste"),
    Move("waste", "stock"), Move("f1", "t1"), Move("t1", "f9"), Move("t1", "t2", 2),
    "t1>t2x99999999999999999999", "t\u0661>f1", "t1>t2x\u00b2", 42, None,
], ids=lambda v: f"Move{tuple(v)}" if isinstance(v, Move) else repr(v))
def test_malformed_moves_are_refused(move: object) -> None:
    # RULES §0 Move text and Legal moves: a move the rules do not allow is refused with a
    # reason (IllegalMove, a ValueError), whatever form it comes in, and changes nothing
    g = patience.new_game("four-seasons", deal=1)  # t1 holds a single card
    check_refused(g, move)  # type: ignore[arg-type]


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_random_playouts_keep_the_contract(game_id: str) -> None:
    # RULES §0 (cards, move text, legal moves, End): checked at every step of random playouts
    rules = rules_of(game_id)
    ids = rules.ids
    everything = full_multiset(rules)
    for deal in DEALS:
        rng = random.Random(deal * 7919 + GAME_IDS.index(game_id))
        g = patience.new_game(game_id, deal=deal)
        for step in range(MAX_MOVES):
            st = g.state
            assert state_multiset(st) == everything, f"cards lost or duplicated at step {step}"
            moves = g.legal_moves()
            assert len(set(moves)) == len(moves), f"duplicate legal moves {moves}"
            assert g.is_lost == (not g.is_won and not moves)
            if g.is_won:
                assert moves == []
            for m in moves:
                assert Move.parse(str(m)) == m
                assert state_multiset(rules.apply(st, m)) == everything
            sample = moves if len(moves) <= PLAYED_PER_STEP else \
                rng.sample(moves, PLAYED_PER_STEP)
            for m in sample:
                copy = g.copy()
                assert copy.play(str(m)) == m
                assert copy.state == rules.apply(st, m)
                assert copy.moves == [*g.moves, str(m)]
            assert g.state == st, "playing on a copy changed the original"
            if not moves:
                break
            m = choose(rng, moves)
            piles_before, moves_before = g.piles, g.moves
            g.play(str(m))
            after = g.state
            assert g.undo() == m
            assert g.state == st and g.piles == piles_before and g.moves == moves_before
            assert g.can_redo
            if step % 10 == 0:
                for text in MALFORMED:
                    try:
                        parsed = Move.parse(text)
                    except ValueError:
                        parsed = None
                    if parsed not in moves:
                        check_refused(g, text)
                if DEAL not in moves:
                    check_refused(g, "deal")
                for _ in range(6):
                    text = f"{rng.choice(ids)}>{rng.choice(ids)}"
                    if rng.random() < 0.3:
                        text += f"x{rng.randint(2, 4)}"
                    if Move.parse(text) not in moves:
                        check_refused(g, text)
            assert g.redo() == m
            assert g.state == after and not g.can_redo
        restored = Game.from_json(g.to_json())
        assert restored.state == g.state
        assert restored.piles == g.piles
        assert restored.moves == g.moves
        assert (restored.id, restored.deal) == (game_id, deal)
        assert json.loads(g.to_json()) == {"game": game_id, "deal": deal, "moves": g.moves}


# Reduced layouts (GameSpec.reduced) small enough for a search to settle each deal.
REDUCED = {
    "four-seasons": {"ranks": 4},
    "four-seasons-1883": {"ranks": 3},
    "czarina": {"ranks": 4},
    "corners": {"ranks": 4},
    "simplicity": {"ranks": 4, "tableau": 4},
    "quadrennial": {"ranks": 5, "decks": 1, "foundations": 4, "reserves": 3},
    "fours-up": {"ranks": 6, "decks": 1, "foundations": 4, "tableau": 3},
}


def search_for_a_win(rules: Rules, start: State, limit: int) -> bool | None:
    """Depth-first search, foundation moves first: True when a won position is reached,
    False when every reachable position was seen without one, None past ``limit``."""
    seen = {start}
    stack = [start]
    while stack:
        st = stack.pop()
        if rules.is_won(st):
            return True
        moves = rules.legal_moves(st)
        moves.sort(key=lambda m: m.dst.startswith("f") and not m.src.startswith("f"))
        for m in moves:
            nxt = rules.apply(st, m)
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
        if len(seen) > limit:
            return None
    return False


@pytest.mark.parametrize("game_id", PART_A)
def test_some_deals_can_be_won(game_id: str) -> None:
    # RULES §0 End (a game is won when every card is on a foundation): on a reduced layout
    # of each commissioned game, deals 1 and 3 can be played out to a win
    spec = patience.get_spec(game_id).reduced(**REDUCED[game_id])
    rules = Rules(spec)
    for deal in (1, 3):
        start = rules.initial_state(deal)
        assert state_multiset(start) == full_multiset(rules)
        assert search_for_a_win(rules, start, limit=20_000), f"deal {deal} cannot be won"
