"""Czarina (RULES A3): Four Seasons whose emptied piles are refilled at once from the stock."""

from __future__ import annotations

import pytest

import patience
from helpers import game_at, legal, pile, play_all, position, refused, rules_of
from patience.cards import card_text
from patience.deals import shuffled

GAME = "czarina"
R = rules_of(GAME)
FOUR, SEVEN, ACE = 4, 7, 1


def test_layout_and_deal_as_four_seasons() -> None:
    # RULES A3 ("as A1"): A1's layout and deal order, base rank from f1, 46 in the stock
    assert R.ids == rules_of("four-seasons").ids
    for deal in (1, 2, 3, 1000):
        pack = [card_text(c) for c in shuffled(R.deck(), deal)]
        g = patience.new_game(GAME, deal=deal)
        assert g.piles == patience.new_game("four-seasons", deal=deal).piles
        p = g.piles
        assert [p["t2"], p["t3"], p["t4"], p["t1"], p["t5"], p["f1"]] == [[c] for c in pack[:6]]
        assert len(p["stock"]) == 46 and p["waste"] == []


def test_emptied_pile_is_refilled_at_once_from_the_stock() -> None:
    # RULES A3 (an emptied tableau pile is at once refilled with the next stock card, as
    # part of the move that emptied it)
    st = position(R, base=FOUR, f1="4D", t1="5D", t2="9S", t3="KC", t4="2H", t5="JH",
                  stock="3S 8C")
    assert legal(R, st) == {"t1>f1", "deal"}
    after = play_all(R, st, "t1>f1")
    assert pile(R, after, "f1") == ["4D", "5D"]
    assert pile(R, after, "t1") == ["8C"]
    assert pile(R, after, "stock") == ["3S"]
    assert pile(R, after, "waste") == []


def test_refill_also_after_a_move_onto_another_pile() -> None:
    # RULES A3 (whatever move empties a pile, the refill is part of it)
    st = position(R, base=FOUR, f1="4D", t1="8H", t2="9S", t3="KC", t4="2H", t5="JH",
                  stock="3S QD")
    after = play_all(R, st, "t1>t2")
    assert pile(R, after, "t2") == ["9S", "8H"]
    assert pile(R, after, "t1") == ["QD"] and pile(R, after, "stock") == ["3S"]


def test_undo_takes_back_the_move_and_its_refill() -> None:
    # RULES A3 (the refill is part of the move) and RULES §0 (automatic moves forced by a rule
    # are not player moves): one undo restores both the moved card and the refill card
    st = position(R, base=FOUR, f1="4D", t1="5D", t2="9S", t3="KC", t4="2H", t5="JH",
                  stock="3S 8C")
    g = game_at(GAME, st)
    g.play("t1>f1")
    assert g.piles["t1"] == ["8C"] and g.moves[-1] == "t1>f1"
    g.undo()
    assert g.state == st
    assert g.piles["t1"] == ["5D"] and g.piles["stock"] == ["3S", "8C"]
    g.redo()
    assert g.piles["t1"] == ["8C"] and g.piles["stock"] == ["3S"]


def test_the_player_never_fills_a_space() -> None:
    # RULES A3 (the player never moves a card into an empty tableau pile; no stock>tK).
    # (An empty pile beside a non-empty stock is made up for the test.)
    st = position(R, base=SEVEN, f1="7C", t1="9H", t2="5D", t4="JC", t5="4S", waste="QH",
                  stock="3H KD")
    assert legal(R, st) == {"t5>t2", "deal"}
    for text in ("t1>t3", "t5>t3", "waste>t3", "stock>t3"):
        refused(R, st, text)
    assert "never" in refused(R, st, "t1>t3")


def test_an_emptied_pile_stays_empty_once_the_stock_is_empty() -> None:
    # RULES A3 (once the stock is empty, an emptied pile stays empty)
    st = position(R, base=FOUR, f1="4D", t1="5D", t2="9S", t3="KC", t4="2H", t5="JH",
                  waste="6D")
    after = play_all(R, st, "t1>f1")
    assert pile(R, after, "t1") == []
    assert legal(R, after) == {"waste>f1"}
    refused(R, after, "waste>t1")
    after = play_all(R, after, "waste>f1")
    assert pile(R, after, "t1") == [] and legal(R, after) == set()


def test_waste_moves_do_not_trigger_a_refill() -> None:
    # RULES A3 (only a tableau pile that becomes empty is refilled) and A1 Stock
    st = position(R, base=FOUR, f1="4D 5D", t1="9S", t2="KC", t3="2H", t4="JH", t5="8C",
                  waste="6D", stock="3S")
    after = play_all(R, st, "waste>f1")
    assert pile(R, after, "waste") == [] and pile(R, after, "stock") == ["3S"]


def test_a1_building_rules_stand() -> None:
    # RULES A3 ("as A1"): regardless of suit, a King on an Ace, nothing on a base-rank card
    st = position(R, base=SEVEN, f1="7C", t1="AD", t2="KC", t3="7H", t4="6S", t5="8D",
                  stock="2C")
    assert legal(R, st) == {"t2>t1", "t3>t5", "t3>f2", "t3>f3", "t3>f4", "deal"}
    refused(R, st, "t4>t3")
    st = position(R, base=ACE, f1="AS", t1="AD", t2="KC", t3="9H", t4="4C", t5="TD")
    assert legal(R, st) == {"t1>f2", "t1>f3", "t1>f4", "t3>t5"}


def test_deal_and_no_redeal() -> None:
    # RULES A3 ("as A1"): deal while the stock has cards, no redeal
    st = position(R, base=SEVEN, f1="7C", t1="9H", t2="JD", t3="KS", t4="3C", t5="5D",
                  waste="6H", stock="2S")
    after = play_all(R, st, "deal")
    assert pile(R, after, "waste") == ["6H", "2S"]
    assert "deal" not in legal(R, after)
    refused(R, after, "deal")


@pytest.mark.parametrize("deal", [1, 2, 3])
def test_every_emptying_move_refills_in_real_deals(deal: int) -> None:
    # RULES A3: along every line of play of depth 3 from real deals, a move that takes a
    # pile's only card refills that pile with the stock's next card, and no tableau pile is
    # ever empty while the stock has cards
    frontier = [patience.new_game(GAME, deal=deal).state]
    refills = 0
    for _ in range(3):
        nxt = []
        for s in frontier:
            for m in R.legal_moves(s):
                after = R.apply(s, m)
                nxt.append(after)
                if m.src[0] == "t" and len(s.piles[R.index[m.src]]) == 1:
                    stock = s.piles[R.stock]
                    assert after.piles[R.index[m.src]] == stock[-1:]
                    assert after.piles[R.stock] == stock[:-1]
                    refills += 1
                if after.piles[R.stock]:
                    assert all(after.piles[t] for t in R.tab)
        frontier = nxt
    assert refills > 0
