"""``supportsim run`` in a terminal: the run of ``app._run`` with a live view, the
leaderboard at the end, and every line a person needs (what did not finish, how to
resume, the gates), so the CLI only parses flags and maps the exit code.

Exit codes: 0 all units completed; 1 the run ended but something did not (unit errors,
budget, deadline, Ctrl-C: the run can be resumed) or an agent missed a ``fail_under``
gate; 2 bad input, nothing written.
"""

from __future__ import annotations

import asyncio
import shlex
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from rich.console import Console

from supportsim._printable import printable
from supportsim.app._progress import Progress
from supportsim.app._run import RunHooks, execute_prepared, finish_run
from supportsim.batch import (
    Batch,
    BatchState,
    Prepared,
    RunConfig,
    RunRequest,
    Session,
    check_gates,
    describe_gates,
    prepare_run,
)
from supportsim.errors import InputError
from supportsim.store import ConversationRecord, Summary, describe_measurement


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


def next_command(run_dir: Path) -> str:
    """The line a completed run ends with: the command to try next (the HTML report, where
    every failing check is shown with its reason and the conversation it is about)."""
    return (
        "next: each failing check with its reason, in the HTML report:\n"
        f"  supportsim report {shlex.quote(printable(run_dir))} --html"
    )


def describe_statement_judge(config: RunConfig) -> str:
    """The line ``run`` prints at its start: which statement judge decides the
    communication checks (``config`` is the effective one: ``auto`` resolved)."""
    judge = config.statement_judge
    if judge is None:
        scripted = (
            " (the default with the scripted Customer)" if config.customer == ["scripted"] else ""
        )
        return f"statement judge: none, rules only{scripted}"
    why = " (the Customer's model; --statement-judge none for rules only)"
    return f"statement judge: {printable(judge)}" + (why if judge in config.customer else "")


def describe_replay(prepared: Prepared) -> str | None:
    """The line ``run`` prints at its start with ``--replay-customer``: how many of the
    units to run have a stored conversation to follow (a label that differs from the
    stored run's finds none, and says so here rather than nowhere), and how many stored
    ones are not followed because their scenario file or persona changed."""
    ctx = prepared.ctx
    if ctx.replay is None:
        return None
    todo = [u for u in prepared.session.todo if ctx.customer_for(u).model is not None]
    found = changed = 0
    for u in todo:
        key = (u.scenario_id, u.agent, ctx.customer_for(u).label, u.trial)
        if key not in ctx.replay.units:
            continue
        scenario = ctx.scenarios[u.scenario_id]
        if ctx.replay.changed(key, scenario, ctx.personas.get(scenario.persona)):
            changed += 1
        else:
            found += 1
    line = (
        f"replaying the Customer of {ctx.replay.source}: {found} of {len(todo)} units with a "
        "model Customer have a stored conversation (same scenario, agent label, Customer, trial)"
    )
    if changed:
        line += f"; {changed} not replayed: their scenario or persona changed"
    return line


def run_command(
    request: RunRequest,
    *,
    env: Mapping[str, str],
    console: Console,
    err: Console,
    live: bool | None = None,
) -> int:
    """The whole ``supportsim run``; returns the exit code (0, 1 or 2)."""
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
        + (f"{len(config.customer)} customers x " if len(config.customer) > 1 else "")
        + f"{config.trials} trials), concurrency {config.concurrency}",
        markup=False,
        highlight=False,
    )
    console.print(describe_statement_judge(config), markup=False, highlight=False)
    if (replaying := describe_replay(prepared)) is not None:
        console.print(printable(replaying), markup=False, highlight=False)
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

    def watch(batch: Batch) -> Any:
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

    def on_record(record: ConversationRecord, state: BatchState) -> None:
        if progress:
            progress[0].on_record(record, state)

    hooks = RunHooks(
        on_record=on_record,
        watch=watch,
        on_note=lambda m: console.print(m, markup=False, highlight=False),
    )
    try:
        asyncio.run(execute_prepared(prepared, hooks))
    except KeyboardInterrupt:  # Ctrl-C outside the batch (setup or teardown)
        session.status = "cancelled"
    result = finish_run(prepared, records=False)  # figures only: no record is held
    summary = result.summary
    from supportsim.report import render_leaderboard  # at the end: not on start-up's path

    render_leaderboard(summary, console)
    _report_problems(console, result.latest.values())
    _report_store(err, session, summary)
    lag = session.info.loop_lag if session.info is not None else None
    if lag is not None and lag.saturated:
        err.print(
            f"warning: event-loop lag p99 {lag.p99_ms or 0:.1f} ms > 10 ms: the client was "
            "saturated, so measured latencies are inflated; lower --concurrency (or use auto)",
            markup=False,
        )
        if (measured := describe_measurement(summary.measurement)) is not None:
            err.print(measured, markup=False, highlight=False)
    if (step := _next_step(session, request.config_path, config.out)) is not None:
        console.print(step, markup=False, highlight=False)
    console.print(f"run directory: {printable(session.run_dir)}", markup=False, highlight=False)
    if session.status == "completed":
        console.print(next_command(session.run_dir), markup=False, highlight=False)
    gate_failed = report_gates(err, summary, config.fail_under)
    return 0 if result.ok and not gate_failed else 1


def report_gates(err: Console, summary: Summary, thresholds: Mapping[str, float]) -> bool:
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


def _report_store(err: Console, session: Session, summary: Summary) -> None:
    """One line each for what the run directory could not take, and foreign records."""
    lines = []
    if session.status == "stopped":
        unrecorded = (session.info.units_unrecorded if session.info is not None else None) or 0
        lines.append(
            f"error: {session.stop_reason}: stopped starting conversations; running ones "
            f"finished ({unrecorded} could not be recorded and run again on resume)"
        )
    if session.manifest_error:
        lines.append(f"error: {session.manifest_error}")
    if summary.summary_error:
        lines.append(f"error: {summary.summary_error}")
    run = summary.run
    if run is not None and (foreign := run.units_foreign):
        why = "; ".join(f"{r.reason} ({r.count})" for r in run.foreign_reasons)
        lines.append(
            f"warning: {foreign} unit(s) in {session.run_dir.name}/conversations.jsonl are "
            f"not in this run's plan (foreign records), not counted: {why}"
        )
    for line in lines:
        err.print(line, markup=False, highlight=False)
