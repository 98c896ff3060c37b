"""The initial schema: the table registry, the event log, the preferences.

Revision ID: 0001_initial
Revises:
Create Date: 2025-11-29

Source: docs/architecture.md, "The event log".
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001_initial"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "tables",
        sa.Column("id", sa.String(36), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("system", sa.String(32), nullable=False),
        sa.Column("created_at", sa.String(40), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_tables"),
        sa.UniqueConstraint("name", name="uq_tables_name"),
    )
    op.create_table(
        "events",
        sa.Column("table_id", sa.String(36), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(64), nullable=False),
        sa.Column("schema_version", sa.Integer(), nullable=False),
        sa.Column("actor", sa.String(200), nullable=True),
        sa.Column("visibility", sa.String(16), nullable=False),
        sa.Column("payload", sa.Text(), nullable=False),
        sa.Column("created_at", sa.String(40), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"], name="fk_events_table_id"),
        sa.PrimaryKeyConstraint("table_id", "seq", name="pk_events"),
    )
    op.create_table(
        "preferences",
        sa.Column("key", sa.String(64), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("key", name="pk_preferences"),
    )


def downgrade() -> None:
    op.drop_table("preferences")
    op.drop_table("events")
    op.drop_table("tables")
