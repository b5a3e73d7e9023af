"""tau2-bench tasks end to end, offline: import, run in the tau2 conversation mode against
the loopback mock server, score by tau2's reward, report tau2's figures.

Synchronous on purpose: each command runs its own event loop, so the server serves from its
thread. The agent replays each task's gold actions (``run_helpers``): task 2 (DB and one NL
assertion, which the assertion judge finds met) and task 6 (DB, no assertion) pass on every
trial, task 34 (DB only) only on its first. Without ``--assertion-judge`` task 2 is not fully
scored and never counted as a pass.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from run_helpers import DONE, STOP, Agent, judge, user
from tau2_helpers import CliImport
from typer.testing import CliRunner

from supportsim.cli import app
from supportsim.testing import MockLLMServer

PERSONAS = Path(__file__).parents[1] / "fixtures" / "personas"
KEY = "sk-test-tau2-run"
TASKS = ("2", "6", "34")


@pytest.fixture
def server() -> Iterator[MockLLMServer]:
    server = MockLLMServer()
    server.start_in_thread()
    try:
        yield server
    finally:
        server.stop_thread()


def cli(*args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args), env={"COLUMNS": "250", **(env or {})})
    return result.exit_code, result.output


@pytest.fixture
def cli_imported(cli_import: CliImport) -> Path:
    """The session's one CLI import of the train split (conftest.py);
    the runs write under their own tmp_path, never into it."""
    assert cli_import.exit_code == 0, cli_import.output
    return cli_import.out


def run(
    server: MockLLMServer, scenarios: Path, out: Path, agent: Agent, *extra: str
) -> tuple[int, str]:
    server.default("agent-m", agent)
    server.default("user-m", user)
    server.default("judge-m", judge)
    ids = [arg for task in TASKS for arg in ("--id", f"tau2_retail_{task}")]
    env = {"OPENAI_BASE_URL": server.url + "/v1", "OPENAI_API_KEY": KEY}
    return cli(
        "run", "--scenarios", str(scenarios), "--personas", str(PERSONAS), "--out", str(out),
        "--run-id", "r", "--agent", "openai:agent-m", "--customer", "openai:user-m",
        "--trials", "2", "--concurrency", "1", *ids, *extra,
        env=env,
    )  # fmt: skip


def records(run_dir: Path) -> dict[tuple[str, int], dict[str, Any]]:
    lines = (run_dir / "conversations.jsonl").read_text(encoding="utf-8").splitlines()
    return {(r["scenario_id"], r["trial"]): r for r in map(json.loads, lines)}


def test_imported_tasks_run_in_tau2s_conversation_and_report_tau2s_figures(
    server: MockLLMServer, cli_imported: Path, tmp_path: Path
) -> None:
    code, output = run(
        server, cli_imported, tmp_path / "runs", Agent(flaky=["34"]),
        "--assertion-judge", "openai:judge-m",
    )  # fmt: skip

    assert code in (0, 1), output  # 1: some units did not pass (no gate is set)
    run_dir = tmp_path / "runs" / "r"
    got = records(run_dir)
    assert len(got) == 6
    for record in got.values():
        # tau2's conversation: greeting first, the user's stop token last, tau2's tool texts
        assert record["status"] == "completed", record.get("error")
        assert record["messages"][0]["content"] == "Hi! How can I help you today?"
        assert (record["termination"], record["end_reason"]) == ("customer_done", "tau2_stop")
        assert record["messages"][-1]["content"] == STOP
    strict = {key: r["strict"] for key, r in got.items()}
    assert strict == {
        ("tau2_retail_2", 1): True,
        ("tau2_retail_2", 2): True,
        ("tau2_retail_6", 1): True,
        ("tau2_retail_6", 2): True,
        ("tau2_retail_34", 1): True,
        ("tau2_retail_34", 2): False,
    }
    checks = {c["id"]: c for c in got[("tau2_retail_2", 1)]["checks"]}
    assert checks["reward:DB"]["passed"] and checks["reward:NL_ASSERTION"]["passed"]
    asked = server.requests(model="judge-m")
    assert len(asked) == 2  # task 2's two conversations; tasks 6 and 34 need no judge
    assert "assistant: Hi! How can I help you today?" in asked[0].text  # tau2's trajectory
    failed = {c["id"]: c for c in got[("tau2_retail_34", 2)]["checks"]}
    assert failed["reward:DB"]["passed"] is False
    assert got[("tau2_retail_34", 2)]["messages"][-2]["content"] == DONE
    # partial: the gold actions called, with the database and gold actions as ends
    assert got[("tau2_retail_34", 2)]["partial"] == 0.0
    assert got[("tau2_retail_2", 1)]["partial"] == 1.0

    first = got[("tau2_retail_6", 1)]
    tools = [m for m in first["messages"] if m["role"] == "tool"]
    assert tools[0]["content"] == "mei_kovacs_8020"  # tau2's text, not a JSON string
    assert tools[1]["content"].startswith('{"user_id": "mei_kovacs_8020", ')

    summary = json.loads((run_dir / "summary.json").read_text(encoding="utf-8"))
    tau2 = summary["agents"]["openai:agent-m"]["tau2"]
    assert (tau2["tasks"], tau2["simulations"]) == (3, 6)
    assert tau2["avg_reward"] == pytest.approx(5 / 6)
    # pass^k per task (c of n): task 2 2/2, task 6 2/2, task 34 1/2
    assert tau2["pass_hat_k"] == pytest.approx({"1": (1 + 1 + 0.5) / 3, "2": (1 + 1 + 0) / 3})

    code, shown = cli("report", str(run_dir))
    assert code == 0, shown
    assert "tau2-bench metrics" in shown and "83.3%" in shown  # avg reward
    assert "strict" in shown and "partial" in shown


def test_without_an_assertion_judge_a_task_with_assertions_never_passes(
    server: MockLLMServer, cli_imported: Path, tmp_path: Path
) -> None:
    code, output = run(server, cli_imported, tmp_path / "runs", Agent())

    assert code in (0, 1), output
    got = records(tmp_path / "runs" / "r")
    assert [got[("tau2_retail_2", t)]["strict"] for t in (1, 2)] == [False, False]
    assert [got[("tau2_retail_6", t)]["strict"] for t in (1, 2)] == [True, True]
    assert server.requests(model="judge-m") == []
    summary = json.loads((tmp_path / "runs" / "r" / "summary.json").read_text("utf-8"))
    assert summary["agents"]["openai:agent-m"]["tau2"]["pass_hat_k"]["2"] == pytest.approx(2 / 3)
    # The task with NL assertions was not fully scored: said so, never a pass.
    assert summary["agents"]["openai:agent-m"]["tau2"]["not_fully_scored"] == 2


def test_tau2_mode_refuses_tools_over_mcp_before_anything_is_written(
    server: MockLLMServer, cli_imported: Path, tmp_path: Path
) -> None:
    """tau2's tool texts and step counts live in our loop; MCP would bypass both. (Our own
    conversation mode over MCP is tests/batch/test_mcp_batch.py's.)"""
    out = tmp_path / "runs"
    code, output = run(server, cli_imported, out, Agent(), "--tools", "mcp")
    assert code == 2
    assert "--tools mcp calls tools over MCP" in output.replace("\n", " ")
    assert not out.exists()
