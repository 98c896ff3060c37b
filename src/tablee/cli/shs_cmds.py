"""``tablee shs ...`` and ``tablee odds shs``: Space Horror Stories at the command line.

A Réalisateur runs a whole film: Protagonistes, Tests, opposed Actions, cooperation,
simultaneous Actions, options with their price, and the film's clock. Each rolled command
plans the Action against the table, throws the dice the plan needs (typed in, seeded or
fair), then appends the decision taken with those faces.

Source: issue 3 points 6 and 7; seed 003; rulings S-M2, S-M3, S-M5, S-A1 to S-A4, S-A7.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tablee.cli.app import Context, add_common, parse_dice, whole_number
from tablee.cli.render import format_trace, percent
from tablee.dice import FairSource, RandomSource, SeededSource, TypedFaces
from tablee.errors import N_, InputError, TableeError
from tablee.table.projection import TableState

if TYPE_CHECKING:
    from fractions import Fraction

    from tablee.systems.shs import ActionRoll, Attempt, Decision, ShsOptions, ShsState

__all__ = ["COMMANDS", "add_odds_parser", "add_parser", "cmd_odds", "format_summary"]

Tr = Callable[[str], str]


def _row(outcome: str, value: int, p: Any) -> dict[str, Any]:
    return {
        "outcome": outcome,
        "value": value,
        "probability": f"{p.numerator}/{p.denominator}",
        "percent": round(float(p) * 100, 4),
    }


def cmd_odds(ctx: Context) -> int:
    """``tablee odds shs``: the PS distribution and, with a difficulty, the chance of success."""
    from tablee.systems import shs

    a = ctx.args
    roll = shs.ActionRoll(
        a.threshold, a.expertise, a.bonus, a.malus, a.option == "surpasser", a.option == "sacrifier"
    )
    dist = shs.ps_distribution(roll)
    values = sorted(dist.weights, reverse=True)
    difficulty = a.difficulty
    if difficulty is not None:
        test = shs.Test(
            a.threshold,
            difficulty,
            None,
            a.expertise,
            a.bonus,
            a.malus,
            a.option == "surpasser",
            a.option == "sacrifier",
        )
        success = shs.success_probability(test)

    def outcome(v: int) -> str:
        if difficulty is None:
            return "ps"
        return "success" if v >= difficulty else "failure"

    if ctx.json:
        doc: dict[str, Any] = {
            "threshold": a.threshold,
            "expertise": a.expertise,
            "bonus": a.bonus,
            "malus": a.malus,
            "option": a.option or "none",
            "difficulty": difficulty,
            "distribution": [_row(outcome(v), v, dist.probability(v)) for v in values],
        }
        if difficulty is not None:
            doc["success"] = f"{success.numerator}/{success.denominator}"
        ctx.emit_json(doc)
        return 0
    title = ctx.tr("Exact odds of the PS total")
    lines = [f"[bold]{title}[/]"]
    for v in values:
        p = dist.probability(v)
        style = "green" if difficulty is not None and v >= difficulty else "white"
        bar = "█" * round(float(p) * 30)
        lines.append(
            f"  {v:>3} PS [{style}]{bar:<30}[/] {percent(p, ctx.lang):>8}  "
            f"({p.numerator}/{p.denominator})"
        )
    if difficulty is not None:
        lines.append(
            ctx.tr("Success (Difficulty {difficulty}): {percent} ({fraction})").format(
                difficulty=difficulty,
                percent=percent(success, ctx.lang),
                fraction=f"{success.numerator}/{success.denominator}",
            )
        )
    ctx.emit("\n".join(lines))
    return 0


def add_odds_parser(sub: Any, tr: Tr) -> None:
    """Add ``tablee odds shs`` to the ``odds`` subparsers."""
    p: argparse.ArgumentParser = sub.add_parser("shs", help=tr("exact odds of an SHS Test"))
    p.add_argument(
        "--threshold",
        type=whole_number(tr),
        required=True,
        metavar="5..8",
        help=tr("the Caractéristique's threshold, 5 to 8 (S-M1)"),
    )
    p.add_argument(
        "--expertise",
        action="store_true",
        help=tr("a matching Expertise: D10 instead of D8 (S-A1, S-A2)"),
    )
    p.add_argument(
        "--bonus",
        type=whole_number(tr),
        default=0,
        metavar="N",
        help=tr("sum of the bonuses (S-M3)"),
    )
    p.add_argument(
        "--malus",
        type=whole_number(tr),
        default=0,
        metavar="N",
        help=tr("sum of the maluses (S-M3)"),
    )
    p.add_argument(
        "--option",
        choices=("surpasser", "sacrifier"),
        help=tr("Se Surpasser or Se Sacrifier (S-M5)"),
    )
    p.add_argument(
        "--difficulty", type=whole_number(tr), metavar="D", help=tr("PS needed, 1 or more (S-A4)")
    )
    add_common(p, tr, table=False)
    p.set_defaults(handler=cmd_odds)


# --- playing a film: ``tablee shs ...`` ------------------------------------------------------

COMMANDS = (
    "protagoniste",
    "test",
    "opposed",
    "cooperation",
    "simultaneous",
    "scene",
    "tour",
    "time",
    "modifier",
    "long-action",
    "clock",
)
"""The commands of ``tablee shs`` (each may be built alone, to start faster)."""


def _game(state: TableState) -> ShsState:
    """The SHS game of a table, or InputError when the table plays another system."""
    if state.system.id != "shs":
        raise InputError(
            N_("table {name} plays {system}, not Space Horror Stories"),
            tip=N_("create one with: tablee table new shs --name NAME --players A,B"),
            name=state.name,
            system=state.system.id,
        )
    game: ShsState = state.game
    return game


def _execute(ctx: Context, decide: Callable[[ShsState], Decision]) -> Any:
    """Decide against the named table's SHS game and append the facts (retrying if raced)."""
    name = ctx.service.resolve_name(ctx.args.table)
    return ctx.service.execute(name, lambda s: decide(_game(s)), lambda d: d.facts)


def _head(applied: Any) -> dict[str, Any]:
    return {"table": applied.state.name, "seq": applied.events[-1].seq}


def _warnings(ctx: Context, decision: Decision) -> list[str]:
    return [f"[yellow]{w.render(ctx.tr)}[/]" for w in decision.warnings]


