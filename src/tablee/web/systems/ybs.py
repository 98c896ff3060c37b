"""Yuigahama Bad Seeds in the web table: the forms of ``tablee ybs ...``, tokens and boxes.

Every handler calls the same ``decide_*`` function as the command line through the table
service; the odds are `tablee.systems.ybs.odds_of_test` (a test), the advisor's
`tablee.systems.ybs.advisor.advise` (each keep choice of a gang-fight throw),
`tablee.systems.ybs.gang_odds.gang_fight_odds` and `encounter_odds`, as ``tablee odds ybs``.

Who may do what (decisions W-Y1 to W-Y9 of docs/web.md): a player acts only for the
characters they play and spends only their own tokens (creating them, testing with them,
their test's s'entêter and critical success, Shichi Fukujin, a retreat, a trait transfer,
the players' side of a gang-fight throw their character fights in); the GM does everything
else and may act for any character, as at the command line.

Source: issue 6 points 3 and 5; seed 004; rulings Y-M1 to Y-M9, Y-A2 to Y-A22.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from tablee.dice import D6
from tablee.errors import N_, InputError, RuleError
from tablee.systems import ybs
from tablee.systems.ybs.advisor import advise, advised_keeps
from tablee.systems.ybs.gang import Keeps, dice_for_throw
from tablee.systems.ybs.gang_odds import encounter_odds, gang_fight_odds
from tablee.systems.ybs.ichika import decide_encounter
from tablee.table.events import StoredEvent
from tablee.table.projection import TableState
from tablee.table.service import Applied
from tablee.web.access import Viewer, can_see
from tablee.web.systems import (
    GM_AND_PLAYERS,
    GM_ONLY,
    Action,
    ActionRequest,
    Field,
    Forbidden,
    OddsView,
    Panel,
    Translate,
    WebSystem,
    acting_for,
    every,
    every_or_none,
    facts_of,
    owned,
    owner_choices,
    owner_of,
    players,
    seen_by,
    viewer_translate,
)

__all__ = ["WEB", "YbsWeb"]

_GM = GM_ONLY
_BOTH = GM_AND_PLAYERS
_TRAITS = tuple((t.value, t.title) for t in ybs.Trait)
SHEETS_MAX = 20_000
"""Longest pasted JSON or TOML text of the import form, in characters."""


# --- choices -------------------------------------------------------------------------------------


_own = owned("characters")
"""The characters the viewer plays (every character for the GM)."""
_every = every("characters")
_every_or_none = every_or_none("characters")
_owners = owner_choices(N_("the GM (a GM character)"))


_SECOND = (("", "-"), *_TRAITS)
_COMBINE = (("", "-"), ("average", N_("average, rounded down")), ("limit", N_("the lower")))
_PURPOSES = (
    ("plain", N_("an ordinary test")),
    ("gate", N_("the Nintai gate of a fight")),
    ("attack", N_("an attack")),
    ("defend", N_("a defence")),
)
_DAMAGE = (("uchimi", "Uchimi"), ("kega", "Kega"))
_POLICY = (
    ("", N_("as the house rules say")),
    ("any", N_("after every failure while tokens last")),
    ("once", N_("once")),
    ("never", N_("never")),
)
_SIDES = (("", "-"), ("players", N_("the players")), ("gm", N_("the GM's side")))


# --- helpers -------------------------------------------------------------------------------------


def _game(req: ActionRequest) -> Any:
    return req.state.game


def _acting_for(req: ActionRequest, name: str) -> None:
    """A player may act only for a character they play (W-Y1)."""
    acting_for(req, owner_of(req, ybs.character_named, name))


def _last_test(state: TableState) -> StoredEvent | None:
    """The stored ``ybs.test`` of the test in progress, or None."""
    if state.game.test is None:
        return None
    return next((e for e in reversed(state.events) if e.kind == "ybs.test"), None)


def _faces_list(text: str, what: str) -> list[int] | None:
    """Faces typed as ``1,5,6`` (None when empty)."""
    parts = [p for p in text.replace(" ", ",").replace(";", ",").split(",") if p]
    if not parts:
        return None
    faces = []
    for part in parts:
        if not (part.isascii() and part.isdigit()):
            raise InputError(N_("{field}: {value!r} is not a die face"), field=what, value=part)
        faces.append(int(part))
    return faces


def _keep(text: str, advised: tuple[int, ...]) -> tuple[int, ...]:
    """``advised`` (or empty: the advisor's pick), ``none`` (reroll all), or faces ``2,3``."""
    word = text.strip().lower()
    if word in ("", "advised"):
        return advised
    if word == "none":
        return ()
    return tuple(_faces_list(text, "keep") or [])


# --- characters ----------------------------------------------------------------------------------


def _create(req: ActionRequest) -> Applied[Any]:
    owner = req.optional("owner")
    if not req.viewer.is_gm:
        req.acting_as(owner)  # W-Y2: a player creates only characters they play
    traits = {t: req.number(t) for t, _ in _TRAITS}
    return req.execute(
        lambda s: ybs.decide_create(
            s.game,
            name=req.text("name"),
            traits=traits,
            attributes=req.lines("attributes"),
            owner=owner,
        ),
        facts_of,
    )


def _import(req: ActionRequest) -> Applied[Any]:
    toml = req.text("format", "json") == "toml"
    sheets = ybs.parse_sheets(req.text("sheets"), toml=toml, where=N_("the pasted text"))

    def decide(state: TableState) -> Any:
        facts: list[Any] = []
        warnings: list[Any] = []
        game = state.game
        for sheet in sheets:
            decision = ybs.decide_create(game, **sheet)
            facts += decision.facts
            warnings += decision.warnings
            game = decision.after
        if not facts:
            raise InputError(N_("no character in the pasted text"))
        return ybs.Decision(tuple(facts), None, tuple(warnings), game)

    return req.execute(decide, facts_of)


# --- sessions and tokens -------------------------------------------------------------------------


def _session(req: ActionRequest) -> Applied[Any]:
    if req.text("step", "start") == "end":
        return req.execute(lambda s: ybs.decide_end_session(s.game), facts_of)
    return req.execute(lambda s: ybs.decide_start_session(s.game), facts_of)


def _invoke(req: ActionRequest) -> Applied[Any]:
    return req.execute(
        lambda s: ybs.decide_invoke(
            s.game,
            character=req.text("character"),
            attribute=req.text("attribute"),
            note=req.text("note"),
        ),
        facts_of,
    )


def _shichi(req: ActionRequest) -> Applied[Any]:
    player = req.text("player") or (req.viewer.player or "")
    req.acting_as(player)  # W-Y3: a player spends only their own 7 tokens
    return req.execute(
        lambda s: ybs.decide_shichi_fukujin(s.game, player=player, proposal=req.text("proposal")),
        facts_of,
    )


# --- tests ---------------------------------------------------------------------------------------


def _test(req: ActionRequest) -> Applied[Any]:
    character = req.text("character")
    _acting_for(req, character)
    assistants = req.lines("assistants")
    if assistants and not req.viewer.is_gm:
        # W-Y4: an assistant's player gives a token; the GM records it once they agree
        raise Forbidden(
            N_("only the game master records an assistance (it spends another's token)")
        )
    visibility = req.visibility()
    faces = req.throw(D6, 1, req.typed())
    return req.execute(
        lambda s: ybs.decide_test(
            s.game,
            character=character,
            trait=req.text("trait"),
            faces=faces,
            second_trait=req.optional("second_trait"),
            combine=req.optional("combine"),
            assistants=assistants,
            force=req.number("force"),
            purpose=req.text("purpose", "plain"),
            target=req.optional("target"),
            damage=req.text("damage", "uchimi"),
            target_armed=req.flag("armed"),
            against=req.optional("against"),
            note=req.text("note"),
        ),
        seen_by(visibility),
    )


def _test_odds(req: ActionRequest) -> OddsView:
    game = _game(req)
    name = ybs.character_named(game, req.text("character"))
    hero = game.characters[name]
    value = hero.trait(ybs.trait_named(req.text("trait")))
    second, combine = req.optional("second_trait"), req.optional("combine")
    if second is not None or combine is not None:
        if second is None or combine is None:
            raise InputError(
                N_("two traits need a way to combine them: average or limit (rule Y-A2)")
            )
        value = ybs.combined_trait(value, hero.trait(ybs.trait_named(second)), combine)
    force = req.number("force")
    held = ybs.plan_tokens(game, name)
    tokens = 0 if held is None else max(held + len(req.lines("assistants")) - force, 0)
    default = "any" if game.options.stubborn == "repeat" else "once"
    policy = req.text("policy") or default
    odds = ybs.odds_of_test(
        value, force=force, tokens=tokens, policy=policy, stubborn_on=game.options.stubborn_on
    )
    tr = viewer_translate(req)
    rows = [
        (tr(N_("success")), odds.success),
        (tr(N_("critical success")), odds.critical),
        (tr(N_("final natural 1")), odds.natural_one),
    ]
    note = N_(
        "trait {trait:+d}, forced {force}, {tokens} tokens left, s'entêter: {policy}; "
        "expected rerolls {rerolls}"
    )
    rerolls = odds.expected_rerolls
    values = {
        "trait": value,
        "force": force,
        "tokens": tokens,
        "policy": policy,
        "rerolls": f"{rerolls.numerator}/{rerolls.denominator}",
    }
    return OddsView(rows, odds.success, note, values)


def _open_test(req: ActionRequest) -> tuple[str, str]:
    """The open test's character and visibility; a player must play that character (W-Y5)."""
    opened = _game(req).test
    if opened is None:
        return "", "all"  # the rules refuse, naming the reason
    _acting_for(req, str(opened.payload["character"]))
    event = _last_test(req.state)
    if event is not None and not can_see(req.viewer, event):
        raise Forbidden(N_("this test is hidden from you: the game master takes its follow-ups"))
    return str(opened.payload["character"]), "all" if event is None else event.visibility


def _stubborn(req: ActionRequest) -> Applied[Any]:
    _name, visibility = _open_test(req)
    faces = req.throw(D6, 1, req.typed())
    return req.execute(lambda s: ybs.decide_reroll(s.game, faces=faces), seen_by(visibility))


def _critical(req: ActionRequest) -> Applied[Any]:
    _name, visibility = _open_test(req)
    return req.execute(lambda s: ybs.decide_critical(s.game), seen_by(visibility))


def _critical_failure(req: ActionRequest) -> Applied[Any]:
    event = _last_test(req.state)
    visibility = "all" if event is None else event.visibility
    return req.execute(lambda s: ybs.decide_critical_failure(s.game), seen_by(visibility))


# --- damage, fights, evolution -------------------------------------------------------------------


def _damage(req: ActionRequest) -> Applied[Any]:
    return req.execute(
        lambda s: ybs.decide_damage(
            s.game,
            character=req.text("character"),
            uchimi=req.number("uchimi"),
            kega=req.number("kega"),
            note=req.text("note"),
        ),
        facts_of,
    )


def _rest(req: ActionRequest) -> Applied[Any]:
    return req.execute(
        lambda s: ybs.decide_rest(
            s.game, character=req.text("character"), minutes=req.number("minutes")
        ),
        facts_of,
    )


def _heal(req: ActionRequest) -> Applied[Any]:
    return req.execute(
        lambda s: ybs.decide_heal_kega(
            s.game,
            character=req.text("character"),
            count=req.number("count", 1),
            note=req.text("note"),
        ),
        facts_of,
    )


def _fight(req: ActionRequest) -> Applied[Any]:
    step = req.text("step", "resolve")
    if step == "retreat":
        character = req.text("character")
        _acting_for(req, character)  # W-Y6: a player may retreat their own character
        return req.execute(lambda s: ybs.decide_retreat(s.game, character=character), facts_of)
    req.require_gm()
    decide = ybs.decide_round if step == "resolve" else ybs.decide_fight_end
    return req.execute(lambda s: decide(s.game), facts_of)


def _evolve(req: ActionRequest) -> Applied[Any]:
    step = req.text("step", "star")
    character = req.text("character")
    if step != "transfer":
        req.require_gm()  # W-Y7: stars, traumas and attributes are the GM's call
    _acting_for(req, character)
    if step == "star":
        return req.execute(
            lambda s: ybs.decide_star(s.game, character=character, trait=req.text("trait")),
            facts_of,
        )
    if step == "transfer":
        return req.execute(
            lambda s: ybs.decide_transfer(
                s.game, character=character, lower=req.text("lowered"), raise_=req.text("raised")
            ),
            facts_of,
        )
    if step == "trauma":
        return req.execute(
            lambda s: ybs.decide_trauma(
                s.game, character=character, trait=req.text("trait"), note=req.text("note")
            ),
            facts_of,
        )
    return req.execute(
        lambda s: ybs.decide_attributes(
            s.game, character=character, add=req.lines("add"), remove=req.lines("remove")
        ),
        facts_of,
    )


# --- gang fights, Ichika Bachika -----------------------------------------------------------------


def _gang_start(req: ActionRequest) -> Applied[Any]:
    return req.execute(
        lambda s: ybs.decide_gang_start(
            s.game,
            fighters=req.lines("fighters"),
            opponents=req.lines("opponents"),
            outnumbered=req.optional("outnumbered"),
            outgunned=req.optional("outgunned"),
            winner_uchimi=req.optional_number("winner_uchimi"),
            loser_uchimi=req.optional_number("loser_uchimi"),
            draw_uchimi=req.optional_number("draw_uchimi"),
        ),
        facts_of,
    )


def _gang_now(req: ActionRequest) -> Any:
    gang = _game(req).gang
    if gang is None:
        raise RuleError(
            N_("no gang fight is going on (rule Y-M7)"),
            tip=N_("start one with 'tablee ybs gang start --fighter NAME'"),
        )
    return gang


def _typed_side(req: ActionRequest, name: str, count: int) -> list[int]:
    typed = _faces_list(req.text(name), name)
    try:
        return req.throw(D6, count, typed)
    except InputError as exc:
        raise InputError(N_("{field}: {error}"), field=name, error=exc) from None


def _gang_throw(req: ActionRequest) -> Applied[Any]:
    gang = _gang_now(req)
    if not req.viewer.is_gm and not any(
        req.viewer.is_player(_game(req).owners.get(n)) for n in gang.fighters
    ):
        raise Forbidden(N_("a player throws only for a gang fight their character fights in"))
    visibility = req.visibility()
    advised = advised_keeps(gang.fight)
    keeps = Keeps(_keep(req.text("keep"), advised.players), _keep(req.text("gm_keep"), advised.gm))
    ours, theirs = dice_for_throw(gang.fight, keeps)
    faces = _typed_side(req, "faces", ours.count)
    gm_faces = _typed_side(req, "gm_faces", theirs.count)
    return req.execute(
        lambda s: ybs.decide_gang_throw(
            s.game, keep=keeps.players, gm_keep=keeps.gm, faces=faces, gm_faces=gm_faces
        ),
        seen_by(visibility),
    )


def _throw_hidden(state: TableState, viewer: Viewer) -> bool:
    """Whether the gang fight's last throw is hidden from the viewer (so are the hands)."""
    gang = state.game.gang
    if gang is None or gang.fight.throws == 0:
        return False
    event = next(
        (
            e
            for e in reversed(state.events)
            if e.kind == "ybs.gang_throw" and e.seq not in state.voided
        ),
        None,
    )
    return event is not None and not can_see(viewer, event)


def _gang_odds(req: ActionRequest) -> OddsView:
    gang = _gang_now(req)
    fight = gang.fight
    tr = viewer_translate(req)
    if _throw_hidden(req.state, req.viewer):
        raise Forbidden(N_("the last throw is hidden from you, and so are its dice and their odds"))
    if fight.throws == 0:
        odds = gang_fight_odds(
            fight.players_dice,
            fight.gm_dice,
            higher_straight_wins=_game(req).options.higher_straight_wins,
        )
        return _win_draw_loss(tr, odds, fight.players_dice, fight.gm_dice)
    rows: list[tuple[str, Fraction]] = []
    sides = ((tr(N_("the players")), fight.players_hand), (tr(N_("the GM's side")), fight.gm_hand))
    template = tr(N_("{side}: keep {kept}, reroll {reroll} ({throws} throws expected)"))
    for side, hand in sides:
        for choice in advise(hand).choices:
            label = template.format(
                side=side,
                kept=" ".join(str(f) for f in choice.kept) or "-",
                reroll=choice.rerolled,
                throws=f"{float(choice.expected_throws):.2f}",
            )
            rows.append((label, choice.straight_probability))
    hands = {
        "hand": " ".join(str(f) for f in fight.players_hand),
        "gm_hand": " ".join(str(f) for f in fight.gm_hand),
    }
    note = N_(
        "chance of a straight on the next throw for each keep choice, best first "
        "(players {hand}, GM {gm_hand})"
    )
    return OddsView(rows, None, note, hands)


def _win_draw_loss(tr: Translate, odds: Any, dice: int, against: int) -> OddsView:
    rows = [(tr(N_("win")), odds.win), (tr(N_("draw")), odds.draw), (tr(N_("loss")), odds.loss)]
    expected = odds.expected_throws
    note = N_("the players' {dice} dice against {against}, both sides advised; {throws} throws")
    values = {
        "dice": dice,
        "against": against,
        "throws": f"{expected.numerator}/{expected.denominator}",
    }
    return OddsView(rows, odds.win, note, values)


def _choices(req: ActionRequest) -> dict[str, str]:
    found: dict[str, str] = {}
    for line in req.lines("choices"):
        player, sep, choice = line.partition("=")
        if not sep or not player.strip():
            raise InputError(N_("{value!r}: expected PLAYER=CHOICE"), value=line)
        found[player.strip()] = choice.strip().lower().replace("-", "_").replace(" ", "_")
    return found


def _ichika(req: ActionRequest) -> Applied[Any]:
    choices = _choices(req)
    visibility = req.visibility()
    game = _game(req)
    kind = decide_encounter({ybs.player_named(game, p): c for p, c in choices.items()}).kind
    striking = kind == "ichika_bachika"
    faces = _typed_side(req, "faces", 5) if striking else []
    gm_faces = _typed_side(req, "gm_faces", 5) if striking else []
    return req.execute(
        lambda s: ybs.decide_encounter_at_table(
            s.game,
            choices=choices,
            opponents=req.lines("opponents"),
            faces=faces,
            gm_faces=gm_faces,
            outnumbered=req.optional("outnumbered"),
            outgunned=req.optional("outgunned"),
        ),
        seen_by(visibility),
    )


def _ichika_odds(req: ActionRequest) -> OddsView:
    game = _game(req)
    choices = {ybs.player_named(game, p): c for p, c in _choices(req).items()}
    options = game.options
    found = encounter_odds(
        choices,
        outnumbered=ybs.side_named(req.optional("outnumbered")),
        outgunned=ybs.side_named(req.optional("outgunned")),
        mixed_disadvantages=options.mixed_disadvantages,
        higher_straight_wins=options.higher_straight_wins,
        tie=options.ichika_tie,
    )
    if found.odds is None:
        tr = viewer_translate(req)
        return OddsView([(tr(N_("everyone flees: no dice are thrown")), Fraction(1))])
    tr = viewer_translate(req)
    odds = found.odds
    rows = [(tr(N_("win")), odds.win), (tr(N_("draw")), odds.draw), (tr(N_("loss")), odds.loss)]
    kinds = {"ichika_bachika": "Ichika Bachika", "gang_fight": tr(N_("a gang fight"))}
    note = N_("{kind}: the players' chances, {fighters} fighting")
    values = {"kind": kinds.get(found.kind, found.kind), "fighters": ", ".join(found.fighters)}
    return OddsView(rows, odds.win, note, values)


def _gang_stop(req: ActionRequest) -> Applied[Any]:
    return req.execute(lambda s: ybs.decide_gang_stop(s.game, note=req.text("note")), facts_of)


# --- the forms -----------------------------------------------------------------------------------

_CHARACTER = Field("character", N_("Character"), "choice", _every)
_NOTE = Field("note", N_("A note kept in the log"))
_TEST_FACES = N_("one d6 face, e.g. 5")
_GM_FACES_HINT = N_("The GM's side's new faces (empty: the server rolls)")

ACTIONS: tuple[Action, ...] = (
    Action(
        "test",
        N_("Test"),
        (
            Field("character", N_("Character"), "choice", _own),
            Field("trait", N_("Trait the GM names"), "choice", _TRAITS),
            Field("second_trait", N_("A second trait that also applies (Y-A2)"), "choice", _SECOND),
            Field("combine", N_("How the two traits combine"), "choice", _COMBINE),
            Field(
                "force",
                N_("Tokens spent to force destiny (+1 each)"),
                "int",
                default="0",
                maximum=3,
            ),
            Field(
                "assistants",
                N_("Assistants, one per line: each one's player gives 1 token (Y-A6)"),
                "lines",
                gm_only=True,
            ),
            Field("purpose", N_("What the test is for"), "choice", _PURPOSES, "plain"),
            Field("target", N_("An attack's target"), "choice", _every_or_none),
            Field("damage", N_("An attack's damage"), "choice", _DAMAGE, "uchimi"),
            Field("armed", N_("The target bears a lethal or impressive weapon (Y-A9)"), "bool"),
            Field("against", N_("The opponent a defence is against"), "choice", _every_or_none),
            Field("policy", N_("Odds: when the player s'entête"), "choice", _POLICY),
            _NOTE,
        ),
        _test,
        _BOTH,
        rolled=True,
        odds=_test_odds,
        faces_hint=_TEST_FACES,
    ),
    Action(
        "stubborn",
        N_("S'entêter: 1 token to reroll the last test"),
        (),
        _stubborn,
        _BOTH,
        rolled=True,
        faces_hint=_TEST_FACES,
    ),
    Action("critical", N_("Critical success: 1 token for the last test's 6"), (), _critical, _BOTH),
    Action(
        "critical_failure",
        N_("Critical failure: the last test's 1, 1 token to the player"),
        (),
        _critical_failure,
    ),
    Action(
        "session",
        N_("Session"),
        (
            Field(
                "step", N_("Start or end"), "choice", (("start", N_("start")), ("end", N_("end")))
            ),
        ),
        _session,
    ),
    Action(
        "invoke",
        N_("Invoke an attribute: 1 token to its player (Y-M2)"),
        (_CHARACTER, Field("attribute", N_("Attribute")), _NOTE),
        _invoke,
    ),
    Action(
        "shichi",
        N_("Shichi Fukujin: 7 tokens to rewrite the scene"),
        (
            Field("player", N_("Player"), "choice", players),
            Field("proposal", N_("What the GM approved")),
        ),
        _shichi,
        _BOTH,
    ),
    Action(
        "character",
        N_("New character"),
        (
            Field("name", N_("Name")),
            Field("owner", N_("Played by"), "choice", _owners),
            *(
                Field(t, title, "int", default="0", minimum=ybs.MIN_TRAIT, maximum=ybs.MAX_TRAIT)
                for t, title in _TRAITS
            ),
            Field("attributes", N_("Attributes (one per line)"), "lines"),
        ),
        _create,
        _BOTH,
    ),
    Action(
        "import",
        N_("Import characters (JSON or TOML)"),
        (
            Field("format", N_("Format"), "choice", (("json", "JSON"), ("toml", "TOML")), "json"),
            Field("sheets", N_("The sheets, pasted"), "lines", max_length=SHEETS_MAX),
        ),
        _import,
    ),
    Action(
        "damage",
        N_("Damage: Uchimi and Kega"),
        (
            _CHARACTER,
            Field("uchimi", "Uchimi", "int", default="0"),
            Field("kega", "Kega", "int", default="0"),
            Field("note", N_("The wound's nature or care")),
        ),
        _damage,
    ),
    Action(
        "rest",
        N_("Rest"),
        (_CHARACTER, Field("minutes", N_("Minutes of rest"), "int", default="30")),
        _rest,
    ),
    Action(
        "heal",
        N_("Kega healed by care"),
        (_CHARACTER, Field("count", N_("Kega healed"), "int", default="1"), _NOTE),
        _heal,
    ),
    Action(
        "fight",
        N_("Individual fight"),
        (
            Field(
                "step",
                N_("What happens"),
                "choice",
                (
                    ("resolve", N_("resolve the round's attacks")),
                    ("retreat", N_("a character retreats")),
                    ("end", N_("the fight ends")),
                ),
                "resolve",
            ),
            Field("character", N_("Who retreats"), "choice", _own),
        ),
        _fight,
        _BOTH,
    ),
    Action(
        "evolve",
        N_("Evolution: star, transfer, trauma, attributes"),
        (
            Field("character", N_("Character"), "choice", _own),
            Field(
                "step",
                N_("What changes"),
                "choice",
                (
                    ("star", N_("a star for a trait")),
                    ("transfer", N_("lower one trait by 1 to raise another")),
                    ("trauma", N_("a trauma: a trait becomes -1")),
                    ("attributes", N_("attributes gained or lost")),
                ),
                "star",
            ),
            Field("trait", N_("Trait (star, trauma)"), "choice", _TRAITS),
            Field("lowered", N_("Trait lowered (transfer)"), "choice", _TRAITS),
            Field("raised", N_("Trait raised (transfer)"), "choice", _TRAITS),
            Field("add", N_("Attributes gained (one per line)"), "lines"),
            Field("remove", N_("Attributes lost (one per line)"), "lines"),
            _NOTE,
        ),
        _evolve,
        _BOTH,
    ),
    Action(
        "gang_start",
        N_("Gang fight: start"),
        (
            Field("fighters", N_("The players' fighters (one per line)"), "lines"),
            Field("opponents", N_("The GM's named characters (one per line)"), "lines"),
            Field("outnumbered", N_("Outnumbered side"), "choice", _SIDES),
            Field("outgunned", N_("Outgunned side"), "choice", _SIDES),
            Field("winner_uchimi", N_("Uchimi per winner (default 1)"), "int", default=""),
            Field("loser_uchimi", N_("Uchimi per loser (default 3)"), "int", default=""),
            Field("draw_uchimi", N_("Uchimi each on a draw (default 2)"), "int", default=""),
        ),
        _gang_start,
    ),
    Action(
        "gang_throw",
        N_("Gang fight: a throw, with the advisor"),
        (
            Field(
                "keep",
                N_("Faces the players keep (advised, none, or faces)"),
                default="advised",
            ),
            Field(
                "gm_keep",
                N_("Faces the GM's side keeps (advised, none, or faces)"),
                default="advised",
                gm_only=True,
            ),
            Field("gm_faces", _GM_FACES_HINT, gm_only=True),
        ),
        _gang_throw,
        _BOTH,
        rolled=True,
        odds=_gang_odds,
        faces_hint=N_("the players' new faces, e.g. 1,3,4,6"),
    ),
    Action("gang_stop", N_("Gang fight: stop, no damage"), (_NOTE,), _gang_stop),
    Action(
        "ichika",
        N_("Unexpected encounter: flee, gang fight or Ichika Bachika"),
        (
            Field(
                "choices",
                N_(
                    "Each player's secret choice, one per line: "
                    "PLAYER=flee|gang_fight|ichika_bachika"
                ),
                "lines",
            ),
            Field("opponents", N_("The GM's named characters (one per line)"), "lines"),
            Field("outnumbered", N_("Outnumbered side"), "choice", _SIDES),
            Field("outgunned", N_("Outgunned side"), "choice", _SIDES),
            Field("gm_faces", _GM_FACES_HINT),
        ),
        _ichika,
        rolled=True,
        odds=_ichika_odds,
        faces_hint=N_("Ichika Bachika: the players' 5 faces"),
    ),
)


# --- resources -----------------------------------------------------------------------------------


def _marks(doc: dict[str, Any]) -> tuple[str, ...]:
    """A character's boxes: ``/`` per Uchimi, ``X`` per Kega, then empty ones."""
    uchimi, kega, total = int(doc["uchimi"]), int(doc["kega"]), int(doc["hit_points"])
    return ("/",) * uchimi + ("X",) * kega + ("",) * max(total - uchimi - kega, 0)


def _traits_text(doc: dict[str, Any]) -> str:
    return ", ".join(
        f"{title} {int(doc['traits'][t]):+d}" + "★" * int(doc["stars"][t]) for t, title in _TRAITS
    )


class YbsWeb:
    """The YBS module of the web table (see `tablee.web.systems.WebSystem`)."""

    id = "ybs"
    title = "Yuigahama Bad Seeds"

    def actions(self) -> Sequence[Action]:
        """The forms: tests and follow-ups, tokens, characters, damage, fights, evolution."""
        return ACTIONS

    def resources(self, state: TableState, viewer: Viewer, tr: Translate) -> Sequence[Panel]:
        """The session and every holder's Unmei tokens, the fights, then each character."""
        game = state.game
        status = tr(N_("in progress") if game.in_session else N_("not in progress"))
        rows = [
            (tr(N_("Session")), str(game.session)),
            (tr(N_("Status")), status),
            (tr(N_("Unmei tokens of the GM")), str(game.ledger.gm)),
        ]
        rows += [(p, str(n)) for p, n in game.ledger.players.items()]
        panels = [Panel(tr(N_("Table")), rows)]
        gang = ybs.gang_json(game)
        if gang is not None:
            hidden = _throw_hidden(state, viewer)
            panels.append(Panel(tr(N_("Gang fight")), _gang_rows(gang, tr, hidden)))
        fight = game.fight
        if fight.gates or fight.attacks or fight.defences or fight.retreated or fight.round > 1:
            fight_rows = [(tr(N_("Round")), str(fight.round))]
            fight_rows += [(a, "→ " + str(d["target"])) for a, d in fight.attacks.items()]
            fight_rows += [(d, "⛨ " + str(v["against"])) for d, v in fight.defences.items()]
            if fight.retreated:
                fight_rows.append((tr(N_("Retreated")), ", ".join(sorted(fight.retreated))))
            panels.append(Panel(tr(N_("Individual fight")), fight_rows))
        for name in game.characters:
            doc = ybs.character_json(game, name)
            hero_rows = [
                (tr(N_("Played by")), doc["owner"] or tr(N_("the GM"))),
                (tr(N_("Traits")), _traits_text(doc)),
                ("Uchimi / Kega", f"{doc['uchimi']} / {doc['kega']} ({doc['hit_points']})"),
            ]
            if doc["tokens"] is not None:
                hero_rows.insert(1, (tr(N_("Unmei tokens")), str(doc["tokens"])))
            if doc["emergency"]:
                hero_rows.append((tr(N_("State")), tr(N_("life in danger: call for help"))))
            elif doc["prostrate"]:
                hero_rows.append((tr(N_("State")), tr(N_("prostrate"))))
            if doc["attributes"]:
                hero_rows.append((tr(N_("Attributes")), ", ".join(doc["attributes"])))
            label = tr(N_("{uchimi} Uchimi, {kega} Kega, {free} free")).format(
                uchimi=doc["uchimi"],
                kega=doc["kega"],
                free=int(doc["hit_points"]) - int(doc["uchimi"]) - int(doc["kega"]),
            )
            panels.append(
                Panel(
                    name,
                    hero_rows,
                    muted=bool(doc["prostrate"]),
                    marks=_marks(doc),
                    marks_label=label,
                )
            )
        return panels

    def details(self, event: StoredEvent, state: TableState, tr: Translate) -> Sequence[str]:
        """The trace of a test so far, resolved again from its stored faces."""
        if event.kind not in ("ybs.test", "ybs.reroll", "ybs.critical", "ybs.critical_failure"):
            return ()
        after = state.after.get(event.seq)
        if after is None or after.test is None:
            return ()
        p = after.test.payload
        try:
            test = ybs.YbsTest(
                int(p["value"]),
                int(p["force"]),
                int(after.test.tokens),
                after.options.stubborn,
                after.options.stubborn_on,
                bool(p["critical_success"]),
                bool(p["critical_failure"]),
                npc=p["player"] is None,
            )
            result = ybs.resolve_test(test, [int(f) for f in p["faces"]])
        except (KeyError, TypeError, ValueError, InputError, RuleError):
            return ()
        return [step.render(tr) for step in result.trace]


def _gang_rows(gang: dict[str, Any], tr: Translate, hidden: bool) -> list[tuple[str, str]]:
    def hand(faces: Any) -> str:
        if hidden:
            return tr(N_("hidden"))
        return " ".join(str(f) for f in faces) or "-"

    return [
        (tr(N_("The players' fighters")), ", ".join(gang["fighters"])),
        (tr(N_("The GM's side")), ", ".join(gang["opponents"]) or "-"),
        (tr(N_("Dice")), f"{gang['players_dice']} / {gang['gm_dice']}"),
        (tr(N_("Throws")), str(gang["throws"])),
        (tr(N_("The players' dice")), hand(gang["players_hand"])),
        (tr(N_("The GM's dice")), hand(gang["gm_hand"])),
        (tr(N_("Minutes")), str(gang["minutes"])),
    ]


WEB: WebSystem = YbsWeb()
"""The module's `WebSystem` object."""
