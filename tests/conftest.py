"""Hooks for the whole suite.

pytest-xdist's modes that group tests by file, class or xdist_group (``--dist loadfile``,
``loadscope``, ``loadgroup``) keep one test per node id: with pytest 9.2 the schemathesis
tests of tests/web/test_web_schema.py (one per API operation) share one node id, so all but
one would silently not run.  Such a run stops here instead; ``make test`` uses ``worksteal``.

A test may leave a line for the record in its user properties
(``request.node.user_properties.append(("report", text))``; the ``record_property`` fixture
would warn under ``--junitxml``): the lines are printed at the end of the run.  Unlike a
print under ``capsys.disabled()``, they reach the terminal also when the tests run in
pytest-xdist workers (``make test``), whose own output does not.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

# --doctest-modules would import this file a second time as a module named "conftest", the
# name tests/browser/conftest.py holds by then (neither is in a package): it has no doctests
collect_ignore = ["conftest.py"]


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_node_collection_finished(node: Any, ids: Sequence[str]) -> None:
    dist = node.config.getoption("dist")
    twice = sorted(nodeid for nodeid, n in Counter(ids).items() if n > 1)
    if dist in ("loadfile", "loadscope", "loadgroup") and twice:
        raise pytest.UsageError(f"--dist {dist} would run one test of each of these node ids "
                                f"and drop the others: {', '.join(twice)}; use --dist "
                                "worksteal or load")


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    lines = [str(value) for reports in terminalreporter.stats.values() for report in reports
             if getattr(report, "when", None) == "call"
             for name, value in getattr(report, "user_properties", ()) if name == "report"]
    if lines:
        terminalreporter.section("reports")
        for line in lines:
            terminalreporter.line(line)
