"""conversations.jsonl: appends, torn last lines, last record wins, final units."""

from __future__ import annotations

from pathlib import Path

from supportsim.store import (
    CONVERSATIONS,
    ConversationRecord,
    RecordWriter,
    final_unit_ids,
    iter_records,
    latest_records,
    read_json,
    write_json,
)


def record(unit: str, status: str = "completed") -> ConversationRecord:
    return ConversationRecord(
        unit_id=unit,
        scenario_id=unit.split("|")[0],
        agent="oracle",
        customer="scripted",
        trial=1,
        status=status,  # type: ignore[arg-type]
        termination="customer_done" if status == "completed" else "error",
        started_at="2026-01-01T00:00:00Z",
        ended_at="2026-01-01T00:00:01Z",
    )


def test_appended_records_read_back_in_order(tmp_path: Path):
    writer = RecordWriter(tmp_path)
    writer.append(record("a|oracle|1"))
    writer.append(record("b|oracle|1", "infra_error"))
    writer.close()
    got = list(iter_records(tmp_path))
    assert [(r.unit_id, r.status) for r in got] == [
        ("a|oracle|1", "completed"),
        ("b|oracle|1", "infra_error"),
    ]
    assert writer.written == 2


def test_records_reach_the_file_before_sync(tmp_path: Path):
    writer = RecordWriter(tmp_path)
    writer.append(record("a|oracle|1"))
    assert [r.unit_id for r in iter_records(tmp_path)] == ["a|oracle|1"]  # no fsync needed
    writer.sync()
    writer.close()
    writer.close()  # idempotent


def test_a_torn_last_line_is_skipped_and_truncated_before_appending(tmp_path: Path):
    writer = RecordWriter(tmp_path, fsync_each=True)
    writer.append(record("a|oracle|1"))
    writer.close()
    path = tmp_path / CONVERSATIONS
    with path.open("ab") as f:
        f.write(b'{"unit_id": "b|oracle|1", "sta')
    assert [r.unit_id for r in iter_records(tmp_path)] == ["a|oracle|1"]
    writer = RecordWriter(tmp_path)
    writer.append(record("b|oracle|1"))
    writer.close()
    assert [r.unit_id for r in iter_records(tmp_path)] == ["a|oracle|1", "b|oracle|1"]
    lines = path.read_bytes().split(b"\n")
    assert len(lines) == 3 and lines[-1] == b""  # two whole records, the torn one gone
    assert all(b'"sta' not in line[-10:] for line in lines)


def test_an_invalid_middle_line_is_skipped(tmp_path: Path):
    path = tmp_path / CONVERSATIONS
    good = record("a|oracle|1")
    path.write_bytes(b"not json\n" + good.model_dump_json().encode() + b"\n")
    assert [r.unit_id for r in iter_records(tmp_path)] == ["a|oracle|1"]


def test_last_record_wins_and_infra_errors_are_not_final(tmp_path: Path):
    writer = RecordWriter(tmp_path)
    writer.append(record("a|oracle|1", "infra_error"))
    writer.append(record("b|oracle|1", "harness_error"))
    writer.append(record("a|oracle|1"))
    writer.append(record("c|oracle|1", "infra_error"))
    writer.close()
    latest = latest_records(tmp_path)
    assert {u: r.status for u, r in latest.items()} == {
        "a|oracle|1": "completed",
        "b|oracle|1": "harness_error",
        "c|oracle|1": "infra_error",
    }
    assert final_unit_ids(iter_records(tmp_path)) == {"a|oracle|1", "b|oracle|1"}


def test_missing_file_reads_as_no_records(tmp_path: Path):
    assert list(iter_records(tmp_path)) == []


def test_json_documents_are_replaced_whole(tmp_path: Path):
    path = tmp_path / "run.json"
    write_json(path, {"status": "running"})
    write_json(path, {"status": "completed", "n": 2})
    assert read_json(path) == {"status": "completed", "n": 2}
    assert not (tmp_path / "run.json.tmp").exists()
