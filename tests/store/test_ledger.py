"""The ledger resume reads: three fields of each record, every line checked as before."""

from __future__ import annotations

from pathlib import Path

import pytest

from supportsim.errors import Problem, ScenarioError
from supportsim.store import (
    CONVERSATIONS,
    ConversationRecord,
    LedgerEntry,
    RecordWriter,
    final_unit_ids,
    iter_ledger,
    iter_records,
)


def record(unit: str, status: str = "completed", cost: float | None = None) -> ConversationRecord:
    return ConversationRecord(
        unit_id=unit,
        scenario_id=unit.split("|")[0],
        agent="oracle",
        customer="scripted",
        trial=1,
        status=status,  # type: ignore[arg-type]
        termination="customer_done" if status == "completed" else "error",
        messages=[{"role": "customer", "content": "a long transcript " * 50}],  # type: ignore[list-item]
        cost_usd=cost,
        started_at="2026-01-01T00:00:00Z",
        ended_at="2026-01-01T00:00:01Z",
    )


def test_the_ledger_keeps_unit_status_and_cost_of_every_record(tmp_path: Path) -> None:
    writer = RecordWriter(tmp_path)
    writer.append(record("a|oracle|1", "infra_error", 0.25))
    writer.append(record("b|oracle|1", cost=None))
    writer.append(record("a|oracle|1", cost=0.5))
    writer.close()
    ledger = list(iter_ledger(tmp_path))
    assert ledger == [
        LedgerEntry("a|oracle|1", "infra_error", 0.25),
        LedgerEntry("b|oracle|1", "completed", None),
        LedgerEntry("a|oracle|1", "completed", 0.5),
    ]
    assert final_unit_ids(ledger) == final_unit_ids(iter_records(tmp_path))
    assert final_unit_ids(ledger) == {"a|oracle|1", "b|oracle|1"}


def test_a_damaged_line_is_reported_by_the_ledger_too(tmp_path: Path) -> None:
    path = tmp_path / CONVERSATIONS
    good = record("a|oracle|1").model_dump_json().encode() + b"\n"
    # unit, status and cost are intact: the line is damaged elsewhere all the same
    damaged = b'{"unit_id": "b|oracle|1", "status": "completed", "cost_usd": 1.0}\n'
    path.write_bytes(good + damaged + good)
    with pytest.raises(ScenarioError) as info:
        list(iter_ledger(tmp_path))
    assert [p.line for p in info.value.problems] == [2]
    seen: list[Problem] = []
    assert len(list(iter_ledger(tmp_path, on_bad_line=seen.append))) == 2
    assert [p.line for p in seen] == [2]
