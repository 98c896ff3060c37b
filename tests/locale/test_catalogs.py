"""The message catalogs: complete French, placeholders kept, .mo in step, game terms untranslated.

When a test here fails after a source change, run ``scripts/i18n.sh``, translate the new
entries of ``src/tablee/locale/fr/LC_MESSAGES/tablee.po``, then run ``scripts/i18n.sh`` again.
"""

from __future__ import annotations

import gettext
import io
import re
import string
from collections import Counter
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

import tablee
from tablee.locale import LANGUAGES, LOCALE_DIR, detect_language, translation

SOURCES = Path(tablee.__file__).parent
# Same keywords as scripts/i18n.sh: pybabel's defaults plus -k N_ -k tr -k ntr:1,2 -k Plural:1,2.
KEYWORDS = {**DEFAULT_KEYWORDS, "N_": None, "tr": None, "ntr": (1, 2), "Plural": (1, 2)}
GAME_TERMS = (
    "cagnotte",
    "Désastre",
    "Défaite",
    "Revers",
    "Succès",
    "Victoire",
    "Triomphe",
    "Pouyss",
)
RULING_ID = re.compile(r"\b[PGSY]-[MTA]\d+\b")
PERCENT_SPEC = re.compile(r"%(?:\((\w+)\))?([#0 +-]*\d*(?:\.\d+)?[sdirfx%])")
FIX = "run scripts/i18n.sh, translate src/tablee/locale/fr/LC_MESSAGES/tablee.po, run it again"


def po_path(lang: str) -> Path:
    return Path(LOCALE_DIR) / lang / "LC_MESSAGES" / "tablee.po"


def load_po(lang: str) -> Catalog:
    with po_path(lang).open("rb") as handle:
        return read_po(handle)


def messages(catalog: Catalog) -> list[Message]:
    return [m for m in catalog if m.id]


def strings_of(message: Message) -> tuple[str, ...]:
    value = message.string
    return tuple(value) if isinstance(value, (tuple, list)) else (value,)


def ids_of(message: Message) -> tuple[str, ...]:
    return tuple(message.id) if isinstance(message.id, (tuple, list)) else (message.id,)


def extracted_ids() -> set[str | tuple[str, str]]:
    found: set[str | tuple[str, str]] = set()
    for _file, _line, message, _comments, _context in extract_from_dir(
        str(SOURCES), keywords=KEYWORDS
    ):
        found.add(tuple(message) if isinstance(message, (tuple, list)) else message)
    return found


def placeholders(text: str) -> Counter[str]:
    """The ``{field!conv:spec}`` and ``%(name)s`` / ``%s`` / ``%r`` placeholders of a text."""
    found: Counter[str] = Counter()
    for _literal, field, spec, conversion in string.Formatter().parse(text):
        if field is not None:
            found[
                "{"
                + field
                + (f"!{conversion}" if conversion else "")
                + (f":{spec}" if spec else "")
                + "}"
            ] += 1
    for name, spec in PERCENT_SPEC.findall(text):
        if spec != "%":
            found[f"%({name}){spec}" if name else f"%{spec}"] += 1
    return found


def describe(message: Message) -> str:
    return " / ".join(repr(i) for i in ids_of(message))


# --- the French catalog is complete -----------------------------------------------------


def test_sources_have_messages() -> None:
    ids = extracted_ids()
    assert "usage: " in ids
    assert ("{n} die", "{n} dice") in ids


def test_every_source_message_is_translated_in_french() -> None:
    catalog = load_po("fr")
    missing, untranslated, fuzzy = [], [], []
    for key in sorted(extracted_ids(), key=str):
        msgid = key[0] if isinstance(key, tuple) else key
        message = catalog.get(msgid)
        if message is None or (isinstance(key, tuple) and ids_of(message) != key):
            missing.append(key)
        elif not all(strings_of(message)) or (
            message.pluralizable and len(strings_of(message)) != catalog.num_plurals
        ):
            untranslated.append(key)
        elif message.fuzzy:
            fuzzy.append(key)
    problems = [
        f"{label} ({len(keys)}):\n" + "\n".join(f"  {k!r}" for k in keys)
        for label, keys in (
            ("not in the French catalog", missing),
            ("not translated (or a plural slot empty)", untranslated),
            ("fuzzy", fuzzy),
        )
        if keys
    ]
    assert not problems, FIX + "\n" + "\n".join(problems)


def test_french_catalog_has_no_fuzzy_entry() -> None:
    catalog = load_po("fr")
    assert not catalog.fuzzy, "the French catalog header is marked fuzzy"
    fuzzy = [describe(m) for m in messages(catalog) if m.fuzzy]
    assert not fuzzy, f"fuzzy entries ({FIX}):\n" + "\n".join(fuzzy)


def test_plural_headers() -> None:
    french, english = load_po("fr"), load_po("en")
    assert french.num_plurals == 2
    assert french.plural_expr.replace(" ", "") == "(n>1)"
    assert english.num_plurals == 2
    assert english.plural_expr.replace(" ", "") == "(n!=1)"


def test_english_entries_stay_empty() -> None:
    """English is the source language: gettext falls back to the msgid."""
    filled = [describe(m) for m in messages(load_po("en")) if any(strings_of(m))]
    assert not filled, "the English catalog should leave msgstr empty:\n" + "\n".join(filled)


