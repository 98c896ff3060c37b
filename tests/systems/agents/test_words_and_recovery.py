"""What people read (words, not ids; separators in templates) and conceding on an empty reserve.

Log lines and errors are rendered with a stand-in translation that does what French does to
every template (a space before ``:`` and ``;``) and spells the id-like words in capitals: any
separator or id left outside a template then shows. Conceding is how an agent whose reserve
is empty gets it back (G-M8), even when nobody could act at all.

Source: seed 002; rulings G-M4, G-M8, G-M9, G-A15.
"""

import json
import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from tablee.errors import RuleError
from tablee.systems.agents import (
    Reserve,
    Standing,
    decide_action,
    decide_agent,
    decide_challenge,
    decide_concede,
    decide_consequence,
    decide_draw,
    decide_generate,
    decide_quest,
    decide_scene,
    describe,
    initial_state,
)
from tablee.systems.agents.words import MODIFIER_WORDS, TABLE_WORDS
from tablee.systems_io.agents_tables import starter_tables

GOLDEN = Path(__file__).parents[2] / "golden" / "agents_adventure.jsonl"
WORDS = {*MODIFIER_WORDS.values(), *TABLE_WORDS.values(), "won", "lost", "out", "under way"}


def french_like(template: str) -> str:
    """A stand-in translation: French spacing in every template, id-like words in capitals."""
    if template in WORDS:
        return template.upper()
    return re.sub(r"(?<!\s)([:;]) ", r" \1 ", template)


def golden_events() -> list[dict]:
    lines = GOLDEN.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def test_every_log_separator_lives_in_a_translatable_template():
    rendered = [
        describe(e["kind"], e["payload"]).render(french_like)
        for e in golden_events()
        if e["kind"].startswith("agents.")
    ]
    assert rendered
    for line in rendered:
        assert not re.search(r"\S[;:] ", line), line  # a "; " or ": " no template carried
        assert "starter:" not in line, line


def test_log_lines_name_tables_and_modifiers_in_words():
    events = golden_events()
    drawn = [e for e in events if e["kind"] == "agents.table_drawn"]
    ticked = [e for e in events if e["kind"] == "agents.action" and e["payload"]["modifiers"]]
    assert drawn and ticked
    for e in drawn:
        line = describe(e["kind"], e["payload"]).render(french_like)
        assert TABLE_WORDS[e["payload"]["table"]].upper() in line, line
    for e in ticked:
        line = describe(e["kind"], e["payload"]).render(french_like)
        words = ", ".join(MODIFIER_WORDS[m].upper() for m in e["payload"]["modifiers"])
        assert f"[{words}]" in line, line


def test_a_challenge_line_for_people_uses_a_template_for_its_score():
    from tablee.cli.agents.commands import challenge_lines

    doc = {
        "number": 1,
        "kind": "muscles",
        "label": "",
        "oppositions": [{"name": "Cha'zana", "score": 3, "start": 4}],
        "agents": [{"name": "Vega", "standing": "active", "spent": 0}],
        "outcome": None,
        "next": "Vega",
    }
    lines = challenge_lines(SimpleNamespace(tr=french_like), doc)
    assert "  1. Cha'zana : 3/4" in lines


@pytest.fixture
def state():
    s = initial_state({"players": [], "options": {}})
    for name, m, x, i in (("Vega", 7, 5, 3), ("Orso", 3, 7, 5)):
        s = decide_agent(s, name=name, muscles=m, sexe=x, intelligence=i).after
    return s


def _drain_muscles_of_orso(s):
    """Orso fails three times in a Muscles challenge of his own: Muscles 0."""
    s = decide_challenge(s, kind="muscles", agents=["Orso"], oppositions=[("wall", 9)]).after
    for _ in range(3):
        s = decide_action(s, challenge=1, agent="Orso", face=1).after
    assert s.agents["Orso"].reserve(Reserve.MUSCLES) == 0
    return s


