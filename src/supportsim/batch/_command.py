"""``supportsim run`` end to end, so the CLI only parses flags and maps the exit code.

Everything that can be wrong with the input (config, scenarios, specs, credentials, a
changed run) is found before the run directory is created or touched. Exit codes: 0 all
units completed; 1 the run ended but something did not (unit errors, budget, deadline,
Ctrl-C: the run can be resumed) or an agent missed a ``fail_under`` gate; 2 bad input,
nothing written.
"""

from __future__ import annotations

import asyncio
import shlex
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console

from supportsim._printable import printable
from supportsim.batch._config import (
    RunConfig,
    chosen_statement_judge,
    load_run_config,
    with_overrides,
)
from supportsim.batch._context import build_context
from supportsim.batch._gates import check_gates, describe_gates
from supportsim.batch._lag import LoopLag
from supportsim.batch._launch import check_ray_installed
from supportsim.batch._progress import Progress
from supportsim.batch._session import (
    Session,
    default_run_id,
    execute,
    prepare,
    stored_config,
)
from supportsim.domains._plugins import resolve_domain_spec
from supportsim.errors import InputError
from supportsim.llm import ModelPool, ResponseCache
from supportsim.store import (
    SUMMARY,
    ConversationRecord,
    ForeignTally,
    StoreError,
    Summary,
    describe_measurement,
    iter_records,
    with_loop_lag,
    write_doc,
)
from supportsim.workspace import Workspace, find_workspace

Summarise = Callable[..., dict[str, Any]]


@dataclass(frozen=True, slots=True)
class RunRequest:
    """What the command line asked for."""

    config_path: Path | None = None
    overrides: Mapping[str, Any] = field(default_factory=dict)
    run_id: str | None = None
    resume: bool = False
    force: bool = False
    cache: ResponseCache | None = None
    """``--cache``: the simulated Customer's replies are kept; ``cache_agents`` adds the
    Agents' (never by default: an Agent under test is what a run measures)."""
    cache_agents: bool = False


def resolve_config(request: RunRequest) -> RunConfig:
    """The file (or, resuming without one, the stored config) with the flags applied."""
    if request.resume and not request.run_id:
        raise InputError("--resume needs --run-id")
    if request.config_path is not None:
        base = load_run_config(request.config_path)
    elif request.resume:
        out = request.overrides.get("out") or RunConfig().out
        base = stored_config(out, request.run_id or "")
    else:
        base = RunConfig()
    return with_overrides(base, request.overrides)


@dataclass(slots=True)
class Prepared:
    config: RunConfig
    session: Session
    pool: ModelPool
    ctx: Any
    scenario_count: int
    models: dict[str, Any]


def effective_config(config: RunConfig, workspace: Workspace) -> RunConfig:
    """The config as the run stores it: the workspace's scenarios, personas and domains
    where the config leaves them unset, domain folders made absolute, so ``--resume``,
    ``rescore`` and ``judge`` rebuild exactly the inputs this run used. The statement
    judge is stored as chosen (``auto`` resolved), so a resumed session is judged alike."""
    update: dict[str, Any] = {"statement_judge": chosen_statement_judge(config)}
    scenarios = config.scenarios
    if "scenarios" not in config.model_fields_set:
        scenarios = [str(p) for p in workspace.scenarios]
    personas = config.personas
    if "personas" not in config.model_fields_set:
        personas = str(workspace.personas)
    # Absolute where they exist, so rescore and judge find them from any directory (a
    # missing path stays as typed: the bundled library, or an error naming it).
    update["categories"] = list(dict.fromkeys([*workspace.extra_categories, *config.categories]))
    update["scenarios"] = [_absolute(p) for p in scenarios]
    update["personas"] = _absolute(personas)
    own = [resolve_domain_spec(s, Path.cwd()) for s in config.domains]
    update["domains"] = list(dict.fromkeys([*workspace.domains, *own]))
    return config.model_copy(update=update)


def _absolute(path: str) -> str:
    return str(Path(path).resolve()) if Path(path).exists() else path


def prepare_run(request: RunRequest, env: Mapping[str, str]) -> Prepared:
    """Everything before the first conversation; raises InputError with nothing written."""
    config = resolve_config(request)
    workspace = find_workspace()
    config = effective_config(config, workspace)
    if config.ray is not None:
        check_ray_installed()
    concurrency = config.bounds  # what the flag means, resolved once for this session
    built = build_context(
        config,
        env,
        workspace,
        concurrency=concurrency,
        cache=request.cache,
        cache_agents=request.cache_agents,
    )
    session = prepare(
        config,
        built.fingerprint,
        concurrency=concurrency,
        run_id=request.run_id or default_run_id(config),
        resume=request.resume,
        force=request.force,
    )
    return Prepared(config, session, built.pool, built.ctx, built.scenario_count, built.models)


