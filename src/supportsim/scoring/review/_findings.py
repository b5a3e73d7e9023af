"""What the customer review produces: typed findings about the simulated Customer's play,
the persona measures, and the rule that makes a strict failure ``customer_hindered``.

A finding points at one message of the transcript (``message_index``) and says whether it
is ``critical``: an error that removed the Agent's chance to succeed (an invented order
id, an end right after "shall I go ahead?", accepting what the goal rules out, a loop to
``max_turns``). Only a rule's critical finding can make a unit ``customer_hindered``; a
judge's finding is reported, never counted against (or for) the Agent.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol

FindingKind = Literal[
    "invented_fact",
    "premature_end",
    "goal_drift",
    "over_sharing",
    "persona_drift",
    "role_reversal",
    "said_done_without_ending",
    "repeating",
    "gave_up_social_engineering",
]
"""What the Customer did wrong (``docs/guide/customer-review.md`` defines each)."""
FINDING_KINDS: tuple[FindingKind, ...] = FindingKind.__args__  # type: ignore[attr-defined]
FindingSource = Literal["rule", "judge"]


@dataclass(frozen=True, slots=True)
class Finding:
    """One error of the Customer.

    Attributes:
        kind: What went wrong.
        message_index: Index into the transcript's messages of the message it is about
            (the Customer's message; for an end with no last words, the Agent message the
            Customer walked away from).
        detail: One line a person can act on.
        critical: The error removed the Agent's chance to succeed.
        source: ``rule`` (deterministic) or ``judge`` (the statement judge).
    """

    kind: FindingKind
    message_index: int
    detail: str
    critical: bool
    source: FindingSource = "rule"
    judge: str | None = None
    """The statement judge that made a ``judge`` finding (its name as configured)."""


@dataclass(frozen=True, slots=True)
class CustomerMeasures:
    """Deterministic measures of how the Customer behaved, over its recorded messages, to
    compare with what its persona says (``docs/guide/customer-review.md``).

    Attributes:
        messages: Customer messages with text.
        words_per_message: Mean words per Customer message (verbosity).
        facts_given: Known facts the Customer stated at all.
        facts_volunteered: Known facts it stated before the Agent asked for them
            (cooperation; a ``volunteers: minimal`` persona should keep this at 0).
        turns_before_giving_up: Customer messages before it ended ``gave_up`` (patience);
            None when it did not give up.
        typo_rate: Share of its words that are one letter off a word of the conversation
            or the scenario and not themselves one (error-proneness).
        contradictions: Statements of a known fact's kind with another value (a wrong
            detail first, a changed story: honesty).
    """

    messages: int = 0
    words_per_message: float = 0.0
    facts_given: int = 0
    facts_volunteered: int = 0
    turns_before_giving_up: int | None = None
    typo_rate: float = 0.0
    contradictions: int = 0


@dataclass(frozen=True, slots=True)
class CustomerReview:
    """The review of the Customer in one conversation."""

    persona: str
    findings: tuple[Finding, ...] = ()
    measures: CustomerMeasures = field(default_factory=CustomerMeasures)
    judged_unclear: int = 0
    """Questions the statement judge left ``unclear`` or could not answer (a failed
    call): no finding, counted, never scored against anyone (``_judged``)."""
    judged_prompts: tuple[str, ...] = ()
    """``prompt_sha256`` of each judged question asked (what the judged findings and
    ``judged_unclear`` answer); ``rescore`` keeps them only while the questions are the
    same. Empty when none was asked."""
    failed: str | None = None
    """Why the review itself failed (a bug of ours): no findings then, the unit keeps its
    score and is never ``customer_hindered``."""

    @property
    def critical(self) -> tuple[Finding, ...]:
        """Critical findings of the rules (a judge's never count: see the module doc)."""
        return tuple(f for f in self.findings if f.critical and f.source == "rule")


class Flagged(Protocol):
    """What ``hindered`` reads of a finding (a ``Finding``, or its stored record)."""

    @property
    def critical(self) -> bool: ...

    @property
    def source(self) -> str: ...


def hindered(*, completed: bool, strict: bool | None, findings: Sequence[Flagged]) -> bool:
    """A unit is ``customer_hindered`` when it completed, failed strict, and the review
    found a critical Customer error by rule. It stays scored and ``completed``; reports
    show it apart from the Agent's failures, never drop it."""
    return (
        completed and strict is False and any(f.critical and f.source == "rule" for f in findings)
    )
