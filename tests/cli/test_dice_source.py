"""The command line's one choice of a dice source: typed faces, else a seed, else fair dice."""

from __future__ import annotations

import pytest

from tablee.cli.dice_source import dice_source, typed_faces
from tablee.dice import D6, FairSource, SeededSource, TypedFaces
from tablee.errors import InputError


def test_typed_faces_win_over_a_seed_and_are_handed_out_in_order() -> None:
    source, typed = dice_source("6, 1,3", seed=4)
    assert isinstance(source, TypedFaces) and typed is source
    assert source.roll(D6, 2) == (6, 1)
    with pytest.raises(InputError, match="faces were typed in but the roll needs 2"):
        typed.finish()


def test_a_seed_rolls_as_the_seeded_source_does() -> None:
    source, typed = dice_source(None, seed=11)
    assert typed is None
    assert source.roll(D6, 8) == SeededSource(11).roll(D6, 8)


def test_neither_gives_fair_dice() -> None:
    source, typed = dice_source(None, seed=None)
    assert isinstance(source, FairSource) and typed is None


@pytest.mark.parametrize("flag", ["--dice", "--gm-dice"])
def test_a_part_that_is_not_a_number_names_the_option_and_the_value(flag: str) -> None:
    with pytest.raises(InputError) as caught:
        typed_faces("1,x", flag)
    assert caught.value.render(lambda s: s).startswith(f"{flag}: face x (the 2nd) is not a whole")


def test_no_text_is_no_typed_faces() -> None:
    assert typed_faces(None, "--gm-dice") is None
    assert typed_faces("", "--gm-dice") == []
