"""The verdicts of the win-rate runs as text files, kept with the project.

A win-rate run stores each deal's verdict in the database (``patience odds``); the database
is a local file, and the published figures (``docs/odds.md``) must outlive it.  These files
keep every stored verdict, one file a game (``src/patience/data/verdicts/GAME.txt``, shipped
with the package), one line a run::

    # game player rules_version solver_version budget first_deal verdicts
    four-seasons thoughtful 3b1f0c9a7d21 1.6 2cpu 1 WWLU.W…

where the verdicts are one letter a deal from ``first_deal`` on: ``W`` won, ``L`` lost,
``U`` unknown, ``.`` not in this run.  The positions searched and the seconds spent are not
kept (they describe a machine, not the deal); imported rows have them at zero.

``patience odds-export`` writes the files from a database, ``patience odds-import`` loads
them into one (rows already there are kept), so a run goes on from the published verdicts:
``odds-import``, then ``odds`` (which solves only what is missing), then ``odds-export``
and ``odds-report``.

The play reads them too (:func:`settled`): a deal proven won is offered at once for
"winnable deals only", and :func:`patience.solver.winnable_deal` skips the deals proven lost
without solving them again.
"""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from patience.rules.spec import GameSpec

#: where ``patience odds-export`` writes and ``odds-import`` reads, from a checkout
DEFAULT_DIR = Path("src/patience/data/verdicts")
HEADER = ("# patience win-rate verdicts, one line a run (src/patience/odds_archive.py):\n"
          "# game player rules_version solver_version budget first_deal verdicts\n"
          "# verdicts: one letter a deal from first_deal on; W won, L lost, U unknown, "
          ". not in the run\n")
LETTER = {"won": "W", "lost": "L", "unknown": "U"}
VERDICT = {v: k for k, v in LETTER.items()}

RunKey = tuple[str, str, str, str, str]  # game, player, rules version, solver version, budget


class ArchiveError(ValueError):
    """A verdict file that cannot be read (its path and line are in the message)."""


@dataclass(frozen=True)
class Row:
    """One stored verdict."""

    game: str
    player: str
    rules_version: str
    solver_version: str
    budget: str
    deal: int
    verdict: str


def format_runs(rows: Iterable[Row]) -> dict[str, str]:
    """game → the text of its file."""
    runs: dict[RunKey, dict[int, str]] = defaultdict(dict)
    for r in rows:
        runs[(r.game, r.player, r.rules_version, r.solver_version, r.budget)][r.deal] = \
            LETTER[r.verdict]
    files: dict[str, list[str]] = defaultdict(list)
    for key in sorted(runs):
        deals = runs[key]
        first, last = min(deals), max(deals)
        letters = "".join(deals.get(d, ".") for d in range(first, last + 1))
        files[key[0]].append(" ".join((*key, str(first), letters)))
    return {game: HEADER + "\n".join(lines) + "\n" for game, lines in files.items()}


def parse_runs(text: str, where: str = "<text>") -> Iterator[Row]:
    """The rows of one file's text."""
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split()
        if len(parts) != 7:
            raise ArchiveError(f"{where}:{n}: expected 7 fields, found {len(parts)}")
        game, player, rv, sv, budget, first, letters = parts
        try:
            start = int(first)
        except ValueError:
            raise ArchiveError(f"{where}:{n}: first deal {first!r} is not a number") from None
        if start < 1:
            raise ArchiveError(f"{where}:{n}: deals are numbered from 1")
        for i, letter in enumerate(letters):
            if letter == ".":
                continue
            if letter not in VERDICT:
                raise ArchiveError(f"{where}:{n}: unknown verdict letter {letter!r} "
                                   f"(deal {start + i})")
            yield Row(game, player, rv, sv, budget, start + i, VERDICT[letter])


RowKey = tuple[str, str, str, str, str, int]  # a run's key and the deal


def _key(r: Row) -> RowKey:
    return r.game, r.player, r.rules_version, r.solver_version, r.budget, r.deal


def _merge(rows: Iterable[Row], into: dict[RowKey, Row]) -> dict[RowKey, Row]:
    """``into`` with ``rows`` added; of two verdicts on one key, the stronger
    (``odds.VERDICT_RANK``)."""
    from patience.odds import VERDICT_RANK

    for r in rows:
        old = into.get(_key(r))
        if old is None or VERDICT_RANK[r.verdict] > VERDICT_RANK[old.verdict]:
            into[_key(r)] = r
    return into


def read_dir(directory: Path) -> list[Row]:
    """Every row of the verdict files of ``directory`` (:class:`ArchiveError` on a
    malformed one)."""
    return [row for path in sorted(directory.glob("*.txt"))
            for row in parse_runs(path.read_text(), str(path))]


