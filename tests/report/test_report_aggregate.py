"""summarise() against numbers worked out by hand from tests/fixtures/runs/v1 and v2.

v1, per unit (strict, partial, response_ms of the one Agent reply, ttft_ms):
  alpha  refund_duplicate t1 T 1.00 1000 100 | t2 T 1.00 1200 300
         refund_roaming   t1 F 0.50  800 200 | t2 T 1.00 1400 400
         plan_upgrade     t1 F 0.75  600 150 (infra_error first, retried) | t2 F 0.25 2000 250
  beta   refund_duplicate t1 T 1.00 2000 500 | t2 F 0.50 2500 500 (unpriced)
         refund_roaming   t1 harness_error   | t2 F 0.00 3000 500
         plan_upgrade     t1 T 1.00 1500 500 | t2 T 1.00 4000 500
Tokens per conversation: alpha 300 in / 30 out ($0.003), beta 500 / 50 ($0.005).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from report_helpers import make_record

from supportsim.report import load_run, summarise, summarise_run


@pytest.fixture
def v1(v1_dir: Path) -> dict:
    return summarise_run(load_run(v1_dir)).document()  # summary.json as written


def test_alpha_quality(v1: dict) -> None:
    a = v1["agents"]["alpha"]
    assert (a["units"], a["n"], a["strict_passes"], a["scenarios"]) == (6, 6, 3, 3)
    assert a["strict_rate"] == 0.5
    # Wilson, p = 0.5, n = 6: centre 0.5, half-width 0.312384
    assert a["strict_ci95"] == pytest.approx([0.18762, 0.81238], abs=1e-5)
    assert a["partial_mean"] == 0.75  # (1 + 1 + .5 + 1 + .75 + .25) / 6
    assert a["partial_gap"] == 0.25
    # per scenario (n, passes): (2, 2), (2, 1), (2, 0)
    # pass^1 = mean(1, 1/2, 0); pass^2 = mean(C(2,2)/C(2,2), C(1,2)/1, 0) = 1/3
    assert a["pass_hat_k"] == {"1": 0.5, "2": pytest.approx(1 / 3)}
    assert a["pass_hat_k_scenarios"] == {"1": 3, "2": 3}


def test_beta_quality_skips_the_harness_error(v1: dict) -> None:
    b = v1["agents"]["beta"]
    assert (b["units"], b["n"], b["strict_passes"]) == (6, 5, 3)
    assert b["strict_rate"] == 0.6
    # Wilson, p = 0.6, n = 5: centre 0.556552, half-width 0.325829
    assert b["strict_ci95"] == pytest.approx([0.23072, 0.88238], abs=1e-5)
    assert b["partial_mean"] == pytest.approx(0.7)  # 3.5 / 5
    # per scenario (n, passes): (2, 1), (1, 0), (2, 2). pass^1 = mean(1/2, 0, 1).
    # refund_roaming has one scored trial, so pass^2 is over the other two:
    # mean(C(1,2)/C(2,2), C(2,2)/C(2,2)) = mean(0, 1)
    assert b["pass_hat_k"] == {"1": 0.5, "2": 0.5}
    assert b["pass_hat_k_scenarios"] == {"1": 3, "2": 2}


def test_latency_percentiles(v1: dict) -> None:
    a, b = v1["agents"]["alpha"], v1["agents"]["beta"]
    # alpha replies sorted: 600 800 1000 1200 1400 2000 (linear interpolation)
    assert a["response_ms"] == {"p50": 1100.0, "p90": 1700.0, "p99": 1970.0}
    assert a["response_ms_mean"] == pytest.approx(7000 / 6)
    assert a["ttft_ms"]["p50"] == 225.0  # 100 150 200 250 300 400
    assert a["latency"] == {
        "n": 6,
        "min": 600.0,
        "p10": 700.0,
        "p25": 850.0,
        "p50": 1100.0,
        "p75": 1350.0,
        "p90": 1700.0,
        "p99": 1970.0,
        "max": 2000.0,
        "mean": pytest.approx(7000 / 6),
    }
    # beta replies sorted: 1500 2000 2500 3000 4000
    assert b["response_ms"] == {"p50": 2500.0, "p90": 3600.0, "p99": 3960.0}
    assert b["ttft_ms"] == {"p50": 500.0, "p90": 500.0, "p99": 500.0}


def test_tokens_and_cost_unknown_is_not_zero(v1: dict) -> None:
    a, b = v1["agents"]["alpha"], v1["agents"]["beta"]
    assert a["tokens"] == {"input": 1800, "output": 180, "input_mean": 300.0, "output_mean": 30.0}
    assert a["cost_usd"] == pytest.approx(0.018)
    assert a["cost_mean_usd"] == pytest.approx(0.003)
    assert a["agent_cost_mean_usd"] == pytest.approx(0.003)
    assert b["tokens"]["input_mean"] == 500.0
    # one of beta's conversations has an unpriced call: the total is unknown, not low
    assert (b["cost_usd"], b["cost_mean_usd"], b["agent_cost_mean_usd"]) == (None, None, None)


def test_status_and_termination_counts(v1: dict) -> None:
    a, b = v1["agents"]["alpha"], v1["agents"]["beta"]
    assert a["status"] == {"completed": 6}  # the infra error was superseded on resume
    assert b["status"] == {"completed": 5, "harness_error": 1}
    assert a["termination"] == {"customer_done": 5, "max_turns": 1}
    assert b["termination"] == {"agent_transfer": 1, "customer_done": 4, "error": 1}
    assert a["check_kinds"] == {
        "outcome": {"failed": 2, "evaluated": 6},
        "state": {"failed": 2, "evaluated": 6},
        "step": {"failed": 2, "evaluated": 12},
    }
    assert b["check_kinds"]["step"] == {"failed": 3, "evaluated": 10}


def test_breakdowns(v1: dict) -> None:
    cat, dom = v1["by_category"], v1["by_domain"]
    assert cat["alpha"]["refund"]["n"] == 4
    assert cat["alpha"]["refund"]["strict_rate"] == 0.75
    assert cat["alpha"]["refund"]["partial_mean"] == 0.875
    assert cat["alpha"]["plan"]["strict_rate"] == 0.0
    assert cat["alpha"]["plan"]["partial_mean"] == 0.5
    assert cat["beta"]["refund"]["strict_rate"] == pytest.approx(1 / 3)
    assert cat["beta"]["refund"]["partial_mean"] == 0.5
    assert cat["beta"]["plan"]["strict_rate"] == 1.0
    assert dom["alpha"]["retail"]["strict_rate"] == 1.0
    assert dom["alpha"]["telecom"]["strict_rate"] == 0.25
    assert dom["alpha"]["telecom"]["partial_mean"] == 0.625
    assert dom["beta"]["telecom"]["strict_rate"] == pytest.approx(2 / 3)
    assert dom["beta"]["retail"]["partial_mean"] == 0.75


def test_failing_checks_order_counts_and_reasons(v1: dict) -> None:
    failing = v1["failing_checks"]
    assert [(f["scenario_id"], f["check_id"], f["failed"], f["evaluated"]) for f in failing] == [
        ("plan_upgrade", "state", 2, 4),
        ("refund_roaming", "outcome", 2, 3),
        ("refund_roaming", "step:refund", 2, 3),
        ("plan_upgrade", "outcome", 1, 4),
        ("plan_upgrade", "step:change_plan", 1, 4),
        ("refund_duplicate", "state", 1, 4),
        ("refund_duplicate", "step:refund", 1, 4),
        ("refund_roaming", "state", 1, 3),
        ("refund_roaming", "step:lookup", 1, 3),
    ]
    assert failing[0]["agents"] == {"alpha": 2}
    assert failing[0]["reasons"] == [
        {"reason": "final state differs: plan: 'basic', expected 'plus'", "count": 2}
    ]
    assert failing[2]["agents"] == {"alpha": 1, "beta": 1}
    assert len(failing[2]["reasons"]) == 2


def test_scenario_grid_and_run_info(v1: dict) -> None:
    assert v1["run"] == {
        "run_id": "v1",
        "status": "completed",
        "started_at": "2025-01-02T03:00:00+00:00",
        "ended_at": "2025-01-02T04:00:06+00:00",
        "units_planned": 12,
        "units_recorded": 12,
        "units_missing": 0,
        "statuses": {"completed": 11, "harness_error": 1},
        "infra_errors": 0,  # the one infra error was retried on resume
        "harness_errors": 1,
        "units_foreign": 0,
        "foreign_reasons": [],
    }
    row = v1["scenarios"]["refund_roaming"]
    assert (row["domain"], row["category"]) == ("telecom", "refund")
    beta = row["agents"]["beta"]
    assert (beta["scored"], beta["strict_passes"]) == (1, 0)
    assert [(t["trial"], t["status"]) for t in beta["trials"]] == [
        (1, "harness_error"),
        (2, "completed"),
    ]
    assert list(v1["scenarios"]) == ["plan_upgrade", "refund_duplicate", "refund_roaming"]


def test_in_progress_run_reports_what_finished(v2_dir: Path) -> None:
    run = load_run(v2_dir)
    summary = summarise_run(run).document()
    assert not (v2_dir / "summary.json").exists()
    assert run.trials == 2  # from run.json, although gamma has only trial 1 so far
    assert summary["run"]["units_planned"] == 12
    assert summary["run"]["units_recorded"] == 7  # the torn last line is not counted
    assert summary["run"]["units_missing"] == 5
    gamma = summary["agents"]["gamma"]
    assert (gamma["n"], gamma["strict_rate"]) == (1, 1.0)
    assert gamma["pass_hat_k"] == {"1": 1.0, "2": None}  # no scenario has two trials yet
    assert gamma["pass_hat_k_scenarios"] == {"1": 1, "2": 0}
    assert summary["agents"]["alpha"]["strict_rate"] == pytest.approx(5 / 6)


def test_last_record_of_a_unit_wins_and_errors_are_never_scored() -> None:
    records = [
        make_record("s1", "a", 1, status="infra_error"),
        make_record("s1", "a", 1, strict=False, partial=0.5),
        make_record("s2", "a", 1, status="simulator_fault"),
    ]
    a = summarise(records).document()["agents"]["a"]
    assert (a["units"], a["n"], a["strict_rate"], a["partial_mean"]) == (2, 1, 0.0, 0.5)
    assert a["status"] == {"completed": 1, "simulator_fault": 1}


def test_nothing_scored_yet() -> None:
    a = summarise([make_record("s1", "a", 1, status="infra_error")]).document()["agents"]["a"]
    assert (a["n"], a["strict_rate"], a["strict_ci95"], a["partial_mean"]) == (0, None, None, None)
    assert a["response_ms"] == {"p50": None, "p90": None, "p99": None}
    assert a["pass_hat_k"] == {"1": None}
    assert summarise([]).document() == {
        "schema_version": 1,
        "units": 0,
        "trials": 1,
        "agents": {},
        "by_category": {},
        "by_domain": {},
        "scenarios": {},
        "failing_checks": [],
        "measurement": {
            "calls": 0,
            "wire_calls": 0,
            "client_ms": {"p50": None, "p99": None},
            "loop_lag_ms": None,
            "inflation_ms": None,
            "lagged_calls": 0,
            "saturated": False,
        },
    }
