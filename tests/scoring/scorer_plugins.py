"""Scorer plug-ins for tests: a team's own check kinds, written against the public names."""

from __future__ import annotations

from collections.abc import Iterable

import supportsim


def polite_close(scenario, transcript, reference) -> Iterable[supportsim.Check]:
    """A team's kind: the Agent's last message thanks the customer."""
    texts = [text for _, text in transcript.agent_texts()]
    last = texts[-1] if texts else ""
    ok = "thank" in last.lower()
    reason = "closed with thanks" if ok else f"last message has no thanks: {last[:60]!r}"
    return [supportsim.Check("polite:close", "politeness", ok, reason)]


class ToolBudget:
    """A class scorer (made with no arguments): at most N tool calls."""

    limit = 10

    def __call__(self, scenario, transcript, reference):
        n = len(transcript.calls)
        yield supportsim.Check(
            "budget:calls", "tool_budget", n <= self.limit, f"{n} tool calls (limit {self.limit})"
        )


def not_a_check(scenario, transcript, reference):
    return [("budget", True)]


def bad_kind(scenario, transcript, reference):
    return [supportsim.Check("x", "Has Spaces", True, "ok")]


NOT_CALLABLE = 3
