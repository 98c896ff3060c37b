"""Count each game's interface code, wherever it lives, by role, with cloc.

Usage::

    python benchmarks/interface_lines.py [--root CHECKOUT] [--json]

The figures are cloc's "code" lines (blank lines, comments and docstrings left out). For each
game (Pouyss, SHS, YBS, agents) it counts:

* ``cli+web``: the game's own modules under ``src/tablee/cli`` and ``src/tablee/web`` (its
  command line, its web forms and views);
* ``log``: its log lines (``systems/<game>/log.py``);
* ``shown``: what it shows as data: reports, panels, answers, odds shown, ``table show``
  lines, roll cards (``reports.py``, ``views.py``, ``display.py``, ``answers.py``,
  ``cards.py``, and the methods and helpers of ``plugin.py`` whose names say they show
  something: report, answer, line,
  details, panel, summary, odds, json, rows, trace, warning, text, checklist, tables);
* ``declared``: its command declarations (``commands.py``, ``queries.py``,
  ``brawl_commands.py``), which every interface is generated from;
* ``glue``: the rest of ``plugin.py`` (deciding, applying and verifying through the plugin
  interface), counted apart: it is rule plumbing, not an interface.

``interface`` is ``cli+web + log + shown + declared``: everything a game writes so people can
give it commands and read what happened. Run it on an older checkout (``--root``) for the
"before" figure: there the per-game ``cli/`` and ``web/`` trees held all of this.

Source: the measure asked of the plugin work (one declaration per command, one plugin per
game); cloc as the one counting tool.
"""

from __future__ import annotations

import argparse
import ast
import csv
import io
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

GAMES = ("pouyss", "shs", "ybs", "agents")
SHOWN_FILES = ("reports.py", "views.py", "display.py", "answers.py", "cards.py")
DECLARED_FILES = ("commands.py", "queries.py", "brawl_commands.py")
SHOWN_NAME = re.compile(
    r"report|answer|line|details|panel|summary|odds|json|rows|trace|warning|text|checklist|tables",
    re.IGNORECASE,
)
ROLES = ("cli+web", "log", "shown", "declared", "glue")


def cloc_code(files: list[Path]) -> int:
    """cloc's code lines over ``files`` (0 when there are none)."""
    if not files:
        return 0
    out = subprocess.run(
        ["cloc", "--quiet", "--csv", *map(str, files)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    total = 0
    for row in csv.reader(io.StringIO(out)):
        if len(row) >= 5 and row[1] not in ("language", "SUM") and row[4].isdigit():
            total += int(row[4])
    return total


def per_game_interface_files(src: Path, game: str) -> list[Path]:
    """The game's own files under cli/ and web/ (modules, packages and templates)."""
    found: list[Path] = []
    for base in (src / "cli", src / "web", src / "web" / "systems", src / "web" / "templates"):
        for candidate in (base / game, base / f"{game}.py", base / f"{game}_cmds.py"):
            if candidate.is_dir():
                found += sorted(p for p in candidate.rglob("*") if p.suffix in (".py", ".html"))
            elif candidate.is_file():
                found.append(candidate)
    if game == "pouyss" and (src / "cli" / "demo.py").is_file():
        found.append(src / "cli" / "demo.py")  # the Pouyss demo game
    return found


def split_plugin(path: Path, shown_dir: Path, glue_dir: Path) -> None:
    """Write the plugin's showing functions to ``shown_dir`` and the rest to ``glue_dir``."""
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    tree = ast.parse(text)
    shown: list[str] = []
    glue: list[str] = []

    def chunk(node: ast.stmt) -> str:
        start = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
        return "\n".join(lines[start - 1 : node.end_lineno])

    for node in tree.body:
        if isinstance(node, ast.ClassDef) and any(
            isinstance(b, ast.FunctionDef) for b in node.body
        ):
            for item in node.body:
                if isinstance(item, ast.FunctionDef):
                    (shown if SHOWN_NAME.search(item.name) else glue).append(chunk(item))
                else:
                    glue.append(chunk(item))
        elif isinstance(node, ast.FunctionDef | ast.ClassDef):
            (shown if SHOWN_NAME.search(node.name) else glue).append(chunk(node))
        elif not isinstance(node, ast.Import | ast.ImportFrom):
            glue.append(chunk(node))
    (shown_dir / f"{path.parent.name}_plugin.py").write_text("\n\n".join(shown) + "\n")
    (glue_dir / f"{path.parent.name}_plugin.py").write_text("\n\n".join(glue) + "\n")


def measure(root: Path) -> dict[str, dict[str, int]]:
    """``{game: {role: code lines}}`` for the checkout at ``root``."""
    src = root / "src" / "tablee"
    result: dict[str, dict[str, int]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for game in GAMES:
            package = src / "systems" / game
            shown_dir = Path(tmp) / game / "shown"
            glue_dir = Path(tmp) / game / "glue"
            shown_dir.mkdir(parents=True)
            glue_dir.mkdir(parents=True)
            shown_files = [package / n for n in SHOWN_FILES if (package / n).is_file()]
            if (package / "plugin.py").is_file():
                split_plugin(package / "plugin.py", shown_dir, glue_dir)
                shown_files += sorted(shown_dir.iterdir())
            log = [package / "log.py"] if (package / "log.py").is_file() else []
            declared = [package / n for n in DECLARED_FILES if (package / n).is_file()]
            result[game] = {
                "cli+web": cloc_code(per_game_interface_files(src, game)),
                "log": cloc_code(log),
                "shown": cloc_code(shown_files),
                "declared": cloc_code(declared),
                "glue": cloc_code(sorted(glue_dir.iterdir())),
            }
            counts = result[game]
            counts["interface"] = sum(counts[r] for r in ROLES if r != "glue")
    return result


def main(argv: list[str] | None = None) -> int:
    """Print the table (or JSON) for the checkout given."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[1])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    result = measure(args.root)
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    columns = (*ROLES, "interface")
    print(f"{'game':8}" + "".join(f"{c:>11}" for c in columns))
    totals = dict.fromkeys(columns, 0)
    for game, counts in result.items():
        print(f"{game:8}" + "".join(f"{counts[c]:>11}" for c in columns))
        for c in columns:
            totals[c] += counts[c]
    print(f"{'all':8}" + "".join(f"{totals[c]:>11}" for c in columns))
    return 0


if __name__ == "__main__":
    sys.exit(main())
