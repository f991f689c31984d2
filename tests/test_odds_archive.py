"""The verdict files kept with the project (src/patience/data/verdicts): written from a
database, read back into one, the published figures recomputed from them, and read by the
play ("winnable deals only")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from patience.games import get_spec
from patience.odds import Budget, OddsRun
from patience.odds_archive import (
    ArchiveError,
    Row,
    export_verdicts,
    format_runs,
    import_verdicts,
    parse_runs,
)


def test_runs_round_trip_through_text() -> None:
    rows = [Row("corners", "thoughtful", "abc", "1.6", "2cpu", d, v)
            for d, v in [(3, "lost"), (4, "won"), (7, "unknown")]]
    rows.append(Row("corners", "fair-v1:3x300", "abc", "1.6", "policy", 1, "lost"))
    text = format_runs(rows)["corners"]
    assert "corners thoughtful abc 1.6 2cpu 3 LW..U" in text
    assert sorted(parse_runs(text), key=lambda r: (r.player, r.deal)) == \
        sorted(rows, key=lambda r: (r.player, r.deal))


@pytest.mark.parametrize(("line", "message"), [
    ("corners thoughtful abc 1.6 2cpu 1", "expected 7 fields"),
    ("corners thoughtful abc 1.6 2cpu one WL", "is not a number"),
    ("corners thoughtful abc 1.6 2cpu 0 WL", "numbered from 1"),
    ("corners thoughtful abc 1.6 2cpu 5 WLX", "letter 'X' (deal 7)"),
])
def test_a_malformed_line_is_named(line: str, message: str) -> None:
    with pytest.raises(ArchiveError, match=re.escape(message)) as e:
        list(parse_runs(f"# header\n{line}\n", "corners.txt"))
    assert "corners.txt:2" in str(e.value)


def test_export_then_import_gives_the_same_figures(tmp_path: Path) -> None:
    from patience.odds_report import collect

    url = f"sqlite:///{tmp_path / 'a.db'}"
    OddsRun("simplicity", range(1, 6), Budget(nodes=3000), db_url=url).run()
    OddsRun("corners", range(2, 5), Budget(nodes=3000), db_url=url).run()
    counts = export_verdicts(url, tmp_path / "verdicts")
    assert counts == {"simplicity": 5, "corners": 3}
    copy = f"sqlite:///{tmp_path / 'b.db'}"
    assert import_verdicts(copy, tmp_path / "verdicts") == 8
    assert import_verdicts(copy, tmp_path / "verdicts") == 0  # rows already there are kept
    strip = ("steps",)
    for game in ("simplicity", "corners"):
        a, b = collect(url)[game]["thoughtful"], collect(copy)[game]["thoughtful"]
        assert {k: v for k, v in a.items() if k not in strip} == \
            {k: v for k, v in b.items() if k not in strip}
    # a resumed run finds the imported deals done
    assert OddsRun("simplicity", range(1, 7), Budget(nodes=3000), db_url=copy).pending() == [6]


def test_a_malformed_file_adds_nothing(tmp_path: Path) -> None:
    d = tmp_path / "verdicts"
    d.mkdir()
    (d / "a.txt").write_text("corners thoughtful abc 1.6 2cpu 1 WL\n")
    (d / "b.txt").write_text("corners thoughtful abc 1.6 2cpu 1 W?\n")
    url = f"sqlite:///{tmp_path / 'c.db'}"
    with pytest.raises(ArchiveError, match=r"b\.txt:1"):
        import_verdicts(url, d)
    (d / "b.txt").unlink()
    assert import_verdicts(url, d) == 2


def test_settled_deals_trust_wins_and_the_solvers_losses_only() -> None:
    from patience.odds import rules_version
    from patience.odds_archive import settled_by
    from patience.solver import SOLVER_VERSION

    rv = rules_version(get_spec("penta"))
    major = SOLVER_VERSION.partition(".")[0]
    text = "\n".join([
        f"penta thoughtful {rv} {SOLVER_VERSION} 1cpu 1 WLU",
        f"penta fair-v1:3x300 {rv} {SOLVER_VERSION} policy 3 WL",     # deal 4: fair loss
        f"penta thoughtful {rv} 0.{major} 1cpu 5 WL",                 # older major version
        f"penta thoughtful 000000000000 {SOLVER_VERSION} 1cpu 7 W",  # other rules
        f"eights-down thoughtful {rv} {SOLVER_VERSION} 1cpu 8 W",    # another game
    ])
    assert settled_by("penta", text) == {1: "won", 2: "lost", 3: "won", 5: "won"}


def test_winnable_deal_reads_the_settled_deals_before_solving(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import patience.odds_archive as archive
    from patience.solver import Solver, winnable_deal

    def no_solving(*args: object, **kwargs: object) -> None:
        raise AssertionError("a settled deal was solved again")

    monkeypatch.setattr(archive, "settled", lambda game: {7: "lost", 8: "lost", 9: "won"})
    monkeypatch.setattr(Solver, "solve", no_solving)
    assert winnable_deal("four-seasons", start=7) == 9


def test_the_shipped_verdicts_parse_and_name_their_games() -> None:
    from importlib import resources

    from patience.games import all_specs

    ids = {s.id for s in all_specs()}
    folder = resources.files("patience").joinpath("data", "verdicts")
    files = [f for f in folder.iterdir() if f.name.endswith(".txt")]
    assert files, "the package ships the published verdicts"
    for f in files:
        rows = list(parse_runs(f.read_text(), f.name))
        assert rows and {r.game for r in rows} == {f.name[:-4]} <= ids


def test_export_adds_to_the_files_and_import_takes_the_stronger_verdict(tmp_path: Path) -> None:
    """Exporting a database that lacks some archived runs keeps them; importing a file that
    decides a deal stored as unknown under the same run takes the decision."""
    d = tmp_path / "verdicts"
    d.mkdir()
    (d / "corners.txt").write_text("corners thoughtful abc 1.6 2cpu 1 LLU\n")
    url = f"sqlite:///{tmp_path / 'a.db'}"
    OddsRun("simplicity", range(1, 3), Budget(nodes=3000), db_url=url).run()
    assert export_verdicts(url, d) == {"corners": 3, "simplicity": 2}
    assert "corners thoughtful abc 1.6 2cpu 1 LLU" in (d / "corners.txt").read_text()
    (d / "corners.txt").write_text("corners thoughtful abc 1.6 2cpu 1 LLL\n")
    assert import_verdicts(url, d) == 3  # the three corners rows (simplicity's are there)
    (d / "corners.txt").write_text("corners thoughtful abc 1.6 2cpu 3 U\n")
    assert import_verdicts(url, d) == 0  # a stored loss is kept over a file's unknown
    export_verdicts(url, d)
    assert "corners thoughtful abc 1.6 2cpu 1 LLL" in (d / "corners.txt").read_text()
    (d / "corners.txt").write_text("corners thoughtful abc 1.6 2cpu 1 L?\n")
    with pytest.raises(ArchiveError):
        export_verdicts(url, d)
    assert (d / "corners.txt").read_text() == "corners thoughtful abc 1.6 2cpu 1 L?\n"
