"""The customer review: what the simulated Customer did wrong in a conversation (typed
findings, each pointing at a message), the persona measures, and ``customer_hindered``
(a strict failure the Customer caused). See ``docs/guide/customer-review.md``."""

from supportsim.scoring.review._findings import (
    FINDING_KINDS,
    CustomerMeasures,
    CustomerReview,
    Finding,
    FindingKind,
    FindingSource,
    hindered,
)
from supportsim.scoring.review._judged import (
    JudgedReview,
    judge_customer,
    judged_findings,
    judged_prompts,
    judged_questions,
    with_judged,
)
from supportsim.scoring.review._review import review_customer

__all__ = [
    "FINDING_KINDS",
    "CustomerMeasures",
    "CustomerReview",
    "Finding",
    "FindingKind",
    "FindingSource",
    "JudgedReview",
    "hindered",
    "judge_customer",
    "judged_findings",
    "judged_prompts",
    "judged_questions",
    "review_customer",
    "with_judged",
]
