"""A worker: runs the driver's units on its own event loop (``_hub.py`` is the other end).

It connects to the hub, proves the token, receives the run's setup (the effective config,
the working directory and import path, the credentials the run's models read: in memory
only), rebuilds the unit context exactly as ``supportsim run`` does (``build_context``),
warms its SDK clients and opens its own MCP host when the run needs one; only then it
says it is ready, with its inputs' fingerprint (a set-up that fails says ``failed``, and
the hub does not retry it). Then it runs each unit it is sent through ``finish_unit``
and sends back the encoded line. Its limiters are stand-ins for the driver's, its call
counters and loop lag are sent to the driver, with a beat at least every heartbeat.
When the connection ends (the driver exited, even by SIGKILL), the driver is silent for
the run's silence bound, or the driver says ``cancel``, its units are cancelled (they run
again on resume) and it exits.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import sys
import time
import traceback
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import orjson

from supportsim.batch._concurrency import Concurrency
from supportsim.batch._config import RunConfig
from supportsim.batch._context import Built, build_context
from supportsim.batch._frames import FrameError, frame, read_frame
from supportsim.batch._lag import LoopLag
from supportsim.batch._mcp import with_mcp_host
from supportsim.batch._remote import initially_open, worker_fingerprint
from supportsim.batch._unit import UnitContext, finish_unit
from supportsim.batch._units import Unit
from supportsim.errors import InputError
from supportsim.llm import CallStats, RateLimit, ResponseCache, WaitTooLong
from supportsim.workspace import find_workspace

TOLD_MAX = 4096
"""The most a worker reads of its stdin for where the hub is (one short JSON line)."""
FLUSH_S = 0.05
"""How often call counters and lag samples go to the driver."""


class _Link:
    """The worker's connection: frames out, replies to permit requests in."""

    def __init__(self, writer: asyncio.StreamWriter) -> None:
        self.writer = writer
        self.ids = itertools.count()
        self.waiting: dict[int, asyncio.Future[float | None]] = {}
        self.names: dict[int, str] = {}
        self.limiters: dict[str, RemoteLimiter] = {}
        self.open_at: int | None = None
        self.permits = 0
        self.permit_s = 0.0
        """Permits granted and the time spent asking for them (round trips + queueing)."""
        self.ready = False
        """``ready`` was sent: set-up is over."""
        self.heard = False
        """A frame came from the driver since the last heartbeat tick."""

    def send(self, header: dict[str, Any], payload: bytes = b"") -> None:
        if not self.writer.is_closing():
            self.writer.write(frame(header, payload))

    def answer(self, request_id: int, wait_s: float | None, name: str) -> None:
        future = self.waiting.pop(request_id, None)
        if future is not None and not future.done():
            future.set_result(wait_s)
        elif wait_s is None:  # granted after we stopped waiting: hand it back
            self.send({"t": "rel", "name": name})


class RemoteLimiter:
    """Stands in for the driver's limiter of the same name (see ``llm.Limiter``)."""

    def __init__(self, link: _Link, name: str, limit: RateLimit, default: int | None) -> None:
        self.link = link
        self.name = name
        self.ask = {"name": name, "limit": limit.model_dump(exclude_none=True), "default": default}
        self.open = initially_open(limit, default, link.open_at)
        """This limiter cannot make a call wait (the hub says when that changes): take
        its permits without asking."""
        link.limiters[name] = self

    async def acquire(self, limit_s: float | None = None) -> None:
        if self.open:
            self.link.send({"t": "took", **self.ask})
            self.link.permits += 1
            return
        request_id = next(self.link.ids)
        future: asyncio.Future[float | None] = asyncio.get_running_loop().create_future()
        self.link.waiting[request_id] = future
        self.link.names[request_id] = self.name
        self.link.send({"t": "acq", "id": request_id, "wait": limit_s, **self.ask})
        asked = time.perf_counter()
        try:
            denied = await future
        except asyncio.CancelledError:
            if self.link.waiting.pop(request_id, None) is not None:
                self.link.send({"t": "cacq", "id": request_id})
            elif future.done() and future.result() is None:
                self.release()  # granted just as we were cancelled
            raise
        if denied is not None:
            raise WaitTooLong(denied)
        self.link.permits += 1
        self.link.permit_s += time.perf_counter() - asked

    def release(self) -> None:
        self.link.send({"t": "rel", **self.ask})

    def succeeded(self, tokens: int) -> None:
        self.link.send({"t": "ok", "tokens": tokens, **self.ask})

    def overloaded(self, retry_after_s: float | None) -> None:
        self.link.send({"t": "over", "after": retry_after_s, **self.ask})

    def snapshot(self) -> dict[str, Any]:
        return {}


