"""The four newest Busy Aces relatives (RULES B3): Jacks in the Box, Eights Down, Penta and
Sixes and Sevens; hand-built positions, then random playouts that check the invariants."""

from __future__ import annotations

import itertools
import random

import pytest

import patience
from helpers import (
    full_multiset,
    game_at,
    layout,
    legal,
    pile,
    play_all,
    refused,
    rules_of,
    state_multiset,
    won_state,
)
from patience.cards import card_text, rank_of, suit_of
from patience.deals import shuffled
from patience.rules import DEAL, Move, Rules, State

SUITS = "CDHS"
ROUND = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"]


def run_from(start: str, suit: str, count: int, down: bool = False) -> str:
    """``count`` cards of ``suit`` from rank ``start``, up (or down) round the corner:
    ``run_from("J", "C", 3)`` → ``"JC QC KC"``."""
    i = ROUND.index(start)
    step = -1 if down else 1
    return " ".join(ROUND[(i + step * k) % 13] + suit for k in range(count))


def based(rules: Rules, starters: dict[str, str], **piles: str) -> State:
    """The foundations holding their starting cards (``starters``), then ``piles``."""
    out = dict(starters)
    out.update(piles)
    return layout(rules, out)


def moves_to(moves: set[str], prefix: str) -> set[str]:
    """The moves whose target starts with ``prefix`` (``"c"``: into a cell)."""
    return {m for m in moves if m != "deal" and m.split(">")[1].startswith(prefix)}


def moves_from(moves: set[str], src: str) -> set[str]:
    return {m for m in moves if m.startswith(src + ">")}


# =================================================================== Jacks in the Box
JB = "jacks-in-the-box"
RJ = rules_of(JB)
J_FOUND = {f"f{i + 1}": "J" + SUITS[i % 4] for i in range(8)}


def jacks(**piles: str) -> State:
    """f1 JC, f2 JD, f3 JH, f4 JS, f5 JC, …, then ``piles``."""
    return based(RJ, J_FOUND, **piles)


def test_jacks_layout_piles() -> None:
    # RULES B3 (Jacks in the Box: two decks, eight foundations, six tableau piles, 4 cells
    # c1–c4, stock to waste, one pass)
    assert RJ.ids == ("stock", "waste", *(f"f{i}" for i in range(1, 9)),
                      *(f"t{i}" for i in range(1, 7)), "c1", "c2", "c3", "c4")
    assert RJ.spec.decks == 2 and RJ.spec.passes == 1


@pytest.mark.parametrize("deal", [1, 2, 1000])
def test_jacks_deal(deal: int) -> None:
    # RULES B3 (Jacks in the Box: base J, bases dealt at start, 6 tableau piles of one card;
    # 104 - 8 - 6 = 90 stock cards) and RULES B3 Decision (the four cells start empty)
    g = patience.new_game(JB, deal=deal)
    p = g.piles
    assert [p[f] for f in J_FOUND] == [[j] for j in J_FOUND.values()]
    pack = [card_text(c) for c in shuffled([c for c in RJ.deck() if rank_of(c) != 11], deal)]
    assert [p[f"t{i}"] for i in range(1, 7)] == [[c] for c in pack[:6]]
    assert p["stock"] == pack[6:][::-1] and len(p["stock"]) == 90
    assert p["waste"] == [] and all(p[f"c{i}"] == [] for i in range(1, 5))
    assert g.base_rank == 11
    assert state_multiset(g.state) == full_multiset(RJ)  # two full decks


def test_jacks_a_free_cell_takes_any_single_card() -> None:
    # RULES B3 Decision (Jacks in the Box: an empty cell takes the top card of the waste, of
    # a tableau pile or of a foundation, or another cell's card)
    st = jacks(f1="JC QC", t1="9H", t2="5D", t3="2S", t4="8C", t5="4H", t6="6S", waste="3S",
               c1="7D")
    into_cells = {f"{s}>{c}" for s in ("waste", "t1", "t2", "t3", "t4", "t5", "t6", "f1", "c1")
                  for c in ("c2", "c3", "c4")}
    moves = legal(RJ, st)
    assert moves_to(moves, "c") == into_cells
    # the only other move: QC onto the other JC foundation (RULES §0: pointless but legal)
    assert moves - into_cells == {"f1>f5"}
    after = play_all(RJ, st, "f1>c4")
    assert pile(RJ, after, "c4") == ["QC"] and pile(RJ, after, "f1") == ["JC"]
    after = play_all(RJ, after, "c1>c2")
    assert pile(RJ, after, "c2") == ["7D"] and pile(RJ, after, "c1") == []


