"""What a tool call costs over MCP: in-process ``Environment.call`` vs the MCP paths.

    python benchmarks/bench_mcp.py                  # 200 calls per path
    python benchmarks/bench_mcp.py --calls 1000 --tool list_charges

Paths, each after warm-up calls: **in-process** (``Environment.call``, what
``--tools inprocess`` runs); **MCP streamable HTTP** (the real ``mcp.ClientSession`` over
loopback to the run's ``McpHost``, client and server in one event loop, as ``--tools mcp``
runs); **MCP stdio bridge** (the client spawns ``python -m supportsim mcp-stdio URL``, which
forwards each call to the same host, as ``--tools mcp-stdio`` and an agent spawning its
tool server run). The tool is a read of the mock domain with no simulated latency, so the
figures are the transport's overhead. Printed: median and p90 per call in ms, this
process's CPU ms per call, and the overhead over in-process. Figures, not assertions: a
busy machine moves them.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shlex
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import yaml
from mcp import ClientSession
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client

from supportsim.conversation._mcp_tools import stdio_bridge
from supportsim.domains import mock
from supportsim.environment import Environment, McpHost
from supportsim.scenario import Scenario

FIXTURE = (
    Path(__file__).parents[1] / "tests" / "fixtures" / "scenarios" / "mock_duplicate_refund.yaml"
)
ARGS = {"customer_id": "C-1"}


def _env() -> Environment:
    scenario = Scenario.model_validate(yaml.safe_load(FIXTURE.read_text()))
    return Environment(mock.domain(), scenario)


async def _timed(calls: int, one: Callable[[], Awaitable[Any]]) -> tuple[list[float], float]:
    """Per-call wall ms, and this process's CPU ms per call (client and host both run
    here; the stdio bridge's own process is not counted)."""
    for _ in range(max(5, calls // 20)):  # warm-up: lazy imports, connection, caches
        await one()
    out = []
    cpu = time.process_time()
    for _ in range(calls):
        start = time.perf_counter()
        await one()
        out.append((time.perf_counter() - start) * 1000.0)
    return out, (time.process_time() - cpu) * 1000.0 / calls


def _line(name: str, timed: tuple[list[float], float], base: float | None) -> str:
    values, cpu_ms = timed
    ordered = sorted(values)
    median = statistics.median(ordered)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    extra = f"  overhead {median - base:7.3f} ms/call" if base is not None else ""
    return f"  {name:24s} median {median:8.3f}  p90 {p90:8.3f}  cpu {cpu_ms:7.3f} ms{extra}"


async def main(calls: int, tool: str) -> None:
    print(f"$ python {' '.join(shlex.quote(a) for a in sys.argv)}")
    print(f"{calls} calls of {tool}{ARGS} per path; {os.cpu_count()} CPUs")
    env = _env()
    local = await _timed(calls, lambda: env.call(tool, ARGS))
    base = statistics.median(local[0])
    print(_line("in-process", local, None))
    async with McpHost() as host:
        url = host.open(_env())
        async with (
            streamable_http_client(url) as (read, write, _),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            http = await _timed(calls, lambda: session.call_tool(tool, ARGS))
        print(_line("MCP streamable HTTP", http, base))
        url = host.open(_env())
        started = time.perf_counter()
        async with (
            stdio_client(stdio_bridge(url)) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            spawn_ms = (time.perf_counter() - started) * 1000.0
            stdio = await _timed(calls, lambda: session.call_tool(tool, ARGS))
        print(_line("MCP stdio bridge", stdio, base))
        print(f"  (stdio bridge: spawn + initialize {spawn_ms:.0f} ms, once per conversation)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=200, help="timed calls per path")
    parser.add_argument("--tool", default="get_customer", help="a mock-domain read tool")
    options = parser.parse_args()
    asyncio.run(main(options.calls, options.tool))
