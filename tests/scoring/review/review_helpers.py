"""Shared by the customer review's tests: the mock refund scenario, a transcript built
from lines, and the review of it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

from supportsim.conversation import Message, Termination, Transcript
from supportsim.domains import DomainCatalogue, builtin_domains
from supportsim.environment import CallRecord
from supportsim.llm import ToolCall
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


def uses(tool: str, **args: Any) -> tuple[str, str, str, str]:
    """An Agent line that calls ``tool`` with ``args`` (no text)."""
    return ("agent", "", tool, orjson.dumps(args).decode())


def _message(line: tuple[str, ...]) -> Message:
    if len(line) == 4:
        return Message("agent", "", tool_calls=(ToolCall("t1", line[2], line[3]),))
    return Message(line[0], line[1])  # type: ignore[arg-type]


def transcript(
    *lines: tuple[str, ...],
    calls: tuple[str, ...] = (),
    termination: Termination = "customer_done",
    end_reason: str = "satisfied",
) -> Transcript:
    """A conversation of (role, text) lines (or ``uses`` lines); ``calls``: tools called
    successfully."""
    return Transcript(
        messages=[_message(line) for line in lines],
        calls=[call(n) for n in calls],
        termination=termination,
        end_reason=end_reason,
    )


def review(t: Transcript, scenario: Scenario = REFUND, who: Persona = TESTER) -> CustomerReview:
    return review_customer(scenario, who, DOMAINS[scenario.domain], t)


def kinds(r: CustomerReview) -> list[tuple[str, int, bool]]:
    """(kind, message index, critical) of each finding."""
    return [(f.kind, f.message_index, f.critical) for f in r.findings]
