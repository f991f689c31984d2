"""The ``patience odds`` and ``patience odds-report`` commands.

    patience odds GAME [--deals 1-10000] [--budget SECONDS [--wall-clock] | --nodes N] [--workers N]
                       [--scheduler tcp://HOST:PORT] [--fair [--samples K --fair-nodes N]]
                       [--db URL]
    patience odds-report [--db URL] [--markdown docs/odds.md] [--plot docs/odds.png]
                         [--json src/patience/data/odds.json] [--fresh]
    patience odds-export [--db URL] [--dir src/patience/data/verdicts]
    patience odds-import [--db URL] [--dir src/patience/data/verdicts]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import signal
import threading
from collections.abc import Iterator
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from pathlib import Path
from types import FrameType

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from patience.cli import Subparsers, command


def deal_range(text: str) -> range:
    lo, sep, hi = text.partition("-")
    try:
        a, b = int(lo), int(hi) if sep else int(lo)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a deal range is like 1-10000, not {text!r}") from None
    if a < 0 or b < a:
        raise argparse.ArgumentTypeError(f"a deal range is like 1-10000, not {text!r}")
    return range(a, b + 1)


def positive_float(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not math.isfinite(v) or v <= 0:
        raise argparse.ArgumentTypeError("must be a positive number")
    return v


def positive_int(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if v <= 0:
        raise argparse.ArgumentTypeError("must be positive")
    return v


@command
def add_odds_command(sub: Subparsers) -> None:
    p = sub.add_parser("odds", help="measure a game's win rate with a 95%% interval",
                       description="Solve every deal of a range (resuming a stored run) and "
                                   "report the win rate with a 95% Wilson interval.")
    p.add_argument("game", metavar="GAME", help="game id, name or alias")
    p.add_argument("--deals", type=deal_range, default=range(1, 10001),
                   help="deal numbers, e.g. 1-10000 (default)")
    p.add_argument("--budget", type=positive_float, default=None,
                   help="seconds of CPU time per deal for the solver (default 10): the same "
                        "search however busy the machine is")
    p.add_argument("--wall-clock", action="store_true",
                   help="read --budget on wall time instead of CPU time")
    p.add_argument("--nodes", type=positive_int, default=None,
                   help="positions per deal instead of seconds (reproducible anywhere)")
    p.add_argument("--workers", type=positive_int, default=os.cpu_count() or 1,
                   help="local worker processes (default: one per core)")
    p.add_argument("--scheduler", default=None,
                   help="a Dask distributed scheduler, e.g. tcp://10.0.0.5:8786")
    p.add_argument("--fair", action="store_true",
                   help="the fair player (sees no stock order) instead of the solver")
    p.add_argument("--samples", type=positive_int, default=4,
                   help="fair player: stock orders sampled per decision")
    p.add_argument("--fair-nodes", type=positive_int, default=1500,
                   help="fair player: positions searched per sample")
    p.add_argument("--db", default=None, help="SQLAlchemy URL (default PATIENCE_DB or "
                                              "./data/patience.db)")
    p.set_defaults(handler=run_odds)

    r = sub.add_parser("odds-report", help="write docs/odds.md, its plot and the lobby figures",
                       description="Summarise every stored win-rate run.")
    r.add_argument("--db", default=None)
    r.add_argument("--markdown", type=Path, default=Path("docs/odds.md"))
    r.add_argument("--plot", type=Path, default=Path("docs/odds.png"))
    r.add_argument("--json", type=Path, default=Path("src/patience/data/odds.json"))
    r.add_argument("--fresh", action="store_true",
                   help="publish only what the database holds (by default a row the database "
                        "measures on fewer deals than the published figures is carried over)")
    r.set_defaults(handler=run_report)

    for name, verb, handler in (("odds-export", "write every stored verdict to", run_export),
                                ("odds-import", "load the verdicts of", run_import)):
        a = sub.add_parser(name, help=f"{verb} src/patience/data/verdicts (kept with the project)",
                           description=f"{verb.capitalize()} the verdict files, one a game "
                                       "(src/patience/odds_archive.py).")
        a.add_argument("--db", default=None)
        a.add_argument("--dir", type=Path, default=Path("src/patience/data/verdicts"))
        a.set_defaults(handler=handler)


@contextmanager
def _terminate_as_interrupt() -> Iterator[None]:
    """SIGTERM (``kill``, ``timeout``, a service manager) stops a run as Ctrl-C does: with
    the verdicts reached stored and a word said.  (A run started in the background with
    ``nohup`` or ``&`` ignores Ctrl-C's SIGINT; SIGTERM reaches it.)"""
    def interrupt(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    if threading.current_thread() is not threading.main_thread():
        yield  # (signal handlers belong to the main thread)
        return
    before = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


def run_odds(args: argparse.Namespace, console: Console) -> int:
    from patience.fair import FairPolicy
    from patience.odds import Budget, OddsRun

    if args.budget is not None and args.nodes is not None:
        console.print("patience odds: give --budget or --nodes, not both")
        return 2
    if args.wall_clock and args.nodes is not None:
        console.print("patience odds: --wall-clock reads --budget, not --nodes")
        return 2
    budget = Budget(nodes=args.nodes) if args.nodes else \
        Budget(seconds=args.budget or 10.0, cpu=not args.wall_clock)
    fair = FairPolicy(samples=args.samples, nodes=args.fair_nodes) if args.fair else None
    run = OddsRun(args.game, args.deals, budget, fair=fair, db_url=args.db)
    pending = run.pending()
    where = (f"on {args.scheduler}" if args.scheduler
             else f"{args.workers} worker{'s' if args.workers > 1 else ''}")
    console.print(f"{run.spec.name}: {len(args.deals) - len(pending)} of {len(args.deals)} "
                  f"deals already stored; solving {len(pending)} "
                  f"({run.player}, {run.budget_label} per deal, {where})")
    won = [0]
    seen = [0]
    progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                        TextColumn("won {task.fields[rate]}"), TimeRemainingColumn(),
                        console=console, transient=False)
    with progress:
        task = progress.add_task("deals", total=len(pending), rate="–")

        def on_result(v: tuple[int, str, int, float], done: int, total: int) -> None:
            seen[0] += 1
            won[0] += v[1] == "won"
            progress.update(task, advance=1, rate=f"{won[0] / seen[0]:.1%}")

        try:
            with _terminate_as_interrupt():
                odds = run.run(workers=args.workers, scheduler=args.scheduler,
                               on_result=on_result)
        except (KeyboardInterrupt, BrokenProcessPool):
            # every verdict reached is stored (OddsRun.run); the same command resumes
            progress.stop()
            console.print(f"interrupted: {seen[0]} deal{'' if seen[0] == 1 else 's'} solved "
                          "and stored; the same command goes on with the rest")
            return 130
    console.print(str(odds))
    return 0


def run_export(args: argparse.Namespace, console: Console) -> int:
    return _archive(args, console, export=True)


def run_import(args: argparse.Namespace, console: Console) -> int:
    return _archive(args, console, export=False)


def _archive(args: argparse.Namespace, console: Console, *, export: bool) -> int:
    """``odds-export`` (database → verdict files) or ``odds-import`` (files → database)."""
    from patience.odds_archive import ArchiveError, export_verdicts, import_verdicts

    name = "odds-export" if export else "odds-import"
    if not export and not args.dir.is_dir():
        console.print(f"patience {name}: no directory {args.dir}")
        return 2
    try:
        if export:
            counts = export_verdicts(args.db, args.dir)
            said = f"wrote {sum(counts.values())} verdicts of {len(counts)} games to {args.dir}"
        else:
            said = f"added {import_verdicts(args.db, args.dir)} verdicts from {args.dir}"
    except ArchiveError as e:
        console.print(f"patience {name}: {e}")
        return 2
    console.print(said)
    return 0


def run_report(args: argparse.Namespace, console: Console) -> int:
    from patience.odds_report import write_report

    rows = write_report(args.db, args.markdown, args.plot, args.json,
                        keep_published=not args.fresh)
    carried = [f"{g} ({k})" for g, kinds in rows.items() for k, r in kinds.items()
               if r.get("carried")]
    if carried:
        console.print(f"carried over from the published figures (fewer deals in the "
                      f"database; --fresh drops them): {', '.join(carried)}")
    console.print(f"wrote {args.markdown}, {args.plot} and {args.json} ({len(rows)} games)")
    console.print(json.dumps(rows, indent=1)[:2000])
    return 0
