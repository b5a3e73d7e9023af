"""The terminal view of the customer review: each Agent's strict and partial raw and
agent-attributable (the units the Customer hindered left out), the Customer's errors by
kind and by scenario, and the persona measures; and ``validate --customer``'s tables.
Renders a ``Summary`` or a ``CustomerCheck``; computes nothing."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text

from supportsim._printable import printable
from supportsim._tables import name_cell
from supportsim.report._customer_check import CustomerCheck, CustomerRate
from supportsim.report._format import DASH, leaderboard_order, number, pct
from supportsim.store import CustomerReviewSection, FindingCount, Summary


def attributable_table(summary: Summary) -> Table | None:
    """strict / partial raw and agent-attributable per Agent (None: nothing reviewed)."""
    rows = [
        (name, a)
        for name in leaderboard_order(summary.agents)
        if (a := summary.agents[name]).agent_attributable is not None
    ]
    if not rows:
        return None
    table = Table(title="strict / partial: raw, and agent-attributable (customer-hindered apart)")
    for column in ("agent", "scored", "strict raw", "partial raw", "hindered"):
        table.add_column(column, justify="left" if column == "agent" else "right", no_wrap=True)
    table.add_column("strict (agent)", justify="right")
    table.add_column("partial (agent)", justify="right")
    for name, a in rows:
        own = a.agent_attributable
        assert own is not None
        table.add_row(
            name_cell(name),
            str(a.n),
            pct(a.strict_rate),
            pct(a.partial_mean),
            str(a.customer_hindered),
            f"{pct(own.strict_rate)} ({own.n})",
            pct(own.partial_mean),
        )
    return table


def _count(c: FindingCount | None) -> str:
    if c is None or not c.found:
        return DASH
    return f"{c.found} ({c.critical} critical)" if c.critical else str(c.found)


def findings_table(section: CustomerReviewSection) -> Table:
    """The Customer's errors by kind: how many, how many critical, in how many units."""
    table = Table(title="the customer's errors (customer review)")
    for column in ("finding", "found", "critical", "units"):
        table.add_column(column, justify="left" if column == "finding" else "right")
    for kind, c in section.findings.items():
        table.add_row(kind, str(c.found), str(c.critical), str(c.units))
    if not section.findings:
        table.add_row("none", "0", "0", "0")
    return table


def by_scenario_table(section: CustomerReviewSection) -> Table | None:
    """Scenario x finding kind (None: no finding anywhere)."""
    if not section.by_scenario:
        return None
    kinds = list(section.findings)
    table = Table(title="customer findings per scenario")
    table.add_column("scenario", no_wrap=True)
    for kind in kinds:
        table.add_column(kind, justify="right")
    for scenario, counts in section.by_scenario.items():
        table.add_row(name_cell(scenario), *(_count(counts.get(k)) for k in kinds))
    return table


def personas_table(section: CustomerReviewSection) -> Table:
    """The persona measures, one row per persona, to read against its persona file."""
    table = Table(title="persona measures (means over each persona's units)")
    columns = (
        "persona",
        "units",
        "msgs",
        "words/msg",
        "volunteered",
        "gave up",
        "turns to give up",
    )
    for column in (*columns, "typo rate", "contradictions", "findings"):
        table.add_column(column, justify="left" if column in ("persona", "findings") else "right")
    for persona, m in section.personas.items():
        table.add_row(
            name_cell(persona),
            str(m.units),
            number(m.messages_mean, 1),
            number(m.words_per_message, 1),
            number(m.facts_volunteered_mean, 2),
            str(m.gave_up),
            number(m.turns_before_giving_up, 1),
            pct(m.typo_rate),
            number(m.contradictions_mean, 2),
            Text(", ".join(f"{k} {v}" for k, v in m.findings.items()) or DASH),
        )
    return table


def customer_tables(summary: Summary) -> list[Table | str]:
    """Every customer review table the summary has, in reading order, after a line that
    says how many units the Customer hindered."""
    out: list[Table | str] = [t for t in (attributable_table(summary),) if t is not None]
    if (section := summary.customer_review) is not None:
        # hindered units are scored ones: count them against the scored units, not
        # every reviewed one (an infra error is reviewed, never scored)
        scored = sum(a.n for a in summary.agents.values())
        out.append(
            f"customer review: {section.hindered} of {scored} scored units "
            "customer-hindered (counted in the raw figures, apart from the Agent's)"
        )
        out.append(findings_table(section))
        if (grid := by_scenario_table(section)) is not None:
            out.append(grid)
        out.append(personas_table(section))
    return out


def _rate_cells(rate: CustomerRate) -> list[str]:
    failures = ", ".join(f"{k} {v}" for k, v in rate.findings.items()) or DASH
    return [f"{rate.succeeded}/{rate.played}", pct(rate.rate), str(rate.not_counted), failures]


def customer_check_tables(check: CustomerCheck) -> list[Table]:
    """``validate --customer``: the Customer's success rate with the oracle per scenario,
    per persona, and its findings."""
    out = []
    for key, rows in (("scenario", check.by_scenario), ("persona", check.by_persona)):
        table = Table(title=f"customer {printable(check.customer)} with the oracle, per {key}")
        table.add_column(key, no_wrap=True)
        for column in ("succeeded", "rate", "not counted"):
            table.add_column(column, justify="right")
        table.add_column("failures (first critical finding)")
        for name, rate in rows.items():
            flag = (
                " (cannot play)" if key == "scenario" and rate.played and not rate.succeeded else ""
            )
            table.add_row(name_cell(f"{name}{flag}"), *_rate_cells(rate))
        out.append(table)
    if check.pushed_back is not None:
        table = Table(title="with a sloppy agent that only claims it is done: pushed back")
        table.add_column("scenario", no_wrap=True)
        for column in ("pushed back", "rate", "not counted"):
            table.add_column(column, justify="right")
        for name, rate in check.pushed_back_by_scenario.items():
            table.add_row(name_cell(name), *_rate_cells(rate)[:3])
        out.append(table)
    findings = Table(title="customer findings over every conversation")
    findings.add_column("finding")
    findings.add_column("found", justify="right")
    for kind, n in check.findings.items():
        findings.add_row(kind, str(n))
    if not check.findings:
        findings.add_row("none", "0")
    out.append(findings)
    return out


def customer_check_verdict(check: CustomerCheck) -> str:
    """The one line that ends ``validate --customer``."""
    overall = check.overall
    if not overall.played:
        return (
            f"customer {printable(check.customer)}: nothing measured: all "
            f"{overall.not_counted} conversations were provider or harness errors (none "
            "says anything of the Customer); fix the provider and run again"
        )
    line = (
        f"customer {printable(check.customer)}: the oracle succeeded in {overall.succeeded} of "
        f"{overall.played} conversations ({pct(overall.rate)})"
    )
    if overall.not_counted:
        line += f"; {overall.not_counted} not counted (provider or harness errors)"
    if check.unplayable:
        names = ", ".join(printable(s) for s in check.unplayable)
        line += f"; cannot play: {names}"
    if (pushed := check.pushed_back) is not None:
        line += (
            f"; with a sloppy agent it pushed back in {pushed.succeeded} of {pushed.played} "
            f"({pct(pushed.rate)})"
        )
    if check.threshold is not None:
        verdict = "passed" if check.passed else "FAILED"
        line += f"; threshold {pct(check.threshold)}: {verdict}"
    return line
