"""Win-rate runs: the Wilson interval, resuming, and local runs against a Dask cluster."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import patience.odds as odds_mod
from patience.fair import FairPolicy
from patience.games import get_spec
from patience.odds import Budget, Odds, OddsRun, wilson


@pytest.mark.parametrize(("k", "n", "low", "high"), [
    (0, 10, 0.0, 0.2775),
    (5, 10, 0.2366, 0.7634),
    (10, 10, 0.7225, 1.0),
    (1, 1, 0.2065, 1.0),
    (50, 100, 0.4038, 0.5962),
    (9, 100, 0.0481, 0.1623),
])
def test_wilson_interval_known_values(k: int, n: int, low: float, high: float) -> None:
    lo, hi = wilson(k, n)
    assert lo == pytest.approx(low, abs=5e-5)
    assert hi == pytest.approx(high, abs=5e-5)


def test_wilson_rejects_impossible_counts() -> None:
    with pytest.raises(ValueError):
        wilson(11, 10)
    assert wilson(0, 0) == (0.0, 1.0)


def test_unknown_deals_widen_the_interval_both_ways() -> None:
    decided = Odds("g", "thoughtful", "1s", deals=100, won=40, lost=60, unknown=0)
    undecided = Odds("g", "thoughtful", "1s", deals=100, won=40, lost=50, unknown=10)
    assert undecided.interval[0] == pytest.approx(decided.interval[0])
    assert undecided.interval[1] == pytest.approx(wilson(50, 100)[1])
    assert undecided.interval[1] > decided.interval[1]
    assert undecided.rate == decided.rate == 0.4


def test_budget_needs_exactly_one_limit() -> None:
    with pytest.raises(ValueError):
        Budget()
    with pytest.raises(ValueError):
        Budget(seconds=1, nodes=10)
    assert Budget(nodes=300).label == "300n" and Budget(seconds=2.5).label == "2.5s"
    assert Budget(seconds=2, cpu=True).label == "2cpu"
    with pytest.raises(ValueError):
        Budget(nodes=300, cpu=True)


def test_budget_labels_compare_within_their_kind() -> None:
    from patience.odds import budget_key

    assert budget_key("2cpu") == ("cpu", 2.0)
    assert budget_key("2.5s") == ("s", 2.5)
    assert budget_key("300n") == ("n", 300.0)
    assert budget_key("policy") == ("policy", 0.0)
    assert budget_key("10cpu") > budget_key("2cpu")


def test_a_cpu_budget_settles_only_cpu_runs(tmp_path: Path) -> None:
    """A deal left unknown at 10 s of wall time is solved again by a CPU-time run: the two
    clocks are different budgets; runs are listed wall time first, then CPU time, then
    positions."""
    from sqlalchemy.orm import Session

    from patience.odds import rules_version
    from patience.solver import SOLVER_VERSION as NOW
    from patience.web.db import SolveRecord

    url = _db(tmp_path, "clocks.db")
    run = OddsRun("four-seasons", range(1, 6), Budget(seconds=2, cpu=True), db_url=url)
    with Session(run.engine) as s:
        for deal, budget in [(1, "10s"), (2, "2cpu"), (3, "1cpu"), (4, "10s"), (4, "2cpu"),
                             (5, "20000n"), (5, "3cpu")]:
            s.add(SolveRecord(game=run.spec.id, deal=deal, rules_version=rules_version(run.spec),
                              solver_version=NOW, player="thoughtful", budget=budget,
                              verdict="unknown", nodes=1, seconds=0.1, created_at=0.0))
        s.commit()
    assert run.pending() == [1, 3]  # 4 and 5: a CPU unknown counts beside other kinds
    from patience.odds_report import collect

    row = collect(url)["four-seasons"]["thoughtful"]
    assert row["budget"] == "10s then 1cpu then 2cpu then 3cpu then 20000n"


def _store_thoughtful(url: str, game: str,
                      rows: list[tuple[int, str, str, str]]) -> None:
    """Stores thoughtful verdicts (deal, solver version, verdict, budget) of ``game``."""
    from sqlalchemy.orm import Session

    from patience.odds import rules_version
    from patience.web.db import SolveRecord

    run = OddsRun(game, range(1, 2), Budget(seconds=1, cpu=True), db_url=url)
    with Session(run.engine) as s:
        for deal, version, verdict, budget in rows:
            s.add(SolveRecord(game=run.spec.id, deal=deal, rules_version=rules_version(run.spec),
                              solver_version=version, player="thoughtful", budget=budget,
                              verdict=verdict, nodes=1, seconds=0.1, created_at=0.0))
        s.commit()


def test_a_deal_solved_again_by_a_newer_solver_counts_once(tmp_path: Path) -> None:
    """A run of a newer minor version re-solves the unknowns at the same budget: the
    lobby's "2 s a deal on N deals" counts each deal once."""
    from patience.odds_report import collect
    from patience.solver import SOLVER_VERSION as NOW

    url = _db(tmp_path, "versions.db")
    older = NOW.partition(".")[0] + ".0"
    _store_thoughtful(url, "four-seasons", [
        (1, older, "unknown", "2cpu"), (1, NOW, "won", "2cpu"),
        (2, older, "won", "2cpu"), (3, older, "unknown", "2cpu"),
        (3, NOW, "unknown", "2cpu"), (3, NOW, "lost", "10cpu")])
    row = collect(url)["four-seasons"]["thoughtful"]
    assert [(st["budget"], st["deals"]) for st in row["steps"]] == [("2cpu", 3), ("10cpu", 1)]
    assert (row["deals"], row["won"], row["lost"], row["unknown"]) == (3, 2, 1, 0)


