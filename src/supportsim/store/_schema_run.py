"""Typed run-directory files written by a run: ``run.json`` (``summary.json``'s models
are in ``_schema_summary.py``).

These models are the contract of the files (their JSON Schemas are exported to
``schemas/``); the writers validate against them before anything reaches the disk, and the
readers validate what they read, naming the file and the field. Fields are optional where
older runs lack them, so every stored run keeps reading.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from supportsim.store._measurement import LoopLagStats

SCHEMA_VERSION = 1
"""Version of the run-directory JSON documents (run.json, summary.json, judges.json,
agreement.json); records in the JSONL files carry their own."""


class _Doc(BaseModel):
    """A stored document's model. ``allow_inf_nan=False``: JSON has no NaN or Infinity, so
    a file that holds one (Python's ``json`` writes them) is damaged at that field, not a
    figure every reader would show as ``nan`` or fail to chart."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


class CallCounts(_Doc):
    """The model pool's ledger for one session."""

    attempts: int = 0
    retries: int = 0
    rate_limited: int = 0
    failed: int = 0
    unpriced: int = 0
    input_tokens: int = 0
    output_tokens: int = 0


class LimiterState(_Doc):
    """One endpoint's or model's rate limiter as the session ended."""

    configured: dict[str, float | int] = {}
    concurrency_limit: int | None = None
    concurrency_cuts: int = 0
    pauses: int = 0
    tpm_waits: int = 0


class Limits(_Doc):
    endpoints: dict[str, LimiterState] = {}
    models: dict[str, LimiterState] = {}


class WorkersInfo(_Doc):
    """How a session's units ran in worker processes (``--workers``, ``--ray``)."""

    mode: str
    count: int
    restarts: int = 0
    lost: int = 0
    address: str | None = None
    loop_lag: dict[str, LoopLagStats] = {}
    """Each worker's own event-loop lag (the session's ``loop_lag`` is all of them)."""
    driver_loop_lag: LoopLagStats | None = None
    """The driver's own loop, which runs no conversation: its lag inflates no latency and
    is kept out of the session's ``loop_lag``."""
    cpu_s: float | None = None
    """CPU seconds the workers spent after their start-up (running units), all together."""
    permits: int = 0
    """Rate-limit permits the workers asked the driver for (one per model call attempt)."""
    permit_wait_ms: float | None = None
    """Mean time to get one: the round trip to the driver, plus queueing when a limit binds."""


class SessionEntry(_Doc):
    """One ``supportsim run`` invocation on this run directory (a resume adds one)."""

    started_at: str
    ended_at: str | None = None
    status: str
    stop_reason: str | None = None
    units_planned: int | None = None
    units_started: int | None = None
    units_recorded: int | None = None
    units_unrecorded: int | None = None
    statuses: dict[str, int] = {}
    spend_usd: float | None = None
    calls: CallCounts | None = None
    concurrency: list[int] = []
    """The concurrency limit over the session (``auto`` moves it)."""
    forced_changes: list[str] = []
    limits: Limits | None = None
    loop_lag: LoopLagStats | None = None
    """The event-loop lag of the loops that ran the conversations: this process's, or
    with workers all of the workers' (``workers.driver_loop_lag`` is the driver's)."""
    store_error: str | None = None
    workers: WorkersInfo | None = None


class RescoreEntry(_Doc):
    """A ``rescore`` that changed which statement judge the run's verdicts rest on."""

    at: str
    statement_judge: str | None
    """The judge the rescored verdicts come from (null: rules only)."""
    previous: str | None
    """The run's judge before (config.statement_judge)."""


class RunManifest(_Doc):
    """``run.json``: what the run is (its config and inputs' hashes) and how it went."""

    schema_version: int = SCHEMA_VERSION
    run_id: str
    config: dict[str, Any]
    """The run config (``supportsim.batch.RunConfig``) as the run stored it."""
    scenarios: dict[str, str] = {}
    """Scenario id -> sha256 of its file."""
    agents: dict[str, str] = {}
    """Agent label -> the spec it was given as, in ``--agent`` order: the labels are the
    plan's (``store.RunPlan``) and every unit id's. Empty in runs written before labels
    were stored (their labels are inferred from ``config.agents``)."""
    scenario_files: dict[str, str] = {}
    personas: dict[str, str] = {}
    models: dict[str, Any] = {}
    """Model name -> its configuration's fingerprint (credentials never stored)."""
    versions: dict[str, str] = {}
    started_at: str
    ended_at: str | None = None
    status: str
    stop_reason: str | None = None
    sessions: list[SessionEntry] = []
    loop_lag: LoopLagStats | None = None
    rescores: list[RescoreEntry] = []
    """``rescore --statement-judge`` sessions: each sets ``config.statement_judge`` (and
    the judge's ``models`` entry) to the judge the rescored verdicts come from, so
    ``compare`` sees two runs judged by different models as a setup difference."""
