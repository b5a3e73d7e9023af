"""The driver's hub: units out to worker processes, their records and call accounting back.

The driver keeps everything that guarantees the run directory (the job runner, the one
writer, budget, deadline, Ctrl-C, run.json); the hub only changes where a unit runs.
Workers (local processes or Ray actors, ``_launch.py``) connect over TCP, prove the run's
random token, receive the run's setup and answer with the fingerprint of the inputs they
loaded: a worker whose files differ from the driver's is refused.

* Each unit goes to the connected worker with the fewest units in flight; its record
  comes back as the encoded line the worker made, written as it is.
* Rate limits stay global: a worker's limiters ask the driver's (acquire, then a grant or
  a refusal; release, success and overload are one-way), and its call counters flow into
  the driver's ``pool.stats`` (run.json's calls, the budget's live spend).
* A lost worker (exit, EOF, a dead actor): its units are sent to others and a replacement
  is started (at most ``max_restarts``); a unit lost on two workers becomes its
  ``harness_error`` record. When no worker can run, the run stops (``failure``); units
  not recorded run again on resume.
"""

from __future__ import annotations

import asyncio
import secrets
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from supportsim.batch._frames import FrameError, frame, read_frame
from supportsim.batch._jobs import Finished
from supportsim.batch._lag import LoopLag
from supportsim.batch._models import CallStats, ModelPool, WaitTooLong
from supportsim.batch._remote import Handle, Launcher, RecordInfo, initially_open
from supportsim.batch._unit import UnitContext, encode_record, harness_record
from supportsim.batch._units import Unit
from supportsim.llm import RateLimit

FINGERPRINT_KEYS = ("scenarios", "personas", "models")
"""What a worker's inputs must share with the driver's (file hashes, resolved models)."""
STAT_FIELDS = tuple(CallStats.__slots__)  # type: ignore[attr-defined]
EXIT_WAIT_S = 2.0
"""How long a closed connection waits for its worker's exit status (for the reason)."""
MAX_LOSSES = 2
"""A unit in flight on this many workers that died is recorded as a harness error."""


@dataclass(eq=False)
class _Worker:
    worker_id: str
    handle: Handle | None = None
    pid: int | None = None
    """The worker's process id, as it said (a Ray actor's too)."""
    supervisor: asyncio.Task[None] | None = None
    cpu_s: float = 0.0
    writer: asyncio.StreamWriter | None = None
    ready: bool = False
    gone: bool = False
    units: dict[str, _Job] = field(default_factory=dict)
    held: Counter[str] = field(default_factory=Counter)
    acquiring: dict[int, asyncio.Task[None]] = field(default_factory=dict)
    lag: LoopLag = field(default_factory=LoopLag)

    def send(self, header: dict[str, Any]) -> None:
        if self.writer is not None and not self.gone:
            self.writer.write(frame(header))


@dataclass(eq=False)
class _Job:
    unit: Unit
    future: asyncio.Future[Finished[Any] | None]
    losses: list[str] = field(default_factory=list)


