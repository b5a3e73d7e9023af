"""``--tools mcp`` / ``mcp-stdio`` on the smoke suite: every unit scores exactly as in-process.

The oracle and two LLM Agents (the real openai and anthropic SDKs against the mock
server) make their tool calls through the real ``mcp`` client; the mock server's agent
model calls every tool it is offered (arguments fitting each schema, plus one malformed
call), so each scenario's tools, refusals and injected faults are exercised.
"""

from __future__ import annotations

import dataclasses
import os
from collections import Counter
from pathlib import Path
from typing import Any

import orjson
import pytest
from batch_helpers import LOOKUP, PERSONAS, SCENARIOS, records, request, run

from supportsim.store import ConversationRecord
from supportsim.testing import (
    MockLLMServer,
    RecordedRequest,
    Reply,
    call,
    malformed_call,
    reply,
    say,
)
from supportsim.testing.autopilot import AGENT_LINE, example_value

REPO = Path(__file__).parents[2]
SMOKE = {"scenarios": [str(REPO / "scenarios")], "personas": str(REPO / "personas")}
PLAIN = {"scenarios": [str(SCENARIOS)], "personas": str(PERSONAS)}
AGENTS = {
    "mcp": ["oracle", "openai:tourist", "anthropic:tourist"],
    # a process spawned per conversation: one LLM Agent here (the other wire format goes
    # through the bridge in tests/conversation/test_mcp_conversation.py)
    "mcp-stdio": ["oracle", "anthropic:tourist"],
}


