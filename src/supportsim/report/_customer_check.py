"""The simulated Customer measured with a perfect Agent (``supportsim validate
--customer``): the oracle plays every scenario against the Customer, so every strict
failure there is the Customer's (or the scenario's: a goal, known facts or persona the
Customer cannot play).

A unit counts for the Customer when it completed strict, against it when it completed
and failed strict or when the Customer broke (``simulator_fault``); provider and harness
errors are neither (counted apart: they say nothing of the Customer). A failure with no
review finding is ``unexplained``: read its transcript.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from supportsim.store import ConversationRecord

UNEXPLAINED = "unexplained"
"""A failure the review found no Customer error in."""
BROKE = "simulator_fault"
"""The Customer broke outright (an empty reply, role confusion, leaked instructions)."""


@dataclass(frozen=True, slots=True)
class CustomerRate:
    """How often the Customer let the perfect Agent succeed, over one group of units."""

    played: int
    """Units that count (completed or simulator fault)."""
    succeeded: int
    not_counted: int = 0
    """Provider and harness errors: not the Customer's."""
    findings: dict[str, int] = field(default_factory=dict)
    """Failed units by the first critical finding's kind (or ``unexplained``,
    ``simulator_fault``)."""

    @property
    def rate(self) -> float | None:
        return self.succeeded / self.played if self.played else None


@dataclass(frozen=True, slots=True)
class CustomerCheck:
    """The Customer's success rate overall, per scenario and per persona, what its
    failures were, and the scenarios it could not play at all."""

    customer: str
    overall: CustomerRate
    by_scenario: dict[str, CustomerRate]
    by_persona: dict[str, CustomerRate]
    findings: dict[str, int]
    """Every finding of the review over all units, by kind (critical or not)."""
    threshold: float | None = None
    pushed_back: CustomerRate | None = None
    """With the sloppy Agent (``--sloppy``): how often the Customer did not end satisfied
    when the Agent only claimed to have done everything (``succeeded``: pushed back)."""
    pushed_back_by_scenario: dict[str, CustomerRate] = field(default_factory=dict)

    @property
    def unplayable(self) -> list[str]:
        """Scenarios the Customer never played to a success (with at least one try)."""
        return [s for s, r in self.by_scenario.items() if r.played and not r.succeeded]

    @property
    def passed(self) -> bool:
        """The overall rate reaches ``threshold`` (no threshold: always)."""
        if self.threshold is None:
            return True
        return self.overall.rate is not None and self.overall.rate >= self.threshold


def _why(record: ConversationRecord) -> str:
    if record.status == "simulator_fault":
        return BROKE
    review = record.customer_review
    findings = review.findings if review is not None else []
    critical = [f for f in findings if f.critical and f.source == "rule"]
    first = (critical or findings)[:1]
    return first[0].kind if first else UNEXPLAINED


def _rate(records: Sequence[ConversationRecord]) -> CustomerRate:
    counted = [r for r in records if r.status in ("completed", "simulator_fault")]
    failed = [r for r in counted if not (r.status == "completed" and r.strict)]
    return CustomerRate(
        played=len(counted),
        succeeded=len(counted) - len(failed),
        not_counted=len(records) - len(counted),
        findings=dict(sorted(Counter(_why(r) for r in failed).items())),
    )


def customer_check(
    records: Iterable[ConversationRecord], *, customer: str, threshold: float | None = None
) -> CustomerCheck:
    """Measure the Customer from a run of the oracle against it (the last record of each
    unit counts)."""
    latest = {r.unit_id: r for r in records}
    units = list(latest.values())
    by_scenario: dict[str, list[ConversationRecord]] = defaultdict(list)
    by_persona: dict[str, list[ConversationRecord]] = defaultdict(list)
    for r in units:
        by_scenario[r.scenario_id].append(r)
        persona = r.customer_review.persona if r.customer_review is not None else "?"
        by_persona[persona].append(r)
    found = Counter(
        f.kind for r in units if r.customer_review is not None for f in r.customer_review.findings
    )
    return CustomerCheck(
        customer=customer,
        overall=_rate(units),
        by_scenario={s: _rate(rs) for s, rs in sorted(by_scenario.items())},
        by_persona={p: _rate(rs) for p, rs in sorted(by_persona.items())},
        findings=dict(sorted(found.items())),
        threshold=threshold,
    )


ACCEPTING = frozenset({"satisfied", "tau2_stop"})
"""End reasons that accept the outcome (a scripted Customer's ``script_done`` does not)."""


def _pushed(records: Sequence[ConversationRecord]) -> CustomerRate:
    counted = [r for r in records if r.status == "completed"]
    took = [r for r in counted if r.termination == "customer_done" and r.end_reason in ACCEPTING]
    return CustomerRate(
        played=len(counted),
        succeeded=len(counted) - len(took),
        not_counted=len(records) - len(counted),
        findings={"accepted": len(took)} if took else {},
    )


def with_pushback(check: CustomerCheck, records: Iterable[ConversationRecord]) -> CustomerCheck:
    """``check`` with the push-back figures of a run of the sloppy Agent against the same
    Customer (the last record of each unit counts)."""
    from dataclasses import replace

    units = list({r.unit_id: r for r in records}.values())
    by_scenario: dict[str, list[ConversationRecord]] = defaultdict(list)
    for r in units:
        by_scenario[r.scenario_id].append(r)
    return replace(
        check,
        pushed_back=_pushed(units),
        pushed_back_by_scenario={s: _pushed(rs) for s, rs in sorted(by_scenario.items())},
    )