def test_a_newer_solver_with_a_smaller_budget_is_listed_last(tmp_path: Path) -> None:
    """A newer solver re-solves at 10 s what an older one left unknown at 60 s: the runs
    are listed in the order they were made, so that their commands reproduce the table."""
    from patience.odds_report import collect
    from patience.solver import SOLVER_VERSION as NOW

    url = _db(tmp_path, "later.db")
    older = NOW.partition(".")[0] + ".0"
    _store_thoughtful(url, "czarina", [
        (1, older, "won", "10cpu"), (2, older, "unknown", "10cpu"),
        (3, older, "unknown", "10cpu"), (4, older, "lost", "10cpu"),
        (2, older, "unknown", "60cpu"), (3, older, "won", "60cpu"),
        (2, NOW, "won", "10cpu")])
    row = collect(url)["czarina"]["thoughtful"]
    assert [(st["budget"], st["first_deal"], st["last_deal"]) for st in row["steps"]] == [
        ("10cpu", 1, 4), ("60cpu", 2, 3), ("10cpu", 2, 2)]
    assert row["budget"] == "10cpu then 60cpu then 10cpu"
    assert (row["won"], row["lost"], row["unknown"]) == (3, 1, 0)


def test_a_newer_fair_policy_is_published_over_more_deals_of_an_older_one(
        tmp_path: Path) -> None:
    """A new policy version plays differently: its row is the game's fair figure, even
    over fewer deals than the old one's, and the old published row is not carried over."""
    from sqlalchemy.orm import Session

    from patience.fair import POLICY_VERSION
    from patience.odds import rules_version
    from patience.odds_report import carry_over, collect
    from patience.web.db import SolveRecord

    url = _db(tmp_path, "policies.db")
    run = OddsRun("quadrennial", range(1, 2), Budget(nodes=10), db_url=url)
    old, new = f"fair-v{int(POLICY_VERSION) - 1}:3x300", f"fair-v{POLICY_VERSION}:3x300"
    with Session(run.engine) as s:
        for player, deals, verdict in [(old, range(1, 11), "lost"), (new, range(1, 4), "won")]:
            for deal in deals:
                s.add(SolveRecord(game=run.spec.id, deal=deal, player=player,
                                  rules_version=rules_version(run.spec), solver_version="1.0",
                                  budget="policy", verdict=verdict, nodes=0, seconds=0.0,
                                  created_at=0.0))
        s.commit()
    row = collect(url)["quadrennial"]["fair"]
    assert (row["player"], row["deals"], row["won"]) == (new, 3, 3)
    published = {"quadrennial": {"fair": {"player": old, "deals": 500, "won": 170}}}
    data, carried = carry_over(published, {"quadrennial": {"fair": row}})
    assert carried == [] and data["quadrennial"]["fair"] == row
    older_again = {"quadrennial": {"fair": {**row, "player": old, "deals": 2}}}
    data, carried = carry_over(published, older_again)  # same version: more deals win
    assert carried == ["quadrennial (fair)"] and data["quadrennial"]["fair"]["deals"] == 500


