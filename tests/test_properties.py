"""Property tests (Hypothesis): the invariants of RULES §0 for any deal and any line of play.

A line of play is a list of integers; at each step the integer, modulo the number of legal
moves, picks the move. So every generated line is legal, and shrinking gives short ones.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import patience
from helpers import GAME_IDS, full_multiset, rules_of, state_multiset
from patience import Game, IllegalMove, Move, State
from patience.rules import Rules

DEAL_NUMBERS = st.integers(0, 2**64 - 1)
# short lines (which shrink well) and long ones (which get deep into a game: stock
# exhausted, redeals, refills, vacancies)
LINES = st.one_of(st.lists(st.integers(0, 10**6), max_size=20),
                  st.lists(st.integers(0, 10**6), min_size=60, max_size=250))
GAMES = st.sampled_from(GAME_IDS)
PROFILE = settings(max_examples=100, deadline=None)


def play_line(rules: Rules, start: State, line: list[int]) -> list[tuple[State, Move]]:
    """Follow ``line`` from ``start``: the positions met and the move played from each."""
    out = []
    s = start
    for choice in line:
        moves = rules.legal_moves(s)
        if not moves:
            break
        m = moves[choice % len(moves)]
        out.append((s, m))
        s = rules.apply(s, m)
    return out


@PROFILE
@given(game_id=GAMES, deal=DEAL_NUMBERS)
def test_deals_are_deterministic(game_id: str, deal: int) -> None:
    # RULES §0 Piles (deal numbering, patience.deals: a deal number fixes every pile)
    rules = rules_of(game_id)
    a = patience.new_game(game_id, deal=deal)
    assert a.state == patience.new_game(game_id, deal=deal).state == rules.initial_state(deal)
    assert state_multiset(a.state) == full_multiset(rules)
    other = deal + 1 if deal < 2**64 - 1 else deal - 1
    assert patience.new_game(game_id, deal=other).piles != a.piles


@PROFILE
@given(game_id=GAMES, deal=DEAL_NUMBERS, line=LINES)
def test_cards_are_conserved(game_id: str, deal: int, line: list[int]) -> None:
    # RULES §0 (cards; in multi-deck games identical cards are indistinguishable): every
    # card of every deck is in exactly one pile after any legal line of play
    rules = rules_of(game_id)
    everything = full_multiset(rules)
    start = rules.initial_state(deal)
    for s, m in play_line(rules, start, line):
        after = rules.apply(s, m)
        assert state_multiset(after) == everything, f"after {m} the cards differ"
        assert after.base == start.base
        assert s.passes <= after.passes <= rules.spec.passes


@PROFILE
@given(game_id=GAMES, deal=DEAL_NUMBERS, line=LINES)
def test_undo_is_the_inverse_of_play(game_id: str, deal: int, line: list[int]) -> None:
    # RULES §0 (automatic moves belong to the move that forced them): undo takes back a
    # move with everything it forced, redo plays it again
    rules = rules_of(game_id)
    g = patience.new_game(game_id, deal=deal)
    path = play_line(rules, g.state, line)
    for s, m in path:
        assert g.state == s
        assert g.play(str(m)) == m
    final = g.state
    for s, m in reversed(path):
        assert g.undo() == m
        assert g.state == s
    assert not g.can_undo
    for _, m in path:
        assert g.redo() == m
    assert g.state == final and not g.can_redo


@PROFILE
@given(game_id=GAMES, deal=DEAL_NUMBERS, line=LINES, undos=st.integers(0, 5))
def test_json_round_trip(game_id: str, deal: int, line: list[int], undos: int) -> None:
    # RULES §0 (move text): a saved game is its deal and its move texts, and replays exactly
    rules = rules_of(game_id)
    g = patience.new_game(game_id, deal=deal)
    for _, m in play_line(rules, g.state, line):
        g.play(str(m))
    for _ in range(min(undos, len(g.moves))):
        g.undo()
    restored = Game.from_json(g.to_json())
    assert restored.state == g.state
    assert restored.piles == g.piles
    assert restored.moves == g.moves
    assert restored.is_won == g.is_won and restored.is_lost == g.is_lost


@PROFILE
@given(game_id=GAMES, deal=DEAL_NUMBERS, line=LINES)
def test_move_texts_round_trip(game_id: str, deal: int, line: list[int]) -> None:
    # RULES §0 (move text): every legal move is written SRC>DST, SRC>DSTxN or deal, and
    # reading the text back gives the same move
    rules = rules_of(game_id)
    for s, _ in play_line(rules, rules.initial_state(deal), line):
        for m in rules.legal_moves(s):
            text = str(m)
            assert Move.parse(text) == m
            assert Move.parse(text.upper()) == m
            if m.is_deal:
                assert text == "deal"
            else:
                assert m.src in rules.index and m.dst in rules.index
                assert text == (f"{m.src}>{m.dst}" if m.n == 1 else f"{m.src}>{m.dst}x{m.n}")


@PROFILE
@given(
    src=st.sampled_from(["stock", "waste", "f1", "f16", "t1", "t12", "r8", "c5"]),
    dst=st.sampled_from(["f2", "t3", "t10", "r1", "c1", "waste"]),
    n=st.integers(1, 104),
)
def test_any_well_formed_text_round_trips(src: str, dst: str, n: int) -> None:
    # RULES §0 (move text): SRC>DST moves one card, SRC>DSTxN (N ≥ 2) moves N cards
    text = f"{src}>{dst}" if n == 1 else f"{src}>{dst}x{n}"
    m = Move.parse(text)
    assert (m.src, m.dst, m.n) == (src, dst, n)
    assert str(m) == text


@PROFILE
@given(game_id=GAMES, deal=DEAL_NUMBERS, line=LINES, data=st.data())
def test_play_accepts_exactly_the_legal_moves(
    game_id: str, deal: int, line: list[int], data: st.DataObject
) -> None:
    # RULES §0 (legal moves; End): the engine lists every legal move and refuses the rest,
    # with a reason and without changing anything; lost iff not won and no legal move
    rules = rules_of(game_id)
    g = patience.new_game(game_id, deal=deal)
    for _, m in play_line(rules, g.state, line):
        g.play(m)
    legal = g.legal_moves()
    assert g.is_lost == (not g.is_won and not legal)
    ids = list(rules.ids)
    for _ in range(5):
        m = Move(data.draw(st.sampled_from(ids)), data.draw(st.sampled_from(ids)),
                 data.draw(st.sampled_from([1, 1, 1, 2, 3])))
        before, moves = g.state, g.moves
        if m in legal:
            assert rules.why_illegal(before, m) is None
            continue
        reason = rules.why_illegal(before, m)
        assert reason
        try:
            g.play(str(m))
        except IllegalMove as e:
            assert e.why == reason
        else:
            raise AssertionError(f"{m} is not listed as legal but was played")
        assert g.state == before and g.moves == moves


MOVE_LIKE = st.one_of(
    st.text(max_size=12),
    st.from_regex(r"(t|f|r|c|stock|waste|deal|x)?[0-9]{0,3}(>(t|f|r|c|stock|waste)?[0-9]{0,3}"
                  r"(x[0-9]{0,3})?)?", fullmatch=True),
)


@PROFILE
@given(game_id=GAMES, deal=DEAL_NUMBERS, line=LINES, text=MOVE_LIKE)
def test_any_text_is_played_or_refused(game_id: str, deal: int, line: list[int],
                                       text: str) -> None:
    # RULES §0 Move text and Legal moves: any text either is a legal move, and is played, or
    # is refused with IllegalMove (a ValueError) and a reason, leaving the game unchanged
    rules = rules_of(game_id)
    g = patience.new_game(game_id, deal=deal)
    for _, m in play_line(rules, g.state, line):
        g.play(m)
    before, moves, legal = g.state, g.moves, g.legal_moves()
    try:
        parsed: Move | None = Move.parse(text)
    except ValueError:
        parsed = None
    if parsed is not None and parsed in legal:
        assert g.play(text) == parsed
        assert g.state == rules.apply(before, parsed)
        return
    try:
        g.play(text)
    except IllegalMove as e:
        assert isinstance(e, ValueError) and e.why
    else:
        raise AssertionError(f"{text!r} was played though it is not a legal move")
    assert g.state == before and g.moves == moves
