"""The Busy Aces family (RULES A7, B3): two decks, one card per tableau pile, stock to waste."""

from __future__ import annotations

import dataclasses

from patience.rules.spec import Build, GameSpec, Runs, Space


def _row(n: int) -> tuple[str, ...]:
    """The deal order of ``n`` tableau piles: one card each, ``t1`` first."""
    return tuple(f"t{i}" for i in range(1, n + 1))


FOURS_UP = GameSpec(
    id="fours-up",
    name="Fours Up",
    aliases=("Fours Up Solitaire",),
    section="A7",
    family="busy-aces",
    decks=2,
    foundations=8,
    foundation_build=Build.SUIT,
    base_rank=4,
    prefilled=True,
    playback=True,
    tableau=6,
    tableau_build=Build.ANY,
    runs=Runs.ANY,
    space=Space.ANY,
    deal_order=_row(6),
    odds="45%",
    odds_source="Pretty Good Solitaire",
    odds_value=0.45,
    play_minutes=8,
    difficulty="medium",
    related=("busy-aces", "deuces", "quadrennial"),
    summary="Eight foundations start from the Fours and build up in suit round the corner; "
            "six piles build down regardless of suit and move runs.",
    layout="tableau",
)

# RULES B3: tableau piles build down in suit; "bases dealt at start: no" leaves the
# foundations empty, each taking any card of the base rank
BUSY_ACES = dataclasses.replace(
    FOURS_UP,
    id="busy-aces",
    name="Busy Aces",
    aliases=("Busy Aces Solitaire",),
    section="B3",
    base_rank=1,
    prefilled=False,
    tableau=12,
    tableau_build=Build.SUIT,
    runs=Runs.NONE,
    deal_order=_row(12),
    odds="", odds_source="", odds_value=None,
    play_minutes=8,
    difficulty="",
    related=("fours-up", "cast-out-nines", "dimes", "threes-company"),
    summary="Eight Aces found eight foundations built up in suit; twelve piles of one card "
            "build down in suit, a card at a time.",
    layout="rows",
)

THREES_COMPANY = dataclasses.replace(
    BUSY_ACES,
    id="threes-company",
    name="Three's Company",
    aliases=("Threes Company",),
    base_rank=3,
    prefilled=True,
    tableau=8,
    runs=Runs.ANY,
    deal_order=_row(8),
    related=("fours-up", "busy-aces", "cast-out-nines", "dimes"),
    summary="Eight Threes start eight foundations built up in suit round the corner; eight "
            "piles build down in suit and move runs in suit.",
    layout="tableau",
)

CAST_OUT_NINES = dataclasses.replace(
    BUSY_ACES,
    id="cast-out-nines",
    name="Cast Out Nines",
    aliases=(),
    base_rank=9,
    tableau=7,
    deal_order=_row(7),
    related=("busy-aces", "dimes", "threes-company", "fours-up"),
    summary="Eight Nines found eight foundations built up in suit round the corner; seven "
            "piles build down in suit, a card at a time.",
    layout="tableau",
)

DIMES = dataclasses.replace(
    BUSY_ACES,
    id="dimes",
    name="Dimes",
    aliases=("Dimes Solitaire",),
    base_rank=10,
    tableau=8,
    deal_order=_row(8),
    related=("busy-aces", "cast-out-nines", "threes-company", "fours-up"),
    summary="Eight Tens found eight foundations built up in suit round the corner; eight "
            "piles build down in suit, a card at a time.",
    layout="tableau",
)

DEUCES = dataclasses.replace(
    THREES_COMPANY,
    id="deuces",
    name="Deuces",
    aliases=("Deuces Solitaire",),
    base_rank=2,
    tableau=10,
    space=Space.FROM_STOCK,
    stock_to_space=True,
    deal_order=_row(10),
    related=("busy-aces", "threes-company", "fours-up"),
    summary="Eight Twos start eight foundations built up in suit round the corner; ten piles "
            "build down in suit and move runs in suit; a space is filled only from the waste "
            "or the stock.",
)

GAMES = (FOURS_UP, BUSY_ACES, DEUCES, THREES_COMPANY, CAST_OUT_NINES, DIMES)
