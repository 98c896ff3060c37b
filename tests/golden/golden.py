"""What the golden playthroughs share: a steady clock and the comparison with the files."""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path


def ticking(start: datetime, step: timedelta) -> Iterator[datetime]:
    """``start``, then every ``step`` after it, for ever (the service's clock)."""
    moment = start
    while True:
        yield moment
        moment += step


def check_golden(path: Path, text: str) -> None:
    """``text`` equals the golden file ``path`` (written instead with TABLEE_UPDATE_GOLDEN=1)."""
    if os.environ.get("TABLEE_UPDATE_GOLDEN") == "1":
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"{path} is missing: run with TABLEE_UPDATE_GOLDEN=1 once"
    assert text == path.read_text(encoding="utf-8")
