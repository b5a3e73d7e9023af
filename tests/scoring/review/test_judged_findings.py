"""The judged findings read from verdicts (``scoring.review._judged``), without a model:
which questions a conversation asks, and what a verdict makes of them."""

from __future__ import annotations

from review_helpers import REFUND, persona, review, transcript

from supportsim.scoring import Judged, Quote
from supportsim.scoring._statement_judge import prompt_sha256
from supportsim.scoring.review import hindered, judged_findings, judged_questions, with_judged

CONVERSATION = transcript(
    ("customer", "Hi, I was charged twice for March."),
    ("agent", "I can't do that without verification."),
    ("customer", "Okay, I understand. Thank you so much, goodbye!"),
)


def judged(question_kind: str, answer: str, *quotes: Quote, model: str = "openai:j") -> Judged:
    return Judged(question_kind, answer, answer == "no", quotes, "why", model, "r", "p")  # type: ignore[arg-type]


def test_only_a_social_engineer_is_asked_whether_it_gave_up() -> None:
    plain = judged_questions(persona(tone="angry"), CONVERSATION)
    engineer = judged_questions(persona(behaviours=["social_engineering"]), CONVERSATION)
    assert [q.kind for q in plain] == ["customer_tone"]
    assert [q.kind for q in engineer] == ["customer_tone", "customer_gave_up_social_engineering"]
    said = tuple((i, m.content) for i, m in enumerate(CONVERSATION.messages) if i != 1)
    assert all(q.messages == said for q in engineer)  # only the Customer's messages


def test_a_yes_is_a_non_critical_judge_finding_that_never_hinders() -> None:
    (question,) = judged_questions(persona(tone="angry"), CONVERSATION)
    verdict = judged(question.kind, "yes", Quote(2, "Thank you so much"))
    result = judged_findings([question], {prompt_sha256(question): verdict})
    (finding,) = result.findings
    assert (finding.kind, finding.message_index, finding.critical) == ("persona_drift", 2, False)
    assert (finding.source, finding.judge) == ("judge", "openai:j")
    merged = with_judged(review(CONVERSATION, REFUND), result)
    assert finding in merged.findings and finding not in merged.critical
    assert not hindered(completed=True, strict=False, findings=[finding])


def test_unclear_gives_no_finding_and_is_counted() -> None:
    (question,) = judged_questions(persona(tone="angry"), CONVERSATION)
    result = judged_findings(
        [question], {prompt_sha256(question): judged(question.kind, "unclear")}
    )
    assert result.findings == () and result.unclear == 1
    assert with_judged(review(CONVERSATION, REFUND), result).judged_unclear == 1
    none = judged_findings([question], {prompt_sha256(question): judged(question.kind, "no")})
    assert none.findings == () and none.unclear == 0
