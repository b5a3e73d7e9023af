"""One judgment: ask one judge once about one conversation. Never raises but cancellation.

A malformed verdict (no ``submit_verdict`` call, invalid arguments) is retried once with a
note saying what was wrong; a second malformed verdict, or a provider failure after the
pool's retries, is an ``infra_error`` judgment, never a verdict. Either way the
conversation itself is never re-run: judges only read records.
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from pydantic import BaseModel

from supportsim.errors import ProviderError
from supportsim.judges._prompt import Case, corrective, judge_request
from supportsim.judges._records import JudgmentRecord
from supportsim.judges._rubric import Rubric
from supportsim.judges._verdict import parse_verdict, verdict_model, verdict_tool
from supportsim.llm import LLMResponse, ModelCaller, ToolSpec, cache_scope
from supportsim.store import ConversationRecord

MAX_ATTEMPTS = 2
"""Verdict attempts per judgment: the first, and one corrected retry."""


@dataclass(frozen=True, slots=True)
class Judge:
    """A judge: its name (the spec given on the command line) and how to call its model."""

    name: str
    call: ModelCaller


@dataclass(slots=True)
class Grader:
    """The rubric compiled once for a session: verdict model and tool."""

    rubric: Rubric
    model: type[BaseModel] = field(init=False)
    tool: ToolSpec = field(init=False)
    clock: Callable[[], float] = time.perf_counter

    def __post_init__(self) -> None:
        self.model = verdict_model(self.rubric)
        self.tool = verdict_tool(self.rubric)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _known_sum(values: list[int | None] | list[float | None]) -> float | None:
    if not values or any(v is None for v in values):
        return None
    return sum(v for v in values if v is not None)


async def judge_once(
    grader: Grader, judge: Judge, record: ConversationRecord, case: Case, sample: int
) -> JudgmentRecord:
    """Ask ``judge`` for a verdict on ``record``; every failure becomes an infra_error."""
    started_at, t0 = _now(), grader.clock()
    responses: list[LLMResponse] = []
    verdicts: dict[str, dict[str, str]] | None = None
    error: str | None = None
    try:
        request = judge_request(grader.rubric, record, case, grader.tool)
        for attempt in range(1, MAX_ATTEMPTS + 1):
            with cache_scope(f"sample={sample}"):  # --cache: each sample its own draw
                response = await judge.call(request)
            responses.append(response)
            parsed = parse_verdict(grader.model, response)
            if parsed.verdicts is not None:
                verdicts = parsed.verdicts
                break
            error = f"malformed verdict (attempt {attempt} of {MAX_ATTEMPTS}): {parsed.problem}"
            if attempt < MAX_ATTEMPTS:
                request = corrective(request, response.as_message(), parsed.problem or "")
    except ProviderError as exc:
        error = f"provider error: {exc}"
    except Exception:
        error = f"harness error: {traceback.format_exc()}"
    tokens_in = [r.input_tokens for r in responses]
    tokens_out = [r.output_tokens for r in responses]
    cost = _known_sum([r.cost_usd for r in responses])
    return JudgmentRecord(
        unit_id=record.unit_id,
        scenario_id=record.scenario_id,
        agent=record.agent,
        trial=record.trial,
        judge=judge.name,
        model=responses[-1].model if responses else "",
        sample=sample,
        rubric=grader.rubric.name,
        rubric_sha256=grader.rubric.sha256,
        status="ok" if verdicts is not None else "infra_error",
        verdicts=verdicts or {},
        attempts=len(responses),
        input_tokens=None if (n := _known_sum(tokens_in)) is None else int(n),
        output_tokens=None if (n := _known_sum(tokens_out)) is None else int(n),
        cost_usd=cost,
        llm_ms=sum(r.llm_ms for r in responses),
        cached=bool(responses) and all(r.cached for r in responses),
        duration_ms=(grader.clock() - t0) * 1000.0,
        error=None if verdicts is not None else error,
        conversation_ended_at=record.ended_at,
        started_at=started_at,
        ended_at=_now(),
    )
