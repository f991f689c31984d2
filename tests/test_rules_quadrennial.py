"""Quadrennial (RULES A6): sixteen Ace foundations fed by eight reserve piles."""

from __future__ import annotations

from collections import Counter

import pytest

import patience
from helpers import game_at, layout, legal, pile, play_all, refused, rules_of
from patience.cards import card_text, rank_of
from patience.deals import shuffled
from patience.rules import State

GAME = "quadrennial"
R = rules_of(GAME)
FOUNDATIONS = [f"f{i}" for i in range(1, 17)]
RESERVES = [f"r{i}" for i in range(1, 9)]
RUN = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"]


def aces(**piles: str) -> dict[str, str]:
    """Sixteen foundations holding their starting Aces (f1 AC, f2 AD, …), then ``piles``."""
    out = {f: "A" + "CDHS"[i % 4] for i, f in enumerate(FOUNDATIONS)}
    out.update(piles)
    return out


def quad(passes: int = 1, **piles: str) -> State:
    """A Quadrennial position: the sixteen Aces (see :func:`aces`) and ``piles``."""
    return layout(R, aces(**piles), passes=passes)


def test_layout_piles() -> None:
    # RULES A6 (four decks; foundations f1–f16, reserve piles r1–r8, a stock and no waste)
    assert R.ids == ("stock", *FOUNDATIONS, *RESERVES)
    assert R.spec.decks == 4 and R.spec.passes == 3


@pytest.mark.parametrize("deal", [1, 2, 3, 1000])
def test_deal(deal: int) -> None:
    # RULES A6 Foundations (each starts with one of the sixteen Aces, taken out before the
    # shuffle), Reserve (one face-up card each) and Stock (the other 184 cards)
    g = patience.new_game(GAME, deal=deal)
    p = g.piles
    assert all(len(p[f]) == 1 and p[f][0][0] == "A" for f in FOUNDATIONS)
    assert Counter(p[f][0] for f in FOUNDATIONS) == Counter({"AC": 4, "AD": 4, "AH": 4,
                                                            "AS": 4})
    pack = [card_text(c) for c in shuffled([c for c in R.deck() if rank_of(c) != 1], deal)]
    assert len(pack) == 192
    assert [p[r] for r in RESERVES] == [[c] for c in pack[:8]]
    assert p["stock"] == pack[8:][::-1] and len(p["stock"]) == 184
    assert g.base_rank == 1 and g.passes == 1


def test_foundations_build_up_regardless_of_suit() -> None:
    # RULES A6 Foundations (on a top card of rank r goes any card of rank succ(r))
    st = quad(r1="9C 2H", r2="3D", r3="KS", stock="5C")
    assert legal(R, st) == {f"r1>{f}" for f in FOUNDATIONS} | {"deal"}
    after = play_all(R, st, "r1>f7", "r2>f7")
    assert pile(R, after, "f7") == ["AH", "2H", "3D"]
    refused(R, after, "r3>f7")


def test_a_foundation_is_complete_at_13_cards() -> None:
    # RULES A6 Foundations (complete at 13 cards, A to K; the extra Ace is made up for the
    # test, since every Ace starts on a foundation)
    st = quad(f1=" ".join(r + "C" for r in RUN[:12]), r1="KH", r2="AD")
    assert legal(R, st) == {"r1>f1", "deal"}  # deal: a redeal (stock empty, pass 1 of 3)
    after = play_all(R, st, "r1>f1")
    assert len(pile(R, after, "f1")) == 13
    assert "complete" in refused(R, after, "r2>f1")


def test_foundation_top_may_move_to_another_foundation() -> None:
    # RULES A6 Foundations (the top card of a foundation may be moved to another foundation
    # that accepts it) and RULES §0 (pointless moves are legal: a Two onto another Ace)
    st = quad(f1="AC 2D 3S", f2="AD 2C")
    assert legal(R, st) == {"f1>f2"} | {f"f2>{f}" for f in FOUNDATIONS[2:]}
    after = play_all(R, st, "f1>f2")
    assert pile(R, after, "f1") == ["AC", "2D"] and pile(R, after, "f2") == ["AD", "2C", "3S"]


