"""The web table's Prometheus metrics (``prometheus-client``), and where they are served.

The metrics (names as exposed):

* ``tablee_commands_total{game}``: commands stored through a table's forms or the JSON API
  (rolls and the other actions of a game), by game id; a replayed command is not counted;
* ``tablee_refusals_total{kind}``: requests refused, by kind: ``rules`` (the rules said
  no), ``input``, ``forbidden``, ``concurrency``, ``storage`` (the database failed),
  ``not_found`` (an unknown link or page), ``revoked``, ``rate`` (429), ``streams`` (too
  many streams of one link), ``too_large`` (413), ``cross_site`` (403);
* ``tablee_open_streams``: event streams open now;
* ``tablee_delivery_seconds``: from an event's time (taken when its command was decided,
  just before it was stored) to its message being written to a stream, once per stream;
  the events a stream catches up on when it opens, and those older than `DELIVERY_MAX`
  (a clock set back), are not counted;
* ``tablee_store_seconds{op}``: duration of the store's calls made by the web table:
  ``load``, ``append``, ``read`` (links, tables, preferences), ``write``, ``create``.

Counting costs a microsecond or two (a lock and an addition); the per-roll path does a few.
Nothing is served unless asked: ``tablee serve --metrics [HOST:]PORT`` serves them on a
separate listener (`serve_metrics`), by default on 127.0.0.1 only, never on the port the
players (or a reverse proxy) use. With ``--workers N`` the master process serves the sum of
its workers: it makes a fresh folder for ``prometheus-client``'s multi-process mode
(``PROMETHEUS_MULTIPROC_DIR``, set before any worker imports this module) and removes it
when it stops; each worker marks its own files dead when it stops.

Source: docs/hosting.md, "Metrics".
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, start_http_server
from prometheus_client import multiprocess as _multiprocess

from tablee.table.events import StoredEvent

__all__ = [
    "COMMANDS",
    "DELIVERY",
    "DELIVERY_MAX",
    "MULTIPROC_ENV",
    "OPEN_STREAMS",
    "REFUSALS",
    "STORE_TIME",
    "command",
    "delivered",
    "process_stopped",
    "refused",
    "serve_metrics",
    "store_time",
]

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
"""The environment variable of ``prometheus-client``'s multi-process mode (its folder)."""

DELIVERY_MAX = 60.0
"""Seconds: an event older than this when written to a stream is a catch-up, not counted."""

_FAST = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

COMMANDS = Counter("tablee_commands", "Commands stored through the web table, by game", ["game"])
REFUSALS = Counter("tablee_refusals", "Requests refused, by kind", ["kind"])
OPEN_STREAMS = Gauge("tablee_open_streams", "Event streams open now", multiprocess_mode="livesum")
DELIVERY = Histogram(
    "tablee_delivery_seconds",
    "From an event's time to its message written to a stream",
    buckets=_FAST,
)
STORE_TIME = Histogram(
    "tablee_store_seconds", "Duration of the web table's store calls", ["op"], buckets=_FAST
)

_games: dict[str, Counter] = {}
_kinds: dict[str, Counter] = {}
_ops = {op: STORE_TIME.labels(op) for op in ("load", "append", "read", "write", "create")}


def command(game: str) -> None:
    """Count a command stored at a table of ``game`` (its id)."""
    found = _games.get(game)
    if found is None:
        found = _games[game] = COMMANDS.labels(game)
    found.inc()


def refused(kind: str) -> None:
    """Count a refusal of that kind (see the module docstring)."""
    found = _kinds.get(kind)
    if found is None:
        found = _kinds[kind] = REFUSALS.labels(kind)
    found.inc()


def store_time(op: str, seconds: float) -> None:
    """Record one store call's duration (`tablee.table.resilient.ResilientStore` calls it)."""
    _ops[op].observe(seconds)


def delivered(events: Iterable[StoredEvent], opened: float) -> None:
    """Record the delivery delay of events just written to a stream.

    Args:
        events: the events of the message written.
        opened: when the stream opened (`time.time`); events decided before it are the
            stream's catch-up, not deliveries, and are not counted.
    """
    now = time.time()
    for event in events:
        stamp = event.created_at.timestamp()
        if stamp >= opened and now - stamp <= DELIVERY_MAX:
            DELIVERY.observe(now - stamp)


def process_stopped() -> None:
    """In multi-process mode, drop this process's live values (its open streams)."""
    if os.environ.get(MULTIPROC_ENV):
        _multiprocess.mark_process_dead(os.getpid())  # type: ignore[no-untyped-call]


def serve_metrics(host: str, port: int) -> None:
    """Serve the metrics over HTTP on ``host:port`` from a background thread.

    Every path answers the metrics in Prometheus's text format. In multi-process mode (the
    master of ``--workers``), the sum of every worker's files in ``$PROMETHEUS_MULTIPROC_DIR``.

    Raises:
        OSError: the address cannot be listened on.
    """
    if os.environ.get(MULTIPROC_ENV):
        registry = CollectorRegistry()
        _multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        start_http_server(port, host, registry=registry)
    else:
        start_http_server(port, host)
