"""Reading the agents game's generator tables: Tablée's starter tables and a group's own.

The starter tables are package data of `tablee.systems.agents` (``data/fr``, ``data/en``); a
group's tables are four files in a folder (``objectives.txt``, ``environments.txt``,
``creatures.txt``, ``boons.txt``). Both are read here, decoded as UTF-8 and parsed by
`tablee.systems.agents.tables.parse_table`.

Source: seed 002, "Génération de scénario" (the tables are referred to, not given); G-A13.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from tablee.errors import N_, InputError
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

LANGUAGES = ("fr", "en")
"""Languages of the starter tables shipped with Tablée."""


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


def starter_tables(language: str = "fr") -> GeneratorTables:
    """Tablée's original starter tables in ``fr`` or ``en``, read from the package data.

    Raises:
        InputError: an unknown language.

    Source: G-A13 (the tables are Tablée's own writing).
    """
    if language not in LANGUAGES:
        raise InputError(
            N_("no starter tables in {language!r}; languages: {known}"),
            language=language,
            known=", ".join(LANGUAGES),
        )
    root = resources.files("tablee.systems.agents").joinpath("data", language)
    tables = {}
    for kind in TableKind:
        source = f"{language}/{kind.value}.txt"
        data = root.joinpath(f"{kind.value}.txt").read_bytes()
        tables[kind] = parse_table(decode_table(data, source), source)
    return GeneratorTables.of(tables)
