"""How soon the solver proves a position lost after the move that lost it.

    python bench/lost_detection.py [--games four-seasons,czarina] [--deals 1-20] [--budget 2]
                                   [--scan 40] [--workers 2] [--csv FILE]

The web table asks the solver about the positions a player reaches, and says "lost" once
one is proven.  This measures how soon that is, on games a player loses: the fair player
(``patience.fair``, the policy of the win-rate runs: 3 sampled stock orders, 300 positions
a decision; after a redeal, the stock it then knows) plays each deal of the range, and for
each game it loses, positions of its line are solved with ``--budget`` seconds of CPU time
each.  From the end back, the first position at each length of the stock (the one after a
deal), until one is proven won or ``--scan`` of them in a row are undecided; then every
position after the last one proven won, until the first one proven lost (or ``--scan``
undecided in a row).  The move that lost the game lies between that last won position and
the first proven lost; where the two are adjacent, the losing move is known and its
position was proven lost at once.

Prints per game the fair games lost, and among them: lost *by the deal* (its opening is
proven lost: nothing the player did); proven lost *at once* (the position right after the
last one proven won); *later* (undecided positions between: the gap, median/largest, is
the most moves a player makes on a lost game before the table can say so); *unpinned*
(no position proven won within reach before the first proof, so the losing move is not
known); *no proof* (nothing proven lost: the fair player stopped at its move limit);
and the median stock left at the first proof.  Every line proven won is replayed through
the engine.
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import time

from patience.fair import FairPolicy, play_fair
from patience.game import Game
from patience.games import all_specs
from patience.solver import solver_for

#: (game, deal, fair player won, moves, index of the last position proven won and of the
#: first proven lost (or -1), the stock left at each (or -1), undecided positions between
#: them)
Row = tuple[str, int, bool, int, int, int, int, int, int]


def stock_left(g: Game) -> int:
    return len(g.piles.get("stock", []))


def measure(task: tuple[str, int, float, int]) -> Row:
    game_id, deal, budget, scan = task
    fair = play_fair(game_id, deal, FairPolicy(samples=3, nodes=300))
    if fair.won:
        return game_id, deal, True, len(fair.moves), -1, -1, -1, -1, 0
    g = Game(game_id, deal=deal)
    line = [g.copy()]
    for m in fair.moves:
        g.play(m)
        line.append(g.copy())
    solver = solver_for(g.spec)
    verdicts: dict[int, str] = {}

    def verdict(i: int) -> str:
        if i not in verdicts:
            r = solver.solve(line[i].state, max_seconds=budget, cpu_time=True)
            if r.status == "won":
                replay = line[i].copy()
                for m in r.moves:
                    replay.play(m)
                if not replay.is_won:
                    raise AssertionError(f"{game_id} deal {deal}: a winning line does not win")
            verdicts[i] = r.status
        return verdicts[i]

    # coarse, from the end back: the last position, then the first at each length of the
    # stock (the one after a deal), until one is proven won or ``scan`` of them in a row
    # are undecided
    starts = [i for i in range(len(line))
              if i == 0 or stock_left(line[i]) != stock_left(line[i - 1])]
    if starts[-1] != len(line) - 1:
        starts.append(len(line) - 1)
    tried: list[int] = []
    last_won, run = -1, 0
    for i in reversed(starts):
        tried.append(i)
        v = verdict(i)
        if v == "won":
            last_won = i
            break
        run = run + 1 if v == "unknown" else 0
        if run >= scan:
            break
    first_lost = -1  # the earliest of the proven lost positions at the end, coarse
    for i in tried:
        if verdicts[i] != "lost":
            break
        first_lost = i
    # fine: every position before it, back to the last one proven won (or ``scan``
    # undecided ones); ``complete`` when the scan got there
    complete = first_lost >= 0
    run = 0
    for i in range(first_lost - 1, last_won, -1) if first_lost > 0 else ():
        v = verdict(i)
        if v == "won":
            last_won = i
            break
        if v == "lost":
            first_lost, run = i, 0
            continue
        run += 1
        if run >= scan:
            complete = False
            break
    if not complete:
        last_won = -1  # the losing move is not pinned down
    undecided = first_lost - last_won - 1 if last_won >= 0 else 0
    stock = stock_left(line[first_lost]) if first_lost >= 0 else -1
    stock_won = stock_left(line[last_won]) if last_won >= 0 else -1
    return (game_id, deal, False, len(fair.moves), last_won, first_lost, stock_won, stock,
            undecided)


def parse_range(text: str) -> range:
    lo, _, hi = text.partition("-")
    return range(int(lo), int(hi or lo) + 1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    commissioned = [s.id for s in all_specs() if s.section.startswith("A")]
    ap.add_argument("--games", default=",".join(commissioned),
                    help="game ids, comma-separated (default: RULES Part A)")
    ap.add_argument("--deals", default="1-20", type=parse_range)
    ap.add_argument("--budget", default=2.0, type=float,
                    help="seconds of CPU time per position (the web table's default: 2)")
    ap.add_argument("--scan", default=40, type=int,
                    help="undecided in a row after which a scan stops: stock lengths "
                         "(the coarse scan back), then positions (the fine one)")
    ap.add_argument("--workers", default=2, type=int)
    ap.add_argument("--csv", help="write one line per deal to this file")
    args = ap.parse_args()
    out = open(args.csv, "w", encoding="utf-8") if args.csv else None  # noqa: SIM115
    if out:
        out.write("game,deal,fair_won,moves,last_won,first_lost,stock_at_won,stock_at_proof,"
                  "undecided\n")
    deals: range = args.deals
    print(f"deals {deals.start}-{deals.stop - 1}, {args.budget:g} s of CPU time a position, "
          f"{args.workers} worker(s)")
    print(f"{'game':18} {'lost':>5} {'by deal':>8} {'at once':>8} {'later':>6} "
          f"{'unpinned':>9} {'no proof':>9} {'gap':>9} {'stock@proof':>12}")
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(args.workers, maxtasksperchild=20) as pool:
        for game_id in args.games.split(","):
            t0 = time.perf_counter()
            rows = pool.map(measure, [(game_id, d, args.budget, args.scan) for d in deals],
                            chunksize=1)
            lost = [r for r in rows if not r[2]]
            by_deal = [r for r in lost if r[5] == 0]
            pinned = [r for r in lost if r[4] >= 0 and r[5] > r[4]]
            at_once = [r for r in pinned if r[5] == r[4] + 1]
            later = [r for r in pinned if r[5] > r[4] + 1]
            unpinned = [r for r in lost if r[4] < 0 and r[5] > 0]
            no_proof = [r for r in lost if r[5] < 0]
            gaps = sorted(r[5] - r[4] - 1 for r in later)
            gap = (f"{statistics.median(gaps):g}/{gaps[-1]}" if gaps else "—")
            stocks = [r[7] for r in pinned + unpinned]
            stock_med = f"{statistics.median(stocks):g}" if stocks else "—"
            print(f"{game_id:18} {len(lost):5d} {len(by_deal):8d} {len(at_once):8d} "
                  f"{len(later):6d} {len(unpinned):9d} {len(no_proof):9d} {gap:>9} "
                  f"{stock_med:>12}")
            share = f"{len(at_once) / len(pinned):.0%}" if pinned else "—"
            print(f"{'':18} the fair player won {len(rows) - len(lost)} of {len(rows)}; a "
                  f"position proven won before the first proof of the loss in {len(pinned)} "
                  f"games, the position just before it in {share} of them; "
                  f"wall {time.perf_counter() - t0:.0f} s", flush=True)
            if out:
                for r in rows:
                    out.write(",".join(str(x) for x in r) + "\n")
                out.flush()
    if out:
        out.close()


if __name__ == "__main__":
    main()
