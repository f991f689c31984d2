"""Perft counts of every game: the number of distinct move sequences of length 1 … 4.

Standard perft: the leaves of the legal-move tree, counted depth by depth; ``deal`` is a
move like any other, and automatic moves (refills, redeal rows) belong to the move that
forced them. One JSON file per game, ``<game-id>.json``:

    {"game": "four-seasons", "depths": [1, 2, 3, 4],
     "deals": {"1": [3, 15, 80, 401], ...}}

Run ``python tests/perft/make_perft.py`` once and commit the files; ``tests/test_perft.py``
recomputes the counts and compares, so any change to move generation shows there. Works on
:class:`~patience.rules.State` values with ``Rules.legal_moves`` / ``Rules.apply`` only.

>>> from patience.game import rules_for
>>> from patience.games import get_spec
>>> rules = rules_for(get_spec("four-seasons"))
>>> perft(rules, rules.initial_state(1), 2)
15
"""

from __future__ import annotations

import json
from pathlib import Path

from patience.rules import Rules, State

HERE = Path(__file__).parent
DEALS = (1, 2, 3)
DEPTH = 4


def perft(rules: Rules, state: State, depth: int) -> int:
    """Leaves of the legal-move tree of ``depth`` plies below ``state``."""
    moves = rules.legal_moves(state)
    if depth <= 1:
        return len(moves) if depth == 1 else 1
    return sum(perft(rules, rules.apply(state, m), depth - 1) for m in moves)


def counts(rules: Rules, deal: int, depth: int = DEPTH) -> list[int]:
    """``[perft(1), …, perft(depth)]`` from the opening of deal ``deal``."""
    start = rules.initial_state(deal)
    return [perft(rules, start, d) for d in range(1, depth + 1)]


def path(game_id: str) -> Path:
    return HERE / f"{game_id}.json"


def main() -> None:
    import patience
    from patience.game import rules_for

    for info in patience.games():
        rules = rules_for(patience.get_spec(info.id))
        depths = list(range(1, DEPTH + 1))
        deals = {str(d): counts(rules, d) for d in DEALS}
        body = ",\n".join(f'    "{d}": {json.dumps(c)}' for d, c in deals.items())
        text = (f'{{\n  "game": {json.dumps(info.id)},\n  "depths": {json.dumps(depths)},'
                f'\n  "deals": {{\n{body}\n  }}\n}}\n')
        assert json.loads(text) == {"game": info.id, "depths": depths, "deals": deals}
        path(info.id).write_text(text, encoding="utf-8")
        print(info.id, deals)


if __name__ == "__main__":
    main()
