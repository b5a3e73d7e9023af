"""Small report fixes of issue 25: the quality-vs-cost chart says "no priced calls"
instead of drawing empty axes, and a trend line joins an agent's points across the runs
it was missing from (the leaderboard's fit at 1,300-1,400 px is in test_report_narrow)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from gate_runs import record, write_run

from supportsim.report import load_run, render_report
from supportsim.report import summarise_run as summary_of
from supportsim.report._trend_html import line_chart


def _section(html: str, section_id: str) -> str:
    start = html.index(f'id="{section_id}"')
    return html[start : html.index("</section>", start)]


def test_nothing_priced_says_no_priced_calls_and_draws_no_axes(tmp_path: Path) -> None:
    records = [record(f"s{i}", a, 1, cost=None) for i in range(3) for a in ("m", "n")]
    run = load_run(write_run(tmp_path / "r", records))
    html = render_report(summary_of(run), run.records, run_id="r", in_progress=False)
    cost = _section(html, "chart-cost")
    assert '<p class="no-data">No priced calls:' in cost
    assert "unpriced cost is unknown, not $0" in cost
    assert "<svg" not in cost  # no empty axes
    assert "<svg" in _section(html, "chart-speed")  # replies are timed: that chart is drawn


def test_one_priced_agent_still_gets_the_chart(tmp_path: Path) -> None:
    records = [record("s1", "m", 1, cost=0.01), record("s1", "n", 1, cost=None)]
    run = load_run(write_run(tmp_path / "r", records))
    cost = _section(
        render_report(summary_of(run), run.records, run_id="r", in_progress=False), "chart-cost"
    )
    assert cost.count('class="dot"') == 1 and "not shown (no data): n" in cost
    assert "no-data" not in cost


def _doc(series: dict[str, list[float | None]]) -> dict[str, Any]:
    runs = [{"run_id": f"r{i}"} for i in range(len(next(iter(series.values()))))]
    agents = {
        name: [None if v is None else {"strict": v, "change": None} for v in values]
        for name, values in series.items()
    }
    return {"runs": runs, "agents": agents}


def _paths(svg: str) -> list[tuple[str, str]]:
    return re.findall(r'<path class="(line|gap)" d="([^"]+)"', svg)


def test_trend_lines_join_every_point_an_agent_has() -> None:
    svg = str(
        line_chart(
            _doc({"a": [0.5, None, None, 0.75], "b": [0.2, 0.4, 0.6, None]}),
            "strict",
            title="strict",
            fmt=str,
            rate=True,
        )
    )
    paths = _paths(svg)
    kinds = [kind for kind, _ in paths]
    assert kinds.count("gap") == 1  # a: r0 -> r3 across two runs without it, dashed
    assert kinds.count("line") == 1  # b: one solid line through its three runs
    gap = next(d for kind, d in paths if kind == "gap")
    solid = next(d for kind, d in paths if kind == "line")
    assert gap.count("M") == 1 and gap.count("L") == 1
    assert solid.count("L") == 2  # r0-r1, r1-r2
    assert "a: no value in 2 run(s) between these" in svg
    assert svg.count("<circle") == 5  # every point is still drawn


def test_a_single_point_has_no_line() -> None:
    svg = str(line_chart(_doc({"a": [None, 0.5]}), "strict", title="s", fmt=str, rate=True))
    assert _paths(svg) == [] and svg.count("<circle") == 1
