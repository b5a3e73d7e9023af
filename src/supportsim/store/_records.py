"""The conversations.jsonl record: the contract users, reports and resume read.

Only this module turns the inner dataclasses (Transcript, Score) into the record model, from
the parts of ``_message_records`` (what happened), ``_check_records`` (how it scored) and
``_customer_records`` (how the Customer behaved).
Fields beyond ARCHITECTURE.md's minimum are additive; readers ignore unknown fields, so
old run directories stay readable (``tests/fixtures/runs``). A record keeps everything
the scorer reads (messages, the tool call log with results, the final state), so a stored
run can be scored again without any model call (``supportsim rescore``).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, model_validator

from supportsim.conversation import LLMCall, Transcript
from supportsim.scenario import Scenario
from supportsim.scoring import Score
from supportsim.scoring.review import CustomerReview
from supportsim.store._check_records import AssertionVerdictRecord, CheckRecord, check_record
from supportsim.store._customer_records import (
    CustomerReviewRecord,
    _Record,
    customer_review_record,
    is_hindered,
)
from supportsim.store._message_records import (
    CallLogRecord,
    LLMCallRecord,
    MessageRecord,
    call_fields,
    message_fields,
    plain_json,
    wire_fields,
)
from supportsim.store._plan import MAX_TRIALS

SCHEMA_VERSION = 2
"""Version 2: an unscored unit (any status but completed) has ``strict`` and ``partial``
null instead of false and 0.0. Version 1 records read as version 2 (their unscored
units' false/0.0 become null), so an average over records never counts a provider's
failure against the Agent."""


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
    trial: int = Field(ge=1, le=MAX_TRIALS)
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
            "messages": [message_fields(m) for m in transcript.messages],
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
                    **wire_fields(c.wire),
                    "loop_lag_ms": c.loop_lag_ms,
                }
                for c in transcript.llm_calls
            ],
            "calls": [call_fields(c) for c in transcript.calls],
            "final_state": plain_json(transcript.final_state) if compact is None else None,
            **(plain_json(compact) if compact is not None else {}),
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
