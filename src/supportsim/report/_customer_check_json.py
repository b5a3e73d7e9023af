"""``validate --customer --json``: the Customer check as one typed document."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from supportsim.report._customer_check import CustomerCheck, CustomerRate


class CustomerRateJson(BaseModel):
    """How often the Customer let the perfect Agent succeed, over one group of units."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    played: int
    succeeded: int
    rate: float | None
    not_counted: int
    failures: dict[str, int]
    """Failed units by the first critical finding's kind (or unexplained, simulator_fault)."""


class CustomerCheckJson(BaseModel):
    """The whole check: overall, per scenario and per persona, every finding's count, the
    scenarios the Customer cannot play and the threshold verdict. ``measured`` is False
    when no conversation counted (every one a provider or harness error)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    customer: str
    measured: bool
    overall: CustomerRateJson
    by_scenario: dict[str, CustomerRateJson]
    by_persona: dict[str, CustomerRateJson]
    findings: dict[str, int]
    unplayable: list[str]
    threshold: float | None
    passed: bool
    pushed_back: CustomerRateJson | None = None


def _rate(r: CustomerRate) -> CustomerRateJson:
    return CustomerRateJson(
        played=r.played,
        succeeded=r.succeeded,
        rate=r.rate,
        not_counted=r.not_counted,
        failures=dict(r.findings),
    )


def customer_check_json(check: CustomerCheck) -> CustomerCheckJson:
    """``check`` as the typed document ``validate --customer --json`` prints."""
    return CustomerCheckJson(
        customer=check.customer,
        measured=check.overall.played > 0,
        overall=_rate(check.overall),
        by_scenario={s: _rate(r) for s, r in check.by_scenario.items()},
        by_persona={p: _rate(r) for p, r in check.by_persona.items()},
        findings=dict(check.findings),
        unplayable=check.unplayable,
        threshold=check.threshold,
        passed=check.passed,
        pushed_back=_rate(check.pushed_back) if check.pushed_back is not None else None,
    )
