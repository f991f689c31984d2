"""Win-rate runs: one verdict per game, deal, versions, player and budget.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "solve_results",
        sa.Column("game", sa.String(64), primary_key=True),
        sa.Column("deal", sa.BigInteger(), primary_key=True, autoincrement=False),
        sa.Column("rules_version", sa.String(32), primary_key=True),
        sa.Column("solver_version", sa.String(32), primary_key=True),
        sa.Column("player", sa.String(64), primary_key=True),
        sa.Column("budget", sa.String(32), primary_key=True),
        sa.Column("verdict", sa.String(16), nullable=False),
        sa.Column("nodes", sa.BigInteger(), nullable=False),
        sa.Column("seconds", sa.Float(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("solve_results")
