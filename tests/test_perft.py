"""Perft: the number of distinct move sequences of length 1 … 4 from deals 1, 2, 3 of
every game, against the committed counts in ``tests/perft/`` (depth 4 everywhere: the
whole recomputation takes about two seconds). The counts are also checked against an
independent model of RULES.md in ``test_reference.py``; the first plies of Four Seasons
deal 1 are worked out by hand below.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest

from helpers import GAME_IDS, PART_A, rules_of

PERFT_DIR = Path(__file__).parent / "perft"


def load_make_perft() -> ModuleType:
    spec = importlib.util.spec_from_file_location("perft_generator", PERFT_DIR / "make_perft.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


make_perft = load_make_perft()
FILES = sorted(PERFT_DIR.glob("*.json"))


def test_every_commissioned_game_has_perft_counts() -> None:
    # RULES Part A (A1–A7): every commissioned game has a perft file for deals 1, 2, 3
    games = {json.loads(f.read_text("utf-8"))["game"] for f in FILES}
    assert set(PART_A) <= games <= set(GAME_IDS)


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_perft_counts(path: Path) -> None:
    # RULES §0 Legal moves (every legal move listed, pointless ones included; deal is a move;
    # automatic moves belong to the move that forced them), per game RULES A1–A7
    data = json.loads(path.read_text("utf-8"))
    assert path.stem == data["game"]
    rules = rules_of(data["game"])
    depth = max(data["depths"])
    assert data["depths"] == list(range(1, depth + 1)) and depth == 4
    assert set(data["deals"]) == {"1", "2", "3"}
    for deal, expected in data["deals"].items():
        assert make_perft.counts(rules, int(deal), depth) == expected, f"deal {deal}"


def test_four_seasons_deal_1_by_hand() -> None:
    # RULES A1: deal 1 is t1 9D, t2 5S, t3 3C, t4 5C, t5 6C, f1 JS (b = J), stock top 6S.
    # Ply 1: t2>t5 and t4>t5 (a Five on the 6C) and deal: 3.
    # Ply 2: after t2>t5 the space t2 takes t1, t3, t4 or t5's top or the stock's next card,
    # or deal: 6; after t4>t5 likewise 6; after deal the 6S on the waste goes nowhere, so
    # t2>t5, t4>t5 and deal: 3. Total 15.
    rules = rules_of("four-seasons")
    assert make_perft.counts(rules, 1, 2) == [3, 15]
