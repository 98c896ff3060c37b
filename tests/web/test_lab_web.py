"""The designer's lab in the browser: its list, a question's form, charts, figures, downloads."""

from __future__ import annotations

import base64
import json
import re
import threading
from collections.abc import Iterator
from concurrent.futures import Executor, ThreadPoolExecutor

import pytest
from fastapi.testclient import TestClient

from tablee.errors import N_, InputError
from tablee.lab.questions import QUESTIONS
from tablee.table.sqlite_store import SqliteStore
from tablee.web import Settings, create_app
from tablee.web import lab as web_lab


@pytest.fixture
def threads(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Answer in a thread of this process instead of spawned processes (faster to start)."""
    pool = ThreadPoolExecutor(1)
    monkeypatch.setattr(web_lab.LabPool, "_pool", lambda self: pool)
    yield
    pool.shutdown()


def _client(store: SqliteStore, **settings: object) -> TestClient:
    app = create_app(store, Settings(rate_limit="1000/second", **settings))  # type: ignore[arg-type]
    return TestClient(app, raise_server_exceptions=False)


@pytest.fixture
def web(store: SqliteStore, threads: None) -> Iterator[TestClient]:
    with _client(store) as client:
        yield client


def test_the_lab_lists_every_question_and_the_home_page_links_it(web: TestClient) -> None:
    page = web.get("/lab", headers={"Accept-Language": "fr-FR"})
    assert page.status_code == 200
    assert 'href="/lab/pouyss/levels"' in page.text
    assert "Levels over bonus and malus dice" in page.text or "Niveaux" in page.text
    assert '<html lang="fr">' in page.text
    assert 'href="/lab"' in web.get("/").text


def test_the_form_is_generated_from_the_declared_fields(web: TestClient) -> None:
    page = web.get("/lab/pouyss/levels?lang=en")
    assert page.status_code == 200
    for name, low, high, default in (("max_bonus", 0, 12, 5), ("threshold", 1, 6, 4)):
        assert re.search(
            rf'name="{name}" type="number" inputmode="numeric" value="{default}" '
            rf'min="{low}" max="{high}"',
            page.text,
        )
    assert "--max-bonus" in page.text  # the command line's option, for reference
    assert "<img" not in page.text  # nothing is run before the form is sent


def test_a_run_shows_the_charts_and_exact_figures(web: TestClient) -> None:
    page = web.get("/lab/pouyss/levels?run=1&max_bonus=1&max_malus=0&threshold=4&lang=fr")
    assert page.status_code == 200, page.text
    images = re.findall(r'<img src="data:image/svg\+xml;base64,([^"]+)"', page.text)
    assert len(images) == 4
    svg = base64.b64decode(images[0]).decode()
    assert "<!-- 75,0\u00a0% -->" in svg  # the highest of two d6 is 4 or more 3 times in 4
    assert "75,0\u00a0%" in page.text and "3/4" in page.text
    assert 'href="/lab/pouyss/levels/result.csv?' in page.text
    # the same question at the command line, as the page was asked
    assert "<code>tablee lab pouyss levels --max-bonus 1 --max-malus 0 --threshold 4</code>" in (
        page.text
    )


def test_downloads_replay_the_same_figures(web: TestClient) -> None:
    query = "max_bonus=1&max_malus=0&threshold=4"
    csv = web.get(f"/lab/pouyss/levels/result.csv?{query}")
    assert csv.status_code == 200 and csv.headers["content-type"].startswith("text/csv")
    assert "attachment" in csv.headers["content-disposition"]
    assert csv.text.splitlines()[0].startswith("bonus,malus,")
    data = json.loads(web.get(f"/lab/pouyss/levels/result.json?{query}").text)
    assert data["rows"][1]["p_success"] == {"exact": "3/4", "value": 0.75}
    report = web.get(f"/lab/pouyss/levels/result.html?{query}&lang=fr")
    assert report.status_code == 200 and report.text.count("<svg") == 4
    assert "tablee lab pouyss levels --max-bonus 1 --max-malus 0 --threshold 4" in report.text
    assert web.get(f"/lab/pouyss/levels/result.exe?{query}").status_code == 404


def test_bad_input_is_shown_as_the_command_line_says_it(web: TestClient) -> None:
    page = web.get("/lab/pouyss/levels?run=1&max_bonus=20&lang=en")
    assert page.status_code == 422
    assert "max_bonus: 20 is out of range (0 to 12)" in page.text


def test_an_unknown_question_is_not_found(web: TestClient) -> None:
    assert web.get("/lab/pouyss/nope").status_code == 404
    assert web.get("/lab/nope/levels").status_code == 404


def test_no_lab_turns_the_pages_off(store: SqliteStore) -> None:
    with _client(store, lab=False) as client:
        assert client.get("/lab").status_code == 404
        assert client.get("/lab/pouyss/levels?run=1").status_code == 404
        assert 'href="/lab"' not in client.get("/").text


def test_trials_from_the_web_are_capped(web: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(QUESTIONS, "pouyss/coin", "tests.lab.fake_questions:Coin")
    page = web.get("/lab/pouyss/coin?run=1&trials=99999&seed=3&lang=en")
    assert page.status_code == 200, page.text
    assert f"at most {web_lab.WEB_MAX_TRIALS} trials" in page.text
    assert f"<dd>{web_lab.WEB_MAX_TRIALS}</dd>" in page.text
    assert "[30.9%, 49.8%]" not in page.text  # 20,000 trials: a narrow interval
    # the downloads replay the run with its seed
    assert "seed=3" in page.text


class Held(Executor):
    """An executor whose jobs wait until released: the queue fills up."""

    def __init__(self) -> None:
        self.pool = ThreadPoolExecutor(4)
        self.gate = threading.Event()

    def submit(self, fn, /, *args, **kwargs):  # type: ignore[no-untyped-def, override]
        def held():  # type: ignore[no-untyped-def]
            self.gate.wait(10)
            return fn(*args, **kwargs)

        return self.pool.submit(held)


def test_a_full_lab_answers_busy(store: SqliteStore) -> None:
    import asyncio

    from tablee.lab import question_named
    from tablee.systems.declare import build_command

    held = Held()
    pool = web_lab.LabPool(queue=2, executor=held)
    question = build_command(question_named("pouyss", "levels"), {"max_bonus": "0"})

    async def three() -> list[object]:
        tasks = [asyncio.ensure_future(pool.run(question, "en", "csv")) for _ in range(3)]
        await asyncio.sleep(0.05)
        held.gate.set()
        return await asyncio.gather(*tasks, return_exceptions=True)

    outcomes = asyncio.run(three())
    assert sum(isinstance(o, web_lab.LabBusy) for o in outcomes) == 1
    assert sum(isinstance(o, str) for o in outcomes) == 2
    held.pool.shutdown()


def test_busy_is_a_503_page(web: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    async def busy(self: object, *args: object) -> object:
        raise web_lab.LabBusy()

    monkeypatch.setattr(web_lab.LabPool, "run", busy)
    page = web.get("/lab/pouyss/levels?run=1&lang=en")
    assert page.status_code == 503 and "The lab is busy" in page.text
    assert page.headers["retry-after"] == "5"


@pytest.mark.slow
def test_the_real_pool_answers_in_another_process(store: SqliteStore) -> None:
    with _client(store) as client:
        page = client.get("/lab/pouyss/levels/result.csv?max_bonus=0&max_malus=0")
        assert page.status_code == 200 and ",0.5,1/2," in page.text


def test_no_lab_reaches_every_server_process(
    tmp_path: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tablee.cli.main import build_parser
    from tablee.cli.serve import WORKER_ENV, worker_app

    args = build_parser("en", "serve").parse_args(["serve", "--no-lab"])
    assert args.no_lab is True
    db = f"{tmp_path}/w.sqlite3"
    monkeypatch.setenv(
        WORKER_ENV, json.dumps({"db": db, "trusted": [], "create": True, "lab": False})
    )
    app = worker_app()
    with TestClient(app) as client:
        assert client.get("/lab").status_code == 404
    app.state.table.store.close()


# the simulations slower than the others per trial, with the most trials the web runs for
# each (their own cap under WEB_MAX_TRIALS, so that one answer takes seconds, not minutes)
SLOW_SIMULATIONS = [("agents", "adventure"), ("pouyss", "economy"), ("shs", "film")]


@pytest.mark.parametrize(("game", "name"), SLOW_SIMULATIONS)
def test_a_slow_simulation_runs_fewer_trials_from_the_web(
    web: TestClient, monkeypatch: pytest.MonkeyPatch, game: str, name: str
) -> None:
    cap = web_lab.web_max_trials(f"{game}/{name}")
    assert cap < web_lab.WEB_MAX_TRIALS
    asked: list[int] = []

    def answer(self: object, context: object) -> object:
        asked.append(self.trials)  # type: ignore[attr-defined]
        raise InputError(N_("stop here"))

    monkeypatch.setattr(web_lab.question_named(game, name), "answer", answer)
    page = web.get(f"/lab/{game}/{name}?run=1&trials={web_lab.WEB_MAX_TRIALS}&lang=en")
    assert asked == [cap]
    assert f"at most {cap} trials" in page.text


def test_an_answer_past_the_time_budget_stops_and_shows_what_was_done(
    web: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(web_lab, "LAB_SECONDS", 0.0)  # past the budget after the first chunk
    page = web.get("/lab/ybs/gang?run=1&trials=640&seed=5&lang=en")
    assert page.status_code == 200, page.text
    assert "stopped before its end" in page.text
    # the first of 32 chunks: 20 fights per policy
    assert "<dd>20</dd>" in page.text


def _stopped_after_the_first_chunk(_done: int, _total: int) -> None:
    raise KeyboardInterrupt  # as LAB_SECONDS = 0 stops a run after its first chunk


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_downloads_of_a_stopped_run_give_the_figures_it_showed(
    web: TestClient, monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    from tablee.lab.questions import LabContext
    from tablee.lab.results import stopped_text, to_csv, to_json
    from tablee.systems.declare import build_command

    monkeypatch.setattr(web_lab, "LAB_SECONDS", 0.0)  # the page's run stops after one chunk
    page = web.get(f"/lab/ybs/gang?run=1&trials=640&seed=5&lang={lang}")
    assert page.status_code == 200, page.text
    assert "<dd>20</dd>" in page.text  # the first of 32 chunks: 20 fights per policy
    # what the page showed: the same question, stopped after the same chunk
    question = build_command(web_lab.question_named("ybs", "gang"), {"trials": 640, "seed": 5})
    shown = question.answer(LabContext(progress=_stopped_after_the_first_chunk))
    assert shown.stopped and shown.trials == 20
    # the downloads have all the time they need, and still stop where the page's run did
    monkeypatch.setattr(web_lab, "LAB_SECONDS", 30.0)
    assert f"{web_lab.TRIALS_DONE}=20" in _json_link(page.text)
    data = web.get(_json_link(page.text)).json()
    assert data == json.loads(json.dumps(to_json(shown)))
    assert data["stopped"] is True and data["trials"] == 20
    csv = web.get(_json_link(page.text, "csv")).text
    assert csv == to_csv(shown, lang=lang)
    assert csv.splitlines()[1].endswith("," + stopped_text(shown, lang))
    report = web.get(_json_link(page.text, "html")).text
    assert report.count("<svg") == len(shown.charts) and "<dd>20</dd>" in report


def test_a_replay_the_clock_stops_short_of_the_shown_trials_says_so(
    web: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(web_lab, "LAB_SECONDS", 0.0)  # stopped after 20 fights, not 40
    replay = web.get(f"/lab/ybs/gang/result.json?trials=640&seed=5&{web_lab.TRIALS_DONE}=40")
    assert replay.status_code == 422 and "took more than 0 s" in replay.text
    for bad in ("0", "-3", "x", "9" * 40):
        answer = web.get(f"/lab/ybs/gang/result.csv?seed=5&{web_lab.TRIALS_DONE}={bad}")
        assert answer.status_code == 422 and "trials_done" in answer.text, bad


@pytest.mark.parametrize(
    ("lang", "label", "yes_no"),
    [
        ("fr", "jets par joueur dans une séance", "non"),
        ("en", "rolls per player in a session", "no"),
    ],
)
def test_the_inputs_of_a_result_are_named_as_the_form_names_them(
    web: TestClient, lang: str, label: str, yes_no: str
) -> None:
    from html import unescape

    page = web.get(f"/lab/pouyss/economy?run=1&trials=30&seed=9&rolls=3&lang={lang}")
    assert page.status_code == 200, page.text
    facts = unescape(page.text.partition('<dl class="lab-facts">')[2].partition("</dl>")[0])
    names = re.findall(r"<dt>(.*?)</dt>", facts)
    values = dict(zip(names, re.findall(r"<dd>(.*?)</dd>", facts), strict=True))
    assert not {"min_players", "rolls", "bonus_dice_return"} & set(names)  # no Python names
    assert any(label in name.lower() for name in names), names
    assert yes_no in values.values()  # bonus dice do not return, in the reader's language
    assert list(values.values()).count("9") == 1  # the seed once, not once more as an input
    report = web.get(f"/lab/pouyss/economy/result.html?trials=30&seed=9&rolls=3&lang={lang}")
    assert label in unescape(report.text).lower() and "min_players" not in report.text


def _json_link(page: str, form: str = "json") -> str:
    from html import unescape

    found = re.search(rf'href="(/lab/[^"]+/result\.{form}\?[^"]*)"', page)
    assert found, "no download link"
    return unescape(found.group(1))


@pytest.mark.parametrize(
    ("query", "wins"),
    [
        ("", True),  # a link that leaves the box out: its default (Y-M7: yes)
        ("&higher_straight_wins=off", False),  # the form sent, the box left unticked
        ("&higher_straight_wins=off&higher_straight_wins=on", True),  # the form, ticked
    ],
)
def test_a_checkbox_left_out_of_a_link_keeps_its_default_and_downloads_replay_it(
    web: TestClient, query: str, wins: bool
) -> None:
    page = web.get(f"/lab/ybs/gang?run=1&trials=40&seed=3{query}&lang=en")
    assert page.status_code == 200, page.text
    data = web.get(_json_link(page.text)).json()
    assert data["inputs"]["higher_straight_wins"] is wins
    checked = re.search(r'name="higher_straight_wins" value="on"( checked)?', page.text)
    assert checked and bool(checked.group(1)) is wins


@pytest.mark.slow
def test_the_lab_answers_again_after_its_process_died() -> None:
    import asyncio
    import os
    import signal

    from tablee.lab import question_named
    from tablee.systems.declare import build_command

    pool = web_lab.LabPool()
    question = build_command(
        question_named("pouyss", "levels"), {"max_bonus": "1", "max_malus": "0"}
    )

    async def died() -> tuple[object, list[object]]:
        first = await pool.run(question, "en", "csv")
        for pid in list(pool._executor._processes):  # type: ignore[union-attr]
            os.kill(pid, signal.SIGKILL)  # the out-of-memory killer, say
        await asyncio.sleep(1)
        after: list[object] = []
        for _ in range(2):
            try:
                after.append(await pool.run(question, "en", "csv"))
            except web_lab.LabBusy:
                after.append("busy")
        return first, after

    try:
        first, after = asyncio.run(died())
    finally:
        pool.close()
    assert after == [first, first]
