"""Write an unchained Pouyss export of N reward events, to measure ``tablee table import``.

Usage: ``python benchmarks/make_import.py N FILE``. The lines are what Tablée 0.1.0 wrote (no
hash chain, no trailer), so any installation imports them, unverified, checking every rule.
"""

from __future__ import annotations

import json
import sys
from datetime import UTC, datetime, timedelta
from typing import Any

START = datetime(2026, 1, 1, tzinfo=UTC)
REASON = "a fine line of role-play, kept in the log"


def line(seq: int, kind: str, payload: dict[str, Any], rules: str | None = "2") -> str:
    """One exported event, one second after the one before."""
    event = {
        "table_id": "x",
        "seq": seq,
        "kind": kind,
        "schema_version": 1,
        "actor": "gm",
        "visibility": "all",
        "payload": payload,
        "created_at": (START + timedelta(seconds=seq)).isoformat(),
        "rules_version": rules,
    }
    return json.dumps(event, ensure_ascii=False) + "\n"


def main(count: int, path: str) -> None:
    """Write the table's creation, a session start and ``count`` rewards to ``path``."""
    created = {"system": "pouyss", "name": "big", "players": ["Ana", "Bo"], "lang": "en"}
    with open(path, "w", encoding="utf-8") as out:
        out.write(line(1, "table.created", {**created, "options": {}}, rules=None))
        started = {"session": 1, "cagnotte": 2, "carried_over": False}
        out.write(line(2, "pouyss.session_started", started))
        for seq in range(3, count + 3):
            cagnotte = {"before": seq - 1, "drawn": 0, "deposited": 1, "after": seq}
            reward = {"player": "Ana", "amount": 1, "reason": REASON, "cagnotte": cagnotte}
            out.write(line(seq, "pouyss.reward", reward))


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2])
