"""Joining from the table: the address phones can reach, QR codes, a manifest per link.

The links page shows each new link with a copy button and a QR code, so that the players
in the room join by scanning it. A QR code only helps when it holds an address the phones
can reach, so `join_root` picks the server's address in this order:

1. ``tablee serve --base-url`` (`Settings.base_url`), the address the group set up (a
   reverse proxy, a domain);
2. the address the game master's browser used, when it is not a loopback one
   (``http://192.168.1.20:8000``, a domain name);
3. the first local network address that ``tablee serve --host 0.0.0.0`` lists
   (`Settings.lan_urls`).

Otherwise (a server on 127.0.0.1 opened as ``localhost``) there is none: the page shows no
QR code and says how to get one. A QR code never holds a loopback address (127.0.0.0/8,
``::1``, ``localhost``). The codes are made on the server by segno (SVG, inline: no image
request, nothing sent elsewhere).

A player's page can be added to a phone's home screen: each link has a web app manifest
(`manifest`) whose ``start_url`` is that link's page, so the icon opens that seat again.

Source: docs/web.md, "Joining from the table".
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import urlsplit

import segno

__all__ = ["is_loopback_url", "join_root", "link_items", "manifest", "qr_svg"]


def is_loopback_url(url: str) -> bool:
    """Whether a URL's host is this machine only (``localhost``, 127.0.0.0/8, ``::1``).

    A URL with no host counts as loopback (no phone could use it).
    """
    host = (urlsplit(url).hostname or "").lower()
    if not host or host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False  # a name: the group's own domain or a machine's name on the network


def join_root(request_root: str, base_url: str | None, lan_urls: tuple[str, ...]) -> str | None:
    """The address other devices reach this server at, without a trailing slash, or None.

    Args:
        request_root: the address the page was asked for (``http://127.0.0.1:8000``).
        base_url: ``tablee serve --base-url``, if given.
        lan_urls: the local network addresses ``tablee serve --host 0.0.0.0`` listed.

    Returns:
        The first of ``base_url``, ``request_root`` and ``lan_urls`` that is not a loopback
        address (see the module docstring), or None.
    """
    for root in (base_url, request_root, *lan_urls):
        if root and not is_loopback_url(root):
            return root.rstrip("/")
    return None


def qr_svg(url: str, title: str) -> str:
    """A QR code of ``url`` as an inline SVG element, sized by CSS (a ``viewBox``, no size).

    Args:
        url: the text the code holds, exactly.
        title: the SVG's ``<title>`` (what a screen reader says); escaped here.

    Returns:
        ``<svg ...>...</svg>``: black modules on white, error correction M, a quiet zone of
        four modules.
    """
    code = segno.make(url, error="m", micro=False)
    return str(
        code.svg_inline(
            scale=1,
            border=4,
            dark="#000",
            light="#fff",
            title=title,
            omitsize=True,
            svgclass="qr",
            lineclass=None,
        )
    )


def manifest(name: str, start: str, lang: str) -> dict[str, Any]:
    """The web app manifest of one link: opening its icon opens that link's page.

    Args:
        name: what the home screen shows (the table and the seat).
        start: the link's page, ``/t/TOKEN``, its ``start_url`` and ``scope``.
        lang: ``fr`` or ``en``.
    """
    return {
        "name": name,
        "short_name": name[:30],
        "lang": lang,
        "start_url": start,
        "scope": start,
        "id": start,
        "display": "standalone",
        "background_color": "#fdfcf9",
        "theme_color": "#1d4ed8",
        "icons": [
            {"src": "/static/icon-192.png", "sizes": "192x192", "type": "image/png"},
            {"src": "/static/icon-512.png", "sizes": "512x512", "type": "image/png"},
            {
                "src": "/static/icon-512.png",
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
            {"src": "/static/icon.svg", "sizes": "any", "type": "image/svg+xml"},
        ],
    }


def link_items(
    links: Iterable[tuple[str, str]],
    request_root: str,
    base_url: str | None,
    lan_urls: tuple[str, ...],
    qr_title: Callable[[str], str],
) -> tuple[list[dict[str, Any]], bool]:
    """The new links as the links page shows them: holder, address to send, QR code.

    Args:
        links: ``(holder in words, path /t/TOKEN)`` of each link just made.
        request_root: the address the page was asked for.
        base_url: ``tablee serve --base-url``, if given.
        lan_urls: the local network addresses the server listed.
        qr_title: the QR code's accessible title for a holder.

    Returns:
        ``([{"label", "url", "qr"}...], reachable)``: ``url`` on the address other devices
        reach (`join_root`) when there is one, else on ``request_root``; ``qr`` the code of
        that ``url`` (None when unreachable); ``reachable`` whether there is such an address.
    """
    root = join_root(request_root, base_url, lan_urls)
    items = []
    for label, path in links:
        url = (root or request_root.rstrip("/")) + path
        items.append(
            {"label": label, "url": url, "qr": qr_svg(url, qr_title(label)) if root else None}
        )
    return items, root is not None
