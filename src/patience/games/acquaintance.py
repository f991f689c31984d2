"""The Acquaintance family (RULES A6): Aces on the foundations, reserve rows fed by the stock."""

from __future__ import annotations

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

GAMES = (QUADRENNIAL,)