def _db(tmp_path: Path, name: str) -> str:
    return f"sqlite:///{tmp_path / name}"


def test_an_interrupted_run_resumes_and_a_finished_one_is_not_recomputed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    budget = Budget(nodes=4000)
    calls: list[int] = []
    real = odds_mod.solve_deal

    def interrupted(game: str, deal: int, b: Budget, fair: object) -> odds_mod.Verdict:
        if len(calls) == 4:
            raise KeyboardInterrupt
        calls.append(deal)
        return real(game, deal, b, None)

    monkeypatch.setattr(odds_mod, "solve_deal", interrupted)
    run = OddsRun("quadrennial", range(1, 9), budget, db_url=_db(tmp_path, "a.db"))
    with pytest.raises(KeyboardInterrupt):
        run.run(workers=1)
    assert sorted(run.done()) == [1, 2, 3, 4]  # what was solved before the stop is kept
    monkeypatch.setattr(odds_mod, "solve_deal", lambda *a: (calls.append(a[1]), real(*a))[1])
    again = OddsRun("quadrennial", range(1, 9), budget, db_url=_db(tmp_path, "a.db"))
    assert again.pending() == [5, 6, 7, 8]
    resumed = again.run(workers=1)
    assert calls == [1, 2, 3, 4, 5, 6, 7, 8]  # nothing solved twice
    assert resumed.deals == 8
    calls.clear()
    assert OddsRun("quadrennial", range(1, 9), budget,
                   db_url=_db(tmp_path, "a.db")).run(workers=1) == resumed
    assert calls == []  # a finished run is not recomputed
    monkeypatch.setattr(odds_mod, "solve_deal", real)
    fresh = OddsRun("quadrennial", range(1, 9), budget, db_url=_db(tmp_path, "b.db"))
    assert fresh.run(workers=1) == resumed


def test_a_larger_budget_solves_only_the_unknown_deals_again(tmp_path: Path) -> None:
    url = _db(tmp_path, "c.db")
    small = OddsRun("four-seasons", range(1, 7), Budget(nodes=300), db_url=url)
    first = small.run()
    unknown = sorted(d for d, v in small.done().items() if v == "unknown")
    assert first.unknown == len(unknown) >= 1 and first.won >= 1  # (deals 1-6 at 300 nodes)
    assert OddsRun("four-seasons", range(1, 7), Budget(nodes=200), db_url=url).pending() == []
    bigger = OddsRun("four-seasons", range(1, 7), Budget(nodes=3000), db_url=url)
    assert bigger.pending() == unknown
    second = bigger.run()
    assert second.deals == 6 and second.won >= first.won
    assert second.won + second.lost + second.unknown == 6
    # the fair player is a run of its own
    fair = OddsRun("four-seasons", range(1, 7), Budget(nodes=300), db_url=url,
                   fair=FairPolicy(samples=1, nodes=50))
    assert fair.pending() == [1, 2, 3, 4, 5, 6]


