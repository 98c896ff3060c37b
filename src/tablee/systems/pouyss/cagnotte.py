"""The cagnotte: the shared pool of bonus dice, as pure accounting.

Bonus dice are drawn before the roll, malus dice are put in after it (so a roll's maluses
never pay for its own bonuses), role-play rewards add 1 or 2 dice, penalties remove 1 or 2,
the narrator's correction sets the count it should hold. The count never goes below 0.

Source: seed 000, "Cagnotte", "Remplir la cagnotte", "Obligations", "Qualité
d'interprétation"; rulings P-M5, P-M6, P-M7, P-A2, P-A3, P-A8, P-A9; Tablée's P-X1, P-X3.
"""

from __future__ import annotations

from dataclasses import dataclass

from tablee.errors import N_, InputError, RuleError
from tablee.systems.base import JSON
from tablee.systems.pouyss.actions import OpposedRoll
from tablee.systems.pouyss.options import PouyssOptions

__all__ = ["CagnotteMove", "correct", "draw_and_refill", "opposed_cost", "penalise", "reward"]


@dataclass(frozen=True, init=False)
class CagnotteMove:
    """One change of the cagnotte.

    Attributes:
        before: dice in the cagnotte before (0 or more).
        drawn: dice taken out (bonus dice, penalties).
        deposited: dice put in (malus dice, rewards, returned bonus dice).
        after: ``before - drawn + deposited``, never negative.
    """

    before: int
    drawn: int
    deposited: int

    def __init__(self, before: int, drawn: int, deposited: int) -> None:
        # written straight into the instance, as `tablee.systems.pouyss.actions.ActionResult`
        # does: one move per roll in a simulation
        fields = self.__dict__
        fields["before"], fields["drawn"], fields["deposited"] = before, drawn, deposited

    @property
    def after(self) -> int:
        """Dice in the cagnotte afterwards."""
        return self.before - self.drawn + self.deposited

    @classmethod
    def from_json(cls, data: JSON) -> CagnotteMove:
        """A move as stored (``{before, drawn, deposited, after}``).

        Raises:
            InputError: a missing or non-whole count, or an ``after`` that is not
                ``before - drawn + deposited``.
        """
        if not isinstance(data, dict):
            raise InputError(N_("a cagnotte record must be an object, not {value!r}"), value=data)
        counts = []
        for key in ("before", "drawn", "deposited", "after"):
            value = data.get(key)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise InputError(
                    N_("the cagnotte record's {field} is {value!r}, not a count"),
                    field=key,
                    value=value,
                )
            counts.append(value)
        move = cls(counts[0], counts[1], counts[2])
        if move.after != counts[3]:
            raise InputError(
                N_("the cagnotte record says {after} after, not {expected} (rule P-M1)"),
                after=counts[3],
                expected=move.after,
            )
        return move

    def to_json(self) -> dict[str, JSON]:
        """As stored in an event: ``{before, drawn, deposited, after}``."""
        return {
            "before": self.before,
            "drawn": self.drawn,
            "deposited": self.deposited,
            "after": self.after,
        }


def draw_and_refill(
    cagnotte: int, drawn: int, deposited: int, options: PouyssOptions, *, imposed_bonus: int = 0
) -> CagnotteMove:
    """Account for one roll: draw its bonus dice first, then put its malus dice in.

    Args:
        cagnotte: dice in the pool now, 0 or more.
        drawn: bonus dice the roll takes from the pool, 0 or more.
        deposited: malus dice the roll puts back, 0 or more.
        options: ``bonus_dice_return`` (P-A2) puts the drawn dice back too.
        imposed_bonus: how many of the drawn dice the narrator imposed (for the message).

    Returns:
        The move.

    Raises:
        RuleError: the pool holds fewer dice than the bonus needs (P-M5, P-M6, P-A3).

    Source: P-M1 steps 2 and 5, P-M5, P-M6, P-A2, P-A3.
    """
    if drawn > cagnotte:
        if imposed_bonus and cagnotte == 0:
            raise RuleError(
                N_("the narrator cannot impose a bonus: the cagnotte is empty (rule P-M6)"),
                tip=N_("impose a malus, or reward good role-play to refill it"),
            )
        raise RuleError(
            N_(
                "the bonus takes {drawn} from the cagnotte, which holds only {cagnotte} (rule P-M5)"
            ),
            tip=N_("ask for no more bonus than the cagnotte holds; malus dice refill it"),
            drawn=drawn,
            cagnotte=cagnotte,
        )
    returned = drawn if options.bonus_dice_return else 0
    return CagnotteMove(cagnotte, drawn, deposited + returned)


