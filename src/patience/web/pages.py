"""The HTML pages: the lobby, a table per game, the rules, statistics and the restore code.

    from patience.web.pages import install_pages
    install_pages(app)      # adds /, /play/GAME[/DEAL], /rules/GAME, /stats, /player, /static

The pages are rendered here with Jinja2 (``templates/``); everything the player
does on them goes through the JSON API from plain ES modules (``static/js/``):
the first API call sets the player cookie, exactly as for any other client.
The table never decides a rule: it shows the legal moves the server sends, and
an illegal drop is sent too, so that the server says why it is illegal.

Each game's table is drawn from a *layout* made here from its declaration
(:func:`layout_of`): slots on a grid in card widths, one row per line of piles.
The same layout draws the lobby's small pictures.
"""

from __future__ import annotations

import importlib
from dataclasses import asdict, dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from markupsafe import Markup, escape
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

from patience.game import rules_for
from patience.games import UnknownGame, all_specs, get_spec
from patience.rules.spec import GameSpec, Runs, StockKind

HERE = Path(__file__).resolve().parent
STATIC_DIR = HERE / "static"
TEMPLATES_DIR = HERE / "templates"
#: The largest deal number a page link takes (the API's limit: JavaScript's exact integers).
MAX_DEAL = 2**53 - 1
RANK_NAMES = ("", "Ace", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten",
              "Jack", "Queen", "King")


# ---------------------------------------------------------------------- layouts
@dataclass(frozen=True)
class Slot:
    """A pile's place: ``col`` in card widths (with gaps), ``row`` an index into the rows."""

    id: str
    col: float
    row: int


@dataclass(frozen=True)
class Row:
    """A line of piles; ``fan`` is the room for a fanned pile below its first card, in card
    heights; a ``fill`` row also takes whatever height the window has left."""

    fan: float = 0.0
    fill: bool = False


@dataclass(frozen=True)
class Layout:
    kind: str
    cols: float
    rows: tuple[Row, ...]
    slots: tuple[Slot, ...]
    frame: str = ""  # "cross" or "square": a backdrop behind the 3x3 of the Four Seasons family
    names: dict[str, str] = field(default_factory=dict)  # pile id -> words for screen readers
    note: Slot | None = None  # where to say how the stock deals, when a row has room for it
    # pile id -> "up" or "down", for the piles of a game where they do not all build the
    # usual way (foundations up, piles down): the table marks each such pile with an arrow
    ways: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["rows"] = [asdict(r) for r in self.rows]
        data["slots"] = [asdict(s) for s in self.slots]
        data["note"] = asdict(self.note) if self.note else None
        return data


def pile_ids(spec: GameSpec) -> list[str]:
    """Every pile of the game, the stock included, in the engine's order."""
    return list(rules_for(spec).ids)


def _kind_word(pid: str) -> str:
    return {"f": "foundation", "t": "pile", "c": "cell", "r": "reserve pile"}.get(pid[0], pid)


_CROSS_WORDS = ("top of the cross", "left of the cross", "centre of the cross",
                "right of the cross", "bottom of the cross")
_CORNER_WORDS = ("top left corner", "top right corner", "bottom left corner",
                 "bottom right corner")


