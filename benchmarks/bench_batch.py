"""Batch runner throughput against the floor the SDK and the machine set.

    python benchmarks/bench_batch.py                # 512 conversations, c=64, 256, auto:256
    python benchmarks/bench_batch.py --conversations 2000 --concurrency 256 --only supportsim
    python benchmarks/bench_batch.py --concurrency 256 auto:256 --only supportsim

The mock LLM server runs in its own process (its CPU must not count as the client's). For
each concurrency, two client processes run in turn, each alone on the client side:

* ``bare``: C workers, each holding five-call "conversations" of streamed OpenAI SDK calls
  back to back, sending the very request bodies supportsim sends (prompts, tool schemas,
  history; built before the clock starts): the floor that the SDK, the event loop and the
  machine allow;
* ``supportsim``: the same number of five-call conversations through the batch runner
  (``prepare_run`` + ``execute``, exactly what ``supportsim run`` does): LLM Customer and
  LLM Agent on the mock server, the Agent making two tool calls, records written and
  scored.

Printed per variant: wall time, ideal wall time (ceil(N / C) x 5 calls x latency),
efficiency (ideal / actual), CPU ms per LLM call (client process), per-call latency
inflation over the injected latency (p50, p99); for supportsim also conversations per
second, peak memory (max RSS), event-loop lag, the client time per call kept out of
``llm_ms`` (p50, p99), and efficiency as a share of bare's.

Inflation is the recorded per-call latency minus the injected one. supportsim records
``llm_ms`` at the wire (request sent to last byte, ``supportsim.llm._wire``); ``bare`` has
no wire stamps, so its figure is the time around the SDK call, as before.

A concurrency ``auto:N`` runs supportsim only (the bare loop has no controller) with
``--concurrency auto:N``: the controller keeps the loop's lag p99 near 10 ms so the
latencies stay honest (target: inflation p50 <= 10 ms at auto:256). Printed: the
inflation, the throughput it kept (conversations per second, and its share of the fixed
N run's when that ran), the gate's path (start, median, max, last) and the run's own
estimate (its calls' ``loop_lag_ms``) beside the true inflation.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
CALLS_PER_CONVERSATION = 5
CUSTOMER_LINE = "Hi, which charges do I have this month? My id is C-1 and my PIN is 4321."
AGENT_ANSWER = "You have two charges, CH-1 and CH-2, of 30 USD each."


# -- the server process ------------------------------------------------------------------


def serve(latency_ms: float, ttft_ms: float) -> None:
    """Run the mock server with the benchmark's responders until killed; print its URL."""
    from supportsim.testing import MockLLMServer, call, reply, say

    def agent(request: Any) -> Any:
        tools = sum(1 for m in request.body.get("messages", ()) if m.get("role") == "tool")
        if tools == 0:
            return reply(tool_calls=[call("verify_identity", customer_id="C-1", pin="4321")])
        if tools == 1:
            return reply(tool_calls=[call("list_charges", customer_id="C-1")])
        return say(AGENT_ANSWER)

    def customer(request: Any) -> Any:
        said = sum(1 for m in request.body.get("messages", ()) if m.get("role") == "assistant")
        if said == 0:
            return say(CUSTOMER_LINE)
        return reply(tool_calls=[call("end_conversation", reason="satisfied")])

    async def main() -> None:
        async with MockLLMServer() as server:
            server.latency(ttft_ms=ttft_ms, total_ms=latency_ms)
            server.default("bench-agent", agent)
            server.default("bench-customer", customer)
            print(server.url, flush=True)
            await asyncio.Event().wait()

    asyncio.run(main())


# -- the client processes ----------------------------------------------------------------


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q / 100 * len(ordered)) - 1))]


def ceiling(concurrency: int | str) -> int:
    """The most conversations in flight: N for ``N`` and ``auto:N``."""
    return int(str(concurrency).rpartition(":")[2])


