"""The links of the live web table: one row per access link, the token stored hashed.

Revision ID: 0002_links
Revises: 0001_initial
Create Date: 2026-11-29

Source: docs/web.md, "Security model" (unguessable, revocable links per role).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002_links"
down_revision: str | Sequence[str] | None = "0001_initial"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "links",
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("table_id", sa.String(36), nullable=False),
        sa.Column("prefix", sa.String(16), nullable=False),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("player", sa.String(200), nullable=True),
        sa.Column("created_at", sa.String(40), nullable=False),
        sa.Column("revoked_at", sa.String(40), nullable=True),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"], name="fk_links_table_id"),
        sa.PrimaryKeyConstraint("token_hash", name="pk_links"),
    )
    op.create_index("ix_links_table_id", "links", ["table_id"])


def downgrade() -> None:
    op.drop_index("ix_links_table_id", table_name="links")
    op.drop_table("links")
