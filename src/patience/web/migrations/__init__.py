"""Alembic migrations of the web server's database (see :mod:`patience.web.db`)."""