def test_an_error_shows_standings_outcomes_and_statuses_as_words(state):
    s = _drain_muscles_of_orso(state)
    with pytest.raises(RuleError) as over:
        decide_action(s, challenge=1, agent="Orso", face=6)
    assert "(LOST)" in over.value.render(french_like)
    s = decide_challenge(
        s, kind="muscles", agents=["Vega", "Orso"], oppositions=[("guards", 4)]
    ).after
    s = decide_action(s, challenge=2, agent="Vega", face=5).after
    with pytest.raises(RuleError) as out:
        decide_action(s, challenge=2, agent="Orso", face=5)
    assert "(OUT ;" in out.value.render(french_like)


def test_an_agent_at_reserve_zero_may_concede_before_the_first_turn(state):
    s = _drain_muscles_of_orso(state)
    s = decide_challenge(
        s, kind="muscles", agents=["Vega", "Orso"], oppositions=[("guards", 4)]
    ).after
    assert s.challenges[2].standing["Orso"] is Standing.OUT  # out at once: Muscles 0
    s = decide_concede(s, challenge=2, agent="Orso").after
    assert s.agents["Orso"].reserve(Reserve.MUSCLES) == 3  # back to the start (G-A9)
    assert s.challenges[2].standing["Orso"] is Standing.CONCEDED
    s = decide_action(s, challenge=2, agent="Vega", face=5).after
    with pytest.raises(RuleError, match="G-M8"):  # the first turn is past
        decide_concede(s, challenge=2, agent="Vega")


def test_a_challenge_lost_at_once_may_still_be_conceded_until_settled(state):
    s = _drain_muscles_of_orso(state)
    tables = starter_tables("en")
    s = decide_quest(s, tables=tables, source="starter:en", face=1).after
    s = decide_scene(s).after
    # source 3 (creatures), relation 1 (hostile), type 1 (Muscles), score d6 6: 3 for one
    s = decide_generate(s, agents=["Orso"], faces=[3, 1, 1, 6]).after
    number = max(s.challenges)
    assert s.challenges[number].outcome == "lost"  # nobody could act
    conceded = decide_concede(s, challenge=number, agent="Orso").after
    assert conceded.agents["Orso"].reserve(Reserve.MUSCLES) == 3
    assert conceded.challenges[number].outcome == "lost"  # still a failure (G-A15)
    settled = decide_consequence(s, challenge=number).after
    with pytest.raises(RuleError, match="G-M8"):
        decide_concede(settled, challenge=number, agent="Orso")


def test_the_objective_table_cannot_be_drawn_again_during_the_quest(state):
    s = decide_quest(state, tables=starter_tables("en"), source="starter:en", face=2).after
    with pytest.raises(RuleError, match="G-M9") as refused:
        decide_draw(s, table="objectives", face=2)
    assert s.quest.objective.text not in refused.value.render()


def test_no_f_string_of_the_agents_code_puts_a_separator_outside_a_template():
    """French needs a space before ``:`` ``;`` ``?`` ``!``: only templates can give it."""
    import ast

    root = Path(__file__).parents[3] / "src" / "tablee"
    files = [*(root / "cli" / "agents").glob("*.py"), *(root / "systems" / "agents").glob("*.py")]
    assert len(files) > 10
    found = []
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.JoinedStr):
                for part in node.values:
                    if (
                        isinstance(part, ast.Constant)
                        and re.search(r"[:;?!]( |$)", part.value)
                        and part.value != "starter:"  # an id, not a separator
                    ):
                        found.append(f"{path.name}:{node.lineno} {part.value!r}")
    assert found == []


def test_a_bad_odds_input_says_which_number_it_is():
    from tablee.errors import InputError
    from tablee.systems.agents import challenge_win_probability

    with pytest.raises(InputError, match="opposition score -1"):
        challenge_win_probability([7], [0], -1)
    with pytest.raises(InputError, match="reserve -2"):
        challenge_win_probability([7, -2], [0, 0], 3)
