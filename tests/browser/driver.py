"""Driving the table page like a player: drag, tap, click, keys; and reading it back."""

from __future__ import annotations

from typing import Any

IGNORED_CONSOLE = ("Failed to load resource",)  # a refused move answers 400: that is expected


def parse(move: str) -> tuple[str, str, int]:
    src, _, rest = move.partition(">")
    dst, _, n = rest.partition("x")
    return src, dst, int(n) if n else 1


class Table:
    """A table page in a browser page (Playwright's sync API)."""

    def __init__(self, page: Any) -> None:
        self.page = page

    # ------------------------------------------------------------ reading
    def open(self, path: str) -> Table:
        self.page.goto(path)
        self.ready()
        return self

    def ready(self) -> None:
        self.page.wait_for_selector("body[data-ready='1']")
        self.idle()

    def idle(self) -> None:
        """Wait until no request is in flight and no card is flying (a card's box is only
        where a finger will find it once its flight has landed)."""
        self.page.wait_for_function(
            "document.body.dataset.busy !== '1' && !document.querySelector('.flying')")

    @property
    def version(self) -> int:
        return int(self.page.get_attribute("body", "data-version"))

    @property
    def game_id(self) -> str:
        value: str = self.page.get_attribute("body", "data-game")
        return value

    def state(self) -> dict[str, Any]:
        """The game's state as the server has it (fetched by the page, with its cookie)."""
        state: dict[str, Any] = self.page.evaluate(
            "async () => (await fetch('/api/games/' + document.body.dataset.game)).json()")
        return state

    def shown(self) -> dict[str, list[str]]:
        """Pile id -> the cards drawn on the table (bottom to top; hidden ones left out)."""
        shown: dict[str, list[str]] = self.page.evaluate("""() => Object.fromEntries(
            [...document.querySelectorAll('#table .pile')].filter(p => p.dataset.pile !== 'stock')
              .map(p => [p.dataset.pile,
                         [...p.querySelectorAll('.card[data-i]')].map(c => c.dataset.c)]))""")
        return shown

    def message(self) -> str:
        text: str = self.page.inner_text("#msg")
        return text

    def wait_version(self, version: int) -> None:
        self.page.wait_for_function(
            "v => document.body.dataset.version === String(v) && "
            "document.body.dataset.busy !== '1' && !document.querySelector('.flying')",
            arg=version)

    def wait_message(self, words: str) -> None:
        self.page.wait_for_function(
            "w => document.getElementById('msg').textContent.includes(w)", arg=words)

    def errors(self) -> list[str]:
        return [e for e in self.page.errors if not e.startswith(IGNORED_CONSOLE)]

    # ------------------------------------------------------------- places
    def card_box(self, pile: str, depth: int = 1) -> dict[str, float]:
        """The box of the ``depth``-th card from the top of ``pile`` (the stock: its top)."""
        if pile == "stock":
            loc = self.page.locator("#pile-stock .card:not(.under)")
        else:
            loc = self.page.locator(f"#pile-{pile} .card[data-i]").nth(-depth)
        box: dict[str, float] = loc.bounding_box()
        return box

    def grab_point(self, pile: str, n: int = 1) -> tuple[float, float]:
        box = self.card_box(pile, n)
        if n == 1:
            return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        return box["x"] + box["width"] / 2, box["y"] + 6  # the visible strip of a run's card

    def pile_point(self, pile: str) -> tuple[float, float]:
        box = self.page.locator(f"#pile-{pile}").bounding_box()
        card_h = min(box["height"], box["width"] * 1.4)
        return box["x"] + box["width"] / 2, box["y"] + card_h / 2

    # ------------------------------------------------------------ playing
    def drag(self, move: str, *, expect: bool = True) -> None:
        """Play ``move`` by dragging its cards with the mouse onto the target pile."""
        src, dst, n = parse(move)
        v = self.version
        sx, sy = self.grab_point(src, n)
        tx, ty = self.pile_point(dst)
        mouse = self.page.mouse
        mouse.move(sx, sy)
        mouse.down()
        mouse.move(sx + 8, sy + 8, steps=2)
        mouse.move(tx, ty, steps=6)
        mouse.up()
        if expect:
            self.wait_version(v + 1)
        else:
            self.idle()

    def touch_drag(self, move: str) -> None:
        """Play ``move`` by dragging its cards with a finger (touch events through the
        DevTools protocol: Playwright's touchscreen only taps)."""
        src, dst, n = parse(move)
        v = self.version
        sx, sy = self.grab_point(src, n)
        tx, ty = self.pile_point(dst)
        cdp = self.page.context.new_cdp_session(self.page)

        def touch(kind: str, x: float, y: float) -> None:
            points = [] if kind == "touchEnd" else [{"x": x, "y": y}]
            cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

        touch("touchStart", sx, sy)
        for i in range(1, 9):
            touch("touchMove", sx + (tx - sx) * i / 8, sy + (ty - sy) * i / 8)
        touch("touchEnd", tx, ty)
        cdp.detach()
        self.wait_version(v + 1)

    def click_stock(self) -> None:
        v = self.version
        self.page.click("#pile-stock")
        self.wait_version(v + 1)

    def tap_card(self, pile: str, depth: int = 1) -> None:
        x, y = self.grab_point(pile, depth)
        self.page.touchscreen.tap(x, y)

    def tap_pile(self, pile: str) -> None:
        x, y = self.pile_point(pile)
        self.page.touchscreen.tap(x, y)

    def tap_move(self, move: str) -> None:
        """Play ``move`` by tapping its (lowest) card, then the target pile."""
        if move == "deal":
            v = self.version
            self.tap_pile("stock")
            self.wait_version(v + 1)
            return
        src, dst, n = parse(move)
        v = self.version
        self.tap_card(src, n)
        self.page.wait_for_selector(f"#pile-{dst}.target")
        self.tap_pile(dst)
        self.wait_version(v + 1)
