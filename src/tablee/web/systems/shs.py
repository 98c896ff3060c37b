"""Space Horror Stories in the web table: the forms of ``tablee shs ...``, the counters.

Every handler calls the same ``plan_*``/``decide_*`` functions as the command line through
the table service. A player acts only for the Protagonistes they play: their Tests and
simultaneous Actions, the first side of an opposed Action (the other side then takes no
option or Expertise unless it is theirs too), and the Protagonistes they create. The
Réalisateur (game master) does everything, including the clock and cooperation.

Source: issue 6 points 3 and 5; seed 003; rulings S-M2 to S-M9, S-A1 to S-A15.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tablee.dice import FairSource, RandomSource, TypedFaces
from tablee.errors import N_, InputError
from tablee.systems import shs
from tablee.systems.shs.notation import attempt_options
from tablee.table.events import StoredEvent
from tablee.table.projection import TableState
from tablee.table.service import Applied
from tablee.web.access import Viewer
from tablee.web.systems import (
    GM_AND_PLAYERS,
    GM_ONLY,
    Action,
    ActionRequest,
    Field,
    OddsView,
    Panel,
    Translate,
    WebSystem,
    acting_for,
    every,
    owned,
    owner_choices,
    owner_of,
)

__all__ = ["WEB", "ShsWeb"]

_GM = GM_ONLY
_BOTH = GM_AND_PLAYERS
_TRAITS = ("carrure", "motricite", "science", "relationnel", "sang_froid")


# --- choices -------------------------------------------------------------------------------------


_own = owned("protagonists")
"""The Protagonistes the viewer plays (all of them for the Réalisateur)."""
_every = every("protagonists")
_owners = owner_choices(N_("the Réalisateur"))


_CHARACTERISTICS = tuple((c.value, c.title) for c in shs.Characteristic)
_OPTIONS = (("", "-"), ("surpasser", "Se Surpasser"), ("sacrifier", "Se Sacrifier"))


def _side(prefix: str, label: str, choices: Any) -> tuple[Field, ...]:
    return (
        Field(prefix, label, "choice", choices),
        Field(prefix + "_characteristic", N_("Caractéristique"), "choice", _CHARACTERISTICS),
        Field(prefix + "_expertise", N_("Expertise that matches")),
        Field(prefix + "_bonus", N_("Bonus"), "int", default="0"),
        Field(prefix + "_malus", N_("Malus"), "int", default="0"),
        Field(prefix + "_option", N_("Option"), "choice", _OPTIONS),
    )


# --- reading the forms ---------------------------------------------------------------------------


def _attempt(req: ActionRequest, prefix: str, difficulty: int | None) -> shs.Attempt:
    option = req.text(prefix + "_option")
    return shs.Attempt(
        req.text(prefix),
        req.text(prefix + "_characteristic"),
        difficulty,
        req.optional(prefix + "_expertise"),
        req.number(prefix + "_bonus"),
        req.number(prefix + "_malus"),
        option == "surpasser",
        option == "sacrifier",
    )


def _acting_for(req: ActionRequest, name: str) -> None:
    acting_for(req, owner_of(req, shs.protagonist_named, name))


def _difficulty(req: ActionRequest, name: str = "difficulty") -> int:
    return int(shs.difficulty_named(req.text(name)))


def _spec(line: str, shape: str) -> tuple[str, str, dict[str, Any]]:
    """Split ``A:B[:option...]`` into its two leading parts and its options.

    Raises:
        InputError: fewer than two parts, or an unknown option.
    """
    parts = [p.strip() for p in line.split(":")]
    if len(parts) < 2 or not parts[0] or not parts[1]:
        raise InputError(N_("{value!r}: expected {shape}"), value=line, shape=shape)
    extra, bad = attempt_options(parts[2:])
    if bad is not None:
        raise InputError(
            N_(
                "{value!r}: {part!r} is not an option (expertise=TEXT, bonus=N, malus=N, "
                "surpasser, sacrifier)"
            ),
            value=line,
            part=bad,
        )
    return parts[0], parts[1], extra


def _members(req: ActionRequest) -> list[shs.Attempt]:
    difficulty = _difficulty(req)
    found = []
    for line in req.lines("members"):
        name, characteristic, extra = _spec(line, "NAME:CARACTERISTIQUE[:option...]")
        found.append(shs.Attempt(name, characteristic, difficulty, **extra))
    return found


def _set(req: ActionRequest, who: str) -> list[shs.Attempt]:
    found = []
    for line in req.lines("actions"):
        characteristic, difficulty, extra = _spec(line, "CARACTERISTIQUE:DIFFICULTY[:option...]")
        found.append(shs.Attempt(who, characteristic, shs.difficulty_named(difficulty), **extra))
    return found


class _Dice:
    """An Action's faces: typed in (``faces``, ``dpm_faces``, in order) or fair."""

    def __init__(self, req: ActionRequest) -> None:
        typed = req.typed("faces")
        dpm_text = req.text("dpm_faces")
        dpm = [shs.parse_dpm_face(p) for p in dpm_text.replace(" ", ",").split(",") if p]
        self.typed = typed is not None or bool(dpm)
        self.given = [len(typed or []), len(dpm)]
        self.needed = [0, 0]
        fair = FairSource()
        self.action: RandomSource = TypedFaces(typed or []) if self.typed else fair
        self.dpm: RandomSource = TypedFaces(dpm) if self.typed else fair

    def throw(self, roll: Any, options: Any) -> tuple[list[int], list[int]]:
        first, *rest = shs.dice_for_action(roll, options)
        self.needed[0] += first.count
        self.needed[1] += sum(r.count for r in rest)
        action = list(self.action.roll(first.die, first.count))
        return action, [f for r in rest for f in self.dpm.roll(r.die, r.count)]

    def finish(self) -> None:
        if self.typed and self.given != self.needed:
            raise InputError(
                N_(
                    "{given} action and {dpm} D+/- faces were typed in; the roll needs "
                    "{needed} and {needed_dpm}"
                ),
                given=self.given[0],
                dpm=self.given[1],
                needed=self.needed[0],
                needed_dpm=self.needed[1],
            )


