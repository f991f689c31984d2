"""The clock a solve's budget is read on.

Wall time by default: a player waiting on a hint waits in wall time.  A win-rate run reads
the CPU time of the solving thread instead (``on_cpu``), so that how much a deal is searched
does not depend on what else the machine is doing (``docs/odds.md``).  The choice holds for
the solve in the current thread or task (a context variable), and the compiled searches are
told it at each call.
"""

from __future__ import annotations

import contextvars
import time
from collections.abc import Iterator
from contextlib import contextmanager

_CPU: contextvars.ContextVar[bool] = contextvars.ContextVar("patience_cpu_clock", default=False)


def now() -> float:
    """Seconds on the current clock (only differences mean anything)."""
    return time.thread_time() if _CPU.get() else time.perf_counter()


def cpu() -> bool:
    """True when budgets are read on the thread's CPU time."""
    return _CPU.get()


@contextmanager
def on_cpu(flag: bool = True) -> Iterator[None]:
    """Read budgets on the thread's CPU time (``flag``) or on wall time, inside the block."""
    token = _CPU.set(flag)
    try:
        yield
    finally:
        _CPU.reset(token)
