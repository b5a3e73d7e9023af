"""Typed run-directory files written by a run: ``run.json`` and ``summary.json``.

These models are the contract of the files (their JSON Schemas are exported to
``schemas/``); the writers validate against them before anything reaches the disk, and the
readers validate what they read, naming the file and the field. Fields are optional where
older runs lack them, so every stored run keeps reading.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from supportsim.store._measurement import LoopLagStats, Measurement

SCHEMA_VERSION = 1
"""Version of the run-directory JSON documents (run.json, summary.json, judges.json,
agreement.json); records in the JSONL files carry their own."""


class _Doc(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CallCounts(_Doc):
    """The model pool's ledger for one session."""

    attempts: int = 0
    retries: int = 0
    rate_limited: int = 0
    failed: int = 0
    unpriced: int = 0
    input_tokens: int = 0
    output_tokens: int = 0


class LimiterState(_Doc):
    """One endpoint's or model's rate limiter as the session ended."""

    configured: dict[str, float | int] = {}
    concurrency_limit: int | None = None
    concurrency_cuts: int = 0
    pauses: int = 0
    tpm_waits: int = 0


class Limits(_Doc):
    endpoints: dict[str, LimiterState] = {}
    models: dict[str, LimiterState] = {}


class WorkersInfo(_Doc):
    """How a session's units ran in worker processes (``--workers``, ``--ray``)."""

    mode: str
    count: int
    restarts: int = 0
    lost: int = 0
    address: str | None = None
    loop_lag: dict[str, LoopLagStats] = {}
    """Each worker's own event-loop lag (the session's ``loop_lag`` is all of them)."""
    driver_loop_lag: LoopLagStats | None = None
    """The driver's own loop, which runs no conversation: its lag inflates no latency and
    is kept out of the session's ``loop_lag``."""
    cpu_s: float | None = None
    """CPU seconds the workers spent after their start-up (running units), all together."""
    permits: int = 0
    """Rate-limit permits the workers asked the driver for (one per model call attempt)."""
    permit_wait_ms: float | None = None
    """Mean time to get one: the round trip to the driver, plus queueing when a limit binds."""


class SessionEntry(_Doc):
    """One ``supportsim run`` invocation on this run directory (a resume adds one)."""

    started_at: str
    ended_at: str | None = None
    status: str
    stop_reason: str | None = None
    units_planned: int | None = None
    units_started: int | None = None
    units_recorded: int | None = None
    units_unrecorded: int | None = None
    statuses: dict[str, int] = {}
    spend_usd: float | None = None
    calls: CallCounts | None = None
    concurrency: list[int] = []
    """The concurrency limit over the session (``auto`` moves it)."""
    forced_changes: list[str] = []
    limits: Limits | None = None
    loop_lag: LoopLagStats | None = None
    """The event-loop lag of the loops that ran the conversations: this process's, or
    with workers all of the workers' (``workers.driver_loop_lag`` is the driver's)."""
    store_error: str | None = None
    workers: WorkersInfo | None = None


class RescoreEntry(_Doc):
    """A ``rescore`` that changed which statement judge the run's verdicts rest on."""

    at: str
    statement_judge: str | None
    """The judge the rescored verdicts come from (null: rules only)."""
    previous: str | None
    """The run's judge before (config.statement_judge)."""


class RunManifest(_Doc):
    """``run.json``: what the run is (its config and inputs' hashes) and how it went."""

    schema_version: int = SCHEMA_VERSION
    run_id: str
    config: dict[str, Any]
    """The run config (``supportsim.batch.RunConfig``) as the run stored it."""
    scenarios: dict[str, str] = {}
    """Scenario id -> sha256 of its file."""
    agents: dict[str, str] = {}
    """Agent label -> the spec it was given as, in ``--agent`` order: the labels are the
    plan's (``store.RunPlan``) and every unit id's. Empty in runs written before labels
    were stored (their labels are inferred from ``config.agents``)."""
    scenario_files: dict[str, str] = {}
    personas: dict[str, str] = {}
    models: dict[str, Any] = {}
    """Model name -> its configuration's fingerprint (credentials never stored)."""
    versions: dict[str, str] = {}
    started_at: str
    ended_at: str | None = None
    status: str
    stop_reason: str | None = None
    sessions: list[SessionEntry] = []
    loop_lag: LoopLagStats | None = None
    rescores: list[RescoreEntry] = []
    """``rescore --statement-judge`` sessions: each sets ``config.statement_judge`` (and
    the judge's ``models`` entry) to the judge the rescored verdicts come from, so
    ``compare`` sees two runs judged by different models as a setup difference."""


