"""The game API through an in-process client: identity, games, errors, replay, statistics,
catalogue, feedback and restore codes.  (The solver endpoints: test_web_solver.py.)"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

import patience
from patience.solver import solve
from patience.web.app import create_app
from patience.web.players import COOKIE, normalize_restore_code
from patience.web.store import FEEDBACK_LIMIT

NewClient = Callable[[], TestClient]


def start(client: TestClient, game: str = "fours-up", deal: int | None = 7,
          **extra: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"game": game, **extra}
    if deal is not None:
        body["deal"] = deal
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    state: dict[str, Any] = r.json()
    return state


def move(client: TestClient, state: dict[str, Any], text: str, status: int = 200
         ) -> dict[str, Any]:
    r = client.post(f"/api/games/{state['id']}/moves",
                    json={"move": text, "version": state["version"]})
    assert r.status_code == status, r.text
    out: dict[str, Any] = r.json()
    return out


def action(client: TestClient, state: dict[str, Any], name: str, status: int = 200
           ) -> dict[str, Any]:
    r = client.post(f"/api/games/{state['id']}/{name}", json={"version": state["version"]})
    assert r.status_code == status, r.text
    out: dict[str, Any] = r.json()
    return out


@pytest.fixture(scope="module")
def four_seasons_win() -> tuple[int, list[str]]:
    """A Four Seasons deal with a winning line (the solver decides it at once)."""
    for deal in (3, 7, *range(1, 40)):  # 3 and 7 are decided in a few milliseconds
        result = solve(patience.new_game("four-seasons", deal=deal), max_seconds=1)
        if result.status == "won":
            return deal, list(result.moves)
    raise AssertionError("no quickly winnable Four Seasons deal among 1..39")


# ------------------------------------------------------------------ identity
def test_first_request_sets_an_httponly_samesite_player_cookie(client: TestClient) -> None:
    r = client.get("/api/catalogue")
    assert r.status_code == 200
    cookie = r.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}=")
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Path=/" in cookie
    assert "Secure" not in cookie  # plain http here; set over https
    # with the cookie, no new identity is handed out
    r2 = client.get("/api/stats")
    assert "set-cookie" not in r2.headers
    assert client.cookies[COOKIE] == cookie.split(";")[0].split("=", 1)[1]


def test_a_malformed_cookie_is_replaced(client: TestClient) -> None:
    client.cookies.set(COOKIE, "not a valid id!")
    r = client.get("/api/players/me")
    assert r.status_code == 200
    assert r.headers["set-cookie"].startswith(f"{COOKIE}=")
    assert r.json() == {"created_at": None, "games": 0, "restore_code": None}


def test_same_cookie_same_player_other_cookie_other_player(new_client: NewClient) -> None:
    alice, bob = new_client(), new_client()
    game = start(alice)
    assert alice.get(f"/api/games/{game['id']}").status_code == 200
    assert [g["id"] for g in alice.get("/api/games").json()["games"]] == [game["id"]]
    assert bob.get("/api/games").json()["games"] == []
    assert alice.get("/api/players/me").json()["games"] == 1


# --------------------------------------------------------------------- games
def test_new_game_state_hides_the_stock_order(client: TestClient) -> None:
    state = start(client, "fours-up", 7)
    g = patience.new_game("fours-up", deal=7)
    expected = g.piles
    stock = expected.pop("stock")
    assert "stock" not in state["piles"]
    assert state["piles"] == expected
    assert state["stock_count"] == len(stock) == 90
    assert state["legal_moves"] == [str(m) for m in g.legal_moves()]
    assert state["status"] == "playing" and not state["finished"]
    assert (state["moves"], state["version"], state["deal"]) == (0, 0, 7)
    assert state["base_rank"] == g.base_rank and state["passes_left"] == g.passes_left
    assert not state["can_undo"] and not state["can_redo"]
    assert state["name"] == "Fours Up" and state["game"] == "fours-up"
    assert isinstance(state["id"], str) and len(state["id"]) >= 16
    assert state["elapsed_seconds"] >= 0


def test_game_ids_are_random_and_names_and_aliases_work(client: TestClient) -> None:
    a = start(client, "Fours Up", 1)
    b = start(client, "vanishing cross", 1)
    assert a["game"] == "fours-up" and b["game"] == "four-seasons"
    assert a["id"] != b["id"]
    random_deal = start(client, "corners", None)
    assert 1 <= random_deal["deal"] <= 1_000_000_000


def test_unknown_game_kind_is_refused_with_the_list_of_games(client: TestClient) -> None:
    r = client.post("/api/games", json={"game": "fourseasons-x"})
    assert r.status_code == 422
    detail = r.json()["detail"]
    assert "fourseasons-x" in detail and "fours-up" in detail and "quadrennial" in detail


@pytest.mark.parametrize("body", [
    {}, {"game": ""}, {"game": "fours-up", "deal": -1}, {"game": "fours-up", "deal": 2**60},
    {"game": "fours-up", "deal": "seven"}, {"game": "fours-up", "colour": "red"},
    {"game": 12}, [1, 2],
])
def test_malformed_new_game_requests_get_422_with_a_message(client: TestClient,
                                                            body: Any) -> None:
    r = client.post("/api/games", json=body)
    assert r.status_code == 422
    assert r.json()["detail"] and isinstance(r.json()["errors"], list)


def test_play_deal_undo_redo_restart(client: TestClient) -> None:
    s0 = start(client)
    s1 = move(client, s0, "t6>f1")
    assert s1["version"] == 1 and s1["moves"] == 1 and s1["piles"]["f1"] == ["4C", "5C"]
    assert s1["can_undo"] and not s1["can_redo"]
    s2 = move(client, s1, "deal")
    assert s2["stock_count"] == s1["stock_count"] - 1 and len(s2["piles"]["waste"]) == 1
    s3 = action(client, s2, "undo")
    assert s3["piles"] == s1["piles"] and s3["can_redo"] and s3["version"] == 3
    s4 = action(client, s3, "redo")
    assert s4["piles"] == s2["piles"] and not s4["can_redo"]
    s5 = action(client, s4, "restart")
    assert s5["piles"] == s0["piles"] and s5["moves"] == 0 and not s5["can_undo"]
    assert s5["stock_count"] == s0["stock_count"]
    record = client.get(f"/api/games/{s0['id']}/record").json()
    assert record["moves"] == [] and record["version"] == 5


def test_illegal_and_malformed_moves_get_400_and_change_nothing(client: TestClient) -> None:
    s0 = start(client)
    r = client.post(f"/api/games/{s0['id']}/moves", json={"move": "t6>f2", "version": 0})
    assert r.status_code == 400
    assert r.json()["detail"].startswith("illegal move t6>f2:")
    r = client.post(f"/api/games/{s0['id']}/moves", json={"move": "hello", "version": 0})
    assert r.status_code == 400 and "not a move" in r.json()["detail"]
    assert action(client, s0, "undo", 400)["detail"].endswith("there is no move to undo")
    assert action(client, s0, "redo", 400)["detail"].endswith("there is no move to redo")
    assert action(client, s0, "restart", 400)["detail"]
    assert client.get(f"/api/games/{s0['id']}").json()["version"] == 0


def test_a_stale_version_gets_409_and_loses_nothing(client: TestClient) -> None:
    s0 = start(client)
    s1 = move(client, s0, "t6>f1")
    stale = move(client, s0, "t4>t1", 409)  # made from version 0, the game is at 1
    assert "version 0" in stale["detail"] and "version 1" in stale["detail"]
    assert action(client, s0, "undo", 409)["detail"]
    now = client.get(f"/api/games/{s0['id']}").json()
    assert now == {**s1, "elapsed_seconds": now["elapsed_seconds"]}
    move(client, s1, "t4>t1")  # from the current version it works


def test_concurrent_requests_from_one_new_player_and_on_one_game(client: TestClient) -> None:
    from concurrent.futures import ThreadPoolExecutor

    client.get("/api/health")  # a cookie, but no player row yet
    with ThreadPoolExecutor(6) as pool:
        codes = list(pool.map(lambda g: client.post("/api/games", json={
            "game": g, "deal": 7}).status_code, [s.id for s in patience.games()][:6]))
    assert codes == [201] * 6
    s0 = start(client)
    with ThreadPoolExecutor(4) as pool:
        answers = list(pool.map(lambda _: client.post(
            f"/api/games/{s0['id']}/moves", json={"move": "t6>f1", "version": 0}).status_code,
            range(4)))
    assert sorted(answers) == [200, 409, 409, 409]
    assert client.get(f"/api/games/{s0['id']}/record").json()["moves"] == ["t6>f1"]


def test_resign_finishes_the_game(client: TestClient) -> None:
    s0 = start(client)
    s1 = move(client, s0, "t6>f1")
    done = action(client, s1, "resign")
    assert done["status"] == "resigned" and done["finished"] and done["legal_moves"] == []
    assert done["finished_at"] is not None and not done["can_undo"]
    assert "over" in move(client, done, "t4>t1", 409)["detail"]
    assert action(client, done, "resign", 409)["detail"]


def test_a_new_deal_of_the_same_game_ends_the_unfinished_one(client: TestClient) -> None:
    first = start(client, "fours-up", 7)
    other = start(client, "quadrennial", 7)
    second = start(client, "fours-up", 8)
    assert client.get(f"/api/games/{first['id']}").json()["status"] == "resigned"
    assert client.get(f"/api/games/{other['id']}").json()["status"] == "playing"
    assert client.get(f"/api/games/{second['id']}").json()["status"] == "playing"
    unfinished = client.get("/api/games", params={"finished": False}).json()["games"]
    assert {g["id"] for g in unfinished} == {other["id"], second["id"]}
    finished = client.get("/api/games", params={"finished": True}).json()["games"]
    assert [(g["id"], g["deal"]) for g in finished] == [(first["id"], 7)]


def test_unknown_game_ids_get_404(client: TestClient) -> None:
    for path in ("/api/games/nope", "/api/games/nope/record", "/api/games/nope/hint",
                 "/api/games/nope/winnable"):
        r = client.get(path)
        assert r.status_code == 404, path
        assert "nope" in r.json()["detail"]
    for name in ("moves", "undo", "redo", "restart", "resign", "autofinish"):
        r = client.post(f"/api/games/nope/{name}", json={"version": 0, "move": "deal"}
                        if name == "moves" else {"version": 0})
        assert r.status_code == 404, name


def test_another_players_game_is_404_for_every_endpoint(new_client: NewClient) -> None:
    alice, mallory = new_client(), new_client()
    game = start(alice)
    gid = game["id"]
    for path in (f"/api/games/{gid}", f"/api/games/{gid}/record", f"/api/games/{gid}/hint",
                 f"/api/games/{gid}/winnable"):
        assert mallory.get(path).status_code == 404, path
    for name in ("moves", "undo", "redo", "restart", "resign", "autofinish"):
        body = {"version": 0, "move": "t6>f1"} if name == "moves" else {"version": 0}
        r = mallory.post(f"/api/games/{gid}/{name}", json=body)
        assert r.status_code == 404, name
    r = mallory.post("/api/feedback", json={"message": "hi", "game_id": gid})
    assert r.status_code == 404
    assert mallory.get("/api/games").json()["games"] == []
    # ... and Alice's game is untouched
    now = alice.get(f"/api/games/{gid}").json()
    assert now == {**game, "elapsed_seconds": now["elapsed_seconds"]}


# -------------------------------------------------------------------- replay
def test_stored_games_replay_after_a_server_restart(db_url: str) -> None:
    with TestClient(create_app(db_url)) as c1:
        s = start(c1)
        for text in ("t6>f1", "t4>t1", "deal", "deal"):
            s = move(c1, s, text)
        s = action(c1, s, "undo")  # leaves one move to redo
        cookie = c1.cookies[COOKIE]
        record = c1.get(f"/api/games/{s['id']}/record").json()
    assert record["moves"] == ["t6>f1", "t4>t1", "deal"] and record["redo"] == ["deal"]
    rebuilt = patience.Game.from_dict(record)
    with TestClient(create_app(db_url)) as c2:  # a new process: nothing cached
        c2.cookies.set(COOKIE, cookie)
        again = c2.get(f"/api/games/{s['id']}").json()
        assert again == {**s, "elapsed_seconds": again["elapsed_seconds"]}
        piles = rebuilt.piles
        del piles["stock"]
        assert again["piles"] == piles
        redone = action(c2, again, "redo")
        assert redone["moves"] == 4 and not redone["can_redo"]


def test_record_of_a_game_replays_to_its_state(client: TestClient) -> None:
    s = start(client, "quadrennial", 3)
    for _ in range(5):
        s = move(client, s, s["legal_moves"][0])
    record = client.get(f"/api/games/{s['id']}/record").json()
    assert len(record["moves"]) == 5 and record["game"] == "quadrennial" and record["deal"] == 3
    g = patience.Game.from_dict(record)
    assert [str(m) for m in g.legal_moves()] == s["legal_moves"]


# ----------------------------------------------------------------- statistics
def test_statistics_count_wins_losses_streaks_best_time_and_fewest_moves(
        client: TestClient, four_seasons_win: tuple[int, list[str]]) -> None:
    deal, line = four_seasons_win

    def win() -> dict[str, Any]:
        s = start(client, "four-seasons", deal)
        for text in line:
            s = move(client, s, text)
        return s

    won = win()
    assert won["status"] == "won" and won["finished"] and won["legal_moves"] == []
    assert move(client, won, line[0], 409)["detail"]
    action(client, start(client, "four-seasons", deal), "resign")
    win()
    win()
    start(client, "fours-up", 7)  # unfinished: not counted
    stats = client.get("/api/stats").json()
    fs = next(g for g in stats["games"] if g["game"] == "four-seasons")
    assert (fs["played"], fs["won"], fs["current_streak"], fs["best_streak"]) == (4, 3, 2, 2)
    assert fs["win_rate"] == pytest.approx(0.75)
    assert fs["fewest_moves"] == len(line)
    assert fs["best_time_seconds"] is not None and fs["best_time_seconds"] >= 0
    fu = next(g for g in stats["games"] if g["game"] == "fours-up")
    assert fu == {"game": "fours-up", "name": "Fours Up", "played": 0, "won": 0,
                  "win_rate": None, "current_streak": 0, "best_streak": 0,
                  "best_time_seconds": None, "fewest_moves": None}
    assert (stats["played"], stats["won"]) == (4, 3)
    assert {g["game"] for g in stats["games"]} == {i.id for i in patience.games()}
    history = client.get("/api/games", params={"finished": True, "game": "four-seasons"})
    statuses = [g["status"] for g in history.json()["games"]]
    assert sorted(statuses) == ["resigned", "won", "won", "won"]
    assert all(g["deal"] == deal for g in history.json()["games"])
    assert client.get("/api/games", params={"limit": 2}).json()["games"].__len__() == 2


def test_history_filters_are_checked(client: TestClient) -> None:
    assert client.get("/api/games", params={"game": "nope"}).status_code == 404
    assert client.get("/api/games", params={"limit": 0}).status_code == 422
    assert client.get("/api/games", params={"finished": "maybe"}).status_code == 422


# ------------------------------------------------------------------ catalogue
def test_catalogue_lists_every_game_with_metadata(client: TestClient) -> None:
    games = client.get("/api/catalogue").json()["games"]
    assert [g["id"] for g in games] == [i.id for i in patience.games()]
    fu = next(g for g in games if g["id"] == "fours-up")
    assert fu["decks"] == 2 and fu["odds"] and fu["play_minutes"] > 0
    quad = next(g for g in games if g["id"] == "quadrennial")
    assert [r["name"] for r in quad["related"]][:2] == ["Acquaintance", "Leap Year"]
    assert {"id": "fours-up", "name": "Fours Up"} in quad["related"]


def test_catalogue_entry_has_the_rules_text(client: TestClient) -> None:
    from patience.rules_text import rules_text

    r = client.get("/api/catalogue/fours-up")
    assert r.status_code == 200
    assert r.json()["rules"] == rules_text("fours-up")
    assert client.get("/api/catalogue/Corner Card").json()["id"] == "four-seasons"
    missing = client.get("/api/catalogue/fourseasons-x")
    assert missing.status_code == 404 and "fours-up" in missing.json()["detail"]


# ------------------------------------------------------------------- feedback
def test_feedback_is_stored_with_the_position_and_rate_limited(client: TestClient,
                                                               app: FastAPI) -> None:
    s = move(client, start(client), "t6>f1")
    r = client.post("/api/feedback", json={"message": "the 5C looks odd", "game_id": s["id"]},
                    headers={"user-agent": "test-browser"})
    assert r.status_code == 201 and r.json()["id"] >= 1
    r = client.post("/api/feedback", json={"message": "an idea", "game": "corners"})
    assert r.status_code == 201
    for _ in range(FEEDBACK_LIMIT - 2):
        assert client.post("/api/feedback", json={"message": "more"}).status_code == 201
    r = client.post("/api/feedback", json={"message": "one too many"})
    assert r.status_code == 429 and "minute" in r.json()["detail"]
    assert int(r.headers["retry-after"]) > 0
    items = app.state.services.store.feedback()
    assert len(items) == FEEDBACK_LIMIT
    first = items[-1]
    assert (first.game, first.deal, first.moves, first.game_id, first.user_agent) == (
        "fours-up", 7, '["t6>f1"]', s["id"], "test-browser")
    assert (items[-2].game, items[-2].deal) == ("corners", None)


@pytest.mark.parametrize("body", [
    {"message": ""}, {"message": "   "}, {"message": "x" * 2001},
    {"message": "hi", "game": "nope"}, {"message": "hi", "moves": ["x" * 40]},
    {"message": "hi", "extra": 1},
])
def test_malformed_feedback_gets_422(client: TestClient, body: dict[str, Any]) -> None:
    r = client.post("/api/feedback", json=body)
    assert r.status_code == 422 and r.json()["detail"]


def test_feedback_of_2000_characters_is_accepted(client: TestClient) -> None:
    assert client.post("/api/feedback", json={"message": "x" * 2000}).status_code == 201


# -------------------------------------------------------------- restore codes
def test_restore_code_carries_the_player_to_another_browser(
        new_client: NewClient, four_seasons_win: tuple[int, list[str]]) -> None:
    home, work = new_client(), new_client()
    deal, line = four_seasons_win
    s = start(home, "four-seasons", deal)
    for text in line:
        s = move(home, s, text)
    unfinished = start(home, "fours-up", 7)
    code = home.post("/api/players/restore-code").json()["code"]
    assert normalize_restore_code(code) == code and len(code) == 19
    assert home.post("/api/players/restore-code").json()["code"] == code  # stable
    assert home.get("/api/players/me").json()["restore_code"] == code
    assert work.get("/api/stats").json()["won"] == 0
    r = work.post("/api/players/restore", json={"code": code.lower().replace("-", " ")})
    assert r.status_code == 200, r.text
    assert r.json()["player"]["games"] == 2
    assert r.headers["set-cookie"].startswith(f"{COOKIE}={home.cookies[COOKIE]};")
    assert work.cookies[COOKIE] == home.cookies[COOKIE]
    assert work.get("/api/stats").json()["won"] == 1
    assert work.get(f"/api/games/{unfinished['id']}").status_code == 200  # resumes there


def test_bad_restore_codes(client: TestClient) -> None:
    r = client.post("/api/players/restore", json={"code": "hello"})
    assert r.status_code == 400 and "16" in r.json()["detail"]
    r = client.post("/api/players/restore", json={"code": "0000-0000-0000-0000"})
    assert r.status_code == 404
    assert client.post("/api/players/restore", json={}).status_code == 422


def test_restore_code_reading_is_lenient() -> None:
    assert normalize_restore_code("7k3m q9tx 4rwb zp2d") == "7K3M-Q9TX-4RWB-ZP2D"
    assert normalize_restore_code("OIL0-0000-0000-0000") == "0110-0000-0000-0000"
    assert normalize_restore_code("UUUU-0000-0000-0000") is None
    assert normalize_restore_code("0000-0000-0000") is None


# ----------------------------------------------------------------- the schema
def test_openapi_schema_is_published_with_every_endpoint(client: TestClient) -> None:
    schema = client.get("/api/openapi.json").json()
    paths = schema["paths"]
    expected = {
        ("/api/games", "post"), ("/api/games", "get"), ("/api/games/{game_id}", "get"),
        ("/api/games/{game_id}/record", "get"), ("/api/games/{game_id}/moves", "post"),
        ("/api/games/{game_id}/undo", "post"), ("/api/games/{game_id}/redo", "post"),
        ("/api/games/{game_id}/restart", "post"), ("/api/games/{game_id}/resign", "post"),
        ("/api/games/{game_id}/hint", "get"), ("/api/games/{game_id}/winnable", "get"),
        ("/api/games/{game_id}/autofinish", "post"), ("/api/stats", "get"),
        ("/api/catalogue", "get"), ("/api/catalogue/{game}", "get"),
        ("/api/feedback", "post"), ("/api/players/me", "get"),
        ("/api/players/restore-code", "post"), ("/api/players/restore", "post"),
        ("/api/health", "get")}
    assert {(p, m) for p, ops in paths.items() for m in ops} == expected
    for p, ops in paths.items():
        for m, op in ops.items():
            assert "200" in op["responses"] or "201" in op["responses"], (p, m)
            ok = op["responses"].get("200") or op["responses"]["201"]
            assert "$ref" in ok["content"]["application/json"]["schema"] or p == "/api/health"
    assert client.get("/api/health").json() == {"status": "ok"}
