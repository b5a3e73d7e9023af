"""Synthetic run directories for the CI-output tests: records only (no run.json), each
agent reply timed and each conversation priced as asked."""

from __future__ import annotations

from pathlib import Path

from supportsim.store import ConversationRecord


def record(
    scenario: str,
    agent: str,
    trial: int,
    *,
    strict: bool = True,
    partial: float | None = None,
    reply_ms: tuple[float, ...] = (1000.0,),
    cost: float | None = 0.01,
    status: str = "completed",
    checks: list[dict] | None = None,
) -> ConversationRecord:
    messages: list[dict] = []
    for i, ms in enumerate(reply_ms, 1):
        messages.append({"role": "customer", "content": "hi", "turn": i})
        messages.append({"role": "agent", "content": "ok", "turn": i, "response_ms": ms})
    return ConversationRecord.model_validate(
        {
            "unit_id": f"{scenario}|{agent}|{trial}",
            "scenario_id": scenario,
            "domain": "mock",
            "category": "cat",
            "agent": agent,
            "customer": "scripted",
            "trial": trial,
            "status": status,
            "termination": "customer_done" if status == "completed" else "error",
            "strict": strict and status == "completed",
            "partial": (1.0 if strict else 0.0) if partial is None else partial,
            "checks": checks or [],
            "messages": messages,
            "cost_usd": cost,
            "agent_cost_usd": cost,
            "started_at": "2025-01-01T00:00:00+00:00",
            "ended_at": "2025-01-01T00:00:02+00:00",
            "duration_s": 2.5,
        }
    )


def write_run(path: Path, records: list[ConversationRecord]) -> Path:
    path.mkdir(parents=True)
    with (path / "conversations.jsonl").open("w", encoding="utf-8") as f:
        for r in records:
            f.write(r.model_dump_json() + "\n")
    return path
