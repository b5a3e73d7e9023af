"""Neutral messages to each provider's request payload."""

from __future__ import annotations

import pytest

from supportsim.llm import LLMMessage, LLMRequest, ModelConfig, ModelParams, ToolCall, ToolSpec
from supportsim.llm._anthropic import build_anthropic_params, to_anthropic_messages
from supportsim.llm._openai_params import build_openai_params, to_openai_messages

LOOKUP = ToolSpec(
    name="lookup",
    description="Find an order.",
    parameters={"type": "object", "properties": {"order_id": {"type": "string"}}},
)
CALLS = (
    ToolCall(id="c1", name="lookup", arguments='{"order_id": "A1"}'),
    ToolCall(id="c2", name="lookup", arguments='{"order_id": "A2"}'),
)
HISTORY = (
    LLMMessage(role="user", content="Where are my orders?"),
    LLMMessage(
        role="assistant",
        content="",
        tool_calls=CALLS,
        reasoning="Two orders: look both up.",
        reasoning_signature="sig-123",
    ),
    LLMMessage(role="tool", tool_call_id="c1", content="A1: shipped"),
    LLMMessage(role="tool", tool_call_id="c2", content="no such order", is_error=True),
    LLMMessage(role="assistant", content="A1 has shipped; A2 does not exist."),
    LLMMessage(role="user", content="Thanks"),
)
REQUEST = LLMRequest(system="You are support.", messages=HISTORY, tools=(LOOKUP,))


def test_anthropic_merges_tool_results_and_keeps_signed_thinking() -> None:
    assert to_anthropic_messages(HISTORY) == [
        {"role": "user", "content": "Where are my orders?"},
        {
            "role": "assistant",
            "content": [
                {
                    "type": "thinking",
                    "thinking": "Two orders: look both up.",
                    "signature": "sig-123",
                },
                {"type": "tool_use", "id": "c1", "name": "lookup", "input": {"order_id": "A1"}},
                {"type": "tool_use", "id": "c2", "name": "lookup", "input": {"order_id": "A2"}},
            ],
        },
        {
            "role": "user",
            "content": [
                {
                    "type": "tool_result",
                    "tool_use_id": "c1",
                    "content": "A1: shipped",
                    "is_error": False,
                },
                {
                    "type": "tool_result",
                    "tool_use_id": "c2",
                    "content": "no such order",
                    "is_error": True,
                },
            ],
        },
        {
            "role": "assistant",
            "content": [{"type": "text", "text": "A1 has shipped; A2 does not exist."}],
        },
        {"role": "user", "content": "Thanks"},
    ]


def test_anthropic_drops_unsigned_thinking_and_bad_arguments() -> None:
    message = LLMMessage(
        role="assistant",
        content="Checking.",
        tool_calls=(ToolCall(id="c9", name="lookup", arguments='{"order_id": '),),
        reasoning="unsigned thoughts",
    )
    (converted,) = to_anthropic_messages((message,))
    assert converted["content"] == [
        {"type": "text", "text": "Checking."},
        {"type": "tool_use", "id": "c9", "name": "lookup", "input": {}},
    ]


def test_anthropic_trailing_tool_results_become_a_user_message() -> None:
    history = HISTORY[:4]
    assert to_anthropic_messages(history)[-1]["role"] == "user"
    assert len(to_anthropic_messages(history)[-1]["content"]) == 2


def test_anthropic_params() -> None:
    config = ModelConfig(
        name="c",
        provider="anthropic",
        model="claude-x",
        params=ModelParams(thinking_budget=2048, reasoning_effort="high"),
    )
    params = build_anthropic_params(config, REQUEST)
    assert params["model"] == "claude-x"
    assert params["system"] == "You are support."
    assert params["stream"] is True
    assert params["max_tokens"] == 4096 + 2048
    assert params["thinking"] == {"type": "enabled", "budget_tokens": 2048}
    assert params["output_config"] == {"effort": "high"}
    assert params["tools"] == [
        {"name": "lookup", "description": "Find an order.", "input_schema": LOOKUP.parameters}
    ]
    assert params["tool_choice"] == {"type": "auto"}
    assert "temperature" not in params