def _signed(tr: Tr) -> Callable[[str], int]:
    """An argparse ``type`` for a signed change: ``+2``, ``-1``, ``3``."""

    def parse(text: str) -> int:
        digits = text.strip()
        bare = digits[1:] if digits[:1] in "+-" else digits
        if digits and bare.isascii() and bare.isdigit():
            return int(digits)
        raise argparse.ArgumentTypeError(
            tr("{value!r} is not a change like +2 or -1").format(value=text)
        )

    return parse


# --- dice ---------------------------------------------------------------------------------


def _parse_dpm(text: str | None) -> list[int] | None:
    from tablee.systems.shs import parse_dpm_face

    if text is None:
        return None
    return [parse_dpm_face(p) for p in text.replace(" ", ",").split(",") if p]


class _Dice:
    """Where an Action's faces come from: typed in (``--dice``, ``--dpm-dice``), seeded, fair.

    Typed faces are handed out in order: each Action takes its action dice from ``--dice``
    and its D+/- dice from ``--dpm-dice``, Actions in the order they are named.
    """

    def __init__(self, ctx: Context) -> None:
        a = ctx.args
        typed, dpm = parse_dice(a.dice), _parse_dpm(a.dpm_dice)
        self.typed: list[tuple[str, list[int]]] = []
        self.needed = [0, 0]
        if typed is not None or dpm is not None:
            self.typed = [("--dice", typed or []), ("--dpm-dice", dpm or [])]
            self.action: RandomSource = TypedFaces(typed or [])
            self.dpm: RandomSource = TypedFaces(dpm or [])
        else:
            source: RandomSource = SeededSource(a.seed) if a.seed is not None else FairSource()
            self.action = self.dpm = source

    def throw(self, roll: ActionRoll, options: ShsOptions) -> tuple[list[int], list[int]]:
        """One Action's ``(action faces, D+/- faces)``."""
        from tablee.systems.shs import dice_for_action

        first, *rest = dice_for_action(roll, options)
        self.needed[0] += first.count
        self.needed[1] += sum(r.count for r in rest)
        action = list(self.action.roll(first.die, first.count))
        dpm = [f for r in rest for f in self.dpm.roll(r.die, r.count)]
        return action, dpm

    def finish(self) -> None:
        """Typed faces left over are an error."""
        for (flag, faces), needed in zip(self.typed, self.needed, strict=False):
            if len(faces) != needed:
                raise InputError(
                    N_("{flag}: {given} faces were typed in but the roll needs {needed}"),
                    flag=flag,
                    given=len(faces),
                    needed=needed,
                )


# --- Protagonistes --------------------------------------------------------------------------

_CHARACTERISTICS = ("carrure", "motricite", "science", "relationnel", "sang_froid")


def _hero_lines(ctx: Context, name: str, hero: dict[str, Any]) -> list[str]:
    from tablee.systems.shs import Characteristic

    owner = hero["owner"] or ctx.tr("Réalisateur")
    status = "" if hero["alive"] else " [red]" + ctx.tr("(dead)") + "[/]"
    traits = ", ".join(f"{c.title} {hero[c.value]}+" for c in Characteristic)
    counters = ctx.tr("Santé {sante}/{max}, Protection {protection}, Air {air}, NT {nt}").format(
        sante=hero["sante"],
        max=hero["sante_max"],
        protection=hero["protection"],
        air=hero["air"],
        nt=hero["nt"],
    )
    lines = [f"[bold]{name}[/] ({owner}){status}", f"  {traits}", f"  {counters}"]
    if hero["expertises"]:
        lines.append("  " + ctx.tr("Expertises: {list}").format(list=", ".join(hero["expertises"])))
    return lines


def _hero_doc(applied: Any, name: str) -> dict[str, Any]:
    from tablee.systems.shs import protagonist_json

    return {"name": name, **protagonist_json(_game(applied.state), name)}


def cmd_create(ctx: Context) -> int:
    """``tablee shs protagoniste create``: free entry, Santé from Carrure (S-M9, S-N1)."""
    from tablee.systems.shs import decide_create, parse_threshold

    a = ctx.args
    thresholds = {c: parse_threshold(getattr(a, c), what=c) for c in _CHARACTERISTICS}
    applied = _execute(
        ctx,
        lambda g: decide_create(
            g,
            name=a.name,
            expertises=a.expertise or [],
            protection=a.protection,
            air=a.air,
            owner=a.player,
            **thresholds,
        ),
    )
    name = applied.decision.outcome.name
    doc = _hero_doc(applied, name)
    if ctx.json:
        ctx.emit_json({**_head(applied), "protagoniste": doc})
        return 0
    head = ctx.tr("Protagoniste {name} created.").format(name=name)
    ctx.emit("\n".join([head, *_hero_lines(ctx, name, doc)]))
    return 0


_FIELDS = {
    "name": "name",
    "nom": "name",
    "player": "owner",
    "joueur": "owner",
    "owner": "owner",
    "expertises": "expertises",
    "protection": "protection",
    "air": "air",
    **{c: c for c in _CHARACTERISTICS},
    "sang-froid": "sang_froid",
    "motricité": "motricite",
}


def _read_sheets(path: Path) -> list[dict[str, Any]]:
    """The Protagonistes of a JSON or TOML file: one, a list, or ``protagonistes = [...]``."""
    import tomllib

    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(
            N_("cannot read {file}: {reason}"), file=str(path), reason=exc.strerror
        ) from None
    try:
        if path.suffix.lower() == ".toml":
            data: Any = tomllib.loads(text)
        else:
            data = json.loads(text)
    except (ValueError, tomllib.TOMLDecodeError) as exc:
        raise InputError(
            N_("{file} is not valid JSON or TOML: {reason}"), file=str(path), reason=str(exc)
        ) from None
    if isinstance(data, dict):
        for key in ("protagonistes", "protagoniste", "protagonists"):
            if key in data:
                data = data[key]
                break
    sheets = [data] if isinstance(data, dict) else data
    if not isinstance(sheets, list) or not sheets:
        raise InputError(
            N_("{file}: expected a Protagoniste or a list of Protagonistes"), file=str(path)
        )
    return sheets


