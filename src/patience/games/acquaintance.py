"""The Acquaintance family (RULES A6, B1): Aces on the foundations, reserve rows fed by the
stock."""

from __future__ import annotations

import dataclasses

from patience.rules.spec import Build, GameSpec, StockKind

QUADRENNIAL = GameSpec(
    id="quadrennial",
    name="Quadrennial",
    aliases=("Quadrennial Solitaire",),
    section="A6",
    family="acquaintance",
    decks=4,
    foundations=16,
    foundation_build=Build.ANY,
    base_rank=1,
    prefilled=True,
    playback=True,  # a foundation's top card may move to another foundation
    reserves=8,
    stock=StockKind.RESERVE_ROW,
    passes=3,
    deal_order=tuple(f"r{i}" for i in range(1, 9)),
    play_minutes=10,
    difficulty="medium",
    related=("acquaintance", "leap-year", "fours-up"),
    summary="Sixteen Aces anchor sixteen foundations built up regardless of suit; each deal "
            "puts a card on every reserve pile, and two redeals gather them back.",
    layout="reserve",
)

# RULES B1: the classic family deals onto every reserve pile, empty ones included
LEAP_YEAR = dataclasses.replace(
    QUADRENNIAL,
    id="leap-year",
    name="Leap Year",
    aliases=("Leap Year Solitaire",),
    section="B1",
    passes=1,
    playback=False,  # B1 names no moves between foundations
    deal_to_empty=True,
    difficulty="",
    related=("quadrennial", "acquaintance", "auld-lang-syne"),
    summary="Sixteen Aces anchor sixteen foundations built up regardless of suit; each deal "
            "puts a card on every one of eight reserve piles, with no redeal.",
)

ACQUAINTANCE = dataclasses.replace(
    QUADRENNIAL,
    id="acquaintance",
    name="Acquaintance",
    aliases=(),
    section="B1",
    decks=1,
    foundations=4,
    reserves=4,
    passes=3,
    playback=False,
    deal_to_empty=True,
    deal_order=tuple(f"r{i}" for i in range(1, 5)),
    play_minutes=3,
    difficulty="",
    related=("auld-lang-syne", "quadrennial", "leap-year"),
    summary="Four Aces start the foundations, built up regardless of suit; each deal puts a "
            "card on every one of four reserve piles, and two redeals gather them back.",
)

AULD_LANG_SYNE = dataclasses.replace(
    ACQUAINTANCE,
    id="auld-lang-syne",
    name="Auld Lang Syne",
    aliases=("Auld Lang Syne Solitaire",),
    passes=1,
    related=("acquaintance", "quadrennial", "leap-year"),
    summary="Four Aces start the foundations, built up regardless of suit; each deal puts a "
            "card on every one of four reserve piles, and there is no redeal.",
)

GAMES = (QUADRENNIAL, LEAP_YEAR, ACQUAINTANCE, AULD_LANG_SYNE)
