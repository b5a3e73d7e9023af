"""``supportsim run`` end to end and offline: the CLI against the mock server in a thread.

Synchronous on purpose: the command runs its own event loop (``asyncio.run``), so the
server serves from its thread (``start_in_thread``) and the test only reads files.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest
from typer.testing import CliRunner

from supportsim.cli import app
from supportsim.testing import MockLLMServer, load_script

REPO = Path(__file__).parents[2]
FIXTURES = REPO / "tests" / "fixtures"
KEY = "sk-test-SECRET-cli-never-written"
SCENARIO = "mock-duplicate-refund"


@pytest.fixture
def threaded_server() -> Iterator[MockLLMServer]:
    server = MockLLMServer()
    server.start_in_thread()
    try:
        yield server
    finally:
        server.stop_thread()


def run_cli(tmp_path: Path, *args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(
        app,
        [
            "run",
            "--scenarios",
            str(FIXTURES / "scenarios" / "mock_duplicate_refund.yaml"),
            "--personas",
            str(FIXTURES / "personas"),
            "--out",
            str(tmp_path),
            "--run-id",
            "offline",
            *args,
        ],
        env=env,
        catch_exceptions=False,
    )
    return result.exit_code, result.output


def records(run_dir: Path) -> list[dict]:
    lines = (run_dir / "conversations.jsonl").read_bytes().splitlines()
    return [orjson.loads(line) for line in lines]


def test_run_with_llm_agent_and_customer_against_the_mock_server(
    threaded_server: MockLLMServer, tmp_path: Path
) -> None:
    # The example script, as examples/README.md runs it with `supportsim mock-server`.
    for model, replies in load_script(REPO / "examples" / "mock_script.yaml").items():
        threaded_server.script(model, replies)
    env = {"OPENAI_BASE_URL": threaded_server.url + "/v1", "OPENAI_API_KEY": KEY}

    code, output = run_cli(
        tmp_path,
        "--agent",
        "openai:mock-agent",
        "--customer",
        "openai:mock-customer",
        "--statement-judge",
        "none",  # as examples/README.md runs it: the script plays no judge
        env=env,
    )

    assert code == 0, output
    run_dir = tmp_path / "offline"
    (record,) = records(run_dir)
    assert record["unit_id"] == f"{SCENARIO}|openai:mock-agent|1"
    assert (record["status"], record["termination"], record["strict"]) == (
        "completed",
        "customer_done",
        True,
    )
    assert [c["role"][0] for c in record["llm_calls"]] == list("acaacaac")
    first_reply = record["messages"][1]
    assert first_reply["ttft_ms"] >= 80 and first_reply["llm_ms"] >= 150
    assert first_reply["response_ms"] >= first_reply["llm_ms"]
    assert (run_dir / "summary.json").exists() and (run_dir / "run.json").exists()
    assert threaded_server.pending("mock-agent") == 0
    assert threaded_server.pending("mock-customer") == 0
    # Every request went to the loopback server; the key is in no file of the run.
    assert len(threaded_server.requests()) == 8
    for path in run_dir.rglob("*"):
        if path.is_file():
            assert KEY not in path.read_text(encoding="utf-8", errors="replace"), path


def test_run_with_the_example_python_and_langgraph_agents(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(REPO)  # as examples/README.md says: run from the repository root
    monkeypatch.syspath_prepend(str(REPO))

    code, output = run_cli(
        tmp_path,
        "--agent",
        "python:examples.python_agent:RuleAgent",
        "--agent",
        "langgraph:examples.langgraph_agent:build",
        "--customer",
        "scripted",
        env={"OPENAI_API_KEY": "", "ANTHROPIC_API_KEY": ""},
    )

    assert code == 0, output
    found = {r["agent"]: (r["status"], r["strict"]) for r in records(tmp_path / "offline")}
    assert found == {  # the python Agent is labelled by its own name attribute
        "rule-agent": ("completed", True),
        "langgraph:examples.langgraph_agent:build": ("completed", True),
    }


def test_a_plugin_that_does_not_import_is_bad_input(tmp_path: Path) -> None:
    code, output = run_cli(tmp_path, "--agent", "python:examples.nope:Agent")

    assert code == 2
    assert "cannot import examples.nope" in output
    assert not (tmp_path / "offline").exists()  # nothing half-written
