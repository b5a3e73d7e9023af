"""Run directories built from records, and a mock judge that answers per unit."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from supportsim.domains import DomainCatalogue, builtin_domains
from supportsim.judges import OVERALL, default_rubric
from supportsim.scenario import load_personas, load_scenarios
from supportsim.store import CONVERSATIONS, MANIFEST, ConversationRecord, RecordWriter, write_json
from supportsim.testing import RecordedRequest, Reply, call, reply

FIXTURES = Path(__file__).parents[1] / "fixtures"
SCENARIO_ID = "mock-duplicate-refund"
UNIT_RE = re.compile(r"Unit: ([^\s\\\"]+)")
CRITERIA = default_rubric().criterion_ids


def fixture_sha() -> str:
    personas = load_personas([FIXTURES / "personas"])
    catalogue = DomainCatalogue(builtin_domains())
    (scenario,) = load_scenarios([FIXTURES / "scenarios"], catalogue=catalogue, personas=personas)
    return scenario.sha256


def unit_id(agent: str, trial: int) -> str:
    return f"{SCENARIO_ID}|{agent}|{trial}"


def record(
    agent: str,
    trial: int,
    strict: bool,
    *,
    status: str = "completed",
    sha: str = "",
    cost: float | None = 0.01,
    ended_at: str = "2026-01-01T00:00:01.000+00:00",
) -> ConversationRecord:
    return ConversationRecord.model_validate(
        {
            "unit_id": unit_id(agent, trial),
            "scenario_id": SCENARIO_ID,
            "scenario_sha256": sha,
            "domain": "mock",
            "category": "billing",
            "agent": agent,
            "customer": "scripted",
            "trial": trial,
            "status": status,
            "termination": "customer_done" if status == "completed" else "error",
            "strict": strict,
            "partial": 1.0 if strict else 0.5,
            "messages": [
                {"role": "customer", "content": "Hi, I was charged twice for March."},
                {
                    "role": "agent",
                    "content": "",
                    "tool_calls": [
                        {
                            "id": "c1",
                            "name": "verify_identity",
                            "arguments": '{"customer_id":"C-1"}',
                        }
                    ],
                },
                {
                    "role": "tool",
                    "content": '{"verified": true}',
                    "tool_call_id": "c1",
                    "name": "verify_identity",
                },
                {"role": "agent", "content": f"[bold]Refund[/] done for {agent}."},
            ],
            "cost_usd": cost,
            "started_at": "2026-01-01T00:00:00.000+00:00",
            "ended_at": ended_at,
        }
    )


def bits(pattern: str) -> list[bool]:
    return [c == "1" for c in pattern.replace(" ", "")]


def make_run(
    root: Path,
    strict: Mapping[str, bool] | None = None,
    *,
    agents: Sequence[str] = ("A", "B", "C"),
    trials: int = 4,
    pattern: str | None = None,
    extra: Sequence[ConversationRecord] = (),
    scenarios: str | None = None,
) -> Path:
    """A run directory of agents x trials completed units; strict from ``pattern`` bits
    (agent-major: A1..A4 B1..B4 ...) or the ``strict`` mapping."""
    run_dir = root / "run1"
    run_dir.mkdir(parents=True)
    sha = fixture_sha()
    verdicts = bits(pattern) if pattern else None
    writer = RecordWriter(run_dir)
    index = 0
    for agent in agents:
        for trial in range(1, trials + 1):
            uid = unit_id(agent, trial)
            value = verdicts[index] if verdicts else bool((strict or {}).get(uid, True))
            writer.append(record(agent, trial, value, sha=sha))
            index += 1
    for r in extra:
        writer.append(r)
    writer.close()
    write_json(
        run_dir / MANIFEST,
        {
            "run_id": "run1",
            "config": {
                "scenarios": [scenarios or str(FIXTURES / "scenarios")],
                "personas": str(FIXTURES / "personas"),
                "agents": list(agents),
                "trials": trials,
                "retries": {"max_attempts": 2, "base_delay_s": 0.0, "max_delay_s": 0.0},
            },
            "scenarios": {SCENARIO_ID: sha},
            "status": "completed",
        },
    )
    assert (run_dir / CONVERSATIONS).exists()
    return run_dir


def verdict_args(overall: bool, **criteria: bool) -> dict[str, Any]:
    """submit_verdict arguments: every criterion as ``overall`` unless given."""
    return {
        c: {
            "justification": f"{c} looks {'fine' if criteria.get(c, overall) else 'wrong'}.",
            "verdict": "pass" if criteria.get(c, overall) else "fail",
        }
        for c in CRITERIA
        if c != OVERALL
    } | {
        OVERALL: {
            "justification": "Overall " + ("ok." if overall else "not ok."),
            "verdict": "pass" if overall else "fail",
        }
    }


def requested_unit(request: RecordedRequest) -> str:
    found = UNIT_RE.search(request.text)
    assert found is not None, "a judge request names its unit"
    return found.group(1)


class PerUnitJudge:
    """A mock judge answering each unit from a table; a list answers successive samples."""

    def __init__(self, table: Mapping[str, bool | Sequence[bool]]) -> None:
        self.table = table
        self.seen: dict[str, int] = {}

    def __call__(self, request: RecordedRequest) -> Reply:
        unit = requested_unit(request)
        value = self.table[unit]
        if isinstance(value, bool):
            verdict = value
        else:
            count = self.seen.get(unit, 0)
            self.seen[unit] = count + 1
            verdict = value[count % len(value)]
        return reply(tool_calls=[call("submit_verdict", **verdict_args(verdict))])


def table_of(pattern: str, agents: Sequence[str] = ("A", "B", "C"), trials: int = 4) -> dict:
    values = bits(pattern)
    units = [unit_id(a, t) for a in agents for t in range(1, trials + 1)]
    assert len(values) == len(units)
    return dict(zip(units, values, strict=True))
