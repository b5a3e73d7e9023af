"""Memory of a long run: 10,000 units in flat memory, every unit recorded exactly once.

    python benchmarks/bench_memory.py                              # 10,000 units, c=64
    python benchmarks/bench_memory.py --units 2000 --sample-s 10   # a quick look
    python benchmarks/bench_memory.py --workers 2                  # passed to supportsim run

The mock LLM server (``bench_batch.serve``: LLM Customer and LLM Agent, two tool calls, five
streamed calls per conversation) runs in its own process; ``supportsim run`` runs as the
real CLI in another (``python -m supportsim run``), the benchmark scenario x ``--units``
trials. Every ``--sample-s`` seconds the resident memory (VmRSS) of the driver and of each
process under it is printed with the units recorded so far (lines of conversations.jsonl);
memory is also polled every second for the peak between samples, and the kernel's maximum
RSS of the driver (``wait4``) is taken when it exits.

At the end: wall time, peak total RSS, flatness (mean RSS of the last third of the run vs
the first third, after the first 10% of units as warm-up; and a least-squares slope in MB
per 1,000 units), then the checks: the run exited 0, run.json says completed, the unit ids
in conversations.jsonl are exactly the planned ones, none twice, every record final (not
infra_error), peak below ``--max-peak-mb`` and growth below ``--max-growth``. Exits 1 when
a check fails. Needs Linux (/proc).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from bench_batch import serve, write_models  # noqa: E402  (a sibling script, not a package)

POLL_S = 1.0
WARM_UP = 0.10
"""Share of the units whose memory is not judged for flatness (imports, pools, caches)."""


# -- /proc -------------------------------------------------------------------------------


def rss_kb(pid: int) -> int | None:
    """VmRSS of one process in kB; None when it is gone (or a zombie without memory)."""
    try:
        with open(f"/proc/{pid}/status", "rb") as f:
            for line in f:
                if line.startswith(b"VmRSS:"):
                    return int(line.split()[1])
    except (FileNotFoundError, ProcessLookupError, PermissionError):
        return None
    return None


def descendants(root: int) -> list[int]:
    """``root`` and every process under it (walks /proc: parent ids from /proc/PID/stat)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        ppid = int(stat[stat.rindex(b")") + 2 :].split()[1])  # after "(comm) state"
        children.setdefault(ppid, []).append(int(entry))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, ()))
    return found


class LineCounter:
    """Lines of a growing file, reading only what was appended since the last call."""

    def __init__(self, path: Path) -> None:
        self.path, self.offset, self.lines = path, 0, 0

    def count(self) -> int:
        try:
            with self.path.open("rb") as f:
                f.seek(self.offset)
                while chunk := f.read(1 << 20):
                    self.lines += chunk.count(b"\n")
                    self.offset += len(chunk)
        except FileNotFoundError:
            pass
        return self.lines


# -- sampling ------------------------------------------------------------------------------


@dataclass
class Poll:
    elapsed_s: float
    units: int
    rss_kb: dict[int, int]

    @property
    def total_mb(self) -> float:
        return sum(self.rss_kb.values()) / 1024


@dataclass
class Watch:
    driver: int
    counter: LineCounter
    polls: list[Poll] = field(default_factory=list)

    def poll(self, elapsed_s: float) -> Poll:
        sizes = {pid: kb for pid in descendants(self.driver) if (kb := rss_kb(pid))}
        sample = Poll(elapsed_s, self.counter.count(), sizes)
        if sizes:
            self.polls.append(sample)
        return sample


def show_sample(sample: Poll) -> None:
    per = "  ".join(f"{pid}:{kb / 1024:.0f}" for pid, kb in sorted(sample.rss_kb.items()))
    print(
        f"{sample.elapsed_s:7.0f} s  units {sample.units:6d}  total {sample.total_mb:7.1f} MB"
        f"  (pid:MB {per})  load {os.getloadavg()[0]:.1f}",
        flush=True,
    )


def slope(xs: list[float], ys: list[float]) -> float | None:
    """Least-squares slope of ys on xs; None without two distinct xs."""
    n = len(xs)
    if n < 2:
        return None
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    if sxx == 0:
        return None
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sxx


