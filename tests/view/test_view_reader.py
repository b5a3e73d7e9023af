"""The viewer's reader: incremental, torn-line tolerant, never a lock, damage reported."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from view_runs import append, manifest, unit

from supportsim.store import RunLock
from supportsim.view import RunReader, RunsFolder


def test_reads_only_what_was_appended_and_waits_for_a_torn_line(tmp_path: Path) -> None:
    run = tmp_path / "r"
    manifest(run, scenarios=["s1", "s2"], agents=["a"], trials=1)
    append(run, unit("s1", "a", 1))
    reader = RunReader("r", run)
    first = reader.snapshot()
    assert [r.unit_id for r in first.records] == ["s1|a|1"]
    assert reader.snapshot() is first  # nothing changed: the same snapshot

    line = json.dumps(unit("s2", "a", 1, strict=False)) + "\n"
    with (run / "conversations.jsonl").open("a", encoding="utf-8") as f:
        f.write(line[:40])  # the writer is mid-line
    torn = reader.snapshot()
    assert [r.unit_id for r in torn.records] == ["s1|a|1"]
    assert torn.bad_lines == ()  # a torn last line is not damage
    with (run / "conversations.jsonl").open("a", encoding="utf-8") as f:
        f.write(line[40:])
    whole = reader.snapshot()
    assert [r.unit_id for r in whole.records] == ["s1|a|1", "s2|a|1"]
    assert whole.summary is not None and whole.summary.agents["a"].strict_rate == 0.5


def test_a_damaged_line_is_reported_and_the_rest_read(tmp_path: Path) -> None:
    run = tmp_path / "r"
    run.mkdir()
    append(run, unit("s1", "a", 1))
    with (run / "conversations.jsonl").open("a", encoding="utf-8") as f:
        f.write('{"unit_id": "broken"}\n')
    append(run, unit("s2", "a", 1))
    snap = RunReader("r", run).snapshot()
    assert [r.unit_id for r in snap.records] == ["s1|a|1", "s2|a|1"]
    assert len(snap.bad_lines) == 1
    assert f"{run / 'conversations.jsonl'} line 2: not a valid record" in snap.bad_lines[0]


def test_a_file_rewritten_shorter_is_read_again(tmp_path: Path) -> None:
    run = tmp_path / "r"
    run.mkdir()
    append(run, unit("s1", "a", 1), unit("s2", "a", 1))
    reader = RunReader("r", run)
    assert len(reader.snapshot().records) == 2
    (run / "conversations.jsonl").write_text(json.dumps(unit("s3", "a", 1)) + "\n")
    assert [r.unit_id for r in reader.snapshot().records] == ["s3|a|1"]


def test_status_is_live_and_reading_takes_no_lock(tmp_path: Path) -> None:
    run = tmp_path / "r"
    manifest(run, scenarios=["s1"], agents=["a"], trials=1, status="running")
    lock = RunLock(run)  # a writer holds the run
    try:
        reader = RunReader("r", run)
        snap = reader.snapshot()
        assert snap.run is not None and snap.run.manifest is not None
        assert snap.run.manifest["status"] == "running"
    finally:
        lock.release()
    after = reader.snapshot()  # the writer is gone: interrupted, a new version
    assert after.version != snap.version
    assert after.run is not None and after.run.manifest is not None
    assert after.run.manifest["status"] == "interrupted"
    RunLock(run).release()  # the viewer never held it: a writer can take it


def test_the_customer_fields_are_read_typed_and_a_malformed_review_is_a_bad_line(
    tmp_path: Path,
) -> None:
    run = tmp_path / "r"
    run.mkdir()
    review = {"findings": [{"kind": "invented_fact", "message_index": 2, "detail": "d",
                            "critical": True}]}  # fmt: skip
    append(
        run,
        unit("s1", "a", 1, customer_review=review, customer_hindered=True, customer_seed=7),
        unit("s2", "a", 1),
        unit("s3", "a", 1, customer_review={"findings": ["junk"]}),
    )
    snap = RunReader("r", run).snapshot()
    first, second = snap.records
    assert first.customer_review is not None and first.customer_review.findings[0].kind == (
        "invented_fact"
    )
    assert (first.customer_hindered, first.customer_seed) == (True, 7)
    assert second.customer_review is None and not second.customer_hindered
    (bad,) = snap.bad_lines  # listed on the run page, never skipped silently
    assert "line 3" in bad and "customer_review.findings.0" in bad


def test_the_folder_lists_run_directories_and_names_are_not_paths(runs: Path) -> None:
    (runs / "not-a-run").mkdir()
    folder = RunsFolder(runs)
    assert folder.names() == ["v1", "v2"]
    assert folder.reader("../v1") is None and folder.reader("nope") is None
    one = RunsFolder(runs / "v1")  # a run directory itself: that one run
    assert one.names() == ["v1"]
    reader = one.reader("v1")
    assert reader is not None and len(reader.snapshot().records) == 12


def _summary_file(run: Path, agent: str) -> None:
    """A summary.json naming ``agent``, so a test can tell which source the index used."""
    from supportsim.report import load_run, summarise_run

    doc = summarise_run(load_run(run)).model_dump(mode="json")
    doc["agents"] = {agent: next(iter(doc["agents"].values()))}
    (run / "summary.json").write_text(json.dumps(doc), encoding="utf-8")
    _later(run / "summary.json", than=run / "conversations.jsonl")


def _later(path: Path, *, than: Path) -> None:
    """Give ``path`` an mtime a second after ``than``'s (file clocks are coarse)."""
    then = than.stat().st_mtime_ns + 1_000_000_000
    os.utime(path, ns=(then, then))