# --- handlers ------------------------------------------------------------------------------------


def _test(req: ActionRequest) -> Applied[Any]:
    _acting_for(req, req.text("who"))
    attempt = _attempt(req, "who", _difficulty(req))
    visibility = req.visibility()
    game = req.state.game
    test = shs.plan_test(game, attempt)
    dice = _Dice(req)
    action_faces, dpm_faces = dice.throw(test.action, game.options)
    dice.finish()
    return req.execute(
        lambda s: shs.decide_test(
            s.game,
            attempt,
            action_faces=action_faces,
            dpm_faces=dpm_faces,
            long_action=req.optional("long_action"),
            reason=req.text("reason"),
            visibility=visibility,
        ),
        lambda d: d.facts,
    )


def _test_odds(req: ActionRequest) -> OddsView:
    game = req.state.game
    test = shs.plan_test(game, _attempt(req, "who", _difficulty(req)))
    dist = shs.ps_distribution(test, game.options)
    rows = [(f"{v} PS", dist.probability(v)) for v in sorted(dist.weights, reverse=True)]
    success = shs.success_probability(test, game.options)
    return OddsView(rows, success, N_("Difficulty {difficulty}"), {"difficulty": test.difficulty})


def _opposed(req: ActionRequest) -> Applied[Any]:
    _acting_for(req, req.text("first"))
    first, second = _attempt(req, "first", None), _attempt(req, "second", None)
    takes_something = second.surpass or second.sacrifice or second.expertise
    if takes_something and not req.viewer.is_gm:
        _acting_for(req, second.protagonist)
    changer = req.text("changer", "first")
    changer_or_none = None if changer == "none" else changer
    visibility = req.visibility()
    game = req.state.game
    plan = shs.plan_opposed(game, first, second, changer_or_none)
    dice = _Dice(req)
    one, two = dice.throw(plan.first, game.options), dice.throw(plan.second, game.options)
    dice.finish()
    return req.execute(
        lambda s: shs.decide_opposed(
            s.game,
            first,
            second,
            first_faces=one,
            second_faces=two,
            changer=changer_or_none,
            reason=req.text("reason"),
            visibility=visibility,
        ),
        lambda d: d.facts,
    )


def _opposed_odds(req: ActionRequest) -> OddsView:
    game = req.state.game
    first, second = _attempt(req, "first", None), _attempt(req, "second", None)
    changer = req.text("changer", "first")
    plan = shs.plan_opposed(game, first, second, None if changer == "none" else changer)
    dist = shs.opposed_distribution(plan, game.options)
    names = {"first": first.protagonist, "second": second.protagonist}
    rows = [(names.get(str(k), str(k)), dist.probability(k)) for k in sorted(dist.weights)]
    return OddsView(rows)


