"""The Actions of ``tablee shs``: Attempts read from the options, rolled Actions rendered.

`attempt_of_test` reads ``--characteristic``/``--difficulty`` or ``--test``; `member_attempt` and
`action_attempt` read the ``NAME:CARACTERISTIQUE[:option...]`` specs of opposed, cooperative and
simultaneous Actions. The rest renders a rolled Action, its dice, its price and its odds.

Source: seed 003; rulings S-M2, S-M3, S-M5, S-A2, S-A4.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from tablee.cli.app import Context, whole_number
from tablee.cli.render import exact_text, format_trace, fraction_text, percent
from tablee.cli.shs.common import Tr
from tablee.errors import N_, InputError

if TYPE_CHECKING:
    from fractions import Fraction

    from tablee.systems.shs import Attempt

__all__ = [
    "SPEC_HELP",
    "action_attempt",
    "action_lines",
    "add_attempt_options",
    "attempt_of_test",
    "cooperation_odds_json",
    "cooperation_odds_text",
    "head_of_test",
    "json_of_test",
    "member_attempt",
    "odds_json",
    "odds_text",
    "opposed_odds_json",
    "opposed_odds_text",
    "outcome_word",
]


# --- reading Attempts ----------------------------------------------------------------------------


def _options(values: list[str] | None) -> tuple[bool, bool]:
    chosen = values or []
    return "surpasser" in chosen, "sacrifier" in chosen


def attempt_of_test(a: argparse.Namespace) -> Attempt:
    """The Attempt of ``tablee shs test`` from its arguments (a notation or the two options).

    Raises:
        InputError: both a notation and the options, or neither.
    """
    from tablee.systems.shs import Attempt, difficulty_named, parse_test_notation

    characteristic, difficulty = a.characteristic, a.difficulty
    if a.test is not None:
        if characteristic is not None or difficulty is not None:
            raise InputError(
                N_("--test already names the Caractéristique and the Difficulty"),
                tip=N_("give either --test or --characteristic and --difficulty"),
            )
        notation = parse_test_notation(a.test)
        characteristic, difficulty = notation.characteristic, notation.difficulty
    if characteristic is None or difficulty is None:
        raise InputError(
            N_("a Test needs a Caractéristique and a Difficulty (rule S-M2)"),
            tip=N_('give --characteristic and --difficulty, or --test "Test (Science, 3)"'),
        )
    surpass, sacrifice = _options(a.option)
    return Attempt(
        a.protagoniste,
        characteristic,
        difficulty_named(difficulty),
        a.expertise,
        a.bonus,
        a.malus,
        surpass,
        sacrifice,
    )


def _spec(text: str, *, what: str) -> tuple[list[str], dict[str, Any]]:
    """Split ``A:B[:option...]``: the leading parts and the options (expertise=, bonus=...)."""
    from tablee.systems.shs.notation import attempt_options

    parts = [p.strip() for p in text.split(":")]
    leading = parts[:2]
    if len(leading) < 2 or not all(leading):
        raise InputError(
            N_("{what} {value!r}: expected {shape}"), what=what, value=text, shape=_SHAPES[what]
        )
    options, bad = attempt_options(parts[2:])
    if bad is not None:
        raise InputError(
            N_(
                "{what} {value!r}: {part!r} is not an option (expertise=TEXT, bonus=N, "
                "malus=N, surpasser, sacrifier)"
            ),
            what=what,
            value=text,
            part=bad,
        )
    extra: dict[str, Any] = {"surpass": False, "sacrifice": False, **options}
    return leading, extra


_SHAPES = {
    "--member": "NAME:CARACTERISTIQUE[:option...]",
    "--first": "NAME:CARACTERISTIQUE[:option...]",
    "--second": "NAME:CARACTERISTIQUE[:option...]",
    "--action": "CARACTERISTIQUE:DIFFICULTY[:option...]",
}


def member_attempt(text: str, *, what: str, difficulty: int | None) -> Attempt:
    """An opposed side or a cooperation member ``NAME:CARACTERISTIQUE[:option...]``.

    Args:
        text: the member as typed.
        what: the option it was typed with, for messages (``--member``, ``--first``).
        difficulty: the group's Difficulty (None for an opposed side).

    Raises:
        InputError: a missing part or an unknown option.
    """
    from tablee.systems.shs import Attempt

    (name, characteristic), extra = _spec(text, what=what)
    return Attempt(name, characteristic, difficulty, **extra)


def action_attempt(protagoniste: str, text: str) -> Attempt:
    """One of a simultaneous set's Actions ``CARACTERISTIQUE:DIFFICULTY[:option...]``.

    Args:
        protagoniste: who acts.
        text: the Action as typed with ``--action``.

    Raises:
        InputError: a missing part, an unknown option or Difficulty.
    """
    from tablee.systems.shs import Attempt, difficulty_named

    (characteristic, difficulty), extra = _spec(text, what="--action")
    return Attempt(protagoniste, characteristic, difficulty_named(difficulty), **extra)


SPEC_HELP = N_(
    "options after the Caractéristique, separated by ':': expertise=TEXT, bonus=N, malus=N, "
    "surpasser, sacrifier"
)


def add_attempt_options(p: argparse.ArgumentParser, tr: Tr) -> None:
    """Add the options of one Action: Expertise, Bonus, Malus, Se Surpasser, Se Sacrifier."""
    p.add_argument("--expertise", metavar="TEXT", help=tr("a matching Expertise: D10 (S-A2)"))
    p.add_argument(
        "--bonus", type=whole_number(tr), default=0, metavar="N", help=tr("sum of the bonuses")
    )
    p.add_argument(
        "--malus", type=whole_number(tr), default=0, metavar="N", help=tr("sum of the maluses")
    )
    p.add_argument(
        "--option",
        action="append",
        choices=("surpasser", "sacrifier"),
        help=tr("Se Surpasser (NT +1) or Se Sacrifier (+2 PS, death); one per Action (S-M5)"),
    )


# --- rendering rolled Actions --------------------------------------------------------------------


def _dpm_text(ctx: Context, faces: Any) -> str:
    from tablee.systems.shs import dpm_symbol

    return " ".join(dpm_symbol(int(f)) for f in faces) or ctx.tr("none")


def action_lines(ctx: Context, doc: dict[str, Any], trace: Any, head: str) -> list[str]:
    """One rolled Action for people: head, dice, D+/- dice, trace, price paid."""
    lines = [
        f"[bold]{head}[/]",
        ctx.tr("Action dice ({die}, {threshold}+): {faces}").format(
            die=doc["die"],
            threshold=doc["threshold"],
            faces=" ".join(str(f) for f in doc["action_faces"]),
        ),
        ctx.tr("D+/- dice: {faces}").format(faces=_dpm_text(ctx, doc["dpm_faces"])),
    ]
    if doc.get("temporary_bonus") or doc.get("temporary_malus"):
        lines.append(
            ctx.tr("Temporary modifiers in force: Bonus {bonus}, Malus {malus}").format(
                bonus=doc.get("temporary_bonus", 0), malus=doc.get("temporary_malus", 0)
            )
        )
    lines.append(format_trace(trace, ctx.tr))
    if doc["nt_gain"]:
        lines.append(
            "[yellow]"
            + ctx.tr("{name}: NT +{gain}").format(name=doc["protagonist"], gain=doc["nt_gain"])
            + "[/]"
        )
    if doc["dies"]:
        lines.append("[red]" + ctx.tr("{name} dies.").format(name=doc["protagonist"]) + "[/]")
    return lines


def head_of_test(ctx: Context, doc: dict[str, Any]) -> str:
    """The first line of a Test: who, the notation (``Carrure 8/2``) and the Difficulty's name."""
    from tablee.systems.shs import TestNotation, difficulty_name

    notation = str(TestNotation(doc["characteristic"], doc["difficulty"]))
    named = difficulty_name(int(doc["difficulty"]))
    head = ctx.tr("{name}: {test}").format(name=doc["protagonist"], test=notation)
    if named:
        head += f" ({named})"
    if doc.get("expertise"):
        head += " · " + ctx.tr("Expertise {name}").format(name=doc["expertise"])
    titles = {"se_surpasser": "Se Surpasser", "se_sacrifier": "Se Sacrifier"}
    if doc["option"] in titles:
        head += " · " + titles[doc["option"]]
    return head


