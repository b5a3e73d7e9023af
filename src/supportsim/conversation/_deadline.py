"""The conversation's wall-clock bound, and what it counts: the Agent's time only.

A conversation is bounded by ``Limits.timeout_s`` so a stuck Agent cannot hold a batch.
A ``timeout`` verdict is scored against the Agent, so it must mean the Agent was slow.
The bound therefore counts the Agent's turns (its steps, its model's answers) and tool
time, and nothing else:

* the simulated Customer's steps are paused (``deadline_paused`` in the orchestrator);
* whoever makes a conversation wait on a provider (the model pool, ``llm.ModelPool``,
  handed ``CONVERSATION_BUDGET`` as its ``llm.TimeBudget``) pauses the bound for the
  whole call, queueing, back-off and failed attempts included, and then ``charge``s the
  Agent's successful attempt, the model's real answer time. A call that never answers is
  bounded by its own per-call timeout and becomes an infra error.

``time_left`` lets such a waiter keep the bound meaningful while paused: it never waits
longer than the conversation has left (it gives up as an infra error instead).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from contextlib import AbstractContextManager
from contextvars import ContextVar

from supportsim.llm import TimeBudget

_DEADLINE: ContextVar[asyncio.Timeout | None] = ContextVar("supportsim_deadline", default=None)
_PAUSED_LEFT: ContextVar[float | None] = ContextVar("supportsim_paused_left", default=None)


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

    Outside a conversation, with no bound set, or inside another pause it does nothing.
    Safe because one conversation's steps are sequential: nothing else moves its
    deadline meanwhile.
    """
    deadline = _DEADLINE.get()
    when = deadline.when() if deadline is not None and not deadline.expired() else None
    if deadline is None or when is None:
        yield
        return
    loop = asyncio.get_running_loop()
    started = loop.time()
    deadline.reschedule(None)
    token = _PAUSED_LEFT.set(max(0.0, when - started))
    try:
        yield
    finally:
        _PAUSED_LEFT.reset(token)
        if not deadline.expired():
            deadline.reschedule(when + (loop.time() - started))


def charge(seconds: float) -> None:
    """Count ``seconds`` spent inside a pause against the bound after all: the Agent's
    model answering is the Agent's time. A bound this exhausts fires at once.

    Outside a conversation, or while still paused, it does nothing.
    """
    deadline = _DEADLINE.get()
    if deadline is None or deadline.expired() or seconds <= 0:
        return
    when = deadline.when()
    if when is not None:
        deadline.reschedule(when - seconds)


def time_left() -> float | None:
    """Seconds the current conversation's bound has left (frozen while paused); None
    outside a conversation."""
    paused = _PAUSED_LEFT.get()
    if paused is not None:
        return paused
    deadline = _DEADLINE.get()
    when = deadline.when() if deadline is not None else None
    if when is None:
        return None
    return max(0.0, when - asyncio.get_running_loop().time())


class _ConversationBudget:
    """The current conversation's bound as an ``llm.TimeBudget``: what the model pool
    asks of the clock it calls on (outside a conversation it is no bound at all)."""

    def time_left(self) -> float | None:
        return time_left()

    def paused(self) -> AbstractContextManager[None]:
        return deadline_paused()

    def charge(self, seconds: float) -> None:
        charge(seconds)


CONVERSATION_BUDGET: TimeBudget = _ConversationBudget()
"""The budget a run's model pool is built with (``batch._context.build_context``)."""