def test_a_starting_ace_never_moves() -> None:
    # RULES A6 Foundations (a starting Ace never moves)
    st = quad(f1="AC 2D", f2=" ".join(r + "S" for r in RUN))
    assert not any(m.startswith(("f2>", "f3>")) for m in legal(R, st))
    assert "never moves" in refused(R, st, "f3>f1")
    g = game_at(GAME, st)
    g.play("f1>f3")
    assert "never moves" in refused(R, g.state, "f1>f4")


def test_reserve_top_goes_only_to_a_foundation() -> None:
    # RULES A6 Reserve (only the top card is available, and only to a foundation; nothing
    # is ever placed on a reserve pile by the player)
    st = quad(f1="AC 2S", r1="5C 2D", r2="3H", r3="4S", stock="7C")
    assert legal(R, st) == ({f"r1>{f}" for f in FOUNDATIONS[1:]} | {"r2>f1", "deal"}
                            | {f"f1>{f}" for f in FOUNDATIONS[1:]})
    refused(R, st, "r2>r1")  # 3H would go on 2D by a descending rule: not on a reserve
    refused(R, st, "r1>r3")
    refused(R, st, "f1>r2")
    refused(R, st, "r1>f1")  # 2D does not go on 2S
    refused(R, st, "waste>f1")  # no waste in this game


def test_deal_puts_one_card_on_each_non_empty_reserve_pile() -> None:
    # RULES A6 Stock (one card on each reserve pile that is not empty, in order r1…r8) and
    # RULES A6 Decision 1 (an empty reserve pile stays empty until the next redeal)
    st = quad(r1="5C", r3="7D", r5="9S", stock="2S 3S 4S 5S")
    after = play_all(R, st, "deal")
    assert [pile(R, after, r) for r in RESERVES] == [
        ["5C", "5S"], [], ["7D", "4S"], [], ["9S", "3S"], [], [], []]
    assert pile(R, after, "stock") == ["2S"]
    assert after.passes == 1


def test_deal_onto_all_empty_reserve_piles() -> None:
    # RULES A6 Decision 2 (when every reserve pile is empty and the stock has cards, deal
    # puts one card on each of r1…r8)
    stock = "2C 3C 4C 5C 6C 7C 8C 9C TC JC"
    st = quad(stock=stock)
    after = play_all(R, st, "deal")
    assert [pile(R, after, r) for r in RESERVES] == [[c] for c in stock.split()[::-1][:8]]
    assert pile(R, after, "stock") == ["2C", "3C"]


def test_partial_deal_at_the_end_of_the_stock() -> None:
    # RULES A6 Stock (if the stock runs out part-way, the later piles get nothing)
    st = layout(R, aces(**{r: "KD" for r in RESERVES}, stock="2H 3H 4H"))
    after = play_all(R, st, "deal")
    assert [pile(R, after, r) for r in RESERVES] == [
        ["KD", "4H"], ["KD", "3H"], ["KD", "2H"], ["KD"], ["KD"], ["KD"], ["KD"], ["KD"]]
    assert pile(R, after, "stock") == [] and after.passes == 1
    # with empty piles skipped: only the first non-empty piles get the last cards
    st = quad(r2="QC", r4="QD", r6="QH", r8="QS", stock="2H 3H")
    after = play_all(R, st, "deal")
    assert [pile(R, after, r) for r in RESERVES] == [
        [], ["QC", "3H"], [], ["QD", "2H"], [], ["QH"], [], ["QS"]]