def test_jacks_a_full_cell_refuses() -> None:
    # RULES B3 (Jacks in the Box: 4 cells c1–c4) and RULES §0 (a cell holds at most one card)
    st = jacks(t1="9H", t2="5D", waste="3S", c1="7D", c2="KS")
    assert "already holds a card" in refused(RJ, st, "waste>c1")
    assert "already holds a card" in refused(RJ, st, "t1>c2")
    assert "already holds a card" in refused(RJ, st, "c1>c2")
    st = jacks(t1="9H 8H", t2="5D", c1="")
    assert "single card" in refused(RJ, st, "t1>c1x2")


def test_jacks_a_cell_card_goes_to_a_foundation_a_pile_or_a_space() -> None:
    # RULES B3 Decision (Jacks in the Box: a cell's card may go to a foundation, onto a
    # tableau pile that takes it, into a space or into another empty cell)
    st = jacks(t1="9H", t2="5D", t3="2S", t4="8C", t5="4H", c1="QD", c2="8H", c3="3C")
    moves = legal(RJ, st)
    assert moves_from(moves, "c1") == {"c1>f2", "c1>f6", "c1>t6", "c1>c4"}
    assert moves_from(moves, "c2") == {"c2>t1", "c2>t6", "c2>c4"}
    assert moves_from(moves, "c3") == {"c3>t6", "c3>c4"}
    assert "suits must match" in refused(RJ, st, "c3>t5")  # 3C on 4H: wrong suit
    after = play_all(RJ, st, "c2>t1")
    assert pile(RJ, after, "t1") == ["9H", "8H"] and pile(RJ, after, "c2") == []
    after = play_all(RJ, after, "c1>f2")
    assert pile(RJ, after, "f2") == ["JD", "QD"]


def test_jacks_single_cards_only() -> None:
    # RULES B3 (Jacks in the Box: runs move "no")
    st = jacks(t1="9H 8H", t2="TH", t3="2S", t4="8C", t5="4H", t6="6S")
    assert "t1>t2" not in legal(RJ, st) and "t1>t2x2" not in legal(RJ, st)
    assert "only one card" in refused(RJ, st, "t1>t2x2")


def test_jacks_nothing_on_a_jack_a_king_on_an_ace() -> None:
    # RULES B3 (common: nothing is placed on a base-rank card; where a game wraps, a King may
    # go on an Ace; Jacks in the Box builds down in suit, wrap)
    st = jacks(t1="JS", t2="TS", t3="AH", t4="KH", t5="KC", t6="3D")
    into_cells = {f"t{t}>c{c}" for t in range(1, 7) for c in range(1, 5)}
    assert legal(RJ, st) == {"t4>t3"} | into_cells
    assert "base rank" in refused(RJ, st, "t2>t1")
    assert "suits must match" in refused(RJ, st, "t5>t3")  # KC on AH
    after = play_all(RJ, st, "t4>t3")
    assert pile(RJ, after, "t3") == ["AH", "KH"]


def test_jacks_foundations_up_in_suit_round_the_corner() -> None:
    # RULES B3 (common: foundations build in suit from the base rank, round the corner to 13
    # cards): J Q K A 2 … T
    st = jacks(f3=run_from("J", "H", 3), f4=run_from("J", "S", 12), t1="AH", t2="TS", t3="AD",
               t4="9S", t5="3C", t6="7C")
    moves = legal(RJ, st)
    assert moves_to(moves, "f") == {"t1>f3", "t2>f4"}
    assert "f3 needs an Ace of the same suit" in refused(RJ, st, "t3>f3")
    after = play_all(RJ, st, "t2>f4")
    assert len(pile(RJ, after, "f4")) == 13
    # J … T is complete (the JS on t1 is made up: in suit, one above the TS on top)
    assert refused(RJ, jacks(f4=run_from("J", "S", 13), t1="JS"), "t1>f4") == "f4 is complete"


