"""An agent-owned service: its own prompt, its own model, its own tool loop, its tools
reached over MCP. This is how a deployed agent is tested as it ships.

supportsim sends it what a chat front end would: the Customer's messages and the agent's
own earlier replies as an OpenAI Chat Completions request, never supportsim's system
prompt, tool list or anything of the scenario. The conversation's tools are served over
MCP (streamable HTTP on loopback), one session URL per conversation, in the request header
``X-Supportsim-MCP-URL``. The service opens an MCP client session on that URL, lists the
tools, and runs its model with them until the model answers in words; that answer is the
reply. Every tool call lands in the conversation's call log, so it is scored like any
Agent's.

Declare it in a models file with ``owned: true`` (as ``examples/owned_models.yaml`` does)::

    models:
      owned-service:
        provider: openai
        base_url: http://127.0.0.1:8810/v1
        model: owned
        api_key_env: null
        owned: true

Offline, with the mock LLM server playing the service's model (from the repository root)::

    supportsim mock-server --port 8765 --script examples/mock_script.yaml &
    python -m examples.owned_agent_service --port 8810 \\
        --model-base-url http://127.0.0.1:8765/v1 --model mock-agent &
    supportsim run --scenarios tests/fixtures/scenarios/mock_duplicate_refund.yaml \\
        --personas tests/fixtures/personas --customer scripted \\
        --models examples/owned_models.yaml --agent owned-service

Against a real model: ``--model-base-url https://api.openai.com/v1 --model gpt-4.1-mini``
with ``OPENAI_API_KEY`` set. Needs the ``mcp`` package (a supportsim dependency).
"""

from __future__ import annotations

import argparse
import json
import os
import time
import uuid
from collections.abc import AsyncIterator
from typing import Any

from aiohttp import web
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from openai import AsyncOpenAI

MCP_URL_HEADER = "X-Supportsim-MCP-URL"
SYSTEM_PROMPT = (
    "You are the support assistant of our company. Be brief and friendly. Verify the "
    "customer's identity before you look at or change their account, confirm before you "
    "change anything, and use your tools for every fact. Answer in the customer's language."
)
MAX_ROUNDS = 12
"""Model calls per reply before the service gives up (a tool loop must end)."""

CLIENT = web.AppKey("client", AsyncOpenAI)
MODEL = web.AppKey("model", str)
INBOUND = web.AppKey("inbound", list)
"""Raw bodies of the requests received, newest last (for tests and for a look)."""


def _openai_tools(tools: Any) -> list[dict[str, Any]]:
    """MCP tool descriptions as Chat Completions function tools."""
    return [
        {
            "type": "function",
            "function": {
                "name": t.name,
                "description": t.description or "",
                "parameters": t.inputSchema,
            },
        }
        for t in tools.tools
    ]


def _text(result: Any) -> str:
    """An MCP tool result as the text the model reads."""
    return "".join(getattr(block, "text", "") for block in result.content)


async def answer(
    client: AsyncOpenAI, model: str, messages: list[dict[str, Any]], mcp_url: str
) -> tuple[str, dict[str, int]]:
    """The service's reply to the conversation so far, and its token usage: its own
    prompt, the tools of the MCP session at ``mcp_url``, a tool loop."""
    usage = {"prompt_tokens": 0, "completion_tokens": 0}
    history: list[dict[str, Any]] = [{"role": "system", "content": SYSTEM_PROMPT}, *messages]
    async with (
        streamable_http_client(mcp_url) as (read, write, _),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        tools = _openai_tools(await session.list_tools())
        for _ in range(MAX_ROUNDS):
            completion = await client.chat.completions.create(
                model=model, messages=history, tools=tools
            )
            if completion.usage is not None:
                usage["prompt_tokens"] += completion.usage.prompt_tokens
                usage["completion_tokens"] += completion.usage.completion_tokens
            message = completion.choices[0].message
            if not message.tool_calls:
                return message.content or "", usage
            history.append(message.model_dump(exclude_none=True))
            for call in message.tool_calls:
                result = await session.call_tool(
                    call.function.name, json.loads(call.function.arguments or "{}")
                )
                history.append({"role": "tool", "tool_call_id": call.id, "content": _text(result)})
    return "Sorry, I could not finish that. Let me get a colleague to help.", usage


def _completion(model: str, text: str, usage: dict[str, int]) -> dict[str, Any]:
    return {
        "id": f"chatcmpl-{uuid.uuid4().hex[:12]}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}
        ],
        "usage": {**usage, "total_tokens": sum(usage.values())},
    }


async def _events(model: str, text: str, usage: dict[str, int]) -> AsyncIterator[bytes]:
    """The reply as Chat Completions server-sent events (a client that asked for them)."""
    base = {"id": f"chatcmpl-{uuid.uuid4().hex[:12]}", "object": "chat.completion.chunk"}
    chunks = [
        {"index": 0, "delta": {"role": "assistant", "content": text}, "finish_reason": None},
        {"index": 0, "delta": {}, "finish_reason": "stop"},
    ]
    for choice in chunks:
        yield (
            b"data: " + json.dumps({**base, "model": model, "choices": [choice]}).encode() + b"\n\n"
        )
    final = {**base, "model": model, "choices": [], "usage": usage}
    yield b"data: " + json.dumps(final).encode() + b"\n\ndata: [DONE]\n\n"


async def completions(request: web.Request) -> web.StreamResponse:
    """``POST /v1/chat/completions``: the conversation so far in, the reply out."""
    raw = await request.text()
    request.app[INBOUND].append(raw)
    mcp_url = request.headers.get(MCP_URL_HEADER)
    if not mcp_url:
        return web.json_response({"error": f"missing {MCP_URL_HEADER} header"}, status=400)
    body = json.loads(raw)
    messages = [m for m in body["messages"] if m.get("role") in ("user", "assistant")]
    text, usage = await answer(request.app[CLIENT], request.app[MODEL], messages, mcp_url)
    model = body.get("model", "owned")
    if not body.get("stream"):
        return web.json_response(_completion(model, text, usage))
    response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
    await response.prepare(request)
    async for event in _events(model, text, usage):
        await response.write(event)
    await response.write_eof()
    return response


def app(model_base_url: str, model: str, api_key: str = "not-needed") -> web.Application:
    """The service, its model at ``model_base_url`` (any Chat Completions endpoint)."""
    application = web.Application()
    application[MODEL] = model
    application[INBOUND] = []
    application.router.add_post("/v1/chat/completions", completions)

    async def client_context(app_: web.Application) -> AsyncIterator[None]:
        app_[CLIENT] = AsyncOpenAI(base_url=model_base_url, api_key=api_key, max_retries=0)
        yield
        await app_[CLIENT].close()

    application.cleanup_ctx.append(client_context)
    return application


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=8810)
    parser.add_argument("--model-base-url", default="http://127.0.0.1:8765/v1")
    parser.add_argument("--model", default="mock-agent")
    args = parser.parse_args()
    key = os.environ.get("OPENAI_API_KEY", "not-needed")
    web.run_app(app(args.model_base_url, args.model, key), host="127.0.0.1", port=args.port)
