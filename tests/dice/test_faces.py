"""One grammar for typed faces: the command line and the web table read them alike.

Every place where faces are typed goes through `tablee.dice.faces`: the CLI's ``--dice``
(`parse_dice`), the SHS ``--dpm-dice``, the web's ``faces`` fields (`ActionRequest.typed`)
and the SHS ``dpm_faces`` field. The table below is read through each pair of entry points
and must give the same faces or the same error.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, cast

import pytest

from tablee.cli.app import parse_dice
from tablee.dice import (
    D6,
    D8,
    D10,
    DPM,
    WHOLE_DIGITS,
    TypedFaces,
    is_whole_in_reach,
    parse_faces,
    read_whole,
    split_faces,
    typed_faces,
)
from tablee.errors import InputError, TableeError
from tablee.locale import translation
from tablee.table.store import LinkInfo
from tablee.web.access import Viewer
from tablee.web.systems import Action, ActionRequest, Field


def _parse_dpm(text: str | None) -> list[int] | None:
    """``--dpm-dice`` as the generated command line reads it (`tablee.cli.declared`)."""
    faces = typed_faces(text, DPM)
    return None if faces is None else list(faces)


INPUTS = [
    "1,4,5",
    "1;4;5",
    " 1 , 4 ",
    "1 4\t5",
    "1,,4;; 5",
    "+1,-1,0",
    "+,-,0",
    "٣,4",
    "1_0",
    "1.5",
    "",
    "   ",
    ",",
    "7",
    "-",
    "0x1",
    "４",
]


def _web(text: str, die: Any = None) -> list[int] | None:
    fields = (Field("faces", "faces"),)
    action = Action("roll", "roll", fields, run=lambda r: cast(Any, None), roles=frozenset({"gm"}))
    link = LinkInfo("0" * 64, "t", "abcd", "gm", None, datetime.now(UTC))
    request = ActionRequest(action, {"faces": text}, Viewer(link, "t", "en"), cast(Any, None))
    return request.typed("faces", die)


def _outcome(read: Any, text: str) -> tuple[str, object]:
    try:
        faces = read(text)
    except TableeError as error:
        french = error.render(translation("fr").gettext)
        return "error", (type(error).__name__, str(error), french)
    return "faces", None if faces is None else tuple(faces)


@pytest.mark.parametrize("text", INPUTS)
def test_cli_dice_and_web_faces_read_every_input_alike(text: str) -> None:
    assert _outcome(parse_dice, text) == _outcome(_web, text)


@pytest.mark.parametrize("text", INPUTS)
def test_cli_dpm_dice_and_web_dpm_faces_read_every_input_alike(text: str) -> None:
    assert _outcome(_parse_dpm, text) == _outcome(lambda t: _web(t, DPM), text)


def test_separators_mix() -> None:
    for text in ("1,4,5", "1;4;5", " 1 , 4 ,5 ", "1 4\n5", "1,4; 5", "\t1;4 ,5"):
        assert parse_faces(text, D6) == (1, 4, 5), text
    assert split_faces(" 1 , 4 ") == ("1", "4")
    assert parse_faces("", D6) == ()


@pytest.mark.parametrize(
    ("text", "position"), [("4,", "2nd"), ("1,,4", "2nd"), (",1", "1st"), ("1;4;;5", "3rd")]
)
def test_an_empty_face_in_a_list_is_refused(text: str, position: str) -> None:
    with pytest.raises(InputError, match=f"the {position} face is empty"):
        parse_faces(text, D6)
    with pytest.raises(InputError, match=f"the {position} face is empty"):
        parse_dice(text)


@pytest.mark.parametrize("text", ["1.0", "1_000", "+5", "\uff15", "\u0663", "5 5", "", "-", "--1"])
def test_read_whole_takes_only_a_minus_and_ascii_digits(text: str) -> None:
    assert read_whole(text) is None


def test_read_whole_limits_digits_and_sign() -> None:
    assert read_whole(" -12 ") == -12 and read_whole("007") == 7
    assert read_whole("-3", negative=False) is None
    assert read_whole("9" * WHOLE_DIGITS) == int("9" * WHOLE_DIGITS)
    too_long = read_whole("9" * 5000)
    assert too_long is not None and not is_whole_in_reach(too_long)
    negative = read_whole("-" + "1" * (WHOLE_DIGITS + 1))
    assert negative is not None and negative < 0 and not is_whole_in_reach(negative)


@pytest.mark.parametrize("text", ["+5", "\uff15", "1.0", "9" * 5000])
def test_typed_faces_refuse_what_int_would_take(text: str) -> None:
    with pytest.raises(InputError, match="is not a whole number"):
        parse_faces(text)


def test_blank_means_nothing_typed_in_both_interfaces() -> None:
    for text in (None, "", "  "):
        assert typed_faces(text) is None and parse_dice(text) is None
    assert _web("") is None and _web("   ") is None
    with pytest.raises(InputError, match="the 1st face is empty"):
        typed_faces(" , ")


def test_dpm_faces_are_plus_minus_and_zero() -> None:
    assert parse_faces("+,-,0", DPM) == (1, -1, 0)
    assert parse_faces("+1 -1 0", DPM) == (1, -1, 0)
    assert parse_faces("\N{MINUS SIGN}", DPM) == (-1,)
    assert _parse_dpm("-,+") == [-1, 1]  # --dpm-dice=-,+ (README)


@pytest.mark.parametrize(
    ("text", "die", "expected"),
    [
        ("1,4,7", D6, "face 7 (the 3rd) is not a face of a d6 (1 to 6)"),
        ("٣,4", D6, "face ٣ (the 1st) is not a face of a d6 (1 to 6)"),
        ("1_0", D8, "face 1_0 (the 1st) is not a face of a D8 (1 to 8)"),
        ("+", D6, "face + (the 1st) is not a face of a d6 (1 to 6)"),
        ("0,0,2", DPM, "face 2 (the 3rd) is not a face of a +/- die (+, - or 0)"),
        ("1 2 3 4 5 6 7 8 9 10 1 0", D10, "face 0 (the 12th) is not a face of a D10"),
        ("1,2,3,4,5,6,7,8,9,10,1,2,3,4,5,6,7,8,9,10,11", D10, "face 11 (the 21st)"),
        ("1,2,3,4,5,6,7,8,9,10,1,2,3,4,5,6,7,8,9,10,1,12", D10, "face 12 (the 22nd)"),
        ("1,2,3,4,5,6,7,8,9,10,1,2,3,4,5,6,7,8,9,10,1,2,13", D10, "face 13 (the 23rd)"),
        ("1_0", None, "face 1_0 (the 1st) is not a whole number"),
        ("4,٣", None, "face ٣ (the 2nd) is not a whole number"),
    ],
)
def test_errors_name_the_face_as_typed_its_position_and_the_die(
    text: str, die: Any, expected: str
) -> None:
    with pytest.raises(InputError) as info:
        parse_faces(text, die)
    assert expected in str(info.value)


def test_errors_in_french() -> None:
    with pytest.raises(InputError) as info:
        parse_faces("1,4,7", D6)
    assert info.value.render(translation("fr").gettext) == (
        "la face 7 (la 3e) n'est pas une face d'un d6 (1 à 6)"
    )
    with pytest.raises(InputError) as info:
        parse_faces("9", D6)
    assert "(la 1re)" in info.value.render(translation("fr").gettext)


def test_typed_faces_source_names_positions_across_requests() -> None:
    source = TypedFaces([3, 4, 7])
    assert source.roll(D6, 2) == (3, 4)
    with pytest.raises(InputError, match=r"face 7 \(the 3rd\) is not a face of a d6"):
        source.roll(D6, 1)
    text = TypedFaces("2 ; + , 9")
    assert text.roll(D6, 1) == (2,) and text.roll(DPM, 1) == (1,)
    with pytest.raises(InputError, match=r"face 9 \(the 3rd\)"):
        text.roll(DPM, 1)
    with pytest.raises(InputError, match=r"face \+ \(the 1st\) is not a face of a d6"):
        TypedFaces("+").expect(D6, 1)


def test_read_whole_takes_a_plus_only_for_a_change() -> None:
    assert read_whole("+4") is None
    assert read_whole("+4", plus=True) == 4 and read_whole("-4", plus=True) == -4
    assert read_whole("+-4", plus=True) is None and read_whole("++4", plus=True) is None
