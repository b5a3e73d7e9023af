"""The driver's hub: units out to worker processes, their records and call accounting back.

The driver keeps everything that guarantees the run directory (the job runner, the one
writer, budget, deadline, Ctrl-C, run.json); the hub only changes where a unit runs.
Workers (local processes or Ray actors, ``_launch.py``) connect over TCP, prove the run's
random token (nothing larger than ``MAX_HELLO`` is read before they do), receive the
run's setup, set up (their context, SDK warm-up, MCP host) and only then say they are
ready, with the fingerprint of what they loaded: a worker whose inputs, supportsim
version or domain data differ from the driver's is refused.

* Each unit goes to the connected worker with the fewest units in flight; its record
  comes back as the encoded line the worker made, written as it is.
* Rate limits stay global: a worker's limiters ask the driver's (acquire, then a grant or
  a refusal; release, success and overload are one-way), and its call counters flow into
  the driver's ``pool.stats`` (run.json's calls, the budget's live spend).
* Heartbeats both ways (``Timing``): a worker not ready in time, or silent too long
  (stopped, hung, its loop blocked), is lost like one that died.
* A lost worker (exit, EOF, a dead actor, silence): it is killed, its permits go back
  once, anything it still sends is dropped but its call counters, its units are sent to
  others and a replacement is started, unless ``max_restarts`` workers in a row were lost
  with no record delivered in between (a crash loop). A worker's death is not its units'
  verdict; see ``Hub.run`` for the one case where it is (a poison unit). When no worker
  is left, the run stops (``failure``); units not recorded run again on resume.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from supportsim.batch._frames import MAX_HELLO, FrameError, frame, read_frame
from supportsim.batch._jobs import Finished
from supportsim.batch._lag import LoopLag
from supportsim.batch._remote import (
    Handle,
    Launcher,
    RecordInfo,
    Timing,
    initially_open,
    worker_fingerprint,
)
from supportsim.batch._unit import UnitContext, encode_record, harness_record
from supportsim.batch._units import Unit
from supportsim.llm import CallStats, ModelPool, RateLimit, WaitTooLong

STAT_FIELDS = tuple(CallStats.__slots__)
EXIT_WAIT_S = 2.0
"""How long a closed connection waits for its worker's exit status (for the reason)."""
HELLO_TIMEOUT_S = 30.0
"""How long a new connection may take to send its hello."""
SUSPECT_AFTER = 2
"""A unit in flight on this many workers that died runs next alone (``Hub.run``)."""
STOPPING_SILENCE_S = 5.0
"""Once the run is stopping (first Ctrl-C), a worker silent this long is given up: its
units are left to resume rather than waited for."""


@dataclass(frozen=True, slots=True)
class _Loss:
    how: str
    alone: bool
    """The unit ran alone on the worker (isolated: nothing else was sent to it)."""


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
    heard: bool = False
    """A frame came since the last heartbeat tick."""
    missed: int = 0
    """Heartbeat ticks in a row without a frame (once ready)."""
    age: int = 0
    """Heartbeat ticks since it was started, while not ready."""

    def send(self, header: dict[str, Any]) -> None:
        if self.writer is not None and not self.gone:
            self.writer.write(frame(header))

    def describe(self) -> str:
        return self.handle.describe() if self.handle is not None else "not started"


