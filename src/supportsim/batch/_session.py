"""One ``supportsim run`` invocation: select, plan, resume, run, and close the manifest.

Resume runs exactly the units without a final record (a final record is any status but
infra_error), so a unit is never run twice and infra errors are retried. It refuses when
the configuration, a scenario or persona file, or a model changed, unless forced, and
says what changed.

Whatever happens, the session ends with run.json in a terminal state: completed, budget,
deadline, interrupted (first Ctrl-C or SIGTERM), cancelled (second), infra_errors, or
stopped with a ``stop_reason`` when the store could not write (``store: No space left
on device``). When even run.json cannot be replaced, it is rewritten in place; failing
that it keeps ``running`` and readers see the dead writer (``store.live_status``).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from supportsim._tracing import traced_run
from supportsim.batch._concurrency import Concurrency
from supportsim.batch._config import RunConfig
from supportsim.batch._hub import Hub
from supportsim.batch._jobs import RecordSink
from supportsim.batch._lag import LoopLag
from supportsim.batch._launch import launcher_for, worker_count, worker_setup, worker_timing
from supportsim.batch._manifest import (
    changes,
    close_manifest,
    manifest_to_resume,
    new_manifest,
    now_iso,
    save_manifest,
    seconds_since_last_request,
)
from supportsim.batch._mcp import with_mcp_host
from supportsim.batch._runner import Batch, BatchState
from supportsim.batch._unit import UnitContext
from supportsim.batch._units import Unit, plan_units
from supportsim.errors import InputError
from supportsim.llm import ModelPool
from supportsim.store import (
    MANIFEST,
    CallCounts,
    ConversationRecord,
    Floor,
    Limits,
    LoopLagStats,
    RecordWriter,
    RunLock,
    RunPlan,
    SessionEntry,
    StoreError,
    WorkersInfo,
    final_unit_ids,
    iter_ledger,
    iter_records,
)


@dataclass(slots=True)
class Session:
    """One invocation's view of a run."""

    run_id: str
    run_dir: Path
    plan: RunPlan
    """Which units the run has (``store.RunPlan``): what every reader counts."""
    units: list[Unit]
    todo: list[Unit]
    concurrency: Concurrency = field(kw_only=True)
    """This session's ``--concurrency``, resolved once by ``prepare_run``: the gate, the
    endpoints' default limit, the workers' count, set-up and ``open_at`` read it."""
    prior_spend_usd: float = 0.0
    prior_costs: list[float] = field(default_factory=list)
    forced: list[str] = field(default_factory=list)
    state: BatchState | None = None
    status: str = "running"
    stop_reason: str | None = None
    """Why a ``stopped`` session stopped, e.g. ``store: No space left on device``."""
    manifest_error: str | None = None
    """Set when run.json could not be closed (it then still says ``running``)."""
    info: SessionEntry | None = None
    """This session's entry in run.json, set as the session ends."""
    lock: RunLock | None = None
    """Held from ``prepare`` to the end of ``execute``: one writer per run directory."""
    fingerprint: dict[str, Any] = field(default_factory=dict)
    floor: Floor | None = None
    """The do-nothing floor of the run's scenarios (``store.Summary.floor``), set when the
    session ran to its end; None when it was cancelled or the floor could not be scored."""
    """This invocation's inputs (``fingerprint``): workers must have the same."""
    quiet_s: float | None = None
    """A resumed run: how long ago its last session may still have sent a model request
    (``seconds_since_last_request``); the rate windows start from it."""


def default_run_id(config: RunConfig, now: datetime | None = None) -> str:
    """``<config name>-<UTC date>-<time>``: readable, sortable, and unique per second."""
    return f"{config.name}-{(now or datetime.now(UTC)).strftime('%Y%m%d-%H%M%S')}"


