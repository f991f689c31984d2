"""Playing in the browser: a whole Four Seasons deal won by drag and drop along a solver line,
Fours Up by touch (a run moved, a double tap home), Quadrennial through a redeal, the keyboard
alone, undo and redo, reload and resume, illegal drops, hints and auto-finish, the ends."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

import pytest
from driver import Table

import patience
from patience.solver import solve

pytestmark = pytest.mark.browser

NewPage = Callable[..., Any]


@pytest.fixture(scope="module")
def four_seasons_line() -> tuple[int, list[str]]:
    result = solve(patience.new_game("four-seasons", deal=3), max_seconds=10)
    assert result.status == "won"
    return 3, list(result.moves)


def run_move_line(game: str, deals: range) -> tuple[int, list[str]]:
    """A deal and a short line of play that ends with a run of 2+ cards moved onto a
    non-empty pile (searched breadth first, without foundation moves)."""
    for deal in deals:
        start = patience.new_game(game, deal=deal)
        queue: deque[tuple[Any, list[str]]] = deque([(start, [])])
        while queue:
            g, path = queue.popleft()
            for m in map(str, g.legal_moves()):
                if "x" in m and g.piles[m.split(">")[1].split("x")[0]]:
                    return deal, [*path, m]
            if len(path) < 4:
                for m in map(str, g.legal_moves()):
                    if not m.startswith("f") and ">f" not in m:
                        h = g.copy()
                        h.play(m)
                        queue.append((h, [*path, m]))
    raise AssertionError(f"no run move found in {game} deals {deals}")


# ------------------------------------------------------------------ drag
def test_win_four_seasons_by_drag_and_drop_along_a_solver_line(
        new_page: NewPage, four_seasons_line: tuple[int, list[str]]) -> None:
    deal, line = four_seasons_line
    page = new_page()
    t = Table(page).open(f"/play/four-seasons/{deal}")
    assert t.state()["deal"] == deal
    for i, move in enumerate(line):
        if move == "deal":
            t.click_stock()
        else:
            t.drag(move)
        assert t.version == i + 1, f"move {i + 1} ({move}) was not played"
    page.wait_for_selector("#banner.won")
    assert "You won" in page.inner_text("#banner")
    page.wait_for_function(
        "document.getElementById('won-stats').textContent.includes('won 1 of 1')")
    state = t.state()
    assert state["status"] == "won" and state["finished"] and state["moves"] == len(line)
    assert all(len(state["piles"][f]) == 13 for f in ("f1", "f2", "f3", "f4"))
    t.wait_message("You won")
    assert t.errors() == []


def test_an_illegal_drop_returns_the_card_and_says_why(new_page: NewPage) -> None:
    page = new_page()
    t = Table(page).open("/play/four-seasons/3")
    before = t.shown()
    assert "t1>t2" not in t.state()["legal_moves"]
    t.drag("t1>t2", expect=False)  # KH onto 4D
    t.wait_message("not allowed")
    assert "does not go on" in t.message() and "K♥" in t.message()
    page.wait_for_function("!document.querySelector('.ghost')")
    assert t.shown() == before and t.version == 0
    # a drop back on its own pile or off the table changes nothing and says nothing wrong
    x, y = t.grab_point("t1")
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 30, y + 30, steps=3)
    page.wait_for_selector("#pile-t1 .card.lifted", state="attached")
    assert not page.query_selector_all(".pile.target")  # no pile takes the King of hearts
    page.mouse.move(5, 790, steps=3)
    page.mouse.up()
    page.wait_for_function("!document.querySelector('.ghost')")
    assert t.shown() == before and t.version == 0


def test_legal_targets_are_lit_while_dragging(new_page: NewPage) -> None:
    page = new_page()
    t = Table(page).open("/play/fours-up/7")
    legal = t.state()["legal_moves"]
    assert {"t6>f1", "t6>f5", "t6>t2"} <= set(legal)
    x, y = t.grab_point("t6")
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x - 20, y - 20, steps=3)
    lit = page.eval_on_selector_all("#table .pile.target", "els => els.map(e => e.dataset.pile)")
    assert sorted(lit) == ["f1", "f5", "t2"]
    tx, ty = t.pile_point("f5")
    page.mouse.move(tx, ty, steps=5)
    page.wait_for_selector("#pile-f5.over")
    page.mouse.up()
    t.wait_version(1)
    assert t.state()["piles"]["f5"] == ["4C", "5C"]
    assert not page.query_selector_all("#table .pile.target")


# ------------------------------------------------------------------- touch
def test_fours_up_by_touch_with_a_run_moved_and_a_double_tap_home(new_page: NewPage) -> None:
    deal, line = run_move_line("fours-up", range(1, 30))
    page = new_page(phone=True, motion="no-preference")  # with the animations
    t = Table(page).open(f"/play/fours-up/{deal}")
    for move in line:
        t.tap_move(move)
    dst, n = line[-1].split(">")[1].split("x")[0], int(line[-1].split("x")[1])
    state = t.state()
    assert state["moves"] == len(line)
    assert len(state["piles"][dst]) >= n + 1
    assert t.shown()[dst][-n:] == state["piles"][dst][-n:]
    # tap the stock to deal, then a double tap sends a card to a foundation when one takes it
    for _ in range(40):
        state = t.state()
        home = [m for m in state["legal_moves"] if ">f" in m and m.split(">")[0] != "waste"]
        if home:
            break
        t.tap_move("deal")
    else:
        pytest.fail("no card could go home within 40 deals")
    pile = home[0].split(">")[0]
    v = t.version
    x, y = t.grab_point(pile)
    page.touchscreen.tap(x, y)
    page.wait_for_timeout(60)
    page.touchscreen.tap(x, y)
    t.wait_version(v + 1)
    assert t.state()["moves"] == state["moves"] + 1
    page.wait_for_timeout(300)  # let the animations end
    assert page.evaluate("document.getAnimations().length") == 0
    assert t.errors() == []


def test_dragging_a_run_by_touch(new_page: NewPage) -> None:
    deal, line = run_move_line("fours-up", range(30, 60))
    page = new_page(phone=True)
    t = Table(page).open(f"/play/fours-up/{deal}")
    for move in line[:-1]:
        t.touch_drag(move)
    before = t.state()["piles"]
    run = line[-1]
    src, dst = run.split(">")[0], run.split(">")[1].split("x")[0]
    n = int(run.split("x")[1])
    t.touch_drag(run)
    after = t.state()["piles"]
    assert after[dst] == before[dst] + before[src][-n:]
    assert after[src] == before[src][:-n]
    assert t.errors() == []


# ---------------------------------------------------------------- free cells
def test_free_cells_take_cards_and_give_them_back(new_page: NewPage) -> None:
    """Jacks in the Box (RULES B3): a card dragged into an empty cell, moved from cell to
    cell and back to a space by clicks, played home from a cell, and the waste's top card
    put in a cell; each move as the server has it."""
    page = new_page()
    t = Table(page).open("/play/jacks-in-the-box/17")
    start = t.state()["piles"]
    assert start["t3"] == ["AD"] and start["t4"] == ["QC"] and start["f1"] == ["JC"]
    assert all(start[f"c{i}"] == [] for i in range(1, 5))

    def click(pile: str, on_card: bool) -> None:
        page.mouse.click(*(t.grab_point(pile) if on_card else t.pile_point(pile)))

    def after(move: str, **piles: list[str]) -> None:
        state = t.state()
        assert state["moves"] == t.version, (move, state)
        for pid, cards in piles.items():
            assert state["piles"][pid] == cards, (move, pid)
            assert t.shown()[pid] == cards

    # dragged into a cell: every empty cell is lit while the card is on its way
    x, y = t.grab_point("t3")
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 20, y + 20, steps=3)
    lit = page.eval_on_selector_all("#table .pile.target", "els => els.map(e => e.dataset.pile)")
    assert sorted(lit) == ["c1", "c2", "c3", "c4"]
    tx, ty = t.pile_point("c1")
    page.mouse.move(tx, ty, steps=5)
    page.wait_for_selector("#pile-c1.over")
    page.mouse.up()
    t.wait_version(1)
    after("t3>c1", c1=["AD"], t3=[])
    # picked up from a cell with a click, put down on another cell, then on the space
    click("c1", True)
    page.wait_for_selector("#pile-c1.source")
    assert "can take" in page.get_attribute("#pile-t3", "aria-label")
    click("c3", False)
    t.wait_version(2)
    after("c1>c3", c1=[], c3=["AD"])
    t.drag("c3>t3")
    after("c3>t3", c3=[], t3=["AD"])
    # from a cell to a foundation, and from the waste to a cell
    t.drag("t4>c2")
    after("t4>c2", c2=["QC"], t4=[])
    click("c2", True)
    page.wait_for_selector("#pile-f1.target")
    click("f1", False)
    t.wait_version(5)
    after("c2>f1", c2=[], f1=["JC", "QC"])
    t.click_stock()
    waste = t.state()["piles"]["waste"]
    t.drag("waste>c4")
    after("waste>c4", c4=waste[-1:], waste=waste[:-1])
    assert t.errors() == []


# -------------------------------------------------------------- Quadrennial
def test_quadrennial_through_a_redeal(new_page: NewPage) -> None:
    page = new_page()
    t = Table(page).open("/play/quadrennial/5")
    assert page.inner_text("#passes") == "2"
    # a double click sends a reserve card home, when a foundation takes it
    state = t.state()
    home = [m for m in state["legal_moves"] if m.startswith("r")]
    for _ in range(30):
        if home:
            break
        t.click_stock()
        state = t.state()
        home = [m for m in state["legal_moves"] if m.startswith("r")]
    assert home, "no reserve card could go home"
    v = t.version
    page.locator(f"#pile-{home[0].split('>')[0]} .card[data-i]").last.dblclick()
    t.wait_version(v + 1)
    while t.state()["stock_count"] > 0:
        t.click_stock()
    assert page.inner_text("#pile-stock .slot-label") == "↻"
    before = t.state()
    assert before["passes_left"] == 2
    reserve_cards = sum(len(before["piles"][f"r{i}"]) for i in range(1, 9))
    t.click_stock()  # the redeal
    after = t.state()
    assert after["passes_left"] == 1 and page.inner_text("#passes") == "1"
    dealt = sum(len(after["piles"][f"r{i}"]) for i in range(1, 9))
    assert dealt == min(8, reserve_cards)
    assert after["stock_count"] == reserve_cards - dealt
    t.wait_message("Redeal")
    assert int(page.inner_text("#pile-stock .count")) == after["stock_count"]
    assert t.errors() == []


# ---------------------------------------------------------------- keyboard
def test_keyboard_only(new_page: NewPage) -> None:
    page = new_page()
    t = Table(page).open("/play/fours-up/7")
    kb = page.keyboard
    for _ in range(40):  # Tab into the table
        kb.press("Tab")
        if page.evaluate("document.activeElement.classList.contains('pile')"):
            break
    focused = page.evaluate("document.activeElement.dataset.pile")
    assert focused == "t1"
    assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") != "none"
    label = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert label.startswith("pile 1") and "Two of diamonds" in label
    # t4>t1: to t4, pick up, back to t1, put down
    for _ in range(3):
        kb.press("ArrowRight")
    assert page.evaluate("document.activeElement.dataset.pile") == "t4"
    kb.press("Enter")
    t.wait_message("Picked up Ace of diamonds")
    assert "pile 1" in t.message() and "pile 5" in t.message()
    assert sorted(page.eval_on_selector_all(".pile.target", "e => e.map(x => x.dataset.pile)")) \
        == ["t1", "t5"]
    for _ in range(3):
        kb.press("ArrowLeft")
    kb.press("Enter")
    t.wait_version(1)
    assert t.state()["piles"]["t1"] == ["2D", "AD"]
    t.wait_message("Ace of diamonds from pile 4 to pile 1")
    # F sends the focused pile's card home; Escape puts back what was picked up
    for _ in range(5):
        kb.press("ArrowRight")
    assert page.evaluate("document.activeElement.dataset.pile") == "t6"
    kb.press(" ")
    t.wait_message("Picked up Five of clubs")
    kb.press("Escape")
    t.wait_message("Put back")
    assert not page.query_selector_all(".pile.target")
    kb.press("f")
    t.wait_version(2)
    assert t.state()["piles"]["t6"] == []
    # D deals; arrows reach the stock, where Enter deals too
    kb.press("d")
    t.wait_version(3)
    assert len(t.state()["piles"]["waste"]) == 1
    for _ in range(8):
        kb.press("ArrowLeft")
    assert page.evaluate("document.activeElement.dataset.pile") == "stock"
    kb.press("Enter")
    t.wait_version(4)
    assert t.state()["stock_count"] == 88
    # and undo / redo from the keyboard
    kb.press("Control+z")
    t.wait_version(5)
    assert t.state()["stock_count"] == 89
    kb.press("Control+y")
    t.wait_version(6)
    assert t.state()["stock_count"] == 88
    kb.press("u")
    t.wait_version(7)
    kb.press("r")
    t.wait_version(8)
    assert t.state()["moves"] == 4
    # H asks for a hint, which says that hints know the stock
    kb.press("h")
    t.wait_message("Hint:")
    assert "Hints know the order of the stock" in t.message()
    assert t.errors() == []


def test_undo_and_redo_buttons_and_shortcuts(new_page: NewPage) -> None:
    page = new_page()
    t = Table(page).open("/play/four-seasons/3")
    assert page.is_disabled("#b-undo") and page.is_disabled("#b-redo")
    start = t.shown()
    t.drag("t4>t1")
    after_one = t.shown()
    t.click_stock()
    assert t.state()["moves"] == 2
    page.click("#b-undo")
    t.wait_version(3)
    page.click("#b-undo")
    t.wait_version(4)
    assert t.shown() == start and t.state()["moves"] == 0
    assert page.is_disabled("#b-undo") and page.is_enabled("#b-redo")
    page.click("#b-redo")
    t.wait_version(5)
    assert t.shown() == after_one
    page.keyboard.press("Control+Shift+Z")
    t.wait_version(6)
    assert t.state()["moves"] == 2 and page.is_disabled("#b-redo")
    page.keyboard.press("Control+Z")
    t.wait_version(7)
    assert t.shown() == after_one
    assert page.inner_text("#moves") == "1"


# ------------------------------------------------------------ reload, links
def test_reload_and_resume(new_page: NewPage) -> None:
    page = new_page()
    t = Table(page).open("/play/simplicity/21")
    legal = [m for m in t.state()["legal_moves"] if m != "deal"]
    t.drag(legal[0])
    t.click_stock()
    game_id, shown, state = t.game_id, t.shown(), t.state()
    page.reload()
    t.ready()
    assert t.game_id == game_id and t.shown() == shown
    assert t.state()["moves"] == state["moves"] == 2
    t.wait_message("Welcome back")
    # the game's page without a deal number takes the unfinished deal up again
    t.open("/play/simplicity")
    assert t.game_id == game_id and t.shown() == shown
    assert page.url.endswith("/play/simplicity/21")


def test_a_move_from_a_stale_tab_reloads_the_game(new_page: NewPage) -> None:
    page = new_page()
    t = Table(page).open("/play/fours-up/7")
    other = page.context.new_page()  # the same player in a second tab
    other.errors = []
    t2 = Table(other).open("/play/fours-up/7")
    assert t2.game_id == t.game_id
    t2.drag("t6>f1")
    page.bring_to_front()
    t.drag("t4>t1", expect=False)  # made from version 0, which is gone
    t.wait_message("changed elsewhere")
    page.wait_for_function("document.body.dataset.version === '1'")
    assert t.shown() == t2.shown() and t.state()["piles"]["t6"] == []


def test_a_deal_link_reproduces_the_layout_for_a_new_player(new_page: NewPage) -> None:
    for game, deal in (("czarina", 12), ("four-seasons-1883", 40), ("fours-up", 9)):
        page = new_page()  # a new browser context: a new player
        t = Table(page).open(f"/play/{game}/{deal}")
        expected = patience.new_game(game, deal=deal).piles
        stock = expected.pop("stock")
        assert t.shown() == expected, game
        assert t.state()["stock_count"] == len(stock)
        assert page.inner_text("#deal-link") == f"#{deal}"
        assert page.get_attribute("#deal-link", "href") == f"/play/{game}/{deal}"


# ------------------------------------------------------------- the solver
def test_hint_shows_the_move_and_auto_finish_plays_out_the_win(
        new_page: NewPage, four_seasons_line: tuple[int, list[str]]) -> None:
    deal, line = four_seasons_line
    page = new_page()
    t = Table(page).open(f"/play/four-seasons/{deal}")
    page.click("#b-hint")
    t.wait_message("Hint:")
    assert "winning line" in t.message() and "Hints know the order of the stock" in t.message()
    page.wait_for_selector("#table .card.hint, #table .pile.hint-dst")
    page.wait_for_selector("#b-finish:not([disabled])")
    page.click("#b-finish")
    page.wait_for_selector("#banner.won")
    state = t.state()
    assert state["status"] == "won" and state["moves"] == len(line)


def test_the_end_no_moves_left_and_no_longer_winnable(new_page: NewPage, server: str) -> None:
    # Corners: a deal the solver proves lost is reported as soon as the table is idle
    lost = next(d for d in range(1, 60) if solve(patience.new_game("corners", deal=d),
                                                 max_seconds=1).status == "lost")
    page = new_page()
    t = Table(page).open(f"/play/corners/{lost}")
    page.wait_for_selector("#banner.doomed", timeout=15000)
    assert "can no longer be won" in page.inner_text("#banner")
    page.click("#banner button:has-text('Keep playing')")
    page.wait_for_selector("#banner", state="hidden")
    # deal out the whole stock through the API; the page then shows "no moves left"
    page.evaluate("""async () => {
        const id = document.body.dataset.game;
        let s = await (await fetch('/api/games/' + id)).json();
        while (s.legal_moves.length) {
            const m = s.legal_moves.includes('deal') ? 'deal' : s.legal_moves[0];
            s = await (await fetch(`/api/games/${id}/moves`, {method: 'POST',
                headers: {'Content-Type': 'application/json'},
                body: JSON.stringify({move: m, version: s.version})})).json();
        }
    }""")
    page.reload()
    t.ready()
    page.wait_for_selector("#banner.stuck")
    assert "No moves left" in page.inner_text("#banner")
    assert t.state()["status"] == "lost"
    page.click("#banner button:has-text('New deal')")
    page.wait_for_function("document.body.dataset.status === 'playing'")
    assert t.state()["deal"] != lost or t.state()["moves"] == 0


def test_winnable_deals_only(new_page: NewPage) -> None:
    page = new_page()
    t = Table(page).open("/play/four-seasons/1")
    page.click("#more summary")
    page.check("#opt-winnable")
    page.click("#b-new")
    page.wait_for_function("document.getElementById('msg').textContent.includes('solver has won')",
                           timeout=20000)
    t.idle()
    state = t.state()
    assert state["winnable_only"] and state["deal"] != 1
    assert page.is_enabled("#b-finish")
    assert page.url.endswith(f"/play/four-seasons/{state['deal']}")