def test_the_index_reads_a_finished_runs_fresh_summary_not_its_records(tmp_path: Path) -> None:
    run = tmp_path / "r"
    manifest(run, scenarios=["s1", "s2"], agents=["a"], trials=1, status="completed")
    append(run, unit("s1", "a", 1), unit("s2", "a", 1))
    _summary_file(run, "from-summary")
    glance = RunReader("r", run).glance()
    assert list(glance.summary.agents) == ["from-summary"]  # type: ignore[union-attr]
    assert (glance.status, glance.units, glance.planned) == ("completed", 2, 2)
    assert glance.customers == ["scripted"]  # from run.json's config

    append(run, unit("s2", "a", 1, strict=False))  # a newer record: the summary is stale
    _later(run / "conversations.jsonl", than=run / "summary.json")
    stale = RunReader("r", run).glance()
    assert list(stale.summary.agents) == ["a"]  # type: ignore[union-attr]
    assert stale.summary.agents["a"].strict_rate == 0.5  # type: ignore[union-attr]


def test_a_running_runs_summary_is_never_trusted(tmp_path: Path) -> None:
    run = tmp_path / "r"
    manifest(run, scenarios=["s1"], agents=["a"], trials=1, status="completed")
    append(run, unit("s1", "a", 1))
    _summary_file(run, "from-summary")
    manifest(run, scenarios=["s1"], agents=["a"], trials=1, status="running")
    lock = RunLock(run)
    try:
        glance = RunReader("r", run).glance()
    finally:
        lock.release()
    assert glance.status == "running"
    assert list(glance.summary.agents) == ["a"]  # type: ignore[union-attr]


def test_a_run_of_several_customers_names_them_from_its_config_before_any_record(
    tmp_path: Path,
) -> None:
    run = tmp_path / "r"
    manifest(run, scenarios=["s1"], agents=["a"], trials=1)
    doc = json.loads((run / "run.json").read_text(encoding="utf-8"))
    doc["config"]["customer"] = ["scripted", "openai:cust"]  # a run of several stores a list
    (run / "run.json").write_text(json.dumps(doc), encoding="utf-8")
    assert RunReader("r", run).glance().customers == ["openai:cust", "scripted"]


def test_a_run_folder_made_again_under_the_same_name_is_read_afresh(tmp_path: Path) -> None:
    """Found by a review: only a shrunk file was read again, so a larger new run under the
    old name was read on from the old offset (runs named by --run-id are made again)."""
    run = tmp_path / "first"
    manifest(run, scenarios=["s1", "s2"], agents=["a"], trials=1)
    append(run, unit("s1", "a", 1), unit("s2", "a", 1))
    reader = RunReader("first", run)
    assert {r.scenario_id for r in reader.snapshot().records} == {"s1", "s2"}
    shutil.rmtree(run)
    manifest(run, scenarios=["t1", "t2", "t3"], agents=["a"], trials=1)
    append(run, unit("t1", "a", 1), unit("t2", "a", 1), unit("t3", "a", 1))
    snap = reader.snapshot()
    assert {r.scenario_id for r in snap.records} == {"t1", "t2", "t3"}
    assert snap.bad_lines == ()
