"""Run one unit to a record. Never raises (except cancellation): every fault is data.

``finish_unit`` is the one boundary between a unit and the batch: whatever goes wrong
while a unit runs, while its record is built or while the record is encoded becomes a
``harness_error`` record with the traceback, and the batch goes on. Text from models is
sanitised before it is stored: a lone UTF-16 surrogate (``\\ud800``: valid JSON, not
valid Unicode, so it cannot be written as UTF-8) becomes U+FFFD.
"""

from __future__ import annotations

import dataclasses
import time
import traceback
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from supportsim._tracing import traced_conversation
from supportsim.batch._customers import ReplaySource, seeded, sent_seed
from supportsim.batch._lag import LoopLag, stamp_loop_lag
from supportsim.batch._units import Unit
from supportsim.conversation import (
    AgentContext,
    AgentSpec,
    CallerFor,
    ConversationMode,
    CustomerSpec,
    Limits,
    LLMCall,
    ReplayCustomer,
    ToolsMode,
    Transcript,
    agent_context_for,
    build_agent,
    build_graph,
    llm_call,
    rules_for,
    run_conversation,
)
from supportsim.domains import Domain
from supportsim.environment import Environment
from supportsim.errors import ProviderError
from supportsim.llm import LLMResponse, ModelConfig, Scrubber, cache_scope, sanitised
from supportsim.scenario import Persona, Scenario
from supportsim.scoring import (
    AssertionVerdict,
    StatementJudge,
    Verdicts,
    assertion_verdicts,
    judge_questions,
    reference_state,
    score,
    statement_questions,
)
from supportsim.scoring.review import (
    CustomerReview,
    JudgedReview,
    judge_customer,
    judged_questions,
    review_customer,
    with_judged,
)
from supportsim.store import ConversationRecord, CustomerReplayRecord, build_record

if TYPE_CHECKING:
    from supportsim.environment import McpHost


@dataclass(slots=True)
class UnitContext:
    """Everything ``run_unit`` needs; built once per run by the CLI."""

    domains: Mapping[str, Domain]
    scenarios: Mapping[str, Scenario]
    personas: Mapping[str, Persona]
    agents: Mapping[str, AgentSpec]
    customer: CustomerSpec
    """The run's (first) Customer: the one of a unit that names none."""
    caller_for: CallerFor
    max_turns: int | None = None
    timeout_s: float = 600.0
    conversation_mode: ConversationMode = "auto"
    """Whose conversation conventions each scenario is held by (``rules_for``)."""
    clock: Callable[[], float] = time.perf_counter
    scrub: Scrubber = field(default_factory=Scrubber)
    """Removes the run's API key values and URL credentials from every stored line."""
    tools: ToolsMode = "inprocess"
    """How the built-in Agents' tool calls reach the Environment (``--tools``)."""
    mcp: McpHost | None = None
    """The run's MCP host while the batch runs (``execute`` opens it when needed)."""
    assertion_judge: ModelConfig | None = None
    """The judge of an imported benchmark's assertions (``--assertion-judge``), or None."""
    lag: LoopLag | None = None
    """The lag monitor of the loop the units run on (the batch's, or a worker's), on
    ``clock``: each timed message and model call gets the lag seen while it was timed."""
    statement_judge: StatementJudge | None = None
    """The judge of the communication checks (``--statement-judge``), None: rules only.
    Its verdict cache lives as long as the context (one run, in one process)."""
    customers: Mapping[str, CustomerSpec] = field(default_factory=dict)
    """Every Customer of the run by label (a unit of a run of several names its own)."""
    customer_seed: int | None = None
    """The run's Customer seed setting (``RunConfig.customer_seed``; ``_customers``)."""
    replay: ReplaySource | None = None
    """The stored run whose Customer replies are replayed (``--replay-customer``)."""
    _references: dict[str, dict[str, Any]] = field(default_factory=dict)
    _contexts: dict[str, AgentContext] = field(default_factory=dict)
    _graph: Any = None

    def customer_for(self, unit: Unit) -> CustomerSpec:
        """The unit's Customer: the one it names, else the run's one."""
        return self.customer if unit.customer is None else self.customers[unit.customer]

    @property
    def graph(self) -> Any:
        """The conversation graph, compiled once per run (it costs as much as a call)."""
        if self._graph is None:
            self._graph = build_graph()
        return self._graph

    def agent_context(self, scenario: Scenario, env: Environment) -> AgentContext:
        """The Agent's prompt and tool schemas, built once per scenario (schemas are
        generated from pydantic models: milliseconds per conversation otherwise)."""
        if scenario.id not in self._contexts:
            domain = self.domains[scenario.domain]
            prompt = rules_for(self.conversation_mode, scenario).agent_prompt(domain, scenario)
            self._contexts[scenario.id] = AgentContext(prompt, tuple(env.schemas()))
        return self._contexts[scenario.id]

    async def reference(self, scenario: Scenario) -> dict[str, Any]:
        """The reference final state, computed once per scenario."""
        if scenario.id not in self._references:
            domain = self.domains[scenario.domain]
            self._references[scenario.id] = await reference_state(domain, scenario)
        return self._references[scenario.id]


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


