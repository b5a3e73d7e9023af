"""``run_command`` (what ``supportsim run`` calls): exit codes, output, nothing written on
bad input. Oracle agent and scripted customer: no model server needed."""

from __future__ import annotations

import io
import json
from pathlib import Path

from batch_helpers import LOOKUP, request
from rich.console import Console

from supportsim.app import run_command


def consoles() -> tuple[Console, Console, io.StringIO, io.StringIO]:
    out, err = io.StringIO(), io.StringIO()
    return Console(file=out, width=200), Console(file=err, width=200), out, err


def test_a_complete_run_exits_0_and_prints_the_table_and_the_directory(out: Path):
    console, err_console, text, _ = consoles()
    code = run_command(
        request(out, run_id="ok", trials=2),
        env={},
        console=console,
        err=err_console,
    )
    printed = text.getvalue()
    assert code == 0
    assert "run ok: 4 of 4 units to run (2 scenarios x 1 agents x 2 trials)" in printed
    assert "[4/4]" in printed and "leaderboard: quality" in printed
    assert f"run directory: {out / 'ok'}" in printed
    summary = json.loads((out / "ok" / "summary.json").read_text())
    assert summary["run"]["status"] == "completed"
    assert summary["run"]["units_recorded"] == 4
    assert summary["agents"]["oracle"]["strict_rate"] == 1.0
    assert summary["run"]["loop_lag"]["samples"] >= 0
    # the do-nothing floor of these scenarios, offline: what the figures are read against
    assert summary["floor"] == {
        "agent": "baseline:do-nothing",
        "scenarios": 2,
        "strict_passes": 0,
        "partial_mean": 0.0,
    }
    floor = "do-nothing floor: an agent that does nothing scores strict 0/2 and partial 0.0%"
    assert floor in printed


def test_report_keeps_the_floor_and_shows_it_in_the_terminal_and_the_html(out: Path):
    from typer.testing import CliRunner

    from supportsim.cli import app

    console, err_console, _, _ = consoles()
    assert (
        run_command(
            request(out, run_id="fl"),
            env={},
            console=console,
            err=err_console,
        )
        == 0
    )
    run_dir = out / "fl"
    shown = CliRunner().invoke(
        app, ["report", str(run_dir), "--html", str(out / "r.html")], env={"COLUMNS": "200"}
    )
    assert shown.exit_code == 0, shown.output
    line = "do-nothing floor: an agent that does nothing scores strict 0/2 and partial 0.0%"
    assert line in shown.output
    assert line in (out / "r.html").read_text()
    assert json.loads((run_dir / "summary.json").read_text())["floor"]["scenarios"] == 2


def test_bad_input_exits_2_and_writes_nothing(out: Path):
    console, err_console, _, err = consoles()
    code = run_command(
        request(out, run_id="bad", agents=["nonsense:model"]),
        env={},
        console=console,
        err=err_console,
    )
    assert code == 2
    assert "unknown model spec 'nonsense:model'" in err.getvalue()
    assert not out.exists()


def test_a_missing_key_exits_2_naming_the_variable(out: Path):
    console, err_console, _, err = consoles()
    code = run_command(
        request(out, run_id="k", agents=["openai:gpt-4.1-mini"]),
        env={},
        console=console,
        err=err_console,
    )
    assert code == 2
    assert "OPENAI_API_KEY is not set" in err.getvalue()
    assert not out.exists()


def test_a_stopped_run_exits_1_and_says_how_to_resume(out: Path):
    console, err_console, text, _ = consoles()
    code = run_command(
        request(out, run_id="late", ids=[LOOKUP], deadline_s="0.000000001"),
        env={},
        console=console,
        err=err_console,
    )
    assert code == 1
    assert "the deadline passed" in text.getvalue()
    assert "--run-id late --resume" in text.getvalue()
    code = run_command(
        request(out, run_id="late", ids=[LOOKUP], resume=True),
        env={},
        console=console,
        err=err_console,
    )
    assert code == 0


def test_the_end_of_a_run_streams_its_records_and_holds_none(out: Path, monkeypatch) -> None:
    """``supportsim run`` prints figures only: loading every record at the end (gigabytes
    for a long run) is ``supportsim.run``'s, never the command's."""
    import supportsim.app._run as app_run

    def every_record(*_: object) -> None:
        raise AssertionError("supportsim run loaded every record of the run")

    monkeypatch.setattr(app_run, "latest_records", every_record)
    console, err_console, text, _ = consoles()
    code = run_command(request(out, run_id="lean"), env={}, console=console, err=err_console)
    assert code == 0, text.getvalue()
    assert json.loads((out / "lean" / "summary.json").read_text())["units"] > 0


def test_a_stored_summary_that_does_not_fit_is_bad_input_naming_the_field(out: Path) -> None:
    from typer.testing import CliRunner

    from supportsim.cli import app

    console, err_console, _, _ = consoles()
    assert (
        run_command(request(out, run_id="bad-doc"), env={}, console=console, err=err_console) == 0
    )
    path = out / "bad-doc" / "summary.json"
    stored = json.loads(path.read_text())
    stored["run"]["bogus"] = 1  # a field no summary.json has
    path.write_text(json.dumps(stored))
    shown = CliRunner().invoke(app, ["report", str(out / "bad-doc"), "--json"])
    assert shown.exit_code == 2, shown.output
    assert "summary.json" in shown.output and "run.bogus" in shown.output
    assert json.loads(path.read_text())["run"]["bogus"] == 1  # nothing rewritten
