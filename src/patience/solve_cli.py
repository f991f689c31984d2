"""``patience solve``: decide a deal with the solver and show the winning line.

    patience solve four-seasons --deal 3                 # verdict, counters, winning line
    patience solve czarina --deal 131 --budget 30        # give the search 30 seconds
    patience solve fours-up --deal 2 --replay            # step through the line (Enter)
    patience solve fours-up --deal 2 --replay --no-wait  # print every position at once
    patience solve four-seasons --deal 3 --moves 'deal,deal'     # from a later position

Importing this module registers the command with :mod:`patience.cli` (which imports it
as one of its ``PLUGINS``).  The solver is imported only when the command runs, so
``patience --help`` stays quick.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.console import Console
from rich.text import Text

from patience.cli import Subparsers, command, deal_number

if TYPE_CHECKING:
    from patience.game import Game
    from patience.solver import SolveResult

__all__ = ["DEFAULT_BUDGET", "add_solve_command", "format_line", "parse_moves", "verdict_text"]

#: Seconds the search gets when ``--budget`` is not given.
DEFAULT_BUDGET = 10.0
#: Moves per line when the winning line is printed.
MOVES_PER_LINE = 6


class SolveCommandError(Exception):
    """A bad argument found while running the command (exit status 2)."""


# ------------------------------------------------------------------ arguments
def budget_seconds(text: str) -> float:
    """An argparse type: a positive number of seconds."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"a budget is a number of seconds, not {text!r}") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"a budget must be a positive number of seconds, "
                                         f"not {text!r}")
    return value


def parse_moves(text: str) -> list[str]:
    """``"deal, waste>t1,t2>f1"`` → ``["deal", "waste>t1", "t2>f1"]`` (empty items dropped)."""
    return [part.strip() for part in text.split(",") if part.strip()]


# ------------------------------------------------------------------- printing
def verdict_text(result: SolveResult, budget: float) -> str:
    """``won``, ``lost (proven: exhausted)`` or ``unknown within 10 s``."""
    if result.status == "won":
        return "won"
    if result.status == "lost":
        return f"lost (proven: {result.proof or 'exhausted'})"
    return f"unknown within {budget:g} s"


def counters_text(result: SolveResult) -> str:
    """Positions searched, time, table size and speed, in one line."""
    rate = result.nodes / result.seconds if result.seconds > 0 else 0.0
    return (f"positions: {result.nodes:,} · time: {result.seconds:.3f} s · "
            f"table: {result.peak_table:,} · {rate:,.0f} positions/s")


def format_line(moves: Sequence[str], per_line: int = MOVES_PER_LINE,
                first: int = 1) -> list[str]:
    """Numbered moves, ``per_line`` to a line, in aligned columns.

    >>> format_line(["deal", "waste>t1", "t2>f1"], per_line=2)
    ['  1. deal      2. waste>t1', '  3. t2>f1']
    """
    if not moves:
        return []
    last = first + len(moves) - 1
    num_w = len(str(last))
    move_w = max(len(m) for m in moves)
    cells = [f"{i:>{num_w}}. {m:<{move_w}}" for i, m in enumerate(moves, first)]
    return ["  " + "  ".join(cells[k:k + per_line]).rstrip()
            for k in range(0, len(cells), per_line)]


# ------------------------------------------------------------------- the run
def _start_game(args: argparse.Namespace) -> Game:
    from patience.game import Game, IllegalMove
    from patience.games import get_spec

    game = Game(get_spec(args.game), deal=args.deal)
    for i, text in enumerate(parse_moves(args.moves or "")):
        try:
            game.play(text)
        except IllegalMove as e:
            raise SolveCommandError(f"--moves: move {i + 1} ({text}) cannot be played: "
                                    f"{e.why}") from None
    return game