def _sheet_fields(path: Path, number: int, sheet: object) -> dict[str, Any]:
    from tablee.systems.shs import parse_threshold

    if not isinstance(sheet, dict):
        raise InputError(
            N_("{file}: Protagoniste {number} is not a table of fields"),
            file=str(path),
            number=number,
        )
    fields: dict[str, Any] = {}
    for key, value in sheet.items():
        field_name = _FIELDS.get(str(key).strip().casefold())
        if field_name is None:
            raise InputError(
                N_("{file}: Protagoniste {number}: unknown field {field!r} (known: {known})"),
                file=str(path),
                number=number,
                field=key,
                known=", ".join(
                    ["name", "player", *_CHARACTERISTICS, "expertises", "protection", "air"]
                ),
            )
        fields[field_name] = value
    for required in ("name", *_CHARACTERISTICS):
        if required not in fields:
            raise InputError(
                N_("{file}: Protagoniste {number}: the field {field!r} is missing"),
                file=str(path),
                number=number,
                field=required,
            )
    for c in _CHARACTERISTICS:
        try:
            fields[c] = parse_threshold(fields[c], what=c)
        except InputError as exc:
            raise InputError(
                N_("{file}: Protagoniste {number}: {error}"),
                file=str(path),
                number=number,
                error=exc,
            ) from None
    return fields


def cmd_import(ctx: Context) -> int:
    """``tablee shs protagoniste import FILE``: Protagonistes from JSON or TOML, all or none."""
    from tablee.systems.shs import Decision, decide_create

    path = Path(ctx.args.file)
    sheets = [_sheet_fields(path, n, s) for n, s in enumerate(_read_sheets(path), start=1)]

    def decide(game: ShsState) -> Decision:
        facts: list[Any] = []
        state = game
        for number, fields in enumerate(sheets, start=1):
            try:
                decision = decide_create(state, **fields)
            except TableeError as exc:
                raise type(exc)(
                    N_("{file}: Protagoniste {number}: {error}"),
                    file=str(path),
                    number=number,
                    error=exc,
                ) from None
            facts += decision.facts
            state = decision.after
        return Decision(tuple(facts), None, (), state)

    applied = _execute(ctx, decide)
    names = [str(e.payload["name"]) for e in applied.events]
    if ctx.json:
        docs = [_hero_doc(applied, n) for n in names]
        ctx.emit_json({**_head(applied), "file": str(path), "protagonistes": docs})
        return 0
    ctx.emit(
        ctx.tr("Protagonistes imported ({count}): {names}").format(
            count=len(names), names=", ".join(names)
        )
    )
    return 0


def cmd_show(ctx: Context) -> int:
    """``tablee shs protagoniste show [NAME]``: traits, counters, alive or dead."""
    from tablee.systems.shs import protagonist_json, protagonist_named

    name = ctx.service.resolve_name(ctx.args.table)
    game = _game(ctx.service.state(name))
    names = list(game.protagonists)
    if ctx.args.name is not None:
        names = [protagonist_named(game, ctx.args.name)]
    docs = {n: protagonist_json(game, n) for n in names}
    if ctx.json:
        ctx.emit_json({"table": name, "protagonistes": docs})
        return 0
    lines = [line for n, doc in docs.items() for line in _hero_lines(ctx, n, doc)]
    ctx.emit("\n".join(lines) or ctx.tr("No Protagoniste yet."))
    return 0


def cmd_edit(ctx: Context) -> int:
    """``tablee shs protagoniste edit NAME``: Santé, Protection, Air, NT by hand (S-A9, S-A10)."""
    from tablee.systems.shs import Decision, decide_counter

    a = ctx.args
    changes = []
    for counter in ("sante", "protection", "air", "nt"):
        delta, value = getattr(a, counter), getattr(a, "set_" + counter)
        if delta is not None or value is not None:
            changes.append((counter, delta, value))
    if not changes:
        raise InputError(
            N_("nothing to edit"), tip=N_("give --sante +N or -N, --set-sante N, --air, --nt...")
        )

    def decide(game: ShsState) -> Decision:
        facts: list[Any] = []
        warnings: list[Any] = []
        state = game
        for counter, delta, value in changes:
            decision = decide_counter(
                state, protagonist=a.name, counter=counter, delta=delta, value=value
            )
            facts += decision.facts
            warnings += decision.warnings
            state = decision.after
        return Decision(tuple(facts), None, tuple(warnings), state)

    applied = _execute(ctx, decide)
    name = str(applied.events[-1].payload["protagonist"])
    changed = [{k: e.payload[k] for k in ("counter", "before", "after")} for e in applied.events]
    if ctx.json:
        ctx.emit_json(
            {
                **_head(applied),
                "protagoniste": _hero_doc(applied, name),
                "changes": changed,
                "warnings": [w.render(ctx.tr) for w in applied.decision.warnings],
            }
        )
        return 0
    from tablee.systems.shs import COUNTER_TITLES

    lines = [
        f"{name}: {COUNTER_TITLES[str(c['counter'])]} {c['before']} → {c['after']}" for c in changed
    ]
    ctx.emit("\n".join(lines + _warnings(ctx, applied.decision)))
    return 0


def cmd_life(ctx: Context) -> int:
    """``tablee shs protagoniste kill|revive NAME``: the Réalisateur's call."""
    from tablee.systems.shs import decide_kill, decide_revive

    a = ctx.args
    decide = decide_kill if a.action == "kill" else decide_revive
    applied = _execute(ctx, lambda g: decide(g, protagonist=a.name, reason=a.reason or ""))
    name = str(applied.events[-1].payload["protagonist"])
    if ctx.json:
        ctx.emit_json({**_head(applied), "protagoniste": _hero_doc(applied, name)})
        return 0
    text = ctx.tr("{name} is dead.") if a.action == "kill" else ctx.tr("{name} lives again.")
    ctx.emit(text.format(name=name))
    return 0


# --- Actions --------------------------------------------------------------------------------


def _options(values: list[str] | None) -> tuple[bool, bool]:
    chosen = values or []
    return "surpasser" in chosen, "sacrifier" in chosen


