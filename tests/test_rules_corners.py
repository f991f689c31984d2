"""Corners (RULES A4): the cross is five cells that feed the foundations."""

from __future__ import annotations

import pytest

import patience
from helpers import game_at, legal, pile, play_all, position, refused, rules_of
from patience.cards import card_text, rank_of
from patience.deals import shuffled

GAME = "corners"
R = rules_of(GAME)
SIX, KING = 6, 13


def test_layout_piles() -> None:
    # RULES A4 (the cross is a reserve of five cells c1–c5; A1's corners, stock and waste)
    assert R.ids == ("stock", "waste", "f1", "f2", "f3", "f4", "c1", "c2", "c3", "c4", "c5")


@pytest.mark.parametrize("deal", [1, 2, 3, 4, 5, 1000])
def test_cells_are_dealt_like_the_cross(deal: int) -> None:
    # RULES A4 (cells dealt like the cross) and RULES A1 Deal (c2, c3, c4, then c1 and c5;
    # sixth card to f1 fixes the base rank; 46 in the stock; the waste starts empty)
    pack = [card_text(c) for c in shuffled(R.deck(), deal)]
    g = patience.new_game(GAME, deal=deal)
    p = g.piles
    assert [p["c2"], p["c3"], p["c4"], p["c1"], p["c5"]] == [[c] for c in pack[:5]]
    assert p["f1"] == [pack[5]]
    assert g.base_rank == rank_of(g.state.piles[R.index["f1"]][0])
    assert p["f2"] == p["f3"] == p["f4"] == p["waste"] == []
    assert p["stock"] == pack[6:][::-1] and len(p["stock"]) == 46


def test_cell_cards_go_only_to_foundations() -> None:
    # RULES A4 (a cell card may only go to a foundation; nothing is built on a cell) and
    # RULES A1 Foundations (in suit; any empty foundation takes a base-rank card)
    st = position(R, base=SIX, f1="6C 7C", c1="8C", c2="9H", c3="6D", c4="8D", c5="7S",
                  stock="2H")
    assert legal(R, st) == {"c1>f1", "c3>f2", "c3>f3", "c3>f4", "deal"}
    for text in ("c2>c1", "c5>c2", "c4>c2", "c1>c3", "c5>f1"):
        refused(R, st, text)
    assert "cell" in refused(R, st, "c5>c2")  # 7S would go on 8D by A1's tableau rule


def test_waste_top_goes_only_to_a_foundation() -> None:
    # RULES A4 (the waste top may only go to a foundation)
    st = position(R, base=SIX, f1="6C", c1="8C", c2="9H", c3="JD", c4="8D", c5="KS",
                  waste="7C")
    assert legal(R, st) == {"waste>f1"}
    for cell in ("c1", "c2", "c3", "c4", "c5"):
        refused(R, st, f"waste>{cell}")
    st = position(R, base=SIX, f1="6C", c1="8C", c2="9H", c3="JD", c4="8D", c5="KS",
                  waste="7D")
    assert legal(R, st) == set()
    assert game_at(GAME, st).is_lost


def test_emptied_cell_is_refilled_from_the_stock() -> None:
    # RULES A4 (an emptied cell is at once refilled with the next card of the stock)
    st = position(R, base=SIX, f1="6C", c1="8C", c2="9H", c3="7C", c4="8D", c5="KS",
                  waste="2D", stock="4S QH")
    after = play_all(R, st, "c3>f1")
    assert pile(R, after, "f1") == ["6C", "7C"]
    assert pile(R, after, "c3") == ["QH"] and pile(R, after, "stock") == ["4S"]
    assert pile(R, after, "waste") == ["2D"]
    assert legal(R, after) == {"c1>f1", "deal"}
    g = game_at(GAME, st)  # the refill is part of the move: one undo takes back both
    g.play("c3>f1")
    g.undo()
    assert g.state == st


def test_emptied_cell_stays_empty_once_the_stock_is_empty() -> None:
    # RULES A4 (once the stock is empty an emptied cell stays empty)
    st = position(R, base=SIX, f1="6C", c1="8C", c2="9H", c3="7C", c4="8D", c5="KS",
                  waste="2D")
    after = play_all(R, st, "c3>f1")
    assert pile(R, after, "c3") == []
    assert legal(R, after) == {"c1>f1"}
    refused(R, after, "waste>c3")
    refused(R, after, "c2>c3")
    refused(R, after, "stock>c3")


def test_no_stock_to_a_cell_and_no_redeal() -> None:
    # RULES A4 (cells are refilled only automatically; no redeal) and RULES §0 (stock>tK only
    # where a game allows it)
    st = position(R, base=KING, f1="KC", c1="8C", c2="9H", c3="JD", c4="8D", c5="5S",
                  waste="2D 3H", stock="4S")
    assert legal(R, st) == {"deal"}
    refused(R, st, "stock>c1")
    after = play_all(R, st, "deal")
    assert legal(R, after) == set()
    assert "no redeal" in refused(R, after, "deal")


def test_foundations_as_four_seasons() -> None:
    # RULES A4 Decisions (the rest of A1 stands: one base rank, foundations in suit round the
    # corner, cards never leave a foundation)
    st = position(R, base=KING, f1="KC", f2="KD AD", c1="AC", c2="2D", c3="KH", c4="QH",
                  c5="5S", stock="4S")
    assert legal(R, st) == {"c1>f1", "c2>f2", "c3>f3", "c3>f4", "deal"}
    refused(R, st, "c4>f3")  # a Queen does not found a corner: the base is King
    refused(R, st, "f2>c1")


def test_a_won_game() -> None:
    # RULES §0 End; RULES A4 (all 52 cards on the four foundations)
    ranks = "6789TJQKA2345"
    st = position(R, base=SIX, f1=" ".join(r + "C" for r in ranks),
                  f2=" ".join(r + "D" for r in ranks), f3=" ".join(r + "H" for r in ranks),
                  f4=" ".join(r + "S" for r in ranks[:12]), c4="5S")
    g = game_at(GAME, st)
    assert g.legal_moves() == [patience.Move.parse("c4>f4")]
    g.play("c4>f4")
    assert g.is_won and g.legal_moves() == [] and not g.is_lost
