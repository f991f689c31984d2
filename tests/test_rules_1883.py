"""Four Seasons, original rules of 1883 (RULES A2), checked against the specification."""

from __future__ import annotations

import pytest

import patience
from helpers import game_at, layout, legal, pile, play_all, position, refused, rules_of
from patience.cards import Card, card_text, rank_of, suit_of
from patience.deals import shuffled

GAME = "four-seasons-1883"
R = rules_of(GAME)
FIVE, EIGHT, ACE = 5, 8, 1


def opening_by_hand(pack: list[Card]) -> tuple[dict[str, list[str]], int]:
    """RULES A2's opening deal, written out from the text (independently of the engine).

    Cards are turned one at a time: the first goes to f1 and fixes b; each following card
    founds the next empty corner (a b card), or continues a foundation in suit, or else
    goes to the first empty pile of t1…t5; it stops when the five cross piles hold a card.
    """
    base = rank_of(pack[0])
    found: list[list[Card]] = [[pack[0]], [], [], []]
    cross: list[list[Card]] = [[] for _ in range(5)]
    i = 1
    while not all(cross):
        c = pack[i]
        i += 1
        if rank_of(c) == base:
            next(f for f in found if not f).append(c)
            continue
        fits = [f for f in found if f and len(f) < 13 and suit_of(f[-1]) == suit_of(c)
                and rank_of(f[-1]) % 13 + 1 == rank_of(c)]
        if fits:
            fits[0].append(c)
        else:
            next(t for t in cross if not t).append(c)
    piles = {f"f{k + 1}": [card_text(c) for c in f] for k, f in enumerate(found)}
    piles |= {f"t{k + 1}": [card_text(c) for c in t] for k, t in enumerate(cross)}
    piles["waste"] = []
    piles["stock"] = [card_text(c) for c in reversed(pack[i:])]
    return piles, base


def test_layout_piles() -> None:
    # RULES A2 Layout (3×3 square: corners f1–f4, the cross t1–t5), as A1; RULES §0 ids
    assert R.ids == ("stock", "waste", "f1", "f2", "f3", "f4", "t1", "t2", "t3", "t4", "t5")


def test_opening_deal_of_deal_1_worked_by_hand() -> None:
    # RULES A2 Opening deal: deal 1's pack starts 5S 3C 5C 9D 6C JS 6S 5H QS 3H.
    # 5S founds f1 (b = 5); 3C → t1; 5C founds f2; 9D → t2; 6C goes on 5C (f2); JS → t3;
    # 6S goes on 5S (f1); 5H founds f3; QS → t4; 3H → t5, and the cross is full.
    pack = [card_text(c) for c in shuffled(R.deck(), 1)]
    assert pack[:10] == ["5S", "3C", "5C", "9D", "6C", "JS", "6S", "5H", "QS", "3H"]
    g = patience.new_game(GAME, deal=1)
    p = g.piles
    assert g.base_rank == FIVE
    assert (p["f1"], p["f2"], p["f3"], p["f4"]) == (["5S", "6S"], ["5C", "6C"], ["5H"], [])
    assert [p[f"t{i}"] for i in range(1, 6)] == [["3C"], ["9D"], ["JS"], ["QS"], ["3H"]]
    assert p["waste"] == []
    assert p["stock"] == pack[10:][::-1]


# deals 188, 251, 1088 and 1205 found all four corners during the opening; in deals 94 and
# 842 a foundation is built to three cards
SPECIAL_DEALS = (94, 188, 251, 842, 1088, 1205)


@pytest.mark.parametrize("deal", [*range(1, 61), *SPECIAL_DEALS])
def test_opening_deal_recomputed_from_the_shuffled_pack(deal: int) -> None:
    # RULES A2 Opening deal (automatic; f1 first, b cards found f2, f3, f4 in order, fitting
    # cards built on in suit, others fill t1..t5 in order, stop when the cross is full)
    expected, base = opening_by_hand(shuffled(R.deck(), deal))
    g = patience.new_game(GAME, deal=deal)
    assert g.piles == expected
    assert g.base_rank == base
    assert g.moves == []


def test_opening_deal_examples_cover_the_cases() -> None:
    # RULES A2 Opening deal: the deals above include corners founded up to f4 and
    # foundations built on during the opening (so the recomputation tests those cases)
    layouts = [opening_by_hand(shuffled(R.deck(), d))[0]
               for d in (*range(1, 61), *SPECIAL_DEALS)]
    assert any(p["f4"] for p in layouts)
    assert any(len(p["f1"]) >= 3 or len(p["f2"]) >= 3 for p in layouts)
    assert any(not p["f2"] for p in layouts)


def test_only_the_opening_plays_automatically() -> None:
    # RULES A2 Decision 1 (afterwards every move is the player's): a dealt card that fits a
    # foundation stays on the waste until the player moves it
    st = position(R, base=FIVE, f1="5S", t1="9C", t2="KH", t3="2D", t4="JC", t5="7D",
                  stock="8C 6S")
    after = play_all(R, st, "deal")
    assert pile(R, after, "waste") == ["6S"] and pile(R, after, "f1") == ["5S"]
    assert "waste>f1" in legal(R, after)


