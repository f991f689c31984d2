"""The solver endpoints (hint, winnable, auto-finish, winnable deals) and the solver pool's
limits: a hard deadline per request, one request per player, moves served meanwhile."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

import patience
from patience.solver import solve
from patience.web.app import create_app
from patience.web.solver_service import SolverPool, SolverTimeout
from patience.web.store import Unavailable


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FastAPI]:
    db = tmp_path_factory.mktemp("solver") / "web.db"
    app = create_app(f"sqlite:///{db}", solver_seconds=1.5)
    with TestClient(app):  # one lifespan (and one solver worker) for the module
        yield app


def client_of(app: FastAPI) -> TestClient:
    return TestClient(app)


def start(client: TestClient, game: str, deal: int | None, **extra: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"game": game, **extra}
    if deal is not None:
        body["deal"] = deal
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


@pytest.fixture(scope="module")
def won_deal() -> int:
    for deal in (3, 7, *range(1, 40)):
        if solve(patience.new_game("four-seasons", deal=deal), max_seconds=1).status == "won":
            return deal
    raise AssertionError("no quickly winnable Four Seasons deal")


@pytest.fixture(scope="module")
def lost_deal() -> int:
    for deal in range(1, 40):
        if solve(patience.new_game("corners", deal=deal), max_seconds=1).status == "lost":
            return deal
    raise AssertionError("no quickly lost Corners deal")


def test_hint_gives_a_move_on_a_winning_line_and_follows_it(app: FastAPI,
                                                            won_deal: int) -> None:
    c = client_of(app)
    s = start(c, "four-seasons", won_deal)
    h = c.get(f"/api/games/{s['id']}/hint").json()
    assert h["status"] == "won" and h["move"] in s["legal_moves"] and h["version"] == 0
    assert "winning line" in h["message"]
    s = c.post(f"/api/games/{s['id']}/moves", json={"move": h["move"], "version": 0}).json()
    t = time.perf_counter()
    h2 = c.get(f"/api/games/{s['id']}/hint").json()
    assert time.perf_counter() - t < 0.5  # the remembered line: no solving
    assert h2["status"] == "won" and h2["move"] in s["legal_moves"] and h2["version"] == 1


def test_winnable_and_autofinish_play_out_the_rest(app: FastAPI, won_deal: int) -> None:
    c = client_of(app)
    s = start(c, "four-seasons", won_deal)
    w = c.get(f"/api/games/{s['id']}/winnable").json()
    assert w == {"status": "won", "winnable": True, "version": 0,
                 "message": "yes: this position can still be won"}
    r = c.post(f"/api/games/{s['id']}/autofinish", json={"version": 0})
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["status"] == "won" and out["played"] > 0
    assert out["state"]["status"] == "won" and out["state"]["finished"]
    assert out["state"]["moves"] == out["played"] and out["state"]["version"] == 1
    assert c.get("/api/stats").json()["won"] == 1
    # a finished game gets no more solver help
    assert c.get(f"/api/games/{s['id']}/hint").status_code == 409
    assert c.post(f"/api/games/{s['id']}/autofinish", json={"version": 1}).status_code == 409


def test_a_stale_autofinish_gets_409(app: FastAPI, won_deal: int) -> None:
    c = client_of(app)
    s = start(c, "four-seasons", won_deal)
    s = c.post(f"/api/games/{s['id']}/moves",
               json={"move": s["legal_moves"][0], "version": 0}).json()
    r = c.post(f"/api/games/{s['id']}/autofinish", json={"version": 0})
    assert r.status_code == 409
    assert c.get(f"/api/games/{s['id']}").json()["moves"] == 1


def test_a_lost_position_is_reported_lost(app: FastAPI, lost_deal: int) -> None:
    c = client_of(app)
    s = start(c, "corners", lost_deal)
    assert c.get(f"/api/games/{s['id']}/winnable").json()["winnable"] is False
    h = c.get(f"/api/games/{s['id']}/hint").json()
    assert h["status"] == "lost" and h["move"] is None and "lost" in h["message"]
    out = c.post(f"/api/games/{s['id']}/autofinish", json={"version": 0}).json()
    assert out["status"] == "lost" and out["played"] == 0
    assert out["state"]["status"] == "playing" and out["state"]["version"] == 0


def test_winnable_deals_only(app: FastAPI) -> None:
    c = client_of(app)
    s = start(c, "four-seasons", None, winnable=True)
    assert s["winnable_only"]
    from sqlalchemy import select

    from patience.web.db import WinnableDeal

    with app.state.services.store.session() as session:
        known = set(session.scalars(select(WinnableDeal.deal)
                                    .where(WinnableDeal.game == "four-seasons")))
    from patience.odds_archive import won_deals

    # proven by the solver: a published win, or one found now or before
    assert s["deal"] in known or s["deal"] in won_deals("four-seasons")
    # a given deal number wins over "winnable"
    assert start(c, "four-seasons", 5, winnable=True)["deal"] == 5


def test_winnable_falls_back_to_known_deals_then_says_so(app: FastAPI,
                                                         monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    c = client_of(app)
    pool = app.state.services.pool

    async def nothing_found(*args: Any, **kwargs: Any) -> None:
        return None

    monkeypatch.setattr(pool, "run", nothing_found)
    monkeypatch.setattr("patience.odds_archive.won_deals", lambda game: [])
    r = c.post("/api/games", json={"game": "simplicity", "winnable": True})
    assert r.status_code == 503 and "no winnable deal" in r.json()["detail"]
    app.state.services.store.add_winnable("simplicity", 4242, "test")
    s = start(c, "simplicity", None, winnable=True)
    assert s["deal"] == 4242 and s["winnable_only"]


def test_winnable_offers_the_published_wins_first(app: FastAPI,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Deals the published runs won are offered at once, those the player has not played
    first; once the player has played them all, the solver looks for another."""
    c = client_of(app)
    pool = app.state.services.pool
    asked: list[str] = []

    async def found(*args: Any, **kwargs: Any) -> int:
        asked.append(args[0])
        return 5

    monkeypatch.setattr(pool, "run", found)
    monkeypatch.setattr("patience.odds_archive.won_deals",
                        lambda game: [77, 78] if game == "jacks-in-the-box" else [])
    deals = {start(c, "jacks-in-the-box", None, winnable=True)["deal"] for _ in range(2)}
    assert deals == {77, 78} and not asked
    s = start(c, "jacks-in-the-box", None, winnable=True)
    assert s["deal"] == 5 and s["winnable_only"] and asked == ["winnable_deal"]


