"""The drain test of the Four Seasons family (docs/solver.md, "Draining the waste").

A waste card leaves the waste from the top, for its foundation or the tableau; when it does,
the cards out of the stock and the waste are those out of them now, the waste's cards above
it and the stock's cards dealt by then.  ``keys.WasteDrain`` asks, card by card from the top
down, whether some configuration of the foundations lets each leave; when none does, the
position is lost.  Checked here: the one-card question against every configuration, one by
one; every position the test calls lost against the plain exhaustive search, on reductions
of Four Seasons, Czarina and the 1883 rules; and the compiled test against this one, through
the relaxed searches, which must search the same positions.  Where the piles are runs in
suit (the Busy Aces family, ``keys.SuitWasteDrain``), the same checks suit by suit; in
Czarina, whose runs start only at the piles' bottoms (``keys.BottomDrain``), the one-card
question and the compiled test with them.  (Fours
Up's test, with two foundations a suit and prefilled Fours, is in test_solver_multiset.py.)
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator

import pytest

from patience.game import rules_for
from patience.games import get_spec
from patience.rules import Rules, State
from patience.rules.spec import Space
from patience.solver import LOST, relaxed
from patience.solver.keys import (
    BottomDrain,
    SuitWasteDrain,
    WasteDrain,
    drain_applies,
    make_drain_dead_end,
    suit_drain_applies,
)
from patience.solver.relaxed import RelaxedSearch, compiles
from test_solver_exhaustive import Reduction, exhaustive, random_positions, red, slow_selected


def kinds_out(rules: Rules, st: State) -> tuple[list[int], list[int]]:
    """``(u, waste)``: the cards of each kind (relative rank · 4 + suit) out of the stock and
    the waste, and the waste's kinds, bottom to top."""
    n = rules.spec.ranks

    def kind(c: int) -> int:
        return ((c >> 2) + 1 - st.base) % n * 4 + (c & 3)

    u = [rules.spec.decks if (k & 3) < rules.spec.suits else 0 for k in range(4 * n)]
    for c in st.piles[rules.stock] + st.piles[rules.waste]:
        u[kind(c)] -= 1
    return u, [kind(c) for c in st.piles[rules.waste]]


def configurations(rules: Rules, u: list[int]) -> Iterator[tuple[tuple[int, ...], list[int]]]:
    """Every configuration of the foundations that ``u`` allows, as ``(heights, n)``: a
    foundation's height h holds its suit's ranks below h (all in ``u``); the tableau, the
    rest of ``u``, has n[r] cards of rank r (n[ranks] = 0)."""
    n, suits = rules.spec.ranks, rules.spec.suits
    heights = [[h for h in range(n + 1) if all(u[4 * r + s] for r in range(h))]
               for s in range(suits)]
    for hs in itertools.product(*heights):
        yield hs, [sum(u[4 * r + s] for s in range(suits)) - sum(1 for h in hs if h > r)
                   for r in range(n)] + [0]


def lets_leave(rules: Rules, u: list[int], w: int) -> bool:
    """Whether some configuration of the foundations allowed by ``u`` lets waste card ``w``
    leave, configuration by configuration: a foundation's height h holds its suit's ranks
    below h (all in ``u``); the tableau, the rest of ``u``, has n(r) cards of rank r and
    needs m = Σ_r max(0, n(r) − n(r+1)) runs, at most one a pile.  The card goes home onto
    its suit's foundation of height r0; onto the tableau into a space (where the player may
    fill one) when m is below the piles, or onto a pile ending in rank r0+1: n(r0+1) >
    n(r0), or with fewer runs than piles, a rank r0+1 card out of home."""
    spec = rules.spec
    n, piles = spec.ranks, len(rules.tab)
    spaces = spec.space is not Space.AUTO
    r0, s0 = w >> 2, w & 3
    for hs, t in configurations(rules, u):
        m = sum(max(0, t[r] - t[r + 1]) for r in range(n))
        if m > piles:
            continue
        if hs[s0] == r0:
            return True
        if spaces and m < piles:
            return True
        if r0 + 1 < n and (t[r0 + 1] > t[r0] or (m < piles and t[r0 + 1] >= 1)):
            return True
    return False


