"""Load on the web server: N simulated players play concurrently over loopback.

    python bench/web_load.py [--players 50] [--seconds 20] [--think 0.5] [--game fours-up]

Starts a real server process (``python -m patience.web serve``) on a free port of
127.0.0.1 with a fresh SQLite database in a temporary folder, then runs N players
(asyncio, one httpx client and cookie jar each).  Each starts a deal and plays
random legal moves (a non-``deal`` move when there is one, ``deal`` now and then),
waiting a random 0..2×``--think`` seconds between moves like a (very quick) person;
a finished or stuck game is followed by a new deal.  ``--think 0`` sends the next
move as soon as the answer arrives (a stress test: latency then grows with the queue).

The players join one by one over ``--ramp`` seconds (not measured: the first
requests of a fresh process are slower); then throughput (moves/s) and the p50 /
p90 / p99 / max latency of a move are measured for ``--seconds``, with the p99
against the 50 ms target and the server's CPU time per move.  Only loopback
addresses are used; the run is bounded by ``--ramp`` + ``--seconds``.  It never
fails just for missing the target.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

TARGET_P99 = 0.050
GAMES = ["four-seasons", "four-seasons-1883", "czarina", "corners", "simplicity",
         "quadrennial", "fours-up"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_server(port: int, db: str, log: Path) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, "-m", "patience.web", "serve", "--host", "127.0.0.1",
           "--port", str(port), "--db", db, "--log-level", "warning"]
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the server stopped at start:\n{log.read_text()}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).status_code == 200:
                return proc
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start within 30 s")


class Tally:
    def __init__(self) -> None:
        self.latencies: list[float] = []  # moves after the ramp-up
        self.ramp_latencies: list[float] = []
        self.trace: list[tuple[float, float]] = []
        self.measure_from = 0.0  # time.perf_counter() at the end of the ramp-up
        self.errors: dict[int, int] = {}
        self.games = 0
        self.won = 0


def pick(state: dict[str, Any], rng: random.Random) -> str | None:
    legal: list[str] = state["legal_moves"]
    if not legal:
        return None
    others = [m for m in legal if m != "deal"]
    if "deal" in legal and (not others or rng.random() < 0.25):
        return "deal"
    return rng.choice(others)


async def player(n: int, url: str, start_at: float, stop_at: float, think: float,
                 games: list[str], tally: Tally) -> None:
    rng = random.Random(n)
    limits = httpx.Limits(max_connections=1, max_keepalive_connections=1)
    await asyncio.sleep(max(0.0, start_at - time.monotonic()))  # the ramp-up
    # plain http over loopback: no certificates to load (that takes a while per client)
    async with httpx.AsyncClient(base_url=url, timeout=30, limits=limits,
                                 verify=False) as client:
        state: dict[str, Any] | None = None
        moves_in_game = 0
        while time.monotonic() < stop_at:
            if state is None or state["finished"] or moves_in_game >= 400:
                r = await client.post("/api/games", json={"game": rng.choice(games)})
                if r.status_code != 201:
                    tally.errors[r.status_code] = tally.errors.get(r.status_code, 0) + 1
                    await asyncio.sleep(0.5)
                    continue
                state, moves_in_game = r.json(), 0
                tally.games += 1
            text = pick(state, rng)
            if text is None:  # no legal move: give the deal up, start another
                r = await client.post(f"/api/games/{state['id']}/resign",
                                      json={"version": state["version"]})
                state = None
                continue
            t = time.perf_counter()
            r = await client.post(f"/api/games/{state['id']}/moves",
                                  json={"move": text, "version": state["version"]})
            done = time.perf_counter()
            if t >= tally.measure_from:
                tally.latencies.append(done - t)
                if os.environ.get("WEB_LOAD_TRACE"):
                    tally.trace.append((t - tally.measure_from, done - t))
            else:
                tally.ramp_latencies.append(done - t)
            if r.status_code != 200:
                tally.errors[r.status_code] = tally.errors.get(r.status_code, 0) + 1
                state = (await client.get(f"/api/games/{state['id']}")).json()
            else:
                state = r.json()
                moves_in_game += 1
                if state["status"] == "won":
                    tally.won += 1
            if think > 0:
                await asyncio.sleep(rng.uniform(0, 2 * think))


def cpu_seconds(pid: int) -> float | None:
    """CPU time (user + system) used so far by process ``pid`` and its children, or None."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    ticks = os.sysconf("SC_CLK_TCK")
    return sum(int(f) for f in fields[11:15]) / ticks


