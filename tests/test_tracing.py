"""OpenTelemetry spans of a run (supportsim._tracing), read from the SDK's in-memory
exporter: the span tree, the GenAI attributes, no secret in any attribute, content only
when asked for, and nothing at all (no opentelemetry import) when tracing is off."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from supportsim import _tracing
from supportsim.batch import RunRequest, execute, prepare_run
from supportsim.store import iter_records
from supportsim.testing import MockLLMServer, autopilot
from supportsim.testing.replies import call, reply, say

TESTS = Path(__file__).parent
SCENARIOS = TESTS / "batch" / "scenarios"
PERSONAS = TESTS / "fixtures" / "personas"
KEY = "sk-agent-secret-0123456789"
PASSWORD = "hunter2-in-the-url"
HIDDEN_GOAL = "You want to know which charges are on your account."  # lookup.yaml's reason


@pytest.fixture
def spans() -> Iterator[InMemorySpanExporter]:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    yield exporter
    _tracing.stop_tracing()
    provider.shutdown()


def _trace_into(exporter: InMemorySpanExporter, *, content: bool) -> None:
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    _tracing.use_tracer_provider(provider, content=content)


async def _run(tmp_path: Path, server: MockLLMServer, **more: Any) -> Any:
    """One conversation of lookup.yaml: a scripted OpenAI agent (two tool calls, then the
    answer) and an autopilot customer, through ``prepare_run`` + ``execute`` as ``run``."""
    host = server.url.removeprefix("http://")
    models = tmp_path / "models.yaml"
    models.write_text(
        "models:\n"
        "  agent-x:\n"
        "    provider: openai\n"
        "    model: agent-model\n"
        f"    base_url: http://agent:{PASSWORD}@{host}/v1\n"
        "    api_key_env: AGENT_KEY\n",
        encoding="utf-8",
    )
    server.default(None, autopilot)
    server.script(
        "agent-model",
        [
            reply(tool_calls=[call("verify_identity", customer_id="C-1", pin="4321")]),
            reply(tool_calls=[call("list_charges", customer_id="C-1")]),
            say("You have two charges, CH-1 and CH-2, of 30 USD each.", input_tokens=120),
        ],
    )
    overrides = {
        "scenarios": [str(SCENARIOS)],
        "personas": str(PERSONAS),
        "out": str(tmp_path / "runs"),
        "ids": ["mock-charge-lookup"],
        "agents": ["agent-x"],
        "customer": "openai:customer-model",
        "models_file": str(models),
        **more,
    }
    env = {
        "AGENT_KEY": KEY,
        "OPENAI_API_KEY": KEY,
        "OPENAI_BASE_URL": server.url + "/v1",
    }
    prepared = prepare_run(RunRequest(None, overrides, run_id="traced"), env)
    try:
        return await execute(prepared.session, prepared.ctx, prepared.config, pool=prepared.pool)
    finally:
        await prepared.pool.aclose()


def _by_name(found: tuple[ReadableSpan, ...], prefix: str) -> list[ReadableSpan]:
    return [s for s in found if s.name.startswith(prefix)]


def _parent(span: ReadableSpan, found: tuple[ReadableSpan, ...]) -> ReadableSpan | None:
    if span.parent is None:
        return None
    return next(s for s in found if s.context.span_id == span.parent.span_id)


async def test_a_run_is_one_tree_of_spans_with_genai_attributes(
    tmp_path: Path, spans: InMemorySpanExporter
) -> None:
    _trace_into(spans, content=False)
    async with MockLLMServer() as server:
        session = await _run(tmp_path, server)
    [record] = iter_records(session.run_dir)
    assert record.status == "completed"
    found = spans.get_finished_spans()

    [run] = _by_name(found, "supportsim run")
    assert run.parent is None
    assert run.attributes["supportsim.run.id"] == "traced"
    assert run.attributes["supportsim.run.status"] == "completed"

    [conversation] = _by_name(found, "conversation ")
    assert _parent(conversation, found) is run
    assert conversation.attributes["gen_ai.conversation.id"] == record.unit_id
    assert conversation.attributes["gen_ai.agent.name"] == "agent-x"
    assert conversation.attributes["supportsim.scenario.id"] == "mock-charge-lookup"
    assert conversation.attributes["supportsim.status"] == "completed"
    assert conversation.attributes["supportsim.strict"] is record.strict

    turns = _by_name(found, "turn ")
    assert [t.attributes["supportsim.turn"] for t in sorted(turns, key=lambda t: t.start_time)][
        :2
    ] == [1, 2]
    assert all(_parent(t, found) is conversation for t in turns)

    chats = _by_name(found, "chat ")
    agent_chats = [c for c in chats if c.attributes["supportsim.role"] == "agent"]
    assert len(agent_chats) >= 3  # two tool rounds and the answer (the customer may go on)
    for chat in chats:
        # the statement judge (the Customer's model by default) is asked after the last
        # turn: its calls belong to the conversation, not to a turn
        judged = chat.attributes["supportsim.role"] == "judge"
        assert _parent(chat, found) is conversation if judged else _parent(chat, found) in turns
        assert chat.attributes["gen_ai.operation.name"] == "chat"
        assert chat.attributes["gen_ai.provider.name"] == "openai"
        assert chat.attributes["gen_ai.system"] == "openai"
        assert chat.attributes["gen_ai.usage.output_tokens"] >= 1
    assert {c.attributes["gen_ai.request.model"] for c in agent_chats} == {"agent-model"}
    assert {c.attributes["server.address"] for c in agent_chats} == {"127.0.0.1"}
    assert any(c.attributes.get("gen_ai.usage.input_tokens") == 120 for c in agent_chats)
    assert {c.attributes["supportsim.role"] for c in chats} == {"agent", "customer", "judge"}

    tools = _by_name(found, "execute_tool ")
    assert [t.attributes["gen_ai.tool.name"] for t in tools] == ["verify_identity", "list_charges"]
    for tool in tools:
        assert _parent(tool, found) in turns  # the scorer's reference replay is not traced
        assert tool.attributes["gen_ai.operation.name"] == "execute_tool"
        assert tool.attributes["gen_ai.tool.call.id"]
        assert "gen_ai.tool.call.arguments" not in tool.attributes


async def test_tool_spans_over_mcp_hang_from_the_turn_as_in_process(
    tmp_path: Path, spans: InMemorySpanExporter
) -> None:
    """A call served by the MCP host (on uvicorn's task) runs in the conversation's context."""
    _trace_into(spans, content=False)
    async with MockLLMServer() as server:
        session = await _run(tmp_path, server, tools="mcp")
    [record] = iter_records(session.run_dir)
    assert record.status == "completed"
    found = spans.get_finished_spans()
    turns = _by_name(found, "turn ")
    tools = _by_name(found, "execute_tool ")
    assert [t.attributes["gen_ai.tool.name"] for t in tools] == ["verify_identity", "list_charges"]
    assert all(_parent(t, found) in turns for t in tools)


def _attribute_text(found: tuple[ReadableSpan, ...]) -> str:
    return json.dumps([dict(s.attributes or {}) for s in found], default=str)


async def test_no_secret_and_no_content_in_attributes_by_default(
    tmp_path: Path, spans: InMemorySpanExporter
) -> None:
    _trace_into(spans, content=False)
    async with MockLLMServer() as server:
        await _run(tmp_path, server)
    text = _attribute_text(spans.get_finished_spans())
    assert KEY not in text
    assert PASSWORD not in text
    assert "Bearer" not in text and "authorization" not in text.lower()
    assert HIDDEN_GOAL not in text  # the customer's system prompt is content
    assert "CH-1" not in text  # nor is anything said or returned
    assert "gen_ai.input.messages" not in text


async def test_content_is_recorded_when_asked_but_never_a_secret(
    tmp_path: Path, spans: InMemorySpanExporter
) -> None:
    _trace_into(spans, content=True)
    async with MockLLMServer() as server:
        await _run(tmp_path, server)
    found = spans.get_finished_spans()
    text = _attribute_text(found)
    assert KEY not in text and PASSWORD not in text
    answer = next(
        c
        for c in _by_name(found, "chat agent-model")
        if "CH-2" in c.attributes.get("gen_ai.output.messages", "")
    )
    [output] = json.loads(answer.attributes["gen_ai.output.messages"])
    assert output["role"] == "assistant"
    assert output["parts"][0] == {
        "type": "text",
        "content": "You have two charges, CH-1 and CH-2, of 30 USD each.",
    }
    inputs = json.loads(answer.attributes["gen_ai.input.messages"])
    assert inputs[0]["role"] == "user"
    assert any(p["type"] == "tool_call_response" for m in inputs for p in m["parts"])
    customer = next(
        c
        for c in found
        if c.name.startswith("chat") and c.attributes["supportsim.role"] == "customer"
    )
    assert HIDDEN_GOAL in customer.attributes["gen_ai.system_instructions"]
    verify = _by_name(found, "execute_tool verify_identity")[0]
    assert json.loads(verify.attributes["gen_ai.tool.call.arguments"]) == {
        "customer_id": "C-1",
        "pin": "4321",
    }
    assert "C-1" in verify.attributes["gen_ai.tool.call.result"]


async def test_a_failed_model_call_names_its_type_and_status_not_its_text(
    tmp_path: Path, spans: InMemorySpanExporter
) -> None:
    from supportsim.testing import http_error

    _trace_into(spans, content=False)
    async with MockLLMServer() as server:
        server.script("agent-model", [http_error(401, message=f"Incorrect API key: {KEY}")])
        session = await _run(tmp_path, server)
    [record] = iter_records(session.run_dir)
    assert record.status == "infra_error"
    found = spans.get_finished_spans()
    [failed] = [
        c for c in _by_name(found, "chat agent-model") if c.status.status_code.name == "ERROR"
    ]
    assert failed.attributes["error.type"] == "ProviderError"
    assert failed.attributes["http.response.status_code"] == 401
    assert KEY not in _attribute_text(found)
    assert all(not s.events for s in found)  # no exception event carrying the message
    [conversation] = _by_name(found, "conversation ")
    assert conversation.status.status_code.name == "ERROR"
    assert conversation.attributes["supportsim.status"] == "infra_error"


async def test_off_records_nothing_and_hands_back_the_same_caller(
    tmp_path: Path, spans: InMemorySpanExporter
) -> None:
    async def caller(request: object) -> object:
        return request

    assert not _tracing.tracing_on()
    assert _tracing.traced_model_call(caller, object(), "agent") is caller
    async with MockLLMServer() as server:
        await _run(tmp_path, server)
    assert spans.get_finished_spans() == ()


def test_environment_switches() -> None:
    assert not _tracing.wanted(False, {})
    assert _tracing.wanted(True, {})
    assert _tracing.wanted(False, {"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"})
    assert _tracing.wanted(False, {"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://c/v1/traces"})
    assert not _tracing.wanted(True, {"OTEL_SDK_DISABLED": "true"})
    assert not _tracing.wanted(False, {"OTEL_EXPORTER_OTLP_ENDPOINT": " "})
    assert _tracing.content_wanted(False, {_tracing.CONTENT_ENV: "TRUE"})
    assert not _tracing.content_wanted(False, {_tracing.CONTENT_ENV: "false"})
    stop = _tracing.start_tracing(flag=False, content=False, env={})
    assert not _tracing.tracing_on()
    stop()


def test_off_needs_no_opentelemetry(tmp_path: Path) -> None:
    """The whole ``run`` path with tracing off, in a process where opentelemetry cannot be
    imported at all (langsmith imports it when it is installed, so "not loaded" could not
    be told apart): it completes, and no opentelemetry module was loaded."""
    script = (
        "import sys, asyncio\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] == 'opentelemetry':\n"
        "            raise ImportError(name)\n"
        "sys.meta_path.insert(0, Block())\n"
        "from supportsim.batch import RunRequest, execute, prepare_run\n"
        "from supportsim.cli import app\n"
        f"req = RunRequest(None, {{'scenarios': [{str(SCENARIOS)!r}], "
        f"'personas': {str(PERSONAS)!r}, 'out': {str(tmp_path / 'runs')!r}}}, run_id='off')\n"
        "p = prepare_run(req, {})\n"
        "s = asyncio.run(execute(p.session, p.ctx, p.config, pool=p.pool))\n"
        "assert s.status == 'completed', s.status\n"
        "print(sorted(m for m in sys.modules if m.startswith('opentelemetry')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_asking_for_tracing_without_the_sdk_is_a_clear_error(tmp_path: Path) -> None:
    script = (
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.startswith(('opentelemetry.sdk', 'opentelemetry.exporter')):\n"
        "            raise ImportError(name)\n"
        "sys.meta_path.insert(0, Block())\n"
        "from supportsim import _tracing\n"
        "try:\n"
        "    _tracing.start_tracing(flag=True, content=False, env={})\n"
        "except _tracing.TracingUnavailable as exc:\n"
        "    print(exc)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "pip install 'supportsim[otel]'" in done.stdout


def _cli_without_sdk(tmp_path: Path, *flags: str, env: dict[str, str]) -> Any:
    """``supportsim run ... FLAGS`` in a process where the SDK cannot be imported."""
    script = (
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.startswith(('opentelemetry.sdk', 'opentelemetry.exporter')):\n"
        "            raise ImportError(name)\n"
        "sys.meta_path.insert(0, Block())\n"
        "from supportsim.cli import main\n"
        "main()\n"
    )
    args = ["run", "--scenarios", str(SCENARIOS), "--personas", str(PERSONAS)]
    args += ["--out", str(tmp_path / "runs"), "--id", "mock-charge-lookup", *flags]
    return subprocess.run(
        [sys.executable, "-c", script, *args],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "COLUMNS": "300", **env},
    )


def test_otel_flag_without_the_extra_is_bad_input(tmp_path: Path) -> None:
    done = _cli_without_sdk(tmp_path, "--otel", env={})
    assert done.returncode == 2, done.stdout + done.stderr
    assert "--otel" in done.stderr and "supportsim[otel]" in done.stderr
    assert not (tmp_path / "runs").exists()


def test_an_endpoint_variable_without_the_extra_only_warns(tmp_path: Path) -> None:
    done = _cli_without_sdk(
        tmp_path, env={"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:9/unused"}
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "warning: OTEL_* set but not tracing" in done.stderr
    assert (tmp_path / "runs").is_dir()
