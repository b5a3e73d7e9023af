"""Terminal tables at 80 columns (a pipe, a CI log) never cut a value: a figure is shown
whole or its column is left out with a caption that says so (``supportsim._tables``)."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from rich.console import Console
from rich.table import Table

from supportsim._tables import fit, min_width
from supportsim.report import compare_runs, load_run, render_summary, summarise_run
from supportsim.report._compare_terminal import render_comparison
from supportsim.report._trend import trend
from supportsim.report._trend_terminal import render_trend

ELLIPSIS = "…"


def _printed(draw, width: int) -> str:  # type: ignore[no-untyped-def]
    buffer = io.StringIO()
    draw(Console(file=buffer, width=width, color_system=None))
    return buffer.getvalue()


def wide_table() -> Table:
    table = Table(title="t")
    table.add_column("agent")
    for name in ("scored/units", "strict", "95% CI", "partial", "gap pts", "p50 ms", "cost"):
        table.add_column(name, justify="right")
    table.add_row(
        "a-rather-long-agent-label", "1,000/1,000", "100.0%", "[72.2, 100.0]", "61.2%", "+61.2",
        "1,355", "$0.0123",
    )  # fmt: skip
    return table


@pytest.mark.parametrize("width", [40, 60, 80, 120])
def test_a_figure_is_whole_or_not_shown_at_any_width(width: int) -> None:
    out = _printed(lambda c: c.print(fit(wide_table(), c, drop=[5, 3, 6, 7, 1])), width)
    assert ELLIPSIS not in out
    assert max(len(line) for line in out.splitlines()) <= width
    figures = ["1,000/1,000", "100.0%", "[72.2,", "61.2%", "+61.2", "1,355", "$0.0123"]
    shown = [f for f in figures if f in out]
    assert "100.0%" in shown and "61.2%" in shown  # never dropped
    for figure in figures:
        if figure not in shown:
            assert "not shown at" in out  # a dropped column is said
    for line in out.splitlines():  # no figure broken over two lines
        assert not re.search(r"\d,$|^\d{3}\b", line.strip("│┃ "))


def test_without_a_console_cells_fold_instead_of_ending_in_an_ellipsis() -> None:
    table = fit(wide_table())
    assert all(c.overflow == "fold" for c in table.columns)
    assert min_width(table) > 40


def test_a_wide_terminal_keeps_headers_on_one_line() -> None:
    out = _printed(lambda c: c.print(fit(wide_table(), c, drop=[5])), 200)
    assert "scored/units" in out and "gap pts" in out and "not shown" not in out


def test_the_report_at_80_columns_cuts_nothing(v1_dir: Path) -> None:
    run = load_run(v1_dir)
    out = _printed(lambda c: render_summary(summarise_run(run), c), 80)
    assert ELLIPSIS not in out
    assert max(len(line) for line in out.splitlines()) <= 80


def test_compare_and_trend_at_80_columns_cut_nothing(v1_dir: Path, v2_dir: Path) -> None:
    a, b = load_run(v1_dir), load_run(v2_dir)
    compared = _printed(lambda c: render_comparison(compare_runs(a, b), c), 80)
    assert ELLIPSIS not in compared
    trended = _printed(lambda c: render_trend(trend([a, b]), c), 80)
    assert ELLIPSIS not in trended
    assert max(len(line) for line in trended.splitlines()) <= 80
