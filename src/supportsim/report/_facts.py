"""What the aggregates read of a record, kept small: one ``UnitFacts`` per unit.

A conversation record holds the transcript, the tool call log and the final state, tens of
kB each on disk and several times that as a parsed model, and none of it is needed for the
figures. ``summarise`` turns each record into its facts as it reads them, so summarising a
run holds one record at a time plus about a kB of facts per unit (strings that repeat
across units, check ids and reasons, scenario and agent names, are stored once), not every
record: 10,000 units of tens of kB would be gigabytes.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from supportsim.scoring import CheckKind
from supportsim.store import ConversationRecord

Status = Literal["completed", "infra_error", "simulator_fault", "harness_error"]
Termination = Literal["customer_done", "agent_transfer", "max_turns", "timeout", "error"]


@dataclass(frozen=True, slots=True)
class CheckFact:
    id: str
    kind: CheckKind
    passed: bool
    reason: str


@dataclass(frozen=True, slots=True)
class ReplyFact:
    """An Agent message that ends a turn, with the turn's timings."""

    response_ms: float
    ttft_ms: float | None
    llm_ms: float | None


@dataclass(frozen=True, slots=True)
class UnitFacts:
    """One record as the aggregates see it; the names are the record's own.

    ``agent_calls`` counts the Agent's model calls; their token sums are None when one
    call's count is unknown (an unknown is not zero).
    """

    unit_id: str
    scenario_id: str
    agent: str
    trial: int
    status: Status
    termination: Termination
    strict: bool | None
    """null when not scored (any status but completed), as in the record."""
    partial: float | None
    domain: str
    category: str
    unscored: bool
    cost_usd: float | None
    agent_cost_usd: float | None
    checks: tuple[CheckFact, ...]
    replies: tuple[ReplyFact, ...]
    agent_calls: int
    agent_input_tokens: int | None
    agent_output_tokens: int | None
    call_client_ms: tuple[float | None, ...]
    """Each recorded model call's ``client_ms`` (cached replies left out): the summary's
    ``measurement``."""
    call_loop_lag_ms: tuple[float | None, ...] = ()
    """The same calls' ``loop_lag_ms``, in the same order."""


class Facts:
    """Turns records into ``UnitFacts``, storing each repeated string once."""

    def __init__(self) -> None:
        self._strings: dict[str, str] = {}

    def __len__(self) -> int:
        """Distinct strings kept: as many as the run has names and reasons, not units."""
        return len(self._strings)

    def _one(self, text: str) -> str:
        return self._strings.setdefault(text, text)

    def __call__(self, record: ConversationRecord | UnitFacts) -> UnitFacts:
        if isinstance(record, UnitFacts):
            return record
        s = self._one
        calls = [c for c in record.llm_calls if c.role == "agent"]
        return UnitFacts(
            unit_id=record.unit_id,
            scenario_id=s(record.scenario_id),
            agent=s(record.agent),
            trial=record.trial,
            status=record.status,
            termination=record.termination,
            strict=record.strict,
            partial=record.partial,
            domain=s(record.domain),
            category=s(record.category),
            unscored=bool(record.unscored),
            cost_usd=record.cost_usd,
            agent_cost_usd=record.agent_cost_usd,
            checks=tuple(CheckFact(s(c.id), c.kind, c.passed, s(c.reason)) for c in record.checks),
            replies=tuple(
                ReplyFact(m.response_ms, m.ttft_ms, m.llm_ms)
                for m in record.messages
                if m.role == "agent" and m.response_ms is not None
            ),
            agent_calls=len(calls),
            agent_input_tokens=_known([c.input_tokens for c in calls]),
            agent_output_tokens=_known([c.output_tokens for c in calls]),
            call_client_ms=tuple(c.client_ms for c in record.llm_calls if not c.cached),
            call_loop_lag_ms=tuple(c.loop_lag_ms for c in record.llm_calls if not c.cached),
        )


def _known(values: list[int | None]) -> int | None:
    """The sum, or None when a value is unknown (0 when there is none)."""
    if any(v is None for v in values):
        return None
    return sum(v for v in values if v is not None)


def unit_facts(records: Iterable[ConversationRecord | UnitFacts]) -> list[UnitFacts]:
    """Facts of several records (already-made facts pass through)."""
    facts = Facts()
    return [facts(r) for r in records]
