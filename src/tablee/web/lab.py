"""The designer's lab in the browser: its questions, their forms, charts and figures.

Routes (off with ``tablee serve --no-lab``: they answer 404):

* ``GET /lab``: the questions of every game;
* ``GET /lab/{game}/{name}``: a question's form, generated from its declared fields (the web
  table's `tablee.web.declared.form_field`); with ``run=1`` in the query, the question is
  answered and its charts and figures shown under the form;
* ``GET /lab/{game}/{name}/result.csv``, ``.json``, ``.html``: the same answer as CSV, JSON
  or the self-contained HTML report (the query holds the fields and the seed that replays
  the run: a link, with no state kept on the server). A run stopped by `LAB_SECONDS` is
  replayed as far as it went, no further: its links also hold the trials it had done
  (`TRIALS_DONE`), so its files give the figures its page showed.

The fields are read by `tablee.systems.declare.build_command` on the event loop (cheap; a bad
value is shown under the form, as the command line says it); the answer itself, and the
drawing of its charts, run in a small pool of `LAB_PROCESSES` separate processes, never on the
event loop nor in the server's interpreter (a simulation would hold its lock for seconds).
At most `LAB_QUEUE` answers run or wait at once: past that the page answers 503, "the lab is
busy". A simulation from the browser runs at most `WEB_MAX_TRIALS` trials, fewer for the
slower ones (`WEB_MAX_TRIALS_OF`; more are capped, and the page says so), and an answer
stops after `LAB_SECONDS` keeping what was done; ``tablee lab`` has no such limits.

Charts are shown as ``<img>`` of SVG data (``data:`` URLs): the page's Content-Security-
Policy forbids inline styles, which matplotlib's SVG uses; an image is drawn apart from the
page's policy.

Source: docs/architecture.md, "The designer's lab"; docs/hosting.md (``--no-lab``).
"""

from __future__ import annotations

import asyncio
import base64
import json
import threading
from collections.abc import Mapping, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, PlainTextResponse, Response

from tablee.errors import N_, TableeError
from tablee.lab.questions import QUESTIONS, LabContext, Question, question_named
from tablee.systems.declare import FieldSpec, build_command, fields_of
from tablee.web.common import NotFound, accept_language, error_page, lang_of
from tablee.web.declared import form_field
from tablee.web.render import render, translator

__all__ = [
    "LAB_PROCESSES",
    "LAB_QUEUE",
    "LAB_SECONDS",
    "TRIALS_DONE",
    "WEB_MAX_TRIALS",
    "WEB_MAX_TRIALS_OF",
    "LabBusy",
    "LabPool",
    "add_lab_routes",
    "answer_job",
    "web_max_trials",
]

LAB_PROCESSES = 1
"""Processes answering lab questions for the web at once (a hosted server has few cores; the
table's players come first)."""

LAB_QUEUE = 3
"""Answers running or waiting at once; one more gets 503."""

WEB_MAX_TRIALS = 20_000
"""The most trials a simulation runs for the browser (a field named ``trials``)."""

WEB_MAX_TRIALS_OF: dict[str, int] = {
    "pouyss/economy": 2_000,
    "shs/film": 2_000,
    "agents/adventure": 250,
}
"""The most trials of the simulations slower per trial than the others: each of these caps
takes 15 to 25 s on the shared 2-core build machine (one process, measured with
``tablee lab GAME NAME --workers 1``), where `WEB_MAX_TRIALS` trials would take 3 to 30
minutes while the browser waits."""

LAB_SECONDS = 30.0
"""An answer still running after this many seconds stops at the end of its current chunk of
trials and shows what was done (`tablee.lab.results.LabResult.stopped`): a slower host
never holds a page, nor the lab's process, for minutes."""

TRIALS_DONE = "trials_done"
"""The query key of a stopped run's downloads: the trials the run had done when it stopped.

The web answers in one process (``workers=1``), where a simulation's chunks run in order, so
a run stopped after K trials holds exactly its first chunks; a download replays the same
fields and seed and stops once K trials are done (`answer_job`), with the same figures."""

BUSY = N_("The lab is busy: try again in a moment.")
TOO_LONG = N_("This question took more than {seconds} s: run tablee lab for it.")
BAD_DONE = N_("trials_done {value!r} must be a whole number 1 or more")
CAPPED = N_("The web lab runs at most {n} trials: run tablee lab for more.")
DOWNLOADS = {"csv": "text/csv; charset=utf-8", "json": "application/json", "html": "text/html"}


class LabBusy(Exception):
    """Every place of the lab's queue is taken (answered with 503)."""


