"""Positions and moves: small immutable values."""

from __future__ import annotations

from typing import NamedTuple

from patience.cards import Card

Pile = tuple[Card, ...]


class State(NamedTuple):
    """A position: every pile (in the order of ``GameSpec.pile_ids``), bottom
    to top, plus what the deal fixed (``base`` rank) and ``passes`` made
    (1 during the first pass through the stock).  Immutable and hashable."""

    piles: tuple[Pile, ...]
    base: int
    passes: int


class Move(NamedTuple):
    """``src>dst`` (``n`` = 1), ``src>dstxN`` (a run of ``n`` cards) or ``deal``.

    ``stock>tK`` is ``Move("stock", "tK")``; ``deal`` is :data:`DEAL`.
    """

    src: str
    dst: str
    n: int = 1

    def __str__(self) -> str:
        if self.src == "deal":
            return "deal"
        if self.n > 1:
            return f"{self.src}>{self.dst}x{self.n}"
        return f"{self.src}>{self.dst}"

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"

    @property
    def is_deal(self) -> bool:
        return self.src == "deal"

    @staticmethod
    def parse(text: str) -> Move:
        """Read a move text of RULES §0; ValueError says what is wrong."""
        t = text.strip().lower().replace(" ", "")
        if t == "deal":
            return DEAL
        if t.count(">") != 1:
            raise ValueError(f"not a move: {text!r} (write e.g. t3>f1, t2>t5x3, stock>t1 or deal)")
        src, dst = t.split(">")
        n = 1
        if "x" in dst:
            dst, _, count = dst.partition("x")
            if not count.isdigit() or int(count) < 2:
                raise ValueError(f"not a move: {text!r} (a run is written SRC>DSTxN with N ≥ 2)")
            n = int(count)
        for pile in (src, dst):
            if not _is_pile_id(pile):
                raise ValueError(f"not a move: {text!r} ({pile!r} is not a pile id such as t1, f2, "
                                 "r3, c1, waste or stock)")
        return Move(src, dst, n)


DEAL = Move("deal", "", 0)


def _is_pile_id(pile: str) -> bool:
    if pile in ("stock", "waste"):
        return True
    return len(pile) >= 2 and pile[0] in "ftrc" and pile[1:].isdigit() and int(pile[1:]) >= 1 \
        and pile[1] != "0"
