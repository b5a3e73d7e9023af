"""Where workers run: how many, how long they may take, local processes, and
(``_ray.py``) Ray actors.

``--workers auto`` uses every usable core (``os.sched_getaffinity``), but only when the
session has the work to pay for a process per core: at least ``UNITS_PER_WORKER`` units
to run and ``CONCURRENCY_PER_WORKER`` conversations in flight per worker. A smaller run
(every test's, the default concurrency 8) stays in this process, exactly as before.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import os
import subprocess
import sys
from collections import deque
from typing import Any

from supportsim import _early_workers
from supportsim._early_workers import usable_cores
from supportsim.batch._concurrency import Concurrency
from supportsim.batch._config import RunConfig
from supportsim.batch._remote import Timing
from supportsim.batch._worker import worker_told
from supportsim.errors import InputError
from supportsim.llm import ModelPool

UNITS_PER_WORKER = 50
CONCURRENCY_PER_WORKER = 16
SILENCE_MARGIN_S = 60.0
"""Beyond ``timeout_s``: scoring, encoding, a slow collection, a loaded machine."""
TAIL_LINES, TAIL_LINE_CHARS = 5, 1000
"""What is kept of a worker's stderr (for the reason it exited): its last lines, each cut."""
READ_CHUNK = 64 * 1024


