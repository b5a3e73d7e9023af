"""``supportsim validate --customer SPEC``: the simulated Customer measured with a perfect
Agent. The oracle plays every scenario against the Customer for ``trials`` trials (one
ordinary run, so the models file, rate limits and retries are the run's own, and the run
directory can be opened with ``report`` and ``view``); every strict failure is then the
Customer's, or the scenario's (``report.customer_check``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from supportsim.app._run import run
from supportsim.report import CustomerCheck, customer_check


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
) -> tuple[CustomerCheck, Path]:
    """Run the oracle against ``customer`` on ``scenarios`` and measure the Customer.

    The statement judge is off (rules only): the oracle's statements are the reference
    ones, and a judge's doubt would be counted against the Customer. Returns the measure
    and the run directory (under ``out``).

    Raises:
        InputError: bad input (a spec, a file), before anything runs.
    """
    result = await run(
        name="customer-check",
        agents=["oracle"],
        customer=customer,
        trials=trials,
        scenarios=list(scenarios),
        personas=personas,
        max_turns=max_turns,
        models_file=models_file,
        statement_judge=None,
        out=str(out),
        env=env,
    )
    check = customer_check(result.records, customer=customer, threshold=threshold)
    return check, result.run_dir
