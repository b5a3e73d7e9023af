"""The pool and the clock it calls on (``llm.TimeBudget``): the only thing it knows of a
conversation. A fake budget records what the pool asks of it."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Iterator

import pytest

from supportsim.errors import ProviderError
from supportsim.llm import (
    NO_TIME_BUDGET,
    LLMMessage,
    LLMRequest,
    ModelPool,
    RetryPolicy,
    parse_model_spec,
)
from supportsim.testing import MockLLMServer, http_error, say

ASK = LLMRequest(system="s", messages=(LLMMessage(role="user", content="hi"),))


class FakeBudget:
    """A budget of ``left`` seconds that logs every question the pool asks."""

    def __init__(self, left: float | None) -> None:
        self.left = left
        self.log: list[str] = []
        self.charged: list[float] = []

    def time_left(self) -> float | None:
        self.log.append("time_left")
        return self.left

    @contextlib.contextmanager
    def paused(self) -> Iterator[None]:
        self.log.append("pause")
        try:
            yield
        finally:
            self.log.append("resume")

    def charge(self, seconds: float) -> None:
        self.log.append("charge")
        self.charged.append(seconds)


@pytest.fixture
async def server() -> AsyncIterator[MockLLMServer]:
    async with MockLLMServer() as mock:
        yield mock


def pool_for(server: MockLLMServer, budget: FakeBudget | None, **kwargs: object) -> ModelPool:
    env = {"OPENAI_API_KEY": "k", "OPENAI_BASE_URL": server.url + "/v1"}
    if budget is None:
        return ModelPool(env=env, **kwargs)  # type: ignore[arg-type]
    return ModelPool(env=env, budget=budget, **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(("role", "charged"), [("agent", True), ("customer", False)])
async def test_a_call_pauses_the_budget_and_charges_only_the_agents_answer(
    server: MockLLMServer, role: str, charged: bool
) -> None:
    server.script("m", [say("hello")])
    budget = FakeBudget(left=30.0)
    pool = pool_for(server, budget)
    config = parse_model_spec("openai:m", {})
    try:
        pool.check({config.name: config})
        response = await pool.caller(config, role)(ASK)
    finally:
        await pool.aclose()
    assert response.content == "hello"
    assert budget.log == ["time_left", "pause", "resume", *(["charge"] if charged else [])]
    if charged:
        assert budget.charged == [pytest.approx(response.llm_ms / 1000.0)]


async def test_a_back_off_longer_than_the_budget_left_is_not_waited(
    server: MockLLMServer,
) -> None:
    server.script("m", [http_error(503, retry_after_s=20.0), say("late")])
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    budget = FakeBudget(left=5.0)
    policy = RetryPolicy(max_attempts=3, base_delay_s=0.0, jitter=0.0)
    pool = pool_for(server, budget, policy=policy, sleep=sleep)
    config = parse_model_spec("openai:m", {})
    try:
        pool.check({config.name: config})
        with pytest.raises(ProviderError, match="the conversation's time left"):
            await pool.caller(config, "agent")(ASK)
    finally:
        await pool.aclose()
    assert slept == [] and len(server.requests(model="m")) == 1
    assert budget.charged == [] and pool.stats.errors == 1


async def test_without_a_budget_the_pool_is_on_nobodys_clock(server: MockLLMServer) -> None:
    """Judges and drafting: no bound, so the same back-off is waited."""
    server.script("m", [http_error(503, retry_after_s=20.0), say("late")])
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    policy = RetryPolicy(max_attempts=3, base_delay_s=0.0, jitter=0.0)
    pool = pool_for(server, None, policy=policy, sleep=sleep)
    assert pool.budget is NO_TIME_BUDGET
    config = parse_model_spec("openai:m", {})
    try:
        pool.check({config.name: config})
        response = await pool.caller(config, "agent")(ASK)
    finally:
        await pool.aclose()
    assert response.content == "late" and slept == [20.0]