def worker_count(
    config: RunConfig,
    todo: int,
    *,
    cores: int | None = None,
    concurrency: Concurrency | None = None,
) -> int:
    """How many workers this session runs (1: in this process); see the module docstring.
    With Ray, ``cores`` is the cluster's CPUs and ``auto`` takes them all. ``concurrency``:
    the session's (``execute`` passes ``Session.concurrency``); None reads the config's."""
    if config.workers != "auto":
        return max(1, min(int(config.workers), todo))
    if config.ray is not None:
        return max(1, min(cores or 1, todo))
    cores = usable_cores() if cores is None else cores
    ceiling = (concurrency or config.bounds).ceiling
    by_work = min(todo // UNITS_PER_WORKER, ceiling // CONCURRENCY_PER_WORKER)
    return max(1, min(cores, by_work))


def worker_timing(config: RunConfig) -> Timing:
    """How long workers may take to get ready (``worker_ready_s``) and stay silent:
    ``worker_silence_s``, by default ``timeout_s + SILENCE_MARGIN_S``. A worker sends a
    frame at least every half heartbeat while its event loop runs; only a stopped or
    hung process, or a loop blocked (a plug-in's synchronous call), is silent, and one
    blocked longer than a conversation may last holds units past their own bound."""
    silence = config.worker_silence_s or config.timeout_s + SILENCE_MARGIN_S
    return Timing(ready_s=config.worker_ready_s, silence_s=silence)


def worker_setup(
    config: RunConfig, pool: ModelPool, *, run_id: str, concurrency: Concurrency
) -> dict[str, Any]:
    """What a worker needs to rebuild this session's unit context (``_worker.py``): the
    effective config, the session's concurrency as resolved (a worker does not resolve it
    again), the working directory and import path, and the credentials the run's models
    read (sent over the hub's authenticated connection, never written)."""
    return {
        "config": config.model_dump(mode="json"),
        "concurrency": dataclasses.asdict(concurrency),
        "run_id": run_id,
        "cwd": os.getcwd(),
        "sys_path": [p for p in sys.path if p],
        "env": pool.credential_env(),
        "cache": str(pool.cache.root) if pool.cache is not None else None,
        "cache_agents": "agent" in pool.cache_roles,
        "ray_address": config.ray,
    }


def check_ray_installed() -> None:
    """Raises InputError (exit 2, before anything is written) without the ray extra."""
    try:
        import ray  # noqa: F401
    except ImportError:
        raise InputError(
            "--ray needs Ray: pip install 'supportsim[ray]' (ray is not installed)"
        ) from None


class StderrTail:
    """The last ``TAIL_LINES`` lines of a stream fed in chunks, each cut to
    ``TAIL_LINE_CHARS``: a line of any length costs at most that much memory."""

    def __init__(self) -> None:
        self.lines: deque[str] = deque(maxlen=TAIL_LINES)
        self._line = bytearray()
        self._cut = False

    def feed(self, chunk: bytes) -> None:
        *ended, rest = chunk.split(b"\n")
        for piece in ended:
            self._add(piece)
            self._end()
        self._add(rest)

    def close(self) -> None:
        if self._line or self._cut:
            self._end()

    def _add(self, piece: bytes) -> None:
        room = TAIL_LINE_CHARS * 4 - len(self._line)  # bytes: up to 4 a character
        self._line += piece[: max(0, room)]
        self._cut = self._cut or len(piece) > room

    def _end(self) -> None:
        text = self._line.decode("utf-8", "replace").rstrip()
        if self._cut or len(text) > TAIL_LINE_CHARS:
            text = text[:TAIL_LINE_CHARS] + " [cut]"
        if text:
            self.lines.append(text)
        self._line.clear()
        self._cut = False


class _LoopProcess:
    """A worker process started on the event loop (``asyncio.create_subprocess_exec``)."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process

    async def stderr(self) -> asyncio.StreamReader:
        assert self.process.stderr is not None
        return self.process.stderr

    async def code(self) -> int:
        return await self.process.wait()

    def kill(self) -> None:
        if self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.process.kill()


class _EarlyProcess:
    """A worker started before the event loop by ``_early_workers.start_early``: its stderr
    is read through the loop's pipe transport and its exit awaited on a pidfd (Linux), so
    nothing blocks and no thread waits."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self.process = process

    async def stderr(self) -> asyncio.StreamReader:
        assert self.process.stderr is not None
        reader = asyncio.StreamReader(limit=READ_CHUNK)
        await asyncio.get_running_loop().connect_read_pipe(
            lambda: asyncio.StreamReaderProtocol(reader), self.process.stderr
        )
        return reader

    async def code(self) -> int:
        if (code := self.process.poll()) is not None:
            return code
        loop = asyncio.get_running_loop()
        pidfd = os.pidfd_open(self.process.pid)
        try:
            ended: asyncio.Future[None] = loop.create_future()

            def readable() -> None:
                if not ended.done():
                    ended.set_result(None)

            loop.add_reader(pidfd, readable)
            try:
                await ended
            finally:
                loop.remove_reader(pidfd)
        finally:
            os.close(pidfd)
        return self.process.wait()  # it has exited: this reaps it at once

    def kill(self) -> None:
        if self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                self.process.kill()


class LocalHandle:
    """A worker process on this machine, in its own session so a terminal's Ctrl-C reaches
    only the driver: one the launcher started on the loop, or one started early
    (``_early_workers``), alive or not when it was taken."""

    def __init__(self, process: asyncio.subprocess.Process | subprocess.Popen[bytes]) -> None:
        self._process = (
            _EarlyProcess(process)
            if isinstance(process, subprocess.Popen)
            else _LoopProcess(process)
        )
        self.pid = process.pid
        self._tail = StderrTail()
        self.tail = self._tail.lines

    def describe(self) -> str:
        return f"pid {self.pid}"

    async def wait(self) -> str:
        """Drains stderr in bounded chunks (so the worker never blocks on a full pipe,
        whatever its lines' length) and keeps its tail for the reason it exited."""
        stderr = await self._process.stderr()
        while chunk := await stderr.read(READ_CHUNK):
            self._tail.feed(chunk)
        self._tail.close()
        code = await self._process.code()
        said = f": {self.tail[-1]}" if code and self.tail else ""
        return f"(pid {self.pid}) exited with code {code}{said}"

    def kill(self) -> None:
        self._process.kill()


class LocalLauncher:
    """Worker processes on this machine (``python -m supportsim worker``): one started
    early by the ``run`` command (``_early_workers``) when one is waiting, else a new one;
    each told the hub's address, the run's token and its name on its stdin, never on its
    command line or in its environment (where ``ps`` and ``/proc`` show them)."""

    mode = "local"
    host = "127.0.0.1"

    async def start(self, worker_id: str, port: int, token: str) -> LocalHandle:
        told = worker_told(f"{self.host}:{port}", token, worker_id)
        if (early := _early_workers.take()) is not None:
            assert early.stdin is not None
            # A line far below a pipe's capacity: the write never blocks. One that died
            # before it could read it (at import, say) is a worker like any other: the hub
            # hears of its death from its wait, with its stderr's last line, and replaces it.
            try:
                early.stdin.write(told)
                early.stdin.close()
            except BrokenPipeError:
                with contextlib.suppress(BrokenPipeError):  # a second flush: the pipe closes
                    early.stdin.close()
            return LocalHandle(early)
        process = await asyncio.create_subprocess_exec(
            *_early_workers.worker_command(),
            env=_early_workers.worker_environment(),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
            start_new_session=True,
        )
        assert process.stdin is not None
        process.stdin.write(told)
        process.stdin.close()
        return LocalHandle(process)

    def close(self) -> None:
        """The run's workers are all started by now: early ones left over are killed."""
        _early_workers.discard()


def launcher_for(config: RunConfig) -> Any:
    """The launcher of a session with workers: Ray's when ``ray`` is set, else local."""
    if config.ray is not None:
        from supportsim.batch._ray import RayLauncher

        return RayLauncher(config.ray)
    return LocalLauncher()