def flatness(polls: list[Poll], units: int) -> dict[str, Any]:
    """Memory while units are being recorded, after warm-up: first vs last third (by
    time), and the slope of total RSS against units recorded."""
    steady = [p for p in polls if WARM_UP * units <= p.units < units]
    if len(steady) < 6:
        return {"polls": len(steady)}
    third = len(steady) // 3
    first = sum(p.total_mb for p in steady[:third]) / third
    last = sum(p.total_mb for p in steady[-third:]) / third
    per_unit = slope([float(p.units) for p in steady], [p.total_mb for p in steady])
    return {
        "polls": len(steady),
        "first_mb": first,
        "last_mb": last,
        "growth": last / first - 1,
        "mb_per_1000_units": per_unit * 1000 if per_unit is not None else None,
    }


# -- checks ---------------------------------------------------------------------------------


def unit_checks(run_dir: Path, units: int) -> list[tuple[str, bool]]:
    """Exactly once: the records' unit ids are the planned ones, none twice, all final;
    run.json completed. Reads only ``unit_id`` and ``status`` of each line."""
    from supportsim.store import CONVERSATIONS, MANIFEST, planned_unit_ids

    manifest = orjson.loads((run_dir / MANIFEST).read_bytes())
    planned = planned_unit_ids(manifest) or set()
    seen: Counter[str] = Counter()
    statuses: Counter[str] = Counter()
    with (run_dir / CONVERSATIONS).open("rb") as f:
        for line in f:
            record = orjson.loads(line)
            seen[record["unit_id"]] += 1
            statuses[record["status"]] += 1
    twice = sum(1 for n in seen.values() if n > 1)
    missing, foreign = len(planned - seen.keys()), len(seen.keys() - planned)
    print(
        f"records {sum(seen.values())}, distinct units {len(seen)}, planned {len(planned)}, "
        f"missing {missing}, foreign {foreign}, recorded twice {twice}, statuses "
        f"{dict(statuses)}, run.json status {manifest.get('status')}",
        flush=True,
    )
    return [
        (f"planned units == --units ({units})", len(planned) == units),
        ("every planned unit recorded, no other", missing == 0 and foreign == 0),
        ("no unit recorded twice", twice == 0),
        ("every record final (no infra_error)", statuses["infra_error"] == 0),
        ("run.json status completed", manifest.get("status") == "completed"),
    ]


# -- the run ----------------------------------------------------------------------------------


def run_command(args: argparse.Namespace, models: Path, out: Path) -> list[str]:
    command = [
        sys.executable,
        "-m",
        "supportsim",
        "run",
        "--scenarios",
        str(HERE / "scenarios"),
        "--personas",
        str(HERE / "personas"),
        "--models",
        str(models),
        "--agent",
        "bench-agent",
        "--customer",
        "bench-customer",
        "--trials",
        str(args.units),
        "--concurrency",
        str(args.concurrency),
        "--out",
        str(out),
        "--run-id",
        "memory",
    ]
    if args.workers is not None:
        command += ["--workers", args.workers]
    return command


