"""`patience solve`: verdicts, counters, the winning line, replay, and argument errors."""

from __future__ import annotations

import io
import re

import pytest

import patience
from patience.cli import build_parser, main
from patience.solve_cli import format_line, parse_moves, verdict_text
from patience.solver import SolveResult

EASY = ("fours-up", "2")  # won in a few hundred positions
LOST = ("corners", "1")  # proven lost in a few hundred positions
HARD = ("czarina", "84")  # undecided after 60 s of CPU time (solvers 1.20-1.33)


@pytest.fixture(autouse=True)
def _wide(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")


def run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *argv: str,
        stdin: str = "") -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def line_moves(out: str) -> list[str]:
    """The numbered moves of the printed winning line, in order (numbers checked)."""
    found = re.findall(r"(\d+)\. (\S+)", out.split("winning line", 1)[1].split("\n\n")[0])
    numbers = [int(n) for n, _ in found]
    assert numbers == list(range(numbers[0], numbers[0] + len(numbers)))
    return [m for _, m in found]


def test_solve_is_a_registered_command() -> None:
    help_text = build_parser().format_help()
    assert "solve" in help_text


def test_won_prints_verdict_counters_and_a_line_that_replays(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, err = run(capsys, monkeypatch, "solve", EASY[0], "--deal", EASY[1])
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "Fours Up · deal 2"
    assert lines[1] == "verdict: won"
    assert re.fullmatch(r"positions: [\d,]+ · time: \d+\.\d{3} s · table: [\d,]+ · "
                        r"[\d,]+ positions/s", lines[2])
    n = int(re.search(r"winning line \((\d+) moves\):", out).group(1))  # type: ignore[union-attr]
    moves = line_moves(out)
    assert len(moves) == n
    # several moves to a line
    assert len(lines) < 3 + 1 + n // 3 + 2
    g = patience.new_game(EASY[0], deal=int(EASY[1]))
    for m in moves:
        g.play(m)
    assert g.is_won


def test_lost_says_how_it_was_proven(capsys: pytest.CaptureFixture[str],
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = run(capsys, monkeypatch, "solve", LOST[0], "-d", LOST[1], "--budget", "10")
    assert code == 0
    assert re.search(r"^verdict: lost \(proven: \w[^)]*\)$", out, re.M)
    assert "winning line" not in out
    assert "positions: " in out


def test_unknown_names_the_budget(capsys: pytest.CaptureFixture[str],
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = run(capsys, monkeypatch, "solve", HARD[0], "--deal", HARD[1],
                       "--budget", "0.5")
    assert code == 0
    assert "verdict: unknown within 0.5 s" in out
    assert "winning line" not in out
    assert re.search(r"best line found: \d+ moves, \d+ of 52 cards home", out)


def test_replay_without_waiting_prints_every_position(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = run(capsys, monkeypatch, "solve", "four-seasons", "--deal", "3",
                       "--replay", "--no-wait", "--ascii")
    assert code == 0
    moves = line_moves(out)
    steps = re.findall(r"^Move (\d+) of (\d+): (\S+)$", out, re.M)
    assert [int(i) for i, _, _ in steps] == list(range(1, len(moves) + 1))
    assert [m for _, _, m in steps] == moves
    assert out.count("Four Seasons · deal 3 · ") == len(moves) + 1  # every layout drawn
    assert "moves: 0" in out and f"moves: {len(moves)}" in out
    assert out.rstrip().endswith("Won: all 52 cards are on the foundations.")
    assert "♠" not in out and "♥" not in out  # --ascii


def test_replay_waits_for_enter_and_stops_on_q(capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = run(capsys, monkeypatch, "solve", *EASY[:1], "--deal", EASY[1], "--replay",
                       stdin="\n\nq\n")
    assert code == 0
    assert re.findall(r"^Move (\d+) of", out, re.M) == ["1", "2"]
    assert "Won:" not in out
    # end of input stops quietly too
    code, out, _ = run(capsys, monkeypatch, "solve", *EASY[:1], "--deal", EASY[1], "--replay",
                       stdin="\n")
    assert code == 0
    assert re.findall(r"^Move (\d+) of", out, re.M) == ["1"]


def test_replay_of_a_loss_has_nothing_to_show(capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = run(capsys, monkeypatch, "solve", LOST[0], "--deal", LOST[1], "--replay",
                       "--no-wait")
    assert code == 0
    assert "(no winning line to replay)" in out
    assert "Move 1" not in out


def test_moves_start_from_a_later_position(capsys: pytest.CaptureFixture[str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = run(capsys, monkeypatch, "solve", *EASY[:1], "--deal", EASY[1])
    first = line_moves(out)
    start = first[:3]
    code, out, err = run(capsys, monkeypatch, "solve", *EASY[:1], "--deal", EASY[1],
                         "--moves", " , ".join(start), "--replay", "--no-wait", "--ascii")
    assert code == 0 and err == ""
    assert out.splitlines()[0] == "Fours Up · deal 2 after 3 moves"
    rest = line_moves(out)
    assert re.search(r"^\s+4\. ", out, re.M)  # numbering goes on from the moves played
    assert re.findall(r"^Move 1 of (\d+)", out, re.M) == [str(len(rest))]
    g = patience.new_game(EASY[0], deal=int(EASY[1]))
    for m in [*start, *rest]:
        g.play(m)
    assert g.is_won


def test_a_won_position_has_no_line(capsys: pytest.CaptureFixture[str],
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    g = patience.new_game(*EASY[:1], deal=int(EASY[1]))
    line = patience.solve(g, max_seconds=10).moves
    code, out, _ = run(capsys, monkeypatch, "solve", *EASY[:1], "--deal", EASY[1],
                       "--moves", ",".join(line))
    assert code == 0
    assert "verdict: won" in out
    assert "already won" in out


@pytest.mark.parametrize(("argv", "message"), [
    (["solve", "nope", "--deal", "1"], "no game 'nope'"),
    (["solve", "four-seasons", "--deal", "x"], "a deal number is a whole number"),
    (["solve", "four-seasons", "--deal", "-3"], "--deal"),
    (["solve", "four-seasons", "--deal", "1", "--budget", "0"], "positive number of seconds"),
    (["solve", "four-seasons", "--deal", "1", "--budget", "soon"], "number of seconds"),
    (["solve", "four-seasons", "--deal", "1", "--moves", "t1>t9"], "move 1 (t1>t9)"),
    (["solve", "four-seasons", "--deal", "1", "--moves", "deal,hello"], "move 2 (hello)"),
    (["solve", "four-seasons", "--deal", "1", "--moves", "t1>f1"], "cannot be played"),
    (["solve"], "GAME"),
])
def test_errors_exit_2_with_a_message(capsys: pytest.CaptureFixture[str],
                                      monkeypatch: pytest.MonkeyPatch, argv: list[str],
                                      message: str) -> None:
    code, out, err = run(capsys, monkeypatch, *argv)
    assert code == 2
    assert out == ""
    assert message in err and "Traceback" not in err


def test_a_random_deal_is_named(capsys: pytest.CaptureFixture[str],
                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("patience.game.random_deal", lambda: 3)
    code, out, _ = run(capsys, monkeypatch, "solve", "simplicity", "--budget", "5")
    assert code == 0
    assert out.startswith("Simplicity · deal 3\n")


# ----------------------------------------------------------------- helpers
def test_format_line_numbers_and_aligns() -> None:
    moves = ["deal", "waste>t1", "t2>f1", "t1>t3x2", "deal"]
    out = format_line(moves, per_line=2, first=9)
    assert out == ["   9. deal      10. waste>t1",
                   "  11. t2>f1     12. t1>t3x2",
                   "  13. deal"]
    assert format_line([]) == []
    assert len(format_line(["deal"] * 13)) == 3  # six to a line


def test_parse_moves_and_verdict_text() -> None:
    assert parse_moves(" deal , waste>t1,,t2>f1 ") == ["deal", "waste>t1", "t2>f1"]
    assert parse_moves("") == []
    assert verdict_text(SolveResult("won"), 10) == "won"
    assert verdict_text(SolveResult("lost", proof="relaxation"), 10) == \
        "lost (proven: relaxation)"
    assert verdict_text(SolveResult("unknown"), 2.5) == "unknown within 2.5 s"
