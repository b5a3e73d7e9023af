"""An Agent deployed as an HTTP service: the rule-based Agent of ``python_agent.py`` behind
an OpenAI Chat Completions endpoint, answering with one JSON completion (no streaming).

supportsim's ``http:`` Agents send each request as an LLM Agent would (system prompt,
tools, the transcript) and read the answer by its content type: server-sent events or
one JSON ``chat.completion``. So a service that cannot stream needs no setting; one that
can is timed to its first token as well.

Run it, then test it (from the repository root)::

    python -m examples.http_agent_server --port 8800 &
    supportsim run --scenarios tests/fixtures/scenarios/mock_duplicate_refund.yaml \\
        --personas tests/fixtures/personas --customer scripted \\
        --agent "rule-service=http:http://127.0.0.1:8800/v1#rule"
"""

from __future__ import annotations

import argparse
import json
import time
import uuid
from typing import Any

from aiohttp import web

from examples.python_agent import RuleAgent
from supportsim.conversation import AgentContext, Message
from supportsim.llm import ToolCall


def to_history(messages: list[dict[str, Any]]) -> list[Message]:
    """OpenAI chat messages as the transcript the rule-based Agent reads."""
    names: dict[str, str] = {}
    out: list[Message] = []
    for m in messages:
        if m["role"] == "user":
            out.append(Message("customer", m.get("content") or ""))
        elif m["role"] == "assistant":
            calls = tuple(
                ToolCall(c["id"], c["function"]["name"], c["function"]["arguments"])
                for c in m.get("tool_calls") or ()
            )
            names.update({c.id: c.name for c in calls})
            out.append(Message("agent", m.get("content") or "", tool_calls=calls))
        elif m["role"] == "tool":
            content = m.get("content") or ""
            is_error = '"error"' in content[:20]
            name = names.get(m["tool_call_id"])
            out.append(
                Message(
                    "tool", content, tool_call_id=m["tool_call_id"], name=name, is_error=is_error
                )
            )
    return out


async def completions(request: web.Request) -> web.Response:
    body = await request.json()
    step = await RuleAgent().step(AgentContext("", ()), to_history(body["messages"]))
    message: dict[str, Any] = {"role": "assistant", "content": step.content or None}
    if step.tool_calls:
        message["tool_calls"] = [
            {
                "id": f"call-{uuid.uuid4().hex[:8]}",
                "type": "function",
                "function": {"name": c.name, "arguments": c.arguments},
            }
            for c in step.tool_calls
        ]
    return web.json_response(
        {
            "id": f"chatcmpl-{uuid.uuid4().hex[:12]}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model", "rule"),
            "choices": [
                {
                    "index": 0,
                    "message": message,
                    "finish_reason": "tool_calls" if step.tool_calls else "stop",
                }
            ],
            "usage": {
                "prompt_tokens": len(json.dumps(body["messages"])) // 4,
                "completion_tokens": max(1, len(step.content) // 4),
                "total_tokens": 0,
            },
        }
    )


def app() -> web.Application:
    """The service: ``POST /v1/chat/completions``."""
    application = web.Application()
    application.router.add_post("/v1/chat/completions", completions)
    return application


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=8800)
    web.run_app(app(), host="127.0.0.1", port=parser.parse_args().port)
