"""The rules of every game in words, for players (Markdown).

One source for the terminal (``patience rules GAME``) and for ``docs/rules.md``
(:func:`rules_markdown_all`; a test keeps the file equal to it).  Each text states
the layout, the deal, foundations, tableau, spaces, stock and how to win, then
every decision made where sources disagree (RULES.md "Decisions"), then the
pile ids and move syntax, which are generated from the game's declaration.

>>> text = rules_text("fours-up")
>>> text.splitlines()[0]
'## Fours Up'
>>> "nothing is ever placed on a Four" in text
True

Regenerate the page with ``python -m patience.rules_text > docs/rules.md``.
"""

from __future__ import annotations

import sys
import textwrap
from dataclasses import dataclass
from textwrap import dedent

from patience.games import get_spec
from patience.rules.spec import GameSpec, Runs, Space, StockKind

__all__ = ["RULES_GAMES", "rules_markdown_all", "rules_text"]


@dataclass(frozen=True)
class _Text:
    """A game's rules: an introduction, titled sections, and its decisions."""

    intro: str
    sections: tuple[tuple[str, str], ...]
    decisions: tuple[str, ...]


def _md(text: str) -> str:
    """Dedent a triple-quoted paragraph block and trim it."""
    return dedent(text).strip()


_WIDTH = 96


def _fill(text: str, indent: str = "") -> str:
    """One paragraph (or list item) re-wrapped; continuation lines get ``indent``."""
    return textwrap.fill(" ".join(text.split()), width=_WIDTH, subsequent_indent=indent,
                         break_long_words=False, break_on_hyphens=False)


# ----------------------------------------------------------- Four Seasons (A1)
_AIM_ONE_DECK = "Move all 52 cards to the four foundations."

_FS_LAYOUT = _md("""
    Five piles form a cross: `t1` at the top, `t2` on the left, `t3` in the centre, `t4` on the
    right and `t5` at the bottom. The four foundations sit at the corners of the cross: `f1`
    top-left, `f2` top-right, `f3` bottom-left and `f4` bottom-right. Beside them are the
    stock (face down) and the waste (face up).
    """)

_FS_DEAL = _md("""
    Three cards are dealt face up in a row (`t2`, `t3`, `t4`), then one above the middle card
    (`t1`) and one below it (`t5`). The sixth card goes to `f1`: its rank is the **base rank**
    of this deal (shown at the top of the screen). The other 46 cards form the stock. The waste
    starts empty.
    """)

_FS_FOUNDATIONS = _md("""
    `f1` starts with the card that fixed the base rank. Each of `f2`, `f3` and `f4` stays empty
    until a card of the base rank is played to it: any empty foundation takes any card of the
    base rank. A foundation builds **up in suit**, turning the corner from King to Ace: with
    base rank Nine a foundation runs 9 10 J Q K A 2 3 4 5 6 7 8. A foundation is complete with
    13 cards. Cards never leave a foundation.
    """)

_BASE_RULE = _md("""
    **Nothing is ever placed on a card of the base rank**: with base rank Jack nothing goes on
    a Jack, and with base rank Ace no King goes on an Ace.
    """)

_FS_TABLEAU = _md("""
    Only the top card of each pile is available. A card may be placed on the top card of a
    pile when it is **one rank lower, regardless of suit**: a Seven on an Eight, a Two on a
    Three and, turning the corner, a King on an Ace.
    """) + " " + _BASE_RULE + " Only one card moves at a time."

_FS_SPACES = _md("""
    An empty pile of the cross may be filled with any available card: the top card of another
    pile, the top card of the waste, or the next card of the stock, turned straight into the
    space (`stock>t2`).
    """)

_FS_STOCK = _md("""
    `deal` turns the next card of the stock face up onto the waste, at any time while the
    stock has cards. The top card of the waste may be played to a foundation, onto a pile of
    the cross or into a space. There is **no redeal**: once the stock is empty it stays empty.
    """)

_WIN_LOSE = _md("""
    You win when every card is on a foundation. The game is lost when it is not won and no
    legal move is left.
    """)

_D_BASE = _md("""
    **Building across the base is forbidden**: nothing is ever placed on a card of the base
    rank, so a King goes on an Ace only when the base rank is not Ace. The source says "kings
    go on aces unless aces are the foundation base"; this is that rule for any base.
    PySolFC allows building across the base; Politaire and Solvitaire do not.
    """)

_D_STOCK_TO_SPACE = _md("""
    **A space may be filled straight from the stock** (`stock>tK`), as the source says ("the
    top card of the waste, or a card from the stock"); PySolFC allows only the waste.
    """)

_D_WASTE_EMPTY = "**The waste starts empty**: every card not dealt is in the stock."


def _four_seasons() -> _Text:
    return _Text(
        intro=_md("""
            Four Seasons is a one-deck patience: a cross of five piles, a foundation at each
            corner, and a stock turned one card at a time. It is not to be confused with
            Fortune's Favor, which was once also called Four Seasons.
            """),
        sections=(
            ("Aim", _AIM_ONE_DECK),
            ("Layout", _FS_LAYOUT),
            ("Deal", _FS_DEAL),
            ("Foundations", _FS_FOUNDATIONS),
            ("Tableau", _FS_TABLEAU),
            ("Spaces", _FS_SPACES),
            ("Stock and waste", _FS_STOCK),
            ("End of the game", _WIN_LOSE),
        ),
        decisions=(_D_BASE, _D_STOCK_TO_SPACE, _D_WASTE_EMPTY),
    )