def test_jacks_play_back() -> None:
    # RULES B3 (common: foundation play-back allowed) and RULES B3 Decision (Jacks in the
    # Box: the top card of a foundation, never its Jack, goes to a pile that takes it)
    st = jacks(f1="JC QC KC", c1="2S", c2="3S", c3="4S", c4="5S", t1="AC", t2="9D", t3="8H",
               t4="5D", t5="4H", t6="6S")
    assert moves_from(legal(RJ, st), "f1") == {"f1>t1"}
    after = play_all(RJ, st, "f1>t1")
    assert pile(RJ, after, "t1") == ["AC", "KC"] and pile(RJ, after, "f1") == ["JC", "QC"]
    assert refused(RJ, st, "f2>t2") == "f2's starting Jack never moves"


# ======================================================================= Eights Down
ED = "eights-down"
RE = rules_of(ED)
E_FOUND = {f"f{i + 1}": "8" + SUITS[i % 4] for i in range(8)}


def eights(**piles: str) -> State:
    """f1 8C, f2 8D, f3 8H, f4 8S, f5 8C, …, then ``piles``."""
    return based(RE, E_FOUND, **piles)


@pytest.mark.parametrize("deal", [1, 2, 1000])
def test_eights_deal(deal: int) -> None:
    # RULES B3 (Eights Down: base 8, bases dealt at start, 6 tableau piles, 2 passes)
    assert RE.ids == ("stock", "waste", *(f"f{i}" for i in range(1, 9)),
                      *(f"t{i}" for i in range(1, 7)))
    g = patience.new_game(ED, deal=deal)
    p = g.piles
    assert [p[f] for f in E_FOUND] == [[e] for e in E_FOUND.values()]
    pack = [card_text(c) for c in shuffled([c for c in RE.deck() if rank_of(c) != 8], deal)]
    assert [p[f"t{i}"] for i in range(1, 7)] == [[c] for c in pack[:6]]
    assert p["stock"] == pack[6:][::-1] and len(p["stock"]) == 90 and p["waste"] == []
    assert g.base_rank == 8 and g.passes == 1 and RE.spec.passes == 2
    assert state_multiset(g.state) == full_multiset(RE)


def test_eights_foundations_build_down_in_suit() -> None:
    # RULES B3 (Eights Down: foundations build down in suit 8…A, K…9)
    st = eights(t1="7C", t2="7D", t3="9H", t4="6S", t5="QC", t6="7S")
    assert moves_to(legal(RE, st), "f") == {"t1>f1", "t1>f5", "t2>f2", "t2>f6", "t6>f4",
                                            "t6>f8"}
    assert "f3 needs a Seven of the same suit" in refused(RE, st, "t3>f3")
    assert "f1 needs a Seven of the same suit" in refused(RE, st, "t2>f1")
    after = play_all(RE, st, "t1>f1")
    assert pile(RE, after, "f1") == ["8C", "7C"]


def test_eights_foundations_round_the_corner_and_complete() -> None:
    # RULES B3 (Eights Down: 8…A, K…9 — round the corner, complete at 13 cards)
    st = eights(f1=run_from("8", "C", 8, down=True), t1="KC", t2="KD", t3="9H", t4="2S",
                t5="QC", t6="3S")
    assert pile(RE, st, "f1")[-1] == "AC"
    assert moves_to(legal(RE, st), "f") == {"t1>f1"}
    after = play_all(RE, st, "t1>f1", "t5>f1")
    assert pile(RE, after, "f1")[-3:] == ["AC", "KC", "QC"]
    # complete: 8C 7C … AC KC … 9C; the 8C on t1 is made up (in suit, one lower than 9C)
    st = eights(f1=run_from("8", "C", 13, down=True), t1="8C", t2="KD")
    assert pile(RE, st, "f1")[-1] == "9C"
    assert refused(RE, st, "t1>f1") == "f1 is complete"


def test_eights_tableau_builds_up_in_suit_nothing_on_an_eight() -> None:
    # RULES B3 (Eights Down: tableau builds up in suit, wrap; common: nothing is placed on a
    # base-rank card; where a game wraps … here, building up, an Ace goes on a King)
    st = eights(t1="8H", t2="9H", t3="5H", t4="6H", t5="KH", t6="AH")
    assert legal(RE, st) == {"t4>t3", "t6>t5"}
    assert "base rank" in refused(RE, st, "t2>t1")
    assert "only a Six" in refused(RE, st, "t6>t3")
    st2 = eights(t1="8H", t2="9H", t3="5H", t4="6C", t5="KH", t6="AD")
    assert "suits must match" in refused(RE, st2, "t4>t3")
    assert "suits must match" in refused(RE, st2, "t6>t5")
    after = play_all(RE, st, "t4>t3", "t6>t5")
    assert pile(RE, after, "t3") == ["5H", "6H"] and pile(RE, after, "t5") == ["KH", "AH"]