def test_winnable_offers_a_published_win_again_when_nothing_new_is_found(
        app: FastAPI, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where winnable deals are rare (Cast Out Nines: one known in 10,000), a player who
    has played every published one, and for whom the search on demand finds none, gets one
    of them again rather than an error."""
    c = client_of(app)
    pool = app.state.services.pool
    asked: list[str] = []

    async def nothing_found(*args: Any, **kwargs: Any) -> None:
        asked.append(args[0])
        return None

    monkeypatch.setattr(pool, "run", nothing_found)
    monkeypatch.setattr("patience.odds_archive.won_deals",
                        lambda game: [30] if game == "cast-out-nines" else [])
    assert start(c, "cast-out-nines", None, winnable=True)["deal"] == 30 and not asked
    s = start(c, "cast-out-nines", None, winnable=True)
    assert s["deal"] == 30 and s["winnable_only"] and asked == ["winnable_deal"]


def test_moves_are_served_while_the_solver_works_and_one_request_per_player(
        app: FastAPI) -> None:
    solver_user, player = client_of(app), client_of(app)
    hard = start(solver_user, "czarina", 1)  # czarina deals take the solver a while
    answers: list[int] = []

    def ask() -> None:
        answers.append(solver_user.get(f"/api/games/{hard['id']}/winnable").status_code)

    thread = threading.Thread(target=ask)
    thread.start()
    time.sleep(0.3)
    # the same player may not start a second solver request meanwhile
    second = solver_user.get(f"/api/games/{hard['id']}/hint")
    s = start(player, "fours-up", 7)
    worst = 0.0
    for _ in range(8):
        if not s["legal_moves"]:
            break
        t = time.perf_counter()
        r = player.post(f"/api/games/{s['id']}/moves",
                        json={"move": s["legal_moves"][-1], "version": s["version"]})
        worst = max(worst, time.perf_counter() - t)
        assert r.status_code == 200
        s = r.json()
    thread.join(30)
    assert answers == [200]
    assert worst < 1.0
    assert second.status_code in (429, 200)  # 200 only if the first had already finished
    if second.status_code == 429:
        assert "still running" in second.json()["detail"]


def test_a_worker_past_its_deadline_is_stopped_and_replaced() -> None:
    pool = SolverPool(1, seconds=0.1, grace=0.4)
    real = pool.worker_command
    # a worker that never answers, in place of a search that overruns its budget
    pool.worker_command = [sys.executable, "-c",
                           "import sys, time; sys.stdin.readline(); time.sleep(60)"]
    pool.start()
    pool.worker_command = real  # what replaces it is a real worker
    data = patience.new_game("four-seasons", deal=3).to_dict()
    try:
        t = time.perf_counter()
        with pytest.raises(SolverTimeout):
            pool.call("solve", (data, 1.0), 0.5)
        assert time.perf_counter() - t < 5
        stalled = [w.process for w in pool._all]
        assert pool.call("solve", (data, 1.0), 10)["status"] in ("won", "lost", "unknown")
        with pytest.raises(Unavailable, match="solver failed"):
            pool.call("solve", ({"game": "nope", "deal": 1, "moves": []}, 1.0), 10)
    finally:
        pool.close()
    assert all(p.poll() is not None for p in stalled)


def test_winnable_only_is_refused_where_every_measured_deal_is_lost(
        app: FastAPI, monkeypatch: pytest.MonkeyPatch) -> None:
    import patience.odds_report as report
    from patience.web.pages import table_config

    measured = {"thoughtful": {"won": 0, "lost": 10000, "unknown": 0, "deals": 10000}}
    monkeypatch.setattr(report, "measured", lambda g: measured if g == "corners" else {})
    pool = app.state.services.pool

    async def must_not_run(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the solver was asked to look for a winnable deal")

    monkeypatch.setattr(pool, "run", must_not_run)
    c = client_of(app)
    r = c.post("/api/games", json={"game": "corners", "winnable": True})
    assert r.status_code == 404
    assert "no winnable deal of Corners" in r.json()["detail"]
    assert "10,000 deals" in r.json()["detail"]
    assert "10,000 deals" in table_config(patience.get_spec("corners"), None)["noWinnable"]
    assert table_config(patience.get_spec("simplicity"), None)["noWinnable"] is None
    # any deal may still be played
    assert start(c, "corners", None)["game"] == "corners"
    # where the solver won none of the deals it measured, no winnable deal is known either
    measured.update(thoughtful={"won": 0, "lost": 2, "unknown": 223, "deals": 225})
    r = c.post("/api/games", json={"game": "corners", "winnable": True})
    assert r.status_code == 404 and "won none of the 225 deals" in r.json()["detail"]
    assert "223 of them undecided" in table_config(patience.get_spec("corners"),
                                                   None)["noWinnable"]
    # too few deals, or one won: the option stays
    for row in ({"won": 0, "lost": 0, "unknown": 40, "deals": 40},
                {"won": 1, "lost": 0, "unknown": 224, "deals": 225}):
        measured.update(thoughtful=row)
        assert table_config(patience.get_spec("corners"), None)["noWinnable"] is None
