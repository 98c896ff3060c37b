"""The Discord client: slash commands, binding and claiming seats, buttons, and the relay.

Every command reads the channel's binding and the caller's seat first (fast: two reads of
the store's preferences) and refuses at once, to the caller alone, when either is missing;
then it acknowledges the interaction (a deferral, before any decision, odds or store write:
Discord waits 3 seconds for it), runs through `tablee.table.TableService.run_command` as the
command line and the web do, and answers with the stored events as embeds.

Who sees what follows the events' visibility (`tablee.table.seeing.sees`):

* a public roll is answered in the channel;
* a secret roll (``roller_and_gm``) is answered to the roller alone (an ephemeral message)
  and sent to the game master by direct message;
* a blind roll (``gm``) is answered to the game master alone.

A refusal that would name hidden values is masked (`tablee.table.seeing.shown_error`), and
every error goes to the caller alone. The relay posts, in seq order, what the web table and
the command line stored in a bound channel (`TableeBot.relay_once`), skipping what the bot
already answered itself.

Source: docs/architecture.md, "Discord"; docs/discord.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice

from tablee.discord.bindings import Binding, Bindings, Seat
from tablee.discord.embeds import COLOURS, event_embed, fit, text_embed
from tablee.discord.tree import CatalogTranslator, add_game_groups, option_value
from tablee.errors import N_, InputError, Message, TableeError
from tablee.locale import translation
from tablee.locale.numbers import format_percent
from tablee.systems.declare import Command, FieldSpec, Query, Who, build_command, fields_of
from tablee.systems.faces import faces_field, typed_dice
from tablee.systems.plugin import AnyGame, Odds, Report, Text
from tablee.table.events import StoredEvent
from tablee.table.links import hash_token
from tablee.table.projection import TableState
from tablee.table.seeing import sees, shown_error
from tablee.table.service import TableService
from tablee.table.store import TableInfo

__all__ = ["RELAY_SECONDS", "DieBoard", "Refused", "TableeBot", "lang_of", "run_bot"]

RELAY_SECONDS = 1.0
"""How often the relay reads the store for events made elsewhere, in seconds."""

TOKEN = re.compile(r"[A-Za-z0-9_-]{43}")
"""A link's token (43 URL-safe characters) inside a pasted link."""

FOLLOW_UP_LIMIT = 4
"""Most buttons of follow-up commands under a roll (the undo button comes after them)."""

KEEP_FIELDS = (("players", "keep", N_("Players keep…")), ("gm", "gm_keep", N_("The GM keeps…")))
"""A follow-up command whose game answers ``<word> advise`` with keep choices per side (the
data ``{"advice": {side: [{"keep": [faces], "reroll": n, "straight_next_throw": "p/q"}]}}``
of the YBS gang fight's advisor) gets a menu per side: picking a choice runs the command
with that side's field (``keep``, ``gm_keep``) set to the faces kept (``none``: reroll all).
Each option shows its exact chance, so the advice is read where the dice are chosen."""

DIE_BOARDS = (("players", "keep", N_("The players' dice")), ("gm", "gm_keep", N_("The GM's dice")))
"""After such a throw, each side (when the advisor's data also gives its hand, ``{"hands":
{side: [faces]}}``) gets a message of its own: one toggle button per die (green: kept, grey:
thrown again) and a **Throw again** button that runs the same command with that side's field
set to the faces the buttons keep. The toggles' state lives in the buttons' ``custom_id``
(``tablee:die:<game>:<command>:<field>:<faces>:<marks>:<index>`` and
``tablee:throw:<game>:<command>:<field>:<faces>:<marks>``, marks ``k`` kept / ``r`` thrown
again), so nothing is stored and it survives a restart."""

DICE_PER_ROW = 5
"""Discord's most buttons in one row."""

DIE_ROWS = 4
"""Rows of dice in a side's message; the fifth (Discord's last) holds **Throw again**."""

CUSTOM_ID_LIMIT = 100
"""Discord's longest ``custom_id``."""

_log = logging.getLogger(__name__)


class Refused(Exception):
    """A command refused before any work: told to the caller alone, in their language."""

    def __init__(self, message: str, **values: object) -> None:
        super().__init__(message)
        self.message = message
        self.values = values

    def render(self, lang: str) -> str:
        """The refusal in ``lang``."""
        return translation(lang).gettext(self.message).format(**self.values)


def lang_of(interaction: discord.Interaction[Any]) -> str:
    """``fr`` or ``en``: the user's Discord language, else the server's, else English."""
    for locale in (interaction.locale, interaction.guild_locale):
        code = str(locale.value if locale is not None else "")
        if code.startswith("fr"):
            return "fr"
        if code.startswith("en"):
            return "en"
    return "en"


def _text(text: Text, lang: str) -> str:
    tr = translation(lang).gettext
    return text.render(tr) if isinstance(text, Message) else text


def odds_lines(odds: Odds, lang: str) -> list[str]:
    """Exact odds as lines: the chance of success, then each row with its percentage."""
    tr = translation(lang).gettext
    lines = []
    if odds.success is not None:
        lines.append(
            tr(N_("Chance of success before rolling: {percent}")).format(
                percent=format_percent(odds.success, lang)
            )
        )
    lines += [f"{_text(label, lang)}: {format_percent(p, lang)}" for label, p in odds.rows]
    if odds.note is not None:
        lines.append(_text(odds.note, lang))
    return lines