def test_base_rank_card_may_found_any_empty_corner_after_the_opening() -> None:
    # RULES A2 Decision 1 (a base-rank card may found any empty corner)
    st = position(R, base=FIVE, f1="5S", f3="5C", t1="9C", t2="KH", t3="2D", t4="JC",
                  t5="7D", waste="5H")
    assert legal(R, st) == {"waste>f2", "waste>f4"}


def test_building_uses_a1_rank_rule() -> None:
    # RULES A2 Building (one rank lower regardless of suit; a King on an Ace; nothing on a
    # base-rank card)
    st = position(R, base=FIVE, f1="5S", t1="AD", t2="KC", t3="5H", t4="4C", t5="TD",
                  stock="2H")
    assert legal(R, st) == {"t2>t1", "t3>f2", "t3>f3", "t3>f4", "deal"}
    assert "base rank" in refused(R, st, "t4>t3")
    st = position(R, base=ACE, f1="AS", t1="AD", t2="KC", t3="9H", t4="4C", t5="TD",
                  stock="2H")
    assert legal(R, st) == {"t1>f2", "t1>f3", "t1>f4", "t3>t5", "deal"}
    refused(R, st, "t2>t1")


def test_packets_move_onto_non_empty_piles() -> None:
    # RULES A2 Building (a packet: the top k cards, each one rank below the card beneath
    # it, moves when its bottom card may be placed on the other pile's top card)
    st = position(R, base=FIVE, f1="5S", t1="9C 8D 7S", t2="TH", t3="8H", t4="KC", t5="2D",
                  stock="3C")
    assert legal(R, st) == {"t1>t2x3", "t1>t3", "deal"}
    after = play_all(R, st, "t1>t2x3")
    assert pile(R, after, "t2") == ["TH", "9C", "8D", "7S"]
    # t1 is now a vacancy (RULES A2 Vacancies): only the fills are legal
    assert legal(R, after) == {"t2>t1", "t3>t1", "t4>t1", "t5>t1", "stock>t1"}
    refused(R, st, "t1>t3x2")  # 8D does not go on 8H
    refused(R, st, "t1>t2x2")  # 8D does not go on TH
    refused(R, st, "t1>t2x4")  # t1 holds only three cards


def test_packets_wrap_king_on_ace_but_stop_at_the_base() -> None:
    # RULES A2 Building (packets follow A1's rank rule: a King on an Ace continues a packet,
    # nothing on a base-rank card breaks it)
    st = position(R, base=FIVE, f1="5S", t1="2C AD KS", t2="3H", t3="7D", t4="TC", t5="JS",
                  stock="4C")
    assert legal(R, st) == {"t1>t2x3", "t4>t5", "deal"}
    st = position(R, base=EIGHT, f1="8S", t1="9C 8D 7S", t2="9H", t3="KD", t4="4C", t5="JS",
                  stock="3C")
    assert legal(R, st) == {"deal"}
    refused(R, st, "t1>t2x2")  # 7S does not lie on 8D by the rule: not a packet


def test_a_vacancy_must_be_filled_first() -> None:
    # RULES A2 Vacancies (while a cross pile is empty the only legal moves fill it with one
    # card: another cross pile's top or the waste top) and RULES A2 Stock (no deal while a
    # vacancy is pending)
    st = position(R, base=FIVE, f1="5S", t2="9C", t3="KH", t4="QC", t5="2D",
                  waste="4D 6S", stock="2C 8H")
    assert legal(R, st) == {"t2>t1", "t3>t1", "t4>t1", "t5>t1", "waste>t1"}
    refused(R, st, "t4>t3")  # legal but for the vacancy
    refused(R, st, "waste>f1")  # ditto
    assert "must be filled" in refused(R, st, "deal")
    assert "waste" in refused(R, st, "stock>t1")  # the waste is not empty
    after = play_all(R, st, "waste>t1")
    assert pile(R, after, "t1") == ["6S"] and pile(R, after, "waste") == ["4D"]
    assert legal(R, after) == {"t1>f1", "t4>t3", "deal"}


def test_stock_fills_a_vacancy_only_when_the_waste_is_empty() -> None:
    # RULES A2 Vacancies (only when the waste is empty may the next stock card fill it)
    st = position(R, base=FIVE, f1="5S", t2="9C", t3="KH", t4="QC", t5="2D", stock="2C 8H")
    assert legal(R, st) == {"t2>t1", "t3>t1", "t4>t1", "t5>t1", "stock>t1"}
    after = play_all(R, st, "stock>t1")
    assert pile(R, after, "t1") == ["8H"] and pile(R, after, "stock") == ["2C"]
    assert pile(R, after, "waste") == []
    # stock and waste both empty: the vacancy lapses (RULES A2, our reading): fills from
    # the other cross piles stay legal beside every other move
    st = position(R, base=FIVE, f1="5S", t2="9C", t3="KH", t4="QC", t5="2D")
    assert legal(R, st) == {"t2>t1", "t3>t1", "t4>t1", "t5>t1", "t4>t3"}


