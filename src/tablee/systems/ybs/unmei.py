"""The Unmei token ledger: every token is with a player or with the GM.

The GM holds a bag of ``supply`` tokens (a table option). Every movement is a transfer
between two holders (`TokenMove`), so the sum of the players' tokens and the GM's is always
the supply. Movements (Y-M4):

* session start: each player's leftover tokens go back, then the GM gives 2 to each;
* session end: every player's tokens go back to the GM (no carry-over, Y-A7);
* the GM invokes an attribute against a character: 1 to its player (Y-M2);
* assistance: 1 from each assistant's player to the actor's (Y-A6);
* forcing destiny (1..3), s'entêter (1), a critical success (1): to the GM;
* a critical failure: 1 from the GM to the actor's player;
* Shichi Fukujin: 7 at once to the GM;
* an imported sheet's tokens: from the GM to its player (Y-X7);
* a GM character's critical success, with the house rule ``gm_criticals``: 1 from the GM's
  bag back into it, so the bag must hold one (Y-X6).

Source: seed 004, "Les jetons Unmei"; rulings Y-M2, Y-M4, Y-N2, Y-A6, Y-A7, Y-X6, Y-X7.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from tablee.errors import N_, InputError, Message, RuleError
from tablee.systems.base import JSON

__all__ = [
    "GM",
    "SESSION_TOKENS",
    "SHICHI_FUKUJIN",
    "Ledger",
    "TokenMove",
    "end_session_moves",
    "holder_text",
    "moves_json",
    "reason_text",
    "start_session_moves",
]

GM = "gm"
"""The holder name of the game master."""
SESSION_TOKENS = 2
"""Tokens each player receives at the start of a session (Y-M4, Y-N2)."""
SHICHI_FUKUJIN = 7
"""Tokens spent at once to call the seven gods of luck (Y-M4, Y-N2)."""

_REASONS: dict[str, str] = {
    "session_start": N_("session start"),
    "session_end": N_("session end"),
    "invoke": N_("attribute invoked"),
    "assist": N_("assistance"),
    "force": N_("forcing destiny"),
    "stubborn": N_("s'entêter"),
    "critical": N_("critical success"),
    "critical_failure": N_("critical failure"),
    "shichi_fukujin": N_("Shichi Fukujin"),
    "import": N_("imported sheet"),
}
"""The words of each movement's reason id (the ids stay in JSON)."""


def reason_text(reason: object) -> Message:
    """A movement's reason in words (``force`` -> "forcing destiny"); an unknown id as is.

    Source: Y-M4.
    """
    words = _REASONS.get(str(reason))
    return Message(words) if words is not None else Message("{reason}", reason=reason)


def holder_text(holder: object) -> Message:
    """A token holder in words: "the GM" for `GM`, else the player's name.

    Source: Y-M4.
    """
    return Message(N_("GM")) if holder == GM else Message("{name}", name=holder)


@dataclass(frozen=True)
class TokenMove:
    """One transfer of tokens.

    Attributes:
        giver: a player's name or ``gm``.
        receiver: a player's name or ``gm``.
        count: tokens moved, 1 or more.
        reason: a stable id: ``session_start``, ``session_end``, ``invoke``, ``assist``,
            ``force``, ``stubborn``, ``critical``, ``critical_failure``, ``shichi_fukujin``,
            ``import``.
    """

    giver: str
    receiver: str
    count: int
    reason: str

    def to_json(self) -> dict[str, JSON]:
        """``{"from", "to", "count", "reason"}``."""
        return {"from": self.giver, "to": self.receiver, "count": self.count, "reason": self.reason}

    @classmethod
    def from_json(cls, data: JSON) -> TokenMove:
        """A move from `to_json`'s object.

        Raises:
            InputError: not an object, a missing key or a value of the wrong type.
        """
        if not isinstance(data, Mapping):
            raise InputError(N_("a token move must be an object, not {value!r}"), value=data)
        try:
            giver, receiver, count, reason = data["from"], data["to"], data["count"], data["reason"]
        except KeyError as missing:
            raise InputError(
                N_("a token move has no {field}"), field=str(missing.args[0])
            ) from None
        if not (isinstance(giver, str) and isinstance(receiver, str) and isinstance(reason, str)):
            raise InputError(N_("a token move names its holders and reason as text"))
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise InputError(N_("a token move of {value!r} tokens"), value=count)
        return cls(giver, receiver, count, reason)


