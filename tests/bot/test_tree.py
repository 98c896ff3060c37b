"""The generated command tree passes discord.py's validation and Discord's documented limits."""

from __future__ import annotations

import asyncio
from typing import Any

import discord
import pytest
from discord import app_commands

from tablee.discord.tree import CatalogTranslator, add_game_groups

GAMES = ("pouyss", "shs", "ybs", "agents")


class _Nobody:
    async def run_declared(self, *args: Any) -> None:
        raise AssertionError("not run")

    async def complete(self, *args: Any) -> list[Any]:
        return []


def _tree() -> app_commands.CommandTree[Any]:
    async def make() -> app_commands.CommandTree[Any]:
        client = discord.Client(intents=discord.Intents(guilds=True))
        tree: app_commands.CommandTree[Any] = app_commands.CommandTree(client)
        assert tuple(add_game_groups(tree, _Nobody())) == GAMES
        await tree.set_translator(CatalogTranslator())
        return tree

    return asyncio.run(make())


def _payloads() -> dict[str, dict[str, Any]]:
    tree = _tree()

    async def translated() -> dict[str, dict[str, Any]]:
        out = {}
        for command in tree.get_commands():
            command.to_dict(tree)  # discord.py's own payload, untranslated
            out[command.name] = await command.get_translated_payload(tree, CatalogTranslator())
        return out

    return asyncio.run(translated())


def _valid_name(name: str) -> bool:
    return (
        1 <= len(name) <= 32
        and all(ch.isalnum() or ch in "-_" for ch in name)
        and name == name.lower()
    )


def _texts(item: dict[str, Any], key: str) -> list[str]:
    return [item[key], *(item.get(key + "_localizations") or {}).values()]


def _check_option(option: dict[str, Any], depth: int, problems: list[str], where: str) -> None:
    here = f"{where} {option['name']}"
    if not _valid_name(option["name"]):
        problems.append(f"{here}: name")
    for text in _texts(option, "description"):
        if not 1 <= len(text) <= 100:
            problems.append(f"{here}: description of {len(text)} characters")
    children = option.get("options") or []
    if len(children) > 25:
        problems.append(f"{here}: {len(children)} options")
    if option["type"] in (1, 2):  # a subcommand or a group
        if option["type"] == 2 and depth >= 2:
            problems.append(f"{here}: nested too deep")
        required = [bool(c.get("required")) for c in children if c["type"] not in (1, 2)]
        if required != sorted(required, reverse=True):
            problems.append(f"{here}: a required option after an optional one")
        for child in children:
            _check_option(child, depth + 1, problems, here)
        return
    choices = option.get("choices") or []
    if len(choices) > 25:
        problems.append(f"{here}: {len(choices)} choices")
    for choice in choices:
        if any(not 1 <= len(t) <= 100 for t in _texts(choice, "name")):
            problems.append(f"{here}: a choice's name")
        if len(str(choice["value"])) > 100:
            problems.append(f"{here}: a choice's value")
    if option.get("max_length", 0) > 6000:
        problems.append(f"{here}: max_length")
    for bound in ("min_value", "max_value"):
        if abs(option.get(bound) or 0) > 2**53:
            problems.append(f"{here}: {bound}")


def _characters(item: dict[str, Any], locale: str | None) -> int:
    """Discord's count: names, descriptions and values of a command and all it holds."""
    total = 0
    for key in ("name", "description", "value"):
        if key in item:
            localised = (item.get(key + "_localizations") or {}).get(locale or "")
            total += len(str(localised or item[key]))
    for key in ("options", "choices"):
        total += sum(_characters(child, locale) for child in item.get(key) or [])
    return total


PAYLOADS = _payloads()


@pytest.mark.parametrize("game", GAMES)
def test_every_game_fits_discords_limits(game: str) -> None:
    payload = PAYLOADS[game]
    problems: list[str] = []
    _check_option({**payload, "type": 1}, 0, problems, "")
    assert not problems, problems
    assert 1 <= len(payload["options"]) <= 25
    for locale in (None, "fr"):
        assert _characters(payload, locale) <= 8000


def test_french_descriptions_come_from_the_catalogs() -> None:
    roll = next(o for o in PAYLOADS["pouyss"]["options"] if o["name"] == "roll")
    bonus = next(o for o in roll["options"] if o["name"] == "bonus")
    assert bonus["description"] == "bonus dice asked for"
    assert bonus["description_localizations"]["fr"] != bonus["description"]
    assert "name_localizations" not in bonus or not bonus["name_localizations"]


def test_two_word_commands_nest_once_and_rolls_take_faces_and_visibility() -> None:
    ybs = {o["name"]: o for o in PAYLOADS["ybs"]["options"]}
    assert ybs["gang"]["type"] == 2
    throw = next(o for o in ybs["gang"]["options"] if o["name"] == "throw")
    names = [o["name"] for o in throw["options"]]
    assert {"faces", "faces_gm", "visibility"} <= set(names)
    test = {o["name"]: o for o in ybs["test"]["options"]}
    assert test["character"].get("autocomplete") is True
    assert [c["value"] for c in test["visibility"]["choices"]] == ["all", "roller_and_gm", "gm"]
