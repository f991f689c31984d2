"""What runs in a solver worker process (imports only the game and the solver).

Started as ``python -m patience.web.solver_worker``: the server writes ``[task, args]``
as a JSON line and reads back ``["ok", result]`` or ``["error", message]``; closing
stdin stops the worker.  Games travel as their dict (game, deal, moves) and are
rebuilt here by replay.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import Callable
from typing import Any

from patience.deals import check_deal_number
from patience.game import Game


def task_solve(data: dict[str, Any], seconds: float) -> dict[str, Any]:
    from patience.solver import solve

    result = solve(Game.from_dict(data), max_seconds=seconds)
    return {"status": result.status, "moves": list(result.moves), "nodes": result.nodes}


def task_hint(data: dict[str, Any], seconds: float) -> dict[str, Any]:
    from patience.solver import hint

    h = hint(Game.from_dict(data), max_seconds=seconds)
    line = list(h.result.moves) if h.status == "won" else []
    return {"status": h.status, "move": h.move, "line": line}


def task_winnable_deal(game: str, start: int, per_deal: float, total: float,
                       max_deal: int) -> int | None:
    """The first deal from ``start`` on that the solver proves winnable within ``total`` s."""
    import time

    from patience.solver import winnable_deal

    deadline = time.monotonic() + total
    deal = check_deal_number(start)
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        try:
            return winnable_deal(game, start=deal, max_seconds=min(per_deal, left), limit=1)
        except ValueError:  # not proven winnable within the budget
            deal = deal + 1 if deal < max_deal else 1


TASKS: dict[str, Callable[..., Any]] = {
    "solve": task_solve,
    "hint": task_hint,
    "winnable_deal": task_winnable_deal,
}


def worker_main(niceness: int = 10) -> None:
    """The worker's loop: one JSON request per line on stdin, one JSON answer per line
    on the original stdout (anything printed goes to stderr), until stdin closes."""
    if niceness and hasattr(os, "nice"):
        with contextlib.suppress(OSError):
            os.nice(niceness)  # moves (in the server process) come first
    from patience.solver import BATCH_MEGABYTES, keep_memory

    keep_memory(BATCH_MEGABYTES)  # one solve after another: the next reuses the tables
    out = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8")
    sys.stdout = sys.stderr
    for line in sys.stdin:
        try:
            name, args = json.loads(line)
            answer: list[Any] = ["ok", TASKS[name](*args)]
        except Exception as e:
            answer = ["error", f"{type(e).__name__}: {e}"]
        out.write(json.dumps(answer) + "\n")
        out.flush()


if __name__ == "__main__":
    worker_main(int(sys.argv[1]) if len(sys.argv) > 1 else 10)
