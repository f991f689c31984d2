"""The Four Seasons family (RULES A1–A5, B2): a cross of five, a foundation in each corner."""

from __future__ import annotations

import dataclasses

from patience.rules.spec import Build, GameSpec, Opening, Runs, Space

CROSS_DEAL = ("t2", "t3", "t4", "t1", "t5", "f1")

FOUR_SEASONS = GameSpec(
    id="four-seasons",
    name="Four Seasons",
    aliases=("Corner Card", "Vanishing Cross", "Cross Currents"),
    section="A1",
    family="four-seasons",
    foundations=4,
    foundation_build=Build.SUIT,
    tableau=5,
    tableau_build=Build.ANY,
    space=Space.ANY,
    stock_to_space=True,
    deal_order=CROSS_DEAL,
    odds="about 1 in 10",
    odds_source="Morehead & Mott-Smith",
    odds_value=0.10,
    play_minutes=5,
    difficulty="hard",
    related=("four-seasons-1883", "czarina", "corners", "simplicity"),
    summary="Build four corner foundations up in suit from the deal's base rank, "
            "packing the five-card cross down regardless of suit.",
    layout="cross",
)

FOUR_SEASONS_1883 = dataclasses.replace(
    FOUR_SEASONS,
    id="four-seasons-1883",
    name="Four Seasons (1883)",
    aliases=(),
    section="A2",
    runs=Runs.PACKET,
    space=Space.VACANCY,
    stock_to_space=False,
    opening=Opening.DICK_1883,
    deal_order=(),
    odds="", odds_source="", odds_value=None,
    related=("four-seasons", "czarina", "corners", "simplicity"),
    summary="The rules of 1883: cards are turned one at a time to found the corners and fill "
            "the cross; packets move between piles and a vacancy must be filled at once.",
    layout="square",
)

CZARINA = dataclasses.replace(
    FOUR_SEASONS,
    id="czarina",
    name="Czarina",
    aliases=("Czarina Patience",),
    section="A3",
    space=Space.AUTO,
    stock_to_space=False,
    odds="", odds_source="", odds_value=None,
    related=("four-seasons", "corners", "four-seasons-1883", "simplicity"),
    summary="Four Seasons where an emptied cross pile is refilled at once from the stock.",
)

CORNERS = dataclasses.replace(
    FOUR_SEASONS,
    id="corners",
    name="Corners",
    aliases=(),
    section="A4",
    tableau=0,
    cells=5,
    refill_cells=True,
    space=Space.AUTO,
    stock_to_space=False,
    waste_to_tableau=False,
    deal_order=("c2", "c3", "c4", "c1", "c5", "f1"),
    odds="", odds_source="", odds_value=None,
    difficulty="hard",
    related=("four-seasons", "czarina", "simplicity", "four-seasons-1883"),
    summary="The cross is five cells that feed the corner foundations and are refilled "
            "from the stock.",
)

SIMPLICITY = dataclasses.replace(
    FOUR_SEASONS,
    id="simplicity",
    name="Simplicity",
    aliases=(),
    section="A5",
    tableau=12,
    tableau_build=Build.ALT_COLOR,
    deal_order=(*(f"t{i}" for i in range(1, 13)), "f1"),
    odds="", odds_source="", odds_value=None,
    difficulty="medium",
    related=("four-seasons", "czarina", "corners", "four-seasons-1883"),
    summary="Twelve piles in two rows of six, built down in alternating colours, feed four "
            "foundations built up in suit from the deal's base rank.",
    layout="rows",
)

FLORENTINE = dataclasses.replace(
    FOUR_SEASONS,
    id="florentine",
    name="Florentine",
    aliases=("Florentine Patience",),
    section="B2",
    passes=2,
    odds="", odds_source="", odds_value=None,
    difficulty="",
    related=("four-seasons", "czarina", "corners", "simplicity"),
    summary="Four Seasons with one redeal: when the stock runs out, the waste is turned "
            "over, unshuffled, and dealt once more.",
)

GAMES = (FOUR_SEASONS, FOUR_SEASONS_1883, CZARINA, CORNERS, SIMPLICITY, FLORENTINE)
