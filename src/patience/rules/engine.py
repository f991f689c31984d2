"""The one rules engine: reads a :class:`GameSpec`, deals, lists and plays moves.

All functions are pure: a :class:`State` goes in, a new one comes out.  The
search in :mod:`patience.solver` and the :class:`~patience.game.Game` object
both build on :class:`Rules`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from patience.cards import (
    RANK_NAMES,
    Card,
    card_text,
    full_deck,
    is_red,
    make_card,
    parse_card,
    rank_of,
    suit_of,
)
from patience.deals import shuffled
from patience.rules.spec import Build, GameSpec, Opening, Runs, Space, StockKind
from patience.rules.state import DEAL, Move, Pile, State


def _a(word: str) -> str:
    """``word`` with its indefinite article: "an Ace", "a King"."""
    return f"{'an' if word[0] in 'AEIOU' else 'a'} {word}"


class Rules:
    """A game's rules compiled for fast use: pile indices and rank tables."""

    def __init__(self, spec: GameSpec) -> None:
        self.spec = spec
        self.ids = spec.pile_ids
        self.index = {pid: i for i, pid in enumerate(self.ids)}
        self.stock = 0
        self.waste = self.index.get("waste", -1)
        self.found = [i for i, p in enumerate(self.ids) if p[0] == "f"]
        self.tab = [i for i, p in enumerate(self.ids) if p[0] == "t"]
        self.res = [i for i, p in enumerate(self.ids) if p[0] == "r"]
        self.cell = [i for i, p in enumerate(self.ids) if p[0] == "c"]
        self.kind = [p[0] if p[0] in "ftrc" else p for p in self.ids]
        n = spec.ranks
        # succ/pred with wrap, indexed by rank 1..n
        self.succ = [0] + [r % n + 1 for r in range(1, n + 1)]
        self.pred = [0] + [(r - 2) % n + 1 for r in range(1, n + 1)]
        self.total = spec.card_count
        # a foundation's first card never moves, dealt there or played there (RULES A7, B3)
        self.start_len = 1
        # RULES B3: the last foundations_down foundations build down, the last tableau_up
        # tableau piles build up; everything else up (foundations) and down (tableau)
        self.down = frozenset(self.found[len(self.found) - spec.foundations_down:]
                              if spec.foundations_down else ())
        self.up_tab = frozenset(self.tab[len(self.tab) - spec.tableau_up:]
                                if spec.tableau_up else ())
        # the piles that build the same way, in groups (foundations up then down, tableau
        # down then up; empty groups left out): within a group piles are interchangeable
        self.found_groups = [g for g in ([f for f in self.found if f not in self.down],
                                         [f for f in self.found if f in self.down]) if g]
        self.tab_groups = [g for g in ([t for t in self.tab if t not in self.up_tab],
                                       [t for t in self.tab if t in self.up_tab]) if g]
        # the cards that found an empty foundation: the base rank, or down_base_rank for
        # the down ones (Sixes and Sevens)
        self.down_base = spec.down_base_rank
        # may a foundation's top card go back to the tableau (or a free cell)?
        self.playback_from = frozenset(
            f for f in self.found if spec.playback and (spec.playback_down or f not in self.down))
        # lookup tables for the move generator: fits[d][c << 6 | top] says whether card c
        # continues a foundation building up (d = 0) or down (d = 1) whose top is ``top``;
        # builds[base, up][c << 6 | top] whether c may be placed on tableau card ``top``
        # (filled per base rank on first use)
        self._fits = (bytearray(64 * 64), bytearray(64 * 64))
        for d in (0, 1):
            for c in range(64):
                for top in range(64):
                    if rank_of(c) <= n and rank_of(top) <= n:
                        self._fits[d][c << 6 | top] = self._continues(c, top, bool(d))
        self._builds: dict[tuple[int, bool], bytearray] = {}
        self._on_lists: dict[tuple[int, bool], list[list[Card]]] = {}
        self._fits_list = tuple([[c for c in range(64) if fits[c << 6 | top]]
                                 for top in range(64)] for fits in self._fits)
        self._base_cards = [[c for c in range(64) if rank_of(c) == b and rank_of(c) <= n]
                            for b in range(n + 1)]
        self._single = [[Move(a, b) for b in self.ids] for a in self.ids]  # (immutable)

    def ways(self) -> dict[str, str]:
        """Pile id → "up" or "down" for each foundation and tableau pile, in a game whose
        piles do not all build the usual way (foundations up, tableau down; RULES B3);
        empty for the others."""
        if not (self.down or self.up_tab):
            return {}
        out = {self.ids[f]: "down" if f in self.down else "up" for f in self.found}
        out.update({self.ids[t]: "up" if t in self.up_tab else "down" for t in self.tab})
        return out

    def found_base(self, f: int, base: int) -> int:
        """The rank that founds foundation ``f`` (a pile index) when it is empty."""
        return self.down_base or base if f in self.down else base

    # ------------------------------------------------------------------ deal
    def deck(self) -> list[Card]:
        """Every card of the game, in the fixed order before the shuffle."""
        return [c for _ in range(self.spec.decks) for c in full_deck(self.spec.ranks,
                                                                       self.spec.suits)]

    def initial_state(self, deal: int) -> State:
        """The layout of deal number ``deal``, after any automatic opening moves."""
        spec = self.spec
        piles: list[list[Card]] = [[] for _ in self.ids]
        cards = self.deck()
        base = spec.base_rank or 0
        if spec.prefilled:
            assert spec.base_rank is not None
            # one card of each deck and suit for each group of foundations (up, down)
            for group in self.found_groups:
                rank = self.found_base(group[0], spec.base_rank)
                starters = [make_card(rank, s) for _ in range(spec.decks)
                            for s in range(spec.suits)]
                for f, c in zip(group, starters, strict=True):
                    piles[f].append(c)
                    cards.remove(c)
        pack = shuffled(cards, deal)
        pos = 0
        if spec.opening is Opening.DICK_1883:
            pos, base = self._deal_1883(piles, pack)
        else:
            for pid in spec.deal_order:
                c = pack[pos]
                pos += 1
                piles[self.index[pid]].append(c)
                if pid[0] == "f" and not spec.prefilled and base == 0:
                    base = rank_of(c)
        piles[self.stock] = list(reversed(pack[pos:]))
        return State(tuple(tuple(p) for p in piles), base, 1)

    def _deal_1883(self, piles: list[list[Card]], pack: list[Card]) -> tuple[int, int]:
        """RULES A2's opening: found, then fill the cross, until it is full."""
        base = rank_of(pack[0])
        piles[self.found[0]].append(pack[0])
        pos = 1
        while pos < len(pack) and any(not piles[t] for t in self.tab):
            c = pack[pos]
            pos += 1
            for f in self.found:
                p = piles[f]
                if (not p and rank_of(c) == base) or (p and self._fits_foundation(c, p, f)):
                    p.append(c)
                    break
            else:
                next(piles[t] for t in self.tab if not piles[t]).append(c)
        return pos, base

    def make_state(self, piles: Mapping[str, Sequence[str | Card]], base: int | None = None,
                   passes: int = 1) -> State:
        """A position from pile id → cards (texts or codes), bottom to top; unnamed piles
        are empty.  For tests and analysis: card counts are not checked."""
        out: list[Pile] = [() for _ in self.ids]
        for pid, cards in piles.items():
            if pid not in self.index:
                raise ValueError(f"this game has no pile {pid!r}")
            out[self.index[pid]] = tuple(parse_card(c) if isinstance(c, str) else c
                                         for c in cards)
        if base is None:
            base = self.spec.base_rank or 0
        return State(tuple(out), base, passes)

    # ------------------------------------------------------------ predicates
    def _continues(self, c: Card, top: Card, down: bool) -> bool:
        """Does ``c`` continue a foundation (building down when ``down``) topped by ``top``?"""
        rt = rank_of(top)
        if rank_of(c) != (self.pred[rt] if down else self.succ[rt]):
            return False
        if not self.spec.foundation_wrap and rt == (1 if down else self.spec.ranks):
            return False  # it ends at the Ace (down) or the King (up)
        b = self.spec.foundation_build
        return b is Build.ANY or (b is Build.SUIT and suit_of(c) == suit_of(top)) or \
            (b is Build.ALT_COLOR and is_red(c) != is_red(top))

    def _fits_foundation(self, c: Card, pile: Pile | list[Card], f: int) -> bool:
        if len(pile) >= self.spec.ranks:
            return False
        return bool(self._fits[f in self.down][c << 6 | pile[-1]])

    def build_table(self, base: int, up: bool = False) -> bytearray:
        """``table[c << 6 | top]``: may ``c`` be placed on tableau card ``top`` (of a pile
        building up, with ``up``)?"""
        table = self._builds.get((base, up))
        if table is None:
            n = self.spec.ranks
            table = bytearray(64 * 64)
            for c in range(64):
                for top in range(64):
                    if rank_of(c) <= n and rank_of(top) <= n:
                        table[c << 6 | top] = self.builds_on(c, top, base, up)
            self._builds[base, up] = table
        return table

    def _builds_on_list(self, base: int, up: bool = False) -> list[list[Card]]:
        """``[top]`` → the cards that may be placed on tableau card ``top``."""
        lists = self._on_lists.get((base, up))
        if lists is None:
            table = self.build_table(base, up)
            lists = [[c for c in range(64) if table[c << 6 | top]] for top in range(64)]
            self._on_lists[base, up] = lists
        return lists

    def home_map(self, st: State) -> dict[Card, list[int]]:
        """Card → the foundations (in pile order) that would take it now."""
        out: dict[Card, list[int]] = {}
        ranks = self.spec.ranks
        for f in self.found:
            p = st.piles[f]
            if not p:
                b = self.found_base(f, st.base)
                cards = self._base_cards[b] if 0 < b <= ranks else ()
            elif len(p) < ranks:
                cards = self._fits_list[f in self.down][p[-1]]
            else:
                continue
            for c in cards:
                out.setdefault(c, []).append(f)
        return out

    def next_needed(self, f: int, top: Card) -> int:
        """The rank that goes next on foundation ``f`` (a pile index) topped by ``top``."""
        r = rank_of(top)
        return self.pred[r] if f in self.down else self.succ[r]

    def builds_on(self, c: Card, top: Card, base: int, up: bool = False) -> bool:
        """May ``c`` be placed on tableau card ``top`` of a pile building down (or up)?
        (Nothing on a base-rank card, except where the game says otherwise.)"""
        rt = rank_of(top)
        if rt == base and not self.spec.build_on_base:
            return False
        if rank_of(c) != (self.succ[rt] if up else self.pred[rt]):
            return False
        b = self.spec.tableau_build
        return b is Build.ANY or (b is Build.ALT_COLOR and is_red(c) != is_red(top)) or \
            (b is Build.SUIT and suit_of(c) == suit_of(top))

    def run_length(self, pile: Pile, base: int, up: bool = False) -> int:
        """How many top cards of ``pile`` (building up, with ``up``) form a run (each on
        the card beneath it)."""
        n = len(pile)
        if n == 0:
            return 0
        builds = self.build_table(base, up)
        k = 1
        while k < n and builds[pile[n - k] << 6 | pile[n - k - 1]]:
            k += 1
        return k

    def is_won(self, st: State) -> bool:
        return sum(len(st.piles[f]) for f in self.found) == self.total

    # ----------------------------------------------------------------- moves
    def vacancy_fills(self, st: State) -> list[Move]:
        """RULES A2: the moves that fill a pending vacancy (empty when none is).

        A vacancy is pending while the waste or the stock still has a card to
        fill it with.  Once both are empty it restricts nothing (and filling it
        from another pile is an ordinary move): read literally, the rule would
        leave the last cross cards shuttling between vacancies for ever, so
        that no deal could be won (see docs/rules.md, Four Seasons 1883).
        """
        piles = st.piles
        empty = [t for t in self.tab if not piles[t]]
        if not empty or not (piles[self.stock] or piles[self.waste]):
            return []
        ids = self.ids
        out: list[Move] = []
        waste_top = self.waste >= 0 and bool(piles[self.waste])
        for t in empty:
            for s in self.tab:
                if s != t and piles[s]:
                    out.append(Move(ids[s], ids[t]))
            if waste_top:
                out.append(Move("waste", ids[t]))
            elif piles[self.stock]:
                out.append(Move("stock", ids[t]))
        return out

    def legal_moves(self, st: State) -> list[Move]:
        """Every legal move, pointless ones included (RULES §0)."""
        spec = self.spec
        if self.is_won(st):
            return []
        if spec.space is Space.VACANCY:
            fills = self.vacancy_fills(st)
            if fills:
                return fills
        piles = st.piles
        ids = self.ids
        base = st.base
        out: list[Move] = []
        # single cards: (pile index, may it go to the tableau?)
        sources: list[tuple[int, bool]] = []
        if self.waste >= 0 and piles[self.waste]:
            sources.append((self.waste, spec.waste_to_tableau))
        sources += [(t, True) for t in self.tab if piles[t]]
        sources += [(r, False) for r in self.res if piles[r]]
        sources += [(c, spec.free_cells) for c in self.cell if piles[c]]
        if spec.playback:
            sources += [(f, True) for f in self.found
                        if len(piles[f]) > self.start_len and f in self.playback_from]
        # a space takes any card (RULES A1); a lapsed 1883 vacancy (waste and stock empty)
        # takes a single card, never a packet (RULES A2 Decision 2)
        space_ok = spec.space is Space.ANY or spec.space is Space.VACANCY
        # which foundations take each card now, and which tableau piles (in pile order)
        home = self.home_map(st)
        onto: dict[Card, list[int]] = {}
        empty: list[int] = []
        tabs: list[tuple[int, int, bytearray]] = []
        for t in self.tab:
            p = piles[t]
            up = t in self.up_tab
            if p:
                top = p[-1]
                tabs.append((t, top, self.build_table(base, up)))
                for c in self._builds_on_list(base, up)[top]:
                    onto.setdefault(c, []).append(t)
            else:
                tabs.append((t, -1, self.build_table(base, up)))
                empty.append(t)
        spaces = empty if space_ok else []
        # RULES B3 Deuces: a space takes only the waste's top card (or the stock's next)
        waste_spaces = empty if spec.space is Space.FROM_STOCK else []
        # RULES B3: a free cell takes any single card
        free = [c for c in self.cell if not piles[c]] if spec.free_cells else []
        single = self._single
        for s, to_tab in sources:
            c = piles[s][-1]
            moves_from = single[s]
            for f in home.get(c, ()):
                if f != s:
                    out.append(moves_from[f])
            if to_tab:
                targets = onto.get(c, [])
                if spaces:
                    targets = sorted(targets + spaces)
                elif waste_spaces and s == self.waste:
                    targets = sorted(targets + waste_spaces)
                for t in targets:
                    if t != s:
                        out.append(moves_from[t])
                for t in free:
                    out.append(moves_from[t])
        if spec.runs is not Runs.NONE:
            any_runs = spec.runs is Runs.ANY
            for s in self.tab:
                pile = piles[s]
                k = self.run_length(pile, base, s in self.up_tab)
                for n in range(2, k + 1):
                    row = pile[-n] << 6
                    for t, top, builds in tabs:
                        if t == s:
                            continue
                        if top >= 0:
                            if builds[row | top]:
                                out.append(Move(ids[s], ids[t], n))
                        elif any_runs and space_ok:
                            out.append(Move(ids[s], ids[t], n))
        if spec.stock_to_space and piles[self.stock]:
            for t in self.tab:
                if not piles[t]:
                    out.append(Move("stock", ids[t]))
        if self.can_deal(st):
            out.append(DEAL)
        return out

    def can_deal(self, st: State) -> bool:
        return bool(st.piles[self.stock]) or (st.passes < self.spec.passes and \
            any(st.piles[p] for p in (self.res if self.spec.stock is StockKind.RESERVE_ROW
                                      else [self.waste])))

    def apply(self, st: State, m: Move) -> State:
        """Play ``m`` (assumed legal) and the automatic moves it forces."""
        piles = list(st.piles)
        passes = st.passes
        if m.src == "deal":
            passes = self._deal(piles, passes)
        else:
            s = self.index[m.src]
            d = self.index[m.dst]
            src = piles[s]
            n = m.n
            piles[d] = piles[d] + src[-n:]
            piles[s] = src = src[:-n]
            if not src and piles[self.stock]:
                kind = self.kind[s]
                if (kind == "t" and self.spec.space is Space.AUTO) or \
                        (kind == "c" and self.spec.refill_cells):
                    stock = piles[self.stock]
                    piles[s] = stock[-1:]
                    piles[self.stock] = stock[:-1]
        return State(tuple(piles), st.base, passes)

    def _deal(self, piles: list[Pile], passes: int) -> int:
        stock = piles[self.stock]
        if self.spec.stock is StockKind.WASTE:
            if stock:
                piles[self.waste] = piles[self.waste] + stock[-1:]
                piles[self.stock] = stock[:-1]
            else:  # redeal: turn the waste over, unshuffled
                piles[self.stock] = piles[self.waste][::-1]
                piles[self.waste] = ()
                passes += 1
            return passes
        if not stock:
            # RULES A6 gathering: the new stock deals r8 bottom..top, then r7, … r1
            order: list[Card] = []
            for r in reversed(self.res):
                order += piles[r]
                piles[r] = ()
            piles[self.stock] = tuple(reversed(order))
            passes += 1
        # RULES A6 skips empty piles (all of them get a card when all are empty); B1
        # deals onto every pile
        targets = self.res if self.spec.deal_to_empty else \
            [r for r in self.res if piles[r]] or self.res
        stock = piles[self.stock]
        for r in targets:
            if not stock:
                break
            piles[r] = piles[r] + stock[-1:]
            stock = stock[:-1]
        piles[self.stock] = stock
        return passes

    # --------------------------------------------------------- explanations
    def why_illegal(self, st: State, m: Move) -> str | None:
        """``None`` when ``m`` is legal in ``st``, else why not, in words."""
        if m in self.legal_moves(st):
            return None
        spec = self.spec
        piles = st.piles
        if self.is_won(st):
            return "the game is already won"
        if not m.is_deal:
            for pid in (m.src, m.dst):
                if pid not in self.index:
                    return f"this game has no pile {pid!r} (its piles: {', '.join(self.ids)})"
            if m.n < 1:
                return f"a move takes at least one card, not {m.n}"
        elif m != DEAL:
            return "deal takes no pile"
        if spec.space is Space.VACANCY and self.vacancy_fills(st):
            empty = [self.ids[t] for t in self.tab if not piles[t]]
            if m.dst in empty and m.n > 1:
                return "a vacancy takes a single card, never a packet"
            if m.src == "stock" and m.dst in empty:
                return "the waste has cards, so a vacancy is filled from the waste, not the stock"
            return (f"{' and '.join(empty)} must be filled first: while a cross pile is empty the "
                    "only moves allowed fill it with the top card of another pile or of the waste "
                    "(or, when the waste is empty, with the next stock card)")
        if m.is_deal:
            if piles[self.stock]:
                return "you cannot deal now"
            if spec.passes > 1 and st.passes >= spec.passes:
                return f"the stock is empty and all {spec.passes} passes have been made"
            if spec.passes > 1:
                where = "the reserve piles are" if spec.stock is StockKind.RESERVE_ROW \
                    else "the waste is"
                return f"the stock is empty and {where} empty too, so there is nothing to turn over"
            return "the stock is empty and there is no redeal"
        if m.n > 1 and m.src in ("stock", "waste"):
            return f"only one card at a time leaves the {m.src}"
        if m.src == "stock":
            if not spec.stock_to_space:
                return "this game never turns a stock card straight into a pile; use deal"
            if not piles[self.stock]:
                return "the stock is empty"
            if m.dst[0] != "t":
                return "stock>tK only fills an empty tableau pile"
            if piles[self.index[m.dst]]:
                return f"{m.dst} is not empty: the stock card only fills a space"
            return "that move is not allowed here"
        s, d = self.index[m.src], self.index[m.dst]
        src, dst = piles[s], piles[d]
        if s == d:
            return "a card cannot move onto its own pile"
        if not src:
            return f"{m.src} is empty"
        ks, kd = self.kind[s], self.kind[d]
        if ks == "f":
            if not spec.playback:
                return "cards never leave a foundation"
            if len(src) <= self.start_len:
                return f"{m.src}'s starting {RANK_NAMES[rank_of(src[0]) - 1]} never moves"
            if s not in self.playback_from:
                return "cards are taken back only from the foundations that build up"
        if kd in ("stock", "waste"):
            return f"nothing is ever placed on the {kd}"
        if kd == "r":
            return "nothing is ever placed on a reserve pile"
        if kd == "c":
            if not spec.free_cells:
                return "nothing is placed on a cell: it is refilled from the stock"
            if m.n > 1:
                return "a cell holds a single card"
            if dst:
                return f"{m.dst} already holds a card: a cell holds one"
            if ks == "r":
                return "a reserve card goes only to a foundation"
        if m.n > len(src):
            return f"{m.src} holds only {len(src)} card{'s' if len(src) != 1 else ''}"
        if m.n > 1:
            if spec.runs is Runs.NONE:
                return "only one card moves at a time"
            if kd == "f":
                return "a foundation takes one card at a time"
            if self.run_length(src, st.base, s in self.up_tab) < m.n:
                return f"the top {m.n} cards of {m.src} are not a sequence that moves together"
            if not dst and spec.runs is Runs.PACKET:
                return "a packet never fills a space: a vacancy takes a single card"
        c = src[-m.n]
        ct = card_text(c)
        if (ks == "r" or (ks == "c" and not spec.free_cells)) and kd != "f":
            return f"a {'reserve' if ks == 'r' else 'cell'} card goes only to a foundation"
        if ks == "waste" and kd == "t" and not spec.waste_to_tableau:
            return "the waste top goes only to a foundation"
        if kd == "f":
            way = "down" if d in self.down else "up"
            if not dst:
                which = f"an empty foundation building {way}" if self.down else \
                    "an empty foundation"
                return (f"{which} takes only a card of the base rank "
                        f"({RANK_NAMES[self.found_base(d, st.base) - 1]}), not {ct}")
            top = dst[-1]
            if len(dst) >= spec.ranks or not self._fits_list[d in self.down][top]:
                return f"{m.dst} is complete"
            need = RANK_NAMES[self.next_needed(d, top) - 1]
            how = {Build.SUIT: " of the same suit", Build.ANY: "",
                   Build.ALT_COLOR: " of the other colour"}[spec.foundation_build]
            return f"{ct} does not go on {card_text(top)}: {m.dst} needs {_a(need)}{how}"
        # to the tableau
        if not dst:
            if spec.space is Space.AUTO:
                return "an emptied pile is refilled from the stock; the player never fills it"
            if spec.space is Space.FROM_STOCK:
                return "a space is filled only from the waste or the stock"
            return "that move is not allowed here"
        top = dst[-1]
        if rank_of(top) == st.base and not spec.build_on_base:
            return (f"nothing is ever placed on a card of the base rank "
                    f"({card_text(top)} is {_a(RANK_NAMES[st.base - 1])})")
        up = d in self.up_tab
        want = self.succ[rank_of(top)] if up else self.pred[rank_of(top)]
        need = RANK_NAMES[want - 1]
        if rank_of(c) != want:
            return (f"{ct} does not go on {card_text(top)}: only {_a(need)} does"
                    + (f" ({m.dst} builds up)" if up and spec.tableau_up < len(self.tab) else ""))
        if spec.tableau_build is Build.ALT_COLOR:
            return f"{ct} does not go on {card_text(top)}: the colours must alternate"
        if spec.tableau_build is Build.SUIT:
            return f"{ct} does not go on {card_text(top)}: the suits must match"
        return "that move is not allowed here"
