"""A posted form read directly (`tablee.web.forms`) gives the fields Starlette's parser gives.

`plain_fields` reads a plain URL-encoded body in one pass and leaves every other body to
Starlette: over arbitrary bodies (escapes, ``+``, ``=`` in values, bytes that are not UTF-8,
empty fields, fields with no ``=``), the fields it reads equal those of Starlette's form
parser, fed the same body whole or in pieces.

Source: docs/architecture.md, "Web hot path".
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator

from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.datastructures import Headers
from starlette.formparsers import FormParser

from tablee.web.forms import MAX_FIELDS, plain_fields


def starlette_fields(body: bytes, piece: int = 0) -> list[tuple[str, str]]:
    """The fields Starlette's own parser reads from ``body`` (sent in ``piece``-byte chunks)."""

    async def stream() -> AsyncGenerator[bytes, None]:
        step = piece or max(len(body), 1)
        for start in range(0, len(body), step):
            yield body[start : start + step]
        yield b""

    async def parse() -> list[tuple[str, str]]:
        form = await FormParser(Headers(), stream()).parse()
        return [(k, v) for k, v in form.multi_items() if isinstance(v, str)]

    return asyncio.run(parse())


BODY = st.lists(st.sampled_from([b"a", b"=", b"&", b"+", b"%2B", b"%C3%A9", b"\xe9", b"%", b";"]))


@given(BODY.map(b"".join), st.integers(min_value=0, max_value=4))
@settings(max_examples=300, deadline=None)
def test_plain_fields_are_starlettes(body: bytes, piece: int) -> None:
    fields = plain_fields(body)
    if fields is not None:
        assert fields == starlette_fields(body, piece)


def test_a_roll_form_is_read_directly() -> None:
    body = b"csrf=abc.def&player=A&reasons=k%C3%A9+1%2B2&form_key=x%3Dy"
    expected = [("csrf", "abc.def"), ("player", "A"), ("reasons", "ké 1+2"), ("form_key", "x=y")]
    assert plain_fields(body) == expected == starlette_fields(body)


def test_other_bodies_are_left_to_starlette() -> None:
    for body in (b"", b"a", b"a=1&&b=2", b"a=1&", b"&a=1", b"a=1&b"):
        assert plain_fields(body) is None, body
    assert plain_fields(b"&".join([b"a=1"] * MAX_FIELDS)) is not None
    assert plain_fields(b"&".join([b"a=1"] * (MAX_FIELDS + 1))) is None  # Starlette refuses
