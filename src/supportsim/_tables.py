"""Terminal tables (rich) that never cut a value, at any width (80 columns in a pipe or CI log).

rich shrinks a table that is too wide by cutting cells (``1,0…``, ``+61…``). ``fit``
turns that off: figures (right-justified columns) are never wrapped or cut, text columns
(names, reasons) wrap at spaces or fold, nothing ends in an ellipsis. When even that cannot
fit, it drops columns, lowest priority first, and says which in the caption. A number is
therefore shown whole or not shown, with a note saying so; ``report --json`` and ``--html``
always carry every figure.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from rich.cells import cell_len
from rich.console import Console
from rich.table import Column, Table
from rich.text import Text

from supportsim._printable import printable


def name_cell(value: object) -> Text:
    """One name (agent label, run id, scenario id) as a cell on one line: no markup,
    escape sequences made visible."""
    return Text(printable(value))


def text_cell(value: object, style: str = "") -> Text:
    """A cell we built, shown as written (it may span lines): no markup, escape sequences
    made visible."""
    return Text(printable(value, newlines=True), style=style)


def _plain(value: object) -> str:
    return value.plain if isinstance(value, Text) else str(value)


def _widest(value: object, *, words: bool) -> int:
    """The widest word (a wrapping column) or line (a figure) of a cell."""
    parts = _plain(value).split() if words else _plain(value).splitlines()
    return max((cell_len(part) for part in parts), default=0)


def _figures(column: Column) -> bool:
    return column.justify == "right"


def natural_width(table: Table) -> int:
    """The width this table takes when nothing wraps: widest cell or header line of each
    column, with padding and borders."""
    return _width(table, words=False)


def min_width(table: Table) -> int:
    """The narrowest this table can be drawn without cutting a value: each figure column
    as wide as its widest line, each text column as its longest word, every header as its
    longest word, with padding and borders."""
    return _width(table, words=True)


def _width(table: Table, *, words: bool) -> int:
    pad = table.padding[1] + table.padding[3] if len(table.padding) == 4 else 2
    widths = []
    for c in table.columns:
        cells = [_widest(cell, words=words and not _figures(c)) for cell in c.cells]
        widths.append(max([_widest(c.header, words=words), *cells]) + pad)
    borders = len(table.columns) + 1 if table.box is not None else 0
    return sum(widths) + borders


def fit(table: Table, console: Console | None = None, *, drop: Sequence[int] = ()) -> Table:
    """``table`` made to fit ``console.width`` without cutting a value.

    Args:
        table: A filled table (it is changed in place and returned).
        console: Where it will be printed (its width decides); None: only make cells fold
            instead of ending in an ellipsis, whatever the width turns out to be.
        drop: Column indexes in the order they may be dropped (first: least needed).
            Columns not listed are always kept.
    """
    for column in table.columns:
        column.overflow = "fold"
    if console is None:
        return table
    narrow = natural_width(table) > console.width
    for column in table.columns:
        column.no_wrap = _figures(column)  # rich then narrows the text columns only
        if column.no_wrap and narrow:  # a figure's header wraps by hand, to its width
            widest = max((_widest(cell, words=False) for cell in column.cells), default=0)
            header = _plain(column.header)
            width = max(widest, _widest(header, words=True))
            column.header = "\n".join(textwrap.wrap(header, width)) if header else header
    dropped: list[str] = []
    columns = list(table.columns)
    for index in drop:
        if min_width(table) <= console.width:
            break
        column = columns[index]
        table.columns = [c for c in table.columns if c is not column]
        dropped.append(" ".join(_plain(column.header).split()))
    if dropped:
        note = f"not shown at {console.width} columns: {', '.join(dropped)} (see --json or --html)"
        table.caption = note if table.caption is None else f"{table.caption}; {note}"
    return table
