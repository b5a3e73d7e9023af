"""How much the choice of Customer moves the scores and the Agents' ranking.

A run of several Customers plays every (scenario, persona, trial) under each Customer for
every Agent (paired), so each Agent has one strict rate and partial mean per Customer. The
section (``Summary.customers``) gives them, each Agent's spread (highest minus lowest over
the Customers), and for every pair of Customers how well the Agents' two rankings agree:

* the ranking orders the Agents by strict rate, then partial mean (``ranked_by``): two
  Agents are tied only when both are equal, compared exactly: the strict rate as the
  fraction passes / n, the partial mean as the fraction (sum of partials, rounded to
  1e-9) / n, so two means that differ only by float rounding (0.20000000000000004 and
  0.19999999999999998, both 20.0%) are tied, never a swap;
* agreement is Kendall's tau-b (``kendall_tau_b``), the variant that accounts for ties:
  ``(concordant - discordant) / sqrt((pairs - tied_a) * (pairs - tied_b))``; it is
  undefined (null) when fewer than two Agents are ranked under both, or every Agent is
  tied under one Customer;
* a swap is a pair of Agents ranked in opposite orders (discordant); a pair tied under one
  Customer only lowers tau without being a swap. The ranking is ``stable`` when no pair
  of Agents swaps under any pair of Customers, and at least one pair of Customers ranked
  two Agents or more; when none did (a single Agent, or every unit of all but one
  Customer unscored), nothing was compared and ``stable`` is null: "not determined".

Only Agents with a scored unit under both Customers of a pair are ranked for that pair.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from itertools import combinations

from supportsim.report._facts import UnitFacts
from supportsim.store import AgentUnderCustomers, CustomersSection, RankAgreement, Rate

Score = tuple[Fraction | float, Fraction | float]
"""(strict rate, partial mean): what the rankings order by (``_scores``: exact fractions)."""


def _sign(x: Fraction | float) -> int:
    return (x > 0) - (x < 0)


def _order(a: Score, b: Score) -> int:
    """1 when ``a`` ranks above ``b``, -1 below, 0 tied."""
    return _sign(a[0] - b[0]) or _sign(a[1] - b[1])


def kendall_tau_b(a: Mapping[str, Score], b: Mapping[str, Score]) -> float | None:
    """Kendall's tau-b between the rankings ``a`` and ``b`` give their common keys (see
    the module docstring); None when undefined."""
    keys = sorted(set(a) & set(b))
    concordant = discordant = tied_a = tied_b = 0
    for x, y in combinations(keys, 2):
        oa, ob = _order(a[x], a[y]), _order(b[x], b[y])
        tied_a += oa == 0
        tied_b += ob == 0
        if oa and ob:
            concordant += oa == ob
            discordant += oa != ob
    pairs = len(keys) * (len(keys) - 1) // 2
    denominator = math.sqrt((pairs - tied_a) * (pairs - tied_b))
    if denominator == 0:
        return None
    return (concordant - discordant) / denominator


def swaps(a: Mapping[str, Score], b: Mapping[str, Score]) -> list[list[str]]:
    """The pairs of common keys ranked in opposite orders, each in ``a``'s order (better
    first), sorted."""
    out = []
    for x, y in combinations(sorted(set(a) & set(b)), 2):
        oa, ob = _order(a[x], a[y]), _order(b[x], b[y])
        if oa and ob and oa != ob:
            out.append([x, y] if oa > 0 else [y, x])
    return sorted(out)


def _spread(values: Sequence[float | None]) -> float | None:
    known = [v for v in values if v is not None]
    return max(known) - min(known) if len(known) > 1 else None


def customers_section(
    records: Sequence[UnitFacts],
    rate: Callable[[Sequence[UnitFacts]], Rate],
    pass_hat: Callable[[Sequence[UnitFacts]], dict[str, float | None]],
    customers: Sequence[str] | None = None,
    agents: Sequence[str] | None = None,
) -> CustomersSection | None:
    """The section of a run of several Customers (None with one). ``rate`` turns a list
    of scored facts into a ``Rate`` (the aggregates' own ``_rate``), ``pass_hat`` into
    pass^k by k (``pass_hat_k_of``); ``customers`` and
    ``agents``: the plan's, in order (default: as the records name them)."""
    named = list(customers or sorted({r.customer for r in records}))
    if len(named) < 2:
        return None
    scored: dict[str, dict[str, list[UnitFacts]]] = defaultdict(lambda: defaultdict(list))
    for r in records:
        if r.status == "completed":
            scored[r.agent][r.customer].append(r)
    rows: dict[str, AgentUnderCustomers] = {}
    for agent in list(agents or ()) + sorted(set(scored) - set(agents or ())):
        by = {c: rate(scored[agent][c]) for c in named}
        rows[agent] = AgentUnderCustomers(
            by_customer=by,
            strict_spread=_spread([by[c].strict_rate for c in named]),
            partial_spread=_spread([by[c].partial_mean for c in named]),
            pass_hat_k={c: pass_hat(scored[agent][c]) for c in named},
        )
    ranked = {c: _scores(rows, c) for c in named}
    agreement = [
        RankAgreement(
            customer_a=ca,
            customer_b=cb,
            agents=len(set(ranked[ca]) & set(ranked[cb])),
            kendall_tau_b=kendall_tau_b(ranked[ca], ranked[cb]),
            swaps=swaps(ranked[ca], ranked[cb]),
        )
        for ca, cb in combinations(named, 2)
    ]
    return CustomersSection(
        customers=named,
        agents=rows,
        agreement=agreement,
        stable=(
            not any(a.swaps for a in agreement) if any(a.agents >= 2 for a in agreement) else None
        ),
    )


def _scores(rows: Mapping[str, AgentUnderCustomers], customer: str) -> dict[str, Score]:
    out: dict[str, Score] = {}
    for agent, row in rows.items():
        r: Rate = row.by_customer[customer]
        if r.n and r.strict_rate is not None and r.partial_mean is not None:
            partial_sum = Fraction(round(r.partial_mean * r.n, 9)).limit_denominator(10**9)
            out[agent] = (Fraction(r.strict_passes, r.n), partial_sum / r.n)
    return out
