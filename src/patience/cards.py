"""Cards as small integers.

A card is ``(rank - 1) * 4 + suit`` with ranks 1 (Ace) … 13 (King) and suits
0 = clubs, 1 = diamonds, 2 = hearts, 3 = spades.  Identical cards of several
decks are the same integer: they are indistinguishable (RULES §0).
"""

from __future__ import annotations

Card = int
Rank = int
Suit = int

RANK_CHARS = "A23456789TJQK"
SUIT_CHARS = "CDHS"
RANK_NAMES = ("Ace", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight",
              "Nine", "Ten", "Jack", "Queen", "King")
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
SUIT_SYMBOLS = "♣♦♥♠"

CLUBS, DIAMONDS, HEARTS, SPADES = range(4)


def make_card(rank: Rank, suit: Suit) -> Card:
    """The card of ``rank`` (1..13) and ``suit`` (0..3)."""
    return (rank - 1) * 4 + suit


def rank_of(card: Card) -> Rank:
    return (card >> 2) + 1


def suit_of(card: Card) -> Suit:
    return card & 3


def is_red(card: Card) -> bool:
    return (card & 3) in (DIAMONDS, HEARTS)


def card_text(card: Card) -> str:
    """``make_card(10, DIAMONDS)`` → ``"TD"``."""
    return RANK_CHARS[card >> 2] + SUIT_CHARS[card & 3]


def card_name(card: Card) -> str:
    """Words for a screen reader or a message: ``"Ten of diamonds"``."""
    return f"{RANK_NAMES[card >> 2]} of {SUIT_NAMES[card & 3]}"


def parse_rank(text: str) -> Rank:
    t = text.strip().upper()
    if t == "10":
        return 10
    if len(t) == 1 and t in RANK_CHARS:
        return RANK_CHARS.index(t) + 1
    raise ValueError(f"not a rank: {text!r} (ranks are A 2 3 4 5 6 7 8 9 T J Q K)")


def parse_card(text: str) -> Card:
    """``"TD"``, ``"10d"`` or ``"as"`` → the card; ValueError says what is wrong."""
    t = text.strip().upper()
    if len(t) < 2:
        raise ValueError(f"not a card: {text!r} (write rank then suit, e.g. TD or AS)")
    suit = t[-1]
    if suit not in SUIT_CHARS:
        raise ValueError(f"not a card: {text!r} (suits are C D H S)")
    try:
        rank = parse_rank(t[:-1])
    except ValueError:
        raise ValueError(f"not a card: {text!r} (ranks are A 2 3 4 5 6 7 8 9 T J Q K)") from None
    return make_card(rank, SUIT_CHARS.index(suit))


def full_deck(ranks: int = 13, suits: int = 4) -> list[Card]:
    """One deck in its order before shuffling: Ace of clubs, Ace of diamonds, …"""
    return [make_card(r, s) for r in range(1, ranks + 1) for s in range(suits)]