def outcome_word(ctx: Context, success: bool) -> str:
    """``success`` in green or ``failure`` in red, translated."""
    return "[green]" + ctx.tr("success") + "[/]" if success else "[red]" + ctx.tr("failure") + "[/]"


def json_of_test(doc: dict[str, Any], result: Any, ctx: Context) -> dict[str, Any]:
    """A Test's JSON: its inputs, notation, Difficulty name and result."""
    from tablee.systems.shs import TestNotation, difficulty_name

    return {
        **doc,
        "notation": str(TestNotation(doc["characteristic"], doc["difficulty"])),
        "difficulty_name": difficulty_name(int(doc["difficulty"])),
        "trace": [s.render(ctx.tr) for s in result.trace],
    }


def odds_json(dist: Any, success: Fraction | None) -> dict[str, Any]:
    """The exact odds of a Test as JSON: each PS with its probability, and success."""
    rows = []
    for v in sorted(dist.weights, reverse=True):
        p = dist.probability(v)
        rows.append(
            {
                "value": v,
                "probability": fraction_text(p),
                "percent": round(float(p) * 100, 4),
            }
        )
    doc: dict[str, Any] = {"distribution": rows}
    if success is not None:
        doc["success"] = fraction_text(success)
    return doc


def odds_text(ctx: Context, dist: Any, success: Fraction | None) -> str:
    """The exact odds of a Test as text, one PS a line, then the chance of success."""
    lines = [ctx.tr("Odds before rolling:")]
    for v in sorted(dist.weights, reverse=True):
        p = dist.probability(v)
        lines.append(f"  {v:>3} PS {percent(p, ctx.lang):>8}  ({exact_text(p, ctx.tr)})")
    if success is not None:
        lines.append(
            ctx.tr("Success: {percent} ({fraction})").format(
                percent=percent(success, ctx.lang),
                fraction=exact_text(success, ctx.tr),
            )
        )
    return "\n".join(lines)


