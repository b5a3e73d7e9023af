"""The terminal view of a trend (rich): one table per agent, a row per run, and the list
of significant changes. Renders ``trend()`` output; computes nothing.

Names (agent labels, run ids) go through ``printable`` inside ``Text`` cells, so neither
rich markup nor a terminal escape sequence in them takes effect.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from supportsim._printable import printable
from supportsim._tables import fit, name_cell
from supportsim.report._format import DASH, ms, pct, points, usd

ARROW = {"improvement": "▲", "regression": "▼"}
STYLE = {"improvement": "bold green", "regression": "bold red"}


def _delta(change: Mapping[str, Any] | None, metric: str) -> Text:
    """The change from the agent's previous run, with ▲/▼ when the paired test calls it
    (``≠`` after it: the setups differ, so it is not marked)."""
    if change is None:
        return Text(DASH)
    m = change[metric]
    if m["delta_points"] is None:
        return Text(DASH)
    if change.get("setup_differences"):
        return Text(f"{points(m['delta_points'])} ≠")
    if not m["detected"]:
        return Text(points(m["delta_points"]))
    direction = "improvement" if m["delta_points"] > 0 else "regression"
    return Text(
        f"{ARROW[direction]} {points(m['delta_points'])} (p={m['p']:.2g})", style=STYLE[direction]
    )


def agent_trend_table(name: str, series: list[Any], runs: list[Any], k: int) -> Table:
    table = Table(title=Text(f"{printable(name)}: trend over runs (oldest first)"))
    table.add_column("run", no_wrap=True)
    table.add_column("started", no_wrap=True)
    for column in ("scored", "strict", "Δ strict", "partial", "Δ partial", f"pass^{k}"):
        table.add_column(column, justify="right")
    for column in ("p50 ms", "p90 ms", "cost/conv"):
        table.add_column(column, justify="right")
    for run, point in zip(runs, series, strict=True):
        if point is None:
            continue
        started = (run["started_at"] or DASH)[:16].replace("T", " ")
        table.add_row(
            name_cell(run["run_id"]),
            started,
            f"{point['n']}/{point['units']}",
            pct(point["strict"]),
            _delta(point["change"], "strict"),
            pct(point["partial"]),
            _delta(point["change"], "partial"),
            pct(point["pass_hat_k"]),
            _latency(point, "response_ms_p50"),
            _latency(point, "response_ms_p90"),
            usd(point["cost_mean_usd"]),
        )
    return table


def _latency(point: Mapping[str, Any], key: str) -> str:
    """A latency, ``~`` before it when the run's client was saturated (inflated)."""
    value = ms(point[key])
    return f"~{value}" if point.get("latency_unreliable") and point[key] is not None else value


def change_line(c: Mapping[str, Any]) -> str:
    """One marked change in words: who, between which runs, how much, by which test."""
    low, high = c["ci95_points"]
    return (
        f"{printable(c['agent'])}: {c['metric']} {c['direction']} "
        f"{printable(c['from_run'])} → {printable(c['to_run'])}: "
        f"{points(c['delta_points'])} points, 95% CI [{low:+.1f}, {high:+.1f}] "
        f"({c['test']} p = {c['p']:.2g})"
    )


def render_trend(doc: Mapping[str, Any], console: Console) -> None:
    """Print the trend: a table per agent, then the significant changes."""
    runs, k = doc["runs"], doc["settings"]["k"]
    first, last = runs[0]["run_id"], runs[-1]["run_id"]
    console.print(Text(f"{len(runs)} run(s), {printable(first)} → {printable(last)}", style="bold"))
    for name, series in doc["agents"].items():
        # run, started, scored, strict, Δ strict, partial, Δ partial, pass^k, p50, p90, cost
        table = agent_trend_table(name, series, runs, k)
        console.print(fit(table, console, drop=[1, 9, 10, 7, 2, 8]))
    for line in doc.get("caveats") or []:
        console.print(Text(printable(line)))
    if not doc["changes"]:
        console.print(
            Text(
                "no significant change between consecutive runs "
                f"(paired tests on {' and '.join(doc['settings']['tested'])}, "
                f"p < {doc['settings']['alpha']} with the interval excluding zero)"
            )
        )
        return
    console.print(Text(f"{len(doc['changes'])} significant change(s):", style="bold"))
    for c in doc["changes"]:
        console.print(
            Text(f"{ARROW[c['direction']]} " + change_line(c), style=STYLE[c["direction"]])
        )