def test_best_verdicts_trust_old_wins_but_not_old_losses() -> None:
    from patience.odds import best_verdicts
    from patience.solver import SOLVER_VERSION as NOW

    major = NOW.partition(".")[0]
    older_minor = f"{major}.0"  # an older minor version of the same major one
    assert older_minor != NOW
    rows = [(1, "unknown", "2s", NOW), (1, "won", "30s", "old"),
            (2, "lost", "2s", "old"), (2, "unknown", "2s", NOW), (2, "unknown", "30s", NOW),
            (3, "lost", "10s", NOW), (3, "unknown", "2s", NOW),
            (4, "lost", "2s", older_minor), (4, "unknown", "10s", NOW),
            (5, "unknown", "30s", older_minor), (5, "unknown", "2s", NOW)]
    assert best_verdicts(rows, thoughtful=True) == {
        1: ("won", "30s", "old"), 2: ("unknown", "30s", NOW), 3: ("lost", "10s", NOW),
        4: ("lost", "2s", older_minor), 5: ("unknown", "2s", NOW)}
    assert best_verdicts(rows, thoughtful=False) == {
        1: ("unknown", "2s", NOW), 2: ("unknown", "30s", NOW), 3: ("lost", "10s", NOW),
        4: ("lost", "2s", older_minor), 5: ("unknown", "2s", NOW)}


def test_a_newer_minor_solver_version_solves_old_unknowns_again(tmp_path: Path) -> None:
    """Unknowns left by an older minor version are pending again, at the same budget;
    its wins and losses stay settled."""
    from sqlalchemy.orm import Session

    from patience.odds import rules_version
    from patience.solver import SOLVER_VERSION as NOW
    from patience.web.db import SolveRecord

    url = _db(tmp_path, "minor.db")
    run = OddsRun("four-seasons", range(1, 5), Budget(seconds=2), db_url=url)
    older = NOW.partition(".")[0] + ".0"
    assert older != NOW
    spec = run.spec
    with Session(run.engine) as s:
        for deal, verdict, version in [(1, "unknown", older), (2, "lost", older),
                                       (3, "won", older), (4, "unknown", NOW)]:
            s.add(SolveRecord(game=spec.id, deal=deal, rules_version=rules_version(spec),
                              solver_version=version, player="thoughtful", budget="2s",
                              verdict=verdict, nodes=1, seconds=0.1, created_at=0.0))
        s.commit()
    assert run.pending() == [1]


