"""A judging session: plan the judgments a run still needs, make them concurrently, record.

The grain is (unit, judge, sample). Only completed conversations are judged (an infra error
or a simulator fault has no Agent behaviour to grade). Resuming makes exactly the
judgments without a verdict under the current rubric for the conversation as recorded now:
an infra_error judgment is retried, a judgment of an older record of a re-run unit or under
another rubric does not count. Jobs run under the batch runner's ``JobRunner``; each call
goes through the model layer as a run's do (``llm.ModelPool``: its limiters, retries and
ledger per call).

``--budget-usd`` bounds this session's judge spend, as ``run --budget-usd`` bounds a run
session's conversation spend: the conversations are already paid for, and the ledger shows
both lines side by side.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from supportsim.batch import Finished, JobRunner, JobState
from supportsim.errors import InputError
from supportsim.judges._cases import build_cases
from supportsim.judges._judge import Grader, Judge, judge_once
from supportsim.judges._prompt import Case
from supportsim.judges._records import (
    JudgmentRecord,
    JudgmentWriter,
    iter_judgments,
    read_judges_manifest,
    save_judges_manifest,
)
from supportsim.judges._rubric import Rubric
from supportsim.llm import CallStats, Scrubber
from supportsim.store import (
    DOCUMENT_SCHEMA_VERSION,
    MANIFEST,
    ConversationRecord,
    latest_records,
    read_json,
)


@dataclass(frozen=True, slots=True)
class Task:
    record: ConversationRecord
    judge: str
    sample: int


@dataclass
class JudgeState(JobState):
    """The runner's counters, plus verdicts made and failed (for progress and the ledger)."""

    ok: int = 0
    errors: int = 0
    judgments: list[JudgmentRecord] = field(default_factory=list)

    @property
    def spend_usd(self) -> float:
        """This session's judge spend."""
        return self.record_spend_usd


@dataclass(slots=True)
class JudgePlan:
    """What a session will do; built before anything is written."""

    run_dir: Path
    rubric: Rubric
    judges: tuple[str, ...]
    samples: int
    units: list[ConversationRecord]
    todo: list[Task]
    cases: dict[str, Case]
    warnings: list[str]
    state: JudgeState | None = None
    status: str = "running"


def completed_records(run_dir: Path) -> dict[str, ConversationRecord]:
    """The latest record of each unit whose conversation completed (the judgeable ones)."""
    return {u: r for u, r in latest_records(run_dir).items() if r.status == "completed"}


def current(judgment: JudgmentRecord, records: Mapping[str, ConversationRecord], sha: str) -> bool:
    """Whether a judgment counts: this rubric, and the unit's record it read is the latest."""
    record = records.get(judgment.unit_id)
    return (
        record is not None
        and judgment.rubric_sha256 == sha
        and (
            not judgment.conversation_ended_at or judgment.conversation_ended_at == record.ended_at
        )
    )


def plan_judging(run_dir: Path, rubric: Rubric, judges: Sequence[str], samples: int) -> JudgePlan:
    """The judgments still to make (sample-major, so an early stop leaves every judge the
    same units). Raises InputError when ``run_dir`` is not a run."""
    if not (run_dir / MANIFEST).exists():
        raise InputError(f"{run_dir}: not a run directory (no {MANIFEST})")
    if samples < 1:
        raise InputError(f"--samples must be at least 1, got {samples}")
    if len(set(judges)) != len(judges):
        raise InputError("the same --judge is given twice")
    records = completed_records(run_dir)
    done = {
        j.key
        for j in iter_judgments(run_dir)
        if j.status == "ok" and current(j, records, rubric.sha256)
    }
    units = sorted(records.values(), key=lambda r: (r.trial, r.scenario_id, r.agent))
    todo = [
        Task(record, judge, sample)
        for sample in range(1, samples + 1)
        for record in units
        for judge in judges
        if (record.unit_id, judge, sample) not in done
    ]
    cases, warnings = build_cases(read_json(run_dir / MANIFEST), units) if todo else ({}, [])
    return JudgePlan(run_dir, rubric, tuple(judges), samples, units, todo, cases, warnings)


