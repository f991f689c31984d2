"""The vocabulary of the rules as data.

A game is a :class:`GameSpec`: a flat, frozen record that lists how the game
differs from the defaults.  One engine (:mod:`patience.rules.engine`) reads it.
Nothing that depends on the deal (the base rank of a Four Seasons deal, the
passes made) is stored here: that lives in :class:`~patience.rules.state.State`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from enum import Enum


class Build(Enum):
    """How a card is placed on another."""

    SUIT = "in suit"
    ANY = "regardless of suit"
    ALT_COLOR = "in alternating colours"


class Runs(Enum):
    """Which groups of cards move together from a tableau pile."""

    NONE = "single cards only"
    PACKET = "packets onto non-empty piles"  # Dick's 1883 marriages (RULES A2)
    ANY = "runs, also into spaces"  # Fours Up (RULES A7)


class Space(Enum):
    """What may fill an empty tableau pile."""

    ANY = "any available card"
    AUTO = "refilled at once from the stock; never by the player"  # Czarina (A3)
    VACANCY = "must be filled at once with a single card"  # 1883 (A2)
    FROM_STOCK = "filled only from the waste or the stock"  # Deuces (B3)


class StockKind(Enum):
    WASTE = "deals one card to the waste"
    RESERVE_ROW = "deals one card onto each reserve pile"  # Quadrennial (A6)


class Opening(Enum):
    STANDARD = "dealt in a fixed order"
    DICK_1883 = "turned one at a time, founding and filling the cross"  # A2


@dataclass(frozen=True)
class GameSpec:
    """One game's rules and metadata.

    ``deal_order`` names the piles that receive one card each from the top
    of the shuffled pack, in order, at the start (ignored by the 1883
    opening).  ``prefilled`` foundations start with a card taken out before
    the shuffle; with ``base_rank = None`` the base rank comes from the deal
    (the first card dealt to a foundation).
    """

    id: str
    name: str
    aliases: tuple[str, ...] = ()
    section: str = ""  # the RULES.md section, e.g. "A1"
    family: str = ""
    decks: int = 1
    ranks: int = 13  # A..ranks; fewer only for reduced test games
    suits: int = 4
    # foundations
    foundations: int = 4
    foundation_build: Build = Build.SUIT
    base_rank: int | None = None
    prefilled: bool = False
    playback: bool = False  # a foundation's top card may go to any pile taking it
    foundations_down: int = 0  # the last N foundations build down (RULES B3)
    down_base_rank: int | None = None  # what founds a down foundation, where not the base
    foundation_wrap: bool = True  # False: up foundations end at the King, down ones at the Ace
    playback_down: bool = True  # play-back also from down foundations (not in Penta)
    # tableau
    tableau: int = 0
    tableau_build: Build = Build.ANY
    tableau_up: int = 0  # the last N tableau piles build up (RULES B3)
    build_on_base: bool = False  # cards go on base-rank tableau cards too (Penta)
    runs: Runs = Runs.NONE
    space: Space = Space.ANY
    stock_to_space: bool = False  # `stock>tK`
    waste_to_tableau: bool = True
    # other piles
    cells: int = 0
    refill_cells: bool = False
    free_cells: bool = False  # a cell takes any single card, and its card goes where it fits
    reserves: int = 0
    # stock
    stock: StockKind = StockKind.WASTE
    deal_to_empty: bool = False  # a reserve-row deal also covers empty piles (RULES B1)
    passes: int = 1
    opening: Opening = Opening.STANDARD
    deal_order: tuple[str, ...] = ()
    # metadata for players
    odds: str = ""
    odds_source: str = ""
    odds_value: float | None = None
    play_minutes: int = 5
    difficulty: str = ""
    related: tuple[str, ...] = ()
    summary: str = ""
    layout: str = ""  # "cross", "rows", "reserve", "tableau"
    reduced_from: str | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if not 1 <= self.ranks <= 13:
            raise ValueError("ranks must be 1..13")
        for rank in (self.base_rank, self.down_base_rank):
            if rank is not None and not 1 <= rank <= self.ranks:
                raise ValueError("base rank outside the ranks in play")
        if not 0 <= self.foundations_down <= self.foundations:
            raise ValueError("more down foundations than foundations")
        if not 0 <= self.tableau_up <= self.tableau:
            raise ValueError("more up-building tableau piles than tableau piles")

    @property
    def pile_ids(self) -> tuple[str, ...]:
        """Every pile of the game, in the order of the state's ``piles``."""
        ids = ["stock"]
        if self.stock is StockKind.WASTE:
            ids.append("waste")
        ids += [f"f{i}" for i in range(1, self.foundations + 1)]
        ids += [f"t{i}" for i in range(1, self.tableau + 1)]
        ids += [f"r{i}" for i in range(1, self.reserves + 1)]
        ids += [f"c{i}" for i in range(1, self.cells + 1)]
        return tuple(ids)

    @property
    def card_count(self) -> int:
        return self.decks * self.ranks * self.suits

    @property
    def wraps(self) -> bool:
        """Tableau building turns the corner (K then A)."""
        return True

    @property
    def one_way(self) -> bool:
        """Every foundation builds up round the corner and every tableau pile builds
        down, with nothing on a base-rank card: the shape that the solver's relaxation,
        safe moves and components are argued for (docs/solver.md)."""
        return (not self.foundations_down and self.foundation_wrap and not self.tableau_up
                and not self.build_on_base)

    def reduced(self, *, ranks: int | None = None, tableau: int | None = None,
                cells: int | None = None, reserves: int | None = None,
                foundations: int | None = None, decks: int | None = None,
                base_rank: int | None = None) -> GameSpec:
        """The same rules on a smaller layout, for exhaustive tests.

        Piles left out are dropped from the deal order; the game id gets a
        suffix so that a reduced game is never mistaken for the real one.  A game
        with a fixed base rank above the ranks kept needs a new ``base_rank``.
        """
        changes: dict[str, object] = {}
        if ranks is not None:
            changes["ranks"] = ranks
        if base_rank is not None:
            changes["base_rank"] = base_rank
        if tableau is not None:
            changes["tableau"] = tableau
        if cells is not None:
            changes["cells"] = cells
        if reserves is not None:
            changes["reserves"] = reserves
        if foundations is not None:
            changes["foundations"] = foundations
        if decks is not None:
            changes["decks"] = decks
        tag = ",".join(f"{k}={v}" for k, v in changes.items())
        # the piles building the other way keep their share
        if foundations is not None and self.foundations:
            changes["foundations_down"] = self.foundations_down * foundations // self.foundations
        if tableau is not None and self.tableau:
            changes["tableau_up"] = self.tableau_up * tableau // self.tableau
        new = dataclasses.replace(self, id=f"{self.id}[{tag}]", reduced_from=self.id,
                                  **changes)  # type: ignore[arg-type]
        kept = set(new.pile_ids)
        order = tuple(p for p in self.deal_order if p in kept)
        # piles added by the reduction (more piles than the original) are dealt last
        order += tuple(p for p in new.pile_ids
                       if p[0] in "trc" and p not in order and any(q[0] == p[0] for q in order))
        return dataclasses.replace(new, deal_order=order)