def _attempt_of_test(a: argparse.Namespace) -> Attempt:
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
    parts = [p.strip() for p in text.split(":")]
    leading = parts[:2]
    if len(leading) < 2 or not all(leading):
        raise InputError(
            N_("{what} {value!r}: expected {shape}"), what=what, value=text, shape=_SHAPES[what]
        )
    extra: dict[str, Any] = {"surpass": False, "sacrifice": False}
    for part in parts[2:]:
        key, sep, value = part.partition("=")
        key = key.strip().casefold()
        if not sep and key in ("surpasser", "sacrifier"):
            extra["surpass" if key == "surpasser" else "sacrifice"] = True
        elif sep and key == "expertise" and value.strip():
            extra["expertise"] = value.strip()
        elif sep and key in ("bonus", "malus") and value.strip().isdigit():
            extra[key] = int(value)
        else:
            raise InputError(
                N_(
                    "{what} {value!r}: {part!r} is not an option (expertise=TEXT, bonus=N, "
                    "malus=N, surpasser, sacrifier)"
                ),
                what=what,
                value=text,
                part=part,
            )
    return leading, extra


_SHAPES = {
    "--member": "NAME:CARACTERISTIQUE[:option...]",
    "--first": "NAME:CARACTERISTIQUE[:option...]",
    "--second": "NAME:CARACTERISTIQUE[:option...]",
    "--action": "CARACTERISTIQUE:DIFFICULTY[:option...]",
}


def _member(text: str, *, what: str, difficulty: int | None) -> Attempt:
    from tablee.systems.shs import Attempt

    (name, characteristic), extra = _spec(text, what=what)
    return Attempt(name, characteristic, difficulty, **extra)


def _action(protagoniste: str, text: str) -> Attempt:
    from tablee.systems.shs import Attempt, difficulty_named

    (characteristic, difficulty), extra = _spec(text, what="--action")
    return Attempt(protagoniste, characteristic, difficulty_named(difficulty), **extra)


def _dpm_text(ctx: Context, faces: Any) -> str:
    from tablee.systems.shs import dpm_symbol

    return " ".join(dpm_symbol(int(f)) for f in faces) or ctx.tr("none")


def _action_lines(ctx: Context, doc: dict[str, Any], trace: Any, head: str) -> list[str]:
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


def _test_head(ctx: Context, doc: dict[str, Any]) -> str:
    from tablee.systems.shs import TestNotation, difficulty_name

    notation = str(TestNotation(doc["characteristic"], doc["difficulty"]))
    named = difficulty_name(int(doc["difficulty"]))
    head = f"{doc['protagonist']}: {notation}"
    if named:
        head += f" ({named})"
    if doc.get("expertise"):
        head += " · " + ctx.tr("Expertise {name}").format(name=doc["expertise"])
    titles = {"se_surpasser": "Se Surpasser", "se_sacrifier": "Se Sacrifier"}
    if doc["option"] in titles:
        head += " · " + titles[doc["option"]]
    return head


def _outcome_word(ctx: Context, success: bool) -> str:
    return "[green]" + ctx.tr("success") + "[/]" if success else "[red]" + ctx.tr("failure") + "[/]"


def _test_json(doc: dict[str, Any], result: Any, ctx: Context) -> dict[str, Any]:
    from tablee.systems.shs import TestNotation, difficulty_name

    return {
        **doc,
        "notation": str(TestNotation(doc["characteristic"], doc["difficulty"])),
        "difficulty_name": difficulty_name(int(doc["difficulty"])),
        "trace": [s.render(ctx.tr) for s in result.trace],
    }


def _odds_json(dist: Any, success: Fraction | None) -> dict[str, Any]:
    rows = []
    for v in sorted(dist.weights, reverse=True):
        p = dist.probability(v)
        rows.append(
            {
                "value": v,
                "probability": f"{p.numerator}/{p.denominator}",
                "percent": round(float(p) * 100, 4),
            }
        )
    doc: dict[str, Any] = {"distribution": rows}
    if success is not None:
        doc["success"] = f"{success.numerator}/{success.denominator}"
    return doc


def _odds_text(ctx: Context, dist: Any, success: Fraction | None) -> str:
    lines = [ctx.tr("Odds before rolling:")]
    for v in sorted(dist.weights, reverse=True):
        p = dist.probability(v)
        lines.append(f"  {v:>3} PS {percent(p, ctx.lang):>8}  ({p.numerator}/{p.denominator})")
    if success is not None:
        lines.append(
            ctx.tr("Success: {percent} ({fraction})").format(
                percent=percent(success, ctx.lang),
                fraction=f"{success.numerator}/{success.denominator}",
            )
        )
    return "\n".join(lines)


def _state_of(ctx: Context) -> tuple[str, ShsState]:
    name = ctx.service.resolve_name(ctx.args.table)
    return name, _game(ctx.service.state(name))


def _after(applied: Any, name: str) -> dict[str, Any]:
    hero = _game(applied.state).protagonists[name]
    return {"nt": hero.nt, "alive": hero.alive}


def cmd_test(ctx: Context) -> int:
    """``tablee shs test``: a Test (S-M2) with typed, seeded or fair dice, and its price."""
    from tablee.systems.shs import decide_test, plan_test, ps_distribution, success_probability

    a = ctx.args
    attempt = _attempt_of_test(a)
    table, game = _state_of(ctx)
    test = plan_test(game, attempt)
    dice = _Dice(ctx)
    action_faces, dpm_faces = dice.throw(test.action, game.options)
    dice.finish()
    applied = ctx.service.execute(
        table,
        lambda s: decide_test(
            _game(s),
            attempt,
            action_faces=action_faces,
            dpm_faces=dpm_faces,
            long_action=a.long_action,
            reason=a.reason or "",
        ),
        lambda d: d.facts,
    )
    result = applied.decision.outcome
    doc = dict(applied.events[-1].payload)
    odds = None
    if a.odds:
        odds = ps_distribution(test, game.options), success_probability(test, game.options)
    if ctx.json:
        out = {
            **_head(applied),
            **_test_json(doc, result, ctx),
            **_after(applied, doc["protagonist"]),
        }
        if odds is not None:
            out["odds"] = _odds_json(*odds)
        ctx.emit_json(out)
        return 0
    if odds is not None:
        ctx.emit(_odds_text(ctx, *odds))
    lines = _action_lines(ctx, doc, result.trace, _test_head(ctx, doc))
    lines.append(
        ctx.tr("PS {ps} against Difficulty {difficulty}: {outcome}").format(
            ps=doc["ps"], difficulty=doc["difficulty"], outcome=_outcome_word(ctx, doc["success"])
        )
    )
    ctx.emit("\n".join(lines))
    return 0


