"""Typed ``summary.json``: the numbers of a run (``supportsim.report`` computes them).

Like ``_schema_run.py`` (``run.json``), whose base and version it shares: these models are
the file's contract (its JSON Schema is exported to ``schemas/``); the writers validate
against them, the readers validate what they read. Fields are optional where older runs
lack them, so every stored run keeps reading.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from supportsim.store._measurement import LoopLagStats, Measurement
from supportsim.store._schema_run import SCHEMA_VERSION, SessionEntry, _Doc


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


class AgentUnderCustomers(_Doc):
    """One Agent's scores under each Customer of a run of several, and their spread."""

    by_customer: dict[str, Rate]
    """Customer -> strict and partial over the Agent's scored units it played."""
    strict_spread: float | None = None
    """Highest minus lowest strict rate over the Customers that scored a unit (null
    with fewer than two)."""
    partial_spread: float | None = None
    """The same for the partial mean."""
    pass_hat_k: dict[str, dict[str, float | None]] = {}
    """Customer -> k -> pass^k over the scenarios' trials under that Customer."""


class RankAgreement(_Doc):
    """How the Agents' ranking under one Customer agrees with the ranking under another."""

    customer_a: str
    customer_b: str
    agents: int
    """Agents ranked under both (scored at least one unit under each)."""
    kendall_tau_b: float | None = None
    """Kendall's tau-b of the two rankings (ties counted: 1 the same order, -1 reversed);
    null when it is undefined (fewer than two Agents, or every Agent tied under one)."""
    swaps: list[list[str]] = []
    """Pairs of Agents ranked in opposite orders (each pair in ``customer_a``'s order:
    better first); a pair tied under one Customer and not the other is no swap."""


class CustomersSection(_Doc):
    """How much the choice of Customer moves the scores and the ranking (a run of several
    Customers, paired by scenario and trial: ``report/_customers.py``)."""

    customers: list[str]
    ranked_by: Literal["strict, then partial"] = "strict, then partial"
    """The score each ranking orders the Agents by."""
    agents: dict[str, AgentUnderCustomers]
    agreement: list[RankAgreement]
    """One entry per pair of Customers, in ``customers`` order."""
    stable: bool | None
    """No pair of Agents swaps under any pair of Customers; null when nothing was compared
    (no pair of Customers ranked two Agents)."""


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
    customers: CustomersSection | None = None
    """Each Agent under each Customer, the spread and the rank agreement (absent unless
    the run has several Customers)."""
    summary_error: str | None = None

    def document(self) -> dict[str, Any]:
        """The JSON document as written: the fields this summary was given (a section a
        run lacks, such as ``run`` or ``statement_judge``, is absent rather than null)."""
        return self.model_dump(mode="json", exclude_unset=True)