class LabPool:
    """The lab's bounded pool: `LAB_PROCESSES` processes, `LAB_QUEUE` answers at most.

    The processes are started on first use ("spawn": a fresh interpreter, never a copy of
    the server's threads), and stopped by `close`.

    Args:
        processes: processes answering at once.
        queue: answers running or waiting at once.
        executor: an executor to use instead (tests); it is not shut down by `close`.
    """

    def __init__(
        self,
        processes: int = LAB_PROCESSES,
        queue: int = LAB_QUEUE,
        executor: Executor | None = None,
    ) -> None:
        self._processes = processes
        self._places = threading.BoundedSemaphore(queue)
        self._given = executor
        self._executor: Executor | None = executor
        self._lock = threading.Lock()

    def _pool(self) -> Executor:
        with self._lock:
            if self._executor is None:
                import multiprocessing

                self._executor = ProcessPoolExecutor(
                    self._processes, mp_context=multiprocessing.get_context("spawn")
                )
            return self._executor

    async def run(
        self, question: Question, lang: str, form: str, trials_done: int | None = None
    ) -> Any:
        """`answer_job` in the pool, awaited without blocking the event loop.

        Raises:
            LabBusy: `LAB_QUEUE` answers are already running or waiting, or the pool's
                process died during this answer (a pool whose process died is started
                again for the next one).
        """
        if not self._places.acquire(blocking=False):
            raise LabBusy()
        try:
            future = self._submit(question, lang, form, trials_done)
        except BaseException:
            self._places.release()
            raise
        # the place is freed when the work ends, not when the page stops waiting for it (a
        # browser that went away leaves its answer running in the pool until it is done)
        future.add_done_callback(lambda _done: self._places.release())
        try:
            return await asyncio.wrap_future(future)
        except BrokenProcessPool:  # its process died during the answer: the next one starts
            raise LabBusy() from None  # afresh; this page asks to try again (503)

    def _submit(
        self, question: Question, lang: str, form: str, trials_done: int | None
    ) -> Future[Any]:
        """`answer_job` submitted to the pool, started again once if its process had died."""
        pool = self._pool()
        try:
            return pool.submit(answer_job, question, lang, form, trials_done)
        except BrokenProcessPool:  # killed (out of memory, say) since the last answer
            self._drop(pool)
            return self._pool().submit(answer_job, question, lang, form, trials_done)

    def _drop(self, pool: Executor) -> None:
        """Forget a broken pool, so that `_pool` starts a new one."""
        with self._lock:
            if self._executor is pool and pool is not self._given:
                self._executor = None
        pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        """Stop the processes (waiting answers are cancelled)."""
        with self._lock:
            executor, self._executor = self._executor, self._given
        if executor is not None and executor is not self._given:
            executor.shutdown(wait=False, cancel_futures=True)


@dataclass(frozen=True)
class JobError:
    """An answer refused by the rules, its message already in the reader's language."""

    message: str


def answer_job(question: Question, lang: str, form: str, trials_done: int | None = None) -> Any:
    """Answer ``question`` (in a pool's process) and render what the page needs.

    Args:
        question: the question, built and checked by `build_command`.
        lang: ``fr`` or ``en``.
        form: ``page`` (the result and its charts as SVG), ``csv``, ``json`` or ``html``.
        trials_done: replay a run that stopped after this many trials (`TRIALS_DONE`): the
            simulation stops at the end of the chunk that reaches them, as that run did.
            The replay may take twice `LAB_SECONDS` (the run it replays took at most that
            and one chunk more); None: the whole run, within `LAB_SECONDS`.

    Returns:
        For ``page``, ``(result, [(title, svg bytes)])``; else the file's text; a `JobError`
        when the rules refuse the inputs together, or when a replay stops short of
        ``trials_done`` (its figures would not be the ones shown).
    """
    import time

    from tablee.lab.results import to_csv, to_json

    budget = LAB_SECONDS * (1 if trials_done is None else 2)
    deadline = time.monotonic() + budget
    reached: list[bool] = []

    def progress(done: int, _total: int) -> None:
        if trials_done is not None and done >= trials_done:
            reached.append(True)
            raise KeyboardInterrupt  # where the replayed run stopped: the same chunks
        if time.monotonic() > deadline:
            raise KeyboardInterrupt  # the runner stops after this chunk, keeping what was done

    too_long = JobError(translator(lang)(TOO_LONG).format(seconds=int(budget)))
    try:
        result = question.answer(LabContext(workers=1, progress=progress))
    except TableeError as exc:
        return JobError(exc.render(translator(lang)))
    except KeyboardInterrupt:  # a question that keeps nothing of a stopped run
        return too_long
    if trials_done is not None and result.stopped and not reached:
        return too_long  # stopped by the clock before the trials of the run it replays
    if form == "csv":
        return to_csv(result, lang=lang)
    if form == "json":
        return json.dumps(to_json(result), ensure_ascii=False, indent=2) + "\n"
    from tablee.lab.charts import draw_all

    charts = draw_all(result, lang, png=False)
    if form == "html":
        from tablee.lab.report import html_report

        return html_report(result, lang, charts, command=question.command_line())
    return result, [(c.title, c.svg) for c in charts]


