"""``tablee agents ...``: agents, challenges, actions, recovery, winners, the tables.

Source: seed 002; rulings G-M1 to G-M8, G-A6 to G-A13.
"""

from __future__ import annotations

from typing import Any

from tablee.cli.agents.common import (
    Dice,
    Tr,
    add_dice,
    execute,
    game_of,
    head,
    names,
    quest_word,
    state_of,
    word,
)
from tablee.cli.agents.sheets import action_json, agent_lines, challenge_lines
from tablee.cli.agents.sheets import esc as _esc
from tablee.cli.app import Context, add_common, whole_number
from tablee.cli.render import fraction_text
from tablee.errors import N_, InputError

__all__ = ["BUILDERS", "action_json", "agent_lines", "challenge_lines"]


# --- agents ----------------------------------------------------------------------------------


def cmd_agent(ctx: Context) -> int:
    """``tablee agents agent``: create an agent (G-M1)."""
    from tablee.systems.agents import agent_json, decide_agent

    a = ctx.args
    applied = execute(
        ctx,
        lambda g: decide_agent(
            g,
            name=a.name,
            muscles=a.muscles,
            sexe=a.sexe,
            intelligence=a.intelligence,
            organisation=a.organisation or "",
            signature=a.signature or "",
            owner=a.player,
        ),
    )
    name = applied.decision.outcome.name
    doc = agent_json(game_of(applied.state), name)
    if ctx.json:
        ctx.emit_json({**head(applied), "agent": {"name": name, **doc}})
        return 0
    ctx.emit(
        "\n".join(
            [ctx.tr("Agent {name} created.").format(name=_esc(name)), *agent_lines(ctx, name, doc)]
        )
    )
    return 0


def cmd_show(ctx: Context) -> int:
    """``tablee agents show``: the agents, the open challenges and the quest."""
    from tablee.systems.agents import AGENTS

    name, game = state_of(ctx)
    summary = AGENTS.summary(game)
    if ctx.json:
        ctx.emit_json({"table": name, **summary})
        return 0
    lines: list[str] = []
    for agent, doc in summary["agents"].items():
        lines += agent_lines(ctx, agent, doc)
    for doc in summary["challenges"]:
        lines += challenge_lines(ctx, doc)
    quest = summary["quest"]
    if quest is not None:
        lines.append(quest_line(ctx, quest))
    ctx.emit("\n".join(lines) or ctx.tr("No agent yet."))
    return 0


def quest_line(ctx: Context, quest: dict[str, Any]) -> str:
    """The quest in one line: index, status, objective once revealed."""
    objective = quest["objective"] or ctx.tr("secret until the index reaches 1")
    return ctx.tr("Quest: progress index {progress}, {status}; objective: {objective}").format(
        progress=quest["progress"],
        status=quest_word(ctx.tr, quest["status"]),
        objective=_esc(objective),
    )


# --- challenges ------------------------------------------------------------------------------


def _opposition(text: str) -> tuple[str, int]:
    name, sep, score = text.rpartition(":")
    digits = score.strip()
    if not sep or not name.strip() or not (digits.isascii() and digits.isdigit()):
        raise InputError(
            N_('--opposition {value!r}: expected NAME:SCORE, e.g. "Cha\'zana and her army:6"'),
            value=text,
        )
    return name.strip(), int(digits)


def cmd_challenge(ctx: Context) -> int:
    """``tablee agents challenge``: open a challenge by hand (G-M2, G-A7)."""
    from tablee.systems.agents import challenge_json, decide_challenge

    a = ctx.args
    oppositions = [_opposition(o) for o in a.opposition]
    applied = execute(
        ctx,
        lambda g: decide_challenge(
            g,
            kind=a.type,
            agents=names(a.agents),
            oppositions=oppositions,
            label=a.label or "",
        ),
    )
    doc = challenge_json(applied.decision.outcome)
    if ctx.json:
        ctx.emit_json({**head(applied), "challenge": doc})
        return 0
    ctx.emit("\n".join(challenge_lines(ctx, doc)))
    return 0


def _pick_challenge(game: Any, number: int | None, agent: str | None) -> int:
    from tablee.systems.agents import agent_named, open_challenges

    if number is not None:
        return number
    who = None if agent is None else agent_named(game, agent)
    candidates = open_challenges(game, who)
    if len(candidates) != 1:
        raise InputError(
            N_("say which challenge with --challenge: {count} are open"),
            tip=N_("open challenges: {known}"),
            count=len(candidates),
            known=", ".join(str(c.number) for c in candidates) or "-",
        )
    return candidates[0].number


