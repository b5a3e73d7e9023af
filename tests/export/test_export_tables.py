"""``supportsim export``: every unit, message, check and tool call of a frozen run appears
exactly once, with the documented columns, and DuckDB reads the files as they are.

The expected rows are worked out from the raw conversations.jsonl (the last line of each
unit), not through the exporter's own reader.
"""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
from pathlib import Path
from typing import Any

import duckdb
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner, Result

from supportsim.cli import app
from supportsim.export import COLUMNS, LEVELS

RUNS = Path(__file__).parents[1] / "fixtures" / "runs"
CONVERSATIONS = "conversations.jsonl"
GUIDE = Path(__file__).parents[2] / "docs" / "guide" / "export.md"  # the export guide


def cli(*args: str | Path) -> Result:
    return CliRunner().invoke(app, [str(a) for a in args], env={"COLUMNS": "200"})


def raw_units(run_dir: Path) -> dict[str, dict[str, Any]]:
    """The last complete line of each unit, straight from the file (a torn tail dropped)."""
    text = (run_dir / "conversations.jsonl").read_text(encoding="utf-8")
    units: dict[str, dict[str, Any]] = {}
    for line in text.splitlines(keepends=True):
        if line.endswith("\n") and line.strip():
            record = json.loads(line)
            units[record["unit_id"]] = record
    return units


def export_csv(run_dir: Path, level: str, out: Path) -> list[dict[str, str]]:
    target = out / f"{level}.csv"
    result = cli("export", run_dir, "--to", "csv", "--level", level, "--out", target)
    assert result.exit_code == 0, result.output
    with target.open(encoding="utf-8", newline="") as f:
        reader = csv.DictReader(f)
        assert reader.fieldnames == [c.name for c in COLUMNS[level]]  # type: ignore[index]
        return list(reader)


def once(keys: list[tuple[Any, ...]]) -> set[tuple[Any, ...]]:
    assert len(keys) == len(set(keys)), "a row appears twice"
    return set(keys)


def expected_calls(record: dict[str, Any]) -> list[tuple[str, str]]:
    """(unit, call id) of every tool call: the call log, or the Agent's calls when an older
    record has no log."""
    if record.get("calls") is not None:
        return [(record["unit_id"], c["call_id"]) for c in record["calls"]]
    return [
        (record["unit_id"], call["id"])
        for m in record["messages"]
        if m["role"] == "agent"
        for call in m.get("tool_calls", [])
    ]


@pytest.mark.parametrize("run", ["v1", "rescore"])
def test_every_unit_message_check_and_call_appears_once(run: str, tmp_path: Path) -> None:
    run_dir = RUNS / run
    units = raw_units(run_dir)
    tables = {level: export_csv(run_dir, level, tmp_path) for level in LEVELS}

    assert once([(r["unit_id"],) for r in tables["unit"]]) == {(u,) for u in units}
    assert once([(r["unit_id"], int(r["index"])) for r in tables["message"]]) == {
        (u, i) for u, rec in units.items() for i in range(len(rec["messages"]))
    }
    assert once([(r["unit_id"], r["name"]) for r in tables["check"]]) == {
        (u, c["id"]) for u, rec in units.items() for c in rec["checks"]
    }
    assert once([(r["unit_id"], r["call_id"]) for r in tables["call"]]) == {
        key for rec in units.values() for key in expected_calls(rec)
    }
    for row in tables["message"]:  # text survives commas, quotes, newlines and markup
        assert row["text"] == units[row["unit_id"]]["messages"][int(row["index"])]["content"]
    for row in tables["check"]:
        check = next(c for c in units[row["unit_id"]]["checks"] if c["id"] == row["name"])
        assert (row["kind"], row["passed"], row["reason"]) == (
            check["kind"],
            "true" if check["passed"] else "false",
            check["reason"],
        )


def test_unscored_units_keep_their_status_and_leave_strict_empty(tmp_path: Path) -> None:
    units = raw_units(RUNS / "v1")
    rows = {r["unit_id"]: r for r in export_csv(RUNS / "v1", "unit", tmp_path)}
    harness = rows["refund_roaming|beta|1"]
    assert harness["status"] == "harness_error"
    assert harness["strict"] == harness["partial"] == ""
    assert harness["error"] == units["refund_roaming|beta|1"]["error"]  # the whole traceback
    assert "\n" in harness["error"]
    retried = rows["plan_upgrade|alpha|1"]  # an infra error retried on resume: the last record
    assert (retried["status"], retried["strict"], retried["partial"]) == (
        "completed",
        "false",
        "0.75",
    )
    assert rows["refund_duplicate|alpha|1"]["strict"] == "true"
    assert rows["refund_duplicate|beta|1"]["customer_cost_usd"] == ""  # unknown, not 0