def cmd_opposed(ctx: Context) -> int:
    """``tablee shs opposed``: Protagoniste against Protagoniste (S-M4, S-A5)."""
    from tablee.systems.shs import decide_opposed, opposed_distribution, plan_opposed

    a = ctx.args
    first = _member(a.first, what="--first", difficulty=None)
    second = _member(a.second, what="--second", difficulty=None)
    changer = None if a.changer == "none" else a.changer
    table, game = _state_of(ctx)
    plan = plan_opposed(game, first, second, changer)
    dice = _Dice(ctx)
    one = dice.throw(plan.first, game.options)
    two = dice.throw(plan.second, game.options)
    dice.finish()
    applied = ctx.service.execute(
        table,
        lambda s: decide_opposed(
            _game(s),
            first,
            second,
            first_faces=one,
            second_faces=two,
            changer=changer,
            reason=a.reason or "",
        ),
        lambda d: d.facts,
    )
    result = applied.decision.outcome
    doc = dict(applied.events[-1].payload)
    odds = opposed_distribution(plan, game.options) if a.odds else None
    if ctx.json:
        out = {**_head(applied), **doc, "trace": [s.render(ctx.tr) for s in result.trace]}
        if odds is not None:
            out["odds"] = {
                k: f"{odds.probability(k).numerator}/{odds.probability(k).denominator}"
                for k in sorted(odds.weights)
            }
        ctx.emit_json(out)
        return 0
    lines = []
    if odds is not None:
        lines.append(ctx.tr("Odds before rolling:"))
        for k in sorted(odds.weights):
            label = doc[k]["protagonist"] if k in ("first", "second") else k
            lines.append(f"  {label}: {percent(odds.probability(k), ctx.lang)}")
    for side, part in (("first", result.first), ("second", result.second)):
        d = doc[side]
        from tablee.systems.shs import characteristic_named

        head = (
            f"{d['protagonist']} ({characteristic_named(d['characteristic']).title}): {d['ps']} PS"
        )
        lines += _action_lines(ctx, d, part.trace, head)
    winner = doc["winner"]
    if doc["reroll"]:
        verdict = ctx.tr("A tie: roll again.")
    elif winner is None:
        verdict = ctx.tr("A tie: neither side achieves its goal.")
    else:
        verdict = ctx.tr("{name} prevails.").format(name=doc[winner]["protagonist"])
    lines.append(f"[bold]{verdict}[/]")
    ctx.emit("\n".join(lines))
    return 0


def cmd_cooperation(ctx: Context) -> int:
    """``tablee shs cooperation``: each cooperator rolls with Bonus 1; one success suffices."""
    from tablee.systems.shs import (
        Cooperation,
        cooperation_success_probability,
        decide_cooperation,
        difficulty_named,
        plan_cooperation,
    )

    a = ctx.args
    difficulty = difficulty_named(a.difficulty)
    members = [_member(m, what="--member", difficulty=difficulty) for m in a.member]
    table, game = _state_of(ctx)
    tests = plan_cooperation(game, members)
    dice = _Dice(ctx)
    faces = [dice.throw(t.action, game.options) for t in tests]
    dice.finish()
    applied = ctx.service.execute(
        table,
        lambda s: decide_cooperation(_game(s), members, faces=faces, reason=a.reason or ""),
        lambda d: d.facts,
    )
    result = applied.decision.outcome
    doc = dict(applied.events[-1].payload)
    success_odds = None
    if a.odds:
        plain = Cooperation(tuple(t.with_modifiers(bonus=-1) for t in tests))
        success_odds = cooperation_success_probability(plain, game.options)
    if ctx.json:
        out = {
            **_head(applied),
            **doc,
            "difficulty": difficulty,
            "members": [
                {**_test_json(m, r, ctx), **_after(applied, m["protagonist"])}
                for m, r in zip(doc["members"], result.results, strict=True)
            ],
        }
        if success_odds is not None:
            out["odds"] = {"success": f"{success_odds.numerator}/{success_odds.denominator}"}
        ctx.emit_json(out)
        return 0
    lines = []
    if success_odds is not None:
        lines.append(
            ctx.tr("Odds before rolling: {percent}").format(percent=percent(success_odds, ctx.lang))
        )
    for m, r in zip(doc["members"], result.results, strict=True):
        lines += _action_lines(ctx, m, r.trace, _test_head(ctx, m))
    lines.append(
        "[bold]"
        + ctx.tr("Cooperation (Difficulty {difficulty}): {outcome}").format(
            difficulty=difficulty, outcome=_outcome_word(ctx, doc["success"])
        )
        + "[/]"
    )
    ctx.emit("\n".join(lines))
    return 0


def cmd_simultaneous(ctx: Context) -> int:
    """``tablee shs simultaneous``: one Protagoniste's Actions at once, Malus k - 1 (S-M7)."""
    from tablee.systems.shs import decide_simultaneous, plan_simultaneous

    a = ctx.args
    actions = [_action(a.protagoniste, t) for t in a.action]
    table, game = _state_of(ctx)
    tests = plan_simultaneous(game, actions, a.trivial)
    dice = _Dice(ctx)
    faces = [dice.throw(t.action, game.options) for t in tests]
    dice.finish()
    applied = ctx.service.execute(
        table,
        lambda s: decide_simultaneous(
            _game(s), actions, faces=faces, trivial=a.trivial, reason=a.reason or ""
        ),
        lambda d: d.facts,
    )
    results = applied.decision.outcome
    doc = dict(applied.events[-1].payload)
    if ctx.json:
        out = {
            **_head(applied),
            **doc,
            "actions": [
                _test_json(m, r, ctx) for m, r in zip(doc["actions"], results, strict=True)
            ],
            **_after(applied, doc["protagonist"]),
        }
        ctx.emit_json(out)
        return 0
    lines = [
        ctx.tr("{name}: {count} simultaneous Actions, Malus {malus} on each (rule S-M7)").format(
            name=doc["protagonist"],
            count=len(doc["actions"]) + doc["trivial"],
            malus=doc["set_malus"],
        )
    ]
    for m, r in zip(doc["actions"], results, strict=True):
        lines += _action_lines(ctx, m, r.trace, _test_head(ctx, m))
        lines.append(
            ctx.tr("PS {ps} against Difficulty {difficulty}: {outcome}").format(
                ps=m["ps"], difficulty=m["difficulty"], outcome=_outcome_word(ctx, m["success"])
            )
        )
    ctx.emit("\n".join(lines))
    return 0


