"""Cards (RULES §0) and numbered deals: card texts, SplitMix64, the shuffle, golden layouts.

RULES.md does not define deal numbering (it is the engine's own, documented in
``patience.deals``); those tests cite §0 ("Cards", "Piles") for what the layouts hold and
check the algorithm against its published references.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import patience
from helpers import GAME_IDS, PART_A, rules_of
from patience.cards import (
    RANK_CHARS,
    SUIT_CHARS,
    card_text,
    full_deck,
    is_red,
    make_card,
    parse_card,
    parse_rank,
    rank_of,
    suit_of,
)
from patience.deals import MAX_DEAL, SplitMix64, check_deal_number, shuffled

GOLDEN = Path(__file__).parent / "golden" / "deals.json"
MASK = (1 << 64) - 1


def splitmix64_reference(seed: int, count: int) -> list[int]:
    """Steele, Lea and Flood's SplitMix64, written out from the published algorithm."""
    out = []
    x = seed & MASK
    for _ in range(count):
        x = (x + 0x9E3779B97F4A7C15) & MASK
        z = x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        out.append(z ^ (z >> 31))
    return out


# ---------------------------------------------------------------------------- cards


def test_card_text_round_trip_for_all_52_cards() -> None:
    # RULES §0 Cards (ranks A 2 … 9 T J Q K, suits C D H S, a card's text is rank then suit)
    deck = full_deck()
    assert len(deck) == len(set(deck)) == 52
    seen = set()
    for card in deck:
        text = card_text(card)
        assert len(text) == 2 and text[0] in RANK_CHARS and text[1] in SUIT_CHARS
        assert parse_card(text) == card
        assert make_card(rank_of(card), suit_of(card)) == card
        seen.add(text)
    assert seen == {r + s for r in "A23456789TJQK" for s in "CDHS"}
    assert [rank_of(parse_card(r + "C")) for r in "A23456789TJQK"] == list(range(1, 14))
    assert card_text(make_card(10, 1)) == "TD" and card_text(make_card(1, 3)) == "AS"


def test_ten_is_accepted_for_t() -> None:
    # RULES §0 Cards (`10` is accepted on input for `T`)
    assert parse_card("10D") == parse_card("TD") == make_card(10, 1)
    assert parse_card("10S") == parse_card("TS")
    assert parse_rank("10") == parse_rank("T") == 10
    assert card_text(parse_card("10H")) == "TH"


@pytest.mark.parametrize("text", ["", "A", "T", "1D", "11D", "0C", "TX", "ZZ", "KCX", "AA",
                                  "10", "1", "KS5", "D10", "♠A", "X10"])
def test_bad_card_texts_raise(text: str) -> None:
    # RULES §0 Cards (only the ranks and suits listed are cards)
    with pytest.raises(ValueError, match="not a card"):
        parse_card(text)


def test_colours() -> None:
    # RULES §0 Cards (red = D H, black = C S)
    for card in full_deck():
        assert is_red(card) == (card_text(card)[1] in "DH")


def test_rank_arithmetic_wraps() -> None:
    # RULES §0 Rank arithmetic (succ(K) = A, pred(A) = K; every game of Part A wraps)
    for game_id in PART_A:
        rules = rules_of(game_id)
        assert rules.spec.wraps
        assert [rules.succ[r] for r in range(1, 14)] == [*range(2, 14), 1]
        assert [rules.pred[r] for r in range(1, 14)] == [13, *range(1, 13)]


def test_multi_deck_games_have_identical_cards() -> None:
    # RULES §0 Cards (in multi-deck games identical cards are indistinguishable)
    for game_id, decks in (("quadrennial", 4), ("fours-up", 2)):
        deck = rules_of(game_id).deck()
        assert len(deck) == 52 * decks
        assert all(deck.count(c) == decks for c in full_deck())


# ------------------------------------------------------------------------ SplitMix64


def test_splitmix64_seed_0_reference_outputs() -> None:
    # RULES §0 Cards (deal numbering: patience.deals' SplitMix64; published value, seed 0)
    rng = SplitMix64(0)
    first = [rng.next() for _ in range(4)]
    assert first[0] == 0xE220A8397B1DCDAF
    assert first == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F,
                     0xF88BB8A8724C81EC]
    assert first == splitmix64_reference(0, 4)


def test_splitmix64_seed_1234567_reference_outputs() -> None:
    # RULES §0 Cards (deal numbering: SplitMix64's published test vector, seed 1234567)
    rng = SplitMix64(1234567)
    assert [rng.next() for _ in range(5)] == [
        6457827717110365317, 3203168211198807973, 9817491932198370423,
        4593380528125082431, 16408922859458223821]


