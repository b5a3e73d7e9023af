"""``supportsim judge``: check every input, judge, record, then print the agreement.

Every input (run directory, rubric, judge specs and their keys, human labels) is checked
before anything is written, so bad input leaves the run directory untouched (exit 2).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console

from supportsim.batch import models_for, run_config_of
from supportsim.errors import InputError
from supportsim.judges._human import load_human_labels
from supportsim.judges._judge import Grader, Judge
from supportsim.judges._records import (
    HUMAN_LABELS,
    JudgmentRecord,
    read_judges_manifest,
)
from supportsim.judges._rubric import Rubric, default_rubric, load_rubric
from supportsim.judges._session import (
    JudgePlan,
    JudgeState,
    completed_records,
    execute_judging,
    plan_judging,
)
from supportsim.judges._summary import agreement_summary
from supportsim.judges._terminal import render_terminal
from supportsim.llm import (
    ModelPool,
    ResponseCache,
    RetryPolicy,
    parse_model_spec,
    scrubber,
)
from supportsim.store import MANIFEST, Agreement, HumanLabelsDoc, read_json, write_doc

AGREEMENT = "agreement.json"


@dataclass(frozen=True, slots=True)
class JudgeOutcome:
    """What a ``judge`` invocation did: the session (None if no judge ran) and the summary."""

    plan: JudgePlan | None
    summary: dict[str, Any]
    warnings: list[str]

    @property
    def exit_code(self) -> int:
        """1 when a judgment is still an infra error or the session stopped early."""
        if self.plan is not None and self.plan.status != "completed":
            return 1
        coverage = self.summary.get("coverage") or {}
        return 1 if any(c["infra_errors"] for c in coverage.values()) else 0


def _rubric(path: Path | None, judging: bool, run_dir: Path) -> Rubric:
    if path is not None:
        if not judging:
            raise InputError("--rubric applies to new judgments: give it with --judge")
        return load_rubric(path)
    stored = read_judges_manifest(run_dir)
    if not judging and stored and "rubric" in stored:
        return Rubric.model_validate(stored["rubric"])
    return default_rubric()


async def judge_run(
    run_dir: Path,
    *,
    judge_specs: Sequence[str] = (),
    samples: int = 1,
    rubric_path: Path | None = None,
    human_path: Path | None = None,
    concurrency: int = 8,
    budget_usd: float | None = None,
    deadline_s: float | None = None,
    models_path: Path | None = None,
    env: Mapping[str, str],
    policy: RetryPolicy | None = None,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    on_judgment: Callable[[JudgmentRecord, JudgeState], None] | None = None,
    on_plan: Callable[[JudgePlan], None] | None = None,
    cache: ResponseCache | None = None,
) -> JudgeOutcome:
    """Judge a stored run and summarise the agreement (writes judgments.jsonl, judges.json,
    human_labels.json and agreement.json in ``run_dir``).

    Raises:
        InputError: bad input, before anything is written.
    """
    if not (run_dir / MANIFEST).exists():
        raise InputError(f"{run_dir}: not a run directory (no {MANIFEST})")
    if concurrency < 1:
        raise InputError(f"--concurrency must be at least 1, got {concurrency}")
    judging = bool(judge_specs)
    if not judging and human_path is None and read_judges_manifest(run_dir) is None:
        raise InputError("give at least one --judge SPEC (this run has no judgments yet)")
    manifest = read_json(run_dir / MANIFEST)
    rubric = _rubric(rubric_path, judging, run_dir)
    models = models_for(models_path, manifest)
    run_config = run_config_of(manifest)
    configs = {spec: parse_model_spec(spec, models) for spec in judge_specs}
    if run_config.call_timeout_s is not None:
        configs = {
            k: c.model_copy(update={"timeout_s": run_config.call_timeout_s})
            for k, c in configs.items()
        }
    pool = ModelPool(
        env=env,
        policy=policy or run_config.retries,
        limits=run_config.rate_limits,
        default_concurrency=concurrency,
        sleep=sleep,
        cache=cache,
        cache_roles=frozenset({"judge"}),
    )
    # each judge's key and endpoint, read once (the pool's clients use the same), before
    # anything is written; no client is built until there is something to judge
    resolved = [pool.resolved(c, purpose="judge") for c in configs.values()]
    scrub = scrubber([r.api_key for r in resolved], [r.base_url for r in resolved])
    human = None
    if human_path is not None:
        human = load_human_labels(
            human_path,
            units=set(completed_records(run_dir)),
            criteria=rubric.criterion_ids,
        )
    plan = plan_judging(run_dir, rubric, list(judge_specs), samples) if judging else None
    if human is not None:
        write_doc(run_dir / HUMAN_LABELS, HumanLabelsDoc, human)
    if plan is not None:
        if on_plan is not None:
            on_plan(plan)
        try:
            pool.check({c.name: c for c in configs.values()})
            judges = {
                spec: Judge(spec, pool.caller(config, "judge")) for spec, config in configs.items()
            }
            await execute_judging(
                plan,
                judges,
                Grader(rubric),
                concurrency=concurrency,
                budget_usd=budget_usd,
                deadline_s=deadline_s,
                on_judgment=on_judgment,
                stats=pool.stats,
                scrub=scrub,
            )
        finally:
            await pool.aclose()
    summary = agreement_summary(run_dir)
    write_doc(run_dir / AGREEMENT, Agreement, summary)
    return JudgeOutcome(plan, summary, plan.warnings if plan else [])


def judge_command(
    run_dir: Path,
    *,
    judge_specs: Sequence[str],
    samples: int,
    rubric_path: Path | None,
    human_path: Path | None,
    concurrency: int,
    budget_usd: float | None,
    models_path: Path | None,
    env: Mapping[str, str],
    console: Console,
    deadline_s: float | None = None,
    cache: ResponseCache | None = None,
) -> int:
    """The ``supportsim judge`` command; returns the exit code (InputError: the caller's 2).
    ``cache`` (``--cache``): judge replies are read from and kept in it."""

    def planned(plan: JudgePlan) -> None:
        for warning in plan.warnings:
            console.print(f"warning: {warning}", markup=False, highlight=False)
        console.print(
            f"judging {plan.run_dir.name}: {len(plan.todo)} judgment(s) to make "
            f"({len(plan.units)} conversations x {len(plan.judges)} judges x "
            f"{plan.samples} samples, rubric {plan.rubric.name})",
            markup=False,
            highlight=False,
        )

    def progress(j: JudgmentRecord, state: JudgeState) -> None:
        verdict = j.verdicts.get("overall", {}).get("verdict", "") if j.status == "ok" else ""
        detail = verdict or f"infra_error: {(j.error or '').splitlines()[0][:160]}"
        detail += " (cached)" if j.cached else ""
        console.print(
            f"[{state.done}/{state.total}] {j.unit_id} {j.judge} #{j.sample}: {detail}",
            markup=False,
            highlight=False,
        )

    async def go() -> JudgeOutcome:
        return await judge_run(
            run_dir,
            judge_specs=judge_specs,
            samples=samples,
            rubric_path=rubric_path,
            human_path=human_path,
            concurrency=concurrency,
            budget_usd=budget_usd,
            deadline_s=deadline_s,
            models_path=models_path,
            env=env,
            on_judgment=progress,
            on_plan=planned,
            cache=cache,
        )

    try:
        outcome = asyncio.run(go())
    except KeyboardInterrupt:  # second Ctrl-C: finished judgments are already on disk
        console.print("cancelled; finished judgments are saved")
        return 1
    console.print(render_terminal(outcome.summary))
    if outcome.plan is not None and outcome.plan.status != "completed":
        console.print(f"judging stopped: {outcome.plan.status}", markup=False)
    console.print(f"agreement summary: {run_dir / AGREEMENT}", markup=False, highlight=False)
    return outcome.exit_code