def _cooperation(req: ActionRequest) -> Applied[Any]:
    members = _members(req)
    visibility = req.visibility()
    game = req.state.game
    tests = shs.plan_cooperation(game, members)
    dice = _Dice(req)
    faces = [dice.throw(t.action, game.options) for t in tests]
    dice.finish()
    return req.execute(
        lambda s: shs.decide_cooperation(
            s.game, members, faces=faces, reason=req.text("reason"), visibility=visibility
        ),
        lambda d: d.facts,
    )


def _cooperation_odds(req: ActionRequest) -> OddsView:
    members = _members(req)
    tests = shs.plan_cooperation(req.state.game, members)
    plain = shs.Cooperation(tuple(t.with_modifiers(bonus=-1) for t in tests))
    return OddsView((), shs.cooperation_success_probability(plain, req.state.game.options))


def _simultaneous(req: ActionRequest) -> Applied[Any]:
    who = req.text("who")
    _acting_for(req, who)
    actions = _set(req, who)
    trivial = req.number("trivial")
    visibility = req.visibility()
    game = req.state.game
    tests = shs.plan_simultaneous(game, actions, trivial)
    dice = _Dice(req)
    faces = [dice.throw(t.action, game.options) for t in tests]
    dice.finish()
    return req.execute(
        lambda s: shs.decide_simultaneous(
            s.game,
            actions,
            faces=faces,
            trivial=trivial,
            reason=req.text("reason"),
            visibility=visibility,
        ),
        lambda d: d.facts,
    )


def _create(req: ActionRequest) -> Applied[Any]:
    owner = req.optional("owner")
    if not req.viewer.is_gm:
        req.acting_as(owner)
    thresholds = {t: shs.parse_threshold(req.text(t), what=t) for t in _TRAITS}
    return req.execute(
        lambda s: shs.decide_create(
            s.game,
            name=req.text("name"),
            expertises=req.lines("expertises"),
            protection=req.number("protection"),
            air=req.number("air"),
            owner=owner,
            **thresholds,
        ),
        lambda d: d.facts,
    )


def _counter(req: ActionRequest) -> Applied[Any]:
    return req.execute(
        lambda s: shs.decide_counter(
            s.game,
            protagonist=req.text("who"),
            counter=req.text("counter"),
            delta=req.optional_number("delta"),
            value=req.optional_number("value"),
        ),
        lambda d: d.facts,
    )


def _life(req: ActionRequest) -> Applied[Any]:
    decide = shs.decide_revive if req.text("step") == "revive" else shs.decide_kill
    return req.execute(
        lambda s: decide(s.game, protagonist=req.text("who"), reason=req.text("reason")),
        lambda d: d.facts,
    )


def _clock(req: ActionRequest) -> Applied[Any]:
    step = req.text("step")
    if step == "tour":
        return req.execute(shs_next_tour, lambda d: d.facts)
    if step == "time":
        text = req.text("duration")
        return req.execute(
            lambda s: shs.decide_advance_time(s.game, duration=text), lambda d: d.facts
        )
    kind = "lente" if step == "lente" else "rythmee"
    return req.execute(lambda s: shs.decide_scene(s.game, kind=kind), lambda d: d.facts)


def shs_next_tour(state: TableState) -> Any:
    """The next Tour of the table's film (a decide function of the table's state)."""
    return shs.decide_next_tour(state.game)


def _modifier(req: ActionRequest) -> Applied[Any]:
    number = req.optional_number("number")
    if number is not None:
        return req.execute(
            lambda s: shs.decide_end_modifier(s.game, number=number), lambda d: d.facts
        )
    tours = req.optional_number("tours")
    duration: shs.Duration | str = (
        shs.Duration(tours=tours) if tours is not None else req.text("time")
    )
    return req.execute(
        lambda s: shs.decide_add_modifier(
            s.game,
            protagonist=req.text("who"),
            kind=req.text("kind", "bonus"),
            amount=req.number("amount"),
            duration=duration,
            label=req.text("label"),
            seq=s.last_seq + 1,  # the modifier's stable number, shown as #seq in the clock
        ),
        lambda d: d.facts,
    )


def _long_action(req: ActionRequest) -> Applied[Any]:
    return req.execute(
        lambda s: shs.decide_long_action(
            s.game, protagonist=req.text("who"), label=req.text("label"), tours=req.number("tours")
        ),
        lambda d: d.facts,
    )


_ROLL_FIELDS = (Field("reason", N_("A note kept in the log")),)
_FACES_HINT = N_("action dice in order, e.g. 1,5,8; D+/- dice below as +,-,0")

