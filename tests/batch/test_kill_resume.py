"""A real ``supportsim run`` killed with SIGKILL mid-way, then resumed: every unit once;
and one stopped with SIGTERM, which ends it as gracefully as a first Ctrl-C."""

from __future__ import annotations

import asyncio
import io
import json
import os
import signal
import sys
from collections import Counter
from pathlib import Path

from batch_helpers import LOOKUP, PERSONAS, REFUND, SCENARIOS, env_for
from rich.console import Console

from supportsim.report import report_command
from supportsim.store import CONVERSATIONS, iter_records
from supportsim.testing import MockLLMServer, RecordedRequest, Reply, autopilot, hang, say

TRIALS = 4
UNITS = {f"{s}|openai:agent|{t}" for s in (LOOKUP, REFUND) for t in range(1, TRIALS + 1)}


def command(out: Path, *extra: str) -> list[str]:
    return [
        sys.executable,
        "-c",
        "from supportsim.cli import main; main()",
        "run",
        "--scenarios",
        str(SCENARIOS),
        "--personas",
        str(PERSONAS),
        "--agent",
        "openai:agent",
        "--trials",
        str(TRIALS),
        "--concurrency",
        "2",
        "--out",
        str(out),
        "--run-id",
        "night",
        *extra,
    ]


async def start(server: MockLLMServer, out: Path, *extra: str) -> asyncio.subprocess.Process:
    env = {**os.environ, **env_for(server), "PYTHONUNBUFFERED": "1", "COLUMNS": "200"}
    return await asyncio.create_subprocess_exec(
        *command(out, *extra),
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


async def test_sigkill_mid_run_then_resume_runs_every_unit_exactly_once(
    server: MockLLMServer, out: Path
):
    # The agent answers until two units are done, then every call hangs: the run is
    # certainly mid-way, with units in flight, when it is killed. (Not "the first seven
    # calls": units in flight can share seven answers so that none of them finishes.)
    answering = True

    def until_two_finished(request: RecordedRequest) -> Reply:
        return autopilot(request) if answering else hang()

    server.default("agent", until_two_finished)
    proc = await start(server, out)
    assert proc.stdout is not None
    finished: list[str] = []
    async with asyncio.timeout(120):
        while len(finished) < 2:
            line = (await proc.stdout.readline()).decode()
            assert line, "the run ended before it could be killed"
            if ": completed" in line:
                finished.append(line)
    answering = False
    proc.send_signal(signal.SIGKILL)
    await proc.wait()
    assert proc.returncode == -signal.SIGKILL

    run_dir = out / "night"
    killed = list(iter_records(run_dir))
    assert 2 <= len(killed) < len(UNITS)
    assert json.loads((run_dir / "run.json").read_text())["status"] == "running"
    # The writer is dead: the report calls the run interrupted, not running forever.
    text = io.StringIO()
    assert (
        report_command(
            run_dir,
            json_out=False,
            html=False,
            html_path=None,
            out=Console(file=text, width=200),
            err=Console(file=io.StringIO()),
        )
        == 0
    )
    assert "interrupted" in text.getvalue() and "running" not in text.getvalue()
    # A crash in the middle of a write leaves a torn last line: resume must drop it.
    with (run_dir / CONVERSATIONS).open("ab") as f:
        f.write(b'{"unit_id": "mock-charge-lookup|openai:agent|4", "status": "compl')

    server.default("agent", autopilot)
    proc = await start(server, out, "--resume")
    async with asyncio.timeout(120):
        stdout, stderr = await proc.communicate()
    assert proc.returncode == 0, (stdout + stderr).decode()
    text = stdout.decode()
    assert f"{len(UNITS) - len(killed)} of {len(UNITS)} units to run" in text
    assert "run directory:" in text

    every = list(iter_records(run_dir))
    assert Counter(r.unit_id for r in every) == Counter(UNITS)
    assert all(r.status == "completed" for r in every)
    assert (run_dir / CONVERSATIONS).read_bytes().endswith(b"}\n")
    manifest = json.loads((run_dir / "run.json").read_text())
    assert manifest["status"] == "completed"
    assert len(manifest["sessions"]) == 1  # the killed session never closed its entry
    summary = json.loads((run_dir / "summary.json").read_text())
    assert summary["run"]["units_recorded"] == len(UNITS)
    assert summary["run"]["infra_errors"] == 0
    assert summary["agents"]["openai:agent"]["n"] == len(UNITS)


async def test_sigterm_is_a_graceful_stop_like_the_first_ctrl_c(server: MockLLMServer, out: Path):
    # Each agent reply takes 50 ms, so the run is mid-way when the signal comes.
    server.default("agent", lambda request: say(autopilot(request).text, total_ms=50))
    proc = await start(server, out)
    assert proc.stdout is not None and proc.stderr is not None
    seen: list[str] = []
    async with asyncio.timeout(120):
        while not any(": completed" in line for line in seen):
            line = (await proc.stdout.readline()).decode()
            assert line, "the run ended before it could be stopped"
            seen.append(line)
        proc.send_signal(signal.SIGTERM)
        rest, stderr = await proc.communicate()
    assert proc.returncode == 1, stderr.decode()
    text = "".join(seen) + rest.decode()
    assert "Traceback" not in text + stderr.decode()
    assert "starting no new conversations; running ones finish" in text
    run_dir = out / "night"
    manifest = json.loads((run_dir / "run.json").read_text())
    assert manifest["status"] == "interrupted"
    assert (run_dir / "summary.json").exists()
    kept = list(iter_records(run_dir))
    assert 1 <= len(kept) < len(UNITS)
    assert Counter(r.unit_id for r in kept) == Counter({r.unit_id for r in kept})
    assert all(r.status == "completed" for r in kept)  # running units finished, not cut
    assert f"--out {out} --run-id night --resume" in text
