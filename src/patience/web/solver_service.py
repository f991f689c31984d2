"""The solver behind the API: hints, "can this still be won?", auto-finish, winnable deals.

Solving is CPU-bound and may take long, so it never runs in the server process:
a small pool of worker processes (started on first use, at a lower CPU
priority) does it, one request per worker at a time.  Each request gets the
solver's own time budget (``seconds``) and a hard deadline of ``seconds +
grace``: a worker past it is killed and replaced, so no request can hold a CPU
for longer.  The event loop only awaits: moves are served while a hint runs.

Requests wait at most ``queue_seconds`` for a free worker (then 503, "busy"),
and a player may have one solver request running at a time (else 429).

Winning lines are remembered per game: a player who follows a hint gets the
next one (and auto-finish) without solving again.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import queue
import select
import subprocess
import sys
import threading
from collections import OrderedDict
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from patience.web.store import TooMany, Unavailable


class SolverTimeout(Unavailable):
    pass


class _Worker:
    """One worker process (``python -m patience.web.solver_worker``) and its pipes."""

    def __init__(self, command: list[str], niceness: int) -> None:
        self.process = subprocess.Popen(
            [*command, str(niceness)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, encoding="utf-8",
            bufsize=1)

    def call(self, message: tuple[str, tuple[Any, ...]], timeout: float) -> Any:
        stdin, stdout = self.process.stdin, self.process.stdout
        assert stdin is not None and stdout is not None
        stdin.write(json.dumps(message) + "\n")
        stdin.flush()
        ready, _, _ = select.select([stdout], [], [], timeout)
        if not ready:
            raise SolverTimeout("the solver took too long and was stopped; try again")
        line = stdout.readline()
        if not line:
            raise EOFError("the solver process ended")
        kind, value = json.loads(line)
        if kind != "ok":
            raise Unavailable(f"the solver failed: {value}")
        return value

    def stop(self, wait: float = 2.0) -> None:
        with contextlib.suppress(OSError, ValueError):
            if self.process.stdin is not None:
                self.process.stdin.close()
        try:
            self.process.wait(wait)
        except subprocess.TimeoutExpired:
            self.kill()
        self._close_pipes()

    def kill(self) -> None:
        with contextlib.suppress(OSError):
            self.process.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(5)
        self._close_pipes()

    def _close_pipes(self) -> None:
        for f in (self.process.stdin, self.process.stdout):
            with contextlib.suppress(OSError, ValueError):
                if f is not None:
                    f.close()


class SolverPool:
    """``workers`` solver processes; :meth:`run` sends a task to a free one.

    The waiting and the talking to a worker happen in a thread of the pool's
    own executor, so the event loop only awaits (and any loop may call it).
    """

    def __init__(self, workers: int = 1, *, seconds: float = 2.0, grace: float = 3.0,
                 queue_seconds: float = 15.0, niceness: int = 10) -> None:
        self.size = max(1, workers)
        self.seconds = seconds
        self.grace = grace
        self.queue_seconds = queue_seconds
        self.niceness = niceness
        #: How a worker process is started (the niceness is added as its last argument).
        self.worker_command = [sys.executable, "-m", "patience.web.solver_worker"]
        self._idle: queue.Queue[_Worker] = queue.Queue()
        self._all: list[_Worker] = []
        self._threads = ThreadPoolExecutor(32, thread_name_prefix="solver")
        self._lock = threading.Lock()
        self._players: set[str] = set()
        self._started = False
        self._closed = False

    def start(self) -> None:
        """Start the workers (done by the first request otherwise)."""
        with self._lock:
            if self._closed:
                raise Unavailable("the server is shutting down")
            if not self._started:
                self._all = [_Worker(self.worker_command, self.niceness)
                             for _ in range(self.size)]
                for w in self._all:
                    self._idle.put(w)
                self._started = True

    @contextlib.contextmanager
    def player_slot(self, player_id: str) -> Iterator[None]:
        """One solver request at a time per player."""
        with self._lock:
            if player_id in self._players:
                raise TooMany("a solver request of yours is still running: wait for its answer")
            self._players.add(player_id)
        try:
            yield
        finally:
            with self._lock:
                self._players.discard(player_id)

    async def run(self, task: str, *args: Any, budget: float | None = None) -> Any:
        """Run ``task`` in a worker; ``budget`` (default ``seconds``) sets the hard deadline."""
        timeout = (self.seconds if budget is None else budget) + self.grace
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._threads, self.call, task, args, timeout)
        except RuntimeError as e:  # the executor is shut down
            raise Unavailable(f"the solver is not available: {e}") from None

    def call(self, task: str, args: tuple[Any, ...], timeout: float) -> Any:
        """Blocking: wait for a free worker, run the task, give the worker back (replaced
        if it overran its deadline or died).  Runs to the end even if the request that
        asked is cancelled."""
        self.start()
        try:
            worker = self._idle.get(timeout=self.queue_seconds)
        except queue.Empty:
            raise Unavailable("the solver is busy: try again in a moment",
                              {"Retry-After": "5"}) from None
        try:
            return worker.call((task, args), timeout)
        except SolverTimeout:
            worker = self._replace(worker)
            raise
        except (EOFError, OSError, ValueError) as e:
            worker = self._replace(worker)
            raise Unavailable(f"the solver stopped unexpectedly ({e}); try again") from None
        finally:
            self._idle.put(worker)

    def _replace(self, worker: _Worker) -> _Worker:
        worker.kill()
        fresh = _Worker(self.worker_command, self.niceness)
        with self._lock:
            self._all = [fresh if w is worker else w for w in self._all]
        return fresh

    def close(self) -> None:
        with self._lock:
            self._closed = True
            workers, self._all = self._all, []
        for w in workers:
            w.stop()
        self._threads.shutdown(wait=False, cancel_futures=True)


class LineCache:
    """Winning lines found per game: (moves when solved, line), newest games kept."""

    def __init__(self, size: int = 2000) -> None:
        self._lines: OrderedDict[str, tuple[tuple[str, ...], tuple[str, ...]]] = OrderedDict()
        self._size = size
        self._lock = threading.Lock()

    def put(self, game_id: str, moves: list[str], line: list[str]) -> None:
        with self._lock:
            self._lines[game_id] = (tuple(moves), tuple(line))
            self._lines.move_to_end(game_id)
            while len(self._lines) > self._size:
                self._lines.popitem(last=False)

    def rest(self, game_id: str, moves: list[str]) -> list[str] | None:
        """The rest of a known winning line from ``moves``, when they follow it."""
        with self._lock:
            entry = self._lines.get(game_id)
        if entry is None:
            return None
        start, line = entry
        n = len(start)
        if len(moves) < n or tuple(moves[:n]) != start:
            return None
        done = tuple(moves[n:])
        if line[:len(done)] != done or len(done) >= len(line):
            return None
        return list(line[len(done):])