ACTIONS: tuple[Action, ...] = (
    Action(
        "test",
        N_("Test"),
        (
            *_side("who", N_("Protagoniste"), _own),
            Field("difficulty", N_("Difficulty (a number, Difficile or Extrême)"), default="1"),
            Field("long_action", N_("Roll this long Action (its label)"), gm_only=True),
            *_ROLL_FIELDS,
        ),
        _test,
        _BOTH,
        rolled=True,
        odds=_test_odds,
        faces_hint=_FACES_HINT,
    ),
    Action(
        "opposed",
        N_("Opposed Action"),
        (
            *_side("first", N_("First side"), _own),
            *_side("second", N_("Second side"), _every),
            Field(
                "changer",
                N_("Who seeks change (loses a tie)"),
                "choice",
                (("first", N_("first side")), ("second", N_("second side")), ("none", N_("none"))),
                "first",
            ),
            *_ROLL_FIELDS,
        ),
        _opposed,
        _BOTH,
        rolled=True,
        odds=_opposed_odds,
        faces_hint=_FACES_HINT,
    ),
    Action(
        "cooperation",
        N_("Cooperation"),
        (
            Field(
                "members",
                N_("Cooperators, one per line: NAME:CARACTERISTIQUE[:option...]"),
                "lines",
            ),
            Field("difficulty", N_("Shared Difficulty"), default="1"),
            *_ROLL_FIELDS,
        ),
        _cooperation,
        _GM,
        rolled=True,
        odds=_cooperation_odds,
        faces_hint=_FACES_HINT,
    ),
    Action(
        "simultaneous",
        N_("Simultaneous Actions"),
        (
            Field("who", N_("Protagoniste"), "choice", _own),
            Field(
                "actions",
                N_("Actions, one per line: CARACTERISTIQUE:DIFFICULTY[:option...]"),
                "lines",
            ),
            Field("trivial", N_("Trivial Actions at the same time"), "int", default="0"),
            *_ROLL_FIELDS,
        ),
        _simultaneous,
        _BOTH,
        rolled=True,
        faces_hint=_FACES_HINT,
    ),
    Action(
        "protagoniste",
        N_("New Protagoniste"),
        (
            Field("name", N_("Name")),
            Field("owner", N_("Played by"), "choice", _owners),
            *(Field(t, title, default="6+") for t, title in _CHARACTERISTICS),
            Field("expertises", N_("Expertises (one per line)"), "lines"),
            Field("protection", N_("Protection"), "int", default="0"),
            Field("air", N_("Air"), "int", default="0"),
        ),
        _create,
        _BOTH,
    ),
    Action(
        "counter",
        N_("Counters by hand"),
        (
            Field("who", N_("Protagoniste"), "choice", _every),
            Field(
                "counter",
                N_("Counter"),
                "choice",
                (("sante", "Santé"), ("protection", "Protection"), ("air", "Air"), ("nt", "NT")),
            ),
            Field("delta", N_("Change by (+2, -1)"), "int", default="", minimum=None),
            Field("value", N_("Or set to"), "int", default=""),
        ),
        _counter,
    ),
    Action(
        "life",
        N_("Death and revival"),
        (
            Field("who", N_("Protagoniste"), "choice", _every),
            Field(
                "step",
                N_("Decision"),
                "choice",
                (("kill", N_("dies")), ("revive", N_("lives again"))),
            ),
            Field("reason", N_("A note kept in the log")),
        ),
        _life,
    ),
    Action(
        "clock",
        N_("Scène, Tour, game time"),
        (
            Field(
                "step",
                N_("What happens"),
                "choice",
                (
                    ("rythmee", N_("a scène rythmée begins")),
                    ("lente", N_("a scène lente begins")),
                    ("tour", N_("the next Tour")),
                    ("time", N_("game time passes")),
                ),
            ),
            Field("duration", N_("Game time (30 min, 1 h)")),
        ),
        _clock,
    ),
    Action(
        "modifier",
        N_("Temporary Bonus or Malus"),
        (
            Field("who", N_("Protagoniste"), "choice", _every),
            Field("kind", N_("Kind"), "choice", (("bonus", "Bonus"), ("malus", "Malus"))),
            Field("amount", N_("Amount"), "int", default="1"),
            Field("tours", N_("Lasts Tours"), "int", default=""),
            Field("time", N_("Or lasts a game time (30 min)")),
            Field("label", N_("Why")),
            Field("number", N_("Or end modifier # (its number in the clock)"), "int", default=""),
        ),
        _modifier,
    ),
    Action(
        "long_action",
        N_("Long Action"),
        (
            Field("who", N_("Protagoniste"), "choice", _every),
            Field("label", N_("What is attempted")),
            Field("tours", N_("Tours"), "int", default="2"),
        ),
        _long_action,
    ),
)


