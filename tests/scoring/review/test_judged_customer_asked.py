"""The judged customer questions asked of a real statement judge (the OpenAI SDK against
the loopback mock server): the retry note names the Customer's messages, a failure of one
question keeps the other's verdict, and a unit with no score (infra or harness error) is
asked nothing."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator, Callable

import pytest
from review_helpers import persona, transcript

from supportsim.batch import RunConfig, open_statement_judge
from supportsim.conversation import Transcript
from supportsim.llm import LLMResponse, RetryPolicy
from supportsim.scoring.review import JudgedReview, judge_customer, judged_questions
from supportsim.testing import (
    MockLLMServer,
    RecordedRequest,
    Reply,
    asked_question,
    http_error,
    verdict,
)

JUDGE = "openai:judge-m"
TONE = "customer_review.customer_tone"
GAVE_UP = "customer_review.customer_gave_up_social_engineering"
CONVERSATION = transcript(
    ("customer", "Hi, I was charged twice for March."),
    ("agent", "I can't do that without verification."),
    ("customer", "Okay, I understand. Thank you so much, goodbye!"),
)
ENGINEER = persona(tone="angry", behaviours=["social_engineering"])


@pytest.fixture
async def server() -> AsyncIterator[MockLLMServer]:
    async with MockLLMServer() as srv:
        yield srv


async def ask(
    server: MockLLMServer, answer: Callable[[RecordedRequest], Reply], conversation: Transcript
) -> tuple[JudgedReview, list[LLMResponse]]:
    server.default("judge-m", answer)
    env = {"OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": server.url + "/v1"}
    config = RunConfig(retries=RetryPolicy(max_attempts=1))
    responses: list[LLMResponse] = []
    async with open_statement_judge(JUDGE, models={}, env=env, config=config) as (judge, _):
        review = await judge_customer(judge, ENGINEER, conversation, responses)
    return review, responses


async def test_the_retry_note_names_the_customers_messages(server: MockLLMServer) -> None:
    """Found by a review: the note said "the agent's messages" for a question whose
    messages (and quotes) are the Customer's."""

    def answer(request: RecordedRequest) -> Reply:
        return verdict("yes", (1, "I can't do that without verification"), reason="off")

    review, _ = await ask(server, answer, CONVERSATION)
    assert review.findings == () and review.unclear == 2  # the agent's words: rejected
    retries = [r for r in server.requests(model="judge-m") if asked_question(r).retry]
    assert retries
    for request in retries:
        note = request.body["messages"][-1]["content"]
        assert note.startswith("Your verdict was not accepted")
        assert "the customer's messages" in note and "agent's messages" not in note


async def test_a_failure_of_the_second_question_keeps_the_first_ones_verdict(
    server: MockLLMServer,
) -> None:
    """Found by a review: one question's provider failure dropped every verdict of the
    conversation (the first question's finding with it)."""

    def answer(request: RecordedRequest) -> Reply:
        if asked_question(request).check_id == GAVE_UP:
            return http_error(500)
        return verdict("yes", (2, "Thank you so much"), reason="too polite for angry")

    review, responses = await ask(server, answer, CONVERSATION)
    (finding,) = review.findings
    assert (finding.kind, finding.message_index) == ("persona_drift", 2)
    assert review.unclear == 1  # the failed question: counted, no finding
    assert [v.kind for v in review.verdicts] == ["customer_tone"]
    assert len(responses) == 1  # the failed call has no response to account


@pytest.mark.parametrize("status", ["infra_error", "harness_error"])
async def test_a_unit_with_no_score_is_asked_nothing(server: MockLLMServer, status: str) -> None:
    """Found by a review: the judged questions were asked for units that ended in an
    infra or harness error: no score to explain, and a call wasted."""
    ended = dataclasses.replace(CONVERSATION, status=status)
    assert judged_questions(ENGINEER, ended) == ()

    def answer(request: RecordedRequest) -> Reply:
        return verdict("yes", (2, "Thank you so much"), reason="off")

    review, responses = await ask(server, answer, ended)
    assert review == JudgedReview(judge=None) and responses == []
    assert server.requests(model="judge-m") == []


@pytest.mark.parametrize("status", ["completed", "simulator_fault"])
def test_a_unit_that_played_out_is_asked(status: str) -> None:
    ended = dataclasses.replace(CONVERSATION, status=status)
    assert [q.kind for q in judged_questions(ENGINEER, ended)] == [
        "customer_tone",
        "customer_gave_up_social_engineering",
    ]
