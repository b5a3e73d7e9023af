"""Two runs' records paired by scenario and trial, for ``_compare`` and
``_compare_quantity``.

A pair is the same (scenario, trial) run by the compared agent in A and in B, both
completed (errors are not scored, so they cannot be paired).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from supportsim.store import ConversationRecord


@dataclass(frozen=True, slots=True)
class Pair:
    """One (scenario, trial) of the compared agent, completed in both runs."""

    scenario_id: str
    category: str
    trial: int
    a_strict: bool
    b_strict: bool
    a_partial: float
    b_partial: float
    a_cost_usd: float | None = None
    """The Agent's cost of the conversation (None: unpriced)."""
    b_cost_usd: float | None = None
    a_response_ms: tuple[float, ...] = ()
    """End-to-end time of every Agent reply of the conversation."""
    b_response_ms: tuple[float, ...] = ()


def _reply_ms(record: ConversationRecord) -> tuple[float, ...]:
    return tuple(
        m.response_ms for m in record.messages if m.role == "agent" and m.response_ms is not None
    )


def _index(records: Sequence[ConversationRecord], agent: str) -> dict[tuple[str, int], Any]:
    return {(r.scenario_id, r.trial): r for r in records if r.agent == agent}


def pair_up(
    a: Sequence[ConversationRecord], b: Sequence[ConversationRecord], agent_a: str, agent_b: str
) -> tuple[list[Pair], dict[str, int]]:
    """The completed pairs, and counts of what could not be paired and why."""
    ia, ib = _index(a, agent_a), _index(b, agent_b)
    pairs, not_scored = [], 0
    for key in sorted(set(ia) & set(ib)):
        ra, rb = ia[key], ib[key]
        if ra.status != "completed" or rb.status != "completed":
            not_scored += 1
            continue
        pairs.append(
            Pair(
                key[0],
                ra.category,
                key[1],
                bool(ra.strict),
                bool(rb.strict),
                ra.partial or 0.0,
                rb.partial or 0.0,
                ra.agent_cost_usd,
                rb.agent_cost_usd,
                _reply_ms(ra),
                _reply_ms(rb),
            )
        )
    unpaired = {
        "only_a": len(set(ia) - set(ib)),
        "only_b": len(set(ib) - set(ia)),
        "not_scored": not_scored,
    }
    return pairs, unpaired