def check_one_card(rules: Rules, drain: WasteDrain,
                   reference: Callable[[Rules, list[int], int], bool], deals: range) -> None:
    """``drain.can_leave`` against ``reference`` for the waste's top card of every position
    of random play from ``deals`` (both answers common)."""
    verdicts = {True: 0, False: 0}
    for st in random_positions(rules, deals, seed=11):
        u, waste = kinds_out(rules, st)
        if not waste:
            continue
        expected = reference(rules, u, waste[-1])
        assert drain.can_leave(u, waste[-1]) == expected, st
        verdicts[expected] += 1
    assert verdicts[True] >= 20 and verdicts[False] >= 5, verdicts


def dead_ones_lost(rules: Rules, deals: range) -> int:
    """How many positions of random play from ``deals`` the drain test calls lost, each
    checked lost by the plain exhaustive search."""
    dead = make_drain_dead_end(rules)
    assert dead is not None
    found = 0
    for st in random_positions(rules, deals, seed=3):
        if dead(st):
            assert exhaustive(rules, st)[0] == LOST, st
            found += 1
    return found


@pytest.mark.parametrize(("game", "params"), [
    ("four-seasons", {"ranks": 6, "tableau": 2}), ("czarina", {"ranks": 6, "tableau": 2}),
    ("four-seasons-1883", {"ranks": 6, "tableau": 3}), ("czarina", {})])
def test_a_card_can_leave_exactly_when_a_configuration_lets_it(game: str,
                                                              params: dict[str, int]) -> None:
    # RULES A1-A3: the question for one card, answered by matching foundations to ranks,
    # against every configuration of the foundations
    spec = get_spec(game).reduced(**params) if params else get_spec(game)
    rules = rules_for(spec)
    drain = WasteDrain(spec.ranks, spec.suits, len(rules.tab), spec.space is not Space.AUTO)
    check_one_card(rules, drain, lets_leave, range(1, 16 if params else 4))


#: (game, reduction, deals, the least count of positions called lost)
REDUCED = [
    ("four-seasons", {"ranks": 4, "tableau": 1}, range(1, 41), 60),
    ("four-seasons", {"ranks": 5, "tableau": 2}, range(1, 31), 30),
    ("czarina", {"ranks": 4, "tableau": 1}, range(1, 41), 60),
    ("czarina", {"ranks": 5, "tableau": 2}, range(1, 31), 30),
    ("four-seasons-1883", {"ranks": 4, "tableau": 2}, range(1, 41), 10),
    ("simplicity", {"ranks": 4, "tableau": 2}, range(1, 41), 10),
]


@pytest.mark.parametrize(("game", "params", "deals", "least"), REDUCED,
                         ids=[f"{g}-{p['ranks']}x{p['tableau']}" for g, p, _, _ in REDUCED])
def test_a_waste_that_cannot_drain_is_lost(game: str, params: dict[str, int], deals: range,
                                           least: int) -> None:
    # RULES A1-A3, A5: every position of random play that the test calls lost is lost, by
    # the plain exhaustive search
    rules = rules_for(get_spec(game).reduced(**params))
    assert drain_applies(rules)
    found = dead_ones_lost(rules, deals)
    assert found >= least, found


def test_it_applies_to_the_four_seasons_and_busy_aces_families() -> None:
    from patience.games import all_specs

    applies = {s.id for s in all_specs() if drain_applies(rules_for(s))}
    assert applies == {"four-seasons", "four-seasons-1883", "czarina", "simplicity"}
    # RULES B3: the runs in suit; not Eights Down (its tableau builds up, its waste is
    # dealt again); Fours Up is judged by its search over images
    in_suit = {s.id for s in all_specs() if suit_drain_applies(rules_for(s))}
    assert in_suit == {"busy-aces", "deuces", "threes-company", "cast-out-nines", "dimes",
                       "jacks-in-the-box"}
    for spec in all_specs():
        assert (make_drain_dead_end(rules_for(spec)) is not None) == \
            (spec.id in applies | in_suit), spec.id


