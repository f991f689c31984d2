"""Deals of every game with the solver's verdicts, re-solved (tests/fixtures/solver_fixtures.json).

The fixtures were found once by ``tests/fixtures/make_solver_fixtures.py``: for each of the
seven games a simple win, a complex win and a loss (or a note saying that none was proven
in the deals scanned), each with the node budget (``max_nodes``) that decided it.  With a
node budget and no time limit the solver's schedule is deterministic, so re-solving with
that budget must give the same verdict on any machine; a win's line is replayed through the
engine.  Fixtures that took more than :data:`DEFAULT_SECONDS` to decide are ``slow``
(run them with ``-m slow``).  The reduced-game fixtures are instant; their losses are also
confirmed by an exhaustive search without pruning.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from fixtures.make_solver_fixtures import exhaustive_lost
from helpers import PART_A
from patience import Game
from patience.game import rules_for
from patience.games import get_spec
from patience.rules.spec import GameSpec
from patience.solver import LOST, WON, solver_for

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "solver_fixtures.json"
DATA: dict[str, Any] = json.loads(FIXTURES.read_text())
#: Fixtures decided within this many seconds run by default; the others are ``slow``.
DEFAULT_SECONDS = 3.0
KINDS = ("simple-win", "complex-win", "loss")


def slow_selected(config: pytest.Config) -> bool:
    """``slow`` tests run only when asked for (``-m slow``)."""
    expr = str(config.getoption("markexpr") or "")
    return "slow" in expr and "not slow" not in expr


def real_cases() -> list[Any]:
    out = []
    for game, entry in DATA["games"].items():
        for kind, fx in entry["fixtures"].items():
            slow = fx["seconds"] > DEFAULT_SECONDS
            marks = [pytest.mark.timeout(max(120, int(10 * fx["seconds"])))]
            if slow:
                marks.append(pytest.mark.slow)
            out.append(pytest.param(game, kind, fx, id=f"{game}-{kind}-deal-{fx['deal']}",
                                    marks=marks))
    return out


def reduced_spec(fx: dict[str, Any]) -> GameSpec:
    spec = get_spec(fx["game"]).reduced(**fx["reduced"])
    if fx["extra"]:
        tag = ",".join(f"{k}={v}" for k, v in fx["extra"].items())
        spec = dataclasses.replace(spec, id=f"{spec.id}[{tag}]", **fx["extra"])
    return spec


def check(spec: GameSpec, deal: int, status: str, max_nodes: int) -> None:
    g = Game(spec, deal=deal)
    r = solver_for(spec).solve(g.state, max_nodes=max_nodes)
    assert r.status == status, f"{spec.id} deal {deal}: {r} (recorded: {status})"
    if status == WON:
        for m in r.moves:
            g.play(m)
        assert g.is_won
    else:
        assert r.moves == [] and r.proof


# ------------------------------------------------------------------ the file
def test_fixtures_cover_every_game() -> None:
    assert set(DATA["games"]) == set(PART_A)
    for game, entry in DATA["games"].items():
        fixtures, notes = entry["fixtures"], entry["notes"]
        assert set(fixtures) <= set(KINDS)
        # a loss, or the recorded fact that none was proven (likewise for wins)
        assert "loss" in fixtures or any("no proven loss" in n for n in notes), game
        assert "simple-win" in fixtures or any("no proven win" in n for n in notes), game
        for kind, fx in fixtures.items():
            assert fx["status"] == (LOST if kind == "loss" else WON)
            assert fx["max_nodes"] >= 1 and fx["nodes"] >= 1  # (checks are periodic:
            # a search may pass its node budget by a little before it notices)
        if "complex-win" in fixtures:
            assert fixtures["complex-win"]["nodes"] >= fixtures["simple-win"]["nodes"]
    assert {fx["game"] for fx in DATA["reduced"]} == set(PART_A)
    for game in PART_A:
        assert {fx["status"] for fx in DATA["reduced"] if fx["game"] == game} == {WON, LOST}


def test_default_fixtures_stay_within_twenty_seconds_a_game() -> None:
    for game, entry in DATA["games"].items():
        quick = [fx["seconds"] for fx in entry["fixtures"].values()
                 if fx["seconds"] <= DEFAULT_SECONDS]
        assert sum(quick) <= 20, game


# ------------------------------------------------------------ the verdicts
@pytest.mark.parametrize(("game", "kind", "fx"), real_cases())
def test_real_fixture_is_solved_again(game: str, kind: str, fx: dict[str, Any],
                                      request: pytest.FixtureRequest) -> None:
    if fx["seconds"] > DEFAULT_SECONDS and not slow_selected(request.config):
        pytest.skip(f"slow ({fx['seconds']:.0f} s): run with -m slow")
    check(get_spec(game), fx["deal"], fx["status"], fx["max_nodes"])


@pytest.mark.parametrize("fx", DATA["reduced"], ids=lambda fx: f"{fx['id']}-deal-{fx['deal']}")
def test_reduced_fixture_is_solved_again(fx: dict[str, Any]) -> None:
    spec = reduced_spec(fx)
    assert spec.id == fx["id"]
    check(spec, fx["deal"], fx["status"], fx["max_nodes"])
    rules = rules_for(spec)
    if fx["status"] == LOST:
        assert exhaustive_lost(rules, rules.initial_state(fx["deal"]))
