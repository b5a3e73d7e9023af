"""The batch runner: units, concurrency, rate limits, retries, budgets, resume."""

from supportsim.batch._config import Retries, RunConfig, load_run_config
from supportsim.batch._manifest import changes, new_manifest, read_manifest, save_manifest
from supportsim.batch._models import CallStats, ModelPool
from supportsim.batch._runner import Batch, BatchState
from supportsim.batch._session import (
    Session,
    default_run_id,
    execute,
    prepare,
    retry_policy,
    select,
    unit_context,
)
from supportsim.batch._unit import UnitContext, run_unit
from supportsim.batch._session import (
    Session,
    default_run_id,
    execute,
    prepare,
    retry_policy,
    select,
    unit_context,
)
from supportsim.batch._units import Unit, plan_units

__all__ = [
    "Batch",
    "BatchState",
    "CallStats",
    "ModelPool",
    "Retries",
    "RunConfig",
    "Session",
    "Unit",
    "UnitContext",
    "changes",
    "default_run_id",
    "execute",
    "load_run_config",
    "new_manifest",
    "plan_units",
    "prepare",
    "read_manifest",
    "retry_policy",
    "run_unit",
    "save_manifest",
    "select",
    "unit_context",
]
