"""``compare --fail-on-regression``: exit 1 only when the comparison's own test calls B
worse on a named metric.

"Worse" is the comparison's verdict, never a raw difference: strict and partial lower in B
with the paired test's p < 0.05 and a bootstrap interval excluding zero; latency_p90 and
cost higher in B under the same rule (``_compare_quantity``). A difference the test does
not call is noise at this sample size and passes the gate. A latency verdict the
comparison marks unreliable (a run's client was saturated) never gates: it is said so
(``ungated``). Runs whose setups differ are refused before any gate (``compare_command``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from supportsim.errors import InputError
from supportsim.report._compare_quantity import LOWER_IS_BETTER, quantity_verdict

REGRESSION_METRICS = ("strict", "partial", "latency_p90", "cost")


def parse_regression_metrics(values: Iterable[str] | None) -> list[str]:
    """Metric names from ``--fail-on-regression`` (repeatable, or comma-separated).

    Raises:
        InputError: naming the flag and the unknown metric (exit code 2).
    """
    out: list[str] = []
    for value in values or []:
        for part in value.split(","):
            name = part.strip()
            if not name:
                continue
            if name not in REGRESSION_METRICS:
                raise InputError(
                    f"--fail-on-regression: unknown metric {name!r} "
                    f"(one of {', '.join(REGRESSION_METRICS)})"
                )
            if name not in out:
                out.append(name)
    return out


def _worse(metric: str, m: Mapping[str, Any]) -> bool:
    if not m.get("detected") or m.get("unreliable"):
        return False
    if metric in LOWER_IS_BETTER:
        return m["delta"] is not None and m["delta"] > 0
    return m["delta_points"] is not None and m["delta_points"] < 0


def _sentence(metric: str, row: Mapping[str, Any]) -> str:
    if metric == "strict":
        return str(row["verdict"])
    if metric == "partial":
        return str(row["partial_verdict"])
    return quantity_verdict(metric, row[metric])


def regressions(comparison: Mapping[str, Any], metrics: Iterable[str]) -> list[str]:
    """One line per (agent pair, metric) on which B is detected worse, saying why."""
    lines = []
    for row in comparison["agents"]:
        for metric in metrics:
            if _worse(metric, row[metric]):
                lines.append(f"regression: {row['label']}: {_sentence(metric, row)}")
    return lines


def ungated(comparison: Mapping[str, Any], metrics: Iterable[str]) -> list[str]:
    """One line per (agent pair, metric) asked for that is not gated because the
    comparison marked it unreliable, saying why."""
    return [
        f"not gated: {row['label']}: {metric}: {row[metric]['unreliable']}"
        for row in comparison["agents"]
        for metric in metrics
        if row[metric].get("unreliable")
    ]
