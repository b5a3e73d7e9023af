"""Synthetic records for pairing and aggregation tests."""

from __future__ import annotations

from supportsim.store import ConversationRecord


def make_record(
    scenario: str,
    agent: str,
    trial: int,
    *,
    strict: bool = True,
    partial: float | None = None,
    status: str = "completed",
    category: str = "cat",
) -> ConversationRecord:
    """A minimal record: what aggregation and pairing read, nothing else."""
    return ConversationRecord.model_validate(
        {
            "unit_id": f"{scenario}|{agent}|{trial}",
            "scenario_id": scenario,
            "domain": "mock",
            "category": category,
            "agent": agent,
            "customer": "scripted",
            "trial": trial,
            "status": status,
            "termination": "customer_done" if status == "completed" else "error",
            "strict": strict and status == "completed",
            "partial": (1.0 if strict else 0.0) if partial is None else partial,
            "started_at": "2025-01-01T00:00:00+00:00",
            "ended_at": "2025-01-01T00:00:01+00:00",
        }
    )
