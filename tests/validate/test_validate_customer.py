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
from supportsim.report import CustomerCheckJson
from supportsim.testing import MockLLMServer, RecordedRequest, Reply, call, http_error, reply, say

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
    doc = orjson.loads(result.stdout)
    rows = {row["id"]: row for row in doc["scenarios"]}
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
        (row,) = orjson.loads(result.stdout)["scenarios"]
        rows[model] = row["customer"]
    assert (rows["bad-m"]["pushed_back"], rows["bad-m"]["accepted"]) == (0, 1)
    assert (rows["pushy-m"]["pushed_back"], rows["pushy-m"]["accepted"]) == (1, 0)


def test_the_json_is_one_document_with_the_whole_check(
    threaded_server: MockLLMServer, tmp_path: Path
) -> None:
    threaded_server.default("bad-m", ends_at_once)
    args = ("--customer", "openai:bad-m", "--threshold", "0.9", "--json")
    result = validate(threaded_server, tmp_path, *args)
    assert result.exit_code == 1, result.output
    check = CustomerCheckJson.model_validate(orjson.loads(result.stdout)["customer"])
    assert check.measured and check.threshold == 0.9 and check.passed is False
    assert check.overall.played == sum(r.played for r in check.by_scenario.values())
    assert set(check.by_persona) and check.findings.get("premature_end", 0) >= 1
    assert "mock-duplicate-refund" in check.unplayable
    # without --customer the per-scenario list stays as it was
    plain = validate(None, tmp_path, "--json")
    assert isinstance(orjson.loads(plain.stdout), list)


def test_with_the_provider_down_it_says_nothing_was_measured(
    threaded_server: MockLLMServer, tmp_path: Path
) -> None:
    threaded_server.default("down-m", lambda _r: http_error(401, message="bad key"))
    result = validate(
        threaded_server, tmp_path, "--customer", "openai:down-m", "--threshold", "0.5"
    )
    assert result.exit_code == 1, result.output
    assert "nothing measured" in result.output
    assert "FAILED" not in result.output.split("nothing measured")[1]
    doc = validate(threaded_server, tmp_path, "--customer", "openai:down-m", "--json")
    assert CustomerCheckJson.model_validate(orjson.loads(doc.stdout)["customer"]).measured is False


def test_threshold_or_sloppy_without_customer_is_bad_input(tmp_path: Path) -> None:
    for flag in (("--threshold", "0.5"), ("--sloppy",)):
        result = validate(None, tmp_path, *flag)
        assert result.exit_code == 2, result.output
        assert f"{flag[0]}: applies to the Customer check" in result.output


def test_the_verdict_line_keeps_a_model_spec_as_written(
    threaded_server: MockLLMServer, tmp_path: Path
) -> None:
    threaded_server.default("m", ends_at_once)
    result = validate(threaded_server, tmp_path, "--customer", "openai:m")
    assert "customer openai:m:" in result.output and "\u24c2" not in result.output
