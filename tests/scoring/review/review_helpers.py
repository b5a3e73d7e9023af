"""Shared by the customer review's tests: the mock refund scenario, a transcript built
from lines, and the review of it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from supportsim.conversation import Message, Termination, Transcript
from supportsim.domains import DomainCatalogue, builtin_domains
from supportsim.environment import CallRecord
from supportsim.scenario import Persona, Scenario, load_personas, load_scenarios
from supportsim.scoring import CONCEPTS
from supportsim.scoring.review import CustomerReview, review_customer

REPO = Path(__file__).parents[3]
DOMAINS = builtin_domains()
PERSONAS = load_personas([REPO / "tests" / "fixtures" / "personas"])
REFUND = load_scenarios(
    [REPO / "tests" / "batch" / "scenarios" / "refund.yaml"],
    catalogue=DomainCatalogue(DOMAINS, CONCEPTS),
    personas=PERSONAS,
)[0]
TESTER = PERSONAS["tester"]


def variant(
    scenario: Scenario = REFUND, *, goal: dict[str, Any] | None = None, **fields: Any
) -> Scenario:
    """``scenario`` with fields (and goal fields) replaced."""
    if goal:
        fields["customer"] = scenario.customer.model_copy(update=goal)
    return scenario.model_copy(update=fields)


def persona(**fields: Any) -> Persona:
    return TESTER.model_copy(update=fields)


def call(name: str, *, ok: bool = True) -> CallRecord:
    return CallRecord(0, "c1", name, "{}", {}, ok, {}, None, None, None, 0.0, 0.0)


def transcript(
    *lines: tuple[str, str],
    calls: tuple[str, ...] = (),
    termination: Termination = "customer_done",
    end_reason: str = "satisfied",
) -> Transcript:
    """A conversation of (role, text) lines; ``calls``: tools called successfully."""
    return Transcript(
        messages=[Message(role, text) for role, text in lines],  # type: ignore[arg-type]
        calls=[call(n) for n in calls],
        termination=termination,
        end_reason=end_reason,
    )


def review(t: Transcript, scenario: Scenario = REFUND, who: Persona = TESTER) -> CustomerReview:
    return review_customer(scenario, who, DOMAINS[scenario.domain], t)


def kinds(r: CustomerReview) -> list[tuple[str, int, bool]]:
    """(kind, message index, critical) of each finding."""
    return [(f.kind, f.message_index, f.critical) for f in r.findings]