# --- the film's clock ------------------------------------------------------------------------


def _modifier_text(ctx: Context, m: dict[str, Any]) -> str:
    from tablee.systems.shs import Duration

    duration = Duration(tours=int(m["tours"]), seconds=int(m["seconds"]))
    kind = "Bonus" if m["kind"] == "bonus" else "Malus"
    text = ctx.tr("{name}: {kind} ({duration}) of {amount}").format(
        kind=kind, duration=str(duration), amount=m["amount"], name=m["protagonist"]
    )
    return text + (f" — {m['label']}" if m.get("label") else "")


def _clock_lines(ctx: Context, clock: dict[str, Any]) -> list[str]:
    from tablee.systems.shs import game_time

    kinds = {"rythmee": ctx.tr("scène rythmée"), "lente": ctx.tr("scène lente")}
    scene = (
        ctx.tr("Scène {scene} ({kind})").format(
            scene=clock["scene"], kind=kinds[clock["scene_kind"]]
        )
        if clock["scene_kind"]
        else ctx.tr("No Scène yet")
    )
    lines = [
        ctx.tr("{scene}, Tour {tour}, game time {time}").format(
            scene=scene, tour=clock["tour"], time=game_time(clock["seconds"])
        )
    ]
    for m in clock["modifiers"]:
        lines.append(f"  #{m['number']} {_modifier_text(ctx, m)}")
    for action in clock["long_actions"]:
        lines.append(
            "  "
            + ctx.tr("{name}: {label}, rolled in Tour {last}").format(
                name=action["protagonist"], label=action["label"], last=action["last_tour"]
            )
        )
    return lines


def _clock_done(ctx: Context, applied: Any, head: str, extra: list[str] | None = None) -> int:
    from tablee.systems.shs import clock_json

    clock = clock_json(_game(applied.state).clock)
    if ctx.json:
        ctx.emit_json(
            {
                **_head(applied),
                **applied.events[-1].payload,
                "clock": clock,
                "warnings": [w.render(ctx.tr) for w in applied.decision.warnings],
            }
        )
        return 0
    lines = [head, *(extra or []), *_warnings(ctx, applied.decision)]
    ctx.emit("\n".join(lines))
    return 0


def _expired_lines(ctx: Context, payload: Any) -> list[str]:
    return [
        ctx.tr("Expired: {modifier}").format(modifier=_modifier_text(ctx, m))
        for m in payload.get("expired", [])
    ]


def cmd_scene(ctx: Context) -> int:
    """``tablee shs scene start rythmee|lente`` (S-M8)."""
    from tablee.systems.shs import decide_scene

    applied = _execute(ctx, lambda g: decide_scene(g, kind=ctx.args.kind))
    p = applied.events[-1].payload
    kinds = {"rythmee": ctx.tr("scène rythmée"), "lente": ctx.tr("scène lente")}
    head = ctx.tr("Scène {scene} begins: {kind}.").format(scene=p["scene"], kind=kinds[p["kind"]])
    return _clock_done(ctx, applied, head)


def cmd_tour(ctx: Context) -> int:
    """``tablee shs tour next``: the next Tour; modifiers that ran their course expire."""
    from tablee.systems.shs import decide_next_tour

    applied = _execute(ctx, decide_next_tour)
    p = applied.events[-1].payload
    head = ctx.tr("Tour {tour} begins.").format(tour=p["tour"])
    lapsed = [
        ctx.tr("Lapsed: {name}'s {label}").format(name=x["protagonist"], label=x["label"])
        for x in p["lapsed"]
    ]
    return _clock_done(ctx, applied, head, _expired_lines(ctx, p) + lapsed)


def cmd_time(ctx: Context) -> int:
    """``tablee shs time advance DURATION``: game time passes; modifiers past it expire."""
    from tablee.systems.shs import decide_advance_time, game_time

    text = " ".join(ctx.args.duration)
    applied = _execute(ctx, lambda g: decide_advance_time(g, duration=text))
    p = applied.events[-1].payload
    head = ctx.tr("Game time +{duration}: {total}.").format(
        duration=game_time(p["seconds"]), total=game_time(p["total"])
    )
    return _clock_done(ctx, applied, head, _expired_lines(ctx, p))


def cmd_modifier_add(ctx: Context) -> int:
    """``tablee shs modifier add``: a temporary Bonus or Malus that expires by itself (S-M3)."""
    from tablee.systems.shs import Duration, decide_add_modifier

    a = ctx.args
    kind, amount = ("bonus", a.bonus) if a.bonus is not None else ("malus", a.malus)
    duration: Duration | str = Duration(tours=a.tours) if a.tours is not None else a.time
    applied = _execute(
        ctx,
        lambda g: decide_add_modifier(
            g,
            protagonist=a.protagoniste,
            kind=kind,
            amount=amount,
            duration=duration,
            label=a.label or "",
        ),
    )
    number = len(_game(applied.state).clock.modifiers)
    p = applied.events[-1].payload
    head = ctx.tr("Modifier #{number}: {modifier}").format(
        number=number, modifier=_modifier_text(ctx, dict(p))
    )
    if ctx.json:
        from tablee.systems.shs import clock_json

        ctx.emit_json(
            {
                **_head(applied),
                "number": number,
                **p,
                "clock": clock_json(_game(applied.state).clock),
            }
        )
        return 0
    ctx.emit(head)
    return 0


def cmd_modifier_end(ctx: Context) -> int:
    """``tablee shs modifier end NUMBER``: the Réalisateur ends a modifier early (S-A15)."""
    from tablee.systems.shs import decide_end_modifier

    applied = _execute(ctx, lambda g: decide_end_modifier(g, number=ctx.args.number))
    p = applied.events[-1].payload
    head = ctx.tr("Modifier #{number} ended: {modifier}").format(
        number=p["number"], modifier=_modifier_text(ctx, dict(p["modifier"]))
    )
    return _clock_done(ctx, applied, head)


def cmd_long_action(ctx: Context) -> int:
    """``tablee shs long-action start``: an Action over several Tours, rolled in its last."""
    from tablee.systems.shs import decide_long_action

    a = ctx.args
    applied = _execute(
        ctx,
        lambda g: decide_long_action(g, protagonist=a.protagoniste, label=a.label, tours=a.tours),
    )
    p = applied.events[-1].payload
    head = ctx.tr("{name} starts {label}: Tours {start} to {last}, rolled in Tour {last}.").format(
        name=p["protagonist"], label=p["label"], start=p["started"], last=p["last_tour"]
    )
    return _clock_done(ctx, applied, head)


