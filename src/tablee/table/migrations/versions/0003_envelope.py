"""The event envelope: the rules version, the command key, the hash chain link.

Three nullable text columns on ``events`` (NULL on the events written before them) and a
partial unique index on ``(table_id, command_key)`` where a key is stored, so that a command
retried with the same key is stored once.

Revision ID: 0003_envelope
Revises: 0002_links
Create Date: 2026-12-01

Source: docs/architecture.md, "The event log" and "A tamper-evident log".
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003_envelope"
down_revision: str | Sequence[str] | None = "0002_links"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("events", sa.Column("rules_version", sa.Text(), nullable=True))
    op.add_column("events", sa.Column("command_key", sa.Text(), nullable=True))
    op.add_column("events", sa.Column("chain", sa.Text(), nullable=True))
    op.create_index(
        "uq_events_command_key",
        "events",
        ["table_id", "command_key"],
        unique=True,
        sqlite_where=sa.text("command_key IS NOT NULL"),
        postgresql_where=sa.text("command_key IS NOT NULL"),
    )


def downgrade() -> None:
    op.drop_index("uq_events_command_key", table_name="events")
    with op.batch_alter_table("events") as batch:
        batch.drop_column("chain")
        batch.drop_column("command_key")
        batch.drop_column("rules_version")
