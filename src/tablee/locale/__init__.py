"""French and English messages: language detection and the gettext catalogs.

Catalogs live beside this file as ``<lang>/LC_MESSAGES/tablee.po`` (edited) and ``.mo``
(compiled with ``pybabel compile -d src/tablee/locale -D tablee``; a test checks they match).
English is the source language. Game terms (cagnotte, Désastre...) are never translated.

Source: docs/architecture.md, "i18n" (Babel extracts, gettext reads the catalogs).
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Mapping
from functools import lru_cache

__all__ = ["LANGUAGES", "LOCALE_DIR", "detect_language", "translation"]

LANGUAGES = ("fr", "en")
LOCALE_DIR = os.path.dirname(os.path.abspath(__file__))  # no pathlib: it costs ~10 ms
DOMAIN = "tablee"


def detect_language(environ: Mapping[str, str] | None = None) -> str:
    """The language the locale asks for: ``fr`` when it starts with ``fr``, else ``en``.

    Args:
        environ: environment variables (``os.environ`` by default); reads, in order,
            ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` (the first one set wins).
    """
    env = os.environ if environ is None else environ
    for key in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(key, "")
        if value:
            return "fr" if value.lower().startswith("fr") else "en"
    return "en"


@lru_cache(maxsize=4)
def translation(lang: str) -> gettext.NullTranslations:
    """The catalog for ``lang`` (``fr`` or ``en``); English falls back to the source text.

    Raises:
        ValueError: ``lang`` is not ``fr`` or ``en``.
    """
    if lang not in LANGUAGES:
        raise ValueError(f"language {lang!r} is not one of {', '.join(LANGUAGES)}")
    # What ``gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang], fallback=True)``
    # finds, read directly: only ``<lang>/LC_MESSAGES`` exists here, and gettext's search
    # through the locale's variants imports `locale` (a millisecond of every command).
    path = os.path.join(LOCALE_DIR, lang, "LC_MESSAGES", DOMAIN + ".mo")
    try:
        with open(path, "rb") as catalog:
            return gettext.GNUTranslations(catalog)
    except FileNotFoundError:
        return gettext.NullTranslations()
