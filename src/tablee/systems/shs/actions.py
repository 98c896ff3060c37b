"""The SHS Action: action dice, D+/- dice, options, and the PS total.

An Action throws three action dice (D8, or D10 when an Expertise matches perfectly); each die
at or above the Caractéristique's threshold is one Point de Succès (PS). Bonuses and maluses
are summed, then netted; the net value N asks for |N| D+/- dice, whose "+" faces add 1 PS
when N is a Bonus and whose "−" faces remove 1 PS when N is a Malus. Se Surpasser and Se
Sacrifier each add a Bonus 2 (S-A7); Se Sacrifier adds 2 PS and kills the Protagoniste; Se
Surpasser gives NT +1 after the Action. The Test (an Action against a Difficulty) is in
`tablee.systems.shs.difficulty`.

Two kinds of dice are thrown, so `dice_for_action` returns several requests: the action
dice, then the D+/- dice (one request per group read the same way: two with the option
``option_bonus = apart``, else one), and `resolve_action` takes the action faces and the
D+/- faces. `tablee.systems.shs.rolling` drives such requests with a random source or
enumerates every roll.

Source: seed 003, "Résoudre les Actions", "Bonus et Malus", "Options"; rulings S-M2, S-M3,
S-M5, S-A1, S-A2, S-A3, S-A7, S-A8, S-A13.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from functools import partial
from typing import TypeVar

from tablee.dice import D8, D10, DPM, DiceRequest, Die, LazyTrace, Trace, TraceStep
from tablee.errors import N_, InputError, RuleError
from tablee.systems.common import whole
from tablee.systems.shs.options import ShsOptions
from tablee.systems.shs.traits import MAX_THRESHOLD, MIN_THRESHOLD, check_threshold

__all__ = [
    "DEFAULT_OPTIONS",
    "MAX_MODIFIER",
    "ActionResult",
    "ActionRoll",
    "DpmGroup",
    "Option",
    "Price",
    "dice_for_action",
    "die_title",
    "dpm_symbol",
    "parse_dpm_face",
    "price_of",
    "resolve_action",
]

MAX_MODIFIER = 50
"""Largest sum of bonuses, or of maluses, on one Action (Tablée's limit on typed input)."""
DEFAULT_OPTIONS = ShsOptions()
"""The rulings' readings (every option at its default)."""


class Option(Enum):
    """The option used on an Action (S-M5); the value is a stable id.

    Source: seed 003, "Options"; S-M5.
    """

    NONE = "none"
    SE_SURPASSER = "se_surpasser"
    SE_SACRIFIER = "se_sacrifier"

    @property
    def title(self) -> str:
        """The game's French name (``Se Surpasser``, ``Se Sacrifier``; empty for none)."""
        return {"none": "", "se_surpasser": "Se Surpasser", "se_sacrifier": "Se Sacrifier"}[
            self.value
        ]


@dataclass(frozen=True)
class DpmGroup:
    """D+/- dice rolled together and read the same way.

    Attributes:
        count: how many D+/- dice, 0 or more.
        sign: ``+1`` (a Bonus: each "+" adds 1 PS) or ``-1`` (a Malus: each "−" removes 1).

    Source: seed 003, "Bonus et Malus" ("Effet"); S-M3, S-A7.
    """

    count: int
    sign: int


T = TypeVar("T")
_MEMO_SIZE = 4096
"""Most entries a memo of `_memo` keeps before it starts again from nothing."""
_GROUPS: dict[tuple[object, ...], tuple[ShsOptions, tuple[DpmGroup, ...]]] = {}
"""`ActionRoll.dpm_groups` by (surpass, sacrifice, bonus, malus, id(options))."""
_REQUESTS: dict[tuple[object, ...], tuple[ShsOptions, tuple[DiceRequest, ...]]] = {}
"""`dice_for_action` by (expertise, surpass, sacrifice, bonus, malus, id(options))."""


def _memo(
    memo: dict[tuple[object, ...], tuple[ShsOptions, T]],
    key: tuple[object, ...],
    options: ShsOptions,
    value: T,
) -> T:
    """Keep ``value`` under ``key`` (the entry holds ``options``, so its id stays its own)."""
    if len(memo) >= _MEMO_SIZE:
        memo.clear()
    memo[key] = (options, value)
    return value


@dataclass(frozen=True)
class ActionRoll:
    """What one Protagoniste throws for an Action (S-M2 steps 1 to 4, no Difficulty).

    Attributes:
        threshold: the Caractéristique's threshold, 5 to 8.
        expertise: an Expertise matches perfectly, so the action dice are D10 (S-A2).
        bonus: sum of the bonuses, 0 to `MAX_MODIFIER` (an option's Bonus 2 not included).
        malus: sum of the maluses, 0 to `MAX_MODIFIER`.
        surpass: Se Surpasser is used.
        sacrifice: Se Sacrifier is used.

    Raises:
        InputError: a threshold outside 5..8, a bad count, a non-boolean flag.
        RuleError: both options on one Action (S-M5).

    Source: seed 003, "Résoudre les Actions"; S-M2, S-M3, S-M5, S-A1, S-A2.
    """

    threshold: int
    expertise: bool = False
    bonus: int = 0
    malus: int = 0
    surpass: bool = False
    sacrifice: bool = False

    def __post_init__(self) -> None:
        if (
            type(self.threshold) is int
            and MIN_THRESHOLD <= self.threshold <= MAX_THRESHOLD
            and type(self.bonus) is int
            and 0 <= self.bonus <= MAX_MODIFIER
            and type(self.malus) is int
            and 0 <= self.malus <= MAX_MODIFIER
            and type(self.expertise) is bool
            and type(self.surpass) is bool
            and type(self.sacrifice) is bool
            and not (self.surpass and self.sacrifice)
        ):
            return  # every field as it should be: the checks below would pass
        check_threshold(self.threshold)
        whole(self.bonus, "bonus", 0, MAX_MODIFIER, rule="S-M3")
        whole(self.malus, "malus", 0, MAX_MODIFIER, rule="S-M3")
        for name in ("expertise", "surpass", "sacrifice"):
            if not isinstance(getattr(self, name), bool):
                raise InputError(
                    N_("{name} must be true or false, not {value!r}"),
                    name=name,
                    value=getattr(self, name),
                )
        if self.surpass and self.sacrifice:
            raise RuleError(
                N_(
                    "Se Surpasser and Se Sacrifier cannot both be used on one Action "
                    "(rule S-M5: one or the other)"
                ),
                tip=N_("choose one of the two options"),
            )

    @property
    def option(self) -> Option:
        """The option used, if any."""
        if self.sacrifice:
            return Option.SE_SACRIFIER
        return Option.SE_SURPASSER if self.surpass else Option.NONE

    @property
    def die(self) -> Die:
        """The action die: D10 with a matching Expertise, else D8 (S-A1, S-A2)."""
        return D10 if self.expertise else D8

    def net_modifier(self, options: ShsOptions = DEFAULT_OPTIONS) -> int:
        """Signed net modifier N: bonus - malus, plus 2 for an option when netted (S-A7)."""
        netted = self.option is not Option.NONE and options.option_bonus == "net"
        return self.bonus - self.malus + (2 if netted else 0)

    def dpm_groups(self, options: ShsOptions = DEFAULT_OPTIONS) -> tuple[DpmGroup, ...]:
        """The D+/- dice to roll, in face order: the option's own 2 dice (``apart``), then N's.

        The cap of S-A13 (``dpm_cap``) limits the dice for the net modifier only. The
        groups are worked out once per option, bonus, malus and house rules (`_memo`).
        """
        key = (self.surpass, self.sacrifice, self.bonus, self.malus, id(options))
        hit = _GROUPS.get(key)
        if hit is not None and hit[0] is options:
            return hit[1]
        groups = []
        if self.option is not Option.NONE and options.option_bonus == "apart":
            groups.append(DpmGroup(2, 1))
        net = self.net_modifier(options)
        count = abs(net) if options.dpm_cap is None else min(abs(net), options.dpm_cap)
        if count:
            groups.append(DpmGroup(count, 1 if net > 0 else -1))
        return _memo(_GROUPS, key, options, tuple(groups))

    def with_modifiers(self, *, bonus: int = 0, malus: int = 0) -> ActionRoll:
        """The same roll with extra bonus and malus (cooperation, simultaneous actions)."""
        if not bonus and not malus:
            return self
        return ActionRoll(
            self.threshold,
            self.expertise,
            self.bonus + bonus,
            self.malus + malus,
            self.surpass,
            self.sacrifice,
        )


@dataclass(frozen=True)
class ActionResult:
    """Outcome of one Action's dice.

    Attributes:
        die: the action die's name (``d8`` or ``d10``).
        action_faces: the action dice as thrown.
        dpm_faces: the D+/- dice as thrown (``+1``, ``-1`` or ``0``), option dice first.
        dice_ps: action dice at or above the threshold, 0 to the number of dice.
        dpm_ps: PS added (positive) or removed (negative) by the D+/- dice.
        sacrifice_ps: 2 with Se Sacrifier, else 0.
        signed_ps: dice_ps + dpm_ps + sacrifice_ps, possibly negative (S-A3).
        ps: the total that counts: ``signed_ps``, or at least 0 with ``negative_ps = zero``.
        option: the option used.
        nt_gain: NT gained once the Action is over: 1 with Se Surpasser, else 0 (S-M5).
        dies: the Protagoniste dies (Se Sacrifier, whatever the outcome; S-A8).
        trace: the steps (built when first read: `tablee.dice.LazyTrace`).

    Source: seed 003, "Points de Succès", "Options"; S-M2, S-A3, S-A8.
    """

    die: str
    action_faces: tuple[int, ...]
    dpm_faces: tuple[int, ...]
    dice_ps: int
    dpm_ps: int
    sacrifice_ps: int
    signed_ps: int
    ps: int
    option: Option
    nt_gain: int
    dies: bool
    trace: LazyTrace = LazyTrace()  # noqa: RUF009 - a descriptor: reads give the Trace


def dice_for_action(
    inputs: ActionRoll, options: ShsOptions = DEFAULT_OPTIONS
) -> tuple[DiceRequest, ...]:
    """The dice to throw: the action dice, then the D+/- dice.

    Returns:
        The action dice request, then one D+/- request per `DpmGroup` in order (faces within
        a group may come in any order, not across groups), or one request of 0 D+/- when
        the net modifier is 0. With the default options there are always exactly two.

    Source: seed 003; S-M2 steps 1 and 3, S-A1, S-A2, S-A7, S-A13.
    """
    key = (inputs.expertise, inputs.surpass, inputs.sacrifice, inputs.bonus, inputs.malus)
    hit = _REQUESTS.get((*key, id(options)))
    if hit is not None and hit[0] is options:
        return hit[1]
    groups = inputs.dpm_groups(options)
    dpm = tuple(DiceRequest(DPM, g.count) for g in groups) or (DiceRequest(DPM, 0),)
    requests = (DiceRequest(inputs.die, options.action_dice), *dpm)
    return _memo(_REQUESTS, (*key, id(options)), options, requests)


_DPM_SYMBOLS = {1: "+", -1: "-", 0: "0"}


def dpm_symbol(face: int) -> str:
    """A D+/- face as shown: ``+``, ``-`` or ``0`` (blank).

    Raises:
        InputError: not a face of a D+/- die.

    Source: seed 003, "Mini-glossaire"; S-N3.
    """
    if type(face) is int and face in _DPM_SYMBOLS:
        return _DPM_SYMBOLS[face]
    return _DPM_SYMBOLS[_faces_of(DPM, [face], 1)[0]]


def parse_dpm_face(text: object) -> int:
    """A D+/- face read on the die: ``+`` gives 1, ``-`` or ``−`` gives -1, blank gives 0.

    Args:
        text: ``"+"``, ``"-"``, ``"−"``, ``""``, ``"0"``, ``"blank"``, or an int -1, 0, 1.

    Raises:
        InputError: anything else.

    Source: seed 003, "Mini-glossaire" (two "+", two "−", two blank faces); S-N3.
    """
    if isinstance(text, int) and not isinstance(text, bool):
        return _faces_of(DPM, [text], 1)[0]
    symbols = {"+": 1, "-": -1, "−": -1, "–": -1, "": 0, "0": 0, "blank": 0}
    if isinstance(text, str) and text.strip().lower() in symbols:
        return symbols[text.strip().lower()]
    raise InputError(
        N_("{face!r} is not a face of a +/- die: '+', '-' or blank (rule S-N3)"), face=text
    )


def die_title(die: Die) -> str:
    """A die as the game names it: ``D8``, ``D10``, ``D+/-``.

    Source: seed 003, "Mini-glossaire"; S-N3.
    """
    return "D+/-" if die is DPM else die.name.upper()


_COUNT = {
    True: N_(
        "faces of +/- dice given: {given}; the roll needs {count} (one die per point of net "
        "Bonus or Malus, rules S-M3, S-A7)"
    ),
    False: N_(
        "{die} faces given: {given}; the roll needs {count} (the action dice, rules S-M2, S-A1)"
    ),
}


def _faces_of(die: Die, faces: Sequence[int], expected: int) -> tuple[int, ...]:
    if len(faces) != expected:
        raise InputError(_COUNT[die is DPM], count=expected, die=die_title(die), given=len(faces))
    values = die.values
    if all(type(face) is int and face in values for face in faces):
        return faces if type(faces) is tuple else tuple(faces)
    for face in faces:
        if isinstance(face, bool) or not isinstance(face, int) or face not in die.values:
            raise InputError(
                N_("{face!r} is not a face of a +/- die: 1 ('+'), -1 ('-') or 0 (blank) (S-N3)")
                if die is DPM
                else N_("{face!r} is not a face of a {die}: 1 to {sides} (rule S-M2)"),
                face=face,
                die=die_title(die),
                sides=die.sides,
            )
    return tuple(faces)


def _show(faces: Sequence[int], die: Die) -> str:
    if not faces:
        return "-"
    if die is DPM:
        return ", ".join([_DPM_SYMBOLS[f] for f in faces])  # faces checked by `_faces_of`
    return ", ".join(map(str, faces))


def _netting_step(inputs: ActionRoll, options: ShsOptions) -> TraceStep | None:
    """The step netting the bonuses against the maluses, when both are there (S-M3, S-T2).

    The option's Bonus 2 counts among the bonuses when it is netted (``option_bonus = net``,
    S-A7). Nothing is shown when only one kind is there: the D+/- step says it.
    """
    netted = inputs.option is not Option.NONE and options.option_bonus == "net"
    bonus = inputs.bonus + (2 if netted else 0)
    if not bonus or not inputs.malus:
        return None
    net = bonus - inputs.malus
    values = {"bonus": bonus, "malus": inputs.malus, "net": abs(net)}
    if net > 0:
        return TraceStep(N_("Bonus {bonus} − Malus {malus}: a net Bonus of {net}"), values)
    if net < 0:
        return TraceStep(N_("Bonus {bonus} − Malus {malus}: a net Malus of {net}"), values)
    return TraceStep(N_("Bonus {bonus} − Malus {malus}: they cancel out, no D+/-"), values)


@dataclass(frozen=True, slots=True)
class Price:
    """What an Action costs its Protagoniste once it is over, whatever its dice show.

    Attributes:
        nt_gain: NT gained: 1 with Se Surpasser, else 0 (S-M5).
        dies: the Protagoniste dies: Se Sacrifier, success or not (S-A8).

    Source: seed 003, "Options"; S-M5, S-A8.
    """

    nt_gain: int
    dies: bool


_PRICES = {(s, d): Price(1 if s else 0, d) for s in (False, True) for d in (False, True)}


def price_of(inputs: ActionRoll) -> Price:
    """The price of an Action with these inputs: its option's NT or death (see `Price`).

    Source: seed 003, "Options"; S-M5, S-A8.
    """
    return _PRICES[inputs.surpass, inputs.sacrifice]


def resolve_action(
    inputs: ActionRoll,
    action_faces: Sequence[int],
    dpm_faces: Sequence[int],
    options: ShsOptions = DEFAULT_OPTIONS,
) -> ActionResult:
    """Count the PS of one Action's dice.

    Args:
        inputs: threshold, Expertise, bonus, malus and option.
        action_faces: ``options.action_dice`` values, 1..8 (D8) or 1..10 (D10), any order.
        dpm_faces: the D+/- faces (-1, 0, 1) in the order of `ActionRoll.dpm_groups`.

    Returns:
        The result with its trace.

    Raises:
        InputError: the wrong number of faces of either kind, or a face the die cannot show.

    Source: seed 003; S-M2 steps 1 to 4, S-M3, S-M5, S-A3, S-A7, S-A8.
    """
    die, groups = inputs.die, inputs.dpm_groups(options)
    thrown = _faces_of(die, action_faces, options.action_dice)
    dpm = _faces_of(DPM, dpm_faces, sum(g.count for g in groups))
    dice_ps = sum(1 for f in thrown if f >= inputs.threshold)
    dpm_ps, start = 0, 0
    for group in groups:
        part = dpm[start : start + group.count]
        start += group.count
        dpm_ps += group.sign * sum(1 for f in part if f == group.sign)
    sacrifice_ps = 2 if inputs.sacrifice else 0
    signed = dice_ps + dpm_ps + sacrifice_ps
    price = price_of(inputs)
    ps = max(signed, 0) if options.negative_ps == "zero" else signed
    return ActionResult(
        die=die.name,
        action_faces=thrown,
        dpm_faces=dpm,
        dice_ps=dice_ps,
        dpm_ps=dpm_ps,
        sacrifice_ps=sacrifice_ps,
        signed_ps=signed,
        ps=ps,
        option=inputs.option,
        nt_gain=price.nt_gain,
        dies=price.dies,
        trace=partial(_action_steps, inputs, thrown, dpm, options, signed, ps),
    )


def _action_steps(
    inputs: ActionRoll,
    thrown: tuple[int, ...],
    dpm: tuple[int, ...],
    options: ShsOptions,
    signed: int,
    ps: int,
) -> Trace:
    """The steps of `resolve_action`, from its checked faces and totals."""
    die, groups = inputs.die, inputs.dpm_groups(options)
    dice_ps = sum(1 for f in thrown if f >= inputs.threshold)
    steps = [
        TraceStep(
            N_("{count} {die} against {threshold}+: {faces}, {ps} PS"),
            {
                "count": len(thrown),
                "die": die.name,
                "threshold": inputs.threshold,
                "faces": _show(thrown, die),
                "ps": dice_ps,
            },
        )
    ]
    if inputs.option is not Option.NONE:
        steps.append(TraceStep(N_("{option}: a Bonus of 2 D+/-"), {"option": inputs.option.title}))
    netting = _netting_step(inputs, options)
    if netting is not None:
        steps.append(netting)
    start = 0
    for group in groups:
        part = dpm[start : start + group.count]
        start += group.count
        points = group.sign * sum(1 for f in part if f == group.sign)
        steps.append(
            TraceStep(
                N_("{count} D+/- counting each '{symbol}': {faces} give {points} PS"),
                {
                    "count": group.count,
                    "symbol": dpm_symbol(group.sign),
                    "faces": _show(part, DPM),
                    "points": f"{points:+d}",
                },
            )
        )
    if inputs.sacrifice:
        steps.append(TraceStep(N_("Se Sacrifier adds 2 PS")))
    steps.append(TraceStep(N_("total: {ps} PS"), {"ps": signed}))
    if ps != signed:
        steps.append(TraceStep(N_("a total below 0 counts as 0 PS (house rule)")))
    return tuple(steps)