def test_eights_runs_in_suit_move_together() -> None:
    # RULES B3 (Eights Down: runs move in suit; common: any card or run fills a space)
    st = eights(t1="5H 6H 7H", t2="4H", t3="9C TD", t4="JC", t5="QS")
    moves = legal(RE, st)
    assert moves_from(moves, "t1") == {"t1>t2x3", "t1>f3", "t1>f7", "t1>t6", "t1>t6x2",
                                       "t1>t6x3"}
    assert moves_from(moves, "t3") == {"t3>t6"}  # TD does not lie on 9C in suit
    assert "not a sequence" in refused(RE, st, "t3>t6x2")
    assert "t1>t2x2" not in moves  # 6H does not go on 4H
    after = play_all(RE, st, "t1>t2x3")
    assert pile(RE, after, "t2") == ["4H", "5H", "6H", "7H"] and pile(RE, after, "t1") == []
    after = play_all(RE, after, "t2>t1x4")  # the whole pile into the space
    assert pile(RE, after, "t1") == ["4H", "5H", "6H", "7H"] and pile(RE, after, "t2") == []


def test_eights_play_back() -> None:
    # RULES B3 (common: foundation play-back allowed) and RULES B3 Decision (Eights Down:
    # never the starting Eight)
    st = eights(f1="8C 7C", f2="8D 7D 6D", t1="6C", t2="9H", t3="3S", t4="JC", t5="QS",
                t6="TD")
    moves = legal(RE, st)
    # 7C onto 6C (up in suit), or onto the other 8C foundation (RULES §0: pointless but
    # legal); 6D fits nowhere (no 5D on the tableau, f6 needs a Seven)
    assert moves_from(moves, "f1") == {"f1>t1", "f1>f5"}
    assert moves_from(moves, "f2") == set()
    after = play_all(RE, st, "f1>t1")
    assert pile(RE, after, "t1") == ["6C", "7C"] and pile(RE, after, "f1") == ["8C"]
    assert "starting Eight never moves" in refused(RE, after, "f1>t2")


def test_eights_the_waste_is_turned_over_once_unshuffled() -> None:
    # RULES B3 (Eights Down: 2 passes, waste turned over) and RULES B3 Decision (unshuffled,
    # once, so the second pass deals the cards in the order they were first turned)
    tab = {"t1": "2S", "t2": "4D", "t3": "6C", "t4": "TH", "t5": "QS", "t6": "JD"}  # inert
    st = eights(stock="KD 3C 9H", **tab)
    st = play_all(RE, st, "deal", "deal", "deal")
    assert pile(RE, st, "waste") == ["9H", "3C", "KD"] and pile(RE, st, "stock") == []
    assert legal(RE, st) == {"deal"}
    st = play_all(RE, st, "deal")  # the redeal
    assert pile(RE, st, "stock") == ["KD", "3C", "9H"] and pile(RE, st, "waste") == []
    assert st.passes == 2
    st = play_all(RE, st, "deal")
    assert pile(RE, st, "waste") == ["9H"]  # the first card turned comes first again
    st = play_all(RE, st, "deal", "deal")
    assert pile(RE, st, "waste") == ["9H", "3C", "KD"] and pile(RE, st, "stock") == []
    assert legal(RE, st) == set()
    assert refused(RE, st, "deal") == "the stock is empty and all 2 passes have been made"


def test_eights_deal_refused_with_an_empty_waste_says_why() -> None:
    # RULES B3 (Eights Down: 2 passes, the waste turned over) and RULES B3 Decision (the
    # redeal turns the waste over, once): when the first pass ends with every waste card
    # played, there is nothing to turn over; the reason must not deny that a redeal exists
    st = eights(t1="2S", t2="4D", t3="6C", t4="TH", t5="QS", t6="JD")
    assert st.passes == 1 and legal(RE, st) == set()
    why = refused(RE, st, "deal")
    assert why == ("the stock is empty and the waste is empty too, so there is nothing to "
                   "turn over")


# ============================================================================= Penta
PE = "penta"
RP = rules_of(PE)


def penta(**piles: str) -> State:
    return layout(RP, piles)


