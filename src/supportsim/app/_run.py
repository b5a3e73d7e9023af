"""One run, end to end: prepare, execute, summarise; the same for the CLI and for Python.

``supportsim run`` (``app._command``) and ``supportsim.run`` are this module's three
steps, so a flag, a field and a result mean the same thing in both:

1. ``batch.prepare_run``: every input checked, nothing written on bad input (raises
   ``InputError``);
2. ``execute_prepared``: the session's conversations, on the caller's event loop, with
   optional ``RunHooks`` for a live view (the terminal's progress panel);
3. ``finish_run``: ``summary.json`` from the run's planned units (``report.summarise``, a
   typed ``store.Summary``), and the typed ``RunResult``.

``batch`` runs units and prints nothing; what a person sees is drawn here and in
``report``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from supportsim.batch import (
    Batch,
    BatchState,
    LoopLag,
    Prepared,
    RunConfig,
    RunRequest,
    Session,
    execute,
    prepare_run,
)
from supportsim.store import (
    SUMMARY,
    AgentRow,
    ConversationRecord,
    ForeignTally,
    ReasonCount,
    RunSection,
    SessionEntry,
    StoreError,
    Summary,
    iter_records,
    latest_records,
    with_loop_lag,
    write_doc,
)


@dataclass(frozen=True, slots=True)
class AgentResult:
    """One agent's figures over the run's scored units (``summary.json``'s agent row)."""

    label: str
    units: int
    """Units planned and recorded for this agent, scored or not."""
    scored: int
    """Units that completed and were scored (harness and infra errors are not)."""
    strict_rate: float | None
    """Share of scored units with every check passed; None when nothing was scored."""
    partial_mean: float | None
    """Mean partial score (the share of the workflow done); None when nothing was scored."""
    pass_hat_k: Mapping[int, float | None]
    response_ms_p50: float | None
    response_ms_p90: float | None
    cost_usd: float | None
    """None when a model in the conversation has no price (never 0 for unknown)."""
    status: Mapping[str, int]

    @classmethod
    def of(cls, label: str, row: AgentRow) -> AgentResult:
        """The figures of ``summary.json``'s row for ``label``."""
        return cls(
            label=label,
            units=row.units,
            scored=row.n,
            strict_rate=row.strict_rate,
            partial_mean=row.partial_mean,
            pass_hat_k={int(k): v for k, v in row.pass_hat_k.items()},
            response_ms_p50=row.response_ms.p50,
            response_ms_p90=row.response_ms.p90,
            cost_usd=row.cost_usd,
            status=dict(row.status),
        )


@dataclass(frozen=True, slots=True)
class RunResult:
    """What a run left: its directory, how it ended, each agent's figures and the records."""

    run_id: str
    run_dir: Path
    status: str
    """``completed``, or why it stopped: ``budget``, ``deadline``, ``interrupted``, ..."""
    agents: Mapping[str, AgentResult]
    records: Sequence[ConversationRecord]
    """The latest record of every planned unit, in file order (empty when the run was
    finished without them: ``finish_run(records=False)``, as ``supportsim run`` does)."""
    summary: Summary = field(repr=False)
    """``summary.json`` as written (the report's input)."""
    latest: Mapping[str, str] = field(default_factory=dict, repr=False)
    """Unit id -> the status of its latest record, for every planned unit recorded."""

    @property
    def ok(self) -> bool:
        """The run completed and every unit was scored (the CLI's exit code 0)."""
        return self.status == "completed" and all(s == "completed" for s in self.latest.values())


@dataclass(frozen=True, slots=True)
class RunHooks:
    """What a live view of a run is told (all optional): the terminal's progress panel."""

    on_record: Callable[[ConversationRecord, BatchState], None] | None = None
    """Each record as it is written."""
    watch: Callable[[Batch], Any] | None = None
    """Started with the batch (a coroutine factory: the progress panel's loop)."""
    on_note: Callable[[str], None] | None = None
    """A line the run has to say (Ctrl-C received, the floor could not be scored)."""


async def execute_prepared(prepared: Prepared, hooks: RunHooks | None = None) -> Session:
    """Run the prepared session's conversations on the caller's event loop; the model
    pool is closed however it ends."""
    hooks = hooks or RunHooks()
    try:
        return await execute(
            prepared.session,
            prepared.ctx,
            prepared.config,
            pool=prepared.pool,
            on_record=hooks.on_record,
            watch=hooks.watch,
            on_note=hooks.on_note,
            lag=LoopLag(),
        )
    finally:
        await prepared.pool.aclose()


def finish_run(prepared: Prepared, *, records: bool = True) -> RunResult:
    """summary.json of the session as it ended, and the run's typed result.

    ``records``: also load the latest record of every planned unit into the result
    (``supportsim.run``'s ``RunResult.records``). ``supportsim run`` passes False: it
    prints figures only, and a long run's records are gigabytes, so the end of a run
    streams them once (``write_summary``) and holds none."""
    session = prepared.session
    summary, latest = write_summary(session, prepared.config.trials)
    kept: list[ConversationRecord] = []
    if records:
        wanted = set(latest)
        kept = [r for u, r in latest_records(session.run_dir).items() if u in wanted]
    return RunResult(
        run_id=session.run_id,
        run_dir=session.run_dir,
        status=session.status,
        agents={label: AgentResult.of(label, row) for label, row in summary.agents.items()},
        records=kept,
        summary=summary,
        latest=latest,
    )


async def run(
    config: RunConfig | str | os.PathLike[str] | None = None,
    *,
    run_id: str | None = None,
    resume: bool = False,
    force: bool = False,
    env: Mapping[str, str] | None = None,
    **fields: Any,
) -> RunResult:
    """Run a batch and return its result (``supportsim run`` without the terminal).

    Args:
        config: a :class:`RunConfig`, a run config file, or None (the defaults).
        run_id: the run directory's name (default ``<name>-<UTC time>``); with ``resume``,
            the run to continue.
        resume: continue ``run_id``: only units without a record run.
        force: resume even though the scenarios, agents or models changed.
        env: where credentials are read (default ``os.environ``); never written anywhere.
        **fields: any :class:`RunConfig` field, overriding the config (``agents=[...]``,
            ``suite="smoke"``, ``trials=3``, ``out="runs"``...).

    Raises:
        InputError: bad input (a file, a field, a spec, a credential), raised before
            anything is written; its ``problems`` name the file and the field.
    """
    path: Path | None = None
    overrides = dict(fields)
    if isinstance(config, RunConfig):
        overrides = {**config.model_dump(exclude_unset=True), **overrides}
    elif config is not None:
        path = Path(config)
    request = RunRequest(
        config_path=path, overrides=overrides, run_id=run_id, resume=resume, force=force
    )
    prepared = prepare_run(request, os.environ if env is None else env)
    await execute_prepared(prepared)
    return finish_run(prepared)


def run_section(session: Session) -> RunSection:
    """The run-level part of summary.json the runner knows: status, its last session
    (``store.SessionEntry``) and the loop lag of the conversations' loops."""
    info = session.info
    return RunSection(
        run_id=session.run_id,
        status=session.status,
        units_planned=len(session.units),
        loop_lag=info.loop_lag if info is not None else None,
        # the lag is the run's (above); the entry keeps the rest of what it says
        last_session=(
            SessionEntry.model_validate(info.model_dump(exclude_unset=True, exclude={"loop_lag"}))
            if info is not None
            else {}
        ),
    )


def summarise(
    records: Iterable[ConversationRecord],
    *,
    trials: int,
    agents: Sequence[str],
    customers: Sequence[str] | None,
) -> Summary:
    """``report.summarise``, imported when the conversations are done: the report package is
    not on the path to a run's first unit (issue 23's start-up)."""
    from supportsim.report import summarise as report_summarise

    return report_summarise(records, trials=trials, agents=agents, customers=customers)


def write_summary(session: Session, trials: int) -> tuple[Summary, dict[str, str]]:
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

    summary = summarise(
        mine(),
        trials=trials,
        agents=session.plan.agents,
        customers=session.plan.customers if session.plan.several_customers else None,
    )
    outside = foreign.result()
    statuses: dict[str, int] = {}
    for status in latest.values():
        statuses[status] = statuses.get(status, 0) + 1
    run = run_section(session)
    run.units_recorded = len(latest)
    run.units_missing = len(session.units) - len(latest)
    run.units_foreign = len(outside)
    run.foreign_reasons = [ReasonCount(reason=r, count=n) for r, n in outside.reasons]
    run.statuses = statuses
    run.infra_errors = statuses.get("infra_error", 0)
    run.harness_errors = statuses.get("harness_error", 0)
    run.spend_usd = spend[0]
    summary.run = run
    loop_lag = session.info.loop_lag if session.info is not None else None
    summary.measurement = with_loop_lag(summary.measurement, loop_lag)
    if session.floor is not None:
        summary.floor = session.floor
    try:
        write_doc(session.run_dir / SUMMARY, Summary, summary.document())
    except StoreError as exc:
        summary.summary_error = f"{SUMMARY} not written: {exc.strerror}"
    return summary, latest