@pytest.mark.parametrize(
    ("choice", "wire"), [("auto", "auto"), ("required", "any"), ("none", "none")]
)
def test_anthropic_tool_choice(choice: str, wire: str) -> None:
    config = ModelConfig(
        name="c", provider="anthropic", model="m", params=ModelParams(max_tokens=99)
    )
    request = LLMRequest(system="", messages=HISTORY[:1], tools=(LOOKUP,), tool_choice=choice)  # type: ignore[arg-type]
    params = build_anthropic_params(config, request)
    assert params["tool_choice"] == {"type": wire}
    assert params["max_tokens"] == 99
    assert "system" not in params
    assert "thinking" not in params


def test_openai_one_tool_message_each_and_reasoning_content() -> None:
    assert to_openai_messages(REQUEST) == [
        {"role": "system", "content": "You are support."},
        {"role": "user", "content": "Where are my orders?"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "c1",
                    "type": "function",
                    "function": {"name": "lookup", "arguments": '{"order_id": "A1"}'},
                },
                {
                    "id": "c2",
                    "type": "function",
                    "function": {"name": "lookup", "arguments": '{"order_id": "A2"}'},
                },
            ],
            "reasoning_content": "Two orders: look both up.",
        },
        {"role": "tool", "tool_call_id": "c1", "content": "A1: shipped"},
        {"role": "tool", "tool_call_id": "c2", "content": "no such order"},
        {"role": "assistant", "content": "A1 has shipped; A2 does not exist."},
        {"role": "user", "content": "Thanks"},
    ]


def test_openai_keeps_malformed_arguments_verbatim() -> None:
    call = ToolCall(id="c", name="lookup", arguments='{"order_id": ')
    message = LLMMessage(role="assistant", tool_calls=(call,))
    (converted,) = to_openai_messages(LLMRequest(system="", messages=(message,)))
    assert converted["tool_calls"][0]["function"]["arguments"] == '{"order_id": '


def test_openai_params_for_openai_itself() -> None:
    config = ModelConfig(
        name="o",
        provider="openai",
        model="gpt-4.1-mini",
        params=ModelParams(temperature=0.2, max_tokens=512, seed=7, reasoning_effort="low"),
    )
    params = build_openai_params(config, REQUEST, stream=True)
    assert params["max_completion_tokens"] == 512
    assert "max_tokens" not in params
    assert (params["temperature"], params["seed"], params["reasoning_effort"]) == (0.2, 7, "low")
    assert params["stream"] is True
    assert params["stream_options"] == {"include_usage": True}
    assert params["tools"] == [
        {
            "type": "function",
            "function": {
                "name": "lookup",
                "description": "Find an order.",
                "parameters": LOOKUP.parameters,
            },
        }
    ]
    assert params["tool_choice"] == "auto"


def test_openai_params_for_a_custom_server() -> None:
    config = ModelConfig(
        name="local",
        provider="openai",
        model="qwen",
        base_url="http://127.0.0.1:8000/v1",
        params=ModelParams(max_tokens=256),
    )
    request = LLMRequest(system="", messages=HISTORY[:1], tool_choice="required")
    params = build_openai_params(config, request, stream=False)
    assert params["max_tokens"] == 256
    assert "max_completion_tokens" not in params
    assert "stream" not in params
    assert "tools" not in params
    assert "tool_choice" not in params  # no tools: the API rejects a tool_choice alone
    assert "temperature" not in params
    assert params["messages"] == [{"role": "user", "content": "Where are my orders?"}]


def test_message_invariants() -> None:
    with pytest.raises(ValueError):
        LLMMessage(role="tool", content="x")
    with pytest.raises(ValueError):
        LLMMessage(role="user", tool_call_id="c1")
    with pytest.raises(ValueError):
        LLMMessage(role="user", tool_calls=CALLS)


def test_a_requests_seed_replaces_the_models_and_anthropic_is_sent_none() -> None:
    from dataclasses import replace

    from supportsim.llm import request_key, takes_seed

    openai = ModelConfig(name="o", provider="openai", model="m", params=ModelParams(seed=7))
    seeded = replace(REQUEST, seed=123)
    assert build_openai_params(openai, seeded, stream=False)["seed"] == 123
    assert build_openai_params(openai, REQUEST, stream=False)["seed"] == 7
    anthropic = ModelConfig(name="a", provider="anthropic", model="claude")
    assert "seed" not in build_anthropic_params(anthropic, seeded)
    assert takes_seed(openai) and not takes_seed(anthropic)
    # the response cache tells seeds apart
    assert request_key(openai, seeded) != request_key(openai, replace(REQUEST, seed=124))
    assert request_key(openai, seeded) != request_key(openai, REQUEST)
