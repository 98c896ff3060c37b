"""Joining from the table: links with copy buttons and QR codes, a manifest per link."""

from __future__ import annotations

import html
import json
import os
import re
import signal
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import zxingcpp
from fastapi.testclient import TestClient

from tablee.table.sqlite_store import SqliteStore
from tablee.web import Settings, create_app
from tablee.web.joining import is_loopback_url, join_root, qr_svg
from tests.web.conftest import Links, csrf_of, make_table
from tests.web.test_serve import _first_line, _run, _start, _stop, _wait_ready

LAN = "http://192.168.1.20:8000"
SVG = re.compile(r'<svg viewBox="0 0 (\d+) (\d+)" class="qr">.*?</svg>', re.S)
PATH_D = re.compile(r'<path stroke="#000" d="([^"]+)"')
STEP = re.compile(r"([Mmh])(-?\d+(?:\.\d+)?)(?: (-?\d+(?:\.\d+)?))?")


def decode(svg: str) -> str:
    """The text a QR code's SVG holds, read by a real decoder (zxing-cpp).

    The SVG is drawn back into pixels from its path (segno's: ``M x y`` and ``m dx dy``
    move, ``h n`` draws n dark modules along the row ``y - 0.5``), then decoded.
    """
    size = SVG.search(svg)
    found = PATH_D.search(svg)
    assert size is not None and found is not None, svg[:200]
    n = int(size.group(1))
    modules = [[False] * n for _ in range(n)]
    x = y = 0.0
    for op, a, b in STEP.findall(found.group(1)):
        if op == "M":
            x, y = float(a), float(b)
        elif op == "m":
            x, y = x + float(a), y + float(b)
        else:
            for i in range(int(float(a))):
                modules[int(y - 0.5)][int(x) + i] = True
            x += float(a)
    scale = 4
    pixels = bytes(
        0 if modules[j // scale][i // scale] else 255
        for j in range(n * scale)
        for i in range(n * scale)
    )

    class Image:
        __array_interface__ = {  # noqa: RUF012 - what zxing-cpp reads
            "shape": (n * scale, n * scale),
            "typestr": "|u1",
            "data": pixels,
            "version": 3,
        }

    results = zxingcpp.read_barcodes(Image())
    assert len(results) == 1, "no QR code could be read"
    return str(results[0].text)


def qr_codes(page: str) -> list[str]:
    """The texts of every QR code on a page, decoded."""
    return [decode(m.group(0)) for m in SVG.finditer(page)]


def copy_fields(page: str) -> list[str]:
    """The addresses in the page's copy fields, each with its copy button."""
    values = re.findall(r'<input id="(link-\d+)" class="link-text" value="([^"]+)" readonly>', page)
    for field, _ in values:
        assert f'data-copy="{field}"' in page
    return [html.unescape(v) for _, v in values]


def new_link_page(client: TestClient, links: Links, holder: str) -> str:
    answer = client.post(
        links.gm + "/links/new", data={"csrf": csrf_of(client, links.gm), "holder": holder}
    )
    assert answer.status_code == 200, answer.text
    return answer.text


@pytest.fixture
def make_client(store: SqliteStore) -> Iterator[object]:
    opened: list[TestClient] = []

    def make(root: str, **settings: object) -> TestClient:
        app = create_app(store, Settings(rate_limit="1000/second", **settings))  # type: ignore[arg-type]
        client = TestClient(app, base_url=root, raise_server_exceptions=False)
        opened.append(client.__enter__())
        return client

    yield make
    for client in opened:
        client.__exit__(None, None, None)


def test_loopback_addresses_are_never_shared() -> None:
    for url in (
        "http://127.0.0.1:8000",
        "http://127.1.2.3",
        "http://localhost:8000",
        "http://app.localhost",
        "http://[::1]:8000",
        "",
    ):
        assert is_loopback_url(url), url
    for url in (LAN, "https://table.example", "http://[fe80::1]:80", "http://pc-salon:8000"):
        assert not is_loopback_url(url), url


def test_the_shared_address_is_chosen_in_order() -> None:
    local = "http://127.0.0.1:8000/"
    assert join_root(local, "https://table.example/", (LAN,)) == "https://table.example"
    assert join_root("http://10.0.0.5:8000/", None, (LAN,)) == "http://10.0.0.5:8000"
    assert join_root(local, None, ("http://127.0.0.1:8000", LAN)) == LAN
    assert join_root(local, None, ()) is None


def test_a_qr_code_holds_its_address_exactly() -> None:
    url = LAN + "/t/" + "Ab-_9" * 8 + "xyz"
    svg = qr_svg(url, "player <Ana>")
    assert decode(svg) == url
    assert "<title>player &lt;Ana&gt;</title>" in svg


def test_links_page_with_base_url_has_copy_buttons_and_qr_codes(
    store: SqliteStore, make_client: object
) -> None:
    links = make_table(store)
    client = make_client("http://127.0.0.1:8000", base_url="https://table.example")  # type: ignore[operator]
    page = new_link_page(client, links, "player:Ana")
    [url] = copy_fields(page)
    assert url.startswith("https://table.example/t/")
    assert qr_codes(page) == [url]
    assert "127.0.0.1" not in page.split("<main", 1)[1]
    assert "phones cannot reach" not in page
    assert client.get(url.removeprefix("https://table.example")).status_code == 200


def test_links_page_on_the_local_network_address_the_server_listed(
    store: SqliteStore, make_client: object
) -> None:
    links = make_table(store)
    client = make_client("http://localhost:8000", lan_urls=(LAN,))  # type: ignore[operator]
    page = new_link_page(client, links, "spectator")
    [url] = copy_fields(page)
    assert url.startswith(LAN + "/t/")
    assert qr_codes(page) == [url]


def test_links_page_opened_on_the_network_shares_that_address(
    store: SqliteStore, make_client: object
) -> None:
    links = make_table(store)
    client = make_client("http://10.0.0.7:8123")  # type: ignore[operator]
    page = new_link_page(client, links, "gm")
    assert qr_codes(page) == copy_fields(page)
    assert copy_fields(page)[0].startswith("http://10.0.0.7:8123/t/")


@pytest.mark.parametrize(
    ("lang", "says"),
    [
        ("en", "No QR code: phones cannot reach this address."),
        ("fr", "Pas de code QR : les téléphones ne peuvent pas joindre cette adresse."),
    ],
)
def test_no_qr_code_on_a_loopback_address_and_the_page_says_how(
    store: SqliteStore, make_client: object, lang: str, says: str
) -> None:
    links = make_table(store)
    client = make_client("http://127.0.0.1:8000")  # type: ignore[operator]
    client.cookies.set("tablee_lang", lang)
    page = new_link_page(client, links, "player:Zoé")
    assert qr_codes(page) == []
    assert says in html.unescape(page)
    commands = re.sub(r"</?span[^>]*>", "", page)  # an option is kept whole by a span
    assert "<code>tablee serve --host 0.0.0.0</code>" in commands
    assert "<code>--base-url https://…</code>" in commands
    [url] = copy_fields(page)  # still there to copy, for this computer
    assert url.startswith("http://127.0.0.1:8000/t/")


def test_a_new_table_shows_every_link_with_its_qr_code(
    store: SqliteStore, make_client: object
) -> None:
    client = make_client(LAN)  # type: ignore[operator]
    home = client.get("/")
    token = re.search(r'name="csrf" value="([^"]+)"', home.text)
    assert token is not None
    answer = client.post(
        "/tables",
        data={"csrf": token.group(1), "name": "Onyx", "system": "pouyss", "players": "Ana\nZoé"},
    )
    assert answer.status_code == 200, answer.text
    urls = copy_fields(answer.text)
    assert len(urls) == 4  # game master, two players, spectator
    assert qr_codes(answer.text) == urls


def test_each_link_has_a_manifest_opening_its_page(client: TestClient) -> None:
    links = make_table(client.app.state.table.store)  # type: ignore[attr-defined]
    for path in (links.gm, links.players["Ana"], links.spectator):
        page = client.get(path).text
        assert f'<link rel="manifest" href="{path}/manifest.webmanifest">' in page
        answer = client.get(path + "/manifest.webmanifest")
        assert answer.status_code == 200
        assert answer.headers["content-type"].startswith("application/manifest+json")
        found = json.loads(answer.text)
        assert found["start_url"] == path and found["scope"] == path
        assert found["display"] == "standalone"
        for icon in found["icons"]:
            image = client.get(icon["src"])
            assert image.status_code == 200
            assert image.headers["content-type"] == icon["type"]
            if icon["type"] == "image/png":
                width, height = (int(v) for v in icon["sizes"].split("x"))
                assert image.content[:8] == b"\x89PNG\r\n\x1a\n"
                assert image.content[16:24] == width.to_bytes(4) + height.to_bytes(4)
    ana = json.loads(client.get(links.players["Ana"] + "/manifest.webmanifest").text)
    assert ana["name"] == "Zinc · player Ana"


def test_a_wrong_link_has_no_manifest(client: TestClient) -> None:
    assert client.get("/t/" + "z" * 43 + "/manifest.webmanifest").status_code == 404


@pytest.mark.parametrize("given", ["http://127.0.0.1:8000", "http://localhost", "ftp://x", "x"])
def test_serve_refuses_a_base_url_phones_cannot_reach(tmp_path: Path, given: str) -> None:
    done = _run("--base-url", given, "--db", str(tmp_path / "x.sqlite3"))
    assert done.returncode == 2
    assert "is not an address players can reach" in done.stderr
    assert "serves on" not in done.stdout


def test_serve_puts_its_base_url_in_the_links(tmp_path: Path) -> None:
    db = str(tmp_path / "served.sqlite3")
    store = SqliteStore(Path(db))
    links = make_table(store)
    store.close()
    process = _start("--port", "0", "--db", db, "--base-url", "https://table.example/")
    try:
        line = _first_line(process)
        base = line.split("serves on ", 1)[1].split("/ ", 1)[0]
        _wait_ready(base + links.gm, process)
        with httpx.Client(base_url=base) as client:
            page = client.get(links.gm + "/links").text
            assert "phones cannot reach" not in page
            token = re.search(r'name="csrf" value="([^"]+)"', page)
            assert token is not None
            made = client.post(
                links.gm + "/links/new", data={"csrf": token.group(1), "holder": "spectator"}
            ).text
        [url] = copy_fields(made)
        assert url.startswith("https://table.example/t/")
        assert qr_codes(made) == [url]
        code, _, err = _stop(process, signal.SIGINT)
        assert code == 0, err
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