def report_lines(report: Report, lang: str) -> list[str]:
    """A report's lines (a query's answer) as text, with any odds table under its line."""
    lines: list[str] = []
    for line in report.lines:
        text = _text(line.text, lang)
        if text:
            lines.append(f"**{text}**" if line.style in ("heading", "result") else text)
        if line.odds is not None:
            lines += odds_lines(line.odds, lang)
    return lines


def _modal_value(data: Any, custom_id: str) -> str:
    """The value typed in a modal's text input, wherever Discord nests it."""
    if isinstance(data, dict):
        if data.get("custom_id") == custom_id and "value" in data:
            return str(data["value"])
        for value in data.values():
            found = _modal_value(value, custom_id)
            if found:
                return found
    elif isinstance(data, list):
        for item in data:
            found = _modal_value(item, custom_id)
            if found:
                return found
    return ""


class LinkModal(discord.ui.Modal):
    """A modal asking for a table's link, typed where only the caller sees it.

    Its submission is handled by `TableeBot.on_interaction` from its ``custom_id``
    (``tablee:bind:<table id>`` or ``tablee:claim:<table id>``), so it still works after
    the bot restarted.
    """

    def __init__(self, title: str, label: str, custom_id: str) -> None:
        super().__init__(title=title[:45], custom_id=custom_id, timeout=None)
        self.link: discord.ui.TextInput[LinkModal] = discord.ui.TextInput(
            label=label[:45], custom_id="link", min_length=43, max_length=400
        )
        self.add_item(self.link)


