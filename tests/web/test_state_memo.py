"""What is made once per state (`tablee.web.memo.StateMemo`) and shared by every viewer.

The panels, choice lists, who may act and an event's line are computed once per state and
then reused for each viewer: every viewer must still receive exactly what computing
everything for that viewer alone gives (a memo that keeps nothing), hidden rolls included.

Source: docs/architecture.md, "Web hot path"; docs/web.md, "Security model".
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar

import pytest
from fastapi.testclient import TestClient

from tablee.table.service import TableService
from tablee.table.sqlite_store import SqliteStore
from tablee.web import declared, render
from tablee.web.memo import STATES_KEPT, StateMemo, kept_value
from tablee.web.render import choices_html, resources_html, stream_fragment
from tests.web.conftest import make_table
from tests.web.test_hot_path import viewers_of
from tests.web.test_systems import act

V = TypeVar("V")


class KeepsNothing(StateMemo):
    """A memo that computes every value again: each viewer's own rendering."""

    def get(self, state: object, key: Hashable, make: Callable[[], V]) -> V:
        return make()


def test_each_viewer_gets_what_computing_for_it_alone_gives(
    client: TestClient, store: SqliteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    links = make_table(store)
    gm, zoe, ana = links.gm, links.players["Zoé"], links.players["Ana"]
    everyone = viewers_of(store, [gm, zoe, ana, links.spectator], links.name)
    service = TableService(store)
    steps = [
        (gm, "session-start", {}),
        (gm, "roll", {"player": "Zoé", "faces": "6", "visibility": "gm"}),
        (zoe, "roll", {"faces": "3", "visibility": "roller_and_gm"}),
        (gm, "reward", {"amount": "2"}),
        (ana, "roll", {"faces": "5"}),
    ]
    differ = set()
    for link, action, fields in steps:
        assert act(client, link, action, **fields)[0] == 200, action
        state = service.state(links.name)
        by_seq = {e.seq: e for e in state.events}

        def parts(viewer: Any, state: Any = state, by_seq: Any = by_seq) -> tuple[str, ...]:
            event = state.events[-1]
            return (
                stream_fragment([event], state, viewer, by_seq),
                resources_html(state, viewer),
                choices_html(state, viewer),
            )

        with monkeypatch.context() as patched:
            patched.setattr(declared, "_MEMO", KeepsNothing())
            patched.setattr(render, "_MEMO", KeepsNothing())
            alone = [parts(viewer) for viewer in everyone]
        shared = [parts(viewer) for viewer in everyone]  # one memo for every viewer
        assert shared == alone
        differ |= {p[0] for p in alone}
    assert len(differ) > len(everyone)  # viewers and states did get different messages


def test_a_value_is_made_once_per_state_and_not_kept_when_it_fails() -> None:
    memo = StateMemo()
    first, second = object(), object()
    made: list[str] = []

    def make(tag: str) -> Callable[[], str]:
        return lambda: made.append(tag) or tag

    assert memo.get(first, "k", make("a")) == "a"
    assert memo.get(first, "k", make("b")) == "a"  # kept for that state
    assert memo.get(second, "k", make("c")) == "c"  # another state: made again
    assert made == ["a", "c"]

    def fails() -> str:
        raise ValueError("no")

    with pytest.raises(ValueError, match="no"):
        memo.get(first, "bad", fails)
    assert memo.get(first, "bad", make("d")) == "d"  # the failure was not kept


def test_the_memo_stays_bounded() -> None:
    memo = StateMemo()
    states = [object() for _ in range(STATES_KEPT * 3)]
    for state in states:
        memo.get(state, "k", lambda: 1)
    assert len(memo._kept) <= STATES_KEPT
    made: list[int] = []
    memo.get(states[0], "k", lambda: made.append(1) or 1)  # long dropped: made again
    assert made == [1]


def test_a_kept_value_is_made_once_and_the_oldest_half_goes_past_the_limit() -> None:
    kept: dict[int, str] = {}
    made: list[int] = []

    def make(n: int) -> Callable[[], str]:
        return lambda: made.append(n) or str(n)  # type: ignore[func-returns-value]

    assert kept_value(kept, 1, 4, make(1)) == "1"
    assert kept_value(kept, 1, 4, make(99)) == "1"  # kept: not made again
    for n in (2, 3, 4, 5):
        kept_value(kept, n, 4, make(n))
    assert list(kept) == [3, 4, 5]  # at 4 keys, 1 and 2 went before 5 came
    assert made == [1, 2, 3, 4, 5]