def export_verdicts(db_url: str | None, directory: Path = DEFAULT_DIR) -> dict[str, int]:
    """Write every stored verdict to ``directory`` (one file a game), adding to what the
    files hold already (nothing in them is dropped); game → rows written.  A malformed
    file raises :class:`ArchiveError` before anything is written."""
    from sqlalchemy import select

    from patience.web.db import SolveRecord, default_db_url, make_engine, migrate

    kept = _merge(read_dir(directory), {}) if directory.is_dir() else {}
    engine = make_engine(db_url or default_db_url())
    migrate(engine)
    with engine.connect() as conn:
        rows = [Row(*r) for r in conn.execute(
            select(SolveRecord.game, SolveRecord.player, SolveRecord.rules_version,
                   SolveRecord.solver_version, SolveRecord.budget, SolveRecord.deal,
                   SolveRecord.verdict))]
    merged = _merge(rows, kept)
    directory.mkdir(parents=True, exist_ok=True)
    counts: dict[str, int] = defaultdict(int)
    for r in merged.values():
        counts[r.game] += 1
    for game, text in format_runs(merged.values()).items():
        path = directory / f"{game}.txt"
        tmp = path.with_suffix(".tmp")
        tmp.write_text(text)
        tmp.replace(path)  # a crash leaves the old file whole
    return dict(counts)


def import_verdicts(db_url: str | None, directory: Path = DEFAULT_DIR) -> int:
    """Load every file of ``directory`` into the database; returns how many rows were added
    or made stronger (a stored unknown that a file decides takes the file's verdict; other
    stored rows are kept).  A malformed file raises :class:`ArchiveError` before anything
    is written; a run storing the same rows meanwhile makes it raise ``ArchiveError`` too,
    having written nothing."""
    from sqlalchemy import select
    from sqlalchemy.exc import IntegrityError
    from sqlalchemy.orm import Session

    from patience.odds import VERDICT_RANK
    from patience.web.db import SolveRecord, default_db_url, make_engine, migrate

    rows = _merge(read_dir(directory), {})
    engine = make_engine(db_url or default_db_url())
    migrate(engine)
    with engine.connect() as conn:
        have = {(g, p, rv, sv, b, d): v for g, p, rv, sv, b, d, v in conn.execute(
            select(SolveRecord.game, SolveRecord.player, SolveRecord.rules_version,
                   SolveRecord.solver_version, SolveRecord.budget, SolveRecord.deal,
                   SolveRecord.verdict))}
    new = [r for k, r in rows.items() if k not in have]
    stronger = [r for k, r in rows.items()
                if k in have and VERDICT_RANK[r.verdict] > VERDICT_RANK[have[k]]]
    try:
        with Session(engine) as s:
            s.add_all(SolveRecord(game=r.game, deal=r.deal, rules_version=r.rules_version,
                                  solver_version=r.solver_version, player=r.player,
                                  budget=r.budget, verdict=r.verdict, nodes=0, seconds=0.0,
                                  created_at=0.0) for r in new)
            for r in stronger:
                rec = s.get(SolveRecord, (r.game, r.deal, r.rules_version, r.solver_version,
                                          r.player, r.budget))
                if rec is not None:
                    rec.verdict = r.verdict
            s.commit()
    except IntegrityError:
        raise ArchiveError("a run stored some of these verdicts meanwhile; nothing was "
                           "imported: run odds-import again") from None
    return len(new) + len(stronger)


@functools.cache
def settled(game: str | GameSpec) -> dict[int, str]:
    """Deal → "won" or "lost" for the deals of a game that the shipped verdicts settle
    (:func:`settled_by`; none for a declaration of the tests' own, e.g. a reduced game)."""
    from patience.games import get_spec

    spec = get_spec(game)
    path = resources.files("patience").joinpath("data", "verdicts", f"{spec.id}.txt")
    return settled_by(spec, path.read_text(), str(path)) if path.is_file() else {}


def settled_by(game: str | GameSpec, text: str, where: str = "<text>") -> dict[int, str]:
    """Deal → "won" or "lost" for the deals of a game that a verdict file's ``text``
    settles under the game's current rules: won by any run (a win's line was replayed
    through the engine before it was stored, and the fair player's wins are real games), or
    proven lost by the solver of the current major version (the fair player losing proves
    nothing)."""
    from patience.games import get_spec
    from patience.odds import THOUGHTFUL, rules_version
    from patience.solver import same_major

    spec = get_spec(game)
    version = rules_version(spec)
    out: dict[int, str] = {}
    for r in parse_runs(text, where):
        if r.rules_version != version or r.game != spec.id:
            continue
        if r.verdict == "won":
            out[r.deal] = "won"
        elif r.verdict == "lost" and r.player == THOUGHTFUL and same_major(r.solver_version):
            out.setdefault(r.deal, "lost")
    return out


def won_deals(game: str | GameSpec) -> list[int]:
    """The deals of a game that the shipped verdicts prove winnable, in order."""
    return sorted(d for d, v in settled(game).items() if v == "won")