@pytest.mark.parametrize("deal", [1, 2, 1000])
def test_penta_deal(deal: int) -> None:
    # RULES B3 (Penta: eight foundations, none dealt; six tableau piles of one card; stock
    # to waste, one pass)
    g = patience.new_game(PE, deal=deal)
    p = g.piles
    assert all(p[f"f{i}"] == [] for i in range(1, 9))
    pack = [card_text(c) for c in shuffled(RP.deck(), deal)]
    assert [p[f"t{i}"] for i in range(1, 7)] == [[c] for c in pack[:6]]
    assert p["stock"] == pack[6:][::-1] and len(p["stock"]) == 98 and p["waste"] == []
    assert g.base_rank == 5 and RP.spec.passes == 1
    assert state_multiset(g.state) == full_multiset(RP)


def test_penta_an_empty_foundation_takes_any_five() -> None:
    # RULES B3 (Penta: f1–f4 start with any Five …; f5–f8 start with any Five)
    st = penta(t1="5H", t2="5S", t3="6C", t4="9D", t5="2C", t6="JD")
    fs = {f"f{i}" for i in range(1, 9)}
    assert moves_to(legal(RP, st), "f") == {f"{t}>{f}" for t in ("t1", "t2") for f in fs}
    assert "takes only a card of the base rank (Five), not 6C" in refused(RP, st, "t3>f1")
    assert "building down takes only a card of the base rank (Five)" in refused(RP, st,
                                                                               "t3>f5")
    after = play_all(RP, st, "t1>f1", "t2>f5")
    assert pile(RP, after, "f1") == ["5H"] and pile(RP, after, "f5") == ["5S"]


def test_penta_foundations_up_and_down_regardless_of_suit() -> None:
    # RULES B3 (Penta: f1–f4 build up regardless of suit; f5–f8 build down regardless of
    # suit)
    st = penta(f1="5H", f2="5C", f5="5S", f6="5D", f3="5H 6S", t1="6C", t2="4D", t3="7S",
               t4="3C", t5="9D", t6="JD")
    moves = moves_to(legal(RP, st), "f")
    # 6S may also be played back from f3 onto the other up foundations (RULES B3 Decision)
    assert moves == {"t1>f1", "t1>f2", "t2>f5", "t2>f6", "t3>f3", "f3>f1", "f3>f2"}
    assert "f1 needs a Six" in refused(RP, st, "t2>f1")
    assert "f5 needs a Four" in refused(RP, st, "t1>f5")
    after = play_all(RP, st, "t1>f1", "t2>f5")
    assert pile(RP, after, "f1") == ["5H", "6C"] and pile(RP, after, "f5") == ["5S", "4D"]


def test_penta_foundations_round_the_corner() -> None:
    # RULES B3 (Penta: 5…K, A…4 up; 5…A, K…6 down; complete at 13 cards)
    st = penta(f1="5H 6C 7D 8S 9H TC JD QS KH", f5="5S 4D 3C 2H AS", t1="AC", t2="KD",
               t3="7S", t4="3C", t5="9D", t6="JD")
    # and KH may be played back from f1 onto f5, which needs a King (RULES B3 Decision)
    assert moves_to(legal(RP, st), "f") == {"t1>f1", "t2>f5", "f1>f5"}
    after = play_all(RP, st, "t1>f1", "t2>f5")
    assert pile(RP, after, "f1")[-2:] == ["KH", "AC"] and pile(RP, after, "f5")[-2:] == [
        "AS", "KD"]
    full_up = "5H 6C 7D 8S 9H TC JD QS KH AC 2D 3S 4H"
    assert "complete" in refused(RP, penta(f1=full_up, t1="5C"), "t1>f1")
    full_down = "5S 4D 3C 2H AS KD QC JH TS 9D 8C 7H 6S"
    assert "complete" in refused(RP, penta(f5=full_down, t1="5C"), "t1>f5")