class ShsWeb:
    """The SHS module of the web table (see `tablee.web.systems.WebSystem`)."""

    id = "shs"
    title = "Space Horror Stories"

    def actions(self) -> Sequence[Action]:
        """The forms: Tests and Actions, Protagonistes, counters, the clock."""
        return ACTIONS

    def resources(self, state: TableState, viewer: Viewer, tr: Translate) -> Sequence[Panel]:
        """The clock, then each Protagoniste's Santé (as boxes), Protection, Air and NT."""
        clock = shs.clock_json(state.game.clock)
        rows = [
            ("Scène", str(clock["scene"])),
            ("Tour", str(clock["tour"])),
            (tr(N_("Game time")), shs.game_time(clock["seconds"])),
        ]
        rows += [(f"#{m['number']}", _modifier_text(m)) for m in clock["modifiers"]]
        panels = [Panel(tr(N_("Clock")), rows)]
        for name in state.game.protagonists:
            hero = shs.protagonist_json(state.game, name)
            panels.append(
                Panel(
                    name,
                    [
                        (tr(N_("Played by")), hero["owner"] or "Réalisateur"),
                        ("Santé", f"{hero['sante']}/{hero['sante_max']}"),
                        ("Protection", str(hero["protection"])),
                        ("Air", str(hero["air"])),
                        ("NT", str(hero["nt"])),
                    ],
                    boxes=(int(hero["sante"]), int(hero["sante_max"])),
                    muted=not hero["alive"],
                )
            )
        return panels

    def details(self, event: StoredEvent, state: TableState, tr: Translate) -> Sequence[str]:
        """The trace of each rolled Action, resolved again from its stored faces.

        The options in force are those right after the event; a trace is shown only when
        resolving again gives the stored PS (else the log line alone says what happened).
        """
        after = state.after.get(event.seq)
        options = state.game.options if after is None else after.options
        p = event.payload
        if event.kind == "shs.test":
            docs: list[tuple[Any, Any]] = [(None, p)]
        elif event.kind == "shs.opposed":
            docs = [(p[k]["protagonist"], p[k]) for k in ("first", "second")]
        elif event.kind == "shs.cooperation":  # each cooperator rolls with a Bonus 1 (S-M6)
            docs = [(m["protagonist"], {**m, "bonus": int(m["bonus"]) + 1}) for m in p["members"]]
        elif event.kind == "shs.simultaneous":  # Malus k - 1 on each Action of the set (S-M7)
            extra = int(p.get("set_malus", 0))
            docs = [
                (_title_of(a["characteristic"]), {**a, "malus": int(a["malus"]) + extra})
                for a in p["actions"]
            ]
        else:
            return ()
        lines: list[str] = []
        for head, doc in docs:
            steps = _trace(doc, options, tr)
            if head is not None and steps:
                lines.append(str(head))
            lines += steps
        return lines


def _title_of(characteristic: object) -> str:
    try:
        return str(shs.characteristic_named(str(characteristic)).title)
    except InputError:
        return str(characteristic)


def _trace(doc: Any, options: Any, tr: Translate) -> list[str]:
    """The steps of one stored Action resolved again, or nothing when they disagree."""
    try:
        roll = shs.ActionRoll(
            int(doc["threshold"]),
            doc["die"] == "d10",
            int(doc["bonus"]) + int(doc.get("temporary_bonus", 0)),
            int(doc["malus"]) + int(doc.get("temporary_malus", 0)),
            doc["option"] == "se_surpasser",
            doc["option"] == "se_sacrifier",
        )
        result = shs.resolve_action(roll, doc["action_faces"], doc["dpm_faces"], options)
    except (KeyError, TypeError, ValueError):
        return []
    if result.ps != doc.get("ps"):
        return []
    return [step.render(tr) for step in result.trace]


def _modifier_text(m: dict[str, Any]) -> str:
    kind = "Bonus" if m["kind"] == "bonus" else "Malus"
    return f"{m['protagonist']}: {kind} {m['amount']}" + (f" ({m['label']})" if m["label"] else "")


WEB: WebSystem = ShsWeb()
"""The module's `WebSystem` object."""
