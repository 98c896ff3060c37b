"""Golden playthrough: a whole agents adventure without a game master, seeded and scripted.

The adventure goes through the service with a fixed clock and seeded dice, each step one of
the game's declared commands: the quest drawn from the starter tables, each scene's
challenge generated (one scene split into two groups), every action declared with ticked
modifiers, winners named, consequences applied, then the artefact contest. The files were
written by Tablée 0.1.0's rule functions: the plugin gives them byte for byte, but for the
actions, at version 2 since they record the odds shown before their roll (and so every
link of the hash chain after the first action). The
transcript (both languages) and the JSON Lines export are diffed with the files here; the
exported log is imported again and must fold to the same game.
Regenerate after an intended change with
``TABLEE_UPDATE_GOLDEN=1 python -m pytest tests/golden/test_golden_agents.py`` and read the
diff before committing it.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from tablee.dice import D6, SeededSource, TypedFaces
from tablee.locale import translation
from tablee.systems import agents as ag
from tablee.systems.agents import commands as cmd
from tablee.systems.agents.starters import starter_tables
from tablee.table.service import TableService
from tablee.table.transcript import to_markdown
from tests.golden.golden import check_golden, golden_store, stable_export, ticking

HERE = Path(__file__).parent
NAME = "Opération Valadyn"
DECLARATIONS = {
    "muscles": "I leap from the chandelier onto the biggest guard",
    "sexe": "Is that a compass in your pocket, or are you glad to see me?",
    "intelligence": "I knew they would guard the door, so I came through the roof",
}


def clock() -> Iterator[datetime]:
    return ticking(datetime(2026, 11, 29, 21, 0, tzinfo=UTC), timedelta(minutes=1))


def play(service: TableService) -> None:
    dice = SeededSource(2026)
    tables = starter_tables("fr")

    def run(command: Any, *faces: int) -> Any:
        return service.run_command(NAME, command, TypedFaces(faces)).decision.outcome

    def roll(count: int = 1, die: Any = D6) -> list[int]:
        return list(dice.roll(die, count))

    service.create(system="agents", name=NAME, players=["Ana", "Bo", "Cy"], lang="fr")
    team = (
        ("Vega", 7, 5, 3, "Bureau 9", "un briquet d'argent", "Ana"),
        ("Orso", 3, 7, 5, "Ordre du Lotus", "une montre à gousset", "Bo"),
        ("Lune", 5, 3, 7, "Agence Zéro", "un carnet chiffré", "Cy"),
    )
    for name, m, s, i, org, sig, owner in team:
        run(
            cmd.CreateAgent(
                name_=name,
                muscles=m,
                sexe=s,
                intelligence=i,
                organisation=org,
                signature=sig,
                owner=owner,
            )
        )
    run(cmd.Quest(starter="fr"), *roll(1, tables.objectives.die))
    run(cmd.Draw(kind="environments"), *roll(1, tables.environments.die))
    split_done = False
    ticks = 0
    for _ in range(500):
        game = service.state(NAME).game
        step = ag.next_step(game)
        kind = step.kind
        if kind is ag.StepKind.DONE:
            return
        if kind is ag.StepKind.START_SCENE:
            run(cmd.NextScene())
        elif kind is ag.StepKind.GENERATE:
            present = [n for n in game.agents if n not in game.quest.sitting_out]
            groups = [present]
            if not split_done and len(present) == 3:
                groups, split_done = [present[:2], present[2:]], True
            for group in groups:
                inputs = ag.ChallengeInputs(service.state(NAME).game.quest.progress, len(group))
                faces = roll(ag.CHALLENGE_GENERATOR.dice_for(inputs).count)
                source = ag.CHALLENGE_GENERATOR.resolve(inputs, faces).source.value
                table = "creatures" if source == "creatures" else "environments"
                entry = run(cmd.Draw(kind=table), *roll(1, tables.table(ag.TableKind(table)).die))
                run(cmd.Generate(agents=tuple(group), opposition=entry.entry.text), *faces)
        elif kind is ag.StepKind.ACT:
            challenge = game.challenges[step.challenge]
            checklist = ag.CHECKLISTS[challenge.kind]
            ticks += 1
            ticked = (checklist[ticks % len(checklist)].id,) if ticks % 3 else ()
            act = cmd.Act(
                challenge=step.challenge,
                agent=step.agent,
                modifiers=ticked,
                declaration=DECLARATIONS[challenge.kind.value],
            )
            run(act, *roll())
        elif kind is ag.StepKind.NAME_WINNER:
            run(cmd.NameWinner(challenge=step.challenge, agent=step.candidates[-1]))
        elif kind is ag.StepKind.CONSEQUENCE:
            result = run(cmd.Settle(challenge=step.challenge))
            if result.helped:
                run(cmd.Draw(kind="boons"), *roll(1, tables.boons.die))
        elif kind is ag.StepKind.START_CONTEST:
            wins = game.quest.wins_by_name()
            best = [n for n, w in wins.items() if w == max(wins.values())]
            run(cmd.ContestStart(favori=best[0]))
        elif kind is ag.StepKind.CONTEST_CHALLENGE:
            contest = game.contest
            wanting = [
                n for n in game.agents if n != contest.holder and n not in contest.challenged
            ][:1]
            if not wanting or contest.bouts >= 2:
                run(cmd.ContestClose())
            else:
                run(
                    cmd.ContestChallenge(
                        challengers=tuple(wanting), attribute="sexe", wanting=tuple(wanting)
                    )
                )
        elif kind is ag.StepKind.SETTLE_BOUT:
            run(cmd.ContestSettle(challenge=step.challenge))
        else:
            raise AssertionError(step)
    raise AssertionError("the adventure did not end")


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    store = golden_store(tmp_path_factory.mktemp("golden") / "golden.sqlite3")
    try:
        ticks = clock()
        service = TableService(store, clock=lambda: next(ticks))
        play(service)
        state = service.state(NAME)
        jsonl = service.export_jsonl(NAME)
        imported = service.import_jsonl(jsonl, name="copie")
        assert imported.verified and imported.why is None
        return {
            "state": state,
            "imported": imported.state,
            "agents_adventure.fr.md": to_markdown(state, translation("fr").gettext),
            "agents_adventure.en.md": to_markdown(state, translation("en").gettext),
            "agents_adventure.jsonl": stable_export(jsonl, state.table_id),
        }
    finally:
        store.close()


@pytest.mark.parametrize(
    "name", ["agents_adventure.fr.md", "agents_adventure.en.md", "agents_adventure.jsonl"]
)
def test_transcript_matches_the_golden_file(played: dict[str, Any], name: str) -> None:
    check_golden(HERE / name, played[name])


def test_the_adventure_reaches_its_end_and_replays(played: dict[str, Any]) -> None:
    game = played["state"].game
    assert game.quest.status in (ag.QuestStatus.WON, ag.QuestStatus.FAILED)
    assert ag.next_step(game).kind is ag.StepKind.DONE
    assert played["imported"].game == game
    kinds = {e.kind for e in played["state"].events}
    assert {"agents.challenge_generated", "agents.action", "agents.consequence_applied"} <= kinds
