"""Async tools: a tool may await a real service; a plain tool may not stall the loop."""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

import orjson
import pytest
import yaml
from test_runtime import RAW, VERIFY, FakeTime

from supportsim.domains import Args, DomainState, mock, tool
from supportsim.environment import BLOCKING_LIMIT_S, BlockingToolError, Environment
from supportsim.errors import ToolError
from supportsim.scenario import Scenario


class LookupArgs(Args):
    customer_id: str


class Service:
    """Stands for a team's staging API: answers when the test releases it."""

    def __init__(self) -> None:
        self.release = asyncio.Event()
        self.calls: list[str] = []

    async def fetch(self, customer_id: str) -> dict[str, Any]:
        self.calls.append(customer_id)
        await self.release.wait()
        if customer_id == "C-404":
            raise ToolError(f"no customer {customer_id}")
        return {"customer_id": customer_id, "tier": "gold"}


def domain_with(*tools: Any):
    base = mock.domain()
    return dataclasses.replace(base, tools={**base.tools, **{t.name: t for t in tools}})


def scenario_with(*names: str) -> Scenario:
    sc = dict(RAW)
    sc["tools"] = [*(RAW.get("tools") or mock.domain().tools), *names]
    return Scenario.model_validate(yaml.safe_load(yaml.safe_dump(sc)))


async def test_an_async_tool_is_awaited_and_does_not_block_the_loop() -> None:
    service = Service()

    @tool("read")
    async def crm_lookup(state: DomainState, args: LookupArgs) -> dict[str, Any]:
        """Look the customer up in the CRM."""
        return await service.fetch(args.customer_id)

    assert crm_lookup.is_async
    time = FakeTime()
    env = Environment(
        domain_with(crm_lookup), scenario_with("crm_lookup"), clock=time.clock, sleep=time.sleep
    )
    call = asyncio.ensure_future(env.call("crm_lookup", {"customer_id": "C-1"}, "c1"))
    for _ in range(5):  # the loop runs other work while the tool awaits its service
        await asyncio.sleep(0)
    assert service.calls == ["C-1"] and not call.done()
    service.release.set()
    result = await call
    assert not result.is_error
    assert orjson.loads(result.content) == {"customer_id": "C-1", "tier": "gold"}
    assert env.calls[-1].ok and env.calls[-1].name == "crm_lookup"


async def test_an_async_write_that_refuses_rolls_back_like_a_plain_one() -> None:
    service = Service()
    service.release.set()

    @tool("write")
    async def crm_upgrade(state: DomainState, args: LookupArgs) -> dict[str, Any]:
        """Upgrade the customer in the CRM."""
        state.extra["upgraded"] = args.customer_id  # mutates, then the service refuses
        return await service.fetch(args.customer_id)

    env = Environment(domain_with(crm_upgrade), scenario_with("crm_upgrade"))
    refused = await env.call("crm_upgrade", {"customer_id": "C-404"}, "c1")
    assert refused.is_error and "no customer C-404" in refused.content
    assert "upgraded" not in env.state.extra
    done = await env.call("crm_upgrade", {"customer_id": "C-1"}, "c2")
    assert not done.is_error and env.state.extra["upgraded"] == "C-1"


async def test_a_no_argument_async_tool_works() -> None:
    @tool("read")
    async def ping(state: DomainState) -> str:
        """Is the CRM up?"""
        await asyncio.sleep(0)
        return "pong"

    env = Environment(domain_with(ping), scenario_with("ping"))
    assert orjson.loads((await env.call("ping", "{}", "c1")).content) == "pong"


class SlowClock(FakeTime):
    """A clock on which every reading inside a tool call moves time by ``step`` seconds."""

    def __init__(self, step: float) -> None:
        super().__init__()
        self.step = step

    def clock(self) -> float:
        self.now += self.step
        return self.now


async def test_a_plain_tool_that_holds_the_loop_is_a_harness_error_naming_it() -> None:
    time = SlowClock(step=BLOCKING_LIMIT_S * 1.5)  # the tool run spans more than the limit
    env = Environment(mock.domain(), scenario_with(), clock=time.clock, sleep=time.sleep)
    with pytest.raises(BlockingToolError, match="tool verify_identity held the event loop"):
        await env.call("verify_identity", VERIFY, "c1")


async def test_a_quick_plain_tool_is_fine() -> None:
    time = SlowClock(step=BLOCKING_LIMIT_S / 4)
    env = Environment(mock.domain(), scenario_with(), clock=time.clock, sleep=time.sleep)
    result = await env.call("verify_identity", VERIFY, "c1")
    assert not result.is_error