def test_penta_play_back_only_from_the_up_foundations() -> None:
    # RULES B3 (Penta: cards may be taken back from f1–f4) and RULES B3 Decision (only from
    # f1–f4, never a starting Five; also onto a foundation that builds down)
    st = penta(f1="5H 6C 7D", f5="5S 4S 3S 2S AS KS QS JS TS 9S 8S", f6="5D 4C", f7="5C",
               t1="9C", t2="2D", t3="AH", t4="5D", t5="QH", t6="JH")
    moves = legal(RP, st)
    # 7D: no tableau top takes it (t1–t3 want an Eight on top, t4–t6 a Six); f5 needs a Seven
    assert moves_from(moves, "f1") == {"f1>f5"}
    assert moves_from(moves, "f5") == moves_from(moves, "f6") == set()
    assert "only from the foundations that build up" in refused(RP, st, "f6>t3")
    assert "only from the foundations that build up" in refused(RP, st, "f5>t1")  # 8S would fit 9C
    assert "starting Five never moves" in refused(RP, st, "f7>f2")  # f2 takes any Five
    after = play_all(RP, st, "f1>f5")
    assert pile(RP, after, "f5")[-2:] == ["8S", "7D"] and pile(RP, after, "f1") == ["5H", "6C"]
    # 6C: onto the Five of t4 (builds up), or onto f5, which now needs a Six
    assert moves_from(legal(RP, after), "f1") == {"f1>t4", "f1>f5"}
    after = play_all(RP, after, "f1>t4")
    assert pile(RP, after, "t4") == ["5D", "6C"] and pile(RP, after, "f1") == ["5H"]
    assert "starting Five never moves" in refused(RP, after, "f1>f2")


def test_penta_tableau_down_and_up_regardless_of_suit_round_the_corner() -> None:
    # RULES B3 (Penta: t1–t3 build down, t4–t6 build up, regardless of suit, both fully round
    # the corner) and RULES B3 Decision (Penta: a card may be placed on a Five)
    st = penta(t1="5H", t2="AD", t3="8C", t4="5C", t5="KS", t6="QD", waste="4S")
    to_f = {f"{t}>f{i}" for t in ("t1", "t4") for i in range(1, 9)}  # the Fives found
    assert legal(RP, st) == to_f | {
        "waste>t1",  # 4S on 5H (t1 builds down): on a Five
        "t2>t5",  # AD on KS (t5 builds up, round the corner)
        "t5>t2",  # KS on AD (t2 builds down, round the corner)
        "t5>t6",  # KS on QD (t6 builds up)
    }
    assert "only a Six does (t4 builds up)" in refused(RP, st, "waste>t4")
    assert "only a King does" in refused(RP, st, "t3>t2")  # t2 builds down from AD
    st = penta(t1="5H", t2="AD", t3="8C", t4="5C", t5="KS", t6="QD", waste="6S")
    assert "waste>t4" in legal(RP, st)  # a Six on a Five of t4–t6
    assert "only a Four" in refused(RP, st, "waste>t1")
    after = play_all(RP, st, "waste>t4")
    assert pile(RP, after, "t4") == ["5C", "6S"]
    after = play_all(RP, penta(t1="5H", t2="AD", t5="KS", t6="QD"), "t5>t2", "t6>t5")
    assert pile(RP, after, "t2") == ["AD", "KS"] and pile(RP, after, "t5") == ["QD"]


def test_penta_single_cards_only_any_card_fills_a_space() -> None:
    # RULES B3 (Penta: single cards; any card fills a space)
    st = penta(t1="7C 6D", t2="8H", t3="JS", t4="QH", t5="2C", waste="TD")
    moves = legal(RP, st)
    assert "t1>t2x2" not in moves
    assert "only one card" in refused(RP, st, "t1>t2x2")
    assert moves_to(moves, "t6") == {"t1>t6", "t2>t6", "t3>t6", "t4>t6", "t5>t6", "waste>t6"}
    after = play_all(RP, st, "waste>t6")
    assert pile(RP, after, "t6") == ["TD"]
    # t6 then builds up: JS on TD (and TD back onto JS of t3, which builds down)
    assert moves_to(legal(RP, after), "t6") == {"t3>t6"}
    assert "t6>t3" in legal(RP, after)


# ================================================================== Sixes and Sevens
SS = "sixes-and-sevens"
RS = rules_of(SS)
S_FOUND = {f"f{i + 1}": ("7" if i < 8 else "6") + SUITS[i % 4] for i in range(16)}


def sixes(**piles: str) -> State:
    """f1–f8 the Sevens 7C 7D 7H 7S 7C …, f9–f16 the Sixes 6C 6D …, then ``piles``."""
    return based(RS, S_FOUND, **piles)


