"""``supportsim validate --customer``: the simulated Customer measured with a perfect
Agent (the oracle), through the CLI and a real SDK client against the mock server. The
scripted Customer lets the oracle succeed everywhere (100%); a "bad" Customer that ends
as soon as it can fails the scenarios that need a write, and those failures are reported
per scenario and finding, with exit 1 below the threshold."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
from typer.testing import CliRunner

from supportsim.cli import app
from supportsim.testing import MockLLMServer, RecordedRequest, Reply, call, reply, say

REPO = Path(__file__).parents[2]
SCENARIOS = REPO / "tests" / "fixtures" / "scenarios"
PERSONAS = REPO / "tests" / "fixtures" / "personas"


def validate(server: MockLLMServer | None, tmp_path: Path, *args: str) -> Any:
    env = {"COLUMNS": "200"}
    if server is not None:
        env |= {"OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": server.url + "/v1"}
    base = ["validate", str(SCENARIOS), "--personas", str(PERSONAS), "--out", str(tmp_path)]
    return CliRunner().invoke(app, [*base, *args], env=env)


def ends_at_once(_request: RecordedRequest) -> Reply:
    """A Customer that ends, satisfied, whenever it is asked to speak."""
    return reply(tool_calls=[call("end_conversation", reason="satisfied")])


def test_the_scripted_customer_lets_the_oracle_succeed_everywhere(tmp_path: Path) -> None:
    result = validate(None, tmp_path, "--customer", "scripted", "--trials", "2", "--threshold", "1")
    assert result.exit_code == 0, result.output
    assert "the oracle succeeded in 2 of 2 conversations (100.0%)" in result.output
    assert "threshold 100.0%: passed" in result.output
    assert "cannot play" not in result.output


def test_a_bad_customer_is_reported_per_scenario_and_finding_and_exits_1(
    threaded_server: MockLLMServer, tmp_path: Path
) -> None:
    threaded_server.default("bad-m", ends_at_once)
    args = ("--customer", "openai:bad-m", "--trials", "2", "--threshold", "0.9", "--json")
    result = validate(threaded_server, tmp_path, *args)
    assert result.exit_code == 1, result.output
    rows = {row["id"]: row for row in orjson.loads(result.stdout)}
    refund = rows["mock-duplicate-refund"]["customer"]
    assert refund == {
        "played": 2,
        "succeeded": 0,
        "rate": 0.0,
        "not_counted": 0,
        "failures": {"premature_end": 2},
    }
    assert all(row["oracle_passed"] for row in rows.values())  # the scenarios are fine


def test_the_terminal_names_the_scenarios_a_customer_cannot_play(
    threaded_server: MockLLMServer, tmp_path: Path
) -> None:
    threaded_server.default("bad-m", ends_at_once)
    result = validate(threaded_server, tmp_path, "--customer", "openai:bad-m", "--threshold", "0.9")
    assert result.exit_code == 1, result.output
    assert "mock-duplicate-refund (cannot play)" in result.output
    assert "premature_end" in result.output
    assert "cannot play: " in result.output and "threshold 90.0%: FAILED" in result.output


def insists(_request: RecordedRequest) -> Reply:
    """A Customer that never takes "all done" for an answer (and never ends)."""
    return say("That is not done yet: please refund the duplicate charge CH-2 now.")


def test_with_a_sloppy_agent_it_reports_whether_the_customer_pushed_back(
    threaded_server: MockLLMServer, tmp_path: Path
) -> None:
    threaded_server.default("bad-m", ends_at_once)
    threaded_server.default("pushy-m", insists)
    rows = {}
    for model in ("bad-m", "pushy-m"):
        args = ("--customer", f"openai:{model}", "--sloppy", "--max-turns", "3", "--json")
        result = validate(threaded_server, tmp_path, *args)
        assert result.exit_code == 0, result.output  # no threshold: no gate
        (row,) = orjson.loads(result.stdout)
        rows[model] = row["customer"]
    assert (rows["bad-m"]["pushed_back"], rows["bad-m"]["accepted"]) == (0, 1)
    assert (rows["pushy-m"]["pushed_back"], rows["pushy-m"]["accepted"]) == (1, 0)
