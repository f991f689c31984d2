"""Every game's table on a desktop and on a phone: laid out like its rules, no horizontal
scrolling on a 360 px wide phone (Quadrennial included), a screenshot of each under
``artifacts/screenshots/``; the other pages on a phone; the time to an interactive table."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from driver import Table

import patience
from patience.games import all_specs

pytestmark = pytest.mark.browser

NewPage = Callable[..., Any]
# every commissioned game, and one relative (RULES Part B) for each layout they add or share
# with a narrower table: the others are drawn by the same layouts as these (Penta: the
# arrows of piles building both ways; Sixes and Sevens: sixteen foundations and nine cells)
RELATIVES_SHOWN = ("busy-aces", "deuces", "acquaintance", "penta", "sixes-and-sevens")
GAMES = [s.id for s in all_specs() if s.section.startswith("A") or s.id in RELATIVES_SHOWN]
DEAL = 17


def some_play(game: str, deal: int, count: int) -> list[str]:
    """A deterministic line of ``count`` moves that builds up the table (home first, then
    building, then dealing; never back to a position seen before)."""
    g = patience.new_game(game, deal=deal)
    seen = {repr(g.piles)}
    line: list[str] = []
    for _ in range(count):
        moves = [str(m) for m in g.legal_moves()]
        order = sorted(moves, key=lambda m: (m.startswith("f"), ">f" not in m,
                                             not m.startswith("waste"), m != "deal", m))
        for m in order:
            h = g.copy()
            h.play(m)
            key = repr(h.piles)
            if key not in seen:
                seen.add(key)
                g = h
                line.append(m)
                break
        else:
            break
        if g.is_won:
            break
    return line


def play_through_api(page: Any, line: list[str]) -> None:
    page.evaluate("""async (line) => {
        const id = document.body.dataset.game;
        let s = await (await fetch('/api/games/' + id)).json();
        for (const move of line) {
            const r = await fetch(`/api/games/${id}/moves`, {method: 'POST',
                headers: {'Content-Type': 'application/json'},
                body: JSON.stringify({move, version: s.version})});
            if (!r.ok) throw new Error(move + ': ' + await r.text());
            s = await r.json();
        }
    }""", line)


def no_horizontal_scroll(page: Any) -> None:
    sizes = page.evaluate("[document.scrollingElement.scrollWidth, "
                          "document.scrollingElement.clientWidth, window.innerWidth]")
    assert sizes[0] <= sizes[1], f"the page scrolls sideways: {sizes}"


@pytest.mark.parametrize("game", GAMES)
def test_each_table_on_desktop_and_phone(new_page: NewPage, artifacts: Path, game: str) -> None:
    line = some_play(game, DEAL, 60 if game != "quadrennial" else 120)
    for kind, phone in (("desktop", False), ("phone", True)):
        page = new_page(phone=phone)
        t = Table(page).open(f"/play/{game}/{DEAL}")
        expected = patience.new_game(game, deal=DEAL).piles
        expected.pop("stock")
        assert t.shown() == expected
        no_horizontal_scroll(page)
        play_through_api(page, line)
        page.reload()
        t.ready()
        state = t.state()
        assert state.get("moves") == len(line), (state, t.errors())
        # every pile is on the table, and the cards drawn are the pile's top cards
        for pid, cards in t.shown().items():
            assert cards == state["piles"][pid][len(state["piles"][pid]) - len(cards):], pid
        assert int(page.inner_text("#stock-n")) == state["stock_count"]
        assert page.inner_text("#moves") == str(len(line))
        no_horizontal_scroll(page)
        # nothing pokes out of the window: piles, counts, the menu
        right = page.evaluate("""() => Math.max(...[...document.querySelectorAll(
            '#table .pile, #table .count, .tools > *')]
            .map(e => e.getBoundingClientRect().right))""")
        assert right <= page.viewport_size["width"]
        page.click("#more summary")
        no_horizontal_scroll(page)
        menu = page.locator("#more .menu").bounding_box()
        assert menu["x"] >= 0 and menu["x"] + menu["width"] <= page.viewport_size["width"]
        page.click("#more summary")
        page.wait_for_timeout(50)
        page.screenshot(path=str(artifacts / f"{game}-{kind}.png"))
        assert t.errors() == []


def test_layouts_follow_the_rules(new_page: NewPage) -> None:
    page = new_page()

    def centre(pile: str) -> tuple[float, float]:
        box = page.locator(f"#pile-{pile}").bounding_box()
        return box["x"] + box["width"] / 2, box["y"]

    Table(page).open("/play/four-seasons/2")
    # the cross: t1 above t3 above t5, t2 left and t4 right of t3; a foundation in each corner
    (x1, y1), (x2, y2), (x3, y3), (x4, y4), (x5, y5) = (centre(f"t{i}") for i in range(1, 6))
    assert x1 == x3 == x5 and y1 < y3 < y5 and y2 == y3 == y4 and x2 < x3 < x4
    (fx1, fy1), (fx2, fy2), (fx3, fy3), (fx4, fy4) = (centre(f"f{i}") for i in range(1, 5))
    assert fx1 == fx3 == x2 and fx2 == fx4 == x4 and fy1 == fy2 == y1 and fy3 == fy4 == y5
    assert "Base" in page.inner_text(".status") and page.inner_text("#base") != "…"
    # Corners: the cross is made of five cells
    Table(page).open("/play/corners/2")
    assert page.locator("#table .pile.k-c").count() == 5
    assert centre("c1")[0] == centre("c3")[0] == centre("c5")[0]
    # Simplicity: two rows of six
    Table(page).open("/play/simplicity/2")
    tops = [centre(f"t{i}")[1] for i in range(1, 13)]
    assert len(set(tops[:6])) == 1 and len(set(tops[6:])) == 1 and tops[0] < tops[6]
    # Quadrennial: sixteen foundations, eight reserve piles, redeals left shown
    Table(page).open("/play/quadrennial/2")
    assert page.locator("#table .pile.k-f").count() == 16
    assert page.locator("#table .pile.k-r").count() == 8
    assert page.inner_text("#passes") == "2"
    # Fours Up: eight foundations, six piles, stock and waste
    Table(page).open("/play/fours-up/2")
    assert page.locator("#table .pile.k-f").count() == 8
    assert page.locator("#table .pile.k-t").count() == 6
    assert page.locator("#pile-stock").count() == page.locator("#pile-waste").count() == 1
    assert page.inner_text("#pile-stock .count") == "90"
    # Busy Aces (RULES B3): eight foundations, twelve piles in two rows of six
    Table(page).open("/play/busy-aces/2")
    assert page.locator("#table .pile.k-f").count() == 8
    tops = [centre(f"t{i}")[1] for i in range(1, 13)]
    assert len(set(tops[:6])) == 1 and len(set(tops[6:])) == 1 and tops[0] < tops[6]
    # Acquaintance (RULES B1): four foundations, four reserve piles, two redeals left
    Table(page).open("/play/acquaintance/2")
    assert page.locator("#table .pile.k-f").count() == 4
    assert page.locator("#table .pile.k-r").count() == 4
    assert page.inner_text("#passes") == "2"
    # Sixes and Sevens (RULES B3): the Sevens over the Sixes in two rows of eight, nine cells
    # in a row, each foundation marked with the way it builds
    Table(page).open("/play/sixes-and-sevens/2")
    sevens = [centre(f"f{i}") for i in range(1, 9)]
    sixes = [centre(f"f{i}") for i in range(9, 17)]
    cells = [centre(f"c{i}") for i in range(1, 10)]
    assert len({y for _, y in sevens}) == len({y for _, y in sixes}) == 1
    assert [x for x, _ in sevens] == [x for x, _ in sixes] == [x for x, _ in cells[:8]]
    assert len({y for _, y in cells}) == 1 and sevens[0][1] < sixes[0][1] < cells[0][1]
    assert cells[0][1] < centre("stock")[1] == centre("waste")[1]
    ways = page.eval_on_selector_all("#table .pile.k-f", "els => els.map(e => "
                                     "e.querySelector('.way').textContent)")
    assert ways == ["↑"] * 8 + ["↓"] * 8
    assert "builds down" in page.get_attribute("#pile-f9", "aria-label")
    # Penta: every foundation starts empty, and says whether it builds up or down
    Table(page).open("/play/penta/2")
    assert [page.inner_text(f"#pile-f{i} .slot-label") for i in range(1, 9)] == \
        ["↑"] * 4 + ["↓"] * 4
    assert page.get_attribute("#pile-f5", "aria-label").startswith("foundation 5, builds down")
    assert page.inner_text("#pile-t1 .way") == "↓" and page.inner_text("#pile-t6 .way") == "↑"


def test_other_pages_on_a_phone(new_page: NewPage, artifacts: Path) -> None:
    page = new_page(phone=True)
    for path, name in (("/", "lobby"), ("/rules/quadrennial", "rules"), ("/stats", "stats"),
                       ("/player", "player")):
        page.goto(path)
        page.wait_for_load_state("networkidle")
        no_horizontal_scroll(page)
        page.screenshot(path=str(artifacts / f"{name}-phone.png"), full_page=name != "rules")
    page = new_page()
    page.goto("/")
    page.wait_for_load_state("networkidle")
    page.screenshot(path=str(artifacts / "lobby-desktop.png"), full_page=True)


def test_time_to_an_interactive_table(new_page: NewPage, request: pytest.FixtureRequest
                                      ) -> None:
    times = []
    for game in ("four-seasons", "quadrennial", "fours-up"):
        page = new_page()
        page.goto("/")  # the player cookie and a warm server, as for a player coming from the lobby
        start = time.perf_counter()
        Table(page).open(f"/play/{game}/5")
        wall = time.perf_counter() - start
        ready = page.evaluate("window.__tableReady")  # ms since the navigation started
        times.append((game, ready, wall))
        assert ready < 3000
    # for the summary at the end of the run (tests/conftest.py)
    line = ", ".join(f"{g} {r:.0f} ms (wall {w * 1000:.0f} ms)" for g, r, w in times)
    request.node.user_properties.append(("report", f"time to first interactive table: {line}"))
