"""Draw a game position in the terminal with ``rich``.

Every pile is labelled with its id (what the player types in a move).  The
stock shows only how many cards it holds; the waste its top card and count;
foundations their top card and count; tableau piles every card, because they
grow (rows in the Four Seasons cross, columns elsewhere).

>>> from patience import new_game
>>> print(render_text(new_game("fours-up", deal=7), symbols=False))  # doctest: +ELLIPSIS
Fours Up · deal 7 · moves: 0
<BLANKLINE>
  f1      f2      f3      f4      f5      f6      f7      f8
  4C (1)  4D (1)  4H (1)  4S (1)  4C (1)  4D (1)  4H (1)  4S (1)
...
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import TypeVar

from rich.console import Console
from rich.style import Style
from rich.text import Text

from patience.cards import RANK_CHARS, RANK_NAMES, SUIT_SYMBOLS, Card, card_text, is_red, rank_of
from patience.cards import suit_of as _suit_of
from patience.game import Game
from patience.rules.spec import GameSpec, StockKind

__all__ = ["card_label", "render", "render_text"]

RED = Style(color="red", bgcolor="bright_white", bold=True)
BLACK = Style(color="black", bgcolor="bright_white", bold=True)
LABEL = Style(color="cyan", bold=True)
DIM = Style(dim=True)
TITLE = Style(bold=True)

Cell = list[Text]  # the lines of one labelled pile
T = TypeVar("T")


def card_label(card: Card, symbols: bool = True, pad: bool = False) -> str:
    """A card as shown on screen: ``"10♦"``, ``"9♠"`` with symbols, else ``"TD"``.

    ``pad`` right-aligns symbol labels to three cells (``" 9♠"``), for columns.
    """
    if not symbols:
        return card_text(card)
    rank = RANK_CHARS[rank_of(card) - 1]
    label = ("10" if rank == "T" else rank) + SUIT_SYMBOLS[_suit_of(card)]
    return label.rjust(3) if pad else label


class _Painter:
    """Cards and empty slots as styled text, in one card style (symbols or letters)."""

    def __init__(self, symbols: bool) -> None:
        self.symbols = symbols
        self.width = 3 if symbols else 2

    def card(self, c: Card, pad: bool = False) -> Text:
        return Text(card_label(c, self.symbols, pad), style=RED if is_red(c) else BLACK)

    def empty(self) -> Text:
        return Text("[ ]" if self.symbols else "[]", style=DIM)

    def row(self, pile: Sequence[Card], pad: bool = False) -> Text:
        """A whole pile left to right (its top card last), or an empty slot."""
        if not pile:
            return self.empty()
        return Text(" ").join(self.card(c, pad) for c in pile)

    def top(self, pile: Sequence[Card]) -> Text:
        """The top card and how many cards the pile holds: ``J♠ (3)``."""
        if not pile:
            return self.empty()
        return Text.assemble(self.card(pile[-1]), (f" ({len(pile)})", DIM))


def _label(pid: str) -> Text:
    return Text(pid, style=LABEL)


def _pad(t: Text, width: int) -> Text:
    out = t.copy()
    out.pad_right(max(0, width - out.cell_len))
    return out


def _grid(rows: Sequence[Sequence[Cell]], gap: int = 4, boxed: bool = False,
          ascii_box: bool = False, indent: int = 2, min_width: int = 0) -> list[Text]:
    """Cells laid out in rows and columns, each column as wide as its widest line."""
    ncols = max(len(r) for r in rows)
    widths = [min_width] * ncols
    for r in rows:
        for j, cell in enumerate(r):
            widths[j] = max([widths[j], *(line.cell_len for line in cell)])
    margin = Text(" " * indent)
    lines: list[Text] = []
    if boxed:
        h, v, corners = ("-", "|", "+++++++++") if ascii_box else ("─", "│", "┌┬┐├┼┤└┴┘")

        def rule(left: str, mid: str, right: str) -> Text:
            return Text.assemble(margin, left + mid.join(h * (w + 2) for w in widths) + right)

        lines.append(rule(*corners[0:3]))
        for i, r in enumerate(rows):
            height = max(len(c) for c in r)
            for k in range(height):
                parts: list[Text | str] = [margin, v]
                for j in range(ncols):
                    cell = r[j] if j < len(r) else []
                    line = cell[k] if k < len(cell) else Text()
                    parts += [" ", _pad(line, widths[j]), " ", v]
                lines.append(Text.assemble(*parts))
            lines.append(rule(*corners[3:6]) if i < len(rows) - 1 else rule(*corners[6:9]))
        return lines
    for i, r in enumerate(rows):
        if i:
            lines.append(Text())
        height = max(len(c) for c in r)
        for k in range(height):
            line = Text.assemble(margin)
            for j, cell in enumerate(r):
                part = cell[k] if k < len(cell) else Text()
                last = j == len(r) - 1
                line.append_text(part if last else _pad(part, widths[j] + gap))
            line.rstrip()
            lines.append(line)
    return lines


def _chunks(items: Sequence[T], size: int) -> list[list[T]]:
    return [list(items[i:i + size]) for i in range(0, len(items), size)]


class _Board:
    def __init__(self, game: Game, symbols: bool) -> None:
        self.game = game
        self.spec: GameSpec = game.spec
        self.p = _Painter(symbols)
        self.piles: dict[str, Sequence[Card]] = dict(
            zip(game.rules.ids, game.state.piles, strict=True))
        self.ids = list(game.rules.ids)
        # where piles build against the usual way (RULES B3), each label says which way
        arrows = {"up": "↑", "down": "↓"} if symbols else {"up": "up", "down": "dn"}
        self.ways = {pid: arrows[way] for pid, way in game.rules.ways().items()}

    def label(self, pid: str) -> Text:
        way = self.ways.get(pid)
        return Text.assemble(_label(pid), (f" {way}", DIM)) if way else _label(pid)

    def of(self, kind: str) -> list[str]:
        return [pid for pid in self.ids if pid[0] == kind and pid not in ("stock", "waste")]

    # ------------------------------------------------------------------ cells
    def found_cell(self, pid: str) -> Cell:
        return [self.label(pid), self.p.top(self.piles[pid])]

    def row_cell(self, pid: str) -> Cell:
        return [self.label(pid), self.p.row(self.piles[pid])]

    def column_cell(self, pid: str) -> Cell:
        pile = self.piles[pid]
        return [self.label(pid), *([self.p.card(c, pad=True) for c in pile] or [self.p.empty()])]

    # ----------------------------------------------------------------- blocks
    def header(self) -> Text:
        g, spec = self.game, self.spec
        parts = [f"deal {g.deal}"]
        if spec.base_rank is None and g.base_rank:
            parts.append(f"base rank {RANK_NAMES[g.base_rank - 1]}")
        if spec.passes > 1:
            left = g.passes_left
            parts.append(f"pass {g.passes} of {spec.passes} "
                         f"({left} redeal{'s' if left != 1 else ''} left)")
        parts.append(f"moves: {len(g.moves)}")
        return Text.assemble((spec.name, TITLE), " · " + " · ".join(parts))

    def cross(self, boxed: bool) -> list[Text] | None:
        """The Four Seasons cross (or the 1883 square): foundations at the corners."""
        mid = self.of("t") or self.of("c")
        f = self.of("f")
        if len(mid) != 5 or len(f) != 4:
            return None
        cell = self.found_cell
        arm = self.row_cell
        rows = [[cell(f[0]), arm(mid[0]), cell(f[1])],
                [arm(mid[1]), arm(mid[2]), arm(mid[3])],
                [cell(f[2]), arm(mid[4]), cell(f[3])]]
        return _grid(rows, boxed=boxed, ascii_box=not self.p.symbols, min_width=8)

    def blocks(self) -> list[Text]:
        """Foundations in rows of at most eight, cells, reserve rows, tableau columns."""
        out: list[Text] = []
        found = self.of("f")
        if found:
            out += _grid([[self.found_cell(pid) for pid in row] for row in _chunks(found, 8)],
                         gap=2)
        cells = self.of("c")
        if cells:
            out += [Text(), *_grid([[self.column_cell(pid) for pid in cells]], gap=3)]
        reserves = self.of("r")
        if reserves:
            out.append(Text())
            out += self.reserve_rows(reserves)
        tab = self.of("t")
        if tab:
            per_row = len(tab) if len(tab) <= 8 else -(-len(tab) // 2)
            for row in _chunks(tab, per_row):
                out += [Text(), *_grid([[self.column_cell(pid) for pid in row]], gap=3)]
        return out

    def reserve_rows(self, reserves: list[str]) -> list[Text]:
        width = max(len(pid) for pid in reserves) + 2
        out: list[Text] = []
        for pid in reserves:
            pile = self.piles[pid]
            for k, chunk in enumerate(_chunks(pile, 24) or [[]]):
                head = _pad(_label(pid) if k == 0 else Text(), width)
                out.append(Text.assemble("  ", head, self.p.row(chunk, pad=True)))
        out.append(Text("  (top cards on the right)", style=DIM))
        return out

    def footer(self) -> Text:
        stock = self.piles["stock"]
        n = len(stock)
        parts: list[Text | tuple[str, Style] | str] = [
            "  ", _label("stock"), f"  {n} card{'s' if n != 1 else ''}"]
        if self.spec.stock is StockKind.WASTE:
            parts += ["      ", _label("waste"), "  ", self.p.top(self.piles["waste"])]
        return Text.assemble(*parts)

    def draw(self) -> Text:
        layout = self.spec.layout
        body = None
        if layout in ("cross", "square"):
            body = self.cross(boxed=layout == "square")
        if body is None:
            body = self.blocks()
        lines = [self.header(), Text(), *body, Text(), self.footer()]
        return Text("\n").join(lines)


def render(game: Game, *, symbols: bool = True) -> Text:
    """The position as a rich renderable (cards coloured by suit).

    Print it with ``console.print(render(game), soft_wrap=True)`` so that wide
    layouts are not folded.
    """
    return _Board(game, symbols).draw()


def render_text(game: Game, color: bool = False, *, symbols: bool = True) -> str:
    """The position as a string: plain text, or with ANSI colours when ``color``."""
    text = render(game, symbols=symbols)
    if not color:
        return text.plain
    buf = io.StringIO()
    console = Console(file=buf, force_terminal=True, color_system="standard", width=200)
    console.print(text, soft_wrap=True, end="")
    return buf.getvalue()
