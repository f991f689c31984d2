"""The pages around the table in a browser: the feedback form, statistics, the restore code
taken to another browser, the lobby's "continue", the rules page."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from driver import Table

pytestmark = pytest.mark.browser

NewPage = Callable[..., Any]


def test_feedback_from_the_table(new_page: NewPage) -> None:
    page = new_page()
    t = Table(page).open("/play/corners/8")
    t.click_stock()
    page.click(".feedback-box summary")
    page.fill("#fb-text", "The stock looks lovely")
    page.click("#feedback button[type=submit]")
    page.wait_for_function("document.getElementById('fb-status').textContent.includes('thank')")
    assert page.input_value("#fb-text") == ""


def test_restore_code_carries_the_games_to_another_browser(new_page: NewPage) -> None:
    first = new_page()
    t = Table(first).open("/play/czarina/31")
    t.click_stock()
    game_id = t.game_id
    first.goto("/player")
    first.wait_for_function("document.getElementById('me').textContent.includes('1 game')")
    first.click("#export")
    first.wait_for_selector("#code:not([hidden])")
    code = first.inner_text("#code")
    assert re.fullmatch(r"[0-9A-Z]{4}(-[0-9A-Z]{4}){3}", code)

    second = new_page(phone=True)  # another browser: another player, until the code is entered
    second.goto("/stats")
    second.wait_for_selector("#recent-empty:not([hidden])")
    second.goto("/player")
    second.fill("#restore-code", code.lower().replace("-", " "))
    second.click("#restore button[type=submit]")
    second.wait_for_function(
        "document.getElementById('restore-status').textContent.includes('restored')")
    second.goto("/stats")
    second.wait_for_selector("#recent li")
    assert "Czarina #31" in second.inner_text("#recent")
    # the lobby offers to continue the unfinished deal, and the table takes it up
    second.goto("/")
    second.wait_for_selector("#game-czarina .resume:not([hidden])")
    assert "Continue deal #31" in second.inner_text("#game-czarina .resume")
    second.click("#game-czarina .resume a")
    t2 = Table(second)
    t2.ready()
    assert t2.game_id == game_id and t2.state()["moves"] == 1


def test_statistics_after_a_finished_game(new_page: NewPage) -> None:
    page = new_page()
    t = Table(page).open("/play/fours-up/3")
    page.click("#more summary")
    page.click("#b-resign")  # the confirmation is accepted
    page.wait_for_selector("#banner.over")
    assert "given up" in page.inner_text("#banner")
    page.goto("/stats")
    page.wait_for_function("document.getElementById('t-played').textContent === '1'")
    row = page.inner_text("tr[data-game='fours-up']")
    assert row.split("\t")[1:4] == ["1", "0", "0%"]
    # The latest games come from a second request, which may answer after the first.
    page.wait_for_selector("#recent li")
    assert "resigned" in page.inner_text("#recent")
    assert t.errors() == []


def test_rules_page_links_to_play_and_related_games(new_page: NewPage) -> None:
    page = new_page()
    page.goto("/rules/fours-up")
    assert page.inner_text("h1") == "Rules of Fours Up"
    assert page.locator("#decisions").count() == 1
    assert page.locator("#decisions + p + ol > li").count() >= 3
    page.click("text=Play Fours Up")
    Table(page).ready()
    assert "/play/fours-up" in page.url
