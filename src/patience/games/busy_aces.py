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

JACKS_IN_THE_BOX = dataclasses.replace(
    THREES_COMPANY,
    id="jacks-in-the-box",
    name="Jacks in the Box",
    aliases=(),
    base_rank=11,
    tableau=6,
    runs=Runs.NONE,
    cells=4,
    free_cells=True,
    deal_order=_row(6),
    related=("busy-aces", "dimes", "fours-up", "sixes-and-sevens"),
    summary="Eight Jacks start eight foundations built up in suit round the corner; six piles "
            "build down in suit, a card at a time, with four free cells.",
)

# RULES B3 Eights Down: the tableau builds up and the foundations down, both in suit;
# the waste is turned over once
EIGHTS_DOWN = dataclasses.replace(
    THREES_COMPANY,
    id="eights-down",
    name="Eights Down",
    aliases=(),
    base_rank=8,
    foundations_down=8,
    tableau=6,
    tableau_up=6,
    passes=2,
    deal_order=_row(6),
    related=("busy-aces", "threes-company", "fours-up", "penta"),
    summary="Eight Eights start eight foundations built down in suit round the corner; six "
            "piles build up in suit and move runs in suit; the waste is turned over once.",
)

# RULES B3 Penta: four foundations build up from the Fives, four down, regardless of suit;
# three piles build down and three up, round the corner
PENTA = dataclasses.replace(
    FOURS_UP,
    id="penta",
    name="Penta",
    aliases=(),
    section="B3",
    base_rank=5,
    prefilled=False,
    foundation_build=Build.ANY,
    foundations_down=4,
    playback_down=False,
    tableau=6,
    tableau_up=3,
    build_on_base=True,
    runs=Runs.NONE,
    odds="", odds_source="", odds_value=None,
    difficulty="",
    related=("fours-up", "eights-down", "sixes-and-sevens"),
    summary="Any Five starts a foundation: four build up and four down, regardless of suit; "
            "three piles build down and three up, round the corner, a card at a time.",
    layout="tableau",
)

# RULES B3 Sixes and Sevens: sixteen foundations from the Sevens up to the King and from
# the Sixes down to the Ace; nine free cells and no tableau
SIXES_AND_SEVENS = dataclasses.replace(
    FOURS_UP,
    id="sixes-and-sevens",
    name="Sixes and Sevens",
    aliases=(),
    section="B3",
    foundations=16,
    foundations_down=8,
    base_rank=7,
    down_base_rank=6,
    foundation_wrap=False,
    playback=False,
    tableau=0,
    runs=Runs.NONE,
    cells=9,
    free_cells=True,
    deal_order=tuple(f"c{i}" for i in range(1, 10)),
    odds="", odds_source="", odds_value=None,
    difficulty="",
    related=("penta", "jacks-in-the-box", "fours-up"),
    summary="Eight Sevens build up in suit to the King and eight Sixes down to the Ace; nine "
            "cells hold one card each, and nothing is built anywhere else.",
    layout="tableau",
)

GAMES = (FOURS_UP, BUSY_ACES, DEUCES, THREES_COMPANY, CAST_OUT_NINES, DIMES, JACKS_IN_THE_BOX,
         EIGHTS_DOWN, PENTA, SIXES_AND_SEVENS)
