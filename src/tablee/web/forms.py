"""A posted form read from its body: the plain URL-encoded forms of the table read directly.

Every form the table posts (a roll, an undo, the game master's settings) is a short
``application/x-www-form-urlencoded`` body such as ``csrf=...&player=A&reasons=k1``.
Starlette reads it with python-multipart's streaming parser, one callback per piece of each
field: about 40 microseconds of a roll's CPU. `posted_form` reads such a body in one pass
instead, and hands every other body to Starlette (`Request.form`) unchanged: another
content type, or a body that is not a plain list of ``name=value`` fields (an empty field
``a&&b``, a field with no ``=``, more fields or longer ones than Starlette accepts), whose
reading and refusals stay exactly Starlette's. For the bodies it reads itself, the fields are
those Starlette gives (the tests compare the two over arbitrary bodies).

Source: docs/architecture.md, "Web hot path".
"""

from __future__ import annotations

from urllib.parse import unquote_plus

from starlette.datastructures import FormData, UploadFile
from starlette.requests import Request

__all__ = ["MAX_FIELDS", "MAX_FIELD_BYTES", "plain_fields", "posted_form"]

URLENCODED = "application/x-www-form-urlencoded"
"""The content type a browser and htmx send a form as (no parameters)."""
MAX_FIELDS = 1000
"""Starlette's limit on a form's fields (``Request.form``'s ``max_fields``)."""
MAX_FIELD_BYTES = 1024 * 1024
"""Starlette's limit on one field's name and value together, in bytes as sent."""


def plain_fields(body: bytes) -> list[tuple[str, str | UploadFile]] | None:
    """The fields of a plain URL-encoded body, or None when it is not one.

    Args:
        body: the request's whole body.

    Returns:
        ``(name, value)`` in order, each decoded as Starlette does (``+`` and ``%XX``
        escapes, UTF-8; other bytes as Latin-1): the fields Starlette's form parser gives.
        None for a body it leaves to Starlette: empty, an empty field (``a=1&&b=2``, a
        trailing ``&``), a field without ``=``, more than `MAX_FIELDS` fields, or a field
        longer than `MAX_FIELD_BYTES`.
    """
    pieces = body.split(b"&")
    if len(pieces) > MAX_FIELDS:
        return None
    fields: list[tuple[str, str | UploadFile]] = []
    for piece in pieces:
        name, equals, value = piece.partition(b"=")
        if not equals or len(piece) > MAX_FIELD_BYTES:
            return None
        fields.append((unquote_plus(name.decode("latin-1")), unquote_plus(value.decode("latin-1"))))
    return fields


async def posted_form(request: Request) -> FormData:
    """The form posted with ``request``: read by `plain_fields`, else by Starlette.

    Raises:
        starlette.exceptions.HTTPException: 400, a form Starlette refuses (too many fields,
            a field too long, a malformed multipart body).
    """
    if request.headers.get("content-type") == URLENCODED:
        fields = plain_fields(await request.body())
        if fields is not None:
            return FormData(fields)
    return await request.form()
