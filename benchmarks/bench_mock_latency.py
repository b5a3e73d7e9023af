"""How closely the mock LLM server keeps the latency it is told to inject.

    python benchmarks/bench_mock_latency.py                 # 20 streamed calls per case
    python benchmarks/bench_mock_latency.py --calls 100 --ttft-ms 60 --total-ms 100

Measured with the real OpenAI SDK, client and server in one event loop (as the tests run
them), after a warm-up call. Printed per case: the injected (ttft, total), then the
client-side time to first content token and to the end of the stream, p50 / p90 / max in
ms, measured from when the server received the request (the SDK's request-building time
is left out) and from the client's call. Cases: the server-wide default latency
(``server.latency``), and a reply that sets its own zero timing, which must override it.

This was a test (``test_server_default_latency``) until it failed under load: a busy
machine adds 30-90 ms, so the figures belong here, printed, not asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

import openai

from supportsim.testing import MockLLMServer, say

USER = [{"role": "user", "content": "order A1 please"}]


def _summary(values: list[float]) -> str:
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return f"p50 {statistics.median(ordered):6.1f}  p90 {p90:6.1f}  max {ordered[-1]:6.1f}"


async def _one(server: MockLLMServer, client: openai.AsyncOpenAI) -> tuple[float, ...]:
    start = time.monotonic()
    first = None
    stream = await client.chat.completions.create(model="m", messages=USER, stream=True)
    async for chunk in stream:
        if first is None and chunk.choices and chunk.choices[0].delta.content:
            first = time.monotonic()
    end = time.monotonic()
    received = server.requests()[-1].received_s
    assert first is not None
    return tuple(1000 * v for v in (first - received, end - received, first - start, end - start))


async def main(calls: int, ttft_ms: float, total_ms: float) -> None:
    async with MockLLMServer() as server:
        client = openai.AsyncOpenAI(base_url=server.url + "/v1", api_key="bench", max_retries=0)
        server.script("m", [say("warm")])
        await _one(server, client)  # the SDK's lazy imports, off the clock
        server.latency(ttft_ms=ttft_ms, total_ms=total_ms)
        cases = {
            f"server default ({ttft_ms:g}, {total_ms:g})": lambda: say("default timing"),
            "own timing (0, 0)": lambda: say("own timing", ttft_ms=0, total_ms=0),
        }
        for name, make in cases.items():
            seen: list[tuple[float, ...]] = []
            for _ in range(calls):
                server.script("m", [make()])
                seen.append(await _one(server, client))
            columns = list(zip(*seen, strict=True))
            print(f"{name}: {calls} calls")
            for label, values in zip(
                ("ttft from receipt", "total from receipt", "ttft from call", "total from call"),
                columns,
                strict=True,
            ):
                print(f"  {label:20s} {_summary(list(values))} ms")
        await client.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=20)
    parser.add_argument("--ttft-ms", type=float, default=60.0)
    parser.add_argument("--total-ms", type=float, default=100.0)
    args = parser.parse_args()
    asyncio.run(main(args.calls, args.ttft_ms, args.total_ms))