async def _assertion_verdicts(
    ctx: UnitContext, scenario: Scenario, transcript: Transcript
) -> list[AssertionVerdict] | None:
    """The assertion judge's verdicts for an imported benchmark's scenario (None: no judge,
    or not needed). A judge that fails after retries makes the unit an infra error (retried
    on resume)."""
    judge = ctx.assertion_judge
    call = ctx.caller_for(judge, "judge") if judge is not None else None
    started = ctx.clock()
    try:
        verdicts, response = await assertion_verdicts(scenario, transcript, call)
    except ProviderError as exc:
        transcript.status, transcript.error = "infra_error", f"assertion judge: {exc}"
        return None
    if response is not None and judge is not None:
        window = (started, ctx.clock())
        transcript.llm_calls.append(judge_call(judge.name, response, window))
    return verdicts


def judge_call(model: str, response: LLMResponse, window: tuple[float, float]) -> LLMCall:
    """A judge's call as the unit's ledger keeps it, under the judge's name (stored with
    the unit, never counted as the Agent's or the Customer's). ``window``: when the judge
    was being asked, on the unit's clock (its calls get the loop lag seen then)."""
    return dataclasses.replace(llm_call("judge", response), model=model, window=window)


async def _statement_verdicts(
    ctx: UnitContext,
    scenario: Scenario,
    domain: Domain,
    transcript: Transcript,
    reference: dict[str, Any],
) -> Verdicts | None:
    """The statement judge's verdicts on the conversation's questions (None: rules only).
    Scoring stays pure: the questions come from scoring the transcript once
    (``statement_questions``), the calls are made here, ``score`` takes the verdicts. A
    judge that fails after retries makes the unit an infra error (retried on resume),
    never the Agent's failure."""
    judge = ctx.statement_judge
    if judge is None:
        return None
    questions = statement_questions(scenario, domain, transcript, reference)
    started = ctx.clock()
    try:
        verdicts, responses = await judge_questions(judge, questions)
    except ProviderError as exc:
        transcript.status, transcript.error = "infra_error", f"statement judge: {exc}"
        return None
    window = (started, ctx.clock())
    transcript.llm_calls.extend(judge_call(judge.config.name, r, window) for r in responses)
    return verdicts


async def _judged_review(
    ctx: UnitContext, scenario: Scenario, transcript: Transcript
) -> JudgedReview:
    """The statement judge's findings about the Customer (``scoring.review._judged``). A
    judge that fails gives no finding and is counted as unclear: it is never scored
    against anyone and never costs the unit its score."""
    judge = ctx.statement_judge
    assert judge is not None
    persona = ctx.personas[scenario.persona]
    responses: list[LLMResponse] = []
    started = ctx.clock()
    try:
        judged = await judge_customer(judge, persona, transcript, responses)
    except Exception:  # a provider failing after retries, or a bug of ours: counted unclear
        judged = JudgedReview(judge=judge.name, unclear=len(judged_questions(persona, transcript)))
    window = (started, ctx.clock())
    calls = [judge_call(judge.config.name, r, window) for r in responses]
    if ctx.lag is not None:  # asked after the unit's calls were stamped: stamp these too
        stamp_loop_lag(calls, ctx.lag)
    transcript.llm_calls.extend(calls)
    return judged


