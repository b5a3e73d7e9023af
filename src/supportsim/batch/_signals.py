"""Ctrl-C for long sessions: the first press stops starting work, the second cancels.

SIGTERM (``kill``, a CI timeout, a container stop, systemd) counts as a press too, so a
terminated run ends as gracefully as a first Ctrl-C: running units finish and run.json
is closed. Shared by runs and judging sessions, so both behave the same.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import Callable, Iterator

SIGNALS = (signal.SIGINT, signal.SIGTERM)


@contextlib.contextmanager
def two_stage_interrupt(
    first: Callable[[], object], second: Callable[[], object]
) -> Iterator[None]:
    """While inside, SIGINT or SIGTERM calls ``first`` once, then ``second`` on every
    further signal.

    Outside the main thread (where signal handlers cannot be set) it does nothing.
    """
    loop = asyncio.get_running_loop()
    presses = 0

    def interrupt() -> None:
        nonlocal presses
        presses += 1
        (first if presses == 1 else second)()

    for signum in SIGNALS:
        with contextlib.suppress(NotImplementedError, RuntimeError):  # not the main thread
            loop.add_signal_handler(signum, interrupt)
    try:
        yield
    finally:
        for signum in SIGNALS:
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.remove_signal_handler(signum)
