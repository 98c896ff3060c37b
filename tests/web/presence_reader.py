"""A stream read in a thread, keeping each ``presence`` message as ``{seat label: on}``."""

from __future__ import annotations

import contextlib
import html
import re
import socket
import threading
from collections.abc import Callable

import httpx
from httpx_sse import connect_sse

SEAT = re.compile(
    r'<li class="seat (on|off)[^"]*"><span class="dot" aria-hidden="true"></span>([^<]*)<'
)


def seats(fragment: str) -> dict[str, bool]:
    """The seats of a presence fragment: label -> connected."""
    return {html.unescape(label): state == "on" for state, label in SEAT.findall(fragment)}


class PresenceReader:
    """Reads a link's stream until closed; ``wait_for`` waits for a presence it expects."""

    def __init__(self, url: str) -> None:
        self.seen: list[dict[str, bool]] = []
        self.changed = threading.Condition()
        self.error: BaseException | None = None
        self._stop = threading.Event()
        self._socket: socket.socket | None = None
        self._client = httpx.Client(timeout=httpx.Timeout(60))
        self._thread = threading.Thread(target=self._read, args=(url,), daemon=True)
        self._thread.start()

    def _read(self, url: str) -> None:
        try:
            with connect_sse(self._client, "GET", url) as source:
                stream = source.response.extensions["network_stream"]
                self._socket = stream.get_extra_info("socket")
                for sse in source.iter_sse():
                    if self._stop.is_set():
                        return
                    if sse.event != "presence":
                        continue
                    assert sse.id == "" or sse.id is None or sse.id.isdigit()
                    with self.changed:
                        self.seen.append(seats(sse.data))
                        self.changed.notify_all()
        except BaseException as exc:
            if not self._stop.is_set():
                self.error = exc
            with self.changed:
                self.changed.notify_all()

    def wait_for(self, check: Callable[[dict[str, bool]], bool], timeout: float = 10) -> None:
        """Wait until the last presence message passes ``check`` (AssertionError if never)."""
        with self.changed:
            ok = self.changed.wait_for(
                lambda: self.error is not None or bool(self.seen and check(self.seen[-1])),
                timeout,
            )
            assert self.error is None, self.error
            assert ok, f"presence never matched; last seen: {self.seen[-1:]}"

    def close(self) -> None:
        """Close the stream's connection now, as a closed browser tab does."""
        self._stop.set()
        if self._socket is not None:  # wakes the reading thread out of its wait
            with contextlib.suppress(OSError):  # the server closed it already
                self._socket.shutdown(socket.SHUT_RDWR)
        self._thread.join(10)
        self._client.close()
