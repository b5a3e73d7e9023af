"""``run`` and ``rescore`` with a statement judge, end to end through the CLI and the real
SDK against the mock server (in a thread: the CLI runs its own event loop): both verdicts
stored with each check, the judge recorded in run.json and the records, a rescore that
makes no call, a rescore by another judge that asks only what it has no verdict for, a run
with no judge, and a judge failure that is an infra error, never the Agent's."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cli_runs
import orjson
import pytest
from cli_runs import ScriptedJudge, quoting, rescore_without_calls

from supportsim.store import iter_records, read_json, read_rescored
from supportsim.testing import (
    MockLLMServer,
    asked_question,
    autopilot,
    http_error,
    is_statement_request,
)

QUESTIONS = ["step:confirm", "step:tell", "forbidden:leak-note"]
"""The refund scenario's communication checks: two say steps and a disclosure."""
KEY = "sk-test-judge"


def judge_quoting(markers: dict[str, str]) -> ScriptedJudge:
    """``yes`` to each check id, quoting whole the first Agent message that holds its
    marker (a verbatim quote); ``no`` to every other question."""
    return ScriptedJudge({c: quoting(m, whole=True, reason="stated") for c, m in markers.items()})


@pytest.fixture
def server(threaded_server: MockLLMServer) -> MockLLMServer:
    return threaded_server


def cli(server: MockLLMServer, *args: str) -> Any:
    return cli_runs.cli(server, *args, key=KEY)


def run(server: MockLLMServer, tmp_path: Path, *extra: str) -> tuple[Any, Path]:
    return cli_runs.run(
        server, tmp_path / "runs", "--agent", "oracle", "--trials", "2", *extra, key=KEY
    )


def checks(run_dir: Path) -> list[dict[str, Any]]:
    return [c.model_dump() for r in iter_records(run_dir) for c in r.checks]


def judged_run(server: MockLLMServer, tmp_path: Path) -> Path:
    # The judge disagrees with the rules on step:tell (the oracle's "Done, the refund of
    # 30 USD ..." is a refund to the rules; this judge says it is not stated).
    server.default("judge-m", judge_quoting({"step:confirm": "CH-2"}))
    result, run_dir = run(server, tmp_path, "--statement-judge", "openai:judge-m")
    assert result.exit_code == 0, result.output
    assert "statement judge: openai:judge-m" in result.output
    return run_dir


def test_a_judged_run_keeps_both_verdicts_and_records_its_judge(
    server: MockLLMServer, tmp_path: Path
) -> None:
    run_dir = judged_run(server, tmp_path)
    manifest = read_json(run_dir / "run.json")
    assert manifest["config"]["statement_judge"] == "openai:judge-m"
    assert "openai:judge-m" in manifest["models"]  # compare reads its configuration
    records = list(iter_records(run_dir))
    assert [r.statement_judge for r in records] == ["openai:judge-m"] * 2
    for record in records:
        by_id = {c.id: c for c in record.checks}
        assert by_id["step:confirm"].passed and by_id["step:confirm"].rule is True
        tell = by_id["step:tell"]
        assert not tell.passed and tell.rule is True  # the judge decided, the rules kept
        assert tell.judged is not None and tell.judged.answer == "no"
        assert tell.judged.model == "openai:judge-m" and tell.judged.request_sha256
        assert by_id["forbidden:leak-note"].judged is not None
        assert by_id["step:verify"].rule is None  # not a communication check
        assert record.strict is False
    # the oracle says the same in both trials: one trial asks, the other's verdicts come
    # from the cache (by model and prompt), and only the asking unit pays for calls
    asked = [
        asked_question(r).check_id
        for r in server.requests(model="judge-m")
        if is_statement_request(r)
    ]
    # the checks' questions, and the customer review's one about the persona's tone
    assert sorted(asked) == sorted([*QUESTIONS, "customer_review.customer_tone"])
    cached = sorted(
        tuple(c.judged.cached for c in r.checks if c.judged is not None) for r in records
    )
    assert cached == [(False,) * len(QUESTIONS), (True,) * len(QUESTIONS)]
    calls = sorted(sum(c.role == "judge" for c in r.llm_calls) for r in records)
    assert calls == [0, len(QUESTIONS) + 1]


def test_the_report_shows_agreement_and_lists_the_disagreements(
    server: MockLLMServer, tmp_path: Path
) -> None:
    run_dir = judged_run(server, tmp_path)
    result = cli(server, "report", str(run_dir), "--json", "-", "--html")
    assert result.exit_code == 0, result.output
    section = orjson.loads(result.stdout)["statement_judge"]
    assert section["judges"] == ["openai:judge-m"]
    assert section["checks"] == 2 * len(QUESTIONS)
    assert section["agree"] == 2 * (len(QUESTIONS) - 1)
    row = next(r for r in section["by_kind"] if r["kind"] == "say")
    assert (row["language"], row["checks"], row["rule_pass_judge_fail"]) == ("en", 4, 2)
    assert section["disagreements_total"] == 2
    d = section["disagreements"][0]
    assert (d["check_id"], d["rule"], d["answer"], d["judged"]) == ("step:tell", True, "no", False)
    html = (run_dir / "report.html").read_text()
    assert 'id="statement-judge"' in html and "step:tell" in html
    terminal = cli(server, "report", str(run_dir))
    assert "rules and judge disagree" in terminal.output


