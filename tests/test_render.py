"""The terminal layout (patience.render): every pile labelled, the right cards visible."""

from __future__ import annotations

import re

import pytest
from rich.text import Text

from patience import Game, new_game
from patience.cards import parse_card
from patience.render import card_label, render, render_text
from patience.rules_text import RULES_GAMES

DEALS = (1, 2, 3)


def label_pos(text: str, pid: str) -> tuple[int, int]:
    """(line, column) of the pile label ``pid`` (a whole word, so t1 is not t10)."""
    for i, line in enumerate(text.splitlines()):
        m = re.search(rf"(?<![\w>]){re.escape(pid)}(?![\w])", line)
        if m:
            return i, m.start()
    raise AssertionError(f"no label {pid} in\n{text}")


def visible_cards(game: Game) -> list[str]:
    """The card labels a player must see: whole tableau, reserve and cell piles,
    the top card of each foundation and of the waste (never the stock)."""
    out = []
    for pid, cards in game.piles.items():
        if not cards or pid == "stock":
            continue
        shown = cards if pid[0] in "trc" else cards[-1:]
        out += [card_label(parse_card(c)) for c in shown]
    return out


@pytest.mark.parametrize("deal", DEALS)
@pytest.mark.parametrize("game_id", RULES_GAMES)
def test_every_pile_and_visible_card_is_shown(game_id: str, deal: int) -> None:
    game = new_game(game_id, deal=deal)
    text = render_text(game)
    for pid in game.piles:
        label_pos(text, pid)
    cards = visible_cards(game)
    assert len(cards) >= 6
    for label in cards:
        assert label in text
    n = len(game.piles["stock"])
    assert f"stock  {n} cards" in text
    assert f"deal {deal}" in text.splitlines()[0]
    assert "moves: 0" in text.splitlines()[0]


@pytest.mark.parametrize("game_id", ["four-seasons", "four-seasons-1883", "czarina", "corners",
                                     "simplicity"])
def test_the_stock_stays_hidden(game_id: str) -> None:
    # one deck: every card is unique, so no stock card may appear anywhere
    game = new_game(game_id, deal=2)
    text = render_text(game)
    for c in game.piles["stock"]:
        assert card_label(parse_card(c)) not in text, c


def test_letters_instead_of_symbols() -> None:
    game = new_game("fours-up", deal=7)
    text = render_text(game, symbols=False)
    assert "♣" not in text and "♠" not in text
    for label in ("4C (1)", "AD", "t4"):
        assert label in text
    assert card_label(parse_card("TD"), symbols=False) == "TD"
    assert card_label(parse_card("TD")) == "10♦"
    assert card_label(parse_card("9S"), pad=True) == " 9♠"


def test_render_is_a_rich_renderable_coloured_by_suit() -> None:
    game = new_game("four-seasons", deal=1)  # f1 = JS, t1 = 9D
    assert isinstance(render(game), Text)
    coloured = render_text(game, color=True)
    assert "\x1b[" in coloured
    red = re.compile(r"\x1b\[[0-9;]*31[0-9;]*m(?:\x1b\[[0-9;]*m)*9♦")
    black = re.compile(r"\x1b\[[0-9;]*30[0-9;]*m(?:\x1b\[[0-9;]*m)*J♠")
    assert red.search(coloured), coloured
    assert black.search(coloured), coloured
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured) == render_text(game)


def test_four_seasons_cross_with_foundations_at_the_corners() -> None:
    game = new_game("four-seasons", deal=1)
    text = render_text(game)
    assert "base rank Jack" in text.splitlines()[0]
    pos = {pid: label_pos(text, pid) for pid in ("f1", "t1", "f2", "t2", "t3", "t4", "f3",
                                                 "t5", "f4")}
    rows = [("f1", "t1", "f2"), ("t2", "t3", "t4"), ("f3", "t5", "f4")]
    for row in rows:
        line_nos = {pos[p][0] for p in row}
        assert len(line_nos) == 1, row  # one row
        cols = [pos[p][1] for p in row]
        assert cols == sorted(cols), row  # left to right
    assert pos["f1"][0] < pos["t2"][0] < pos["f3"][0]
    assert pos["f1"][1] == pos["t2"][1] == pos["f3"][1]  # columns line up
    assert pos["t1"][1] == pos["t3"][1] == pos["t5"][1]
    # the card below each label is that pile's card
    lines = text.splitlines()
    assert lines[pos["t1"][0] + 1][pos["t1"][1]:].startswith("9♦")
    assert lines[pos["f1"][0] + 1][pos["f1"][1]:].startswith("J♠ (1)")
    assert "waste  [ ]" in text