def test_calls_come_from_the_log_or_are_rebuilt_from_old_records(tmp_path: Path) -> None:
    calls = export_csv(RUNS / "rescore", "call", tmp_path)
    logged = [c for c in calls if c["logged"] == "true"]
    rebuilt = [c for c in calls if c["logged"] == "false"]
    assert {c["unit_id"] for c in rebuilt} == {"rescore-email-change|oracle|2"}
    assert len(logged) == 10
    first = next(c for c in logged if c["unit_id"] == "rescore-charge-list|oracle|1")
    assert (first["name"], first["ok"], first["tool_kind"]) == ("verify_identity", "true", "read")
    assert json.loads(first["arguments"]) == {"customer_id": "C-1", "pin": "4321"}
    assert json.loads(first["result"]) == {"verified": True, "customer_id": "C-1"}
    for call in rebuilt:
        assert call["ok"] == "true"
        assert json.loads(call["result"]) is not None
        assert json.loads(call["arguments"]) == json.loads(call["raw_arguments"])


def _duck_join(unit: Path, check: Path, message: Path, call: Path) -> list[tuple[Any, ...]]:
    """A user's query: failed checks per agent over scored units, and tool results joined
    to the calls that produced them."""
    failed = duckdb.sql(
        f"""
        SELECT u.agent, count(*) AS checks, count(*) FILTER (WHERE NOT c.passed) AS failed
        FROM '{unit}' u JOIN '{check}' c USING (run_id, unit_id)
        WHERE u.status = 'completed'
        GROUP BY u.agent ORDER BY u.agent
        """
    ).fetchall()
    joined = duckdb.sql(
        f"""
        SELECT count(*) FROM '{message}' m JOIN '{call}' k
          ON m.unit_id = k.unit_id AND m.tool_call_id = k.call_id
        WHERE m.role = 'tool' AND m.tool_name = k.name
        """
    ).fetchall()
    return failed + joined


def test_duckdb_reads_the_csv_and_parquet_as_they_are(tmp_path: Path) -> None:
    run_dir = RUNS / "rescore"
    for fmt in ("csv", "parquet"):
        for level in LEVELS:
            result = cli("export", run_dir, "--to", fmt, "--level", level, "--out", tmp_path)
            assert result.exit_code == 0, result.output
    csv_rows = _duck_join(*(tmp_path / f"{lv}.csv" for lv in ("unit", "check", "message", "call")))
    pq_rows = _duck_join(
        *(tmp_path / f"{lv}.parquet" for lv in ("unit", "check", "message", "call"))
    )
    # 5 completed units x 5 checks; refund-amount fails one check in each of its 2 trials
    assert csv_rows == pq_rows == [("oracle", 25, 2), (12,)]
    types = dict(
        duckdb.sql(f"DESCRIBE SELECT * FROM '{tmp_path / 'unit.csv'}'").fetchall()[i][:2]
        for i in range(len(COLUMNS["unit"]))
    )
    assert (types["strict"], types["partial"], types["trial"]) == ("BOOLEAN", "DOUBLE", "BIGINT")
    assert types["started_at"].startswith("TIMESTAMP")


def test_parquet_columns_carry_types_and_meanings(tmp_path: Path) -> None:
    target = tmp_path / "unit.parquet"
    result = cli("export", RUNS / "v1", "--to", "parquet", "--level", "unit", "--out", target)
    assert result.exit_code == 0, result.output
    table = pq.read_table(target)
    assert table.column_names == [c.name for c in COLUMNS["unit"]]
    schema = table.schema
    assert str(schema.field("strict").type) == "bool"
    assert str(schema.field("started_at").type) == "timestamp[us, tz=UTC]"
    assert schema.field("status").metadata == {
        b"description": next(c.doc for c in COLUMNS["unit"] if c.name == "status").encode()
    }
    rows = {r["unit_id"]: r for r in table.to_pylist()}
    assert len(rows) == 12
    assert rows["refund_roaming|beta|1"]["strict"] is None
    assert rows["refund_duplicate|alpha|1"]["strict"] is True


def test_csv_to_standard_output_and_the_default_path(tmp_path: Path) -> None:
    result = cli("export", RUNS / "v1", "--level", "check", "--out", "-")
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert len(rows) == 44  # 11 completed units x 4 checks
    copy = tmp_path / "v1"
    copy.mkdir()
    for name in ("run.json", "conversations.jsonl"):
        (copy / name).write_bytes((RUNS / "v1" / name).read_bytes())
    assert cli("export", copy).exit_code == 0
    assert (copy / "export" / "unit.csv").exists()
    assert cli("export", copy, "--level", "call", "--out", f"{tmp_path}/new/").exit_code == 0
    assert (tmp_path / "new" / "call.csv").exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--to", "xlsx"], "--to 'xlsx': expected one of csv, parquet"),
        (["--level", "turn"], "--level 'turn': expected one of unit, message, check, call"),
        (["--to", "parquet", "--out", "-"], "only CSV can be written to standard output"),
    ],
)
def test_bad_flags_exit_2_and_write_nothing(args: list[str], message: str, tmp_path: Path) -> None:
    result = cli("export", RUNS / "v1", *args)
    assert result.exit_code == 2
    assert message in result.output
    assert not (RUNS / "v1" / "export").exists()


