"""``supportsim report`` and ``supportsim compare``: outputs, files and exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import orjson
import pytest
from typer.testing import CliRunner, Result

from supportsim.cli import app
from supportsim.report import load_run, summarise_run

ROOT = Path(__file__).parents[2]


def cli(*args: str | Path) -> Result:
    return CliRunner().invoke(app, [str(a) for a in args], env={"COLUMNS": "200"})


def test_report_prints_the_leaderboard_and_writes_nothing(v1_copy: Path) -> None:
    before = sorted(p.name for p in v1_copy.iterdir())
    result = cli("report", v1_copy)
    assert result.exit_code == 0, result.output
    assert "│ alpha │          6/6 │  50.0% │ [18.8, 81.2] │" in result.output
    assert sorted(p.name for p in v1_copy.iterdir()) == before


def test_report_json_writes_the_same_aggregates(v1_copy: Path) -> None:
    result = cli("report", v1_copy, "--json")
    assert result.exit_code == 0, result.output
    written = orjson.loads((v1_copy / "summary.json").read_bytes())
    assert written == json.loads(json.dumps(summarise_run(load_run(v1_copy)).document()))
    alpha = written["agents"]["alpha"]
    assert alpha["strict_rate"] == 0.5
    assert alpha["pass_hat_k"] == {"1": 0.5, "2": pytest.approx(1 / 3)}
    assert set(alpha["response_ms"]) == set(alpha["ttft_ms"]) == {"p50", "p90", "p99"}
    assert written["agents"]["beta"]["cost_usd"] is None


def test_report_html_default_and_explicit_path(v1_copy: Path, tmp_path: Path) -> None:
    result = cli("report", v1_copy, "--html")
    assert result.exit_code == 0, result.output
    assert (v1_copy / "report.html").read_text(encoding="utf-8").startswith("<!doctype html>")
    target = tmp_path / "out" / "r.html"
    result = cli("report", v1_copy, target, "--html")
    assert result.exit_code == 0, result.output
    assert target.exists()
    assert not list(target.parent.glob("*.tmp"))


def test_report_of_a_run_in_progress(v2_dir: Path) -> None:
    result = cli("report", v2_dir)
    assert result.exit_code == 0, result.output
    assert (
        "run v2 · interrupted · 7 of 12 units finished · 2 trial(s) per scenario" in result.output
    )


def test_report_bad_input_exits_2(tmp_path: Path) -> None:
    result = cli("report", tmp_path)
    assert result.exit_code == 2
    assert f"{tmp_path}: not a run directory" in result.output
    assert cli("report", tmp_path / "missing").exit_code == 2
    (tmp_path / "run.json").write_text("{not json", encoding="utf-8")
    result = cli("report", tmp_path)
    assert result.exit_code == 2
    assert f"{tmp_path / 'run.json'}: cannot read the run manifest" in result.output
    result = cli("report", ROOT / "tests/fixtures/runs/v1", tmp_path / "x.html")
    assert result.exit_code == 2
    assert "only taken with --html" in result.output
    assert not (tmp_path / "x.html").exists()


def test_compare_terminal_and_html(v1_dir: Path, v2_dir: Path, tmp_path: Path) -> None:
    target = tmp_path / "c.html"
    result = cli("compare", v1_dir, v2_dir, target, "--html")
    assert result.exit_code == 0, result.output
    assert "about 520 more scenarios would detect 5 points" in result.output
    html = target.read_text(encoding="utf-8")
    assert "about 520 more scenarios would detect 5 points" in html
    assert "beta → gamma" not in html
    result = cli("compare", v1_dir, v2_dir, "--pair", "beta=gamma")
    assert result.exit_code == 0, result.output
    assert "beta → gamma" in result.output


def test_compare_bad_input_exits_2(v1_dir: Path, tmp_path: Path) -> None:
    assert cli("compare", v1_dir, tmp_path).exit_code == 2
    result = cli("compare", v1_dir, v1_dir, "--pair", "alpha")
    assert result.exit_code == 2
    assert "expected A_AGENT=B_AGENT" in result.output
    result = cli("compare", v1_dir, v1_dir, "--pair", "alpha=zeta")
    assert result.exit_code == 2
    assert "no agent 'zeta' in run B" in result.output


def test_report_of_a_real_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A run made by ``supportsim run`` (oracle Agent, scripted Customer, mock domain)."""
    monkeypatch.chdir(ROOT)
    result = cli(
        "run",
        "--scenarios",
        "tests/fixtures/scenarios",
        "--personas",
        "tests/fixtures/personas",
        "--agent",
        "oracle",
        "--trials",
        "2",
        "--out",
        tmp_path,
        "--run-id",
        "real",
    )
    assert result.exit_code == 0, result.output
    run_dir = tmp_path / "real"
    by_runner = orjson.loads((run_dir / "summary.json").read_bytes())
    result = cli("report", run_dir, "--html", "--json")
    assert result.exit_code == 0, result.output
    summary = orjson.loads((run_dir / "summary.json").read_bytes())
    oracle = summary["agents"]["oracle"]
    assert (oracle["n"], oracle["strict_rate"], oracle["pass_hat_k"]) == (
        2,
        1.0,
        {"1": 1.0, "2": 1.0},
    )
    assert summary["run"]["units_planned"] == summary["run"]["units_recorded"] == 2
    # what only the runner knew is kept; the aggregates are the ones the runner wrote
    assert summary["run"]["last_session"] == by_runner["run"]["last_session"]
    assert summary["agents"] == by_runner["agents"]
    assert "mock-duplicate-refund|oracle|2" in (run_dir / "report.html").read_text("utf-8")
