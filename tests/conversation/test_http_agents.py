"""``http:`` Agents take what servers send: server-sent events or one JSON completion (read
from the content type, whatever was asked), and anything else is an error that says what
the server sent."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from aiohttp import web
from convo_helpers import DONE, Harness, happy_agent, record_json

from supportsim.scenario import Persona, Scenario
from supportsim.testing import MockLLMServer


@pytest.fixture
async def json_only() -> AsyncIterator[MockLLMServer]:
    async with MockLLMServer(streams=False) as srv:
        yield srv


@pytest.mark.parametrize("streams", [True, False])
async def test_an_http_agent_that_streams_or_answers_whole_completes(
    server: MockLLMServer,
    json_only: MockLLMServer,
    scenario: Scenario,
    persona: Persona,
    streams: bool,
) -> None:
    agent_server = server if streams else json_only
    agent_server.script("support-bot", happy_agent())
    spec = f"http:{agent_server.url}/v1#support-bot"

    record = record_json(
        await Harness(server, "openai").run(scenario, persona, agent=spec, customer="scripted")
    )

    assert (record["status"], record["termination"]) == ("completed", "customer_done"), record[
        "error"
    ]
    assert record["strict"] is True
    replies = [m for m in record["messages"] if m["role"] == "agent" and m["content"]]
    assert replies[-1]["content"] == DONE
    requests = agent_server.requests(model="support-bot")
    assert len(requests) == 5 and all(r.stream for r in requests)  # asked for a stream
    calls = [c for c in record["llm_calls"] if c["model"] == "support-bot"]
    assert len(calls) == 5 and all(c["input_tokens"] and c["output_tokens"] for c in calls)
    # Time to first token exists only when tokens came one by one.
    assert all((c["ttft_ms"] is not None) is streams for c in calls)


async def _page(request: web.Request) -> web.Response:
    return web.Response(
        text="<html><body>Please sign in to the corporate proxy</body></html>" + "x" * 300,
        content_type="text/html",
    )


async def _not_a_completion(request: web.Request) -> web.Response:
    return web.json_response({"status": "ok"})


@pytest.mark.parametrize(
    ("handler", "sent"),
    [
        (_page, "HTTP 200 (text/html; charset=utf-8)"),
        (_not_a_completion, "HTTP 200 (application/json; charset=utf-8)"),
    ],
)
async def test_what_is_not_a_completion_is_an_error_saying_what_was_sent(
    server: MockLLMServer, scenario: Scenario, persona: Persona, handler: object, sent: str
) -> None:
    app = web.Application()
    app.router.add_post("/v1/chat/completions", handler)  # type: ignore[arg-type]
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    host, port = runner.addresses[0][:2]
    try:
        record = record_json(
            await Harness(server, "openai", max_attempts=1).run(
                scenario, persona, agent=f"http:http://{host}:{port}/v1", customer="scripted"
            )
        )
    finally:
        await runner.cleanup()
    assert record["status"] == "infra_error"
    error = record["error"]
    assert f"not a chat completion: the server sent {sent}" in error
    if handler is _page:
        assert "Please sign in to the corporate proxy" in error
        assert error.count("x") < 250  # the first 200 characters, not the whole page
    else:
        assert '{"status":"ok"}' in error.replace(" ", "")


async def test_the_example_http_service_answers_whole_and_scores_strict_1(
    server: MockLLMServer, scenario: Scenario, persona: Persona, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pathlib import Path

    monkeypatch.syspath_prepend(str(Path(__file__).parents[2]))
    from examples.http_agent_server import app

    runner = web.AppRunner(app())
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    host, port = runner.addresses[0][:2]
    try:
        record = record_json(
            await Harness(server, "openai").run(
                scenario, persona, agent=f"http:http://{host}:{port}/v1#rule", customer="scripted"
            )
        )
    finally:
        await runner.cleanup()
    assert (record["status"], record["strict"]) == ("completed", True), record["error"]
    assert [c["name"] for c in record["calls"]] == [
        "verify_identity",
        "list_charges",
        "refund_charge",
    ]
