"""An opposed Action inside a simultaneous set (Tablée's reading S-X5), from the rules.

Each case is data: the set (its Tests, its trivial Actions, its opposed Action), the table's
options, the faces typed in, and the values the rules give, worked out by hand from S-M2
(PS from the dice and the D+/- read by the net modifier), S-M3 (netting), S-M4 and S-A5
(who prevails, ties), S-M5 (the option's Bonus 2, NT +1), S-M7 (the Malus k - 1 on the
acting side only) and S-X4 (netting across the sides).

Source: seed 003, "Actions simultanées", "Protagoniste contre Protagoniste", "Options";
rulings S-M2 to S-M7, S-A5, S-X3, S-X4, S-X5.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import pytest

from tablee.errors import InputError, NotFoundError, RuleError
from tablee.systems.shs import (
    Attempt,
    OpposedInSet,
    decide_kill,
    decide_simultaneous,
    decide_test,
    plan_simultaneous_set,
)
from tablee.systems.shs.commands import Simultaneous
from tablee.systems.shs.opposed import OpposedResult
from tablee.systems.shs.options import ShsOptions
from tests.systems.shs.test_game import apply, in_tour, line, table

# Jake: Motricité 6+, Science 7+; Nella: Carrure 7+ (tests.systems.shs.test_game.HEROES).
CASES: list[dict[str, Any]] = [
    {
        "id": "jake-runs-a-diagnostic-while-pulling-free-of-nella",
        "tests": [("science", 1)],
        "side": "motricite",
        "against": ("Nella", "carrure", {}),
        "faces": [([7, 1, 1], [0])],
        "fight": (([6, 6, 1], [-1]), ([7, 1, 1], [])),
        # k = 2: Malus 1 on the Test and on Jake's side only; "+" would not count, "-" does.
        "expected": {
            "set_malus": 1,
            "tests": [(1, True)],
            "first": {"dice": [3, -1], "ps": 1, "situation_malus": 1},
            "second": {"dice": [3], "ps": 1},
            "winner": "second",
            "tie": True,
            "status_quo": True,
        },
    },
    {
        "id": "the-opponent-seeks-the-change-and-loses-the-tie",
        "tests": [("science", 1)],
        "side": "motricite",
        "against": ("Nella", "carrure", {}),
        "changer": "second",
        "faces": [([7, 1, 1], [0])],
        "fight": (([6, 6, 1], [-1]), ([7, 1, 1], [])),
        "expected": {
            "set_malus": 1,
            "tests": [(1, True)],
            "first": {"dice": [3, -1], "ps": 1},
            "second": {"dice": [3], "ps": 1},
            "winner": "first",
            "tie": True,
            "status_quo": True,
        },
    },
    {
        "id": "an-opposed-action-and-a-trivial-one-symmetric-goals",
        "tests": [],
        "trivial": 1,
        "side": "motricite",
        "against": ("Nella", "carrure", {}),
        "changer": None,
        "fight": (([6, 6, 6], [-1]), ([7, 7, 1], [])),
        "expected": {
            "set_malus": 1,
            "tests": [],
            "first": {"dice": [3, -1], "ps": 2},
            "second": {"dice": [3], "ps": 2},
            "winner": None,
            "tie": True,
            "status_quo": True,
        },
    },
    {
        "id": "trivial-actions-not-counted-leave-no-malus",
        "options": {"trivial_actions_count": False},
        "tests": [],
        "trivial": 1,
        "side": "motricite",
        "against": ("Nella", "carrure", {}),
        "fight": (([6, 6, 1], []), ([7, 1, 1], [])),
        "expected": {
            "set_malus": 0,
            "tests": [],
            "first": {"dice": [3], "ps": 2},
            "second": {"dice": [3], "ps": 1},
            "winner": "first",
            "tie": False,
            "status_quo": False,
        },
    },
    {
        "id": "se-surpasser-on-the-opposed-side-nets-with-the-set-malus",
        "tests": [("science", 1)],
        "side": "motricite:surpasser",
        "against": ("Nella", "carrure", {}),
        "faces": [([1, 1, 1], [1])],
        # Bonus 2 - Malus 1: one D+/- read as a Bonus on Jake's side; NT +1 after it.
        "fight": (([6, 1, 1], [1]), ([8, 8, 1], [])),
        "expected": {
            "set_malus": 1,
            "tests": [(0, False)],
            "first": {"dice": [3, 1], "ps": 2, "nt_gain": 1},
            "second": {"dice": [3], "ps": 2},
            "winner": "second",
            "tie": True,
            "status_quo": True,
            "nt": {"Jake": 1},
        },
    },
    {
        "id": "netted-across-the-set-malus-is-a-bonus-for-the-opponent",
        "options": {"opposed_modifiers": "difference"},
        "tests": [("science", 1)],
        "side": "motricite",
        "against": ("Nella", "carrure", {"bonus": 1}),
        "faces": [([7, 1, 1], [0])],
        # Jake nets -1 (the set's Malus), Nella +1: the difference, 2, is Nella's Bonus.
        "fight": (([6, 6, 1], []), ([7, 1, 1], [1, 0])),
        "expected": {
            "set_malus": 1,
            "tests": [(1, True)],
            "first": {"dice": [3], "ps": 2},
            "second": {"dice": [3, 2], "ps": 2},
            "winner": "second",
            "tie": True,
            "status_quo": True,
        },
    },
    {
        "id": "a-tie-rolled-again-under-the-house-rule",
        "options": {"opposed_tie": "reroll"},
        "tests": [("science", 1), ("carrure", 1)],
        "side": "motricite",
        "against": ("Nella", "carrure", {}),
        # k = 3: Malus 2 on each Test and on Jake's side.
        "faces": [([7, 7, 1], [-1, 0]), ([6, 1, 1], [0, 0])],
        "fight": (([6, 6, 6], [-1, 0]), ([7, 7, 1], [])),
        "expected": {
            "set_malus": 2,
            "tests": [(1, True), (1, True)],
            "first": {"dice": [3, -2], "ps": 2, "situation_malus": 2},
            "second": {"dice": [3], "ps": 2},
            "winner": None,
            "tie": True,
            "reroll": True,
            "status_quo": True,
        },
    },
]


def _opposed(case: dict[str, Any]) -> OpposedInSet:
    side_char, *words = case["side"].split(":")
    name, characteristic, extra = case["against"]
    side = Attempt("Jake", side_char, surpass="surpasser" in words)
    return OpposedInSet(side, Attempt(name, characteristic, **extra), case.get("changer", "first"))


def _decide(case: dict[str, Any], state: Any = None) -> Any:
    state = state or in_tour(table("Jake", "Nella", options=case.get("options")))
    tests = [Attempt("Jake", c, d) for c, d in case["tests"]]
    decision = decide_simultaneous(
        state,
        tests,
        faces=case.get("faces", []),
        trivial=case.get("trivial", 0),
        opposed=_opposed(case),
        opposed_faces=case["fight"],
    )
    return state, decision


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_an_opposed_action_in_a_set_s_x5(case: dict[str, Any]) -> None:
    state, decision = _decide(case)
    expected = case["expected"]
    (fact,) = decision.facts
    p = fact.payload
    assert p["set_malus"] == expected["set_malus"]
    assert [(a["ps"], a["success"]) for a in p["actions"]] == expected["tests"]
    fight = p["opposed"]
    for side in ("first", "second"):
        for key, value in expected[side].items():
            assert fight[side][key] == value, (side, key)
    assert "situation_malus" not in fight["second"]  # the opponent is not in the set
    for key in ("winner", "tie", "status_quo"):
        assert fight[key] == expected[key], key
    assert fight["reroll"] is expected.get("reroll", False)
    assert fight["changer"] == case.get("changer", "first")
    *tests, fought = decision.outcome
    assert isinstance(fought, OpposedResult) and len(tests) == len(case["tests"])
    after = apply(state, decision)  # the fold applies the recorded outcome, the same state
    assert after.clock.acted == ("Jake", "Nella")
    for name, nt in expected.get("nt", {}).items():
        assert after.protagonists[name].nt == nt


def test_the_set_malus_is_named_first_in_the_acting_sides_trace() -> None:
    _, decision = _decide(CASES[0])
    fought = decision.outcome[-1]
    assert fought.first.trace[0].render() == "simultaneous Actions: a Malus of 1 on each"
    assert "simultaneous" not in fought.second.trace[0].render()


def test_the_opposed_side_counts_in_the_one_option_check_s_m5() -> None:
    state = in_tour(table("Jake", "Nella"))
    opposed = OpposedInSet(
        Attempt("Jake", "motricite", sacrifice=True), Attempt("Nella", "carrure")
    )
    with pytest.raises(RuleError, match=r"Action 2 .*Se Sacrifier.*S-M5"):
        plan_simultaneous_set(state, [Attempt("Jake", "science", 1, surpass=True)], 0, opposed)
    # The opponent's own option is not the set's.
    theirs = OpposedInSet(Attempt("Jake", "motricite"), Attempt("Nella", "carrure", surpass=True))
    tests, fight = plan_simultaneous_set(
        state, [Attempt("Jake", "science", 1, surpass=True)], 0, theirs
    )
    assert fight is not None and fight.second.surpass and tests[0].malus == 1


@pytest.mark.parametrize(
    ("opposed", "error", "words"),
    [
        ((Attempt("Jake", "motricite"), Attempt("jake", "carrure")), InputError, "themselves"),
        ((Attempt("Nella", "motricite"), Attempt("Jake", "carrure")), InputError, "S-M7"),
        ((Attempt("Jake", "motricite"), Attempt("Nobody", "carrure")), NotFoundError, "Nobody"),
        ((Attempt("Jake", "motricite", 2), Attempt("Nella", "carrure")), InputError, "S-M4"),
    ],
)
def test_a_bad_opposed_action_in_a_set_is_refused(
    opposed: tuple[Attempt, Attempt], error: type[Exception], words: str
) -> None:
    state = in_tour(table("Jake", "Nella"))
    with pytest.raises(error, match=words):
        plan_simultaneous_set(state, [Attempt("Jake", "science", 1)], 0, OpposedInSet(*opposed))


def test_a_dead_opponent_cannot_oppose() -> None:
    state = table("Jake", "Nella")
    state = apply(state, decide_kill(state, protagonist="Nella"))
    with pytest.raises(RuleError):
        plan_simultaneous_set(
            state, [], 0, OpposedInSet(Attempt("Jake", "motricite"), Attempt("Nella", "carrure"))
        )


def test_faces_must_match_the_opposed_action() -> None:
    case = CASES[0]
    state = in_tour(table("Jake", "Nella"))
    with pytest.raises(InputError, match="S-X5"):
        decide_simultaneous(state, [Attempt("Jake", "science", 1)], faces=case["faces"],
                            opposed=_opposed(case))  # fmt: skip
    with pytest.raises(InputError, match="S-X5"):
        decide_simultaneous(state, [Attempt("Jake", "science", 1)], faces=case["faces"],
                            opposed_faces=case["fight"])  # fmt: skip


def test_the_command_reads_its_opposed_fields() -> None:
    command = Simultaneous(
        protagoniste="Jake",
        opposed="motricite:bonus=1:surpasser",
        against="Nella:carrure:expertise=Lutter",
        opposed_changer="opponent",
    )
    found = command.opposed_action()
    assert found == OpposedInSet(
        Attempt("Jake", "motricite", None, None, 1, 0, True, False),
        Attempt("Nella", "carrure", None, "Lutter"),
        "second",
    )
    assert Simultaneous(protagoniste="Jake", actions=("science:1",)).opposed_action() is None
    for given in ({"opposed": "motricite"}, {"against": "Nella:carrure"},
                  {"opposed_changer": "none"}):  # fmt: skip
        with pytest.raises(InputError, match="S-X5"):
            Simultaneous(protagoniste="Jake", **given).opposed_action()
    with pytest.raises(InputError, match="'2' is not an option"):
        Simultaneous(protagoniste="Jake", opposed="motricite:2", against="Nella:carrure")\
            .opposed_action()  # fmt: skip


def test_the_log_line_shows_each_action_including_the_opposed_one() -> None:
    _, decision = _decide(CASES[0])
    assert line(decision) == (
        "Jake attempts 2 simultaneous Actions, Malus 1 each: Test (Science, 1): D8 7, 1, 1, "
        "D+/- 0: 1 PS, success; against Nella: Jake with Motricité: D8 6, 6, 1, D+/- -: 1 PS; "
        "Nella with Carrure: D8 7, 1, 1: 1 PS; a tie at 1 PS: Jake sought the change and does "
        "not get it; Nella keeps the situation as it was"
    )


def test_an_opponent_who_already_acted_this_tour_gets_the_notice_s_x3() -> None:
    state = in_tour(table("Jake", "Nella"))
    state = apply(state, decide_test(state, Attempt("Nella", "science", 1), action_faces=[7, 1, 1],
                                     dpm_faces=[]))  # fmt: skip
    _, decision = _decide(CASES[0], state)
    assert [w.render().split(" ")[0] for w in decision.warnings] == ["Nella"]


def _ps(threshold: int, faces: tuple[int, ...], dpm: tuple[int, ...] = ()) -> int:
    """S-M2 read from the text: one PS per die at the threshold or more; each "-" of a
    Malus takes one away (a "+" counts for nothing)."""
    return sum(f >= threshold for f in faces) - sum(d == -1 for d in dpm)


def test_the_odds_of_the_acting_side_equal_a_brute_force() -> None:
    # Jake 6+ with the set's Malus 1 (one D+/-) against Nella 7+, Jake seeking the change:
    # he prevails only with more PS (S-A5).
    d8 = range(1, 9)
    wins = total = 0
    for jake, dpm, nella in itertools.product(
        itertools.product(d8, repeat=3), [(1,), (-1,), (0,)], itertools.product(d8, repeat=3)
    ):
        weight = 2  # each D+/- face shows twice on the die
        wins += weight * (_ps(6, jake, dpm) > _ps(7, nella))
        total += weight
    assert Fraction(wins, total) == Fraction(11745, 32768)
    from tablee.systems.shs.display import odds

    state = in_tour(table("Jake", "Nella"))
    command = Simultaneous(
        protagoniste="Jake", actions=("science:1",), opposed="motricite", against="Nella:carrure"
    )
    shown = odds(state, command)
    assert shown is not None
    assert shown.data["opposed"]["first"] == "11745/32768"  # type: ignore[index]
    assert shown.data["actions"][0]["success"] == "7/16"  # type: ignore[index]
    assert ShsOptions().trivial_actions_count


# --- through the plugin: one event, stored at version 4, checked again ----------------------


def _plugin_decision(given: dict[str, Any], action: str, dpm: str) -> tuple[Any, Any]:
    from tablee.systems.declare import build_command
    from tablee.systems.shs.plugin import SHS
    from tests.systems.shs.test_plugin import source

    state = in_tour(table("Jake", "Nella"))
    command = build_command(SHS.command_named("simultaneous"), given)
    faces = source((action, dpm))
    decision = SHS.decide(state, command, _chance(faces))
    faces.finish()
    return state, decision


def _chance(faces: Any) -> Any:
    from tablee.dice import SourceChance

    return SourceChance(faces)


SET = {
    "protagoniste": "Jake",
    "actions": ["science:1"],
    "opposed": "motricite",
    "against": "Nella:carrure",
}
"""The first case through the declared command: Test 7,1,1 and a blank; Jake 6,6,1 and a
"-"; Nella 7,1,1 (the faces in order: the Tests', then Jake's side, then Nella's)."""


def test_the_set_is_one_event_at_version_4_that_the_verifier_accepts() -> None:
    from tablee.systems.shs.events import SimultaneousRolled
    from tablee.systems.shs.plugin import SHS

    state, decision = _plugin_decision(SET, "7,1,1,6,6,1,7,1,1", "0,-")
    (event,) = decision.events
    assert isinstance(event, SimultaneousRolled) and SimultaneousRolled.version == 4
    assert event.opposed is not None and event.opposed.winner == "second"
    assert event.odds is not None and event.odds["opposed"]["first"] == "11745/32768"
    payload = event.payload()
    assert SimultaneousRolled.from_payload(payload).payload() == payload
    assert SHS.apply(state, event) == decision.after
    after, changed = SHS.verify(state, event.kind, payload)
    assert changed is None and after == decision.after
    command, faces = event.inputs()
    assert (command.opposed, command.against, command.opposed_changer) == (
        "motricite",
        "Nella:carrure",
        "protagoniste",
    )
    assert faces == (7, 1, 1, 0, 6, 6, 1, -1, 7, 1, 1)
    edited = {**payload, "opposed": {**payload["opposed"], "winner": "first"}}
    assert SHS.verify(state, event.kind, edited)[1] is not None  # an edited outcome is found


def test_a_version_3_set_reads_with_no_opposed_action() -> None:
    from tablee.systems.shs.events import SimultaneousRolled
    from tablee.systems.shs.plugin import SHS

    state, decision = _plugin_decision(
        {"protagoniste": "Jake", "actions": ["science:1", "motricite:1"]}, "7,1,1,6,1,1", "0,0"
    )
    stored = decision.events[0].payload()
    del stored["opposed"]  # as version 3 stored it
    upgraded = SimultaneousRolled.upgrade(stored, 3)
    assert upgraded["opposed"] is None
    event = SimultaneousRolled.from_payload(upgraded)
    assert event.opposed is None and event.inputs()[0].opposed is None
    assert SHS.verify(state, event.kind, upgraded)[1] is None


def test_the_card_and_the_report_show_each_action_including_the_opposed_one() -> None:
    from tablee.systems.shs.plugin import SHS

    _, decision = _plugin_decision(SET, "7,1,1,6,6,1,7,1,1", "0,-")
    (event,) = decision.events
    card = SHS.card(event, decision.after)
    assert card is not None
    assert [g.label.render() for g in card.groups] == [
        "Action 1: Jake (Science 7+)",
        "Action 2: Jake (Motricité 6+)",
        "against it: Nella (Carrure 7+)",
    ]
    assert [(d.face, d.mark) for d in card.groups[1].dice] == [
        (6, "scores"), (6, "scores"), (1, "missed"), (-1, "scores"),
    ]  # fmt: skip
    assert card.result.render() == (
        "Action 1: Success: 1 PS against Difficulty 1; "
        "Action 2: A tie at 1 PS: Nella keeps the situation"
    )
    assert card.tone == "setback"
    assert card.odds is not None and card.odds.rows[-2][1] == Fraction(11745, 32768)
    report = SHS.report(build(SET), decision)
    text = [ln.text if isinstance(ln.text, str) else ln.text.render() for ln in report.lines]
    assert text[0] == "Jake: 2 simultaneous Actions, Malus 1 on each"
    assert "Nella (Carrure): 1 PS" in text and text[-1] == (
        "A tie at 1 PS: Jake sought the change and does not get it; Nella keeps the "
        "situation as it was."
    )
    assert report.data["opposed"]["first"]["situation_malus"] == 1
    details = [d if isinstance(d, str) else d.render() for d in SHS.details(event)]
    assert details[details.index("Jake") + 1] == "simultaneous Actions: a Malus of 1 on each"


def build(given: dict[str, Any]) -> Any:
    from tablee.systems.declare import build_command
    from tablee.systems.shs.plugin import SHS

    return build_command(SHS.command_named("simultaneous"), given)


def test_a_set_stored_by_tablee_0_2_0_reads_with_no_opposed_action() -> None:
    import json
    from pathlib import Path

    from tablee.systems.shs.events import SimultaneousRolled

    log = Path(__file__).parents[2] / "fixtures" / "v0_2_0" / "nostromo.jsonl"
    rows = [json.loads(text) for text in log.read_text(encoding="utf-8").splitlines()]
    (row,) = [r for r in rows if r.get("kind") == "shs.simultaneous"]
    assert row["schema_version"] == 1
    upgraded = SimultaneousRolled.upgrade(row["payload"], row["schema_version"])
    event = SimultaneousRolled.from_payload(upgraded)
    assert event.opposed is None and upgraded["opposed"] is None and event.odds is None
    command, faces = event.inputs()
    assert command.opposed is None and command.opposed_action() is None
    assert len(faces) == sum(len(a.faces) for a in event.actions)
