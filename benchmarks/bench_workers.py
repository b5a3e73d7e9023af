"""Throughput with worker processes (``--workers 2``) and on Ray (``--ray local``).

    python benchmarks/bench_workers.py              # 512 conversations, c=64, 256, auto:256
    python benchmarks/bench_workers.py --only workers --concurrency 256 auto:256

The mock server and the five-call conversations are bench_batch.py's (imported, not
copied). For each concurrency: the single-process bare SDK loop (the floor), then
``supportsim run`` as a subprocess, exactly as a user runs it, with ``--workers 2`` and
with ``--ray local --workers 2`` (a local Ray cluster started by the run).

Printed per variant: wall time of the conversations (first record's start to the last
one's end; the process's whole wall time too, start-up included), conversations per
second and its ratio to bare's, CPU ms per LLM call of the whole process tree
(``RUSAGE_CHILDREN``: the driver and the workers it reaped, start-up included; Ray's
actors and daemons only as far as they were reaped) and of the workers alone after their
start-up (what they report: comparable with bare's), latency inflation p50/p99 of the
recorded ``llm_ms`` over the injected latency, the workers' loop lag, and the mean wait
for a rate-limit permit from the driver (``permit_wait_ms``).

Targets (issue 16): workers 2 >= 1.6x bare's throughput at c=256; inflation p50 <= 10 ms
at c=64 and <= 50 ms at c=256; Ray within 15% of workers 2.

A concurrency ``auto:N`` runs ``--concurrency auto:N`` (no bare loop: it has no
controller), reading the workers' own loop lag. Target (issue 21): inflation p50 <= 10 ms
at auto:256; printed with the throughput it kept (against the fixed N run when it ran),
the gate's path and the run's own estimate (its calls' ``loop_lag_ms``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))

from bench_batch import (  # noqa: E402
    CALLS_PER_CONVERSATION,
    _concurrency,
    _percentile,
    auto_lines,
    bare,
    ceiling,
    gate_path,
    kept,
    write_models,
)


def _run(url: str, n: int, concurrency: int | str, latency_ms: float, extra: list[str]) -> dict:
    """``supportsim run`` as a subprocess; figures from its run directory and rusage."""
    from supportsim.store import MANIFEST, iter_records, measurement_of, with_loop_lag

    with tempfile.TemporaryDirectory() as tmp:
        models = Path(tmp) / "models.yaml"
        write_models(models, url)
        command = [
            sys.executable,
            "-m",
            "supportsim",
            "run",
            "--scenarios",
            str(HERE / "scenarios"),
            "--personas",
            str(HERE / "personas"),
            "--agent",
            "bench-agent",
            "--customer",
            "bench-customer",
            "--models",
            str(models),
            "--trials",
            str(n),
            "--concurrency",
            str(concurrency),
            "--out",
            tmp,
            "--run-id",
            "bench",
            *extra,
        ]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        wall0 = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        process_wall = time.perf_counter() - wall0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode not in (0, 1):
            raise SystemExit(f"{' '.join(extra)} failed:\n{done.stdout[-2000:]}\n{done.stderr}")
        run_dir = Path(tmp) / "bench"
        records = list(iter_records(run_dir))
        manifest = json.loads((run_dir / MANIFEST).read_text())
    ms = [c.llm_ms for r in records for c in r.llm_calls]
    start = min(datetime.fromisoformat(r.started_at) for r in records)
    end = max(datetime.fromisoformat(r.ended_at) for r in records)
    wall = (end - start).total_seconds()
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    inflation = [m - latency_ms for m in ms]
    session = manifest["sessions"][-1]
    return {
        "concurrency": concurrency,
        "conversations": len(records),
        "completed": sum(r.status == "completed" for r in records),
        "wall_s": wall,
        "process_wall_s": process_wall,
        "conv_per_s": len(records) / wall,
        "cpu_ms_per_call": cpu * 1000 / max(1, len(ms)),
        "inflation_p50_ms": _percentile(inflation, 50),
        "inflation_p99_ms": _percentile(inflation, 99),
        "below_injected": sum(m < latency_ms for m in ms),
        "worker_cpu_ms_per_call": ((session.get("workers") or {}).get("cpu_s") or 0.0)
        * 1000
        / max(1, len(ms)),
        "loop_lag": session.get("loop_lag") or {},
        "workers": session.get("workers") or {},
        "gate": gate_path(session.get("concurrency") or [ceiling(concurrency)]),
        "measurement": with_loop_lag(measurement_of(records), session.get("loop_lag")),
    }


def show(name: str, r: dict[str, Any], floor: dict[str, Any] | None) -> None:
    line = (
        f"{name:<10} c={r['concurrency']:<4} wall {r['wall_s']:6.2f} s"
        f"  {r['conv_per_s']:.1f} conv/s  cpu/call {r['cpu_ms_per_call']:.2f} ms"
        f"  inflation p50 {r['inflation_p50_ms']:.0f} ms p99 {r['inflation_p99_ms']:.0f} ms"
        f" ({r.get('below_injected', 0)} calls below the injected latency)"
    )
    if "workers" in r:
        workers, lag = r["workers"], r["loop_lag"]
        line += (
            f"\n{'':<10} process wall {r['process_wall_s']:.1f} s (start-up included)"
            f"  {r['completed']}/{r['conversations']} completed"
            f"  lag p50 {lag.get('p50_ms') or 0:.1f} p99 {lag.get('p99_ms') or 0:.1f} ms"
            f"  permit wait {workers.get('permit_wait_ms') or 0:.2f} ms"
            f"\n{'':<10} workers' cpu/call after start-up {r['worker_cpu_ms_per_call']:.2f} ms"
            f"  workers {workers.get('count')} lost {workers.get('lost')}"
        )
        if floor:
            line += f"\n{'':<10} throughput vs bare {r['conv_per_s'] / floor['conv_per_s']:.2f}x"
        line += auto_lines(r)
    print(line, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--conversations", type=int, default=512)
    parser.add_argument(
        "--concurrency", type=_concurrency, nargs="+", default=[64, 256, "auto:256"]
    )
    parser.add_argument("--latency-ms", type=float, default=500.0)
    parser.add_argument("--ttft-ms", type=float, default=250.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--only", choices=["bare", "workers", "ray"])
    parser.add_argument("--child-bare", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--url", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child_bare:
        got = asyncio.run(bare(args.url, args.conversations, args.concurrency[0], args.latency_ms))
        print(json.dumps(got))
        return
    server = subprocess.Popen(
        [
            sys.executable,
            str(HERE / "bench_batch.py"),
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
            f"{args.latency_ms:g} ms per call (ttft {args.ttft_ms:g} ms), {args.workers} "
            f"workers, {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}",
            flush=True,
        )
        workers = ["--workers", str(args.workers)]
        fixed: dict[tuple[str, int], dict[str, Any]] = {}
        for concurrency in args.concurrency:
            auto = isinstance(concurrency, str)
            floor: dict[str, Any] = {}
            if args.only in (None, "bare") and not auto:
                command = [
                    sys.executable,
                    __file__,
                    "--child-bare",
                    "--url",
                    url,
                    "--conversations",
                    str(args.conversations),
                    "--concurrency",
                    str(concurrency),
                    "--latency-ms",
                    str(args.latency_ms),
                ]
                done = subprocess.run(command, capture_output=True, text=True, check=True)
                floor = json.loads(done.stdout.strip().splitlines()[-1])
                show("bare", floor, None)
            n, latency = args.conversations, args.latency_ms
            variants = {"workers": workers, "ray": [*workers, "--ray", "local"]}
            for name, extra in variants.items():
                if args.only not in (None, name):
                    continue
                result = _run(url, n, concurrency, latency, extra)
                show(name, result, floor)
                if not auto:
                    fixed[(name, int(concurrency))] = result
                elif same := fixed.get((name, ceiling(concurrency))):
                    print(kept(result, same), flush=True)
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
