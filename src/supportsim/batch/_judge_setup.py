"""A statement judge outside a run, with a stored run's config: ``rescore --statement-judge``.

A run builds its statement judge with its unit context (``_context.unit_context``); a
command that judges a stored run without running conversations opens one with
``scoring.statement_judge_for`` (the same model layer: limits, retries, the ledger), given
the run's retries, rate limits and call timeout as plain values, here.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from supportsim.batch._config import RunConfig
from supportsim.batch._manifest import model_fingerprints
from supportsim.llm import ModelConfig, load_models_file
from supportsim.scoring import StatementJudge, statement_judge_for


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
    async with statement_judge_for(
        spec,
        models=models,
        env=env,
        policy=config.retries,
        limits=config.rate_limits,
        call_timeout_s=config.call_timeout_s,
    ) as judge:
        yield judge, model_fingerprints({judge.config.name: judge.config})