# --- what the translations must keep ----------------------------------------------------


def test_french_placeholders_match_the_source() -> None:
    wrong = []
    for message in messages(load_po("fr")):
        expected = [placeholders(i) for i in ids_of(message)]
        for slot, text in enumerate(strings_of(message)):
            if text and placeholders(text) not in expected:
                wrong.append(f"{describe(message)} [slot {slot}]: {text!r}")
    assert not wrong, "placeholders differ from the msgid:\n" + "\n".join(wrong)


def test_french_keeps_leading_and_trailing_spaces() -> None:
    """A piece joined to others keeps its edges, except the space French typography puts
    before a leading ``;``, ``:``, ``!`` or ``?`` (``"; {note}"`` is ``" ; {note}"``)."""
    wrong = []
    for message in messages(load_po("fr")):
        source = ids_of(message)[0]
        for text in strings_of(message):
            french_space = source[:1] in ";:!?" and text[:2] == " " + source[:1]
            if text and (
                (source[:1].isspace() != text[:1].isspace() and not french_space)
                or source[-1:].isspace() != text[-1:].isspace()
            ):
                wrong.append(f"{describe(message)}: {text!r}")
    assert not wrong, "leading/trailing spaces differ:\n" + "\n".join(wrong)


def test_game_terms_and_ruling_ids_are_not_translated() -> None:
    """Each French form keeps the game terms and ruling ids of its English form (a plural's
    first slot is checked against the singular, the others against the plural)."""
    wrong = []
    for message in messages(load_po("fr")):
        ids = ids_of(message)
        for slot, text in enumerate(strings_of(message)):
            source = ids[min(slot, len(ids) - 1)]
            terms = [t for t in GAME_TERMS if re.search(rf"\b{t}\b", source, re.IGNORECASE)]
            rulings = Counter(RULING_ID.findall(source))
            lost = [t for t in terms if not re.search(rf"\b{t}\b", text, re.IGNORECASE)]
            if lost or Counter(RULING_ID.findall(text)) != rulings:
                wrong.append(f"{describe(message)}: {text!r}")
    assert not wrong, "game terms or ruling ids changed:\n" + "\n".join(wrong)


# --- the compiled catalogs --------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_mo_matches_po(lang: str) -> None:
    buffer = io.BytesIO()
    write_mo(buffer, load_po(lang))
    buffer.seek(0)
    expected = gettext.GNUTranslations(buffer)._catalog  # type: ignore[attr-defined]
    with (Path(LOCALE_DIR) / lang / "LC_MESSAGES" / "tablee.mo").open("rb") as handle:
        compiled = gettext.GNUTranslations(handle)._catalog  # type: ignore[attr-defined]
    assert compiled == expected, f"tablee.mo ({lang}) is stale: run scripts/i18n.sh"


@pytest.mark.parametrize(
    ("lang", "expected"),
    [("fr", ["0 dé", "1 dé", "2 dés"]), ("en", ["0 dice", "1 die", "2 dice"])],
)
def test_plural_slots(lang: str, expected: list[str]) -> None:
    catalog = translation(lang)
    got = [catalog.ngettext("{n} die", "{n} dice", n).format(n=n) for n in (0, 1, 2)]
    assert got == expected


def test_runtime_translation_of_argparse_and_levels() -> None:
    french = translation("fr")
    assert french.gettext("usage: ") == "usage : "
    assert french.gettext("Result: {value} {level}").format(value=5, level="Victoire") == (
        "Résultat : 5 Victoire"
    )
    assert translation("en").gettext("usage: ") == "usage: "


# --- language detection -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({"LANG": "fr_FR.UTF-8"}, "fr"),
        ({"LANG": "fr"}, "fr"),
        ({"LANG": "en_US"}, "en"),
        ({"LANG": "en_US.UTF-8"}, "en"),
        ({"LANG": "C"}, "en"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "de_DE.UTF-8"}, "en"),
        ({"LANG": ""}, "en"),
        ({}, "en"),
        ({"LC_MESSAGES": "fr_CA.UTF-8", "LANG": "en_US.UTF-8"}, "fr"),
        ({"LC_MESSAGES": "C", "LANG": "fr_FR.UTF-8"}, "en"),
        ({"LC_ALL": "fr_FR.UTF-8", "LC_MESSAGES": "en_US", "LANG": "en_US"}, "fr"),
        ({"LC_ALL": "en_US.UTF-8", "LC_MESSAGES": "fr_FR", "LANG": "fr_FR"}, "en"),
        ({"LANGUAGE": "fr", "LC_ALL": "en_US.UTF-8", "LANG": "en_US"}, "fr"),
        ({"LANGUAGE": "en", "LC_ALL": "fr_FR.UTF-8", "LANG": "fr_FR"}, "en"),
        ({"LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "fr_FR.UTF-8"}, "fr"),
        ({"LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": ""}, "en"),
    ],
)
def test_detect_language(environ: dict[str, str], expected: str) -> None:
    assert detect_language(environ) == expected


def test_detect_language_reads_os_environ(monkeypatch: pytest.MonkeyPatch) -> None:
    for key in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    assert detect_language() == "fr"
    monkeypatch.setenv("LANG", "C")
    assert detect_language() == "en"


def test_unknown_language_is_refused() -> None:
    with pytest.raises(ValueError):
        translation("de")
