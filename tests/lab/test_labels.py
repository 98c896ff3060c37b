"""Every label a lab result shows reads in French: each template has a French entry."""

import re
from collections.abc import Iterator

import pytest

from tablee.errors import Message
from tablee.lab import QUESTIONS, question_named
from tablee.lab.questions import LabContext
from tablee.lab.results import Label, LabResult
from tablee.locale import translation
from tablee.systems.declare import build_command, fields_of


def _templates(label: Label) -> Iterator[str]:
    if isinstance(label, Message):
        yield label.template
        for value in label.params.values():
            if isinstance(value, Message | str):
                yield from _templates(value) if isinstance(value, Message) else ()
    elif label:
        yield label


def _labels(result: LabResult) -> Iterator[Label]:
    yield result.title
    yield from (c.label for c in result.columns)
    yield from (c.title for c in result.charts)
    yield from (p.label for p in result.policies)
    yield from (v.label for v in result.variants)
    yield from result.notes


def _small(cls: type) -> dict[str, str]:
    """The question's fields at their smallest, so a simulation runs few trials."""
    given: dict[str, str] = {}
    for spec in fields_of(cls):
        if spec.name == "trials" and spec.param.low is not None:
            given[spec.name] = str(spec.param.low)
    return given


def _words(template: str) -> bool:
    """Whether a template holds words to translate (not only ``{fields}``, digits, dashes)."""
    return any(ch.isalpha() for ch in re.sub(r"\{[^}]*\}", "", template))


GAME_TERMS = {"Désastre", "Défaite", "Revers", "Succès", "Victoire", "Triomphe"}


@pytest.mark.parametrize("question_id", sorted(QUESTIONS))
def test_every_label_of_a_question_has_a_french_entry(question_id: str) -> None:
    game, name = question_id.split("/", 1)
    cls = question_named(game, name)
    result = build_command(cls, _small(cls)).answer(LabContext())
    entries = translation("fr")._catalog  # type: ignore[attr-defined]
    missing = [
        template
        for label in _labels(result)
        for template in _templates(label)
        if template not in GAME_TERMS and _words(template) and not entries.get(template)
    ]
    assert not missing, missing


@pytest.mark.parametrize("question_id", sorted(QUESTIONS))
def test_every_question_records_each_of_its_fields_to_replay_the_run(question_id: str) -> None:
    game, name = question_id.split("/", 1)
    cls = question_named(game, name)
    question = build_command(cls, _small(cls))
    result = question.answer(LabContext())
    assert set(result.inputs) == {spec.name for spec in fields_of(cls)}
    again = build_command(cls, {k: _text(v) for k, v in result.inputs.items()})
    assert again == question


def _text(value: object) -> str:
    """An input as typed again (a yes or no as the word the parser reads)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
