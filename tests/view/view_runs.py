"""Record lines and run.json for the viewer's tests: plain JSON, so a test can add fields
this version does not model (the customer review's)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def unit(
    scenario: str,
    agent: str,
    trial: int,
    *,
    strict: bool = True,
    status: str = "completed",
    reply_ms: float = 500.0,
    cost: float | None = 0.01,
    checks: list[dict[str, Any]] | None = None,
    messages: list[dict[str, Any]] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """One conversations.jsonl record as JSON (``extra``: any further fields)."""
    return {
        "unit_id": f"{scenario}|{agent}|{trial}",
        "scenario_id": scenario,
        "domain": "mock",
        "category": "cat",
        "tags": ["smoke"] if scenario.startswith("s") else ["long"],
        "agent": agent,
        "customer": "scripted",
        "trial": trial,
        "status": status,
        "termination": "customer_done" if status == "completed" else "error",
        "strict": strict,
        "partial": 1.0 if strict else 0.5,
        "checks": checks
        if checks is not None
        else [{"id": "step:x", "kind": "step", "passed": strict, "reason": "r"}],
        "messages": messages
        if messages is not None
        else [
            {"role": "customer", "content": "hi", "turn": 1},
            {"role": "agent", "content": "ok", "turn": 1, "response_ms": reply_ms},
        ],
        "cost_usd": cost,
        "agent_cost_usd": cost,
        "started_at": "2025-01-01T00:00:00+00:00",
        "ended_at": "2025-01-01T00:00:02+00:00",
        **extra,
    }


def append(run_dir: Path, *records: dict[str, Any]) -> None:
    """Append whole lines to the run's conversations.jsonl, as the runner does."""
    with (run_dir / "conversations.jsonl").open("a", encoding="utf-8") as f:
        for r in records:
            f.write(json.dumps(r) + "\n")


def manifest(run_dir: Path, *, scenarios: list[str], agents: list[str], trials: int,
             status: str = "running") -> None:  # fmt: skip
    """A run.json planning scenarios x agents x trials."""
    run_dir.mkdir(parents=True, exist_ok=True)
    doc = {
        "run_id": run_dir.name,
        "config": {"agents": agents, "customer": "scripted", "trials": trials},
        "agents": {a: a for a in agents},
        "scenarios": {s: "0" * 64 for s in scenarios},
        "started_at": "2025-02-01T00:00:00+00:00",
        "status": status,
    }
    (run_dir / "run.json").write_text(json.dumps(doc), encoding="utf-8")