def test_rescore_reuses_the_stored_verdicts_and_makes_no_call(
    server: MockLLMServer, tmp_path: Path
) -> None:
    run_dir = judged_run(server, tmp_path)
    result = rescore_without_calls(server, run_dir)
    assert "0 questions asked (0 calls)" in result.output
    lines = read_rescored(run_dir)
    assert [line.statement_judge for line in lines] == ["openai:judge-m"] * 2
    for line in lines:
        tell = next(c for c in line.checks if c.id == "step:tell")
        assert tell.judged is not None and tell.judged.cached and not tell.passed
        assert line.strict is False  # the stored verdict decided again, not the rules


def test_rescore_with_another_judge_asks_only_what_it_has_no_verdict_for(
    server: MockLLMServer, tmp_path: Path
) -> None:
    run_dir = judged_run(server, tmp_path)
    other = judge_quoting({"step:confirm": "CH-2", "step:tell": "Done"})
    server.default("judge-2", other)
    result = cli(server, "rescore", str(run_dir), "--statement-judge", "openai:judge-2")
    assert result.exit_code == 0, result.output
    assert sorted(other.asked) == sorted(QUESTIONS)  # both trials' questions: asked once
    assert all(line.strict for line in read_rescored(run_dir))
    manifest = read_json(run_dir / "run.json")
    assert manifest["config"]["statement_judge"] == "openai:judge-2"
    assert manifest["rescores"][-1]["previous"] == "openai:judge-m"
    assert "openai:judge-2" in manifest["models"]
    again = cli(server, "rescore", str(run_dir), "--statement-judge", "openai:judge-2")
    plain = cli(server, "rescore", str(run_dir))
    assert again.exit_code == plain.exit_code == 0
    assert sorted(other.asked) == sorted(QUESTIONS)  # stored by request hash: no new call
    assert all(line.strict for line in read_rescored(run_dir))  # judge-2's verdicts kept
    rules = cli(server, "rescore", str(run_dir), "--statement-judge", "none")
    assert rules.exit_code == 0 and "rules only" in rules.output
    assert read_json(run_dir / "run.json")["config"]["statement_judge"] is None
    assert all(c.judged is None for line in read_rescored(run_dir) for c in line.checks)


def test_a_run_without_a_judge_is_rules_only_and_recorded_as_such(
    server: MockLLMServer, tmp_path: Path
) -> None:
    result, run_dir = run(server, tmp_path)  # the scripted Customer: no judge by default
    assert result.exit_code == 0, result.output
    assert "statement judge: none, rules only" in result.output
    assert read_json(run_dir / "run.json")["config"]["statement_judge"] is None
    records = list(iter_records(run_dir))
    assert [r.statement_judge for r in records] == [None, None]
    said = [c for c in checks(run_dir) if c["id"] in QUESTIONS]
    assert len(said) == 2 * len(QUESTIONS)
    assert all(c["rule"] is True and c["judged"] is None for c in said)
    assert server.requests() == []
    summary = orjson.loads(cli(server, "report", str(run_dir), "--json", "-").stdout)
    assert "statement_judge" not in summary


def test_the_default_judge_is_the_customers_model(server: MockLLMServer, tmp_path: Path) -> None:
    server.default(None, autopilot)
    result, run_dir = run(server, tmp_path, "--customer", "openai:cust", "--trials", "1")
    assert "statement judge: openai:cust (the Customer's model" in result.output
    assert read_json(run_dir / "run.json")["config"]["statement_judge"] == "openai:cust"
    asked = [r for r in server.requests(model="cust") if is_statement_request(r)]
    review = {"customer_review.customer_tone"}  # the customer review's judged question
    assert asked and {asked_question(r).check_id for r in asked} <= {*QUESTIONS, *review}
    explicit, none_dir = run(
        server, tmp_path / "b", "--customer", "openai:cust", "--statement-judge", "none"
    )
    assert "statement judge: none, rules only" in explicit.output
    assert read_json(none_dir / "run.json")["config"]["statement_judge"] is None


def test_a_judge_that_fails_after_retries_makes_the_unit_an_infra_error(
    server: MockLLMServer, tmp_path: Path
) -> None:
    config = tmp_path / "run.yaml"
    config.write_text("retries: {max_attempts: 1}\ntrials: 1\n")
    server.default("judge-m", lambda _r: http_error(500))
    result, run_dir = run(
        server, tmp_path, "--config", str(config), "--statement-judge", "openai:judge-m"
    )
    assert result.exit_code == 1, result.output
    (record,) = [r for r in iter_records(run_dir) if r.trial == 1]
    assert record.status == "infra_error" and record.strict is None and record.partial is None
    assert "statement judge" in (record.error or "")


@pytest.mark.parametrize(
    ("spec", "says"), [("no-such-model", "--statement-judge"), ("anthropic:j", "ANTHROPIC_API_KEY")]
)
def test_a_judge_that_cannot_be_used_exits_2_before_anything_is_written(
    server: MockLLMServer, tmp_path: Path, spec: str, says: str
) -> None:
    result, run_dir = run(server, tmp_path, "--statement-judge", spec)
    assert result.exit_code == 2, result.output
    assert says in result.output and not run_dir.exists()
