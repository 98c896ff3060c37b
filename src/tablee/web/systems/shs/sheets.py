"""SHS Protagonistes imported at the web table from pasted JSON or TOML, all or none.

The web twin of ``tablee shs protagoniste import FILE``: the same accepted shapes (one
Protagoniste, a list, or ``protagonistes = [...]``), the same field names (French or
English) and the same messages, read from a pasted text instead of a file; every sheet then
goes through `tablee.systems.shs.decide_create`, as at the command line, in one stored
decision, so a bad sheet stores nothing (W-S1: the game master's form).

Source: docs/web.md, "Space Horror Stories at the web table"; seed 003; rulings S-M9, S-N1;
`tablee.cli.shs.protagonists`.
"""

from __future__ import annotations

from typing import Any

from tablee.errors import N_, Message, TableeError
from tablee.systems import shs
from tablee.systems.shs.sheets import parse_sheets as read_sheets
from tablee.table.projection import TableState
from tablee.table.service import Applied
from tablee.web.systems import ActionRequest

__all__ = ["SHEETS_MAX", "import_sheets", "parse_sheets"]

SHEETS_MAX = 20_000
"""The longest pasted text accepted, in characters (a table's Protagonistes fit easily)."""

_WHERE = Message(N_("the pasted text"))


def parse_sheets(text: str, *, toml: bool) -> list[dict[str, Any]]:
    """The Protagonistes of a pasted JSON or TOML text, each as `decide_create`'s arguments.

    The command line's reader (`tablee.systems.shs.sheets.parse_sheets`), the text being
    called "the pasted text" in messages.

    Raises:
        InputError: as that reader.

    Source: seed 003; S-M9; the command line's ``tablee shs protagoniste import``.
    """
    return read_sheets(text, toml=toml, where=_WHERE)


def import_sheets(req: ActionRequest) -> Applied[Any]:
    """Store every pasted Protagoniste in one decision, or none (the form's handler)."""
    sheets = parse_sheets(req.text("sheets"), toml=req.text("format", "json") == "toml")

    def decide(state: TableState) -> Any:
        facts: list[Any] = []
        warnings: list[Any] = []
        game = state.game
        for number, fields in enumerate(sheets, start=1):
            try:
                decision = shs.decide_create(game, **fields)
            except TableeError as exc:
                raise type(exc)(
                    N_("{file}: Protagoniste {number}: {error}"),
                    file=_WHERE,
                    number=number,
                    error=exc,
                ) from None
            facts += decision.facts
            warnings += decision.warnings
            game = decision.after
        return shs.Decision(tuple(facts), None, tuple(warnings), game)

    return req.execute(decide, lambda d: d.facts)
