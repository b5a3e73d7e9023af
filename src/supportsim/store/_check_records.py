"""A unit's scored checks as a record stores them (``ConversationRecord.checks``): each
check's result, the statement judge's verdict that decided it (with its quotes), and the
assertion verdicts of imported tau2 tasks; ``stored_verdict`` turns a stored verdict back
into a ``Judged`` for ``rescore``."""

from __future__ import annotations

from dataclasses import asdict
from typing import Literal

from pydantic import Field

from supportsim.scoring import Check, CheckKind, Judged, Quote
from supportsim.store._customer_records import (
    _Record,
)


class QuoteRecord(_Record):
    message: int
    """The transcript's message index the quote is from."""
    text: str


class JudgedRecord(_Record):
    """The statement judge's verdict on a check's question (``scoring.Judged``), kept so
    ``rescore`` reuses it without a call."""

    kind: str
    """The question's kind: say, disclose, identity_detail, other_customer_data,
    reply_language, false_claim."""
    answer: Literal["yes", "no", "unclear"]
    passed: bool
    """The check's result by this verdict."""
    quotes: list[QuoteRecord] = Field(default_factory=list)
    reason: str = ""
    model: str
    """The judge, as named in the run config (spec or models-file name)."""
    request_sha256: str
    """Cache key of the request: model configuration and prompt."""
    prompt_sha256: str
    """Hash of the prompt alone (the question)."""
    attempts: int = 1
    problem: str | None = None
    """Why the verdict is unclear when no answer was accepted."""
    cached: bool = False
    """Reused (asked before in this run, or stored and rescored), not asked for this check."""


class CheckRecord(_Record):
    id: str
    kind: CheckKind
    passed: bool
    reason: str
    weight: float = 1.0
    rule: bool | None = None
    """A communication check's result by the rules alone; null for other checks (and in
    records written before it was kept)."""
    judged: JudgedRecord | None = None
    """The statement judge's verdict that decided the check; null when rules decided."""


def check_record(c: Check) -> CheckRecord:
    """A scored check as stored."""
    judged = None if c.judged is None else JudgedRecord.model_validate(asdict(c.judged))
    return CheckRecord(
        id=c.id,
        kind=c.kind,
        passed=c.passed,
        reason=c.reason,
        weight=c.weight,
        rule=c.rule,
        judged=judged,
    )


def stored_verdict(j: JudgedRecord) -> Judged:
    """A stored verdict, to decide a check again (``rescore``): marked ``cached``."""
    quotes = tuple(Quote(q.message, q.text) for q in j.quotes)
    return Judged(**{**j.model_dump(), "quotes": quotes, "cached": True})


class AssertionVerdictRecord(_Record):
    assertion: str
    met: bool
    justification: str = ""
