"""``supportsim.run``: a batch run driven from Python (a notebook, a test suite, a script).

It is ``supportsim run`` without the terminal: the same preparation (every input checked
before anything is written), the same run directory, resume and budget rules, and the same
summary, returned as a typed :class:`RunResult` instead of printed. It runs on the caller's
event loop, so it can be awaited inside pytest-asyncio or Jupyter.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from supportsim.batch import LoopLag, RunConfig, RunRequest, execute, prepare_run, write_summary
from supportsim.report import summarise
from supportsim.store import ConversationRecord, latest_records


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


@dataclass(frozen=True, slots=True)
class RunResult:
    """What a run left: its directory, how it ended, each agent's figures and the records."""

    run_id: str
    run_dir: Path
    status: str
    """``completed``, or why it stopped: ``budget``, ``deadline``, ``interrupted``, ..."""
    agents: Mapping[str, AgentResult]
    records: Sequence[ConversationRecord]
    """The latest record of every planned unit, in file order."""
    summary: Mapping[str, Any] = field(repr=False)
    """``summary.json`` as written (the report's input)."""

    @property
    def ok(self) -> bool:
        """The run completed and every unit was scored (the CLI's exit code 0)."""
        return self.status == "completed" and all(r.status == "completed" for r in self.records)


async def run(
    config: RunConfig | str | os.PathLike[str] | None = None,
    *,
    run_id: str | None = None,
    resume: bool = False,
    force: bool = False,
    env: Mapping[str, str] | None = None,
    **fields: Any,
) -> RunResult:
    """Run a batch and return its result.

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
    try:
        session = await execute(
            prepared.session, prepared.ctx, prepared.config, pool=prepared.pool, lag=LoopLag()
        )
    finally:
        await prepared.pool.aclose()
    summary, latest = write_summary(session, summarise, prepared.config.trials)
    records = [r for u, r in latest_records(session.run_dir).items() if u in latest]
    agents = {label: _agent(label, row) for label, row in summary.get("agents", {}).items()}
    return RunResult(
        run_id=session.run_id,
        run_dir=session.run_dir,
        status=session.status,
        agents=agents,
        records=records,
        summary=summary,
    )


def _agent(label: str, row: Mapping[str, Any]) -> AgentResult:
    latency = row.get("response_ms") or {}
    return AgentResult(
        label=label,
        units=row["units"],
        scored=row["n"],
        strict_rate=row["strict_rate"],
        partial_mean=row["partial_mean"],
        pass_hat_k={int(k): v for k, v in row["pass_hat_k"].items()},
        response_ms_p50=latency.get("p50"),
        response_ms_p90=latency.get("p90"),
        cost_usd=row["cost_usd"],
        status=dict(row["status"]),
    )
