"""What ``supportsim report`` and ``supportsim compare`` do, so the cli stays thin.

Each returns an exit code: 0 done, 2 bad input (not a run directory, unreadable
manifest, unknown agent); the message names the path. Output files are written whole or
not at all.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import orjson
from rich.console import Console

from supportsim._printable import printable
from supportsim.batch import check_gates, check_trials, describe_gates
from supportsim.errors import InputError
from supportsim.judges import agreement_summary
from supportsim.judges import render_html as judges_html
from supportsim.judges import render_terminal as render_judges
from supportsim.llm import Scrubber
from supportsim.report._aggregate import summarise
from supportsim.report._compare import compare_runs
from supportsim.report._compare_terminal import render_comparison as print_comparison
from supportsim.report._gates import parse_regression_metrics, regressions, ungated
from supportsim.report._html import render_comparison, render_report, write_output
from supportsim.report._junit import render_junit
from supportsim.report._load import RunData, load_run
from supportsim.report._markdown import render_markdown
from supportsim.report._setup import SetupDifference, under_customer
from supportsim.report._terminal import render_summary
from supportsim.store import (
    SUMMARY,
    ReasonCount,
    RescoredInfo,
    RunSection,
    StoreError,
    Summary,
    checked_model,
    gc_paused,
    read_json,
    with_loop_lag,
    write_json,
)


def summarise_run(run: RunData) -> Summary:
    """summary.json of a loaded run (configured trials, run.json details, and when its
    verdicts were rescored)."""
    with gc_paused():  # it makes many small objects beside every record: see gc_paused
        summary = summarise(run.records, trials=run.trials, manifest=run.manifest)
    if summary.run is not None:
        summary.run.units_foreign = len(run.foreign)
        summary.run.foreign_reasons = [
            ReasonCount(reason=reason, count=n) for reason, n in run.foreign.reasons
        ]
    if run.rescored_at is not None:
        summary.rescored = RescoredInfo(at=run.rescored_at, units=run.rescored_units)
    return summary


def _in_progress(summary: Summary) -> bool:
    run = summary.run or RunSection()
    planned = run.units_planned
    return run.status == "running" or bool(planned and summary.units < planned)


def _html_target(
    html: bool, path: Path | None, default: Path, flags: str = "--html"
) -> Path | None:
    if path is not None and not html:
        raise InputError(f"{path}: an output path is only taken with {flags}")
    target = (path or default) if html else None
    if target is not None and target.is_dir():
        raise InputError(f"{target}: is a folder; give the HTML file's path (e.g. report.html)")
    return target


def _output_target(flag: str, path: Path | None) -> Path | None:
    if path is not None and path.is_dir():
        raise InputError(f"{flag} {path}: is a folder; give the file's path")
    return path


def report_command(
    run_dir: Path,
    *,
    json_out: bool = False,
    html: bool,
    html_path: Path | None,
    out: Console,
    err: Console,
    json_path: str | None = None,
    junit_path: Path | None = None,
    markdown_path: Path | None = None,
    fail_under: Mapping[str, float] | None = None,
) -> int:
    """The terminal report, and the files asked for; returns the exit code.

    ``json_out`` writes RUN_DIR/summary.json; ``json_path`` writes the same document
    elsewhere, or with ``"-"`` prints it on standard output (then nothing else goes
    there: the terminal view goes to ``err``). ``html`` writes the HTML report (default
    RUN_DIR/report.html), ``junit_path`` JUnit XML, ``markdown_path`` a Markdown summary
    (``-``: standard output, e.g. ``>> "$GITHUB_STEP_SUMMARY"``).
    ``fail_under`` gates (``check_gates``) make the exit code 1 when an agent is below
    one. Files are written before anything is printed, so a closed standard output
    (``| head``) cannot stop them. Works on a run still going: it reports what has
    finished."""
    json_stdout = json_path == "-"
    markdown_stdout = markdown_path is not None and str(markdown_path) == "-"
    to_stdout = json_stdout or markdown_stdout
    json_file = run_dir / SUMMARY if json_out else None
    if json_path not in (None, "", "-"):
        json_file = Path(json_path)
    try:
        if json_stdout and markdown_stdout:
            raise InputError("--json - and --markdown -: only one can go to standard output")
        html_out = _html_target(html, html_path, run_dir / "report.html", "--html or --json")
        json_file = _output_target("--json", json_file)
        junit_out = _output_target("--junit", junit_path)
        markdown_out = None if markdown_stdout else _output_target("--markdown", markdown_path)
        run = load_run(run_dir)
        if fail_under:
            check_trials(fail_under, run.trials, where="--fail-under")
    except InputError as exc:
        err.print(f"error: {exc}", markup=False, highlight=False)
        return 2
    view = err if to_stdout else out
    summary = summarise_run(run)
    judged = agreement_summary(run_dir)
    if judged.get("available"):
        summary.judges = judged
    misses = check_gates(summary, fail_under) if fail_under else []
    gate_lines = [m.reason() for m in misses]
    if fail_under and not misses:
        gate_lines = [f"gates passed: {describe_gates(fail_under)} for every agent"]
    # With what only the runner knew (its loop lag, last session, the do-nothing floor),
    # for every format.
    try:
        summary = _keep_runner_facts(run_dir / SUMMARY, summary)
    except InputError as exc:
        err.print(f"error: {exc}", markup=False, highlight=False)
        return 2
    document = summary.document()
    if json_file is not None:
        try:
            json_file.parent.mkdir(parents=True, exist_ok=True)
            write_json(json_file, document)  # summary.json has one writer: the store's
        except (StoreError, OSError) as exc:
            why = getattr(exc, "strerror", None) or exc
            err.print(f"error: {json_file}: cannot write ({why})", markup=False)
            return 2
        err.print(f"wrote {json_file}", markup=False, highlight=False)
    files: list[tuple[Path, Callable[[], str]]] = []
    if html_out is not None:
        files.append(
            (
                html_out,
                lambda: render_report(
                    summary,
                    run.records,
                    run_id=run.run_id,
                    in_progress=_in_progress(summary),
                    judges_html=judges_html(judged) if judged.get("available") else None,
                ),
            )
        )
    if junit_out is not None:
        files.append((junit_out, lambda: render_junit(run)))
    if markdown_out is not None:
        files.append(
            (
                markdown_out,
                lambda: render_markdown(summary, run_id=run.run_id, gate_lines=gate_lines),
            )
        )
    for target, text in files:
        if not write_output(target, text(), err):
            return 2

    def show() -> None:
        if json_stdout:
            out.file.write(_json_text(document))
            out.file.flush()
        if markdown_stdout:
            out.file.write(render_markdown(summary, run_id=run.run_id, gate_lines=gate_lines))
            out.file.flush()
        render_summary(summary, view)
        if judged.get("available"):
            view.print(render_judges(judged))

    _print_to_pipe(show, out)
    if run.foreign:
        err.print(f"warning: {run.foreign.describe()}", markup=False, highlight=False)
    for line in gate_lines:
        err.print(printable(line), markup=False, highlight=False)
    return 1 if misses else 0


def _json_text(document: Mapping[str, Any]) -> str:
    """summary.json's text, as ``write_json`` writes it (URL credentials scrubbed)."""
    return (
        orjson.dumps(
            Scrubber().data(document), option=orjson.OPT_INDENT_2 | orjson.OPT_NON_STR_KEYS
        ).decode()
        + "\n"
    )


