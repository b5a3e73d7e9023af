"""The time budget of whoever waits on a model call: what the pool asks of it.

A model call can be made on someone's clock: a conversation is bounded in wall-clock time,
and that bound must count only the Agent's time (``conversation/_deadline.py``). The pool
(``_pool.py``) does not know conversations; it is handed a ``TimeBudget`` and asks it three
things: how long a call may still wait (``time_left``), to stop counting while the call
queues, backs off and retries (``paused``), and to count the model's successful answer
after all (``charge``, for an ``agent`` caller only). ``NO_TIME_BUDGET`` (the default) is
nobody's clock: judges and drafting, which have no bound of their own, use it.
"""

from __future__ import annotations

import contextlib
from contextlib import AbstractContextManager
from typing import Protocol


class TimeBudget(Protocol):
    """The clock a model call is made on (see the module docstring)."""

    def time_left(self) -> float | None:
        """Seconds the caller may still wait (read before the call pauses the clock, and
        frozen while it is paused); None: unbounded."""
        ...

    def paused(self) -> AbstractContextManager[None]:
        """Time spent inside does not count against the budget."""
        ...

    def charge(self, seconds: float) -> None:
        """Count ``seconds`` spent inside a pause against the budget after all."""
        ...


class _NoTimeBudget:
    """Unbounded and never paused or charged: nobody's clock."""

    def time_left(self) -> float | None:
        return None

    def paused(self) -> AbstractContextManager[None]:
        return contextlib.nullcontext()

    def charge(self, seconds: float) -> None:
        return None


NO_TIME_BUDGET: TimeBudget = _NoTimeBudget()
