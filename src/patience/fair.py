"""The fair player: plays a deal seeing only what a person sees.

A person sees every face-up card and knows which cards are still in the stock,
but not their order, until a redeal: the stock of a later pass is made of cards
that lay face up (the gathered reserve piles of RULES A6 and B1, or the waste
turned over), in an order the rules fix, so a person who watched knows it.  At
each decision the fair player

1. plays a safe move when there is one (docs/solver.md, "Safe moves": the rule
   never looks at the stock), or the only legal move;
2. otherwise draws ``samples`` orders of the unseen cards (uniformly, from a
   generator seeded by the deal number), looks for a win in each sampled
   position with the solver's guided search limited to ``nodes`` positions, and
   counts for each first move of a winning line one vote (when no win is found,
   the first move towards the most cards home gets half a vote); after a redeal,
   when no card is unseen, it searches the position itself once, with
   ``samples × nodes`` positions;
3. plays the move with the most votes; ties, and positions where every sample
   was lost, go to the first move in the solver's move ordering.

It never repeats a position, and gives up after ``max_moves`` moves.  Its win
rate is the figure to put next to the published human odds.

Where the tableau is a multiset (Fours Up; docs/solver.md, "The tableau as a
multiset"), which pile holds a card does not matter, only which cards are home, in
the waste and in the stock; every move of that *image* (a card home, the waste's top
to the tableau, a card played back, the deal) can be made from any arrangement of
the tableau.  There the player chooses among the image's moves, as above, never
returns to an image it has seen, rearranges the tableau only to carry out the move
it chose, and plays a card back only when a sample's line does.

Version 3 plays Fours Up so; version 2 chose among the real moves there, and went
round and round the tableau (1,800 tableau moves in a row, up to its limit, in 3 of
the first 6 games it lost).  Version 2 knows the stock after a redeal; version 1
sampled it as unseen.  Where two versions play the same moves, drawing the same
samples (v1 and v2 in the games of one pass, ``GameSpec.passes == 1``; v2 and v3
in every game but Fours Up), the older version's verdicts are kept as the newer's.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field

from patience.game import Game, rules_for
from patience.games import get_spec
from patience.rules.spec import GameSpec
from patience.rules.state import Move, State
from patience.solver import multiset, solver_for
from patience.solver.search import Solver

POLICY_VERSION = "3"


@dataclass(frozen=True)
class FairPolicy:
    samples: int = 4
    nodes: int = 1500
    max_moves: int = 2000

    @property
    def label(self) -> str:
        return f"fair-v{POLICY_VERSION}:{self.samples}x{self.nodes}"

    @classmethod
    def from_label(cls, label: str) -> FairPolicy | None:
        """The policy a stored player label names ("fair-v2:3x300"), or None when the
        label is not one (the thoughtful player's, or malformed).  Any version's label
        gives its budget."""
        parsed = _parse_label(label)
        return None if parsed is None else cls(samples=parsed[1], nodes=parsed[2])


def label_version(label: str) -> int | None:
    """The policy version of a fair player's label ("fair-v2:3x300" → 2), or None when the
    label is not a fair player's."""
    parsed = _parse_label(label)
    return None if parsed is None else parsed[0]


def _parse_label(label: str) -> tuple[int, int, int] | None:
    """(version, samples, nodes) of a fair player's label, or None."""
    head, _, budget = label.partition(":")
    samples, _, nodes = budget.partition("x")
    version = head.removeprefix("fair-v")
    if version == head or not (version.isdigit() and samples.isdigit() and nodes.isdigit()):
        return None
    return int(version), int(samples), int(nodes)


@dataclass
class FairResult:
    won: bool
    moves: list[str] = field(default_factory=list)
    decisions: int = 0
    nodes: int = 0


def sample_stock(state: State, stock_index: int, rng: random.Random) -> State:
    """``state`` with its face-down stock in another order."""
    stock = list(state.piles[stock_index])
    rng.shuffle(stock)
    piles = list(state.piles)
    piles[stock_index] = tuple(stock)
    return State(tuple(piles), state.base, state.passes)


def stock_known(state: State) -> bool:
    """Whether a person knows the order of the stock: after a redeal it holds only cards
    that lay face up (the gathered reserve piles, RULES A6, or the waste turned over), in
    an order the rules fix; only the first pass's stock is face down and unseen."""
    return state.passes > 1


def play_fair(game: str | GameSpec, deal: int, policy: FairPolicy | None = None) -> FairResult:
    """Play deal ``deal`` with the fair policy; the result says whether it won."""
    policy = policy or FairPolicy()
    spec = get_spec(game)
    rules = rules_for(spec)
    solver = solver_for(spec)
    g = Game(spec, deal=deal)
    result = FairResult(won=False)
    rng = random.Random(deal * 1_000_003 + 17)  # the samples only; the deal is our own shuffle
    if solver.multiset:
        images = multiset.MultisetGame(rules, g.state)
        if images.whole and images.image(g.state) is not None:
            _play_images(g, solver, images, policy, rng, result)
            return result
    seen = {solver.key(g.state)}
    while len(result.moves) < policy.max_moves:
        st = g.state
        if rules.is_won(st):
            result.won = True
            return result
        safe = solver.safe(st) if solver.safe is not None else None
        moves = [safe] if safe is not None else solver.ordered_moves(st)
        fresh = [m for m in moves if solver.key(rules.apply(st, m)) not in seen]
        if not fresh:
            return result  # stuck: nothing new to try
        choice = fresh[0] if len(fresh) == 1 else _vote(solver, st, fresh, policy, rng, result)
        g.play(choice)
        result.moves.append(str(choice))
        seen.add(solver.key(g.state))
    return result


def _sample_lines(solver: Solver, st: State, policy: FairPolicy, rng: random.Random,
                  result: FairResult) -> Iterator[tuple[State, list[str], float]]:
    """Each position searched for a decision at ``st`` (a sampled order of the unseen stock,
    or after a redeal the position itself), with the line its search gives and that line's
    vote: 1 for a win, 1/2 for the line towards the most cards home."""
    if stock_known(st):  # one search of the real position, with the whole budget
        orders, nodes = [st], policy.samples * policy.nodes
    else:
        orders = [sample_stock(st, solver.rules.stock, rng) for _ in range(policy.samples)]
        nodes = policy.nodes
    for sampled in orders:
        r = solver.probe(sampled, nodes)
        result.nodes += r.nodes
        if r.status == "won":
            yield sampled, r.moves, 1.0
        elif r.status == "unknown":
            yield sampled, r.best_line, 0.5


def _vote(solver: Solver, st: State, moves: list[Move], policy: FairPolicy,
          rng: random.Random, result: FairResult) -> Move:
    result.decisions += 1
    votes = {str(m): 0.0 for m in moves}
    for _, line, weight in _sample_lines(solver, st, policy, rng, result):
        if line and line[0] in votes:
            votes[line[0]] += weight
    best = max(votes.values())
    return next(m for m in moves if votes[str(m)] == best)


def _play_images(g: Game, solver: Solver, images: multiset.MultisetGame, policy: FairPolicy,
                 rng: random.Random, result: FairResult) -> None:
    """Play where the tableau is a multiset (Fours Up; docs/solver.md, "The tableau as a
    multiset"): which pile holds a card does not matter, only which cards are home, in the
    waste and in the stock, and every move of that image can be made from any arrangement
    of the tableau.  So the player chooses among the image's moves (a card home, the
    waste's top to the tableau, a card played back, the deal), never returns to an image
    it has seen, and rearranges the tableau only to carry out the move chosen."""
    rules = solver.rules
    img = images.image(g.state)
    assert img is not None
    seen = {img}
    while len(result.moves) < policy.max_moves:
        st = g.state
        if rules.is_won(st):
            result.won = True
            return
        events, _ = images.settle(img)  # the safe moves of the image
        if not events:
            # each move with the safe moves after it; one whose image after them was seen
            # (a card played back that goes home again) is no choice
            fresh = [(evs, nxt) for evs, nxt in images.successors(img) if nxt not in seen]
            if not fresh:
                return  # stuck: nothing new to try
            events = fresh[0][0] if len(fresh) == 1 else \
                _vote_images(solver, images, st, fresh, policy, rng, result)
        for ev in events:
            moves, _ = images.realize(g.state, [ev])
            for m in moves:
                g.play(m)
                result.moves.append(str(m))
            reached = images.image(g.state)
            assert reached is not None
            seen.add(reached)
            img = reached


def _vote_images(solver: Solver, images: multiset.MultisetGame, st: State,
                 fresh: list[tuple[list[multiset.Event], bytes]], policy: FairPolicy,
                 rng: random.Random, result: FairResult) -> list[multiset.Event]:
    """The image move that most sampled orders of the stock win with: a sample's vote goes
    to the move of the image that its line makes first."""
    result.decisions += 1
    votes = [0.0] * len(fresh)
    for sampled, line, weight in _sample_lines(solver, st, policy, rng, result):
        first = _first_image_move(solver, sampled, line, fresh)
        if first is not None:
            votes[first] += weight
    best = max(votes)
    if best == 0:  # no sample points anywhere: a move that makes progress, not a play-back
        return next((evs for evs, _ in fresh if evs[0][0] != "ft"), fresh[0][0])
    return fresh[votes.index(best)][0]


def _first_image_move(solver: Solver, sampled: State, line: list[str],
                      fresh: list[tuple[list[multiset.Event], bytes]]) -> int | None:
    """Which of ``fresh`` (the moves of the image of the real position) the first move of
    ``line`` that changes the image of ``sampled`` is, or None.  The sample has its own
    stock order, so its images are matched on its own game of images."""
    rules = solver.rules
    own = multiset.MultisetGame(rules, sampled)
    start = own.image(sampled)
    if start is None:
        return None
    st = sampled
    for text in line:
        st = rules.apply(st, Move.parse(text))
        img = own.image(st)
        if img != start:
            made = {e for e, nxt in own.moves(start) if nxt == img}
            return next((i for i, (evs, _) in enumerate(fresh) if evs[0] in made), None)
    return None