def _field_value(spec: FieldSpec, query: Mapping[str, str], lists: Sequence[str]) -> object:
    """A field's value as the query gives it, for `build_command` (None: its default)."""
    if spec.kind == "lines":  # a textarea: one item per line
        return [line for text in lists for line in text.splitlines() if line.strip()] or None
    text = query.get(spec.name)
    if spec.kind == "bool" and spec.optional:
        return {"yes": True, "no": False}.get(text or "")
    if spec.kind == "bool":  # the form sends "off" (hidden), then "on" when ticked
        if not lists:
            return None  # a link that leaves it out: its default, as the command line's
        return any(value in ("on", "yes", "true") for value in lists)
    return text if text not in (None, "") else None


def _shown_value(spec: FieldSpec, given: object) -> str:
    """The text a form field shows: what was given, else the field's default."""
    value = spec.default if given is None else given
    if spec.kind == "bool" and spec.optional:  # the three choices: unset, yes, no
        return "yes" if value is True else "no" if value is False else ""
    if spec.kind == "bool":
        return "on" if value else "off"
    if isinstance(value, list | tuple):
        return "\n".join(str(v) for v in value)
    return "" if value is None else str(value)


def _lang(request: Request) -> str:
    return lang_of(request) or accept_language(request)


def _question(game: str, name: str) -> type[Question]:
    if f"{game}/{name}" not in QUESTIONS:
        raise NotFound()
    return question_named(game, name)


def web_max_trials(question: str) -> int:
    """The most trials the web runs of ``question`` (``GAME/NAME``).

    Returns:
        Its `WEB_MAX_TRIALS_OF`, else `WEB_MAX_TRIALS`.
    """
    return WEB_MAX_TRIALS_OF.get(question, WEB_MAX_TRIALS)


def _capped(cls: type[Question], given: dict[str, object]) -> int | None:
    """Cap a simulation's ``trials`` at `web_max_trials`; the cap when it was applied."""
    most = web_max_trials(f"{cls.game}/{cls.name}")
    for spec in fields_of(cls):
        if spec.name != "trials" or spec.kind != "int":
            continue
        text = given.get("trials")
        asked = spec.default if text is None else text
        try:
            number = int(str(asked))
        except ValueError:
            return None  # build_command says what is wrong with it
        if number > most:
            given["trials"] = str(most)
            return most
    return None


def _game_title(game: str) -> str:
    """A game's name as its plugin gives it (``Space Horror Stories``), else its id."""
    from tablee.systems import system_named

    try:
        return str(system_named(game).title)
    except (KeyError, ValueError, TableeError):
        return game


def _svg_data(svg: bytes) -> str:
    return "data:image/svg+xml;base64," + base64.b64encode(svg).decode("ascii")


