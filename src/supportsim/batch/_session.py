"""One ``supportsim run`` invocation: select, plan, resume, run, and close the manifest.

Resume runs exactly the units without a final record (a final record is any status but
infra_error), so a unit is never run twice and infra errors are retried. It refuses when
the configuration or a scenario file changed, unless forced, and says what changed.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from supportsim.batch._config import RunConfig
from supportsim.batch._manifest import changes, new_manifest, read_manifest, save_manifest
from supportsim.batch._models import ModelPool
from supportsim.batch._runner import Batch, BatchState
from supportsim.batch._unit import UnitContext
from supportsim.batch._units import Unit, plan_units
from supportsim.conversation import parse_agent_spec, parse_customer_spec
from supportsim.domains import Domain
from supportsim.errors import InputError
from supportsim.llm import ModelConfig, RetryPolicy
from supportsim.scenario import Persona, Scenario
from supportsim.store import MANIFEST, ConversationRecord, RecordWriter, latest_records


@dataclass(slots=True)
class Session:
    run_dir: Path
    units: list[Unit]
    todo: list[Unit]
    state: BatchState | None = None
    status: str = "running"


def select(scenarios: Sequence[Scenario], config: RunConfig) -> list[Scenario]:
    chosen = [
        s
        for s in scenarios
        if (not config.tags or set(s.tags) & set(config.tags))
        and (not config.ids or s.id in config.ids)
    ]
    missing = set(config.ids) - {s.id for s in chosen}
    if missing:
        raise InputError(f"unknown scenario id(s): {', '.join(sorted(missing))}")
    if not chosen:
        raise InputError("no scenario matches the selection (paths, tags, ids, suite)")
    return chosen


def default_run_id(config: RunConfig) -> str:
    return f"{config.name}-{datetime.now(UTC).strftime('%Y%m%d-%H%M%S')}"


def prepare(
    config: RunConfig, scenarios: Sequence[Scenario], *, run_id: str, resume: bool, force: bool
) -> Session:
    """Create or reopen the run directory; nothing is written on bad input."""
    run_dir = Path(config.out) / run_id
    units = plan_units([s.id for s in scenarios], config.agents, config.trials)
    if resume:
        if not (run_dir / MANIFEST).exists():
            raise InputError(f"{run_dir}: no run to resume (no {MANIFEST})")
        manifest = read_manifest(run_dir)
        diff = changes(manifest, config, scenarios)
        if diff and not force:
            raise InputError(
                f"{run_dir}: the run changed since it started; refusing to resume "
                "(--force to resume anyway):\n  " + "\n  ".join(diff)
            )
        final = {u for u, r in latest_records(run_dir).items() if r.status != "infra_error"}
        manifest["status"], manifest["ended_at"] = "running", None
        manifest["sessions"] = int(manifest.get("sessions", 1)) + 1
        save_manifest(run_dir, manifest)
        return Session(run_dir, units, [u for u in units if u.unit_id not in final])
    if run_dir.exists():
        raise InputError(
            f"{run_dir} already exists: pass --resume to continue it, or another --run-id"
        )
    run_dir.mkdir(parents=True)
    save_manifest(run_dir, new_manifest(run_id, config, scenarios))
    return Session(run_dir, units, list(units))


def unit_context(
    config: RunConfig,
    *,
    domains: Mapping[str, Domain],
    scenarios: Sequence[Scenario],
    personas: Mapping[str, Persona],
    models: Mapping[str, ModelConfig],
    pool: ModelPool,
) -> UnitContext:
    """Parse participant specs and check credentials, before any work starts."""
    agents = {spec: parse_agent_spec(spec, models) for spec in config.agents}
    customer = parse_customer_spec(config.customer, models)
    needed = {a.model.name: a.model for a in agents.values() if a.model is not None}
    if customer.model is not None:
        needed[customer.model.name] = customer.model
    if config.call_timeout_s is not None:
        needed = {
            k: m.model_copy(update={"timeout_s": config.call_timeout_s}) for k, m in needed.items()
        }
    pool.check(needed)

    def caller_for(model: ModelConfig, role: str):  # noqa: ANN202 - ModelCaller
        return pool.caller(needed.get(model.name, model), role)

    return UnitContext(
        domains=domains,
        scenarios={s.id: s for s in scenarios},
        personas=personas,
        agents=agents,
        customer=customer,
        caller_for=caller_for,
        max_turns=config.max_turns,
        timeout_s=config.timeout_s,
    )


def retry_policy(config: RunConfig) -> RetryPolicy:
    r = config.retries
    return RetryPolicy(
        max_attempts=r.max_attempts, base_delay_s=r.base_delay_s, max_delay_s=r.max_delay_s
    )


async def execute(
    session: Session,
    ctx: UnitContext,
    config: RunConfig,
    *,
    on_record: Callable[[ConversationRecord, BatchState], None] | None = None,
) -> Session:
    """Run the session's units. First Ctrl-C: finish running units; second: cancel."""
    writer = RecordWriter(session.run_dir)
    batch = Batch(
        session.todo,
        ctx,
        writer,
        concurrency=config.concurrency,
        budget_usd=config.budget_usd,
        on_record=on_record,
    )
    loop = asyncio.get_running_loop()
    task = asyncio.current_task()
    presses = 0

    def interrupt() -> None:
        nonlocal presses
        presses += 1
        if presses == 1:
            batch.stop("interrupted")
        elif task is not None:
            task.cancel()

    try:
        loop.add_signal_handler(signal.SIGINT, interrupt)
    except (NotImplementedError, RuntimeError):  # pragma: no cover - not the main thread
        pass
    deadline = (
        loop.call_later(config.deadline_s, batch.stop, "deadline") if config.deadline_s else None
    )
    try:
        session.state = await batch.run()
        session.status = session.state.stopped_because or "completed"
    except asyncio.CancelledError:
        session.status, session.state = "interrupted", batch.state
        raise
    finally:
        if deadline is not None:
            deadline.cancel()
        try:
            loop.remove_signal_handler(signal.SIGINT)
        except (NotImplementedError, RuntimeError):  # pragma: no cover
            pass
        writer.close()
        manifest = read_manifest(session.run_dir)
        manifest["status"] = session.status
        manifest["ended_at"] = datetime.now(UTC).isoformat(timespec="seconds")
        save_manifest(session.run_dir, manifest)
    return session
