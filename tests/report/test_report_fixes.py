"""Small report fixes of issue 15: the p50 label beside its own tick, the leaderboard's
cost and the cost chart agreeing, ``--pair`` not calling an agent of both runs "in one
run only", and the statistics behind the latency and cost comparisons."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

from gate_runs import record, write_run
from rich.console import Console

from supportsim.report import compare_runs, load_run, render_comparison, render_report
from supportsim.report import summarise_run as summary_of
from supportsim.report._charts import agent_colours, latency_boxes
from supportsim.report._compare_terminal import render_comparison as print_comparison
from supportsim.report._stats import cluster_bootstrap_statistic, cluster_permutation_p
from supportsim.scoring import percentile
from supportsim.store import AgentRow, Distribution

SVG = "{http://www.w3.org/2000/svg}"


def _latency_svg(agents: dict[str, dict]) -> ET.Element:
    names = list(agents)
    # only the latency figures: the rest of each row is not drawn here
    stats = {n: AgentRow.model_construct(latency=Distribution(**d)) for n, d in agents.items()}
    svg = str(latency_boxes(names, stats, agent_colours(names)))
    return ET.fromstring(svg.replace("<svg ", f'<svg xmlns="{SVG[1:-1]}" ', 1))


def _dist(p50: float, p99: float) -> dict:
    return {"n": 10, "min": 1, "p10": p50 / 2, "p25": p50 * 0.8, "p50": p50, "p75": p50 * 1.2,
            "p90": p99 * 0.8, "p99": p99, "max": p99, "mean": p50}  # fmt: skip


def test_the_p50_label_sits_beside_the_p50_tick() -> None:
    root = _latency_svg({"fast": _dist(200, 3000), "slow": _dist(2500, 4000)})
    ticks = root.findall(f".//{SVG}line[@class='p50']")
    labels = root.findall(f".//{SVG}text[@class='p50-label']")
    assert len(ticks) == len(labels) == 2
    for tick, label in zip(ticks, labels, strict=True):
        x, y = float(tick.get("x1", "")), float(label.get("y", ""))
        gap = float(label.get("x", "")) - x
        anchored = label.get("text-anchor")
        assert (gap, anchored) in ((4.0, "start"), (-4.0, "end")), (gap, anchored)
        assert float(tick.get("y1", "")) <= y - 6 <= float(tick.get("y2", ""))  # beside it
    # the fast agent's label is near its median (200 ms), far from its p99 (3000 ms)
    assert labels[0].text == "p50 200 ms"
    assert abs(float(labels[0].get("x", "")) - float(ticks[0].get("x1", ""))) == 4.0


def test_the_leaderboard_cost_is_the_cost_the_chart_plots(tmp_path: Path) -> None:
    """The leaderboard showed the whole conversation's cost (Agent + simulated Customer)
    while the chart plotted the Agent's: now the leaderboard's agent column is the chart's
    value and the total is its own column."""
    records = [record(f"s{i}", "m", 1, cost=0.01) for i in range(3)]
    for r in records:
        r.cost_usd = 0.03  # the Customer's model is priced too
    run = load_run(write_run(tmp_path / "r", records))
    html = render_report(summary_of(run), run.records, run_id="r", in_progress=False)
    agent_cell = re.search(
        r'<td class="agent-cost"[^>]*>([^<]*)</td>\s*<td[^>]*>([^<]*)</td>', html
    )
    assert agent_cell is not None
    assert agent_cell.groups() == ("$0.0100", "$0.0300")
    chart = html[html.index('id="chart-cost"') :]
    assert re.search(r"<title>m: 100\.0%, \$0\.0100</title>", chart)


def test_pair_does_not_call_an_agent_of_both_runs_in_one_run_only(
    v1_dir: Path, v2_dir: Path
) -> None:
    comparison = compare_runs(load_run(v1_dir), load_run(v2_dir), [("beta", "gamma")])
    assert comparison["one_run_only"] == {"a": [], "b": []}
    console = Console(record=True, width=200, color_system=None)
    print_comparison(comparison, console)
    text = console.export_text()
    assert "in both runs, not compared (not in any --pair): alpha" in text
    assert "only in" not in text
    html = render_comparison(comparison)
    assert "Not compared (in both runs, not in any --pair): alpha" in html
    assert "in one run only" not in html
    # without --pair, agents really in one run only are still called so
    plain = compare_runs(load_run(v1_dir), load_run(v2_dir))
    assert plain["one_run_only"] == {"a": ["beta"], "b": ["gamma"]}
    assert "Not compared (in one run only): A: beta" in render_comparison(plain)


def _p90_diff(b: list[float] | tuple, a: list[float] | tuple) -> float | None:
    pb, pa = percentile(list(b), 90), percentile(list(a), 90)
    return None if pb is None or pa is None else pb - pa


def test_the_cluster_permutation_test() -> None:
    slower = [([100.0, 110.0], [200.0, 210.0]) for _ in range(3)]
    # 3 scenarios, all slower in B: only "none swapped" and "all swapped" are as extreme
    assert cluster_permutation_p(slower, _p90_diff, seed="s", resamples=100) == 0.25
    same = [([100.0], [100.0]) for _ in range(5)]
    assert cluster_permutation_p(same, _p90_diff, seed="s", resamples=100) == 1.0
    many = [([100.0], [300.0]) for _ in range(20)]  # Monte Carlo beyond 12 scenarios
    p = cluster_permutation_p(many, _p90_diff, seed="s", resamples=200)
    assert p == cluster_permutation_p(many, _p90_diff, seed="s", resamples=200)  # seeded
    assert p < 0.05


def test_the_cluster_bootstrap_of_a_statistic() -> None:
    clusters = [([100.0], [150.0 + 10 * i]) for i in range(6)]
    low, high = cluster_bootstrap_statistic(clusters, _p90_diff, seed="s", resamples=300)  # type: ignore[misc]
    assert 50.0 <= low <= high <= 100.0
    assert cluster_bootstrap_statistic(clusters[:1], _p90_diff, seed="s", resamples=10) is None
