"""The ``patience`` command: list the games, print their rules, show a deal, play it.

    patience games                        # the registered games
    patience rules fours-up               # the rules in words, with every decision
    patience show quadrennial --deal 12   # print a layout (--stock lists the stock too)
    patience play four-seasons --deal 7   # play in the terminal

Subcommands are added by *registrars*: functions that take the subparsers object
and add one command, with ``handler`` set to a function ``(args, console) -> int``.
:data:`COMMANDS` lists them in order; another module plugs in a command with
``COMMANDS.append(add_solve_command)`` (or the :func:`command` decorator) before
:func:`build_parser` is called.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable
from typing import TypeAlias

from rich.console import Console
from rich.markdown import Markdown
from rich.table import Table
from rich.text import Text

from patience import __version__
from patience.cards import is_red
from patience.deals import check_deal_number
from patience.game import Game, IllegalMove, games
from patience.games import UnknownGame, get_spec
from patience.render import BLACK, RED, card_label, render
from patience.rules.spec import Space
from patience.rules.state import Move
from patience.rules_text import rules_text

#: The type of the object that registrars add subcommands to.
Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"
#: A subcommand's handler, set with ``parser.set_defaults(handler=...)``.
Handler: TypeAlias = Callable[[argparse.Namespace, Console], int]
#: A function that adds one subcommand.
Registrar: TypeAlias = Callable[[Subparsers], None]

#: The functions that add the subcommands, in the order ``--help`` lists them.
COMMANDS: list[Registrar] = []


def command(registrar: Registrar) -> Registrar:
    """Add a subcommand registrar to :data:`COMMANDS` (usable as a decorator)."""
    COMMANDS.append(registrar)
    return registrar


#: Modules that register more subcommands when imported (their heavy dependencies are
#: imported only when their command runs).
PLUGINS = ("patience.solve_cli", "patience.odds_cli", "patience.web.cli")


def load_plugins() -> None:
    for name in PLUGINS:
        try:
            importlib.import_module(name)
        except ImportError as e:
            if e.name != name:  # the plugin exists but is broken: say so
                raise


def build_parser() -> argparse.ArgumentParser:
    """The ``patience`` argument parser, with every registered subcommand."""
    load_plugins()
    parser = argparse.ArgumentParser(
        prog="patience",
        description="Play and study the Four Seasons, Quadrennial and Fours Up families of "
                    "patience games.")
    parser.add_argument("--version", action="version", version=f"patience {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for registrar in COMMANDS:
        registrar(subparsers)
    return parser


# ------------------------------------------------------------------ arguments
def deal_number(text: str) -> int:
    """An argparse type: a deal number, with a clear message when it is not one."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"a deal number is a whole number, not {text!r}") from None
    try:
        return check_deal_number(value)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _add_game_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", metavar="GAME",
                   help="game id, name or alias (see `patience games`)")


def _add_deal_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--deal", "-d", type=deal_number, metavar="N",
                   help="deal number (a random one when omitted)")
    p.add_argument("--ascii", action="store_true",
                   help="show cards as letters (TD, AS) instead of suit symbols")


def _new_game(args: argparse.Namespace) -> Game:
    return Game(get_spec(args.game), deal=args.deal)


# ---------------------------------------------------------------------- games
def _odds(spec_odds: str, source: str) -> str:
    if not spec_odds:
        return "—"
    return f"{spec_odds} ({source})" if source else spec_odds


def _games(args: argparse.Namespace, console: Console) -> int:
    table = Table(title="Games", title_justify="left")
    table.add_column("id", style="bold cyan", no_wrap=True)
    table.add_column("name")
    table.add_column("aliases")
    table.add_column("decks", justify="right")
    table.add_column("published odds")
    for info in games():
        table.add_row(info.id, info.name, ", ".join(info.aliases) or "—", str(info.decks),
                      _odds(info.odds, info.odds_source))
    console.print(table)
    return 0


@command
def add_games_command(subparsers: Subparsers) -> None:
    p = subparsers.add_parser("games", help="list the games",
                              description="List the registered games.")
    p.set_defaults(handler=_games)


