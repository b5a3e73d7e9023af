"""Ctrl-C for long sessions: the first press stops starting work, the second cancels.

Shared by runs and judging sessions, so both behave the same under a user's hand.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import Callable, Iterator


@contextlib.contextmanager
def two_stage_interrupt(first: Callable[[], None], second: Callable[[], None]) -> Iterator[None]:
    """While inside, SIGINT calls ``first`` once, then ``second`` on every further press.

    Outside the main thread (where signal handlers cannot be set) it does nothing.
    """
    loop = asyncio.get_running_loop()
    presses = 0

    def interrupt() -> None:
        nonlocal presses
        presses += 1
        (first if presses == 1 else second)()

    with contextlib.suppress(NotImplementedError, RuntimeError):  # not the main thread
        loop.add_signal_handler(signal.SIGINT, interrupt)
    try:
        yield
    finally:
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.remove_signal_handler(signal.SIGINT)
