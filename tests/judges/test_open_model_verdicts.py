"""Judges on open models: JSON schema output, verdicts written as text, context limits.

Every reply shape goes through the real SDKs against the mock server: a forced tool call,
JSON text (``submit_verdict({...})``, a fenced block), and ``response_format`` output
that the mock checks against the schema the judge sent, as a grammar-enforcing server would.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from judge_helpers import record, verdict_args

from supportsim.errors import ScenarioError
from supportsim.judges import Case, Grader, Judge, JudgmentRecord, default_rubric, judge_once
from supportsim.llm import (
    ContextTooLong,
    LLMClient,
    LLMMessage,
    LLMRequest,
    RetryPolicy,
    load_models_file,
    make_client,
    parse_model_spec,
    resolve_credentials,
    with_retries,
)
from supportsim.testing import MockLLMServer, Reply, call, http_error, reply, say, structured

CASE = Case(policy="Refund duplicates only.", title="Refund", outcome="resolved")
GOOD = verdict_args(True)
Connect = Callable[..., LLMClient]


@pytest.fixture
async def connect(server: MockLLMServer, env: dict[str, str]) -> AsyncIterator[Connect]:
    clients: list[LLMClient] = []

    def _connect(spec: str = "openai:judge", **update: Any) -> LLMClient:
        config = parse_model_spec(spec, {})
        if update:
            config = config.model_copy(update=update)
        client = make_client(resolve_credentials(config, env))
        clients.append(client)
        return client

    yield _connect
    for client in clients:
        await client.aclose()


async def judged(client: LLMClient) -> JudgmentRecord:
    grader = Grader(default_rubric())
    return await judge_once(grader, Judge("j", client.complete), record("A", 1, True), CASE, 1)


@pytest.mark.parametrize(
    "answer",
    [
        structured(GOOD),  # JSON schema output, checked by the mock against the schema
        say("submit_verdict(" + json.dumps(GOOD) + ")"),
        say("Here is my verdict.\n```json\n" + json.dumps(GOOD, indent=2) + "\n```"),
        say(json.dumps({"name": "submit_verdict", "arguments": GOOD})),
        reply(tool_calls=[call("submit_verdict", **GOOD)]),
    ],
    ids=["response_format", "call-as-text", "fenced", "wrapper", "tool-call"],
)
async def test_an_open_model_verdict_is_accepted_in_every_shape(
    server: MockLLMServer, connect: Connect, answer: Reply
) -> None:
    server.script("judge", [answer])
    judgment = await judged(connect())
    assert judgment.status == "ok", judgment.error
    assert judgment.attempts == 1
    assert judgment.verdicts["overall"]["verdict"] == "pass"
    (sent,) = server.requests(model="judge")
    # A custom base URL is an OpenAI-compatible server: JSON schema output, no tool.
    fmt = sent.body["response_format"]
    assert fmt["type"] == "json_schema" and fmt["json_schema"]["name"] == "submit_verdict"
    assert set(fmt["json_schema"]["schema"]["properties"]) == set(GOOD)
    assert "tools" not in sent.body and "tool_choice" not in sent.body
    assert "No tools are available here" in sent.body["messages"][0]["content"]


async def test_json_text_that_does_not_fit_the_schema_is_not_a_verdict(
    server: MockLLMServer, connect: Connect
) -> None:
    partial = {"overall": GOOD["overall"]}
    server.script("judge", [say("submit_verdict(" + json.dumps(partial) + ")")] * 2)
    judgment = await judged(connect())
    assert judgment.status == "infra_error" and judgment.attempts == 2
    assert "invalid submit_verdict arguments: resolution: Field required" in (judgment.error or "")


async def test_the_mock_refuses_a_scripted_answer_that_breaks_response_format(
    server: MockLLMServer, connect: Connect
) -> None:
    server.script("judge", [structured({"overall": "pass"})])
    client = connect(structured_output=True)  # explicit: no fallback to the tool
    judgment = await judged(client)
    assert judgment.status == "infra_error"
    assert "does not fit response_format" in (judgment.error or "")


@pytest.mark.parametrize(
    ("spec", "update", "choice"),
    [
        ("openai:judge", {"base_url": None, "structured_output": "auto"}, "required"),
        ("openai:judge", {"structured_output": False}, "required"),
        ("anthropic:judge", {}, {"type": "any"}),
    ],
    ids=["openai-own-api", "openai-false", "anthropic"],
)
async def test_the_forced_tool_call_stays_where_it_is_the_strong_path(
    server: MockLLMServer, env: dict[str, str], spec: str, update: dict[str, Any], choice: object
) -> None:
    config = parse_model_spec(spec, {}).model_copy(update=update)
    if update.get("base_url", "set") is None:
        # OpenAI's own API (no custom base URL) decides the mode; the mock still answers.
        from supportsim.llm import OpenAIChatClient, ResolvedModel

        client: LLMClient = OpenAIChatClient(
            ResolvedModel(config, "sk-test-judge", server.url + "/v1")
        )
    else:
        client = make_client(resolve_credentials(config, env))
    server.script("judge", [reply(tool_calls=[call("submit_verdict", **GOOD)])])
    try:
        judgment = await judged(client)
    finally:
        await client.aclose()
    assert judgment.status == "ok", judgment.error
    (sent,) = server.requests(model="judge")
    assert sent.body["tool_choice"] == choice
    assert "response_format" not in sent.body


async def test_auto_falls_back_to_the_tool_when_the_server_refuses_response_format(
    server: MockLLMServer, connect: Connect
) -> None:
    refusal = http_error(400, message="'response_format' of type 'json_schema' is not supported")
    tool_answer = reply(tool_calls=[call("submit_verdict", **GOOD)])
    server.script("judge", [refusal, tool_answer, tool_answer])
    client = connect()
    first, second = await judged(client), await judged(client)
    assert (first.status, second.status) == ("ok", "ok")
    sent = server.requests(model="judge")
    assert ["response_format" in r.body for r in sent] == [True, False, False]  # remembered
    assert [r.body.get("tool_choice") for r in sent] == [None, "required", "required"]


async def test_explicit_structured_output_does_not_fall_back(
    server: MockLLMServer, connect: Connect
) -> None:
    server.script("judge", [http_error(400, message="response_format is not supported")])
    judgment = await judged(connect(structured_output=True))
    assert judgment.status == "infra_error" and "HTTP 400" in (judgment.error or "")
    assert len(server.requests(model="judge")) == 1


async def test_a_prompt_over_the_context_window_fails_at_once_naming_the_limit(
    server: MockLLMServer, connect: Connect
) -> None:
    judgment = await judged(connect(context_window=500))
    assert judgment.status == "infra_error"
    assert "does not fit the context_window of 500 tokens" in (judgment.error or "")
    assert server.requests(model="judge") == []  # nothing sent


async def test_a_prompt_inside_the_context_window_is_sent(
    server: MockLLMServer, connect: Connect
) -> None:
    server.script("judge", [structured(GOOD)])
    judgment = await judged(connect(context_window=200_000))
    assert judgment.status == "ok", judgment.error


@pytest.mark.parametrize(
    ("spec", "message", "limit"),
    [
        (
            "openai:judge",
            "the request exceeds the available context size, try increasing it (n_ctx: 4096)",
            4096,
        ),
        (
            "openai:judge",
            "This model's maximum context length is 8192 tokens. However, you requested 9000.",
            8192,
        ),
        ("anthropic:judge", "prompt is too long: 210000 tokens > 200000 maximum", 200000),
    ],
    ids=["llama.cpp", "vllm", "anthropic"],
)
async def test_the_servers_context_length_400_is_a_clear_error_and_not_retried(
    server: MockLLMServer, connect: Connect, spec: str, message: str, limit: int
) -> None:
    server.script("judge", [http_error(400, message=message)] * 3)
    client = connect(spec)
    request = LLMRequest(system="s", messages=(LLMMessage(role="user", content="hi"),))
    policy = RetryPolicy(max_attempts=3, base_delay_s=0.0, jitter=0.0)
    with pytest.raises(ContextTooLong) as info:
        await with_retries(lambda: client.complete(request), policy)
    assert info.value.limit == limit and info.value.retryable is False
    assert f"context window of {limit} tokens" in str(info.value)
    assert len(server.requests(model="judge")) == 1


async def test_an_unrelated_400_is_not_called_a_context_error(
    server: MockLLMServer, connect: Connect
) -> None:
    server.script("judge", [http_error(400, message="messages: field required")])
    client = connect()
    request = LLMRequest(system="s", messages=(LLMMessage(role="user", content="hi"),))
    with pytest.raises(Exception) as info:
        await client.complete(request)
    assert not isinstance(info.value, ContextTooLong)


def test_models_file_structured_output_and_context_window(tmp_path: Path) -> None:
    path = tmp_path / "models.yaml"
    path.write_text(
        "models:\n"
        "  local:\n    provider: openai\n    model: qwen\n    base_url: http://127.0.0.1:8080/v1\n"
        "    api_key_env: null\n    structured_output: true\n    context_window: 8192\n",
        encoding="utf-8",
    )
    local = load_models_file(path)["local"]
    assert (local.structured_output, local.context_window) == (True, 8192)
    path.write_text(
        "models:\n"
        "  c:\n    provider: anthropic\n    model: claude-haiku-4-5\n    structured_output: true\n"
        "  d:\n    provider: openai\n    model: x\n    structured_output: sometimes\n"
        "  e:\n    provider: openai\n    model: x\n    context_window: 0\n",
        encoding="utf-8",
    )
    with pytest.raises(ScenarioError) as info:
        load_models_file(path)
    text = str(info.value)
    assert "models.c.structured_output" in text and "Anthropic uses the tool" in text
    assert "models.d.structured_output" in text
    assert "models.e.context_window" in text
