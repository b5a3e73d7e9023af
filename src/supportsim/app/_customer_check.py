"""``supportsim validate --customer SPEC``: the simulated Customer measured with a perfect
Agent. The oracle plays every scenario against the Customer for ``trials`` trials (one
ordinary run, so the models file, rate limits and retries are the run's own, and the run
directory can be opened with ``report`` and ``view``); every strict failure is then the
Customer's, or the scenario's (``report.customer_check``)."""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from supportsim.app._run import run
from supportsim.report import CustomerCheck, customer_check, with_pushback

SLOPPY_AGENT = "python:supportsim.validate:ClaimDoneAgent"
"""The Agent of ``--sloppy``: it claims to have done everything and does nothing."""


async def check_customer(
    customer: str,
    *,
    scenarios: Sequence[str],
    personas: str,
    trials: int = 1,
    threshold: float | None = None,
    max_turns: int | None = None,
    models_file: str | None = None,
    out: Path,
    env: Mapping[str, str] | None = None,
    sloppy: bool = False,
) -> tuple[CustomerCheck, Path]:
    """Run the oracle against ``customer`` on ``scenarios`` and measure the Customer.

    The statement judge is off (rules only): the oracle's statements are the reference
    ones, and a judge's doubt would be counted against the Customer. ``sloppy``: also run
    ``SLOPPY_AGENT`` against the Customer (a second run) and measure how often it pushed
    back instead of ending satisfied. Returns the measure and the oracle's run directory
    (under ``out``).

    Raises:
        InputError: bad input (a spec, a file), before anything runs.
    """
    fields: dict[str, Any] = {
        "customer": customer,
        "trials": trials,
        "scenarios": list(scenarios),
        "personas": personas,
        "max_turns": max_turns,
        "models_file": models_file,
        "statement_judge": None,
        "out": str(out),
    }
    # Run ids of their own: two checks started in the same second must not collide.
    stamp = f"{datetime.now(UTC):%Y%m%d-%H%M%S}-{uuid.uuid4().hex[:6]}"
    result = await run(run_id=f"customer-check-{stamp}", agents=["oracle"], env=env, **fields)
    check = customer_check(result.records, customer=customer, threshold=threshold)
    if sloppy:
        pushed = await run(
            run_id=f"customer-pushback-{stamp}", agents=[SLOPPY_AGENT], env=env, **fields
        )
        check = with_pushback(check, pushed.records)
    return check, result.run_dir