# ------------------------------------------------------- Four Seasons 1883 (A2)
def _four_seasons_1883() -> _Text:
    return _Text(
        intro=_md("""
            The game as first published by Dick in 1883, laid out in a 3×3 square. It plays
            like Four Seasons, except that the opening deal founds corners and fills the cross
            by itself, packets of cards move together ("marriages"), and an empty pile must be
            filled at once.
            """),
        sections=(
            ("Aim", _AIM_ONE_DECK),
            ("Layout", _md("""
                A 3×3 square. The four corners are the foundations: `f1` top-left, `f2`
                top-right, `f3` bottom-left, `f4` bottom-right. The five other places form the
                cross: `t1` top middle, `t2` middle left, `t3` centre, `t4` middle right, `t5`
                bottom middle. Beside the square are the stock (face down) and the waste (face
                up).
                """)),
            ("Opening deal (automatic)", _md("""
                Cards are turned one at a time from the shuffled pack. The first goes to `f1`
                and fixes the **base rank**. Each following card goes, in this order of
                preference, to a foundation it fits (a card of the base rank founds the next
                empty corner, `f2`, then `f3`, then `f4`; any other card continues a foundation
                in suit); otherwise to the first empty pile of `t1` … `t5`. This stops as soon
                as all five cross piles hold a card, and the rest of the pack is the stock. The
                game does all this for you; the waste starts empty.
                """)),
            ("Foundations", _md("""
                As in Four Seasons: each foundation builds **up in suit** from the base rank,
                turning the corner from King to Ace, and is complete with 13 cards. During play
                a card of the base rank may found any empty corner. Cards never leave a
                foundation.
                """)),
            ("Tableau (marriages)", _md("""
                A card may be placed on a card of the cross **one rank higher, regardless of
                suit**, turning the corner (a King on an Ace).
                """) + " " + _BASE_RULE + " " + _md("""
                A **packet** (the top cards of a pile, each one rank below the card beneath it
                by that rule) may be moved together onto another pile that is not empty, when
                the packet's bottom card could be placed on that pile's top card: `t2>t5x3`
                moves a packet of three.
                """)),
            ("Vacancies must be filled at once", _md("""
                While a pile of the cross is empty, the only moves allowed are those that fill
                it with a **single card**: the top card of another cross pile, or the top card
                of the waste; only when the waste is empty may it be filled with the next card
                of the stock (`stock>t2`). While a vacancy is pending you cannot `deal` either.
                Once the waste and the stock are both empty, a vacancy no longer has to be
                filled (see the decisions below).
                """)),
            ("Stock and waste", _md("""
                `deal` turns the next card of the stock onto the waste, at any time when no
                vacancy is pending. The top card of the waste may go to a foundation, onto a
                cross pile or into a vacancy. There is **no redeal**.
                """)),
            ("End of the game", _WIN_LOSE),
        ),
        decisions=(
            _md("""
                **Only the opening deal plays cards by itself**: afterwards every move is
                yours (nothing goes to a foundation or into a vacancy automatically), and a
                card of the base rank may found any empty corner.
                """),
            _md("""
                **A packet never fills a vacancy**: a vacancy takes a single card, as the
                source says.
                """),
            _md("""
                **A vacancy may be filled with a pile's only card**, which leaves a new
                vacancy: pointless, but legal.
                """),
            _md("""
                **A pending vacancy also blocks `deal`**: fill it first. The source deals the
                next card only once the possible moves are made, and a vacancy is to be
                filled at once.
                """),
            _md("""
                **A vacancy lapses once the waste and the stock are empty.** From then on it
                restricts nothing: you may still fill it with another pile's top card, but
                you may also play to the foundations. Read literally ("if no such fill exists,
                the vacancy does not restrict play"), a vacancy could always be refilled from
                another cross pile at the end of the game, so the last cross cards could never
                reach a foundation and no deal could ever be won; the source only speaks of
                filling vacancies from the waste or the pack.
                """),
            "From Four Seasons: " + _D_BASE,
            "From Four Seasons: " + _D_WASTE_EMPTY,
        ),
    )


# ------------------------------------------------------------------ Czarina (A3)
def _czarina() -> _Text:
    return _Text(
        intro=_md("""
            Czarina is Four Seasons in which an emptied pile of the cross is refilled at once
            from the stock: you never fill a space yourself.
            """),
        sections=(
            ("Aim", _AIM_ONE_DECK),
            ("Layout", _FS_LAYOUT),
            ("Deal", _FS_DEAL),
            ("Foundations", _FS_FOUNDATIONS),
            ("Tableau", _FS_TABLEAU),
            ("Spaces", _md("""
                **A pile of the cross that becomes empty is at once refilled with the next
                card of the stock**, as part of the move that emptied it. You never move a card
                into an empty pile. Once the stock is empty, an emptied pile stays empty.
                """)),
            ("Stock and waste", _md("""
                `deal` turns the next card of the stock face up onto the waste, at any time
                while the stock has cards. The top card of the waste may be played to a
                foundation or onto a pile of the cross (never into a space). There is **no
                redeal**.
                """)),
            ("End of the game", _WIN_LOSE),
        ),
        decisions=(
            _md("""
                **Spaces are filled only by the stock, automatically**, as the source says
                ("any space on the cross is immediately filled only from the stock"): Four
                Seasons' `stock>tK` and filling a space from the waste or the cross do not
                exist here, and once the stock is empty an emptied pile stays empty.
                """),
            "From Four Seasons: " + _D_BASE,
            "From Four Seasons: " + _D_WASTE_EMPTY,
        ),
    )


# ------------------------------------------------------------------ Corners (A4)
def _corners() -> _Text:
    return _Text(
        intro=_md("""
            Corners is Four Seasons in which the cross is a reserve of five cells: nothing is
            built there, and every card goes straight to the foundations.
            """),
        sections=(
            ("Aim", _AIM_ONE_DECK),
            ("Layout", _md("""
                Five **cells** form a cross: `c1` at the top, `c2` on the left, `c3` in the
                centre, `c4` on the right and `c5` at the bottom. The four foundations sit at
                the corners: `f1` top-left, `f2` top-right, `f3` bottom-left and `f4`
                bottom-right. Beside them are the stock (face down) and the waste (face up).
                """)),
            ("Deal", _md("""
                Three cards are dealt face up in a row (`c2`, `c3`, `c4`), then one above the
                middle card (`c1`) and one below it (`c5`). The sixth card goes to `f1`: its
                rank is the **base rank** of this deal. The other 46 cards form the stock. The
                waste starts empty.
                """)),
            ("Foundations", _FS_FOUNDATIONS),
            ("Cells", _md("""
                Each cell holds **at most one card**. Nothing is built on a cell. A cell's card
                may only go to a foundation. **An emptied cell is at once refilled with the
                next card of the stock**; once the stock is empty it stays empty.
                """)),
            ("Stock and waste", _md("""
                `deal` turns the next card of the stock face up onto the waste, at any time
                while the stock has cards. The top card of the waste may **only go to a
                foundation**. There is **no redeal**.
                """)),
            ("End of the game", _WIN_LOSE),
        ),
        decisions=(
            _md("""
                Other books give Corners **two redeals and four independent foundation bases**
                (Hoffmann, PySolFC) or two redeals (Politaire). The commissioning document
                describes only the cells, so the rest of Four Seasons stands: **no redeal,
                and one base rank for all four foundations**, fixed by the deal.
                """),
            "From Four Seasons: " + _D_WASTE_EMPTY,
            _md("""
                From Four Seasons, building across the base and filling spaces do not arise:
                nothing is built on a cell, and only the stock fills an empty cell.
                """),
        ),
    )