def _print_to_pipe(show: Callable[[], None], console: Console) -> None:
    """Run ``show``; when standard output is a closed pipe (``| head``), stop printing
    quietly and go on, so the exit code still reports the gates. Rich answers a broken
    pipe by pointing stdout at /dev/null and raising SystemExit(1); a plain write raises
    BrokenPipeError, answered the same way here."""
    try:
        show()
    except BrokenPipeError:
        console.quiet = True
        with contextlib.suppress(OSError, ValueError, AttributeError, io.UnsupportedOperation):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
    except SystemExit:
        if not console.quiet:  # not rich's broken-pipe exit: someone meant it
            raise


def _keep_runner_facts(path: Path, summary: Summary) -> Summary:
    """Keep what only the runner knew (loop lag, its last session, spend, the do-nothing
    floor) when rewriting summary.json; the counts are recomputed from the records. The
    stored file is read as the Summary it must be; an unreadable one is replaced whole, a
    stored one that does not fit the model is an error naming the file and the field.

    Raises:
        ScenarioError: the stored summary.json does not fit ``Summary`` (an InputError).
    """
    try:
        previous = read_json(path) if path.exists() else {}
    except (OSError, ValueError):  # unreadable: replaced whole
        previous = {}
    if not isinstance(previous, dict):
        return summary
    stored = previous.get("run")
    kept: dict[str, Any] = {}
    if previous.get("floor") is not None:  # computed by the runner only
        kept["floor"] = previous["floor"]
    if isinstance(stored, dict):
        ours = summary.run.model_dump(exclude_unset=True) if summary.run else {}
        kept["run"] = {**stored, **ours}
    if not kept:
        return summary
    # checked as the whole document, so an error names the field's full path (run.bogus)
    merged = checked_model(Summary, {**summary.document(), **kept}, path)
    if merged.floor is not None:
        summary.floor = merged.floor
    if merged.run is not None and isinstance(stored, dict):
        summary.run = merged.run
        # the lag part of the measurement is the runner's
        summary.measurement = with_loop_lag(summary.measurement, merged.run.loop_lag)
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
    fail_on_regression: Sequence[str] = (),
    allow_different: bool = False,
    json_path: str | None = None,
    customer: str | None = None,
) -> int:
    """Print the paired comparison of two runs (under ``customer`` when a run played several
    Customers: ``_setup.under_customer``; refused without it, exit 2); with ``html`` write
    it as HTML (default ./compare-<A>-vs-<B>.html), with ``json_path`` as JSON (``-``:
    standard output, the terminal view then goes to ``err``), before printing, so ``compare
    | head`` still writes them. Every difference between the runs' setups is shown first.

    With ``fail_on_regression`` metrics (strict, partial, latency_p90, cost) the exit code
    is 1 when the comparison's test calls B worse on one of them. A comparison whose setups
    differ in what changes a number (``_setup``: the Customer, the scenario set, a judge,
    ...) is refused then, exit 2 with nothing written, unless ``allow_different``: a gate
    must not pass or fail on a change that is not the Agent's. Latency verdicts from a run
    whose client was saturated are marked unreliable and never gate."""
    json_stdout = json_path == "-"
    try:
        metrics = parse_regression_metrics(fail_on_regression)
        json_file = None if json_path in (None, "", "-") else Path(json_path)
        json_file = _output_target("--json", json_file)
        a = under_customer(load_run(run_a), "A", customer)
        b = under_customer(load_run(run_b), "B", customer)
        default = Path(f"compare-{_slug(a.run_id)}-vs-{_slug(b.run_id)}.html")
        html_out = _html_target(html, html_path, default)
        comparison = compare_runs(a, b, parse_pairs(pairs), customer=customer)
        if metrics and not comparison["setup"]["comparable"] and not allow_different:
            raise InputError(_refusal(comparison))
    except InputError as exc:
        err.print(f"error: {exc}", markup=False, highlight=False)
        return 2
    if html_out is not None and not write_output(html_out, render_comparison(comparison), err):
        return 2
    text = orjson.dumps(comparison, option=orjson.OPT_INDENT_2).decode() + "\n"
    if json_file is not None and not write_output(json_file, text, err):
        return 2
    view = err if json_stdout else out

    def show() -> None:
        if json_stdout:
            out.file.write(text)
            out.file.flush()
        print_comparison(comparison, view)

    _print_to_pipe(show, out)
    found = regressions(comparison, metrics)
    # A gate never passes on no data: an agent pair with no scored pair cannot show that
    # B did not regress, so it fails the gate as a regression would.
    found += [
        f"gate failed: {row['label']}: no paired conversations, so no regression could be "
        "tested (each needs a completed unit of the same scenario and trial in both runs)"
        for row in (comparison["agents"] if metrics else [])
        if not row["pairs"]
    ]
    for line in [*ungated(comparison, metrics), *found]:
        err.print(printable(line), markup=False, highlight=False)
    if metrics and not found:
        err.print(f"no regression detected on {', '.join(metrics)}", markup=False, highlight=False)
    return 1 if found else 0


def _refusal(comparison: Mapping[str, Any]) -> str:
    """Why a gated comparison is refused: each difference that changes a number."""
    blocking = [d for d in comparison["setup"]["differences"] if d["blocking"]]
    lines = [SetupDifference(**d).describe() for d in blocking]
    return (
        "the runs were made with different setups, so a regression gate would judge the "
        "setup, not the Agent; pass --allow-different to gate anyway:\n  " + "\n  ".join(lines)
    )


def _slug(text: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in text) or "run"
