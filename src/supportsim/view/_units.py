"""The run page's unit table: one light row per unit, filtered, sorted and paged on the
server, so a 2,000-unit run sends one page of rows and never its transcripts.

Filters (all exact, combined with AND): scenario, tag, Agent, Customer, status (``pass``,
``fail``, or an unscored status such as ``infra_error``), failing check kind, customer
finding (a finding kind, ``any`` for a unit with a finding, ``hindered`` for a unit the
review says the Customer hindered). Sort: by the unit's median Agent reply time
(``latency``) or its cost (``cost``), ascending, or descending with a leading ``-``;
units without the value sort last either way. Default order: scenario, Agent, trial.

Customer findings are the record's ``customer_review`` (null in records written before
the review: such a unit has no finding) and ``customer_hindered``.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from supportsim.scoring import pass_hat_k
from supportsim.store import ConversationRecord

PAGE_SIZE = 100
SORTS = ("latency", "-latency", "cost", "-cost")
FILTERS = ("scenario", "tag", "agent", "customer", "status", "check", "finding")


@dataclass(frozen=True, slots=True)
class UnitRow:
    """What the unit table shows and filters on; no message text."""

    unit_id: str
    scenario_id: str
    tags: tuple[str, ...]
    agent: str
    customer: str
    trial: int
    status: str
    outcome: str
    """pass, fail, or the unscored status (infra_error, simulator_fault, harness_error)."""
    termination: str
    partial: float | None
    failing: tuple[str, ...]
    """Kinds of the checks that failed, each once."""
    failed_checks: int
    findings: tuple[str, ...]
    hindered: bool
    latency_ms: float | None
    """The median of the unit's Agent reply times (response_ms)."""
    cost_usd: float | None


def unit_row(record: ConversationRecord) -> UnitRow:
    """The table row of one record."""
    replies = [
        m.response_ms for m in record.messages if m.role == "agent" and m.response_ms is not None
    ]
    failed = [c for c in record.checks if not c.passed]
    review = record.customer_review
    outcome: str = record.status
    if record.status == "completed":
        outcome = "pass" if record.strict else "fail"
    return UnitRow(
        unit_id=record.unit_id,
        scenario_id=record.scenario_id,
        tags=tuple(record.tags),
        agent=record.agent,
        customer=str(record.customer),
        trial=record.trial,
        status=record.status,
        outcome=outcome,
        termination=record.termination,
        partial=record.partial,
        failing=tuple(sorted({c.kind for c in failed})),
        failed_checks=len(failed),
        findings=tuple(sorted({f.kind for f in review.findings})) if review else (),
        hindered=record.customer_hindered,
        latency_ms=statistics.median(replies) if replies else None,
        cost_usd=record.cost_usd,
    )


@dataclass(frozen=True, slots=True)
class UnitQuery:
    """The run page's filters, sort and page, parsed leniently from the URL (an unknown
    sort or a bad page number falls back to the default rather than failing)."""

    scenario: str = ""
    tag: str = ""
    agent: str = ""
    customer: str = ""
    status: str = ""
    check: str = ""
    finding: str = ""
    sort: str = ""
    page: int = 1

    @classmethod
    def of(cls, params: Mapping[str, str]) -> UnitQuery:
        values = {name: str(params.get(name, "")).strip() for name in FILTERS}
        sort = str(params.get("sort", ""))
        try:
            page = max(1, int(params.get("page", "1")))
        except ValueError:
            page = 1
        return cls(**values, sort=sort if sort in SORTS else "", page=page)

    def params(self, **changes: Any) -> dict[str, str]:
        """The query's URL parameters (only those set), with ``changes`` applied."""
        query = replace(self, **changes)
        out = {name: getattr(query, name) for name in (*FILTERS, "sort") if getattr(query, name)}
        if query.page > 1:
            out["page"] = str(query.page)
        return out

    def matches(self, row: UnitRow) -> bool:
        return (
            (not self.scenario or row.scenario_id == self.scenario)
            and (not self.tag or self.tag in row.tags)
            and (not self.agent or row.agent == self.agent)
            and (not self.customer or row.customer == self.customer)
            and (not self.status or row.outcome == self.status)
            and (not self.check or self.check in row.failing)
            and (not self.finding or self._finding(row))
        )

    def _finding(self, row: UnitRow) -> bool:
        if self.finding == "any":
            return bool(row.findings)
        if self.finding == "hindered":
            return row.hindered
        return self.finding in row.findings


@dataclass(frozen=True, slots=True)
class UnitPage:
    """One page of the filtered, sorted rows, and how many matched in all."""

    rows: list[UnitRow]
    matched: int
    page: int
    pages: int
    options: dict[str, list[str]] = field(default_factory=dict)
    """Every value each filter can take in this run (for its select)."""


def _options(rows: Sequence[UnitRow]) -> dict[str, list[str]]:
    def values(get: Any) -> list[str]:
        return sorted({v for row in rows for v in get(row)})

    findings = values(lambda r: r.findings)
    special = ["any"] if findings else []
    if any(r.hindered for r in rows):
        special.append("hindered")
    return {
        "scenario": values(lambda r: [r.scenario_id]),
        "tag": values(lambda r: r.tags),
        "agent": values(lambda r: [r.agent]),
        "customer": values(lambda r: [r.customer]),
        "status": values(lambda r: [r.outcome]),
        "check": values(lambda r: r.failing),
        "finding": special + findings,
    }


def _sorted(rows: Iterable[UnitRow], sort: str) -> list[UnitRow]:
    ordered = sorted(rows, key=lambda r: (r.scenario_id, r.agent, r.trial, r.unit_id))
    if not sort:
        return ordered
    key = sort.lstrip("-")
    value = (lambda r: r.latency_ms) if key == "latency" else (lambda r: r.cost_usd)
    known = [r for r in ordered if value(r) is not None]
    unknown = [r for r in ordered if value(r) is None]
    known.sort(key=value, reverse=sort.startswith("-"))  # stable: ties keep the order
    return known + unknown


def select_units(rows: Sequence[UnitRow], query: UnitQuery, size: int = PAGE_SIZE) -> UnitPage:
    """The page ``query`` asks for (the last page when it asks past the end)."""
    matched = _sorted((r for r in rows if query.matches(r)), query.sort)
    pages = max(1, -(-len(matched) // size))
    page = min(query.page, pages)
    chunk = matched[(page - 1) * size : page * size]
    return UnitPage(chunk, len(matched), page, pages, _options(rows))


@dataclass(frozen=True, slots=True)
class ScenarioPassK:
    """pass^k of one scenario for one Agent: ``c`` strict passes of ``n`` scored trials."""

    scenario_id: str
    agent: str
    n: int
    c: int
    values: tuple[float | None, ...]
    """pass^1..pass^trials (None where fewer than k trials were scored)."""


def pass_k_by_scenario(
    records: Sequence[ConversationRecord], ks: Sequence[int]
) -> list[ScenarioPassK]:
    """pass^k per scenario and Agent for each k of ``ks``, tau-bench's C(c,k)/C(n,k)."""
    counts: dict[tuple[str, str], list[int]] = {}
    for r in records:
        if r.status == "completed":
            cell = counts.setdefault((r.scenario_id, r.agent), [0, 0])
            cell[0] += 1
            cell[1] += bool(r.strict)
    return [
        ScenarioPassK(
            sid,
            agent,
            n,
            c,
            tuple(pass_hat_k(n=n, c=c, k=k) if n >= k else None for k in ks),
        )
        for (sid, agent), (n, c) in sorted(counts.items())
    ]
