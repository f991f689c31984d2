"""The Busy Aces family (RULES A7): two decks, one card per tableau pile, stock to waste."""

from __future__ import annotations

from patience.rules.spec import Build, GameSpec, Runs, Space

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
    deal_order=tuple(f"t{i}" for i in range(1, 7)),
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

GAMES = (FOURS_UP,)