@dataclass(slots=True)
class _Counters:
    last: CallStats

    def delta(self, now: CallStats) -> dict[str, Any]:
        out = {}
        for name, value in asdict(now).items():
            if value != getattr(self.last, name):
                out[name] = value - getattr(self.last, name)
        self.last = CallStats(**asdict(now))
        return out


def _apply_setup(setup: dict[str, Any]) -> None:
    """The driver's working directory and import path (python: agents of its modules)."""
    with contextlib.suppress(OSError):
        os.chdir(setup["cwd"])
    for entry in reversed(setup.get("sys_path") or []):
        if entry not in sys.path:
            sys.path.insert(0, entry)


def _built(setup: dict[str, Any], link: _Link) -> Built:
    config = RunConfig.model_validate(setup["config"])
    cache = ResponseCache(Path(setup["cache"])) if setup.get("cache") else None
    built = build_context(
        config,
        setup["env"],
        find_workspace(),
        concurrency=Concurrency(**setup["concurrency"]),
        cache=cache,
        cache_agents=bool(setup.get("cache_agents")),
        make_limiter=lambda name, limit, default: RemoteLimiter(link, name, limit, default),
    )
    return built


async def serve(host: str, port: int, token: str, worker_id: str) -> int:
    """Run units for the hub at ``host:port`` until it says bye or goes away; the exit
    code (0, or 2 when the setup failed or was refused)."""
    reader, writer = await asyncio.open_connection(host, port)
    link = _Link(writer)
    link.send({"t": "hello", "token": token, "worker": worker_id, "pid": os.getpid()})
    try:
        header, _ = await read_frame(reader)
    except (asyncio.IncompleteReadError, ConnectionError, FrameError):
        return 2  # the hub would not have us (a wrong token, or it is closing)
    if header.get("t") != "setup":
        return 2
    _apply_setup(header)
    link.open_at = header.get("open_at")
    pool = None
    try:
        built = _built(header, link)
        ctx, pool = built.ctx, built.pool
        if header.get("deadline_in_s") is not None:
            pool.deadline_at = pool.clock() + header["deadline_in_s"]
        ready = {
            "t": "ready",
            "fingerprint": worker_fingerprint(
                built.fingerprint, ctx.domains, (s.domain for s in ctx.scenarios.values())
            ),
        }
        await pool.warm()
        beats = Beats(float(header["heartbeat_s"]), float(header["silence_s"]))
        return await with_mcp_host(ctx, _loop(reader, link, ctx, pool, ready, beats))
    except Exception as exc:
        if link.ready:
            raise
        # Not ready yet: a set-up that fails here fails the same way again (an import, a
        # model the SDK cannot build): say so, and the hub does not start another.
        if not isinstance(exc, InputError):
            traceback.print_exc()
        error = str(exc) if isinstance(exc, InputError) else f"{type(exc).__name__}: {exc}"
        link.send({"t": "failed", "error": f"set-up failed: {error}"})
        with contextlib.suppress(ConnectionError):
            await writer.drain()
        return 2
    finally:
        if pool is not None:
            await pool.aclose()
        writer.close()


@dataclass(frozen=True, slots=True)
class Beats:
    """The hub's heartbeat and silence bound (``_remote.Timing``), as the setup says."""

    heartbeat_s: float
    silence_s: float