# --------------------------------------------------------------- Simplicity (A5)
def _simplicity() -> _Text:
    return _Text(
        intro=_md("""
            Simplicity is Four Seasons with twelve piles in two rows of six, built down in
            alternating colours.
            """),
        sections=(
            ("Aim", _AIM_ONE_DECK),
            ("Layout", _md("""
                **Twelve piles in two rows of six**: `t1` … `t6` in the top row from left to
                right, `t7` … `t12` in the bottom row. Four foundations `f1` … `f4`, the stock
                (face down) and the waste (face up).
                """)),
            ("Deal", _md("""
                One card face up on each of `t1` … `t12`, in that order. **The thirteenth card
                goes to `f1`**: its rank is the **base rank** of this deal. The other 39 cards
                form the stock. The waste starts empty.
                """)),
            ("Foundations", _FS_FOUNDATIONS),
            ("Tableau", _md("""
                Only the top card of each pile is available. A card may be placed on the top
                card of a pile when it is **one rank lower and of the other colour** (red on
                black, black on red): a red Seven on a black Eight and, turning the corner, a
                black King on a red Ace.
                """) + " " + _BASE_RULE + " Only one card moves at a time."),
            ("Spaces", _md("""
                An empty pile may be filled with any available card: the top card of another
                pile, the top card of the waste, or the next card of the stock, turned straight
                into the space (`stock>t7`).
                """)),
            ("Stock and waste", _md("""
                `deal` turns the next card of the stock face up onto the waste, at any time
                while the stock has cards. The top card of the waste may be played to a
                foundation, onto a pile or into a space. There is **no redeal**.
                """)),
            ("End of the game", _WIN_LOSE),
        ),
        decisions=("From Four Seasons: " + _D_BASE,
                   "From Four Seasons: " + _D_STOCK_TO_SPACE,
                   "From Four Seasons: " + _D_WASTE_EMPTY),
    )


# -------------------------------------------------------------- Quadrennial (A6)
def _quadrennial() -> _Text:
    return _Text(
        intro=_md("""
            Quadrennial is the four-deck edition of Acquaintance: Leap Year with two redeals.
            Sixteen Aces start on sixteen foundations; each deal puts a card on every reserve
            pile, and two redeals gather them back.
            """),
        sections=(
            ("Aim", "Move all 208 cards to the sixteen foundations."),
            ("Layout", _md("""
                Sixteen foundations `f1` … `f16` and eight reserve piles `r1` … `r8`, with the
                stock (face down). There is no waste.
                """)),
            ("Deal", _md("""
                Four decks, 208 cards. The sixteen Aces are taken out before the shuffle, one
                on each foundation. One card is dealt face up on each reserve pile. The other
                184 cards form the stock.
                """)),
            ("Foundations", _md("""
                A foundation builds **up regardless of suit**: any Two on an Ace, any Three on
                a Two, and so on up to the King. It is complete with 13 cards (Ace to King).
                (The source says a King may be followed by an Ace; since every Ace starts on a
                foundation, this never happens.) **The top card of a foundation may be moved to
                another foundation that accepts it**; a starting Ace never moves.
                """)),
            ("Reserve", _md("""
                Only the top card of each reserve pile is available, and **only to a
                foundation**. You never place a card on a reserve pile: only the stock does.
                """)),
            ("Stock", _md("""
                `deal`, at any time while the stock has cards, puts one card face up on **each
                reserve pile that is not empty**, in order `r1` … `r8`. An empty reserve pile
                stays empty until the next redeal. If the stock runs out part-way, the later
                piles get nothing. If every reserve pile is empty, `deal` puts one card on each
                of `r1` … `r8`.
                """)),
            ("Redeals", _md("""
                When the stock is empty and a redeal is left, `deal` gathers the reserve piles
                back into the stock, in order and without shuffling, and at once deals one card
                onto each of `r1` … `r8`. **Three passes in all**: the first deal and two
                redeals. Gathering order: stack `r1` onto `r2`, that onto `r3`, … onto `r8`,
                and turn the packet face down. So the new stock deals first the bottom card of
                `r8`, then the rest of `r8` from bottom to top, then `r7` from bottom to top,
                …, and last `r1`.
                """)),
            ("End of the game", _WIN_LOSE),
        ),
        decisions=(
            _md("""
                **Deals skip empty reserve piles**, as the commissioning document says
                ("empty reserve piles are not filled by a tap: they simply stay open until the
                next full redeal"); the classic Auld Lang Syne family deals onto every pile.
                """),
            _md("""
                **When every reserve pile is empty and the stock still has cards**, `deal`
                puts one card on each of `r1` … `r8` (otherwise the game would halt with cards
                in the stock).
                """),
            _md("""
                **Gathering order** for a redeal as described above (it is also PySolFC's for
                Acquaintance). Example: `r1` holds a1 a2 a3 (bottom to top), `r2` holds b1 b2,
                the other piles are empty and so is the stock, and a redeal is left. The new
                stock deals b1 b2 a1 a2 a3, and the redeal's own row puts b1 on `r1`, b2 on
                `r2`, a1 on `r3`, a2 on `r4` and a3 on `r5`; the stock is then empty again.
                """),
        ),
    )


# ----------------------------------------------------------------- Fours Up (A7)
def _fours_up() -> _Text:
    return _Text(
        intro=_md("""
            Fours Up, by Thomas Warfield, is the fourth game of a series that began with Busy
            Aces, Deuces and Three's Company, and the most permissive of them: the tableau
            builds down regardless of suit and any run moves. Two decks; the foundations
            start from the eight Fours.
            """),
        sections=(
            ("Aim", "Move all 104 cards to the eight foundations."),
            ("Layout", _md("""
                Eight foundations `f1` … `f8`, six tableau piles `t1` … `t6`, the stock (face
                down) and the waste (face up).
                """)),
            ("Deal", _md("""
                Two decks, 104 cards. The eight Fours are taken out before the shuffle, one on
                each foundation. One card is dealt face up on each of `t1` … `t6`. The other 90
                cards form the stock. The waste starts empty.
                """)),
            ("Foundations", _md("""
                A foundation builds **up in suit**: 4 5 6 7 8 9 10 J Q K A 2 3. It is complete
                with 13 cards. **The top card of a foundation (never its starting Four) may be
                played back onto any pile that accepts it**: a tableau pile, a space, or the
                other foundation of its suit.
                """)),
            ("Tableau", _md("""
                A pile builds **down regardless of suit**, turning the corner in the order of
                the foundations read backwards: a Three takes a Two, a Two takes an Ace, an Ace
                takes a King, a King takes a Queen, …, a Five takes a Four, and **nothing is
                ever placed on a Four**. The Four is the lowest card of a tableau sequence: no
                Ace, Two or Three continues a sequence below it (a Three can only start a pile,
                in a space). **Any run** (the top cards of a pile, each of which could be
                placed on the card beneath it) may be moved together onto a pile whose top card
                takes the run's bottom card, or into a space: `t2>t5x3` moves a run of three.
                """)),
            ("Spaces", "An empty pile takes any card or any run."),
            ("Stock and waste", _md("""
                `deal` turns the next card of the stock onto the waste. **One pass, no
                redeal.** The top card of the waste may go to a foundation, onto a tableau pile
                or into a space. A stock card never goes straight into a pile: there is no
                `stock>tK`.
                """)),
            ("End of the game", _WIN_LOSE),
        ),
        decisions=(
            _md("""
                **The Four is the lowest card of a tableau sequence**, and Aces, Twos and
                Threes are built on in the foundations' order (a Two on a Three, an Ace on a
                Two, a King on an Ace). The commissioning document says "a Four is the lowest
                card a pile can take, so Aces, Twos and Threes never continue a sequence",
                next to foundations that run 4 … K, A, 2, 3, a 45% win rate and "the most
                permissive building rule of the series". Read with the foundations' order, as
                Politaire plays this series, the Four is the lowest rank and nothing continues
                a sequence below it. Read with Aces low, Aces, Twos and Threes could never be
                built on at all: an exact search found no win in any of 100 deals of that
                game, which contradicts the document's 45% and "most permissive". (Pretty Good
                Solitaire, the inventor's program, also lets a King go on an Ace.)
                """),
            "**Runs move regardless of suit**, as the document says.",
            _md("""
                **Foundation play-back is allowed**, as the document says; a foundation's
                starting Four never moves.
                """),
            _md("""
                **Play-back goes to any pile that accepts the card, other foundations
                included**: the rules specification says "onto any pile that accepts it" and
                the commissioning document "if another pile can take it". So a foundation's
                top card may move onto a tableau pile, into a space, or onto the other
                foundation of its suit when that one needs it next.
                """),
        ),
    )


