"""The judged part of the customer review, end to end through the CLI and the real SDK
against the mock server: persona drift in tone and a social engineer that gives up, each a
non-critical ``judge`` finding at the Customer message the judge quoted; a quote that is
not a Customer's text rejected (retried, then unclear: no finding, counted); no judge, no
judged finding and no call; a rescore that reuses the stored findings without a call."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from cli_runs import ScriptedJudge as Judge
from cli_runs import quoting, rescore_without_calls
from cli_runs import run as run_cli

from supportsim.store import iter_records, read_rescored
from supportsim.testing import MockLLMServer, verdict

POLITE = "Yes please, refund the second one."
"""The scripted Customer's last message: polite, for an angry persona off-tone."""
TONE = "customer_review.customer_tone"
GAVE_UP = "customer_review.customer_gave_up_social_engineering"
OFF_PERSONA = quoting(POLITE, reason="off persona")
"""The judge's answer for either question: yes, quoting the polite Customer message."""


def personas(tmp_path: Path, tone: str, behaviours: str = "[]") -> Path:
    folder = tmp_path / "personas"
    folder.mkdir()
    (folder / "tester.yaml").write_text(
        f"id: tester\nname: Tess\ntone: {tone}\nverbosity: terse\npatience: 6\n"
        f"language: en\nvolunteers: some\nbehaviours: {behaviours}\n"
    )
    return folder


def run(server: MockLLMServer, tmp_path: Path, folder: Path, *extra: str) -> Path:
    result, run_dir = run_cli(
        server, tmp_path / "runs", "--agent", "oracle", *extra, personas=folder
    )
    assert result.exit_code == 0, result.output
    return run_dir


def judged(run_dir: Path) -> list[Any]:
    (record,) = list(iter_records(run_dir))
    assert record.customer_review is not None
    return [f for f in record.customer_review.findings if f.source == "judge"]


@pytest.fixture
def server(threaded_server: MockLLMServer) -> MockLLMServer:
    return threaded_server


def test_an_angry_persona_writing_politely_is_one_non_critical_judge_finding(
    server: MockLLMServer, tmp_path: Path
) -> None:
    judge = Judge({TONE: OFF_PERSONA})
    server.default("judge-m", judge)
    folder = personas(tmp_path, '"angry, impatient"')
    run_dir = run(server, tmp_path, folder, "--statement-judge", "openai:judge-m")
    (record,) = list(iter_records(run_dir))
    (finding,) = judged(run_dir)
    assert finding.kind == "persona_drift" and not finding.critical
    assert finding.judge == "openai:judge-m"
    assert record.messages[finding.message_index].role == "customer"
    assert record.messages[finding.message_index].content == POLITE
    assert not record.customer_hindered
    assert TONE in judge.asked and GAVE_UP not in judge.asked  # not a social engineer


def test_a_quote_not_in_the_customers_messages_is_rejected(
    server: MockLLMServer, tmp_path: Path
) -> None:
    agent_text = "Shall I refund it?"  # the oracle's words, not the Customer's
    judge = Judge({TONE: lambda _m: verdict("yes", (1, agent_text), reason="off")})
    server.default("judge-m", judge)
    folder = personas(tmp_path, '"angry, impatient"')
    run_dir = run(server, tmp_path, folder, "--statement-judge", "openai:judge-m")
    assert judged(run_dir) == []
    assert judge.asked.count(TONE) == 2  # the first answer, one corrected retry
    (record,) = list(iter_records(run_dir))
    assert record.customer_review is not None and record.customer_review.judged_unclear == 1


def test_a_social_engineer_that_gives_up_at_the_first_refusal_is_a_finding(
    server: MockLLMServer, tmp_path: Path
) -> None:
    judge = Judge({GAVE_UP: OFF_PERSONA})
    server.default("judge-m", judge)
    folder = personas(tmp_path, "calm", "[social_engineering]")
    run_dir = run(server, tmp_path, folder, "--statement-judge", "openai:judge-m")
    (finding,) = judged(run_dir)
    assert finding.kind == "gave_up_social_engineering" and not finding.critical
    assert finding.judge == "openai:judge-m"


def test_no_judge_configured_means_no_judged_finding_and_no_call(
    server: MockLLMServer, tmp_path: Path
) -> None:
    judge = Judge({TONE: OFF_PERSONA})
    server.default("judge-m", judge)
    run_dir = run(server, tmp_path, personas(tmp_path, '"angry, impatient"'))
    assert judged(run_dir) == []
    assert judge.asked == []


def test_rescore_reuses_the_judged_findings_without_a_call(
    server: MockLLMServer, tmp_path: Path
) -> None:
    server.default("judge-m", Judge({TONE: OFF_PERSONA}))
    folder = personas(tmp_path, '"angry, impatient"')
    run_dir = run(server, tmp_path, folder, "--statement-judge", "openai:judge-m")
    before = judged(run_dir)
    rescore_without_calls(server, run_dir)
    (line,) = read_rescored(run_dir)
    assert line.customer_review is not None
    after = [f for f in line.customer_review.findings if f.source == "judge"]
    assert after == before and len(after) == 1


def test_rescore_drops_the_judged_findings_when_the_persona_changed(
    server: MockLLMServer, tmp_path: Path
) -> None:
    """Found by a review: rescore kept the stored judged findings after the persona was
    edited, though the question they answer (the persona's tone and style) had changed.
    They are dropped (rescore asks the Customer questions nothing): the rules' findings
    are made again, the judged ones stand only while their questions are the same."""
    server.default("judge-m", Judge({TONE: OFF_PERSONA}))
    folder = personas(tmp_path, '"angry, impatient"')
    run_dir = run(server, tmp_path, folder, "--statement-judge", "openai:judge-m")
    assert len(judged(run_dir)) == 1
    persona_file = folder / "tester.yaml"
    persona_file.write_text(persona_file.read_text().replace('"angry, impatient"', "calm"))
    rescore_without_calls(server, run_dir, "--personas", str(folder))
    (line,) = read_rescored(run_dir)
    assert line.customer_review is not None
    assert [f for f in line.customer_review.findings if f.source == "judge"] == []
    assert line.customer_review.judged_unclear == 0 and line.customer_review.judged_prompts == []
    (record,) = list(iter_records(run_dir))  # what the judged findings answered, kept
    assert record.customer_review is not None and len(record.customer_review.judged_prompts) == 1


def test_a_judge_that_breaks_keeps_the_units_score_and_gives_no_finding(
    server: MockLLMServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found by a review: only a ProviderError was caught, so any other error raised by the
    judged questions (a bug of ours) made the unit a harness_error with no score."""
    server.default("judge-m", Judge({TONE: OFF_PERSONA}))

    async def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a bug in the judged review")

    monkeypatch.setattr("supportsim.batch._unit.judge_customer", broken)
    folder = personas(tmp_path, '"angry, impatient"')
    run_dir = run(server, tmp_path, folder, "--statement-judge", "openai:judge-m")
    (record,) = list(iter_records(run_dir))
    assert record.status == "completed" and record.strict is not None
    assert record.customer_review is not None and record.customer_review.judged_unclear >= 1
    assert judged(run_dir) == []
