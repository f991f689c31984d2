"""The search over Fours Up's images, compiled (_multisetc.c; multiset.py and
search._MultisetRun are its reference)."""

def keep_memory(nbytes: int, /) -> None: ...

class Search:
    nodes: int
    size: int
    full: bool
    line: list[bytes] | None
    best: list[bytes]
    best_home: int
    restarts: int
    cuts: int
    def __init__(self, *, d: bytes, waste: int, total: bytes, slot_suits: bytes,
                 heights: bytes, ranks: int, piles: int, playback: bool,
                 max_states: int, restart_unit: int = 0, seed: int = 1,
                 drain: bool = False) -> None: ...
    def search(self, max_nodes: int, seconds: float, cpu: bool = False,
               until: float = -1.0) -> str: ...
    def release(self) -> None: ...