def moves_json(moves: Iterable[TokenMove]) -> list[JSON]:
    """The moves as JSON objects, in order."""
    return [m.to_json() for m in moves]


@dataclass(frozen=True)
class Ledger:
    """Who holds how many tokens.

    Attributes:
        supply: every token at the table (the option ``token_supply``).
        players: each player's tokens (0 or more), every player listed.
        gm: the GM's tokens; ``gm + sum(players) == supply`` always.
    """

    supply: int
    players: Mapping[str, int] = field(default_factory=dict)
    gm: int = 0

    @classmethod
    def new(cls, supply: int, players: Sequence[str]) -> Ledger:
        """Every token in the GM's bag."""
        return cls(supply, {p: 0 for p in players}, supply)

    def held(self, holder: str) -> int:
        """Tokens held by a player or the GM."""
        return self.gm if holder == GM else self.players[holder]

    def apply(self, moves: Iterable[TokenMove]) -> Ledger:
        """The ledger after the moves, in order.

        Raises:
            RuleError: a giver without enough tokens at its turn, naming who and how many.

        Source: Y-M4.
        """
        players, gm = dict(self.players), self.gm
        for move in moves:
            have = gm if move.giver == GM else players[move.giver]
            if have < move.count:
                raise _short(move, have)
            if move.giver == GM:
                gm -= move.count
            else:
                players[move.giver] -= move.count
            if move.receiver == GM:
                gm += move.count
            else:
                players[move.receiver] += move.count
        return Ledger(self.supply, players, gm)

    def with_supply(self, supply: int) -> Ledger:
        """The ledger with another supply: the GM's bag grows or shrinks.

        Raises:
            RuleError: the players hold more tokens than the new supply leaves room for.
        """
        gm = self.gm + supply - self.supply
        if gm < 0:
            raise RuleError(
                N_("the players hold {held} tokens: the supply cannot drop to {supply} (Y-M4)"),
                held=sum(self.players.values()),
                supply=supply,
            )
        return Ledger(supply, self.players, gm)


def _short(move: TokenMove, have: int) -> RuleError:
    if move.giver == GM:
        return RuleError(
            N_("the GM's bag holds {have} token(s), {count} needed (Y-M4)"),
            tip=N_("raise the option token_supply"),
            have=have,
            count=move.count,
        )
    if move.reason == "shichi_fukujin":
        return RuleError(
            N_("{player} holds {have} token(s): Shichi Fukujin needs 7 (rule Y-M4)"),
            player=move.giver,
            have=have,
        )
    return RuleError(
        N_("{player} holds {have} token(s) and cannot give {count} ({reason}, rule Y-M4)"),
        player=move.giver,
        have=have,
        count=move.count,
        reason=reason_text(move.reason),
    )


def end_session_moves(ledger: Ledger) -> tuple[TokenMove, ...]:
    """Every player's tokens back to the GM (Y-M4, Y-A7)."""
    return tuple(TokenMove(p, GM, n, "session_end") for p, n in ledger.players.items() if n > 0)


def start_session_moves(ledger: Ledger) -> tuple[TokenMove, ...]:
    """Leftover tokens back to the GM, then 2 from the GM to each player (Y-M4)."""
    back = tuple(TokenMove(p, GM, n, "session_start") for p, n in ledger.players.items() if n)
    return back + tuple(TokenMove(GM, p, SESSION_TOKENS, "session_start") for p in ledger.players)
