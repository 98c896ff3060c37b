"""Check a running `tablee serve` end to end, as a game master would (used by `.ci/run`).

Standard library only, so it runs in the plain install of the README's main job. It:

1. waits until the server answers (``--wait`` seconds);
2. creates a Pouyss table for two players through the home page's form (with its
   anti-forgery cookie and field);
3. opens the game master's link, starts a session and makes a roll through the forms;
4. opens a player's link and reads its live log (Server-Sent Events) until the roll arrives.

Usage: ``python scripts/smoke_web.py [--base http://127.0.0.1:8000] [--wait 300]``.
Exit code 0 when every step worked; otherwise 1 with the step that failed.
"""

from __future__ import annotations

import argparse
import html
import http.cookiejar
import re
import sys
import time
import urllib.error
import urllib.parse
import urllib.request


def _opener() -> urllib.request.OpenerDirector:
    return urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
    )


def _get(opener: urllib.request.OpenerDirector, url: str) -> str:
    with opener.open(url, timeout=10) as response:
        return str(response.read().decode("utf-8"))


def _post(
    opener: urllib.request.OpenerDirector, base: str, path: str, fields: dict[str, str]
) -> str:
    request = urllib.request.Request(
        base + path,
        data=urllib.parse.urlencode(fields).encode(),
        headers={"Origin": base, "Content-Type": "application/x-www-form-urlencoded"},
        method="POST",
    )
    with opener.open(request, timeout=30) as response:
        return str(response.read().decode("utf-8"))


def _field(page: str, name: str) -> str:
    found = re.search(rf'name="{name}" value="([^"]*)"', page)
    if found is None:
        raise SystemExit(f"smoke: no {name!r} field in the page")
    return html.unescape(found.group(1))


def _wait(base: str, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(base + "/", timeout=5):
                return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            if time.monotonic() > deadline:
                raise SystemExit(f"smoke: {base} did not answer within {seconds:.0f} s") from None
            time.sleep(1)


def main() -> int:
    """Run the checks; see the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="http://127.0.0.1:8000")
    parser.add_argument("--wait", type=float, default=300.0)
    args = parser.parse_args()
    base = args.base.rstrip("/")
    _wait(base, args.wait)

    gm_browser = _opener()
    home = _get(gm_browser, base + "/")
    name = f"smoke {time.strftime('%H%M%S')}"
    created = _post(
        gm_browser,
        base,
        "/tables",
        {
            "csrf": _field(home, "csrf"),
            "system": "pouyss",
            "name": name,
            "players": "Ana\nBob",
            "lang": "en",
        },
    )
    links = sorted(set(re.findall(r"/t/([A-Za-z0-9_-]{40,})", created)))
    if len(links) < 3:
        raise SystemExit(f"smoke: expected a game-master, player and spectator links, got {links}")
    print(f"smoke: table {name!r} created with {len(links)} links")

    gm_link = player_link = None
    for token in links:
        page = _get(_opener(), f"{base}/t/{token}")
        if "/act/session-start" in page and "/undo" in page and gm_link is None:
            gm_link = token
        elif "/act/roll" in page and "/undo" not in page and player_link is None:
            player_link = token
    if gm_link is None or player_link is None:
        raise SystemExit("smoke: no game-master link or no player link among the links")

    gm_page = _get(gm_browser, f"{base}/t/{gm_link}")
    csrf = _field(gm_page, "csrf")
    _post(gm_browser, base, f"/t/{gm_link}/act/session-start", {"csrf": csrf, "step": "start"})
    answer = _post(
        gm_browser,
        base,
        f"/t/{gm_link}/act/roll",
        {"csrf": csrf, "player": "Ana", "bonus": "1", "malus": "2", "faces": "1,4,5,6"},
    )
    if "4" not in answer:
        raise SystemExit("smoke: the roll's answer does not show its result")
    print("smoke: session started and a roll made through the forms")

    seen = []
    with _opener().open(f"{base}/t/{player_link}/stream?after=0", timeout=10) as stream:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            line = stream.readline().decode("utf-8")
            if line.startswith("id:"):
                seen.append(int(line.split(":", 1)[1]))
                if 3 in seen:
                    break
    if 3 not in seen:
        raise SystemExit(f"smoke: the player's live log showed events {seen}, not the roll (3)")
    print(f"smoke: the player's live log delivered events {seen}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
