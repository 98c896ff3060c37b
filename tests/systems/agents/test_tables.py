"""Generator table files: the starter tables, and one test per kind of malformed file."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tablee.dice import SeededSource, TypedFaces, exact_distribution, roll
from tablee.errors import InputError
from tablee.systems.agents.tables import MAX_TEXT, TABLE_DRAW, TableKind, parse_table
from tablee.systems_io.agents_tables import (
    LANGUAGES,
    decode_table,
    load_table_file,
    load_tables,
    starter_tables,
)

GOOD = "# a comment\n\n@die d6\n1 | one\n2-3 | two or three\n 4 - 6 |  the rest  \n"


def _fault(content: str | bytes) -> str:
    """The error for a file's text, or for its bytes read as a file is (decoded, then parsed)."""
    with pytest.raises(InputError) as info:
        text = content if isinstance(content, str) else decode_table(content, "mine.txt")
        parse_table(text, "mine.txt")
    message = str(info.value)
    assert "'mine.txt'" in message
    return message


def test_a_good_file():
    table = parse_table(GOOD, "mine.txt")
    assert table.die.sides == 6
    assert [(e.low, e.high, e.text, e.line) for e in table.entries] == [
        (1, 1, "one", 4),
        (2, 3, "two or three", 5),
        (4, 6, "the rest", 6),
    ]
    assert table.entry_for(3).text == "two or three"
    assert table.entry_for(6).text == "the rest"


def test_entries_in_any_order_and_a_byte_order_mark():
    table = parse_table("\ufeff@die d4\n3-4 | b\n1-2 | a\n", "x")
    assert [e.text for e in table.entries] == ["a", "b"]
    assert decode_table("\ufeff@die d4\n".encode(), "x") == "@die d4\n"


def test_bad_encoding_names_the_line():
    assert "line 3: byte 0xe9 is not valid UTF-8" in _fault(b"@die d2\n1 | a\n2 | caf\xe9\n")


def test_no_die_line():
    assert "line 1: an entry comes before the @die line" in _fault("1 | a\n")


def test_missing_die_in_an_empty_file():
    assert "line 2: the file has no @die line" in _fault("# only\n# comments\n")


def test_bad_die():
    assert "line 1: 'd1' is not a die" in _fault("@die d1\n1 | a\n")
    assert "line 2: 'x6' is not a die" in _fault("# c\n@die x6\n")


def test_repeated_or_late_die():
    assert "line 3: @die must come once" in _fault("@die d2\n1 | a\n@die d2\n2 | b\n")


def test_unknown_directive():
    assert "line 1: unknown directive '@title Foo'" in _fault("@title Foo\n")


def test_entry_without_bar():
    assert "line 2: an entry is 'range | text'" in _fault("@die d2\n1 a\n2 | b\n")


def test_bad_range():
    assert "line 2: 'x' is not a range" in _fault("@die d2\nx | a\n")
    assert "line 2: '1-' is not a range" in _fault("@die d2\n1- | a\n")


def test_range_out_of_the_die_or_backwards():
    assert "line 3: range '2-7' must go upwards within 1..6" in _fault("@die d6\n1 | a\n2-7 | b\n")
    assert "line 2: range '3-1'" in _fault("@die d6\n3-1 | a\n")
    assert "line 2: range '0'" in _fault("@die d6\n0 | a\n")


def test_overlap_names_both_lines():
    message = _fault("@die d6\n1-3 | a\n\n3-6 | b\n")
    assert "line 4: face 3 is already given on line 2" in message


def test_gap_names_the_line_before_it():
    assert "line 3: no entry for face 3 of the d6" in _fault("@die d6\n1 | a\n2 | b\n4-6 | c\n")
    assert "line 3: no entry for face 6" in _fault("@die d6\n1-3 | a\n4-5 | b\n")


def test_missing_entries():
    assert "line 2: the file has no entry" in _fault("@die d6\n# nothing\n")


def test_empty_text():
    assert "line 2: the entry for '1' has no text" in _fault("@die d2\n1 |   \n2 | b\n")


def test_too_long_text():
    long_text = "x" * (MAX_TEXT + 1)
    message = _fault(f"@die d2\n1 | a\n2 | {long_text}\n")
    assert f"line 3: the text has {MAX_TEXT + 1} characters" in message
    parse_table(f"@die d1000\n1-1000 | {'x' * MAX_TEXT}\n", "ok")


def test_control_character():
    assert "line 2: the text holds a control character" in _fault("@die d2\n1 | a\x07\n2 | b\n")


def test_a_huge_file():
    assert "larger than" in _fault(b"#" * (300 * 1024))


def test_non_ascii_digits_are_not_a_range():
    assert "is not a range" in _fault("@die d2\n\u0661 | a\n2 | b\n")


def test_the_message_carries_a_tip():
    with pytest.raises(InputError) as info:
        parse_table("1 | a\n", "mine.txt")
    assert info.value.tip is not None


