"""The judged part of the customer review, end to end through the CLI and the real SDK
against the mock server: persona drift in tone and a social engineer that gives up, each a
non-critical ``judge`` finding at the Customer message the judge quoted; a quote that is
not a Customer's text rejected (retried, then unclear: no finding, counted); no judge, no
judged finding and no call; a rescore that reuses the stored findings without a call."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from cli_runs import REFUND as SCENARIO
from cli_runs import cli

from supportsim.store import iter_records, read_rescored
from supportsim.testing import (
    MockLLMServer,
    RecordedRequest,
    Reply,
    asked_question,
    autopilot,
    http_error,
    is_statement_request,
    verdict,
)

POLITE = "Yes please, refund the second one."
"""The scripted Customer's last message: polite, for an angry persona off-tone."""
TONE = "customer_review.customer_tone"
GAVE_UP = "customer_review.customer_gave_up_social_engineering"


class Judge:
    """Answers the Customer questions by check id with a scripted verdict (a callable of
    the question's messages); every other question ``no``."""

    def __init__(self, answers: dict[str, Any]) -> None:
        self.answers = answers
        self.asked: list[str] = []

    def __call__(self, request: RecordedRequest) -> Reply:
        if not is_statement_request(request):
            return autopilot(request)
        question = asked_question(request)
        self.asked.append(question.check_id)
        answer = self.answers.get(question.check_id)
        return answer(question.messages) if answer else verdict("no", reason="no")


def quoting(text: str) -> Any:
    def answer(messages: tuple[tuple[int, str], ...]) -> Reply:
        n = next((n for n, t in messages if text in t), 0)
        return verdict("yes", (n, text), reason="off persona")

    return answer


def personas(tmp_path: Path, tone: str, behaviours: str = "[]") -> Path:
    folder = tmp_path / "personas"
    folder.mkdir()
    (folder / "tester.yaml").write_text(
        f"id: tester\nname: Tess\ntone: {tone}\nverbosity: terse\npatience: 6\n"
        f"language: en\nvolunteers: some\nbehaviours: {behaviours}\n"
    )
    return folder


def run(server: MockLLMServer, tmp_path: Path, folder: Path, *extra: str) -> Path:
    result = cli(
        server,
        "run",
        "--scenarios",
        str(SCENARIO),
        "--personas",
        str(folder),
        "--agent",
        "oracle",
        "--out",
        str(tmp_path / "runs"),
        "--run-id",
        "r",
        *extra,
    )
    assert result.exit_code == 0, result.output
    return tmp_path / "runs" / "r"


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
    judge = Judge({TONE: quoting(POLITE)})
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
    judge = Judge({GAVE_UP: quoting(POLITE)})
    server.default("judge-m", judge)
    folder = personas(tmp_path, "calm", "[social_engineering]")
    run_dir = run(server, tmp_path, folder, "--statement-judge", "openai:judge-m")
    (finding,) = judged(run_dir)
    assert finding.kind == "gave_up_social_engineering" and not finding.critical
    assert finding.judge == "openai:judge-m"


def test_no_judge_configured_means_no_judged_finding_and_no_call(
    server: MockLLMServer, tmp_path: Path
) -> None:
    judge = Judge({TONE: quoting(POLITE)})
    server.default("judge-m", judge)
    run_dir = run(server, tmp_path, personas(tmp_path, '"angry, impatient"'))
    assert judged(run_dir) == []
    assert judge.asked == []


def test_rescore_reuses_the_judged_findings_without_a_call(
    server: MockLLMServer, tmp_path: Path
) -> None:
    server.default("judge-m", Judge({TONE: quoting(POLITE)}))
    folder = personas(tmp_path, '"angry, impatient"')
    run_dir = run(server, tmp_path, folder, "--statement-judge", "openai:judge-m")
    before = judged(run_dir)
    server.clear()
    server.default(None, lambda _r: http_error(500))  # any call would fail the rescore
    result = cli(server, "rescore", str(run_dir))
    assert result.exit_code == 0, result.output
    assert server.requests() == []
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
    server.default("judge-m", Judge({TONE: quoting(POLITE)}))
    folder = personas(tmp_path, '"angry, impatient"')
    run_dir = run(server, tmp_path, folder, "--statement-judge", "openai:judge-m")
    assert len(judged(run_dir)) == 1
    persona_file = folder / "tester.yaml"
    persona_file.write_text(persona_file.read_text().replace('"angry, impatient"', "calm"))
    server.clear()
    server.default(None, lambda _r: http_error(500))  # any call would fail the rescore
    result = cli(server, "rescore", str(run_dir), "--personas", str(folder))
    assert result.exit_code == 0, result.output
    assert server.requests() == []
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
    server.default("judge-m", Judge({TONE: quoting(POLITE)}))

    async def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a bug in the judged review")

    monkeypatch.setattr("supportsim.batch._unit.judge_customer", broken)
    folder = personas(tmp_path, '"angry, impatient"')
    run_dir = run(server, tmp_path, folder, "--statement-judge", "openai:judge-m")
    (record,) = list(iter_records(run_dir))
    assert record.status == "completed" and record.strict is not None
    assert record.customer_review is not None and record.customer_review.judged_unclear >= 1
    assert judged(run_dir) == []
