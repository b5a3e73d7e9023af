"""A statement judge outside a run: for ``rescore --statement-judge`` and ``judge-eval``.

A run builds its statement judge with its unit context (``_context.unit_context``); a
command that judges without running conversations builds one here, with the same pool
(limits, retries, the ledger) so a judge is called the same way wherever it is used.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from supportsim.batch._config import RunConfig
from supportsim.batch._manifest import model_fingerprints
from supportsim.errors import InputError
from supportsim.llm import ModelConfig, ModelPool, load_models_file, parse_model_spec
from supportsim.scoring import StatementJudge

DEFAULT_CONCURRENCY = 8
"""Questions in flight at once when nothing else says (a models file's rate_limit may
lower it per model)."""


def models_for(
    path: Path | None, manifest: Mapping[str, Any] | None = None
) -> dict[str, ModelConfig]:
    """The models file given, else the run's (run.json ``config.models_file``, when it
    still exists), else none."""
    if path is not None:
        return load_models_file(path)
    stored = ((manifest or {}).get("config") or {}).get("models_file")
    if isinstance(stored, str) and Path(stored).exists():
        return load_models_file(stored)
    return {}


def run_config_of(manifest: Mapping[str, Any] | None) -> RunConfig:
    """A run's configuration (retries, rate limits, call timeout), or the defaults for a
    run whose config no longer validates (written by an older version)."""
    try:
        return RunConfig.model_validate((manifest or {}).get("config") or {})
    except ValidationError:
        return RunConfig()


@contextlib.asynccontextmanager
async def open_statement_judge(
    spec: str,
    *,
    models: Mapping[str, ModelConfig],
    env: Mapping[str, str],
    config: RunConfig | None = None,
) -> AsyncIterator[tuple[StatementJudge, dict[str, Any]]]:
    """The judge ``spec`` names, with its model's run.json fingerprint; its connections
    are closed on exit. ``config``: the run's retries, limits and call timeout.

    Raises:
        InputError: the spec names no model, or its credentials are missing (before any
            call), naming ``--statement-judge``.
    """
    config = config or RunConfig()
    try:
        model = parse_model_spec(spec, models)
    except InputError as exc:
        raise InputError(f"--statement-judge {spec}: {exc}") from None
    if config.call_timeout_s is not None:
        model = model.model_copy(update={"timeout_s": config.call_timeout_s})
    pool = ModelPool(
        env=env,
        policy=config.retries,
        limits=config.rate_limits,
        default_concurrency=DEFAULT_CONCURRENCY,
    )
    try:
        pool.check({model.name: model})
        yield (
            StatementJudge(spec, model, pool.caller(model, "judge")),
            model_fingerprints({model.name: model}),
        )
    finally:
        await pool.aclose()