@pytest.mark.parametrize("language", LANGUAGES)
def test_starter_tables_cover_their_dice(language):
    tables = starter_tables(language)
    for kind in TableKind:
        table = tables.table(kind)
        covered = [f for e in table.entries for f in range(e.low, e.high + 1)]
        assert covered == list(table.die.faces)
        assert all(e.text for e in table.entries)


def test_starter_tables_match_across_languages():
    fr, en = starter_tables("fr"), starter_tables("en")
    for kind in TableKind:
        a, b = fr.table(kind), en.table(kind)
        assert a.die == b.die
        assert [(e.low, e.high) for e in a.entries] == [(e.low, e.high) for e in b.entries]
        assert [e.text for e in a.entries] != [e.text for e in b.entries]


def test_starter_files_say_they_are_tablee_originals():
    from importlib import resources

    root = resources.files("tablee.systems.agents").joinpath("data")
    for language in LANGUAGES:
        for kind in TableKind:
            head = root.joinpath(language, f"{kind.value}.txt").read_text("utf-8")
            assert "G-A13" in head.splitlines()[0]
            assert "Tablée" in head.splitlines()[0]


def test_unknown_language():
    with pytest.raises(InputError, match="no starter tables in 'de'"):
        starter_tables("de")


def test_load_a_group_folder(tmp_path):
    for kind in TableKind:
        (tmp_path / f"{kind.value}.txt").write_text(GOOD, encoding="utf-8")
    tables = load_tables(tmp_path)
    assert tables.objectives.entry_for(1).text == "one"
    assert tables.boons.source.endswith("boons.txt")


def test_load_names_a_missing_file_and_a_bad_line(tmp_path):
    with pytest.raises(InputError, match=r"nope\.txt' does not exist \(rule G-A13\)"):
        load_table_file(tmp_path / "nope.txt")
    with pytest.raises(InputError, match=r"objectives\.txt' does not exist"):
        load_tables(tmp_path)  # a folder without its four files
    bad = tmp_path / "creatures.txt"
    bad.write_text("@die d6\n1-5 | a\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"creatures\.txt', line 2: no entry for face 6"):
        load_table_file(bad)


def test_table_draw_mechanic():
    table = starter_tables("en").creatures
    typed = TypedFaces([7])
    drawn = roll(TABLE_DRAW, table, typed)
    typed.finish()
    assert drawn.entry == table.entry_for(7)
    assert "d12 shows 7" in drawn.trace[0].render()
    seeded = roll(TABLE_DRAW, table, SeededSource(5))
    assert 1 <= seeded.face <= 12
    odds = exact_distribution(TABLE_DRAW, table, lambda d: d.entry.line)
    assert sum(odds.weights.values()) == 12
    assert set(odds.weights.values()) == {1}
    with pytest.raises(InputError):
        TABLE_DRAW.resolve(table, [13])
    with pytest.raises(InputError):
        TABLE_DRAW.resolve(table, [1, 2])


def test_line_numbers_follow_newlines_only():
    # a form feed is not a line break for an editor: it stays in the text and is refused there
    assert "line 2: the text holds a control character" in _fault("@die d2\n1 | a\x0cb\n2 | c\n")
    table = parse_table("@die d2\r\n1 | a\r\n2 | b\r\n", "crlf")
    assert [e.line for e in table.entries] == [2, 3]


@st.composite
def _tables(draw):
    sides = draw(st.integers(2, 40))
    cuts = sorted(draw(st.sets(st.integers(2, sides), max_size=sides - 1)))
    starts = [1, *cuts]
    ranges = list(zip(starts, [c - 1 for c in cuts] + [sides], strict=True))
    order = draw(st.permutations(ranges))
    return sides, order


@given(_tables(), st.data())
def test_any_partition_parses_and_any_removed_line_is_named(spec, data):
    sides, ranges = spec
    body = [f"{lo}-{hi} | entry {lo}" if lo != hi else f"{lo} | entry {lo}" for lo, hi in ranges]
    text = "\n".join([f"@die d{sides}", *body]) + "\n"
    table = parse_table(text, "gen")
    for face in range(1, sides + 1):
        entry = table.entry_for(face)
        assert entry.low <= face <= entry.high and entry.text == f"entry {entry.low}"
        assert body[entry.line - 2].endswith(entry.text)
    if len(body) > 1:
        dropped = data.draw(st.integers(0, len(body) - 1))
        broken = "\n".join([f"@die d{sides}", *body[:dropped], *body[dropped + 1 :]])
        message = _fault(broken)
        assert "ranges leave a gap" in message
        lo, hi = ranges[dropped]
        kept = [r for i, r in enumerate(ranges) if i != dropped]
        # the line named: the entry ending just before the gap, else the one just after it
        neighbour = next((r for r in kept if r[1] == lo - 1), None) or next(
            r for r in kept if r[0] == hi + 1
        )
        line = 2 + kept.index(neighbour)
        assert f"line {line}: no entry for face {lo} " in message