# ---------------------------------------------------------------------- rules
def print_rules(console: Console, game_id: str, markdown: bool = False) -> None:
    """A game's rules: formatted on a terminal, else (or when asked) the Markdown itself."""
    text = rules_text(game_id)
    if markdown or not console.is_terminal:  # Markdown reads well as it is
        console.out(text, end="", highlight=False)
    else:
        console.print(Markdown(text))


def _rules(args: argparse.Namespace, console: Console) -> int:
    print_rules(console, get_spec(args.game).id, args.markdown)
    return 0


@command
def add_rules_command(subparsers: Subparsers) -> None:
    p = subparsers.add_parser("rules", help="print the rules of a game",
                              description="Print the rules of a game in words, with every "
                                          "decision made where sources disagree.")
    _add_game_argument(p)
    p.add_argument("--markdown", action="store_true", help="print the Markdown source")
    p.set_defaults(handler=_rules)


# ----------------------------------------------------------------------- show
def _stock_listing(game: Game, symbols: bool) -> Text:
    stock = game.state.piles[game.rules.index["stock"]]
    out = Text(f"stock, next card first ({len(stock)} cards):\n")
    for i, c in enumerate(reversed(stock)):
        if i:
            out.append("\n" if i % 13 == 0 else " ")
        out.append(card_label(c, symbols, pad=True), style=RED if is_red(c) else BLACK)
    return out


def _show(args: argparse.Namespace, console: Console) -> int:
    game = _new_game(args)
    console.print(render(game, symbols=not args.ascii), soft_wrap=True)
    if args.stock:
        console.print()
        console.print(_stock_listing(game, not args.ascii), soft_wrap=True)
    return 0


@command
def add_show_command(subparsers: Subparsers) -> None:
    p = subparsers.add_parser("show", help="print the layout of a deal",
                              description="Print the layout of a deal.")
    _add_game_argument(p)
    _add_deal_arguments(p)
    p.add_argument("--stock", action="store_true",
                   help="also list the stock, next card first")
    p.set_defaults(handler=_show)


# ----------------------------------------------------------------------- play
PLAY_HELP = """\
Type a move, or a command:
  t3>f1       move the top card of t3 to foundation f1
  t2>t5x3     move the top 3 cards of t2 together onto t5 (where runs move)
  waste>t2    move the top card of the waste onto t2
  stock>t4    turn the next stock card straight into the empty pile t4 (where allowed)
  deal   (d)  deal from the stock (or redeal, where the game has redeals)
  moves  (m)  list the legal moves
  undo   (u)  take back the last move          redo  (r)  play it again
  board  (b)  draw the layout again            rules      print the rules
  help   (h)  this text                        quit  (q)  stop playing
Pile ids are the labels on the layout: f1 … foundations, t1 … tableau, r1 … reserve,
c1 … cells."""

_ALIASES = {"d": "deal", "m": "moves", "u": "undo", "r": "redo", "b": "board", "h": "help",
            "?": "help", "q": "quit", "exit": "quit", "show": "board"}


def _pile_order(pid: str) -> tuple[str, int]:
    return (pid[0], int(pid[1:]) if pid[1:].isdigit() else 0)


