"""Golden playthrough: a whole agents adventure without a game master, seeded and scripted.

The adventure goes through the service with a fixed clock and seeded dice: the quest drawn
from the starter tables, each scene's challenge generated (one scene split into two groups),
every action declared with ticked modifiers, winners named, consequences applied, then the
artefact contest. The transcript (both languages) and the JSON Lines export are diffed with
the files here; the exported log is imported again and must fold to the same game.
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

from tablee.dice import D6, SeededSource
from tablee.locale import translation
from tablee.systems import agents as ag
from tablee.systems_io.agents_tables import starter_tables
from tablee.table.service import TableService
from tablee.table.sqlite_store import SqliteStore
from tablee.table.transcript import parse_jsonl, to_jsonl, to_markdown
from tests.golden.golden import check_golden, ticking

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

    def run(decide: Any) -> Any:
        return service.execute(NAME, lambda s: decide(s.game), lambda d: d.facts).decision.outcome

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
            lambda g, n=name, m=m, s=s, i=i, o=org, x=sig, w=owner: ag.decide_agent(
                g, name=n, muscles=m, sexe=s, intelligence=i, organisation=o, signature=x, owner=w
            )
        )
    run(
        lambda g: ag.decide_quest(
            g, tables=tables, source="starter:fr", face=roll(1, tables.objectives.die)[0]
        )
    )
    run(lambda g: ag.decide_draw(g, table="environments", face=roll(1, tables.environments.die)[0]))
    split_done = False
    ticks = 0
    for _ in range(500):
        game = service.state(NAME).game
        step = ag.next_step(game)
        kind = step.kind
        if kind is ag.StepKind.DONE:
            return
        if kind is ag.StepKind.START_SCENE:
            run(ag.decide_scene)
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
                entry = run(
                    lambda g, t=table: ag.decide_draw(
                        g, table=t, face=roll(1, tables.table(ag.TableKind(t)).die)[0]
                    )
                )
                run(
                    lambda g, gr=group, f=faces, o=entry.entry.text: ag.decide_generate(
                        g, agents=gr, faces=f, opposition=o
                    )
                )
        elif kind is ag.StepKind.ACT:
            challenge = game.challenges[step.challenge]
            checklist = ag.CHECKLISTS[challenge.kind]
            ticks += 1
            ticked = [checklist[ticks % len(checklist)].id] if ticks % 3 else []
            run(
                lambda g, c=step.challenge, a=step.agent, t=ticked, k=challenge.kind.value: (
                    ag.decide_action(
                        g,
                        challenge=c,
                        agent=a,
                        modifiers=t,
                        face=roll()[0],
                        declaration=DECLARATIONS[k],
                    )
                )
            )
        elif kind is ag.StepKind.NAME_WINNER:
            run(
                lambda g, c=step.challenge, w=step.candidates[-1]: ag.decide_winner(
                    g, challenge=c, agent=w
                )
            )
        elif kind is ag.StepKind.CONSEQUENCE:
            result = run(lambda g, c=step.challenge: ag.decide_consequence(g, challenge=c))
            if result.helped:
                run(lambda g: ag.decide_draw(g, table="boons", face=roll(1, tables.boons.die)[0]))
        elif kind is ag.StepKind.START_CONTEST:
            wins = game.quest.wins_by_name()
            best = [n for n, w in wins.items() if w == max(wins.values())]
            run(lambda g, f=best[0]: ag.decide_contest_start(g, favori=f))
        elif kind is ag.StepKind.CONTEST_CHALLENGE:
            contest = game.contest
            wanting = [
                n for n in game.agents if n != contest.holder and n not in contest.challenged
            ][:1]
            if not wanting or contest.bouts >= 2:
                run(lambda g: ag.decide_contest_close(g))
            else:
                run(
                    lambda g, w=wanting: ag.decide_contest_challenge(
                        g, challengers=w, attribute="sexe", wanting=w
                    )
                )
        elif kind is ag.StepKind.SETTLE_BOUT:
            run(lambda g, c=step.challenge: ag.decide_contest_settle(g, challenge=c))
        else:
            raise AssertionError(step)
    raise AssertionError("the adventure did not end")


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    store = SqliteStore(tmp_path_factory.mktemp("golden") / "golden.sqlite3")
    try:
        ticks = clock()
        service = TableService(store, clock=lambda: next(ticks))
        play(service)
        state = service.state(NAME)
        jsonl = to_jsonl(state)
        imported = service.import_log(parse_jsonl(jsonl), name="copie")
        return {
            "state": state,
            "imported": imported,
            "agents_adventure.fr.md": to_markdown(state, translation("fr").gettext),
            "agents_adventure.en.md": to_markdown(state, translation("en").gettext),
            "agents_adventure.jsonl": jsonl.replace(state.table_id, "TABLE-ID"),
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
