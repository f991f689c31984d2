"""Four Seasons (RULES A1), checked position by position against the specification."""

from __future__ import annotations

import pytest

import patience
from helpers import game_at, legal, pile, play_all, position, refused, rules_of
from patience.cards import card_text, rank_of
from patience.deals import shuffled

GAME = "four-seasons"
R = rules_of(GAME)
J, SEVEN, ACE, KING, FIVE, TWO = 11, 7, 1, 13, 5, 2


def test_layout_piles() -> None:
    # RULES A1 Layout (cross t1–t5, corner foundations f1–f4, stock and waste); RULES §0 ids
    assert R.ids == ("stock", "waste", "f1", "f2", "f3", "f4", "t1", "t2", "t3", "t4", "t5")
    assert R.spec.decks == 1 and R.spec.section == "A1"


@pytest.mark.parametrize("deal", [*range(1, 26), 1000, 2**64 - 1])
def test_deal_order_and_base_rank(deal: int) -> None:
    # RULES A1 Deal (t2, t3, t4, then t1 and t5, sixth card to f1 fixes b, 46 in stock) and
    # RULES A1 Decision 3 (the waste starts empty)
    pack = [card_text(c) for c in shuffled(R.deck(), deal)]
    g = patience.new_game(GAME, deal=deal)
    p = g.piles
    assert [p["t2"], p["t3"], p["t4"], p["t1"], p["t5"]] == [[c] for c in pack[:5]]
    assert p["f1"] == [pack[5]]
    assert g.base_rank == rank_of(g.state.piles[R.index["f1"]][0])
    assert p["f2"] == p["f3"] == p["f4"] == []
    assert p["waste"] == []
    assert len(p["stock"]) == 46
    # the rest of the pack, in order, is the stock: its next card is the pack's seventh
    assert p["stock"] == pack[6:][::-1]


def test_deal_turns_the_next_stock_card_onto_the_waste() -> None:
    # RULES A1 Stock; RULES §0 (stock listed bottom to top, its last card is dealt next)
    g = patience.new_game(GAME, deal=1)
    stock = g.piles["stock"]
    g.play("deal")
    assert g.piles["waste"] == [stock[-1]]
    assert g.piles["stock"] == stock[:-1]
    g.play("deal")
    assert g.piles["waste"] == [stock[-1], stock[-2]]


def test_foundation_builds_up_in_suit_round_the_corner() -> None:
    # RULES A1 Foundations (same suit, succ(r); K is followed by A); RULES §0 rank arithmetic
    st = position(R, base=J, f1="JS QS KS", f2="JH", t1="AS", t2="AH", t3="9C", t4="QD",
                  t5="4C", stock="3C")
    assert legal(R, st) == {"t1>f1", "deal"}
    assert "KS on f1" not in refused(R, st, "t2>f1")  # AH: right rank, wrong suit
    refused(R, st, "t4>f2")  # QD on JH: wrong suit
    after = play_all(R, st, "t1>f1")
    assert pile(R, after, "f1") == ["JS", "QS", "KS", "AS"]


def test_foundation_is_complete_at_13_cards() -> None:
    # RULES A1 Foundations (complete at 13 cards). The waste holds a second JS, made up
    # for the test: only a 13-card foundation can refuse a card of the right suit and rank.
    f1 = "JS QS KS AS 2S 3S 4S 5S 6S 7S 8S 9S TS"
    st = position(R, base=J, f1=f1, waste="JS", t1="2H", t2="5D", t3="8C", t4="KH", t5="TD")
    assert legal(R, st) == {"waste>f2", "waste>f3", "waste>f4"}
    assert "complete" in refused(R, st, "waste>f1")


def test_any_empty_foundation_takes_any_base_rank_card() -> None:
    # RULES A1 Foundations (each of f2–f4 takes a card of rank b; any empty one takes any)
    st = position(R, base=SEVEN, f1="7C", t1="7H", t2="9D", t3="2S", t4="5C", t5="JS")
    assert legal(R, st) == {"t1>f2", "t1>f3", "t1>f4"}  # three moves; no stock, no waste
    st = position(R, base=SEVEN, f1="7C", f2="7D", t1="7H", t2="8D", t3="2S", t4="5C",
                  t5="JS")
    # 7H may go on 8D (nothing goes *on* a base-rank card; it may itself be placed)
    assert legal(R, st) == {"t1>f3", "t1>f4", "t1>t2", "t2>f2"}
    # any empty corner, not only the next one in order
    st = position(R, base=SEVEN, f1="7C", f3="7D", t1="7H", t2="9D", t3="2S", t4="5C",
                  t5="JS")
    assert legal(R, st) == {"t1>f2", "t1>f4"}
    # only the base rank founds a corner
    assert "base rank" in refused(R, st, "t2>f2")