def cmd_act(ctx: Context) -> int:
    """``tablee agents act``: an agent acts in a challenge, one d6 (G-M4)."""
    from tablee.systems.agents import challenge_numbered, decide_action, next_actor

    a = ctx.args
    _, game = state_of(ctx)
    number = _pick_challenge(game, a.challenge, a.agent)
    current = challenge_numbered(game, number)  # an unknown number is named first
    agent = a.agent
    if agent is None:
        # nobody is due in a finished challenge: the decision then says it is over
        agent = next_actor(current) or (None if current.is_open else current.agents[0])
    if agent is None:
        raise InputError(N_("say who acts with --agent"))
    dice = Dice(ctx)
    face = dice.roll()[0]
    dice.finish()
    applied = execute(
        ctx,
        lambda g: decide_action(
            g,
            challenge=number,
            agent=agent,
            modifiers=a.modifier or [],
            face=face,
            target=a.target,
            declaration=a.declaration or "",
        ),
    )
    doc = action_json(applied)
    if a.odds:
        doc["odds"] = _odds_doc(doc["modifier"])
    if ctx.json:
        ctx.emit_json(doc)
        return 0
    ctx.emit("\n".join(action_lines(ctx, applied, doc)))
    return 0


def _odds_doc(modifier: int) -> dict[str, str]:
    from tablee.systems.agents import Result, action_distribution

    dist = action_distribution(modifier)
    return {result.value: fraction_text(dist.probability(result)) for result in Result}


OUTCOME_STYLE = {"critical": "bold green", "success": "green", "failure": "red"}


def action_lines(ctx: Context, applied: Any, doc: dict[str, Any]) -> list[str]:
    """An action for people: head, the trace, the opposition and reserve after, the end."""
    from tablee.cli.render import format_trace

    outcome = doc["outcome"]
    title = ctx.tr("{agent} acts in challenge {number}").format(
        agent=_esc(doc["agent"]), number=doc["challenge"]
    )
    lines = [f"[bold]{title}[/]"]
    if doc.get("odds"):
        lines.append(
            ctx.tr(
                "Odds before rolling: critical {critical}, success {success}, failure {failure}"
            ).format(**doc["odds"])
        )
    lines.append(format_trace(applied.decision.outcome.trace, ctx.tr))
    lines.append(f"[{OUTCOME_STYLE[outcome]}]{word(ctx.tr, outcome)}[/]")
    lines.append(
        ctx.tr("{opposition}: score {score}; {agent}'s {kind}: {reserve}").format(
            opposition=_esc(doc["opposition"]),
            score=doc["score"],
            agent=_esc(doc["agent"]),
            kind=doc["kind"].capitalize(),
            reserve=doc["reserve"],
        )
    )
    state = doc["state"]
    if state["outcome"] == "won":
        lines.append("[bold green]" + ctx.tr("The agents win the challenge.") + "[/]")
    elif state["outcome"] == "lost":
        lines.append("[bold red]" + ctx.tr("The opposition wins the challenge.") + "[/]")
    elif state["next"]:
        lines.append(ctx.tr("next to act: {agent}").format(agent=_esc(state["next"])))
    return lines


def _leave(decide_name: str) -> Any:
    def command(ctx: Context) -> int:
        from tablee.systems import agents

        a = ctx.args
        _, game = state_of(ctx)
        number = _pick_challenge(game, a.challenge, a.agent)
        decide = getattr(agents, decide_name)
        applied = execute(ctx, lambda g: decide(g, challenge=number, agent=a.agent))
        p = applied.events[-1].payload
        if ctx.json:
            ctx.emit_json({**head(applied), **p})
            return 0
        ctx.emit(_event_text(ctx, applied))
        return 0

    return command


def _event_text(ctx: Context, applied: Any) -> str:
    event = applied.events[-1]
    return _esc(applied.state.system.describe(event.kind, event.payload, None).render(ctx.tr))


def cmd_fail(ctx: Context) -> int:
    """``tablee agents fail``: fail on purpose outside challenges, +1 reserve (G-M7)."""
    from tablee.systems.agents import decide_fail_on_purpose

    a = ctx.args
    applied = execute(
        ctx,
        lambda g: decide_fail_on_purpose(
            g, agent=a.agent, reserve=a.reserve, reason=a.reason or ""
        ),
    )
    if ctx.json:
        ctx.emit_json({**head(applied), **applied.events[-1].payload})
        return 0
    ctx.emit(_event_text(ctx, applied))
    return 0


