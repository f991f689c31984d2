"""Simplicity (RULES A5): twelve piles built down in alternating colours."""

from __future__ import annotations

import pytest

import patience
from helpers import game_at, layout, legal, pile, play_all, position, refused, rules_of
from patience.cards import card_text, rank_of
from patience.deals import shuffled

GAME = "simplicity"
R = rules_of(GAME)
SEVEN, ACE, NINE = 7, 1, 9
TABLEAU = [f"t{i}" for i in range(1, 13)]


def test_layout_piles() -> None:
    # RULES A5 (twelve tableau piles t1–t12 in two rows of six; A1's corners, stock, waste)
    assert R.ids == ("stock", "waste", "f1", "f2", "f3", "f4", *TABLEAU)


@pytest.mark.parametrize("deal", [1, 2, 3, 4, 5, 1000])
def test_deal(deal: int) -> None:
    # RULES A5 (one card each, dealt t1..t12 in order; the thirteenth card goes to f1 and
    # fixes the base rank; the other 39 form the stock) and A1 Decision 3 (empty waste)
    pack = [card_text(c) for c in shuffled(R.deck(), deal)]
    g = patience.new_game(GAME, deal=deal)
    p = g.piles
    assert [p[t] for t in TABLEAU] == [[c] for c in pack[:12]]
    assert p["f1"] == [pack[12]]
    assert g.base_rank == rank_of(g.state.piles[R.index["f1"]][0])
    assert p["f2"] == p["f3"] == p["f4"] == p["waste"] == []
    assert p["stock"] == pack[13:][::-1] and len(p["stock"]) == 39


def test_tableau_builds_down_in_alternating_colours() -> None:
    # RULES A5 (red on black, black on red, one rank lower)
    st = position(R, base=ACE, f1="AS", t1="8S", t2="7H", t3="7C", t4="7D", t5="7S",
                  t6="8H", t7="KC", t8="KD", t9="3C", t10="3H", t11="9C", t12="9D")
    assert legal(R, st) == {"t2>t1", "t4>t1", "t3>t6", "t5>t6", "t6>t11", "t1>t12"}
    assert "colour" in refused(R, st, "t3>t1")  # black on black
    assert "colour" in refused(R, st, "t2>t6")  # red on red
    after = play_all(R, st, "t4>t1")
    assert pile(R, after, "t1") == ["8S", "7D"]


def test_base_rank_rule_and_king_on_ace() -> None:
    # RULES A5 ("with A1's rank rule": nothing on a base-rank card; a King on an Ace when
    # Aces are not the base), still in alternating colours
    st = position(R, base=SEVEN, f1="7C", t1="7D", t2="6S", t3="AH", t4="KS", t5="KD",
                  t6="5C", t7="5H", t8="JC", t9="JS", t10="3C", t11="3S", t12="9C")
    assert legal(R, st) == {"t4>t3", "t1>f2", "t1>f3", "t1>f4", "t7>t2"}
    assert "base rank" in refused(R, st, "t2>t1")
    refused(R, st, "t5>t3")  # red King on a red Ace
    st = position(R, base=ACE, f1="AC", t1="AD", t2="KS", t3="5C", t4="5H", t5="JC",
                  t6="JS", t7="3C", t8="3S", t9="9C", t10="9S", t11="QC", t12="QS")
    assert legal(R, st) == {"t1>f2", "t1>f3", "t1>f4"}
    refused(R, st, "t2>t1")


def test_spaces_and_stock_as_four_seasons() -> None:
    # RULES A5 ("as A1"): a space takes any available card, also the next stock card
    # (A1 Spaces, Decision 2); the waste top goes to foundations, piles or spaces
    st = position(R, base=ACE, f1="AS", t1="8S", t2="JH", t3="JC", t4="QH", t5="3D",
                  t6="3S", t7="5C", t8="5D", t9="9C", t10="9H", t11="KC", waste="2H 7H",
                  stock="4C")
    into_space = {m for m in legal(R, st) if m.endswith(">t12")}
    assert into_space == {f"{t}>t12" for t in TABLEAU[:11]} | {"waste>t12", "stock>t12"}
    assert {m for m in legal(R, st) if not m.endswith(">t12")} == {
        "waste>t1", "t1>t10", "t3>t4", "t4>t11", "deal"}


def test_foundations_as_four_seasons() -> None:
    # RULES A5 ("as A1"): foundations in suit from the base rank, any empty one takes a
    # base-rank card, cards never leave a foundation
    st = position(R, base=NINE, f1="9S TS", t1="JS", t2="9H", t3="JH", t4="2C", t5="2D",
                  t6="5C", t7="5D", t8="KS", t9="KH", t10="7C", t11="7D", t12="4C")
    assert legal(R, st) == {"t1>f1", "t2>f2", "t2>f3", "t2>f4", "t12>t7"}
    refused(R, st, "t3>f1")
    refused(R, st, "f1>t1")


def test_a_won_game() -> None:
    # RULES §0 End
    ranks = "9TJQKA2345678"
    piles = {f: " ".join(r + s for r in ranks)
             for f, s in zip(("f1", "f2", "f3"), "CDH", strict=True)}
    st = layout(R, {**piles, "f4": " ".join(r + "S" for r in ranks[:12]), "t7": "8S"},
                base=NINE)
    g = game_at(GAME, st)
    g.play("t7>f4")
    assert g.is_won and g.legal_moves() == [] and not g.is_lost
