"""The customer review of one conversation: every rule's findings, in message order, and
the persona measures. Pure and deterministic, like ``score``: run where a unit's record is
built (``batch``) and again by ``rescore``.

The rules (one module each): invented facts and over-sharing (``_facts``); premature
ends, role reversal, saying done without ending, repeating (``_turns``); language drift
and goal drift (``_persona``). Which are critical, and why, is in each rule's docstring.
"""

from __future__ import annotations

from collections.abc import Sequence

from supportsim.conversation import Transcript
from supportsim.domains import Domain
from supportsim.environment import scenario_tools
from supportsim.scenario import Persona, Scenario
from supportsim.scoring._checks import Check
from supportsim.scoring.review._cause import linked
from supportsim.scoring.review._facts import facts_given, invented_facts, over_sharing
from supportsim.scoring.review._findings import CustomerReview
from supportsim.scoring.review._persona import goal_drift, lenient, measures, persona_drift
from supportsim.scoring.review._turns import (
    pending_writes,
    premature_end,
    repeating,
    role_reversal,
    said_done_without_ending,
)


def review_customer(
    scenario: Scenario,
    persona: Persona,
    domain: Domain,
    transcript: Transcript,
    checks: Sequence[Check] | None = None,
) -> CustomerReview:
    """Review the simulated Customer's play in ``transcript`` (any status: the findings
    of an unscored unit are shown, and never make it ``customer_hindered``). ``checks``:
    the unit's scored checks; a finding stays critical only when it explains the ones
    that failed (``_cause``)."""
    messages = transcript.messages
    writes = {n for n, t in scenario_tools(domain, scenario).items() if t.kind == "write"}
    stuck = transcript.termination == "max_turns"
    used: dict[int, set[str]] = {}
    invented = invented_facts(scenario, messages, lenient=lenient(persona), used=used)
    given = facts_given(scenario, messages)
    findings = [
        *invented,
        *premature_end(scenario, transcript, writes),
        *goal_drift(scenario, messages),
        *over_sharing(scenario, messages, given, minimal=persona.volunteers == "minimal"),
        *persona_drift(scenario, messages),
        *role_reversal(scenario, transcript, stuck=stuck),
        *said_done_without_ending(scenario, transcript, stuck=stuck),
        *repeating(transcript, stuck=stuck),
    ]
    findings.sort(key=lambda f: f.message_index)
    pending = pending_writes(scenario, transcript, writes)
    findings = linked(findings, checks, scenario, pending=pending, used=used)
    return CustomerReview(
        persona=persona.id,
        findings=tuple(findings),
        measures=measures(scenario, transcript, given, len(invented)),
    )
