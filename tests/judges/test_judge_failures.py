"""Malformed verdicts, provider failures, budgets and stale judgments."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from judge_helpers import PerUnitJudge, make_run, record, table_of, unit_id, verdict_args

from supportsim.errors import InputError
from supportsim.judges import JUDGES_MANIFEST, JUDGMENTS, iter_judgments, judge_run
from supportsim.llm import RetryPolicy
from supportsim.store import RecordWriter, read_json
from supportsim.testing import MockLLMServer, call, http_error, malformed_call, reply, say

GOOD = reply(tool_calls=[call("submit_verdict", **verdict_args(True))])
NO_RETRY_WAIT = RetryPolicy(max_attempts=2, base_delay_s=0.0, jitter=0.0)


def one_unit_run(tmp_path: Path) -> Path:
    return make_run(tmp_path, agents=("A",), trials=1, pattern="1")


async def test_a_malformed_verdict_is_retried_with_a_corrective_note(
    tmp_path: Path, server: MockLLMServer, env: dict
) -> None:
    run = one_unit_run(tmp_path)
    server.script("j1", [reply(tool_calls=[malformed_call("submit_verdict")]), GOOD])
    outcome = await judge_run(run, judge_specs=["openai:j1"], env=env)
    (judgment,) = iter_judgments(run)
    assert (judgment.status, judgment.attempts) == ("ok", 2)
    assert judgment.verdicts["overall"]["verdict"] == "pass"
    second = server.requests(model="j1")[1].body["messages"]
    assert second[-2]["tool_calls"][0]["function"]["name"] == "submit_verdict"
    assert second[-1]["role"] == "tool"
    assert second[-1]["content"].startswith("Your verdict was not accepted: invalid submit_verdict")
    assert outcome.exit_code == 0


async def test_twice_malformed_is_an_infra_error_not_a_verdict(
    tmp_path: Path, server: MockLLMServer, env: dict
) -> None:
    run = one_unit_run(tmp_path)
    server.script("j1", [say("I think it passes."), say("Really, it passes.")])
    outcome = await judge_run(run, judge_specs=["openai:j1"], env=env)
    (judgment,) = iter_judgments(run)
    assert judgment.status == "infra_error"
    assert judgment.verdicts == {}
    assert judgment.attempts == 2
    assert judgment.error is not None
    assert judgment.error.startswith("malformed verdict (attempt 2 of 2): no submit_verdict call")
    # The text-only reply gets its note as a user message.
    assert server.requests(model="j1")[1].body["messages"][-1]["role"] == "user"
    s = outcome.summary
    assert s["coverage"]["openai:j1"]["infra_errors"] == 1
    assert s["coverage"]["openai:j1"]["units"] == 0
    assert s["pass_rates"]["A"]["openai:j1"]["n"] == 0  # not counted as a verdict
    assert outcome.exit_code == 1
    # Resuming retries the infra error only; the conversation is never re-run.
    before = (run / "conversations.jsonl").read_bytes()
    server.script("j1", [GOOD])
    again = await judge_run(run, judge_specs=["openai:j1"], env=env)
    assert again.exit_code == 0
    assert [j.status for j in iter_judgments(run)] == ["infra_error", "ok"]
    assert (run / "conversations.jsonl").read_bytes() == before
    assert again.summary["coverage"]["openai:j1"]["infra_errors"] == 0


async def test_a_provider_failure_after_retries_is_an_infra_error(
    tmp_path: Path, server: MockLLMServer, env: dict
) -> None:
    run = one_unit_run(tmp_path)
    server.script("j1", [http_error(500), http_error(503)])
    delays: list[float] = []

    async def fake_sleep(seconds: float) -> None:
        delays.append(seconds)

    outcome = await judge_run(
        run, judge_specs=["openai:j1"], env=env, policy=NO_RETRY_WAIT, sleep=fake_sleep
    )
    (judgment,) = iter_judgments(run)
    assert judgment.status == "infra_error"
    assert judgment.error is not None and judgment.error.startswith(
        "provider error: openai:j1: HTTP 503"
    )
    assert (judgment.attempts, judgment.cost_usd) == (0, None)
    assert delays == [0.0]
    assert len(server.requests(model="j1")) == 2
    assert outcome.exit_code == 1


async def test_only_completed_conversations_are_judged(
    tmp_path: Path, server: MockLLMServer, env: dict
) -> None:
    broken = record("A", 2, False, status="infra_error")
    run = make_run(tmp_path, agents=("A",), trials=1, pattern="1", extra=[broken])
    server.default("j1", PerUnitJudge(table_of("1", agents=("A",), trials=1)))
    outcome = await judge_run(run, judge_specs=["openai:j1"], env=env)
    assert [j.unit_id for j in iter_judgments(run)] == [unit_id("A", 1)]
    assert outcome.summary["units"] == 1


async def test_a_rerun_conversation_makes_its_old_judgments_stale(
    tmp_path: Path, server: MockLLMServer, env: dict
) -> None:
    run = one_unit_run(tmp_path)
    server.default("j1", PerUnitJudge({unit_id("A", 1): True}))
    await judge_run(run, judge_specs=["openai:j1"], env=env)
    writer = RecordWriter(run)
    writer.append(record("A", 1, False, ended_at="2026-02-02T00:00:00.000+00:00"))
    writer.close()
    outcome = await judge_run(run, judge_specs=["openai:j1"], env=env)
    assert outcome.plan is not None and len(outcome.plan.todo) == 1
    assert len(list(iter_judgments(run))) == 2
    assert outcome.summary["vs_strict"]["openai:j1"]["judge_passes_rules_fail"] == [unit_id("A", 1)]


async def test_a_new_rubric_judges_again_and_the_summary_follows_it(
    tmp_path: Path, server: MockLLMServer, env: dict
) -> None:
    run = one_unit_run(tmp_path)
    server.default("j1", PerUnitJudge({unit_id("A", 1): True}))
    await judge_run(run, judge_specs=["openai:j1"], env=env)
    rubric = tmp_path / "r.yaml"
    rubric.write_text(
        "name: short\ninstructions: Grade.\ncriteria:\n  - id: tone\n    question: Polite?\n"
        "overall: Pass if polite.\n"
    )
    server.default(
        "j1",
        lambda _r: reply(
            tool_calls=[
                call(
                    "submit_verdict",
                    tone={"justification": "rude", "verdict": "fail"},
                    overall={"justification": "rude", "verdict": "fail"},
                )
            ]
        ),
    )
    outcome = await judge_run(run, judge_specs=["openai:j1"], rubric_path=rubric, env=env)
    s = outcome.summary
    assert s["rubric"]["criteria"] == ["tone", "overall"]
    assert s["pass_rates"]["A"]["openai:j1"]["passes"] == 0
    assert read_json(run / JUDGES_MANIFEST)["rubric"]["name"] == "short"
    assert len(read_json(run / JUDGES_MANIFEST)["sessions"]) == 2


async def test_the_budget_stops_starting_judgments(
    tmp_path: Path, server: MockLLMServer, env: dict
) -> None:
    run = make_run(tmp_path, agents=("A",), trials=4, pattern="1111")
    models = tmp_path / "models.yaml"
    models.write_text(
        "models:\n  pricey:\n    provider: openai\n    model: pricey\n"
        f"    base_url: {server.url}/v1\n"
        "    price: {input_per_mtok: 1000, output_per_mtok: 0}\n"
    )
    # 1000 input tokens at $1000 per million: $1 per judgment.
    server.default(
        "pricey",
        lambda _r: reply(
            tool_calls=[call("submit_verdict", **verdict_args(True))],
            input_tokens=1000,
            output_tokens=7,
        ),
    )
    outcome = await judge_run(
        run,
        judge_specs=["pricey"],
        models_path=models,
        budget_usd=2.5,
        concurrency=1,
        env=env,
    )
    assert outcome.plan is not None and outcome.plan.status == "budget"
    assert outcome.exit_code == 1
    assert len(list(iter_judgments(run))) == 2  # $1 + $1; a third would pass $2.50
    cost = outcome.summary["cost"]
    assert cost["judges_usd"] == {"pricey": 2.0}
    assert cost["conversations_usd"] == pytest.approx(0.04)
    assert cost["total_usd"] == pytest.approx(2.04)
    session = read_json(run / JUDGES_MANIFEST)["sessions"][-1]
    assert (session["status"], session["judged"], session["spend_usd"]) == ("budget", 2, 2.0)
    assert session["calls"]["calls"] == 2
    assert session["calls"]["spend_usd"] == 2.0
    assert session["calls"]["input_tokens"] == 2000


async def test_a_torn_last_judgment_line_is_dropped_and_repaired(
    tmp_path: Path, server: MockLLMServer, env: dict
) -> None:
    run = make_run(tmp_path, agents=("A", "B"), trials=1, pattern="11")
    server.default("j1", PerUnitJudge(table_of("11", agents=("A", "B"), trials=1)))
    await judge_run(run, judge_specs=["openai:j1"], env=env)
    path = run / JUDGMENTS
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(lines[0] + lines[1][:40])  # a crash mid-write
    assert len(list(iter_judgments(run))) == 1
    await judge_run(run, judge_specs=["openai:j1"], env=env)
    rows = [json.loads(line) for line in path.read_bytes().splitlines()]
    assert len(rows) == 2 and all(r["status"] == "ok" for r in rows)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"judge_specs": ["nonsense"]}, "unknown model spec 'nonsense'"),
        ({"judge_specs": ["openai:a", "openai:a"]}, "the same --judge is given twice"),
        ({"judge_specs": []}, "give at least one --judge"),
        ({"judge_specs": ["openai:a"], "samples": 0}, "--samples must be at least 1"),
    ],
)
async def test_bad_input_writes_nothing(
    tmp_path: Path, env: dict, kwargs: dict, message: str
) -> None:
    run = one_unit_run(tmp_path)
    before = sorted(p.name for p in run.iterdir())
    with pytest.raises(InputError, match=message):
        await judge_run(run, env=env, **kwargs)
    assert sorted(p.name for p in run.iterdir()) == before


async def test_a_missing_key_names_the_judge(tmp_path: Path) -> None:
    run = one_unit_run(tmp_path)
    with pytest.raises(InputError, match=r"OPENAI_API_KEY is not set \(needed by judge openai:a"):
        await judge_run(run, judge_specs=["openai:a"], env={})
    assert not (run / JUDGMENTS).exists()


async def test_not_a_run_directory(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="not a run directory"):
        await judge_run(tmp_path, judge_specs=["openai:a"], env={"OPENAI_API_KEY": "k"})
