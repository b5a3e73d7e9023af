"""The terminal view renders the aggregates as they are (no second computation)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console

from supportsim.report import compare_runs, load_run, render_summary, summarise_run
from supportsim.report._compare_terminal import render_comparison
from supportsim.store import Summary


def _render(draw: Callable[[Any, Console], None], value: Any) -> str:
    console = Console(record=True, width=160, color_system=None)
    draw(value, console)
    return console.export_text()


def test_leaderboard_rows_best_first(v1_dir: Path) -> None:
    text = _render(render_summary, summarise_run(load_run(v1_dir)))
    lines = text.splitlines()
    assert lines[0] == "run v1 · completed · 12 of 12 units finished · 2 trial(s) per scenario"
    beta = (
        "│ beta  │          5/6 │  60.0% │ [23.1, 88.2] │   70.0% │   +10.0 │  50.0% │ "
        "50.0% (2/3 sc.) │"
    )
    alpha = (
        "│ alpha │          6/6 │  50.0% │ [18.8, 81.2] │   75.0% │   +25.0 │  50.0% │ "
        "          33.3% │"
    )
    assert lines.index(beta) + 1 == lines.index(alpha)
    assert (
        "│ alpha │       1,100 │ 1,700 │ 1,970 │         225 │       300 │         30 │      "
        "$0.0030 │      $0.0030 │"
    ) in lines
    assert (
        "│ beta  │       2,500 │ 3,600 │ 3,960 │         500 │       500 │         50 │            "
        "– │            – │"
    ) in lines
    assert (
        "│ beta  │ completed 5 · harness_error 1 │ agent_transfer 1 · customer_done 4 · error 1 │"
        in lines
    )


def test_breakdowns_and_failing_checks(v1_dir: Path) -> None:
    text = _render(render_summary, summarise_run(load_run(v1_dir)))
    assert "│ plan     │ 100% / 100% (2) │  0% / 50% (2) │" in text
    assert "│ telecom │ 67% / 67% (3) │   25% / 62% (4) │" in text
    assert (
        "│ plan_upgrade     │    2/4 │ 2× final state differs: plan: 'basic', expected 'plus' │"
        in text
    )
    # a check reason holding rich markup is printed as written, not interpreted
    assert "1× refund_order was never called [bold]<i>x</i>[/bold]" in text


def test_empty_run_says_so() -> None:
    empty = Summary(
        units=0, trials=1, agents={}, by_category={}, by_domain={}, scenarios={}, failing_checks=[]
    )
    text = _render(render_summary, empty)
    assert text.splitlines() == [
        "0 units · 1 trial(s) per scenario",
        "no conversation has finished yet",
    ]


def test_comparison_view(v1_dir: Path, v2_dir: Path) -> None:
    text = _render(render_comparison, compare_runs(load_run(v1_dir), load_run(v2_dir)))
    assert (
        "│ alpha │ strict       │   50.0% │   83.3% │           +33.3 [+0.0, +50.0] │  0.5 │ "
        "McNemar     │"
    ) in text
    assert (
        "│       │ partial      │   75.0% │   91.7% │           +16.7 [+0.0, +25.0] │  0.5 │ "
        "sign-flip   │"
    ) in text
    assert "│       │ resp p90 ms  │   1,700 │     900 │" in text
    assert "alpha: no detectable difference on latency_p90 (-800 ms, p = 0.25)" in text
    assert (
        "alpha: no detectable difference on strict at this sample size; "
        "about 520 more scenarios would detect 5 points"
    ) in text
    assert "now passing more often in B: plan_upgrade, refund_roaming" in text
    assert "│ plan     │ strict  │     2 │  0.0% │  50.0% │               +50.0 │ 1 │" in text
    assert "only in A (not compared): beta" in text
    assert "only in B (not compared): gamma" in text