def prepare(
    config: RunConfig,
    fingerprint: Mapping[str, Any],
    *,
    concurrency: Concurrency,
    run_id: str,
    resume: bool,
    force: bool,
) -> Session:
    """Create or reopen the run directory; nothing is written on bad input. The units
    are the fingerprint's plan: its scenarios x its Agents' labels x the config's trials;
    ``concurrency`` is this session's (``config.bounds``, resolved by the caller), kept as
    ``Session.concurrency``.

    Raises:
        InputError: Resuming a run that does not exist or changed (without ``force``), or
            starting one whose directory exists.
    """
    run_dir = Path(config.out) / run_id
    plan = RunPlan(
        tuple(fingerprint["scenarios"]),
        tuple(fingerprint["agents"]),
        config.trials,
        customers=tuple(config.customer),
    )
    units = plan_units(plan)
    if not resume:
        if run_dir.exists():
            raise InputError(
                f"{run_dir} already exists: pass --resume to continue it, or another --run-id"
            )
        try:
            run_dir.mkdir(parents=True)
        except OSError as exc:
            raise InputError(
                f"{run_dir}: cannot create the run directory ({exc.strerror or exc})"
            ) from None
        try:
            lock = RunLock(run_dir)
        except InputError:
            _remove_new_run(run_dir)
            raise
        try:
            save_manifest(run_dir, new_manifest(run_id, fingerprint))
        except StoreError as exc:  # e.g. a full disk: leave nothing half-made behind
            lock.release()
            _remove_new_run(run_dir)
            raise InputError(f"{run_dir}: cannot write {MANIFEST} ({exc.strerror})") from None
        return Session(
            run_id,
            run_dir,
            plan,
            units,
            list(units),
            concurrency=concurrency,
            lock=lock,
            fingerprint=dict(fingerprint),
        )
    if not (run_dir / MANIFEST).exists():
        raise InputError(f"{run_dir}: no run to resume (no {MANIFEST})")
    lock = RunLock(run_dir)
    try:
        return _reopen(
            run_dir, run_id, plan, fingerprint, concurrency=concurrency, force=force, lock=lock
        )
    except BaseException:
        lock.release()
        raise


def _reopen(
    run_dir: Path,
    run_id: str,
    plan: RunPlan,
    fingerprint: Mapping[str, Any],
    *,
    concurrency: Concurrency,
    force: bool,
    lock: RunLock,
) -> Session:
    manifest = manifest_to_resume(run_dir)
    quiet_s = seconds_since_last_request(manifest)
    diff = changes(manifest, fingerprint)
    if diff and not force:
        raise InputError(
            f"{run_dir}: the run changed since it started; refusing to resume "
            "(--force to resume anyway):\n  " + "\n  ".join(diff)
        )
    records = list(iter_ledger(run_dir))  # not the records: they may be gigabytes
    final = final_unit_ids(records)
    if diff:  # forced: the run goes on under the new fingerprint, and says so
        manifest.update(fingerprint)
    elif not manifest.get("agents"):  # written before labels were stored: store them now
        manifest["agents"] = dict(fingerprint["agents"])
    manifest["status"], manifest["ended_at"] = "running", None
    manifest.pop("stop_reason", None)
    try:
        save_manifest(run_dir, manifest)
    except StoreError as exc:
        raise InputError(
            f"{run_dir}: cannot write {MANIFEST} ({exc.strerror}); free space or fix "
            "permissions, then resume again"
        ) from None
    units = plan_units(plan)
    return Session(
        run_id,
        run_dir,
        plan,
        units,
        [u for u in units if u.unit_id not in final],
        concurrency=concurrency,
        prior_spend_usd=sum(r.cost_usd or 0.0 for r in records),
        prior_costs=[r.cost_usd for r in records if r.cost_usd is not None],
        forced=diff,
        lock=lock,
        fingerprint=dict(fingerprint),
        quiet_s=quiet_s,
    )


def _remove_new_run(run_dir: Path) -> None:
    """Undo ``prepare`` of a new run that could not be set up (best effort)."""
    for name in (MANIFEST, MANIFEST + ".tmp", ".lock"):
        with contextlib.suppress(OSError):
            (run_dir / name).unlink()
    with contextlib.suppress(OSError):
        run_dir.rmdir()