class Percentiles(_Doc):
    p50: float | None = None
    p90: float | None = None
    p99: float | None = None


class Distribution(_Doc):
    """Per-message latency quantiles (the HTML box plot)."""

    n: int
    min: float | None = None
    p10: float | None = None
    p25: float | None = None
    p50: float | None = None
    p75: float | None = None
    p90: float | None = None
    p99: float | None = None
    max: float | None = None
    mean: float | None = None


class Tokens(_Doc):
    input: int | None = None
    output: int | None = None
    input_mean: float | None = None
    output_mean: float | None = None


class KindCounts(_Doc):
    failed: int
    evaluated: int


class Rate(_Doc):
    """Strict and partial over a set of scored units."""

    n: int
    strict_passes: int
    strict_rate: float | None = None
    strict_ci95: list[float] | None = Field(default=None, min_length=2, max_length=2)
    partial_mean: float | None = None
    partial_gap: float | None = None


class Tau2Figures(_Doc):
    """tau2-bench's own figures for an agent's imported tau2 tasks (``report/_tau2.py``)."""

    tasks: int
    simulations: int
    avg_reward: float | None = None
    pass_hat_k: dict[str, float | None]
    not_fully_scored: int = 0
    """Units of tasks with NL assertions run without ``--assertion-judge``: never passes."""
    infra_errors: int
    harness_errors: int
    simulator_faults: int = 0
    termination: dict[str, int]


class FindingCount(_Doc):
    """How often the customer review found one kind of Customer error."""

    found: int = 0
    critical: int = 0
    """Of them, the ones that removed the Agent's chance to succeed."""
    units: int = 0
    """Units with at least one."""


class PersonaMeasures(_Doc):
    """The persona measures (``CustomerMeasuresRecord``) averaged over a persona's units,
    to read against what its persona file says (patience, verbosity, volunteers...)."""

    units: int
    messages_mean: float | None = None
    words_per_message: float | None = None
    facts_volunteered_mean: float | None = None
    """Known facts stated before the Agent asked for them, per unit."""
    gave_up: int = 0
    """Units the Customer ended by giving up."""
    turns_before_giving_up: float | None = None
    """Mean Customer messages before giving up, over the units it gave up in."""
    typo_rate: float | None = None
    contradictions_mean: float | None = None
    findings: dict[str, int] = {}


class CustomerReviewSection(_Doc):
    """The customer review over the run (``summary.json`` ``customer_review``; absent
    when no record was reviewed): what the simulated Customer did wrong, by kind and by
    scenario, and the persona measures."""

    units_reviewed: int
    hindered: int
    """Completed units that failed strict because of a critical Customer error."""
    findings: dict[str, FindingCount]
    by_scenario: dict[str, dict[str, FindingCount]]
    personas: dict[str, PersonaMeasures]


class AgentRow(Rate):
    """One agent's row of the leaderboard."""

    units: int
    scenarios: int
    pass_hat_k: dict[str, float | None]
    pass_hat_k_scenarios: dict[str, int]
    response_ms: Percentiles
    response_ms_mean: float | None = None
    ttft_ms: Percentiles
    llm_ms: Percentiles
    latency: Distribution
    tokens: Tokens
    cost_usd: float | None = None
    cost_mean_usd: float | None = None
    agent_cost_mean_usd: float | None = None
    status: dict[str, int]
    termination: dict[str, int]
    check_kinds: dict[str, KindCounts]
    customer_hindered: int = 0
    """Scored units that failed strict because of a critical Customer error (the
    customer review); counted in the raw figures above, left out of ``agent_attributable``."""
    agent_attributable: Rate | None = None
    """strict and partial over the scored units that were not ``customer_hindered``: the
    Agent's own figures (absent in summaries written before the customer review)."""
    tau2: Tau2Figures | None = None


class TrialCell(_Doc):
    trial: int
    unit_id: str
    status: str
    termination: str
    strict: bool | None
    """null when the unit was not scored (its status is not completed)."""
    partial: float | None
    customer_hindered: bool = False
    """The strict failure was the simulated Customer's (present only when true)."""


class ScenarioAgentCell(_Doc):
    scored: int
    strict_passes: int
    trials: list[TrialCell]


class ScenarioRow(_Doc):
    category: str
    domain: str
    agents: dict[str, ScenarioAgentCell]


class ReasonCount(_Doc):
    reason: str
    count: int


