"""Write ``deals.json``: the full opening layout of deals 1, 2 and 1000 of every game.

Run once (``python tests/golden/make_golden.py``) and commit the result;
``tests/test_cards_deals.py`` compares the engine against the committed file, so that
any change to the shuffle, the deck order or a game's deal is caught. Regenerate only
for a deliberate, announced change of deal numbering.
"""

from __future__ import annotations

import json
from pathlib import Path

GOLDEN = Path(__file__).with_name("deals.json")
DEALS = (1, 2, 1000)


def layouts() -> dict[str, dict[str, dict[str, object]]]:
    """Game id → deal number (as text) → its base rank and every pile, bottom to top."""
    import patience

    out: dict[str, dict[str, dict[str, object]]] = {}
    for info in patience.games():
        out[info.id] = {}
        for deal in DEALS:
            g = patience.new_game(info.id, deal=deal)
            out[info.id][str(deal)] = {"base": g.base_rank, "piles": g.piles}
    return out


def dump(data: dict[str, dict[str, dict[str, object]]]) -> str:
    """JSON with one pile per line, so that a diff shows which pile of which deal moved."""
    lines = ["{"]
    for i, (game, deals) in enumerate(data.items()):
        lines.append(f"  {json.dumps(game)}: {{")
        for j, (deal, layout) in enumerate(deals.items()):
            lines.append(f"    {json.dumps(deal)}: {{")
            lines.append(f'      "base": {json.dumps(layout["base"])},')
            lines.append('      "piles": {')
            piles = layout["piles"]
            assert isinstance(piles, dict)
            for k, (pid, cards) in enumerate(piles.items()):
                comma = "," if k < len(piles) - 1 else ""
                lines.append(f"        {json.dumps(pid)}: {json.dumps(cards)}{comma}")
            lines.append("      }")
            lines.append("    }" + ("," if j < len(deals) - 1 else ""))
        lines.append("  }" + ("," if i < len(data) - 1 else ""))
    lines.append("}")
    return "\n".join(lines) + "\n"


def main() -> None:
    data = layouts()
    text = dump(data)
    assert json.loads(text) == data
    GOLDEN.write_text(text, encoding="utf-8")
    print(f"wrote {GOLDEN}")


if __name__ == "__main__":
    main()