def run_summary(session: Session, extra: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The run-level part of summary.json: status, failures, spend, lag, sessions."""
    info = session.info
    return {
        "run_id": session.run_id,
        "status": session.status,
        "units_planned": len(session.units),
        "loop_lag": info.get("loop_lag"),
        "last_session": {k: v for k, v in info.items() if k != "loop_lag"},
        **(extra or {}),
    }


Show = Callable[[Mapping[str, Any], Console], None]
"""Prints the per-agent summary at the end of a run."""


def write_summary(
    session: Session, summarise: Summarise, trials: int
) -> tuple[dict[str, Any], dict[str, str]]:
    """summary.json from the records of the run's planned units, and each recorded unit's
    latest status. The records are streamed to ``summarise`` one at a time, never all held
    (a long run's records are gigabytes). A record of a unit outside the plan is foreign:
    counted apart (``units_foreign``), never scored. A store that cannot write keeps the
    summary in memory only (``summary_error`` says why)."""
    foreign = ForeignTally(session.plan)
    latest: dict[str, str] = {}
    spend = [0.0]

    def mine() -> Iterator[ConversationRecord]:
        for r in iter_records(session.run_dir):
            if not foreign.keep(r):
                continue
            latest[r.unit_id] = r.status
            spend[0] += r.cost_usd or 0.0
            yield r

    summary = summarise(mine(), trials=trials, agents=session.plan.agents)
    outside = foreign.result()
    statuses: dict[str, int] = {}
    for status in latest.values():
        statuses[status] = statuses.get(status, 0) + 1
    summary["run"] = run_summary(
        session,
        {
            "units_recorded": len(latest),
            "units_missing": len(session.units) - len(latest),
            "units_foreign": len(outside),
            "foreign_reasons": [{"reason": r, "count": n} for r, n in outside.reasons],
            "statuses": statuses,
            "infra_errors": statuses.get("infra_error", 0),
            "harness_errors": statuses.get("harness_error", 0),
            "spend_usd": spend[0],
        },
    )
    summary["measurement"] = with_loop_lag(summary.get("measurement"), session.info.get("loop_lag"))
    if session.floor is not None:
        summary["floor"] = session.floor
    try:
        write_doc(session.run_dir / SUMMARY, Summary, summary)
    except StoreError as exc:
        summary["summary_error"] = f"{SUMMARY} not written: {exc.strerror}"
    return summary, latest


def _next_step(session: Session, config_path: Path | None, out: str) -> str | None:
    if session.status == "completed":
        return None
    config = f" --config {shlex.quote(str(config_path))}" if config_path else ""
    if out != RunConfig().out:
        config += f" --out {shlex.quote(out)}"
    why = {
        "budget": "the budget ran out (raise --budget-usd)",
        "deadline": "the deadline passed",
        "interrupted": "it was interrupted",
        "cancelled": "it was cancelled",
        "infra_errors": "some units failed after retries (infra_error)",
        "stopped": f"it stopped ({session.stop_reason}); fix that first",
    }.get(session.status, session.status)
    return (
        f"run {session.run_id} is not complete: {why}. Continue it with:\n"
        f"  supportsim run{config} --run-id {shlex.quote(session.run_id)} --resume"
    )


def describe_statement_judge(config: RunConfig) -> str:
    """The line ``run`` prints at its start: which statement judge decides the
    communication checks (``config`` is the effective one: ``auto`` resolved)."""
    judge = config.statement_judge
    if judge is None:
        scripted = (
            " (the default with the scripted Customer)" if config.customer == "scripted" else ""
        )
        return f"statement judge: none, rules only{scripted}"
    why = " (the Customer's model; --statement-judge none for rules only)"
    return f"statement judge: {printable(judge)}" + (why if judge == config.customer else "")


def run_command(
    request: RunRequest,
    *,
    env: Mapping[str, str],
    summarise: Summarise,
    show: Show,
    console: Console,
    err: Console,
    live: bool | None = None,
) -> int:
    """The whole ``supportsim run``; returns the exit code (0, 1 or 2).

    ``summarise`` and ``show`` come from ``supportsim.report`` (the CLI wires them): the
    numbers and their per-agent tables are computed and drawn in one place only."""
    try:
        prepared = prepare_run(request, env)
    except InputError as exc:
        err.print(f"[bold red]error:[/] {len(getattr(exc, 'problems', [])) or 1} problem(s)")
        err.print(printable(exc, newlines=True), markup=False, highlight=False)
        return 2
    config, session = prepared.config, prepared.session
    console.print(
        f"run {session.run_id}: {len(session.todo)} of {len(session.units)} units to run "
        f"({prepared.scenario_count} scenarios x {len(config.agents)} agents x "
        f"{config.trials} trials), concurrency {config.concurrency}",
        markup=False,
        highlight=False,
    )
    console.print(describe_statement_judge(config), markup=False, highlight=False)
    for change in session.forced:
        err.print(f"warning: resuming a changed run (--force): {printable(change)}", markup=False)
    unpriced = sorted(name for name, m in prepared.models.items() if m.price is None)
    if config.budget_usd is not None and unpriced:
        err.print(
            f"warning: no price for {printable(', '.join(unpriced))}: their calls are not counted "
            "against --budget-usd (set a price in the models file)",
            markup=False,
        )
    progress: list[Progress] = []

    def watch(batch: Any) -> Any:
        shown = Progress(
            console,
            batch,
            stats=prepared.pool.stats,
            spend=lambda: session.prior_spend_usd + prepared.pool.stats.spend_usd,
            budget_usd=config.budget_usd,
            live=live,
        )
        progress.append(shown)
        return shown.watch()

    def on_record(record: ConversationRecord, state: Any) -> None:
        if progress:
            progress[0].on_record(record, state)

    async def go() -> Session:
        try:
            return await execute(
                session,
                prepared.ctx,
                config,
                pool=prepared.pool,
                on_record=on_record,
                watch=watch,
                on_note=lambda m: console.print(m, markup=False, highlight=False),
                lag=LoopLag(),
            )
        finally:
            await prepared.pool.aclose()

    try:
        asyncio.run(go())
    except KeyboardInterrupt:  # Ctrl-C outside the batch (setup or teardown)
        session.status = "cancelled"
    summary, latest = write_summary(session, summarise, config.trials)
    show(summary, console)
    _report_problems(console, latest.values())
    _report_store(err, session, summary)
    lag = session.info.get("loop_lag") or {}
    if lag.get("saturated"):
        err.print(
            f"warning: event-loop lag p99 {lag['p99_ms']:.1f} ms > 10 ms: the client was "
            "saturated, so measured latencies are inflated; lower --concurrency (or use auto)",
            markup=False,
        )
        if (measured := describe_measurement(summary.get("measurement"))) is not None:
            err.print(measured, markup=False, highlight=False)
    if (step := _next_step(session, request.config_path, config.out)) is not None:
        console.print(step, markup=False, highlight=False)
    console.print(f"run directory: {printable(session.run_dir)}", markup=False, highlight=False)
    failed = session.status != "completed" or any(s != "completed" for s in latest.values())
    gate_failed = report_gates(err, summary, config.fail_under)
    return 1 if failed or gate_failed else 0


def report_gates(err: Console, summary: Mapping[str, Any], thresholds: Mapping[str, float]) -> bool:
    """Print each gate an agent missed (or that all passed); True when one was missed."""
    if not thresholds:
        return False
    misses = check_gates(summary, thresholds)
    for miss in misses:
        err.print(printable(miss.reason()), markup=False, highlight=False)
    if not misses:
        err.print(f"gates passed: {describe_gates(thresholds)} for every agent", markup=False)
    return bool(misses)


def _report_problems(console: Console, statuses: Iterable[str]) -> None:
    counts: dict[str, int] = {}
    for status in statuses:
        if status != "completed":
            counts[status] = counts.get(status, 0) + 1
    if counts:
        console.print(
            "not scored: " + ", ".join(f"{n} {s}" for s, n in sorted(counts.items())),
            markup=False,
            highlight=False,
        )


def _report_store(err: Console, session: Session, summary: Mapping[str, Any]) -> None:
    """One line each for what the run directory could not take, and foreign records."""
    lines = []
    if session.status == "stopped":
        unrecorded = session.info.get("units_unrecorded") or 0
        lines.append(
            f"error: {session.stop_reason}: stopped starting conversations; running ones "
            f"finished ({unrecorded} could not be recorded and run again on resume)"
        )
    if session.manifest_error:
        lines.append(f"error: {session.manifest_error}")
    if summary.get("summary_error"):
        lines.append(f"error: {summary['summary_error']}")
    run = summary.get("run") or {}
    if foreign := run.get("units_foreign"):
        why = "; ".join(f"{r['reason']} ({r['count']})" for r in run.get("foreign_reasons", []))
        lines.append(
            f"warning: {foreign} unit(s) in {session.run_dir.name}/conversations.jsonl are "
            f"not in this run's plan (foreign records), not counted: {why}"
        )
    for line in lines:
        err.print(line, markup=False, highlight=False)