# ------------------------------------------------------ Florentine Patience (B2)
def _florentine() -> _Text:
    fs = _four_seasons()
    sections = tuple(
        (title, body) if title != "Stock and waste" else (title, _md("""
            `deal` turns the next card of the stock face up onto the waste, at any time while
            the stock has cards. The top card of the waste may be played to a foundation, onto
            a pile of the cross or into a space. **One redeal**: when the stock is empty,
            `deal` turns the whole waste over, unshuffled, as the new stock, once. Two passes
            through the stock in all.
            """))
        for title, body in fs.sections)
    return _Text(
        intro=_md("""
            Florentine Patience is Four Seasons with a second pass through the stock: the same
            cross of five piles and four corner foundations, and one redeal.
            """),
        sections=sections,
        decisions=(*fs.decisions, _md("""
            **The redeal turns the waste over unshuffled, once** (PySolFC), so the second pass
            deals the cards in the order they were first turned.
            """)),
    )


# ------------------------------------------------------ the Acquaintance family (B1)
_B1_DEAL_TO_EMPTY = _md("""
    **Deals go onto every reserve pile, empty ones included**, as in the classic Auld Lang
    Syne family (Politaire, PySolFC). Quadrennial's own document skips empty piles; its
    relatives do not.
    """)

_B1_NO_SHIFTS = _md("""
    **Cards never leave a foundation**: the sources of this family name no moves between
    foundations (Quadrennial's document allows them; they never change the game, since
    foundations build regardless of suit).
    """)


_NUMBER_WORDS = {2: "Two", 3: "Three"}


def _acquaintance_like(spec_id: str, intro: str, *extra: str) -> _Text:
    """The rules text of a B1 game, from its declaration; ``extra`` decisions follow B1's."""
    spec = get_spec(spec_id)
    decks, foundations, reserves, passes = spec.decks, spec.foundations, spec.reserves, \
        spec.passes
    cards = decks * 52
    words = {1: "one", 4: "four"}
    found_words = {4: "four", 16: "sixteen"}[foundations]
    res_words = {4: "four", 8: "eight"}[reserves]
    stock = cards - foundations - reserves
    if passes == 1:
        redeal = "There is **no redeal**: once the stock is empty it stays empty."
    else:
        redeal = _md(f"""
            **{_NUMBER_WORDS[passes]} passes in all**: when the stock is empty and a redeal
            is left, `deal` gathers the reserve piles back into the stock, in order and
            without shuffling (stack `r1` onto `r2`, that onto `r3`, and so on, and turn the
            packet face down), and at once deals one card onto each reserve pile.
            """)
    sections = (
        ("Aim", f"Move all {cards} cards to the {found_words} foundations."),
        ("Layout", _md(f"""
            {found_words.capitalize()} foundations {_span('f', foundations)} and
            {res_words} reserve piles {_span('r', reserves)}, with the stock (face down).
            There is no waste.
            """)),
        ("Deal", _md(f"""
            {words[decks].capitalize()} deck{'s' if decks > 1 else ''}, {cards} cards. The
            {found_words} Aces are taken out before the shuffle, one on each foundation. One
            card is dealt face up on each reserve pile. The other {stock} cards form the
            stock.
            """)),
        ("Foundations", _md("""
            A foundation builds **up regardless of suit**: any Two on an Ace, any Three on a
            Two, and so on up to the King. It is complete with 13 cards (Ace to King).
            """)),
        ("Reserve", _md("""
            Only the top card of each reserve pile is available, and **only to a
            foundation**. You never place a card on a reserve pile: only the stock does.
            """)),
        ("Stock", _md(f"""
            `deal`, at any time while the stock has cards, puts one card face up on **every
            reserve pile, empty ones included**, in order `r1` … `r{reserves}`. If the stock
            runs out part-way, the later piles get nothing. {redeal}
            """)),
        ("End of the game", _WIN_LOSE),
    )
    return _Text(intro=intro, sections=sections,
                 decisions=(_B1_DEAL_TO_EMPTY, _B1_NO_SHIFTS, *extra))


def _leap_year() -> _Text:
    return _acquaintance_like("leap-year", _md("""
        Leap Year is the four-deck edition of Auld Lang Syne: sixteen Aces on sixteen
        foundations, eight reserve piles fed by the stock, and a single pass. Quadrennial
        is Leap Year with two redeals.
        """), _md("""
        **Four decks.** The commissioning document calls Leap Year single-deck; every
        other source, and the document's own "Quadrennial is Leap Year with two
        redeals", make it four decks.
        """))


def _acquaintance() -> _Text:
    return _acquaintance_like("acquaintance", _md("""
        Acquaintance is Auld Lang Syne with two redeals: four Aces on the foundations, four
        reserve piles fed by the stock, and three passes.
        """), _md("""
        **Gathering order** for a redeal as Quadrennial's (and PySolFC's): the new stock
        deals first the bottom card of `r4`, then the rest of `r4` from bottom to top,
        then `r3`, `r2`, and last `r1`.
        """))


