"""A run's files for other tools: ``supportsim export`` (flat tables) and ``schemas``
(the JSON Schema of every file of a run directory)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from supportsim._printable import printable
from supportsim.cli._app import app, err, out


@app.command()
def export(
    run_dir: Annotated[Path, typer.Argument(help="A run directory (runs/<id>).")],
    to: Annotated[str, typer.Option("--to", help="File format: csv or parquet.")] = "csv",
    level: Annotated[
        str, typer.Option("--level", help="One row per: unit, message, check or call.")
    ] = "unit",
    out_path: Annotated[
        str | None,
        typer.Option(
            "--out",
            help="File (or folder) to write; - for standard output (CSV). "
            "Default RUN_DIR/export/<level>.<csv|parquet>.",
        ),
    ] = None,
    raw: Annotated[
        bool,
        typer.Option(
            "--raw",
            help="CSV: write text cells as they are. By default a cell starting with = + - @ "
            "(a spreadsheet formula) gets a leading ' so opening the file runs nothing.",
        ),
    ] = False,
) -> None:
    """Export a run as a flat table (units, messages, checks or tool calls) for pandas,
    polars or DuckDB; parquet needs the `parquet` extra."""
    from supportsim.export import export_command

    raise typer.Exit(export_command(run_dir, to=to, level=level, out=out_path, err=err, raw=raw))


@app.command()
def schemas(
    folder: Annotated[Path, typer.Argument(help="Where to write them.")] = Path("schemas"),
) -> None:
    """Write the JSON Schema of every file in a run directory (<name>.schema.json)."""
    from supportsim.store import export_schemas

    for path in export_schemas(folder):
        out.print(f"wrote {printable(path)}", markup=False, highlight=False)
