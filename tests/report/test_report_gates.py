"""CI gates on stored runs: ``report --fail-under``, ``compare --fail-on-regression``,
``report --json -`` and a closed standard output (``compare | head``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from gate_runs import record, write_run
from typer.testing import CliRunner, Result

from supportsim.cli import app
from supportsim.report import compare_runs, load_run
from supportsim.report._gates import parse_regression_metrics, regressions

SCENARIOS = [f"s{i:02d}" for i in range(20)]


def cli(*args: str | Path) -> Result:
    return CliRunner().invoke(app, [str(a) for a in args], env={"COLUMNS": "200"})


def _runs(tmp_path: Path, **b_changes: object) -> tuple[Path, Path]:
    """A: every conversation passes, 1 s replies, $0.01. B: the same, changed as asked
    (on the first ten scenarios, so the change is one-sided and detectable)."""
    a = [record(s, "m", 1) for s in SCENARIOS]
    b = [record(s, "m", 1, **(b_changes if i < 10 else {})) for i, s in enumerate(SCENARIOS)]
    return write_run(tmp_path / "a", a), write_run(tmp_path / "b", b)


def test_regression_metrics_parse() -> None:
    assert parse_regression_metrics(["strict,partial", "cost", "strict"]) == [
        "strict",
        "partial",
        "cost",
    ]
    with pytest.raises(Exception, match="--fail-on-regression: unknown metric 'speed'"):
        parse_regression_metrics(["speed"])


@pytest.mark.parametrize(
    ("changes", "metric", "reason"),
    [
        ({"strict": False, "partial": 0.5}, "strict", "B is worse on strict by 50.0 points"),
        ({"strict": False, "partial": 0.5}, "partial", "B is worse on partial by 25.0 points"),
        ({"reply_ms": (3000.0,)}, "latency_p90", "B is worse on latency_p90 by 2000 ms"),
        ({"cost": 0.05}, "cost", "B is worse on cost by $0.0200"),
    ],
)
def test_compare_fails_on_a_detected_regression_of_the_named_metric(
    tmp_path: Path, changes: dict, metric: str, reason: str
) -> None:
    a, b = _runs(tmp_path, **changes)
    result = cli("compare", a, b, "--fail-on-regression", metric)
    assert result.exit_code == 1, result.output
    assert f"regression: m: {reason}" in result.output
    # the same comparison, gated on another metric that did not move: exit 0
    other = "cost" if metric != "cost" else "strict"
    result = cli("compare", a, b, "--fail-on-regression", other)
    assert result.exit_code == 0, result.output
    assert f"no regression detected on {other}" in result.output
    # and without the flag: exit 0 whatever the verdict
    assert cli("compare", a, b).exit_code == 0


def test_an_improvement_is_not_a_regression(tmp_path: Path) -> None:
    a, b = _runs(tmp_path, strict=False, partial=0.5, reply_ms=(3000.0,), cost=0.05)
    # swapped: B is the good run, better on everything
    result = cli("compare", b, a, "--fail-on-regression", "strict,partial,latency_p90,cost")
    assert result.exit_code == 0, result.output
    assert "B is better on strict by 50.0 points" in result.output


def test_an_undetected_difference_passes_the_gate(tmp_path: Path) -> None:
    a = [record(s, "m", 1) for s in SCENARIOS[:4]]
    b = [
        record(s, "m", 1, strict=i != 0, partial=1.0 if i else 0.0)
        for i, s in enumerate(SCENARIOS[:4])
    ]
    ra, rb = write_run(tmp_path / "a", a), write_run(tmp_path / "b", b)
    c = compare_runs(load_run(ra), load_run(rb))
    assert c["agents"][0]["strict"]["delta_points"] == -25.0  # worse, but one pair in four
    assert regressions(c, ["strict", "partial"]) == []
    result = cli("compare", ra, rb, "--fail-on-regression", "strict")
    assert result.exit_code == 0, result.output


def test_latency_and_cost_need_data_on_both_sides(tmp_path: Path) -> None:
    a, b = _runs(tmp_path, cost=None)
    c = compare_runs(load_run(a), load_run(b))
    row = c["agents"][0]
    assert row["cost"]["priced_pairs"] == 10 and row["cost"]["detected"] is False
    assert row["latency_p90"]["a"] == 1000.0 and row["latency_p90"]["detected"] is False


def test_bad_regression_flag_exits_2(tmp_path: Path) -> None:
    a, b = _runs(tmp_path)
    result = cli("compare", a, b, "--fail-on-regression", "latency")
    assert result.exit_code == 2
    assert "--fail-on-regression: unknown metric 'latency'" in result.output


def test_report_fail_under(tmp_path: Path) -> None:
    _, b = _runs(tmp_path, strict=False, partial=0.5)  # strict 50%, partial 75%
    result = cli("report", b, "--fail-under", "strict=0.5,partial=0.75")
    assert result.exit_code == 0, result.output
    assert "gates passed: strict >= 50.0%, partial >= 75.0% for every agent" in result.output
    result = cli("report", b, "--fail-under", "strict=0.6")
    assert result.exit_code == 1
    assert "gate failed: agent m: strict 50.0% < 60.0% (--fail-under strict=0.6)" in result.output
    result = cli("report", b, "--fail-under", "pass^2=0.5")
    assert result.exit_code == 2
    assert "--fail-under: pass^2 needs at least 2 trials (the run has 1)" in result.output
    result = cli("report", b, "--fail-under", "strict=")
    assert result.exit_code == 2
    assert "--fail-under: threshold '' is not a number" in result.output


def _supportsim(*args: str | Path, cwd: Path) -> subprocess.Popen[bytes]:
    code = "from supportsim.cli import main; main()"
    return subprocess.Popen(
        [sys.executable, "-c", code, *map(str, args)],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def test_report_json_dash_prints_only_the_summary_on_stdout(v1_copy: Path) -> None:
    proc = _supportsim("report", v1_copy, "--json", "-", cwd=v1_copy)
    stdout, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 0, stderr.decode()
    summary = json.loads(stdout)  # nothing but the JSON document
    assert summary["agents"]["alpha"]["strict_rate"] == 0.5
    assert "leaderboard: quality" in stderr.decode()  # the terminal view went to stderr
    assert not (v1_copy / "summary.json").exists()  # "-" is not a file


def test_report_json_to_a_path(v1_copy: Path, tmp_path: Path) -> None:
    target = tmp_path / "s.json"
    result = cli("report", v1_copy, "--json", target)
    assert result.exit_code == 0, result.output
    assert json.loads(target.read_text())["agents"]["beta"]["n"] == 5
    assert not (v1_copy / "summary.json").exists()


def test_compare_into_a_closed_pipe_still_writes_its_html(
    v1_dir: Path, v2_dir: Path, tmp_path: Path
) -> None:
    """``compare A B --html | head -1``: the reader goes away; the HTML must exist and the
    exit code is the comparison's, with no traceback."""
    proc = _supportsim("compare", v1_dir, v2_dir, "--html", cwd=tmp_path)
    assert proc.stdout is not None
    proc.stdout.close()  # as `head` does once it has its lines
    _, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 0, stderr.decode()
    assert "Traceback" not in stderr.decode()
    (html,) = tmp_path.glob("compare-*.html")
    assert html.read_text(encoding="utf-8").startswith("<!doctype html>")


def test_report_json_dash_into_a_closed_pipe(v1_dir: Path, tmp_path: Path) -> None:
    proc = _supportsim("report", v1_dir, "--json", "-", "--fail-under", "strict=0.9", cwd=tmp_path)
    assert proc.stdout is not None
    proc.stdout.close()
    _, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 1  # the gate's verdict, not the pipe's
    assert "Traceback" not in stderr.decode()
    assert "gate failed: agent alpha: strict 50.0% < 90.0%" in stderr.decode()


def test_a_gate_with_nothing_to_compare_fails(tmp_path: Path) -> None:
    """A gate never passes on no data: with no pair, no regression could be ruled out."""
    a = write_run(tmp_path / "a", [record("s1", "m", 1)])
    b = write_run(tmp_path / "b", [record("s2", "m", 1)])  # no scenario in common
    result = cli("compare", a, b, "--fail-on-regression", "strict")
    assert result.exit_code == 1, result.output
    assert "gate failed: m: no paired conversations, so no regression could be tested" in (
        result.output
    )
    assert "no regression detected" not in result.output
    assert cli("compare", a, b).exit_code == 0  # without a gate it is only a comparison
