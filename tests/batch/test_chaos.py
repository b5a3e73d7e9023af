"""Chaos: a real ``supportsim run`` against the loopback mock under a fault mix (429s with
huge Retry-After, 5xx, dropped streams, hangs, lone surrogates in replies), killed with
SIGKILL at seeded points and resumed until done.

Asserted are invariants, never timings: every unit ends with exactly one final record
(nothing after it), every hang is an infra_error (Agent model) or a simulator_fault
(Customer model) and never a ``timeout`` against the Agent, no failed unit carries a
score, and every byte stored is valid UTF-8. The first session runs one conversation at a
time with scripted faults, so each kind of fault surely happens; later sessions draw
faults from a seeded generator. Kills are bounded, then the provider recovers.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import signal
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from batch_helpers import LOOKUP, PERSONAS, REFUND, SCENARIOS, env_for

from supportsim.store import CONVERSATIONS, iter_records
from supportsim.testing import (
    MockLLMServer,
    RecordedRequest,
    Reply,
    autopilot,
    hang,
    http_error,
    say,
    truncated,
)

SEED = 11
TRIALS = 8
UNITS = {f"{s}|openai:agent|{t}" for s in (LOOKUP, REFUND) for t in range(1, TRIALS + 1)}
KILLED_SESSIONS = 3  # each session pays ~3-7 s of SDK imports on this machine
PROGRESS = re.compile(r"^\[\d+/\d+\] ")
CONFIG = """\
agents: ["openai:agent"]
customer: openai:customer
trials: {trials}
timeout_s: 60
call_timeout_s: 0.3
retries: {{max_attempts: 2, base_delay_s: 0.001, max_delay_s: 0.05}}
"""


def surrogate(request: RecordedRequest) -> Reply:
    return say(autopilot(request).text + " \ud800")


def scripted_faults() -> Callable[[RecordedRequest], Reply]:
    """Session 1 (one conversation at a time): each fault in a known place. Unit 1: a
    429 asking for a day, a reply with a lone surrogate, then the Customer's model hangs
    twice (simulator_fault). Unit 2: a 500, then a dropped stream (infra_error). Unit 3:
    the Agent's model hangs twice (infra_error)."""
    plan = {
        "agent": [
            http_error(429, retry_after_s=86400),
            None,  # the surrogate reply
            http_error(500),
            truncated("Let me ch"),
            hang(),
            hang(),
        ],
        "customer": [hang(), hang()],
    }
    seen: Counter[str] = Counter()

    def respond(request: RecordedRequest) -> Reply:
        index = seen[request.model]
        seen[request.model] += 1
        faults = plan.get(request.model, [])
        if index < len(faults):
            return faults[index] or surrogate(request)
        return autopilot(request)

    return respond


def random_faults(rng: random.Random) -> Callable[[RecordedRequest], Reply]:
    """Later sessions: a seeded mix on every request of either model."""

    def respond(request: RecordedRequest) -> Reply:
        roll = rng.random()
        if roll < 0.10:
            return http_error(429, retry_after_s=rng.choice([0.01, 86400]))
        if roll < 0.16:
            return http_error(rng.choice([500, 502, 503]))
        if roll < 0.22:
            return truncated("I am look")
        if roll < 0.26:
            return hang()
        if roll < 0.31:
            return surrogate(request)
        return autopilot(request)

    return respond


async def session(
    server: MockLLMServer, out: Path, config: Path, *, concurrency: int, kill_after: int | None
) -> int | None:
    """One ``supportsim run --resume``-able session; SIGKILLed once ``kill_after`` units
    were recorded (None: run to the end). Returns the exit code (None when killed)."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        "from supportsim.cli import main; main()",
        "run",
        "--config",
        str(config),
        "--scenarios",
        str(SCENARIOS),
        "--personas",
        str(PERSONAS),
        "--concurrency",
        str(concurrency),
        "--out",
        str(out),
        "--run-id",
        "chaos",
        *(["--resume"] if (out / "chaos").exists() else []),
        env={**os.environ, **env_for(server), "PYTHONUNBUFFERED": "1", "COLUMNS": "200"},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    assert proc.stdout is not None
    recorded = 0
    async with asyncio.timeout(60):
        while kill_after is not None and recorded < kill_after:
            line = (await proc.stdout.readline()).decode()
            if not line:
                break  # the session ended first
            recorded += bool(PROGRESS.match(line))
        if kill_after is not None and recorded >= kill_after:
            proc.send_signal(signal.SIGKILL)
            await proc.wait()
            return None
        stdout, stderr = await proc.communicate()
    assert b"Traceback" not in stdout + stderr, (stdout + stderr).decode()
    return proc.returncode


async def test_chaos_kill_and_resume_until_done(server: MockLLMServer, out: Path, tmp_path: Path):
    rng = random.Random(SEED)
    config = tmp_path / "chaos.yaml"
    config.write_text(CONFIG.format(trials=TRIALS))

    server.default(None, scripted_faults())
    await session(server, out, config, concurrency=1, kill_after=rng.randint(3, 6))
    for _ in range(KILLED_SESSIONS - 1):
        server.default(None, random_faults(rng))
        await session(server, out, config, concurrency=3, kill_after=rng.randint(2, 5))
    server.default(None, autopilot)  # the provider recovers
    run_dir = out / "chaos"
    # Exit 1: the run is complete, but simulator faults are not completed units.
    assert await session(server, out, config, concurrency=4, kill_after=None) == 1

    raw = (run_dir / CONVERSATIONS).read_bytes()
    raw.decode("utf-8")  # every stored byte is valid UTF-8
    every = list(iter_records(run_dir))
    # Every unit exactly once: one final record, and it is the unit's last.
    final = Counter(r.unit_id for r in every if r.status != "infra_error")
    assert set(final) == UNITS and set(final.values()) == {1}
    last = {r.unit_id: r for r in every}
    assert all(r.status != "infra_error" for r in last.values())
    # Every hang is infra (Agent) or simulator (Customer); none is blamed on the Agent.
    assert not [r.unit_id for r in every if r.termination == "timeout"]
    hung = [
        r
        for r in every
        if "ProviderTimeout" in (r.error or "") or "provider_timeout" in r.simulator_faults
    ]
    assert {r.status for r in hung} <= {"infra_error", "simulator_fault"}
    assert any(r.status == "simulator_fault" for r in hung)
    assert any(r.status == "infra_error" for r in hung)
    # No failed unit is scored.
    for r in every:
        if r.status != "completed":
            assert (r.strict, r.partial, r.checks) == (None, None, []), r.unit_id
    assert any("\ufffd" in m.content for r in every for m in r.messages)
    manifest = json.loads((run_dir / "run.json").read_text())
    assert manifest["status"] == "completed"  # every unit has its final record
    summary = json.loads((run_dir / "summary.json").read_text())
    assert summary["run"]["units_recorded"] == len(UNITS)
    assert not list(run_dir.glob("*.tmp"))
