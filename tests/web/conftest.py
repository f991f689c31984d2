"""Fixtures of the web tests: an app on its own SQLite file, and clients with their cookies."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from patience.web.app import create_app


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    """A fresh SQLite file; or, with ``PATIENCE_TEST_DB`` set to a PostgreSQL URL, that
    database emptied (its ``public`` schema dropped and made again).  Under pytest-xdist each
    worker empties a schema of its own instead (``test_gw0``, …, which the URL returned puts
    first on the search path), not the one the other workers' tests are using."""
    url = os.environ.get("PATIENCE_TEST_DB")
    if not url:
        return f"sqlite:///{tmp_path / 'web.db'}"
    from sqlalchemy import create_engine
    from sqlalchemy.engine import make_url

    worker = os.environ.get("PYTEST_XDIST_WORKER")
    schema = f"test_{worker}" if worker else "public"
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.exec_driver_sql(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        conn.exec_driver_sql(f"CREATE SCHEMA {schema}")
    engine.dispose()
    if not worker:
        return url
    own = make_url(url).update_query_dict({"options": f"-csearch_path={schema}"})
    return own.render_as_string(hide_password=False)


@pytest.fixture
def app(db_url: str) -> Iterator[FastAPI]:
    yield create_app(db_url, solver_seconds=1.0)


@pytest.fixture
def new_client(app: FastAPI) -> Iterator[Callable[[], TestClient]]:
    """Make clients of the same app: each one is a browser with its own cookie jar."""
    clients: list[TestClient] = []

    def make() -> TestClient:
        c = TestClient(app)
        c.__enter__()
        clients.append(c)
        return c

    yield make
    for c in reversed(clients):
        c.__exit__(None, None, None)


@pytest.fixture
def client(new_client: Callable[[], TestClient]) -> TestClient:
    return new_client()
