"""What the driver and its workers agree on beyond the wire format: the record fields
the driver's accounting reads, how a worker is started and watched (a process or a Ray
actor), how long each side waits on the other, the fingerprint a worker must share with
the driver, and when a rate limiter is open (takes permits without a round trip)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from importlib import metadata
from typing import Any, Protocol

import orjson

from supportsim.domains import Domain
from supportsim.llm import RateLimit

FINGERPRINT_KEYS = ("scenarios", "personas", "models")
"""What of the run's inputs (``batch._manifest.fingerprint``) a worker must share with the
driver; ``worker_fingerprint`` adds the supportsim version and the domains' data."""


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


@dataclass(frozen=True, slots=True)
class Timing:
    """How long the hub waits on a worker, and how often the two hear from each other.

    Both sides send a frame at least every ``heartbeat_s`` (the driver a ping, the worker
    its counters or a beat). A worker not ready ``ready_s`` after it was started, or
    silent for ``silence_s``, is lost (killed and replaced); a worker whose driver is
    silent for ``silence_s`` cancels its units and exits. Silence is counted in missed
    heartbeats, so a driver whose own loop stalled does not blame its workers for it.
    """

    ready_s: float = 180.0
    silence_s: float = 660.0

    @property
    def heartbeat_s(self) -> float:
        """A twentieth of the shorter bound, at most a second."""
        return min(1.0, self.silence_s / 20, self.ready_s / 20)


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


def worker_fingerprint(
    inputs: Mapping[str, Any], domains: Mapping[str, Domain], used: Iterable[str]
) -> dict[str, Any]:
    """What a worker must share with the driver to run its units: the input files'
    hashes and resolved models (``FINGERPRINT_KEYS`` of the run's fingerprint), the
    supportsim version, and a digest of each ``used`` domain's data (its policy,
    knowledge base, fixture, tools' schemas and descriptions, state model, rules), so a
    node with other code or other domain files is refused rather than scoring otherwise."""
    try:
        version = metadata.version("supportsim")
    except metadata.PackageNotFoundError:
        version = "not installed"
    return {
        **{key: inputs.get(key) for key in FINGERPRINT_KEYS},
        "supportsim": version,
        "domains": {name: domain_digest(domains[name]) for name in sorted(set(used))},
    }


def domain_digest(domain: Domain) -> str:
    """sha256 of what a domain gives a conversation and its scoring (not its code)."""
    data = {
        "name": domain.name,
        "policy": domain.policy,
        "knowledge": [(a.id, a.title, a.text, list(a.tags)) for a in domain.knowledge],
        "fixture": domain.fixture(),
        "state": domain.state_model.model_json_schema(),
        "tools": [
            (t.name, t.kind, t.description, t.parameters())
            for t in sorted(domain.tools.values(), key=lambda t: t.name)
        ],
        "ignore_in_state": list(domain.ignore_in_state),
        "gates": dict(domain.gates),
        "facts": {k: list(v) for k, v in domain.facts.items()},
        "template_cites": dict(domain.template_cites),
        "scorers": [getattr(s, "__qualname__", repr(s)) for s in domain.scorers],
    }
    options = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS
    return hashlib.sha256(orjson.dumps(data, option=options, default=str)).hexdigest()


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
