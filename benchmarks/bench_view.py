"""How long ``supportsim view``'s pages take for a 2,000-unit run.

    python benchmarks/bench_view.py                  # 2,000 units, 5 timed requests a page
    python benchmarks/bench_view.py --units 5000 --repeat 9

Builds a run directory in a temporary folder: 40 scenarios x 5 Agents x ``--units / 200``
trials, each conversation 8 turns (customer, agent with a tool call, tool result, agent
reply: 32 messages, ~20 KB of JSON like a real record), 8 checks, some failing, priced;
run.json plans them and says ``running``. The viewer serves it on 127.0.0.1 (the real
aiohttp app, in this process); an aiohttp client fetches each page whole.

Printed per page: the first request's time (cold: for the run page this includes reading
and parsing every record, once per viewer process), then the median and the slowest of
``--repeat`` more (warm: the records are kept, only appended lines are read), and the
page's size. Then a live update: one record appended, and the time for the poll that sees
it plus the run page rebuilt with it. Last, the index of a folder of ten finished
2,000-unit runs, cold (each run's summary.json is read, no record). Target: every warm
page under a second.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

from supportsim.report import load_run, summarise_run
from supportsim.view import RunsFolder, start_viewer, url_of
from supportsim.view._pages import render_index

AGENTS = ["gpt-small", "gpt-large", "claude-fast", "claude-deep", "oracle"]
SCENARIOS = [f"retail_case_{i:02}" for i in range(40)]


def _record(scenario: str, agent: str, trial: int, n: int) -> dict[str, Any]:
    messages: list[dict[str, Any]] = []
    for turn in range(1, 9):
        messages.append(
            {
                "role": "customer",
                "turn": turn,
                "content": f"Turn {turn}: my order A-{n} has not arrived " * 4,
            }
        )
        messages.append(
            {
                "role": "agent",
                "turn": turn,
                "content": "",
                "tool_calls": [
                    {
                        "id": f"c{turn}",
                        "name": "lookup_order",
                        "arguments": json.dumps({"order_id": f"A-{n}"}),
                    }
                ],
                "llm_ms": 300.0 + n % 700,
                "ttft_ms": 120.0,
            }
        )
        messages.append(
            {
                "role": "tool",
                "turn": turn,
                "name": "lookup_order",
                "tool_call_id": f"c{turn}",
                "tool_ms": 12.0,
                "content": json.dumps({"order": f"A-{n}", "items": ["x"] * 20}),
            }
        )
        messages.append({"role": "agent", "turn": turn,
                         "content": f"I found order A-{n}; it ships tomorrow. " * 5,
                         "response_ms": 400.0 + (n * 37) % 2600, "llm_ms": 380.0,
                         "tool_ms": 12.0, "ttft_ms": 120.0, "input_tokens": 900,
                         "output_tokens": 60, "cost_usd": 0.0004})  # fmt: skip
    strict = n % 4 != 0
    checks = [
        {"id": f"step:{k}", "kind": "step" if k < 5 else "forbidden",
         "passed": strict or k != 3, "reason": f"check {k} (message {k * 2 + 1})"}
        for k in range(8)
    ]  # fmt: skip
    return {
        "unit_id": f"{scenario}|{agent}|{trial}", "scenario_id": scenario, "domain": "retail",
        "category": f"cat{n % 6}", "tags": ["smoke" if n % 2 else "nightly"], "agent": agent,
        "customer": "llm-customer", "trial": trial, "status": "completed",
        "termination": "customer_done", "strict": strict, "partial": 1.0 if strict else 0.6,
        "checks": checks, "messages": messages, "cost_usd": 0.0064, "agent_cost_usd": 0.0032,
        "started_at": "2026-01-01T00:00:00+00:00", "ended_at": "2026-01-01T00:00:40+00:00",
    }  # fmt: skip


def build_run(folder: Path, units: int) -> Path:
    trials = max(1, units // (len(SCENARIOS) * len(AGENTS)))
    run = folder / "bench-2000"
    run.mkdir(parents=True)
    manifest = {
        "run_id": run.name, "status": "running", "started_at": "2026-01-01T00:00:00+00:00",
        "config": {"agents": AGENTS, "customer": "llm-customer", "trials": trials + 1},
        "agents": {a: a for a in AGENTS}, "scenarios": {s: "0" * 64 for s in SCENARIOS},
    }  # fmt: skip
    (run / "run.json").write_text(json.dumps(manifest), encoding="utf-8")
    n = 0
    with (run / "conversations.jsonl").open("w", encoding="utf-8") as f:
        for trial in range(1, trials + 1):
            for scenario in SCENARIOS:
                for agent in AGENTS:
                    f.write(json.dumps(_record(scenario, agent, trial, n)) + "\n")
                    n += 1
    return run


async def _get(session: aiohttp.ClientSession, url: str) -> tuple[float, int]:
    start = time.perf_counter()
    async with session.get(url) as response:
        body = await response.read()
        assert response.status == 200, (url, response.status)
    return (time.perf_counter() - start) * 1000, len(body)


def _finished_index(run: Path) -> float:
    """ms for the index of ten finished copies of ``run`` (summary.json each), cold."""
    manifest = json.loads((run / "run.json").read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory() as tmp:
        first = Path(tmp) / "night-0"
        shutil.copytree(run, first)
        (first / "run.json").write_text(json.dumps({**manifest, "status": "completed"}))
        (first / "summary.json").write_text(summarise_run(load_run(first)).model_dump_json())
        for i in range(1, 10):
            shutil.copytree(first, Path(tmp) / f"night-{i}")  # copy2: the summary stays newer
        folder = RunsFolder(Path(tmp))
        start = time.perf_counter()
        render_index([r.glance() for r in folder.readers()], folder.version())
        return (time.perf_counter() - start) * 1000


async def main(units: int, repeat: int) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        run = build_run(Path(tmp), units)
        count = sum(1 for _ in (run / "conversations.jsonl").open())
        size_mb = (run / "conversations.jsonl").stat().st_size / 1e6
        print(f"run: {count} units, conversations.jsonl {size_mb:.1f} MB")
        runner = await start_viewer(Path(tmp), "127.0.0.1", 0)
        base = url_of(runner)
        unit = f"{SCENARIOS[7]}%7C{AGENTS[1]}%7C1"
        pages = [
            ("run page (cold: reads every record)", "/runs/bench-2000"),
            ("index", "/"),
            ("run page", "/runs/bench-2000"),
            ("run page, failing, slowest first", "/runs/bench-2000?status=fail&sort=-latency"),
            ("run page, page 10", "/runs/bench-2000?page=10"),
            ("run page, agent + check kind", "/runs/bench-2000?agent=oracle&check=step"),
            ("conversation", f"/runs/bench-2000/units/{unit}"),
            ("live poll (/api/state)", "/api/state?run=bench-2000"),
        ]  # fmt: skip
        worst = 0.0
        try:
            async with aiohttp.ClientSession() as session:
                print(f"{'page':44} {'first':>9} {'median':>9} {'max':>9} {'size':>9}")
                for label, path in pages:
                    first, size = await _get(session, base + path)
                    times = [(await _get(session, base + path))[0] for _ in range(repeat)]
                    median, top = statistics.median(times), max(times)
                    if "cold" not in label:
                        worst = max(worst, top)
                    print(
                        f"{label:44} {first:7.0f}ms {median:7.0f}ms {top:7.0f}ms "
                        f"{size / 1024:7.0f}KB"
                    )
                with (run / "conversations.jsonl").open("a", encoding="utf-8") as f:
                    f.write(json.dumps(_record(SCENARIOS[0], AGENTS[0], 99, 7)) + "\n")
                start = time.perf_counter()
                await _get(session, base + "/api/state?run=bench-2000")
                await _get(session, base + "/runs/bench-2000")
                live = (time.perf_counter() - start) * 1000
                print(f"{'live update: poll + run page with 1 new unit':44} {live:7.0f}ms")
        finally:
            await runner.cleanup()
        print(f"{'index of 10 finished runs (cold)':44} {_finished_index(run):7.0f}ms")
    verdict = "under" if worst < 1000 else "OVER"
    print(f"slowest warm page: {worst:.0f} ms ({verdict} the 1 s target)")
    return 0 if worst < 1000 else 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--units", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    sys.exit(asyncio.run(main(args.units, args.repeat)))
