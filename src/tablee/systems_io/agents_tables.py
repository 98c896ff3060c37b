"""Reading the agents game's generator tables from a group's files.

A group's tables are four files in a folder (``objectives.txt``, ``environments.txt``,
``creatures.txt``, ``boons.txt``), or one file: they are read here, decoded as UTF-8 and
parsed by `tablee.systems.agents.tables.parse_table`. Tablée's starter tables are text in
the rules core (`tablee.systems.agents.starters`): nothing is read for them.

Source: seed 002, "Génération de scénario" (the tables are referred to, not given); G-A13.
"""

from __future__ import annotations

from pathlib import Path

from tablee.errors import N_, InputError
from tablee.systems.agents.starters import LANGUAGES, starter_tables
from tablee.systems.agents.tables import (
    GeneratorTables,
    Table,
    TableKind,
    parse_table,
    table_fault,
)

__all__ = [
    "LANGUAGES",
    "MAX_BYTES",
    "decode_table",
    "load_table_file",
    "load_tables",
    "starter_tables",
]

MAX_BYTES = 256 * 1024
"""Largest table file Tablée reads, in bytes."""


def decode_table(data: bytes, source: str) -> str:
    """A table file's bytes as text, checked for size and UTF-8.

    Args:
        data: the file's bytes (a UTF-8 byte-order mark is allowed and dropped).
        source: the file's name, used in messages only.

    Returns:
        The text, for `parse_table`.

    Raises:
        InputError: more than `MAX_BYTES` bytes, or a byte that is not valid UTF-8 (naming
            its line).

    Source: G-A13; the format is Tablée's.
    """
    if len(data) > MAX_BYTES:
        raise table_fault(source, 1, N_("the file is larger than {limit} bytes"), limit=MAX_BYTES)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise table_fault(
            source, line, N_("byte {byte} is not valid UTF-8"), byte=f"0x{data[error.start]:02x}"
        ) from None


def load_table_file(path: Path) -> Table:
    """Read one table file a group wrote.

    Args:
        path: the file.

    Returns:
        The checked table.

    Raises:
        InputError: the file is missing or cannot be read, or breaks a rule of the format
            (see `decode_table` and `parse_table`).

    Source: G-A13.
    """
    if not path.is_file():
        raise InputError(
            N_("table file {source!r} does not exist (rule G-A13)"),
            cli_tip=N_(
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
    return parse_table(decode_table(data, str(path)), str(path))


def load_tables(folder: Path) -> GeneratorTables:
    """Read a group's four tables from a folder (``objectives.txt``, ``environments.txt``...).

    Raises:
        InputError: a file is missing, unreadable or malformed (naming it and the line).

    Source: G-A13.
    """
    return GeneratorTables.of(
        {kind: load_table_file(folder / f"{kind.value}.txt") for kind in TableKind}
    )
