"""Draw the web table's home-screen icons (a die showing five) as PNG, standard library only.

Usage: python scripts/make_icons.py   (writes src/tablee/web/static/icon-192.png and
icon-512.png; icon.svg is the same drawing, written by hand). Each pixel is sampled 4 x 4
times for smooth edges. The die fills the middle 60 % so that a round or squircle mask
(a "maskable" icon) never cuts it.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

STATIC = Path(__file__).resolve().parent.parent / "src" / "tablee" / "web" / "static"
BACKGROUND = (0x1D, 0x4E, 0xD8)
DIE = (0xFF, 0xFF, 0xFF)
PIP = (0x1B, 0x1B, 0x1B)
SAMPLES = 4


def color_at(x: float, y: float) -> tuple[int, int, int]:
    """The colour of a point of the unit square (0..1 on both axes)."""
    lo, hi, radius = 0.2, 0.8, 0.09  # the die: a rounded square
    cx = min(max(x, lo + radius), hi - radius)
    cy = min(max(y, lo + radius), hi - radius)
    if (x - cx) ** 2 + (y - cy) ** 2 > radius**2:
        return BACKGROUND
    for px, py in ((0.35, 0.35), (0.65, 0.35), (0.5, 0.5), (0.35, 0.65), (0.65, 0.65)):
        if (x - px) ** 2 + (y - py) ** 2 <= 0.055**2:
            return PIP
    return DIE


def png(size: int) -> bytes:
    """The icon as a PNG of ``size`` x ``size`` pixels (8-bit RGB)."""
    rows = []
    for j in range(size):
        row = bytearray([0])  # filter: none
        for i in range(size):
            total = [0, 0, 0]
            for sj in range(SAMPLES):
                for si in range(SAMPLES):
                    x = (i + (si + 0.5) / SAMPLES) / size
                    c = color_at(x, (j + (sj + 0.5) / SAMPLES) / size)
                    for k in range(3):
                        total[k] += c[k]
            row.extend(round(t / SAMPLES**2) for t in total)
        rows.append(bytes(row))

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"".join(rows), 9))
        + chunk(b"IEND", b"")
    )


if __name__ == "__main__":
    for size in (192, 512):
        (STATIC / f"icon-{size}.png").write_bytes(png(size))
