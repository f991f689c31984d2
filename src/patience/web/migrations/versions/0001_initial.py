"""Players, games, feedback and known winnable deals.

Revision ID: 0001
Revises:
Create Date: 2024-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("restore_code", sa.String(32), nullable=True, unique=True),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("player_id", sa.String(64),
                  sa.ForeignKey("players.id", ondelete="CASCADE"), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("deal", sa.BigInteger(), nullable=False),
        sa.Column("moves", sa.Text(), nullable=False),
        sa.Column("redo", sa.Text(), nullable=False),
        sa.Column("move_count", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("winnable_only", sa.Boolean(), nullable=False),
        sa.Column("started_at", sa.Float(), nullable=False),
        sa.Column("updated_at", sa.Float(), nullable=False),
        sa.Column("finished_at", sa.Float(), nullable=True),
    )
    op.create_index("ix_games_player_id", "games", ["player_id"])
    op.create_index("ix_games_player_status", "games", ["player_id", "status"])
    op.create_table(
        "feedback",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.String(64),
                  sa.ForeignKey("players.id", ondelete="CASCADE"), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("message", sa.Text(), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("game", sa.String(64), nullable=True),
        sa.Column("deal", sa.BigInteger(), nullable=True),
        sa.Column("moves", sa.Text(), nullable=True),
        sa.Column("user_agent", sa.String(300), nullable=True),
    )
    op.create_index("ix_feedback_player_created", "feedback", ["player_id", "created_at"])
    op.create_table(
        "winnable_deals",
        sa.Column("game", sa.String(64), primary_key=True),
        sa.Column("deal", sa.BigInteger(), primary_key=True, autoincrement=False),
        sa.Column("source", sa.String(16), nullable=False),
        sa.Column("found_at", sa.Float(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("winnable_deals")
    op.drop_index("ix_feedback_player_created", table_name="feedback")
    op.drop_table("feedback")
    op.drop_index("ix_games_player_status", table_name="games")
    op.drop_index("ix_games_player_id", table_name="games")
    op.drop_table("games")
    op.drop_table("players")
