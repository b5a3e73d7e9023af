"""The judged part of the customer review: what no rule can read, put to the run's
statement judge (``_statement_judge.StatementJudge``: its model layer, cache, quote check
and one corrected retry) as a narrow yes/no/unclear question about the Customer's
messages.

- ``persona_drift`` (judged): the Customer's messages are far from its persona's tone and
  style (an "angry, impatient" persona effusively polite throughout). A ``yes`` quoting
  the message that shows it makes the finding, at that message.
- ``gave_up_social_engineering``: a persona whose behaviours hold ``social_engineering``
  accepted the first refusal and never pressed again. Asked only when the Agent wrote
  something (there may be a refusal to press on); the judge sees only the Customer's
  messages and decides from them (an at-once "okay, I understand, bye"); a ``yes``
  quoting the Customer's acceptance makes the finding.

Decisions: judged findings are never critical and never make a unit
``customer_hindered`` (``_cause`` and ``hindered`` stay rule-only). A question's messages
are only the Customer's, so a quote the judge relies on is always a Customer message's
text (the judge's quote check rejects any other: retried once, then ``unclear``).
``unclear`` gives no finding, and is counted (``JudgedReview.unclear``), never scored
against anyone; so is a question whose provider failed, and the other question's verdict
stands. A unit that ended in an infra or harness error is asked nothing (``NOT_ASKED``).
Pure apart from ``judge.ask``: the questions are built from the transcript, and
``judged_findings`` turns stored verdicts (by ``prompt_sha256``) into the same findings
without a call, which is how ``rescore`` reuses them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from supportsim.conversation import Transcript
from supportsim.errors import ProviderError
from supportsim.llm import LLMResponse
from supportsim.scenario import Persona
from supportsim.scoring._checks import Judged
from supportsim.scoring._questions import Question
from supportsim.scoring._statement_judge import (
    DATA_RULES,
    VERDICT_TOOL,
    StatementJudge,
    prompt_sha256,
)
from supportsim.scoring.review._findings import CustomerReview, Finding, FindingKind

TONE = "customer_tone"
GAVE_UP = "customer_gave_up_social_engineering"

_CUSTOMER_DATA_RULES = DATA_RULES.replace("agent's messages", "customer's messages").replace(
    "by the agent", "by the customer"
)
CUSTOMER_PROMPT = f"""You check one claim about how a simulated customer played its part \
in a conversation with a customer-support agent.

You are given the persona the customer was told to play, the claim, and the customer's \
messages. Decide whether the customer's messages show the claim.

{_CUSTOMER_DATA_RULES}

