"""docs/odds.md, its plot, and the figures the lobby shows, from the stored runs."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

from patience.fair import POLICY_VERSION, FairPolicy, label_version
from patience.games import UnknownGame, all_specs, get_spec
from patience.odds import (
    THOUGHTFUL,
    Odds,
    best_verdicts,
    budget_key,
    rules_version,
    run_order,
    wilson,
)
from patience.solver import SOLVER_VERSION, same_major

#: Why the fair player may win more often than a published figure says (per game).
WHY_HIGHER = {
    "four-seasons": "The published figure is a book's estimate of people playing; the fair "
                    "player never misses a legal move, looks ahead at every decision by "
                    "searching sampled stock orders to the end, and never gives up, which a "
                    "person at the table does not do — so it should win more often. It is "
                    "still far below the thoughtful rate, which bounds what any player can do.",
    "fours-up": "Pretty Good Solitaire's figure comes from people playing the inventor's "
                "program; the fair player looks ahead at every decision by searching sampled "
                "stock orders to the end, which people do not do at every move.",
}
#: Why the fair player may win less often than a published figure says (per game).
WHY_LOWER = {
    "four-seasons": "The fair player's search per decision is small (see its budget); with a "
                    "larger budget it wins more often.",
    "fours-up": "The fair player's search per decision is small (see its budget); a two-deck "
                "game with a 90-card stock needs a deeper look ahead than a few hundred "
                "positions per sampled order, so it wins less often than experienced players "
                "of the inventor's program.",
}


def collect(db_url: str | None) -> dict[str, dict[str, dict[str, Any]]]:
    """game → player kind ("thoughtful" / "fair") → figures.

    Thoughtful: every stored deal of the game with its best verdict (``best_verdicts``:
    runs with larger budgets re-solve the deals left unknown).  Fair: the largest run of
    one policy."""
    from sqlalchemy import select

    from patience.web.db import SolveRecord, default_db_url, make_engine, migrate

    engine = make_engine(db_url or default_db_url())
    migrate(engine)
    rows: dict[tuple[str, str], list[tuple[int, str, str, str]]] = defaultdict(list)
    versions = {s.id: rules_version(s) for s in all_specs()}
    with engine.connect() as conn:
        for r in conn.execute(select(SolveRecord.game, SolveRecord.player, SolveRecord.budget,
                                     SolveRecord.deal, SolveRecord.verdict,
                                     SolveRecord.rules_version, SolveRecord.solver_version)):
            game, player, budget, deal, verdict, rv, sv = r
            if versions.get(game) == rv:  # measured under these rules
                rows[(game, player)].append((deal, verdict, budget, sv))
    out: dict[str, dict[str, dict[str, Any]]] = defaultdict(dict)
    for (game, player), found in rows.items():
        kind = "thoughtful" if player == THOUGHTFUL else "fair"
        best = best_verdicts(found, thoughtful=kind == "thoughtful")
        if not best:
            continue
        verdicts = [v for v, _, _ in best.values()]
        # a deal once, whatever re-solved it; a run of the current solver version with a
        # smaller budget than an older version's comes after those (a newer solver
        # re-solves the deals they left unknown, whatever their budgets)
        top = max((run_order(b) for _, _, b, sv in found
                   if same_major(sv) and sv != SOLVER_VERSION), default=None)
        budgets: dict[tuple[bool, str], set[int]] = defaultdict(set)
        for deal, _verdict, budget, sv in found:
            if same_major(sv):
                late = sv == SOLVER_VERSION and top is not None and run_order(budget) < top
                budgets[(late, budget)].add(deal)
        steps: list[dict[str, Any]] = [
            {"budget": b, "first_deal": min(ds), "last_deal": max(ds), "deals": len(ds)}
            for (_, b), ds in sorted(budgets.items(),
                                     key=lambda kv: (kv[0][0], run_order(kv[0][1])))]
        odds = Odds(game, player, str(steps[-1]["budget"]) if steps else "?", len(best),
                    verdicts.count("won"), verdicts.count("lost"), verdicts.count("unknown"))
        if kind in out[game] and _rank(out[game][kind]) >= _rank({"player": player,
                                                                  "deals": odds.deals}):
            continue  # the current fair policy first, then the most deals
        lo, hi = odds.interval
        deals = sorted(best)
        out[game][kind] = {
            "rate": odds.rate, "low": lo, "high": hi, "deals": odds.deals, "won": odds.won,
            "lost": odds.lost, "unknown": odds.unknown, "player": player,
            "budget": " then ".join(st["budget"] for st in steps), "steps": steps,
            "first_deal": deals[0], "last_deal": deals[-1], "rules_version": versions[game],
        }
    return dict(out)


def _rank(row: dict[str, Any]) -> tuple[int, int]:
    """Which of two rows of one kind a game publishes: a fair player's of the later policy
    version (``patience.fair``: a new version plays differently), then the one over more
    deals."""
    return label_version(str(row.get("player", ""))) or 0, int(row.get("deals", 0))


def _command(game: str, row: dict[str, Any]) -> str:
    if row["player"] == THOUGHTFUL:
        cmds = []
        for st in row.get("steps") or [row]:
            # each run over the deals it solved: a later run with a larger budget re-solves
            # the unknown ones of an earlier one, and a run over new deals skips the settled
            span = (f"{st.get('first_deal', row['first_deal'])}-"
                    f"{st.get('last_deal', row['last_deal'])}")
            kind, size = budget_key(st["budget"])
            flag = {"n": f"--nodes {int(size)}", "cpu": f"--budget {size:g}"}.get(
                kind, f"--budget {size:g} --wall-clock")
            cmds.append(f"patience odds {game} --deals {span} {flag}")
        return "` then `".join(cmds)
    span = f"{row['first_deal']}-{row['last_deal']}"
    policy = FairPolicy.from_label(row["player"])
    if policy is None:
        raise ValueError(f"not a player label: {row['player']!r}")
    return (f"patience odds {game} --deals {span} --fair --samples {policy.samples} "
            f"--fair-nodes {policy.nodes}")


def _p(x: float) -> str:
    """A share as a percentage, with a second decimal below 1% (0.04%, not 0.0%)."""
    return f"{x:.2%}" if 0.00005 <= x < 0.01 else f"{x:.1%}"


def _pct(row: dict[str, Any] | None) -> str:
    if not row:
        return "not measured"
    return f"{_p(row['rate'])} ({_p(row['low'])}–{_p(row['high'])})"


def _deals(row: dict[str, Any] | None) -> str:
    if not row:
        return "—"
    return f"{row['deals']}{'†' if row.get('carried') else ''}"


def _half(row: dict[str, Any] | None) -> str:
    """Half the interval's width, in percentage points."""
    if not row:
        return "—"
    return f"{(row['high'] - row['low']) * 50:.1f} pp"


