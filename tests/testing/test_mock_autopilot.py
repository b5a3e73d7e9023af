"""Script files, the autopilot responder and ``serve()`` for offline dry runs."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import openai
import pytest

from supportsim.errors import InputError
from supportsim.testing import MockLLMServer, RecordedRequest, autopilot, load_script
from supportsim.testing.autopilot import AGENT_LINE, CUSTOMER_LINES, serve
from supportsim.testing.replies import ToolCallSpec

END_TOOL_OPENAI = {"type": "function", "function": {"name": "end_conversation"}}
END_TOOL_ANTHROPIC = {"name": "end_conversation", "input_schema": {"type": "object"}}


def _request(
    api: Any, messages: list[dict[str, Any]], tools: Sequence[Any] = ()
) -> RecordedRequest:
    body = {"model": "m", "messages": messages, "tools": list(tools)}
    return RecordedRequest(api, "/", "m", False, body, "", {}, 0.0)


def _turns(assistant_turns: int) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = [{"role": "user", "content": "hi"}]
    for _ in range(assistant_turns):
        messages += [{"role": "assistant", "content": "x"}, {"role": "user", "content": "y"}]
    return messages


def test_autopilot_agent_side() -> None:
    answer = autopilot(
        _request("openai", _turns(5), [{"type": "function", "function": {"name": "x"}}])
    )
    assert (answer.text, answer.tool_calls) == (AGENT_LINE, ())


@pytest.mark.parametrize(
    ("api", "tool"), [("openai", END_TOOL_OPENAI), ("anthropic", END_TOOL_ANTHROPIC)]
)
def test_autopilot_customer_ends_after_two_assistant_turns(api: str, tool: Any) -> None:
    first = autopilot(_request(api, _turns(0), [tool]))
    second = autopilot(_request(api, _turns(1), [tool]))
    assert first.text == CUSTOMER_LINES[0] and second.text == CUSTOMER_LINES[1]
    assert not first.tool_calls and not second.tool_calls
    end = autopilot(_request(api, _turns(2), [tool]))
    assert end.tool_calls == (ToolCallSpec("end_conversation", '{"reason": "satisfied"}'),)


def test_load_script_yaml(tmp_path: Path) -> None:
    path = tmp_path / "script.yaml"
    path.write_text(
        "agent:\n"
        "  - say: Hello\n"
        "    reasoning: think\n"
        "    ttft_ms: 5\n"
        "  - tool_calls:\n"
        "      - {name: get_order, args: {order_id: A1}}\n"
        "      - {name: bad, raw_arguments: '{'}\n"
        "  - {error: 429, retry_after_s: 1}\n"
        "  - {hang: true}\n"
        "  - {truncated: cut}\n",
        encoding="utf-8",
    )
    replies = load_script(path)["agent"]
    assert [r.kind for r in replies] == ["message", "message", "error", "hang", "truncated"]
    assert (replies[0].text, replies[0].reasoning, replies[0].ttft_ms) == ("Hello", "think", 5)
    assert replies[1].tool_calls[0].arguments == '{"order_id": "A1"}'
    assert not replies[1].tool_calls[1].valid_json
    assert (replies[2].status, replies[2].retry_after_s) == (429, 1)
    assert replies[4].text == "cut"


@pytest.mark.parametrize(
    ("content", "needle"),
    [
        ('{"agent": [{"sya": "typo"}]}', "[agent][0]: unknown key(s) ['sya']"),
        ('{"agent": {"say": "x"}}', "expected a list of replies"),
        ("[1, 2]", "expected a mapping of model name"),
        ('{"agent": [{"tool_calls": [{"args": {}}]}]}', "string 'name'"),
        ("agent: [", "invalid YAML"),
    ],
)
def test_load_script_errors_name_the_entry(tmp_path: Path, content: str, needle: str) -> None:
    path = tmp_path / "script.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputError) as info:
        load_script(path)
    assert needle in str(info.value) and str(path) in str(info.value)


def test_load_script_missing_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="cannot read"):
        load_script(tmp_path / "nope.yaml")


async def test_serve_runs_script_then_autopilot_until_cancelled(tmp_path: Path) -> None:
    path = tmp_path / "script.json"
    path.write_text('{"agent": [{"say": "scripted first"}]}', encoding="utf-8")
    started: asyncio.Future[MockLLMServer] = asyncio.get_running_loop().create_future()
    task = asyncio.create_task(serve("127.0.0.1", 0, path, ready=started.set_result))
    server = await started
    client = openai.AsyncOpenAI(
        base_url=server.url + "/v1",
        api_key="test",
        max_retries=0,
        http_client=openai.DefaultAsyncHttpxClient(verify=False),
    )
    try:
        messages: Any = [{"role": "user", "content": "hi"}]
        texts = [
            (await client.chat.completions.create(model="agent", messages=messages))
            .choices[0]
            .message.content
            for _ in range(2)
        ]
        assert texts == ["scripted first", AGENT_LINE]
    finally:
        await client.close()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task


async def test_serve_rejects_bad_script_before_binding(tmp_path: Path) -> None:
    path = tmp_path / "script.json"
    path.write_text('{"agent": [{"nope": 1}]}', encoding="utf-8")
    with pytest.raises(InputError):
        await serve("127.0.0.1", 0, path)


VERDICT_SCHEMA = {
    "type": "object",
    "properties": {
        "overall": {
            "type": "object",
            "properties": {"passed": {"type": "boolean"}, "justification": {"type": "string"}},
        },
        "grade": {"enum": ["good", "bad"]},
        "tags": {"type": "array", "items": {"type": "string"}, "minItems": 2},
        "score": {"anyOf": [{"type": "null"}, {"type": "number"}]},
    },
}


@pytest.mark.parametrize(
    ("api", "tool", "choice"),
    [
        (
            "openai",
            {"type": "function", "function": {"name": "submit", "parameters": VERDICT_SCHEMA}},
            "required",
        ),
        ("anthropic", {"name": "submit", "input_schema": VERDICT_SCHEMA}, {"type": "any"}),
    ],
)
def test_autopilot_answers_a_forced_tool_call_with_arguments_that_fit_its_schema(
    api: Any, tool: dict[str, Any], choice: Any
) -> None:
    request = _request(api, _turns(0), [tool])
    request.body["tool_choice"] = choice
    [made] = autopilot(request).tool_calls
    assert made.name == "submit"
    assert json.loads(made.arguments) == {
        "overall": {"passed": True, "justification": "autopilot answer"},
        "grade": "good",
        "tags": ["autopilot answer", "autopilot answer"],
        "score": 1,
    }


def test_autopilot_answers_a_response_format_schema_with_fitting_json_text() -> None:
    import jsonschema

    schema = {
        "type": "object",
        "properties": {"verdict": {"enum": ["pass", "fail"]}, "why": {"type": "string"}},
        "required": ["verdict", "why"],
        "additionalProperties": False,
    }
    body = {
        "model": "m",
        "messages": [{"role": "user", "content": "grade this"}],
        "response_format": {"type": "json_schema", "json_schema": {"name": "v", "schema": schema}},
    }
    answer = autopilot(RecordedRequest("openai", "/", "m", False, body, "", {}, 0.0))
    assert not answer.tool_calls
    jsonschema.validate(json.loads(answer.text or ""), schema)
    plain = autopilot(_request("openai", _turns(0)))  # no schema: a plain agent line
    assert plain.text == AGENT_LINE
