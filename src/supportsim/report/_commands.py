"""What ``supportsim report`` and ``supportsim compare`` do, so ``cli.py`` stays thin.

Each returns an exit code: 0 done, 2 bad input (not a run directory, unreadable
manifest, unknown agent); the message names the path. Output files are written whole or
not at all.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from rich.console import Console

from supportsim.errors import InputError
from supportsim.judges import agreement_summary
from supportsim.judges import render_html as judges_html
from supportsim.judges import render_terminal as render_judges
from supportsim.report._aggregate import summarise
from supportsim.report._compare import compare_runs
from supportsim.report._html import render_comparison, render_report, write_text_atomic
from supportsim.report._load import RunData, load_run
from supportsim.report._terminal import render_comparison as print_comparison
from supportsim.report._terminal import render_summary
from supportsim.store import SUMMARY, Summary, read_json, write_doc


def summarise_run(run: RunData) -> dict:
    """summary.json of a loaded run (configured trials, run.json details, and when its
    verdicts were rescored)."""
    summary = summarise(run.records, trials=run.trials, manifest=run.manifest)
    if run.rescored_at is not None:
        summary["rescored"] = {"at": run.rescored_at, "units": run.rescored_units}
    return summary


def _in_progress(summary: dict) -> bool:
    run = summary.get("run") or {}
    planned = run.get("units_planned")
    return run.get("status") == "running" or bool(planned and summary["units"] < planned)


def _html_target(html: bool, path: Path | None, default: Path) -> Path | None:
    if path is not None and not html:
        raise InputError(f"{path}: an output path is only taken with --html")
    target = (path or default) if html else None
    if target is not None and target.is_dir():
        raise InputError(f"{target}: is a folder; give the HTML file's path (e.g. report.html)")
    return target


def _write_html(path: Path, text: str, err: Console) -> bool:
    """Write the HTML file; a path that cannot be written is bad input (message, exit 2)."""
    try:
        write_text_atomic(path, text)
    except OSError as exc:
        err.print(f"error: {path}: cannot write ({exc.strerror or exc})", markup=False)
        return False
    err.print(f"wrote {path}", markup=False, highlight=False)
    return True


def report_command(
    run_dir: Path,
    *,
    json_out: bool,
    html: bool,
    html_path: Path | None,
    out: Console,
    err: Console,
) -> int:
    """Print the terminal report; with ``json_out`` write summary.json, with ``html`` the
    HTML report (default RUN_DIR/report.html). Works on a run still going: it reports what
    has finished."""
    try:
        html_out = _html_target(html, html_path, run_dir / "report.html")
        run = load_run(run_dir)
    except InputError as exc:
        err.print(f"error: {exc}", markup=False, highlight=False)
        return 2
    summary = summarise_run(run)
    render_summary(summary, out)
    if run.foreign:
        err.print(
            f"warning: {len(run.foreign)} unit(s) recorded outside the run's plan (foreign "
            f"records, not counted): {', '.join(run.foreign[:5])}",
            markup=False,
            highlight=False,
        )
    judged = agreement_summary(run_dir)
    if judged.get("available"):
        out.print(render_judges(judged))
        summary = {**summary, "judges": judged}
    if json_out:
        write_doc(run_dir / SUMMARY, Summary, _keep_runner_facts(run_dir / SUMMARY, summary))
        err.print(f"wrote {run_dir / SUMMARY}", markup=False, highlight=False)
    if html_out is not None:
        text = render_report(
            summary,
            run.records,
            run_id=run.run_id,
            in_progress=_in_progress(summary),
            judges_html=judges_html(judged) if judged.get("available") else None,
        )
        if not _write_html(html_out, text, err):
            return 2
    return 0


def _keep_runner_facts(path: Path, summary: dict) -> dict:
    """Keep what only the runner knew (loop lag, its last session, spend) when rewriting
    summary.json; the counts are recomputed from the records."""
    try:
        previous = read_json(path) if path.exists() else {}
    except (OSError, ValueError):  # unreadable: replaced whole
        previous = {}
    old_run = previous.get("run") if isinstance(previous, dict) else None
    if isinstance(old_run, dict):
        return {**summary, "run": {**old_run, **summary.get("run", {})}}
    return summary


def parse_pairs(values: Sequence[str]) -> list[tuple[str, str]]:
    """``A_AGENT=B_AGENT`` strings (agent specs may contain ':' but not '=')."""
    pairs = []
    for value in values:
        a, sep, b = value.partition("=")
        if not sep or not a or not b:
            raise InputError(f"--pair {value!r}: expected A_AGENT=B_AGENT")
        pairs.append((a, b))
    return pairs


def compare_command(
    run_a: Path,
    run_b: Path,
    *,
    pairs: Sequence[str],
    html: bool,
    html_path: Path | None,
    out: Console,
    err: Console,
) -> int:
    """Print the paired comparison of two runs; with ``html`` write it as HTML (default
    ./compare-<A>-vs-<B>.html)."""
    try:
        a, b = load_run(run_a), load_run(run_b)
        default = Path(f"compare-{_slug(a.run_id)}-vs-{_slug(b.run_id)}.html")
        html_out = _html_target(html, html_path, default)
        comparison = compare_runs(a, b, parse_pairs(pairs))
    except InputError as exc:
        err.print(f"error: {exc}", markup=False, highlight=False)
        return 2
    print_comparison(comparison, out)
    if html_out is not None and not _write_html(html_out, render_comparison(comparison), err):
        return 2
    return 0


def _slug(text: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in text) or "run"