@pytest.mark.parametrize("deal", [1, 2, 1000])
def test_sixes_deal(deal: int) -> None:
    # RULES B3 (Sixes and Sevens: sixteen foundations, all dealt at start, eight Sevens and
    # eight Sixes; nine cells one card each; 104 - 16 - 9 = 79 stock cards) and RULES B3
    # Decision (f1–f8 are the Sevens, f9–f16 the Sixes)
    assert RS.ids == ("stock", "waste", *(f"f{i}" for i in range(1, 17)),
                      *(f"c{i}" for i in range(1, 10)))
    g = patience.new_game(SS, deal=deal)
    p = g.piles
    assert [p[f] for f in S_FOUND] == [[c] for c in S_FOUND.values()]
    pack = [card_text(c) for c in shuffled([c for c in RS.deck() if rank_of(c) not in (6, 7)],
                                           deal)]
    assert [p[f"c{i}"] for i in range(1, 10)] == [[c] for c in pack[:9]]
    assert p["stock"] == pack[9:][::-1] and len(p["stock"]) == 79 and p["waste"] == []
    assert state_multiset(g.state) == full_multiset(RS)


def test_sixes_sevens_build_up_in_suit_to_the_king() -> None:
    # RULES B3 (Sixes and Sevens: eight Sevens building up in suit to King) and RULES B3
    # Decision (the foundations end at the King and the Ace)
    st = sixes(f1=run_from("7", "C", 6), c1="KC", c2="AC", c3="8D", c4="8C", c5="KD",
               c6="2H", c7="3H", c8="4H", c9="9S")
    assert legal(RS, st) == {"c1>f1", "c3>f2", "c3>f6", "c4>f5"}
    assert "f1 needs a King of the same suit" in refused(RS, st, "c5>f1")
    after = play_all(RS, st, "c1>f1")
    assert pile(RS, after, "f1") == ["7C", "8C", "9C", "TC", "JC", "QC", "KC"]
    assert "f1 is complete" in refused(RS, after, "c2>f1")


def test_sixes_sixes_build_down_in_suit_to_the_ace() -> None:
    # RULES B3 (Sixes and Sevens: eight Sixes building down in suit to Ace) and RULES B3
    # Decision (the foundations end at the King and the Ace)
    st = sixes(f9=run_from("6", "C", 5, down=True), c1="AC", c2="KC", c3="5D", c4="5C",
               c5="2H", c6="3H", c7="4H", c8="9S", c9="TS")
    assert legal(RS, st) == {"c1>f9", "c3>f10", "c3>f14", "c4>f13"}
    assert "f9 needs an Ace of the same suit" in refused(RS, st, "c3>f9")
    after = play_all(RS, st, "c1>f9")
    assert pile(RS, after, "f9") == ["6C", "5C", "4C", "3C", "2C", "AC"]
    assert "f9 is complete" in refused(RS, after, "c2>f9")


def test_sixes_cells() -> None:
    # RULES B3 (Sixes and Sevens: a cell takes any single card; no building) and RULES B3
    # Decision (a cell takes the waste top or another cell's card; its card goes to a
    # foundation or into another empty cell)
    full = {f"c{i}": c for i, c in enumerate(
        ["KS", "QS", "JS", "TS", "9S", "AH", "4H", "3H", "2H"], 1)}
    st = sixes(waste="AS", **full)
    assert legal(RS, st) == set()  # nothing fits, every cell is full, the stock is empty
    assert "already holds a card" in refused(RS, st, "waste>c1")
    st = sixes(waste="AS", stock="2D", **{**full, "c9": "", "c5": ""})
    assert legal(RS, st) == {"waste>c5", "waste>c9", "deal",
                             *(f"c{i}>c{j}" for i in (1, 2, 3, 4, 6, 7, 8) for j in (5, 9))}
    after = play_all(RS, st, "waste>c9")
    assert pile(RS, after, "c9") == ["AS"] and pile(RS, after, "waste") == []
    after = play_all(RS, after, "c1>c5")
    assert pile(RS, after, "c5") == ["KS"] and pile(RS, after, "c1") == []
    assert "already holds a card" in refused(RS, after, "c2>c9")


def test_sixes_a_cell_card_and_the_waste_go_to_the_foundations() -> None:
    # RULES B3 (Sixes and Sevens: stock to waste) and RULES B3 Decision (a cell's card goes
    # to a foundation)
    st = sixes(c1="8H", c2="5S", waste="8S", stock="QD")
    moves = legal(RS, st)
    assert moves_to(moves, "f") == {"c1>f3", "c1>f7", "c2>f12", "c2>f16", "waste>f4",
                                    "waste>f8"}
    after = play_all(RS, st, "c1>f3", "c2>f16")
    assert pile(RS, after, "f3") == ["7H", "8H"] and pile(RS, after, "f16") == ["6S", "5S"]
    assert pile(RS, after, "c1") == pile(RS, after, "c2") == []


