"""The terminal view of a comparison of two runs (``compare_runs``'s document): per agent
the paired deltas with their intervals and tests, the verdicts, the setup differences,
and per category deltas. Renders; computes nothing. Names and text go through
``printable``, as in ``_terminal`` (whose one-line name cell it uses)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from supportsim._printable import printable
from supportsim._tables import fit, name_cell
from supportsim.report._format import DASH, counts, ms, pct, points, usd
from supportsim.report._setup import SetupDifference


def _delta(metric: Mapping[str, Any]) -> str:
    ci_points = metric["ci95_points"]
    interval = f" [{ci_points[0]:+.1f}, {ci_points[1]:+.1f}]" if ci_points else ""
    return points(metric["delta_points"]) + interval


def comparison_table(comparison: Mapping[str, Any]) -> Table:
    """Per agent and metric: A, B and B − A (points, 95% CI) with the paired test's p."""
    table = Table(title="B − A per agent, paired by scenario and trial")
    table.add_column("agent")
    table.add_column("metric")
    for column in ("A", "B", "B − A [95% CI]", "p"):
        table.add_column(column, justify="right")
    table.add_column("test")
    for row in comparison["agents"]:
        for metric in ("strict", "partial"):
            m = row[metric]
            table.add_row(
                name_cell(row["label"]) if metric == "strict" else "",
                metric,
                pct(m["a"]),
                pct(m["b"]),
                _delta(m),
                f"{m['p']:.2g}",
                "McNemar" if metric == "strict" else "sign-flip",
            )
        for metric, label in (("latency_p90", "resp p90 ms"), ("cost", "agent $/conv")):
            m = row.get(metric)
            if m is None:
                continue
            fmt = ms if metric == "latency_p90" else usd
            test = "permutation" if metric == "latency_p90" else "sign-flip"
            table.add_row(
                "",
                label,
                fmt(m["a"]),
                fmt(m["b"]),
                _quantity_delta(m, fmt),
                f"{m['p']:.2g}",
                f"{test}, unreliable" if m.get("unreliable") else test,
            )
    return table


def setup_lines(comparison: Mapping[str, Any]) -> list[str]:
    """The setup differences (blocking ones say so) and saturated clients, one per line."""
    setup = comparison.get("setup") or {}
    differences = setup.get("differences") or []
    lines = []
    if differences:
        head = (
            "setups differ in what changes the numbers (a gate refuses this without "
            "--allow-different):"
            if not setup.get("comparable", True)
            else "setups differ (noted: these do not change scores):"
        )
        lines.append(head)
        for d in differences:
            mark = "" if d["blocking"] else " (noted)"
            lines.append("  " + printable(SetupDifference(**d).describe()) + mark)
    for side in ("a", "b"):
        p99 = comparison[side].get("saturated_lag_p99_ms")
        if p99 is not None:
            lines.append(
                f"run {side.upper()}'s client was saturated (event-loop lag p99 {p99:.0f} ms "
                "> 10 ms): its latencies are inflated; latency verdicts are unreliable"
            )
    return lines


def _quantity_delta(m: Mapping[str, Any], fmt: Any) -> str:
    """B − A of a latency or cost, signed, with its interval."""
    if m["delta"] is None:
        return DASH

    def signed(v: float) -> str:
        return ("+" if v >= 0 else "-") + fmt(abs(v))

    interval = f" [{signed(m['ci95'][0])}, {signed(m['ci95'][1])}]" if m["ci95"] else ""
    return signed(m["delta"]) + interval


def category_comparison_table(row: Mapping[str, Any]) -> Table:
    table = Table(title=Text(f"{printable(row['label'])}: B − A per category"))
    table.add_column("category")
    table.add_column("metric")
    for column in ("pairs", "A", "B", "B − A [95% CI]", "p"):
        table.add_column(column, justify="right")
    for cat, c in row["by_category"].items():
        for metric in ("strict", "partial"):
            m = c[metric]
            table.add_row(
                name_cell(cat) if metric == "strict" else "",
                metric,
                str(c["pairs"]) if metric == "strict" else "",
                pct(m["a"]),
                pct(m["b"]),
                _delta(m),
                f"{m['p']:.2g}",
            )
    return table


def render_comparison(comparison: Mapping[str, Any], console: Console) -> None:
    """Print the comparison: per agent deltas and tests, verdicts, per category deltas."""
    a, b = comparison["a"], comparison["b"]
    p = printable
    console.print(
        Text(
            f"A = {p(a['run_id'])} ({p(a['run_dir'])}) · B = {p(b['run_id'])} ({p(b['run_dir'])})"
            + (f" · under Customer {p(under)}" if (under := comparison.get("customer")) else ""),
            "bold",
        )
    )
    for line in setup_lines(comparison):
        console.print(Text(line, style="bold yellow" if line.startswith("setups differ") else ""))
    # agent, metric, A, B, B − A [95% CI], p, test
    console.print(fit(comparison_table(comparison), console, drop=[6]))
    for row in comparison["agents"]:
        label = p(row["label"])
        console.print(Text(f"{label}: {p(row['verdict'])}", style="bold"))
        console.print(Text(f"{label}: {p(row['partial_verdict'])}"))
        for key in ("latency_verdict", "cost_verdict"):
            if row.get(key):
                console.print(Text(f"{label}: {p(row[key])}"))
        s, flips = row["strict"], row["flipped"]
        console.print(
            Text(
                f"  {row['pairs']} pairs over {row['scenarios']} scenarios; strict passed in A "
                f"only {s['a_only']}, in B only {s['b_only']}; not paired: "
                + p(counts(row["unpaired"]))
            )
        )
        if flips["to_pass"]:
            shown = ", ".join(map(p, flips["to_pass"]))
            console.print(Text("  now passing more often in B: " + shown))
        if flips["to_fail"]:
            shown = ", ".join(map(p, flips["to_fail"]))
            console.print(Text("  now failing more often in B: " + shown))
        if row["by_category"]:  # category, metric, pairs, A, B, B − A [95% CI], p
            console.print(fit(category_comparison_table(row), console, drop=[2]))
    unmatched = comparison["unmatched"]
    alone = comparison.get("one_run_only") or unmatched
    for side in ("a", "b"):
        if alone[side]:
            names = ", ".join(map(p, alone[side]))
            console.print(Text(f"only in {side.upper()} (not compared): {names}"))
    left_out = [x for x in unmatched["a"] if x not in alone["a"]]
    if left_out:
        names = ", ".join(map(p, left_out))
        console.print(Text(f"in both runs, not compared (not in any --pair): {names}"))
