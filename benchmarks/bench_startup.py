"""Start-up: how long a run takes before it has ``run.json`` and before its first record.

    python benchmarks/bench_startup.py              # 5 repeats, single process and --workers 2
    python benchmarks/bench_startup.py --repeats 9 --scenarios scenarios/telecom

A 4-scenario oracle run with the scripted Customer (no model, no network), started as a
user starts it (``supportsim run ...``) as a subprocess. The clock starts just
before the process is spawned; the run directory is polled every 2 ms. Printed per variant:
the median and the spread (min-max) of the time to ``run.json``, to the first line of
``conversations.jsonl`` and to the process's exit, and the median of how much ``--workers 2``
adds to the single process's time to the first record.

Targets (issue 23): first record within 1.5 s of process start on a quiet 2-core machine
(it was 5.9 s), and ``--workers 2`` adds at most 2 s of start-up over a single process.
Printed beside them: the floor under any run, a process that only imports LangGraph (the
conversation loop ARCHITECTURE fixes), compiles a one-node graph, runs it and exits.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def once(scenarios: Path, extra: list[str]) -> tuple[float, float, float]:
    """Seconds from spawn to run.json, to the first record, to the process's exit."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "runs"
        run_dir = out / "s"
        records = run_dir / "conversations.jsonl"
        args = [
            sys.executable,
            "-c",
            "from supportsim.cli import main; main()",
            "run",
            "--scenarios",
            str(scenarios),
            "--personas",
            str(ROOT / "personas"),
            "--agent",
            "oracle",
            "--customer",
            "scripted",
            "--out",
            str(out),
            "--run-id",
            "s",
            *extra,
        ]
        start = time.perf_counter()
        proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        manifest = first = float("nan")
        while proc.poll() is None or first != first:
            now = time.perf_counter() - start
            if manifest != manifest and (run_dir / "run.json").exists():
                manifest = now
            if first != first and records.exists() and records.stat().st_size > 0:
                first = now
            if proc.poll() is not None and first != first:
                break
            time.sleep(0.002)
        _, err = proc.communicate()
        ended = time.perf_counter() - start
        if proc.returncode not in (0, 1):
            raise SystemExit(f"run failed ({proc.returncode}): {err.decode()[-2000:]}")
        return manifest, first, ended


FLOOR = """
import asyncio
from typing import TypedDict
from langgraph.graph import END, START, StateGraph

class State(TypedDict):
    n: int

graph = StateGraph(State)
graph.add_node("step", lambda state: {"n": state["n"] + 1})
graph.add_edge(START, "step")
graph.add_edge("step", END)
print(asyncio.run(graph.compile().ainvoke({"n": 0})), flush=True)
"""
"""The floor under any run: a process that imports LangGraph (ARCHITECTURE's conversation
loop), compiles a one-node StateGraph and runs it once, then exits."""


def floor() -> float:
    """Seconds from spawn to the exit of the LangGraph floor process."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", FLOOR], check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def four_scenarios(source: Path, into: Path) -> Path:
    into.mkdir(parents=True, exist_ok=True)
    for path in sorted(source.glob("*.yaml"))[:4]:
        shutil.copy(path, into / path.name)
    return into


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--scenarios", type=Path, default=ROOT / "scenarios" / "appointments")
    ns = parser.parse_args()
    os.environ.pop("SUPPORTSIM_WORKERS", None)
    with tempfile.TemporaryDirectory() as tmp:
        scenarios = four_scenarios(ns.scenarios, Path(tmp) / "four")
        print(f"4 scenarios of {ns.scenarios}, oracle Agent, scripted Customer, {ns.repeats} runs")
        variants = (("single process", []), ("--workers 2", ["--workers", "2"]))
        runs: dict[str, list[tuple[float, float, float]]] = {label: [] for label, _ in variants}
        floors: list[float] = []
        for _ in range(ns.repeats):  # alternating, so a change of load falls on all
            for label, extra in variants:
                runs[label].append(once(scenarios, extra))
            floors.append(floor())
        firsts = {label: [r[1] for r in rows] for label, rows in runs.items()}
        for label, rows in runs.items():
            cols = []
            for name, values in zip(
                ("run.json", "first record", "exit"), zip(*rows, strict=True), strict=True
            ):
                cols.append(
                    f"{name} {statistics.median(values):.2f} s"
                    f" ({min(values):.2f}-{max(values):.2f})"
                )
            print(f"{label:>15}: " + ", ".join(cols))
        added = statistics.median(firsts["--workers 2"]) - statistics.median(
            firsts["single process"]
        )
        print(f"--workers 2 adds {added:.2f} s to the time to the first record (median)")
        print(
            f"LangGraph floor (import, compile and run a one-node StateGraph, exit): "
            f"{statistics.median(floors):.2f} s ({min(floors):.2f}-{max(floors):.2f})"
        )


if __name__ == "__main__":
    main()