Figures = dict[str, dict[str, dict[str, Any]]]


def current(game: str, row: dict[str, Any], versions: dict[str, str] | None = None) -> bool:
    """True when a published row was measured under the game's current rules (rows written
    before the figures named their rules version are taken as current: the versions of the
    registered games have not changed since, ``odds.LATER_FIELDS``)."""
    if versions is None:
        try:
            versions = {game: rules_version(get_spec(game))}
        except UnknownGame:
            return False
    return game in versions and row.get("rules_version", versions[game]) == versions[game]


def carry_over(old: Figures, new: Figures) -> tuple[Figures, list[str]]:
    """``new`` with each row of the published figures ``old`` that ``new`` drops or
    measures on fewer deals kept as it was (marked ``carried``), and those rows as
    "game (player)"."""
    versions = {s.id: rules_version(s) for s in all_specs()}
    out = {game: dict(kinds) for game, kinds in new.items()}
    carried = []
    for game, kinds in old.items():
        for kind, row in kinds.items():
            if not current(game, row, versions):
                continue  # measured under other rules (or a game no longer registered)
            if _rank(new.get(game, {}).get(kind, {})) < _rank(row):
                out.setdefault(game, {})[kind] = {**row, "carried": True}
                carried.append(f"{game} ({kind})")
    return out, carried