# ------------------------------------------------------- Czarina's bottoms (RULES A3)
def lets_leave_from_bottoms(rules: Rules, u: list[int], w: int, elig: list[int]) -> bool:
    """``lets_leave`` where a run may start only at a card of ``elig`` (a possible bottom:
    a pile's bottom card, or a card dealt from the stock since) that is not home,
    configuration by configuration: with n(r) the tableau's cards of rank r and b(r) the
    possible bottoms of rank r in the tableau, the piles are intervals of ranks, each ending
    at its bottom, so max(0, n(r) − n(r+1)) ≤ b(r) at every rank; the card goes onto a pile
    ending in rank r0+1 when n(r0+1) > n(r0), or with a run more (a possible bottom of rank
    r0 to spare, fewer runs than piles, a rank r0+1 card out of home)."""
    spec = rules.spec
    n, suits, piles = spec.ranks, spec.suits, len(rules.tab)
    r0, s0 = w >> 2, w & 3
    for hs, t in configurations(rules, u):
        b = [sum(elig[4 * r + s] for s in range(suits) if hs[s] <= r) for r in range(n)]
        need = [max(0, t[r] - t[r + 1]) for r in range(n)]
        m = sum(need)
        if m > piles or any(need[r] > b[r] for r in range(n)):
            continue
        if hs[s0] == r0:
            return True
        if r0 + 1 < n and (t[r0 + 1] > t[r0] or (m < piles and t[r0 + 1] >= 1
                                                   and need[r0] < b[r0])):
            return True
    return False


def bottom_inputs(rules: Rules, st: State, dealt: int) -> tuple[list[int], list[int]]:
    """``(u, elig)`` of a position, as if its ``dealt`` next stock cards had been dealt
    (out of the stock, possible bottoms): the possible bottoms are the piles' bottom cards
    and those."""
    n = rules.spec.ranks
    u, _ = kinds_out(rules, st)
    elig = [0] * (4 * n)
    cards = [p[0] for t in rules.tab if (p := st.piles[t])]
    cards += list(st.piles[rules.stock][::-1][:dealt])
    for c in cards:
        k = ((c >> 2) + 1 - st.base) % n * 4 + (c & 3)
        elig[k] = 1
    for c in st.piles[rules.stock][::-1][:dealt]:
        u[((c >> 2) + 1 - st.base) % n * 4 + (c & 3)] += 1
    return u, elig


@pytest.mark.parametrize("params", [{"ranks": 6, "tableau": 2}, {"ranks": 7, "tableau": 3},
                                    {}], ids=["6x2", "7x3", "full"])
def test_with_bottoms_a_card_can_leave_exactly_when_a_configuration_lets_it(
        params: dict[str, int]) -> None:
    # RULES A3: the question for one card, answered going down the ranks, against every
    # configuration of the foundations, with some of the stock's cards dealt
    spec = get_spec("czarina").reduced(**params) if params else get_spec("czarina")
    rules = rules_for(spec)
    drain = BottomDrain(spec.ranks, spec.suits, len(rules.tab))
    rng = random.Random(2)
    verdicts = {True: 0, False: 0}
    for st in random_positions(rules, range(1, 16 if params else 4), seed=11):
        waste = st.piles[rules.waste]
        if not waste:
            continue
        u, elig = bottom_inputs(rules, st, rng.randrange(len(st.piles[rules.stock]) + 1))
        w = ((waste[-1] >> 2) + 1 - st.base) % spec.ranks * 4 + (waste[-1] & 3)
        expected = lets_leave_from_bottoms(rules, u, w, elig)
        assert drain.leaves(u, w, elig) == expected, st
        verdicts[expected] += 1
    assert verdicts[True] >= 20 and verdicts[False] >= 5, verdicts