class TableeBot(discord.Client):
    """The Tablée bot over a table service.

    Args:
        service: the tables (the same store as the command line and the web table).
        guild_id: publish the slash commands to this server at once (None: globally).
    """

    def __init__(self, service: TableService, *, guild_id: int | None = None) -> None:
        super().__init__(intents=discord.Intents(guilds=True))  # not privileged
        self.service = service
        self.bindings = Bindings(service.store)
        self.guild_id = guild_id
        self.tree: app_commands.CommandTree[TableeBot] = app_commands.CommandTree(self)
        add_game_groups(self.tree, self)
        self.tree.add_command(_tablee_group(self))
        self.answered: dict[int, set[int]] = {}
        self._relay: asyncio.Task[None] | None = None

    async def setup_hook(self) -> None:
        """Publish the commands (in French too) and start the relay."""
        await self.tree.set_translator(CatalogTranslator())
        if self.guild_id is not None:
            guild = discord.Object(self.guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()
        self._relay = asyncio.create_task(self._relay_forever())

    async def close(self) -> None:
        """Stop the relay, then disconnect."""
        if self._relay is not None:
            self._relay.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._relay
        await super().close()

    # -- where and who ---------------------------------------------------------------------

    def table_info(self, table_id: str) -> TableInfo:
        """The registry row of a table by id.

        Raises:
            Refused: the table is gone.
        """
        for info in self.service.store.tables():
            if info.id == table_id:
                return info
        raise Refused(N_("the table bound to this channel no longer exists"))

    def where(self, interaction: discord.Interaction[Any]) -> tuple[Binding, TableInfo]:
        """The channel's binding and its table.

        Raises:
            Refused: the channel plays no table.
        """
        binding = None
        if interaction.channel_id is not None:
            binding = self.bindings.binding(interaction.channel_id)
        if binding is None:
            raise Refused(
                N_("this channel plays no table: a game master binds it with /tablee bind")
            )
        return binding, self.table_info(binding.table_id)

    def seat_of(self, interaction: discord.Interaction[Any], table_id: str) -> Seat:
        """The caller's seat at the table.

        Raises:
            Refused: the caller holds none.
        """
        seat = self.bindings.seat(table_id, interaction.user.id)
        if seat is None:
            raise Refused(N_("you hold no seat at this table: claim one with /tablee claim"))
        return seat

    # -- answering -------------------------------------------------------------------------

    async def tell(self, interaction: discord.Interaction[Any], text: str) -> None:
        """Tell the caller alone (an ephemeral answer, or follow-up once acknowledged)."""
        embed = text_embed(text, [], COLOURS["failure"])
        if interaction.response.is_done():
            await interaction.followup.send(embed=embed, ephemeral=True)
        else:
            await interaction.response.send_message(embed=embed, ephemeral=True)

    async def _fail(
        self, interaction: discord.Interaction[Any], error: Exception, lang: str, public: bool
    ) -> None:
        """An error after a deferral: the public "thinking" message goes, the caller is told."""
        if public and interaction.response.is_done():
            with contextlib.suppress(discord.HTTPException):
                await interaction.delete_original_response()
        if isinstance(error, Refused):
            text = error.render(lang)
        elif isinstance(error, TableeError):
            text = error.render(translation(lang).gettext)
        else:
            raise error
        await self.tell(interaction, text)

    async def dm(self, user_id: int, embeds: Sequence[discord.Embed]) -> None:
        """Send embeds to a Discord account by direct message (skipped when refused)."""
        try:
            channel = await self.create_dm(discord.Object(user_id))
            await channel.send(embeds=list(embeds))
        except discord.HTTPException:
            _log.warning("a direct message to a game master was refused")

    # -- the declared commands ---------------------------------------------------------------

    async def run_declared(
        self,
        interaction: discord.Interaction[Any],
        game: AnyGame,
        command: type[Command],
        values: dict[str, Any],
    ) -> None:
        """Run a declared command or query from a slash command's options (see the module)."""
        lang = lang_of(interaction)
        values = {k: v for k, v in values.items() if v is not None}
        preview = bool(values.pop("odds", False))
        visibility = str(values.pop("visibility", "all"))
        try:
            needs_table = not issubclass(command, Query) or command.needs_table
            binding = info = seat = None
            bound = interaction.channel_id is not None and self.bindings.binding(
                interaction.channel_id
            )
            if not needs_table and getattr(command, "table_optional", False) and bound:
                binding, info = self.where(interaction)  # the odds under its house rules
                if info.system != game.id:
                    info = None
            elif needs_table:
                binding, info = self.where(interaction)
                seat = self.seat_of(interaction, info.id)
                if info.system != game.id:
                    raise Refused(N_("this channel's table plays another game"))
                if visibility == "gm" and not seat.is_gm:
                    raise Refused(N_("only the game master makes blind rolls"))
        except Refused as refusal:
            await self.tell(interaction, refusal.render(lang))
            return
        secret = visibility != "all"
        private = preview or issubclass(command, Query) or secret
        await interaction.response.defer(ephemeral=private, thinking=True)
        try:
            if issubclass(command, Query) or preview:
                await self._answer(interaction, game, command, values, info, preview, lang)
                return
            assert binding is not None and info is not None and seat is not None
            await self._act(interaction, game, command, values, (binding, info, seat), visibility)
        except (Refused, TableeError) as error:
            shown: Exception = error
            if info is not None and seat is not None and isinstance(error, TableeError):
                events = self.service.state(info.name).events
                shown = shown_error(error, seat.role, seat.player, events)
            await self._fail(interaction, shown, lang, not private)

    def _given(
        self, command: type[Command], values: dict[str, Any], seat: Seat | None
    ) -> dict[str, object]:
        """The fields' values for `build_command`, checked against the caller's seat.

        Raises:
            Refused: a player setting a game master's field.
        """
        given: dict[str, object] = {}
        for spec in fields_of(command):
            if spec.name in values:
                if spec.param.gm_only and (seat is None or not seat.is_gm):
                    raise Refused(N_("only the game master may set {field}"), field=spec.name)
                given[spec.name] = option_value(spec, values[spec.name])
        actor = next((s for s in fields_of(command) if s.param.actor), None)
        if (
            actor is not None
            and (actor.param.choices == "players" or actor.param.mine)
            and actor.name not in given
            and seat is not None
            and seat.player is not None
        ):
            given[actor.name] = seat.player  # a player's own command names them
        return given

    async def _answer(
        self,
        interaction: discord.Interaction[Any],
        game: AnyGame,
        command: type[Command],
        values: dict[str, Any],
        info: TableInfo | None,
        preview: bool,
        lang: str,
    ) -> None:
        """A query's answer, or a roll's odds, to the caller alone.

        A query reads the table as it is, hidden rolls included (the command line, where it
        comes from, is the game master's): a player gets its answer only while no event of
        the table is hidden from them.
        """
        state = self.service.state(info.name) if info is not None else None
        seat = self.bindings.seat(info.id, interaction.user.id) if info is not None else None
        given = self._given(command, values, seat)
        if preview:
            built = build_command(command, given, partial=True)
            if state is not None and seat is not None:
                _check_follows(command, state, seat)
            odds = game.odds(state.game if state is not None else None, built)
            lines = odds_lines(odds, lang) if odds is not None else []
            title = translation(lang).gettext(N_("Odds before rolling"))
            await interaction.followup.send(embed=text_embed(title, lines), ephemeral=True)
            return
        query = build_command(command, given)
        assert isinstance(query, Query)
        if state is not None and seat is not None and _hides(state, seat):
            raise Refused(
                N_("the game master asks this: a hidden roll at this table could show in it")
            )
        report = game.answer(state.game if state is not None else None, query)
        title = _text(command.title, lang)
        await interaction.followup.send(
            embed=text_embed(title, report_lines(report, lang)), ephemeral=True
        )

    async def _act(
        self,
        interaction: discord.Interaction[Any],
        game: AnyGame,
        command: type[Command],
        values: dict[str, Any],
        where: tuple[Binding, TableInfo, Seat],
        visibility: str,
    ) -> None:
        """Decide, store and answer one command (after the deferral)."""
        binding, info, seat = where
        lang = lang_of(interaction)
        state = self.service.state(info.name)
        built = build_command(command, self._given(command, values, seat))
        _check_follows(command, state, seat)
        _check_who(game, command, built, state, seat)
        dice = None
        if command.rolled:
            for index, die in enumerate(command.dice_kinds):
                typed = values.get(faces_field(die, index == 0))
                if typed and die.name in command.gm_dice and not seat.is_gm:
                    raise Refused(N_("only the game master types in the game master's dice"))
            dice = typed_dice(
                command, lambda die, main: str(values.get(faces_field(die, main)) or "")
            )
        applied = self.service.run_command(
            info.name,
            built,
            dice,
            visibility=visibility if command.rolled else None,
            command_key=f"discord:{interaction.id}",
        )
        await self.answer_events(interaction, binding, applied.events, applied.state, seat, lang)

    async def answer_events(
        self,
        interaction: discord.Interaction[Any],
        binding: Binding,
        events: Sequence[StoredEvent],
        state: TableState[Any],
        seat: Seat,
        lang: str,
    ) -> None:
        """Answer with the stored events: in the channel, to the roller alone, to the GM.

        The events are marked answered first, so the relay does not post them again.
        """
        self.answered.setdefault(binding.channel_id, set()).update(e.seq for e in events)
        hidden = [e for e in events if e.visibility != "all"]
        shown = [event_embed(e, state, lang) for e in events if sees(seat.role, seat.player, e)]
        if not shown:  # a blind roll asked by a player is refused earlier; nothing to show
            shown = [text_embed(translation(lang).gettext(N_("Done.")), [])]
        if hidden:
            await interaction.followup.send(embeds=fit(shown), ephemeral=True)
        else:
            view = self.follow_ups(state, events[-1], lang)
            await interaction.followup.send(embeds=fit(shown), view=view)
            for content, board in self.die_boards(state, events[-1], lang):
                await interaction.followup.send(content=content, view=board)
        if hidden:
            for gm in self.bindings.game_masters(binding.table_id):
                if gm != interaction.user.id:
                    await self.dm(gm, fit([event_embed(e, state, binding.lang) for e in hidden]))

    def follow_ups(self, state: TableState[Any], event: StoredEvent, lang: str) -> discord.ui.View:
        """Buttons under a public event: the commands that continue it, advice, and undo.

        A command continues the event when its declaration ``follows`` the event's kind (a
        YBS s'entêter and critical after a test, a gang fight's next throw) and needs no
        field a button cannot give (the button runs it with its defaults: a gang throw keeps
        the advised dice). When the game answers ``<word> advise`` for such a command's first
        word (``gang advise``), a button shows that advice to whoever presses it. Undo is the
        game master's (checked when pressed).
        """
        game = state.system
        declared = tuple(getattr(game, "commands", ()))
        commands = [
            c
            for c in declared
            if event.kind in c.follows
            and not issubclass(c, Query)
            and all(not s.required or s.param.actor for s in fields_of(c))
        ]
        names = {c.name for c in declared}
        advice = {f"{c.name.split()[0]} advise" for c in commands if " " in c.name}
        commands += [c for c in declared if c.name in advice & names]
        view = discord.ui.View(timeout=None)
        tr = translation(lang).gettext
        for command in commands[:FOLLOW_UP_LIMIT]:
            custom_id = f"tablee:run:{game.id}:{command.name.replace(' ', '.')}"
            style = (
                discord.ButtonStyle.secondary
                if issubclass(command, Query)
                else discord.ButtonStyle.primary
            )
            label = _cut_label(tr(command.title))
            view.add_item(discord.ui.Button(label=label, custom_id=custom_id, style=style))
        view.add_item(
            discord.ui.Button(
                label=tr(N_("Undo (game master)")),
                custom_id=f"tablee:undo:{event.seq}",
                style=discord.ButtonStyle.danger,
            )
        )
        for command in commands:
            self._keep_menus(view, state, command, lang)
        return view

    def _keep_menus(
        self, view: discord.ui.View, state: TableState[Any], command: type[Command], lang: str
    ) -> None:
        """The advisor's keep choices of each side as menus (see `KEEP_FIELDS`)."""
        game = state.system
        data = _advice_data(state, command)
        advice = data.get("advice")
        if not isinstance(advice, dict):
            return
        fields = {s.name for s in fields_of(command)}
        tr = translation(lang).gettext
        for side, field, placeholder in KEEP_FIELDS:
            choices = advice.get(side)
            if field not in fields or not isinstance(choices, list) or not choices:
                continue
            options = _keep_options(choices, lang)
            custom_id = f"tablee:keep:{game.id}:{command.name.replace(' ', '.')}:{field}"
            view.add_item(
                discord.ui.Select(custom_id=custom_id, placeholder=tr(placeholder), options=options)
            )

    def die_boards(
        self, state: TableState[Any], event: StoredEvent, lang: str
    ) -> list[tuple[str, discord.ui.View]]:
        """Each side's toggle buttons under a public event (see `DIE_BOARDS`).

        Returns:
            ``(text, view)`` per side with a hand: the side's name with the advisor's best
            keep, and its buttons, every die kept as the advisor advises. Empty when no
            declared command following the event has an advisor giving hands.
        """
        game = state.system
        boards: list[tuple[str, discord.ui.View]] = []
        for command in getattr(game, "commands", ()):
            if event.kind not in command.follows or issubclass(command, Query):
                continue
            data = _advice_data(state, command)
            advice, hands = data.get("advice"), data.get("hands")
            if not isinstance(advice, dict) or not isinstance(hands, dict):
                continue
            fields = {s.name for s in fields_of(command)}
            for side, field, heading in DIE_BOARDS:
                hand = [str(f) for f in hands.get(side) or ()]
                choices = advice.get(side) or []
                if field not in fields or not hand:
                    continue
                best = [str(f) for f in choices[0].get("keep", [])] if choices else []
                board = DieBoard(game.id, command.name.replace(" ", "."), field, hand, best)
                view = board.view(lang)
                if view is None:
                    continue
                boards.append((_board_text(heading, choices, lang), view))
        return boards

    async def complete(
        self, interaction: discord.Interaction[Any], game: AnyGame, spec: FieldSpec, current: str
    ) -> list[Choice[str]]:
        """The choices of a field from the table as it is, filtered by what is typed.

        A player's "who acts" field lists only what they play, as on the web table.
        """
        try:
            _, info = self.where(interaction)
        except Refused:
            return []
        if info.system != game.id:
            return []
        state = self.service.state(info.name)
        seat = self.bindings.seat(info.id, interaction.user.id)
        names = game.choices(state.game, spec.param.choices)
        if spec.param.actor and (seat is None or not seat.is_gm):
            player = seat.player if seat is not None else None
            names = tuple(n for n in names if _same(player, game.owner(state.game, n)))
        typed = current.casefold()
        return [
            Choice(name=spec.param.label_of(n)[:100], value=n)
            for n in names
            if typed in n.casefold()
        ][:25]

    # -- buttons and modals -------------------------------------------------------------------

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Buttons and modals of Tablée, found by their ``custom_id`` (``tablee:...``)."""
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        if not custom_id.startswith("tablee:"):
            return
        if interaction.type is discord.InteractionType.modal_submit:
            await self.submitted(interaction, custom_id)
        elif interaction.type is discord.InteractionType.component:
            await self.pressed(interaction, custom_id)

    async def pressed(self, interaction: discord.Interaction[Any], custom_id: str) -> None:
        """A button or a menu: run the command it names, or undo (the game master alone)."""
        parts = custom_id.split(":")
        lang = lang_of(interaction)
        if parts[1] == "keep" and len(parts) == 5:
            data: dict[str, Any] = dict(interaction.data or {})
            picked = [str(v) for v in data.get("values") or ()]
            if not picked:
                return
            from tablee.systems import system_named

            game = system_named(parts[2])
            command = game.command_named(parts[3].replace(".", " "))
            await self.run_declared(interaction, game, command, {parts[4]: picked[0]})
            return
        if parts[1] in ("die", "throw"):
            board = DieBoard.parse(custom_id)
            if board is None:
                await self.tell(interaction, Refused(N_("this button is out of date")).render(lang))
                return
            await self.press_die(interaction, board)
            return
        if parts[1] == "undo" and len(parts) == 3:
            await self.undo(interaction, int(parts[2]) if parts[2].isdigit() else None)
            return
        if parts[1] == "run" and len(parts) == 4:
            from tablee.systems import system_named

            game = system_named(parts[2])
            try:
                command = game.command_named(parts[3].replace(".", " "))
            except (KeyError, InputError):
                await self.tell(interaction, Refused(N_("this button is out of date")).render(lang))
                return
            await self.run_declared(interaction, game, command, {})

    async def press_die(self, interaction: discord.Interaction[Any], board: DieBoard) -> None:
        """A die toggled (the message's buttons change) or **Throw again** (the command runs).

        Only who may run the command with that side's keep presses them: the same checks as
        the keep menu's (`run_declared`), told to the presser alone otherwise.
        """
        from tablee.systems import system_named

        lang = lang_of(interaction)
        try:
            game = system_named(board.game)
            command = game.command_named(board.command.replace(".", " "))
        except (KeyError, InputError):
            await self.tell(interaction, Refused(N_("this button is out of date")).render(lang))
            return
        if board.pressed is None:
            await self.run_declared(interaction, game, command, {board.field: board.keep_text()})
            return
        try:
            _, info = self.where(interaction)
            seat = self.seat_of(interaction, info.id)
            if info.system != game.id:
                raise Refused(N_("this channel's table plays another game"))
            state = self.service.state(info.name)
            values = {board.field: board.keep_text()}
            built = build_command(command, self._given(command, values, seat))
            _check_follows(command, state, seat)
            _check_who(game, command, built, state, seat)
        except Refused as refusal:
            await self.tell(interaction, refusal.render(lang))
            return
        except TableeError as error:
            await self.tell(interaction, error.render(translation(lang).gettext))
            return
        view = board.toggled().view(lang)
        await interaction.response.edit_message(view=view)

    async def undo(self, interaction: discord.Interaction[Any], seq: int | None) -> None:
        """Void an event (the last one that counts when ``seq`` is None): the game master's."""
        lang = lang_of(interaction)
        try:
            binding, info = self.where(interaction)
            seat = self.seat_of(interaction, info.id)
            if not seat.is_gm:
                raise Refused(N_("only the game master undoes"))
        except Refused as refusal:
            await self.tell(interaction, refusal.render(lang))
            return
        await interaction.response.defer(thinking=True)
        try:
            applied = self.service.undo(
                info.name, seq=seq, actor=None, command_key=f"discord:{interaction.id}"
            )
        except TableeError as error:
            await self._fail(interaction, error, lang, True)
            return
        await self.answer_events(interaction, binding, applied.events, applied.state, seat, lang)

    async def submitted(self, interaction: discord.Interaction[Any], custom_id: str) -> None:
        """A link typed in a modal: bind the channel (a GM link) or claim a seat."""
        lang = lang_of(interaction)
        _, action, table_id = [*custom_id.split(":", 2), "", ""][:3]
        data: dict[str, Any] = dict(interaction.data or {})
        link = _modal_value(data.get("components", []), "link")
        found = TOKEN.search(link)
        info = None
        if found is not None:
            info = self.service.store.find_link(hash_token(found.group(0)))
        if info is None or info.revoked_at is not None or info.table_id != table_id:
            await self.tell(
                interaction, Refused(N_("this is not a working link of that table")).render(lang)
            )
            return
        tr = translation(lang).gettext
        if action == "bind":
            if info.role != "gm" or interaction.channel_id is None:
                await self.tell(
                    interaction,
                    Refused(N_("binding a channel takes the game master's link")).render(lang),
                )
                return
            await interaction.response.defer(ephemeral=True, thinking=True)  # the log is read
            table = self.table_info(table_id)
            last = self.service.state(table.name).last_seq
            self.bindings.bind(interaction.channel_id, table_id, last, lang)
            self.bindings.claim(table_id, interaction.user.id, Seat("gm"))
            text = tr(
                N_("This channel now plays {table}; you hold the game master's seat.")
            ).format(table=table.name)
        else:
            if info.role == "spectator":
                await self.tell(
                    interaction, Refused(N_("a spectator's link gives no seat")).render(lang)
                )
                return
            seat = Seat("gm") if info.role == "gm" else Seat("player", info.player)
            self.bindings.claim(table_id, interaction.user.id, seat)
            text = tr(N_("You hold the seat of {player}.")).format(
                player=info.player or tr(N_("the game master"))
            )
        if interaction.response.is_done():
            await interaction.followup.send(embed=text_embed(text, []), ephemeral=True)
        else:
            await interaction.response.send_message(embed=text_embed(text, []), ephemeral=True)

    # -- the relay -------------------------------------------------------------------------

    async def relay_once(self) -> int:
        """Post in each bound channel what was stored since its last post, in seq order.

        Public events go to the channel; hidden ones to the game master by direct message.
        Events the bot answered itself are skipped. The channel's last posted seq is stored
        after each event, so a failed post is tried again next time (never lost) and a
        posted one is never posted again (a crash between the post and its record aside).

        Returns:
            How many events were posted or sent.
        """
        sent = 0
        for channel_id in self.bindings.channel_ids():
            binding = self.bindings.binding(channel_id)
            if binding is None:
                continue
            try:
                info = self.table_info(binding.table_id)
            except Refused:
                continue
            state = self.service.state(info.name)
            answered = self.answered.setdefault(channel_id, set())
            channel = self.get_partial_messageable(channel_id)
            for event in state.events:
                if event.seq <= binding.posted:
                    continue
                if event.seq in answered:
                    answered.discard(event.seq)
                elif event.visibility == "all":
                    await channel.send(embed=event_embed(event, state, binding.lang))
                    sent += 1
                else:
                    for gm in self.bindings.game_masters(binding.table_id):
                        await self.dm(gm, [event_embed(event, state, binding.lang)])
                    sent += 1
                self.bindings.set_posted(channel_id, event.seq)
        return sent

    async def _relay_forever(self) -> None:
        while True:
            try:
                await self.relay_once()
            except (discord.HTTPException, TableeError):
                _log.warning("the relay will try again", exc_info=True)
            await asyncio.sleep(RELAY_SECONDS)


def _advice_data(state: TableState[Any], command: type[Command]) -> dict[str, Any]:
    """The game's ``<word> advise`` answer data for a two-word command (empty: none)."""
    game = state.system
    words = command.name.split()
    names = {c.name for c in getattr(game, "commands", ())}
    advise = f"{words[0]} advise"
    if issubclass(command, Query) or len(words) != 2 or advise not in names:
        return {}
    query = game.command_named(advise)()
    if not isinstance(query, Query):
        return {}
    data = game.answer(state.game, query).data
    return data if isinstance(data, dict) else {}


def _board_text(heading: str, choices: list[Any], lang: str) -> str:
    """A side's message: its name, then the advice's best keep with its chance.

    The race advice (a ``win`` per choice) shows the chance to win the fight; a game whose
    advice has none shows the chance of a straight on the next throw.
    """
    from fractions import Fraction

    tr = translation(lang).gettext
    text = f"**{tr(heading)}**"
    if choices:
        best = choices[0]
        kept = " ".join(str(f) for f in best.get("keep", [])) or "-"
        if "win" in best:
            chance = format_percent(Fraction(str(best["win"])), lang)
            advised = tr(
                N_("Best chance to win: keep {kept}, reroll {count}: the fight won {percent}")
            ).format(kept=kept, count=best.get("reroll", 0), percent=chance)
        else:
            chance = format_percent(Fraction(str(best.get("straight_next_throw", "0"))), lang)
            advised = tr(
                N_(
                    "The advisor keeps {kept}, rerolls {count}: a straight at the next throw "
                    "{percent}"
                )
            ).format(kept=kept, count=best.get("reroll", 0), percent=chance)
        text += "\n" + advised
    return text + "\n" + tr(N_("Press a die to keep it (green) or throw it again (grey)."))


class DieBoard:
    """One side's dice as toggle buttons, the state held in their ``custom_id`` alone.

    Args:
        game: the game's id (``ybs``).
        command: the command's name, words joined by dots (``gang.throw``).
        field: the side's keep field (``keep``, ``gm_keep``).
        faces: the side's hand, one face per die (text without ``:`` or ``,``).
        kept: the faces kept (a sub-multiset of ``faces``; the first matching dice are marked).
        pressed: the die pressed (an index into ``faces``), None for **Throw again**.
        marks: ``k`` (kept) or ``r`` (thrown again) per die; given, it replaces ``kept``.
    """

    def __init__(
        self,
        game: str,
        command: str,
        field: str,
        faces: Sequence[str],
        kept: Sequence[str] = (),
        pressed: int | None = None,
        marks: str | None = None,
    ) -> None:
        self.game, self.command, self.field = game, command, field
        self.faces = tuple(faces)
        self.pressed = pressed
        if marks is None:
            left = list(kept)
            chars = []
            for face in self.faces:
                chars.append("k" if face in left else "r")
                if face in left:
                    left.remove(face)
            marks = "".join(chars)
        self.marks = marks

    @classmethod
    def parse(cls, custom_id: str) -> DieBoard | None:
        """The board a button's ``custom_id`` holds, or None when it is not well formed."""
        parts = custom_id.split(":")
        if len(parts) == 8 and parts[1] == "die" and parts[7].isdigit():
            pressed: int | None = int(parts[7])
        elif len(parts) == 7 and parts[1] == "throw":
            pressed = None
        else:
            return None
        faces = parts[5].split(",")
        marks = parts[6]
        if len(marks) != len(faces) or set(marks) - {"k", "r"}:
            return None
        if pressed is not None and pressed >= len(faces):
            return None
        return cls(parts[2], parts[3], parts[4], faces, pressed=pressed, marks=marks)

    def kept(self) -> list[str]:
        """The faces the buttons show kept, in hand order."""
        return [f for f, m in zip(self.faces, self.marks, strict=True) if m == "k"]

    def keep_text(self) -> str:
        """The keep field's value: the kept faces joined by commas, ``none`` when none."""
        return ",".join(self.kept()) or "none"

    def toggled(self) -> DieBoard:
        """The board after the pressed die changes from kept to thrown again or back."""
        assert self.pressed is not None
        i = self.pressed
        flipped = "r" if self.marks[i] == "k" else "k"
        marks = self.marks[:i] + flipped + self.marks[i + 1 :]
        return DieBoard(self.game, self.command, self.field, self.faces, marks=marks)

    def _base(self) -> str:
        hand = ",".join(self.faces)
        return f"{self.game}:{self.command}:{self.field}:{hand}:{self.marks}"

    def view(self, lang: str) -> discord.ui.View | None:
        """The buttons: dice five to a row (at most four rows), then **Throw again**.

        None when the dice or their ``custom_id`` would pass Discord's limits.
        """
        base = self._base()
        if len(self.faces) > DICE_PER_ROW * DIE_ROWS:
            return None
        if len(f"tablee:die:{base}:{len(self.faces)}") > CUSTOM_ID_LIMIT:
            return None
        tr = translation(lang).gettext
        view = discord.ui.View(timeout=None)
        for i, (face, mark) in enumerate(zip(self.faces, self.marks, strict=True)):
            style = discord.ButtonStyle.success if mark == "k" else discord.ButtonStyle.secondary
            view.add_item(
                discord.ui.Button(
                    label=face,
                    style=style,
                    custom_id=f"tablee:die:{base}:{i}",
                    row=i // DICE_PER_ROW,
                )
            )
        label = tr(N_("Throw again, keeping {kept}")).format(
            kept=" ".join(self.kept()) or tr(N_("none"))
        )
        view.add_item(
            discord.ui.Button(
                label=_cut_label(label),
                style=discord.ButtonStyle.primary,
                custom_id=f"tablee:throw:{base}",
                row=DIE_ROWS,
            )
        )
        return view


def _keep_options(choices: list[Any], lang: str) -> list[discord.SelectOption]:
    """Menu options from the advice's keep choices, best first (at most 25, each once).

    Each says its chance to win the fight (the race advice), else of a straight next throw.
    """
    from fractions import Fraction

    tr = translation(lang).gettext
    options: list[discord.SelectOption] = []
    seen: set[str] = set()
    for choice in choices:
        kept = [str(f) for f in choice.get("keep", [])]
        value = ",".join(kept) or "none"
        if value in seen or len(options) == 25:
            continue
        seen.add(value)
        label = tr(N_("keep {kept}, reroll {count}")).format(
            kept=" ".join(kept) or "-", count=choice.get("reroll", 0)
        )
        if "win" in choice:
            chance = format_percent(Fraction(str(choice["win"])), lang)
            described = tr(N_("the fight won: {percent}")).format(percent=chance)
        else:
            chance = format_percent(Fraction(str(choice.get("straight_next_throw", "0"))), lang)
            described = tr(N_("a straight at the next throw: {percent}")).format(percent=chance)
        options.append(
            discord.SelectOption(label=_cut_label(label), value=value, description=described[:100])
        )
    return options


def _cut_label(text: str) -> str:
    """A button's label: at most 80 characters (Discord's limit)."""
    return text if len(text) <= 80 else text[:79] + "…"


def _same(player: str | None, name: str | None) -> bool:
    from tablee.systems.base import name_key

    return player is not None and name is not None and name_key(player) == name_key(name)


def _hides(state: TableState[Any], seat: Seat) -> bool:
    """Whether the table holds an event the seat may not see."""
    return any(not sees(seat.role, seat.player, e) for e in state.events)


def _check_follows(command: type[Command], state: TableState[Any], seat: Seat) -> None:
    """Refuse a command continuing an event the seat may not see (a blind roll's reroll)."""
    followed = state.last_event(command.follows) if command.follows else None
    if followed is not None and not sees(seat.role, seat.player, followed):
        raise Refused(
            N_("this continues something hidden from you: the game master takes it from here")
        )


def _check_who(
    game: AnyGame, command: type[Command], built: Command, state: TableState[Any], seat: Seat
) -> None:
    """Refuse a game master's command from a player, or a player acting for another."""
    if seat.is_gm:
        return
    who = game.who(state.game, command)
    if who is Who.GM:
        raise Refused(N_("only the game master may do this"))
    if who is Who.ACTOR:
        for name in game.acting(state.game, built) or (None,):
            owner = None if name is None else game.owner(state.game, name)
            if not _same(seat.player, owner):
                raise Refused(N_("a player acts only for their own character"))


def _tablee_group(bot: TableeBot) -> app_commands.Group:
    """``/tablee bind``, ``/tablee claim``, ``/tablee seat``, ``/tablee undo``."""
    from tablee.discord.tree import described

    group = app_commands.Group(name="tablee", description=described(N_("Tablée: tables and seats")))

    async def find(interaction: discord.Interaction[Any], table: str) -> TableInfo | None:
        try:
            return bot.service.store.find_table(table)
        except TableeError as error:
            await bot.tell(interaction, error.render(translation(lang_of(interaction)).gettext))
            return None

    @group.command(
        name="bind", description=described(N_("play a table in this channel (game master)"))
    )
    @app_commands.describe(table=described(N_("the table's name")))
    async def bind(interaction: discord.Interaction[Any], table: str) -> None:
        info = await find(interaction, table)
        if info is None:
            return
        tr = translation(lang_of(interaction)).gettext
        await interaction.response.send_modal(
            LinkModal(
                tr(N_("Bind this channel")),
                tr(N_("The game master's link")),
                f"tablee:bind:{info.id}",
            )
        )

    @group.command(
        name="claim", description=described(N_("take your seat at this channel's table"))
    )
    async def claim(interaction: discord.Interaction[Any]) -> None:
        lang = lang_of(interaction)
        try:
            _, info = bot.where(interaction)
        except Refused as refusal:
            await bot.tell(interaction, refusal.render(lang))
            return
        tr = translation(lang).gettext
        await interaction.response.send_modal(
            LinkModal(
                tr(N_("Claim your seat")), tr(N_("Your player link")), f"tablee:claim:{info.id}"
            )
        )

    @group.command(
        name="seat", description=described(N_("give a player's seat to someone (game master)"))
    )
    @app_commands.describe(
        user=described(N_("who takes the seat")), player=described(N_("the player's name"))
    )
    async def seat(interaction: discord.Interaction[Any], user: discord.User, player: str) -> None:
        lang = lang_of(interaction)
        try:
            _, info = bot.where(interaction)
            if not bot.seat_of(interaction, info.id).is_gm:
                raise Refused(N_("only the game master gives seats"))
            state = bot.service.state(info.name)
            known = next((p for p in state.players if _same(p, player)), None)
            if known is None:
                raise Refused(N_("{player} is not a player of this table"), player=player)
        except Refused as refusal:
            await bot.tell(interaction, refusal.render(lang))
            return
        bot.bindings.claim(info.id, user.id, Seat("player", known))
        text = (
            translation(lang)
            .gettext(N_("{user} holds the seat of {player}."))
            .format(user=user.display_name, player=known)
        )
        await interaction.response.send_message(embed=text_embed(text, []), ephemeral=True)

    @group.command(
        name="undo", description=described(N_("undo the last event that counts (game master)"))
    )
    async def undo(interaction: discord.Interaction[Any]) -> None:
        await bot.undo(interaction, None)

    return group


def run_bot(service: TableService, token: str, guild_id: int | None = None) -> None:
    """Run the bot until stopped (Ctrl+C).

    Args:
        service: the tables.
        token: the bot's token (never printed).
        guild_id: publish the commands to this server at once (None: to every server).
    """
    TableeBot(service, guild_id=guild_id).run(token, log_handler=None)
