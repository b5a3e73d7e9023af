"""compare: v1 (A) against v2 (B) worked out by hand, plus synthetic clear-cut cases.

alpha, paired by (scenario, trial), strict / partial:
  refund_duplicate t1  A T 1.00  B T 1.00 | t2  A T 1.00  B T 1.00
  refund_roaming   t1  A F 0.50  B T 1.00 | t2  A T 1.00  B T 1.00
  plan_upgrade     t1  A F 0.75  B T 1.00 | t2  A F 0.25  B F 0.50
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from report_helpers import make_record
from rich.console import Console
from typer.testing import CliRunner, Result

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


# -- setups and saturated clients (issue 21) ------------------------------------------------

SCENARIO_IDS = [f"s{i:02d}" for i in range(20)]
AGENT_MODEL = {"provider": "openai", "model": "gpt-4.1", "temperature": 0.0}
CUSTOMER_MODEL = {"provider": "openai", "model": "gpt-4.1-mini", "temperature": 0.7}


def _manifest(run_id: str, **changes: Any) -> dict[str, Any]:
    """A run.json with the fields the setup comparison reads; ``changes`` override them
    (``lag_p99_ms``: the session's loop-lag p99 over 300 samples)."""
    p99 = changes.pop("lag_p99_ms", 4.0)
    config = {
        "agents": ["m"],
        "customer": "cust",
        "trials": 1,
        "concurrency": 8,
        "models_file": "models.yaml",
        **changes.pop("config", {}),
    }
    lag = {"interval_ms": 100.0, "samples": 300, "p50_ms": 2.0, "p99_ms": p99}
    manifest = {
        "schema_version": 1,
        "run_id": run_id,
        "config": config,
        "scenarios": {s: "a" * 64 for s in SCENARIO_IDS},
        "personas": {"calm": "b" * 64},
        "models": {"m": AGENT_MODEL, "cust": CUSTOMER_MODEL},
        "versions": {"python": "3.11.9", "supportsim": "0.1.0", "openai": "3.57.0"},
        "started_at": "2025-01-01T00:00:00+00:00",
        "status": "completed",
        "sessions": [
            {"started_at": "2025-01-01T00:00:00+00:00", "status": "completed", "loop_lag": lag}
        ],
        "loop_lag": lag,
    }
    manifest.update(changes)
    return manifest


def _setup_runs(
    tmp_path: Path, a: dict[str, Any], b: dict[str, Any], *, b_reply_ms: float = 1000.0
) -> tuple[Path, Path]:
    """A and B with the same conversations (B's first ten replies ``b_reply_ms``)."""
    from gate_runs import record, write_run

    rec_a = [record(s, "m", 1) for s in SCENARIO_IDS]
    rec_b = [
        record(s, "m", 1, reply_ms=(b_reply_ms if i < 10 else 1000.0,))
        for i, s in enumerate(SCENARIO_IDS)
    ]
    dir_a, dir_b = write_run(tmp_path / "a", rec_a), write_run(tmp_path / "b", rec_b)
    (dir_a / "run.json").write_text(json.dumps(a))
    (dir_b / "run.json").write_text(json.dumps(b))
    return dir_a, dir_b


def _compare(*args: str | Path) -> Result:
    from supportsim.cli import app

    return CliRunner().invoke(app, ["compare", *map(str, args)], env={"COLUMNS": "200"})


def test_the_same_setup_has_no_difference(tmp_path: Path) -> None:
    a, b = _setup_runs(tmp_path, _manifest("a"), _manifest("b"))
    c = compare_runs(load_run(a), load_run(b))
    assert c["setup"] == {"comparable": True, "differences": []}
    assert c["a"]["saturated_lag_p99_ms"] is None and c["b"]["saturated_lag_p99_ms"] is None


def test_compare_names_every_setup_difference(tmp_path: Path) -> None:
    changed = {s: "a" * 64 for s in SCENARIO_IDS[:19]} | {"s00": "c" * 64, "new": "d" * 64}
    b = _manifest(
        "b",
        config={"customer": "openai:gpt-5-mini", "assertion_judge": "openai:gpt-4.1"},
        scenarios=changed,
        models={"m": AGENT_MODEL | {"temperature": 0.3}, "cust": CUSTOMER_MODEL | {"top_p": 0.9}},
        versions={"python": "3.12.1", "supportsim": "0.2.0", "openai": "3.57.0"},
    )
    c = compare_runs(
        load_run(_setup_runs(tmp_path, _manifest("a"), b)[0]), load_run(tmp_path / "b")
    )
    found = {d["what"]: d for d in c["setup"]["differences"]}
    assert c["setup"]["comparable"] is False
    assert found["Customer"] | {} == {
        "what": "Customer",
        "a": "cust",
        "b": "openai:gpt-5-mini",
        "blocking": True,
    }
    assert (
        found["assertion judge"]["b"] == "openai:gpt-4.1" and found["assertion judge"]["blocking"]
    )
    (scenarios,) = [d for d in found.values() if d["what"].startswith("scenario set")]
    assert scenarios["blocking"] and scenarios["a"] != scenarios["b"]
    assert "1 changed (s00)" in scenarios["what"]
    assert "1 only in A (s19)" in scenarios["what"] and "1 only in B (new)" in scenarios["what"]
    assert found["model cust"]["b"] == "top_p none -> 0.9" and found["model cust"]["blocking"]
    assert found["supportsim version"] == {
        "what": "supportsim version",
        "a": "0.1.0",
        "b": "0.2.0",
        "blocking": True,
    }
    # what the comparison is about, and what moves no score, are noted, not blocking
    assert found["Agent m's model"] == {
        "what": "Agent m's model",
        "a": "",
        "b": "temperature 0.0 -> 0.3",
        "blocking": False,
    }
    assert found["python version"]["blocking"] is False
    assert "openai version" not in found
    blocking = [d["blocking"] for d in c["setup"]["differences"]]
    assert blocking == sorted(blocking, reverse=True)  # blocking ones first


def test_a_gate_refuses_runs_with_different_customers_unless_allowed(tmp_path: Path) -> None:
    b = _manifest("b", config={"customer": "openai:gpt-5-mini"})
    a_dir, b_dir = _setup_runs(tmp_path, _manifest("a"), b)
    html = tmp_path / "out.html"
    refused = _compare(a_dir, b_dir, "--fail-on-regression", "strict", "--html", html)
    assert refused.exit_code == 2, refused.output
    assert "different setups" in refused.output and "--allow-different" in refused.output
    assert "Customer: cust (A) vs openai:gpt-5-mini (B)" in refused.output
    assert not html.exists()  # bad input: nothing written
    allowed = _compare(
        a_dir, b_dir, "--fail-on-regression", "strict", "--allow-different", "--html", html
    )
    assert allowed.exit_code == 0, allowed.output
    assert "setups differ" in allowed.output and "Customer: cust (A) vs" in allowed.output
    assert "openai:gpt-5-mini" in html.read_text()
    plain = _compare(a_dir, b_dir)  # no gate: the comparison, with the differences first
    assert plain.exit_code == 0
    assert plain.output.index("setups differ") < plain.output.index("B − A per agent")


def test_a_saturated_runs_latency_verdict_is_unreliable_and_never_gates(tmp_path: Path) -> None:
    # B's replies are 2 s slower on half the scenarios: detected worse on latency_p90 ...
    a_dir, b_dir = _setup_runs(tmp_path, _manifest("a"), _manifest("b"), b_reply_ms=3000.0)
    gated = _compare(a_dir, b_dir, "--fail-on-regression", "latency_p90")
    assert gated.exit_code == 1 and "B is worse on latency_p90" in gated.output
    # ... but when B's own measurement says its client was saturated, that is unreliable
    (b_dir / "run.json").write_text(json.dumps(_manifest("b", lag_p99_ms=813.0)))
    c = compare_runs(load_run(a_dir), load_run(b_dir))
    assert c["b"]["saturated_lag_p99_ms"] == 813.0 and c["a"]["saturated_lag_p99_ms"] is None
    (row,) = c["agents"]
    assert row["latency_p90"]["detected"] is True  # the test still says what it saw
    assert "B's client was saturated (event-loop lag p99 813 ms" in row["latency_p90"]["unreliable"]
    assert row["latency_verdict"].startswith("unreliable: B is worse on latency_p90")
    html, doc = tmp_path / "c.html", tmp_path / "c.json"
    result = _compare(
        a_dir, b_dir, "--fail-on-regression", "latency_p90", "--html", html, "--json", doc
    )
    assert result.exit_code == 0, result.output
    assert "not gated: m: latency_p90: run B's client was saturated" in result.output
    assert "permutation, unreliable" in result.output  # the terminal table
    assert "run B's client was saturated" in result.output
    assert json.loads(doc.read_text())["agents"][0]["latency_p90"]["unreliable"]
    page = html.read_text()
    assert 'class="hint unreliable"' in page and "Run B's client was saturated" in page
    # other metrics still gate: strict did not move, so the gate passes
    assert _compare(a_dir, b_dir, "--fail-on-regression", "strict").exit_code == 0


def test_compare_json_to_standard_output_is_the_document_alone(tmp_path: Path) -> None:
    a_dir, b_dir = _setup_runs(tmp_path, _manifest("a"), _manifest("b"))
    from supportsim.report import compare_command

    out, err = io.StringIO(), io.StringIO()
    code = compare_command(
        a_dir,
        b_dir,
        pairs=[],
        html=False,
        html_path=None,
        out=Console(file=out, width=200),
        err=Console(file=err, width=200),
        json_path="-",
    )
    assert code == 0
    assert json.loads(out.getvalue())["setup"] == {"comparable": True, "differences": []}
    assert "B − A per agent" in err.getvalue()