@pytest.mark.parametrize("params", [{"ranks": 5, "tableau": 2}, {"ranks": 6, "tableau": 2},
                                    {"ranks": 7, "tableau": 3}], ids=["5x2", "6x2", "7x3"])
def test_the_bottoms_prove_more_positions_lost(params: dict[str, int]) -> None:
    # RULES A3: the positions of random play that Czarina's test calls lost and the test
    # without the bottoms lets drain are lost, by the plain exhaustive search (the others
    # are checked with the Four Seasons family's reductions, above)
    rules = rules_for(get_spec("czarina").reduced(**params))
    spec = rules.spec
    dead = make_drain_dead_end(rules)
    assert dead is not None
    plain = WasteDrain(spec.ranks, spec.suits, len(rules.tab), spaces=False)
    beyond = 0
    for st in random_positions(rules, range(1, 41), seed=3):
        if dead(st) and plain(st.piles[rules.stock][::-1], st.piles[rules.waste], st.base):
            assert exhaustive(rules, st)[0] == LOST, st
            beyond += 1
    assert beyond >= 5, beyond


@pytest.mark.skipif(not compiles(rules_for(get_spec("czarina"))), reason="not compiled")
@pytest.mark.parametrize("params", [{"ranks": 6, "tableau": 2}, {}], ids=["6x2", "full"])
def test_the_compiled_test_with_bottoms_is_this_one(params: dict[str, int]) -> None:
    # RULES A3: the compiled test (which cuts the compiled exact searches) answers as
    # BottomDrain at every position of random play from the opening
    spec = get_spec("czarina").reduced(**params) if params else get_spec("czarina")
    rules = rules_for(spec)
    n = spec.ranks
    drain = BottomDrain(n, spec.suits, len(rules.tab))
    verdicts = {True: 0, False: 0}
    for deal in range(1, 31 if params else 6):
        root = rules.initial_state(deal)
        search = RelaxedSearch(rules, root)
        assert search.compiled is not None
        for st in random_positions(rules, range(deal, deal + 1), seed=deal):
            waste = st.piles[rules.waste]
            if not waste:
                continue
            bottoms = [p[0] for t in rules.tab if (p := st.piles[t])]
            mask = sum(1 << (((c >> 2) + 1 - st.base) % n * 4 + (c & 3)) for c in bottoms)
            bits = sum(1 << search.stock_pos[c] for c in waste)
            got = search.compiled.bottom_drains(len(st.piles[rules.stock]), bits, mask)
            expected = drain(st.piles[rules.stock][::-1], waste, st.base, tuple(bottoms))
            assert got == expected, (deal, st)
            verdicts[expected] += 1
    assert verdicts[True] >= 20 and verdicts[False] >= 20, verdicts


def _drain_verdict(rules: Rules, st: State, test: WasteDrain) -> bool:
    bottoms = tuple(p[0] for t in rules.tab if (p := st.piles[t]))
    return test(st.piles[rules.stock][::-1], st.piles[rules.waste], st.base, bottoms)


@pytest.mark.parametrize(("game", "params"), [
    ("four-seasons", {"ranks": 7, "tableau": 3}), ("four-seasons", {}),
    ("czarina", {"ranks": 7, "tableau": 3}), ("czarina", {})],
    ids=["four-seasons-7x3", "four-seasons", "czarina-7x3", "czarina"])
