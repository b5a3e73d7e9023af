"""Scorers as plug-ins: a team adds a check kind without a fork; bad plug-ins are named."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from supportsim.batch import RunRequest, prepare_run
from supportsim.cli import app
from supportsim.errors import ScenarioError
from supportsim.scoring import BUILTIN_SCORERS, Scorer
from supportsim.store import iter_records

HERE = Path(__file__).parent
BATCH = HERE.parent / "batch" / "scenarios"
PERSONAS = HERE.parent / "fixtures" / "personas"


@pytest.fixture
def scenarios(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.syspath_prepend(str(HERE))
    folder = tmp_path / "scenarios"
    shutil.copytree(BATCH, folder)
    return folder


def with_scorers(folder: Path, *specs: str) -> Path:
    path = folder / "lookup.yaml"
    path.write_text(path.read_text() + "scorers: [" + ", ".join(specs) + "]\n")
    return path


def run_oracle(folder: Path, out: Path) -> int:
    return (
        CliRunner()
        .invoke(
            app,
            [
                "run",
                "--scenarios",
                str(folder),
                "--personas",
                str(PERSONAS),
                "--out",
                str(out),
                "--run-id",
                "r1",
            ],
        )
        .exit_code
    )


def test_builtin_kinds_are_scorers() -> None:
    assert len(BUILTIN_SCORERS) == 4
    assert all(isinstance(s, Scorer) for s in BUILTIN_SCORERS)


def test_a_plugin_check_lands_in_records_summary_and_report(scenarios: Path, tmp_path: Path):
    with_scorers(
        scenarios, "python:scorer_plugins:polite_close", "python:scorer_plugins:ToolBudget"
    )
    out = tmp_path / "runs"
    code = run_oracle(scenarios, out)
    records = {r.scenario_id: r for r in iter_records(out / "r1")}
    lookup = {c.id: c for c in records["mock-charge-lookup"].checks}
    assert lookup["budget:calls"].kind == "tool_budget" and lookup["budget:calls"].passed
    # The oracle's reply does not thank: the team's check fails it, strict follows.
    assert lookup["polite:close"].kind == "politeness" and not lookup["polite:close"].passed
    assert not records["mock-charge-lookup"].strict
    other = {c.id for c in records["mock-duplicate-refund"].checks}
    assert "polite:close" not in other  # named in one scenario only
    assert code == 0  # every unit was scored
    summary = json.loads((out / "r1" / "summary.json").read_text())
    kinds = summary["agents"]["oracle"]["check_kinds"]
    assert kinds["politeness"] == {"failed": 1, "evaluated": 1}
    assert kinds["tool_budget"] == {"failed": 0, "evaluated": 1}
    report = CliRunner().invoke(app, ["report", str(out / "r1"), "--html"])
    assert report.exit_code == 0, report.output
    html = (out / "r1" / "report.html").read_text()
    assert "polite:close" in html


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("python:scorer_plugins:missing", "has no attribute 'missing'"),
        ("python:no_such_module_xyz:f", "cannot import no_such_module_xyz"),
        ("python:scorer_plugins:NOT_CALLABLE", "expected a class or factory"),
    ],
)
def test_a_scorer_that_cannot_load_stops_the_run_before_anything_is_written(
    scenarios: Path, tmp_path: Path, spec: str, message: str
) -> None:
    path = with_scorers(scenarios, spec)
    out = tmp_path / "runs"
    request = RunRequest(
        None, {"scenarios": [str(scenarios)], "personas": str(PERSONAS), "out": str(out)}
    )
    with pytest.raises(ScenarioError) as caught:
        prepare_run(request, {})
    problem = caught.value.problems[0]
    assert problem.file == str(path) and problem.field == "scorers.0"
    assert message in problem.message
    assert run_oracle(scenarios, out) == 2
    assert not out.exists() or not any(out.iterdir())


def test_a_malformed_spec_is_a_scenario_error(scenarios: Path, tmp_path: Path) -> None:
    with_scorers(scenarios, "scorer_plugins.polite_close")
    result = CliRunner().invoke(app, ["validate", str(scenarios), "--personas", str(PERSONAS)])
    assert result.exit_code == 2
    assert "scorers" in result.output


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("python:scorer_plugins:not_a_check", "returned tuple, not a Check"),
        ("python:scorer_plugins:bad_kind", "kind 'Has Spaces'"),
    ],
)
def test_a_plugin_that_returns_garbage_is_a_harness_error_not_the_agents_fault(
    scenarios: Path, tmp_path: Path, spec: str, message: str
) -> None:
    with_scorers(scenarios, spec)
    out = tmp_path / "runs"
    assert run_oracle(scenarios, out) == 1
    records = {r.scenario_id: r for r in iter_records(out / "r1")}
    broken = records["mock-charge-lookup"]
    assert broken.status == "harness_error"
    assert message in (broken.error or "")
    assert records["mock-duplicate-refund"].status == "completed"  # the batch went on
