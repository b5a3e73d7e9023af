"""Reading a run directory back: a damaged line in the middle of conversations.jsonl is
reported with its file and line (by ``report`` and by ``--resume``), only a torn last
line is repaired, and a record of a unit outside the plan is foreign, never counted."""

from __future__ import annotations

import io
import json
from pathlib import Path

from batch_helpers import LOOKUP, REFUND, request
from rich.console import Console

from supportsim.app import run_command
from supportsim.report import report_command
from supportsim.store import CONVERSATIONS, iter_records


def run(out: Path, **overrides: object) -> tuple[int, str, str]:
    text, errors = io.StringIO(), io.StringIO()
    code = run_command(
        request(out, run_id="r", **overrides),  # type: ignore[arg-type]
        env={},
        console=Console(file=text, width=200),
        err=Console(file=errors, width=200),
    )
    return code, text.getvalue(), errors.getvalue()


def report(run_dir: Path) -> tuple[int, str, str]:
    text, errors = io.StringIO(), io.StringIO()
    code = report_command(
        run_dir,
        json_out=False,
        html=False,
        html_path=None,
        out=Console(file=text, width=200),
        err=Console(file=errors, width=200),
    )
    return code, text.getvalue(), errors.getvalue()


def test_a_damaged_middle_line_is_reported_by_report_and_resume(out: Path):
    assert run(out, trials=2)[0] == 0
    path = out / "r" / CONVERSATIONS
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join([lines[0], b'{"unit_id": "x", "sta\n', *lines[1:]]))

    code, _, errors = report(out / "r")
    assert code == 2
    assert f"{path}:2" in errors and "damaged line" in errors

    code, _, errors = run(out, trials=2, resume=True)
    assert code == 2
    assert f"{path}:2" in errors and "damaged line" in errors
    assert json.loads((out / "r" / "run.json").read_text())["status"] == "completed"


def test_a_torn_last_line_is_repaired_on_resume(out: Path):
    assert run(out, trials=2)[0] == 0
    path = out / "r" / CONVERSATIONS
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(lines[:-1]) + lines[-1][:40])  # the last record torn

    assert report(out / "r")[0] == 0  # a reader stops quietly at a torn last line
    code, printed, _ = run(out, trials=2, resume=True)
    assert code == 0
    assert "1 of 4 units to run" in printed
    assert len(list(iter_records(out / "r"))) == 4


def test_a_record_outside_the_plan_is_foreign_and_not_counted(out: Path):
    assert run(out, trials=2)[0] == 0
    path = out / "r" / CONVERSATIONS
    first = json.loads(path.read_bytes().splitlines()[0])
    stray = {**first, "unit_id": f"{LOOKUP}|oracle|9", "trial": 9}
    with path.open("ab") as f:
        f.write(json.dumps(stray).encode() + b"\n")

    code, printed, errors = report(out / "r")
    assert code == 0
    assert "4 of 4 units finished" in printed and "5 of 4" not in printed
    assert "warning: 1 unit(s) recorded outside the run's plan" in errors
    assert f"{LOOKUP}|oracle|9" in errors

    # A forced resume that drops a scenario leaves its records foreign too.
    code, printed, errors = run(out, trials=2, resume=True, force=True, ids=[REFUND])
    assert code == 0
    summary = json.loads((out / "r" / "summary.json").read_text())
    assert summary["run"]["units_recorded"] == 2  # the REFUND units only
    assert summary["run"]["units_foreign"] == 3
    assert "3 unit(s) in r/conversations.jsonl are not in this run's plan" in errors