def _auld_lang_syne() -> _Text:
    return _acquaintance_like("auld-lang-syne", _md("""
        Auld Lang Syne is the oldest game of its family and one of the hardest: four Aces
        on the foundations, four reserve piles fed by the stock, and a single pass. Only
        the top cards of the reserve can be played, and only to the foundations.
        """))


# ------------------------------------------------------- the Busy Aces family (B3)
_PILE_WORDS = {4: "four", 6: "six", 7: "seven", 8: "eight", 9: "nine", 10: "ten",
               12: "twelve", 16: "sixteen"}
_RANK_WORDS = {1: "Ace", 2: "Two", 3: "Three", 4: "Four", 5: "Five", 6: "Six", 7: "Seven",
               8: "Eight", 9: "Nine", 10: "Ten", 11: "Jack", 12: "Queen", 13: "King"}
_RANK_PLURALS = {1: "Aces", 2: "Twos", 3: "Threes", 5: "Fives", 6: "Sixes", 7: "Sevens",
                 8: "Eights", 9: "Nines", 10: "Tens", 11: "Jacks"}
_RANK_SHORT = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


def _a(word: str) -> str:
    """The indefinite article of a rank word: "an Eight", "a Jack"."""
    return "an" if word[0] in "AEIOU" else "a"


def _ranks(start: int, up: bool, count: int = 13) -> str:
    """``count`` ranks from ``start``, up or down, turning the corner: ``5 4 3 2 A K``."""
    step = 1 if up else -1
    return " ".join(_RANK_SHORT[(start - 1 + step * k) % 13] for k in range(count))


def _piles(prefix: str, first: int, last: int) -> str:
    """Piles ``first`` … ``last`` of a kind: ``f5`` … ``f8``."""
    return _span(prefix, last) if first == 1 else f"`{prefix}{first}` … `{prefix}{last}`"


_B3_REDEAL = _md("""
    **The redeal turns the waste over unshuffled, once**, as in Florentine Patience
    (PySolFC), so the second pass deals the cards in the order they were first turned.
    """)


def _busy_aces_like(spec_id: str, intro: str, *, series: bool = True) -> _Text:
    """The rules text of a game of B3's table, from its declaration.

    ``series``: one of Thomas Warfield's series (Busy Aces … Dimes), whose decisions cite
    Politaire and Fours Up's document; the others cite the family's common rules.
    """
    spec = get_spec(spec_id)
    runs = spec.runs is not Runs.NONE
    base = spec.base_rank or 1
    # B3's table: every foundation builds the same way, and so does every tableau pile
    down = spec.foundations_down == spec.foundations
    up = spec.tableau_up == spec.tableau
    seq = _ranks(base, not down)
    found_way = "down" if down else "up"
    word, plural = _RANK_WORDS[base], _RANK_PLURALS[base]
    n = spec.tableau
    cells = spec.cells if spec.free_cells else 0
    stock = spec.card_count - len(spec.deal_order) - (spec.foundations if spec.prefilled else 0)
    if spec.prefilled:
        deal = _md(f"""
            Two decks, 104 cards. The eight {plural} are taken out before the shuffle, one on
            each foundation. One card is dealt face up on each of {_span('t', n)}. The other
            {stock} cards form the stock. The waste starts empty{
            ', and so do the cells' if cells else ''}.
            """)
        found = _md(f"""
            Each foundation starts with its {word} and builds **{found_way} in suit** ({seq}),
            and is complete with 13 cards.
            """)
    else:
        deal = _md(f"""
            Two decks, 104 cards. One card is dealt face up on each of {_span('t', n)}. The
            other {stock} cards form the stock. The waste starts empty, and so do the
            foundations{' and the cells' if cells else ''}.
            """)
        found = _md(f"""
            An empty foundation takes any {word}. A foundation builds **{found_way} in suit**
            ({seq}), and is complete with 13 cards.
            """)
    found += " " + _md(f"""
        **The top card of a foundation (never a starting card) may be played back** onto any
        pile that accepts it{', or into an empty cell' if cells else ''}.
        """)
    if base == 1:
        lowest = "nothing is placed on an Ace"
    elif up:
        lowest = f"an Ace goes on a King, and nothing is ever placed on {_a(word)} {word}"
    else:
        lowest = f"a King goes on an Ace, and nothing is ever placed on {_a(word)} {word}"
    if up:
        rule, example, way = "higher", "the Seven of hearts on the Six of hearts", "higher"
    else:
        rule, example, way = "lower", "the Seven of hearts on the Eight of hearts", "lower"
    tableau = _md(f"""
        Only the top card of each pile is available. A card may be placed on the top card of a
        pile when it is **one rank {rule} and of the same suit**: {example}; {lowest}.
        """)
    if runs:
        into_space = "" if spec.space is Space.FROM_STOCK else ", or into a space"
        tableau += " " + _md(f"""
            **Any run in suit** (the top cards of a pile, each one rank {way} than the card
            beneath it and of its suit) may be moved together onto a pile that takes its
            bottom card{into_space}: `t2>t5x3` moves a run of three.
            """)
    else:
        tableau += " Only one card moves at a time."
    waste_to = "a foundation, onto a tableau pile" + (
        ", into a space or into an empty cell" if cells else " or into a space")
    if spec.passes == 1:
        stock_text = _md(f"""
            `deal` turns the next card of the stock onto the waste. **One pass, no redeal.**
            The top card of the waste may go to {waste_to}.
            """)
    else:
        stock_text = _md(f"""
            `deal` turns the next card of the stock onto the waste. **One redeal**: when the
            stock is empty, `deal` turns the whole waste over, unshuffled, as the new stock,
            once. {_NUMBER_WORDS[spec.passes]} passes through the stock in all. The top card
            of the waste may go to {waste_to}.
            """)
    cell_piles = f"{_PILE_WORDS[cells]} cells {_span('c', cells)}, " if cells else ""
    sections = [
        ("Aim", "Move all 104 cards to the eight foundations."),
        ("Layout", _md(f"""
            Eight foundations `f1` … `f8`, {_PILE_WORDS[n]} tableau piles {_span('t', n)},
            {cell_piles}the stock (face down) and the waste (face up).
            """)),
        ("Deal", deal),
        ("Foundations", found),
        ("Tableau", tableau),
    ]
    if cells:
        sections.append(("Cells", _md(f"""
            Each of the {_PILE_WORDS[cells]} cells holds **at most one card**. An empty cell
            takes **any single card**: the top card of the waste, of a tableau pile or of a
            foundation, or the card of another cell. A cell's card may go to a foundation,
            onto a tableau pile that takes it, into a space or into another empty cell.
            """)))
    sections += [
        ("Spaces", _md("""
            An empty pile is filled **only from the waste or straight from the stock**
            (`stock>t4`): never with a card or a run from another pile.
            """) if spec.space is Space.FROM_STOCK
         else "An empty pile takes any card" + (" or any run." if runs else ".")),
        ("Stock and waste", stock_text + (
            " The next card of the stock may also be turned straight into a space "
            "(`stock>t4`)." if spec.stock_to_space else "")),
        ("End of the game", _WIN_LOSE),
    ]
    if series:
        decisions = [
            _md(f"""
                **Nothing is ever placed on {'an' if base == 1 else 'a'} {word}**, the base
                rank: the tableau never builds across the base{' (no King on an Ace)'
                if base == 1 else ', though it turns the corner from Ace to King'}
                (Politaire).
                """),
            _md("""
                **Foundation play-back is allowed**, as in the rest of the series (Fours Up's
                document allows it).
                """),
        ]
    else:
        turn = "from King to Ace (an Ace on a King)" if up else \
            "from Ace to King (a King on an Ace)"
        read = ", read for a tableau that builds up" if up else ""
        decisions = [
            _md(f"""
                **Nothing is ever placed on {_a(word)} {word}**, the base rank: the tableau
                never builds across the base, though it turns the corner {turn}. This is the
                family's common rule in the rules specification ("nothing is placed on a
                base-rank card"){read}.
                """),
            _md(f"""
                **Foundation play-back is allowed**, the family's common rule: the top card of
                a foundation, never its starting {word}, may go onto a tableau pile that takes
                it, into a space{', into an empty cell' if cells else ''}, or onto the other
                foundation of its suit when that one needs it next.
                """),
        ]
    if spec.space is Space.FROM_STOCK:
        decisions.append(_md("""
            **A space takes only the waste's top card or the stock's next card**, as the
            rules of Deuces say (Politaire); so no run and no card of another pile ever moves
            into a space, and a foundation's card is never played back into one.
            """))
    if not spec.prefilled:
        decisions.append(_md(f"""
            **The {plural} are not dealt at the start**: every foundation starts empty and
            takes the first {word} played to it (Politaire, PySolFC).
            """))
    if cells:
        decisions += [
            _md(f"""
                **The {_PILE_WORDS[cells]} cells start empty**: the rules specification deals
                them no card, so every card not on a foundation or a tableau pile is in the
                stock.
                """),
            _md("""
                **A cell takes any single card and gives it to any pile that takes it**: the
                top card of the waste, of a tableau pile or of a foundation, or another cell's
                card, may go into an empty cell; a cell's card may go to a foundation, onto a
                tableau pile, into a space or into another empty cell. The rules specification
                names the cells and nothing more; these are the free cells of FreeCell.
                """),
        ]
    if spec.passes > 1:
        decisions.append(_B3_REDEAL)
    return _Text(intro=intro, sections=tuple(sections), decisions=tuple(decisions))


