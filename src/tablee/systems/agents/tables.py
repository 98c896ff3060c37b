"""The generator's random tables: a line-oriented text format a group can replace.

The text refers to a quest-objective table, an environment generator and a creature generator
but does not give them (G-A13). Tablée ships original starter tables in French and English
(``data/fr``, ``data/en``, package data) and a group may write its own in the same format.

The format (UTF-8, one item per line)::

    # A comment: a line whose first non-blank character is '#'; blank lines are ignored.
    @die d6
    1   | An abandoned lighthouse on a sea of mercury
    2-3 | A market where memories are traded
    4-6 | A forest of glass trees

* ``@die dN`` comes once, before the entries; N is 2 to `MAX_SIDES`.
* Each entry is ``range | text``: a range is one face (``4``) or two faces joined by ``-``
  (``2-3``), within 1..N. Together the ranges cover every face from 1 to N exactly once.
* The text, trimmed, is 1 to `MAX_TEXT` characters, without control characters.

Every fault raises `InputError` naming the file, the line and the broken rule. Parsing is pure
(text in, `Table` out); reading the files and the package data is the outer layers' work
(`tablee.systems_io.agents_tables`).

Source: seed 002, "Génération de scénario" (the tables are referred to, not given); G-A13.
The format is Tablée's own.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from tablee.dice import DiceRequest, Die, Trace, TraceStep
from tablee.errors import N_, InputError, Message

__all__ = [
    "MAX_SIDES",
    "MAX_TEXT",
    "TABLE_DRAW",
    "Entry",
    "GeneratorTables",
    "Table",
    "TableDraw",
    "TableDrawer",
    "TableKind",
    "parse_table",
    "table_fault",
]

MAX_SIDES = 1000
"""Largest die a table may use (d2 to d1000)."""

MAX_TEXT = 200
"""Longest entry text, in characters after trimming."""

_DIE = re.compile(r"^[dD]([0-9]+)$")
_RANGE = re.compile(r"^([0-9]+)(?:\s*-\s*([0-9]+))?$")
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029]")


class TableKind(Enum):
    """The tables the scenario generator draws on, by file stem.

    Source: G-M9 (objective, environment, creatures); BOONS is Tablée's addition for play
    without a game master ("something that helps the quest", G-M10), optional to use.
    """

    OBJECTIVES = "objectives"
    ENVIRONMENTS = "environments"
    CREATURES = "creatures"
    BOONS = "boons"


@dataclass(frozen=True)
class Entry:
    """One line of a table.

    Attributes:
        low: first face of the range, 1 or more.
        high: last face, ``low`` or more.
        text: what the entry says, trimmed.
        line: its line number in the file (1-based), for messages.
    """

    low: int
    high: int
    text: str
    line: int


@dataclass(frozen=True)
class Table:
    """A validated random table.

    Attributes:
        source: the file's name as shown in messages.
        die: the die rolled on it (``d6``, ``d12`` ...; faces 1..N).
        entries: the entries in face order, covering 1..N exactly once.
    """

    source: str
    die: Die
    entries: tuple[Entry, ...]

    def entry_for(self, face: int) -> Entry:
        """The entry a face selects.

        Args:
            face: a face of `die`.

        Returns:
            The entry whose range holds ``face``.

        Raises:
            InputError: the face is not a face of the table's die.
        """
        self.die.check_face(face)
        return next(e for e in self.entries if e.low <= face <= e.high)


@dataclass(frozen=True)
class GeneratorTables:
    """The four tables of one language or one group.

    Attributes:
        objectives: quest objectives; the drawn one names the adventure (G-M9 step 2).
        environments: where the agents arrive or move to (G-M9 step 3.1).
        creatures: who the challenge comes from when its source is creatures (G-M9 3.2).
        boons: what a success "that helps the quest" gives (Tablée's addition, G-M10).
    """

    objectives: Table
    environments: Table
    creatures: Table
    boons: Table

    @classmethod
    def of(cls, tables: Mapping[TableKind, Table]) -> GeneratorTables:
        """The four tables from a mapping of each kind to its table.

        Raises:
            KeyError: a kind without its table.
        """
        return cls(
            objectives=tables[TableKind.OBJECTIVES],
            environments=tables[TableKind.ENVIRONMENTS],
            creatures=tables[TableKind.CREATURES],
            boons=tables[TableKind.BOONS],
        )

    def table(self, kind: TableKind) -> Table:
        """The table of one kind."""
        return {
            TableKind.OBJECTIVES: self.objectives,
            TableKind.ENVIRONMENTS: self.environments,
            TableKind.CREATURES: self.creatures,
            TableKind.BOONS: self.boons,
        }[kind]


def table_fault(source: str, line: int, rule: str, **params: object) -> InputError:
    """The error for a table file breaking a rule of the format, naming the file and the line.

    Args:
        source: the file's name as shown.
        line: the line (1-based).
        rule: an English template saying what is wrong, marked `N_`.
        **params: the values filling ``rule``.

    Returns:
        The error, with a tip pointing to the format's description.

    Source: G-A13; the format is Tablée's.
    """
    return InputError(
        N_("table file {source!r}, line {line}: {rule}"),
        tip=N_("see 'Writing your own generator tables' in docs/rules/agents.md"),
        source=source,
        line=line,
        rule=Message(rule, **params),
    )


def _parse_die(text: str, source: str, line: int) -> Die:
    match = _DIE.match(text)
    sides = int(match.group(1)) if match and text.isascii() else 0
    if not 2 <= sides <= MAX_SIDES:
        raise table_fault(
            source,
            line,
            N_("{text!r} is not a die: write @die dN, N from 2 to {most}"),
            text=text,
            most=MAX_SIDES,
        )
    return Die(f"d{sides}", tuple(range(1, sides + 1)))


def _parse_entry(raw: str, die: Die, source: str, line: int) -> Entry:
    if "|" not in raw:
        raise table_fault(
            source, line, N_("an entry is 'range | text'; no '|' in {raw!r}"), raw=raw
        )
    left, text = (part.strip() for part in raw.split("|", 1))
    match = _RANGE.match(left) if left.isascii() else None
    if match is None:
        raise table_fault(
            source,
            line,
            N_("{range!r} is not a range: write one face (4) or two (2-3)"),
            range=left,
        )
    low = int(match.group(1))
    high = int(match.group(2)) if match.group(2) is not None else low
    if not 1 <= low <= high <= die.sides:
        raise table_fault(
            source,
            line,
            N_("range {range!r} must go upwards within 1..{sides} of the {die}"),
            range=left,
            sides=die.sides,
            die=die.name,
        )
    if not text:
        raise table_fault(source, line, N_("the entry for {range!r} has no text"), range=left)
    if len(text) > MAX_TEXT:
        raise table_fault(
            source,
            line,
            N_("the text has {count} characters; at most {most} are allowed"),
            count=len(text),
            most=MAX_TEXT,
        )
    if _CONTROL.search(text):
        raise table_fault(source, line, N_("the text holds a control character"))
    return Entry(low, high, text, line)


def _check_coverage(entries: Sequence[Entry], die: Die, source: str, last_line: int) -> None:
    owner: dict[int, Entry] = {}
    for entry in entries:
        for face in range(entry.low, entry.high + 1):
            if face in owner:
                raise table_fault(
                    source,
                    entry.line,
                    N_("face {face} is already given on line {other}"),
                    face=face,
                    other=owner[face].line,
                )
            owner[face] = entry
    missing = [face for face in die.faces if face not in owner]
    if missing:
        before = owner.get(missing[0] - 1)
        following = [owner[f] for f in die.faces if f > missing[0] and f in owner]
        line = before.line if before else following[0].line if following else last_line
        raise table_fault(
            source,
            line,
            N_("no entry for face {face} of the {die}: ranges leave a gap"),
            face=missing[0],
            die=die.name,
        )


def parse_table(text: str, source: str) -> Table:
    """Check one table file's contents and read its entries.

    Args:
        text: the file's text (a leading byte-order mark is allowed; lines end with LF or
            CRLF).
        source: the file's name, used in messages only.

    Returns:
        The table, entries sorted by face.

    Raises:
        InputError: naming the file, the line and the rule: an unknown or repeated
            directive, a missing or bad ``@die``, an entry without ``|``, a bad range, an
            empty, too long or control-character text, two entries for one face, a gap, or
            no entry at all.

    Source: G-A13 (replaceable tables); the format is Tablée's.
    """
    lines = text.removeprefix("\ufeff").split("\n")
    if lines[-1] == "":
        lines.pop()
    die: Die | None = None
    entries: list[Entry] = []
    for number, raw_line in enumerate(lines, start=1):
        raw = raw_line.strip()
        if not raw or raw.startswith("#"):
            continue
        if raw.startswith("@"):
            name, _, value = raw[1:].partition(" ")
            if name != "die":
                raise table_fault(
                    source, number, N_("unknown directive {raw!r}; only @die"), raw=raw
                )
            if die is not None or entries:
                raise table_fault(source, number, N_("@die must come once, before the entries"))
            die = _parse_die(value.strip(), source, number)
            continue
        if die is None:
            raise table_fault(source, number, N_("an entry comes before the @die line"))
        entries.append(_parse_entry(raw, die, source, number))
    last_line = max(len(lines), 1)
    if die is None:
        raise table_fault(source, last_line, N_("the file has no @die line"))
    if not entries:
        raise table_fault(source, last_line, N_("the file has no entry"))
    _check_coverage(entries, die, source, last_line)
    return Table(source, die, tuple(sorted(entries, key=lambda e: e.low)))


@dataclass(frozen=True)
class TableDraw:
    """One entry drawn from a table.

    Attributes:
        table: the table's source name.
        face: the face rolled.
        entry: the entry it selects.
        trace: one step.
    """

    table: str
    face: int
    entry: Entry
    trace: Trace


class TableDrawer:
    """The mechanic of a roll on a table: one die of the table's kind.

    Source: G-M9 steps 2, 3.1 and 3.2.
    """

    def dice_for(self, inputs: Table) -> DiceRequest:
        """One die of the table's kind."""
        return DiceRequest(inputs.die, 1)

    def resolve(self, inputs: Table, faces: Sequence[int]) -> TableDraw:
        """The entry selected by the one face.

        Raises:
            InputError: not exactly one face, or a face the table's die cannot show.
        """
        if len(faces) != 1:
            raise InputError(N_("a table roll takes 1 face, not {count}"), count=len(faces))
        entry = inputs.entry_for(faces[0])
        step = TraceStep(
            N_("{table}: {die} shows {face}: {text}"),
            {"table": inputs.source, "die": inputs.die.name, "face": faces[0], "text": entry.text},
        )
        return TableDraw(inputs.source, faces[0], entry, (step,))


TABLE_DRAW = TableDrawer()
"""The table-roll mechanic, for `tablee.dice.roll` and `exact_distribution`."""