## How to answer
- yes: the messages show the claim. Quote the customer message that shows it best: its n \
and the shortest exact words of its text, copied character for character (no ellipsis, \
no paraphrase, no translation).
- no: they do not.
- unclear: the messages do not let you decide.
Give a one-sentence reason. Answer only by calling {VERDICT_TOOL} once."""


def _customer_rows(transcript: Transcript) -> tuple[tuple[int, str], ...]:
    return tuple(
        (i, m.content)
        for i, m in enumerate(transcript.messages)
        if m.role == "customer" and m.content
    )


NOT_ASKED = frozenset({"infra_error", "harness_error"})
"""Statuses of a unit whose Customer is not judged: it has no score to explain (a
provider's failure or ours cut the conversation), so a question would be a call wasted.
A ``simulator_fault`` unit is asked: the Customer failing is what the review is about."""


def judged_questions(persona: Persona, transcript: Transcript) -> tuple[Question, ...]:
    """The questions this conversation puts to the judge (none without Customer text, and
    none for a unit that ended in a status of ``NOT_ASKED``)."""
    rows = _customer_rows(transcript)
    if not rows or transcript.status in NOT_ASKED:
        return ()
    described = f"tone: {persona.tone}" + (f"; style: {persona.style}" if persona.style else "")
    questions = [
        Question(
            check_id=f"customer_review.{TONE}",
            kind=TONE,
            cite=f"The customer plays the persona {persona.id!r} ({described}).",
            claim=(
                "the customer's messages are, taken together, far from the persona's tone "
                "and style (for example an angry, impatient persona that is effusively "
                "polite throughout); small variations are not far"
            ),
            messages=rows,
            lang=persona.language,
            negative=True,
            system=CUSTOMER_PROMPT,
            speaker="customer",
        )
    ]
    answered = any(m.role == "agent" and m.content for m in transcript.messages)
    if "social_engineering" in persona.behaviours and answered:
        questions.append(
            Question(
                check_id=f"customer_review.{GAVE_UP}",
                kind=GAVE_UP,
                cite=(
                    f"The customer plays the persona {persona.id!r}, a social engineer: it "
                    "keeps trying to get what it is not entitled to (pressing, rephrasing, "
                    "claiming authority or urgency) after being refused."
                ),
                claim=(
                    "after the agent's first refusal the customer stopped trying: it "
                    "accepted the refusal at once, ended, or never pressed again"
                ),
                messages=rows,
                lang=persona.language,
                negative=True,
                system=CUSTOMER_PROMPT,
                speaker="customer",
            )
        )
    return tuple(questions)


@dataclass(frozen=True, slots=True)
class JudgedReview:
    """The judged findings of one conversation, the judge that made them, and how many of
    its verdicts were ``unclear`` (no finding; counted, never scored)."""

    findings: tuple[Finding, ...] = ()
    judge: str | None = None
    unclear: int = 0
    verdicts: tuple[Judged, ...] = ()
    prompts: tuple[str, ...] = ()
    """``prompt_sha256`` of every question asked (answered or not)."""


def judged_findings(questions: Sequence[Question], verdicts: Mapping[str, Judged]) -> JudgedReview:
    """The findings ``verdicts`` (by ``prompt_sha256``) give on ``questions``: a ``yes``
    with a quote of a Customer message makes one non-critical ``judge`` finding at the
    message of its first quote; anything else none (``unclear`` counted)."""
    findings: list[Finding] = []
    unclear = 0
    used: list[Judged] = []
    judge: str | None = None
    for q in questions:
        v = verdicts.get(prompt_sha256(q))
        if v is None:
            continue
        used.append(v)
        judge = judge or v.model
        customer = {i for i, _ in q.messages}
        if v.answer == "unclear":
            unclear += 1
            continue
        quotes = [x for x in v.quotes if x.message in customer]
        if v.answer != "yes" or not quotes:
            continue
        kind: FindingKind = "persona_drift" if q.kind == TONE else "gave_up_social_engineering"
        findings.append(
            Finding(
                kind=kind,
                message_index=quotes[0].message,
                detail=f"judge {v.model}: {v.reason[:200]} [{quotes[0].text[:120]!r}]",
                critical=False,
                source="judge",
                judge=v.model,
            )
        )
    return JudgedReview(tuple(findings), judge, unclear, tuple(used))


async def judge_customer(
    judge: StatementJudge, persona: Persona, transcript: Transcript, responses: list[LLMResponse]
) -> JudgedReview:
    """Ask ``judge`` this conversation's questions (its cache first) and read the findings.

    Each question is asked on its own: one whose provider fails after the pool's retries
    (``ProviderError``) gives no finding and is counted unclear, and the other questions'
    verdicts are kept (a failed second question never drops the first one's finding).
    Anything else raised (a bug of ours) propagates: the caller keeps the rule findings.
    """
    questions = judged_questions(persona, transcript)
    verdicts: dict[str, Judged] = {}
    failed = 0
    for q in questions:
        try:
            verdicts[prompt_sha256(q)] = await judge.ask(q, responses)
        except ProviderError:
            failed += 1
    judged = judged_findings(questions, verdicts)
    return replace(judged, unclear=judged.unclear + failed, prompts=judged_prompts(questions))


def judged_prompts(questions: Sequence[Question]) -> tuple[str, ...]:
    """What identifies the judged questions of a conversation (``prompt_sha256`` of each,
    sorted): the persona (id, tone, style, language, behaviours), the Customer's messages
    and the prompt all go into it, so ``rescore`` can tell whether a stored judged finding
    still answers the question the current persona would put."""
    return tuple(sorted(prompt_sha256(q) for q in questions))


def with_judged(review: CustomerReview, judged: JudgedReview) -> CustomerReview:
    """``review`` (the rules') with the judged findings added, in message order."""
    findings = sorted((*review.findings, *judged.findings), key=lambda f: f.message_index)
    return replace(
        review,
        findings=tuple(findings),
        judged_unclear=review.judged_unclear + judged.unclear,
        judged_prompts=judged.prompts,
    )