def _busy_aces() -> _Text:
    return _busy_aces_like("busy-aces", _md("""
        Busy Aces, the first game of Thomas Warfield's series that ends with Fours Up: twelve
        piles of one card built down in suit, eight foundations from the Aces, and a stock
        turned one card at a time.
        """))


def _deuces() -> _Text:
    return _busy_aces_like("deuces", _md("""
        Deuces, the second game of Thomas Warfield's series: the foundations start from the
        eight Twos, ten piles build down in suit and move runs in suit, and a space is
        filled only from the waste or the stock.
        """))


def _threes_company() -> _Text:
    return _busy_aces_like("threes-company", _md("""
        Three's Company, the third game of Thomas Warfield's series: the foundations start
        from the eight Threes, and eight piles build down in suit and move runs in suit.
        """))


def _cast_out_nines() -> _Text:
    return _busy_aces_like("cast-out-nines", _md("""
        Cast Out Nines: seven piles of one card built down in suit, and eight foundations
        that build up from the Nines, round the corner.
        """))


def _dimes() -> _Text:
    return _busy_aces_like("dimes", _md("""
        Dimes: eight piles of one card built down in suit, and eight foundations that build
        up from the Tens, round the corner.
        """))


def _jacks_in_the_box() -> _Text:
    return _busy_aces_like("jacks-in-the-box", _md("""
        Jacks in the Box: the foundations start from the eight Jacks, six piles of one card
        build down in suit, round the corner, and four free cells each hold any one card.
        """), series=False)


def _eights_down() -> _Text:
    return _busy_aces_like("eights-down", _md("""
        Eights Down turns the family upside down: the foundations start from the eight Eights
        and build down, six piles build up in suit and move runs in suit, and the waste is
        turned over once.
        """), series=False)


def _penta() -> _Text:
    spec = get_spec("penta")
    base = spec.base_rank or 1
    word, plural = _RANK_WORDS[base], _RANK_PLURALS[base]
    nf, nt = spec.foundations, spec.tableau
    f_up, f_down = _piles("f", 1, nf - spec.foundations_down), \
        _piles("f", nf - spec.foundations_down + 1, nf)
    t_down, t_up = _piles("t", 1, nt - spec.tableau_up), _piles("t", nt - spec.tableau_up + 1, nt)
    f_build, t_build = spec.foundation_build.value, spec.tableau_build.value
    stock = spec.card_count - len(spec.deal_order)
    lower, higher = _RANK_WORDS[base - 1], _RANK_WORDS[base + 1]
    return _Text(
        intro=_md(f"""
            Penta: any {word} starts a foundation, and the foundations build both ways, half
            of them up and half down, regardless of suit; so do the six piles of the tableau,
            all the way round the corner.
            """),
        sections=(
            ("Aim", f"Move all {spec.card_count} cards to the {_PILE_WORDS[nf]} foundations."),
            ("Layout", _md(f"""
                {_PILE_WORDS[nf].capitalize()} foundations: {f_up} build up and {f_down} build
                down. {_PILE_WORDS[nt].capitalize()} tableau piles: {t_down} build down and
                {t_up} build up. The stock (face down) and the waste (face up).
                """)),
            ("Deal", _md(f"""
                Two decks, {spec.card_count} cards. One card is dealt face up on each of
                {_span('t', nt)}. The other {stock} cards form the stock. The waste starts
                empty, and so do the foundations.
                """)),
            ("Foundations", _md(f"""
                An empty foundation takes any {word}: you choose whether it goes to one that
                builds up or to one that builds down. {f_up} build **up {f_build}**, round the
                corner ({_ranks(base, True)}); {f_down} build **down {f_build}**, round the
                corner ({_ranks(base, False)}). Each is complete with 13 cards. **The top card
                of {f_up} (never a starting {word}) may be played back** onto any pile that
                accepts it: a tableau pile, a space, or another foundation, one that builds
                down included. Cards never leave {f_down}.
                """)),
            ("Tableau", _md(f"""
                Only the top card of each pile is available. On {t_down} a card may be placed
                on the top card when it is **one rank lower, {t_build}**; on {t_up} when it
                is **one rank higher, {t_build}**. Both turn the corner: a King goes on an Ace
                on {t_down}, and an Ace on a King on {t_up}. **Cards are placed on
                {plural} too**: {_a(lower)} {lower} on a {word} of {t_down}, {_a(higher)}
                {higher} on a {word} of {t_up}. Only one card moves at a time.
                """)),
            ("Spaces", _md("""
                An empty pile takes any card, and then builds the way its pile does.
                """)),
            ("Stock and waste", _md("""
                `deal` turns the next card of the stock onto the waste. **One pass, no
                redeal.** The top card of the waste may go to a foundation, onto a tableau
                pile or into a space.
                """)),
            ("End of the game", _WIN_LOSE),
        ),
        decisions=(
            _md(f"""
                **A card may be placed on {_a(word)} {word}**: Penta's tableau builds fully
                round the corner with no exception for the base rank, as the rules
                specification says for Penta ("both fully round the corner") and unlike the
                rest of the family, where nothing is placed on a base-rank card.
                """),
            _md(f"""
                **Cards are played back only from {f_up}**, the foundations that build up, as
                the rules specification says ("cards may be taken back from `f1`–`f4`"),
                never a starting {word}; cards never leave {f_down}. A card played back goes
                to any pile that takes it, as in Fours Up: a tableau pile, a space, or another
                foundation, one that builds down included.
                """),
        ),
    )


