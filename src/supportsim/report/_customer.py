"""The customer review's figures: each Agent's strict and partial with the units the
Customer hindered left out (the Agent's own figures, beside the raw ones), and the
``customer_review`` section of summary.json (findings by kind and scenario, the persona
measures). Computed once here from ``UnitFacts``; views only render."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Sequence

from supportsim.report._facts import UnitFacts
from supportsim.store import CustomerReviewSection, FindingCount, PersonaMeasures, Rate


def attributable(scored: Sequence[UnitFacts], rate: Callable[[Sequence[UnitFacts]], Rate]) -> Rate:
    """``rate`` over the scored units the Customer did not hinder."""
    return rate([r for r in scored if not r.customer_hindered])


def _counts(units: Sequence[UnitFacts]) -> dict[str, FindingCount]:
    found: Counter[str] = Counter()
    critical: Counter[str] = Counter()
    with_it: Counter[str] = Counter()
    for r in units:
        for kind, is_critical in r.findings:
            found[kind] += 1
            critical[kind] += is_critical
        with_it.update({kind for kind, _ in r.findings})
    return {
        k: FindingCount(found=found[k], critical=critical[k], units=with_it[k])
        for k in sorted(found)
    }


def _mean(values: Sequence[float]) -> float | None:
    return round(sum(values) / len(values), 4) if values else None


def _persona(units: Sequence[UnitFacts]) -> PersonaMeasures:
    measured = [r.measures for r in units if r.measures is not None]
    gave_up = [m.turns_before_giving_up for m in measured if m.turns_before_giving_up is not None]
    return PersonaMeasures(
        units=len(units),
        messages_mean=_mean([m.messages for m in measured]),
        words_per_message=_mean([m.words_per_message for m in measured]),
        facts_volunteered_mean=_mean([m.facts_volunteered for m in measured]),
        gave_up=len(gave_up),
        turns_before_giving_up=_mean([float(n) for n in gave_up]),
        typo_rate=_mean([m.typo_rate for m in measured]),
        contradictions_mean=_mean([m.contradictions for m in measured]),
        findings={k: c.found for k, c in _counts(units).items()},
    )


def customer_review_section(records: Sequence[UnitFacts]) -> CustomerReviewSection | None:
    """The run's customer review (None when no record was reviewed)."""
    reviewed = [r for r in records if r.reviewed]
    if not reviewed:
        return None
    by_scenario: dict[str, list[UnitFacts]] = defaultdict(list)
    by_persona: dict[str, list[UnitFacts]] = defaultdict(list)
    for r in reviewed:
        by_scenario[r.scenario_id].append(r)
        by_persona[r.persona].append(r)
    return CustomerReviewSection(
        units_reviewed=len(reviewed),
        hindered=sum(r.customer_hindered for r in reviewed),
        findings=_counts(reviewed),
        by_scenario={
            s: counts for s, units in sorted(by_scenario.items()) if (counts := _counts(units))
        },
        personas={p: _persona(units) for p, units in sorted(by_persona.items())},
    )
