"""Random-playout throughput of the rules engine, per game.

    python bench/engine.py [--seconds 2]

Prints, for each registered game, the moves generated and applied per second over
random playouts (uniform among the legal moves, from deals 1, 2, 3, …).
"""

from __future__ import annotations

import argparse
import random
import time

from patience.game import rules_for
from patience.games import all_specs


def playouts(game_id: str, seconds: float) -> tuple[int, int, int, float]:
    spec = next(s for s in all_specs() if s.id == game_id)
    rules = rules_for(spec)
    rng = random.Random(1)
    generated = applied = games = 0
    start = time.perf_counter()
    deal = 0
    while time.perf_counter() - start < seconds:
        deal += 1
        games += 1
        st = rules.initial_state(deal)
        for _ in range(2000):
            moves = rules.legal_moves(st)
            generated += len(moves)
            if not moves:
                break
            st = rules.apply(st, rng.choice(moves))
            applied += 1
    return generated, applied, games, time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seconds", type=float, default=2.0, help="time per game")
    args = ap.parse_args()
    print(f"{'game':20} {'playouts':>9} {'moves gen/s':>12} {'moves applied/s':>16} "
          f"{'gen per position':>17}")
    for spec in all_specs():
        gen, app, games, secs = playouts(spec.id, args.seconds)
        print(f"{spec.id:20} {games:9d} {gen / secs:12,.0f} {app / secs:16,.0f} "
              f"{gen / max(app, 1):17.1f}")


if __name__ == "__main__":
    main()