class _Session:
    """The interactive loop of ``patience play``."""

    def __init__(self, game: Game, console: Console, symbols: bool) -> None:
        self.game = game
        self.console = console
        self.symbols = symbols
        self.echo = not sys.stdin.isatty()
        self.interactive = console.is_terminal and not self.echo

    def say(self, text: str, style: str = "") -> None:
        self.console.print(Text(text, style=style), soft_wrap=True)

    def draw(self) -> None:
        if self.interactive:
            self.console.clear()
        self.console.print(render(self.game, symbols=self.symbols), soft_wrap=True)
        self.console.print()

    def status(self) -> None:
        g = self.game
        if g.is_won:
            self.say(f"You won! All {g.spec.card_count} cards are on the foundations, "
                     f"in {len(g.moves)} moves.", "bold green")
        elif g.is_lost:
            self.say("No moves left: the game is lost. (undo takes moves back; quit stops.)",
                     "bold red")
        elif g.spec.space is Space.VACANCY and g.rules.vacancy_fills(g.state):
            empty = sorted({m.dst for m in g.rules.vacancy_fills(g.state)}, key=_pile_order)
            self.say(f"{' and '.join(empty)} must be filled at once (type moves to see how).",
                     "bold")

    def list_moves(self) -> None:
        moves = [str(m) for m in self.game.legal_moves()]
        if moves:
            self.say(f"Legal moves ({len(moves)}): " + "  ".join(moves))
        else:
            self.say("No legal moves.")

    def _played(self, m: Move, passes_before: int) -> str:
        g = self.game
        if not m.is_deal:
            return f"Played {m}."
        if g.passes > passes_before:
            return f"Redealt: pass {g.passes} of {g.spec.passes}."
        if g.rules.waste < 0:
            return "Dealt a card onto each reserve pile."
        waste = g.state.piles[g.rules.waste]
        return f"Dealt {card_label(waste[-1], self.symbols)}." if waste else "Dealt."

    def step(self, line: str) -> bool:
        """Obey one input line; False when the player quits."""
        word = " ".join(line.strip().lower().split())
        word = _ALIASES.get(word, word)
        g = self.game
        if not word:
            return True
        if word == "quit":
            return False
        if word == "help":
            self.say(PLAY_HELP)
        elif word == "moves":
            self.list_moves()
        elif word == "board":
            self.draw()
            self.status()
        elif word == "rules":
            print_rules(self.console, g.spec.id)
        elif word in ("undo", "redo"):
            try:
                m = g.undo() if word == "undo" else g.redo()
            except IllegalMove as e:
                self.say(e.why[:1].upper() + e.why[1:] + ".", "yellow")
                return True
            self.draw()
            self.say(f"{'Took back' if word == 'undo' else 'Played again'} {m}.")
            self.status()
        else:
            try:
                m = g.parse_move(word)
            except IllegalMove as e:
                self.say(e.why[:1].upper() + e.why[1:] + ". Type help for the commands.",
                         "yellow")
                return True
            passes = g.passes
            try:
                g.play(m)
            except IllegalMove as e:
                self.say(f"{e}.", "yellow")
                return True
            self.draw()
            self.say(self._played(m, passes))
            self.status()
        return True

    def run(self, intro: str | None = None) -> int:
        self.draw()
        if intro:
            self.say(intro)
        self.status()
        while True:
            try:
                line = input("move (or help)> ")
                if self.echo:  # a transcript of piped input reads like a session
                    self.console.print(line, soft_wrap=True)
            except EOFError:
                self.console.print()
                return 0
            except KeyboardInterrupt:
                self.console.print()
                return 130
            if not self.step(line):
                return 0


def _play(args: argparse.Namespace, console: Console) -> int:
    game = _new_game(args)
    intro = None
    if args.deal is None:
        intro = (f"Deal {game.deal}: play it again with "
                 f"`patience play {game.id} --deal {game.deal}`.")
    return _Session(game, console, symbols=not args.ascii).run(intro)


@command
def add_play_command(subparsers: Subparsers) -> None:
    p = subparsers.add_parser("play", help="play a game in the terminal",
                              description="Play a deal in the terminal. Moves are typed as "
                                          "t3>f1, t2>t5x3, stock>t2 or deal; type help "
                                          "while playing for the commands.")
    _add_game_argument(p)
    _add_deal_arguments(p)
    p.set_defaults(handler=_play)


# ----------------------------------------------------------------------- main
def _exit_code(code: object) -> int:
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


def main(argv: list[str] | None = None) -> int:
    """Run the ``patience`` command; returns the exit status."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # --help, --version, usage errors (status 2)
        return _exit_code(e.code)
    handler: Handler | None = getattr(args, "handler", None)
    if handler is None:
        parser.print_help(sys.stderr)
        return 2
    console = Console(markup=False, highlight=False, emoji=False)
    try:
        return handler(args, console)
    except UnknownGame as e:
        print(f"patience: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # `patience show … | head`: stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