def test_cards_never_leave_a_foundation() -> None:
    # RULES A1 Foundations (cards never leave a foundation): 8C would fit on 9H or a space
    st = position(R, base=SEVEN, f1="7C 8C", t1="9H", t2="2D", t3="KS", t4="4C", t5="JD")
    assert legal(R, st) == set()
    refused(R, st, "f1>t1")
    st = position(R, base=SEVEN, f1="7C 8C", t1="9H", t2="2D", t4="4C", t5="JD")
    assert not any(m.startswith("f") for m in legal(R, st))
    refused(R, st, "f1>t3")


def test_tableau_builds_down_regardless_of_suit() -> None:
    # RULES A1 Tableau (c on t when rank(c) = pred(rank(t)), any suit)
    st = position(R, base=SEVEN, f1="7C", t1="9H", t2="8C", t3="8H", t4="8S", t5="TD",
                  stock="3C")
    assert legal(R, st) == {"t2>t1", "t3>t1", "t4>t1", "t1>t5", "t2>f1", "deal"}
    after = play_all(R, st, "t3>t1")
    assert pile(R, after, "t1") == ["9H", "8H"] and pile(R, after, "t3") == []
    refused(R, st, "t5>t1")  # up, not down
    refused(R, after, "t2>t1")  # 8C on 8H: same rank


def test_nothing_is_placed_on_a_base_rank_card() -> None:
    # RULES A1 Tableau (nothing is ever placed on a card of the base rank) and
    # RULES A1 Decision 1 (building across the base is forbidden)
    st = position(R, base=SEVEN, f1="7C 8C", f2="7D", f3="7S", t1="7H", t2="6C", t3="KD",
                  t4="QS", t5="2D", stock="3C")
    assert legal(R, st) == {"t1>f4", "t4>t3", "deal"}
    assert "base rank" in refused(R, st, "t2>t1")
    st = position(R, base=SEVEN, f1="7C", t1="8H 7S", t2="6D", t3="KD", t4="QS", t5="2D",
                  waste="6H")
    assert "t2>t1" not in legal(R, st) and "waste>t1" not in legal(R, st)


def test_a_king_goes_on_an_ace() -> None:
    # RULES A1 Tableau (pred(A) = K, so a King goes on an Ace when Aces are not the base)
    st = position(R, base=SEVEN, f1="7C", t1="AD", t2="KC", t3="9S", t4="4H", t5="JD")
    assert legal(R, st) == {"t2>t1"}
    after = play_all(R, st, "t2>t1")
    assert pile(R, after, "t1") == ["AD", "KC"]


def test_no_king_on_an_ace_when_aces_are_the_base() -> None:
    # RULES A1 Tableau ("kings go on aces unless aces are the foundation base")
    st = position(R, base=ACE, f1="AS", t1="AD", t2="KC", t3="9S", t4="4H", t5="JD")
    assert legal(R, st) == {"t1>f2", "t1>f3", "t1>f4"}
    assert "base rank" in refused(R, st, "t2>t1")


def test_base_rule_holds_for_any_base() -> None:
    # RULES A1 Tableau ("this is that rule for any base"): with b = K nothing goes on a
    # King, and a King still goes on an Ace
    st = position(R, base=KING, f1="KS", t1="KD", t2="QC", t3="AH", t4="KC", t5="5D")
    assert legal(R, st) == {"t1>f2", "t1>f3", "t1>f4", "t4>f2", "t4>f3", "t4>f4", "t1>t3",
                            "t4>t3"}
    refused(R, st, "t2>t1")
    refused(R, st, "t2>t4")


def test_only_one_card_moves_at_a_time() -> None:
    # RULES A1 Tableau (only one card moves at a time)
    st = position(R, base=TWO, f1="2C", t1="9H 8C", t2="TS", t4="5D", t5="KH", stock="3C")
    moves = legal(R, st)
    assert not any("x" in m for m in moves)
    assert "one card" in refused(R, st, "t1>t2x2")
    refused(R, st, "t1>t3x2")
    assert {"t1>t3", "t2>t3", "t4>t3", "t5>t3", "stock>t3"} <= moves