def _replay(game: Game, moves: Sequence[str], console: Console, symbols: bool,
            wait: bool) -> int:
    from patience.render import render

    def show(title: str) -> None:
        console.print(Text(title, style="bold"), soft_wrap=True)
        console.print(render(game, symbols=symbols), soft_wrap=True)
        console.print()

    console.print()
    show(f"Replay: the position to solve ({len(moves)} moves to play)")
    for i, m in enumerate(moves, 1):
        if wait:
            try:
                answer = input(f"Enter: move {i} of {len(moves)} ({m}); q: stop> ")
                if not sys.stdin.isatty():  # piped input: end the prompt's line
                    console.print(answer, soft_wrap=True)
            except EOFError:
                console.print()
                return 0
            except KeyboardInterrupt:
                console.print()
                return 130
            if answer.strip().lower() in ("q", "quit"):
                return 0
        game.play(m)
        show(f"Move {i} of {len(moves)}: {m}")
    if game.is_won:
        console.print(Text(f"Won: all {game.spec.card_count} cards are on the foundations.",
                           style="bold green"), soft_wrap=True)
    return 0


def _solve(args: argparse.Namespace, console: Console) -> int:
    from patience.solver import solve

    try:
        game = _start_game(args)
    except SolveCommandError as e:
        print(f"patience: {e}", file=sys.stderr)
        return 2
    budget: float = args.budget
    played = len(game.moves)
    where = f" after {played} move{'s' if played != 1 else ''}" if played else ""
    console.print(Text.assemble((game.spec.name, "bold"), f" · deal {game.deal}{where}"),
                  soft_wrap=True)
    try:
        result = solve(game, max_seconds=budget)
    except KeyboardInterrupt:
        console.print("interrupted: no verdict", soft_wrap=True)
        return 130
    console.print(f"verdict: {verdict_text(result, budget)}", soft_wrap=True)
    console.print(counters_text(result), soft_wrap=True)
    if result.status == "won":
        n = len(result.moves)
        if n == 0:
            console.print("the position is already won: no move to play", soft_wrap=True)
        else:
            console.print(f"winning line ({n} move{'s' if n != 1 else ''}):", soft_wrap=True)
            for line in format_line(result.moves, first=played + 1):
                console.print(line, soft_wrap=True)
    elif result.status == "unknown" and result.best_line:
        console.print(f"best line found: {len(result.best_line)} moves, "
                      f"{result.best_progress} of {game.spec.card_count} cards home",
                      soft_wrap=True)
    replay = args.replay or args.no_wait
    if replay and result.status == "won":
        return _replay(game, result.moves, console, not args.ascii, wait=not args.no_wait)
    if replay:
        console.print("(no winning line to replay)", soft_wrap=True)
    return 0


@command
def add_solve_command(subparsers: Subparsers) -> None:
    """The ``solve`` subcommand (a registrar for :data:`patience.cli.COMMANDS`)."""
    p = subparsers.add_parser(
        "solve", help="decide a deal: won (with the line), lost or unknown",
        description="Decide a deal exactly with the solver, knowing the stock order: print "
                    "the verdict (won, lost with how it was proven, or unknown within the "
                    "budget), the search counters and the winning line.")
    p.add_argument("game", metavar="GAME", help="game id, name or alias (see `patience games`)")
    p.add_argument("--deal", "-d", type=deal_number, metavar="N",
                   help="deal number (a random one when omitted)")
    p.add_argument("--budget", "-b", type=budget_seconds, default=DEFAULT_BUDGET,
                   metavar="SECONDS",
                   help=f"seconds the search may take (default {DEFAULT_BUDGET:g})")
    p.add_argument("--moves", "-m", metavar="MOVES",
                   help="solve from the position after these moves (comma-separated move "
                        "texts, e.g. 'deal,waste>t1')")
    p.add_argument("--replay", action="store_true",
                   help="step through the winning line on the layout (Enter for each move)")
    p.add_argument("--no-wait", action="store_true",
                   help="replay printing every position without waiting (implies --replay)")
    p.add_argument("--ascii", action="store_true",
                   help="show cards as letters (TD, AS) instead of suit symbols")
    p.set_defaults(handler=_solve)
