"""How the ``tablee agents`` commands show an agent, a challenge and an action.

Pure functions of stored documents (the JSON the systems give) returning Rich markup lines
or a JSON document; the commands print them.

Source: seed 002; rulings G-M1 to G-M6.
"""

from __future__ import annotations

from typing import Any

from tablee.cli.agents.common import game_of, head, word
from tablee.cli.app import Context

__all__ = ["action_json", "agent_lines", "challenge_lines", "esc"]


def esc(text: object) -> str:
    """Text with Rich markup escaped (names may hold brackets)."""
    from rich.markup import escape

    return escape(str(text))


def agent_lines(ctx: Context, name: str, doc: dict[str, Any]) -> list[str]:
    """An agent's sheet for people: name, organisation, reserves now/start, Sang, wins."""
    reserves = ", ".join(
        f"{r.title} {doc[r.value]}/{doc['starting'][r.value]}" for r in _reserves()
    )
    extra = f" ({esc(doc['organisation'])})" if doc["organisation"] else ""
    lines = [f"[bold]{esc(name)}[/]{extra}", f"  {reserves}, Sang {doc['sang']}"]
    if doc["signature"]:
        lines.append("  " + ctx.tr("signature object: {text}").format(text=esc(doc["signature"])))
    lines.append("  " + ctx.tr("challenges won: {count}").format(count=doc["wins"]))
    return lines


def _reserves() -> Any:
    from tablee.systems.agents import Reserve

    return list(Reserve)


def challenge_lines(ctx: Context, doc: dict[str, Any]) -> list[str]:
    """A challenge for people: type, oppositions, agents and standings, whose turn."""
    from tablee.systems.agents import reserve_named

    title = ctx.tr("Challenge {number} ({kind})").format(
        number=doc["number"], kind=reserve_named(doc["kind"]).title
    )
    lines = [f"[bold]{title}[/]" + (f" {esc(doc['label'])}" if doc["label"] else "")]
    for index, o in enumerate(doc["oppositions"], start=1):
        score = ctx.tr("{name}: {score}/{start}").format(
            name=esc(o["name"]), score=o["score"], start=o["start"]
        )
        lines.append(f"  {index}. {score}")
    agents = ", ".join(
        f"{esc(a['name'])} ({word(ctx.tr, a['standing'])}, {a['spent']})" for a in doc["agents"]
    )
    lines.append("  " + ctx.tr("agents (standing, points spent): {agents}").format(agents=agents))
    if doc["outcome"] is None:
        lines.append("  " + ctx.tr("next to act: {agent}").format(agent=esc(doc["next"])))
    else:
        lines.append("  " + ctx.tr("over: {outcome}").format(outcome=word(ctx.tr, doc["outcome"])))
    return lines


def action_json(applied: Any) -> dict[str, Any]:
    """An action for ``--json``: the die, face, modifier, result, outcome, score, reserves."""
    from tablee.systems.agents import agent_json, challenge_json

    event = applied.events[-1]
    p = event.payload
    game = game_of(applied.state)
    sheet = agent_json(game, p["agent"])
    return {
        **head(applied),
        "challenge": p["challenge"],
        "agent": p["agent"],
        "kind": p["kind"],
        "declaration": p["declaration"],
        "modifiers": p["modifiers"],
        "die": p["die"],
        "face": p["face"],
        "modifier": p["modifier"],
        "result": p["total"],
        "outcome": p["outcome"],
        "opposition": p["opposition"],
        "score": p["score"],
        "reserve": p["reserve"],
        "reserves": {r.value: sheet[r.value] for r in _reserves()},
        "ended": p["ended"],
        "state": challenge_json(game.challenges[p["challenge"]]),
    }
