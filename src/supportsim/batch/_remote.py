"""What the driver and its workers agree on beyond the wire format: the record fields
the driver's accounting reads, how a worker is started and watched (a process or a Ray
actor), and when a rate limiter is open (takes permits without a round trip)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from supportsim.llm import RateLimit


@dataclass(frozen=True, slots=True)
class RecordInfo:
    """What the driver's accounting and progress read of a record a worker made."""

    unit_id: str
    status: str
    agent: str
    strict: bool
    partial: float
    termination: str
    duration_s: float
    cost_usd: float | None


class Handle(Protocol):
    """A started worker (a process or an actor)."""

    def describe(self) -> str: ...

    async def wait(self) -> str:
        """Until the worker ends; says how (``exit code -9``, ``actor died: ...``)."""
        ...

    def kill(self) -> None: ...


class Launcher(Protocol):
    mode: str
    host: str

    async def start(self, worker_id: str, port: int, token: str) -> Handle: ...

    def close(self) -> None: ...


def initially_open(limit: RateLimit, default: int | None, open_at: int | None) -> bool:
    """Whether a new limiter cannot make a call wait (see ``Hub.open_at``): the worker's
    stand-in starts from this, the driver's limiter starts from the same config."""
    bound = limit.max_concurrency or default
    return (
        open_at is not None
        and limit.rpm is None
        and limit.tpm is None
        and (bound is None or bound >= open_at)
    )
