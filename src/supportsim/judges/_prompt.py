"""What a judge reads: the rubric, the policy, the expected outcome and the transcript.

The judge is a grader, not the Agent: it may see the expected outcome as well as the
policy. It does not see the Customer's hidden goal, the reference workflow or the
deterministic checks, so its verdict is an independent second opinion on the same
conversation rather than a restatement of the rules.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from supportsim.judges._rubric import OVERALL, Rubric
from supportsim.judges._verdict import TOOL_NAME
from supportsim.llm import LLMMessage, LLMRequest, ToolSpec
from supportsim.store import ConversationRecord, MessageRecord

TOOL_RESULT_MAX = 2000
"""Characters of one tool result shown to a judge; the rest is cut (with a marker)."""

_OUTCOMES = {
    "resolved": "resolved: the agent completes the customer's request itself",
    "escalated": "escalated: the agent transfers the customer to a human (transfer_to_human)",
    "refused": "refused: the agent declines the request, as the policy requires",
}


@dataclass(frozen=True, slots=True)
class Case:
    """What the judge is told about the scenario besides the transcript.

    ``outcome`` is None when the scenario file could not be used (missing or changed since
    the run): the judge then grades against the policy alone.
    """

    policy: str
    title: str = ""
    outcome: str | None = None
    context: dict[str, str] = field(default_factory=dict)


def system_prompt(rubric: Rubric) -> str:
    criteria = "\n".join(f"- {c.id}: {c.question}" for c in rubric.criteria)
    return (
        f"{rubric.instructions.strip()}\n\n## Criteria\n{criteria}\n- {OVERALL}: "
        f"{rubric.overall.strip()}\n\nGive every criterion a verdict, pass or fail, each with "
        f"a short justification. Answer only by calling {TOOL_NAME} once."
    )


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit] + f" …[{len(text) - limit} more chars]"


def _line(m: MessageRecord) -> list[str]:
    if m.role == "customer":
        return [f"CUSTOMER: {m.content}"]
    if m.role == "tool":
        flag = " (error)" if m.is_error else ""
        return [f"TOOL RESULT {m.name or ''}{flag}: {_clip(m.content, TOOL_RESULT_MAX)}"]
    lines = [f"AGENT: {m.content}"] if m.content else []
    lines += [f"AGENT CALLS {c.name}({c.arguments})" for c in m.tool_calls]
    return lines or ["AGENT: (empty message)"]


def transcript_text(record: ConversationRecord) -> str:
    """The conversation, one line per message or tool call, in order."""
    lines = [line for m in record.messages for line in _line(m)]
    return "\n".join(lines) or "(no messages)"


def case_text(record: ConversationRecord, case: Case) -> str:
    context = "\n".join(f"- {k}: {v}" for k, v in case.context.items()) or "- (none)"
    outcome = _OUTCOMES.get(case.outcome or "", "unknown (grade against the policy alone)")
    ended = record.termination + (f" ({record.end_reason})" if record.end_reason else "")
    return (
        f"Unit: {record.unit_id}\n"
        f"Scenario: {record.scenario_id}" + (f" — {case.title}" if case.title else "") + "\n"
        f"Expected outcome: {outcome}\n"
        f"Conversation ended by: {ended}\n\n"
        f"## Company policy\n{case.policy.strip() or '(none given)'}\n\n"
        f"## Context the agent was given\n{context}\n\n"
        f"## Transcript\n{transcript_text(record)}\n"
    )


def judge_request(
    rubric: Rubric, record: ConversationRecord, case: Case, tool: ToolSpec
) -> LLMRequest:
    """The first request to a judge for one conversation."""
    return LLMRequest(
        system=system_prompt(rubric),
        messages=(LLMMessage(role="user", content=case_text(record, case)),),
        tools=(tool,),
        tool_choice="required",
    )


def corrective(request: LLMRequest, reply: LLMMessage, problem: str) -> LLMRequest:
    """The retry after a malformed verdict: the bad reply, then what was wrong with it."""
    note = f"Your verdict was not accepted: {problem}. Call {TOOL_NAME} once, with every field."
    follow: list[LLMMessage] = [reply]
    if reply.tool_calls:
        follow += [
            LLMMessage(role="tool", tool_call_id=c.id, content=note, is_error=True)
            for c in reply.tool_calls
        ]
    else:
        follow.append(LLMMessage(role="user", content=note))
    return LLMRequest(
        system=request.system,
        messages=(*request.messages, *follow),
        tools=request.tools,
        tool_choice=request.tool_choice,
    )
