"""A statement judge opened on its own, outside a run's unit context.

A run builds its statement judge with its unit context (``batch._context.unit_context``);
``rescore --statement-judge`` and ``judge-eval`` judge without running conversations and
open one here, through the same model layer (``llm.ModelPool``: limits, retries, the
ledger), so a judge is called the same way wherever it is used. What a run's config says
(retries, rate limits, call timeout) comes in as plain values (``batch.open_statement_judge``
passes a stored run's).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Mapping

from supportsim.errors import InputError
from supportsim.llm import ModelConfig, ModelPool, RateLimit, RetryPolicy, parse_model_spec
from supportsim.scoring._statement_judge import StatementJudge

DEFAULT_CONCURRENCY = 8
"""Questions in flight at once when nothing else says (a models file's rate_limit may
lower it per model)."""


@contextlib.asynccontextmanager
async def statement_judge_for(
    spec: str,
    *,
    models: Mapping[str, ModelConfig],
    env: Mapping[str, str],
    policy: RetryPolicy,
    limits: Mapping[str, RateLimit] | None = None,
    call_timeout_s: float | None = None,
) -> AsyncIterator[StatementJudge]:
    """The judge ``spec`` names; its connections are closed on exit.

    Args:
        spec: A model spec or models-file name (``--statement-judge``).
        models: The models file's entries.
        env: Where the key and base URL are read from.
        policy: Retries of one question (a run config's ``retries``).
        limits: Rate limits by provider, base URL or model name (a run config's).
        call_timeout_s: Overrides the model's ``timeout_s`` when set.

    Raises:
        InputError: the spec names no model, or its credentials are missing (before any
            call), naming ``--statement-judge``.
    """
    try:
        model = parse_model_spec(spec, models)
    except InputError as exc:
        raise InputError(f"--statement-judge {spec}: {exc}") from None
    if call_timeout_s is not None:
        model = model.model_copy(update={"timeout_s": call_timeout_s})
    pool = ModelPool(
        env=env,
        policy=policy,
        limits=limits or {},
        default_concurrency=DEFAULT_CONCURRENCY,
    )
    try:
        pool.check({model.name: model})
        yield StatementJudge(spec, model, pool.caller(model, "judge"))
    finally:
        await pool.aclose()