def _sixes_and_sevens() -> _Text:
    spec = get_spec("sixes-and-sevens")
    up_base, down_base = spec.base_rank or 1, spec.down_base_rank or 1
    nf, nd, nc = spec.foundations, spec.foundations_down, spec.cells
    f_up, f_down = _piles("f", 1, nf - nd), _piles("f", nf - nd + 1, nf)
    up_len, down_len = 14 - up_base, down_base
    ups, downs = _RANK_PLURALS[up_base], _RANK_PLURALS[down_base]
    build = spec.foundation_build.value
    stock = spec.card_count - nf - len(spec.deal_order)
    return _Text(
        intro=_md(f"""
            Sixes and Sevens: the eight {ups} and the eight {downs} start {_PILE_WORDS[nf]}
            foundations, the {ups} building up to the King and the {downs} down to the Ace;
            {_PILE_WORDS[nc]} cells hold one card each, and nothing is built anywhere else.
            """),
        sections=(
            ("Aim", f"Move all {spec.card_count} cards to the {_PILE_WORDS[nf]} foundations."),
            ("Layout", _md(f"""
                {_PILE_WORDS[nf].capitalize()} foundations: {f_up} hold the {ups} and {f_down}
                the {downs}. {_PILE_WORDS[nc].capitalize()} cells {_span('c', nc)}, the stock
                (face down) and the waste (face up). There is no tableau.
                """)),
            ("Deal", _md(f"""
                Two decks, {spec.card_count} cards. The eight {ups} and the eight {downs} are
                taken out before the shuffle, one on each foundation: the {ups} on {f_up}, the
                {downs} on {f_down}. One card is dealt face up into each of {_span('c', nc)}.
                The other {stock} cards form the stock. The waste starts empty.
                """)),
            ("Foundations", _md(f"""
                {f_up} build **up {build}** from the {_RANK_WORDS[up_base]} to the King
                ({_ranks(up_base, True, up_len)}), and are complete with {up_len} cards;
                {f_down} build **down {build}** from the {_RANK_WORDS[down_base]} to the Ace
                ({_ranks(down_base, False, down_len)}), and are complete with {down_len}
                cards. **They do not turn the corner**: nothing goes on a King of {f_up} or
                on an Ace of {f_down}. **Cards never leave a foundation.**
                """)),
            ("Cells", _md("""
                Each cell holds **at most one card**, and nothing is built on it. An empty cell
                takes **any single card**: the top card of the waste, or the card of another
                cell. A cell's card may go to a foundation or into another empty cell.
                """)),
            ("Stock and waste", _md("""
                `deal` turns the next card of the stock onto the waste. **One pass, no
                redeal.** The top card of the waste may go to a foundation or into an empty
                cell.
                """)),
            ("End of the game", _WIN_LOSE),
        ),
        decisions=(
            _md("""
                **No foundation play-back**: cards never leave a foundation. The rules
                specification's paragraph on Sixes and Sevens does not allow it, and Penta's
                states its own, so the family's common play-back is read as belonging to the
                games of the family's table only.
                """),
            _md(f"""
                **The foundations end at the King and the Ace**, as the rules specification
                says for this game ("up in suit to King", "down in suit to Ace"), and do not
                turn the corner to 13 cards as the rest of the family does: a foundation of
                {ups} is complete with {up_len} cards, one of {downs} with {down_len}.
                """),
            _md("""
                **A cell takes the top card of the waste or another cell's card**: the rules
                specification says "a cell takes any single card", and with no tableau and no
                play-back these are the only single cards that can move. A cell's card goes
                to a foundation or into another empty cell.
                """),
        ),
    )

_TEXTS = {
    "four-seasons": _four_seasons,
    "four-seasons-1883": _four_seasons_1883,
    "czarina": _czarina,
    "corners": _corners,
    "simplicity": _simplicity,
    "quadrennial": _quadrennial,
    "fours-up": _fours_up,
    "florentine": _florentine,
    "leap-year": _leap_year,
    "acquaintance": _acquaintance,
    "auld-lang-syne": _auld_lang_syne,
    "busy-aces": _busy_aces,
    "deuces": _deuces,
    "threes-company": _threes_company,
    "cast-out-nines": _cast_out_nines,
    "dimes": _dimes,
    "jacks-in-the-box": _jacks_in_the_box,
    "eights-down": _eights_down,
    "penta": _penta,
    "sixes-and-sevens": _sixes_and_sevens,
}

#: The games that have a written rules text, in the order of the rules page.
RULES_GAMES: tuple[str, ...] = tuple(_TEXTS)


# --------------------------------------------------------------------- moves
def _span(prefix: str, n: int) -> str:
    if n == 1:
        return f"`{prefix}1`"
    if n == 2:
        return f"`{prefix}1` and `{prefix}2`"
    return f"`{prefix}1` … `{prefix}{n}`"