def test_spaces_take_a_tableau_top_the_waste_top_or_the_next_stock_card() -> None:
    # RULES A1 Spaces (any available card: another pile's top, the waste top, or the next
    # stock card by stock>tK) and RULES A1 Decision 2 (filling straight from the stock)
    st = position(R, base=TWO, f1="2C 3C", t1="9H", t2="5D", t4="JC", t5="4S",
                  waste="QH 8D", stock="3H KD")
    assert legal(R, st) == {"t1>t3", "t2>t3", "t4>t3", "t5>t3", "waste>t3", "stock>t3",
                            "waste>t1", "t5>t2", "deal"}
    refused(R, st, "f1>t3")  # a foundation card never fills a space
    after = play_all(R, st, "stock>t3")
    assert pile(R, after, "t3") == ["KD"]
    assert pile(R, after, "stock") == ["3H"]
    assert pile(R, after, "waste") == ["QH", "8D"]


def test_no_stock_to_space_once_the_stock_is_empty() -> None:
    # RULES A1 Spaces (stock>tK takes the next stock card: there must be one)
    st = position(R, base=TWO, f1="2C", t1="9H", t2="5D", t4="JC", t5="4S", waste="QH")
    assert legal(R, st) == {"t1>t3", "t2>t3", "t4>t3", "t5>t3", "waste>t3", "t5>t2"}
    refused(R, st, "stock>t3")
    refused(R, st, "deal")


def test_stock_to_a_pile_only_fills_a_space() -> None:
    # RULES §0 Move text (stock>tK turns the next stock card into an empty tableau pile)
    st = position(R, base=TWO, f1="2C", t1="9H", t2="5D", t3="6S", t4="JC", t5="4S",
                  stock="8S")
    assert "stock>t1" not in legal(R, st)
    refused(R, st, "stock>t1")  # 8S would even fit on 9H
    refused(R, st, "stock>f1")


def test_deal_only_while_the_stock_has_cards_and_no_redeal() -> None:
    # RULES A1 Stock (deal while the stock has cards; there is no redeal)
    st = position(R, base=SEVEN, f1="7C", t1="9H", t2="JD", t3="KS", t4="3C", t5="5D",
                  waste="6H 2C", stock="QC")
    assert "deal" in legal(R, st)
    after = play_all(R, st, "deal")
    assert pile(R, after, "stock") == [] and pile(R, after, "waste") == ["6H", "2C", "QC"]
    assert after.passes == 1
    assert "deal" not in legal(R, after)
    assert "no redeal" in refused(R, after, "deal")


def test_waste_top_goes_to_a_foundation_a_pile_or_a_space() -> None:
    # RULES A1 Stock (the waste top may go to a foundation, onto a pile or into a space);
    # RULES §0 (only the waste's top card is available)
    st = position(R, base=FIVE, f1="5C 6C", waste="9D 7C", t1="8H", t3="KS", t4="2D",
                  t5="JH")
    assert {m for m in legal(R, st) if m.startswith("waste")} == {"waste>f1", "waste>t1",
                                                                  "waste>t2"}
    st = position(R, base=FIVE, f1="5C 6C", waste="7C 9D", t1="8H", t3="KS", t4="2D",
                  t5="TH")
    assert {m for m in legal(R, st) if m.startswith("waste")} == {"waste>t5", "waste>t2"}


def test_pointless_moves_are_legal() -> None:
    # RULES §0 Legal moves (moving a pile's only card into a space is legal)
    st = position(R, base=FIVE, f1="5C", t1="QD", t2="2S", t4="9H", t5="6H")
    assert legal(R, st) == {"t1>t3", "t2>t3", "t4>t3", "t5>t3"}


def test_a_won_game() -> None:
    # RULES §0 End (won when every card is on a foundation; then no legal moves) and
    # RULES A1 Foundations (four foundations of 13, from the base rank round the corner)
    def run(suit: str, upto: int) -> str:
        ranks = "JQKA23456789T"[:upto]
        return " ".join(r + suit for r in ranks)

    st = position(R, base=J, f1=run("S", 12), f2=run("H", 13), f3=run("D", 13),
                  f4=run("C", 13), waste="TS")
    assert legal(R, st) == {"waste>f1", "waste>t1", "waste>t2", "waste>t3", "waste>t4",
                            "waste>t5"}
    g = game_at(GAME, st)
    g.play("waste>f1")
    assert g.is_won and not g.is_lost
    assert g.legal_moves() == []
    with pytest.raises(patience.IllegalMove, match="won"):
        g.play("deal")
    g.undo()
    assert not g.is_won and g.state == st


def test_a_lost_game() -> None:
    # RULES §0 End (lost when not won and no legal move is left)
    st = position(R, base=SEVEN, f1="7C", t1="9H", t2="JD", t3="KS", t4="3C", t5="5D",
                  waste="6H")
    assert legal(R, st) == set()
    g = game_at(GAME, st)
    assert g.is_lost and not g.is_won
