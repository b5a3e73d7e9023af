"""The conversation's wall-clock bound counts the Agent's time only: waiting on a provider
(rate-limit queues, retry backoff) and the simulated Customer do not count, a hung model
is an infra error (Agent) or a simulator fault (Customer), and bounds still apply while
waiting (Retry-After capped; a wait past a bound is given up as an infra error)."""

from __future__ import annotations

import asyncio

import pytest
from convo_helpers import (
    AGENT_MODEL,
    ASK,
    CUSTOMER_MODEL,
    GIVE_ID,
    Harness,
    happy_agent,
    happy_customer,
    record_json,
    warm_up,
)

from supportsim.conversation import bounded_by, charge, deadline_paused, time_left
from supportsim.conversation._deadline import _DEADLINE
from supportsim.scenario import Persona, Scenario
from supportsim.testing import MockLLMServer, hang, http_error, say


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


async def test_time_left_is_frozen_while_paused_and_charge_counts_a_pause_after_all() -> None:
    assert time_left() is None  # outside a conversation
    with pytest.raises(TimeoutError):
        async with asyncio.timeout(30) as deadline:
            with bounded_by(deadline):
                left = time_left()
                assert left is not None and 29 < left <= 30
                with deadline_paused():
                    frozen = time_left()
                    await asyncio.sleep(0)
                    assert time_left() == frozen
                    charge(5)  # still paused: nothing to move yet
                before = deadline.when()
                assert before is not None
                charge(5)
                assert deadline.when() == before - 5
                charge(60)  # the bound is spent: it fires at the next await
                await asyncio.sleep(1)


async def test_a_hung_customer_model_is_a_simulator_fault_not_an_agent_timeout(
    server: MockLLMServer, provider: str, scenario: Scenario, persona: Persona
) -> None:
    # The conversation bound (1 s) is shorter than the customer's call timeout (2 s); the
    # Agent's own time stays far below it even on a loaded machine.
    h = Harness(server, provider, max_attempts=2, call_timeout_s=2.0)
    server.script(AGENT_MODEL, happy_agent())
    server.script(CUSTOMER_MODEL, [hang(), hang()])

    record = record_json(await h.run(scenario, persona, timeout_s=1.0))

    assert (record["status"], record["termination"]) == ("simulator_fault", "error")
    assert record["simulator_faults"] == ["provider_timeout"]
    assert f"{provider}:{CUSTOMER_MODEL}" in record["error"]
    assert record["strict"] is None and record["checks"] == []
    assert len(h.customer_requests()) == 2  # retried, then given up


async def test_a_hung_agent_model_is_an_infra_error_not_an_agent_timeout(
    server: MockLLMServer, provider: str, scenario: Scenario, persona: Persona
) -> None:
    h = Harness(server, provider, max_attempts=2, call_timeout_s=2.0)
    server.script(AGENT_MODEL, [hang(), hang()])
    server.script(CUSTOMER_MODEL, happy_customer())

    record = record_json(await h.run(scenario, persona, timeout_s=1.0))

    assert (record["status"], record["termination"]) == ("infra_error", "error")
    assert record["error"].startswith(f"ProviderTimeout: {provider}:{AGENT_MODEL}")
    assert record["strict"] is None and record["checks"] == []


async def test_a_slow_customer_is_not_counted_against_the_agent(
    server: MockLLMServer, provider: str, scenario: Scenario, persona: Persona
) -> None:
    await warm_up(server, provider)
    h = Harness(server, provider)
    server.script(AGENT_MODEL, happy_agent())
    _slow, *rest = happy_customer()
    server.script(CUSTOMER_MODEL, [say(GIVE_ID, total_ms=800), *rest])

    record = record_json(await h.run(scenario, persona, timeout_s=0.6))

    assert (record["status"], record["termination"]) == ("completed", "customer_done")
    assert record["strict"] is True
    assert record["messages"][2]["llm_ms"] >= 800  # it did take longer than the bound


async def test_a_slow_agent_model_is_the_agent_being_slow(
    server: MockLLMServer, provider: str, scenario: Scenario, persona: Persona
) -> None:
    h = Harness(server, provider, call_timeout_s=10)
    _first, *rest = happy_agent()
    server.script(AGENT_MODEL, [say(ASK, total_ms=500), *rest])
    server.script(CUSTOMER_MODEL, happy_customer())

    record = record_json(await h.run(scenario, persona, timeout_s=0.3))

    assert (record["status"], record["termination"]) == ("completed", "timeout")
    assert record["strict"] is False


async def test_retry_after_is_capped_by_the_policy(
    server: MockLLMServer, provider: str, scenario: Scenario, persona: Persona
) -> None:
    h = Harness(server, provider)  # max_delay_s 30 (the policy's default)
    server.script(AGENT_MODEL, [http_error(429, retry_after_s=86400), *happy_agent()])
    server.script(CUSTOMER_MODEL, happy_customer())

    record = record_json(await h.run(scenario, persona, timeout_s=120))

    assert record["status"] == "completed" and record["strict"] is True
    assert h.slept == [30.0]  # not a day
    (endpoint,) = h.pool.snapshot()["endpoints"].values()
    assert endpoint["pauses"] == 1


@pytest.mark.parametrize("bound", ["conversation", "run"])
async def test_a_wait_longer_than_a_bound_is_given_up_as_an_infra_error(
    server: MockLLMServer, provider: str, scenario: Scenario, persona: Persona, bound: str
) -> None:
    h = Harness(server, provider)
    if bound == "run":
        h.pool.deadline_at = h.now + 10  # the run's --deadline is 10 s away
    server.script(AGENT_MODEL, [http_error(429, retry_after_s=20), *happy_agent()])
    server.script(CUSTOMER_MODEL, happy_customer())

    record = record_json(
        await h.run(scenario, persona, timeout_s=5 if bound == "conversation" else 60)
    )

    assert (record["status"], record["termination"]) == ("infra_error", "error")
    why = "the conversation's time left" if bound == "conversation" else "the run's deadline"
    assert f"not waiting 20 s: more than {why}" in record["error"]
    assert h.slept == []  # gave up at once instead of waiting
    assert h.pool.stats.retries == 0 and h.pool.stats.errors == 1
