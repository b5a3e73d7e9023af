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
from supportsim.store import CheckRecord, ConversationRecord, CustomerMeasuresRecord

Status = Literal["completed", "infra_error", "simulator_fault", "harness_error"]
Termination = Literal["customer_done", "agent_transfer", "max_turns", "timeout", "error"]


@dataclass(frozen=True, slots=True)
class CheckFact:
    id: str
    kind: CheckKind
    passed: bool
    reason: str


@dataclass(frozen=True, slots=True)
class JudgedFact:
    """A communication check the statement judge decided, with the rules' verdict."""

    check_id: str
    kind: str
    """The question's kind (say, disclose, identity_detail, ...)."""
    rule: bool
    judged: bool
    answer: str
    quote: str
    """The first quote (cut to ``QUOTE_KEPT``), or the judge's problem when unclear."""
    message: int | None


QUOTE_KEPT = 200
"""Characters of a disagreement's quote the summary keeps."""


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
    language: str = "en"
    judged: tuple[JudgedFact, ...] = ()
    """The checks the statement judge decided (the agreement section)."""
    rules_only: int = 0
    """Communication checks the rules decided alone."""
    statement_judge: str | None = None
    customer: str = "scripted"
    """The unit's Customer (the ``customers`` section of a run of several)."""
    customer_hindered: bool = False
    reviewed: bool = False
    """The record has a customer review (records written before it have none)."""
    persona: str = ""
    findings: tuple[tuple[str, bool], ...] = ()
    """(kind, critical) of each customer review finding."""
    measures: CustomerMeasuresRecord | None = None
    end_reason: str = ""


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
        review = record.customer_review
        return UnitFacts(
            unit_id=record.unit_id,
            scenario_id=s(record.scenario_id),
            agent=s(record.agent),
            customer=s(record.customer),
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
            language=s(record.language),
            judged=tuple(_judged(c) for c in record.checks if c.judged is not None),
            rules_only=sum(c.rule is not None and c.judged is None for c in record.checks),
            statement_judge=_judge_of(record),
            customer_hindered=record.customer_hindered,
            reviewed=review is not None,
            persona=s(review.persona) if review is not None else "",
            findings=tuple((s(f.kind), f.critical) for f in review.findings) if review else (),
            measures=review.measures if review is not None else None,
            end_reason=s(record.end_reason),
        )


def _judge_of(record: ConversationRecord) -> str | None:
    """The judge of the record's verdicts (a rescore's may differ from the run's)."""
    return next((c.judged.model for c in record.checks if c.judged), record.statement_judge)


def _judged(c: CheckRecord) -> JudgedFact:
    j = c.judged
    assert j is not None
    first = j.quotes[0] if j.quotes else None
    quote = first.text if first is not None else (j.problem or j.reason)
    return JudgedFact(
        c.id,
        j.kind,
        bool(c.rule) if c.rule is not None else j.passed,
        c.passed,
        j.answer,
        quote[:QUOTE_KEPT],
        first.message if first is not None else None,
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
