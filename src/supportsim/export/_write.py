"""Write an export table as CSV (stdlib ``csv``) or parquet (pyarrow, an optional extra).

Both are written whole or not at all: to a temporary file in the target folder, then
renamed. CSV follows RFC 4180 as Python's ``csv`` writes it (fields with commas, quotes or
newlines quoted), with ``true``/``false`` for booleans and an empty field for a missing
value, which pandas, polars and DuckDB all read as a boolean and as null.

CSV text cells are neutralised against spreadsheet formula injection (OWASP's rule): a
text or JSON cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return
gets a leading ``'``, so a model's ``=HYPERLINK(...)`` opened by double-click stays text.
Numbers, booleans and times are never changed. ``raw=True`` (``--raw``) writes every value
as it is, for tools that must read the exact text (pandas and DuckDB do not need it for
numbers, but do for such model text). Parquet carries no formulas and is never changed.
Parquet carries
the types (timestamps in UTC, JSON columns as text) and each column's meaning as field
metadata.
"""

from __future__ import annotations

import csv
import os
import sys
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType
from typing import IO, Any, Literal

from supportsim.errors import InputError
from supportsim.export._columns import Column
from supportsim.export._tables import Row

Format = Literal["csv", "parquet"]
FORMATS: tuple[Format, ...] = ("csv", "parquet")
PARQUET_EXTRA = "pip install 'supportsim[parquet]'"


def require_pyarrow() -> tuple[ModuleType, ModuleType]:
    """(pyarrow, pyarrow.parquet), or an InputError naming the extra that installs them."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise InputError(
            f"--to parquet needs pyarrow, in the optional extra `parquet`: {PARQUET_EXTRA}"
        ) from None
    return pa, pq


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What a spreadsheet reads as the start of a formula (or hides before one)."""
_TEXT: frozenset[str] = frozenset({"string", "json"})


def _cell(value: Any, *, text: bool = False, raw: bool = False) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    cell = str(value)
    if text and not raw and cell.startswith(FORMULA_STARTS):
        return "'" + cell
    return cell


def write_csv_to(
    stream: IO[str], columns: Sequence[Column], rows: Iterable[Row], *, raw: bool = False
) -> int:
    """Write a header and the rows to an open text stream; the number of rows. Text cells
    that would start a formula get a leading ``'`` unless ``raw`` (module docstring)."""
    writer = csv.writer(stream)
    names = [c.name for c in columns]
    texts = [c.type in _TEXT for c in columns]
    writer.writerow(names)
    count = 0
    for row in rows:
        writer.writerow([_cell(row[n], text=t, raw=raw) for n, t in zip(names, texts, strict=True)])
        count += 1
    return count


def _replace_atomically(path: Path, write: Any) -> None:
    """Call ``write(tmp_path)``, then rename onto ``path``; no temp file survives a failure."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        write(tmp)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_csv(
    path: Path | None, columns: Sequence[Column], rows: Iterable[Row], *, raw: bool = False
) -> int:
    """Write a CSV file (``None``: standard output); the number of rows.

    Raises:
        OSError: The file cannot be written (nothing is left behind).
    """
    if path is None:
        return write_csv_to(sys.stdout, columns, rows, raw=raw)
    count = 0

    def write(tmp: Path) -> None:
        nonlocal count
        with tmp.open("w", encoding="utf-8", newline="") as f:
            count = write_csv_to(f, columns, rows, raw=raw)
            f.flush()
            os.fsync(f.fileno())

    _replace_atomically(path, write)
    return count


def _timestamp(row: Row, column: str) -> datetime | None:
    value = row[column]
    if not value:
        return None
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise InputError(
            f"unit {row['unit_id']}: {column} {value!r} is not an ISO 8601 time"
        ) from None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def write_parquet(path: Path, columns: Sequence[Column], rows: Iterable[Row]) -> int:
    """Write a parquet file with typed columns; the number of rows.

    Raises:
        InputError: pyarrow is not installed (names the extra), or a record's time is not
            ISO 8601 (names the unit and the field).
        OSError: The file cannot be written (nothing is left behind).
    """
    pa, pq = require_pyarrow()
    types = {
        "string": pa.string(),
        "json": pa.string(),
        "int": pa.int64(),
        "float": pa.float64(),
        "bool": pa.bool_(),
        "timestamp": pa.timestamp("us", tz="UTC"),
    }
    schema = pa.schema(
        [pa.field(c.name, types[c.type], metadata={"description": c.doc}) for c in columns]
    )
    data: dict[str, list[Any]] = {c.name: [] for c in columns}
    for row in rows:
        for c in columns:
            data[c.name].append(_timestamp(row, c.name) if c.type == "timestamp" else row[c.name])
    table = pa.Table.from_pydict(data, schema=schema)
    _replace_atomically(path, lambda tmp: pq.write_table(table, tmp))
    return table.num_rows
