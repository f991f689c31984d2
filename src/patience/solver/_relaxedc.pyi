"""The compiled relaxed search (_relaxedc.c; relaxed.py is its reference) and the compiled
exact search of Four Seasons and Czarina (checked against the engine)."""

from typing import Any

class ComponentTooLarge(Exception): ...

def keep_memory(nbytes: int, /) -> None: ...

class Relaxed:
    nodes: int
    size: int
    disabled: bool
    def __init__(self, *, n: int, suits: int, ntab: int, space_any: bool,
                 stock_to_space: bool, refill: bool, dead_end: bool,
                 stock: tuple[int, ...], base: int, max_component: int,
                 max_states: int, packets: bool = False,
                 vacancy: bool = False, drain: bool = False) -> None: ...
    def search(self, start: tuple[Any, ...], max_nodes: int,
               seconds: float, cpu: bool = False) -> tuple[str, list[Any]]: ...
    def contains(self, state: object) -> bool: ...
    def release(self) -> None: ...
    def bottom_drains(self, sl: int, waste: int, bottoms: int) -> bool: ...

class Exact:
    nodes: int
    size: int
    flushes: int
    kept: int
    component_flushes: int
    components_kept: int
    restarts: int
    finished: bool
    beam_width: int
    components: tuple[int, int]
    def __init__(self, relaxed: Relaxed, *, stock_length: int, waste: tuple[int, ...],
                 foundations: tuple[tuple[int, int], ...],
                 tableau: tuple[tuple[int, ...], ...], cuts: bool,
                 max_states: int, guided: bool = False,
                 components: bool = False, max_tableaux: int = 0,
                 restart_unit: int = 0, seed: int = 1, beam: int = 0,
                 beam_passes: int = 4, beam_growth: int = 2) -> None: ...
    def search(self, max_nodes: int, seconds: float,
               cpu: bool = False) -> tuple[str, list[tuple[int, int]]]: ...
    def release(self) -> None: ...
