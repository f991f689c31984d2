"""How fast and how often the solver decides each game.

    python bench/solver.py [--games four-seasons,fours-up] [--deals 1-200] [--budget 10]
                           [--short 2] [--workers 2] [--wall-clock] [--csv FILE]
                           [--keep-memory MB]

The default games are the commissioned ones (RULES Part A), whose targets the solver issue
sets; ``--games all`` adds the relatives (Part B).

For each game, every deal of the range is solved from its opening with ``--budget``
seconds; the deals won are solved again with ``--short`` seconds to see how many of the
wins are already found then.  Prints the share decided, won and lost, the median, 95th
percentile and maximum time, the positions searched per second and the peak memory
(the largest resident set of a worker process while it solved one deal), with the ratio
to each target of the solver issue.  Every win is replayed through the engine.

Budgets are CPU time of the solving thread ("one core", as the targets say), so the figures
do not depend on what else the machine runs; ``--wall-clock`` reads them on wall time, as a
player waiting for a hint does.  ``--csv`` writes one line per deal (game, deal, verdict,
seconds, positions, peak memory, and the verdict at ``--short``) for a closer look.
``--keep-memory`` sets what each worker keeps of its tables' memory for its next solves
(``patience.solver.keep_memory``; 0 hands it all back after each solve).
"""

from __future__ import annotations

import argparse
import multiprocessing
import resource
import statistics
import time

from patience.game import Game
from patience.games import all_specs
from patience.solver import BATCH_MEGABYTES, keep_memory, solver_for

Row = tuple[str, int, str, float, int, int]  # game, deal, status, seconds, nodes, rss KiB


def reset_peak() -> None:
    """Starts the process's peak resident set again from its current size (Linux), so that
    a worker's peak is that of its current deal, not of every deal it solved before."""
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as f:
            f.write("5")
    except OSError:
        pass


def peak_kib() -> int:
    """The peak resident set since ``reset_peak`` (KiB), or of the process's whole life
    where the system has no such reset."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def solve_one(task: tuple[str, int, float, bool, int]) -> Row:
    game_id, deal, budget, cpu, keep = task
    keep_memory(keep)
    reset_peak()
    g = Game(game_id, deal=deal)
    r = solver_for(g.spec).solve(g.state, max_seconds=budget, cpu_time=cpu)
    if r.status == "won":
        for m in r.moves:
            g.play(m)
        if not g.is_won:
            raise AssertionError(f"{game_id} deal {deal}: the winning line does not win")
    return game_id, deal, r.status, r.seconds, r.nodes, peak_kib()


def parse_range(text: str) -> range:
    lo, _, hi = text.partition("-")
    return range(int(lo), int(hi or lo) + 1)


def pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    commissioned = [s.id for s in all_specs() if s.section.startswith("A")]
    ap.add_argument("--games", default=",".join(commissioned),
                    help="game ids, comma-separated, or 'all' (default: RULES Part A)")
    ap.add_argument("--deals", default="1-200", type=parse_range)
    ap.add_argument("--budget", default=10.0, type=float)
    ap.add_argument("--short", default=2.0, type=float)
    ap.add_argument("--workers", default=2, type=int)
    ap.add_argument("--wall-clock", action="store_true",
                    help="budgets in wall time instead of the solving thread's CPU time")
    ap.add_argument("--csv", help="write one line per deal to this file")
    ap.add_argument("--keep-memory", default=BATCH_MEGABYTES, type=int, metavar="MB",
                    help="the tables' memory a worker keeps for its next solves, as the "
                         "win-rate and web workers do (patience.solver.keep_memory; "
                         "0: none)")
    args = ap.parse_args()
    cpu = not args.wall_clock
    out = open(args.csv, "w", encoding="utf-8") if args.csv else None  # noqa: SIM115
    if out:
        out.write("game,deal,verdict,seconds,positions,peak_mb,verdict_short\n")
    games = [s.id for s in all_specs()] if args.games == "all" else args.games.split(",")
    deals: range = args.deals
    clock_kind = "wall time" if args.wall_clock else "CPU time"
    print(f"deals {deals.start}-{deals.stop - 1}, budget {args.budget:g} s of {clock_kind} "
          f"(wins re-checked at {args.short:g} s), {args.workers} worker(s), one core each, "
          f"keeping {args.keep_memory} MB of tables")
    header = (f"{'game':18} {'decided':>8} {'won':>6} {'lost':>6} {'unk':>5} "
              f"{'median s':>9} {'p95 s':>7} {'max s':>7} {'pos/s':>8} {'peak MB':>8} "
              f"{'wins@short':>10}")
    print(header)
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(args.workers, maxtasksperchild=50) as pool:
        for game_id in games:
            t0 = time.perf_counter()
            rows = pool.map(solve_one, [(game_id, d, args.budget, cpu, args.keep_memory)
                                        for d in deals], chunksize=1)
            won = [r for r in rows if r[2] == "won"]
            short = pool.map(solve_one, [(game_id, r[1], args.short, cpu, args.keep_memory)
                                         for r in won], chunksize=1)
            won_short = sum(1 for r in short if r[2] == "won")
            n = len(rows)
            lost = sum(1 for r in rows if r[2] == "lost")
            unknown = sum(1 for r in rows if r[2] == "unknown")
            decided = [r[3] for r in rows if r[2] != "unknown"]
            times = [r[3] for r in rows]
            nodes = sum(r[4] for r in rows)
            secs = sum(times)
            peak = max(r[5] for r in rows) / 1024
            print(f"{game_id:18} {len(decided) / n:8.1%} {len(won) / n:6.1%} {lost / n:6.1%} "
                  f"{unknown:5d} {statistics.median(times):9.3f} {pct(times, 0.95):7.2f} "
                  f"{max(times):7.2f} {nodes / max(secs, 1e-9):8,.0f} {peak:8.0f} "
                  f"{f'{won_short / len(won):.1%}' if won else '—':>10}", flush=True)
            quick = sum(1 for r in rows if r[2] != "unknown" and r[3] <= args.short)
            print(f"{'':18} decided within {args.budget:g} s: {len(decided)}/{n}"
                  f" (target 90%: ratio {len(decided) / n / 0.9:.2f}); decided within "
                  f"{args.short:g} s: {quick}/{n}; wall {time.perf_counter() - t0:.0f} s",
                  flush=True)
            if out:
                at_short = {r[1]: r[2] for r in short}
                for r in rows:
                    out.write(f"{game_id},{r[1]},{r[2]},{r[3]:.3f},{r[4]},{r[5] // 1024},"
                              f"{at_short.get(r[1], '')}\n")
                out.flush()
    if out:
        out.close()


if __name__ == "__main__":
    main()