@dataclass(eq=False)
class _Job:
    unit: Unit
    future: asyncio.Future[Finished[Any] | None] | None = None
    losses: list[_Loss] = field(default_factory=list)
    got: bool = False
    """The worker it was last sent to said it has it (``got``): only then is that worker's
    death one the unit was in flight for. Two workers killed at once can have the first
    one's unit sent to the second before its death is seen; that death is not the unit's."""


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
        timing: Timing | None = None,
        stopped: Callable[[], bool] | None = None,
    ) -> None:
        self.launcher = launcher
        self.count = count
        self.setup = dict(setup)
        self.expected = worker_fingerprint(
            fingerprint, ctx.domains, (s.domain for s in ctx.scenarios.values())
        )
        self.pool = pool
        self.ctx = ctx
        self.lag = lag
        self.max_restarts = max(2, count) if max_restarts is None else max_restarts
        """Workers lost in a row, with no record delivered in between, that are replaced."""
        self.timing = timing or Timing()
        self._stopped = stopped
        """Whether the batch stopped starting units (any reason): checked every heartbeat."""
        self.token = secrets.token_urlsafe(32)
        self.restarts = 0
        self.lost = 0
        self.barren = 0
        """Workers lost since the last record was delivered (by any worker)."""
        self.failure: str | None = None
        self.stopping = False
        self.workers: dict[str, _Worker] = {}
        self._started = 0
        self._closing = False
        self._changed = asyncio.Event()
        self._isolation = asyncio.Lock()
        self._reserved: _Worker | None = None
        """The worker kept free for a suspect unit (``run``): nothing else is sent to it."""
        self._isolated: _Job | None = None
        """The suspect running alone on ``_reserved``."""
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._connections: dict[asyncio.Task[Any], asyncio.StreamWriter] = {}
        self._watchdog: asyncio.Task[None] | None = None
        self.port = 0
        self.grace_s = 5.0
        self.hello_timeout_s = HELLO_TIMEOUT_S
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
        self._watchdog = asyncio.ensure_future(self._watch())
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
        if worker.gone:  # given up while it was being started: end it now
            worker.handle.kill()
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

    def stop(self) -> None:
        """The run is stopping (first Ctrl-C, the budget, the deadline, a store failure:
        ``stopped`` says so within a heartbeat): units not yet sent are left for resume, and
        so are the units of a worker lost from now on; a silent worker is given up after
        ``STOPPING_SILENCE_S``; no worker is replaced."""
        self.stopping = True
        self._changed.set()

    async def close(self, *, cancel: bool = False) -> None:
        """End every worker: ``bye`` (or ``cancel``: abandon their units), then kill
        what has not exited after ``grace_s``; waits for them all, and for every
        connection (a hello still pending included) to end."""
        self._closing = True
        if self._watchdog is not None:
            self._watchdog.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watchdog
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
        # Ended by their own reads failing, never cancelled: a cancelled connection task
        # makes asyncio's stream callback print a CancelledError traceback (3.11).
        for writer in self._connections.values():
            writer.transport.abort()
        if self._connections:
            await asyncio.wait(list(self._connections))
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

    # -- heartbeats -----------------------------------------------------------------------

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(self.timing.heartbeat_s)
            self.tick()

    def tick(self) -> None:
        """One heartbeat: ping every connected worker; lose one not ready in time or
        silent too long (counted in ticks: a stall of the driver's own loop is one)."""
        beat = self.timing.heartbeat_s
        silence = self.timing.silence_s
        if not self.stopping and self._stopped is not None and self._stopped():
            self.stop()  # the budget or the deadline: as a first Ctrl-C
        if self.stopping:
            silence = min(silence, STOPPING_SILENCE_S)
        for worker in list(self.workers.values()):
            if worker.gone:
                continue
            worker.send({"t": "ping"})
            if not worker.ready:
                worker.age += 1
                if worker.age * beat >= self.timing.ready_s:
                    what = f"was not ready {self.timing.ready_s:g} s after it was started"
                    self._lose(worker, f"({worker.describe()}) {what}")
            elif worker.heard:
                worker.heard, worker.missed = False, 0
            else:
                worker.missed += 1
                if worker.missed * beat >= silence:
                    quiet = f"sent nothing for {worker.missed * beat:.3g} s (stopped or hung)"
                    self._lose(worker, f"({worker.describe()}) {quiet}")

    # -- units ----------------------------------------------------------------------------

    async def run(self, unit: Unit) -> Finished[Any] | None:
        """The unit's record from a worker; None when it is left unrecorded (no worker
        can run it, or the run is stopping), so that resume runs it.

        A worker's death is never its units' verdict, with one exception, a poison unit:
        a unit in flight on ``SUSPECT_AFTER`` workers that died is a suspect and runs
        next alone (one suspect at a time, on a worker that gets nothing else until it
        is done); if that worker dies too, the unit is what kills workers and it is
        recorded as a ``harness_error`` saying so. Otherwise a unit whose worker died is
        sent to another worker. So one worker killed with 8 units in flight (out of
        memory, a node lost, SIGKILL) blames none of them, nor does losing every worker
        twice."""
        job = _Job(unit)
        while True:
            before = len(job.losses)
            if before >= SUSPECT_AFTER:
                async with self._isolation:
                    result = await self._attempt(job, alone=True)
            else:
                result = await self._attempt(job, alone=False)
            if not isinstance(result, _Lost):
                return result
            if len(job.losses) > before and job.losses[-1].alone:
                return self._poison_record(job)
            if self.stopping or self.failure is not None:
                return None

    async def _attempt(self, job: _Job, *, alone: bool) -> Finished[Any] | _Lost | None:
        worker = await self._pick(alone=alone)
        if worker is None:
            return None
        unit = job.unit
        job.future = asyncio.get_running_loop().create_future()
        job.got = False
        worker.units[unit.unit_id] = job
        worker.send(
            {"t": "unit", "unit": [unit.scenario_id, unit.agent, unit.trial, unit.customer]}
        )
        if alone:
            self._isolated = job
        try:
            result = await job.future
        except asyncio.CancelledError:
            worker.units.pop(unit.unit_id, None)
            worker.send({"t": "drop", "unit": unit.unit_id})
            raise
        finally:
            if alone:
                self._reserved = self._isolated = None
                self._changed.set()
        return _LOST if result is None else result

    async def _pick(self, *, alone: bool) -> _Worker | None:
        """The least busy ready worker (None once the run stops); ``alone``: the reserved
        worker, once its units in flight have finished."""
        try:
            while not self.stopping and self.failure is None:
                ready = [w for w in self.workers.values() if w.ready and not w.gone]
                if alone:
                    if (self._reserved is None or self._reserved.gone) and ready:
                        self._reserved = min(ready, key=lambda w: len(w.units))
                    reserved = self._reserved
                    if reserved is not None and not reserved.gone and not reserved.units:
                        return reserved
                else:
                    free = [w for w in ready if w is not self._reserved]
                    if free:
                        return min(free, key=lambda w: len(w.units))
                self._changed.clear()
                await self._changed.wait()
        except BaseException:
            if alone:
                self._reserved = None
            raise
        if alone:
            self._reserved = None
        return None

    def _poison_record(self, job: _Job) -> Finished[Any]:
        error = (
            f"poison unit: {len(job.losses)} workers died while it was in flight, the last "
            "while it ran alone, so it is what kills them: "
            + "; then ".join(loss.how for loss in job.losses)
        )
        now = datetime.now(UTC).isoformat(timespec="milliseconds")
        record = harness_record(job.unit, self.ctx, error, started_at=now, duration_s=0.0)
        return Finished(record, encode_record(record, self.ctx.scrub), None)

    def _lose(self, worker: _Worker, how: str) -> None:
        """A worker ended or is given up: it is killed, its permits go back (once), its
        units go elsewhere and a replacement starts (see the module docstring)."""
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
        if worker.handle is not None:
            worker.handle.kill()
        self.lost += 1
        self.barren += 1
        for job in jobs:
            if job.got:  # it reached this worker: the death counts for it (see _Job.got)
                job.losses.append(_Loss(f"{worker.worker_id} {how}", alone=job is self._isolated))
            if job.future is not None and not job.future.done():
                job.future.set_result(None)
        refused = how.startswith("refused")
        if not refused and not self.stopping and self.barren <= self.max_restarts:
            self.restarts += 1
            self._spawn(self._launch())
        elif not any(not w.gone for w in self.workers.values()):
            self.failure = f"workers: no worker can run units ({worker.worker_id} {how})"
            self._changed.set()

    # -- connections ----------------------------------------------------------------------

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._connections[task] = writer
        worker: _Worker | None = None
        reason = "closed its connection"
        try:
            hello, _ = await asyncio.wait_for(
                read_frame(reader, max_size=MAX_HELLO), self.hello_timeout_s
            )
            worker = self.workers.get(str(hello.get("worker")))
            if not secrets.compare_digest(str(hello.get("token", "")), self.token):
                return  # not one of ours: say nothing
            if worker is None or worker.gone or worker.writer is not None:
                return
            worker.writer = writer
            worker.pid = hello.get("pid")
            worker.send(
                {
                    "t": "setup",
                    **self.setup,
                    **self._deadline(),
                    "open_at": self.open_at,
                    "heartbeat_s": self.timing.heartbeat_s,
                    "silence_s": self.timing.silence_s,
                }
            )
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
            try:
                if worker is not None and worker.writer is writer and not worker.gone:
                    if worker.supervisor is not None and not reason.startswith("refused"):
                        # A closed connection is most often a dead process: say how it ended.
                        await asyncio.wait({worker.supervisor}, timeout=EXIT_WAIT_S)
                    self._lose(worker, reason)
            finally:
                self._connections.pop(task, None)

    def _deadline(self) -> dict[str, Any]:
        at = self.pool.deadline_at
        return {"deadline_in_s": None if at is None else max(0.0, at - self.pool.clock())}

    def _handle(self, worker: _Worker, header: dict[str, Any], payload: bytes) -> None:
        kind = header.get("t")
        if worker.gone:
            # A lost worker's units went elsewhere and its permits back: a late record, a
            # release or a permit taken would count twice. Its call counters are the one
            # thing kept: those calls were made and billed, and the budget must see them.
            if kind in ("stats", "done"):
                self._add_stats(header.get("d") or {})
            return
        worker.heard = True
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
            if worker.held[header["name"]] > 0:  # never more than it holds: no double release
                worker.held[header["name"]] -= 1
                self._limiter(header).release()
        elif kind == "ok":
            self._limiter(header).succeeded(int(header["tokens"]))
        elif kind == "over":
            self._limiter(header).overloaded(header.get("after"))
            self._recheck(header["name"], self._limiter(header))
        elif kind == "cacq":
            if (asking := worker.acquiring.get(header["id"])) is not None:
                asking.cancel()
        elif kind == "stats":
            self._add_stats(header["d"])
        elif kind == "beat":
            worker.cpu_s = float(header["cpu"])
        elif kind == "got":
            if (job := worker.units.get(header["unit"])) is not None:
                job.got = True
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
            if job is not None and job.future is not None and not job.future.done():
                self.barren = 0
                info = RecordInfo(**header["info"])
                job.future.set_result(Finished(info, payload, info.cost_usd))
            self._changed.set()  # a reserved worker may have drained
        elif kind == "ready":
            theirs = header["fingerprint"]
            if theirs != self.expected:
                keys = sorted(set(theirs) | set(self.expected))
                diff = [k for k in keys if theirs.get(k) != self.expected.get(k)]
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
            and limiter.requests is None
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


class _Lost:
    """``_attempt``'s answer when the unit's worker was lost."""


_LOST = _Lost()


class _Refused(Exception):
    """A worker that may not run units (other inputs, or its setup failed)."""
