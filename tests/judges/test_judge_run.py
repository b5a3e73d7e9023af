"""Judges over the mock server with scripted verdicts: the summary against hand values.

Units are A1..A4, B1..B4, C1..C4 (patterns below are in that order). The strict verdict
of the rules is ``1111 1100 1000``: A 4/4, B 2/4, C 1/4.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from judge_helpers import PerUnitJudge, make_run, table_of, unit_id

from supportsim.judges import (
    JUDGMENTS,
    OVERALL,
    iter_judgments,
    judge_run,
)
from supportsim.scoring import wilson_interval
from supportsim.testing import MockLLMServer

STRICT = "1111 1100 1000"


def rate(passes: int, n: int) -> dict:
    low, high = wilson_interval(passes, n)
    return {"n": n, "passes": passes, "rate": passes / n, "ci95": [low, high]}


def pairs(summary: dict) -> dict[tuple[str, str], dict]:
    return {(p["a"], p["b"]): p for p in summary["pairwise"][OVERALL]}


def taus(summary: dict) -> dict[tuple[str, str], float | None]:
    return {(t["a"], t["b"]): t["tau"] for t in summary["ranking"]["tau"]}


async def test_perfect_agreement(tmp_path: Path, server: MockLLMServer, env: dict) -> None:
    run = make_run(tmp_path, pattern=STRICT)
    server.default("j1", PerUnitJudge(table_of(STRICT)))
    server.default("j2", PerUnitJudge(table_of(STRICT)))
    outcome = await judge_run(run, judge_specs=["openai:j1", "openai:j2"], env=env)
    assert outcome.plan is not None and outcome.plan.status == "completed"
    assert outcome.exit_code == 0
    s = outcome.summary
    assert s["judges"] == ["openai:j1", "openai:j2"]
    assert s["units"] == 12
    pair = pairs(s)[("openai:j1", "openai:j2")]
    assert pair == {"a": "openai:j1", "b": "openai:j2", "n": 12, "agreement": 1.0, "kappa": 1.0}
    assert s["fleiss"][OVERALL] == {"n": 12, "raters": 2, "kappa": 1.0}
    assert s["mean_pairwise_agreement"][OVERALL] == 1.0
    assert taus(s) == {
        ("strict", "openai:j1"): 1.0,
        ("strict", "openai:j2"): 1.0,
        ("openai:j1", "openai:j2"): 1.0,
    }
    for judge in ("openai:j1", "openai:j2"):
        vs = s["vs_strict"][judge]
        assert (vs["n"], vs["agreement"], vs["kappa"]) == (12, 1.0, 1.0)
        assert vs["judge_passes_rules_fail"] == vs["judge_fails_rules_pass"] == []
        assert (vs["both_pass"], vs["both_fail"]) == (7, 5)
    assert s["pass_rates"]["A"]["openai:j1"] == rate(4, 4)
    assert s["pass_rates"]["B"]["openai:j2"] == rate(2, 4)
    assert s["pass_rates"]["C"]["majority"] == rate(1, 4)
    assert s["pass_rates"]["C"]["strict"] == rate(1, 4)
    assert s["splits"] == []
    assert len(server.requests(model="j1")) == 12


async def test_chance_agreement_and_a_judge_that_always_passes(
    tmp_path: Path, server: MockLLMServer, env: dict
) -> None:
    run = make_run(tmp_path, pattern=STRICT)
    server.default("j1", PerUnitJudge(table_of("1111 1100 0000")))
    server.default("j2", PerUnitJudge(table_of("1000 1111 1000")))
    server.default("j3", PerUnitJudge(table_of("1111 1111 1111")))
    outcome = await judge_run(
        run, judge_specs=["openai:j1", "openai:j2", "openai:j3"], env=env, concurrency=5
    )
    s = outcome.summary
    j1, j2, j3 = "openai:j1", "openai:j2", "openai:j3"
    # Every pair agrees on 6 of 12 units and chance agreement is 0.5: kappa 0.
    for key, pair in pairs(s).items():
        assert (pair["n"], pair["agreement"], pair["kappa"]) == (12, 0.5, 0.0), key
    # Fleiss: P-bar = (3 * 1 + 9 * 1/3) / 12 = 1/2; p(pass) = 24/36 -> Pe = 5/9;
    # kappa = (1/2 - 5/9) / (4/9) = -1/8.
    assert s["fleiss"][OVERALL]["kappa"] == pytest.approx(-0.125)
    assert s["mean_pairwise_agreement"][OVERALL] == 0.5
    # Rankings: strict A 1 > B .5 > C .25; j1 A 1 > B .5 > C 0; j2 B 1 > A .25 = C .25;
    # j3 ranks nothing (all 1). tau(j1, j2): C = 1 (B-C), D = 1 (A-B), one y tie -> 0.
    assert taus(s) == {
        ("strict", j1): 1.0,
        ("strict", j2): 0.0,
        ("strict", j3): None,
        (j1, j2): 0.0,
        (j1, j3): None,
        (j2, j3): None,
    }
    assert s["ranking"]["rates"][j2] == {"A": 0.25, "B": 1.0, "C": 0.25}
    # Against the rules: j1 misses C1 only: po = 11/12, pe = 1/2 -> kappa = 5/6.
    v1 = s["vs_strict"][j1]
    assert v1["agreement"] == pytest.approx(11 / 12)
    assert v1["kappa"] == pytest.approx(5 / 6)
    assert v1["judge_fails_rules_pass"] == [unit_id("C", 1)]
    assert v1["judge_passes_rules_fail"] == []
    # j2: po = 7/12, pe = 1/2 -> kappa = 1/6.
    v2 = s["vs_strict"][j2]
    assert v2["kappa"] == pytest.approx(1 / 6)
    assert v2["judge_passes_rules_fail"] == [unit_id("B", 3), unit_id("B", 4)]
    assert v2["judge_fails_rules_pass"] == [unit_id("A", t) for t in (2, 3, 4)]
    # j3 always passes: po = 7/12 = pe -> kappa 0; it passes all 5 rule failures.
    v3 = s["vs_strict"][j3]
    assert (v3["agreement"], v3["kappa"]) == (pytest.approx(7 / 12), 0.0)
    assert v3["judge_pass_reference_fail"] == 5
    assert v3["judge_passes_rules_fail"] == [
        unit_id("B", 3),
        unit_id("B", 4),
        unit_id("C", 2),
        unit_id("C", 3),
        unit_id("C", 4),
    ]
    # Pass rates per agent and judge, and the judges' majority (1111 1111 1000).
    assert s["pass_rates"]["A"][j2] == rate(1, 4)
    assert s["pass_rates"]["B"][j2] == rate(4, 4)
    assert s["pass_rates"]["C"][j1] == rate(0, 4)
    assert s["pass_rates"]["C"][j3] == rate(4, 4)
    assert [s["pass_rates"][a]["majority"]["passes"] for a in "ABC"] == [4, 4, 1]
    assert s["criteria_pass_rates"][j3]["tone"] == rate(12, 12)
    # Splits: every unit but A1, B1, B2 (unanimous).
    split_units = [x["unit_id"] for x in s["splits"]]
    assert split_units == [unit_id("A", t) for t in (2, 3, 4)] + [
        unit_id("B", 3),
        unit_id("B", 4),
    ] + [unit_id("C", t) for t in (1, 2, 3, 4)]
    first = s["splits"][0]
    assert first["verdicts"] == {j1: "pass", j2: "fail", j3: "pass"}
    assert first["strict"] is True
    assert first["criteria_split"] == s["rubric"]["criteria"]
    assert first["justifications"][j2] == "Overall not ok."
    assert s["majority"][unit_id("C", 2)] == {"verdict": "fail", "passes": 1, "judges": 3}


async def test_samples_majority_and_self_consistency(
    tmp_path: Path, server: MockLLMServer, env: dict
) -> None:
    run = make_run(tmp_path, agents=("A",), trials=2, pattern="11")
    server.default(
        "j1", PerUnitJudge({unit_id("A", 1): [True, True, False], unit_id("A", 2): [False]})
    )
    outcome = await judge_run(run, judge_specs=["openai:j1"], samples=3, env=env)
    s = outcome.summary
    judgments = list(iter_judgments(run))
    assert sorted((j.unit_id, j.sample) for j in judgments) == [
        (unit_id("A", t), n) for t in (1, 2) for n in (1, 2, 3)
    ]
    assert s["pass_rates"]["A"]["openai:j1"] == rate(1, 2)  # A1 2 of 3 -> pass; A2 fails
    consistency = s["self_consistency"]["openai:j1"]
    assert consistency["units"] == 2
    assert consistency["mean"] == pytest.approx((2 / 3 + 1) / 2)
    assert consistency["unanimous"] == 0.5
    assert s["coverage"]["openai:j1"] == {
        "units": 2,
        "judgments": 6,
        "samples": 3,
        "infra_errors": 0,
    }


async def test_a_tie_between_samples_fails(
    tmp_path: Path, server: MockLLMServer, env: dict
) -> None:
    run = make_run(tmp_path, agents=("A",), trials=1, pattern="1")
    server.default("j1", PerUnitJudge({unit_id("A", 1): [True, False]}))
    s = (await judge_run(run, judge_specs=["openai:j1"], samples=2, env=env)).summary
    assert s["pass_rates"]["A"]["openai:j1"]["passes"] == 0
    assert s["self_consistency"]["openai:j1"]["mean"] == 0.5


async def test_an_anthropic_judge_gives_structured_verdicts(
    tmp_path: Path, server: MockLLMServer, env: dict
) -> None:
    run = make_run(tmp_path, agents=("A",), trials=2, pattern="10")
    server.default("claude-j", PerUnitJudge(table_of("10", agents=("A",), trials=2)))
    outcome = await judge_run(run, judge_specs=["anthropic:claude-j"], env=env)
    assert outcome.exit_code == 0
    vs = outcome.summary["vs_strict"]["anthropic:claude-j"]
    assert (vs["agreement"], vs["kappa"]) == (1.0, 1.0)
    request = server.requests(model="claude-j", api="anthropic")[0]
    assert request.body["tool_choice"] == {"type": "any"}
    assert [t["name"] for t in request.body["tools"]] == ["submit_verdict"]
    assert "sk-ant-test-judge" not in (run / JUDGMENTS).read_text()


async def test_resume_makes_only_missing_judgments(
    tmp_path: Path, server: MockLLMServer, env: dict
) -> None:
    run = make_run(tmp_path, agents=("A", "B"), trials=1, pattern="10")
    server.default("j1", PerUnitJudge(table_of("10", agents=("A", "B"), trials=1)))
    await judge_run(run, judge_specs=["openai:j1"], env=env)
    assert len(server.requests(model="j1")) == 2
    again = await judge_run(run, judge_specs=["openai:j1"], env=env)
    assert again.plan is not None and again.plan.todo == []
    assert len(server.requests(model="j1")) == 2
    # More samples later: only the new ones are asked for.
    await judge_run(run, judge_specs=["openai:j1"], samples=2, env=env)
    assert len(server.requests(model="j1")) == 4
    assert len(list(iter_judgments(run))) == 4


async def test_the_policy_and_outcome_reach_the_judge_but_not_the_hidden_goal(
    tmp_path: Path, server: MockLLMServer, env: dict
) -> None:
    run = make_run(tmp_path, agents=("A",), trials=1, pattern="1")
    server.default("j1", PerUnitJudge(table_of("1", agents=("A",), trials=1)))
    outcome = await judge_run(run, judge_specs=["openai:j1"], env=env)
    assert outcome.warnings == []
    text = server.requests(model="j1")[0].body["messages"][1]["content"]
    assert "Expected outcome: resolved" in text
    assert "Verify the customer's identity with verify_identity" in text
    assert "Refund the duplicate charge, not the original" in text
    assert "- today: 2026-03-14" in text
    assert "a refund of the duplicate 30 USD charge" not in text  # will_accept: hidden
    assert "wrong charge refunded" not in text  # failure_mode: not for the judge


async def test_a_changed_scenario_is_not_used(
    tmp_path: Path, server: MockLLMServer, env: dict
) -> None:
    source = Path(__file__).parents[1] / "fixtures" / "scenarios" / "mock_duplicate_refund.yaml"
    copy = tmp_path / "scenarios" / "s.yaml"
    copy.parent.mkdir()
    copy.write_text(source.read_text().replace("outcome: resolved", "outcome: escalated"))
    run = make_run(tmp_path, agents=("A",), trials=1, pattern="1", scenarios=str(copy.parent))
    server.default("j1", PerUnitJudge(table_of("1", agents=("A",), trials=1)))
    outcome = await judge_run(run, judge_specs=["openai:j1"], env=env)
    assert outcome.warnings == [
        f"scenario mock-duplicate-refund: {copy} changed since the run; judged against the "
        "policy alone"
    ]
    text = server.requests(model="j1")[0].body["messages"][1]["content"]
    assert "Expected outcome: unknown" in text
    assert "Verify the customer's identity" in text  # the domain policy is still known


async def test_missing_scenario_files_warn_and_judging_goes_on(
    tmp_path: Path, server: MockLLMServer, env: dict
) -> None:
    run = make_run(tmp_path, agents=("A",), trials=1, pattern="1", scenarios="/nonexistent")
    server.default("j1", PerUnitJudge(table_of("1", agents=("A",), trials=1)))
    outcome = await judge_run(run, judge_specs=["openai:j1"], env=env)
    assert outcome.exit_code == 0
    assert len(outcome.warnings) == 1
    assert outcome.warnings[0].startswith("cannot load the run's scenario files")


async def test_a_key_a_judge_echoes_in_its_justification_is_not_stored(
    tmp_path: Path, server: MockLLMServer, env: dict
) -> None:
    from judge_helpers import verdict_args

    from supportsim.testing import call, reply

    run = make_run(tmp_path, pattern=STRICT)
    key = env["OPENAI_API_KEY"]

    def echoing(_request: object) -> object:
        args = verdict_args(True)
        args[OVERALL] = {"justification": f"My key is {key}.", "verdict": "pass"}
        return reply(tool_calls=[call("submit_verdict", **args)])

    server.default("j1", echoing)
    outcome = await judge_run(run, judge_specs=["openai:j1"], env=env)
    assert outcome.plan is not None and outcome.plan.status == "completed"
    stored = (run / JUDGMENTS).read_text(encoding="utf-8")
    assert "My key is ***." in stored
    assert key not in stored
