"""The top functions of a py-spy profile in collapsed-stack form, by self and by total time.

``bench_web.py --py-spy FILE`` samples the server while the rolls are posted and writes
FILE in py-spy's ``raw`` format: one line per distinct stack, ``frame;frame;...;frame N``
with ``N`` the samples taken in that stack, outermost frame first. This script sums the
samples by function (its name and file, line numbers dropped):

* ``self``: samples whose innermost frame is the function (time spent in it alone);
* ``total``: samples whose stack holds the function at least once (it or its callees).

Both are given as a share of all samples; with ``--per-roll ROLLS CPU_MS`` also in
microseconds per roll (the share times the server's CPU per roll, ``CPU_MS``; ``ROLLS`` is
kept in the heading only). A sample is taken whether the server runs or waits (in
``epoll``: the idle loop); ``--busy`` leaves the idle samples out.

Usage: ``.venv/bin/python benchmarks/spy_top.py FILE [--top 40] [--busy]
[--per-roll ROLLS CPU_MS] [--match TEXT] [--without TEXT ...]``
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from pathlib import Path

LINE = re.compile(r"^(.*) (\d+)$")
FRAME = re.compile(r"^(.*?) \((.*?)(?::\d+)?\)$")
IDLE = ("select (selectors.py)", "run_forever (uvloop", "_run_once (asyncio")
PREFIXES = ("/work/", ".venv/lib/python3.11/site-packages/", "/root/.pyenv/versions/3.11.7/lib/")


def short(frame: str) -> str:
    """``name (path:line)`` as ``name (short path)``: line numbers dropped, paths shortened."""
    found = FRAME.match(frame)
    if found is None:
        return frame
    name, path = found.groups()
    for prefix in PREFIXES:
        if prefix in path:
            path = path.split(prefix, 1)[1]
    path = path.replace("python3.11/", "").replace("wt-webfast/", "")
    return f"{name} ({path})"


def read(
    path: Path, busy: bool, without: tuple[str, ...] = ()
) -> tuple[Counter[str], Counter[str], int]:
    """Self and total samples by function, and the number of samples, from a raw profile.

    Stacks holding any text of ``without`` are left out (start-up: imports, set-up).
    """
    own: Counter[str] = Counter()
    total: Counter[str] = Counter()
    samples = 0
    for line in path.read_text().splitlines():
        found = LINE.match(line.strip())
        if found is None:
            continue
        stack, count = found.group(1), int(found.group(2))
        if any(text in stack for text in without):
            continue
        frames = [short(f) for f in stack.split(";") if not f.startswith(("process ", "thread "))]
        if busy and (len(frames) <= 3 or any(frames[-1].startswith(i) for i in IDLE)):
            continue  # the loop waiting for work
        samples += count
        own[frames[-1]] += count
        for frame in set(frames):
            total[frame] += count
    return own, total, samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", type=Path)
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--busy", action="store_true", help="leave the idle loop out")
    parser.add_argument("--per-roll", nargs=2, type=float, metavar=("ROLLS", "CPU_MS"))
    parser.add_argument("--match", help="only functions whose line holds this text")
    parser.add_argument(
        "--without", action="append", default=[], help="leave out stacks holding this text"
    )
    args = parser.parse_args()
    own, total, samples = read(args.file, args.busy, tuple(args.without))
    scale = args.per_roll[1] * 1000 if args.per_roll else None
    for title, counts in (("self", own), ("total", total)):
        print(f"\n## by {title} ({samples} samples)\n")
        print("| share | µs/roll | function |" if scale else "| share | function |")
        print("|---|---|---|" if scale else "|---|---|")
        shown = 0
        for name, count in counts.most_common():
            if args.match and args.match not in name:
                continue
            share = count / samples
            if scale:
                print(f"| {share:6.1%} | {share * scale:5.0f} | `{name}` |")
            else:
                print(f"| {share:6.1%} | `{name}` |")
            shown += 1
            if shown >= args.top:
                break


if __name__ == "__main__":
    main()
