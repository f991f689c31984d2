"""The `patience` command (placeholder entry until the terminal front end lands)."""

from __future__ import annotations


def main(argv: list[str] | None = None) -> int:
    return 0
