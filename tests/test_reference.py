"""An independent model of RULES.md, written from the text, against the engine.

``legal`` and ``play`` below implement every registered game (the seven commissioned
games and their relatives) straight from RULES §0, A1–A7 and B1–B3, sharing no code with
the engine (only the ``State`` it stores and the
pile ids of §0). The tests compare the two on every position of random playouts (the
legal move sets and the result of every move) and recompute the perft files with the
model, so a rule the engine gets wrong shows as a difference.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path

import pytest

from helpers import GAME_IDS, PART_A, rules_of
from patience.rules import Rules, State

Piles = dict[str, tuple[int, ...]]
PERFT_DIR = Path(__file__).parent / "perft"


@dataclass(frozen=True)
class Model:
    """One game, as RULES.md describes it."""

    foundations: int
    in_suit: bool  # foundations build in suit (A1, A7) or regardless of suit (A6)
    prefilled: bool  # foundations start with their base card (A6 Aces, A7 Fours)
    tableau: int = 0
    alternate: bool = False  # tableau builds in alternating colours (A5)
    runs: str = "none"  # "packet" (A2: onto non-empty piles) or "any" (A7: also spaces)
    player_fills: bool = True  # the player may move a card into a space (A1, A5, A7)
    stock_fill: bool = False  # stock>tK (A1, A5)
    vacancy: bool = False  # A2's vacancy rule
    refill: bool = False  # an emptied pile or cell is refilled from the stock (A3, A4)
    cells: int = 0
    reserves: int = 0
    waste: bool = True
    waste_to_tableau: bool = True
    playback: str = "none"  # "foundations" (A6) or "any" (A7, B3)
    passes: int = 1
    tableau_suit: bool = False  # the tableau builds down in suit (B3)
    deal_to_empty: bool = False  # a reserve row deal covers empty piles too (B1)
    base: int | None = None  # a fixed base rank (A6, A7, B3); None: the deal fixes it
    waste_fills: bool = False  # a space takes the waste's top even where nothing else (B3)
    down: int = 0  # the last ``down`` foundations build down (B3 Eights Down, Penta, …)
    down_base: int | None = None  # the card founding a down foundation, if not ``base``
    corner: bool = True  # foundations go round the corner (B3 Sixes and Sevens: they stop)
    playback_down: bool = True  # cards are taken back from down foundations too (not Penta)
    tableau_up: int = 0  # the last ``tableau_up`` tableau piles build up (B3)
    on_base: bool = False  # cards go onto base-rank tableau cards (B3 Penta)
    free_cells: bool = False  # a cell takes any single card, its card goes anywhere (B3)


FOUR_SEASONS = Model(4, True, False, tableau=5, stock_fill=True)
MODELS = {
    "four-seasons": FOUR_SEASONS,
    "four-seasons-1883": Model(4, True, False, tableau=5, runs="packet", player_fills=False,
                               vacancy=True),
    "czarina": Model(4, True, False, tableau=5, player_fills=False, refill=True),
    "corners": Model(4, True, False, cells=5, refill=True, waste_to_tableau=False),
    "simplicity": Model(4, True, False, tableau=12, alternate=True, stock_fill=True),
    "quadrennial": Model(16, False, True, reserves=8, waste=False, playback="foundations",
                         passes=3, base=1),
    "fours-up": Model(8, True, True, tableau=6, runs="any", playback="any", base=4),
    # RULES Part B
    "florentine": Model(4, True, False, tableau=5, stock_fill=True, passes=2),
    "leap-year": Model(16, False, True, reserves=8, waste=False, deal_to_empty=True,
                       base=1),
    "acquaintance": Model(4, False, True, reserves=4, waste=False, deal_to_empty=True,
                          passes=3, base=1),
    "auld-lang-syne": Model(4, False, True, reserves=4, waste=False, deal_to_empty=True,
                            base=1),
    "busy-aces": Model(8, True, False, tableau=12, tableau_suit=True, playback="any", base=1),
    "threes-company": Model(8, True, True, tableau=8, tableau_suit=True, runs="any",
                            playback="any", base=3),
    "cast-out-nines": Model(8, True, False, tableau=7, tableau_suit=True, playback="any",
                            base=9),
    "dimes": Model(8, True, False, tableau=8, tableau_suit=True, playback="any", base=10),
    "deuces": Model(8, True, True, tableau=10, tableau_suit=True, runs="any", playback="any",
                    base=2, player_fills=False, waste_fills=True, stock_fill=True),
    "jacks-in-the-box": Model(8, True, True, tableau=6, tableau_suit=True, playback="any",
                              base=11, cells=4, free_cells=True),
    "eights-down": Model(8, True, True, tableau=6, tableau_suit=True, runs="any",
                         playback="any", base=8, down=8, tableau_up=6, passes=2),
    "penta": Model(8, False, False, tableau=6, playback="any", base=5, down=4,
                   playback_down=False, tableau_up=3, on_base=True),
    "sixes-and-sevens": Model(16, True, True, cells=9, free_cells=True, base=7, down=8,
                              down_base=6, corner=False),
}


def rank(card: int) -> int:
    return card // 4 + 1


def red(card: int) -> bool:
    return card % 4 in (1, 2)  # D, H


def succ(r: int) -> int:
    return 1 if r == 13 else r + 1


def pred(r: int) -> int:
    return 13 if r == 1 else r - 1


def ids(m: Model, prefix: str) -> list[str]:
    count = {"f": m.foundations, "t": m.tableau, "c": m.cells, "r": m.reserves}[prefix]
    return [f"{prefix}{i}" for i in range(1, count + 1)]


def legal(m: Model, p: Piles, base: int, passes: int) -> set[str]:
    """Every legal move of RULES §0 and A1–A7, as move texts."""
    F, T, C, RES = ids(m, "f"), ids(m, "t"), ids(m, "c"), ids(m, "r")
    down = set(F[len(F) - m.down:]) if m.down else set()
    up = set(T[len(T) - m.tableau_up:]) if m.tableau_up else set()
    if not any(cards for pid, cards in p.items() if pid[0] != "f"):
        return set()  # won: every card is on a foundation

    def foundation_takes(card: int, f: str) -> bool:
        pile = p[f]
        if not pile:
            starts = (m.down_base or base) if f in down else base
            return not m.prefilled and rank(card) == starts
        top = pile[-1]
        if f in down:
            follows = rank(card) == pred(rank(top)) and (m.corner or rank(top) != 1)
        else:
            follows = rank(card) == succ(rank(top)) and (m.corner or rank(top) != 13)
        return len(pile) < 13 and follows and (not m.in_suit or card % 4 == top % 4)

    def builds_on(card: int, top: int, t: str) -> bool:
        if rank(top) == base and not m.on_base:
            return False
        if rank(card) != (succ(rank(top)) if t in up else pred(rank(top))):
            return False
        if m.tableau_suit and card % 4 != top % 4:
            return False
        return not m.alternate or red(card) != red(top)

    if m.vacancy and (p["waste"] or p["stock"]):
        # the vacancy lapses once waste and stock are empty (the project's reading of A2)
        fills = set()
        for t in (t for t in T if not p[t]):
            fills |= {f"{s}>{t}" for s in T if s != t and p[s]}
            if p["waste"]:
                fills.add(f"waste>{t}")
            elif p["stock"]:
                fills.add(f"stock>{t}")
        if fills:
            return fills
    out = set()
    sources = [("waste", m.waste_to_tableau)] if m.waste and p["waste"] else []
    sources += [(t, True) for t in T if p[t]]
    sources += [(x, m.free_cells) for x in C if p[x]]
    sources += [(x, False) for x in RES if p[x]]
    if m.playback != "none":
        sources += [(f, m.playback == "any") for f in F
                    if len(p[f]) > 1 and (m.playback_down or f not in down)]
    for s, to_tableau in sources:
        card = p[s][-1]
        out |= {f"{s}>{f}" for f in F if f != s and foundation_takes(card, f)}
        if to_tableau:
            fills = m.player_fills or m.vacancy or (m.waste_fills and s == "waste")
            out |= {f"{s}>{t}" for t in T if t != s and
                    (builds_on(card, p[t][-1], t) if p[t] else fills)}
            if m.free_cells:
                out |= {f"{s}>{c}" for c in C if not p[c]}
    if m.runs != "none":
        for s in T:
            pile = p[s]
            k = 1
            while k < len(pile) and builds_on(pile[-k], pile[-k - 1], s):
                k += 1
            for n in range(2, k + 1):
                out |= {f"{s}>{t}x{n}" for t in T if t != s and
                        (builds_on(pile[-n], p[t][-1], t) if p[t] else
                         m.runs == "any" and m.player_fills)}
    if m.stock_fill and p["stock"]:
        out |= {f"stock>{t}" for t in T if not p[t]}
    gather = RES if m.reserves else ["waste"]
    if p["stock"] or (passes < m.passes and any(p[r] for r in gather)):
        out.add("deal")
    return out


def play(m: Model, p: Piles, passes: int, move: str) -> tuple[Piles, int]:
    """The position after ``move`` (assumed legal), with the automatic moves it forces."""
    p = dict(p)

    def take_stock() -> int:
        card = p["stock"][-1]
        p["stock"] = p["stock"][:-1]
        return card

    if move == "deal":
        if not m.reserves:
            if not p["stock"]:  # B2 redeal: the waste turned over, unshuffled
                p["stock"], p["waste"] = p["waste"][::-1], ()
                return p, passes + 1
            p["waste"] += (take_stock(),)
            return p, passes
        res = ids(m, "r")
        if not p["stock"]:  # A6 redeal: r8 bottom to top first, …, r1 last
            order = [c for r in reversed(res) for c in p[r]]
            p.update({r: () for r in res})
            p["stock"] = tuple(reversed(order))
            passes += 1
        for r in res if m.deal_to_empty else [r for r in res if p[r]] or res:
            if p["stock"]:
                p[r] += (take_stock(),)
        return p, passes
    src, rest = move.split(">")
    dst, _, count = rest.partition("x")
    n = int(count or 1)
    if src == "stock":
        p[dst] += (take_stock(),)
        return p, passes
    p[dst] += p[src][-n:]
    p[src] = p[src][:-n]
    if m.refill and src[0] in "tc" and not p[src] and p["stock"]:
        p[src] = (take_stock(),)
    return p, passes


def as_piles(rules: Rules, st: State) -> Piles:
    return dict(zip(rules.ids, st.piles, strict=True))


def _perft(m: Model, p: Piles, passes: int, base: int, depth: int) -> int:
    moves = legal(m, p, base, passes)
    if depth == 1:
        return len(moves)
    total = 0
    for mv in moves:
        q, n = play(m, p, passes, mv)
        total += _perft(m, q, n, base, depth - 1)
    return total


def choose(rng: random.Random, moves: list[str]) -> str:
    """A random move, biased to foundations and the stock so that playouts get on."""
    home = [t for t in moves if ">f" in t and not t.startswith("f")]
    if home and rng.random() < 0.6:
        return rng.choice(home)
    if "deal" in moves and rng.random() < 0.3:
        return "deal"
    return rng.choice(moves)


def test_models_cover_every_game() -> None:
    # RULES Part A (A1–A7) and B: the model has every registered game, with its piles
    assert set(PART_A) <= set(MODELS) == set(GAME_IDS)
    for game_id, m in MODELS.items():
        rules = rules_of(game_id)
        assert m.base == rules.spec.base_rank
        expected = ["stock", *(["waste"] if m.waste else []), *ids(m, "f"), *ids(m, "t"),
                    *ids(m, "r"), *ids(m, "c")]
        assert list(rules.ids) == expected


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_engine_agrees_with_the_model_along_random_playouts(game_id: str) -> None:
    # RULES §0 (legal moves, automatic moves), A1–A7 and B1–B3 (each game's rules): at every
    # position of random playouts the engine lists exactly the model's moves, and every
    # move gives the model's position
    rules = rules_of(game_id)
    m = MODELS[game_id]
    reached = set()
    for deal in range(1, 9):
        rng = random.Random(deal)
        st = rules.initial_state(deal)
        for step in range(600 if m.reserves else 250):
            p = as_piles(rules, st)
            moves = {str(mv): mv for mv in rules.legal_moves(st)}
            assert set(moves) == legal(m, p, st.base, st.passes), \
                f"deal {deal} step {step}: {p}"
            for text, mv in moves.items():
                after = rules.apply(st, mv)
                assert (as_piles(rules, after), after.passes) == play(m, p, st.passes, text), \
                    f"deal {deal} step {step}: {text}"
            if not moves:
                break
            st = rules.apply(st, moves[choose(rng, sorted(moves))])
            reached.add(st.passes)
    assert reached == set(range(1, m.passes + 1)), "the playouts should reach every pass"


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_model_reproduces_the_perft_counts(game_id: str) -> None:
    # RULES §0 (legal moves; deal is a move), A1–A7 and B1–B3: the committed perft counts
    # (tests/perft/) are those of the rules as written, not only the engine's
    data = json.loads((PERFT_DIR / f"{game_id}.json").read_text("utf-8"))
    rules = rules_of(game_id)
    m = MODELS[game_id]
    for deal, expected in data["deals"].items():
        st = rules.initial_state(int(deal))
        p = as_piles(rules, st)
        got = [_perft(m, p, st.passes, st.base, d) for d in range(1, len(expected) + 1)]
        assert got == expected, f"deal {deal}"
