"""The database schema the migrations make equals the models; the API never answers 5xx
and always answers what its OpenAPI schema says (schemathesis)."""

from __future__ import annotations

import atexit
import shutil
import tempfile
from pathlib import Path

import pytest
import schemathesis
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance
from sqlalchemy import inspect

from patience.web.app import create_app
from patience.web.db import Base, make_engine, migrate


def test_migrations_make_the_schema_of_the_models(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'm.db'}")
    migrate(engine)
    migrate(engine)  # a second start finds it up to date
    with engine.connect() as conn:
        ctx = MigrationContext.configure(conn, opts={"compare_type": True})
        assert compare_metadata(ctx, Base.metadata) == []
        assert ctx.get_current_revision() is not None
        tables = set(inspect(conn).get_table_names())
    assert tables == {"alembic_version", "players", "games", "feedback", "winnable_deals",
                      "solve_results"}
    with engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == 10000
    engine.dispose()


def test_the_migration_scripts_ship_with_the_package() -> None:
    from patience.web import db

    versions = sorted(p.name for p in (db.MIGRATIONS / "versions").glob("*.py"))
    assert "0001_initial.py" in versions
    assert (db.MIGRATIONS / "env.py").is_file()
    assert (db.MIGRATIONS / "script.py.mako").is_file()


# ------------------------------------------------------------------ schemathesis
_DIR = Path(tempfile.mkdtemp(prefix="patience-schemathesis-"))
atexit.register(shutil.rmtree, _DIR, ignore_errors=True)
_APP = create_app(f"sqlite:///{_DIR / 'api.db'}", solver_seconds=0.2, solver_grace=2.0)
schema = schemathesis.openapi.from_asgi("/api/openapi.json", _APP)


@pytest.fixture(scope="module", autouse=True)
def _known_winnable_deals() -> None:
    """"Winnable deals only" falls back on known deals when the solver finds none in its
    short budget here: give it one per game so that the answer is never 503."""
    from patience.games import all_specs

    if _APP.state.services is None:  # the app opens it on first use otherwise
        _APP.state.services = _APP.state.open_services()
    store = _APP.state.services.store
    for spec in all_specs():
        store.add_winnable(spec.id, 1, "test")


@schema.parametrize()
@settings(max_examples=20, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
def test_api_never_fails_and_keeps_to_its_schema(case: schemathesis.Case) -> None:
    case.call_and_validate(checks=[not_a_server_error, response_schema_conformance])