@pytest.mark.timeout(300)
def test_dask_cluster_and_local_processes_agree(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    deals = range(1, 9)
    budget = Budget(nodes=3000)  # positions, not seconds: the same verdict on any machine
    local = OddsRun("fours-up", deals, budget, db_url=_db(tmp_path, "local.db"))
    local.run(workers=2)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        remote = OddsRun("fours-up", deals, budget, db_url=_db(tmp_path, "dask.db"))
        remote.run(scheduler=cluster.scheduler_address)
    assert remote.done() == local.done()
    assert len(local.done()) == len(deals)
    assert set(local.done().values()) <= {"won", "lost", "unknown"}


def test_report_writes_the_table_the_plot_and_the_lobby_figures(tmp_path: Path) -> None:
    from patience.odds_report import write_report

    url = _db(tmp_path, "r.db")
    OddsRun("simplicity", range(1, 4), Budget(nodes=3000), db_url=url).run()
    md, png, js = tmp_path / "odds.md", tmp_path / "odds.png", tmp_path / "odds.json"
    data = write_report(url, md, png, js)
    row = data["simplicity"]["thoughtful"]
    assert (row["deals"], row["won"] + row["lost"] + row["unknown"]) == (3, 3)
    text = md.read_text()
    assert "`patience odds simplicity --deals 1-3 --nodes 3000`" in text
    assert "| Fours Up | not measured |" in text and "| 45% | Pretty Good Solitaire |" in text
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert '"simplicity"' in js.read_text()


def test_reproduce_commands_name_each_budget_kind() -> None:
    from patience.odds_report import _command

    steps = [{"budget": b} for b in ("2s", "2cpu", "1000000n")]
    row = {"player": "thoughtful", "first_deal": 1, "last_deal": 9, "steps": steps}
    assert _command("corners", row).split("` then `") == [
        "patience odds corners --deals 1-9 --budget 2 --wall-clock",
        "patience odds corners --deals 1-9 --budget 2",
        "patience odds corners --deals 1-9 --nodes 1000000"]
    # a quick run over many deals, and a longer one over the first few: each its own range
    steps = [{"budget": "0.05cpu", "first_deal": 301, "last_deal": 10000},
             {"budget": "1cpu", "first_deal": 1, "last_deal": 300}]
    row = {"player": "thoughtful", "first_deal": 1, "last_deal": 10000, "steps": steps}
    assert _command("dimes", row).split("` then `") == [
        "patience odds dimes --deals 301-10000 --budget 0.05",
        "patience odds dimes --deals 1-300 --budget 1"]


def test_rows_of_other_rules_are_not_carried_over() -> None:
    from patience.odds import rules_version
    from patience.odds_report import carry_over, no_winnable_deals

    rv = rules_version(get_spec("corners"))
    old = {"corners": {"thoughtful": {"deals": 10, "rules_version": "000000000000"}},
           "simplicity": {"thoughtful": {"deals": 10}},  # written before the field
           "gone": {"thoughtful": {"deals": 10}}}
    data, carried = carry_over(old, {"corners": {"thoughtful": {"deals": 2,
                                                                "rules_version": rv}}})
    assert carried == ["simplicity (thoughtful)"]
    assert data["corners"]["thoughtful"]["deals"] == 2 and "gone" not in data
    assert no_winnable_deals("corners") is not None  # the shipped figures: all lost


def test_a_report_from_fewer_deals_carries_the_published_rows_over(tmp_path: Path) -> None:
    """A database that lacks verdicts the published figures rest on (say, a fresh one)
    keeps those rows as published, marked; --fresh publishes only what it holds."""
    from patience.odds_report import write_report

    url, fewer = _db(tmp_path, "r.db"), _db(tmp_path, "fewer.db")
    OddsRun("simplicity", range(1, 4), Budget(nodes=3000), db_url=url).run()
    OddsRun("simplicity", range(1, 3), Budget(nodes=3000), db_url=fewer).run()
    OddsRun("corners", range(1, 3), Budget(nodes=3000), db_url=fewer).run()
    md, png, js = tmp_path / "odds.md", tmp_path / "odds.png", tmp_path / "odds.json"
    published = write_report(url, md, png, js)["simplicity"]["thoughtful"]
    assert "†" not in md.read_text() and "(but the rows marked †)" not in md.read_text()
    data = write_report(fewer, md, png, js)
    assert data["simplicity"]["thoughtful"] == {**published, "carried": True}
    assert data["corners"]["thoughtful"]["deals"] == 2 and \
        "carried" not in data["corners"]["thoughtful"]
    text = md.read_text()
    assert "| 3† |" in text and "| 2 |" in text and "(but the rows marked †)" in text
    assert "† Carried over from the previous report" in text
    assert json.loads(js.read_text())["simplicity"]["thoughtful"]["carried"] is True
    data = write_report(fewer, md, png, js, keep_published=False)
    assert data["simplicity"]["thoughtful"]["deals"] == 2 and "†" not in md.read_text()


def test_rules_versions_survive_a_new_field_of_the_vocabulary() -> None:
    # the stored results of a game stay its results while its rules stay the same: a field
    # added to GameSpec after them (at the value that keeps the old rules) changes no version
    import dataclasses

    from patience.odds import LATER_FIELDS, rules_version

    pinned = {"four-seasons": "2c852bb1f759", "fours-up": "6f0b138fdf9d",
              "quadrennial": "35571ab6367e"}  # the versions the published odds were run under
    for game, version in pinned.items():
        assert rules_version(get_spec(game)) == version
    spec = get_spec("quadrennial")
    # a value other than the neutral one, of the field's type
    other = {bool: lambda v: not v, int: lambda v: v + 1, type(None): lambda v: 1}
    for name, neutral in LATER_FIELDS.items():
        assert getattr(spec, name) == neutral
        value = other[type(neutral)](neutral)
        changed = dataclasses.replace(spec, **{name: value, "foundations": 16, "tableau": 2})
        assert rules_version(changed) != rules_version(
            dataclasses.replace(spec, foundations=16, tableau=2))
