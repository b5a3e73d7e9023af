"""Worker processes started before the run is set up, so their imports overlap the driver's.

A worker of ``supportsim run --workers N`` spends its first seconds importing what a
conversation needs (LangGraph alone takes about 1.3 s on a quiet 2-core machine), then
waits for the hub's address. Started only when the hub exists, after the driver's own
imports and set-up, a worker's start-up is added to the run's; started at the top of the
``run`` command, before the driver imports anything heavy, the two overlap.

So the ``run`` command calls ``start_early(early_count(...))`` when ``--workers N`` (N >= 2,
no ``--ray``) is on its command line (one per usable core but one), and the local launcher
(``batch/_launch.py``) ``take``s one of these processes for each worker it starts, writing
the hub's address, the run's token and the worker's name to its stdin (never its command
line or environment, where ``ps`` and ``/proc`` show them). A worker count given only in a
run-config file is known after the config is read, when the imports are paid: those
workers start when the hub does.

Nothing is lost when fewer are needed (fewer units than workers, a run that ends on bad
input, a single-process fallback): a process never taken is killed by ``discard``, which
the launcher calls when its hub closes, the ``run`` command when it ends, and ``atexit``;
and a worker whose stdin ends before it was told where the hub is exits at once
(``batch._worker.main``), so even a SIGKILLed driver leaves none behind.

This module imports nothing of supportsim: it runs before the heavy imports it overlaps.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import subprocess
import sys
from collections import deque

MAX_WORKERS = 1024
"""The run config's bound on ``workers``: a larger count is bad input, reported once the
config is read; none is started early for it."""

_waiting: deque[subprocess.Popen[bytes]] = deque()


def usable_cores() -> int:
    """The cores this process may run on (``os.sched_getaffinity``; all of them elsewhere)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def early_count(workers: str | None, ray: str | None) -> int:
    """How many workers the ``run`` command starts early for its ``--workers`` and ``--ray``
    values: for an explicit count of at least 2 (ASCII digits; anything else is left to the
    config's own check, which names the field) without Ray, one per usable core but one,
    which stays the driver's (measured on 2 cores: two early workers and the driver's own
    imports share the cores and all three finish late, while one early worker is ready when
    the driver is, and the first unit needs only one), and at least one; 0 otherwise. Each
    idle worker holds ~90 MB while the run may turn out to need fewer. The hub starts the
    rest, as it always did."""
    text = (workers or "").strip()
    if ray is not None or not (text.isascii() and text.isdigit()):
        return 0
    asked = int(text)
    if not 2 <= asked <= MAX_WORKERS:
        return 0
    return min(asked, max(1, usable_cores() - 1))


def worker_command() -> list[str]:
    """The command line of a local worker (nothing secret in it)."""
    return [sys.executable, "-m", "supportsim", "worker"]


def worker_environment() -> dict[str, str]:
    """A worker's environment: this one, with the driver's import path as PYTHONPATH."""
    return {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}


def start_early(count: int) -> list[subprocess.Popen[bytes]]:
    """Starts ``count`` worker processes now: none for fewer than 1 or more than
    ``MAX_WORKERS``, or where ``os.pidfd_open`` is missing (the launcher needs it to await
    a process it did not start on its event loop). Returns the processes started."""
    if not 1 <= count <= MAX_WORKERS or not hasattr(os, "pidfd_open"):
        return []
    started = [
        subprocess.Popen(
            worker_command(),
            env=worker_environment(),
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            start_new_session=True,  # a terminal's Ctrl-C reaches only the driver
        )
        for _ in range(count)
    ]
    _waiting.extend(started)
    return started


def take() -> subprocess.Popen[bytes] | None:
    """A worker started early, or None (the launcher starts one). It may have exited
    already (a crash at import): it is still handed over, its stderr unread, so that its
    death is reported with what it said, like any worker's."""
    return _waiting.popleft() if _waiting else None


def waiting() -> int:
    """How many early workers are waiting to be taken."""
    return len(_waiting)


def discard() -> None:
    """Kills and reaps every early worker not taken."""
    while _waiting:
        process = _waiting.popleft()
        with contextlib.suppress(ProcessLookupError):
            process.kill()
        _close(process)


def _close(process: subprocess.Popen[bytes]) -> None:
    process.wait()
    for stream in (process.stdin, process.stderr):
        if stream is not None:
            stream.close()


atexit.register(discard)
