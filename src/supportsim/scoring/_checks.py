"""The Check: one scored fact about a conversation, with a reason a person can act on."""

from __future__ import annotations

from dataclasses import dataclass

CheckKind = str
"""The kind a check reports under. Open: a plug-in Scorer names its own kind."""

BUILTIN_KINDS = ("step", "observed", "forbidden", "outcome", "state", "custom")


@dataclass(frozen=True, slots=True)
class Check:
    id: str
    kind: CheckKind
    passed: bool
    reason: str
    weight: float = 1.0


@dataclass(frozen=True, slots=True)
class Score:
    """strict: every check passed and the conversation ended normally.
    partial: weighted share of checks passed (0..1)."""

    checks: tuple[Check, ...]
    strict: bool
    partial: float

    def failed(self) -> list[str]:
        return [c.id for c in self.checks if not c.passed]
