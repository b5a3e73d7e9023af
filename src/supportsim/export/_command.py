"""What ``supportsim export`` does, so the cli stays thin: check the flags, read the run
as the report does, write one level's table.

Exit codes: 0 written; 2 bad input (unknown format or level, not a run directory, a path
that cannot be written, parquet without pyarrow), with a message naming what to fix and
nothing written.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import cast

from rich.console import Console

from supportsim.errors import InputError
from supportsim.export._columns import COLUMNS, LEVELS, Level
from supportsim.export._tables import rows
from supportsim.export._write import FORMATS, Format, require_pyarrow, write_csv, write_parquet
from supportsim.report import load_run
from supportsim.store import CONVERSATIONS

STDOUT = "-"


def default_path(run_dir: Path, level: Level, to: Format) -> Path:
    """Where an export goes without ``--out``: ``RUN_DIR/export/<level>.<csv|parquet>``."""
    return run_dir / "export" / f"{level}.{to}"


def _choice(value: str, allowed: tuple[str, ...], flag: str) -> str:
    if value not in allowed:
        raise InputError(f"{flag} {value!r}: expected one of {', '.join(allowed)}")
    return value


def _target(run_dir: Path, level: Level, to: Format, out: str | None) -> Path | None:
    """The file to write; None for standard output (CSV only)."""
    if out is None:
        return default_path(run_dir, level, to)
    if out == STDOUT:
        if to != "csv":
            raise InputError("--out -: only CSV can be written to standard output")
        return None
    path = Path(out)
    folder = path.is_dir() or out.endswith(("/", os.sep))  # `--out exports/` may not exist yet
    return path / f"{level}.{to}" if folder else path


def export_command(
    run_dir: Path, *, to: str, level: str, out: str | None, err: Console, raw: bool = False
) -> int:
    """Write one level of a run as a flat table (see ``supportsim.export.COLUMNS``).
    ``raw``: CSV text cells that would start a spreadsheet formula are written as they
    are, not neutralised with a leading ``'`` (``export._write``)."""
    try:
        fmt = cast(Format, _choice(to, FORMATS, "--to"))
        lvl = cast(Level, _choice(level, LEVELS, "--level"))
        if fmt == "parquet":
            require_pyarrow()  # before any work: the message names the extra
        target = _target(run_dir, lvl, fmt, out)
        run = load_run(run_dir)
    except InputError as exc:
        err.print(f"error: {exc}", markup=False, highlight=False)
        return 2
    try:
        if fmt == "csv":
            count = write_csv(target, COLUMNS[lvl], rows(run, lvl), raw=raw)
        else:
            assert target is not None
            count = write_parquet(target, COLUMNS[lvl], rows(run, lvl))
    except InputError as exc:
        err.print(f"error: {run_dir / CONVERSATIONS}: {exc}", markup=False, highlight=False)
        return 2
    except OSError as exc:
        where = target or "standard output"
        err.print(f"error: {where}: cannot write ({exc.strerror or exc})", markup=False)
        return 2
    if target is not None:
        err.print(f"wrote {target} ({count} {lvl} rows)", markup=False, highlight=False)
    return 0
