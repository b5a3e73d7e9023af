"""A run of imported tau2 tasks: records keep tau2's hash and the changed records (not the
2.8 MB database), the assertion judge's verdicts, the unscored status; rescore agrees."""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path
from typing import Any

from tau2_helpers import EXPECTED, PERSONAS

from supportsim.batch import RunRequest, execute, prepare_run
from supportsim.cli import load_inputs
from supportsim.rescore import rescore_run
from supportsim.store import ConversationRecord, iter_records
from supportsim.tau2 import apply_changes, state_changes, tau2_initial
from supportsim.tau2.retail import db_hash
from supportsim.testing import MockLLMServer, say

IDS = ["tau2_retail_0", "tau2_retail_2"]  # 0 has no nl_assertions, 2 has


async def no_wait(_seconds: float) -> None:
    await asyncio.sleep(0)


async def run(
    scenarios: Path, out: Path, server: MockLLMServer, **overrides: Any
) -> list[ConversationRecord]:
    request = RunRequest(
        None,
        {
            "scenarios": [str(scenarios)],
            "personas": str(PERSONAS),
            "out": str(out),
            "ids": IDS,
            **overrides,
        },
        run_id="r1",
    )
    env = {"OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": server.url + "/v1"}
    prepared = prepare_run(request, env)
    prepared.pool.sleep = no_wait
    try:
        session = await execute(prepared.session, prepared.ctx, prepared.config, pool=prepared.pool)
    finally:
        await prepared.pool.aclose()
    return sorted(iter_records(session.run_dir), key=lambda r: r.scenario_id)


def verdicts_reply(assertions: list[str], met: bool) -> str:
    results = [
        {"expectedOutcome": a, "reasoning": "checked", "metExpectation": met} for a in assertions
    ]
    return json.dumps({"results": results})


def assertions_of(imported: Path, scenario_id: str) -> list[str]:
    _, _, scenarios = load_inputs([imported / f"{scenario_id}.yaml"], PERSONAS)
    assert scenarios[0].tau2 is not None
    return scenarios[0].tau2.nl_assertions


async def test_records_keep_the_hash_and_changes_and_no_judge_means_unscored(
    imported: Path, tmp_path: Path
) -> None:
    async with MockLLMServer() as server:
        zero, two = await run(imported, tmp_path / "runs", server)
        assert server.requests() == []  # oracle agent, scripted customer, no judge
    for record in (zero, two):
        task = record.scenario_id.removeprefix("tau2_retail_")
        assert record.final_state is None
        assert record.state_sha256 == EXPECTED["tasks"][task]["final_db_sha256"]
        changed = {t: set(r["records"]) for t, r in (record.state_changes or {}).items()}
        expected = {t: set(r) for t, r in EXPECTED["tasks"][task]["changed"].items()}
        assert {t: k for t, k in changed.items() if t in expected} == expected
    assert zero.strict and zero.unscored == []
    assert not two.strict and two.unscored == ["reward:NL_ASSERTION"]
    line = (tmp_path / "runs" / "r1" / "conversations.jsonl").read_text().splitlines()[0]
    assert len(line) < 200_000, "a tau2 record must not carry the whole database"


async def test_the_judge_runs_once_per_conversation_with_assertions_and_its_verdicts_stay(
    imported: Path, tmp_path: Path
) -> None:
    assertions = assertions_of(imported, "tau2_retail_2")
    async with MockLLMServer() as server:
        server.script("gpt-4.1", [say(verdicts_reply(assertions, True))])
        zero, two = await run(imported, tmp_path / "runs", server, assertion_judge="openai:gpt-4.1")
        (request,) = server.requests(model="gpt-4.1")
    assert request.body["temperature"] == 0
    assert zero.strict and zero.assertion_verdicts == []
    assert two.strict and two.unscored == []
    assert [v.assertion for v in two.assertion_verdicts] == assertions
    assert all(v.met for v in two.assertion_verdicts)
    assert [c.role for c in two.llm_calls] == ["judge"]


async def test_a_judge_saying_no_fails_the_unit_and_rescore_agrees(
    imported: Path, tmp_path: Path
) -> None:
    assertions = assertions_of(imported, "tau2_retail_2")
    async with MockLLMServer() as server:
        server.script("gpt-4.1", [say(verdicts_reply(assertions, False))])
        _, two = await run(imported, tmp_path / "runs", server, assertion_judge="openai:gpt-4.1")
    assert not two.strict
    assert not next(c for c in two.checks if c.id == "reward:NL_ASSERTION").passed
    domains, _, scenarios = load_inputs([imported], PERSONAS)
    result = await rescore_run(tmp_path / "runs" / "r1", {s.id: s for s in scenarios}, domains)
    assert result.rescored == 2 and result.changed == () and result.not_rescorable == ()


async def test_rescore_rebuilds_the_final_state_and_catches_a_changed_gold_path(
    imported: Path, tmp_path: Path
) -> None:
    async with MockLLMServer() as server:
        await run(imported, tmp_path / "runs", server)
    copy = tmp_path / "copy"
    shutil.copytree(imported, copy)
    target = copy / "tau2_retail_0.yaml"
    text = target.read_text().replace("- '7706410293'", "- '7706410294'")  # another variant
    assert text != target.read_text()
    target.write_text(text)
    domains, _, scenarios = load_inputs([copy], PERSONAS)
    result = await rescore_run(tmp_path / "runs" / "r1", {s.id: s for s in scenarios}, domains)
    (change,) = result.changed
    assert change.scenario_id == "tau2_retail_0"
    shutil.rmtree(copy / "tau2_data")  # the scenarios' files no longer have their data
    result = await rescore_run(tmp_path / "runs" / "r1", {s.id: s for s in scenarios}, domains)
    assert {n.scenario_id for n in result.not_rescorable} == set(IDS)
    assert all("tau2_data" in n.reason for n in result.not_rescorable)


def test_state_changes_round_trip() -> None:
    initial = {"orders": {"a": {"s": 1}, "b": {"s": 2}}, "session": {"v": None}, "n": 1}
    final = {"orders": {"a": {"s": 1}, "b": {"s": 3}, "c": {"s": 4}}, "session": {"v": 1}, "n": 2}
    changes = state_changes(final, initial)
    assert changes == {
        "n": {"value": 2},
        "orders": {"records": {"b": {"s": 3}, "c": {"s": 4}}},
        "session": {"records": {"v": 1}},
    }
    assert apply_changes(initial, changes) == final
    removed = {"orders": {"a": {"s": 1}}, "session": {"v": None}, "n": 1}
    assert apply_changes(initial, state_changes(removed, initial)) == removed
    assert state_changes(initial, initial) == {}


def test_only_tau2_scenarios_with_their_data_are_stored_small(imported: Path) -> None:
    _, _, scenarios = load_inputs([imported / "tau2_retail_0.yaml"], PERSONAS)
    initial = tau2_initial(scenarios[0])
    assert initial is not None and db_hash(initial) == EXPECTED["initial_db_sha256"]
    assert tau2_initial(scenarios[0].model_copy(update={"tau2": None})) is None
