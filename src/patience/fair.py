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

Version 2 knows the stock after a redeal; version 1 sampled it as unseen.  In the
games of one pass (``GameSpec.passes == 1``) the two play the same moves, drawing
the same samples, so the verdicts that version 1 left of those games are kept as
version 2's.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from patience.game import Game, rules_for
from patience.games import get_spec
from patience.rules.spec import GameSpec
from patience.rules.state import Move, State
from patience.solver import solver_for

POLICY_VERSION = "2"


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
    seen = {solver.key(g.state)}
    rng = random.Random(deal * 1_000_003 + 17)  # the samples only; the deal is our own shuffle
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


def _vote(solver: object, st: State, moves: list[Move], policy: FairPolicy,
          rng: random.Random, result: FairResult) -> Move:
    from patience.solver.search import Solver

    assert isinstance(solver, Solver)
    result.decisions += 1
    votes = {str(m): 0.0 for m in moves}
    stock_i = solver.rules.stock
    if stock_known(st):  # one search of the real position, with the whole budget
        orders, nodes = [st], policy.samples * policy.nodes
    else:
        orders = [sample_stock(st, stock_i, rng) for _ in range(policy.samples)]
        nodes = policy.nodes
    for sampled in orders:
        r = solver.probe(sampled, nodes)
        result.nodes += r.nodes
        if r.status == "won" and r.moves and r.moves[0] in votes:
            votes[r.moves[0]] += 1.0
        elif r.status == "unknown" and r.best_line and r.best_line[0] in votes:
            votes[r.best_line[0]] += 0.5
    best = max(votes.values())
    return next(m for m in moves if votes[str(m)] == best)
