"""Fours Up (RULES A7): eight Four foundations, six piles that move runs of any suit."""

from __future__ import annotations

from collections import Counter

import pytest

import patience
from helpers import game_at, layout, legal, pile, play_all, refused, rules_of
from patience.cards import card_text, rank_of
from patience.deals import shuffled
from patience.rules import State

GAME = "fours-up"
R = rules_of(GAME)
FOUNDATIONS = [f"f{i}" for i in range(1, 9)]
TABLEAU = [f"t{i}" for i in range(1, 7)]
# a full foundation, bottom to top
ROUND = ["4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2", "3"]


def fours(**piles: str) -> State:
    """Eight foundations holding their starting Fours (f1 4C, f2 4D, …), then ``piles``."""
    out = {f: "4" + "CDHS"[i % 4] for i, f in enumerate(FOUNDATIONS)}
    out.update(piles)
    return layout(R, out)


def test_layout_piles() -> None:
    # RULES A7 (two decks; foundations f1–f8, tableau t1–t6, stock and waste)
    assert R.ids == ("stock", "waste", *FOUNDATIONS, *TABLEAU)
    assert R.spec.decks == 2 and R.spec.passes == 1


@pytest.mark.parametrize("deal", [1, 2, 3, 1000])
def test_deal(deal: int) -> None:
    # RULES A7 Foundations (each starts with one of the eight Fours, taken out before the
    # shuffle), Tableau (six piles, one face-up card each) and Stock (90 cards)
    g = patience.new_game(GAME, deal=deal)
    p = g.piles
    assert all(len(p[f]) == 1 for f in FOUNDATIONS)
    assert Counter(p[f][0] for f in FOUNDATIONS) == Counter({"4C": 2, "4D": 2, "4H": 2,
                                                            "4S": 2})
    pack = [card_text(c) for c in shuffled([c for c in R.deck() if rank_of(c) != 4], deal)]
    assert len(pack) == 96
    assert [p[t] for t in TABLEAU] == [[c] for c in pack[:6]]
    assert p["stock"] == pack[6:][::-1] and len(p["stock"]) == 90
    assert p["waste"] == [] and g.base_rank == 4


def test_foundations_build_in_suit_round_the_corner() -> None:
    # RULES A7 Foundations (in suit: 4, 5, …, K, A, 2, 3)
    st = fours(f1=" ".join(r + "C" for r in ROUND[:10]), t1="AC", t2="AD", t3="5D",
               t4="9S", t5="QH", t6="7H")
    # play-back: KC may come back onto either Ace (A7 Tableau: an Ace takes a King)
    assert legal(R, st) == {"t1>f1", "t3>f2", "t3>f6", "f1>t1", "f1>t2"}
    refused(R, st, "t2>f1")  # right rank, wrong suit
    refused(R, st, "t4>f4")  # 9S does not go on 4S


def test_a_foundation_is_complete_at_13_cards() -> None:
    # RULES A7 Foundations (complete at 13 cards, 4 … 3; the 4C on t2 is made up for the
    # test: in suit and one rank up, it is refused only because f1 is complete)
    st = fours(f1=" ".join(r + "C" for r in ROUND[:12]), t1="3C", t2="4C", t3="9D",
               t4="9S", t5="QH", t6="7H")
    assert "t1>f1" in legal(R, st)
    after = play_all(R, st, "t1>f1")
    assert len(pile(R, after, "f1")) == 13
    assert "complete" in refused(R, after, "t2>f1")


def test_nothing_below_a_four() -> None:
    # RULES A7 Tableau (c on t when rank(c) = pred(rank(t)) and t is not a Four: a Three
    # takes a Two, a Two takes an Ace, an Ace takes a King; nothing is placed on a Four) and
    # RULES A7 Decision 1
    st = fours(t1="4H", t2="3S", t3="AH", t4="KS", t5="2D", t6="AC")
    assert legal(R, st) == {"t3>t5", "t6>t5", "t4>t3", "t4>t6", "t5>t2"}
    assert "base rank" in refused(R, st, "t2>t1")
    st = fours(t1="5D", t2="4C", t3="TH", t4="9S", t5="JH", t6="2S")
    assert legal(R, st) == {"t2>t1", "t4>t3", "t3>t5", "t1>f2", "t1>f6"}


def test_runs_of_any_suit_move_together() -> None:
    # RULES A7 Tableau (any run, the top k cards each of which could be placed on the card
    # beneath it, moves onto a pile whose top takes the run's bottom card, or into a space)
    # and RULES A7 Decision 2 (runs move regardless of suit); RULES §0 move text SRC>DSTxN
    st = fours(t1="2H", t2="KD 9H 8C 7D", t3="5S", t4="JC", t5="TS")
    assert legal(R, st) == {"t2>t5x3", "t1>t6", "t2>t6", "t2>t6x2", "t2>t6x3", "t3>t6",
                            "t4>t6", "t5>t6", "t5>t4", "t3>f4", "t3>f8"}
    refused(R, st, "t2>t5x2")  # 8C does not go on TS
    refused(R, st, "t2>t5")  # nor does 7D
    assert "sequence" in refused(R, st, "t2>t6x4")  # 9H does not lie on KD by the rule
    after = play_all(R, st, "t2>t5x3")
    assert pile(R, after, "t5") == ["TS", "9H", "8C", "7D"]
    assert pile(R, after, "t2") == ["KD"]
    after = play_all(R, after, "t5>t4x4")  # the whole pile, TS on JC
    assert pile(R, after, "t4") == ["JC", "TS", "9H", "8C", "7D"] and pile(R, after, "t5") == []


