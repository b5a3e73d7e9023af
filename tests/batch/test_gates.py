"""``--fail-under`` gates: parsing (flag and run config), the check, and ``run``'s exit code.

Oracle agent (strict 1) and an unhelpful plug-in (strict 0), scripted customer: no model
server needed.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from batch_helpers import request
from rich.console import Console
from typer.testing import CliRunner

from supportsim.app import run_command
from supportsim.batch import (
    RunConfig,
    check_gates,
    load_run_config,
    parse_thresholds,
    with_overrides,
)
from supportsim.batch._gates import thresholds_from
from supportsim.cli import app
from supportsim.errors import InputError
from supportsim.store import AgentRow, Summary

UNHELPFUL = "python:gate_agents:Unhelpful"


def test_thresholds_parse_from_the_flag() -> None:
    assert parse_thresholds(["strict=0.8,partial=0.9"]) == {"strict": 0.8, "partial": 0.9}
    assert parse_thresholds(["strict=80%", "pass^2=0.5"]) == {"strict": 0.8, "pass^2": 0.5}
    assert parse_thresholds(["strict=0.5", "strict=0.7"]) == {"strict": 0.7}  # last wins


@pytest.mark.parametrize(
    ("value", "why"),
    [
        ("strict", "expected METRIC=THRESHOLD"),
        ("strikt=0.8", "unknown metric 'strikt'"),
        ("strict=high", "threshold 'high' is not a number"),
        ("strict=1.5", "outside 0..1"),
        ("partial=-0.1", "outside 0..1"),
        ("pass^0=0.5", "unknown metric 'pass^0'"),
        ("strict=nan", "outside 0..1"),
    ],
)
def test_bad_thresholds_name_the_flag(value: str, why: str) -> None:
    with pytest.raises(InputError, match="--fail-under") as caught:
        parse_thresholds([value])
    assert why in str(caught.value)


def test_the_run_config_takes_gates_as_a_mapping_or_a_string(tmp_path: Path) -> None:
    path = tmp_path / "nightly.yaml"
    path.write_text("trials: 2\nfail_under: {strict: 0.8, pass^2: 0.5}\n")
    assert load_run_config(path).fail_under == {"strict": 0.8, "pass^2": 0.5}
    path.write_text("fail_under: strict=0.8,partial=90%\n")
    assert load_run_config(path).fail_under == {"strict": 0.8, "partial": 0.9}
    assert RunConfig().fail_under == {}


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("fail_under: {strict: 2}\n", "outside 0..1"),
        ("fail_under: {latency: 0.5}\n", "unknown metric 'latency'"),
        ("fail_under: {strict: yes}\n", "threshold must be a number"),
        ("fail_under: {pass^3: 0.5}\ntrials: 2\n", "pass^3 needs at least 3 trials"),
    ],
)
def test_bad_gates_in_a_run_config_name_the_file_and_field(
    tmp_path: Path, text: str, why: str
) -> None:
    path = tmp_path / "nightly.yaml"
    path.write_text(text)
    with pytest.raises(InputError) as caught:
        load_run_config(path)
    assert str(path) in str(caught.value) and why in str(caught.value)


def test_the_flag_replaces_the_files_gates() -> None:
    base = RunConfig(fail_under={"strict": 0.9, "partial": 0.9})
    assert with_overrides(base, {"fail_under": {"strict": 0.5}}).fail_under == {"strict": 0.5}
    assert with_overrides(base, {"fail_under": None}).fail_under == base.fail_under


def _summary(**agents: dict) -> Summary:
    """A summary with only the figures a gate reads (unvalidated: the rest is not read)."""
    return Summary.model_construct(
        agents={a: AgentRow.model_construct(**f) for a, f in agents.items()}
    )


def test_check_gates_per_agent_and_metric() -> None:
    summary = _summary(
        good={"strict_rate": 0.8, "partial_mean": 0.95, "pass_hat_k": {"2": 0.7}},
        bad={"strict_rate": 0.5, "partial_mean": 0.95, "pass_hat_k": {"2": 0.2}},
        unscored={"strict_rate": None, "partial_mean": None, "pass_hat_k": {"2": None}},
    )
    misses = check_gates(summary, {"strict": 0.8, "partial": 0.9})
    assert [(m.agent, m.metric) for m in misses] == [
        ("bad", "strict"),
        ("unscored", "strict"),
        ("unscored", "partial"),
    ]
    assert misses[0].reason() == (
        "gate failed: agent bad: strict 50.0% < 80.0% (--fail-under strict=0.8)"
    )
    assert "unknown (nothing scored)" in misses[1].reason()
    assert [m.agent for m in check_gates(summary, {"pass^2": 0.5})] == ["bad", "unscored"]
    good = {"strict_rate": 0.8, "partial_mean": 0.95, "pass_hat_k": {"2": 0.7}}
    assert check_gates(_summary(good=good), {"strict": 0.8}) == []


def test_a_summary_with_no_agent_misses_every_gate() -> None:
    """No data is never a pass: before, an empty ``agents`` made every gate pass."""
    misses = check_gates(_summary(), {"strict": 0.8, "pass^2": 0.5})
    assert [(m.agent, m.metric) for m in misses] == [("", "strict"), ("", "pass^2")]
    assert misses[0].reason() == (
        "gate failed: strict has no value: the run has no Agent with a scored unit "
        "(--fail-under strict=0.8)"
    )


def test_thresholds_from_accepts_none_and_lists() -> None:
    assert thresholds_from(None) == {}
    assert thresholds_from(["strict=0.1", "partial=0.2"]) == {"strict": 0.1, "partial": 0.2}


def _run(out: Path, run_id: str, **overrides: object) -> tuple[int, str, str]:
    text, errors = io.StringIO(), io.StringIO()
    code = run_command(
        request(out, run_id=run_id, **overrides),
        env={},
        console=Console(file=text, width=200),
        err=Console(file=errors, width=200),
    )
    return code, text.getvalue(), errors.getvalue()


def test_a_run_that_meets_its_gates_exits_0(out: Path) -> None:
    code, _, err = _run(out, "pass", fail_under={"strict": 1.0, "partial": 1.0})
    assert code == 0, err
    assert "gates passed: strict >= 100.0%, partial >= 100.0% for every agent" in err


def test_a_run_below_a_gate_exits_1_naming_agent_metric_value_and_threshold(out: Path) -> None:
    code, _, err = _run(out, "fail", agents=["oracle", UNHELPFUL], fail_under={"strict": 0.8})
    assert code == 1
    assert "gate failed: agent unhelpful: strict 0.0% < 80.0% (--fail-under strict=0.8)" in err
    assert "agent oracle" not in err
    summary = json.loads((out / "fail" / "summary.json").read_text())
    assert summary["run"]["status"] == "completed"  # the run itself finished: only the gate


def test_without_gates_the_same_run_exits_0(out: Path) -> None:
    code, _, err = _run(out, "nogate", agents=["oracle", UNHELPFUL])
    assert code == 0, err
    assert "gate" not in err


def test_the_cli_flag_gates_and_a_bad_flag_exits_2(out: Path, tmp_path: Path) -> None:
    from batch_helpers import PERSONAS, SCENARIOS

    base = ["run", "--scenarios", str(SCENARIOS), "--personas", str(PERSONAS), "--out", str(out)]
    runner = CliRunner()
    result = runner.invoke(app, [*base, "--agent", UNHELPFUL, "--fail-under", "strict=0.5"])
    assert result.exit_code == 1, result.output
    assert "gate failed: agent unhelpful: strict 0.0% < 50.0%" in result.output
    fresh = tmp_path / "fresh"
    result = runner.invoke(app, [*base[:-1], str(fresh), "--fail-under", "strict=often"])
    assert result.exit_code == 2
    assert "--fail-under: threshold 'often' is not a number" in result.output
    assert not fresh.exists()  # bad input: nothing written


def test_changing_gates_does_not_change_the_run_on_resume(out: Path) -> None:
    code, _, _ = _run(out, "resumed", fail_under={"strict": 0.5})
    assert code == 0
    code, _, err = _run(out, "resumed", resume=True, fail_under={"strict": 1.0})
    assert code == 0, err  # a new gate is a new question, not a changed run
    assert "gates passed: strict >= 100.0%" in err