def test_not_a_run_directory_exits_2(tmp_path: Path) -> None:
    result = cli("export", tmp_path, "--out", tmp_path / "unit.csv")
    assert result.exit_code == 2
    assert "not a run directory" in result.output
    assert list(tmp_path.iterdir()) == []


def test_unwritable_target_exits_2_and_leaves_no_temp_file(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    result = cli("export", RUNS / "v1", "--out", blocker / "unit.csv")
    assert result.exit_code == 2
    assert "cannot write" in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


def test_parquet_without_pyarrow_names_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(__import__("sys").modules, "pyarrow", None)
    target = tmp_path / "unit.parquet"
    result = cli("export", RUNS / "v1", "--to", "parquet", "--out", target)
    assert result.exit_code == 2
    assert "pip install 'supportsim[parquet]'" in result.output
    assert not target.exists()
    assert cli("export", RUNS / "v1", "--to", "csv", "--out", tmp_path / "u.csv").exit_code == 0


def test_the_guide_documents_every_column() -> None:
    section = GUIDE.read_text(encoding="utf-8")
    for level, columns in COLUMNS.items():
        table = section.split(f"`{level}` columns", 1)[1].split("\n\n", 2)[1]
        documented = re.findall(r"^\| `([a-z_0-9]+)` \|", table, flags=re.M)
        assert documented == [c.name for c in columns], level


def test_the_guides_duckdb_example_runs_on_an_export(tmp_path: Path) -> None:
    section = GUIDE.read_text(encoding="utf-8")
    query = section.split("```sql\n", 1)[1].split("```", 1)[0]
    for level in ("unit", "check"):
        assert cli("export", RUNS / "v1", "--level", level, "--out", tmp_path).exit_code == 0
    rows = duckdb.sql(
        query.replace("'unit.csv'", f"'{tmp_path / 'unit.csv'}'").replace(
            "'check.csv'", f"'{tmp_path / 'check.csv'}'"
        )
    ).fetchall()
    assert rows[0][:5] == ("alpha", "outcome", "outcome", 2, 6)
    assert sum(r[3] for r in rows) == 12  # every failed check of v1's 11 scored conversations


FORMULAS = ['=HYPERLINK("http://x","click")', "=cmd|' /C calc'!A0", "+1+1", "-2+3", "@SUM(A1)"]


def _run_with_agent_text(tmp_path: Path, texts: list[str]) -> Path:
    run_dir = tmp_path / "formula"
    shutil.copytree(RUNS / "v1", run_dir)
    path = run_dir / CONVERSATIONS
    records = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    first = records[0]
    first["messages"] = [{"role": "agent", "content": text} for text in texts]
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return run_dir


def test_csv_cells_that_would_start_a_formula_are_neutralised(tmp_path: Path) -> None:
    run_dir = _run_with_agent_text(tmp_path, [*FORMULAS, "plain text", "\tTAB=1"])
    rows = export_csv(run_dir, "message", tmp_path)
    contents = [r["text"] for r in rows]
    for formula in FORMULAS:
        assert "'" + formula in contents and formula not in contents
    assert "plain text" in contents
    assert "'\tTAB=1" in contents
    units = export_csv(run_dir, "unit", tmp_path)
    assert all(not r["partial"].startswith("'") for r in units)  # numbers are never changed


def test_raw_writes_formula_text_as_it_is(tmp_path: Path) -> None:
    run_dir = _run_with_agent_text(tmp_path, FORMULAS)
    target = tmp_path / "raw.csv"
    result = cli("export", run_dir, "--level", "message", "--raw", "--out", target)
    assert result.exit_code == 0, result.output
    contents = [r["text"] for r in csv.DictReader(io.StringIO(target.read_text()))]
    for formula in FORMULAS:
        assert formula in contents


def test_the_guides_pandas_example_reads_an_export(tmp_path: Path) -> None:
    import pandas

    assert '`pandas.read_csv("unit.csv")`' in GUIDE.read_text(encoding="utf-8")
    for to in ("csv", "parquet"):
        assert cli("export", RUNS / "v1", "--to", to, "--out", tmp_path).exit_code == 0
    frames = [
        pandas.read_csv(tmp_path / "unit.csv"),
        pandas.read_parquet(tmp_path / "unit.parquet"),
    ]
    for frame in frames:
        assert list(frame.columns) == [c.name for c in COLUMNS["unit"]]
        assert len(frame) == 12 and frame["strict"].notna().sum() == 11  # one not scored
