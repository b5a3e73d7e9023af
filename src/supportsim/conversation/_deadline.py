"""The conversation's wall-clock bound, and pausing it while a provider makes us wait.

A conversation is bounded by ``Limits.timeout_s`` so a stuck Agent cannot hold a batch.
Time spent queueing for a provider's rate limit, or backing off before a retry, is not the
Agent being slow: counted, it would turn throttling into ``timeout`` verdicts scored as
Agent failures. Whoever makes a conversation wait on a provider (the batch runner's model
pool) wraps the wait in ``deadline_paused()``.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from contextvars import ContextVar

_DEADLINE: ContextVar[asyncio.Timeout | None] = ContextVar("supportsim_deadline", default=None)


@contextlib.contextmanager
def bounded_by(deadline: asyncio.Timeout) -> Iterator[None]:
    """Make ``deadline`` the current conversation's bound (for ``deadline_paused``)."""
    token = _DEADLINE.set(deadline)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


@contextlib.contextmanager
def deadline_paused() -> Iterator[None]:
    """Time spent inside does not count against the current conversation's bound.

    Outside a conversation, or with no bound set, it does nothing. Safe because one
    conversation's model calls are sequential: nothing else moves its deadline meanwhile.
    """
    deadline = _DEADLINE.get()
    when = deadline.when() if deadline is not None and not deadline.expired() else None
    if deadline is None or when is None:
        yield
        return
    loop = asyncio.get_running_loop()
    started = loop.time()
    deadline.reschedule(None)
    try:
        yield
    finally:
        if not deadline.expired():
            deadline.reschedule(when + (loop.time() - started))
