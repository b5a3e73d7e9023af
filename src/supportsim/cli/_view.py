"""``supportsim view``: the local web viewer over run directories."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from supportsim.cli._app import app, err, out


@app.command()
def view(
    runs_dir: Annotated[
        Path, typer.Argument(help="A folder of run directories (or one run directory).")
    ] = Path("runs"),
    host: Annotated[
        str, typer.Option(help="Loopback address to serve on (127.0.0.1, ::1, localhost).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port (0: any free port).")] = 8600,
) -> None:
    """Browse runs in a local web viewer: an index of runs, each run's leaderboards,
    filterable units and conversations, compare and trend; live while a run writes.

    Loopback only (transcripts hold customer data; there is no login). It reads the run
    directories and never writes them. Stop it with Ctrl-C.
    """
    from supportsim.view import view_command

    raise typer.Exit(view_command(runs_dir, host=host, port=port, out=out, err=err))