def cmd_winner(ctx: Context) -> int:
    """``tablee agents winner``: name a won challenge's winner (G-M6, G-A12)."""
    from tablee.systems.agents import decide_winner

    a = ctx.args
    applied = execute(ctx, lambda g: decide_winner(g, challenge=a.challenge, agent=a.agent))
    if ctx.json:
        ctx.emit_json({**head(applied), **applied.events[-1].payload})
        return 0
    ctx.emit(_event_text(ctx, applied))
    return 0


def cmd_checklist(ctx: Context) -> int:
    """``tablee agents checklist``: each challenge type's modifiers (G-N2, G-A6)."""
    from tablee.systems.agents import CHECKLISTS, EXCLUSIVE, Reserve, modifier_range, reserve_named

    kinds = [reserve_named(ctx.args.type)] if ctx.args.type else list(Reserve)
    if ctx.json:
        ctx.emit_json(
            {
                k.value: {
                    "modifiers": [
                        {"id": m.id, "value": m.value, "label": ctx.tr(m.label)}
                        for m in CHECKLISTS[k]
                    ],
                    "exclusive": [sorted(g) for g in EXCLUSIVE[k]],
                    "range": list(modifier_range(k)),
                }
                for k in kinds
            }
        )
        return 0
    lines = []
    for kind in kinds:
        low, high = modifier_range(kind)
        lines.append(f"[bold]{kind.title}[/] ({low:+d}..{high:+d})")
        for m in CHECKLISTS[kind]:
            lines.append(f"  {m.id:<12} {m.value:+d}  {ctx.tr(m.label)}")
        for group in EXCLUSIVE[kind]:
            lines.append("  " + ctx.tr("not together: {ids}").format(ids=" + ".join(sorted(group))))
    ctx.emit("\n".join(lines))
    return 0


def cmd_tables(ctx: Context) -> int:
    """``tablee agents tables``: check a folder of generator tables, or show the starters."""
    from pathlib import Path

    from tablee.systems.agents import TableKind
    from tablee.systems_io.agents_tables import load_table_file, load_tables, starter_tables

    a = ctx.args
    if a.path:
        path = Path(a.path)
        if path.is_dir():
            tables = load_tables(path)
            found = [tables.table(k) for k in TableKind]
        else:
            found = [load_table_file(path)]
    else:
        tables = starter_tables(a.starter or ("fr" if ctx.lang == "fr" else "en"))
        found = [tables.table(k) for k in TableKind]
    if ctx.json:
        ctx.emit_json(
            [
                {
                    "source": t.source,
                    "die": t.die.name,
                    "entries": [{"low": e.low, "high": e.high, "text": e.text} for e in t.entries],
                }
                for t in found
            ]
        )
        return 0
    lines = []
    for table in found:
        lines.append(
            ctx.tr("{source} ({die}): valid").format(
                source=f"[bold]{_esc(table.source)}[/]", die=table.die.name
            )
        )
        if a.list:
            for e in table.entries:
                faces = str(e.low) if e.low == e.high else f"{e.low}-{e.high}"
                lines.append(f"  {faces:>5} | {_esc(e.text)}")
    ctx.emit("\n".join(lines))
    return 0


# --- the parsers -----------------------------------------------------------------------------


def _add_agent(cmds: Any, tr: Tr) -> None:
    p = cmds.add_parser("agent", help=tr("create an agent: Sang 3, reserves 7, 5, 3 (G-M1)"))
    p.add_argument("--name", required=True, help=tr("the agent's name"))
    for flag, name in (
        ("--muscles", "Muscles"),
        ("--sexe", "Sexe"),
        ("--intelligence", "Intelligence"),
    ):
        p.add_argument(
            flag,
            type=whole_number(tr),
            required=True,
            metavar="7|5|3",
            help=tr("{reserve}: 7, 5 or 3, each value once (G-M1)").format(reserve=name),
        )
    p.add_argument("--organisation", metavar="TEXT", help=tr("the agency or organisation"))
    p.add_argument("--signature", metavar="TEXT", help=tr("the signature object (no effect)"))
    p.add_argument("--player", help=tr("the player who plays the agent"))
    add_common(p, tr)
    p.set_defaults(handler=cmd_agent)


def _add_show(cmds: Any, tr: Tr) -> None:
    p = cmds.add_parser("show", help=tr("the agents, the open challenges and the quest"))
    add_common(p, tr)
    p.set_defaults(handler=cmd_show)


def _add_challenge(cmds: Any, tr: Tr) -> None:
    p = cmds.add_parser("challenge", help=tr("open a challenge by hand (G-M2)"))
    p.add_argument("--type", required=True, help=tr("Muscles, Sexe or Intelligence"))
    p.add_argument(
        "--agents", required=True, metavar="A,B", help=tr("involved agents, in turn order (G-A20)")
    )
    p.add_argument(
        "--opposition",
        action="append",
        required=True,
        metavar="NAME:SCORE",
        help=tr("an opposition and its score; repeat for several (G-A7)"),
    )
    p.add_argument("--label", metavar="TEXT", help=tr("a short description"))
    add_common(p, tr)
    p.set_defaults(handler=cmd_challenge)