def test_four_seasons_piles_grow_as_rows_and_the_waste_shows_its_top() -> None:
    game = new_game("four-seasons", deal=1)
    game.play("t2>t5")  # 5S onto 6C
    game.play("deal")
    game.play("deal")
    text = render_text(game)
    assert "6♣ 5♠" in text
    top = card_label(parse_card(game.piles["waste"][-1]))
    assert f"waste  {top} (2)" in text
    assert "stock  44 cards" in text
    assert "moves: 3" in text.splitlines()[0]


def test_1883_is_a_boxed_square() -> None:
    text = render_text(new_game("four-seasons-1883", deal=1))
    assert text.count("┌") == 1 and text.count("┘") == 1 and text.count("┼") == 4
    assert label_pos(text, "f1")[0] == label_pos(text, "t1")[0] == label_pos(text, "f2")[0]
    assert "base rank Five" in text


def test_corners_cells_in_the_cross() -> None:
    text = render_text(new_game("corners", deal=1))
    assert label_pos(text, "c2")[0] == label_pos(text, "c3")[0] == label_pos(text, "c4")[0]
    assert label_pos(text, "c1")[0] == label_pos(text, "f1")[0]
    assert not re.search(r"\bt\d", text)


def test_simplicity_two_rows_of_six() -> None:
    text = render_text(new_game("simplicity", deal=1))
    top = {label_pos(text, f"t{i}")[0] for i in range(1, 7)}
    bottom = {label_pos(text, f"t{i}")[0] for i in range(7, 13)}
    assert len(top) == 1 and len(bottom) == 1 and min(top) < min(bottom)
    assert [label_pos(text, f"t{i}")[1] for i in range(1, 7)] == \
        [label_pos(text, f"t{i}")[1] for i in range(7, 13)]


def test_quadrennial_foundations_reserves_and_passes() -> None:
    game = new_game("quadrennial", deal=1)
    game.play("deal")
    text = render_text(game)
    assert "pass 1 of 3 (2 redeals left)" in text
    assert len({label_pos(text, f"f{i}")[0] for i in range(1, 9)}) == 1
    assert len({label_pos(text, f"f{i}")[0] for i in range(9, 17)}) == 1
    assert len({label_pos(text, f"r{i}")[0] for i in range(1, 9)}) == 8  # one row each
    assert "A♣ (1)" in text
    for i in range(1, 9):
        line = text.splitlines()[label_pos(text, f"r{i}")[0]]
        shown = [card_label(parse_card(c)) for c in game.piles[f"r{i}"]]
        assert line.split()[1:] == shown  # the whole pile, bottom to top
    assert f"stock  {len(game.piles['stock'])} cards" in text
    assert "waste" not in text


def test_fours_up_columns_show_whole_runs() -> None:
    game = new_game("fours-up", deal=7)
    game.state = game.rules.make_state({
        "f1": ["4C", "5C"], "f2": ["4D"], "f3": ["4H"], "f4": ["4S"], "f5": ["4C"],
        "f6": ["4D"], "f7": ["4H"], "f8": ["4S"],
        "t1": ["KS", "QH", "JD", "TC"], "t2": [], "t3": ["3D"], "t4": ["AD"], "t5": ["9H"],
        "t6": ["6S"], "stock": ["2C"] * 5, "waste": ["7D", "8C"]})
    text = render_text(game)
    lines = text.splitlines()
    row, col = label_pos(text, "t1")
    assert [lines[row + k][col:col + 3] for k in range(1, 5)] == [" K♠", " Q♥", " J♦", "10♣"]
    row2, col2 = label_pos(text, "t2")
    assert row2 == row and lines[row + 1][col2:col2 + 3] == "[ ]"
    assert "5♣ (2)" in text
    assert "waste  8♣ (2)" in text
    assert "stock  5 cards" in text


def test_piles_building_against_the_usual_way_say_which_way() -> None:
    # RULES B3 (Penta: f1–f4 build up, f5–f8 down; t1–t3 down, t4–t6 up): every label of
    # such a game carries its direction, in symbols or in letters
    text = render_text(new_game("penta", deal=1))
    assert re.search(r"f1 ↑ .*f4 ↑ .*f5 ↓ .*f8 ↓", text)
    assert re.search(r"t1 ↓ .*t3 ↓ .*t4 ↑ .*t6 ↑", text)
    plain = render_text(new_game("penta", deal=1), symbols=False)
    assert "f1 up" in plain and "f5 dn" in plain and "t4 up" in plain and "t1 dn" in plain
    # RULES B3 (Sixes and Sevens: the Sevens up, the Sixes down)
    text = render_text(new_game("sixes-and-sevens", deal=1))
    assert "f8 ↑" in text and "f9 ↓" in text and "f16 ↓" in text
    # the usual ways (foundations up, tableau down) are not labelled
    for game_id in ("four-seasons", "fours-up", "jacks-in-the-box"):
        text = render_text(new_game(game_id, deal=1))
        assert "↑" not in text and "↓" not in text