def opposed_cost(inputs: OpposedRoll, options: PouyssOptions) -> tuple[int, int]:
    """Dice drawn and deposited by an opposed roll.

    Args:
        inputs: the four counts.
        options: ``opposed_accounting`` — ``roll`` (default, P-A9): the roll's bonus dice are
            drawn (Ba + Mp) and its malus dice deposited (Ma + Bp); ``sides``: each side pays
            its own bonuses (Ba + Bp drawn) and returns its own maluses (Ma + Mp).

    Returns:
        ``(drawn, deposited)``.

    Source: P-M8, P-A9.
    """
    if options.opposed_accounting == "sides":
        return (
            inputs.active_bonus + inputs.passive_bonus,
            inputs.active_malus + inputs.passive_malus,
        )
    action = inputs.as_action()
    return action.bonus, action.malus


def _check_amount(amount: int, rule: str) -> None:
    if isinstance(amount, bool) or not isinstance(amount, int) or amount not in (1, 2):
        raise InputError(
            N_("{amount!r} dice: a reward or penalty is 1 or 2 dice (rule {rule})"),
            amount=amount,
            rule=rule,
        )


def reward(cagnotte: int, amount: int) -> CagnotteMove:
    """The narrator adds 1 die (very good role-play) or 2 (exceptional) to the pool.

    Raises:
        InputError: ``amount`` is not 1 or 2.

    Source: P-M7.
    """
    _check_amount(amount, "P-M7")
    return CagnotteMove(cagnotte, 0, amount)


def penalise(
    cagnotte: int, amount: int, options: PouyssOptions, *, refuse_empty: bool = True
) -> CagnotteMove:
    """The narrator removes 1 or 2 dice; the pool never goes below 0.

    Args:
        cagnotte: dice in the pool now.
        amount: 1 or 2.
        options: ``penalty_floor`` ``clamp`` (default, P-A8) removes what is there;
            ``refuse`` refuses a penalty larger than the pool.
        refuse_empty: refuse a penalty on an empty pool, which would remove nothing
            (P-X3, rules version 2); False keeps rules version 1, which recorded it.

    Raises:
        InputError: ``amount`` is not 1 or 2.
        RuleError: the pool is empty (``refuse_empty``); ``refuse`` and the pool holds
            fewer than ``amount`` dice.

    Source: P-M7, P-A8, P-X3.
    """
    _check_amount(amount, "P-M7")
    if amount > cagnotte and options.penalty_floor == "refuse":
        raise RuleError(
            N_(
                "a penalty of {amount} dice is more than the cagnotte's {cagnotte} "
                "(option penalty_floor=refuse, rule P-A8)"
            ),
            amount=amount,
            cagnotte=cagnotte,
        )
    if cagnotte == 0 and refuse_empty:
        raise RuleError(
            N_("the cagnotte is empty: a penalty has no die to remove (rule P-X3)"),
            tip=N_("talk with the player instead; the text advises it over removing dice"),
        )
    return CagnotteMove(cagnotte, min(amount, cagnotte), 0)


def correct(cagnotte: int, value: int, reason: str) -> CagnotteMove:
    """The narrator sets the pool to the count it should hold (a miscount, a paper tally).

    Args:
        cagnotte: dice in the pool now.
        value: the count it should hold, 0 to 10,000.
        reason: why, not blank.

    Returns:
        The move: the difference drawn or deposited.

    Raises:
        InputError: a blank reason; a value out of 0 to 10,000.
        RuleError: the pool already holds ``value``.

    Source: P-M5 (the count is kept up to date for everyone), P-X1.
    """
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 10_000:
        raise InputError(
            N_("a cagnotte of {value!r}: it must be 0 to {maximum}"), value=value, maximum=10_000
        )
    if not reason.strip():
        raise InputError(
            N_("a correction of the cagnotte needs a reason (rule P-X1)"),
            tip=N_("say why, for example the dice counted on the table"),
        )
    if value == cagnotte:
        raise RuleError(
            N_("the cagnotte already holds {value}: there is nothing to correct (rule P-X1)"),
            value=value,
        )
    return CagnotteMove(cagnotte, max(cagnotte - value, 0), max(value - cagnotte, 0))