def test_a_waste_that_drains_still_drains_when_it_only_loses_cards(
        game: str, params: dict[str, int]) -> None:
    # RULES A1, A3; docs/solver.md, "Known to drain": the compiled searches do not ask the
    # test again of a position reached from one that drains with the same stock, the same
    # piles' bottoms (Czarina) and a waste that only lost cards.  Every such move, from the
    # positions of random play that drain, leads to one that drains; a deal, which the
    # rule leaves out, sometimes does not.  In Czarina the test with the bottoms also cuts
    # every position that the test without them cuts, so the searches ask only that one.
    spec = get_spec(game).reduced(**params) if params else get_spec(game)
    rules = rules_for(spec)
    czarina = spec.space is Space.AUTO
    test: WasteDrain = (BottomDrain(spec.ranks, spec.suits, len(rules.tab)) if czarina
                        else WasteDrain(spec.ranks, spec.suits, len(rules.tab), spaces=True))
    plain = WasteDrain(spec.ranks, spec.suits, len(rules.tab), spaces=not czarina)
    implied = deals_not = plain_dead = 0
    for st in random_positions(rules, range(1, 31 if params else 9), seed=13):
        if not _drain_verdict(rules, st, test):
            if czarina:
                plain_dead += not _drain_verdict(rules, st, plain)
            continue
        if czarina:
            assert _drain_verdict(rules, st, plain), st
        stock, waste = st.piles[rules.stock], st.piles[rules.waste]
        bottoms = [p[0] for t in rules.tab if (p := st.piles[t])]
        for m in rules.legal_moves(st):
            nxt = rules.apply(st, m)
            if m.src == "deal":
                deals_not += not _drain_verdict(rules, nxt, test)
            elif (nxt.piles[rules.stock] == stock and len(nxt.piles[rules.waste]) < len(waste)
                  and [p[0] for t in rules.tab if (p := nxt.piles[t])] == bottoms):
                assert _drain_verdict(rules, nxt, test), (st, m)
                implied += 1
    assert implied >= 100 and deals_not >= 3, (implied, deals_not)
    assert not czarina or plain_dead >= 3, plain_dead


# ------------------------------------------------------------ runs built in suit (RULES B3)
def lets_leave_in_suit(rules: Rules, u: list[int], w: int) -> bool:
    """``lets_leave`` where every pile is a run of one suit, configuration by configuration
    of every foundation at once: a suit's foundations of heights h₁ ≤ … hold two of each
    rank below h₁ (in two decks), one below h₂; the tableau, the rest of ``u``, has
    n_s(r) cards of suit s and rank r and needs m = Σ_s Σ_r max(0, n_s(r) − n_s(r+1)) runs,
    at most one a pile or cell."""
    spec = rules.spec
    n, suits, decks = spec.ranks, spec.suits, spec.decks
    piles = len(rules.tab) + len(rules.cell)
    spaces = spec.space is not Space.AUTO
    r0, s0 = w >> 2, w & 3
    per_suit = [[hs for hs in itertools.combinations_with_replacement(range(n + 1), decks)
                 if all(u[4 * r + s] >= sum(1 for h in hs if h > r) for r in range(n))]
                for s in range(suits)]
    for config in itertools.product(*per_suit):
        left = [[u[4 * r + s] - sum(1 for h in config[s] if h > r) for r in range(n)] + [0]
                for s in range(suits)]
        m = sum(max(0, left[s][r] - left[s][r + 1]) for s in range(suits) for r in range(n))
        if m > piles:
            continue
        own = left[s0]
        if r0 in config[s0] or (spaces and m < piles):
            return True
        if r0 + 1 < n and (own[r0 + 1] > own[r0] or (m < piles and own[r0 + 1] >= 1)):
            return True
    return False


#: reductions of the Busy Aces family that the exhaustive search settles quickly: two
#: foundations of a suit (two decks), spaces filled only from the waste or the stock
#: (Deuces), a cell (Jacks in the Box), and the tableau round the corner (Dimes' base)
IN_SUIT = [
    (red("busy-aces", decks=2, foundations=4, tableau=2, ranks=4, extra={"suits": 2}), 200),
    (red("busy-aces", decks=2, foundations=2, tableau=2, ranks=6, extra={"suits": 1}), 100),
    (red("deuces", decks=1, foundations=4, tableau=1, ranks=5), 200),
    (red("jacks-in-the-box", decks=1, foundations=4, tableau=1, cells=1, ranks=5,
         base_rank=3), 200),
    (red("dimes", decks=2, foundations=4, tableau=1, ranks=4, base_rank=2,
         extra={"suits": 2}), 30),
]


