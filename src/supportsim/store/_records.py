"""The conversations.jsonl record: the contract users, reports and resume read.

Only this module turns the inner dataclasses (Transcript, Score) into the record model.
Fields beyond ARCHITECTURE.md's minimum are additive; readers ignore unknown fields, so
old run directories stay readable (``tests/fixtures/runs``). A record keeps everything
the scorer reads (messages, the tool call log with results, the final state), so a stored
run can be scored again without any model call (``supportsim rescore``).
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any, Literal

import orjson
from pydantic import Field, model_validator

from supportsim.conversation import LLMCall, Message, Transcript
from supportsim.domains import ToolKind
from supportsim.environment import CallRecord
from supportsim.llm import WireTiming
from supportsim.scenario import FaultKind, Scenario
from supportsim.scoring import Check, CheckKind, Judged, Quote, Score
from supportsim.scoring.review import CustomerReview
from supportsim.store._customer_records import (
    CustomerReviewRecord,
    _Record,
    customer_review_record,
    is_hindered,
)

SCHEMA_VERSION = 2
"""Version 2: an unscored unit (any status but completed) has ``strict`` and ``partial``
null instead of false and 0.0. Version 1 records read as version 2 (their unscored
units' false/0.0 become null), so an average over records never counts a provider's
failure against the Agent."""


class ToolCallRecord(_Record):
    id: str
    name: str
    arguments: str


class MessageRecord(_Record):
    role: Literal["customer", "agent", "tool"]
    content: str = ""
    tool_calls: list[ToolCallRecord] = Field(default_factory=list)
    tool_call_id: str | None = None
    name: str | None = None
    is_error: bool = False
    fault: str | None = None
    reasoning: str | None = None
    turn: int = 0
    response_ms: float | None = None
    llm_ms: float | None = None
    tool_ms: float | None = None
    ttft_ms: float | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None
    cost_usd: float | None = None
    cached: bool = False
    """The message's model call (or one in its turn) came from the response cache."""
    loop_lag_ms: float | None = None
    """The event loop's lag seen while the message was timed: the largest lag of the
    loop-lag monitor's samples (every 100 ms) whose period overlaps the message's window
    (an Agent reply's: its whole turn, what ``response_ms`` covers; a message with tool
    calls: its step; a tool result: the call), on the loop that ran the conversation (a
    worker's own, with workers). Over 10 ms, this message's latencies are inflated by
    about that much. null when no monitor ran (and in records written before it was kept)."""


class QuoteRecord(_Record):
    message: int
    """The transcript's message index the quote is from."""
    text: str


class JudgedRecord(_Record):
    """The statement judge's verdict on a check's question (``scoring.Judged``), kept so
    ``rescore`` reuses it without a call."""

    kind: str
    """The question's kind: say, disclose, identity_detail, other_customer_data,
    reply_language, false_claim."""
    answer: Literal["yes", "no", "unclear"]
    passed: bool
    """The check's result by this verdict."""
    quotes: list[QuoteRecord] = Field(default_factory=list)
    reason: str = ""
    model: str
    """The judge, as named in the run config (spec or models-file name)."""
    request_sha256: str
    """Cache key of the request: model configuration and prompt."""
    prompt_sha256: str
    """Hash of the prompt alone (the question)."""
    attempts: int = 1
    problem: str | None = None
    """Why the verdict is unclear when no answer was accepted."""
    cached: bool = False
    """Reused (asked before in this run, or stored and rescored), not asked for this check."""


class CheckRecord(_Record):
    id: str
    kind: CheckKind
    passed: bool
    reason: str
    weight: float = 1.0
    rule: bool | None = None
    """A communication check's result by the rules alone; null for other checks (and in
    records written before it was kept)."""
    judged: JudgedRecord | None = None
    """The statement judge's verdict that decided the check; null when rules decided."""


def check_record(c: Check) -> CheckRecord:
    """A scored check as stored."""
    judged = None if c.judged is None else JudgedRecord.model_validate(asdict(c.judged))
    return CheckRecord(
        id=c.id,
        kind=c.kind,
        passed=c.passed,
        reason=c.reason,
        weight=c.weight,
        rule=c.rule,
        judged=judged,
    )


def stored_verdict(j: JudgedRecord) -> Judged:
    """A stored verdict, to decide a check again (``rescore``): marked ``cached``."""
    quotes = tuple(Quote(q.message, q.text) for q in j.quotes)
    return Judged(**{**j.model_dump(), "quotes": quotes, "cached": True})


class CallLogRecord(_Record):
    """One entry of the environment's tool call log, as the scorer reads it.

    ``result`` is the JSON the Agent was sent (what the tool returned, non-JSON values as
    text); ``tool_ms`` stands in for the monotonic start and end times, which mean nothing
    outside the process that ran the conversation.
    """

    index: int
    call_id: str
    name: str
    raw_arguments: str
    arguments: dict[str, Any] | None = None
    ok: bool
    result: Any = None
    error: str | None = None
    fault: FaultKind | None = None
    kind: ToolKind | None = None
    tool_ms: float = 0.0


class AssertionVerdictRecord(_Record):
    assertion: str
    met: bool
    justification: str = ""


class LLMCallRecord(_Record):
    role: Literal["agent", "customer", "judge"]
    model: str
    llm_ms: float
    ttft_ms: float | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None
    cost_usd: float | None = None
    cached: bool = False
    """Answered from the response cache (``--cache``): no cost, no latency measured."""
    client_ms: float | None = None
    """The call's time in this process outside ``llm_ms``: building and serialising the
    request, the SDK's request steps, waiting for a connection, writing the head; parsing
    the last chunk and building the reply (a whole JSON answer's parsing too); the loop's
    lag in those spans. Not rate-limit waits or retries. null without wire stamps (and in
    records written before they were kept); ``llm_ms`` is then the whole call."""
    sent_ms: float | None = None
    """Request handed to the socket, ms after the client began the call (wire stamp)."""
    first_byte_ms: float | None = None
    """Response head read, ms after the client began the call (wire stamp)."""
    last_byte_ms: float | None = None
    """Response body's last chunk came in, ms after the client began the call (wire stamp)."""
    loop_lag_ms: float | None = None
    """The event loop's lag seen during the step that made the call (the message's rule:
    the worst sample overlapping it); null when no monitor ran, and in older records."""


class CustomerReplayRecord(_Record):
    """How much of a unit's Customer was replayed from a stored run (``--replay-customer``).

    A stored reply is reused while the new conversation follows the stored one: the
    Customer saw the same messages (the Agent's text as the Customer sees it); from the
    first message that differs the Customer's model is called (``conversation.ReplayCustomer``)."""

    source: str
    """The stored run directory the replies came from (as given)."""
    replayed: int
    """Customer replies taken from the stored run (the opening included), none from a model."""
    diverged_turn: int | None = None
    """The Customer turn (1-based: its first message is turn 1) whose reply was the first
    one asked of the model because the conversation had left the stored one; null when
    the conversation never left it (every reply replayed)."""


class ConversationRecord(_Record):
    """One finished unit. ``strict``/``partial`` are set for status completed and null for
    every other status (an unscored unit has no score: see ``SCHEMA_VERSION``)."""

    schema_version: int = SCHEMA_VERSION
    unit_id: str
    scenario_id: str
    scenario_sha256: str = ""
    domain: str = ""
    category: str = ""
    tags: list[str] = Field(default_factory=list)
    language: str = "en"
    agent: str
    customer: str
    trial: int
    status: Literal["completed", "infra_error", "simulator_fault", "harness_error"]
    termination: Literal["customer_done", "agent_transfer", "max_turns", "timeout", "error"]
    end_reason: str = ""
    strict: bool | None = None
    """Every check passed and the conversation ended normally; null when not scored."""
    partial: float | None = None
    """The share of the workflow done right, 0..1; null when not scored."""
    checks: list[CheckRecord] = Field(default_factory=list)
    messages: list[MessageRecord] = Field(default_factory=list)
    llm_calls: list[LLMCallRecord] = Field(default_factory=list)
    calls: list[CallLogRecord] | None = None
    """The tool call log with results; null in records written before it was kept (such
    a record cannot be rescored)."""
    final_state: dict[str, Any] | None = None
    """The environment state when the conversation ended; null in older records and in
    records of tau2 scenarios, which keep ``state_sha256`` and ``state_changes``."""
    state_sha256: str | None = None
    """tau2 scenarios: tau2's database hash of the final state."""
    state_changes: dict[str, Any] | None = None
    """tau2 scenarios: the records that differ from the initial state, in full, by table
    (``{"orders": {"records": {"#W1": {...}}}}``); ``rescore`` rebuilds the final state."""
    unscored: list[str] = Field(default_factory=list)
    """Checks that could not be scored (tau2: ``reward:NL_ASSERTION`` without an assertion
    judge): the unit is not fully scored and never strict."""
    assertion_verdicts: list[AssertionVerdictRecord] = Field(default_factory=list)
    """The assertion judge's verdicts (tau2 NL_ASSERTION), one per assertion."""
    statement_judge: str | None = None
    """The statement judge the communication checks were put to (the run config's
    ``statement_judge``); null: rules only (and in records written before judges)."""
    cost_usd: float | None = None
    agent_cost_usd: float | None = None
    customer_cost_usd: float | None = None
    simulator_faults: list[str] = Field(default_factory=list)
    customer_seed: int | None = None
    """The seed sent with every call of the Customer's model (``batch.customer_seed``: one
    per scenario, persona and trial, the same for every Agent); null when none was sent:
    a scripted Customer, a provider that takes no seed (Anthropic), ``customer_seed:
    null``, and records written before seeds."""
    customer_replay: CustomerReplayRecord | None = None
    """What was replayed of the Customer (``--replay-customer``); null: nothing was asked
    to be replayed, or the stored run had no usable record of this unit."""
    customer_review: CustomerReviewRecord | None = None
    """What the simulated Customer did wrong and how it behaved; null in records written
    before the review (and when a harness error left no transcript to review)."""
    customer_hindered: bool = False
    """A strict failure the Customer caused: the unit completed, failed strict, and the
    review found a critical Customer error by rule. Scored, and reported apart from the
    Agent's failures (never dropped)."""
    error: str | None = None
    started_at: str
    ended_at: str
    duration_s: float = 0.0

    @model_validator(mode="after")
    def _scored_only_when_completed(self) -> ConversationRecord:
        if self.status != "completed":
            self.strict = self.partial = None  # v1 wrote false / 0.0 here
        else:
            self.strict = bool(self.strict)
            self.partial = self.partial or 0.0
        return self

    @property
    def scored(self) -> bool:
        """The unit has a score (it completed)."""
        return self.status == "completed"


def _sum_cost(calls: list[LLMCall]) -> float | None:
    """None when any call is unpriced (an unknown cost is not zero), or there were none."""
    costs = [c.cost_usd for c in calls]
    if not costs or any(c is None for c in costs):
        return None
    return float(sum(costs))  # type: ignore[arg-type]


def _message(m: Message) -> dict[str, Any]:
    return {
        "role": m.role,
        "content": m.content,
        "tool_calls": [
            {"id": c.id, "name": c.name, "arguments": c.arguments} for c in m.tool_calls
        ],
        "tool_call_id": m.tool_call_id,
        "name": m.name,
        "is_error": m.is_error,
        "fault": m.fault,
        "reasoning": m.reasoning,
        "turn": m.turn,
        "response_ms": m.response_ms,
        "llm_ms": m.llm_ms,
        "tool_ms": m.tool_ms,
        "ttft_ms": m.ttft_ms,
        "input_tokens": m.input_tokens,
        "output_tokens": m.output_tokens,
        "cost_usd": m.cost_usd,
        "cached": m.cached,
        "loop_lag_ms": m.loop_lag_ms,
    }


def _json(value: Any) -> Any:
    """``value`` as the plain JSON the Agent was sent (the runtime serialises tool results
    with ``default=str``), so every record can be written and read back the same."""
    return orjson.loads(orjson.dumps(value, default=str, option=orjson.OPT_NON_STR_KEYS))


def _call(c: CallRecord) -> dict[str, Any]:
    return {
        "index": c.index,
        "call_id": c.call_id,
        "name": c.name,
        "raw_arguments": c.raw_arguments,
        "arguments": _json(c.arguments) if c.arguments is not None else None,
        "ok": c.ok,
        "result": _json(c.result),
        "error": c.error,
        "fault": c.fault,
        "kind": c.kind,
        "tool_ms": c.tool_ms,
    }


def build_record(
    *,
    unit_id: str,
    scenario: Scenario,
    agent: str,
    customer: str,
    trial: int,
    transcript: Transcript,
    score: Score | None,
    started_at: str,
    ended_at: str,
    duration_s: float,
    statement_judge: str | None = None,
    customer_seed: int | None = None,
    customer_replay: CustomerReplayRecord | None = None,
    review: CustomerReview | None = None,
) -> ConversationRecord:
    """The record of one unit; ``score`` is None when the conversation did not complete.
    ``statement_judge``: the judge's name (None: rules only); ``customer_seed`` and
    ``customer_replay``: as the record's fields; ``review``: the customer review (None:
    none made)."""
    compact = None
    if transcript.final_state and scenario.tau2 is not None:
        # tau2's final state is stored as its hash and changes (``supportsim.tau2._state``);
        # only a tau2 scenario imports the plug-in.
        from supportsim.tau2 import compact_state

        compact = compact_state(scenario, transcript.final_state)
    agent_calls = [c for c in transcript.llm_calls if c.role == "agent"]
    customer_calls = [c for c in transcript.llm_calls if c.role == "customer"]
    return ConversationRecord.model_validate(
        {
            "unit_id": unit_id,
            "scenario_id": scenario.id,
            "scenario_sha256": scenario.sha256,
            "domain": scenario.domain,
            "category": scenario.category,
            "tags": list(scenario.tags),
            "language": scenario.language,
            "agent": agent,
            "customer": customer,
            "trial": trial,
            "status": transcript.status,
            "termination": transcript.termination,
            "end_reason": transcript.end_reason,
            "strict": bool(score and score.strict) if transcript.status == "completed" else None,
            "partial": (score.partial if score else 0.0)
            if transcript.status == "completed"
            else None,
            "checks": [check_record(c) for c in (score.checks if score else ())],
            "messages": [_message(m) for m in transcript.messages],
            "llm_calls": [
                {
                    "role": c.role,
                    "model": c.model,
                    "llm_ms": c.llm_ms,
                    "ttft_ms": c.ttft_ms,
                    "input_tokens": c.input_tokens,
                    "output_tokens": c.output_tokens,
                    "cost_usd": c.cost_usd,
                    "cached": c.cached,
                    "client_ms": c.client_ms,
                    **_wire(c.wire),
                    "loop_lag_ms": c.loop_lag_ms,
                }
                for c in transcript.llm_calls
            ],
            "calls": [_call(c) for c in transcript.calls],
            "final_state": _json(transcript.final_state) if compact is None else None,
            **(_json(compact) if compact is not None else {}),
            "unscored": list(score.unscored) if score else [],
            "assertion_verdicts": [
                {"assertion": v.assertion, "met": v.met, "justification": v.justification}
                for v in (score.verdicts if score else ())
            ],
            "statement_judge": statement_judge,
            "cost_usd": _sum_cost(transcript.llm_calls),
            "agent_cost_usd": _sum_cost(agent_calls),
            "customer_cost_usd": _sum_cost(customer_calls),
            "simulator_faults": list(transcript.simulator_faults),
            "customer_seed": customer_seed,
            "customer_replay": customer_replay,
            "customer_review": customer_review_record(review),
            "customer_hindered": is_hindered(
                transcript.status, bool(score and score.strict), customer_review_record(review)
            ),
            "error": transcript.error,
            "started_at": started_at,
            "ended_at": ended_at,
            "duration_s": duration_s,
        }
    )


def _wire(wire: WireTiming | None) -> dict[str, float]:
    if wire is None:
        return {}
    return {
        "sent_ms": wire.sent_ms,
        "first_byte_ms": wire.first_byte_ms,
        "last_byte_ms": wire.last_byte_ms,
    }


def stored_wire(call: LLMCallRecord) -> WireTiming | None:
    """The wire stamps a record kept for a call, or None (none kept, an older record)."""
    if None in (call.sent_ms, call.first_byte_ms, call.last_byte_ms, call.client_ms):
        return None
    return WireTiming(
        sent_ms=call.sent_ms,  # type: ignore[arg-type]
        first_byte_ms=call.first_byte_ms,  # type: ignore[arg-type]
        last_byte_ms=call.last_byte_ms,  # type: ignore[arg-type]
        total_ms=call.llm_ms + call.client_ms,  # type: ignore[operator]
    )
