"""The batch runner: units, concurrency, budgets, deadline, resume, workers, progress.

It prints nothing: ``supportsim.app`` runs it for the command line and for Python. The
pieces are public for the app, tests and benchmarks: ``prepare_run`` (everything before
the first conversation), ``execute`` (one session), ``Batch`` (units under one gate).
Model access (clients, rate limits, retries, the ledger) is ``llm.ModelPool``: a run
builds one from its config's plain values (``_context.build_context``) and its workers
share the driver's limits (``_hub.py``).
"""

from supportsim.batch._config import (
    RunConfig,
    RunFlags,
    load_run_config,
    parse_duration,
    with_overrides,
)
from supportsim.batch._context import (
    Participants,
    participants,
    select,
    statement_judge_model,
    unit_context,
)
from supportsim.batch._customers import ReplaySource, customer_seed, load_replay
from supportsim.batch._gates import (
    GateMiss,
    check_gates,
    check_trials,
    describe_gates,
    parse_thresholds,
)
from supportsim.batch._jobs import Finished, JobRunner, JobState, RecordSink
from supportsim.batch._judge_setup import models_for, open_statement_judge, run_config_of
from supportsim.batch._lag import WARN_P99_MS, LoopLag
from supportsim.batch._manifest import (
    changes,
    fingerprint,
    new_manifest,
    read_manifest,
    save_manifest,
)
from supportsim.batch._names import check_run_id
from supportsim.batch._prepare import (
    Prepared,
    RunRequest,
    prepare_run,
    resolve_config,
)
from supportsim.batch._runner import AgentTally, Batch, BatchState
from supportsim.batch._session import (
    Session,
    default_run_id,
    execute,
    prepare,
    stored_config,
)
from supportsim.batch._signals import two_stage_interrupt
from supportsim.batch._unit import FinishedUnit, UnitContext, finish_unit, run_unit
from supportsim.batch._units import Unit, plan_units
from supportsim.batch._worker import main as worker_main

__all__ = [
    "WARN_P99_MS",
    "AgentTally",
    "Batch",
    "BatchState",
    "Finished",
    "FinishedUnit",
    "GateMiss",
    "JobRunner",
    "JobState",
    "LoopLag",
    "Participants",
    "Prepared",
    "RecordSink",
    "ReplaySource",
    "RunConfig",
    "RunFlags",
    "RunRequest",
    "Session",
    "Unit",
    "UnitContext",
    "changes",
    "check_gates",
    "check_run_id",
    "check_trials",
    "customer_seed",
    "default_run_id",
    "describe_gates",
    "execute",
    "fingerprint",
    "finish_unit",
    "load_replay",
    "load_run_config",
    "models_for",
    "new_manifest",
    "open_statement_judge",
    "parse_duration",
    "parse_thresholds",
    "participants",
    "plan_units",
    "prepare",
    "prepare_run",
    "read_manifest",
    "resolve_config",
    "run_config_of",
    "run_unit",
    "save_manifest",
    "select",
    "statement_judge_model",
    "stored_config",
    "two_stage_interrupt",
    "unit_context",
    "with_overrides",
    "worker_main",
]
