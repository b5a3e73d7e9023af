"""What ``supportsim trend`` does, so the cli stays thin: expand the run directories
(shell-expanded or a quoted glob), load them, print the trend, write HTML and JSON.

Exit codes: 0 done; 2 bad input (a pattern that matches nothing, a path that is not a run
directory, an output that cannot be written), with a message naming the path. A marked
regression does not change the exit code: the trend is for reading (gates belong to
``run --fail-under`` and ``compare --fail-on-regression``).
"""

from __future__ import annotations

import glob
import os
import sys
from collections.abc import Sequence
from pathlib import Path

import orjson
from rich.console import Console

from supportsim.errors import InputError
from supportsim.report._html import write_output
from supportsim.report._load import RunData, load_run
from supportsim.report._trend import trend
from supportsim.report._trend_html import render_trend_html
from supportsim.report._trend_terminal import render_trend

STDOUT = "-"


def expand_runs(patterns: Sequence[str]) -> list[Path]:
    """Run directories from arguments: paths as given, and glob patterns the shell left
    alone (quoted), expanded here to the directories they match, sorted. Each directory
    once, in first-seen order.

    Raises:
        InputError: a pattern matches no directory, or no argument was given.
    """
    found: list[Path] = []
    seen: set[Path] = set()
    for pattern in patterns:
        if not Path(pattern).exists() and glob.has_magic(pattern):
            matches = [Path(m) for m in sorted(glob.glob(os.path.expanduser(pattern)))]
            paths = [m for m in matches if m.is_dir()]
            if not paths:
                raise InputError(f"{pattern}: matches no run directory")
        else:
            paths = [Path(pattern)]
        for path in paths:
            key = path.resolve()
            if key not in seen:
                seen.add(key)
                found.append(path)
    if not found:
        raise InputError("give at least one run directory (or a glob such as 'runs/nightly-*')")
    return found


def trend_command(
    patterns: Sequence[str],
    *,
    html_path: Path | None,
    json_path: str | None,
    out: Console,
    err: Console,
) -> int:
    """Print the trend over the runs; ``html_path`` writes the page, ``json_path`` the
    trend document (``-``: standard output, instead of the tables)."""
    try:
        runs: list[RunData] = [load_run(path) for path in expand_runs(patterns)]
    except InputError as exc:
        err.print(f"error: {exc}", markup=False, highlight=False)
        return 2
    doc = trend(runs)
    if json_path != STDOUT:
        render_trend(doc, out)
    if html_path is not None and not write_output(html_path, render_trend_html(doc), err):
        return 2
    if json_path is not None:
        text = orjson.dumps(doc, option=orjson.OPT_INDENT_2).decode("utf-8") + "\n"
        if json_path == STDOUT:
            sys.stdout.write(text)
            sys.stdout.flush()
        elif not write_output(Path(json_path), text, err):
            return 2
    return 0