def _session_entry(plan: JudgePlan) -> dict[str, Any]:
    return {
        "started_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "ended_at": None,
        "status": "running",
        "judges": list(plan.judges),
        "samples": plan.samples,
        "planned": len(plan.todo),
        "judged": 0,
        "infra_errors": 0,
        "spend_usd": 0.0,
    }


def open_manifest(plan: JudgePlan) -> None:
    """Record the rubric the statistics use (this one, from now on) and the new session."""
    manifest = read_judges_manifest(plan.run_dir) or {
        "schema_version": DOCUMENT_SCHEMA_VERSION,
        "sessions": [],
    }
    manifest["rubric"] = plan.rubric.model_dump(mode="json")
    manifest["rubric_sha256"] = plan.rubric.sha256
    manifest["sessions"] = [*manifest.get("sessions", []), _session_entry(plan)]
    save_judges_manifest(plan.run_dir, manifest)


def _close_manifest(plan: JudgePlan, state: JudgeState, stats: CallStats | None) -> None:
    manifest = read_judges_manifest(plan.run_dir) or {"sessions": [_session_entry(plan)]}
    entry = manifest["sessions"][-1]
    entry.update(
        ended_at=datetime.now(UTC).isoformat(timespec="seconds"),
        status=plan.status,
        judged=state.ok,
        infra_errors=state.errors,
        spend_usd=state.spend_usd,
    )
    if stats is not None:
        entry["calls"] = asdict(stats)  # the pool's ledger: attempts, retries, tokens, spend
    save_judges_manifest(plan.run_dir, manifest)


class JudgeBatch(JobRunner[Task, JudgmentRecord, JudgeState]):
    """The plan's judgments through the one job runner (``supportsim.batch``): the same
    gate, budget rule, deadline, store-failure handling and signals as conversations."""

    def __init__(
        self,
        plan: JudgePlan,
        judges: Mapping[str, Judge],
        grader: Grader,
        writer: JudgmentWriter,
        *,
        concurrency: int,
        budget_usd: float | None,
        deadline_s: float | None = None,
        on_judgment: Callable[[JudgmentRecord, JudgeState], None] | None = None,
    ) -> None:
        self.plan = plan
        self.judges = judges
        self.grader = grader
        self.judgment_writer = writer
        super().__init__(
            plan.todo,
            self._judge,
            writer,
            JudgeState(total=len(plan.todo)),
            concurrency=concurrency,
            budget_usd=budget_usd,
            deadline_s=deadline_s,
            on_record=on_judgment,
        )

    async def _judge(self, task: Task) -> Finished[JudgmentRecord]:
        case = self.plan.cases.get(task.record.scenario_id) or Case(policy="")
        judgment = await judge_once(
            self.grader, self.judges[task.judge], task.record, case, task.sample
        )
        return Finished(judgment, self.judgment_writer.encode(judgment), judgment.cost_usd)

    def account(self, record: JudgmentRecord) -> None:
        state = self.state
        state.ok += record.status == "ok"
        state.errors += record.status != "ok"
        state.judgments.append(record)


async def execute_judging(
    plan: JudgePlan,
    judges: Mapping[str, Judge],
    grader: Grader,
    *,
    concurrency: int = 8,
    budget_usd: float | None = None,
    deadline_s: float | None = None,
    on_judgment: Callable[[JudgmentRecord, JudgeState], None] | None = None,
    stats: CallStats | None = None,
    scrub: Scrubber | None = None,
) -> JudgePlan:
    """Make the plan's judgments. First Ctrl-C: finish running ones; second: cancel.
    ``scrub`` removes the judges' API keys from every stored judgment."""
    open_manifest(plan)
    writer = JudgmentWriter(plan.run_dir, scrub)
    batch = JudgeBatch(
        plan,
        judges,
        grader,
        writer,
        concurrency=concurrency,
        budget_usd=budget_usd,
        deadline_s=deadline_s,
        on_judgment=on_judgment,
    )
    try:
        plan.state = await batch.run_interruptible()
        plan.status = plan.state.stopped_because or "completed"
    except asyncio.CancelledError:
        plan.status, plan.state = "interrupted", batch.state
        raise
    finally:
        writer.close()
        _close_manifest(plan, batch.state, stats)
    return plan