def cmd_clock(ctx: Context) -> int:
    """``tablee shs clock``: Scène, Tour, game time, modifiers in force, long Actions."""
    from tablee.systems.shs import clock_json

    name, game = _state_of(ctx)
    clock = clock_json(game.clock)
    if ctx.json:
        ctx.emit_json({"table": name, "clock": clock})
        return 0
    ctx.emit("\n".join(_clock_lines(ctx, clock)))
    return 0


def format_summary(ctx: Context, game: Any) -> list[str]:
    """The SHS lines of ``table show``: the clock, then each Protagoniste."""
    from tablee.systems.shs import clock_json, protagonist_json

    lines = _clock_lines(ctx, clock_json(game.clock))
    for name in game.protagonists:
        lines += _hero_lines(ctx, name, protagonist_json(game, name))
    return lines


# --- the parsers ---------------------------------------------------------------------------


def _dice_options(parser: argparse.ArgumentParser, tr: Tr) -> None:
    source = parser.add_mutually_exclusive_group()
    source.add_argument(
        "--dice",
        metavar="1,5,8",
        help=tr("action dice read on physical dice, in the order the Actions are named"),
    )
    source.add_argument(
        "--seed", type=whole_number(tr), help=tr("roll reproducibly from this seed")
    )
    parser.add_argument(
        "--dpm-dice",
        metavar="+,-,0",
        help=tr(
            "D+/- dice read on physical dice (+, - or 0 for blank); write --dpm-dice=-,+ "
            "when the first is -"
        ),
    )
    parser.add_argument("--odds", action="store_true", help=tr("show the exact odds first"))
    parser.add_argument("--reason", metavar="TEXT", help=tr("a note kept in the log"))


_SPEC_HELP = N_(
    "options after the Caractéristique, separated by ':': expertise=TEXT, bonus=N, malus=N, "
    "surpasser, sacrifier"
)


def add_parser(sub: Any, tr: Tr, only: str | None = None) -> None:
    """Add ``tablee shs ...`` to the top-level subparsers.

    Args:
        sub: the top-level subparsers.
        tr: translation of help texts.
        only: build just this command (one of `COMMANDS`), to start faster; None for all.
    """
    group = sub.add_parser("shs", help=tr("play Space Horror Stories"))
    cmds = group.add_subparsers(dest="command", required=True, metavar="COMMAND")
    builders: dict[str, Callable[[Any, Tr], None]] = {
        "protagoniste": _add_protagoniste,
        "test": _add_test,
        "opposed": _add_opposed,
        "cooperation": _add_cooperation,
        "simultaneous": _add_simultaneous,
        "scene": _add_scene,
        "tour": _add_tour,
        "time": _add_time,
        "modifier": _add_modifier,
        "long-action": _add_long_action,
        "clock": _add_clock,
    }
    for name, build in builders.items():
        if only in (None, name):
            build(cmds, tr)


def _add_protagoniste(cmds: Any, tr: Tr) -> None:
    p = cmds.add_parser("protagoniste", help=tr("create, import, show and edit Protagonistes"))
    sub = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    create = sub.add_parser("create", help=tr("a new Protagoniste, Santé from Carrure (S-N1)"))
    create.add_argument("--name", required=True, help=tr("the Protagoniste's name"))
    create.add_argument("--player", help=tr("the player who plays it (default: the Réalisateur)"))
    for flag in ("carrure", "motricite", "science", "relationnel", "sang-froid"):
        create.add_argument(
            "--" + flag, required=True, metavar="5..8", help=tr("threshold from 5+ to 8+")
        )
    create.add_argument(
        "--expertise", action="append", metavar="TEXT", help=tr("an Expertise (repeatable)")
    )
    create.add_argument("--protection", type=whole_number(tr), default=0, help=tr("Protection"))
    create.add_argument("--air", type=whole_number(tr), default=0, help=tr("Air"))
    add_common(create, tr)
    create.set_defaults(handler=cmd_create)

    imp = sub.add_parser("import", help=tr("Protagonistes from a JSON or TOML file (all or none)"))
    imp.add_argument("file", help=tr("a .json or .toml file: one Protagoniste or a list"))
    add_common(imp, tr)
    imp.set_defaults(handler=cmd_import)

    show = sub.add_parser("show", help=tr("traits and counters"))
    show.add_argument("name", nargs="?", help=tr("one Protagoniste (default: all)"))
    add_common(show, tr)
    show.set_defaults(handler=cmd_show)

    edit = sub.add_parser("edit", help=tr("change Santé, Protection, Air or NT by hand"))
    edit.add_argument("name", help=tr("the Protagoniste"))
    for counter, title in (
        ("sante", "Santé"),
        ("protection", "Protection"),
        ("air", "Air"),
        ("nt", "NT"),
    ):
        edit.add_argument(
            "--" + counter,
            type=_signed(tr),
            metavar="±N",
            help=tr("change {counter} by N").format(counter=title),
        )
        edit.add_argument(
            "--set-" + counter,
            type=whole_number(tr),
            metavar="N",
            help=tr("set {counter} to N").format(counter=title),
        )
    add_common(edit, tr)
    edit.set_defaults(handler=cmd_edit)

    for action, text in (
        ("kill", N_("the Réalisateur's call: the Protagoniste dies")),
        ("revive", N_("take back a death decided by mistake")),
    ):
        life = sub.add_parser(action, help=tr(text))
        life.add_argument("name", help=tr("the Protagoniste"))
        life.add_argument("--reason", metavar="TEXT", help=tr("a note kept in the log"))
        add_common(life, tr)
        life.set_defaults(handler=cmd_life)


def _add_attempt_options(p: argparse.ArgumentParser, tr: Tr) -> None:
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


