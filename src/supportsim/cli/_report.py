"""Reading finished runs: ``supportsim report`` (one run), ``compare`` (two) and
``trend`` (many); each hands its flags to the command of ``supportsim.report``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from supportsim.cli._app import app, err, fail_input, out
from supportsim.cli._options import FailUnderOpt, HtmlFlag
from supportsim.errors import InputError


@app.command()
def report(
    run_dir: Annotated[Path, typer.Argument(help="A run directory (runs/<id>).")],
    path: Annotated[
        Path | None,
        typer.Argument(
            help="Where --html writes (default RUN_DIR/report.html); with --json alone, where "
            "the JSON goes (- for standard output).",
        ),
    ] = None,
    html: HtmlFlag = False,
    json_out: Annotated[
        bool,
        typer.Option(
            "--json",
            help="Write the summary JSON: to RUN_DIR/summary.json, or to PATH; --json - prints "
            "it on standard output (and nothing else goes there).",
        ),
    ] = False,
    junit: Annotated[
        Path | None, typer.Option("--junit", help="Write JUnit XML (one test case per unit).")
    ] = None,
    markdown: Annotated[
        Path | None,
        typer.Option(
            "--markdown",
            help="Write a Markdown summary to PATH, or with - to standard output "
            '(>> "$GITHUB_STEP_SUMMARY").',
        ),
    ] = None,
    fail_under: FailUnderOpt = None,
) -> None:
    """Summarise a run (finished or not) in the terminal, as summary.json, HTML, JUnit XML
    or Markdown; with --fail-under exit 1 when an agent is below a gate."""
    from supportsim.batch import parse_thresholds
    from supportsim.report import report_command

    try:
        gates = parse_thresholds(fail_under) if fail_under else None
    except InputError as exc:
        raise fail_input(exc) from None
    json_path: str | None = None
    if json_out and path is not None and (str(path) == "-" or not html):
        json_path, path = str(path), None  # --json -, or --json PATH without --html
    code = report_command(
        run_dir,
        json_out=json_out and json_path is None,
        json_path=json_path,
        html=html,
        html_path=path,
        junit_path=junit,
        markdown_path=markdown,
        fail_under=gates,
        out=out,
        err=err,
    )
    raise typer.Exit(code)


@app.command()
def compare(
    run_a: Annotated[Path, typer.Argument(help="The baseline run directory (A).")],
    run_b: Annotated[Path, typer.Argument(help="The run compared with it (B).")],
    path: Annotated[
        Path | None,
        typer.Argument(help="Where --html writes (default ./compare-<A>-vs-<B>.html)."),
    ] = None,
    html: HtmlFlag = False,
    pair: Annotated[
        list[str] | None,
        typer.Option("--pair", help="Compare A_AGENT in A with B_AGENT in B (repeat)."),
    ] = None,
    fail_on_regression: Annotated[
        list[str] | None,
        typer.Option(
            "--fail-on-regression",
            help="strict, partial, latency_p90 or cost (repeat or comma-list): exit 1 when "
            "the comparison's test calls B worse on one; refused (exit 2) when the runs' "
            "setups differ, unless --allow-different.",
        ),
    ] = None,
    allow_different: Annotated[
        bool,
        typer.Option(
            "--allow-different",
            help="Gate with --fail-on-regression even when the runs' setups differ "
            "(Customer, scenarios, judges, models, supportsim version).",
        ),
    ] = False,
    json_out: Annotated[
        str | None,
        typer.Option("--json", help="Also write the comparison as JSON to PATH (-: stdout)."),
    ] = None,
    customer: Annotated[
        str | None,
        typer.Option(
            "--customer",
            help="Compare under this Customer (needed when a run played several).",
        ),
    ] = None,
) -> None:
    """Compare two runs, paired by scenario and trial: deltas, intervals, tests, verdict."""
    from supportsim.report import compare_command

    code = compare_command(
        run_a,
        run_b,
        pairs=pair or [],
        html=html,
        html_path=path,
        out=out,
        err=err,
        fail_on_regression=fail_on_regression or [],
        allow_different=allow_different,
        json_path=json_out,
        customer=customer,
    )
    raise typer.Exit(code)


@app.command()
def trend(
    run_dirs: Annotated[
        list[str], typer.Argument(help="Run directories, or a quoted glob ('runs/nightly-*').")
    ],
    html_path: Annotated[
        Path | None, typer.Option("--html", help="Also write the trend as an HTML page here.")
    ] = None,
    json_path: Annotated[
        str | None,
        typer.Option("--json", help="Also write the trend as JSON here (- : standard output)."),
    ] = None,
) -> None:
    """Strict, partial, pass^k, latency and cost per agent over runs (oldest first), with
    the changes the paired comparison test calls significant marked."""
    from supportsim.report import trend_command

    code = trend_command(run_dirs, html_path=html_path, json_path=json_path, out=out, err=err)
    raise typer.Exit(code)
