"""conversations.jsonl: appends, torn last lines, last record wins, final units."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from supportsim.errors import InputError, Problem, ScenarioError
from supportsim.store import (
    CONVERSATIONS,
    ConversationRecord,
    RecordWriter,
    RunLock,
    StoreError,
    final_unit_ids,
    iter_records,
    latest_records,
    live_status,
    read_json,
    rewrite_json_in_place,
    write_json,
    writer_alive,
)
from supportsim.store import _files as files


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


def test_an_invalid_middle_line_is_reported_with_file_and_line(tmp_path: Path):
    path = tmp_path / CONVERSATIONS
    good = record("a|oracle|1").model_dump_json().encode() + b"\n"
    path.write_bytes(good + b"not json\n" + good)
    with pytest.raises(ScenarioError) as info:
        list(iter_records(tmp_path))
    (problem,) = info.value.problems
    assert problem.file == str(path) and problem.line == 2
    assert f"{path}:2" in str(info.value) and "damaged line" in str(info.value)


def test_a_reader_may_collect_damaged_lines_and_go_on(tmp_path: Path):
    path = tmp_path / CONVERSATIONS
    good = record("a|oracle|1").model_dump_json().encode() + b"\n"
    wrong = b'{"unit_id": "b|oracle|1", "status": "nonsense"}\n'
    path.write_bytes(wrong + good + b"\n" + good[:-1])  # blank line, then a torn one
    seen: list[Problem] = []
    got = list(iter_records(tmp_path, on_bad_line=seen.append))
    assert [r.unit_id for r in got] == ["a|oracle|1"]
    assert [p.line for p in seen] == [1]  # the blank line holds nothing; the torn is last


def test_valid_lines_only_are_read_without_complaint(tmp_path: Path):
    writer = RecordWriter(tmp_path)
    writer.append(record("a|oracle|1"))
    writer.close()
    seen: list[Problem] = []
    assert len(list(iter_records(tmp_path, on_bad_line=seen.append))) == 1
    assert seen == []


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


def full_disk_after(monkeypatch: pytest.MonkeyPatch, writes: int, *, partial: int = 0) -> None:
    """Make the store's writes fail with ENOSPC after ``writes`` good ones, writing
    ``partial`` bytes of the failing one first (as a real full disk does)."""
    real = files._write_all
    count = 0

    def write(fd: int, data: bytes) -> None:
        nonlocal count
        count += 1
        if count > writes:
            if partial:
                os.write(fd, data[:partial])
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(fd, data)

    monkeypatch.setattr(files, "_write_all", write)


def test_a_failed_append_leaves_whole_lines_and_says_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    writer = RecordWriter(tmp_path)
    writer.append(record("a|oracle|1"))
    full_disk_after(monkeypatch, 0, partial=25)
    with pytest.raises(StoreError) as info:
        writer.append(record("b|oracle|1"))
    assert info.value.reason == "store: No space left on device"
    assert writer.written == 1
    data = (tmp_path / CONVERSATIONS).read_bytes()
    assert data.endswith(b"}\n") and data.count(b"\n") == 1  # the partial line is gone
    monkeypatch.undo()  # space freed: the next append works
    writer.append(record("c|oracle|1"))
    writer.close()
    assert [r.unit_id for r in iter_records(tmp_path)] == ["a|oracle|1", "c|oracle|1"]


def test_a_failed_json_write_keeps_the_old_document_and_no_temp_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    path = tmp_path / "run.json"
    write_json(path, {"status": "running"})
    full_disk_after(monkeypatch, 0, partial=3)
    with pytest.raises(StoreError):
        write_json(path, {"status": "stopped"})
    assert read_json(path) == {"status": "running"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run.json"]


def test_rewriting_in_place_replaces_the_document_whole(tmp_path: Path):
    path = tmp_path / "run.json"
    write_json(path, {"status": "running", "padding": "x" * 100})
    rewrite_json_in_place(path, {"status": "stopped"})
    assert read_json(path) == {"status": "stopped"}


def test_a_read_only_run_directory_is_bad_input(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    def read_only(self: Path, *args: object, **kwargs: object) -> object:
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))

    monkeypatch.setattr(Path, "open", read_only)
    with pytest.raises(InputError, match=r"cannot write the run directory \(Read-only file"):
        RunLock(tmp_path)


def test_a_run_is_running_only_while_its_writer_holds_the_lock(tmp_path: Path):
    assert not writer_alive(tmp_path)  # no lock file: nobody writes
    lock = RunLock(tmp_path)
    assert writer_alive(tmp_path)
    assert live_status(tmp_path, "running") == "running"
    lock.release()
    assert not writer_alive(tmp_path)
    assert live_status(tmp_path, "running") == "interrupted"
    assert live_status(tmp_path, "completed") == "completed"


def test_gc_paused_pauses_the_collector_and_restores_its_state() -> None:
    import gc

    from supportsim.store import gc_paused

    assert gc.isenabled()
    with gc_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        with gc_paused():
            pass
        assert not gc.isenabled()  # the caller's choice stands
    finally:
        gc.enable()


def test_gc_paused_with_freeze_leaves_what_is_kept_out_of_later_collections() -> None:
    import gc

    from supportsim.store import gc_paused

    before = gc.get_freeze_count()
    try:
        with gc_paused(freeze=True):
            kept = [[i] for i in range(1000)]
        assert gc.isenabled() and gc.get_freeze_count() >= before + len(kept)
    finally:
        gc.unfreeze()
