"""Protagoniste sheets read from JSON or TOML text: the shapes, field names and checks.

One reader for the command line (``tablee shs protagoniste import FILE``) and the web table
(the pasted-sheets form): one Protagoniste, a list, or ``protagonistes = [...]``; field
names in English or French; the five Caractéristiques checked as thresholds. Each sheet
becomes the keyword arguments of `tablee.systems.shs.decide_create`.

Source: seed 003; rulings S-M9, S-N1; docs/web.md, W-S1 (the same reader at the web table).
"""

from __future__ import annotations

from typing import Any

from tablee.errors import N_, InputError
from tablee.systems.common import read_document
from tablee.systems.shs.traits import parse_threshold

__all__ = ["SHEET_FIELDS", "parse_sheets"]

_CHARACTERISTICS = ("carrure", "motricite", "science", "relationnel", "sang_froid")

SHEET_FIELDS = {
    "name": "name",
    "nom": "name",
    "player": "owner",
    "joueur": "owner",
    "owner": "owner",
    "expertises": "expertises",
    "protection": "protection",
    "air": "air",
    **{c: c for c in _CHARACTERISTICS},
    "sang-froid": "sang_froid",
    "motricité": "motricite",
}
"""A sheet's field names (case-insensitive, English or French) -> `decide_create`'s argument."""


def parse_sheets(text: str, *, toml: bool, where: object) -> list[dict[str, Any]]:
    """The Protagonistes of a JSON or TOML text, each as `decide_create`'s arguments.

    Args:
        text: the file's or the pasted text.
        toml: read it as TOML (else JSON).
        where: what to call the text in messages (a file name, or a translatable
            `tablee.errors.Message` such as "the pasted text").

    Returns:
        One ``{"name", "carrure".."sang_froid" (thresholds 5 to 8), ...}`` per Protagoniste,
        in the text's order; the optional fields (``owner``, ``expertises``, ``protection``,
        ``air``) only when given.

    Raises:
        InputError: the text does not parse, holds no Protagoniste, or a sheet has an unknown
            or missing field or a bad threshold (naming ``where``, the sheet and the field).
    """
    data: Any = read_document(text, toml=toml, where=where)
    if isinstance(data, dict):
        for key in ("protagonistes", "protagoniste", "protagonists"):
            if key in data:
                data = data[key]
                break
    sheets = [data] if isinstance(data, dict) else data
    if not isinstance(sheets, list) or not sheets:
        raise InputError(
            N_("{file}: expected a Protagoniste or a list of Protagonistes"), file=where
        )
    return [_fields(where, number, sheet) for number, sheet in enumerate(sheets, start=1)]


def _fields(where: object, number: int, sheet: object) -> dict[str, Any]:
    if not isinstance(sheet, dict):
        raise InputError(
            N_("{file}: Protagoniste {number} is not a table of fields"),
            file=where,
            number=number,
        )
    fields: dict[str, Any] = {}
    for key, value in sheet.items():
        name = SHEET_FIELDS.get(str(key).strip().casefold())
        if name is None:
            raise InputError(
                N_("{file}: Protagoniste {number}: unknown field {field!r} (known: {known})"),
                file=where,
                number=number,
                field=key,
                known=", ".join(
                    ["name", "player", *_CHARACTERISTICS, "expertises", "protection", "air"]
                ),
            )
        fields[name] = value
    for required in ("name", *_CHARACTERISTICS):
        if required not in fields:
            raise InputError(
                N_("{file}: Protagoniste {number}: the field {field!r} is missing"),
                file=where,
                number=number,
                field=required,
            )
    for characteristic in _CHARACTERISTICS:
        try:
            fields[characteristic] = parse_threshold(fields[characteristic], what=characteristic)
        except InputError as exc:
            raise InputError(
                N_("{file}: Protagoniste {number}: {error}"), file=where, number=number, error=exc
            ) from None
    return fields