def test_sixes_no_play_back() -> None:
    # RULES B3 Decision (Sixes and Sevens: no foundation play-back; cards never leave a
    # foundation)
    st = sixes(f1="7C 8C", f9="6C 5C", c1="", waste="3D")
    moves = legal(RS, st)
    assert not any(m.startswith("f") for m in moves)
    assert "never leave a foundation" in refused(RS, st, "f1>c1")
    assert "never leave a foundation" in refused(RS, st, "f9>c1")
    assert "never leave a foundation" in refused(RS, st, "f1>f5")


def test_sixes_a_won_game() -> None:
    # RULES §0 End (a won game has no legal moves); RULES B3 (Sixes and Sevens: 7 cards on
    # each Seven, 6 on each Six = 104)
    st = won_state(RS)
    assert pile(RS, st, "f1") == ["7C", "8C", "9C", "TC", "JC", "QC", "KC"]
    assert pile(RS, st, "f16") == ["6S", "5S", "4S", "3S", "2S", "AS"]
    assert state_multiset(st) == full_multiset(RS)
    assert RS.is_won(st) and RS.legal_moves(st) == []
    g = game_at(SS, st)
    assert g.is_won and not g.is_lost
    assert "already won" in (RS.why_illegal(st, Move.parse("deal")) or "")


# =============================================================== random playouts
# per game: (foundations building down, the rank that founds an up / a down foundation,
# round the corner, in suit)
SHAPES = {
    JB: (set(), 11, None, True, True),
    ED: ({f"f{i}" for i in range(1, 9)}, None, 8, True, True),
    PE: ({f"f{i}" for i in range(5, 9)}, 5, 5, True, False),
    SS: ({f"f{i}" for i in range(9, 17)}, 7, 6, False, True),
}


def check_foundations(rules: Rules, st: State, game: str) -> None:
    """Every foundation starts at its base rank and is consecutive in its direction."""
    down_ids, up_base, down_base, wrap, in_suit = SHAPES[game]
    for pid in rules.ids:
        if pid[0] != "f":
            continue
        p = [(rank_of(c), suit_of(c)) for c in st.piles[rules.index[pid]]]
        if not p:
            continue
        down = pid in down_ids
        assert p[0][0] == (down_base if down else up_base), (pid, p)
        assert len(p) <= 13
        for (ra, sa), (rb, sb) in itertools.pairwise(p):
            assert rb == ((ra - 2) % 13 + 1 if down else ra % 13 + 1), (pid, p)
            assert not in_suit or sa == sb, (pid, p)
            assert wrap or ra != (1 if down else 13), (pid, p)


@pytest.mark.parametrize("game", [JB, ED, PE, SS])
def test_random_playouts_keep_the_invariants(game: str) -> None:
    # RULES §0 (every card in exactly one pile; a listed move is legal, so why_illegal has
    # nothing against it; a won game has no legal moves) and RULES B3 (foundations start at
    # their base rank and are consecutive in their direction)
    rules = rules_of(game)
    everything = full_multiset(rules)
    rng = random.Random(20240611)
    for deal in (1, 2, 3):
        st = rules.initial_state(deal)
        check_foundations(rules, st, game)
        for _ in range(400):
            moves = rules.legal_moves(st)
            if not moves:
                break
            for m in moves:
                assert rules.why_illegal(st, m) is None, (st, m)
            # lean towards progress: cards home, then the deal; seldom foundation to foundation
            home = [m for m in moves if m.dst[:1] == "f" and m.src[:1] != "f"]
            other = [m for m in moves if m.src[:1] != "f" or m.dst[:1] != "f"] or moves
            r = rng.random()
            m = (rng.choice(home) if home and r < 0.6
                 else DEAL if DEAL in moves and r < 0.8 else rng.choice(other))
            st = rules.apply(st, m)
            assert state_multiset(st) == everything, m
            check_foundations(rules, st, game)
            assert 1 <= st.passes <= rules.spec.passes
        if rules.is_won(st):
            assert rules.legal_moves(st) == []