def _add_act(cmds: Any, tr: Tr) -> None:
    p = cmds.add_parser("act", help=tr("an agent acts in a challenge: 1d6 + modifiers (G-M4)"))
    p.add_argument(
        "--challenge", type=whole_number(tr), metavar="N", help=tr("the challenge's number")
    )
    p.add_argument("--agent", help=tr("who acts (default: the agent due)"))
    p.add_argument(
        "--modifier",
        action="append",
        metavar="ID",
        help=tr(
            "a modifier ticked on the type's checklist (ids: tablee agents checklist); "
            "repeatable (G-N2)"
        ),
    )
    p.add_argument(
        "--target",
        type=whole_number(tr),
        metavar="K",
        help=tr("the opposition targeted, from 1 (G-A7)"),
    )
    p.add_argument("--declaration", metavar="TEXT", help=tr("the action as declared (G-M3)"))
    p.add_argument("--odds", action="store_true", help=tr("show the exact odds first"))
    add_dice(p, tr)
    add_common(p, tr)
    p.set_defaults(handler=cmd_act)


def _add_leave(cmds: Any, tr: Tr, name: str, help_text: str, decide: str) -> None:
    p = cmds.add_parser(name, help=tr(help_text))
    p.add_argument(
        "--challenge", type=whole_number(tr), metavar="N", help=tr("the challenge's number")
    )
    p.add_argument("--agent", required=True, help=tr("the agent"))
    add_common(p, tr)
    p.set_defaults(handler=_leave(decide))


def _add_concede(cmds: Any, tr: Tr) -> None:
    _add_leave(
        cmds,
        tr,
        "concede",
        N_("give a challenge up before it begins: reserve restored (G-M8)"),
        "decide_concede",
    )


def _add_abandon(cmds: Any, tr: Tr) -> None:
    _add_leave(
        cmds,
        tr,
        "abandon",
        N_("leave a challenge in progress: points left doubled (G-M8)"),
        "decide_abandon",
    )


def _add_fail(cmds: Any, tr: Tr) -> None:
    p = cmds.add_parser("fail", help=tr("fail on purpose outside challenges: +1 reserve (G-M7)"))
    p.add_argument("--agent", required=True, help=tr("the agent"))
    p.add_argument("--reserve", required=True, help=tr("Muscles, Sexe or Intelligence"))
    p.add_argument("--reason", metavar="TEXT", help=tr("a note kept in the log"))
    add_common(p, tr)
    p.set_defaults(handler=cmd_fail)


def _add_winner(cmds: Any, tr: Tr) -> None:
    p = cmds.add_parser("winner", help=tr("name a won challenge's winner (G-M6)"))
    p.add_argument(
        "--challenge",
        type=whole_number(tr),
        required=True,
        metavar="N",
        help=tr("the challenge's number"),
    )
    p.add_argument(
        "--agent", help=tr("the agent whose action marked the scene (default: most points spent)")
    )
    add_common(p, tr)
    p.set_defaults(handler=cmd_winner)


def _add_checklist(cmds: Any, tr: Tr) -> None:
    p = cmds.add_parser("checklist", help=tr("each challenge type's modifiers (G-N2)"))
    p.add_argument("--type", help=tr("Muscles, Sexe or Intelligence (default: all)"))
    add_common(p, tr, table=False)
    p.set_defaults(handler=cmd_checklist)


def _add_tables(cmds: Any, tr: Tr) -> None:
    p = cmds.add_parser(
        "tables", help=tr("check generator table files, or show the starter tables (G-A13)")
    )
    p.add_argument("path", nargs="?", help=tr("a table file, or a folder with the four tables"))
    p.add_argument("--starter", choices=("fr", "en"), help=tr("the starter tables' language"))
    p.add_argument("--list", action="store_true", help=tr("list the entries"))
    add_common(p, tr, table=False)
    p.set_defaults(handler=cmd_tables)


BUILDERS = {
    "agent": _add_agent,
    "show": _add_show,
    "challenge": _add_challenge,
    "act": _add_act,
    "concede": _add_concede,
    "abandon": _add_abandon,
    "fail": _add_fail,
    "winner": _add_winner,
    "checklist": _add_checklist,
    "tables": _add_tables,
}
"""Each ``tablee agents`` command (but ``play``) and the function adding its parser."""
