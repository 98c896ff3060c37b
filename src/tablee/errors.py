"""Every error Tablée raises, in one tree.

```
TableeError                     base of all; never raised itself
├── InputError (ValueError)     malformed input: a bad count, faces of the wrong range or
│   │                           number, an unknown option; CLI exit code 2
│   └── NotFoundError (KeyError-like)  an unknown table, player or event; exit code 2
├── RuleError (ValueError)      well-formed input that the rules refuse now: a bonus with an
│                               empty cagnotte, an undo with nothing to undo; exit code 3
├── ConcurrencyError            an append lost its race more times than the retry bound;
│                               exit code 4
└── StorageError                the database failed or holds something unreadable; exit 5
```

Messages are English templates with ``{named}`` fields, kept apart from their values so the
outer layers can translate them (see `tablee.locale`). ``str(error)`` gives the English text.
Every message names the bad value and the rule; ``tip`` says what to do instead when known.

Source: house style (STYLE.md, "Errors and docstrings"); exit codes documented in README.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

__all__ = [
    "N_",
    "TIP",
    "ConcurrencyError",
    "InputError",
    "NotFoundError",
    "RuleError",
    "StorageError",
    "TableeError",
]


def N_(message: str) -> str:
    """Mark a message for extraction into the catalogs without translating it now.

    Args:
        message: an English template.

    Returns:
        The same string.
    """
    return message


TIP = N_("Tip:")
"""The word that introduces a tip, translated with the message."""


class TableeError(Exception):
    """Base of every Tablée error.

    Args:
        template: English message template with ``{name}`` fields, marked with `N_`.
        tip: optional English template saying what to do instead.
        **params: the values that fill the template (the bad value, the rule id...).
    """

    exit_code = 1

    def __init__(self, template: str, *, tip: str | None = None, **params: object) -> None:
        self.template = template
        self.tip = tip
        self.params: Mapping[str, object] = params
        super().__init__(self.render())

    def render(self, translate: Callable[[str], str] = lambda s: s) -> str:
        """Render the message with a translation function.

        Args:
            translate: a callable ``str -> str`` (for instance ``gettext``).

        Returns:
            The message, followed by ``Tip: ...`` when a tip is known.
        """
        text = translate(self.template).format(**self.params)
        if self.tip:
            text += " " + translate(TIP) + " " + translate(self.tip).format(**self.params)
        return text


class InputError(TableeError, ValueError):
    """Malformed input: out-of-range counts, bad faces, unknown options (exit code 2)."""

    exit_code = 2


class NotFoundError(InputError):
    """An unknown table, player or event was named (exit code 2)."""


class RuleError(TableeError, ValueError):
    """Well-formed input that the rules refuse in the current state (exit code 3)."""

    exit_code = 3


class ConcurrencyError(TableeError):
    """An append kept losing its race to other writers past the retry bound (exit code 4)."""

    exit_code = 4


class StorageError(TableeError):
    """The store failed, or holds events that cannot be read (exit code 5)."""

    exit_code = 5