def write_report(db_url: str | None, markdown: Path, plot: Path, json_path: Path, *,
                 keep_published: bool = True) -> Figures:
    """Write the table, the plot and the lobby's figures from the stored verdicts.  Where
    the database measures a game on fewer deals than the figures already at ``json_path``
    (its verdicts were not imported, or predate the verdict files), that row is carried
    over unchanged and marked, unless ``keep_published`` is false."""
    data = collect(db_url)
    if keep_published and json_path.is_file():
        data, _ = carry_over(json.loads(json_path.read_text(encoding="utf-8")), data)
    carried = any(row.get("carried") for kinds in data.values() for row in kinds.values())
    lines = [
        "# Win rates",
        "",
        "Measured by `patience odds` (see `src/patience/odds.py`) and written by "
        "`patience odds-report`. Each rate has a 95% Wilson interval in which deals left "
        "*unknown* count as losses for the low end and as wins for the high end.",
        "",
        "- **Thoughtful**: the solver, which knows the order of the stock, with the budget "
        "per deal shown; a deal counts as won only with a winning line that replays.",
        "- **Fair**: the fair player of `src/patience/fair.py`, which sees only what a person "
        "sees (face-up cards; the stock as an unknown set) and at each decision samples "
        "stock orders, looks for wins in each with a small search, and plays the move that "
        "wins most often. Its budget is *samples × positions* per decision "
        f"(`fair-v{POLICY_VERSION}:3x300`: three sampled orders, 300 positions searched in "
        "each). After a redeal the stock holds only cards that lay face up, in an order "
        "the rules fix, so the fair player knows it, as a person who watched does, and "
        "searches the position itself (policy version 2; version 1 sampled it, and in the "
        "games of one pass the two are the same player). In Fours Up, where which pile "
        "holds a tableau card does not matter, it chooses among the moves that change "
        "which cards are home, in the waste and in the stock, and moves tableau cards only "
        "to carry one out (version 3; version 2 chose among every legal move and could go "
        "round the tableau to its limit of 2,000 moves; in the other games the two are the "
        "same player).",
        "- **±** is half the interval's width; **budget** lists the solver's time per deal, "
        "one entry per run, each over the deals of its command below: a run with a larger "
        "budget, or with a newer solver version (`patience.solver.SOLVER_VERSION`), solves "
        "again only the deals left unknown, and a run over more deals skips those already "
        "settled. "
        "`2cpu` is 2 seconds of the solving thread's CPU time (what `--budget 2` gives), "
        "so a deal gets the same search however busy the machine is; `2s` is 2 seconds of "
        "wall time (`--wall-clock`).",
        "- Every verdict behind this page"
        + (" (but the rows marked †)" if carried else "")
        + " is kept in `src/patience/data/verdicts/` (one file a game, "
        "`src/patience/odds_archive.py`): `patience odds-import` loads them into a "
        "database, where `patience odds` goes on from them and `patience odds-report` "
        "recomputes this page; `patience odds-export` writes them back.",
        "",
        "| game | thoughtful (95% interval) | ± | deals | unknown | budget "
        "| fair (95% interval) | ± | deals | policy | published | source |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    commands = []
    for spec in all_specs():
        rows = data.get(spec.id, {})
        t, f = rows.get("thoughtful"), rows.get("fair")
        lines.append(
            f"| {spec.name} | {_pct(t)} | {_half(t)} | {_deals(t)} | "
            f"{t['unknown'] if t else '—'} | {t['budget'] if t else '—'} | {_pct(f)} | "
            f"{_half(f)} | {_deals(f)} | {f['player'] if f else '—'} | "
            f"{spec.odds or '—'} | {spec.odds_source or '—'} |")
        for kind, row in (("thoughtful", t), ("fair", f)):
            if row:
                commands.append(f"{spec.name}, {kind}: `{_command(spec.id, row)}`")
    if carried:
        lines += ["", "† Carried over from the previous report: that run's verdicts predate "
                  "`src/patience/data/verdicts/` and were not kept, and the verdicts kept "
                  "cover fewer deals; the command under *Reproduce* measures the row again."]
    compare = []
    for spec in all_specs():
        f = data.get(spec.id, {}).get("fair")
        if f and spec.odds_value is not None:
            diff = (f["rate"] - spec.odds_value) * 100
            inside = f["low"] <= spec.odds_value <= f["high"]
            compare.append(
                f"- {spec.name}: fair {f['rate']:.1%} against the published {spec.odds} "
                f"({spec.odds_source}): {diff:+.1f} percentage points; the published figure is "
                f"{'inside' if inside else 'outside'} the fair interval. "
                + (WHY_HIGHER if diff > 0 else WHY_LOWER).get(spec.id, ""))
    if compare:
        lines += ["", "## Fair rates against the published odds", "", *compare]
    lines += ["", "## Reproduce", "", *[f"- {c}" for c in commands], "",
              f"![Win rates per game]({plot.name})", ""]
    markdown.parent.mkdir(parents=True, exist_ok=True)
    markdown.write_text("\n".join(lines), encoding="utf-8")
    json_path.parent.mkdir(parents=True, exist_ok=True)
    json_path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    _plot(data, plot)
    return data


def _plot(data: dict[str, dict[str, dict[str, Any]]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    specs = all_specs()
    fig, ax = plt.subplots(figsize=(9, 4.5), dpi=110)
    xs = range(len(specs))
    for offset, kind, colour in ((-0.18, "thoughtful", "#2f6f4f"), (0.18, "fair", "#c0603a")):
        for x, spec in zip(xs, specs, strict=True):
            row = data.get(spec.id, {}).get(kind)
            if not row:
                continue
            ax.bar(x + offset, row["rate"] * 100, width=0.34, color=colour,
                   label=kind if x == next(i for i, s in enumerate(specs)
                                           if data.get(s.id, {}).get(kind)) else None)
            ax.errorbar(x + offset, row["rate"] * 100,
                        yerr=[[max(0.0, (row["rate"] - row["low"]) * 100)],
                              [max(0.0, (row["high"] - row["rate"]) * 100)]],
                        fmt="none", ecolor="black", capsize=3, linewidth=1)
    for x, spec in zip(xs, specs, strict=True):
        if spec.odds_value is not None:
            ax.plot([x - 0.4, x + 0.4], [spec.odds_value * 100] * 2, color="#3050c0",
                    linestyle="--", linewidth=1.5,
                    label="published" if spec.id == next(
                        s.id for s in specs if s.odds_value is not None) else None)
    ax.set_xticks(list(xs), [s.name for s in specs], rotation=20, ha="right")
    ax.set_ylabel("deals won (%)")
    ax.set_ylim(0, 100)
    ax.set_title("Win rates with 95% intervals")
    ax.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)


def measured(game_id: str) -> dict[str, dict[str, Any]]:
    """The published measurements of a game (``patience/data/odds.json``, written by
    ``patience odds-report``): player kind → rate, low, high, deals, unknown, budget."""
    from importlib.resources import files

    data = json.loads(files("patience").joinpath("data/odds.json").read_text(encoding="utf-8"))
    out: dict[str, dict[str, Any]] = data.get(game_id, {})
    return out


def no_winnable_deals(game_id: str) -> str | None:
    """Why "winnable deals only" cannot be offered for a game, or None: when the published
    measurement decided at least 1,000 deals, every one proven lost; or when the solver won
    none of at least 100 deals, leaving some undecided, so that no winnable deal is known
    (a search on demand, with a fraction of that budget, would only keep the player
    waiting)."""
    try:
        row = measured(game_id).get("thoughtful")
    except (OSError, ValueError):
        return None
    if not row or not current(game_id, row) or row.get("won") != 0:
        return None
    deals, unknown = int(row.get("deals", 0)), int(row.get("unknown", 0))
    if not unknown and deals >= 1000:
        return (f"none of the {deals:,} deals measured can be won: the solver proves every "
                f"one lost (docs/odds.md)")
    if unknown and deals >= 100:
        return (f"no winnable deal is known: the solver won none of the {deals:,} deals "
                f"measured ({unknown:,} of them undecided, docs/odds.md)")
    return None


__all__ = ["carry_over", "collect", "current", "measured", "no_winnable_deals", "wilson",
           "write_report"]
