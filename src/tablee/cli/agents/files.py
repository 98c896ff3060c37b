"""Reading a group's own generator tables from files, for the agents game's command line.

The rules parse a table's text (`tablee.systems.agents.tables.parse_table`); reading the
files is the command line's part: a folder holding ``objectives.txt``, ``environments.txt``,
``creatures.txt`` and ``boons.txt`` (``tablee agents play`` asks for one), or one file.

Source: G-A13 (replaceable tables); the format is Tablée's.
"""

from __future__ import annotations

from pathlib import Path

from tablee.errors import N_, InputError
from tablee.systems.agents.tables import (
    GeneratorTables,
    Table,
    TableKind,
    bundle_tables,
    parse_table,
)

__all__ = ["load_table_file", "load_tables"]


def load_table_file(path: Path) -> Table:
    """Read one table file a group wrote.

    Args:
        path: the file.

    Returns:
        The checked table.

    Raises:
        InputError: the file cannot be read, or breaks a rule of the format (see
            `parse_table`).
    """
    if not path.is_file():
        raise InputError(
            N_("table file {source!r} does not exist (rule G-A13)"),
            tip=N_(
                "a folder of tables holds objectives.txt, environments.txt, creatures.txt "
                "and boons.txt; see 'Writing your own generator tables' in docs/rules/agents.md"
            ),
            source=str(path),
        )
    try:
        data = path.read_bytes()
    except OSError as error:
        raise InputError(
            N_("cannot read table file {source!r}: {reason}"), source=str(path), reason=error
        ) from None
    return parse_table(data, str(path))


def load_tables(folder: Path) -> GeneratorTables:
    """Read a group's four tables from a folder (``objectives.txt``, ``environments.txt``...).

    Raises:
        InputError: a file is missing, unreadable or malformed (naming it and the line).
    """
    return bundle_tables(
        {kind: load_table_file(folder / f"{kind.value}.txt") for kind in TableKind}
    )
