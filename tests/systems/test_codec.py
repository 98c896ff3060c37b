"""Reading stored values back into their types (`tablee.systems.codec.decode`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal, Optional

import pytest

from tablee.errors import InputError
from tablee.systems.codec import decode


@pytest.mark.parametrize(
    ("hint", "value"),
    [
        (int, 3),
        (int, -2),
        (str, "Ada"),
        (bool, False),
        (int | None, None),
        (int | None, 4),
        (Optional[int], 4),  # noqa: UP045 - the older spelling reads the same
        (tuple[int, ...], [1, 4, 6]),
        (tuple[str, int], ["a", 1]),
        (Mapping[str, int], {"a": 1}),
        (Literal["a", "b"], "b"),
        (Annotated[int, "a note"], 5),
        (Annotated[int, ["unhashable", "metadata"]], 5),
        (Any, {"x": [1]}),
    ],
)
def test_decode_reads_each_shape(hint: Any, value: Any) -> None:
    found = decode(hint, value)
    expected = tuple(value) if isinstance(value, list) else value
    assert found == expected and type(found) is type(expected)
    assert decode(hint, value) == found  # asked again (its shape now known): the same


@pytest.mark.parametrize(
    ("hint", "value", "kind"),
    [
        (int, True, "int"),
        (int, "3", "int"),
        (str, 3, "str"),
        (bool, 1, "bool"),
        (int | None, "x", "int"),
        (tuple[int, ...], 3, "list"),
        (Literal["a", "b"], "c", "a | b"),
        (Annotated[int, ["unhashable"]], "x", "int"),
    ],
)
def test_decode_refuses_a_value_of_another_type_naming_the_field(
    hint: Any, value: Any, kind: str
) -> None:
    with pytest.raises(InputError) as caught:
        decode(hint, value, "bonus")
    assert caught.value.params == {"field": "bonus", "value": value, "kind": kind}
