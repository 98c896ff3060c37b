"""The same checks over every web system module: the protocol docs/web.md describes."""

from __future__ import annotations

import pytest

from tablee.systems import SYSTEM_IDS
from tablee.web.systems import web_system

KINDS = {"text", "lines", "longtext", "int", "bool", "choice"}
RESERVED = {"csrf", "faces", "visibility"}


@pytest.mark.parametrize("system_id", sorted(SYSTEM_IDS))
def test_web_module_follows_the_protocol(system_id: str) -> None:
    web = web_system(system_id)
    assert web is not None and web.id == system_id and web.title
    ids = [a.id for a in web.actions()]
    assert len(ids) == len(set(ids)) and all(
        i.replace("_", "").replace("-", "").isalnum() for i in ids
    )
    for action in web.actions():
        names = [f.name for f in action.fields]
        assert len(names) == len(set(names)), action.id
        assert not RESERVED & set(names), action.id
        assert all(f.kind in KINDS for f in action.fields), action.id
        assert action.roles <= {"gm", "player"} and "gm" in action.roles
        if action.odds is not None:
            assert action.rolled, action.id


def test_systems_without_a_web_module_are_not_offered() -> None:
    assert web_system("no-such-system") is None
