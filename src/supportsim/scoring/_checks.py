"""The Check: one scored fact about a conversation, with a reason a person can act on."""

from __future__ import annotations

from dataclasses import dataclass

CheckKind = str
"""The kind a check reports under: step, observed, forbidden, outcome, state, custom, and
open beyond them (a plug-in Scorer names its own kind).
``reward``: one component of an imported benchmark's reward (tau2: ``reward:DB``...);
``diagnostic``: counted in partial only, never in strict (tau2: a gold action matched)."""


@dataclass(frozen=True, slots=True)
class Check:
    id: str
    kind: CheckKind
    passed: bool
    reason: str
    weight: float = 1.0


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