def layout_of(spec: GameSpec) -> Layout:
    """Where each pile of ``spec`` lies on the table, as its rules describe it."""
    ids = pile_ids(spec)
    names = {pid: f"{_kind_word(pid)} {pid[1:]}" for pid in ids if pid[1:].isdigit()}
    names.update(stock="stock", waste="waste")
    ways = rules_for(spec).ways()
    for pid, way in ways.items():
        names[pid] += f", builds {way}"
    found = [p for p in ids if p.startswith("f")]
    tab = [p for p in ids if p.startswith("t")]
    cells = [p for p in ids if p.startswith("c")]
    res = [p for p in ids if p.startswith("r")]
    has_waste = "waste" in ids
    kind = spec.layout

    if kind in ("cross", "square") and len(found) == 4 and len(tab or cells) == 5:
        centre = tab or cells
        fan = 0.75 if tab else 0.1
        places = [(found[0], 0, 0), (centre[0], 1, 0), (found[1], 2, 0),
                  (centre[1], 0, 1), (centre[2], 1, 1), (centre[3], 2, 1),
                  (found[2], 0, 2), (centre[4], 1, 2), (found[3], 2, 2)]
        slots = [Slot(p, c, r) for p, c, r in places]
        slots.append(Slot("stock", 3.3, 0))
        if has_waste:
            slots.append(Slot("waste", 3.3, 1))
        for pid, words in zip(centre, _CROSS_WORDS, strict=True):
            names[pid] = f"{names[pid]}, {words}"
        for pid, words in zip(found, _CORNER_WORDS, strict=True):
            names[pid] = f"{names[pid]}, {words}"
        return Layout(kind, 4.3, (Row(fan), Row(fan), Row(fan)), tuple(slots),
                      frame=kind, names=names, ways=ways)

    if kind == "rows" and len(tab) == 12:
        top = ["stock", *(["waste"] if has_waste else []), *found]
        slots = [Slot(p, i, 0) for i, p in enumerate(top)]
        slots += [Slot(p, i, 1) for i, p in enumerate(tab[:6])]
        slots += [Slot(p, i, 2) for i, p in enumerate(tab[6:])]
        for i, pid in enumerate(tab):
            names[pid] += ", top row" if i < 6 else ", bottom row"
        return Layout(kind, max(6, len(top)), (Row(0.0), Row(1.5), Row(1.5, fill=True)),
                      tuple(slots), names=names, ways=ways)

    if kind == "reserve" and res:
        width = 8
        slots = [Slot("stock", 0, 0)]
        if has_waste:
            slots.append(Slot("waste", 1, 0))
        rows = [Row(0.0)]
        for i in range(0, len(found), width):
            rows.append(Row(0.0))
            slots += [Slot(p, j, len(rows) - 1) for j, p in enumerate(found[i:i + width])]
        for i in range(0, len(res), width):
            rows.append(Row(2.2, fill=True))
            slots += [Slot(p, j, len(rows) - 1) for j, p in enumerate(res[i:i + width])]
        note = Slot("note", 2 if has_waste else 1, 0)
        return Layout(kind, width, tuple(rows), tuple(slots), names=names, note=note,
                      ways=ways)

    # "tableau" and anything else: foundations on top, then the cells and reserves, then
    # stock, waste and piles; a line too long for one row is cut into even rows (sixteen
    # foundations: two rows of eight; ten piles: two of five)
    lead = ["stock", *(["waste"] if has_waste else [])]
    side = [*cells, *res]
    found_rows, tab_rows = _even_rows(found, 8), _even_rows(tab, 8)
    side_rows = _even_rows(side, 10)  # up to ten cells side by side, the table widened for them
    width = max(len(found_rows[0]), len(lead) + len(tab_rows[0]), len(side_rows[0]), 4)
    slots, rows = [], []
    for line in found_rows:
        rows.append(Row(0.0))
        slots += [Slot(p, j, len(rows) - 1) for j, p in enumerate(line)]
    for line in side_rows if side else []:
        rows.append(Row(0.1 if not res else 1.5))
        left = (width - len(line)) // 2  # centred: over the piles, clear of stock and waste
        slots += [Slot(p, left + j, len(rows) - 1) for j, p in enumerate(line)]
    fan = 2.5 if len(tab_rows) == 1 else 1.5  # (two rows of piles: as in the "rows" layout)
    for i, line in enumerate(tab_rows):
        rows.append(Row(fan, fill=True) if tab else Row(0.0))  # no piles: no room to fan
        first = lead if i == 0 else []
        slots += [Slot(p, j, len(rows) - 1) for j, p in enumerate(first)]
        slots += [Slot(p, len(lead) + j, len(rows) - 1) for j, p in enumerate(line)]
    placed = {s.id for s in slots}
    extra = [p for p in ids if p not in placed]  # nothing left out, whatever the game
    for i in range(0, len(extra), width):
        rows.append(Row(1.0))
        slots += [Slot(p, j, len(rows) - 1) for j, p in enumerate(extra[i:i + width])]
    return Layout(kind or "tableau", width, tuple(rows), tuple(slots), names=names, ways=ways)


