"""Waiting on a provider (rate-limit queues, retry backoff) does not count against the
conversation's wall-clock bound: throttling must not become a `timeout` verdict."""

from __future__ import annotations

import asyncio

from convo_helpers import AGENT_MODEL, Harness, happy_agent, happy_customer, record_json

from supportsim.conversation import bounded_by, deadline_paused
from supportsim.conversation._deadline import _DEADLINE
from supportsim.scenario import Persona, Scenario
from supportsim.testing import MockLLMServer, http_error


async def test_a_paused_deadline_has_no_bound_inside_and_moves_by_the_pause_after() -> None:
    loop = asyncio.get_running_loop()
    async with asyncio.timeout(30) as deadline:
        with bounded_by(deadline):
            before = deadline.when()
            assert before is not None
            started = loop.time()
            with deadline_paused():
                inside = loop.time()
                assert deadline.when() is None
                await asyncio.sleep(0)
                paused = loop.time() - inside  # the pause lasted at least this long
            after = deadline.when()
    assert after is not None
    assert before + paused <= after <= before + (loop.time() - started)


async def test_outside_a_conversation_it_does_nothing() -> None:
    with deadline_paused():
        assert _DEADLINE.get() is None
    async with asyncio.timeout(30) as deadline:  # a bound that is not the conversation's
        when = deadline.when()
        with deadline_paused():
            await asyncio.sleep(0)
            assert deadline.when() == when


async def test_the_pool_pauses_the_conversation_bound_while_it_backs_off(
    server: MockLLMServer, provider: str, scenario: Scenario, persona: Persona
) -> None:
    h = Harness(server, provider)
    seen: list[float | None] = []

    async def sleep(seconds: float) -> None:
        deadline = _DEADLINE.get()
        assert deadline is not None  # inside the conversation's bound
        seen.append(deadline.when())
        h.now += seconds  # the pool's fake clock: waits pass without real time
        await asyncio.sleep(0)

    h.pool.sleep = sleep
    server.script(AGENT_MODEL, [http_error(429, retry_after_s=0.01), *happy_agent()])
    server.script("customer-m", happy_customer())

    record = record_json(await h.run(scenario, persona))

    assert record["status"] == "completed" and record["strict"] is True
    assert seen and set(seen) == {None}  # the bound was off whenever the pool waited
