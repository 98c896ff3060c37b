"""The hash chain of the events already stored: each gets its link, in each table's order.

Events written before the chain existed (Tablée 0.1.0 tables) have no ``chain``: they get
theirs here, keyed with the installation secret, which is made (and kept in
``preferences``) if the database has none yet. Events that already have a link keep it; the
chain is computed from the first event without one.

The link is the one `tablee.table.chain` defines, so that the stores check and extend these
chains exactly as they compute new ones.

Revision ID: 0004_chain
Revises: 0003_envelope
Create Date: 2026-12-01

Source: docs/architecture.md, "The event log" and "A tamper-evident log".
"""

import json
from collections.abc import Sequence
from datetime import datetime

import sqlalchemy as sa
from alembic import op

from tablee.table.chain import (
    SECRET_PREFERENCE,
    canonical_bytes,
    chain_link,
    chain_text,
    new_secret,
)

revision: str = "0004_chain"
down_revision: str | Sequence[str] | None = "0003_envelope"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_COLUMNS = (
    "seq, kind, schema_version, rules_version, actor, visibility, payload, created_at,"
    " command_key, chain"
)


def _secret(conn: sa.Connection) -> str:
    query = sa.text("SELECT value FROM preferences WHERE key = :key")
    value = conn.execute(query, {"key": SECRET_PREFERENCE}).scalar()
    if value is None:
        value = new_secret()
        conn.execute(
            sa.text("INSERT INTO preferences (key, value) VALUES (:key, :value)"),
            {"key": SECRET_PREFERENCE, "value": value},
        )
    return str(value)


def upgrade() -> None:
    conn = op.get_bind()
    table_ids = [
        str(row[0])
        for row in conn.execute(
            sa.text("SELECT DISTINCT table_id FROM events WHERE chain IS NULL ORDER BY table_id")
        )
    ]
    if not table_ids:
        return
    secret = _secret(conn)
    update = sa.text("UPDATE events SET chain = :chain WHERE table_id = :table_id AND seq = :seq")
    for table_id in table_ids:
        rows = conn.execute(
            sa.text(f"SELECT {_COLUMNS} FROM events WHERE table_id = :table_id ORDER BY seq"),
            {"table_id": table_id},
        ).all()
        previous: str | None = None
        relinking = False
        for seq, kind, version, rules, actor, visibility, payload, created_at, key, chain in rows:
            relinking = relinking or chain is None
            if relinking:
                canonical = canonical_bytes(
                    int(seq),
                    str(kind),
                    int(version),
                    rules,
                    actor,
                    str(visibility),
                    json.loads(payload),
                    chain_text(datetime.fromisoformat(str(created_at))),
                    key,
                )
                chain = chain_link(secret, previous, canonical)
                conn.execute(update, {"chain": chain, "table_id": table_id, "seq": seq})
            previous = str(chain)


def downgrade() -> None:
    op.execute("UPDATE events SET chain = NULL")
