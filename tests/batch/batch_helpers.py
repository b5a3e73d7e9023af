"""Batch test helpers: the batch scenarios, requests and a run helper.

Runs go through ``prepare_run`` + ``execute`` exactly as ``supportsim run`` does, with the
real SDKs against the loopback mock server; retry waits use a no-wait sleep.
"""

from __future__ import annotations

import asyncio
import os
import signal
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from supportsim.batch import RunRequest, Session, execute, prepare_run
from supportsim.store import ConversationRecord, iter_records
from supportsim.testing import MockLLMServer, RecordedRequest, Reply, autopilot

HERE = Path(__file__).parent
SCENARIOS = HERE / "scenarios"
PERSONAS = HERE.parent / "fixtures" / "personas"
LOOKUP, REFUND = "mock-charge-lookup", "mock-duplicate-refund"


async def no_wait(_seconds: float) -> None:
    await asyncio.sleep(0)


def env_for(server: MockLLMServer) -> dict[str, str]:
    return {
        "OPENAI_API_KEY": "sk-test",
        "OPENAI_BASE_URL": server.url + "/v1",
        "ANTHROPIC_API_KEY": "sk-test",
        "ANTHROPIC_BASE_URL": server.url,
    }


def request(
    out: Path,
    *,
    run_id: str = "r1",
    resume: bool = False,
    force: bool = False,
    config: Path | None = None,
    **overrides: Any,
) -> RunRequest:
    base = {
        "scenarios": [str(SCENARIOS)],
        "personas": str(PERSONAS),
        "out": str(out),
        "retries": {"max_attempts": 3, "base_delay_s": 0.001, "max_delay_s": 0.001},
    }
    return RunRequest(config, {**base, **overrides}, run_id=run_id, resume=resume, force=force)


async def run(server: MockLLMServer, req: RunRequest, **kwargs: Any) -> tuple[Session, Any]:
    """One session; returns it and the pool (for its counters)."""
    prepared = prepare_run(req, env_for(server))
    prepared.pool.sleep = no_wait
    try:
        session = await execute(
            prepared.session, prepared.ctx, prepared.config, pool=prepared.pool, **kwargs
        )
    finally:
        await prepared.pool.aclose()
    return session, prepared.pool


def records(session: Session) -> list[ConversationRecord]:
    return list(iter_records(session.run_dir))


def once_each(session: Session) -> Counter[str]:
    """Each unit's record count, asserted to be exactly one."""
    counts = Counter(r.unit_id for r in records(session))
    assert set(counts.values()) == {1}, counts
    return counts


class Watch:
    """Captures the batch (``execute``'s ``watch``) so a test can reach its hub."""

    def __init__(self) -> None:
        self.batch: Any = None

    async def __call__(self, batch: Any) -> None:
        self.batch = batch
        await asyncio.Event().wait()


def kill_a_busy_worker_on(
    nth: int,
    server: MockLLMServer,
    watch: Watch,
    killed: list[int],
    sig: signal.Signals = signal.SIGKILL,
) -> Callable[[RecordedRequest], Reply]:
    """An ``agent`` responder that sends ``sig`` to a worker with units in flight when the
    server has received the ``nth`` agent request (once; its pid goes to ``killed``)."""

    def respond(request: RecordedRequest) -> Reply:
        if len(server.requests(model="agent")) == nth and not killed:
            worker = next(w for w in watch.batch.hub.workers.values() if w.units and not w.gone)
            killed.append(worker.pid)
            os.kill(worker.pid, sig)
        return autopilot(request)

    return respond


def live_workers(watch: Watch) -> list[Any]:
    """The hub's workers that are ready and not lost."""
    return [w for w in watch.batch.hub.workers.values() if w.ready and not w.gone and w.pid]


def once_all_busy(
    server: MockLLMServer, watch: Watch, count: int, act: Callable[[list[Any]], None]
) -> Callable[[RecordedRequest], Reply]:
    """An ``agent`` responder that calls ``act(workers)`` once, at the first agent
    request after a unit finished that finds ``count`` live workers, each with units in
    flight."""
    done: list[bool] = []

    def respond(request: RecordedRequest) -> Reply:
        if not done and watch.batch is not None and watch.batch.state.done:
            workers = live_workers(watch)
            if len(workers) == count and all(w.units for w in workers):
                done.append(True)
                act(workers)
        return autopilot(request)

    return respond


def all_ready_before_units(monkeypatch: Any) -> None:
    """Make ``Hub.start`` return only once every worker it started is ready, so the first
    units are spread over all of them (a test that needs every worker busy)."""
    from supportsim.batch._hub import Hub

    start = Hub.start

    async def start_and_wait(self: Hub) -> None:
        await start(self)
        while not all(w.ready or w.gone for w in self.workers.values()):
            self._changed.clear()
            await self._changed.wait()

    monkeypatch.setattr(Hub, "start", start_and_wait)


async def exited(pid: int) -> None:
    """Until process ``pid`` has exited (a pidfd turns readable: no polling)."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return
    loop = asyncio.get_running_loop()
    done = loop.create_future()
    loop.add_reader(fd, lambda: done.done() or done.set_result(None))
    try:
        await done
    finally:
        loop.remove_reader(fd)
        os.close(fd)