def _add_test(cmds: Any, tr: Tr) -> None:
    p = cmds.add_parser("test", help=tr("a Test (Caractéristique, Difficulté) (S-M2)"))
    p.add_argument("--protagoniste", required=True, metavar="NAME", help=tr("who acts"))
    p.add_argument("--characteristic", metavar="NAME", help=tr("the Caractéristique used"))
    p.add_argument(
        "--difficulty", metavar="D", help=tr("PS needed, 1 or more (or Difficile, Extrême)")
    )
    p.add_argument(
        "--test", metavar='"Test (Science, 3)"', help=tr("the text's notation, instead of both")
    )
    _add_attempt_options(p, tr)
    p.add_argument(
        "--long-action",
        metavar="LABEL",
        help=tr("roll this Action over several Tours, in its last Tour (S-T6)"),
    )
    _dice_options(p, tr)
    add_common(p, tr)
    p.set_defaults(handler=cmd_test)


def _add_opposed(cmds: Any, tr: Tr) -> None:
    p = cmds.add_parser(
        "opposed",
        help=tr("Protagoniste against Protagoniste: the more PS wins (S-M4)"),
        description=tr(_SPEC_HELP),
    )
    p.add_argument(
        "--first", required=True, metavar="NAME:CARACTERISTIQUE[:option...]", help=tr("one side")
    )
    p.add_argument(
        "--second",
        required=True,
        metavar="NAME:CARACTERISTIQUE[:option...]",
        help=tr("the other side"),
    )
    p.add_argument(
        "--changer",
        choices=("first", "second", "none"),
        default="first",
        help=tr("the side seeking change, which loses a tie (S-A5); default: first"),
    )
    _dice_options(p, tr)
    add_common(p, tr)
    p.set_defaults(handler=cmd_opposed)


def _add_cooperation(cmds: Any, tr: Tr) -> None:
    p = cmds.add_parser(
        "cooperation",
        help=tr("Protagonistes cooperating: Bonus 1 each, one success suffices (S-M6)"),
        description=tr(_SPEC_HELP),
    )
    p.add_argument(
        "--member",
        action="append",
        required=True,
        metavar="NAME:CARACTERISTIQUE[:option...]",
        help=tr("a cooperator (2 or more)"),
    )
    p.add_argument("--difficulty", required=True, metavar="D", help=tr("the shared Difficulty"))
    _dice_options(p, tr)
    add_common(p, tr)
    p.set_defaults(handler=cmd_cooperation)


def _add_simultaneous(cmds: Any, tr: Tr) -> None:
    p = cmds.add_parser(
        "simultaneous",
        help=tr("one Protagoniste's simultaneous Actions, Malus k - 1 on each (S-M7)"),
        description=tr(_SPEC_HELP),
    )
    p.add_argument("--protagoniste", required=True, metavar="NAME", help=tr("who acts"))
    p.add_argument(
        "--action",
        action="append",
        required=True,
        metavar="CARACTERISTIQUE:DIFFICULTY[:option...]",
        help=tr("a rolled Action (repeatable); at most one option in the set"),
    )
    p.add_argument(
        "--trivial",
        type=whole_number(tr),
        default=0,
        metavar="N",
        help=tr("trivial Actions attempted at the same time (they count)"),
    )
    _dice_options(p, tr)
    add_common(p, tr)
    p.set_defaults(handler=cmd_simultaneous)


def _add_scene(cmds: Any, tr: Tr) -> None:
    p = cmds.add_parser("scene", help=tr("begin a Scène (S-M8)"))
    sub = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    start = sub.add_parser("start", help=tr("begin the next Scène"))
    start.add_argument("kind", choices=("rythmee", "lente"), help=tr("scène rythmée or lente"))
    add_common(start, tr)
    start.set_defaults(handler=cmd_scene)


def _add_tour(cmds: Any, tr: Tr) -> None:
    p = cmds.add_parser("tour", help=tr("Tours of a scène rythmée (S-M8)"))
    sub = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    nxt = sub.add_parser("next", help=tr("begin the next Tour; expired modifiers stop"))
    add_common(nxt, tr)
    nxt.set_defaults(handler=cmd_tour)


def _add_time(cmds: Any, tr: Tr) -> None:
    p = cmds.add_parser("time", help=tr("game time (S-M8)"))
    sub = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    adv = sub.add_parser("advance", help=tr("advance game time; modifiers past it stop"))
    adv.add_argument("duration", nargs="+", help=tr("e.g. 30 min, 1 h, 45 s"))
    add_common(adv, tr)
    adv.set_defaults(handler=cmd_time)


def _add_modifier(cmds: Any, tr: Tr) -> None:
    p = cmds.add_parser("modifier", help=tr("temporary Bonus and Malus (S-M3)"))
    sub = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    add = sub.add_parser("add", help=tr("a Bonus or Malus for some Tours or some game time"))
    add.add_argument("--protagoniste", required=True, metavar="NAME", help=tr("who it applies to"))
    kind = add.add_mutually_exclusive_group(required=True)
    kind.add_argument("--bonus", type=whole_number(tr), metavar="K", help=tr("a Bonus of K"))
    kind.add_argument("--malus", type=whole_number(tr), metavar="K", help=tr("a Malus of K"))
    span = add.add_mutually_exclusive_group(required=True)
    span.add_argument("--tours", type=whole_number(tr), metavar="T", help=tr("lasts T Tours"))
    span.add_argument("--time", metavar="DURATION", help=tr("lasts a game time: 30 min, 1 h"))
    add.add_argument("--label", metavar="TEXT", help=tr("why"))
    add_common(add, tr)
    add.set_defaults(handler=cmd_modifier_add)
    end = sub.add_parser("end", help=tr("end a modifier by hand (S-A15)"))
    end.add_argument(
        "number", type=whole_number(tr), help=tr("its number, from 1 (see tablee shs clock)")
    )
    add_common(end, tr)
    end.set_defaults(handler=cmd_modifier_end)


def _add_long_action(cmds: Any, tr: Tr) -> None:
    p = cmds.add_parser("long-action", help=tr("Actions over several Tours (S-M8, S-T6)"))
    sub = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    start = sub.add_parser("start", help=tr("start it in the current Tour"))
    start.add_argument("--protagoniste", required=True, metavar="NAME", help=tr("who acts"))
    start.add_argument("--label", required=True, metavar="TEXT", help=tr("what is attempted"))
    start.add_argument("--tours", type=whole_number(tr), required=True, help=tr("how many Tours"))
    add_common(start, tr)
    start.set_defaults(handler=cmd_long_action)


def _add_clock(cmds: Any, tr: Tr) -> None:
    p = cmds.add_parser("clock", help=tr("Scène, Tour, game time, modifiers in force"))
    add_common(p, tr)
    p.set_defaults(handler=cmd_clock)
