"""A simulated tool timeout takes a configurable, short time and says how long it waited."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest
import yaml

from supportsim.domains import mock
from supportsim.environment import DEFAULT_TIMEOUT_MS, Environment, failure_message
from supportsim.scenario import Fault, Scenario

FIXTURE = Path(__file__).parents[1] / "fixtures" / "scenarios" / "mock_duplicate_refund.yaml"
RAW: dict[str, Any] = yaml.safe_load(FIXTURE.read_text())
C1 = {"customer_id": "C-1"}


class FakeTime:
    def __init__(self) -> None:
        self.now = 0.0
        self.slept: list[float] = []

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


async def timed_out_call(fault: dict[str, Any]) -> tuple[str, FakeTime]:
    sc = Scenario.model_validate({**RAW, "faults": [{"tool": "list_charges", **fault}]})
    time = FakeTime()
    env = Environment(mock.domain(), sc, clock=time.clock, sleep=time.sleep)
    result = await env.call("list_charges", C1)
    assert result.is_error and result.record.fault == fault["fault"]
    return orjson.loads(result.content)["error"], time


async def test_timeout_without_latency_takes_the_short_default() -> None:
    message, time = await timed_out_call({"fault": "timeout"})
    assert DEFAULT_TIMEOUT_MS <= 5000  # much shorter than the 30 s the bundled ones used
    assert time.slept == [DEFAULT_TIMEOUT_MS / 1000]
    assert f"did not answer within {DEFAULT_TIMEOUT_MS / 1000:g} s" in message


async def test_timeout_takes_the_configured_time_and_says_so() -> None:
    message, time = await timed_out_call({"fault": "timeout", "latency_ms": 750})
    assert time.slept == [0.75]
    assert "did not answer within 0.75 s" in message
    assert "30 s" not in message


async def test_other_failures_take_no_time_unless_configured() -> None:
    _, time = await timed_out_call({"fault": "server_error"})
    assert time.slept == []
    _, time = await timed_out_call({"fault": "rate_limit", "latency_ms": 100})
    assert time.slept == [0.1]


def test_failure_message_only_for_failing_kinds() -> None:
    assert failure_message(Fault(tool="t", fault="stale")) is None
    assert failure_message(Fault(tool="t", fault="timeout", latency_ms=0)) == (
        "timeout: the service did not answer within 0 s; the request was not applied"
    )


def test_negative_timeout_latency_is_rejected() -> None:
    with pytest.raises(ValueError, match="latency_ms"):
        Fault(tool="t", fault="timeout", latency_ms=-1)