@pytest.mark.parametrize("seed", [1, 2, 1000, 2**63, MASK])
def test_splitmix64_matches_the_published_algorithm(seed: int) -> None:
    # RULES §0 Cards (deal numbering: the engine's generator is plain SplitMix64)
    rng = SplitMix64(seed)
    assert [rng.next() for _ in range(20)] == splitmix64_reference(seed, 20)


def test_bounded_draws_reject_the_top_outputs() -> None:
    # RULES §0 Cards (deal numbering): below(n) is exactly uniform, rejecting the top
    # 2**64 mod n outputs. With n = 2**63 + 1 the limit is n itself, so seed 0's first
    # output (0xE220…, above the limit) is rejected and the second is returned
    assert SplitMix64(0).below(2**63 + 1) == 0x6E789E6AA1B965F4
    assert SplitMix64(0).below(6) == 0xE220A8397B1DCDAF % 6
    rng = SplitMix64(5)
    assert all(rng.below(1) == 0 for _ in range(10))
    assert all(0 <= rng.below(n) < n for n in range(1, 200))
    for bad in (0, -1):
        with pytest.raises(ValueError):
            SplitMix64(1).below(bad)


# --------------------------------------------------------------------------- shuffles


def fisher_yates_reference(items: list[int], deal: int) -> list[int]:
    """The documented shuffle, from scratch: Fisher–Yates from the end, uniform draws."""
    outputs = iter(splitmix64_reference(deal, 10_000))
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        n = i + 1
        limit = (1 << 64) - ((1 << 64) % n)
        x = next(outputs)
        while x >= limit:
            x = next(outputs)
        j = x % n
        out[i], out[j] = out[j], out[i]
    return out


@pytest.mark.parametrize("deal", [0, 1, 2, 3, 1000, 2**32, MAX_DEAL])
def test_shuffle_is_the_documented_fisher_yates(deal: int) -> None:
    # RULES §0 Cards (deal numbering: a deal number fixes the shuffle, everywhere)
    deck = full_deck() * 2
    assert shuffled(deck, deal) == fisher_yates_reference(deck, deal)


def test_shuffles_are_deterministic_permutations() -> None:
    # RULES §0 Cards (deal numbering: shuffles are permutations, the same each time)
    deck = full_deck()
    before = list(deck)
    a, b = shuffled(deck, 7), shuffled(deck, 7)
    assert a == b and sorted(a) == sorted(deck)
    assert deck == before  # the input is not touched
    assert len({tuple(shuffled(deck, d)) for d in range(50)}) == 50
    assert shuffled([], 3) == [] and shuffled([9], 3) == [9]


@pytest.mark.parametrize("bad", [-1, 2**64, 1.0, True, "1", None])
def test_deal_numbers_out_of_range_are_refused(bad: object) -> None:
    # RULES §0 (deal numbering, patience.deals: whole numbers 0 … 2**64 - 1)
    with pytest.raises(ValueError):
        check_deal_number(bad)  # type: ignore[arg-type]
    if bad is not None:  # new_game(deal=None) means "a random deal"
        with pytest.raises(ValueError):
            patience.new_game("four-seasons", deal=bad)  # type: ignore[arg-type]
    assert check_deal_number(0) == 0 and check_deal_number(MAX_DEAL) == MAX_DEAL == MASK


# ----------------------------------------------------------------------------- golden


def golden() -> dict[str, dict[str, dict[str, object]]]:
    data: dict[str, dict[str, dict[str, object]]] = json.loads(GOLDEN.read_text("utf-8"))
    return data


def test_golden_file_covers_every_commissioned_game() -> None:
    # RULES Part A (A1–A7): every commissioned game has pinned layouts for deals 1, 2, 1000
    data = golden()
    assert set(PART_A) <= set(data)
    assert set(data) <= set(GAME_IDS)
    for deals in data.values():
        assert set(deals) == {"1", "2", "1000"}


@pytest.mark.parametrize("game_id", sorted(golden()))
def test_golden_layouts(game_id: str) -> None:
    # RULES A1–A7 (each game's deal), pinned: any change to the shuffle, the deck order before
    # the shuffle or a game's deal shows here. Regenerate with tests/golden/make_golden.py
    # only for a deliberate change of deal numbering.
    for deal, layout in golden()[game_id].items():
        g = patience.new_game(game_id, deal=int(deal))
        assert g.piles == layout["piles"], f"{game_id} deal {deal} changed"
        assert g.base_rank == layout["base"]