@traced_conversation
async def run_unit(unit: Unit, ctx: UnitContext) -> ConversationRecord:
    """Hold the unit's conversation, score it, and return its record (text sanitised)."""
    started_at, t0 = _now(), ctx.clock()
    scenario = ctx.scenarios[unit.scenario_id]
    transcript = Transcript()
    result = None
    playing = ctx.customer_for(unit)
    seed = sent_seed(playing.model, ctx.customer_seed, scenario.id, scenario.persona, unit.trial)
    replay: ReplayCustomer | None = None
    review: CustomerReview | None = None
    try:
        domain = ctx.domains[scenario.domain]
        spec = ctx.agents[unit.agent]
        agent = build_agent(spec, scenario, ctx.caller_for, domain=domain)
        rules = rules_for(ctx.conversation_mode, scenario)
        customer = rules.build_customer(
            playing,
            scenario,
            ctx.personas[scenario.persona],
            domain,
            agent,
            seeded(ctx.caller_for, seed),
        )
        # Only a model Customer is replayed: a scripted one calls no model to spare.
        key = (scenario.id, unit.agent, playing.label, unit.trial)
        persona = ctx.personas.get(scenario.persona)
        stored = (
            ctx.replay.replies(key, rules, scenario, persona)
            if ctx.replay and playing.model
            else None
        )
        if stored is not None:
            customer = replay = ReplayCustomer(customer, stored)
        env = Environment(domain, scenario)
        # --max-turns binds whatever the rules; else the rules' own bound
        limits = Limits(
            max_turns=ctx.max_turns or rules.max_turns(scenario), timeout_s=ctx.timeout_s
        )
        with cache_scope(f"trial={unit.trial}"):  # --cache: each trial its own draw
            transcript = await run_conversation(
                env,
                agent,
                customer,
                agent_context_for(spec, ctx.agent_context(scenario, env)),
                limits,
                clock=ctx.clock,
                graph=ctx.graph,
                # An Agent that calls its tools over MCP itself gets a session whatever --tools.
                mcp=ctx.mcp if spec.mcp or ctx.tools != "inprocess" else None,
                tools="inprocess" if spec.mcp else ctx.tools,
                rules=rules,
            )
        transcript.simulator_faults.extend(getattr(customer, "faults", []))
        if transcript.status == "completed":
            verdicts = await _assertion_verdicts(ctx, scenario, transcript)
            if transcript.status == "completed":
                reference = await ctx.reference(scenario)
                statements = await _statement_verdicts(ctx, scenario, domain, transcript, reference)
            if transcript.status == "completed":
                result = score(
                    scenario,
                    domain,
                    transcript,
                    reference,
                    verdicts=verdicts,
                    statements=statements,
                )
    except Exception:
        transcript.status, transcript.termination = "harness_error", "error"
        transcript.error = traceback.format_exc()
    if ctx.lag is not None:
        stamp_loop_lag([*transcript.messages, *transcript.llm_calls], ctx.lag)
    transcript = sanitised(transcript)
    if transcript.messages and transcript.status != "harness_error":
        try:  # what the Customer said is reviewed whatever the status (it is shown)
            persona = ctx.personas[scenario.persona]
            review = review_customer(
                scenario,
                persona,
                ctx.domains[scenario.domain],
                transcript,
                result.checks if result is not None else None,
            )
        except Exception as exc:  # a bug of ours: the finished score is kept, never lost
            review = CustomerReview(
                persona=scenario.persona, failed=f"{type(exc).__name__}: {exc}"[:500]
            )
        if review.failed is None and ctx.statement_judge is not None:
            review = with_judged(review, await _judged_review(ctx, scenario, transcript))
    return build_record(
        unit_id=unit.unit_id,
        scenario=scenario,
        agent=unit.agent,
        customer=playing.label,
        trial=unit.trial,
        transcript=transcript,
        score=result,
        started_at=started_at,
        ended_at=_now(),
        duration_s=ctx.clock() - t0,
        statement_judge=ctx.statement_judge.name if ctx.statement_judge else None,
        customer_seed=seed,
        customer_replay=None
        if replay is None or ctx.replay is None
        else CustomerReplayRecord(
            source=ctx.replay.source, replayed=replay.replayed, diverged_turn=replay.diverged_turn
        ),
        review=review,
    )


@dataclass(frozen=True, slots=True)
class FinishedUnit:
    """A unit's record and the exact line that stores it."""

    record: ConversationRecord
    line: bytes


def encode_record(record: ConversationRecord, scrub: Scrubber | None = None) -> bytes:
    """The record as one conversations.jsonl line, newline included, with ``scrub``'s
    secrets removed (a model may echo a key it was shown; keys need no JSON escaping, so
    replacing them in the encoded line is exact)."""
    line = record.__pydantic_serializer__.to_json(record)
    if scrub is not None and (scrub.values or b"@" in line):
        line = scrub(line.decode("utf-8")).encode("utf-8")
    return line + b"\n"


async def finish_unit(unit: Unit, ctx: UnitContext) -> FinishedUnit:
    """Run a unit and encode its record; never raises but ``CancelledError``.

    Anything that goes wrong, even building or encoding the record, makes the unit a
    ``harness_error`` record carrying the traceback, so one unit never stops a batch.
    """
    started_at, t0 = _now(), ctx.clock()
    try:
        record = await run_unit(unit, ctx)
        return FinishedUnit(record, encode_record(record, ctx.scrub))
    except Exception:
        error = traceback.format_exc()
    record = harness_record(unit, ctx, error, started_at=started_at, duration_s=ctx.clock() - t0)
    return FinishedUnit(record, encode_record(record, ctx.scrub))


def harness_record(
    unit: Unit, ctx: UnitContext, error: str, *, started_at: str, duration_s: float
) -> ConversationRecord:
    """The record of a unit whose own record could not be made: the reason, nothing else."""
    transcript = Transcript(termination="error", status="harness_error", end_reason="harness error")
    # ASCII with escapes: the reason may quote the very text that could not be stored.
    transcript.error = error.encode("ascii", "backslashreplace").decode("ascii")
    return build_record(
        unit_id=unit.unit_id,
        scenario=ctx.scenarios[unit.scenario_id],
        agent=unit.agent,
        customer=ctx.customer_for(unit).label,
        trial=unit.trial,
        transcript=transcript,
        score=None,
        started_at=started_at,
        ended_at=_now(),
        duration_s=duration_s,
    )