def test_redeal_gathering_order_example() -> None:
    # RULES A6 Redeal and RULES A6 Decision 3, its example: r1 = [a1 a2 a3], r2 = [b1 b2],
    # others empty, stock empty, a redeal left: the new stock deals b1 b2 a1 a2 a3, and the
    # redeal's own row puts b1 on r1, b2 on r2, a1 on r3, a2 on r4, a3 on r5
    a1, a2, a3, b1, b2 = "5C", "6D", "7H", "9S", "TC"
    st = quad(r1=f"{a1} {a2} {a3}", r2=f"{b1} {b2}")
    assert legal(R, st) == {"deal"}
    after = play_all(R, st, "deal")
    assert [pile(R, after, r) for r in RESERVES] == [[b1], [b2], [a1], [a2], [a3], [], [], []]
    assert pile(R, after, "stock") == []
    assert after.passes == 2
    assert [pile(R, after, f) for f in FOUNDATIONS] == [pile(R, st, f) for f in FOUNDATIONS]


def test_redeal_gathers_r8_first_then_down_to_r1() -> None:
    # RULES A6 Redeal (the new stock deals the bottom card of r8 first, then the rest of r8
    # bottom to top, then r7 bottom to top, …, and last r1 bottom to top)
    st = quad(r1="2C 3C", r2="4C", r4="5C 6C 7C", r7="8C", r8="9C TC JC QC")
    order = ["9C", "TC", "JC", "QC", "8C", "5C", "6C", "7C", "4C", "2C", "3C"]
    after = play_all(R, st, "deal")
    assert [pile(R, after, r) for r in RESERVES] == [[c] for c in order[:8]]
    assert pile(R, after, "stock") == order[8:][::-1]  # listed bottom to top
    after = play_all(R, after, "deal")
    assert [pile(R, after, r) for r in RESERVES] == (
        [[a, b] for a, b in zip(order[:3], order[8:], strict=True)]
        + [[c] for c in order[3:8]])


def test_redeal_only_when_the_stock_is_empty() -> None:
    # RULES A6 Redeal (when the stock is empty) and Stock (deal while the stock has cards)
    st = quad(r1="5C", r2="6C", stock="9H")
    after = play_all(R, st, "deal")
    assert pile(R, after, "r1") == ["5C", "9H"] and after.passes == 1


def test_three_passes_in_all() -> None:
    # RULES A6 Redeal (three passes in all: the first deal and two redeals)
    st = quad(passes=2, r1="5C 6D", r2="7H")
    after = play_all(R, st, "deal")
    assert after.passes == 3
    st = quad(passes=3, r1="5C 6D", r2="7H")
    assert legal(R, st) == set()
    assert "passes" in refused(R, st, "deal")
    assert game_at(GAME, st).is_lost


def test_three_passes_of_a_real_deal() -> None:
    # RULES A6 Stock and Redeal: dealing only, a real deal gives 23 deals in the first pass
    # (184 cards, 8 a deal), then twice a redeal and 23 more deals; then no deal is left
    g = patience.new_game(GAME, deal=1)
    deals = 0
    while "deal" in {str(m) for m in g.legal_moves()}:
        g.play("deal")
        deals += 1
        assert sum(len(g.piles[r]) for r in RESERVES) + len(g.piles["stock"]) == 192
        if deals in (23, 47):
            assert g.piles["stock"] == [] and g.passes in (1, 2)
    assert deals == 23 + 24 + 24
    assert g.passes == 3 and g.piles["stock"] == []
    with pytest.raises(patience.IllegalMove):
        g.play("deal")


def test_a_won_game() -> None:
    # RULES §0 End; RULES A6 (all 208 cards on the sixteen foundations)
    full = {f: " ".join(r + "CDHS"[i % 4] for r in RUN) for i, f in enumerate(FOUNDATIONS)}
    full["f16"] = " ".join(r + "S" for r in RUN[:12])
    st = layout(R, aces(r1="KS", **full))
    # the complete foundations' Kings may go on f16's Queen too; deal would be a redeal
    assert legal(R, st) == {"r1>f16", "deal"} | {f"{f}>f16" for f in FOUNDATIONS[:15]}
    g = game_at(GAME, st)
    g.play("r1>f16")
    assert g.is_won and g.legal_moves() == [] and not g.is_lost
