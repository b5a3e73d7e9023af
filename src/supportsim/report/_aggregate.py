"""Aggregates over a run's records: the numbers every view (terminal, JSON, HTML) shows.

Computed once here; views only render. Only ``completed`` units are scored: infra errors,
simulator faults and harness errors are counted, never scored as Agent failures. A unit's
last record wins (``latest_records``). An unknown cost or token count is ``None``, never 0:
one unpriced call makes the sum unknown rather than quietly low. Records are read as their
small ``UnitFacts`` (``_facts.py``), so a run's summary never holds every record at once.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeVar

from supportsim.report._customer import attributable, customer_review_section
from supportsim.report._customers import customers_section
from supportsim.report._facts import Facts, UnitFacts, unit_facts
from supportsim.report._statements import statement_agreement
from supportsim.report._tau2 import tau2_metrics
from supportsim.scoring import pass_hat_k, percentile, wilson_interval
from supportsim.store import (
    DOCUMENT_SCHEMA_VERSION,
    AgentRow,
    ConversationRecord,
    Distribution,
    FailingCheck,
    KindCounts,
    Percentiles,
    Rate,
    ReasonCount,
    RunPlan,
    RunSection,
    ScenarioAgentCell,
    ScenarioRow,
    Summary,
    Tokens,
    TrialCell,
    measurement_from,
)

TOP_FAILING_CHECKS = 20
"""How many (scenario, check) pairs the failing-checks table keeps."""
TOP_REASONS = 3
"""How many distinct reasons are kept per failing check."""
DIST_QUANTILES = (10, 25, 50, 75, 90, 99)
_N = TypeVar("_N", int, float)


def _percentiles(values: Sequence[float]) -> Percentiles:
    return Percentiles(
        p50=percentile(values, 50), p90=percentile(values, 90), p99=percentile(values, 99)
    )


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _distribution(values: Sequence[float]) -> Distribution:
    """Quantiles for a box plot of per-message latency (the HTML latency chart)."""
    quantiles = {f"p{q}": percentile(values, q) for q in DIST_QUANTILES}
    return Distribution(
        n=len(values),
        min=min(values, default=None),
        max=max(values, default=None),
        mean=_mean(values),
        **quantiles,
    )


def _known_sum(values: Sequence[_N | None]) -> _N | None:
    """Sum when every value is known (and there is one); else None (unknown is not zero)."""
    if not values or any(v is None for v in values):
        return None
    return sum(v for v in values if v is not None)


def _pass_hat_k(
    counts: Sequence[tuple[int, int]], trials: int
) -> tuple[dict[str, float | None], dict[str, int]]:
    """pass^k for k = 1..trials, each over the scenarios with at least k scored trials.

    A scenario that lost a trial to an infra error still counts for smaller k instead of
    voiding pass^k for the whole agent; ``pass_hat_k_scenarios`` says how many counted.
    """
    values: dict[str, float | None] = {}
    used: dict[str, int] = {}
    for k in range(1, trials + 1):
        usable = [(n, c) for n, c in counts if n >= k]
        used[str(k)] = len(usable)
        values[str(k)] = (
            sum(pass_hat_k(n=n, c=c, k=k) for n, c in usable) / len(usable) if usable else None
        )
    return values, used


def trial_counts(scored: Sequence[UnitFacts]) -> list[tuple[int, int]]:
    """(trials, strict passes) per (scenario, Customer) of scored facts: pass^k's trials
    are trials of one scenario under one Customer (a run of several Customers plays each
    scenario's trials under each; pooling them would mix two Customers' draws)."""
    by: dict[tuple[str, str], list[bool]] = defaultdict(list)
    for r in scored:
        by[r.scenario_id, r.customer].append(bool(r.strict))
    return [(len(v), sum(v)) for v in by.values()]


def pass_hat_k_of(scored: Sequence[UnitFacts], trials: int) -> dict[str, float | None]:
    """pass^k, k = 1..trials, of scored facts (``trial_counts``, ``_pass_hat_k``)."""
    return _pass_hat_k(trial_counts(scored), trials)[0]


def _rate(records: Sequence[UnitFacts]) -> Rate:
    """n, strict passes, strict rate with its Wilson 95% interval, partial mean and gap."""
    n, passed = len(records), sum(bool(r.strict) for r in records)
    low, high = wilson_interval(passed, n)
    strict = passed / n if n else None
    partial = sum(r.partial or 0.0 for r in records) / n if n else None
    return Rate(
        n=n,
        strict_passes=passed,
        strict_rate=strict,
        strict_ci95=[low, high] if n else None,
        partial_mean=partial,
        # partial - strict: the credit a strict score withholds (the product's point)
        partial_gap=partial - strict if partial is not None and strict is not None else None,
    )


def agent_summary(records: Sequence[ConversationRecord | UnitFacts], trials: int) -> AgentRow:
    """One agent's row: quality, latency, tokens, cost and status counts.

    Tokens count the Agent's own model calls; ``cost_mean_usd`` is the whole conversation
    (Agent and simulated Customer), ``agent_cost_mean_usd`` the Agent's share: the price of
    choosing that model.
    """
    records = unit_facts(records)
    scored = [r for r in records if r.status == "completed"]
    n = len(scored)
    counts = trial_counts(scored)
    replies = [m for r in scored for m in r.replies]
    response = [m.response_ms for m in replies]
    called = [r for r in scored if r.agent_calls]  # records without Agent calls add nothing
    tokens_in = _known_sum([r.agent_input_tokens for r in called])
    tokens_out = _known_sum([r.agent_output_tokens for r in called])
    cost = _known_sum([r.cost_usd for r in scored])
    agent_cost = _known_sum([r.agent_cost_usd for r in scored])
    kinds: dict[str, Counter[str]] = defaultdict(Counter)
    for r in scored:
        for c in r.checks:
            kinds[c.kind]["evaluated"] += 1
            kinds[c.kind]["failed"] += not c.passed
    pass_hat, pass_hat_scenarios = _pass_hat_k(counts, trials)
    row = AgentRow(
        **_rate(scored).model_dump(),
        units=len(records),
        scenarios=len({r.scenario_id for r in scored}),
        pass_hat_k=pass_hat,
        pass_hat_k_scenarios=pass_hat_scenarios,
        response_ms=_percentiles(response),
        response_ms_mean=_mean(response),
        ttft_ms=_percentiles([m.ttft_ms for m in replies if m.ttft_ms is not None]),
        llm_ms=_percentiles([m.llm_ms for m in replies if m.llm_ms is not None]),
        latency=_distribution(response),
        tokens=Tokens(
            input=tokens_in,
            output=tokens_out,
            input_mean=tokens_in / n if n and tokens_in is not None else None,
            output_mean=tokens_out / n if n and tokens_out is not None else None,
        ),
        cost_usd=cost,
        cost_mean_usd=cost / n if n and cost is not None else None,
        agent_cost_mean_usd=agent_cost / n if n and agent_cost is not None else None,
        status=dict(sorted(Counter(r.status for r in records).items())),
        termination=dict(sorted(Counter(r.termination for r in records).items())),
        check_kinds={
            k: KindCounts(failed=c["failed"], evaluated=c["evaluated"])
            for k, c in sorted(kinds.items())
        },
    )
    if any(r.reviewed for r in scored):  # absent in runs made before the customer review
        row.customer_hindered = sum(r.customer_hindered for r in scored)
        row.agent_attributable = attributable(scored, _rate)
    if (tau2 := tau2_metrics(records, trials)) is not None:
        row.tau2 = tau2  # only on an agent that ran tau2 tasks (absent, not null, otherwise)
    return row


def _breakdown(records: Sequence[UnitFacts], key: str) -> dict[str, dict[str, Rate]]:
    """agent -> group (category or domain) -> rate, over completed units."""
    groups: dict[str, dict[str, list[UnitFacts]]] = defaultdict(lambda: defaultdict(list))
    for r in records:
        if r.status == "completed":
            groups[r.agent][getattr(r, key)].append(r)
    return {
        agent: {g: _rate(rs) for g, rs in sorted(by.items())}
        for agent, by in sorted(groups.items())
    }


def _scenario_grid(records: Sequence[UnitFacts]) -> dict[str, ScenarioRow]:
    """scenario -> agent -> trials (the HTML grid, and the pairing ``compare`` uses)."""
    grid: dict[str, ScenarioRow] = {}
    for r in sorted(records, key=lambda r: (r.scenario_id, r.agent, r.trial)):
        row = grid.setdefault(
            r.scenario_id, ScenarioRow(domain=r.domain, category=r.category, agents={})
        )
        cell = row.agents.setdefault(
            r.agent, ScenarioAgentCell(scored=0, strict_passes=0, trials=[])
        )
        trial = TrialCell(
            trial=r.trial,
            unit_id=r.unit_id,
            status=r.status,
            termination=r.termination,
            strict=r.strict,
            partial=r.partial,
        )
        if r.customer_hindered:  # set only then: absent from summary.json otherwise
            trial.customer_hindered = True
        cell.trials.append(trial)
        if r.status == "completed":
            cell.scored += 1
            cell.strict_passes += bool(r.strict)
    return grid


def _failing_checks(records: Sequence[UnitFacts]) -> list[FailingCheck]:
    """The (scenario, check) pairs that fail most often, with their commonest reasons."""
    evaluated: Counter[tuple[str, str]] = Counter()
    failed: Counter[tuple[str, str]] = Counter()
    kind: dict[tuple[str, str], str] = {}
    by_agent: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    reasons: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    hindered: Counter[tuple[str, str]] = Counter()
    for r in records:
        if r.status != "completed":
            continue
        for c in r.checks:
            key = (r.scenario_id, c.id)
            evaluated[key] += 1
            kind[key] = c.kind
            if not c.passed:
                failed[key] += 1
                hindered[key] += r.customer_hindered
                by_agent[key][r.agent] += 1
                reasons[key][c.reason] += 1
    top = sorted(failed, key=lambda k: (-failed[k], k))[:TOP_FAILING_CHECKS]
    return [
        FailingCheck(
            scenario_id=key[0],
            check_id=key[1],
            kind=kind[key],
            failed=failed[key],
            hindered=hindered[key],
            evaluated=evaluated[key],
            agents=dict(sorted(by_agent[key].items())),
            reasons=[
                ReasonCount(reason=reason, count=count)
                for reason, count in sorted(reasons[key].items(), key=lambda x: (-x[1], x[0]))[
                    :TOP_REASONS
                ]
            ],
        )
        for key in top
    ]


def _run_info(manifest: Mapping[str, Any], records: Sequence[UnitFacts]) -> RunSection:
    """Run-level facts, named as the runner names them in the summary.json it writes."""
    plan = RunPlan.of_manifest(manifest)
    planned = len(plan) if plan is not None and len(plan) else None
    statuses: dict[str, int] = dict(sorted(Counter(r.status for r in records).items()))
    return RunSection(
        run_id=manifest.get("run_id"),
        status=manifest.get("status"),
        started_at=manifest.get("started_at"),
        ended_at=manifest.get("ended_at"),
        units_planned=planned,
        units_recorded=len(records),
        units_missing=planned - len(records) if planned is not None else None,
        statuses=statuses,
        infra_errors=statuses.get("infra_error", 0),
        harness_errors=statuses.get("harness_error", 0),
    )


def summarise(
    records: Iterable[ConversationRecord | UnitFacts],
    *,
    trials: int | None = None,
    manifest: Mapping[str, Any] | None = None,
    agents: Sequence[str] | None = None,
    customers: Sequence[str] | None = None,
) -> Summary:
    """summary.json: per agent, per category and domain, the scenario grid, failing checks.

    Args:
        records: every record read from conversations.jsonl; the last one per unit wins.
            Read once, one at a time (an iterator over the file holds one record at once).
        trials: trials per scenario the run asked for (pass^k is given for k = 1..trials);
            default the largest trial number seen.
        manifest: run.json, when known: adds ``run`` (id, status, planned vs finished units).
        agents: the plan's Agent labels (default: the manifest's plan, if any). Each has a
            row even with nothing recorded or scored, so a gate on it fails instead of
            passing on no data.
        customers: the plan's Customers (default: the manifest's plan, if any); with two
            or more, the ``customers`` section (``_customers.py``). The per-agent rows pool
            every Customer's units for strict and partial; their pass^k is over (scenario,
            Customer) pairs (the trials of one scenario under one Customer), and each
            Customer's own pass^k is in the section (the gates read those).
    """
    facts = Facts()
    by_unit: dict[str, UnitFacts] = {}
    for record in records:
        by_unit[record.unit_id] = facts(record)
    latest = list(by_unit.values())
    trials = trials or max((r.trial for r in latest), default=1)
    plan = RunPlan.of_manifest(manifest)
    if agents is None and plan is not None:
        agents = plan.agents
    by_agent: dict[str, list[UnitFacts]] = {a: [] for a in agents or ()}
    for r in latest:
        by_agent.setdefault(r.agent, []).append(r)
    summary = Summary(
        schema_version=DOCUMENT_SCHEMA_VERSION,
        units=len(latest),
        trials=trials,
        agents={a: agent_summary(rs, trials) for a, rs in sorted(by_agent.items())},
        by_category=_breakdown(latest, "category"),
        by_domain=_breakdown(latest, "domain"),
        scenarios=_scenario_grid(latest),
        failing_checks=_failing_checks(latest),
        measurement=measurement_from(
            (c for f in latest for c in f.call_client_ms),
            (lag for f in latest for lag in _aligned(f.call_loop_lag_ms, f.call_client_ms)),
        ),
    )
    # Sections a run may lack are set only when present: absent from summary.json, not null.
    if manifest is not None:
        summary.run = _run_info(manifest, latest)
    if (judged := statement_agreement(latest)) is not None:
        summary.statement_judge = judged
    if customers is None and plan is not None and plan.several_customers:
        customers = plan.customers
    if (
        section := customers_section(
            latest, _rate, lambda rs: pass_hat_k_of(rs, trials), customers, agents
        )
    ) is not None:
        summary.customers = section
    if (reviewed := customer_review_section(latest)) is not None:
        summary.customer_review = reviewed
    return summary


def _aligned(values: tuple[float | None, ...], like: tuple[float | None, ...]) -> Any:
    """``values`` as long as ``like`` (facts made without them have none)."""
    return values if len(values) == len(like) else (None,) * len(like)
