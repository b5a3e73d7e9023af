"""Labelled Agents through every reader of a stored run.

The unit ids a run plans, writes, resumes and every reader expects come from one plan over
the Agents' labels (``store.RunPlan``). Before, run.json kept only the specs, so an Agent
whose label was not its spec (``LABEL=SPEC``, a plug-in's ``name``, a graph's ``name``)
vanished from report, HTML, export, JUnit, trend and compare, and a ``--fail-under`` gate
passed on a strict-0 run. Every label source is in one run here, and every reader must
count every unit.
"""

from __future__ import annotations

import csv
import io
import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from supportsim.cli import app
from supportsim.report._junit import junit_outcomes
from supportsim.testing import MockLLMServer, autopilot

HERE = Path(__file__).parent
SCENARIOS = HERE / "batch" / "scenarios"
PERSONAS = HERE / "fixtures" / "personas"
SCENARIO_IDS = ("mock-charge-lookup", "mock-duplicate-refund")


@pytest.fixture(scope="module")
def server() -> Iterator[MockLLMServer]:
    srv = MockLLMServer()
    srv.default(None, autopilot)
    srv.start_in_thread()
    yield srv
    srv.stop_thread()


def invoke(*args: str, env: dict[str, str] | None = None) -> Result:
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "400", **(env or {})})


@pytest.fixture(scope="module")
def labelled_run(server: MockLLMServer, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("labels") / "runs"
    http = f"http:{server.url}/v1#agent-h"
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(HERE / "batch"))
        result = _run(out, http)
    assert result.exit_code == 0, result.output  # every unit completed (no gate asked)
    return out / "labels"


def _run(out: Path, http: str) -> Result:
    return invoke(
        "run",
        "--scenarios",
        str(SCENARIOS),
        "--personas",
        str(PERSONAS),
        "--out",
        str(out),
        "--run-id",
        "labels",
        "--agent",
        "ours=oracle",  # LABEL=SPEC
        "--agent",
        "python:batch_agents:Polite",  # the plug-in's name: polite
        "--agent",
        "langgraph:batch_agents:answer_graph",  # the graph's name: answer-graph
        "--agent",
        http,  # an http: spec is its own label
        "--agent",
        f"web={http}",  # an http: agent with a label given
        env={"OPENAI_API_KEY": "sk-test"},
    )


LABELS = {"ours", "polite", "answer-graph", "web"}
UNITS = len(SCENARIO_IDS) * (len(LABELS) + 1)


def http_label(server: MockLLMServer) -> str:
    return f"http:{server.url}/v1#agent-h"


def test_run_json_stores_the_plan_by_label(labelled_run: Path, server: MockLLMServer) -> None:
    manifest = json.loads((labelled_run / "run.json").read_text())
    assert set(manifest["agents"]) == LABELS | {http_label(server)}
    assert manifest["agents"]["polite"] == "python:batch_agents:Polite"
    records = [json.loads(line) for line in (labelled_run / "conversations.jsonl").open()]
    assert {r["agent"] for r in records} == set(manifest["agents"])
    assert len(records) == UNITS


def test_report_counts_every_unit_and_no_foreign(labelled_run: Path) -> None:
    result = invoke("report", str(labelled_run), "--json", "-")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["units"] == UNITS
    assert summary["run"]["units_foreign"] == 0
    assert set(summary["agents"]) >= LABELS
    assert all(row["units"] == len(SCENARIO_IDS) for row in summary["agents"].values())
    assert "outside the run's plan" not in result.output


def test_a_gate_on_a_labelled_strict_0_agent_fails(labelled_run: Path) -> None:
    result = invoke("report", str(labelled_run), "--fail-under", "strict=0.8")
    assert result.exit_code == 1
    assert "gate failed: agent polite: strict 0.0% < 80.0%" in result.output
    assert "gate failed: agent answer-graph" in result.output
    assert "gate failed: agent ours" not in result.output  # the oracle passes
    assert "gates passed" not in result.output


def test_html_shows_every_unit(labelled_run: Path, tmp_path: Path) -> None:
    target = tmp_path / "report.html"
    assert invoke("report", str(labelled_run), "--html", str(target)).exit_code == 0
    page = target.read_text()
    for label in LABELS:
        for scenario in SCENARIO_IDS:
            assert f"{scenario}|{label}|1" in page


def test_export_writes_a_row_per_unit(labelled_run: Path, tmp_path: Path) -> None:
    target = tmp_path / "units.csv"
    result = invoke(
        "export", str(labelled_run), "--to", "csv", "--level", "unit", "--out", str(target)
    )
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(target.read_text())))
    assert len(rows) == UNITS
    assert {r["agent"] for r in rows} >= LABELS


def test_junit_skips_no_recorded_unit(labelled_run: Path, tmp_path: Path) -> None:
    target = tmp_path / "junit.xml"
    assert invoke("report", str(labelled_run), "--junit", str(target)).exit_code == 0
    outcomes = junit_outcomes(target.read_text())
    assert len(outcomes) == UNITS
    assert "skipped" not in outcomes.values()
    assert outcomes["mock-duplicate-refund/ours/1"] == "passed"
    assert outcomes["mock-duplicate-refund/polite/1"] == "failure"


def test_trend_and_compare_see_every_labelled_agent(labelled_run: Path, tmp_path: Path) -> None:
    again = tmp_path / "labels-again"
    shutil.copytree(labelled_run, again)
    trend = invoke("trend", str(labelled_run), str(again), "--json", "-")
    assert trend.exit_code == 0, trend.output
    doc = json.loads(trend.stdout)
    assert set(doc["agents"]) >= LABELS
    for label in LABELS:
        assert [p["n"] for p in doc["agents"][label]] == [2, 2]
    compared = invoke("compare", str(labelled_run), str(again), "--fail-on-regression", "strict")
    assert compared.exit_code == 0, compared.output
    assert "no paired conversations" not in compared.output


def test_rescore_rescores_every_completed_unit(labelled_run: Path, tmp_path: Path) -> None:
    copy = tmp_path / "labels-rescore"
    shutil.copytree(labelled_run, copy)
    result = invoke("rescore", str(copy), "--scenarios", str(SCENARIOS))
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in (copy / "rescored.jsonl").open()]
    assert len(lines) == UNITS
    assert "outside the run's plan" not in result.output


def test_a_gate_on_a_run_whose_records_are_all_outside_the_plan_fails(
    labelled_run: Path, tmp_path: Path
) -> None:
    """The old failure: every record foreign, nothing scored, and "gates passed"."""
    copy = tmp_path / "foreign"
    shutil.copytree(labelled_run, copy)
    manifest = json.loads((copy / "run.json").read_text())
    manifest["agents"] = {"someone-else": "oracle"}
    (copy / "run.json").write_text(json.dumps(manifest))
    result = invoke("report", str(copy), "--fail-under", "strict=0.8")
    assert result.exit_code == 1
    assert f"{UNITS} unit(s) recorded outside the run's plan" in result.output
    assert "agent 'polite' is not one of the run's agents (someone-else)" in result.output
    assert "gate failed: agent someone-else: strict unknown (nothing scored)" in result.output
    assert "gates passed" not in result.output