def stored_config(out: str, run_id: str) -> RunConfig:
    """The configuration a run was started with, to resume it without ``--config``.

    Without its deadline: a deadline counts from a session's start, so an old one would
    stop the resumed session at once (pass ``--deadline`` again to keep one).
    """
    path = Path(out) / run_id / MANIFEST
    if not path.exists():
        raise InputError(f"{path.parent}: no run to resume (no {MANIFEST})")
    stored = manifest_to_resume(path.parent)["config"]
    try:
        return RunConfig.model_validate({**stored, "deadline_s": None})
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        where = ".".join(str(p) for p in first["loc"])
        raise InputError(
            f"{path} [config.{where}]: {first['msg']}; pass --config to resume this run"
        ) from None


def _outcome(session: Session, batch: Batch) -> str:
    """completed, or why not: budget, deadline, interrupted, cancelled, infra_errors, or
    stopped (the store failed; ``session.stop_reason`` says how)."""
    state = batch.state
    if state.store_error is not None:
        session.stop_reason = state.store_error.reason
        return "stopped"
    if state.stopped_because:
        return state.stopped_because
    final = final_unit_ids(iter_records(session.run_dir, on_bad_line=lambda _problem: None))
    return "completed" if all(u.unit_id in final for u in session.units) else "infra_errors"


@traced_run
async def execute(
    session: Session,
    ctx: UnitContext,
    config: RunConfig,
    *,
    pool: ModelPool,
    on_record: Callable[[ConversationRecord, BatchState], None] | None = None,
    watch: Callable[[Batch], Any] | None = None,
    on_note: Callable[[str], None] | None = None,
    lag: LoopLag | None = None,
    fsync_each: bool = False,
) -> Session:
    """Run the session's units and close the manifest, whatever happens.

    First Ctrl-C: start no new unit, let running ones finish. Second: cancel them; what
    finished is on disk already. ``watch(batch)`` is a coroutine run alongside (progress).
    """
    if session.quiet_s is not None:  # rpm/tpm windows: a provider's minute spans restarts
        pool.assume_busy(session.quiet_s)
    bounds = session.concurrency
    count, launcher, launch_error = 1, None, None
    if config.ray is not None:
        try:  # ray.init: the cluster's CPUs are the default count
            launcher = launcher_for(config)
            count = worker_count(
                config, len(session.todo), cores=launcher.cpus(), concurrency=bounds
            )
        except Exception as exc:  # any failure to reach the cluster
            launch_error = f"ray: {str(exc).strip().splitlines()[0] if str(exc) else exc!r}"
    elif (count := worker_count(config, len(session.todo), concurrency=bounds)) > 1:
        launcher = launcher_for(config)
    if launcher is None:
        await pool.warm()
    writer: RecordSink
    try:
        writer = RecordWriter(session.run_dir, fsync_each=fsync_each)
    except StoreError as exc:
        writer = _NoWriter(exc)
    batch = Batch(
        session.todo,
        ctx,
        writer,
        concurrency=bounds,
        budget_usd=config.budget_usd,
        spend=lambda: session.prior_spend_usd + pool.stats.spend_usd,
        deadline_s=config.deadline_s,
        on_record=on_record,
        lag=lag,
    )
    if config.deadline_s is not None:  # waits for a provider end by the deadline too
        pool.deadline_at = pool.clock() + config.deadline_s
    hub = None
    if launcher is not None:
        # The conversations' loops are the workers': their lag (sent to the hub) is what
        # inflates latencies and what --concurrency auto must read, not the idle driver's.
        batch.work_lag = LoopLag(batch.lag.interval_s)
        hub = Hub(
            launcher,
            count=count,
            setup=worker_setup(config, pool, run_id=session.run_id, concurrency=bounds),
            fingerprint=session.fingerprint,
            pool=pool,
            ctx=ctx,
            lag=batch.work_lag,
            open_at=bounds.ceiling,
            timing=worker_timing(config),
            stopped=lambda: batch.state.stopped_because is not None,
        )

        async def on_worker(unit: Unit) -> Any:
            assert hub is not None
            finished = await hub.run(unit)
            if finished is None:  # no worker can run it: stop, it runs again on resume
                batch.stop("stopped")
            return finished

        batch.work, batch.hub = on_worker, hub
    batch.state.priced_units = len(session.prior_costs)
    batch.state.priced_cost_usd = sum(session.prior_costs)
    session.state = batch.state
    started_at = now_iso()
    watch_task = asyncio.ensure_future(watch(batch)) if watch is not None else None

    def note() -> None:
        if hub is not None:  # units not sent are left, a silent worker is not waited for
            hub.stop()
        if on_note:
            on_note(
                "Ctrl-C or SIGTERM: starting no new conversations; running ones finish "
                "(press Ctrl-C again to cancel them)"
            )

    if launch_error is not None:
        batch.stop("stopped")
    if isinstance(writer, _NoWriter):
        batch.state.store_error = writer.error  # nothing can be stored: start nothing
        batch.stop(writer.error.reason)
    try:
        if hub is not None:
            await hub.start()
            await batch.run_interruptible(on_first=note)
        else:
            await with_mcp_host(ctx, batch.run_interruptible(on_first=note))
        session.status = _outcome(session, batch)
        if session.status == "stopped" and session.stop_reason is None:
            session.stop_reason = launch_error or (hub.failure if hub is not None else None)
        session.floor = await floor_of(ctx, on_note)
    except asyncio.CancelledError:
        current = asyncio.current_task()
        if current is not None and current.cancelling():
            session.status = "cancelled"
            raise  # cancelled from outside: propagate
        session.status = "cancelled"  # our own second Ctrl-C: the run ends cleanly
    finally:
        if watch_task is not None:
            watch_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watch_task
        if hub is not None:
            await hub.close(cancel=session.status == "cancelled")
        try:
            writer.close()
        except StoreError as exc:  # the last fsync: what it covered may not be durable
            if batch.state.store_error is None:
                batch.state.store_error = exc
                if session.status != "cancelled":
                    session.status, session.stop_reason = "stopped", exc.reason
        _close_manifest(session, batch, pool, started_at, hub)
        if session.lock is not None:
            session.lock.release()
    return session