def test_runs_wrap_king_on_ace_and_stop_at_a_four() -> None:
    # RULES A7 Tableau (runs follow the rank rule: A takes K; nothing continues below a Four)
    st = fours(t1="3C 2D AS KH", t2="9C", t3="6C 5D 4S 3H", t4="6S 5H 4C", t5="7D", t6="JS")
    moves = legal(R, st)
    # 3C 2D AS KH is a run of four; its top three (2D at the bottom) go on 3H
    assert {m for m in moves if m.startswith("t1>")} == {"t1>t3x3"}
    assert {m for m in moves if m.startswith("t3>")} == set()  # 3H does not lie on 4S
    assert {m for m in moves if m.startswith("t4>")} == {"t4>t5x3"}  # 6S 5H 4C on 7D
    st = fours(t1="3C 2D AS KH", t2="4D", t3="9C", t4="7S", t5="JH", t6="")
    assert {m for m in legal(R, st) if m.startswith("t1>")} == {
        "t1>t6", "t1>t6x2", "t1>t6x3", "t1>t6x4"}


def test_a_space_takes_any_card_or_run() -> None:
    # RULES A7 Tableau (a space takes any card or any run) and Stock (the waste top may go
    # into a space); RULES A7 Decision 3 (a foundation top may be played back into it)
    st = fours(f3="4H 5H", t1="9C 8H", t2="QD", t3="3S", t4="2C", t5="KS", waste="JD")
    assert {m for m in legal(R, st) if m.endswith(("t6", "t6x2"))} == {
        "t1>t6", "t1>t6x2", "t2>t6", "t3>t6", "t4>t6", "t5>t6", "waste>t6", "f3>t6"}


def test_foundation_play_back() -> None:
    # RULES A7 Foundations (the top card of a foundation, never its starting Four, may be
    # played back onto any pile that accepts it) and RULES A7 Decision 3
    st = fours(f1="4C 5C 6C", f5="4C 5C", t1="7H", t2="3H", t3="JD", t4="9S", t5="QC",
               t6="2S")
    assert legal(R, st) == {"f1>t1", "f1>f5", "t3>t5", "t6>t2"}
    after = play_all(R, st, "f1>t1")
    assert pile(R, after, "t1") == ["7H", "6C"] and pile(R, after, "f1") == ["4C", "5C"]
    assert "never moves" in refused(R, st, "f2>t6")
    refused(R, after, "f2>t1")  # a 4 does not go on a 6 either way


def test_runs_do_not_go_to_foundations() -> None:
    # RULES A7 Tableau: a run moves onto a (tableau) pile or into a space; a foundation
    # builds up one card at a time (RULES A7 Foundations)
    st = fours(t1="5C 4H", t2="QD", t3="3S", t4="2C", t5="KS", t6="JH")
    assert not any(m.startswith("t1>f") for m in legal(R, st))
    refused(R, st, "t1>f1x2")  # 5C would go on 4C, but not with 4H on it


def test_no_stock_to_space() -> None:
    # RULES A7 Stock (there is no stock>tK)
    st = fours(t1="9C", t2="QD", t3="3S", t4="2C", t5="KS", stock="8H JC")
    assert "stock>t6" not in legal(R, st)
    refused(R, st, "stock>t6")


def test_deal_one_card_to_the_waste_one_pass() -> None:
    # RULES A7 Stock (deal turns one card onto the waste; one pass, no redeal)
    st = fours(t1="9C", t2="QD", t3="3S", t4="2C", t5="KS", t6="7S", stock="8H JC")
    after = play_all(R, st, "deal")
    assert pile(R, after, "waste") == ["JC"] and pile(R, after, "stock") == ["8H"]
    after = play_all(R, after, "deal")
    assert pile(R, after, "waste") == ["JC", "8H"] and pile(R, after, "stock") == []
    assert legal(R, after) == {"waste>t1", "t4>t3", "t2>t5"}
    refused(R, after, "deal")


def test_waste_top_goes_to_a_foundation_a_pile_or_a_space() -> None:
    # RULES A7 Stock (the waste top may go to a foundation, onto a tableau pile or into a
    # space)
    st = fours(t1="6H", t2="QD", t3="3S", t4="2C", t5="KS", waste="9S 5C")
    assert {m for m in legal(R, st) if m.startswith("waste")} == {
        "waste>f1", "waste>f5", "waste>t1", "waste>t6"}


def test_a_won_game() -> None:
    # RULES §0 End; RULES A7 (all 104 cards on the eight foundations)
    full = {f: " ".join(r + "CDHS"[i % 4] for r in ROUND) for i, f in enumerate(FOUNDATIONS)}
    full["f8"] = " ".join(r + "S" for r in ROUND[:12])
    st = fours(waste="3S", **full)
    g = game_at(GAME, st)
    g.play("waste>f8")
    assert g.is_won and g.legal_moves() == [] and not g.is_lost
