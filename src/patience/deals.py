"""Numbered deals: our own seeded shuffle, the same on every platform.

The algorithm (documented in ``docs/deals.md``, pinned by golden tests):

* the generator is SplitMix64 seeded with the deal number;
* a bounded draw ``below(n)`` rejects the top ``2**64 mod n`` outputs, so it
  is exactly uniform;
* the shuffle is Fisher–Yates from the end: for ``i`` from ``len - 1`` down to
  1, swap item ``i`` with item ``below(i + 1)``.

Nothing here depends on Python's ``random`` module or hash seeds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

MASK64 = (1 << 64) - 1
MAX_DEAL = MASK64


class SplitMix64:
    """Steele, Lea and Flood's SplitMix64: 64-bit state, 64-bit outputs."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)``."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next()
            if x < limit:
                return x % n


def check_deal_number(deal: int) -> int:
    if isinstance(deal, bool) or not isinstance(deal, int):
        raise ValueError(f"a deal number is a whole number, not {deal!r}")
    if not 0 <= deal <= MAX_DEAL:
        raise ValueError(f"deal number {deal} is out of range 0..{MAX_DEAL}")
    return deal


def shuffled(items: Sequence[T], deal: int) -> list[T]:
    """``items`` shuffled by deal number ``deal``."""
    rng = SplitMix64(check_deal_number(deal))
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = rng.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out