def drive(args: argparse.Namespace, url: str, work: Path) -> tuple[int, float, int, Watch]:
    """Run ``supportsim run`` and sample it; (exit code, wall s, kernel max RSS kB, polls)."""
    models = work / "models.yaml"
    write_models(models, url)
    command = run_command(args, models, work / "runs")
    print("$ " + " ".join(command), flush=True)
    log = (work / "run.log").open("wb")
    start = time.monotonic()
    driver = subprocess.Popen(command, cwd=work, stdout=log, stderr=subprocess.STDOUT)
    watch = Watch(driver.pid, LineCounter(work / "runs" / "memory" / "conversations.jsonl"))
    next_sample = 0.0
    status = None
    while status is None:
        elapsed = time.monotonic() - start
        sample = watch.poll(elapsed)
        if elapsed >= next_sample:
            show_sample(sample)
            next_sample += args.sample_s
        deadline = time.monotonic() + POLL_S
        while time.monotonic() < deadline:
            pid, status_, usage = os.wait4(driver.pid, os.WNOHANG)
            if pid:
                status = (status_, usage)
                break
            time.sleep(0.05)
    wall = time.monotonic() - start
    log.close()
    code = os.waitstatus_to_exitcode(status[0])
    driver.returncode = code  # reaped here, so Popen must not wait for it again
    return code, wall, status[1].ru_maxrss, watch


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--units", type=int, default=10_000)
    parser.add_argument("--concurrency", default="64")
    parser.add_argument("--latency-ms", type=float, default=20.0)
    parser.add_argument("--ttft-ms", type=float, default=5.0)
    parser.add_argument("--sample-s", type=float, default=60.0)
    parser.add_argument("--workers", help="passed to supportsim run as --workers")
    parser.add_argument("--max-peak-mb", type=float, default=1024.0)
    parser.add_argument(
        "--max-growth", type=float, default=0.10, help="last third vs first third, at most"
    )
    parser.add_argument("--keep", action="store_true", help="keep the run directory")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.latency_ms, args.ttft_ms)
        return

    latency = ["--latency-ms", str(args.latency_ms), "--ttft-ms", str(args.ttft_ms)]
    server = subprocess.Popen(
        [sys.executable, __file__, "--serve", *latency],
        stdout=subprocess.PIPE,
        text=True,
    )
    work = Path(tempfile.mkdtemp(prefix="bench-memory-"))
    try:
        assert server.stdout is not None
        url = server.stdout.readline().strip()
        print(
            f"{args.units} units, concurrency {args.concurrency}, workers "
            f"{args.workers or '-'}, {args.latency_ms:g} ms per call, mock server pid "
            f"{server.pid}, {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}",
            flush=True,
        )
        code, wall, max_rss_kb, watch = drive(args, url, work)
        run_dir = work / "runs" / "memory"
        peak = max((p.total_mb for p in watch.polls), default=0.0)
        flat = flatness(watch.polls, args.units)
        records = run_dir / "conversations.jsonl"
        size = records.stat().st_size if records.exists() else 0
        print(
            f"\nwall {wall:.0f} s ({args.units / wall:.1f} units/s), exit code {code}, "
            f"conversations.jsonl {size / 2**20:.0f} MB ({size / max(1, args.units) / 1024:.1f}"
            f" kB per record), load average {os.getloadavg()[0]:.1f}\n"
            f"peak total RSS {peak:.0f} MB (polled every {POLL_S:g} s), driver max RSS "
            f"{max_rss_kb / 1024:.0f} MB (kernel)",
            flush=True,
        )
        ending = [p.total_mb for p in watch.polls if p.units >= args.units]
        if ending:  # after the last record: the summary and closing run.json
            print(
                f"after the last unit (summary.json): peak {max(ending):.0f} MB over "
                f"{len(ending)} polls",
                flush=True,
            )
        if "growth" in flat:
            print(
                f"flatness: first third {flat['first_mb']:.0f} MB, last third "
                f"{flat['last_mb']:.0f} MB ({flat['growth']:+.1%}), slope "
                f"{flat['mb_per_1000_units']:+.2f} MB per 1,000 units ({flat['polls']} polls "
                f"after {WARM_UP:.0%} warm-up)",
                flush=True,
            )
        else:
            print(f"flatness: too few polls after warm-up ({flat['polls']})", flush=True)
        checks = [("supportsim run exited 0", code == 0)]
        if (run_dir / "run.json").exists() and records.exists():
            checks += unit_checks(run_dir, args.units)
        else:
            checks.append(("run directory written", False))
        top = max(peak, max_rss_kb / 1024)
        checks.append((f"peak RSS < {args.max_peak_mb:g} MB", top < args.max_peak_mb))
        checks.append(
            (
                f"memory flat (growth <= {args.max_growth:.0%})",
                "growth" in flat and flat["growth"] <= args.max_growth,
            )
        )
        for name, ok in checks:
            print(f"  {'ok  ' if ok else 'FAIL'} {name}", flush=True)
        if code != 0:
            print((work / "run.log").read_text(errors="replace")[-3000:], flush=True)
        failed = not all(ok for _, ok in checks)
    finally:
        server.terminate()
        server.wait()
        if args.keep:
            print(f"kept {work}", flush=True)
        else:
            shutil.rmtree(work, ignore_errors=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
