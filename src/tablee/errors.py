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

Source: docs/architecture.md, "Errors"; exit codes in README.md, "Exit codes".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # annotations only: every command imports this module
    from fractions import Fraction

__all__ = [
    "N_",
    "SEMICOLON",
    "TIP",
    "ConcurrencyError",
    "InputError",
    "Message",
    "NotFoundError",
    "Number",
    "Plural",
    "RuleError",
    "StorageError",
    "TableeError",
    "hidden_kinds",
    "joined",
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


class Message:
    """A translatable message kept apart from its values, for use inside another message.

    Args:
        template: English template with ``{name}`` fields, marked with `N_`.
        **params: the values; a `Message` or `TableeError` value is rendered with the same
            translation.
    """

    def __init__(self, template: str, **params: object) -> None:
        self.template = template
        self.params: Mapping[str, object] = params

    def render(self, translate: Callable[[str], str] = lambda s: s) -> str:
        """The message in the language of ``translate`` (an empty template stays empty)."""
        if not self.template:
            return ""
        return translate(self.template).format(**_rendered(self.params, translate))

    def __str__(self) -> str:
        """The English text."""
        return self.render()


class Plural(Message):
    """A count in words whose form follows the number (``1 die``, ``2 dice``).

    Args:
        singular, plural: English templates with ``{n}`` (written as literals in the call:
            the catalogs' extraction reads them as one plural entry).
        n: the count.

    Rendered with a catalog's ``gettext``, or with a function that has an ``ngettext`` of
    its own (the web's and the command line's translators): that ``ngettext`` then picks
    the form of the reader's language, French putting 0 and 1 in the singular. Any other
    function picks the English form.
    """

    def __init__(self, singular: str, plural: str, n: int) -> None:
        super().__init__(singular, n=n)
        self.singular, self.plural, self.n = singular, plural, n

    def form(self, translate: Callable[[str], str]) -> str:
        """The template of the form ``n`` takes in the language of ``translate``."""
        for owner in (translate, getattr(translate, "__self__", None)):
            ngettext = getattr(owner, "ngettext", None)
            if callable(ngettext):
                return str(ngettext(self.singular, self.plural, self.n))
        return self.singular if self.n == 1 else self.plural

    def render(self, translate: Callable[[str], str] = lambda s: s) -> str:
        """The count in the language of ``translate``."""
        return self.form(translate).format(n=self.n)


DECIMAL = N_("{whole}.{decimals}")
"""A number with decimals (French writes a decimal comma)."""
PERCENT = N_("{number}%")
"""A percentage (French puts a non-breaking space before the sign)."""


class Number(Message):
    """A number shown with decimals, or as a percentage, in the reader's language.

    Args:
        value: the number (an exact `fractions.Fraction` or an integer); converted to a
            float only to be written.
        places: decimals written, 0 or more.
        percent: write ``value`` (0 to 1) as a percentage.

    Rendered through the catalog's templates `DECIMAL` and `PERCENT`: ``0.444`` and
    ``33.3%`` in English, ``0,444`` and ``33,3 %`` in French.
    """

    def __init__(self, value: Fraction | int, places: int = 2, *, percent: bool = False) -> None:
        super().__init__(PERCENT if percent else DECIMAL, value=value)
        self.value, self.places, self.percent = value, places, percent

    def render(self, translate: Callable[[str], str] = lambda s: s) -> str:
        """The number in the language of ``translate``."""
        scaled = float(self.value) * (100 if self.percent else 1)
        whole, _, decimals = f"{scaled:.{self.places}f}".partition(".")
        number = translate(DECIMAL).format(whole=whole, decimals=decimals) if decimals else whole
        return translate(PERCENT).format(number=number) if self.percent else number


SEMICOLON = N_("{first}; {rest}")
"""Two parts of a list joined by a semicolon (French writes a space before it)."""


def joined(items: Sequence[Message | str], template: str = SEMICOLON) -> Message:
    """Items joined through a translatable template, so each language spaces its separator.

    A separator written in code (``"; ".join``) escapes translation: French would get
    ``échec; NT +1`` instead of ``échec ; NT +1``. This builds nested messages
    ``template(first=item0, rest=template(first=item1, ...))`` instead.

    Args:
        items: messages or plain strings (names, numbers).
        template: the separator as a template with ``{first}`` and ``{rest}``, marked `N_`.

    Returns:
        A message; empty when ``items`` is.
    """
    if not items:
        return Message("")
    if len(items) == 1:
        return Message("{only}", only=items[0])
    return Message(template, first=items[0], rest=joined(items[1:], template))


def _rendered(params: Mapping[str, object], translate: Callable[[str], str]) -> dict[str, object]:
    out: dict[str, object] = {}
    for key, value in params.items():
        if isinstance(value, TableeError):
            out[key] = value.render(translate, tip=False)
        elif isinstance(value, Message):
            out[key] = value.render(translate)
        else:
            out[key] = value
    return out


NOT_VALID = N_("this choice is not valid")
"""What a refusal says instead of a message that would show values hidden from its reader."""


class TableeError(Exception):
    """Base of every Tablée error.

    Args:
        template: English message template with ``{name}`` fields, marked with `N_`.
        tip: optional English template saying what to do instead, in words every interface
            can show (a command line, a web page, a chat bot).
        cli_tip: optional English template saying what to do at the command line (it names
            ``tablee`` commands or ``--flags``): shown only where the error is read at the
            command line (`render` with ``cli=True``), in place of ``tip``.
        secret_in: the stored event kinds whose content (dice, choices) the message or its
            tip shows, as the rules read them from the table: an interface shows the message
            only to a reader who may see every stored event of those kinds, and `NOT_VALID`
            to anyone else (`masked`). Empty: nothing hidden is shown.
        **params: the values that fill the template (the bad value, the rule id...).
    """

    exit_code = 1

    def __init__(
        self,
        template: str,
        *,
        tip: str | None = None,
        cli_tip: str | None = None,
        secret_in: tuple[str, ...] = (),
        **params: object,
    ) -> None:
        self.template = template
        self.tip = tip
        self.cli_tip = cli_tip
        self.secret_in = secret_in
        self.params: Mapping[str, object] = params
        super().__init__(self.render())

    def masked(self) -> TableeError:
        """The same kind of error saying only that the choice is not valid (`NOT_VALID`)."""
        return type(self)(NOT_VALID)

    def render(
        self, translate: Callable[[str], str] = lambda s: s, *, tip: bool = True, cli: bool = False
    ) -> str:
        """Render the message with a translation function.

        Args:
            translate: a callable ``str -> str`` (for instance ``gettext``); nested messages
                and errors among the values are rendered with it too.
            tip: add ``Tip: ...`` when a tip is known.
            cli: read at the command line: its command-line tip, when it has one, is the tip.

        Returns:
            The message, then the tip on its own indented line (a web page shows it as one
            line: HTML folds the line break).
        """
        params = _rendered(self.params, translate)
        text = translate(self.template).format(**params)
        said = self.cli_tip if cli and self.cli_tip else self.tip
        if tip and said:
            text += "\n  " + translate(TIP) + " " + translate(said).format(**params)
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


def hidden_kinds(error: BaseException) -> frozenset[str]:
    """The event kinds whose hidden content an error's message shows (its nested errors too).

    Args:
        error: any exception (only a `TableeError` and the errors among its values count).

    Returns:
        Every ``secret_in`` kind of the error and of the `TableeError` values it holds.
    """
    if not isinstance(error, TableeError):
        return frozenset()
    kinds = set(error.secret_in)
    for value in error.params.values():
        if isinstance(value, TableeError):
            kinds |= hidden_kinds(value)
    return frozenset(kinds)