def _common(
    n: int, concurrency: int | str, latency_ms: float, wall: float, cpu: float, ms: list[float]
) -> dict[str, Any]:
    ideal = math.ceil(n / ceiling(concurrency)) * CALLS_PER_CONVERSATION * latency_ms / 1000
    inflation = [m - latency_ms for m in ms]
    return {
        "conversations": n,
        "concurrency": concurrency,
        "calls": len(ms),
        "wall_s": wall,
        "ideal_s": ideal,
        "efficiency": ideal / wall,
        "cpu_ms_per_call": cpu * 1000 / max(1, len(ms)),
        "inflation_p50_ms": _percentile(inflation, 50),
        "inflation_p99_ms": _percentile(inflation, 99),
        "below_injected": sum(m < latency_ms for m in ms),
        "conv_per_s": n / wall,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def conversation_payloads(url: str) -> list[dict[str, Any]]:
    """The five request bodies of one benchmark conversation, exactly as supportsim builds
    them (system prompts, tool schemas, history), so the bare loop sends the same bytes.

    Built once, before the clock starts: the bare loop's measured work is SDK calls only.
    """
    from supportsim.conversation import END_TOOL, agent_system_prompt, customer_system_prompt
    from supportsim.domains import DomainCatalogue, builtin_domains
    from supportsim.environment import Environment
    from supportsim.llm import LLMMessage, LLMRequest, ModelConfig, ToolCall, ToolSpec
    from supportsim.llm._openai_params import build_openai_params
    from supportsim.scenario import load_personas, load_scenarios

    domains = builtin_domains()
    personas = load_personas([HERE / "personas"])
    (scenario,) = load_scenarios(
        [HERE / "scenarios"], catalogue=DomainCatalogue(domains), personas=personas
    )
    domain = domains[scenario.domain]
    env = Environment(domain, scenario)
    tools = tuple(ToolSpec(t.name, t.description, t.parameters) for t in env.schemas())

    def config(model: str) -> ModelConfig:
        return ModelConfig(
            name=model, provider="openai", model=model, base_url=url + "/v1", api_key_env=None
        )

    agent, customer = config("bench-agent"), config("bench-customer")
    agent_system = agent_system_prompt(domain, scenario)
    customer_system = customer_system_prompt(personas[scenario.persona], scenario)
    start = LLMMessage("user", "(The support chat is open. Write your first message to the agent.)")
    asked = LLMMessage("user", CUSTOMER_LINE)
    verify = ToolCall("call_1", "verify_identity", '{"customer_id": "C-1", "pin": "4321"}')
    listing = ToolCall("call_2", "list_charges", '{"customer_id": "C-1"}')
    verified = '{"verified": true, "customer_id": "C-1"}'
    charges = (
        '{"charges": [{"id": "CH-1", "amount": 30.0, "description": "March plan", '
        '"refunded": false}, {"id": "CH-2", "amount": 30.0, "description": '
        '"March plan (again)", "refunded": false}]}'
    )
    history = [
        asked,
        LLMMessage("assistant", "", tool_calls=(verify,)),
        LLMMessage("tool", verified, tool_call_id="call_1"),
        LLMMessage("assistant", "", tool_calls=(listing,)),
        LLMMessage("tool", charges, tool_call_id="call_2"),
    ]
    requests = [
        (customer, LLMRequest(customer_system, (start,), (END_TOOL,))),
        (agent, LLMRequest(agent_system, tuple(history[:1]), tools)),
        (agent, LLMRequest(agent_system, tuple(history[:3]), tools)),
        (agent, LLMRequest(agent_system, tuple(history[:5]), tools)),
        (
            customer,
            LLMRequest(
                customer_system,
                (start, LLMMessage("assistant", CUSTOMER_LINE), LLMMessage("user", AGENT_ANSWER)),
                (END_TOOL,),
            ),
        ),
    ]
    return [build_openai_params(c, r, stream=True) for c, r in requests]


async def bare(url: str, n: int, concurrency: int, latency_ms: float) -> dict[str, Any]:
    """C workers, each making five-call conversations of streamed SDK calls back to back."""
    from openai import AsyncOpenAI

    payloads = conversation_payloads(url)
    client = AsyncOpenAI(base_url=url + "/v1", api_key="bench", max_retries=0, timeout=60)
    durations: list[float] = []
    queue = iter(range(n))

    async def one_call(params: dict[str, Any]) -> None:
        start = time.perf_counter()
        stream = await client.chat.completions.create(**params)
        text, calls = [], []
        async with stream:
            async for chunk in stream:
                for choice in chunk.choices:
                    if choice.delta.content:
                        text.append(choice.delta.content)
                    calls.extend(choice.delta.tool_calls or ())
        durations.append((time.perf_counter() - start) * 1000)

    async def worker() -> None:
        for _ in queue:
            for params in payloads:
                await one_call(params)

    await one_call(payloads[0])  # SDK first-use costs, as supportsim's warm-up pays them
    durations.clear()
    cpu0, wall0 = time.process_time(), time.perf_counter()
    async with asyncio.TaskGroup() as tg:
        for _ in range(concurrency):
            tg.create_task(worker())
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    await client.close()
    return _common(n, concurrency, latency_ms, wall, cpu, durations)


def write_models(path: Path, url: str) -> None:
    names = ("bench-agent", "bench-customer")
    entry = (
        "    provider: openai\n    model: {m}\n    base_url: {u}/v1\n    api_key_env: null\n"
        "    price: {{input_per_mtok: 0.4, output_per_mtok: 1.6}}\n"
    )
    path.write_text(
        "models:\n" + "".join(f"  {m}:\n" + entry.format(m=m, u=url) for m in names),
        encoding="utf-8",
    )


def gate_path(trace: list[int]) -> dict[str, int]:
    """The auto controller's path: start, median, max and last limit."""
    ordered = sorted(trace)
    return {
        "start": trace[0],
        "median": ordered[len(ordered) // 2],
        "max": ordered[-1],
        "last": trace[-1],
    }


async def supportsim(url: str, n: int, concurrency: int | str, latency_ms: float) -> dict[str, Any]:
    """N conversations through the batch runner, as ``supportsim run`` runs them."""
    from supportsim.batch import RunRequest, execute, prepare_run
    from supportsim.store import iter_records, measurement_of, with_loop_lag

    with tempfile.TemporaryDirectory() as tmp:
        models = Path(tmp) / "models.yaml"
        write_models(models, url)
        overrides = {
            "scenarios": [str(HERE / "scenarios")],
            "personas": str(HERE / "personas"),
            "agents": ["bench-agent"],
            "customer": "bench-customer",
            "models_file": str(models),
            "trials": n,
            "concurrency": concurrency,
            "workers": 1,  # one process: the workers are bench_workers.py's
            "out": tmp,
        }
        prepared = prepare_run(RunRequest(None, overrides, run_id="bench"), os.environ)
        cpu0, wall0 = time.process_time(), time.perf_counter()
        session = await execute(prepared.session, prepared.ctx, prepared.config, pool=prepared.pool)
        wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
        await prepared.pool.aclose()
        records = list(iter_records(session.run_dir))
        ms = [c.llm_ms for r in records for c in r.llm_calls]
        client = [c.client_ms for r in records for c in r.llm_calls if c.client_ms is not None]
        out = _common(n, concurrency, latency_ms, wall, cpu, ms)
        out["client_p50_ms"] = _percentile(client, 50) if client else None
        out["client_p99_ms"] = _percentile(client, 99) if client else None
        out["wire_calls"] = len(client)
        statuses: dict[str, int] = {}
        for r in records:
            statuses[r.status] = statuses.get(r.status, 0) + 1
        entry = session.info  # this session's run.json entry (a typed SessionEntry)
        lag = entry.loop_lag if entry is not None else None
        measured = with_loop_lag(measurement_of(records), lag)
        out.update(
            statuses=statuses,
            strict=sum(r.strict for r in records),
            calls_per_conversation=len(ms) / max(1, len(records)),
            loop_lag=lag.model_dump() if lag is not None else None,
            run_status=session.status,
            gate=gate_path((entry.concurrency if entry else None) or [ceiling(concurrency)]),
            measurement=measured.model_dump() if measured is not None else None,
        )
        return out


# -- the orchestrator ----------------------------------------------------------------------


def child(
    variant: str, url: str, args: argparse.Namespace, concurrency: int | str
) -> dict[str, Any]:
    command = [
        sys.executable,
        __file__,
        "--child",
        variant,
        "--url",
        url,
        "--conversations",
        str(args.conversations),
        "--concurrency",
        str(concurrency),
        "--latency-ms",
        str(args.latency_ms),
    ]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{variant} c={concurrency} failed:\n{done.stdout}\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def show(name: str, r: dict[str, Any], floor: dict[str, Any] | None) -> None:
    timing = "around the SDK call" if floor is None else "at the wire"
    line = (
        f"{name:<10} c={r['concurrency']:<4} wall {r['wall_s']:6.2f} s  ideal {r['ideal_s']:5.2f} s"
        f"  efficiency {r['efficiency']:.2f}  cpu/call {r['cpu_ms_per_call']:.2f} ms"
        f"  inflation p50 {r['inflation_p50_ms']:.0f} ms p99 {r['inflation_p99_ms']:.0f} ms"
        f" ({timing}; {r['below_injected']} calls below the injected latency)"
    )
    if floor is not None:  # supportsim: its own figures, and against bare when it ran
        lag = r.get("loop_lag") or {}
        line += (
            f"\n{'':<10} {r['conv_per_s']:.1f} conv/s  peak RSS {r['peak_rss_mb']:.0f} MB"
            f"  loop lag p50 {lag.get('p50_ms') or 0:.1f} p99 {lag.get('p99_ms') or 0:.1f} ms"
            f"  units {r['statuses']} calls/conv {r['calls_per_conversation']:.1f}"
            f"\n{'':<10} wire-timed calls {r['wire_calls']} of {r['calls']}, client time per"
            f" call (kept out of llm_ms) p50 {r['client_p50_ms'] or 0:.1f}"
            f" p99 {r['client_p99_ms'] or 0:.1f} ms"
        )
        if floor:
            line += (
                f"\n{'':<10} efficiency vs bare {r['efficiency'] / floor['efficiency']:.2f}"
                f"  cpu/call vs bare {r['cpu_ms_per_call'] / floor['cpu_ms_per_call']:.2f}x"
            )
        line += auto_lines(r)
    print(line, flush=True)


def auto_lines(r: dict[str, Any]) -> str:
    """For an ``auto:N`` run: the gate's path, the run's own estimate and saturation."""
    if not str(r["concurrency"]).startswith("auto"):
        return ""
    gate, m = r["gate"], r.get("measurement") or {}
    estimate = m.get("inflation_ms") or {}
    return (
        f"\n{'':<10} gate start {gate['start']} median {gate['median']} max {gate['max']}"
        f" last {gate['last']}; the run's estimate (calls' loop lag) p50"
        f" {estimate.get('p50') or 0:.0f} p99 {estimate.get('p99') or 0:.0f} ms,"
        f" saturated {m.get('saturated')}"
    )


def kept(r: dict[str, Any], fixed: dict[str, Any]) -> str:
    """The throughput an ``auto:N`` run kept against the fixed N run's."""
    return (
        f"{'':<10} throughput kept: {r['conv_per_s']:.1f} conv/s, "
        f"{r['conv_per_s'] / fixed['conv_per_s']:.2f} of c={fixed['concurrency']}'s"
        f" {fixed['conv_per_s']:.1f}"
    )


def _concurrency(value: str) -> int | str:
    """``N`` or ``auto:N`` (the benchmark needs N: its ideal time and its comparison)."""
    if value.isdigit():
        return int(value)
    if value.startswith("auto:") and value[5:].isdigit():
        return value
    raise argparse.ArgumentTypeError(f"N or auto:N, not {value!r}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--conversations", type=int, default=512)
    parser.add_argument(
        "--concurrency", type=_concurrency, nargs="+", default=[64, 256, "auto:256"]
    )
    parser.add_argument("--latency-ms", type=float, default=500.0)
    parser.add_argument("--ttft-ms", type=float, default=250.0)
    parser.add_argument("--only", choices=["bare", "supportsim"])
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--child", choices=["bare", "supportsim"], help=argparse.SUPPRESS)
    parser.add_argument("--url", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.latency_ms, args.ttft_ms)
        return
    if args.child:
        run = bare if args.child == "bare" else supportsim
        result = asyncio.run(
            run(args.url, args.conversations, args.concurrency[0], args.latency_ms)
        )
        print(json.dumps(result))
        return

    server = subprocess.Popen(
        [
            sys.executable,
            __file__,
            "--serve",
            "--latency-ms",
            str(args.latency_ms),
            "--ttft-ms",
            str(args.ttft_ms),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        url = server.stdout.readline().strip()
        print(
            f"{args.conversations} conversations x {CALLS_PER_CONVERSATION} streamed calls, "
            f"{args.latency_ms:g} ms per call (ttft {args.ttft_ms:g} ms), mock server pid "
            f"{server.pid}, {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}",
            flush=True,
        )
        fixed: dict[int, dict[str, Any]] = {}
        for concurrency in args.concurrency:
            auto = isinstance(concurrency, str)
            floor = None
            if args.only != "supportsim" and not auto:
                floor = child("bare", url, args, concurrency)
                show("bare", floor, None)
            if args.only != "bare":
                result = child("supportsim", url, args, concurrency)
                if not auto:
                    fixed[concurrency] = result
                show("supportsim", result, floor or {})
                if auto and (same := fixed.get(ceiling(concurrency))):
                    print(kept(result, same), flush=True)
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
