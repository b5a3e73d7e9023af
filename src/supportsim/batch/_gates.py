"""Quality gates: ``--fail-under strict=0.8,partial=0.9``, per agent, for CI.

A gate is a metric and the lowest share (0 to 1) every agent must reach. In a run of
several Customers every Customer's figure must reach it (``Summary.customers``: the
Agent's strict rate, partial mean and pass^k under that Customer): a gate fails when any
Customer's figure is below, and the line names that Customer; a pooled figure would let
one Customer's 100% hide another's 0%. ``run`` checks
the gates on the summary it writes and ``report --fail-under`` on a stored run; either
exits 1 when an agent falls below one, naming the agent, the metric, its value and the
threshold. An agent with nothing scored has no value: that misses the gate (a run where
every conversation failed to run must not pass CI), and so does a summary with no agent at
all: a gate never passes on no data. Lives in ``batch`` because the run
config holds the gates; ``report`` imports it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from supportsim.errors import InputError
from supportsim.store import AgentRow, Rate, Summary

GATE_METRICS = ("strict", "partial", "pass^K")
"""What a gate can name; K in ``pass^K`` is a trial count (1 up to the run's trials)."""
_NAME = re.compile(r"^(strict|partial|pass\^([1-9][0-9]{0,4}))$")


def _share(text: str) -> float:
    """``0.8`` or ``80%`` as 0.8; anything else (or outside 0..1) raises ValueError."""
    text = text.strip()
    percent = text.endswith("%")
    try:
        value = float(text[:-1] if percent else text)
    except ValueError:
        raise ValueError(f"threshold {text!r} is not a number (0.8 or 80%)") from None
    value = value / 100 if percent else value
    if not 0.0 <= value <= 1.0 or value != value:
        raise ValueError(f"threshold {text!r} is outside 0..1 (write 0.8 or 80%)")
    return value


def _metric(name: str) -> str:
    name = name.strip()
    if _NAME.match(name) is None:
        raise ValueError(f"unknown metric {name!r} (one of {', '.join(GATE_METRICS)})")
    return name


def thresholds_from(value: object) -> dict[str, float]:
    """Gates from a config value: ``"strict=0.8,partial=0.9"``, a list of such strings, or
    a mapping ``{strict: 0.8}``. Raises ValueError saying what is wrong."""
    if value is None:
        return {}
    if isinstance(value, Mapping):
        out: dict[str, float] = {}
        for key, share in value.items():
            if isinstance(share, bool) or not isinstance(share, int | float | str):
                raise ValueError(f"{key}: threshold must be a number (got {share!r})")
            out[_metric(str(key))] = _share(str(share))
        return out
    items: Iterable[object] = [value] if isinstance(value, str) else value  # type: ignore[assignment]
    out = {}
    for item in items:
        for part in str(item).split(","):
            if not part.strip():
                continue
            name, sep, share = part.partition("=")
            if not sep:
                raise ValueError(f"{part.strip()!r}: expected METRIC=THRESHOLD, e.g. strict=0.8")
            out[_metric(name)] = _share(share)
    return out


def parse_thresholds(
    values: Iterable[str] | None, *, flag: str = "--fail-under"
) -> dict[str, float]:
    """The command line's gates (repeatable, or comma-separated).

    Raises:
        InputError: naming ``flag`` and the bad part (exit code 2).
    """
    try:
        return thresholds_from(list(values or []))
    except ValueError as exc:
        raise InputError(f"{flag}: {exc}") from None


def check_trials(thresholds: Mapping[str, float], trials: int, *, where: str) -> None:
    """A ``pass^K`` gate needs K trials; raises InputError naming ``where`` otherwise."""
    for name in thresholds:
        if name.startswith("pass^") and int(name[5:]) > trials:
            raise InputError(
                f"{where}: {name} needs at least {name[5:]} trials (the run has {trials})"
            )


@dataclass(frozen=True, slots=True)
class GateMiss:
    """One agent below one gate (``agent`` empty: the summary has no agent at all);
    ``customer``: the Customer whose figure it is, in a run of several (else empty)."""

    agent: str
    metric: str
    value: float | None
    threshold: float
    customer: str = ""

    def reason(self) -> str:
        if not self.agent:
            return (
                f"gate failed: {self.metric} has no value: the run has no Agent with a scored "
                f"unit (--fail-under {self.metric}={self.threshold:g})"
            )
        shown = "unknown (nothing scored)" if self.value is None else f"{self.value:.1%}"
        under = f" under Customer {self.customer}" if self.customer else ""
        return (
            f"gate failed: agent {self.agent}{under}: {self.metric} {shown} < {self.threshold:.1%} "
            f"(--fail-under {self.metric}={self.threshold:g})"
        )


def _value(agent: AgentRow | Rate, metric: str, pass_hat: dict[str, float | None]) -> float | None:
    if metric == "strict":
        return agent.strict_rate
    if metric == "partial":
        return agent.partial_mean
    return pass_hat.get(metric[5:])  # pass^k


def check_gates(summary: Summary, thresholds: Mapping[str, float]) -> list[GateMiss]:
    """Every (agent, metric) of ``summary.agents`` below its threshold, agents in name
    order; in a run of several Customers, every (agent, Customer, metric), Customers in
    the run's order. A tiny tolerance keeps 0.8 from failing ``strict=0.8`` by float
    rounding."""
    agents = summary.agents
    if not agents:
        return [GateMiss("", metric, None, threshold) for metric, threshold in thresholds.items()]
    several = summary.customers
    misses = []
    for agent, stats in sorted(agents.items()):
        figures: list[tuple[str, AgentRow | Rate, dict[str, float | None]]] = [
            ("", stats, stats.pass_hat_k)
        ]
        if several is not None and (row := several.agents.get(agent)) is not None:
            figures = [
                (c, row.by_customer[c], row.pass_hat_k.get(c, {}))
                for c in several.customers
                if c in row.by_customer
            ]
        for customer, figure, pass_hat in figures:
            for metric, threshold in thresholds.items():
                value = _value(figure, metric, pass_hat)
                if value is None or value < threshold - 1e-12:
                    misses.append(GateMiss(agent, metric, value, threshold, customer))
    return misses


def describe_gates(thresholds: Mapping[str, float]) -> str:
    """``strict >= 80.0%, partial >= 90.0%``: what passed means, for the success line."""
    return ", ".join(f"{m} >= {t:.1%}" for m, t in thresholds.items())