def _even_rows(piles: list[str], most: int) -> list[list[str]]:
    """``piles`` cut into as few rows of at most ``most`` as will do, as even as can be
    (the first rows one longer); one empty row when there is no pile."""
    count = max(1, -(-len(piles) // most))
    size, more = divmod(len(piles), count)
    out, at = [], 0
    for i in range(count):
        n = size + (i < more)
        out.append(piles[at:at + n])
        at += n
    return out


_THUMB_FILL = {"f": "#f4d35e", "t": "#fff", "c": "#d7ecff", "r": "#ffe3c9", "s": "#2c5d9e",
               "w": "#fff"}


def layout_svg(spec: GameSpec) -> Markup:
    """A small picture of the game's layout (inline SVG): gold foundations, white piles,
    blue stock."""
    lay = layout_of(spec)
    w, h, gap = 10.0, 14.0, 2.0
    tops, y = [], 0.0
    for row in lay.rows:
        tops.append(y)
        y += h + min(row.fan, 1.0) * h * 0.5 + gap
    width = lay.cols * (w + gap) - gap
    height = y - gap
    parts = [f'<svg class="thumb" viewBox="-2 -2 {width + 4:g} {height + 4:g}" '
             f'role="img" aria-label="{escape(spec.name)}: layout of the table">']
    if lay.frame:
        parts.append(f'<rect x="-1.5" y="-1.5" width="{3 * (w + gap) + 1:g}" '
                     f'height="{tops[2] + h + 3:g}" rx="3" class="frame"/>')
    for s in lay.slots:
        x, top = s.col * (w + gap), tops[s.row]
        fill = _THUMB_FILL.get(s.id[0], "#fff")
        parts.append(f'<rect x="{x:g}" y="{top:g}" width="{w:g}" height="{h:g}" rx="1.5" '
                     f'fill="{fill}" class="k-{s.id[0]}"/>')
        if s.id.startswith("t") and lay.rows[s.row].fan >= 0.5:
            parts.append(f'<rect x="{x:g}" y="{top + 4:g}" width="{w:g}" height="{h:g}" '
                         f'rx="1.5" fill="#fff" class="k-t"/>')
    parts.append("</svg>")
    return Markup("".join(parts))


# ------------------------------------------------------------------ the games
def percent(x: float, *, bound: bool = False) -> str:
    """A share as a percentage, with the decimals it needs not to round a share near 0 or
    1 to exactly 0% or 100%: "45%", "99.8%", "0.04%".  An interval's ``bound`` may round to
    an end (at most two decimals)."""
    pct = min(100.0, max(0.0, x * 100))
    if pct < 1e-7 or pct > 100 - 1e-7 or 1 <= pct <= 99:
        return f"{pct:.0f}%"
    small = min(pct, 100 - pct)
    digits = 1 if small >= 0.1 else 2 if small >= 0.01 or bound else 3
    text = f"{pct:.{digits}f}".rstrip("0").rstrip(".")
    if not bound and float(text) in (0.0, 100.0):  # still at an end: say which side
        return "under 0.001%" if pct < 50 else "over 99.999%"
    return text + "%"


def rate_text(row: dict[str, Any] | None) -> str:
    """A measured win rate in words: "45% (36–55%, 100 deals)", with the 95% Wilson interval
    (undecided deals count as lost for its low end and as won for its high end)."""
    if not row:
        return ""
    try:
        rate, low, high = float(row["rate"]), float(row["low"]), float(row["high"])
        deals, unknown = int(row["deals"]), int(row.get("unknown", 0))
    except (KeyError, TypeError, ValueError):
        return ""
    if deals <= 0:
        return ""
    text = (f"{percent(rate)} ({percent(low, bound=True).rstrip('%')}–"
            f"{percent(high, bound=True)}, {deals:,} deals")
    if unknown:
        text += f", {unknown:,} undecided"
    return text + ")"


def budget_text(row: dict[str, Any]) -> str:
    """How much the player of a measured row was given, in words: the solver's time (or
    positions) a deal, each later run's after "then"; or the fair player's look-ahead."""
    from patience.fair import FairPolicy
    from patience.odds import budget_key

    player = str(row.get("player", ""))
    if player.startswith("fair-"):
        policy = FairPolicy.from_label(player)
        if policy is None:
            return ""
        return (f"at each move it tries {policy.samples} orders of the stock, "
                f"{policy.nodes:,} positions each")
    words = []
    steps = row.get("steps") or []
    labels = [str(st.get("budget", "")) for st in steps] if len(steps) > 1 else \
        str(row.get("budget", "")).split(" then ")
    for label in labels:
        kind, size = budget_key(label)
        if kind in ("s", "cpu") and size > 0:
            words.append(f"{size:g} s")
        elif kind == "n" and size > 0:
            words.append(f"{size:,.0f} positions")
        else:
            return ""
    if not words:
        return ""
    if len(steps) > 1 and all(isinstance(st.get("deals"), int) for st in steps):
        # runs over different deals (or a longer one over the unknown deals of another)
        parts = [f"{w} on {st['deals']:,} deals" for w, st in zip(words, steps, strict=True)]
        return "the solver given " + parts[0].replace(" on ", " a deal on ", 1) + \
            "".join(f", {p}" for p in parts[1:-1]) + f" and {parts[-1]}"
    return "the solver given " + ", then ".join(words) + " a deal"


def measured_rates(game_id: str) -> dict[str, str]:
    """The win rates measured by ``patience odds`` (``patience/data/odds.json``), in words:
    ``thoughtful`` (our solver, which knows the order of the stock) and ``fair`` (a player who
    sees only what a person sees); empty until measured."""
    from patience.odds_report import measured

    try:
        rows = measured(game_id)
    except (OSError, ValueError):
        return {}
    from patience.fair import label_version

    out = {}
    for kind, row in rows.items():
        text = rate_text(row)
        if text:
            how = budget_text(row)
            if how and (label_version(str(row.get("player", ""))) or 0) >= 2 and \
                    get_spec(game_id).passes > 1:
                how += "; after a redeal it knows the order of the stock, as you do"
            out[kind] = text + (f"; {how}" if how else "")
    return out


def _related(spec: GameSpec) -> list[dict[str, str | None]]:
    out: list[dict[str, str | None]] = []
    for name in spec.related:
        try:
            other = get_spec(name)
        except UnknownGame:
            out.append({"id": None, "name": name.replace("-", " ").title()})
        else:
            out.append({"id": other.id, "name": other.name})
    return out


def game_entry(spec: GameSpec) -> dict[str, Any]:
    rates = measured_rates(spec.id)
    return {"id": spec.id, "name": spec.name, "aliases": list(spec.aliases),
            "decks": spec.decks, "cards": 52 * spec.decks, "difficulty": spec.difficulty,
            "odds": spec.odds, "odds_source": spec.odds_source,
            "solver_rate": rates.get("thoughtful", ""), "fair_rate": rates.get("fair", ""),
            "play_minutes": spec.play_minutes, "summary": spec.summary,
            "related": _related(spec), "thumb": layout_svg(spec), "section": spec.section}


def table_config(spec: GameSpec, deal: int | None) -> dict[str, Any]:
    """What the table's script needs to know of the game, besides the state the API sends."""
    from patience.odds_report import no_winnable_deals

    return {"game": spec.id, "name": spec.name, "deal": deal, "layout": layout_of(spec).to_json(),
            "runs": spec.runs is not Runs.NONE, "playback": spec.playback,
            "showBase": spec.base_rank is None, "passes": spec.passes,
            "reserveRow": spec.stock is StockKind.RESERVE_ROW,
            "stockToSpace": spec.stock_to_space, "decks": spec.decks,
            "rankNames": list(RANK_NAMES), "noWinnable": no_winnable_deals(spec.id)}


@cache
def rules_html(game_id: str) -> Markup:
    """The game's rules (``rules_text``) as HTML, without its title line."""
    from patience.rules_text import rules_text

    markdown: Any = importlib.import_module("markdown")  # (the package ships no type hints)

    text = rules_text(game_id)
    lines = text.splitlines()
    if lines and lines[0].startswith("## "):
        lines = lines[1:]
    html = markdown.markdown("\n".join(lines), extensions=["toc", "sane_lists"],
                             output_format="html")
    return Markup(html)


# ---------------------------------------------------------------------- pages
class _Static(StaticFiles):
    """Static files that the browser revalidates (ETag) before reusing them."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        response = await super().get_response(path, scope)
        response.headers.setdefault("Cache-Control", "no-cache")
        return response


def _deal_number(text: str) -> int | None:
    if not text.isdigit() or len(text) > 16:
        return None
    deal = int(text)
    return deal if deal <= MAX_DEAL else None


def install_pages(app: FastAPI) -> None:
    """Add the HTML pages and ``/static`` to ``app`` (once; calling it again does nothing)."""
    if getattr(app.state, "pages_installed", False):
        return
    app.state.pages_installed = True
    templates = Jinja2Templates(directory=str(TEMPLATES_DIR))
    for name in templates.env.list_templates():  # compiled now, not on a player's first visit
        templates.get_template(name)

    def page(request: Request, name: str, status_code: int = 200, **context: Any
             ) -> HTMLResponse:
        return templates.TemplateResponse(request, name, context, status_code=status_code)

    def not_found(request: Request, what: str) -> HTMLResponse:
        return page(request, "error.html", 404, title="Not found", message=what,
                    games=[game_entry(s) for s in all_specs()])

    def find(request: Request, game: str) -> GameSpec | HTMLResponse:
        try:
            return get_spec(game)
        except UnknownGame:
            return not_found(request, f"There is no game called “{game}” here.")

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    def lobby(request: Request) -> HTMLResponse:
        return page(request, "lobby.html", games=[game_entry(s) for s in all_specs()])

    def table(request: Request, game: str, deal: str | None) -> Response:
        spec = find(request, game)
        if isinstance(spec, HTMLResponse):
            return spec
        number = None
        if deal is not None:
            number = _deal_number(deal)
            if number is None:
                return not_found(request, f"“{deal}” is not a deal number: deals are "
                                          f"numbered 0 to {MAX_DEAL}.")
        if spec.id != game:
            tail = f"/{number}" if number is not None else ""
            return RedirectResponse(f"/play/{spec.id}{tail}", status_code=301)
        return page(request, "table.html", game=game_entry(spec),
                    config=table_config(spec, number), show_base=spec.base_rank is None,
                    show_passes=spec.passes > 1)

    @app.get("/play/{game}", response_class=HTMLResponse, include_in_schema=False)
    def play(request: Request, game: str) -> Response:
        return table(request, game, None)

    @app.get("/play/{game}/{deal}", response_class=HTMLResponse, include_in_schema=False)
    def play_deal(request: Request, game: str, deal: str) -> Response:
        return table(request, game, deal)

    @app.get("/rules/{game}", response_class=HTMLResponse, include_in_schema=False)
    def rules(request: Request, game: str) -> Response:
        spec = find(request, game)
        if isinstance(spec, HTMLResponse):
            return spec
        if spec.id != game:
            return RedirectResponse(f"/rules/{spec.id}", status_code=301)
        return page(request, "rules.html", game=game_entry(spec), rules=rules_html(spec.id))

    @app.get("/stats", response_class=HTMLResponse, include_in_schema=False)
    def stats(request: Request) -> HTMLResponse:
        return page(request, "stats.html", games=[game_entry(s) for s in all_specs()])

    @app.get("/player", response_class=HTMLResponse, include_in_schema=False)
    def player(request: Request) -> HTMLResponse:
        return page(request, "player.html")

    app.mount("/static", _Static(directory=str(STATIC_DIR)), name="static")