async def floor_of(ctx: UnitContext, on_note: Callable[[str], None] | None = None) -> Floor | None:
    """What a do-nothing Agent scores on the run's scenarios (scripted Customer, no model
    call; a few milliseconds a scenario). A scenario it cannot score leaves the floor out
    (None, said through ``on_note`` with the error), never the run: it is a reading aid."""
    # validate (baselines, the statement corpus) is imported after the run, not before its
    # first conversation.
    from supportsim.validate import do_nothing_floor

    try:
        floor = await do_nothing_floor(ctx.domains, list(ctx.scenarios.values()))
    except Exception as exc:  # a bug of ours: said, and the run's results stand
        if on_note is not None:
            on_note(f"the do-nothing floor could not be scored: {type(exc).__name__}: {exc}")
        return None
    return Floor.model_validate(dataclasses.asdict(floor))


class _NoWriter:
    """Stands in for a RecordWriter that could not be opened: every write fails."""

    def __init__(self, error: StoreError) -> None:
        self.error = error

    def append_line(self, line: bytes) -> None:
        raise self.error

    def sync(self) -> None:
        return None

    def close(self) -> None:
        return None


def _close_manifest(
    session: Session, batch: Batch, pool: ModelPool, started_at: str, hub: Hub | None = None
) -> None:
    state = batch.state
    stats = pool.stats
    entry = SessionEntry(
        started_at=started_at,
        ended_at=now_iso(),
        status=session.status,
        stop_reason=session.stop_reason,
        units_planned=len(session.todo),
        units_started=state.started,
        units_recorded=state.done,
        units_unrecorded=state.unrecorded,
        statuses=dict(state.statuses),
        spend_usd=stats.spend_usd,
        calls=CallCounts(
            attempts=stats.calls,
            retries=stats.retries,
            rate_limited=stats.rate_limited,
            failed=stats.errors,
            unpriced=stats.unpriced_calls,
            input_tokens=stats.input_tokens,
            output_tokens=stats.output_tokens,
        ),
        concurrency=batch.concurrency_trace,
        limits=Limits.model_validate(pool.snapshot()),
        loop_lag=LoopLagStats.model_validate(batch.work_lag.stats()),
        forced_changes=session.forced,
    )
    if hub is not None:
        entry.workers = WorkersInfo.model_validate(
            {**hub.summary(), "driver_loop_lag": batch.lag.stats()}
        )
    session.info = entry
    session.manifest_error = close_manifest(
        session.run_dir, entry, status=session.status, stop_reason=session.stop_reason
    )
