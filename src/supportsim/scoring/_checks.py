"""The Check: one scored fact about a conversation, with a reason a person can act on."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

CheckKind = str
"""The kind a check reports under: step, observed, forbidden, outcome, state, custom, and
open beyond them (a plug-in Scorer names its own kind).
``reward``: one component of an imported benchmark's reward (tau2: ``reward:DB``...);
``diagnostic``: counted in partial only, never in strict (tau2: a gold action matched)."""


Answer = Literal["yes", "no", "unclear"]
"""A statement judge's answer to its question: the claim is stated, is not, or cannot be
told (``unclear`` fails the check and is counted)."""


@dataclass(frozen=True, slots=True)
class Quote:
    """Agent text a verdict relies on: ``text`` found verbatim in message ``message`` (the
    transcript's message index, as check reasons give it)."""

    message: int
    text: str


@dataclass(frozen=True, slots=True)
class Judged:
    """The statement judge's verdict on one check's question (``_statement_judge.py``).

    ``passed`` is the check's result by this verdict (a ``say`` step: yes, and placed in
    order; a forbidden statement: no). ``request_sha256`` is the cache key of the request
    (model and prompt, ``llm.request_key``); ``prompt_sha256`` the prompt's alone, so a
    stored verdict is found again for the same question. ``problem`` says why a verdict is
    ``unclear`` when the judge's answers were not accepted (a quote not in the messages)."""

    kind: str
    """The question's kind: say, disclose, identity_detail, other_customer_data,
    reply_language, false_claim (what agreement is reported by)."""
    answer: Answer
    passed: bool
    quotes: tuple[Quote, ...]
    reason: str
    model: str
    request_sha256: str
    prompt_sha256: str
    attempts: int = 1
    problem: str | None = None
    cached: bool = False


@dataclass(frozen=True, slots=True)
class Check:
    id: str
    kind: CheckKind
    passed: bool
    reason: str
    weight: float = 1.0
    rule: bool | None = None
    """A communication check's result by the rules alone (None: not a communication
    check). ``passed`` is the judge's when ``judged`` is set, this one otherwise."""
    judged: Judged | None = None
    """The statement judge's verdict that decided the check (None: rules decided)."""


@dataclass(frozen=True, slots=True)
class AssertionVerdict:
    """An LLM judge's verdict on one natural-language assertion (tau2's NL_ASSERTION)."""

    assertion: str
    met: bool
    justification: str


@dataclass(frozen=True, slots=True)
class Score:
    """strict: every check passed and the conversation ended normally.
    partial: weighted share of checks passed (0..1)."""

    checks: tuple[Check, ...]
    strict: bool
    partial: float
    unscored: tuple[str, ...] = ()
    """Ids of checks that could not be scored (tau2: NL_ASSERTION without a judge). Such a
    conversation is not fully scored: never strict, reported apart."""
    verdicts: tuple[AssertionVerdict, ...] = ()
    """The assertion judge's verdicts behind a ``reward:NL_ASSERTION`` check."""

    def failed(self) -> list[str]:
        return [c.id for c in self.checks if not c.passed]