async def _loop(
    reader: asyncio.StreamReader,
    link: _Link,
    ctx: UnitContext,
    pool: Any,
    ready: dict[str, Any],
    beats: Beats,
) -> int:
    counters = _Counters(CallStats())
    lag = LoopLag()
    ctx.lag = lag  # the units' messages get this worker's own loop lag
    units: dict[str, asyncio.Task[None]] = {}
    bye = False

    async def one(unit: Unit) -> None:
        finished = await finish_unit(unit, ctx)
        record = finished.record
        info = {
            "unit_id": record.unit_id,
            "status": record.status,
            "agent": record.agent,
            "strict": record.strict,
            "partial": record.partial,
            "termination": record.termination,
            "duration_s": record.duration_s,
            "cost_usd": record.cost_usd,
        }
        link.send({"t": "done", "info": info, "d": counters.delta(pool.stats)}, finished.line)

    cpu0 = time.process_time()  # after start-up: what running units cost

    def beat() -> None:
        link.send({"t": "beat", "cpu": time.process_time() - cpu0})

    async def flush() -> None:
        sent, permits, permit_s = 0, 0, 0.0
        every = max(1, round(beats.heartbeat_s / 2 / FLUSH_S))  # two beats a heartbeat
        for n in itertools.count():
            await asyncio.sleep(FLUSH_S)
            if n % every == 0:
                beat()
            if link.permits > permits:
                n_new, waited = link.permits - permits, link.permit_s - permit_s
                link.send({"t": "permits", "n": n_new, "s": waited})
                permits, permit_s = link.permits, link.permit_s
            if delta := counters.delta(pool.stats):
                link.send({"t": "stats", "d": delta})
            if len(lag.samples) > sent:
                link.send({"t": "lag", "ms": list(lag.samples[sent:])})
                sent = len(lag.samples)

    async def watch_driver() -> None:
        """Leave a driver that sent nothing (not even a ping) for the silence bound."""
        missed = 0
        while True:
            await asyncio.sleep(beats.heartbeat_s)
            if link.heard:
                link.heard, missed = False, 0
                continue
            missed += 1
            if missed * beats.heartbeat_s >= beats.silence_s:
                print(
                    f"supportsim worker: the driver sent nothing for "
                    f"{missed * beats.heartbeat_s:.3g} s; cancelling its units",
                    file=sys.stderr,
                )
                link.writer.transport.abort()  # the read below ends: units are cancelled
                return

    link.send(ready)
    link.ready = True
    background = [
        asyncio.ensure_future(lag.run()),
        asyncio.ensure_future(flush()),
        asyncio.ensure_future(watch_driver()),
    ]
    try:
        while True:
            try:
                header, _ = await read_frame(reader)
            except (asyncio.IncompleteReadError, ConnectionError):
                return 0  # the driver is gone: cancel everything (finally) and exit
            link.heard = True
            kind = header.get("t")
            if kind == "unit":
                scenario_id, agent, trial, customer = header["unit"]
                unit = Unit(scenario_id, agent, int(trial), customer)
                task = asyncio.ensure_future(one(unit))
                units[unit.unit_id] = task

                def forget(_task: asyncio.Task[None], key: str = unit.unit_id) -> None:
                    units.pop(key, None)

                task.add_done_callback(forget)
                link.send({"t": "got", "unit": unit.unit_id})  # it reached a live worker
            elif kind in ("grant", "deny"):
                request_id = header["id"]
                link.answer(request_id, header.get("wait_s"), link.names.pop(request_id, ""))
            elif kind == "open":
                if (limiter := link.limiters.get(header["name"])) is not None:
                    limiter.open = bool(header["open"])
            elif kind == "drop":
                if (dropped := units.get(header["unit"])) is not None:
                    dropped.cancel()
            elif kind == "cancel":
                return 0
            elif kind == "bye":
                bye = True
                return 0
            elif kind == "refused":
                return 2
    finally:
        if bye:
            await asyncio.gather(*units.values(), return_exceptions=True)
            beat()  # the CPU the units took, to the end
        for task in [*units.values(), *background]:
            task.cancel()
        await asyncio.gather(*units.values(), *background, return_exceptions=True)


def worker_told(hub: str, token: str, worker_id: str) -> bytes:
    """What a local worker is told on its stdin: the hub's ``host:port``, the run's token
    and its name, one JSON line (the token never goes on a command line or into an
    environment, where ``ps`` and ``/proc`` show it)."""
    return orjson.dumps({"hub": hub, "token": token, "id": worker_id}) + b"\n"


def main() -> int:
    """``python -m supportsim worker``: imports done, waits for ``worker_told`` on stdin,
    then serves. A stdin that ends first (the driver is gone, or it started more early
    workers than it needed: ``_early_workers``) ends the worker at once, quietly."""
    line = sys.stdin.buffer.readline(TOLD_MAX)
    if not line.strip():
        return 0
    told = orjson.loads(line)
    host, _, port = str(told["hub"]).rpartition(":")
    return asyncio.run(serve(host, int(port), str(told["token"]), str(told["id"])))