def add_lab_routes(app: FastAPI, pool: LabPool) -> None:
    """Add the lab's pages (see the module docstring), answered in ``pool``."""

    @app.get("/lab", response_class=HTMLResponse)
    async def lab_index(request: Request) -> Response:
        lang = _lang(request)
        games: dict[str, list[dict[str, Any]]] = {}
        titles: dict[str, str] = {}
        for key in QUESTIONS:
            game, name = key.split("/", 1)
            cls = question_named(game, name)
            titles.setdefault(game, _game_title(game))
            games.setdefault(game, []).append(
                {
                    "name": name,
                    "title": cls.title,
                    "description": cls.description,
                    "simulated": cls.simulated,
                    "href": f"/lab/{game}/{name}",
                }
            )
        return HTMLResponse(render("lab_index.html", lang, games=games, titles=titles, here="/lab"))

    @app.get("/lab/{game}/{name}", response_class=HTMLResponse)
    async def lab_question(request: Request, game: str, name: str) -> Response:
        lang = _lang(request)
        cls = _question(game, name)
        ran = request.query_params.get("run") == "1"
        query = request.query_params
        given = {
            spec.name: _field_value(spec, query, query.getlist(spec.name))
            for spec in fields_of(cls)
        }
        fields = [
            {
                "field": form_field(spec),
                "value": _shown_value(spec, given[spec.name]),
                "flag": spec.flag,
            }
            for spec in fields_of(cls)
        ]
        context: dict[str, Any] = {
            "question": cls,
            "game": game,
            "game_title": _game_title(game),
            "fields": fields,
            "error": None,
            "result": None,
            "capped": None,
            "here": f"/lab/{game}/{name}",
            "query": urlencode([(k, v) for k, v in query.multi_items() if k != "lang"], doseq=True),
        }
        status = 200
        if ran:
            capped = _capped(cls, given)
            context["capped"] = translator(lang)(CAPPED).format(n=capped) if capped else None
            try:
                question = build_command(cls, given)
                answer = await pool.run(question, lang, "page")
            except TableeError as exc:
                answer = JobError(exc.render(translator(lang)))
            except LabBusy:
                return _busy(lang)
            if isinstance(answer, JobError):
                context["error"], status = answer.message, 422
            else:
                result, charts = answer
                context.update(_result_context(result, charts, lang, game, name, question))
        return HTMLResponse(render("lab.html", lang, **context), status_code=status)

    @app.get("/lab/{game}/{name}/result.{form}")
    async def lab_download(request: Request, game: str, name: str, form: str) -> Response:
        lang = _lang(request)
        cls = _question(game, name)
        if form not in DOWNLOADS:
            raise NotFound()
        query = request.query_params
        given = {
            spec.name: _field_value(spec, query, query.getlist(spec.name))
            for spec in fields_of(cls)
        }
        _capped(cls, given)
        done = _trials_done(query.get(TRIALS_DONE))
        if done == 0:
            return PlainTextResponse(
                translator(lang)(BAD_DONE).format(value=query.get(TRIALS_DONE)), status_code=422
            )
        try:
            answer = await pool.run(build_command(cls, given), lang, form, done)
        except TableeError as exc:
            answer = JobError(exc.render(translator(lang)))
        except LabBusy:
            return _busy(lang)
        if isinstance(answer, JobError):
            return PlainTextResponse(answer.message, status_code=422)
        headers = {"Content-Disposition": f'attachment; filename="{name}.{form}"'}
        return Response(str(answer), media_type=DOWNLOADS[form], headers=headers)


def _trials_done(text: str | None) -> int | None:
    """A download's `TRIALS_DONE`: None when the link has none, 0 when it is not 1 or more."""
    if text is None:
        return None
    number = int(text) if text.isascii() and text.isdigit() and len(text) <= 12 else 0
    return number if number >= 1 else 0


def _busy(lang: str) -> Response:
    page = error_page(503, lang, N_("Busy"), BUSY)
    page.headers["Retry-After"] = "5"
    return page


def _result_context(
    result: Any,
    charts: list[tuple[str, bytes]],
    lang: str,
    game: str,
    name: str,
    question: Question,
) -> dict[str, Any]:
    """What the template shows of a result: its charts, figures, settings and downloads."""
    from tablee.lab.report import figure_rows, input_pairs, labelled_inputs
    from tablee.lab.results import label_text

    tr = translator(lang)
    replay = {
        spec.name: _shown_value(spec, getattr(question, spec.attr))
        for spec in fields_of(type(question))
    }
    if result.seed is not None and "seed" in replay:
        replay["seed"] = str(result.seed)  # the downloads give the same figures
    if result.stopped and result.trials:  # ... and no more: as far as the run went
        replay[TRIALS_DONE] = str(result.trials)
    replay = {k: v for k, v in replay.items() if v != ""}
    query = urlencode({**replay, "lang": lang})
    base = f"/lab/{game}/{name}/result"
    return {
        "result": result,
        "result_title": label_text(result.title, tr),
        "charts": [(title, _svg_data(svg)) for title, svg in charts],
        "columns": [(label_text(c.label, tr), c.role == "input") for c in result.columns],
        "rows": figure_rows(result, lang),
        "inputs": labelled_inputs(result, tr),
        "policies": [
            (p.name, label_text(p.label, tr), input_pairs(p.settings, tr)) for p in result.policies
        ],
        "variants": [
            (v.name, label_text(v.label, tr), input_pairs(v.options, tr)) for v in result.variants
        ],
        "notes": [label_text(n, tr) for n in result.notes],
        "command": question.command_line(),
        "downloads": [
            (label, f"{base}.{form}?{query}")
            for form, label in (("csv", "CSV"), ("json", "JSON"), ("html", tr(N_("HTML report"))))
        ],
    }
