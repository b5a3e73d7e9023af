"""Number formatting shared by the terminal and HTML views (formatting only, no arithmetic
beyond scaling a rate to percent), so both show the same digits. A figure that is not a
finite number (no stored file holds one: the store's models refuse NaN and infinity, but
a mean can overflow) is shown as a dash, like a missing one, never as ``nan`` or ``inf``."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from supportsim.store import CustomersSection, Rate, Summary

DASH = "–"
PASS_K_SHOWN = 4
"""pass^k columns a leaderboard shows before the last one (``pass_k_columns``)."""


def pct(rate: float | None, digits: int = 1) -> str:
    """0.725 -> '72.5%'; None -> '–'."""
    return DASH if rate is None or not math.isfinite(rate) else f"{rate * 100:.{digits}f}%"


def points(value: float | None, digits: int = 1, *, signed: bool = True) -> str:
    """A difference already in percentage points: 6.04 -> '+6.0'."""
    if value is None or not math.isfinite(value):
        return DASH
    return f"{value:+.{digits}f}" if signed else f"{value:.{digits}f}"


def spread(value: float | None) -> str:
    """A spread of rates (max - min, 0..1) in percentage points: 0.25 -> '25.0'."""
    return points(None if value is None else value * 100, signed=False)


def ci(interval: Sequence[float] | None, digits: int = 1) -> str:
    """A rate interval [0.6, 0.82] -> '[60.0, 82.0]' (percent)."""
    if not interval or not all(math.isfinite(v) for v in interval):
        return DASH
    return f"[{interval[0] * 100:.{digits}f}, {interval[1] * 100:.{digits}f}]"


def ms(value: float | None) -> str:
    if value is None or not math.isfinite(value):
        return DASH
    return f"{value:,.0f}" if value >= 100 or value == int(value) else f"{value:.1f}"


def number(value: float | None, digits: int = 0) -> str:
    return DASH if value is None or not math.isfinite(value) else f"{value:,.{digits}f}"


def usd(value: float | None) -> str:
    if value is None or not math.isfinite(value):
        return DASH
    return f"${value:.4f}" if value < 1 else f"${value:,.2f}"


def counts(mapping: Mapping[str, int]) -> str:
    """{'completed': 5, 'infra_error': 1} -> 'completed 5 · infra_error 1'."""
    return " · ".join(f"{k} {v}" for k, v in mapping.items()) or DASH


def floor(summary: Summary) -> str | None:
    """The do-nothing floor line (``summary.json`` ``floor``), or None when the run has none:
    'do-nothing floor: an agent that does nothing scores strict 0/60 and partial 0.0% on
    these scenarios'."""
    got = summary.floor
    if got is None:
        return None
    return (
        f"do-nothing floor: an agent that does nothing scores strict "
        f"{got.strict_passes}/{got.scenarios} and partial {pct(got.partial_mean)} on "
        "these scenarios"
    )


def tool_time_note(summary: Summary) -> str | None:
    """What the response times of Agents with no model call recorded are made of, or None
    when every Agent recorded one: 'oracle, careless: no model call recorded, so response
    times are the agent's own time plus the tools' simulated latency and injected faults (a
    tool timeout retried takes over a second)'. The bundled scenarios give tools a simulated
    latency and some a fault, so the oracle's p99 is over a second though it thinks for no
    time at all. A plug-in Agent calling its own model records none either (unless its
    step reports it): its own time is then its model's."""
    no_model = [
        name
        for name in leaderboard_order(summary.agents)
        if (a := summary.agents[name]).llm_ms.p50 is None and a.response_ms.p50 is not None
    ]
    if not no_model:
        return None
    return (
        f"{', '.join(no_model)}: no model call recorded, so response times are the agent's own "
        "time plus the tools' simulated latency and injected faults (a tool timeout retried "
        "takes over a second)"
    )


def leaderboard_order(agents: Mapping[str, Rate]) -> list[str]:
    """Agents best first: strict rate, then partial mean, then name (unscored last)."""

    def key(name: str) -> tuple[float, float, str]:
        a = agents[name]
        return (-(a.strict_rate or -1.0), -(a.partial_mean or -1.0), name)

    return sorted(agents, key=key)


def scores_cell(rate: Rate) -> str:
    """``strict / partial`` of one Agent under one Customer: '50.0% / 75.0%'."""
    return f"{pct(rate.strict_rate)} / {pct(rate.partial_mean)}"


def agreement_lines(section: CustomersSection) -> list[str]:
    """One line per pair of Customers: Kendall's tau-b of the rankings and the swaps;
    then whether the ranking is stable."""
    lines = []
    for a in section.agreement:
        tau = DASH if a.kendall_tau_b is None else f"{a.kendall_tau_b:+.2f}"
        swapped = "; ".join(f"{x} > {y} under A, {y} > {x} under B" for x, y in a.swaps)
        lines.append(
            f"rank agreement {a.customer_a} (A) vs {a.customer_b} (B): "
            f"Kendall tau-b {tau} over {a.agents} agents"
            + (f"; swaps: {swapped}" if a.swaps else "; no swaps")
        )
    if section.stable is None:
        lines.append(
            "rank agreement: not determined (fewer than two Agents ranked under two Customers)"
        )
    else:
        lines.append(
            f"ranking by {section.ranked_by}: "
            + ("stable under every Customer" if section.stable else "NOT stable: Agents swap")
        )
    return lines


def trials_phrase(summary: Summary) -> str:
    """``2 trial(s) per scenario``, ``under each of 3 Customers`` in a run of several."""
    several = summary.customers
    under = f" under each of {len(several.customers)} Customers" if several is not None else ""
    return f"{summary.trials} trial(s) per scenario{under}"


def pass_k_columns(trials: int) -> list[str]:
    """The k of the pass^k columns a leaderboard or table shows (as summary keys): every k
    up to ``PASS_K_SHOWN + 1`` trials; beyond, k = 1..PASS_K_SHOWN and k = trials. pass^k
    only falls as k grows, and a column per trial pushed a leaderboard's latency and cost
    columns off the page from 8 trials on (and made a page of 100,000 columns for 100,000
    trials); ``report --json`` keeps every k."""
    if trials <= PASS_K_SHOWN + 1:
        return [str(k) for k in range(1, trials + 1)]
    return [*(str(k) for k in range(1, PASS_K_SHOWN + 1)), str(trials)]