class Hub:
    """Serves ``count`` workers for one session; ``run(unit)`` is the batch's ``work``."""

    def __init__(
        self,
        launcher: Launcher,
        *,
        count: int,
        setup: Mapping[str, Any],
        fingerprint: Mapping[str, Any],
        pool: ModelPool,
        ctx: UnitContext,
        lag: LoopLag,
        max_restarts: int | None = None,
        open_at: int | None = None,
    ) -> None:
        self.launcher = launcher
        self.count = count
        self.setup = dict(setup)
        self.expected = {k: fingerprint.get(k) for k in FINGERPRINT_KEYS}
        self.pool = pool
        self.ctx = ctx
        self.lag = lag
        self.max_restarts = max(2, count) if max_restarts is None else max_restarts
        self.token = secrets.token_urlsafe(32)
        self.restarts = 0
        self.lost = 0
        self.failure: str | None = None
        self.workers: dict[str, _Worker] = {}
        self._started = 0
        self._closing = False
        self._changed = asyncio.Event()
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self.port = 0
        self.grace_s = 5.0
        self.permits = 0
        self.permit_s = 0.0
        self._limiters: dict[str, Any] = {}
        self.open_at = open_at
        """A limiter whose only bound is an in-flight limit of at least this (the run's
        concurrency, which already bounds calls: one per conversation) cannot make a call
        wait: workers are told so and take its permits without asking (``took``)."""
        self._open: dict[str, bool] = {}

    # -- lifecycle ------------------------------------------------------------------------

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._serve, self.launcher.host, 0)
        self.port = self._server.sockets[0].getsockname()[1]
        for _ in range(self.count):
            await self._launch()

    async def _launch(self) -> None:
        worker_id = f"w{self._started}"
        self._started += 1
        worker = _Worker(worker_id)
        self.workers[worker_id] = worker
        try:
            worker.handle = await self.launcher.start(worker_id, self.port, self.token)
        except Exception as exc:
            self._lose(worker, f"could not start: {exc}")
            return
        worker.supervisor = self._spawn(self._supervise(worker))

    def _spawn(self, coro: Any) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def _supervise(self, worker: _Worker) -> None:
        assert worker.handle is not None
        how = await worker.handle.wait()
        self._lose(worker, how)

    async def close(self, *, cancel: bool = False) -> None:
        """End every worker: ``bye`` (or ``cancel``: abandon their units), then kill
        what has not exited after ``grace_s``; waits for them all."""
        self._closing = True
        for worker in self.workers.values():
            worker.send({"t": "cancel" if cancel else "bye"})
        supervisors = [t for t in self._tasks if not t.done()]
        if supervisors:
            await asyncio.wait(supervisors, timeout=self.grace_s)
        for worker in self.workers.values():
            if worker.handle is not None:
                worker.handle.kill()
        if supervisors:
            await asyncio.wait(supervisors, timeout=self.grace_s)
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._server is not None:
            self._server.close()
        self.launcher.close()

    def summary(self) -> dict[str, Any]:
        """run.json's ``workers`` entry of the session."""
        out: dict[str, Any] = {
            "mode": self.launcher.mode,
            "count": self.count,
            "restarts": self.restarts,
            "lost": self.lost,
            "loop_lag": {w: self.workers[w].lag.stats() for w in sorted(self.workers)},
            "cpu_s": sum(w.cpu_s for w in self.workers.values()),
            "permits": self.permits,
            "permit_wait_ms": self.permit_s * 1000 / self.permits if self.permits else None,
        }
        if self.launcher.mode == "ray":
            out["address"] = self.setup.get("ray_address")
        return out

    # -- units ----------------------------------------------------------------------------

    async def run(self, unit: Unit) -> Finished[Any] | None:
        """The unit's record from a worker; None when no worker can run it (unrecorded)."""
        loop = asyncio.get_running_loop()
        job = _Job(unit, loop.create_future())
        while True:
            worker = await self._pick()
            if worker is None:
                return None
            job.future = loop.create_future()
            worker.units[unit.unit_id] = job
            worker.send({"t": "unit", "unit": [unit.scenario_id, unit.agent, unit.trial]})
            try:
                result = await job.future
            except asyncio.CancelledError:
                worker.units.pop(unit.unit_id, None)
                worker.send({"t": "drop", "unit": unit.unit_id})
                raise
            if result is not None:
                return result
            if len(job.losses) >= MAX_LOSSES:
                return self._died_record(job)

    async def _pick(self) -> _Worker | None:
        while True:
            ready = [w for w in self.workers.values() if w.ready and not w.gone]
            if ready:
                return min(ready, key=lambda w: len(w.units))
            if self.failure is not None:
                return None
            self._changed.clear()
            await self._changed.wait()

    def _died_record(self, job: _Job) -> Finished[Any]:
        error = "worker died while running it: " + "; then ".join(job.losses)
        now = datetime.now(UTC).isoformat(timespec="milliseconds")
        record = harness_record(job.unit, self.ctx, error, started_at=now, duration_s=0.0)
        return Finished(record, encode_record(record, self.ctx.scrub), None)

    def _lose(self, worker: _Worker, how: str) -> None:
        """A worker ended: its units go elsewhere, its permits back, a replacement starts."""
        if worker.gone:
            return
        worker.gone = True
        if worker.writer is not None:
            worker.writer.close()
        for task in worker.acquiring.values():
            task.cancel()
        for name, held in worker.held.items():
            limiter = self.pool.limiter_named(name, RateLimit(), None)
            for _ in range(held):
                limiter.release()
        worker.held.clear()
        jobs, worker.units = list(worker.units.values()), {}
        self._changed.set()
        if self._closing:
            return
        self.lost += 1
        for job in jobs:
            job.losses.append(f"{worker.worker_id} {how}")
            if not job.future.done():
                job.future.set_result(None)
        if worker.handle is not None:
            worker.handle.kill()
        refused = how.startswith("refused")
        if not refused and self.restarts < self.max_restarts:
            self.restarts += 1
            self._spawn(self._launch())
        elif not any(not w.gone for w in self.workers.values()):
            self.failure = f"workers: no worker can run units ({worker.worker_id} {how})"
            self._changed.set()

    # -- connections ----------------------------------------------------------------------

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        worker: _Worker | None = None
        reason = "closed its connection"
        try:
            hello, _ = await asyncio.wait_for(read_frame(reader), 30.0)
            worker = self.workers.get(str(hello.get("worker")))
            if not secrets.compare_digest(str(hello.get("token", "")), self.token):
                return  # not one of ours: say nothing
            if worker is None or worker.gone or worker.writer is not None:
                return
            worker.writer = writer
            worker.pid = hello.get("pid")
            worker.send({"t": "setup", **self.setup, **self._deadline(), "open_at": self.open_at})
            while True:
                header, payload = await read_frame(reader)
                self._handle(worker, header, payload)
        except (asyncio.IncompleteReadError, ConnectionError, FrameError, TimeoutError) as exc:
            if isinstance(exc, FrameError):
                reason = f"protocol error: {exc}"
        except _Refused as exc:
            reason = f"refused: {exc}"
        finally:
            writer.close()
            if worker is not None and worker.writer is writer and not worker.gone:
                if worker.supervisor is not None and not reason.startswith("refused"):
                    # A closed connection is most often a dead process: say how it ended.
                    await asyncio.wait({worker.supervisor}, timeout=EXIT_WAIT_S)
                self._lose(worker, reason)

    def _deadline(self) -> dict[str, Any]:
        at = self.pool.deadline_at
        return {"deadline_in_s": None if at is None else max(0.0, at - self.pool.clock())}

    def _handle(self, worker: _Worker, header: dict[str, Any], payload: bytes) -> None:
        kind = header.get("t")
        if kind == "took":
            limiter = self._limiter(header)
            worker.held[header["name"]] += 1
            if limiter.gate is not None:
                limiter.gate.in_flight += 1  # counted, so a 429's cut halves the truth
            self._recheck(header["name"], limiter)
        elif kind == "acq":
            self._recheck(header["name"], self._limiter(header))
            if self._limiter(header).try_acquire():
                worker.held[header["name"]] += 1
                worker.send({"t": "grant", "id": header["id"]})
                return
            ask = self._acquire(worker, header)
            worker.acquiring[header["id"]] = task = asyncio.ensure_future(ask)
            task.add_done_callback(lambda _t: worker.acquiring.pop(header["id"], None))
        elif kind == "rel":
            worker.held[header["name"]] -= 1
            self._limiter(header).release()
        elif kind == "ok":
            self._limiter(header).succeeded(int(header["tokens"]))
        elif kind == "over":
            self._limiter(header).overloaded(header.get("after"))
            self._recheck(header["name"], self._limiter(header))
        elif kind == "cacq":
            if (task := worker.acquiring.get(header["id"])) is not None:
                task.cancel()
        elif kind == "stats":
            self._add_stats(header["d"])
        elif kind == "cpu":
            worker.cpu_s = float(header["s"])
        elif kind == "permits":
            self.permits += int(header["n"])
            self.permit_s += float(header["s"])
        elif kind == "lag":
            for ms in header["ms"]:
                worker.lag.add(ms)
                self.lag.add(ms)
        elif kind == "done":
            self._add_stats(header.get("d") or {})
            job = worker.units.pop(header["info"]["unit_id"], None)
            if job is not None and not job.future.done():
                info = RecordInfo(**header["info"])
                job.future.set_result(Finished(info, payload, info.cost_usd))
        elif kind == "ready":
            theirs = {k: header["fingerprint"].get(k) for k in FINGERPRINT_KEYS}
            if theirs != self.expected:
                diff = [k for k in FINGERPRINT_KEYS if theirs[k] != self.expected[k]]
                message = f"its inputs differ from the driver's ({', '.join(diff)})"
                worker.send({"t": "refused", "error": message})
                raise _Refused(message)
            worker.ready = True
            for name, is_open in self._open.items():
                worker.send({"t": "open", "name": name, "open": is_open})
            self._changed.set()
        elif kind == "failed":
            raise _Refused(str(header.get("error")))

    def _recheck(self, name: str, limiter: Any) -> None:
        """Tell every worker when a limiter turns open or closed (see ``open_at``)."""
        gate = limiter.gate
        is_open = (
            self.open_at is not None
            and limiter.throttle is None
            and limiter.tokens is None
            and limiter.paused_until <= self.pool.clock()
            and (gate is None or gate.limit >= self.open_at)
        )
        if self._open.get(name, False) != is_open:
            self._open[name] = is_open
            for worker in self.workers.values():
                if worker.ready:
                    worker.send({"t": "open", "name": name, "open": is_open})

    def _limiter(self, header: dict[str, Any]) -> Any:
        name = header["name"]
        if (limiter := self._limiters.get(name)) is None:
            limit = RateLimit.model_validate(header.get("limit") or {})
            limiter = self._limiters[name] = self.pool.limiter_named(
                name, limit, header.get("default")
            )
            self._open[name] = initially_open(limit, header.get("default"), self.open_at)
        return limiter

    async def _acquire(self, worker: _Worker, header: dict[str, Any]) -> None:
        limiter = self._limiter(header)
        try:
            await limiter.acquire(header.get("wait"))
        except WaitTooLong as exc:
            worker.send({"t": "deny", "id": header["id"], "wait_s": exc.wait_s})
            return
        if worker.gone:
            limiter.release()
            return
        worker.held[header["name"]] += 1
        worker.send({"t": "grant", "id": header["id"]})

    def _add_stats(self, delta: Mapping[str, Any]) -> None:
        stats = self.pool.stats
        for name, value in delta.items():
            if name in STAT_FIELDS:
                setattr(stats, name, getattr(stats, name) + value)


class _Refused(Exception):
    """A worker that may not run units (other inputs, or its setup failed)."""