def _moves_section(spec: GameSpec) -> str:
    """Pile ids and move texts of a game, from its declaration."""
    piles = ["`stock` (face down: the screen shows only how many cards it holds)"]
    if spec.stock is StockKind.WASTE:
        piles.append("`waste` (only its top card can be played)")
    piles.append(f"{_span('f', spec.foundations)} (the foundations)")
    if spec.tableau:
        piles.append(f"{_span('t', spec.tableau)} (the tableau piles)")
    if spec.reserves:
        piles.append(f"{_span('r', spec.reserves)} (the reserve piles)")
    if spec.cells:
        piles.append(f"{_span('c', spec.cells)} (the cells)")
    lines = [
        _fill("Type a move as `SOURCE>TARGET`, with the pile names shown on the screen: "
              + ", ".join(piles) + "."),
        "",
    ]
    # example moves, each valid in this game
    src = "t3" if spec.tableau >= 3 else "c3" if spec.cells >= 3 else "r3"
    lines.append(f"- `{src}>f1`: the top card of `{src}` to foundation `f1`.")
    if spec.stock is StockKind.WASTE:
        if spec.tableau and spec.waste_to_tableau:
            lines.append("- `waste>t2`: the top card of the waste onto `t2`.")
        else:
            lines.append("- `waste>f2`: the top card of the waste to foundation `f2`.")
    if spec.free_cells:  # a cell takes any single card, and its card goes where it fits
        if spec.tableau:
            lines.append("- `t3>c1`: the top card of `t3` into cell `c1`, when `c1` is empty.")
            lines.append("- `c1>t5`: the card of cell `c1` onto `t5`.")
        elif spec.stock is StockKind.WASTE:
            lines.append("- `waste>c2`: the top card of the waste into cell `c2`, when `c2` "
                         "is empty.")
    if spec.stock_to_space or spec.space is Space.VACANCY:
        lines.append("- `stock>t4`: the next card of the stock straight into `t4`, "
                     "when `t4` is empty.")
    if spec.runs is not Runs.NONE and spec.tableau:
        lines.append("- `t2>t5x3`: the top three cards of `t2` together onto `t5`.")
    if spec.playback:
        # a foundation that plays back: in Penta only those building up (the first ones)
        back = 2 if spec.playback_down or spec.foundations - spec.foundations_down >= 2 else 1
        if spec.tableau:
            lines.append(f"- `f{back}>t4`: the top card of foundation `f{back}` back onto "
                         "`t4`.")
            if spec.foundations_down and not spec.playback_down:
                lines.append(f"- `f{back}>f{spec.foundations}`: the top card of foundation "
                             f"`f{back}` onto foundation `f{spec.foundations}`, which builds "
                             "down.")
        else:
            lines.append(f"- `f{back}>f7`: the top card of foundation `f{back}` onto "
                         "foundation `f7`.")
    if spec.stock is StockKind.WASTE:
        what = "turn the next card of the stock onto the waste"
    else:
        what = "deal a card from the stock onto each reserve pile"
    if spec.passes > 1:
        what += ", or redeal when the stock is empty and a redeal is left"
    lines.append(f"- `deal`: {what}.")
    lines = [_fill(line, "  ") if line.startswith("- ") else line for line in lines]
    lines += [
        "",
        _fill("When playing in the terminal you can also type `undo`, `redo`, `moves` (to list "
              "the legal moves), `help` and `quit`."),
    ]
    return "\n".join(lines)


# ------------------------------------------------------------------- assembly
_DECKS = {1: "One 52-card deck", 2: "Two decks (104 cards)", 4: "Four decks (208 cards)"}


def _facts(spec: GameSpec) -> str:
    facts = []
    if spec.aliases:
        facts.append("Also known as " + ", ".join(spec.aliases))
    facts.append(_DECKS.get(spec.decks, f"{spec.decks} decks"))
    if spec.odds:
        source = f" ({spec.odds_source})" if spec.odds_source else ""
        facts.append(f"Published odds of winning: {spec.odds}{source}")
    return _fill("*" + ". ".join(facts) + ".*")


def _fallback(spec: GameSpec) -> str:
    where = f" (§{spec.section})" if spec.section else ""
    return "\n\n".join([
        f"## {spec.name}",
        _facts(spec),
        _fill(spec.summary),
        _fill("The full rules text of this game is not written yet; see the rules "
              f"specification{where}."),
        "### Moves",
        _moves_section(spec),
    ])


def rules_text(game_id: str) -> str:
    """The rules of a game (by id, name or alias) in Markdown, with its decisions and moves.

    Raises :class:`patience.UnknownGame` for an unknown name.
    """
    spec = get_spec(game_id)
    make = _TEXTS.get(spec.id)
    if make is None:
        return _fallback(spec) + "\n"
    text = make()
    parts = [f"## {spec.name}", _facts(spec), _fill(text.intro)]
    for title, body in text.sections:
        parts += [f"### {title}", _fill(body)]
    parts.append("### Decisions")
    parts.append("Where the sources disagree, this is how the game is played here:")
    parts.append("\n".join(_fill(f"{i}. {d}", "   ") for i, d in enumerate(text.decisions, 1)))
    parts += ["### Moves", _moves_section(spec)]
    return "\n\n".join(parts) + "\n"


_PAGE_INTRO = _md("""
    # Rules of the games

    <!-- Generated by patience.rules_text.rules_markdown_all(): do not edit by hand.
         Regenerate with: python -m patience.rules_text > docs/rules.md -->

    The rules of every game, in words. `patience rules GAME` prints the same text in the
    terminal. Where the sources of a game disagree, the choice made here is stated under
    "Decisions".
    """)

_VOCABULARY = _md("""
    ## Words used on this page

    - **Cards.** Ranks A 2 3 4 5 6 7 8 9 10 J Q K (10 may be written T); suits clubs ♣,
      diamonds ♦, hearts ♥, spades ♠; diamonds and hearts are red, clubs and spades black. In
      games with several decks, identical cards are interchangeable.
    - **Turning the corner.** Where a game says so, the ranks go round: after a King comes an
      Ace, and below an Ace comes a King.
    - **Piles.** The *stock* is face down: cards still to be dealt. The *waste* takes cards
      turned from the stock; only its top card can be played. *Foundations* (`f1`, `f2`, …)
      are where the cards must end. *Tableau* piles (`t1`, …) are built on. *Reserve* piles
      (`r1`, …) only give cards. *Cells* (`c1`, …) hold one card each.
    - **Top card.** The last card placed on a pile: the only one you can move, unless the game
      lets a run of cards move together.
    - **Space.** An empty tableau pile.
    - **Won and lost.** A game is won when every card is on a foundation, and lost when it is
      not won and no legal move is left.
    """)


def rules_markdown_all() -> str:
    """The player-facing rules page ``docs/rules.md``: every game with a rules text."""
    toc = "\n".join(f"- [{get_spec(g).name}](#{g})" for g in RULES_GAMES)
    parts = [_PAGE_INTRO, toc, _VOCABULARY]
    parts += [rules_text(g).rstrip("\n") for g in RULES_GAMES]
    return "\n\n".join(parts) + "\n"


if __name__ == "__main__":  # pragma: no cover
    sys.stdout.write(rules_markdown_all())
