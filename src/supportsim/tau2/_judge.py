"""The assertion judge of tau2's NL_ASSERTION reward component.

tau2 (``src/tau2/evaluator/evaluator_nl_assertions.py`` of sierra-research/tau2-bench, MIT,
Copyright (c) 2025 Sierra Research) asks one model, at temperature 0, whether each of a
task's natural-language assertions holds over the conversation, in one call: a fixed system
prompt (below, tau2's text verbatim, whitespace included), and a user prompt holding the
conversation as ``role: content`` lines and the assertions as a Python list. The reply is a
JSON object ``{"results": [{"expectedOutcome", "reasoning", "metExpectation"}]}``; the
component is met when every result is. tau2 grades an unreadable reply 0 (its evaluation
guard); so does this: one failing verdict naming the problem.

tau2 uses gpt-4.1; the model is the user's choice here (``--assertion-judge MODEL``), and
``judge_config`` pins temperature 0 whatever the models file says.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Sequence

from supportsim.conversation import ABNORMAL, Message, Transcript
from supportsim.llm import LLMMessage, LLMRequest, LLMResponse, ModelConfig
from supportsim.scenario import Scenario
from supportsim.scoring import AssertionVerdict

TAU2_JUDGE_MODEL = "openai:gpt-4.1"
"""The judge tau2's leaderboard used (``DEFAULT_LLM_NL_ASSERTIONS``)."""

SYSTEM_PROMPT = """
        TASK
        - You will be given a list of expected outcomes and a conversation that was collected during a test case run.
        - The conversation is between an agent and a customer.
        - Your job is to evaluate whether the agent satisfies each of the expected outcomes.
        - Grade each expected outcome individually.

        FORMAT
        - Your response should be a JSON object with the following fields:
        - `reasoning`: a short explanation for your classification
        - `metExpectation`: `true` if the agent satisfies the expected outcomes, `false` otherwise
        - `expectedOutcome`: repeat the expectation from the input that you are grading
        
        Example response structure:
        {
            "results": [
                {
                    "expectedOutcome": "<one of the expected outcomes from the input>",
                    "reasoning": "<reasoning trace>",
                    "metExpectation": <false or true>,
                }
            ]
        }
        """  # noqa: E501, W293 - tau2's prompt, byte for byte

_ROLES = {"customer": "user", "agent": "assistant", "tool": "tool"}


def judge_config(config: ModelConfig) -> ModelConfig:
    """``config`` with temperature 0 (tau2's judge setting)."""
    params = config.params.model_copy(update={"temperature": 0.0})
    return config.model_copy(update={"params": params})


def conversation_text(messages: Sequence[Message]) -> str:
    """The conversation as tau2 shows it to the judge: ``role: content`` per message, with
    tau2's role names; a message that only calls tools has no content (``None``)."""
    lines = []
    for m in messages:
        content: str | None = m.content
        if not m.content and m.tool_calls:
            content = None
        lines.append(f"{_ROLES[m.role]}: {content}")
    return "\n".join(lines)


def assertion_request(transcript: Transcript, assertions: Sequence[str]) -> LLMRequest:
    """tau2's judge request for one conversation."""
    user = f"""
        conversation:
        {conversation_text(transcript.messages)}
        
        expectedOutcomes:
        {list(assertions)!r}
        """  # noqa: W293 - tau2's template
    return LLMRequest(system=SYSTEM_PROMPT, messages=(LLMMessage(role="user", content=user),))


def parse_verdicts(text: str) -> list[AssertionVerdict]:
    """The verdicts of a judge reply; an unreadable reply is one failing verdict saying
    why (tau2 grades it 0)."""
    body = text.strip()
    if body.startswith("```"):
        body = body.strip("`").removeprefix("json").strip()
    try:
        data = json.loads(body)
        return [
            AssertionVerdict(
                str(r["expectedOutcome"]), r["metExpectation"] is True, str(r.get("reasoning", ""))
            )
            for r in data.get("results", [])
        ]
    except (json.JSONDecodeError, AttributeError, KeyError, TypeError) as exc:
        why = f"unreadable judge reply ({type(exc).__name__}): {text[:200]!r}"
        return [AssertionVerdict("<judge reply>", False, why)]


async def judge_assertions(
    call: Callable[[LLMRequest], Awaitable[LLMResponse]],
    transcript: Transcript,
    assertions: Sequence[str],
) -> tuple[list[AssertionVerdict], LLMResponse | None]:
    """Ask the judge (``call``: a client's ``complete``, or the run's model caller with its
    limits and retries) about ``assertions`` over ``transcript``: the verdicts and the call
    (None when there was nothing to judge; tau2 then makes no call either).

    Raises:
        ProviderError: the judge's provider failed (an infra error of the unit).
    """
    if not assertions:
        return [], None
    response = await call(assertion_request(transcript, assertions))
    return parse_verdicts(response.content), response


async def tau2_verdicts(
    scenario: Scenario,
    transcript: Transcript,
    call: Callable[[LLMRequest], Awaitable[LLMResponse]] | None,
) -> tuple[list[AssertionVerdict] | None, LLMResponse | None]:
    """The verdicts ``score`` needs for a tau2 scenario's NL_ASSERTION: None without a judge
    (``call`` None) or when the component is not scored (not in the basis, or the
    conversation ended abnormally: tau2 scores 0 without asking its judge).

    Raises:
        ProviderError: the judge's provider failed.
    """
    task = scenario.tau2
    if call is None or task is None or "NL_ASSERTION" not in task.reward_basis:
        return None, None
    if transcript.termination in ABNORMAL:
        return None, None
    return await judge_assertions(call, transcript, task.nl_assertions)