def test_a_fill_may_take_a_piles_only_card() -> None:
    # RULES A2 Decision 3 (a fill may take a pile's only card, leaving a new vacancy)
    st = position(R, base=FIVE, f1="5S", t2="9C", t3="KH", t4="QC 8D", t5="2D", waste="4D")
    assert "t2>t1" in legal(R, st)
    after = play_all(R, st, "t2>t1")
    assert pile(R, after, "t2") == []
    assert legal(R, after) == {"t1>t2", "t3>t2", "t4>t2", "t5>t2", "waste>t2"}


def test_several_vacancies() -> None:
    # RULES A2 Vacancies (while *a* cross pile is empty, only fills are legal)
    st = position(R, base=FIVE, f1="5S", t3="KH", t4="QC", t5="2D", stock="9S")
    assert legal(R, st) == {"t3>t1", "t4>t1", "t5>t1", "stock>t1",
                            "t3>t2", "t4>t2", "t5>t2", "stock>t2"}


def test_a_packet_never_fills_a_vacancy() -> None:
    # RULES A2 Decision 2 (a vacancy takes a single card, never a packet)
    st = position(R, base=FIVE, f1="5S", t1="9C 8D 7S", t2="TH", t3="8H", t4="KC",
                  waste="2D")
    assert legal(R, st) == {"t1>t5", "t2>t5", "t3>t5", "t4>t5", "waste>t5"}
    assert "single card" in refused(R, st, "t1>t5x2")
    refused(R, st, "t1>t5x3")
    refused(R, st, "t1>t2x3")  # a packet move elsewhere waits for the vacancy too


def test_a_vacancy_that_cannot_be_filled_does_not_restrict_play() -> None:
    # RULES A2 Vacancies ("if no such move exists, the vacancy does not restrict play").
    # A fill is missing only when the cross, waste and stock are all empty; then no move
    # of any kind exists (cards never leave a foundation), and the refusals do not cite
    # the vacancy.
    st = position(R, base=FIVE, f1="5S 6S 7S", f2="5H")
    assert legal(R, st) == set()
    assert "filled" not in refused(R, st, "deal")
    assert "filled" not in refused(R, st, "f1>t1")
    assert game_at(GAME, st).is_lost


def test_deal_when_no_vacancy_and_no_redeal() -> None:
    # RULES A2 Stock (deal turns the next card onto the waste; no redeal)
    st = position(R, base=FIVE, f1="5S", t1="9C", t2="KH", t3="2D", t4="JC", t5="7D",
                  waste="3S", stock="4H")
    assert legal(R, st) == {"deal"}
    after = play_all(R, st, "deal")
    assert pile(R, after, "waste") == ["3S", "4H"]
    assert legal(R, after) == set()
    assert "no redeal" in refused(R, after, "deal")


def test_waste_top_goes_to_a_foundation_or_a_cross_pile() -> None:
    # RULES A2 Stock (the waste top may go to a foundation, onto a cross pile or into a
    # vacancy)
    st = position(R, base=FIVE, f1="5S", t1="9C", t2="KH", t3="2D", t4="JC", t5="7S",
                  waste="6S")
    assert legal(R, st) == {"waste>f1", "waste>t5"}


def test_a_won_game_has_no_moves() -> None:
    # RULES §0 End; RULES A2 (as A1: four foundations of 13 from the base rank)
    ranks = "56789TJQKA234"
    st = layout(R, {f: " ".join(r + s for r in ranks)
                    for f, s in zip(("f1", "f2", "f3", "f4"), "SHDC", strict=True)}, base=FIVE)
    g = game_at(GAME, st)
    assert g.is_won and g.legal_moves() == [] and not g.is_lost


def test_a_vacancy_lapses_once_waste_and_stock_are_empty() -> None:
    # RULES A2 Vacancies, as the project reads it (stated on the rules page): the vacancy
    # must be filled at once only while the waste or the stock has a card to fill it with.
    # Read literally, a vacancy could always be refilled from another cross pile at the
    # end of the game, so the last cards could never reach a foundation and no deal could
    # be won; the seed text only speaks of filling from the waste or the pack.
    ranks = "56789TJQKA234"
    full = {f: " ".join(r + s for r in ranks) for f, s in zip(("f2", "f3", "f4"), "HDC",
                                                              strict=True)}
    st = layout(R, {"f1": " ".join(r + "S" for r in ranks[:12]), "waste": "4S", **full},
                base=FIVE)
    # the waste still has a card: the vacancies must be filled first
    assert legal(R, st) == {"waste>t1", "waste>t2", "waste>t3", "waste>t4", "waste>t5"}
    assert "must be filled" in refused(R, st, "waste>f1")
    after = play_all(R, st, "waste>t3")
    # now waste and stock are empty: the last card may go home, and the game is won
    assert legal(R, after) == {"t3>f1", "t3>t1", "t3>t2", "t3>t4", "t3>t5"}
    won = play_all(R, after, "t3>f1")
    assert R.is_won(won)
