"""The `patience` command and the player-facing rules texts (docs/rules.md)."""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from rich.console import Console

from patience import Game, Move, get_spec, new_game
from patience.cards import parse_card
from patience.cli import COMMANDS, Subparsers, _Session, build_parser, main
from patience.render import card_label, render_text
from patience.rules_text import RULES_GAMES, rules_markdown_all, rules_text

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _wide(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rich wraps at $COLUMNS when not on a terminal: keep table cells on one line."""
    monkeypatch.setenv("COLUMNS", "200")


def run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *argv: str,
        stdin: str = "") -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def flat(text: str) -> str:
    return " ".join(text.split()).lower()


# ---------------------------------------------------------------------- games
def test_games_lists_every_game_with_odds(capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, err = run(capsys, monkeypatch, "games")
    assert code == 0 and err == ""
    for game_id in RULES_GAMES:
        spec = get_spec(game_id)
        line = next(line for line in out.splitlines() if f" {game_id} " in line)
        assert spec.name in line
        assert f" {spec.decks} " in line
        for alias in spec.aliases:
            assert alias in line
    assert "about 1 in 10 (Morehead & Mott-Smith)" in out
    assert "45% (" in out


# ---------------------------------------------------------------------- rules
#: For each game, phrases that every "Decision" of RULES.md (and the project's own
#: decisions) must be stated by, plus the key rules a player needs.
DECISIONS: dict[str, list[str]] = {
    "four-seasons": [
        "building across the base is forbidden",
        "nothing is ever placed on a card of the base rank",
        "a space may be filled straight from the stock",
        "`stock>tk`",
        "the waste starts empty",
        "no redeal",
        "a king on an ace",
    ],
    "four-seasons-1883": [
        "3×3 square",
        "opening deal (automatic)",
        "only the opening deal plays cards by itself",
        "of the base rank may found any empty corner",
        "a packet never fills a vacancy",
        "a vacancy may be filled with a pile's only card",
        "a pending vacancy also blocks `deal`",
        "only when the waste is empty may it be filled with the next card of the stock",
        "building across the base is forbidden",
        "the waste starts empty",
    ],
    "czarina": [
        "refilled with the next card of the stock",
        "spaces are filled only by the stock, automatically",
        "once the stock is empty, an emptied pile stays empty",
        "building across the base is forbidden",
        "the waste starts empty",
    ],
    "corners": [
        "five **cells**",
        "at most one card",
        "may only go to a foundation",
        "an emptied cell is at once refilled with the next card of the stock",
        "two redeals and four independent foundation bases",
        "hoffmann, pysolfc",
        "politaire",
        "no redeal, and one base rank for all four foundations",
        "the waste starts empty",
    ],
    "simplicity": [
        "twelve piles in two rows of six",
        "the thirteenth card goes to `f1`",
        "red on black, black on red",
        "39 cards",
        "building across the base is forbidden",
        "a space may be filled straight from the stock",
        "the waste starts empty",
    ],
    "quadrennial": [
        "sixteen aces",
        "up regardless of suit",
        "another foundation that accepts it",
        "only to a foundation",
        "deals skip empty reserve piles",
        "auld lang syne",
        "when every reserve pile is empty and the stock still has cards",
        "gathering order",
        "the new stock deals b1 b2 a1 a2 a3",
        "three passes in all",
    ],
    "fours-up": [
        "4 5 6 7 8 9 10 j q k a 2 3",
        "nothing is ever placed on a four",
        "the four is the lowest card of a tableau sequence",
        "100 deals",
        "runs move regardless of suit",
        "foundation play-back is allowed",
        "other foundations included",
        "if another pile can take it",
        "there is no `stock>tk`",
        "one pass, no redeal",
    ],
    # RULES Part B
    "florentine": [
        "one redeal", "turns the whole waste over, unshuffled", "two passes",
        "nothing is ever placed on a card of the base rank",
    ],
    "leap-year": [
        "empty ones included", "cards never leave a foundation", "four decks",
        "no redeal", "sixteen foundations",
    ],
    "acquaintance": [
        "empty ones included", "cards never leave a foundation", "three passes in all",
        "gathering order",
    ],
    "auld-lang-syne": ["empty ones included", "cards never leave a foundation", "no redeal"],
    "busy-aces": [
        "nothing is ever placed on an ace", "no king on an ace", "play-back is allowed",
        "the aces are not dealt", "one rank lower and of the same suit",
        "only one card moves at a time",
    ],
    "deuces": [
        "nothing is ever placed on a two", "a king goes on an ace", "any run in suit",
        "only from the waste or straight from the stock", "never with a card or a run",
        "2 3 4 5 6 7 8 9 10 j q k a",
    ],
    "threes-company": [
        "nothing is ever placed on a three", "a king goes on an ace", "any run in suit",
        "3 4 5 6 7 8 9 10 j q k a 2",
    ],
    "cast-out-nines": [
        "nothing is ever placed on a nine", "the nines are not dealt", "empty foundation",
        "9 10 j q k a 2 3 4 5 6 7 8",
    ],
    "dimes": [
        "nothing is ever placed on a ten", "the tens are not dealt",
        "10 j q k a 2 3 4 5 6 7 8 9",
    ],
    "jacks-in-the-box": [
        "nothing is ever placed on a jack", "a king goes on an ace",
        "j q k a 2 3 4 5 6 7 8 9 10", "foundation play-back is allowed",
        "never its starting jack", "into an empty cell", "the four cells start empty",
        "a cell takes any single card", "only one card moves at a time",
        "one pass, no redeal",
    ],
    "eights-down": [
        "nothing is ever placed on an eight", "an ace goes on a king",
        "read for a tableau that builds up", "**down in suit** (8 7 6 5 4 3 2 a k q j 10 9)",
        "one rank higher and of the same suit", "any run in suit",
        "foundation play-back is allowed", "never its starting eight",
        "the redeal turns the waste over unshuffled, once", "two passes",
    ],
    "penta": [
        "a card may be placed on a five", "no exception for the base rank",
        "a four on a five", "a six on a five",
        "**up regardless of suit**, round the corner (5 6 7 8 9 10 j q k a 2 3 4)",
        "**down regardless of suit**, round the corner (5 4 3 2 a k q j 10 9 8 7 6)",
        "cards are played back only from `f1` … `f4`", "cards never leave `f5` … `f8`",
        "one that builds down included", "any five", "one pass, no redeal",
    ],
    "sixes-and-sevens": [
        "no foundation play-back", "cards never leave a foundation",
        "the foundations end at the king and the ace", "(7 8 9 10 j q k)", "(6 5 4 3 2 a)",
        "complete with 7 cards", "complete with 6 cards",
        "a cell takes the top card of the waste or another cell's card",
        "`f1` … `f8` hold the sevens and `f9` … `f16` the sixes", "there is no tableau",
        "one pass, no redeal",
    ],
}


def test_every_game_has_its_decisions() -> None:
    assert set(DECISIONS) == set(RULES_GAMES)


@pytest.mark.parametrize("game_id", RULES_GAMES)
def test_rules_text_states_every_decision(game_id: str) -> None:
    text = rules_text(game_id)
    assert text.startswith(f"## {get_spec(game_id).name}\n")
    for heading in ("Layout", "(Opening d|D)eal", "Foundations", "Decisions", "Moves",
                    "End of the game"):
        assert re.search(rf"^### {heading}", text, re.M), heading
    body = flat(text)
    for phrase in DECISIONS[game_id]:
        assert phrase in body, phrase
    assert "you win when every card is on a foundation" in body


@pytest.mark.parametrize("game_id", RULES_GAMES)
def test_rules_moves_part_uses_this_games_piles(game_id: str) -> None:
    spec = get_spec(game_id)
    moves_part = rules_text(game_id).split("### Moves", 1)[1]
    examples = re.findall(r"^- `([^`]+)`", moves_part, re.M)
    assert "deal" in examples and len(examples) >= 2
    for text in examples:
        m = Move.parse(text)
        for pid in (m.src, m.dst):
            assert not pid or pid == "deal" or pid in spec.pile_ids, (text, pid)
    runs = "t2>t5x3" in examples
    assert runs == (game_id in ("four-seasons-1883", "fours-up", "threes-company", "deuces",
                                "eights-down"))
    assert ("stock>t4" in examples) == (game_id in ("four-seasons", "four-seasons-1883",
                                                    "simplicity", "florentine", "deuces"))


@pytest.mark.parametrize("game_id", RULES_GAMES)
def test_rules_command_prints_the_rules(capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch, game_id: str) -> None:
    code, out, err = run(capsys, monkeypatch, "rules", game_id)
    assert code == 0 and err == ""
    assert out == rules_text(game_id)  # not a terminal: the Markdown as it is


def test_rules_by_alias(capsys: pytest.CaptureFixture[str],
                        monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = run(capsys, monkeypatch, "rules", "Vanishing Cross")
    assert code == 0 and out.startswith("## Four Seasons\n")


def test_rules_rendered_as_markdown_on_a_terminal() -> None:
    buf = io.StringIO()
    console = Console(file=buf, force_terminal=True, width=100, markup=False)
    args = build_parser().parse_args(["rules", "czarina"])
    assert args.handler(args, console) == 0
    plain = re.sub(r"\x1b\[[0-9;]*m", "", buf.getvalue())
    assert "## " not in plain and "Czarina" in plain
    assert "refilled with the next card of the stock" in flat(plain)


def test_docs_rules_md_is_generated_from_the_texts() -> None:
    page = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert page == rules_markdown_all(), \
        "docs/rules.md is out of date: run python -m patience.rules_text > docs/rules.md"


def github_slug(heading: str) -> str:
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_docs_rules_md_anchors_are_the_game_ids() -> None:
    page = rules_markdown_all()
    slugs = [github_slug(h) for h in re.findall(r"^## (.+)$", page, re.M)]
    for game_id in RULES_GAMES:
        assert game_id in slugs
        assert f"](#{game_id})" in page
    # every link of the README's games table points at an anchor that exists
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for anchor in re.findall(r"docs/rules\.md#([\w-]+)", readme):
        assert anchor in slugs


def test_wrapped_lines_never_start_markdown_blocks() -> None:
    """Re-wrapped paragraphs must not turn a continuation line into a list or heading."""
    marker = re.compile(r"(#|> |[-*+] |\d+[.)] )")
    for block in rules_markdown_all().split("\n\n"):
        first, *rest = block.splitlines()
        is_list = marker.match(first) and not first.startswith("#")
        for line in rest:
            if is_list and not line.startswith(" "):
                assert marker.match(line), line  # the next item of the list
            else:
                assert not marker.match(line.lstrip()), line  # a continuation line


# ----------------------------------------------------------------------- show
def test_show_prints_the_layout(capsys: pytest.CaptureFixture[str],
                                monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, err = run(capsys, monkeypatch, "show", "four-seasons", "--deal", "1")
    assert code == 0 and err == ""
    assert out.rstrip("\n") == render_text(new_game("four-seasons", deal=1))
    assert "next card first" not in out


def test_show_with_the_stock_lists_it_next_card_first(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = run(capsys, monkeypatch, "show", "four-seasons", "--deal", "5", "--stock",
                       "--ascii")
    assert code == 0
    listing = out.split("stock, next card first (46 cards):", 1)[1].split()
    assert listing == new_game("four-seasons", deal=5).piles["stock"][::-1]


def test_show_random_deal(capsys: pytest.CaptureFixture[str],
                          monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = run(capsys, monkeypatch, "show", "fours-up")
    assert code == 0
    deal = int(re.search(r"· deal (\d+) ·", out).group(1))  # type: ignore[union-attr]
    assert out.rstrip("\n") == render_text(new_game("fours-up", deal=deal))


# ------------------------------------------------------------------- failures
@pytest.mark.parametrize("argv", [["rules", "nope"], ["show", "nope", "--deal", "1"],
                                  ["play", "nope"]])
def test_unknown_game_exits_2_listing_the_games(capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch,
                                                argv: list[str]) -> None:
    code, out, err = run(capsys, monkeypatch, *argv)
    assert code == 2 and out == ""
    assert "no game 'nope'" in err and "Traceback" not in err
    for game_id in RULES_GAMES:
        assert game_id in err


@pytest.mark.parametrize(("deal", "why"), [("-1", "out of range"), ("abc", "whole number"),
                                           ("18446744073709551616", "out of range")])
def test_bad_deal_number_exits_2(capsys: pytest.CaptureFixture[str],
                                 monkeypatch: pytest.MonkeyPatch, deal: str, why: str) -> None:
    code, out, err = run(capsys, monkeypatch, "play", "four-seasons", "--deal", deal)
    assert code == 2 and out == ""
    assert "--deal" in err and why in err and "Traceback" not in err


def test_no_command_and_help(capsys: pytest.CaptureFixture[str],
                             monkeypatch: pytest.MonkeyPatch) -> None:
    code, _, err = run(capsys, monkeypatch)
    assert code == 2 and "play" in err and "rules" in err
    code, out, _ = run(capsys, monkeypatch, "--help")
    assert code == 0 and "games" in out and "show" in out


def test_a_command_can_be_plugged_in(capsys: pytest.CaptureFixture[str],
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    # (named "demo": the real `solve` command is registered by patience.solve_cli)
    def add_demo_command(subparsers: Subparsers) -> None:
        p = subparsers.add_parser("demo", help="solve a deal")
        p.add_argument("game")

        def handler(args: argparse.Namespace, console: Console) -> int:
            console.print(f"solving {get_spec(args.game).id}")
            return 0

        p.set_defaults(handler=handler)

    monkeypatch.setattr("patience.cli.COMMANDS", [*COMMANDS, add_demo_command])
    code, out, _ = run(capsys, monkeypatch, "demo", "czarina")
    assert code == 0 and out == "solving czarina\n"
    code, _, err = run(capsys, monkeypatch, "demo", "nope")
    assert code == 2 and "no game 'nope'" in err


# ----------------------------------------------------------------------- play
PROMPT = "move (or help)> "


def session(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
            game: str, *lines: str, deal: str | None = "1") -> tuple[int, list[str]]:
    """Play ``lines``; the output cut at each prompt: [before the first input, after the
    first input, …]; each input line is echoed at the start of its part."""
    argv = ["play", game] + (["--deal", deal] if deal is not None else [])
    code, out, err = run(capsys, monkeypatch, *argv, stdin="".join(f"{x}\n" for x in lines))
    assert err == ""
    return code, out.split(PROMPT)


def board_of(part: str) -> str:
    """The layout printed in one part of the session (from its title line)."""
    start = part.index("Four Seasons ·")
    return part[start:].split("\n\n\n", 1)[0].split("\n\nPlayed", 1)[0] \
        .split("\n\nTook back", 1)[0].split("\n\nDealt", 1)[0].split("\n\nPlayed again")[0]


def test_play_a_scripted_session(capsys: pytest.CaptureFixture[str],
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    ref = new_game("four-seasons", deal=1)
    start = render_text(ref)
    ref.play("t2>t5")
    after = render_text(ref)
    code, parts = session(capsys, monkeypatch, "four-seasons",
                          "t2>t5", "t1>f2", "hello", "undo", "redo", "moves", "quit", "deal")
    assert code == 0
    assert len(parts) == 8  # seven prompts answered; nothing read after quit
    first, move, illegal, malformed, undo, redo, moves, end = parts
    assert first.rstrip("\n") == start
    # a legal move redraws the changed layout
    assert move.startswith("t2>t5\n")
    assert after in move and "6♣ 5♠" in move and "Played t2>t5." in move
    # an illegal move says why and changes nothing (no redraw)
    assert illegal == ("t1>f2\nillegal move t1>f2: an empty foundation takes only a card of "
                       "the base rank (Jack), not 9D.\n")
    assert malformed.startswith("hello\nNot a move: 'hello'") and "help" in malformed
    assert "Four Seasons ·" not in illegal + malformed
    # undo and redo
    assert start in undo and "Took back t2>t5." in undo
    assert after in redo and "Played again t2>t5." in redo
    # moves lists the legal moves of the position
    legal = [str(m) for m in ref.legal_moves()]
    assert moves == f"moves\nLegal moves ({len(legal)}): {'  '.join(legal)}\n"
    assert end == "quit\n"


def test_play_illegal_move_keeps_the_position(capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    code, parts = session(capsys, monkeypatch, "four-seasons", "t3>t1", "t1>t3x2",
                          "stock>f1", "board")
    assert code == 0  # EOF ends the game quietly
    assert "illegal move t3>t1: 3C does not go on 9D: only an Eight does" in parts[1]
    assert "illegal move t1>t3x2: t1 holds only 1 card" in parts[2]
    assert "illegal move stock>f1" in parts[3]
    assert board_of(parts[4]) == board_of(parts[0])
    assert "moves: 0" in parts[4]


def test_play_help_and_deal_shortcut(capsys: pytest.CaptureFixture[str],
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    code, parts = session(capsys, monkeypatch, "fours-up", "help", "d", "rules", "q", deal="7")
    assert code == 0
    assert "t2>t5x3" in parts[1] and "undo" in parts[1] and "quit" in parts[1]
    ref = new_game("fours-up", deal=7)
    ref.play("deal")
    top = card_label(parse_card(ref.piles["waste"][-1]))
    assert f"Dealt {top}." in parts[2] and "stock  89 cards" in parts[2]
    assert render_text(ref) in parts[2]
    assert parts[3] == "rules\n" + rules_text("fours-up")


def test_play_random_deal_prints_its_number(capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    code, parts = session(capsys, monkeypatch, "czarina", "quit", deal=None)
    assert code == 0
    m = re.search(r"^Deal (\d+): play it again with `patience play czarina --deal \1`\.$",
                  parts[0], re.M)
    assert m is not None
    assert parts[0].startswith(render_text(new_game("czarina", deal=int(m.group(1)))))


def test_play_says_when_the_game_is_lost() -> None:
    game = Game("four-seasons", deal=1)
    game.state = game.rules.make_state({"f1": ["JS"], "t1": ["9D"], "t2": ["5S"], "t3": ["3C"],
                                        "t4": ["5C"], "t5": ["KC"], "waste": ["7H"]}, base=11)
    assert game.is_lost
    buf = io.StringIO()
    s = _Session(game, Console(file=buf, width=120, markup=False), symbols=True)
    s.status()
    s.step("moves")
    assert buf.getvalue() == ("No moves left: the game is lost. (undo takes moves back; quit "
                              "stops.)\nNo legal moves.\n")


def test_play_says_when_the_game_is_won() -> None:
    game = Game("four-seasons", deal=1)
    order = "JQKA23456789T"
    game.state = game.rules.make_state(
        {f"f{i + 1}": [r + s for r in order] for i, s in enumerate("SHDC")}, base=11)
    assert game.is_won
    buf = io.StringIO()
    s = _Session(game, Console(file=buf, width=120, markup=False), symbols=True)
    s.step("board")
    out = buf.getvalue()
    assert "You won! All 52 cards are on the foundations" in out
    assert "10♠ (13)" in out and "10♣ (13)" in out


def test_play_1883_vacancy_must_be_filled_first(capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    # deal 1: t3 = JS, t4 = QS; moving JS leaves the vacancy t3
    code, parts = session(capsys, monkeypatch, "four-seasons-1883", "t3>t4", "deal", "moves",
                          "t4>t3")
    assert code == 0
    assert "t3 must be filled at once" in parts[1]
    assert parts[2].startswith("deal\nillegal move deal: t3 must be filled first")
    assert parts[3] == "moves\nLegal moves (5): t1>t3  t2>t3  t4>t3  t5>t3  stock>t3\n"
    assert "must be filled" not in parts[4] and "moves: 2" in parts[4]


# ------------------------------------------------------------ verdict files
def test_odds_export_and_import_commands(capsys: pytest.CaptureFixture[str],
                                         monkeypatch: pytest.MonkeyPatch,
                                         tmp_path: Path) -> None:
    db, copy, d = (f"sqlite:///{tmp_path / 'a.db'}", f"sqlite:///{tmp_path / 'b.db'}",
                   tmp_path / "v")
    code, out, _ = run(capsys, monkeypatch, "odds", "corners", "--deals", "1-3",
                       "--nodes", "2000", "--workers", "1", "--db", db)
    assert code == 0
    code, out, _ = run(capsys, monkeypatch, "odds-export", "--db", db, "--dir", str(d))
    assert code == 0 and "wrote 3 verdicts of 1 games" in flat(out)
    assert (d / "corners.txt").read_text().count("\ncorners thoughtful ") == 1
    code, out, _ = run(capsys, monkeypatch, "odds-import", "--db", copy, "--dir", str(d))
    assert code == 0 and "added 3 verdicts" in flat(out)
    (d / "corners.txt").write_text("corners thoughtful x 1.6 2cpu 1 W?\n")
    code, out, _ = run(capsys, monkeypatch, "odds-import", "--db", copy, "--dir", str(d))
    assert code == 2 and "corners.txt:1: unknown verdict letter '?'" in out
    code, out, _ = run(capsys, monkeypatch, "odds-import", "--db", copy,
                       "--dir", str(tmp_path / "none"))
    assert code == 2 and "no directory" in out
    code, out, _ = run(capsys, monkeypatch, "odds", "corners", "--nodes", "9",
                       "--wall-clock", "--db", db)
    assert code == 2 and "--wall-clock reads --budget" in out
    for bad in ("nan", "inf", "0"):
        code, _, err = run(capsys, monkeypatch, "odds", "corners", "--budget", bad, "--db", db)
        assert code == 2 and "must be a positive number" in err


def test_an_interrupted_odds_run_says_what_it_kept(capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch,
                                                   tmp_path: Path) -> None:
    # Ctrl-C (or a worker killed) ends the run with a word, not a traceback: the verdicts
    # reached are stored, and the same command solves only the rest
    import patience.odds as odds_mod
    from patience.fair import FairPolicy

    db = f"sqlite:///{tmp_path / 'a.db'}"
    real = odds_mod.solve_deal
    solved: list[int] = []

    def stopped(game: str, deal: int, budget: odds_mod.Budget,
                fair: FairPolicy | None) -> odds_mod.Verdict:
        if deal == 3:
            raise KeyboardInterrupt
        solved.append(deal)
        return real(game, deal, budget, fair)

    monkeypatch.setattr(odds_mod, "solve_deal", stopped)
    code, out, _ = run(capsys, monkeypatch, "odds", "corners", "--deals", "1-4",
                       "--nodes", "2000", "--workers", "1", "--db", db)
    assert code == 130
    assert "interrupted: 2 deals solved and stored" in flat(out)
    monkeypatch.setattr(odds_mod, "solve_deal", real)
    code, out, _ = run(capsys, monkeypatch, "odds", "corners", "--deals", "1-4",
                       "--nodes", "2000", "--workers", "1", "--db", db)
    assert code == 0 and "2 of 4 deals already stored; solving 2" in flat(out)
    assert solved == [1, 2]


def test_sigterm_stops_an_odds_run_as_ctrl_c_does(capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch,
                                                  tmp_path: Path) -> None:
    # ``kill`` or ``timeout`` (SIGTERM) reaches a run that Ctrl-C cannot (one started with
    # nohup or in the background ignores SIGINT): the same word, the same verdicts kept
    import patience.odds as odds_mod
    from patience.fair import FairPolicy

    db = f"sqlite:///{tmp_path / 'a.db'}"
    real = odds_mod.solve_deal

    def killed(game: str, deal: int, budget: odds_mod.Budget,
               fair: FairPolicy | None) -> odds_mod.Verdict:
        if deal == 4:
            # (without the run's handler the signal would end the test process itself)
            assert signal.getsignal(signal.SIGTERM) is not before, "no SIGTERM handler"
            os.kill(os.getpid(), signal.SIGTERM)
        return real(game, deal, budget, fair)

    before = signal.getsignal(signal.SIGTERM)
    monkeypatch.setattr(odds_mod, "solve_deal", killed)
    code, out, _ = run(capsys, monkeypatch, "odds", "corners", "--deals", "1-6",
                       "--nodes", "2000", "--workers", "1", "--db", db)
    assert code == 130
    assert "interrupted: 3 deals solved and stored" in flat(out)
    assert signal.getsignal(signal.SIGTERM) is before  # the handler is the run's alone
    monkeypatch.setattr(odds_mod, "solve_deal", real)
    code, out, _ = run(capsys, monkeypatch, "odds", "corners", "--deals", "1-6",
                       "--nodes", "2000", "--workers", "1", "--db", db)
    assert code == 0 and "3 of 6 deals already stored; solving 3" in flat(out)


def _workers(pid: int) -> set[int]:
    """The pool's worker processes of ``pid`` (not its resource tracker)."""
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):
            for c in (task / "children").read_text().split():
                with contextlib.suppress(OSError):
                    if b"spawn_main" in Path(f"/proc/{c}/cmdline").read_bytes():
                        found.add(int(c))
    return found


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0] != "Z"
    except (OSError, IndexError):
        return False


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc")
def test_sigterm_stops_a_pool_of_workers_at_once(tmp_path: Path) -> None:
    # the workers are stopped in the middle of their deals (60 s each here), not waited for,
    # and what the run says it stored is in the database
    db = tmp_path / "a.db"
    cmd = [sys.executable, "-m", "patience", "odds", "czarina", "--deals", "2-40",
           "--budget", "60", "--workers", "2", "--db", f"sqlite:///{db}"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env={**os.environ, "COLUMNS": "200"})
    workers: set[int] = set()
    try:
        deadline = time.monotonic() + 60
        while len(workers) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
            workers = _workers(proc.pid)
        assert len(workers) == 2, "the pool's two workers never started"
        time.sleep(2)  # into their first deals
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=30)
        time.sleep(0.5)
        survivors = [w for w in workers if _alive(w)]
    finally:  # (failing: nothing left running, and the workers hold the output pipe too)
        running = [proc.pid] if proc.poll() is None else []
        for pid in running + [w for w in workers if _alive(w)]:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
    assert not survivors, "a worker outlived the run"
    assert proc.returncode == 130, out
    said = re.search(r"interrupted: (\d+) deals? solved and stored", out)
    assert said is not None, out
    stored = sqlite3.connect(db).execute("select count(*) from solve_results").fetchone()[0]
    assert stored == int(said.group(1))
