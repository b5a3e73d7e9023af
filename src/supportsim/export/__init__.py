"""Exports: a run's units, messages, checks and tool calls as flat tables (CSV or parquet)
that pandas, polars and DuckDB read as they are.

Placed after ``report`` in the pipeline: it reads a run as the report does
(``load_run``), so an export counts the same conversations the report counts.
"""

from supportsim.export._columns import COLUMNS, LEVELS, Column, ColumnType, Level
from supportsim.export._command import default_path, export_command
from supportsim.export._tables import Row, rows
from supportsim.export._write import (
    FORMATS,
    PARQUET_EXTRA,
    Format,
    require_pyarrow,
    write_csv,
    write_csv_to,
    write_parquet,
)

__all__ = [
    "COLUMNS",
    "FORMATS",
    "LEVELS",
    "PARQUET_EXTRA",
    "Column",
    "ColumnType",
    "Format",
    "Level",
    "Row",
    "default_path",
    "export_command",
    "require_pyarrow",
    "rows",
    "write_csv",
    "write_csv_to",
    "write_parquet",
]