def _row(key: str, value: Any, p: Fraction) -> dict[str, Any]:
    return {key: value, "probability": fraction_text(p), "percent": round(float(p) * 100, 4)}


def opposed_odds_json(odds: Any) -> dict[str, Any]:
    """The exact odds of an opposed Action: who prevails, each ending, the PS margin."""
    return {
        "first": fraction_text(odds.prevails("first")),
        "second": fraction_text(odds.prevails("second")),
        "outcomes": [_row("outcome", o.value, p) for o, p in _ordered(odds.outcomes)],
        "margin": [_row("margin", m, p) for m, p in reversed(list(odds.margin.items()))],
    }


def _ordered(outcomes: Any) -> list[tuple[Any, Fraction]]:
    from tablee.systems.shs import OpposedOutcome

    order = list(OpposedOutcome)
    return sorted(
        ((o, outcomes.probability(o)) for o in outcomes.weights), key=lambda x: order.index(x[0])
    )


def opposed_odds_text(ctx: Context, odds: Any, doc: dict[str, Any]) -> list[str]:
    """The exact odds of an opposed Action as text lines, one outcome a line."""
    first, second = doc["first"]["protagonist"], doc["second"]["protagonist"]
    names = {"first": first, "second": second}
    labels = {
        "first": ctx.tr("{name} has more PS and wins").format(name=first),
        "second": ctx.tr("{name} has more PS and wins").format(name=second),
        "tie_first_holds": ctx.tr("a tie: {name} keeps the situation as it was (S-A5)").format(
            name=first
        ),
        "tie_second_holds": ctx.tr("a tie: {name} keeps the situation as it was (S-A5)").format(
            name=second
        ),
        "tie_neither": ctx.tr("a tie: neither side achieves its goal (S-A5)"),
        "tie_reroll": ctx.tr("a tie: roll again (option opposed_tie, S-A5)"),
    }
    lines = [ctx.tr("Odds before rolling:")]
    for outcome, p in _ordered(odds.outcomes):
        lines.append(
            "  "
            + ctx.tr("{label}: {percent} ({fraction})").format(
                label=labels[outcome.value],
                percent=percent(p, ctx.lang),
                fraction=exact_text(p, ctx.tr),
            )
        )
    for side in ("first", "second"):
        p = odds.prevails(side)
        lines.append(
            "  "
            + ctx.tr("{name} prevails in all: {percent} ({fraction})").format(
                name=names[side], percent=percent(p, ctx.lang), fraction=exact_text(p, ctx.tr)
            )
        )
    lines.append(
        "  " + ctx.tr("PS margin ({first} minus {second}):").format(first=first, second=second)
    )
    for margin, p in reversed(list(odds.margin.items())):
        lines.append(f"    {margin:+d} {percent(p, ctx.lang):>8}  ({exact_text(p, ctx.tr)})")
    return lines


def cooperation_odds_json(odds: Any, doc: dict[str, Any]) -> dict[str, Any]:
    """The exact odds of a cooperation: each member, the number of successes, the group."""
    return {
        "success": fraction_text(odds.group),
        "members": [
            {"protagonist": m["protagonist"], "success": fraction_text(p)}
            for m, p in zip(doc["members"], odds.members, strict=True)
        ],
        "successes": [_row("count", k, p) for k, p in odds.successes.items()],
    }


def cooperation_odds_text(ctx: Context, odds: Any, doc: dict[str, Any]) -> list[str]:
    """The exact odds of a cooperation as text lines."""
    lines = [ctx.tr("Odds before rolling:")]
    for member, p in zip(doc["members"], odds.members, strict=True):
        lines.append(
            "  "
            + ctx.tr("{name} reaches the Difficulty: {percent} ({fraction})").format(
                name=member["protagonist"],
                percent=percent(p, ctx.lang),
                fraction=exact_text(p, ctx.tr),
            )
        )
    for count, p in odds.successes.items():
        lines.append(
            "  "
            + ctx.ntr(
                "{count} of {total} succeeds: {percent} ({fraction})",
                "{count} of {total} succeed: {percent} ({fraction})",
                count,
            ).format(
                count=count,
                total=len(odds.members),
                percent=percent(p, ctx.lang),
                fraction=exact_text(p, ctx.tr),
            )
        )
    lines.append(
        "  "
        + ctx.tr("the group succeeds (at least one, S-M6): {percent} ({fraction})").format(
            percent=percent(odds.group, ctx.lang), fraction=exact_text(odds.group, ctx.tr)
        )
    )
    return lines
