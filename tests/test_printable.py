"""Operator-supplied names reach the terminal shown, never obeyed: escape sequences are made
visible and markup stays text, in the report, the progress lines and the CLI's errors."""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console
from typer.testing import CliRunner

from supportsim._printable import printable
from supportsim.cli import app
from supportsim.store import ConversationRecord, RunSection

EVIL = "evil\x1b]0;pwned\x07\x1b[2J[red]x[/]\u202eabc\x9b31m"
SHOWN = "evil\\x1b]0;pwned\\x07\\x1b[2J[red]x[/]\\u202eabc\\x9b31m"


def make_record(
    scenario: str, agent: str, trial: int, *, strict: bool = True
) -> ConversationRecord:
    return ConversationRecord.model_validate(
        {
            "unit_id": f"{scenario}|{agent}|{trial}",
            "scenario_id": scenario,
            "domain": "mock",
            "category": "cat",
            "agent": agent,
            "customer": "scripted",
            "trial": trial,
            "status": "completed",
            "termination": "customer_done",
            "strict": strict,
            "partial": 1.0 if strict else 0.0,
            "started_at": "2025-01-01T00:00:00+00:00",
            "ended_at": "2025-01-01T00:00:01+00:00",
        }
    )


def plain_console() -> tuple[Console, io.StringIO]:
    """No colour and no terminal: any ESC in the output came from the data."""
    buffer = io.StringIO()
    return Console(file=buffer, width=400, color_system=None, force_terminal=False), buffer


def test_plain_text_is_unchanged_and_escapes_are_shown() -> None:
    for text in ("oracle", "openai:gpt-4.1-mini", "naïve 日本語 – ok", "a|b|1", "[bold]x[/]"):
        assert printable(text) == text
    assert printable(EVIL) == SHOWN
    assert printable("two\nlines") == "two\\x0alines"
    assert printable("two\nlines\x1b", newlines=True) == "two\nlines\\x1b"
    assert printable(Path("a\x1b.yaml")) == "a\\x1b.yaml"


def test_a_name_cell_is_one_line_and_a_text_cell_keeps_its_lines() -> None:
    """The one way every terminal table (report, customer review, compare, trend, judges,
    progress) makes a cell of text it did not write: markup stays text, escapes shown."""
    from supportsim._tables import name_cell, text_cell

    assert (name_cell(EVIL).plain, name_cell(EVIL).spans) == (SHOWN, [])
    assert name_cell("two\nlines").plain == "two\\x0alines"
    cell = text_cell("two\nlines\x1b", style="red")
    assert (cell.plain, cell.style) == ("two\nlines\\x1b", "red")


def test_the_report_shows_an_agent_label_and_run_id_as_written() -> None:
    from supportsim.report import render_summary, summarise

    records = [make_record("s1", EVIL, 1), make_record("s1", "fine", 1, strict=False)]
    summary = summarise(records, trials=1)
    summary.run = RunSection(run_id="run\x1b[31m1", status="completed", units_planned=2)
    console, buffer = plain_console()
    render_summary(summary, console)
    text = buffer.getvalue()
    assert "\x1b" not in text and "\x07" not in text and "\u202e" not in text
    assert "evil\\x1b]0;pwned" in text and "[red]x[/]" in text  # markup printed as text
    assert "run run\\x1b[31m1" in text


def test_progress_lines_show_names_as_written() -> None:
    from types import SimpleNamespace

    from supportsim.app import Progress

    console, buffer = plain_console()
    progress = Progress(console, SimpleNamespace(), stats=None, spend=lambda: 0.0, live=False)
    record = make_record("s1", EVIL, 1)
    progress.on_record(record, SimpleNamespace(done=1, total=2))
    text = buffer.getvalue()
    assert "\x1b" not in text and "\x07" not in text
    assert f"[1/2] s1|{SHOWN}|1: completed" in text


def test_cli_errors_show_file_names_as_written(tmp_path: Path) -> None:
    bad = tmp_path / "bad\x1b[2J.yaml"
    bad.write_text("id: [unclosed\n", encoding="utf-8")
    result = CliRunner().invoke(
        app, ["validate", str(bad), "--personas", str(tmp_path)], env={"COLUMNS": "400"}
    )
    assert result.exit_code == 2, result.output
    assert "\x1b" not in result.output
    assert "bad\\x1b[2J.yaml:2: invalid YAML" in result.output
