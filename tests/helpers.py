"""Helpers shared by the engine's test suite (RULES.md is the reference throughout)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

import patience
from patience.cards import card_text, full_deck
from patience.game import Game, rules_for
from patience.rules import Move, Rules, State

GAME_IDS: list[str] = [info.id for info in patience.games()]

# The seven commissioned games (RULES Part A); the suite must cover every one of them.
PART_A = ("four-seasons", "four-seasons-1883", "czarina", "corners", "simplicity",
          "quadrennial", "fours-up")


def rules_of(game_id: str) -> Rules:
    """The compiled rules of a registered game."""
    return rules_for(patience.get_spec(game_id))


def cards(text: str) -> list[str]:
    """``"5C 6D"`` → ``["5C", "6D"]`` (a pile written bottom to top)."""
    return text.split()


def texts(moves: Iterable[Move]) -> set[str]:
    """Move objects → their texts, as a set (for exact comparisons)."""
    return {str(m) for m in moves}


def legal(rules: Rules, st: State) -> set[str]:
    """The legal moves of a position as a set of texts (checking there are no duplicates)."""
    moves = rules.legal_moves(st)
    out = texts(moves)
    assert len(out) == len(moves), f"duplicate legal moves: {moves}"
    return out


def pile(rules: Rules, st: State, pid: str) -> list[str]:
    """One pile of a position as card texts, bottom to top."""
    return [card_text(c) for c in st.piles[rules.index[pid]]]


def full_multiset(rules: Rules) -> Counter[int]:
    """Every card of the game: ``decks`` copies of the ranks × suits deck."""
    spec = rules.spec
    return Counter(full_deck(spec.ranks, spec.suits) * spec.decks)


def state_multiset(st: State) -> Counter[int]:
    return Counter(c for p in st.piles for c in p)


def game_at(game_id: str, st: State) -> Game:
    """A :class:`Game` of ``game_id`` whose position is ``st`` (built with ``make_state``).

    ``Game.state`` is the public position; replacing it is how a test puts a game
    object into a chosen position (undo then goes back no further than ``st``).
    """
    g = patience.new_game(game_id, deal=1)
    g.state = st
    return g


def won_state(rules: Rules) -> State:
    """Every card on a foundation, each foundation a full round from its base rank (up or
    down, RULES B3), or from the base to the King (up) or the Ace (down) where foundations
    do not turn the corner.

    Foundation ``i`` gets suit ``i mod 4`` (works for in-suit and any-suit building).
    """
    spec = rules.spec
    base = spec.base_rank or 1
    n = spec.ranks
    piles: dict[str, list[int]] = {}
    for i in range(spec.foundations):
        suit = i % spec.suits
        down = i >= spec.foundations - spec.foundations_down
        start = (spec.down_base_rank or base) if down else base
        step = -1 if down else 1
        count = n if spec.foundation_wrap else (start if down else n - start + 1)
        ranks = [(start - 1 + step * k) % n + 1 for k in range(count)]
        piles[f"f{i + 1}"] = [(r - 1) * 4 + suit for r in ranks]
    return rules.make_state(piles, base=base)


def position(rules: Rules, base: int | None = None, passes: int = 1, **piles: str) -> State:
    """``position(rules, base=7, t1="9H 8C", stock="3C")``: a position from pile texts
    (bottom to top); piles not named are empty."""
    return layout(rules, piles, base=base, passes=passes)


def layout(rules: Rules, piles: dict[str, str], base: int | None = None,
           passes: int = 1) -> State:
    """As :func:`position`, with the piles given as a dict."""
    return rules.make_state({pid: p.split() for pid, p in piles.items()}, base=base,
                            passes=passes)


def refused(rules: Rules, st: State, text: str) -> str:
    """``text`` is illegal in ``st``: return the engine's reason (checked to be non-empty)."""
    m = Move.parse(text)
    assert m not in rules.legal_moves(st), f"{text} is legal here"
    why = rules.why_illegal(st, m)
    assert why, f"no reason given for refusing {text}"
    return why


def play_all(rules: Rules, st: State, *moves: str) -> State:
    """Play legal moves one after the other (each checked to be legal first)."""
    for text in moves:
        m = Move.parse(text)
        assert m in rules.legal_moves(st), f"{text} is not legal in {st}"
        st = rules.apply(st, m)
    return st