def offered(body: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    out = []
    for t in body.get("tools") or ():
        f = t.get("function", t)
        out.append((f["name"], f.get("parameters") or f.get("input_schema") or {}))
    return out


def answered_tools(body: dict[str, Any]) -> bool:
    """Whether the request's last message carries tool results (either wire format)."""
    last = body["messages"][-1]
    if last.get("role") == "tool":
        return True
    content = last.get("content")
    return isinstance(content, list) and any(b.get("type") == "tool_result" for b in content)


def tourist(request: RecordedRequest) -> Reply:
    """Calls every offered tool once per turn (no transfer: the talk goes on), then chats."""
    if answered_tools(request.body):
        return say(AGENT_LINE)
    tools = [(n, s) for n, s in offered(request.body) if "transfer" not in n]
    calls = [call(name, **example_value(schema)) for name, schema in tools]
    return reply(tool_calls=[*calls, malformed_call(tools[0][0], '{"x": ')])


def by_unit(got: list[ConversationRecord]) -> dict[str, dict[str, Any]]:
    return {
        r.unit_id: {
            "status": r.status,
            "termination": r.termination,
            "strict": r.strict,
            "partial": r.partial,
            "checks": [c.model_dump() for c in r.checks],
            "calls": [
                (c.name, c.raw_arguments, c.arguments, c.ok, c.result, c.error, c.fault)
                for c in r.calls or []
            ],
            "tool_messages": [
                (m.name, m.content, m.is_error) for m in r.messages if m.role == "tool"
            ],
            "final_state": r.final_state,
        }
        for r in got
    }


def shown_tools(server: MockLLMServer) -> Counter[bytes]:
    return Counter(
        orjson.dumps(r.body.get("tools"), option=orjson.OPT_SORT_KEYS)
        for r in server.requests(model="tourist")
    )


async def smoke(
    server: MockLLMServer, out: Path, run_id: str, tools: str, agents: list[str]
) -> dict[str, Any]:
    session, _ = await run(
        server,
        request(
            out, run_id=run_id, suite="smoke", agents=agents, concurrency=4, tools=tools, **SMOKE
        ),
    )
    assert session.status == "completed"
    return by_unit(records(session))


@pytest.mark.parametrize("tools", ["mcp", "mcp-stdio"])
async def test_the_smoke_suite_over_mcp_scores_exactly_as_in_process(
    server: MockLLMServer, out: Path, tools: str
) -> None:
    server.default("tourist", tourist)
    agents = AGENTS[tools]
    if tools == "mcp":  # a deployed service speaking Chat Completions, the same way
        agents = [*agents, f"svc=http:{server.url}/v1#tourist"]
    local = await smoke(server, out, "local", "inprocess", agents)
    shown_local = shown_tools(server)
    remote = await smoke(server, out, "remote", tools, agents)
    assert len(local) == 10 * len(agents)
    assert {u: r["status"] for u, r in remote.items()} == {u: "completed" for u in local}
    for unit, record in local.items():
        assert remote[unit] == record, unit
    assert shown_tools(server) - shown_local == shown_local  # each tool list shown as often
    oracle = [r for u, r in remote.items() if "|oracle|" in u]
    assert all(r["strict"] for r in oracle)
    faults = {c[-1] for r in remote.values() for c in r["calls"]}
    assert "server_error" in faults  # the suite's injected fault went through MCP
    assert any(
        not c[3] and "not valid JSON" in (c[5] or "") for r in remote.values() for c in r["calls"]
    )


def priced_models(tmp_path: Path, server: MockLLMServer) -> Path:
    path = tmp_path / "models.yaml"
    path.write_text(
        "models:\n"
        "  priced:\n"
        "    provider: openai\n"
        "    model: priced\n"
        f"    base_url: {server.url}/v1\n"
        "    api_key_env: null\n"
        "    price: {input_per_mtok: 1.0, output_per_mtok: 0.0}\n",
        encoding="utf-8",
    )
    return path


async def test_a_batch_over_mcp_stopped_by_its_budget_resumes_to_the_end(
    server: MockLLMServer, out: Path, tmp_path: Path
) -> None:
    def priced(request: RecordedRequest) -> Reply:
        return dataclasses.replace(tourist(request), input_tokens=1000, output_tokens=5)

    server.default("priced", priced)
    common = {
        "agents": ["oracle", "priced"],
        "models_file": str(priced_models(tmp_path, server)),
        "concurrency": 1,
        "tools": "mcp",
    }
    first, _ = await run(server, request(out, budget_usd=0.004, **common))
    assert first.status == "budget"
    done_first = records(first)
    assert 0 < len(done_first) < 4
    resumed, _ = await run(server, request(out, budget_usd=1.0, resume=True, **common))
    assert resumed.status == "completed"
    every = records(resumed)
    assert len({r.unit_id for r in every}) == 4
    assert all(r.status == "completed" for r in every)
    assert all(r.strict for r in every if r.agent == "oracle")
    assert all(r.calls for r in every)  # every unit's tools were reached over MCP


@pytest.mark.parametrize("value", ["mcp-http", "MCP", ""])
def test_an_unknown_tools_mode_exits_2_naming_the_field(tmp_path: Path, value: str) -> None:
    from typer.testing import CliRunner

    from supportsim.cli import app

    args = ["run", "--scenarios", str(SCENARIOS), "--personas", str(PERSONAS)]
    result = CliRunner().invoke(
        app, [*args, "--out", str(tmp_path / "runs"), "--tools", value], env={"COLUMNS": "400"}
    )
    assert result.exit_code == 2, result.output
    assert "tools" in result.output and "'inprocess', 'mcp' or 'mcp-stdio'" in result.output
    assert not (tmp_path / "runs").exists()


def bridges_of(pid: int) -> list[tuple[bytes, bytes]]:
    """(cmdline, environ) of every ``mcp-stdio`` bridge process ``pid`` started."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            parent = int((entry / "stat").read_text().rpartition(")")[2].split()[1])
            cmdline = (entry / "cmdline").read_bytes()
            environ = (entry / "environ").read_bytes()
        except (OSError, ValueError):
            continue  # ended meanwhile
        if parent == pid and b"mcp-stdio" in cmdline:
            found.append((cmdline, environ))
    return found


async def test_the_stdio_bridge_gets_its_url_from_its_environment_never_its_command_line(
    server: MockLLMServer, out: Path
) -> None:
    from batch_helpers import Watch

    watch = Watch()
    seen: list[tuple[bytes, bytes, list[str]]] = []

    def look(request: RecordedRequest) -> Reply:
        tokens = list(watch.batch.ctx.mcp._conversations)  # the open sessions' keys
        seen.extend((cmdline, environ, tokens) for cmdline, environ in bridges_of(os.getpid()))
        return tourist(request)

    server.default("tourist", look)
    session, _ = await run(
        server,
        request(out, ids=[LOOKUP], agents=["anthropic:tourist"], tools="mcp-stdio", **PLAIN),
        watch=watch,
    )
    assert session.status == "completed"
    assert seen  # a bridge ran while the Agent was asked
    for cmdline, environ, tokens in seen:
        assert tokens and not any(t.encode() in cmdline for t in tokens)
        assert b"http" not in cmdline
        assert any(t.encode() in environ for t in tokens)  # it is that conversation's bridge
