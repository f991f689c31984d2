"""Alembic environment: runs the migrations on the connection the server passes in
(``config.attributes["connection"]``), or on a fresh engine for ``sqlalchemy.url``."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection

from patience.web.db import Base, make_engine

target_metadata = Base.metadata


def _run(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=target_metadata,
                      render_as_batch=True, compare_type=True)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations() -> None:
    config = context.config
    if context.is_offline_mode():
        context.configure(url=config.get_main_option("sqlalchemy.url"),
                          target_metadata=target_metadata, literal_binds=True,
                          render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
        return
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    engine = config.attributes.get("engine")
    if engine is None:
        url = config.get_main_option("sqlalchemy.url")
        if not url:
            raise RuntimeError("no database: set sqlalchemy.url or pass a connection")
        engine = make_engine(url)
    with engine.begin() as conn:
        _run(conn)


# Alembic runs this file with its context set up; a plain import (e.g. pytest's
# doctest collection) finds no context and does nothing.
if hasattr(context, "config"):
    run_migrations()
