"""The HTML pages without a browser: what each page says, the table's layouts, the links, the
errors, the player cookie, the static files, and the table page's weight."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from html import unescape as html_unescape
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from patience.game import Game
from patience.games import all_specs, get_spec
from patience.rules_text import rules_text
from patience.web.app import create_app
from patience.web.pages import (
    STATIC_DIR,
    budget_text,
    install_pages,
    layout_of,
    layout_svg,
    percent,
    pile_ids,
    rate_text,
)
from patience.web.players import COOKIE

GAMES = [s.id for s in all_specs()]
WEIGHT_LIMIT = 150_000


def with_pages(app: FastAPI) -> FastAPI:
    if not any(getattr(route, "path", None) == "/" for route in app.routes):
        install_pages(app)
    return app


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = with_pages(create_app(f"sqlite:///{tmp_path / 'pages.db'}", solver_seconds=1.0))
    install_pages(app)  # a second call changes nothing
    with TestClient(app) as c:
        yield c


def config_of(html: str) -> dict[str, object]:
    m = re.search(r'<script type="application/json" id="config">(.*?)</script>', html, re.S)
    assert m, "the table page carries its configuration"
    data: dict[str, object] = json.loads(m.group(1))
    return data


# --------------------------------------------------------------------- lobby
def test_the_lobby_lists_every_game(client: TestClient) -> None:
    r = client.get("/")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    html = r.text
    for spec in all_specs():
        block = html[html.index(f'id="game-{spec.id}"'):]
        block = block[:block.index("</li>")]
        assert spec.name in html_unescape(block)
        assert f'href="/play/{spec.id}"' in block and f'href="/rules/{spec.id}"' in block
        assert '<svg class="thumb"' in block
        assert f"{spec.decks} ({52 * spec.decks} cards)" in block
        assert (spec.difficulty or "—") in block
        assert (spec.odds or "none published") in block
        assert "Our solver wins" in block
        for rel in spec.related:
            try:
                assert f'href="/play/{get_spec(rel).id}"' in block
            except KeyError:
                assert rel.replace("-", " ").title() in block
    assert html.count('class="game"') == len(GAMES)
    assert f"{len(GAMES)} games of patience" in html  # the lead counts what the page lists


def test_the_first_page_sets_the_player_cookie_as_the_api_does(client: TestClient) -> None:
    r = client.get("/play/fours-up")
    cookie = r.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}=") and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert "set-cookie" not in client.get("/api/stats").headers  # the same player from then on


# --------------------------------------------------------------------- tables
@pytest.mark.parametrize("game", GAMES)
def test_each_table_page(client: TestClient, game: str) -> None:
    spec = get_spec(game)
    html = client.get(f"/play/{game}").text
    cfg = config_of(html)
    assert cfg["game"] == game and cfg["deal"] is None
    layout = cfg["layout"]
    assert isinstance(layout, dict)
    placed = [s["id"] for s in layout["slots"]]
    assert sorted(placed) == sorted(Game(spec, deal=1).piles)  # every pile, once
    for button in ("b-new", "b-restart", "b-undo", "b-redo", "b-hint", "b-finish",
                   "opt-winnable", "deal-form", "feedback", "help"):
        assert f'id="{button}"' in html
    assert f'href="/rules/{game}"' in html
    assert 'id="msg" role="status" aria-live="polite"' in html
    assert ('id="base"' in html) == (spec.base_rank is None)  # the Four Seasons family
    assert ('id="passes"' in html) == (spec.passes > 1)  # Quadrennial
    for rel in spec.related:
        if rel in GAMES:
            assert f'href="/play/{rel}"' in html
    deal = config_of(client.get(f"/play/{game}/123").text)
    assert deal["deal"] == 123


def test_layouts_follow_the_rules() -> None:
    def where(game: str) -> dict[str, tuple[float, int]]:
        return {s.id: (s.col, s.row) for s in layout_of(get_spec(game)).slots}

    cross = where("four-seasons")
    assert cross["t1"] == (1, 0) and cross["t2"] == (0, 1) and cross["t3"] == (1, 1)
    assert cross["t4"] == (2, 1) and cross["t5"] == (1, 2)
    assert [cross[f"f{i}"] for i in range(1, 5)] == [(0, 0), (2, 0), (0, 2), (2, 2)]
    assert layout_of(get_spec("four-seasons-1883")).frame == "square"
    assert where("corners")["c3"] == (1, 1)
    rows = where("simplicity")
    assert [rows[f"t{i}"] for i in range(1, 13)] == [(i % 6, 1 + i // 6) for i in range(12)]
    quad = where("quadrennial")
    assert {quad[f"f{i}"][1] for i in range(1, 17)} == {1, 2}
    assert {quad[f"r{i}"] for i in range(1, 9)} == {(i, 3) for i in range(8)}
    fours = where("fours-up")
    assert {fours[f"f{i}"][1] for i in range(1, 9)} == {0}
    assert fours["stock"][1] == fours["waste"][1] == fours["t1"][1] == 1
    # Deuces (RULES B3): ten piles in two rows of five, beside and under stock and waste
    deuces = where("deuces")
    assert [deuces[f"t{i}"] for i in range(1, 11)] == [(2 + i % 5, 1 + i // 5) for i in range(10)]
    assert deuces["stock"] == (0, 1) and deuces["waste"] == (1, 1)
    # Jacks in the Box: four cells in a row of their own, over the piles
    jacks = where("jacks-in-the-box")
    assert [jacks[f"c{i}"] for i in range(1, 5)] == [(i, 1) for i in range(2, 6)]
    assert {jacks[f"t{i}"][1] for i in range(1, 7)} == {jacks["stock"][1]} == {2}
    # Sixes and Sevens: the Sevens in a row, the Sixes in a row, nine cells together, and
    # stock and waste under them, with no room kept for piles that the game does not have
    sixes = layout_of(get_spec("sixes-and-sevens"))
    where6 = {s.id: (s.col, s.row) for s in sixes.slots}
    assert [where6[f"f{i}"] for i in range(1, 17)] == [(i % 8, i // 8) for i in range(16)]
    assert [where6[f"c{i}"] for i in range(1, 10)] == [(i, 2) for i in range(9)]
    assert where6["stock"] == (0, 3) and where6["waste"] == (1, 3)
    assert sixes.cols == 9 and len(sixes.rows) == 4 and not any(r.fill for r in sixes.rows)
    for spec in all_specs():
        lay = layout_of(spec)
        assert sorted(s.id for s in lay.slots) == sorted(pile_ids(spec))
        assert max(s.col for s in lay.slots) + 1 <= lay.cols
        assert len({(s.col, s.row) for s in lay.slots}) == len(lay.slots)  # no two in a place
        assert {s.row for s in lay.slots} == set(range(len(lay.rows)))  # no empty row
        # outside the crosses, the piles of a kind lie together in rows one after another
        # (none put aside in a row at the bottom)
        for kind in "ftcr" if not lay.frame else "":
            kept = sorted({s.row for s in lay.slots if s.id[0] == kind})
            assert kept == list(range(kept[0], kept[0] + len(kept))) if kept else True, spec.id
        assert str(layout_svg(spec)).startswith('<svg class="thumb"')


def test_layouts_say_which_way_piles_build() -> None:
    """Where a game's piles do not all build the usual way (foundations up, piles down),
    each foundation and pile says which way it builds, to the eye and to a screen reader."""
    penta = layout_of(get_spec("penta"))
    assert penta.ways == {**{f"f{i}": "up" for i in range(1, 5)},
                          **{f"f{i}": "down" for i in range(5, 9)},
                          **{f"t{i}": "down" for i in range(1, 4)},
                          **{f"t{i}": "up" for i in range(4, 7)}}
    assert penta.names["f1"] == "foundation 1, builds up"
    assert penta.names["f8"] == "foundation 8, builds down"
    assert penta.names["t3"] == "pile 3, builds down" and penta.names["t4"] == "pile 4, builds up"
    sixes = layout_of(get_spec("sixes-and-sevens"))
    assert [sixes.ways[f"f{i}"] for i in range(1, 17)] == ["up"] * 8 + ["down"] * 8
    assert set(sixes.ways) == {f"f{i}" for i in range(1, 17)}
    assert sixes.names["f9"] == "foundation 9, builds down" and sixes.names["c9"] == "cell 9"
    eights = layout_of(get_spec("eights-down"))
    assert {eights.ways[f"f{i}"] for i in range(1, 9)} == {"down"}
    assert {eights.ways[f"t{i}"] for i in range(1, 7)} == {"up"}
    for game in ("fours-up", "busy-aces", "jacks-in-the-box", "four-seasons", "quadrennial"):
        lay = layout_of(get_spec(game))
        assert lay.ways == {} and not any("builds" in n for n in lay.names.values()), game
    assert layout_of(get_spec("penta")).to_json()["ways"]["f5"] == "down"  # sent to the table


def test_a_layout_for_any_other_game() -> None:
    import dataclasses

    from patience.rules.spec import Runs

    for changes in ({"tableau": 12, "layout": ""}, {"tableau": 8, "cells": 4, "layout": "x"},
                    {"foundations": 16, "tableau": 10, "cells": 9, "runs": Runs.NONE}):
        spec = dataclasses.replace(get_spec("fours-up"), id="test-game", **changes)
        lay = layout_of(spec)
        assert sorted(s.id for s in lay.slots) == sorted(pile_ids(spec))
        assert max(s.col for s in lay.slots) + 1 <= lay.cols
        assert len({(s.col, s.row) for s in lay.slots}) == len(lay.slots)  # no two in a place


def test_aliases_redirect_and_unknown_pages_are_404(client: TestClient) -> None:
    r = client.get("/play/Vanishing%20Cross/4", follow_redirects=False)
    assert r.status_code == 301 and r.headers["location"] == "/play/four-seasons/4"
    r = client.get("/rules/quadrennial-solitaire", follow_redirects=False)
    assert r.status_code == 301 and r.headers["location"] == "/rules/quadrennial"
    for path in ("/play/klondike", "/play/fours-up/-1", "/play/fours-up/x7",
                 f"/play/fours-up/{2**53}", "/rules/klondike"):
        r = client.get(path)
        assert r.status_code == 404 and "text/html" in r.headers["content-type"], path
        assert 'href="/play/four-seasons"' in r.text
    assert config_of(client.get(f"/play/fours-up/{2**53 - 1}").text)["deal"] == 2**53 - 1


# ---------------------------------------------------------------------- rules
@pytest.mark.parametrize("game", GAMES)
def test_rules_pages_state_every_decision(client: TestClient, game: str) -> None:
    html = client.get(f"/rules/{game}").text
    text = rules_text(game)
    assert "### Decisions" in text
    section = text.split("### Decisions", 1)[1].split("\n### ", 1)[0]
    decisions = re.findall(r"^\d+\. ", section, re.M)
    assert decisions
    part = html.split('<h3 id="decisions">', 1)[1].split("<h3", 1)[0]
    assert part.count("<li>") == len(decisions)
    first = re.sub(r"[*`]", "", section.split("1. ", 1)[1]).split()[:6]
    assert " ".join(first) in re.sub(r"<[^>]+>", "", part).replace("\n", " ")
    assert f'href="/play/{game}"' in html
    assert "<h1>Rules of " in html and '<svg class="thumb"' in html


# ---------------------------------------------------------- other pages, files
def test_stats_and_player_pages(client: TestClient) -> None:
    stats = client.get("/stats").text
    for spec in all_specs():
        assert f'data-game="{spec.id}"' in stats
    assert "/static/js/stats.js" in stats
    player = client.get("/player").text
    assert 'id="export"' in player and 'id="restore"' in player and "/static/js/player.js" in player


def test_static_files(client: TestClient) -> None:
    r = client.get("/static/js/table.js")
    assert r.status_code == 200 and "javascript" in r.headers["content-type"]
    assert r.headers["cache-control"] == "no-cache" and "etag" in r.headers
    assert client.get("/static/js/table.js", headers={"If-None-Match": r.headers["etag"]}
                      ).status_code == 304
    assert "text/css" in client.get("/static/css/table.css").headers["content-type"]
    assert client.get("/static/nothing.js").status_code == 404


def test_measured_win_rates_in_words(monkeypatch: pytest.MonkeyPatch,
                                     client: TestClient) -> None:
    assert rate_text(None) == "" and rate_text({"rate": 0.5}) == ""
    assert rate_text({"rate": 0.45, "low": 0.358, "high": 0.546, "deals": 100, "unknown": 0,
                      "budget": "2s"}) == "45% (36–55%, 100 deals)"
    assert rate_text({"rate": 0.3, "low": 0.19, "high": 0.85, "deals": 50, "unknown": 35,
                      "budget": "2s"}) == "30% (19–85%, 50 deals, 35 undecided)"
    import patience.odds_report

    rows = {"fours-up": {"thoughtful": {"rate": 0.68, "low": 0.54, "high": 0.9, "deals": 50,
                                        "unknown": 16, "budget": "2s"},
                         "fair": {"rate": 0.4, "low": 0.3, "high": 0.5, "deals": 80,
                                  "unknown": 0, "budget": "policy",
                                  "player": "fair-v1:3x300"}},
            "quadrennial": {"fair": {"rate": 0.75, "low": 0.7, "high": 0.8, "deals": 500,
                                     "unknown": 0, "budget": "policy",
                                     "player": "fair-v2:3x300"}}}
    monkeypatch.setattr(patience.odds_report, "measured", lambda game: rows.get(game, {}))
    html = client.get("/").text
    block = html[html.index('id="game-fours-up"'):]
    block = block[:block.index("</li>")]
    assert "68% (54–90%, 50 deals, 16 undecided); the solver given 2 s a deal" in block
    assert "A fair player wins" in block and ("40% (30–50%, 80 deals); at each move it tries 3 "
                                              "orders of the stock, 300 positions each") in block
    assert "after a redeal" not in block  # one pass: nothing to know
    quad = html[html.index('id="game-quadrennial"'):]
    assert ("75% (70–80%, 500 deals); at each move it tries 3 orders of the stock, 300 "
            "positions each; after a redeal it knows the order of the stock, as you do"
            ) in quad[:quad.index("</li>")]  # RULES A6: the gathered piles lay face up
    other = html[html.index('id="game-czarina"'):]
    assert "not measured yet" in other[:other.index("</li>")]


def test_shares_near_the_ends_keep_their_decimals() -> None:
    # a rate is never rounded to exactly 0% or 100% unless it is that
    assert [percent(x) for x in (0, 1, 0.45, 0.0067, 0.998, 0.9992, 0.0004)] == \
        ["0%", "100%", "45%", "0.7%", "99.8%", "99.92%", "0.04%"]
    assert percent(0.000001) == "under 0.001%" and percent(0.99999999) == "over 99.999%"
    # an interval's bounds may round to an end, and float noise at an end is the end
    assert percent(0.99999, bound=True) == "100%" and percent(1e-17, bound=True) == "0%"
    assert rate_text({"rate": 0.9992, "low": 0.998, "high": 0.99999, "deals": 10000,
                      "unknown": 8}) == "99.92% (99.8–100%, 10,000 deals, 8 undecided)"


def test_budgets_in_words() -> None:
    assert budget_text({"player": "thoughtful", "budget": "2cpu"}) == "the solver given 2 s a deal"
    assert budget_text({"player": "thoughtful", "budget": "2s then 10s"}) == \
        "the solver given 2 s, then 10 s a deal"
    steps = [{"budget": "0.05cpu", "deals": 9_700}, {"budget": "1cpu", "deals": 300}]
    assert budget_text({"player": "thoughtful", "budget": "0.05cpu then 1cpu",
                        "steps": steps}) == \
        "the solver given 0.05 s a deal on 9,700 deals and 1 s on 300 deals"
    assert budget_text({"player": "thoughtful", "budget": "2cpu",
                        "steps": [{"budget": "2cpu", "deals": 10_000}]}) == \
        "the solver given 2 s a deal"
    assert budget_text({"player": "thoughtful", "budget": "300n"}) == \
        "the solver given 300 positions a deal"
    assert budget_text({"player": "fair-v1:3x1000", "budget": "policy"}) == \
        "at each move it tries 3 orders of the stock, 1,000 positions each"
    # a label it cannot read is left out rather than shown raw
    assert budget_text({"player": "thoughtful", "budget": "soon"}) == ""
    assert budget_text({"player": "fair-v1:odd", "budget": "policy"}) == ""


def table_page_files(client: TestClient, html: str) -> dict[str, int]:
    """The table page's own files (stylesheets and the script's module graph) and sizes."""
    sizes: dict[str, int] = {}
    todo = re.findall(r'<link rel="stylesheet" href="(/static/[^"]+)"', html)
    todo += re.findall(r'<script type="module" src="(/static/[^"]+)"', html)
    while todo:
        path = todo.pop()
        if path in sizes:
            continue
        body = client.get(path).content
        sizes[path] = len(body)
        if path.endswith(".js"):
            base = path.rsplit("/", 1)[0]
            todo += [f"{base}/{name}" for name in
                     re.findall(r"""from\s+['"]\./([\w.-]+\.js)['"]""", body.decode())]
    return sizes


def test_table_page_weight(client: TestClient, request: pytest.FixtureRequest) -> None:
    worst = 0
    for game in GAMES:
        html = client.get(f"/play/{game}").content
        files = table_page_files(client, html.decode())
        assert {"/static/js/table.js", "/static/js/drag.js", "/static/js/keyboard.js",
                "/static/css/table.css"} <= set(files)
        total = len(html) + sum(files.values())
        worst = max(worst, total)
        assert total < WEIGHT_LIMIT, f"{game}: {total} bytes"
    js = sum(v for k, v in files.items() if k.endswith(".js"))
    css = sum(v for k, v in files.items() if k.endswith(".css"))
    # for the summary at the end of the run (tests/conftest.py)
    request.node.user_properties.append((
        "report", f"table page weight (largest, uncompressed): {worst} bytes = HTML {len(html)} "
                  f"+ CSS {css} + JS {js} ({len(files)} files); limit {WEIGHT_LIMIT}"))
    assert all((STATIC_DIR / p.removeprefix("/static/")).is_file() for p in files)