def quantile(values: list[float], q: float) -> float:
    if len(values) < 2:
        return values[0] if values else float("nan")
    return statistics.quantiles(values, n=1000, method="inclusive")[int(q * 1000) - 1]


async def run(url: str, players: int, seconds: float, ramp: float, think: float,
              games: list[str]) -> Tally:
    """Players join one by one over ``ramp`` seconds, then all play for ``seconds``."""
    tally = Tally()
    start = time.monotonic()
    tally.measure_from = time.perf_counter() + ramp
    await asyncio.gather(*(player(i, url, start + ramp * i / players, start + ramp + seconds,
                                  think, games, tally) for i in range(players)))
    return tally


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", type=int, default=50, help="simulated players (50)")
    ap.add_argument("--seconds", type=float, default=20.0,
                    help="measured time, after the ramp-up (20)")
    ap.add_argument("--ramp", type=float, default=2.0,
                    help="the players join one by one over this time, not measured (2)")
    ap.add_argument("--think", type=float, default=0.5,
                    help="mean pause between a player's moves, seconds (0.5; 0 = none)")
    ap.add_argument("--game", choices=GAMES, help="play only this game (default: all)")
    args = ap.parse_args()
    if not 1 <= args.players <= 500 or not 0 < args.seconds <= 600:
        ap.error("give 1..500 players and 0..600 seconds")

    with tempfile.TemporaryDirectory(prefix="patience-web-load-") as tmp:
        port = free_port()
        server = start_server(port, f"sqlite:///{Path(tmp) / 'load.db'}",
                              Path(tmp) / "server.log")
        cpu0 = cpu_seconds(server.pid)
        try:
            loop_start = time.monotonic()
            tally = asyncio.run(run(f"http://127.0.0.1:{port}", args.players, args.seconds,
                                    args.ramp, args.think,
                                    [args.game] if args.game else GAMES))
            cpu1 = cpu_seconds(server.pid)
            took = time.monotonic() - loop_start - args.ramp
        finally:
            server.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                server.wait(10)
            if server.poll() is None:
                server.kill()

    lat = tally.latencies
    print(f"web load: {args.players} players over loopback, {took:.1f} s measured after a "
          f"{args.ramp:g} s ramp-up, think {args.think:g} s (mean pause between a player's "
          f"moves), games: {args.game or 'all seven'}")
    if not lat:
        print("no move was played")
        return 0
    p50, p90, p99 = (quantile(lat, q) for q in (0.50, 0.90, 0.99))
    print(f"  moves      {len(lat):8d}   throughput {len(lat) / took:8.1f} moves/s   "
          f"games started {tally.games}, won {tally.won}")
    print(f"  move latency  p50 {p50 * 1000:7.2f} ms   p90 {p90 * 1000:7.2f} ms   "
          f"p99 {p99 * 1000:7.2f} ms   max {max(lat) * 1000:7.2f} ms")
    if tally.trace:
        Path(os.environ["WEB_LOAD_TRACE"]).write_text(
            "".join(f"{w:.3f} {x * 1000:.2f}\n" for w, x in tally.trace))
    if tally.ramp_latencies:
        ramp = tally.ramp_latencies
        print(f"  (ramp-up: {len(ramp)} moves, p50 {quantile(ramp, 0.5) * 1000:.2f} ms, "
              f"max {max(ramp) * 1000:.2f} ms; not counted above)")
    if cpu0 is not None and cpu1 is not None:
        busy = cpu1 - cpu0
        print(f"  server CPU {busy:.1f} s in {took + args.ramp:.1f} s "
              f"({busy / (took + args.ramp):.0%} of a core), "
              f"{busy / (len(lat) + len(tally.ramp_latencies)) * 1000:.2f} ms per move "
              f"(all requests counted)")
    errors = ", ".join(f"{k}: {v}" for k, v in sorted(tally.errors.items())) or "none"
    print(f"  errors     {errors}")
    verdict = "meets" if p99 < TARGET_P99 else "misses"
    print(f"  target     p99 < {TARGET_P99 * 1000:.0f} ms: {verdict} it "
          f"(p99 / target = {p99 / TARGET_P99:.2f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
