"""compare: v1 (A) against v2 (B) worked out by hand, plus synthetic clear-cut cases.

alpha, paired by (scenario, trial), strict / partial:
  refund_duplicate t1  A T 1.00  B T 1.00 | t2  A T 1.00  B T 1.00
  refund_roaming   t1  A F 0.50  B T 1.00 | t2  A T 1.00  B T 1.00
  plan_upgrade     t1  A F 0.75  B T 1.00 | t2  A F 0.25  B F 0.50
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from report_helpers import make_record

from supportsim.errors import InputError
from supportsim.report import compare_pair, compare_runs, load_run, pair_up
from supportsim.report._load import RunData


def test_v1_against_v2_by_hand(v1_dir: Path, v2_dir: Path) -> None:
    c = compare_runs(load_run(v1_dir), load_run(v2_dir))
    assert c["unmatched"] == {"a": ["beta"], "b": ["gamma"]}
    (alpha,) = c["agents"]
    assert (alpha["label"], alpha["pairs"], alpha["scenarios"]) == ("alpha", 6, 3)
    assert alpha["unpaired"] == {"only_a": 0, "only_b": 0, "not_scored": 0}
    s = alpha["strict"]
    assert (s["a"], s["b"]) == (0.5, pytest.approx(5 / 6))
    assert s["delta_points"] == pytest.approx(100 / 3)
    assert (s["a_only"], s["b_only"], s["p"]) == (0, 2, 0.5)
    # scenario sums of differences 0, 1, 1 over 2 pairs each: see test_cluster_bootstrap_by_hand
    assert s["ci95_points"] == [0.0, 50.0]
    assert s["detected"] is False
    p = alpha["partial"]
    assert (p["a"], p["b"]) == (0.75, pytest.approx(5.5 / 6))
    assert p["delta_points"] == pytest.approx(100 / 6)
    assert p["ci95_points"] == [0.0, 25.0]  # scenario sums 0, .5, .5
    assert p["p"] == 0.5  # two non-zero scenarios of equal sign: 2 of 4 sign patterns
    assert alpha["flipped"] == {"to_pass": ["plan_upgrade", "refund_roaming"], "to_fail": []}
    # 1045 pairs (test_pairs_needed_by_hand) at 2 per scenario: 523 scenarios, 3 run
    assert alpha["verdict"] == (
        "no detectable difference on strict at this sample size; "
        "about 520 more scenarios would detect 5 points"
    )
    assert alpha["more_scenarios"] == 520
    # 131 pairs (test_pairs_needed_mean_by_hand): 66 scenarios
    assert alpha["partial_verdict"] == (
        "no detectable difference on partial at this sample size; "
        "about 63 more scenarios would detect 5 points"
    )


def test_v1_against_v2_per_category(v1_dir: Path, v2_dir: Path) -> None:
    (alpha,) = compare_runs(load_run(v1_dir), load_run(v2_dir))["agents"]
    plan, refund = alpha["by_category"]["plan"], alpha["by_category"]["refund"]
    assert (plan["pairs"], refund["pairs"]) == (2, 4)
    assert plan["strict"]["delta_points"] == 50.0
    assert plan["strict"]["ci95_points"] is None  # one scenario: no interval
    assert plan["strict"]["p"] == 1.0  # one discordant pair
    assert refund["strict"]["delta_points"] == 25.0
    assert refund["strict"]["ci95_points"] == [0.0, 50.0]
    assert refund["partial"]["delta_points"] == 12.5
    assert plan["flipped"] == {"to_pass": 1, "to_fail": 0}


def test_errors_are_not_paired(v1_dir: Path) -> None:
    run = load_run(v1_dir)
    pairs, unpaired = pair_up(run.records, run.records, "beta", "beta")
    assert len(pairs) == 5
    assert unpaired == {"only_a": 0, "only_b": 0, "not_scored": 1}
    beta = compare_pair(run.records, run.records, "beta", "beta")
    assert beta["strict"]["delta_points"] == 0.0
    assert beta["strict"]["ci95_points"] == [0.0, 0.0]
    # no discordant pairs: 155 pairs at 5/3 per scenario = 93 scenarios, 3 run
    assert beta["verdict"] == (
        "no detectable difference on strict at this sample size; "
        "about 90 more scenarios would detect 5 points"
    )
    assert beta["partial_verdict"] == "no detectable difference on partial (+0.0 points)"


def _run(records: list, name: str) -> RunData:
    return RunData(Path(name), name, None, records, 1)


def test_clear_difference_gets_a_verdict() -> None:
    a = [make_record(f"s{i:02d}", "m", 1, strict=False) for i in range(20)]
    b = [make_record(f"s{i:02d}", "m", 1, strict=i < 10) for i in range(20)]
    (row,) = compare_runs(_run(a, "A"), _run(b, "B"))["agents"]
    assert row["strict"]["delta_points"] == 50.0
    assert row["strict"]["p"] == 0.001953125  # 10 discordant pairs, all one way
    assert row["strict"]["detected"] is True
    match = re.fullmatch(
        r"B is better on strict by 50\.0 points, 95% CI \[(\d+\.\d), (\d+\.\d)\] "
        r"\(exact McNemar p = 0\.002\)",
        row["verdict"],
    )
    assert match and 0 < float(match[1]) < 50 < float(match[2]) <= 100
    assert len(row["flipped"]["to_pass"]) == 10
    (back,) = compare_runs(_run(b, "B"), _run(a, "A"))["agents"]
    assert back["verdict"].startswith("B is worse on strict by 50.0 points, 95% CI [-")


def test_large_sample_without_difference_says_it_could_have_seen_one() -> None:
    # 200 scenarios; 5 pass only in A, 5 only in B: psi = 0.05 -> 155 pairs needed
    a = [make_record(f"s{i:03d}", "m", 1, strict=i < 5 or i >= 10) for i in range(200)]
    b = [make_record(f"s{i:03d}", "m", 1, strict=i >= 5) for i in range(200)]
    (row,) = compare_runs(_run(a, "A"), _run(b, "B"))["agents"]
    assert row["strict"]["delta_points"] == 0.0
    assert row["more_scenarios"] == 0
    assert row["verdict"] == (
        "no detectable difference on strict (+0.0 points); this sample could detect "
        "5 points, so any difference is likely smaller"
    )


def test_agent_pairing_rules(v1_dir: Path, v2_dir: Path) -> None:
    v1, v2 = load_run(v1_dir), load_run(v2_dir)
    c = compare_runs(v1, v2, [("beta", "gamma")])
    assert [row["label"] for row in c["agents"]] == ["beta → gamma"]
    assert c["unmatched"] == {"a": ["alpha"], "b": ["alpha"]}
    with pytest.raises(InputError, match="no agent 'nope' in run A"):
        compare_runs(v1, v2, [("nope", "alpha")])
    only_x = _run([make_record("s", "x", 1)], "A")
    only_y = _run([make_record("s", "y", 1)], "B")
    assert compare_runs(only_x, only_y)["agents"][0]["label"] == "x → y"
    with pytest.raises(InputError, match="no agent in both runs"):
        compare_runs(v1, _run([make_record("s", "y", 1), make_record("s", "z", 1)], "B"))