class FailingCheck(_Doc):
    """A (scenario, check) pair that fails often, with its commonest reasons."""

    scenario_id: str
    check_id: str
    kind: str
    failed: int
    evaluated: int
    agents: dict[str, int]
    reasons: list[ReasonCount]
    hindered: int = 0
    """Of ``failed``, the failures in customer-hindered units (the Customer's doing)."""


class JudgeAgreementRow(_Doc):
    """Rules against the statement judge on one kind of check in one language: the
    checks both decided, how many they agree on, Cohen's kappa of the two verdicts (pass
    or fail; null when undefined), and how the others split."""

    kind: str
    language: str
    checks: int
    agree: int
    agreement: float | None
    kappa: float | None
    rule_pass_judge_fail: int
    rule_fail_judge_pass: int
    unclear: int
    """Checks the judge answered unclear (they fail strict)."""


class JudgeDisagreement(_Doc):
    """A check the rules and the statement judge decided differently."""

    unit_id: str
    scenario_id: str
    agent: str
    check_id: str
    kind: str
    language: str
    rule: bool
    """The rules' result (pass or fail)."""
    answer: str
    """The judge's answer: yes, no or unclear."""
    judged: bool
    """The check's result by the judge (the one that counted)."""
    quote: str
    message: int | None = None


class StatementJudgeSection(_Doc):
    """How the statement judge's verdicts compare with the rules' (``summary.json``
    ``statement_judge``; absent when no check was judged)."""

    judges: list[str]
    """The judges whose verdicts the records hold."""
    checks: int
    """Communication checks the judge decided."""
    agree: int
    agreement: float | None
    unclear: int
    not_judged: int
    """Communication checks of judged units decided by the rules alone (nothing to ask,
    or no stored verdict after a rescore)."""
    by_kind: list[JudgeAgreementRow]
    disagreements: list[JudgeDisagreement]
    """At most ``DISAGREEMENTS_KEPT``, most recent units last."""
    disagreements_total: int


class RunSection(_Doc):
    """The run's progress as of the summary: planned, recorded, statuses, spend, lag."""

    run_id: str | None = None
    status: str | None = None
    started_at: str | None = None
    ended_at: str | None = None
    units_planned: int | None = None
    units_recorded: int | None = None
    units_missing: int | None = None
    units_foreign: int | None = None
    foreign_reasons: list[ReasonCount] = []
    """Why the foreign units are outside the plan, each reason with its count."""
    statuses: dict[str, int] = {}
    infra_errors: int | None = None
    harness_errors: int | None = None
    spend_usd: float | None = None
    loop_lag: LoopLagStats | None = None
    last_session: SessionEntry | dict[str, Any] = {}
    summary_error: str | None = None


class RescoredInfo(_Doc):
    """When the verdicts shown come from ``supportsim rescore``."""

    at: str
    units: int


class Floor(_Doc):
    """What a do-nothing Agent scores on the run's scenarios (``validate --baselines``'s
    ``baseline:do-nothing``, offline): the floor the run's figures are read against."""

    agent: str
    scenarios: int
    strict_passes: int
    partial_mean: float


class Summary(_Doc):
    """``summary.json``: the numbers of a run, computed once (``supportsim.report``)."""

    schema_version: int = SCHEMA_VERSION
    units: int
    trials: int
    agents: dict[str, AgentRow]
    by_category: dict[str, dict[str, Rate]]
    by_domain: dict[str, dict[str, Rate]]
    scenarios: dict[str, ScenarioRow]
    failing_checks: list[FailingCheck]
    run: RunSection | None = None
    rescored: RescoredInfo | None = None
    judges: dict[str, Any] | None = None
    """agreement.json's statistics, when the run was judged (``supportsim report``)."""
    measurement: Measurement | None = None
    """How much measurement inflation the run had (``store._measurement``)."""
    floor: Floor | None = None
    """The do-nothing floor of the run's scenarios (computed by ``run`` when it ends)."""
    statement_judge: StatementJudgeSection | None = None
    """Rules against the statement judge, per check kind and language, and the
    disagreements (absent when no check was judged)."""
    customer_review: CustomerReviewSection | None = None
    """What the simulated Customer did wrong, and the persona measures (absent when no
    record was reviewed)."""
    summary_error: str | None = None

    def document(self) -> dict[str, Any]:
        """The JSON document as written: the fields this summary was given (a section a
        run lacks, such as ``run`` or ``statement_judge``, is absent rather than null)."""
        return self.model_dump(mode="json", exclude_unset=True)
