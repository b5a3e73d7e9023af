"""The end-of-run summary streams the records: it never holds every record of a run (a
10,000-unit run's are gigabytes as models), and its run figures stay right."""

from __future__ import annotations

import weakref
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest

import supportsim.app._run
from supportsim.app import write_summary
from supportsim.batch import RunConfig
from supportsim.batch._session import Session
from supportsim.batch._units import plan_units
from supportsim.report import summarise
from supportsim.store import SUMMARY, ConversationRecord, RecordWriter, RunPlan, Summary, read_json

UNITS = 30


def record(trial: int, status: str = "completed", scenario: str = "s1") -> ConversationRecord:
    return ConversationRecord(
        unit_id=f"{scenario}|a|{trial}",
        scenario_id=scenario,
        agent="a",
        customer="scripted",
        trial=trial,
        status=status,  # type: ignore[arg-type]
        termination="customer_done" if status == "completed" else "error",
        strict=status == "completed",
        partial=1.0,
        cost_usd=0.5,
        started_at="2026-01-01T00:00:00Z",
        ended_at="2026-01-01T00:00:01Z",
    )


def test_write_summary_holds_one_record_at_a_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    writer = RecordWriter(tmp_path)
    writer.append(record(1, "infra_error"))  # retried later: its cost counts, not its status
    for trial in range(1, UNITS + 1):
        writer.append(record(trial))
    writer.append(record(1, scenario="dropped"))  # foreign: outside the plan
    writer.close()
    plan = RunPlan(("s1",), ("a",), UNITS)
    session = Session(
        "r",
        tmp_path,
        plan,
        plan_units(plan),
        [],
        concurrency=RunConfig().bounds,
        status="completed",
    )
    most = [0]

    def counting(records: Iterable[ConversationRecord], **kw: Any) -> Summary:
        handed: list[weakref.ref[ConversationRecord]] = []

        def watched() -> Iterator[ConversationRecord]:
            for r in records:
                most[0] = max(most[0], sum(ref() is not None for ref in handed))
                handed.append(weakref.ref(r))
                yield r

        return summarise(watched(), **kw)

    monkeypatch.setattr(supportsim.app._run, "summarise", counting)  # the app's, watched
    summary, latest = write_summary(session, trials=UNITS)
    assert most[0] <= 1  # nothing but the record being read: not the earlier ones
    assert latest == {f"s1|a|{t}": "completed" for t in range(1, UNITS + 1)}
    run = read_json(tmp_path / SUMMARY)["run"]
    assert run["units_recorded"] == UNITS and run["units_missing"] == 0
    assert run["units_foreign"] == 1 and run["statuses"] == {"completed": UNITS}
    assert run["spend_usd"] == 0.5 * (UNITS + 1)  # the retried unit's first record too
    assert summary.agents["a"].strict_passes == UNITS
