"""The ``patience serve`` and ``patience feedback`` commands.

Importing this module registers both with :mod:`patience.cli`; the web
dependencies (FastAPI, uvicorn, SQLAlchemy) are imported only when one of them
runs, so the rest of the command line works without them.

    patience serve [--host 127.0.0.1] [--port 8000] [--db URL]
    patience feedback [--db URL] [--limit 50] [--json]

``python -m patience.web …`` runs the same command line with these two
commands registered.
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import UTC, datetime

from rich.console import Console
from rich.table import Table

from patience.cli import Subparsers, command


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a port is a whole number, not {text!r}") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"port {port} is out of range 0..65535")
    return port


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 0 < value <= 600:
        raise argparse.ArgumentTypeError("give between 0 and 600 seconds")
    return value


def _add_db_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument("--db", metavar="URL",
                   help="SQLAlchemy database URL (default: $PATIENCE_DB, else the SQLite "
                        "file ./data/patience.db)")


# ---------------------------------------------------------------------- serve
def _serve(args: argparse.Namespace, console: Console) -> int:
    import gc

    import uvicorn

    from patience.web.app import create_app
    from patience.web.db import default_db_url

    url = args.db or default_db_url()
    app = create_app(url, solver_seconds=args.solver_seconds,
                     solver_workers=args.solver_workers)
    host = f"[{args.host}]" if ":" in args.host else args.host
    print(f"patience: serving on http://{host}:{args.port}/ (API: /api, schema: "
          f"/api/openapi.json); database {_safe_url(url)}", file=sys.stderr, flush=True)
    gc.collect()
    gc.freeze()  # what is loaded by now stays: later collections need not walk it
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level,
                access_log=args.access_log, timeout_graceful_shutdown=5)
    return 0


def _safe_url(url: str) -> str:
    """The URL with any password hidden."""
    try:
        from sqlalchemy.engine import make_url

        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return "(unparsable URL)"


@command
def add_serve_command(subparsers: Subparsers) -> None:
    p = subparsers.add_parser(
        "serve", help="run the web server (game API for the browser table)",
        description="Run the web server: the game API under /api, with anonymous players "
                    "and a database (an SQLite file under ./data/ unless --db or "
                    "PATIENCE_DB names another).")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    p.add_argument("--port", type=_port, default=8000, help="port to listen on (8000)")
    _add_db_argument(p)
    p.add_argument("--solver-seconds", type=_seconds, default=2.0, metavar="S",
                   help="solver time per hint, winnable check or auto-finish (2)")
    p.add_argument("--solver-workers", type=int, choices=range(1, 9), default=1, metavar="N",
                   help="solver processes (1)")
    p.add_argument("--log-level", default="info",
                   choices=["critical", "error", "warning", "info", "debug"])
    p.add_argument("--access-log", action="store_true", help="log every request")
    p.set_defaults(handler=_serve)


# ------------------------------------------------------------------- feedback
def _feedback(args: argparse.Namespace, console: Console) -> int:
    from patience.web.db import default_db_url, make_engine, migrate
    from patience.web.store import GameStore

    engine = make_engine(args.db or default_db_url())
    try:
        migrate(engine)
        items = GameStore(engine).feedback(args.limit)
    finally:
        engine.dispose()
    if args.json:
        out = [{"id": f.id, "received": f.created_at, "player": f.player_id,
                "message": f.message, "game_id": f.game_id, "game": f.game, "deal": f.deal,
                "moves": json.loads(f.moves) if f.moves else None,
                "user_agent": f.user_agent} for f in items]
        console.out(json.dumps(out, indent=2, ensure_ascii=False), highlight=False)
        return 0
    if not items:
        console.print("No feedback yet.")
        return 0
    table = Table(title=f"Feedback (newest first, {len(items)} shown)", title_justify="left",
                  show_lines=True)
    table.add_column("#", justify="right")
    table.add_column("received (UTC)", no_wrap=True)
    table.add_column("position")
    table.add_column("message")
    for f in items:
        when = datetime.fromtimestamp(f.created_at, UTC).strftime("%Y-%m-%d %H:%M")
        if f.game is None:
            where = "—"
        else:
            moves = json.loads(f.moves) if f.moves else []
            where = f"{f.game}"
            if f.deal is not None:
                where += f" --deal {f.deal}"
            if moves:
                where += f"\nafter {len(moves)} moves: {' '.join(moves)}"
        table.add_row(str(f.id), when, where, f.message)
    console.print(table)
    return 0


@command
def add_feedback_command(subparsers: Subparsers) -> None:
    p = subparsers.add_parser(
        "feedback", help="list the messages players sent from the web tables",
        description="List the feedback players sent, newest first, with the game, deal "
                    "number and moves of the position it was sent from (replay it with "
                    "`patience play GAME --deal N` and the moves).")
    _add_db_argument(p)
    p.add_argument("--limit", type=int, default=50, metavar="N", help="how many (50)")
    p.add_argument("--json", action="store_true", help="print JSON, with every field")
    p.set_defaults(handler=_feedback)


def main(argv: list[str] | None = None) -> int:
    """The ``patience`` command line with ``serve`` and ``feedback`` registered."""
    from patience.cli import main as cli_main

    return cli_main(argv)
