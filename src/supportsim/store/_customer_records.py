"""The customer review as a record stores it (``ConversationRecord.customer_review``),
and the ``customer_hindered`` rule read from it. The base of every record model is here
too, so the record modules (``_records``, ``_check_records``, ``_message_records``, this
one) share it without a cycle."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from supportsim.scoring.review import CustomerReview, FindingKind, hindered


class _Record(BaseModel):
    """A stored document's model. ``allow_inf_nan=False``: JSON has no NaN or Infinity, so
    a file that holds one (Python's ``json`` writes them) is damaged at that field, not a
    figure every reader would show as ``nan`` or fail to chart."""

    model_config = ConfigDict(extra="ignore", allow_inf_nan=False)


class CustomerFindingRecord(_Record):
    """One error of the simulated Customer (``scoring.review.Finding``)."""

    kind: FindingKind
    message_index: int
    """Index into ``messages`` of the message the finding is about."""
    detail: str
    critical: bool
    """The error removed the Agent's chance to succeed."""
    source: Literal["rule", "judge"] = "rule"
    judge: str | None = None
    """The statement judge that made a ``judge`` finding."""


class CustomerMeasuresRecord(_Record):
    """How the Customer behaved, measured over its messages (``CustomerMeasures``)."""

    messages: int = 0
    words_per_message: float = 0.0
    facts_given: int = 0
    facts_volunteered: int = 0
    """Known facts stated before the Agent asked for them."""
    turns_before_giving_up: int | None = None
    """Customer messages before it gave up; null when it did not."""
    typo_rate: float = 0.0
    contradictions: int = 0
    """Values stated that are neither known nor said by the Agent."""


class CustomerReviewRecord(_Record):
    """The customer review of the unit (``docs/guide/customer-review.md``)."""

    persona: str = ""
    """The persona the Customer played (the scenario's)."""
    findings: list[CustomerFindingRecord] = Field(default_factory=list)
    measures: CustomerMeasuresRecord = Field(default_factory=CustomerMeasuresRecord)
    judged_unclear: int = 0
    """Statement-judge questions about the Customer left unclear or failed (no finding)."""
    judged_prompts: list[str] = Field(default_factory=list)
    """``prompt_sha256`` of each statement-judge question asked about the Customer (what
    the judged findings and ``judged_unclear`` answer); ``rescore`` drops them when the
    current persona puts other questions. Empty when none was asked, and in records
    written before it was kept."""
    failed: str | None = None
    """Why the review itself failed (a bug of ours): no findings, never hindered; the
    unit's score is kept."""


def customer_review_record(review: CustomerReview | None) -> CustomerReviewRecord | None:
    """A review as stored (None stays None: no review was made)."""
    if review is None:
        return None
    return CustomerReviewRecord.model_validate(
        {
            "persona": review.persona,
            "findings": [asdict(f) for f in review.findings],
            "measures": asdict(review.measures),
            "judged_unclear": review.judged_unclear,
            "judged_prompts": list(review.judged_prompts),
            "failed": review.failed,
        }
    )


def is_hindered(status: str, strict: bool | None, review: CustomerReviewRecord | None) -> bool:
    """``customer_hindered`` for a unit of ``status`` and ``strict`` with the stored
    ``review`` (``scoring.review.hindered``; no review: never)."""
    return review is not None and hindered(
        completed=status == "completed", strict=strict, findings=review.findings
    )


def with_stored_judged(
    review: CustomerReviewRecord | None,
    stored: CustomerReviewRecord | None,
    prompts: Sequence[str] = (),
) -> CustomerReviewRecord | None:
    """``review`` (the rules' findings, made again) with the judged findings, the unclear
    count and the prompts of ``stored`` (the record's review), when they answer the
    questions the current persona puts (``prompts``: ``scoring.review.judged_prompts``
    of them). The transcript is the same, so ``rescore`` reuses the judge's verdicts on
    the Customer without a call; but an edited persona (tone, style, language,
    behaviours) is another question: its stored verdicts are dropped, not asked again
    (rescore makes no Customer call), and the review has the rules' findings only. A
    record written before the prompts were kept (none stored) keeps its judged findings:
    nothing tells they are stale."""
    if review is None or stored is None:
        return review if review is not None else stored
    if stored.judged_prompts and sorted(stored.judged_prompts) != sorted(prompts):
        return review
    judged = [f for f in stored.findings if f.source == "judge"]
    if not judged and not stored.judged_unclear:
        return review
    findings = sorted([*review.findings, *judged], key=lambda f: f.message_index)
    return review.model_copy(
        update={
            "findings": findings,
            "judged_unclear": stored.judged_unclear,
            "judged_prompts": stored.judged_prompts,
        }
    )
