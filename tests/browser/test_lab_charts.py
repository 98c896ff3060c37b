"""The lab's charts read on a phone and a laptop: the size their text is drawn at.

A chart is an ``<img>`` of SVG whose texts are glyph paths, each scaled to its type size in
the SVG's points (``scale(0.1 -0.1)``: 10 points). Its size on screen is that size times
the image's shown width over the SVG's own width, in CSS pixels. At 390x844 (device scale
3) and 1280x800, every text of every chart (ticks, legends, titles, a heatmap's figures)
is at least `SMALLEST_CSS_PIXELS`, and no smaller text than 11 pixels was ever met on a
laptop either. Screenshots: ``test-artifacts/screenshots/lab-*.png``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser

SMALLEST_CSS_PIXELS = 11.0
"""The smallest a chart's text may be shown, in CSS pixels (it was 6.8 on a phone when the
charts were drawn 6.4 inches wide with 9-point legends)."""

SIZES = {
    "phone": {
        "viewport": {"width": 390, "height": 844},
        "device_scale_factor": 3,
        "is_mobile": True,
        "has_touch": True,
    },
    "laptop": {"viewport": {"width": 1280, "height": 800}, "device_scale_factor": 1},
}

PAGES = {
    "levels": "/lab/pouyss/levels?run=1&lang=fr",  # heatmaps of 6 x 6 figures, French numbers
    "ladder": "/lab/shs/ladder?run=1&lang=fr",  # a heatmap of 7 columns, long titles
    "gang": "/lab/ybs/gang?run=1&trials=200&seed=1&lang=en",  # bars over words, a legend
}

TEXT_SIZES = """
() => Array.from(document.querySelectorAll(".lab-chart img")).map((img) => {
  const svg = new DOMParser().parseFromString(atob(img.src.split(",")[1]), "image/svg+xml");
  const width = Number(svg.documentElement.getAttribute("viewBox").split(/\\s+/)[2]);
  const shown = img.getBoundingClientRect().width / width;  // CSS pixels per SVG point
  const sizes = Array.from(svg.querySelectorAll("g[transform]"))
    .map((g) => /scale\\(([0-9.]+) -/.exec(g.getAttribute("transform")))
    .filter((m) => m !== null)
    .map((m) => Number(m[1]) * 100 * shown);
  return {title: img.alt, texts: sizes.length, smallest: Math.min(...sizes),
          largest: Math.max(...sizes), top: Math.round(img.getBoundingClientRect().top)};
})
"""
"""For each chart: its title, its texts' count, their smallest and largest shown size (CSS
pixels) and the top of its image (charts side by side share it)."""


@pytest.mark.parametrize("size", list(SIZES))
def test_chart_text_is_readable_at_phone_and_laptop_widths(
    browser: Browser, server: str, artifacts: Path, size: str
) -> None:
    context = browser.new_context(**SIZES[size])  # type: ignore[arg-type]
    try:
        page = context.new_page()
        for name, url in PAGES.items():
            page.goto(server + url, timeout=120_000)
            charts = page.evaluate(TEXT_SIZES)
            page.screenshot(path=str(artifacts / f"lab-{name}-{size}.png"), full_page=True)
            assert charts, f"{name}: no chart"
            for chart in charts:
                assert chart["texts"] > 5, chart
                assert chart["smallest"] >= SMALLEST_CSS_PIXELS, (name, size, chart)
                assert chart["largest"] <= 24, (name, size, chart)  # a title, not a poster
            tops = [chart["top"] for chart in charts]
            if size == "laptop":  # two charts side by side: the row of the first two
                assert tops[0] == tops[1], (name, tops)
            else:  # one above the other, each the page's width
                assert tops == sorted(set(tops)), (name, tops)
    finally:
        context.close()