@pytest.mark.parametrize("reduction", [r for r, _ in IN_SUIT], ids=lambda r: r.label)
def test_in_suit_a_card_can_leave_exactly_when_a_configuration_lets_it(
        reduction: Reduction) -> None:
    # RULES B3: the question for one card, suit by suit, against every configuration of
    # every foundation at once
    rules = rules_for(reduction.spec)
    spec = rules.spec
    drain = SuitWasteDrain(spec.ranks, spec.suits, len(rules.tab) + len(rules.cell),
                           spec.space is not Space.AUTO, spec.decks)
    check_one_card(rules, drain, lets_leave_in_suit, range(1, 31))


@pytest.mark.parametrize(("reduction", "least"), IN_SUIT, ids=[r.label for r, _ in IN_SUIT])
def test_in_suit_a_waste_that_cannot_drain_is_lost(reduction: Reduction, least: int) -> None:
    # RULES B3: every position of random play that the test calls lost is lost, by the
    # plain exhaustive search
    rules = rules_for(reduction.spec)
    assert suit_drain_applies(rules)
    found = dead_ones_lost(rules, range(1, 21))
    assert found >= least, found


@pytest.mark.slow
@pytest.mark.timeout(1800)
@pytest.mark.parametrize("reduction", [
    red("busy-aces", decks=2, foundations=4, tableau=2, ranks=5, extra={"suits": 2}),
    red("cast-out-nines", decks=1, foundations=4, tableau=2, ranks=5, base_rank=3),
    red("dimes", decks=2, foundations=4, tableau=2, ranks=5, base_rank=3,
        extra={"suits": 2})], ids=lambda r: r.label)
def test_in_suit_a_waste_that_cannot_drain_is_lost_in_larger_reductions(
        reduction: Reduction, request: pytest.FixtureRequest) -> None:
    # RULES B3: the same, on reductions whose lost positions take up to 400,000 states
    if not slow_selected(request.config):
        pytest.skip("slow: run with -m slow")
    found = dead_ones_lost(rules_for(reduction.spec), range(1, 31))
    assert found >= 500, found


def test_a_made_up_position_is_not_judged() -> None:
    # a position that does not hold every card (a test, a puzzle), or whose piles are not
    # runs, is never called lost: the argument counts every card out of the stock and the
    # waste as a tableau or foundation card, in runs
    rules = rules_for(get_spec("czarina"))
    dead = make_drain_dead_end(rules)
    assert dead is not None
    piles = {"f1": ["5C"], "t1": ["KS"], "t2": ["QD"], "waste": ["4H", "4D", "4S", "7C"]}
    assert not dead(rules.make_state(piles))


@pytest.mark.parametrize(("game", "least"), [
    ("four-seasons", 4), ("czarina", 3), ("four-seasons-1883", 2)])
def test_the_compiled_test_is_this_one(game: str, least: int) -> None:
    # RULES A1-A3: the relaxed searches in C and in Python, both cutting with the test,
    # search the same positions (tests/test_relaxed_compiled.py), here from mid-game
    # positions where it cuts some
    rules = rules_for(get_spec(game))
    rng = random.Random(5)
    cut_some = 0
    for deal in range(1, 13):
        st = rules.initial_state(deal)
        for _ in range(40):
            moves = rules.legal_moves(st)
            if not moves:
                break
            st = rules.apply(st, rng.choice(moves))
        py = relaxed.RelaxedSearch(rules, st, compiled=False)
        c = relaxed.RelaxedSearch(rules, st)
        start = py.relax(st)
        if start is None:
            continue
        py_verdict = py.search(start, max_nodes=3000)
        assert (c.search(start, max_nodes=3000), c.nodes) == (py_verdict, py.nodes), deal
        cut_some += not all(py._drains.values())  # some position met did not drain
    assert cut_some >= least, cut_some
